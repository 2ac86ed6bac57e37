//! The command line, as clap parses it: raw values only; the command modules check and run them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Zebra: the referee for Football Chess bots.
#[derive(Debug, Parser)]
#[command(
    name = "zebra",
    version,
    about,
    propagate_version = true,
    after_help = "\
Start with `zebra play`: a refereed game of the bundled greedy bot against the bundled
random bot, play by play. Then `zebra match --games 20` plays a series with statistics.

Examples:
  zebra play --white \"python3 my_bot.py\" --pgn game.pgn # your bot as White, its record kept
  zebra check-bot \"python3 my_bot.py\"                   # does a bot speak the protocol?
  zebra match --bot \"python3 my_bot.py\" --bot zebra-random-bot --games 20
  zebra view game.pgn                                   # watch a record in the browser
  zebra verify game.pgn                                 # replay a record through the rules

`zebra COMMAND --help` shows a command's flags and examples. The book: docs/src/ in the
repository (`mdbook build docs`); `zebra man --out DIR` writes the man pages."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one refereed game between two bot programs (default: the bundled greedy bot as
    /// White against the bundled random bot as Black).
    #[command(after_help = "\
Examples:
  zebra play                                         # greedy vs random, play by play
  zebra play --white \"python3 my_bot.py\" --pgn game.pgn
  zebra play --white human --black zebra-greedy-bot  # you play White in the browser
  zebra play --rules boyer-football --board          # another game, its board in the terminal
  zebra play --tc plays=10,play=500ms,reaction=50ms --seed 7 --quiet")]
    Play(PlayArgs),
    /// Play a series of games between two or more bots: pairs with the same seed and sides
    /// swapped, several games at once, statistics with Elo, LOS, pentanomial counts and an
    /// optional SPRT; every game appended to a PGN file and fsynced; resumable.
    #[command(after_help = "\
Examples:
  zebra match --games 20                             # greedy vs random, 10 pairs
  zebra match --bot \"python3 my_bot.py\" --bot zebra-random-bot --games 20 --out vs-random
  zebra match --bot new=./new --bot old=./old --games 1000 --concurrency 2 --sprt elo0=0,elo1=10
  zebra match --resume vs-random                     # go on after an interruption")]
    Match(MatchArgs),
    /// Put the shards of one series (`zebra match --shard K/N`, played on any machines)
    /// back together: every shard of the same series, each once, every game once; writes
    /// the series' directory (games in game order, events, statistics) and each shard's
    /// figures, flagging a shard whose score stands out.
    #[command(after_help = "\
Examples:
  zebra match --bot a=./a --bot b=./b --games 800 --shard 3/8 --out series
  zebra merge series --out merged                    # once every shard is done
  zebra merge series --status                        # how far the shards are")]
    Merge(MergeArgs),
    /// Run the competition daemon: a queue of series played by workers, an HTTP API,
    /// tokens and bots registered here (the book's "Running a competition").
    #[command(after_help = "\
Examples:
  zebra serve --data zebra-data                      # on 127.0.0.1:8080, the store in zebra-data
  zebra serve --config serve.toml --check-config     # check a settings file and stop
  zebra serve --database postgres://zebra:secret@db:5432/zebra --data /shared/zebra")]
    Serve(ServeArgs),
    /// Lend this machine's cores to a `zebra serve` daemon: lease its games over HTTP, play
    /// each inside the strict sandbox, report the records (the book's "Remote workers").
    #[command(after_help = "\
Example:
  zebra worker --server https://zebra.example.org --token-file worker.token --concurrency 4")]
    Worker(WorkerArgs),
    /// Show how bots would be contained on this machine: namespaces, cgroups (v1 or v2,
    /// per controller), the default limits, and what `--sandbox strict` needs.
    Doctor(DoctorArgs),
    /// Check a bot against the protocol: handshake, every kind of decision as White and as
    /// Black, ping, game end and quit; every problem in plain words.
    #[command(after_help = "\
Examples:
  zebra check-bot \"python3 my_bot.py\"
  zebra check-bot --rules boyer-football ./my-bot --decision-ms 200

A bot writes protocol lines, and only them, to stdout; logs and debug text go to stderr.")]
    CheckBot(CheckBotArgs),
    /// Watch recorded games: serve the viewer on 127.0.0.1 and print its address, write it
    /// with the record's games inlined (--html: one self-contained file that opens from disk
    /// with no server), or print the field play by play in the terminal (--board).
    #[command(after_help = "\
Examples:
  zebra view game.pgn                                # the viewer on 127.0.0.1, its address printed
  zebra view series/games.pgn --game 7 --board       # game 7 in the terminal
  zebra view game.pgn --html game.html               # one file that opens from disk")]
    View(ViewArgs),
    /// The human seat's relay, started by the referee as that side's bot (see
    /// crates/server/src/web/seat.rs); not for people to run.
    #[command(hide = true)]
    SeatRelay(SeatRelayArgs),
    /// Verify game records: replay every action of every game through the engine.
    #[command(after_help = "\
Example:
  zebra verify series/games.pgn             # each game as its Variant tag says")]
    Verify(VerifyArgs),
    /// Play one whole game between two seeded random players inside the engine (no bot
    /// processes) and print it play by play.
    #[command(after_help = "\
Example:
  zebra demo --seed 3 --quiet                        # the final line only")]
    Demo(DemoArgs),
    /// Count legal action sequences from a position to a depth (perft); for
    /// boyer-football, whole turns; for chess-eleven, decisions of a round in play.
    #[command(after_help = "\
Examples:
  zebra perft --depth 3
  zebra perft --rules boyer-football --depth 2 --divide")]
    Perft(PerftArgs),
    /// Benchmarks: `engine` (seeded random playouts on one core, the default), `movegen`
    /// (legal-action generation alone), `referee` (the referee's own cost per decision,
    /// with two instant bots, against a bare pipe ping-pong, in protocol versions 1 and 2),
    /// `match` (games per second of a series of instant bots at concurrency 1 and 2),
    /// `flood` (Zebra's peak memory while four games at once face bots that flood stdout and
    /// stderr) or `serve` (the daemon's games per second against `zebra match`'s).
    #[command(after_help = "\
Examples:
  zebra bench                                        # the engine: seeded random playouts
  zebra bench referee                                # the referee's cost per decision
  zebra bench match --json")]
    Bench(BenchArgs),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell), made
    /// from the same definitions as `--help`: `source <(zebra completions bash)`, or
    /// `zebra completions zsh > ~/.zfunc/_zebra`.
    Completions(CompletionsArgs),
    /// Write the man pages (zebra.1 and one zebra-COMMAND.1 per command) into a directory,
    /// made from the same definitions as `--help`: `man -l DIR/zebra-play.1`, or copy them
    /// to /usr/local/share/man/man1.
    Man(ManArgs),
}

/// Zebra's command line as clap builds it: the one definition behind parsing, `--help`,
/// the completion scripts, the man pages and the book's command reference. A flag that
/// takes a value takes a negative number too (`--games -2` is then a bad number of games,
/// reported as such, not an unknown flag `-2`).
pub fn command() -> clap::Command {
    fn numbers(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|arg| {
            if arg.get_action().takes_values() && !arg.is_positional() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(numbers)
    }
    numbers(<Cli as clap::CommandFactory>::command())
}

impl Cli {
    /// The command line of this process, parsed by [`command`].
    pub fn from_env() -> Result<Cli, clap::Error> {
        Self::from_args(std::env::args_os())
    }

    /// `args` (the program's name first), parsed by [`command`].
    pub fn from_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut cmd = command();
        let matches = cmd.try_get_matches_from_mut(args)?;
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
    }
}

/// clap's rendered error as one line: its first line (with the list it announces, as in
/// "the following required arguments were not provided: <FILES>..."), then its tips ("a
/// similar argument exists: '--games'"), then the help to read: that of the command its
/// usage line names, else of `command` (the subcommand on the command line), else zebra's.
pub fn usage_line(rendered: &str, command: Option<&str>) -> String {
    let lines: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let first = lines.first().copied().unwrap_or("bad usage");
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut help = match command {
        Some(name) => format!("zebra {name} --help"),
        None => "zebra --help".to_string(),
    };
    let mut listing = line.ends_with(':');
    for l in lines.iter().skip(1) {
        if let Some(tip) = l.strip_prefix("tip: ") {
            listing = false;
            line.push_str("; ");
            line.push_str(tip);
        } else if let Some(usage) = l.strip_prefix("Usage: ") {
            listing = false;
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect();
            if !words.is_empty() {
                help = format!("{} --help", words.join(" "));
            }
        } else if listing {
            line.push(' ');
            line.push_str(l);
        }
    }
    format!("{line} (see '{help}')")
}

/// The command named on a command line (`args` without the program's name), nested ones
/// included: `serve bot add` for `zebra serve bot add greedy -- ./greedy`.
pub fn subcommand_of(args: &[std::ffi::OsString]) -> Option<String> {
    let mut cmd = command();
    let mut path = Vec::new();
    for arg in args {
        let Some(word) = arg.to_str() else { continue };
        let Some(sub) = cmd.find_subcommand(word).cloned() else {
            continue;
        };
        path.push(word.to_string());
        cmd = sub;
    }
    (!path.is_empty()).then(|| path.join(" "))
}

/// `zebra man`: where the pages go.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// The directory to write the pages into (made if missing).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
}

/// `zebra completions`: the shell.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell whose script to print.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `zebra merge`: shard directories and where the merged series goes.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// Shard directories (each holds series.json), or the directory holding them (the
    /// --out every shard shared).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged series' directory (new).
    #[arg(long, value_name = "DIR", required_unless_present = "status")]
    pub out: Option<PathBuf>,
    /// Only say how far the sharded series is: each shard's games against its block, the
    /// shards not started (reads only; shards may still be running).
    #[arg(long, conflicts_with = "out")]
    pub status: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `zebra worker`: the daemon it works for, and how.
#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The daemon's address, e.g. https://zebra.example.org or http://10.0.0.5:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// A file holding the worker's token (scope worker; an admin makes it with 'zebra
    /// serve token create --scope worker --owner NAME'); else ZEBRA_WORKER_TOKEN. Never on
    /// the command line, where every user of the machine sees it.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Games played at once (default 1; at most the machine's cores, as for zebra match).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// This worker's name on the daemon, after its token's owner (default: the host name).
    #[arg(long)]
    pub name: Option<String>,
    /// Where downloaded bots and failed games' logs are kept (default:
    /// $XDG_CACHE_HOME/zebra-worker, or ~/.cache/zebra-worker).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// This machine has the programs of the bots the admin registered by path at the same
    /// paths (the same installation): it plays their games too, not only uploaded bots'.
    #[arg(long)]
    pub same_programs: bool,
    /// A PEM certificate to trust for an https server (a self-signed one).
    #[arg(long, value_name = "FILE")]
    pub ca_cert: Option<PathBuf>,
    /// Seconds the running games have to finish once the worker is asked to stop; then
    /// they are given back and played again elsewhere (default 60).
    #[arg(long, value_name = "SECONDS")]
    pub grace: Option<u64>,
}

/// `zebra play`: one game's flags, raw (checked in `cli::play`).
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The White bot's command line (program and arguments, split as a shell would:
    /// quote a path with spaces, 'my bots/run.sh'; nothing is expanded), or
    /// `human`: a person plays White in the viewer (implies --watch).
    #[arg(long)]
    pub white: Option<String>,
    /// The Black bot's command line, or `human`.
    #[arg(long)]
    pub black: Option<String>,
    /// The White bot's name in records (default: the name the bot gives in its `ready`).
    #[arg(long)]
    pub white_name: Option<String>,
    /// The Black bot's name in records (default: the name the bot gives in its `ready`).
    #[arg(long)]
    pub black_name: Option<String>,
    /// An option for the White bot, NAME=VALUE (repeatable).
    #[arg(long = "white-option", value_name = "NAME=VALUE")]
    pub white_options: Vec<String>,
    /// An option for the Black bot, NAME=VALUE (repeatable).
    #[arg(long = "black-option", value_name = "NAME=VALUE")]
    pub black_options: Vec<String>,
    /// The game: football-chess (the default), boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// Time control: blitz, standard, unlimited, or items such as
    /// quarter=20s,play=2s,reaction=500ms or plays=10,play=5s,reaction=1s (the
    /// default; with a human seat plays=10,play=60s,reaction=30s). boyer-football:
    /// a chess clock, rapid (the default, bank=60s,inc=1s; with a human seat
    /// turn=120s), blitz, or items such as bank=30s,inc=500ms or turn=2s.
    /// chess-eleven: items turns=N (goes per half) or half=DURATION, goals=N, cap=N,
    /// move=DURATION, formation=DURATION (default turns=40,move=5s,formation=20s).
    #[arg(long)]
    pub tc: Option<String>,
    /// The game's seed, sent to both bots.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from this position instead of the game's usual start (one argument, quoted):
    /// football-chess a situation (protocol/SITUATIONS.md), boyer-football a FEN
    /// (protocol/BOYER.md), chess-eleven a position text (protocol/CHESS-ELEVEN.md, C53).
    #[arg(long, value_name = "TEXT")]
    pub start: Option<String>,
    /// Append the game record to this file (PGN-style, see protocol/RECORD.md).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write the protocol transcript of the game into this directory.
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
    /// Invalid or illegal replies a bot may send before it forfeits.
    #[arg(long, default_value_t = 3)]
    pub max_illegal: u32,
    /// Wall-time cap of the game: a duration (25m, 90s) or none. A game that reaches
    /// it is stopped, even mid-decision, and adjudicated (Football Chess: the team
    /// ahead on score wins, a tie is a draw; Boyer's Football: a draw). Default: twice
    /// the most the time control lets one game take, plus a minute.
    #[arg(long, value_name = "DURATION|none")]
    pub max_game_time: Option<String>,
    /// Print only the result line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the game play by play: each play's (turn's) header, every action in plain
    /// English, and the field as the play ends (glyphs and colours on a terminal, plain
    /// ASCII otherwise).
    #[arg(long, conflicts_with = "quiet")]
    pub board: bool,
    /// Where the game runs: auto (its referee and both bots on one CPU, when freeze-idle is
    /// on and there are two CPUs or more), game (the same, always), bots (White's and
    /// Black's bot on two CPUs of their own; bare --affinity) or none.
    #[arg(long, value_name = "MODE", default_value = "auto", num_args = 0..=1, default_missing_value = "bots", value_parser = parse_affinity)]
    pub affinity: crate::series::placement::Affinity,
    #[command(flatten)]
    pub watch: WatchArgs,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// `zebra doctor`'s flags.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `zebra check-bot`: the bot and how it is questioned, raw (checked in `cli::check_bot`).
#[derive(Debug, clap::Args)]
pub struct CheckBotArgs {
    /// The bot's command line, one argument: program and arguments, split as a shell
    /// would ("'my bots/run.sh' --fast"; quotes keep spaces, nothing is expanded).
    pub command: String,
    /// The game: football-chess (the default), boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// Time the bot has for each decision, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub decision_ms: u64,
    /// Whole games to play against the bundled random bot after the questions, sides
    /// alternating (White first); every problem in them is reported with its decision.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
}

/// `zebra view`: the record file and how to show it, raw (checked in `cli::view`).
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A record file (one or more games, e.g. a series' games.pgn).
    pub file: PathBuf,
    /// Only this game of the file (1 = the first).
    #[arg(long)]
    pub game: Option<usize>,
    /// Write the page to this file.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Print the field as every play ended, in this terminal (glyphs and colours on a
    /// terminal, plain ASCII otherwise).
    #[arg(long)]
    pub board: bool,
    /// Without --html or --board the page is served: on this address (default
    /// 127.0.0.1 and a free port; the server binds to loopback unless told otherwise).
    #[arg(long, value_name = "ADDR", conflicts_with_all = ["html", "board"])]
    pub listen: Option<String>,
}

/// `zebra seat-relay`: where the human seat's desk is, and the token it takes.
#[derive(Debug, clap::Args)]
pub struct SeatRelayArgs {
    pub addr: String,
    pub token: String,
}

/// `zebra verify`: the record file, raw (checked in `cli::verify`).
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A record file (one or more games).
    pub file: PathBuf,
    /// The game the records must be (football-chess, boyer-football or chess-eleven); by default
    /// each game is replayed as its Variant tag says.
    #[arg(long)]
    pub rules: Option<String>,
}

/// `zebra demo`: the random game's flags, raw (checked in `cli::demo`).
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// The game: football-chess (the default), boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// Seed of the random players (same seed, same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plays per quarter (quarters measured in plays, rule R18).
    #[arg(long, default_value_t = 10)]
    pub plays_per_quarter: u16,
    /// Print only the final line.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `zebra perft`: the position and depth, raw (checked in `cli::perft`).
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The game: football-chess, boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// A built-in position (football-chess: shotgun, scramble, motion; boyer-football:
    /// start, the default; chess-eleven: kickoff, the default) or boyer-football: a FEN,
    /// chess-eleven: a position text (protocol/CHESS-ELEVEN.md, C53).
    #[arg(long, conflicts_with = "diagram")]
    pub position: Option<String>,
    /// A file holding a position: football-chess a diagram (see protocol/RULES.md,
    /// "Diagrams"), boyer-football a FEN, chess-eleven a position text.
    #[arg(long)]
    pub diagram: Option<PathBuf>,
    /// Number of actions (boyer-football: whole turns; chess-eleven: decisions).
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Print the count below each legal action.
    #[arg(long)]
    pub divide: bool,
}

/// `zebra bench`: what to measure and how, raw (checked in `cli::bench`).
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[arg(value_enum, default_value = "engine")]
    pub target: BenchTarget,
    /// The game of `engine` and `movegen`: football-chess (the default),
    /// boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plays per quarter.
    #[arg(long, default_value_t = 10)]
    pub plays_per_quarter: u16,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// movegen: how many times each collected position is generated.
    #[arg(long, default_value_t = 20)]
    pub rounds: u32,
    /// referee: shared (all on one CPU, where `zebra match --affinity auto` puts a game;
    /// the default), split (the referee on one CPU, the bots and the baseline's cat on
    /// another) or free (not pinned).
    #[arg(long, value_enum)]
    pub layout: Option<crate::bench::Layout>,
    /// match: also run every level with this browser (e.g. chromium) watching the
    /// series live through --watch's viewer, and report the cost against the runs
    /// without it (alternated, in the same invocation).
    #[arg(long, value_name = "PROGRAM")]
    pub watch_with: Option<String>,
    /// match with --watch-with: plain and watched runs per level, each (alternated;
    /// the medians are compared).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub repeat: u32,
    /// serve: also run the daemon on PostgreSQL, alternated with the SQLite runs: a URL of
    /// a server where the benchmark may create (and then drops) databases of its own,
    /// postgres://USER@HOST:PORT/DB.
    #[arg(long, value_name = "URL")]
    pub postgres: Option<String>,
    /// match: where the games at once run, as `zebra match --affinity` (auto, game, bots
    /// or none).
    #[arg(long, value_name = "MODE", default_value = "auto", value_parser = parse_affinity)]
    pub affinity: crate::series::placement::Affinity,
}

/// `zebra match`: the series' flags, raw (checked in `cli::match` and `series::setup`).
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// A bot, NAME=COMMAND (program and arguments split as a shell would: quotes keep
    /// spaces, nothing is expanded; repeatable). Default: the
    /// bundled greedy and random bots.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// A TOML (or .json) file naming bots: command, args, dir, env, options, time odds.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// round-robin (every bot against every other; two bots: a head-to-head match) or
    /// gauntlet (the first bot against each of the others).
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Games per encounter (two bots: the whole match); even, since games come in pairs.
    /// Default 20. With --resume, a larger number extends the series by more pairs.
    #[arg(long)]
    pub games: Option<u32>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Where the games at once run: auto (each game's referee and both bots on one CPU of
    /// its own, when freeze-idle is on and there is a CPU per game), game (the same,
    /// always), bots (White's and Black's bot on two CPUs of their own; bare --affinity) or
    /// none (bots that use several CPUs each). Too few CPUs: a warning, nothing pinned.
    #[arg(long, value_name = "MODE", default_value = "auto", num_args = 0..=1, default_missing_value = "bots", value_parser = parse_affinity)]
    pub affinity: crate::series::placement::Affinity,
    /// The game: football-chess (the default), boyer-football or chess-eleven.
    #[arg(long, default_value = "football-chess")]
    pub rules: String,
    /// Time control, as for `zebra play` (default plays=10,play=5s,reaction=1s;
    /// boyer-football: the chess clock rapid; chess-eleven: turns=40,move=5s,formation=20s).
    #[arg(long)]
    pub tc: Option<String>,
    /// Seed of the first pair; pair k of every encounter plays seed + k - 1.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop early on a sequential probability ratio test: elo0=0,elo1=10,alpha=0.05,beta=0.05
    /// (two bots, or a gauntlet with one SPRT per opponent; H1: the first bot is stronger by
    /// elo1).
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    pub sprt: Option<String>,
    /// Invalid or illegal replies a bot may send before it forfeits a game.
    #[arg(long, default_value_t = 3)]
    pub max_illegal: u32,
    /// Wall-time cap of each game: a duration (25m, 90s) or none. A game that reaches it
    /// is stopped, even mid-decision, and adjudicated (Football Chess: the team ahead on
    /// score wins, a tie is a draw; Boyer's Football: a draw). Default: twice the most the
    /// time control lets one game take, plus a minute.
    #[arg(long, value_name = "DURATION|none")]
    pub max_game_time: Option<String>,
    /// The directory for this series: series.json (for --resume), games.pgn, events.jsonl.
    /// Default: a new zebra-series-<date>-<time> directory here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Append every game here instead of DIR/games.pgn.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Where the series' JSON-lines event stream (a file) goes, instead of
    /// DIR/events.jsonl. Not --event, which names the records' Event tag.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// Keep every game's protocol transcript and the bots' stderr in this directory.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Keep transcripts only of games that ended by forfeit or had a timeout or an illegal
    /// reply (in --log-dir, default DIR/logs).
    #[arg(long)]
    pub log_failures: bool,
    /// The records' PGN Event tag (a name such as "Spring cup"). Not --events, which
    /// names the event stream's file.
    #[arg(long, default_value = "Zebra match")]
    pub event: String,
    /// Void and replay (same seed and sides) every game in which a bot had a suspect
    /// timeout (it used less than half the wall time in CPU: the machine may have been too
    /// busy), at most 3 attempts per game; voided attempts go to DIR/voided.pgn.
    #[arg(long)]
    pub replay_suspect: bool,
    /// Time odds for one bot, NAME=ODDS (`--odds greedy=play=2s,reaction=500ms`;
    /// repeatable): that bot's own play and reaction clocks, as `time` in a config file.
    #[arg(long = "odds", value_name = "NAME=ODDS")]
    pub odds: Vec<String>,
    /// The start situations pairs play (protocol/SITUATIONS.md): `builtin` (Zebra's book of
    /// 520), a book FILE (one situation per line), or `none` (every game from the opening
    /// drive). Each pair plays one situation with sides swapped. Default builtin
    /// (boyer-football, chess-eleven: none, every game from the start position).
    #[arg(long, value_name = "FILE|builtin|none")]
    pub situations: Option<String>,
    /// How pairs take their situations from the book: `random` (a shuffle seeded by
    /// --seed) or `sequential` (in the book's order); pair k of every encounter takes the
    /// same one.
    #[arg(long, value_name = "ORDER", default_value = "random")]
    pub situation_order: String,
    /// Play only shard K of N of the series (whole pairs, a block of game numbers; every
    /// game as in the whole series) into --out DIR/shard-K-of-N; run again, it continues
    /// its own games. `zebra merge DIR` puts the shards together.
    #[arg(long, value_name = "K/N", conflicts_with = "shards")]
    pub shard: Option<String>,
    /// As --shard K/N, K from the batch system: JOB_COMPLETION_INDEX (a Kubernetes
    /// Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm array), counted from 0.
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Continue the series saved in DIR: play exactly the games its PGN lacks (with
    /// --games, a larger number of games per encounter first extends it).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["bots", "config", "format", "rules", "tc", "seed", "sprt", "max_illegal", "max_game_time", "out", "pgn", "events", "log_dir", "log_failures", "event", "sandbox", "freeze_idle", "memory_limit", "process_limit", "cpu_limit", "file_limit", "disk_limit", "open_files", "network", "replay_suspect", "situations", "situation_order", "odds", "shard", "shards"])]
    pub resume: Option<PathBuf>,
    /// Print the final summary as one JSON object (progress stays on stderr).
    #[arg(long)]
    pub json: bool,
    /// No per-game lines.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub watch: WatchArgs,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

/// `zebra serve`: the daemon's flags, or one of its admin commands.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
    /// The data directory: database, records, logs (default ./zebra-data).
    #[arg(long, value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    /// The database: `sqlite` (the default: a file in --data) or a PostgreSQL URL,
    /// postgres://USER:PASSWORD@HOST:PORT/DB, that several daemons share (with --data on a
    /// directory they all reach).
    #[arg(long, value_name = "URL", global = true)]
    pub database: Option<String>,
    /// A TOML file of settings (listen, data, concurrency, public_read, sandbox...).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// The address to listen on (default 127.0.0.1:8080).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// Games played at once (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// HTTPS: the server's certificate chain, a PEM file (with --tls-key).
    #[arg(long, value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,
    /// HTTPS: the private key of --tls-cert, a PEM file.
    #[arg(long, value_name = "FILE")]
    pub tls_key: Option<PathBuf>,
    /// Check the settings and the data directory, print them, and exit.
    #[arg(long)]
    pub check_config: bool,
}

/// `zebra serve bot|token ...`: run on the server's own machine, never over the network.
#[derive(Debug, Subcommand)]
pub enum ServeCommand {
    /// Register, list or change bots.
    #[command(subcommand)]
    Bot(BotCommand),
    /// Create API tokens.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Make or list invite codes: each lets entrants sign up (/signup) for a submit token.
    #[command(subcommand)]
    Invite(InviteCommand),
}

#[derive(Debug, Subcommand)]
pub enum InviteCommand {
    /// Make an invite code and print it (shown once; only its hash is stored).
    Create {
        /// How many entrants may sign up with it (1 to 10000).
        #[arg(long, default_value_t = 1)]
        uses: u32,
        /// How long it is good for: 7d, 36h, or none (default 14d).
        #[arg(long, value_name = "DURATION")]
        expires: Option<String>,
        /// A note for yourself (whom it was for), shown by `invite list`.
        #[arg(long, default_value = "")]
        note: String,
    },
    /// List the invite codes made (never the codes): uses left, expiry, who signed up.
    List,
    /// Revoke an invite code by its id (from `invite list`): no more sign-ups with it; the
    /// entrants who signed up with it keep their tokens.
    Revoke {
        /// The invite's id.
        id: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum BotCommand {
    /// Register a bot: `zebra serve bot add NAME -- PROGRAM [ARGS...]`, or every bot of a
    /// file (`--from bots.toml`, the [[bot]] tables of `zebra match --config`). It plays
    /// once the daemon has checked it.
    Add {
        /// The bot's name in records and standings. A name its owner registered before
        /// makes the next version (NAME v2, NAME v3...); the last retires from the ladder
        /// once the new one passes its check.
        #[arg(required_unless_present = "from")]
        name: Option<String>,
        /// The program and its arguments, after `--` (no splitting, no quoting needed).
        #[arg(last = true)]
        command: Vec<String>,
        /// Register the bots of this TOML or JSON file.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["name", "command"])]
        from: Option<PathBuf>,
        /// The bot's working directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// An environment variable, NAME=VALUE (repeatable).
        #[arg(long = "env", value_name = "NAME=VALUE")]
        env: Vec<String>,
        /// An option value sent in game_start, NAME=VALUE (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Time odds: play=2s,reaction=500ms.
        #[arg(long, value_name = "ODDS")]
        time: Option<String>,
        /// Who owns it (sees its check report and logs): a token owner's name.
        #[arg(long, default_value = "admin")]
        owner: String,
    },
    /// List the bots with their state.
    List,
    /// Make a suspended or rejected bot active again (it is not checked again).
    Activate { id: i64 },
    /// Stop a bot from playing: its queued games wait.
    Suspend { id: i64 },
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a token and print it (shown once; only its hash is stored).
    Create {
        /// read (pages, results), submit (also series), or admin (also everyone's bots).
        #[arg(long)]
        scope: String,
        /// Whose token it is: owns the series it submits.
        #[arg(long, default_value = "admin")]
        owner: String,
    },
}

/// `--watch`: follow the games in a browser as they are played.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct WatchArgs {
    /// Serve the viewer and follow the games live in a browser: the address is printed;
    /// after the end it stays up until Ctrl-C.
    #[arg(long)]
    pub watch: bool,
    /// The viewer's address (implies --watch; default 127.0.0.1 and a free port: loopback
    /// unless told otherwise).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
}

/// How bots are contained: level and limits for every bot (a bot's config keys override
/// the limits for that bot). See the book's "Limits, verdicts and freeze-idle" (docs/src/operators/limits.md).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct SandboxArgs {
    /// auto (the best this machine allows, recorded in every record), strict (refuse to
    /// start unless memory limits, process containment and no network all hold) or none
    /// (process group only, for debugging).
    #[arg(long, value_name = "auto|strict|none", default_value = "auto")]
    pub sandbox: String,
    /// Stop each bot's whole process tree while it is not its turn, so that it cannot take
    /// CPU from its opponent (this forbids thinking on the opponent's time).
    #[arg(long, value_name = "on|off", default_value = "on")]
    pub freeze_idle: String,
    /// Memory of each bot's processes together: 512M, 2G, none (default 1G).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,
    /// Processes and threads each bot may run at once, or none (default 64).
    #[arg(long, value_name = "N")]
    pub process_limit: Option<String>,
    /// CPU time each bot may use in a game, a backstop far above the clocks: 90s, 10m, 1h,
    /// none (default 1h).
    #[arg(long, value_name = "DURATION")]
    pub cpu_limit: Option<String>,
    /// Size of any file a bot writes, or none (default 64M).
    #[arg(long, value_name = "SIZE")]
    pub file_limit: Option<String>,
    /// All of a bot's files together: the size of its private /tmp, the one place it may
    /// write (default 256M; none: twice --file-limit, or 256M).
    #[arg(long, value_name = "SIZE")]
    pub disk_limit: Option<String>,
    /// Open files per bot process, or none (default 256).
    #[arg(long, value_name = "N")]
    pub open_files: Option<String>,
    /// Let bots reach the network (default: a network namespace of their own, loopback
    /// only).
    #[arg(long)]
    pub network: bool,
}

impl SandboxArgs {
    /// The limits given by flags, unparsed (checked with each bot's own).
    pub fn limits(&self) -> crate::sandbox::LimitSettings {
        crate::sandbox::LimitSettings {
            memory: self.memory_limit.clone(),
            processes: self.process_limit.clone(),
            cpu: self.cpu_limit.clone(),
            file_size: self.file_limit.clone(),
            disk: self.disk_limit.clone(),
            open_files: self.open_files.clone(),
            network: self.network.then_some(true),
        }
    }
}

impl MatchArgs {
    /// What the series' setup reads of these flags ([`crate::series::setup::prepare`]).
    pub fn request(&self) -> crate::series::setup::MatchRequest {
        crate::series::setup::MatchRequest {
            resume: self.resume.clone(),
            bots: self.bots.clone(),
            config: self.config.clone(),
            format: self.format.clone(),
            games: self.games,
            rules: self.rules.clone(),
            tc: self.tc.clone(),
            seed: self.seed,
            sprt: self.sprt.clone(),
            max_illegal: self.max_illegal,
            max_game_time: self.max_game_time.clone(),
            out: self.out.clone(),
            pgn: self.pgn.clone(),
            events: self.events.clone(),
            log_dir: self.log_dir.clone(),
            log_failures: self.log_failures,
            event: self.event.clone(),
            replay_suspect: self.replay_suspect,
            odds: self.odds.clone(),
            situations: self.situations.clone(),
            situation_order: self.situation_order.clone(),
            sandbox: self.sandbox.sandbox.clone(),
            freeze_idle: self.sandbox.freeze_idle.clone(),
            limits: self.sandbox.limits(),
            shard: self.shard.clone(),
            shards: self.shards,
        }
    }
}

/// What `zebra bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchTarget {
    Engine,
    Movegen,
    Referee,
    Match,
    Flood,
    Serve,
}

/// `--affinity MODE`, checked when the flags are read.
fn parse_affinity(text: &str) -> Result<crate::series::placement::Affinity, String> {
    crate::series::placement::Affinity::parse(text)
}
