//! The `zebra` binary: parse flags, validate them once, run, and map failures to one
//! readable line and an exit code (0 success, 1 failure, 2 bad usage).

use std::process::ExitCode;

/// Prints a line to stdout; a closed stdout (`zebra play | head`) is not an error worth a
/// panic: the output is simply no longer wanted.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use clap::Parser;

use std::io::Write;
use std::path::{Path, PathBuf};
use zebra::cli::{BenchTarget, Cli, Command};
use zebra::rules::perft::{self, perft};
use zebra::rules::playout::play_random_game;
use zebra::rules::Rules;

use zebra::bot::BotSpec;
use zebra::record::{write_game, GameReader, Termination};
use zebra::referee::check::{check_bot_for, CheckLimits};
use zebra::referee::preflight::{preflight, PreflightError};
use zebra::referee::{GameConfig, Referee};
use zebra::rules::{Event, Game, Settings, Side};
use zebra::series::disk::DiskError;
use zebra::series::setup::{prepare, SetupError};
use zebra::series::{RunOptions, SeriesEnd, Summary};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("zebra: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Run(msg)) => {
            eprintln!("zebra: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Forfeit) => ExitCode::from(3),
        Err(Failure::BotProblems) => ExitCode::from(4),
        Err(Failure::Series(end)) => ExitCode::from(match end {
            SeriesEnd::H0Accepted => 5,
            SeriesEnd::Inconclusive => 6,
            SeriesEnd::Interrupted => 130,
            SeriesEnd::Completed | SeriesEnd::H1Accepted => 0,
        }),
        Err(Failure::Interrupted) => {
            eprintln!("zebra: interrupted; every bot was stopped");
            ExitCode::from(130)
        }
    }
}

/// clap's own errors as the one `zebra:` line every other usage error is; `--help` and
/// `--version` print as clap prints them.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
    }
    let text = e.render().to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("bad usage");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    eprintln!("zebra: {first} (see 'zebra --help')");
    ExitCode::from(2)
}

enum Failure {
    Usage(String),
    Run(String),
    /// The game was played but ended by forfeit (already reported on stdout).
    Forfeit,
    /// check-bot found problems (already reported on stdout).
    BotProblems,
    /// The user interrupted the work; every bot was stopped.
    Interrupted,
    /// A series ended in a way scripts branch on (already reported).
    Series(SeriesEnd),
}

/// `--rules NAME`, validated.
fn rules_flag(name: &str) -> Result<Rules, Failure> {
    name.parse::<Rules>()
        .map_err(|e| Failure::Usage(format!("--rules: {e}")))
}

/// `zebra perft --rules boyer-football`: whole turns from a FEN (default the start).
fn boyer_perft(fen: Option<&str>, diagram: bool, depth: u32, divide: bool) -> Result<(), Failure> {
    use zebra::rules::boyer;
    if diagram {
        return Err(Failure::Usage(
            "--diagram is for football-chess; give a Boyer position as --position FEN".into(),
        ));
    }
    let pos = match fen {
        None => boyer::Position::start(),
        Some(text) => text
            .parse::<boyer::Position>()
            .map_err(|e| Failure::Usage(format!("--position: {e}")))?,
    };
    if !pos.at_turn_start() {
        return Err(Failure::Usage(
            "--position: perft counts whole turns; give a position between turns".into(),
        ));
    }
    if depth > 5 {
        return Err(Failure::Usage(format!(
            "--depth {depth} is too deep; use 5 or less"
        )));
    }
    if divide {
        print_divide(boyer::divide(&pos, depth));
    } else {
        out!("{}", boyer::perft(&pos, depth));
    }
    Ok(())
}

/// `perft --divide`: each first action with its count, then the total on the last line.
fn print_divide<A: std::fmt::Display>(split: Vec<(A, u64)>) {
    let mut total = 0;
    for (action, n) in split {
        out!("{action} {n}");
        total += n;
    }
    out!("total {total}");
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Demo {
            rules,
            seed,
            plays_per_quarter,
            quiet,
        } => {
            if rules_flag(&rules)? == Rules::BoyerFootball {
                boyer_demo(seed, quiet);
                return Ok(());
            }
            if plays_per_quarter == 0 {
                return Err(Failure::Usage(
                    "--plays-per-quarter must be at least 1".into(),
                ));
            }
            demo(seed, plays_per_quarter, quiet);
            Ok(())
        }
        Command::Play {
            rules,
            white,
            black,
            white_name,
            black_name,
            white_options,
            black_options,
            tc,
            seed,
            pgn,
            log_dir,
            max_illegal,
            max_game_time,
            quiet,
            board,
            watch,
            sandbox,
        } => {
            let rules = rules_flag(&rules)?;
            // A person at the viewer: that side's "bot" is the seat's relay (see web::seat).
            let human = match (white.as_deref(), black.as_deref()) {
                (Some(HUMAN), Some(HUMAN)) => {
                    return Err(Failure::Usage(
                        "--white human --black human: a human seat plays against a bot; give the other side a bot's command".into(),
                    ))
                }
                (Some(HUMAN), _) => Some(Side::White),
                (_, Some(HUMAN)) => Some(Side::Black),
                _ => None,
            };
            if let Some(side) = human {
                let given = match side {
                    Side::White => &white_options,
                    Side::Black => &black_options,
                };
                if !given.is_empty() {
                    return Err(Failure::Usage(format!(
                        "--{side}-option: the human seat takes no options"
                    )));
                }
            }
            // The game's own clock: Football Chess's time control or a chess clock.
            let mut clock = GameConfig {
                rules,
                ..GameConfig::default()
            };
            let tc_text = tc.unwrap_or_else(|| {
                if human.is_some() {
                    zebra::web::seat::human_clock(rules)
                } else {
                    GameConfig::default_clock(rules)
                }
                .to_string()
            });
            clock
                .read_clock(&tc_text)
                .map_err(|e| Failure::Usage(format!("--tc: {e}")))?;
            if let Some(text) = &max_game_time {
                clock.max_game_time = text
                    .parse()
                    .map_err(|e| Failure::Usage(format!("--max-game-time: {e}")))?;
            }
            let listener = bind_watch(&watch, human.is_some())?;
            let settings = zebra::sandbox::Settings::from_flags(
                &sandbox.sandbox,
                &sandbox.freeze_idle,
                zebra::series::setup::limit_flags(&sandbox),
            )
            .map_err(Failure::Usage)?;
            let limits = settings
                .limits_for(&zebra::sandbox::LimitSettings::default())
                .map_err(Failure::Usage)?;
            if max_illegal == 0 {
                return Err(Failure::Usage("--max-illegal must be at least 1".into()));
            }
            let named = [white_name.is_some(), black_name.is_some()];
            let white = bot_spec(
                "white",
                white.as_deref(),
                white_name,
                &white_options,
                "zebra-greedy-bot",
            )?;
            let black = bot_spec(
                "black",
                black.as_deref(),
                black_name,
                &black_options,
                "zebra-random-bot",
            )?;
            let (mut white, mut black) = (white, black);
            white.limits = limits;
            black.limits = limits;
            let exe = std::env::current_exe()
                .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
            if let Some(side) = human {
                let seat = match side {
                    Side::White => &mut white,
                    Side::Black => &mut black,
                };
                // Zebra itself, relaying to the viewer over loopback: it needs the network
                // (loopback only in practice), and none of a bot's memory or CPU.
                seat.program = exe.clone();
                seat.args = vec!["seat-relay".to_string()];
                seat.limits.network = true;
            }
            // Everything is checked before the game, as for a series: a missing program, a
            // record file that cannot be written, a log directory that cannot be made.
            for bot in [&mut white, &mut black] {
                bot.resolve_bundled(exe.parent().unwrap_or(Path::new(".")));
                bot.check_program().map_err(Failure::Run)?;
            }
            if let Some(dir) = &log_dir {
                check_log_dir(dir).map_err(Failure::Run)?;
            }
            // Each bot starts once before the game: its option values are checked against
            // what it declares, and a bot the user did not name is named by its `ready`.
            {
                let runtime = runtime()?;
                // The names the user gave are never taken by a bot's `ready`.
                let mut taken: Vec<String> = [&white, &black]
                    .into_iter()
                    .zip(named)
                    .filter(|(_, named)| *named)
                    .map(|(bot, _)| bot.name.clone())
                    .collect();
                for (k, bot) in [&mut white, &mut black].into_iter().enumerate() {
                    let relay = human.is_some_and(|h| h.index() == k);
                    if relay || (named[k] && bot.options.is_empty()) {
                        continue;
                    }
                    let ready = runtime
                        .block_on(preflight(
                            bot,
                            GameConfig::default().handshake,
                            settings.mode,
                        ))
                        .map_err(preflight_failure)?;
                    if !named[k] {
                        let base =
                            zebra::bot::name::sanitize(&ready).unwrap_or_else(|| bot.name.clone());
                        bot.name = zebra::bot::name::unique(&base, &taken);
                        taken.push(bot.name.clone());
                    }
                }
            }
            let transcript = log_dir.as_ref().map(|dir| {
                dir.join(format!(
                    "{}-vs-{}-seed{seed}.log",
                    file_safe(&white.name),
                    file_safe(&black.name)
                ))
            });
            let record_file = match &pgn {
                Some(path) => Some(open_record_file(path).map_err(Failure::Run)?),
                None => None,
            };
            let cfg = GameConfig {
                seed,
                max_illegal,
                transcript,
                sandbox: settings.policy(),
                ..clock
            };
            let title = format!("{} vs {}", white.name, black.name);
            let watching = start_watch(listener, &title, Some(1), human)?;
            if let Some(desk) = watching.as_ref().and_then(|w| w.desk.as_ref()) {
                match desk.side() {
                    Side::White => white.args = desk.relay_args(),
                    Side::Black => black.args = desk.relay_args(),
                }
            }
            let played = play(
                &white,
                &black,
                &cfg,
                record_file,
                quiet,
                board,
                watching.as_ref().map(|w| &w.hub),
            );
            if !matches!(played, Err(Failure::Interrupted)) {
                linger(watching);
            }
            played
        }
        Command::Verify { file, rules } => {
            let rules = rules.as_deref().map(rules_flag).transpose()?;
            verify(&file, rules)
        }
        Command::SeatRelay { addr, token } => zebra::web::seat::relay(&addr, &token)
            .map_err(|e| Failure::Run(format!("the human seat's relay: {e}"))),
        Command::View {
            file,
            game,
            html,
            board,
            listen,
        } => view(&file, game, html.as_deref(), board, listen.as_deref()),
        Command::Doctor { json } => {
            doctor(json);
            Ok(())
        }
        Command::Match(args) => match_series(&args),
        Command::Serve(args) => serve(args),
        Command::CheckBot {
            command,
            rules,
            decision_ms,
            games,
        } => {
            let rules = rules_flag(&rules)?;
            let mut spec = BotSpec::from_command("bot", &command)
                .map_err(|e| Failure::Usage(format!("check-bot: {e}")))?;
            // A bundled bot by its bare name, as `play` and `match` take it.
            if let Ok(exe) = std::env::current_exe() {
                spec.resolve_bundled(exe.parent().unwrap_or(Path::new(".")));
            }
            if decision_ms == 0 {
                return Err(Failure::Usage("--decision-ms must be at least 1".into()));
            }
            let limits = CheckLimits {
                decision: std::time::Duration::from_millis(decision_ms),
                ..CheckLimits::default()
            };
            let runtime = runtime()?;
            let report = interruptible(&runtime, check_bot_for(rules, &spec, limits))?;
            for line in &report.lines {
                out!(
                    "{} {}",
                    if line.ok { "ok     " } else { "PROBLEM" },
                    line.what
                );
            }
            let mut game_problems = 0;
            if games > 0 {
                let mut opponent = bundled("zebra-random-bot")?;
                opponent.name = "zebra-random-bot".to_string();
                let played = interruptible(
                    &runtime,
                    zebra::referee::check::check_games(
                        rules,
                        &spec,
                        &opponent,
                        games,
                        zebra::sandbox::Policy::default(),
                    ),
                )?;
                for (k, g) in played.iter().enumerate() {
                    let head = format!("game {} as {} against zebra-random-bot", k + 1, g.side);
                    if g.problems.is_empty() {
                        out!("ok      {head}: {}", g.outcome);
                    }
                    for p in &g.problems {
                        out!("PROBLEM {head} ({}): {p}", g.outcome);
                    }
                    game_problems += g.problems.len();
                }
            }
            match report.problems() + game_problems {
                0 => {
                    out!("no problems found");
                    Ok(())
                }
                n => {
                    out!("{n} problem(s) found");
                    Err(Failure::BotProblems)
                }
            }
        }
        Command::Perft {
            rules,
            position,
            diagram,
            depth,
            divide,
        } => {
            if rules_flag(&rules)? == Rules::BoyerFootball {
                return boyer_perft(position.as_deref(), diagram.is_some(), depth, divide);
            }
            let game = match (position, diagram) {
                (Some(name), _) => perft::position(&name).ok_or_else(|| {
                    let names: Vec<&str> = perft::POSITIONS.iter().map(|(n, _)| *n).collect();
                    Failure::Usage(format!(
                        "unknown position '{name}'; known: {}",
                        names.join(", ")
                    ))
                })?,
                (None, Some(path)) => {
                    let text = std::fs::read_to_string(&path).map_err(|e| {
                        Failure::Run(format!("cannot read {}: {e}", path.display()))
                    })?;
                    Game::from_diagram(&text)
                        .map_err(|e| Failure::Run(format!("{}: {e}", path.display())))?
                }
                (None, None) => {
                    return Err(Failure::Usage(
                        "give --position NAME or --diagram FILE".into(),
                    ))
                }
            };
            if depth > 6 {
                return Err(Failure::Usage(format!(
                    "--depth {depth} is too deep; use 6 or less"
                )));
            }
            if divide {
                print_divide(perft::divide(&game, depth));
            } else {
                out!("{}", perft(&game, depth));
            }
            Ok(())
        }
        Command::Bench {
            target,
            rules,
            games,
            seed,
            plays_per_quarter,
            json,
            rounds,
            layout,
            watch_with,
            repeat,
        } => {
            if watch_with.is_some() && target != BenchTarget::Match {
                return Err(Failure::Usage(
                    "--watch-with measures the match benchmark: zebra bench match --watch-with chromium".into(),
                ));
            }
            if games == 0 || plays_per_quarter == 0 {
                return Err(Failure::Usage(
                    "--games and --plays-per-quarter must be at least 1".into(),
                ));
            }
            if rules_flag(&rules)? == Rules::BoyerFootball {
                return boyer_bench(target, games, seed, rounds, json);
            }
            if target == BenchTarget::Match {
                let bot = bundled("zebra-instant-bot")?;
                // As `zebra match`: the coordinator here, each game on its own thread.
                let runtime = runtime()?;
                let games = games.min(10_000) as u32;
                let r = runtime
                    .block_on(zebra::bench::series(
                        &bot,
                        games,
                        seed,
                        &[1, 2],
                        watch_with.as_deref(),
                        repeat,
                    ))
                    .map_err(Failure::Run)?;
                let runs: Vec<String> = r
                    .runs
                    .iter()
                    .map(|run| {
                        let c = run.cpu;
                        let cpu = if run.watched {
                            format!(
                                ", busy CPU {:.2} s, of which viewer {:.2} s and browser \
                                 {:.2} s: {:.1}%",
                                c.machine_busy_seconds,
                                c.viewer_seconds,
                                c.browser_seconds,
                                c.watching_percent,
                            )
                        } else {
                            format!(", busy CPU {:.2} s", c.machine_busy_seconds)
                        };
                        format!(
                            "concurrency {}{}: {:.1} games/s ({:.2} s, {} decisions/s{cpu})",
                            run.concurrency,
                            if run.watched { " watched" } else { "" },
                            run.games_per_second,
                            run.seconds,
                            run.decisions_per_second as u64
                        )
                    })
                    .chain(r.watch_cost.iter().map(|c| {
                        format!(
                            "watching costs concurrency {} {:.1}% of its games/s (medians)",
                            c.concurrency, c.cost_percent
                        )
                    }))
                    .collect();
                let text = format!("{} games of instant bots; {}", r.games, runs.join("; "));
                print_report(json, &r, &text);
                return Ok(());
            }
            if target == BenchTarget::Serve {
                let bot = bundled("zebra-instant-bot")?;
                let exe = std::env::current_exe()
                    .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
                let dir = exe.parent().unwrap_or(Path::new(".")).to_path_buf();
                let runtime = runtime()?;
                let r = interruptible(
                    &runtime,
                    zebra::server::bench::run(&bot, &dir, games.min(10_000) as u32, 2, repeat),
                )?
                .map_err(Failure::Run)?;
                let text = format!(
                    "{} games of instant bots at concurrency {}: zebra match {:?} games/s, zebra serve {:?} games/s: the daemon at {:.1}% (medians)\nreads while playing (series status, leaderboard): {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\nsubmit a 10,000-game series: {:.3} s; restart on that queue to the first answer: {:.3} s",
                    r.games, r.concurrency, r.match_runs.iter().map(|g| (g * 10.0).round() / 10.0).collect::<Vec<_>>(), r.daemon_runs.iter().map(|g| (g * 10.0).round() / 10.0).collect::<Vec<_>>(), r.daemon_percent,
                    r.reads, r.read_p50_ms, r.read_p99_ms, r.read_max_ms, r.submit_10k_seconds, r.restart_seconds
                );
                let memory: Vec<String> = r
                    .stored
                    .iter()
                    .map(|m| format!("{} stored games: {} KiB", m.games, m.peak_kib))
                    .collect();
                let text = format!(
                    "{text}\nzebra serve's peak memory after every read route: {}",
                    memory.join("; ")
                );
                print_report(json, &r, &text);
                return Ok(());
            }
            if target == BenchTarget::Referee {
                let bot = bundled("zebra-instant-bot")?;
                let runtime = runtime()?;
                let r = interruptible(
                    &runtime,
                    zebra::bench::referee(&bot, games.min(1000) as u32, seed, layout),
                )?
                .map_err(Failure::Run)?;
                let text = format!(
                    "layout {:?} (referee CPUs {:?}, bots {:?}): {} games, {} decisions in {:.3} s: {:.0} decisions/s, referee CPU {:.1} us/decision, round trip {:.1} us/decision ({:.1} of them on the bot's side), bare pipe round trip {:.1} us (its writer's CPU {:.1} us)\nfreeze-idle off: round trip {:.1} us, referee CPU {:.1} us per decision; on: {:.1} us, {:.1} us ({:.2} freeze + thaw per decision); one freeze + thaw ({}): {:.1} us\n--sandbox none (freeze-idle off): round trip {:.1} us, referee CPU {:.1} us per decision\nbot start to ready (median): {:.2} ms with --sandbox none, {:.2} ms sandboxed ({})",
                    r.layout, r.referee_cpus, r.bot_cpus, r.games, r.decisions, r.seconds, r.decisions_per_second, r.referee_cpu_us_per_decision, r.decision_round_trip_us, r.bot_side_us_per_decision, r.pipe_round_trip_us, r.pipe_cpu_us_per_round_trip,
                    r.freeze_off.decision_round_trip_us, r.freeze_off.referee_cpu_us_per_decision, r.freeze_on.decision_round_trip_us, r.freeze_on.referee_cpu_us_per_decision, r.freeze_on.freezes_per_decision, r.freeze_by, r.freeze_pair_us,
                    r.sandbox_none.decision_round_trip_us, r.sandbox_none.referee_cpu_us_per_decision,
                    r.start_none_ms, r.start_sandboxed_ms, r.sandbox
                );
                print_report(json, &r, &text);
                return Ok(());
            }
            if target == BenchTarget::Flood {
                let bot = bundled("zebra-test-bot")?;
                let runtime = runtime()?;
                let r =
                    interruptible(&runtime, zebra::bench::flood(&bot))?.map_err(Failure::Run)?;
                let mut text = format!(
                    "peak RSS {} KiB before, {} KiB after {} flooding games at once in {:.1} s (bound: {} KiB = 64 MiB + 8 MiB per game)",
                    r.peak_rss_before_kib, r.peak_rss_after_kib, r.games_at_once, r.seconds, r.bound_kib
                );
                for e in &r.endings {
                    text.push_str(&format!("\n  {e}"));
                }
                print_report(json, &r, &text);
                return Ok(());
            }
            if target == BenchTarget::Movegen {
                if rounds == 0 {
                    return Err(Failure::Usage("--rounds must be at least 1".into()));
                }
                let r = zebra::bench::movegen(seed, rounds);
                let text = format!(
                    "{} positions x {rounds} rounds: {:.0} generations/s, {:.0} listed actions/s (one core)",
                    r.positions, r.generations_per_second, r.actions_listed_per_second
                );
                print_report(json, &r, &text);
                return Ok(());
            }
            let r = zebra::bench::run(games, seed, plays_per_quarter);
            let text = format!(
                "{} games, {} actions in {:.3} s: {:.0} games/s, {:.0} actions/s (seed {}, {} plays per quarter, one core); a copy of a game: {} bytes, {:.0} ns",
                r.games, r.actions, r.seconds, r.games_per_second, r.actions_per_second, r.seed, r.plays_per_quarter, r.copy_bytes, r.copy_ns
            );
            print_report(json, &r, &text);
            Ok(())
        }
    }
}

/// Prints a benchmark report as one JSON object or as one line of text.
fn print_report(json: bool, report: &impl serde::Serialize, text: &str) {
    if json {
        out!(
            "{}",
            serde_json::to_string(report).expect("a report serializes")
        );
    } else {
        out!("{text}");
    }
}

/// Plays and prints one random game, a line per play.
fn demo(seed: u64, plays_per_quarter: u16, quiet: bool) {
    let mut line = String::new();
    let header = |g: &Game| {
        format!(
            "Q{} {} ball, {} & {} at {}, {}-{}:",
            g.quarter(),
            g.offense(),
            ordinal(g.down()),
            if g.is_goal_to_go() {
                "goal".to_string()
            } else {
                g.yards_to_go().to_string()
            },
            g.spot(),
            g.score(zebra::rules::Side::White),
            g.score(zebra::rules::Side::Black),
        )
    };
    let mut replay = Game::new(Settings::plays(plays_per_quarter));
    let end = play_random_game(
        Game::new(Settings::plays(plays_per_quarter)),
        seed,
        |g, action| {
            if line.is_empty() {
                line = header(g);
            }
            line.push(' ');
            line.push_str(&action.to_string());
            let events = replay.apply(action).expect("replaying the same action");
            for e in &events {
                if matches!(
                    e,
                    Event::Flag(_)
                        | Event::Touchdown { .. }
                        | Event::Safety { .. }
                        | Event::TurnoverOnDowns { .. }
                        | Event::PlayOver { .. }
                ) {
                    line.push_str(&format!(" {{{e}}}"));
                }
            }
            if events
                .iter()
                .any(|e| matches!(e, Event::NextPlay { .. } | Event::GameOver { .. }))
            {
                if !quiet {
                    out!("{line}");
                }
                line.clear();
            }
        },
    );
    let result = end.result().expect("a finished game has a result");
    out!(
        "result {} white {} black {} (seed {seed})",
        result.pgn(),
        end.score(zebra::rules::Side::White),
        end.score(zebra::rules::Side::Black)
    );
}

/// `zebra demo --rules boyer-football`: a seeded random game, one line per turn.
fn boyer_demo(seed: u64, quiet: bool) {
    use zebra::rules::boyer;
    let mut game = boyer::Game::new(boyer::Position::start());
    let mut player = boyer::RandomPlayer::new(seed);
    let mut line = String::new();
    while let Some(sub) = player.choose(&game) {
        let pos = game.position();
        if pos.at_turn_start() {
            line = format!("turn {} {}:", pos.turns() + 1, pos.turn());
        }
        game.apply(sub)
            .expect("the random player picks legal sub-moves");
        line.push(' ');
        line.push_str(&sub.to_string());
        if game.position().at_turn_start() && !quiet {
            out!("{line}");
        }
    }
    let outcome = game.outcome().expect("a finished game has an outcome");
    let result = game.result().expect("a finished game has a result");
    out!(
        "result {} ({outcome}; {} turns, seed {seed})",
        result.pgn(),
        game.position().turns()
    );
}

/// `zebra bench engine|movegen --rules boyer-football`.
fn boyer_bench(
    target: BenchTarget,
    games: u64,
    seed: u64,
    rounds: u32,
    json: bool,
) -> Result<(), Failure> {
    match target {
        BenchTarget::Engine => {
            let r = zebra::bench::boyer_run(games, seed);
            let text = format!(
                "boyer-football: {} games, {} turns, {} sub-moves in {:.3} s: {:.0} games/s, {:.0} sub-moves/s (seed {}, one core)",
                r.games, r.turns, r.sub_moves, r.seconds, r.games_per_second, r.sub_moves_per_second, r.seed
            );
            print_report(json, &r, &text);
            Ok(())
        }
        BenchTarget::Movegen => {
            if rounds == 0 {
                return Err(Failure::Usage("--rounds must be at least 1".into()));
            }
            let r = zebra::bench::boyer_movegen(seed, rounds);
            let text = format!(
                "boyer-football: {} positions x {rounds} rounds: {:.0} generations/s, {:.0} listed sub-moves/s (one core)",
                r.positions, r.generations_per_second, r.actions_listed_per_second
            );
            print_report(json, &r, &text);
            Ok(())
        }
        other => Err(Failure::Usage(format!(
            "bench {}: measures Football Chess games; --rules boyer-football benchmarks engine and movegen",
            clap::ValueEnum::to_possible_value(&other).map_or("?".to_string(), |v| v.get_name().to_string())
        ))),
    }
}

fn ordinal(down: u8) -> &'static str {
    match down {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        _ => "4th",
    }
}

/// A bot from its command line, or the bundled bot `default` next to this executable.
fn bot_spec(
    side: &str,
    command: Option<&str>,
    name: Option<String>,
    options: &[String],
    default: &str,
) -> Result<BotSpec, Failure> {
    let mut spec = match command {
        Some(cmd) => {
            BotSpec::from_command("", cmd).map_err(|e| Failure::Usage(format!("--{side}: {e}")))?
        }
        None => bundled(default)?,
    };
    // Until its `ready` names it (see the caller).
    spec.name = name.unwrap_or_else(|| {
        zebra::bot::name::from_command(&spec.program.to_string_lossy(), &spec.args)
    });
    zebra::bot::text::check_user_name(&spec.name)
        .map_err(|why| Failure::Usage(format!("--{side}-name: {why}")))?;
    for item in options {
        let (k, v) = item.split_once('=').ok_or_else(|| {
            Failure::Usage(format!("--{side}-option '{item}': write it as NAME=VALUE"))
        })?;
        spec.options
            .insert(k.to_string(), zebra::bot::text::option_value(v));
    }
    Ok(spec)
}

/// The record file of `zebra play`, opened for appending before the game: a path that
/// cannot be written is said before a game is played and lost.
fn open_record_file(path: &Path) -> Result<(PathBuf, std::fs::File), String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(|f| (path.to_path_buf(), f))
        .map_err(|e| {
            format!(
                "--pgn {}: cannot open it for appending: {e}",
                path.display()
            )
        })
}

/// The transcript directory exists (it is made) and takes files, before the game.
fn check_log_dir(dir: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("--log-dir {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".zebra-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A bot bundled with Zebra: a binary next to this executable.
fn bundled(program: &str) -> Result<BotSpec, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    let path = exe.with_file_name(program);
    if !path.exists() {
        return Err(Failure::Run(format!(
            "the bundled bot {} is missing: build it with 'cargo build --release'",
            path.display()
        )));
    }
    let mut spec = BotSpec::from_command(program, "bot").expect("a command");
    spec.program = path;
    Ok(spec)
}

fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Plays one refereed game, shows it as it goes, appends its record.
fn play(
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    pgn: Option<(PathBuf, std::fs::File)>,
    quiet: bool,
    board: bool,
    hub: Option<&std::sync::Arc<zebra::web::Hub>>,
) -> Result<(), Failure> {
    let style = zebra::web::TermStyle::for_stdout();
    // The live viewer is told the game as a series of one game.
    let spectator = hub.map(|h| h.clone() as std::sync::Arc<dyn zebra::referee::Spectator>);
    let mut events = zebra::series::events::EventLog::none().with_spectator(spectator.clone());
    let game_ref = zebra::series::events::GameRef {
        game: 1,
        pair: 1,
        round: 1,
        leg: 1,
        white: white.name.clone(),
        black: black.name.clone(),
        seed: cfg.seed,
    };
    events.emit(&zebra::series::events::SeriesEvent::GameStarted {
        game: game_ref.clone(),
        attempt: 1,
    });
    let started = std::time::Instant::now();
    let runtime = runtime()?;
    let report = if cfg.rules != Rules::FootballChess {
        if !quiet {
            out!(
                "{}: {} (white) vs {} (black)",
                cfg.rules,
                white.name,
                black.name
            );
        }
        // The game as the viewer replays it: one line per turn, the board as a turn ends.
        let mut replay: Option<zebra::web::feed::Replay> = None;
        let mut line = String::new();
        interruptible(
            &runtime,
            zebra::referee::play_game(white, black, cfg, |record| {
                if let Some(s) = &spectator {
                    s.follow(1, record);
                }
                if quiet {
                    return;
                }
                if replay.is_none() {
                    replay = zebra::web::feed::view_head(record).ok().map(|(_, r)| r);
                }
                let Some(r) = replay.as_mut() else { return };
                for entry in record.entries.iter().skip(r.entries()) {
                    let Ok(step) = r.step(entry) else { return };
                    if let Some(header) = &step.header {
                        line = format!("{header}:");
                    }
                    line.push(' ');
                    line.push_str(&step.token);
                    if step.play_end {
                        out!("{line}");
                        line.clear();
                        if board {
                            out!("{}", zebra::web::frame_text(&step.frame, style));
                        }
                    }
                }
            }),
        )?
    } else {
        if !quiet {
            out!("{}", situation(&Game::new(cfg.tc.settings())));
        }
        interruptible(
            &runtime,
            Referee::play(white, black, cfg, |game, events, record| {
                if let Some(s) = &spectator {
                    s.follow(1, record);
                }
                if quiet {
                    return;
                }
                // The field as the play ended (before the next situation line).
                if board && game.field_at_play_end().is_some() {
                    out!(
                        "{}",
                        zebra::web::board_text(&zebra::web::Frame::of(game), style)
                    );
                }
                for e in events {
                    match e {
                        Event::Touchdown { .. }
                        | Event::Safety { .. }
                        | Event::Flag(_)
                        | Event::TurnoverOnDowns { .. }
                        | Event::PeriodEnd { .. } => {
                            out!("  {e}")
                        }
                        Event::NextPlay { .. } => out!("{}", situation(game)),
                        _ => {}
                    }
                }
            }),
        )?
    };
    if let Some((path, mut file)) = pgn {
        let text = write_game(&report.record)
            .map_err(|e| Failure::Run(format!("cannot write the record: {e}")))?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| Failure::Run(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(s) = &spectator {
        s.game_over(1, &report.record, &report.reason);
        events.emit(&zebra::series::events::SeriesEvent::finished(
            game_ref,
            1,
            &report,
            started.elapsed(),
        ));
    }
    for (side, bot) in Side::ALL.iter().zip(&report.bots) {
        if bot.illegal + bot.timeouts + bot.discarded > 0 {
            out!(
                "{side} {}: {} illegal or invalid, {} timed out, {} discarded replies",
                bot.name,
                bot.illegal,
                bot.timeouts,
                bot.discarded
            );
        }
    }
    out!(
        "result {} ({}) white {} {} black {} {}{}",
        report.result.map_or("*", |r| r.pgn()),
        report.termination,
        white.name,
        report.score[0],
        black.name,
        report.score[1],
        if report.termination == Termination::Normal {
            String::new()
        } else {
            format!(": {}", report.reason)
        }
    );
    // A game adjudicated at its wall-time cap has a result no one forfeited.
    if matches!(
        report.termination,
        Termination::Normal | Termination::Adjudication
    ) {
        Ok(())
    } else {
        Err(Failure::Forfeit)
    }
}

/// `--white human`: a person plays that side in the viewer.
const HUMAN: &str = "human";

/// `--watch` on: the live viewer, on a thread of its own.
struct Watching {
    hub: std::sync::Arc<zebra::web::Hub>,
    server: zebra::web::server::Background,
    /// The human seat's desk, with `--white human` or `--black human`.
    desk: Option<std::sync::Arc<zebra::web::seat::Desk>>,
}

/// The live viewer's address, bound when `--watch` (or `--listen`, or a human seat) asks
/// for it: first of all, so that a port in use is said before anything is written.
fn bind_watch(
    args: &zebra::cli::WatchArgs,
    human: bool,
) -> Result<Option<std::net::TcpListener>, Failure> {
    if !args.watch && args.listen.is_none() && !human {
        return Ok(None);
    }
    zebra::web::server::bind(args.listen.as_deref())
        .map(Some)
        .map_err(|e| Failure::Usage(e.to_string()))
}

/// Starts the live viewer on `listener` and says where it is (stderr: stdout stays the
/// game's or the series' own).
fn start_watch(
    listener: Option<std::net::TcpListener>,
    title: &str,
    announce: Option<u32>,
    seat: Option<Side>,
) -> Result<Option<Watching>, Failure> {
    let Some(listener) = listener else {
        return Ok(None);
    };
    let hub = zebra::web::Hub::new(title);
    // The game of `zebra play` is held before its address is said.
    if let Some(n) = announce {
        zebra::referee::Spectator::announce(&*hub, n);
    }
    let cannot = |e: std::io::Error| Failure::Run(format!("cannot start the viewer: {e}"));
    let desk = match seat {
        Some(side) => Some(zebra::web::seat::Desk::new(side, hub.clone(), 1).map_err(cannot)?),
        None => None,
    };
    let mut router = zebra::web::live::router(hub.clone());
    let mut tasks: Vec<zebra::web::server::Task> = Vec::new();
    if let Some(desk) = &desk {
        router = router.merge(zebra::web::seat::router(desk.clone()));
        tasks.push(Box::pin(desk.clone().run()));
    }
    let server = zebra::web::server::Background::start(listener, router, tasks).map_err(cannot)?;
    eprintln!("watch at http://{}/", server.addr);
    Ok(Some(Watching { hub, server, desk }))
}

/// After the end, the viewer stays up (the finished games can be looked at) until Ctrl-C
/// or SIGTERM; the exit code stays the game's or the series'.
fn linger(watching: Option<Watching>) {
    let Some(Watching { hub, server, .. }) = watching else {
        return;
    };
    hub.close();
    eprintln!(
        "the viewer stays up at http://{}/ until Ctrl-C",
        server.addr
    );
    if let Ok(rt) = runtime() {
        rt.block_on(async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut term) => {
                    tokio::select! {
                        _ = tokio::signal::ctrl_c() => {}
                        _ = term.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        });
    }
    server.stop();
}

/// One thread is enough for a game (the bots run in their own processes), and keeps every
/// wake-up on that thread: cross-thread wake-ups were most of the referee's CPU time.
fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Run(format!("cannot start the runtime: {e}")))
}

/// `Q1 7-0  white ball, 2nd & 5 at e6`: the scoreboard and the series.
fn situation(game: &Game) -> String {
    format!(
        "Q{} {}-{}  {} ball, {} & {} at {}",
        game.quarter(),
        game.score(Side::White),
        game.score(Side::Black),
        game.offense(),
        ordinal(game.down()),
        if game.is_goal_to_go() {
            "goal".to_string()
        } else {
            game.yards_to_go().to_string()
        },
        game.spot()
    )
}

/// Runs `work` until it ends or the user interrupts (Ctrl-C, SIGTERM). Interrupted, the
/// work is dropped, and with it every bot process group it started (bots live in their own
/// process groups, so the terminal's Ctrl-C does not reach them).
fn interruptible<T>(
    runtime: &tokio::runtime::Runtime,
    work: impl std::future::Future<Output = T>,
) -> Result<T, Failure> {
    runtime.block_on(async {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| Failure::Run(format!("cannot watch for SIGTERM: {e}")))?;
        tokio::select! {
            done = work => Ok(done),
            _ = tokio::signal::ctrl_c() => Err(Failure::Interrupted),
            _ = term.recv() => Err(Failure::Interrupted),
        }
    })
}

/// `zebra match`: sets the series up (or reads it back), plays it, prints the summary.
fn match_series(args: &zebra::cli::MatchArgs) -> Result<(), Failure> {
    if args.concurrency == Some(0) {
        return Err(Failure::Usage("--concurrency must be at least 1".into()));
    }
    let listener = bind_watch(&args.watch, false)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    let bundled = exe.parent().unwrap_or(Path::new("."));
    let mut prepared = prepare(args, bundled, &timestamp()).map_err(|e| match e {
        // Games of another rulings edition: the user's to resolve (another zebra release),
        // as bad input is, not a file this run failed to read or write.
        e @ SetupError::Disk(DiskError::Edition { .. }) => Failure::Usage(e.to_string()),
        e @ (SetupError::Disk(_) | SetupError::MissingProgram { .. }) => {
            Failure::Run(e.to_string())
        }
        other => Failure::Usage(other.to_string()),
    })?;
    // The coordinator's runtime; every game runs on a thread of its own (see
    // series::runner).
    let runtime = runtime()?;
    // Every bot starts, shakes hands and accepts its options before anything is written;
    // a bot the user did not name is named by its `ready`.
    let mut ready = Vec::new();
    for bot in &prepared.config.bots {
        let name = runtime
            .block_on(preflight(
                &bot.spec_with(
                    prepared
                        .config
                        .sandbox
                        .limits_for(&bot.limits)
                        .map_err(Failure::Usage)?,
                ),
                std::time::Duration::from_secs(10),
                prepared.config.sandbox.mode,
            ))
            .map_err(preflight_failure)?;
        ready.push(name);
    }
    prepared.name_by_ready(&ready);
    prepared.save().map_err(|e| Failure::Run(e.to_string()))?;
    let config = &prepared.config;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let progress = zebra::series::progress::Progress::choose(args.quiet, args.json);
    let planned = zebra::series::schedule::Schedule::new(
        config.format,
        config.bots.len(),
        config.rounds,
        config.seed,
    )
    .map_or(0, |s| s.len() as usize);
    if prepared.resumed && prepared.done.len() >= planned {
        progress.note(&format!(
            "series in {} is complete ({} games): nothing to play",
            prepared.dir.display(),
            prepared.done.len()
        ));
    } else {
        progress.note(&format!(
            "series in {} ({} bots, {} games per encounter, {concurrency} at once{}); resume with 'zebra match --resume {}'",
            prepared.dir.display(),
            config.bots.len(),
            config.rounds * 2,
            if prepared.resumed {
                format!(", {} games already played", prepared.done.len())
            } else {
                String::new()
            },
            prepared.dir.display()
        ));
    }
    let affinity = if args.affinity {
        let allowed = zebra::bench::allowed_cpus();
        let slots = zebra::series::runner::affinity_slots(&allowed, concurrency);
        if slots.is_none() {
            progress.note(&format!(
                "warning: --affinity needs two CPUs per game at once ({} for {concurrency}); this process may use {}: the bots run unpinned",
                2 * concurrency,
                allowed.len()
            ));
        }
        slots
    } else {
        None
    };
    let title = format!("series in {}", prepared.dir.display());
    let watching = start_watch(listener, &title, None, None)?;
    let outcome = runtime
        .block_on(zebra::series::run(
            config,
            prepared.done,
            prepared.voided,
            RunOptions {
                concurrency,
                progress,
                cpus: std::thread::available_parallelism().ok().map(|n| n.get()),
                affinity,
                spectator: watching
                    .as_ref()
                    .map(|w| w.hub.clone() as std::sync::Arc<dyn zebra::referee::Spectator>),
            },
        ))
        .map_err(|e| Failure::Run(e.to_string()))?;
    // A series that ended (not one stopped to resume later) leaves no lock behind.
    if outcome.end != SeriesEnd::Interrupted {
        if let Some(lock) = &prepared.lock {
            lock.remove_file(&prepared.dir);
        }
    }
    let summary = Summary::of(config, &outcome);
    if args.json {
        out!(
            "{}",
            serde_json::to_string(&summary).expect("a summary serializes")
        );
    } else {
        out!("{}", summary.text(&outcome.standings).trim_end());
    }
    if outcome.end != SeriesEnd::Interrupted {
        linger(watching);
    }
    match outcome.end {
        SeriesEnd::Completed | SeriesEnd::H1Accepted => Ok(()),
        end => Err(Failure::Series(end)),
    }
}

/// `zebra serve`: the daemon, or one of its admin commands on the same data directory.
fn serve(args: zebra::cli::ServeArgs) -> Result<(), Failure> {
    use zebra::cli::{BotCommand, ServeCommand, TokenCommand};
    use zebra::server::{admin, config};
    if args.command.is_some()
        && (args.listen.is_some()
            || args.concurrency.is_some()
            || args.check_config
            || args.tls_cert.is_some()
            || args.tls_key.is_some())
    {
        return Err(Failure::Usage(
            "--listen, --concurrency, --tls-cert, --tls-key and --check-config are the daemon's: give them to 'zebra serve' without bot or token".into(),
        ));
    }
    let settings = config::ServeSettings::load(
        args.config.as_deref(),
        &config::Overrides {
            data: args.data.clone(),
            listen: args.listen.clone(),
            concurrency: args.concurrency,
            tls_cert: args.tls_cert.clone(),
            tls_key: args.tls_key.clone(),
        },
    )
    .map_err(Failure::Usage)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    let bundled = exe.parent().unwrap_or(Path::new(".")).to_path_buf();
    let open =
        || zebra::server::open_store(&settings.data).map_err(|e| Failure::Run(e.to_string()));
    match args.command {
        None if args.check_config => {
            if let Some(tls) = &settings.tls {
                zebra::server::http::tls_config(tls).map_err(Failure::Usage)?;
            }
            let store = open()?;
            let version = store
                .schema_version()
                .map_err(|e| Failure::Run(e.to_string()))?;
            out!("{}", settings.describe());
            out!(
                "database {} (schema {version}): ok",
                settings.data.join(zebra::server::store::DB_FILE).display()
            );
            // What `zebra serve` would refuse to start without (the same check).
            match zebra::server::strict_problem(&settings)
                .map_err(|e| Failure::Run(e.to_string()))?
            {
                None => out!("sandbox strict: holds here"),
                Some(problem)
                    if std::env::var(zebra::server::ALLOW_WEAK_SANDBOX).as_deref() == Ok("1") =>
                {
                    out!(
                        "sandbox strict: does not hold ({}=1: tests only): {problem}",
                        zebra::server::ALLOW_WEAK_SANDBOX
                    )
                }
                Some(problem) => return Err(Failure::Run(problem)),
            }
            Ok(())
        }
        None => {
            log_to_stderr();
            let runtime = runtime()?;
            let scheme = if settings.tls.is_some() {
                "https"
            } else {
                "http"
            };
            runtime
                .block_on(zebra::server::serve(settings.clone(), bundled, |addr| {
                    eprintln!(
                        "zebra serve: listening on {scheme}://{addr} (data in {}); Ctrl-C or SIGTERM stops",
                        settings.data.display()
                    );
                }, tokio_util::sync::CancellationToken::new()))
                .map_err(|e| Failure::Run(e.to_string()))
        }
        Some(ServeCommand::Token(TokenCommand::Create { scope, owner })) => {
            let mut store = open()?;
            let token = admin::create_token(&mut store, &scope, &owner).map_err(Failure::Usage)?;
            out!("{token}");
            eprintln!("zebra: a {scope} token for {owner}; it is shown only now (the server keeps its hash)");
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Add {
            name,
            command,
            from,
            dir,
            env,
            options,
            time,
            owner,
        })) => {
            let entries = match from {
                Some(path) => zebra::series::config::read_config(&path)
                    .map_err(|e| Failure::Usage(e.to_string()))?,
                None => {
                    vec![
                        admin::entry(name.unwrap_or_default(), command, dir, &env, &options, time)
                            .map_err(Failure::Usage)?,
                    ]
                }
            };
            let mut store = open()?;
            for (id, name) in
                admin::add_bots(&mut store, entries, &owner, &bundled).map_err(Failure::Usage)?
            {
                out!("bot {id} {name}: registered, pending its check by the daemon");
            }
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::List)) => {
            let store = open()?;
            let bots = store.bots().map_err(|e| Failure::Run(e.to_string()))?;
            for b in bots {
                let retired = b
                    .superseded_by
                    .map_or(String::new(), |n| format!(" (retired: bot {n} is newer)"));
                out!(
                    "{:>4}  {:<10} {:<20} owner {}{retired}",
                    b.id,
                    b.state.as_str(),
                    b.name,
                    b.owner
                );
            }
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Activate { id })) => {
            let mut store = open()?;
            store
                .set_bot_state(id, zebra::server::store::BotState::Active, None)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            out!("bot {id}: active");
            Ok(())
        }
        Some(ServeCommand::Bot(BotCommand::Suspend { id })) => {
            let mut store = open()?;
            store
                .set_bot_state(id, zebra::server::store::BotState::Suspended, None)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            out!("bot {id}: suspended");
            Ok(())
        }
    }
}

/// The daemon's log: `tracing` events on stderr, filtered by `RUST_LOG` (default `info`:
/// bots checked, series ended, games voided, warnings).
fn log_to_stderr() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// A bot that cannot start is a failure (exit 1); option values that do not fit are the
/// user's to fix (exit 2).
fn preflight_failure(e: PreflightError) -> Failure {
    match e {
        PreflightError::Start(why) => Failure::Run(why),
        PreflightError::Options(why) => Failure::Usage(why),
    }
}

/// `20261122-041628` (UTC), for default directory names.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
    let (year, month, day) = zebra::record::time::civil_date(secs);
    format!("{year:04}{month:02}{day:02}-{h:02}{m:02}{s:02}")
}

/// Replays every game of a record file through the engine: one line per game (its verdict)
/// and one for the damage that ends a file which cannot be read to its end.
/// `zebra view FILE`: the viewer page with the file's games (or one) inlined (`--html`),
/// and/or the field as every play ended, printed here (`--board`).
fn view(
    path: &Path,
    game: Option<usize>,
    html: Option<&Path>,
    board: bool,
    listen: Option<&str>,
) -> Result<(), Failure> {
    let cannot =
        |e: &dyn std::fmt::Display| Failure::Run(format!("cannot read {}: {e}", path.display()));
    if std::fs::metadata(path).map_err(|e| cannot(&e))?.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| cannot(&e))?;
    let page_error = |e: zebra::web::PageError| match e {
        zebra::web::PageError::NoSuchGame { .. } => Failure::Usage(e.to_string()),
        e => Failure::Run(format!("{}: {e}", path.display())),
    };
    // The file is replayed once, whatever is asked of it.
    let chosen = zebra::web::chosen_games(&text, game).map_err(page_error)?;
    if html.is_none() && !board {
        let games = chosen.into_iter().map(|(_, g)| g).collect();
        return serve_view(path, games, listen.unwrap_or("127.0.0.1:0")).map_err(|e| match e {
            ServeFailure::Listen(msg) => Failure::Usage(msg),
            ServeFailure::Run(msg) => Failure::Run(msg),
        });
    }
    if let Some(out) = html {
        let games: Vec<zebra::web::GameView> = chosen.iter().map(|(_, g)| g.clone()).collect();
        std::fs::write(out, zebra::web::page_for(&games))
            .map_err(|e| Failure::Run(format!("cannot write {}: {e}", out.display())))?;
        out!("wrote {} (open it in a browser)", out.display());
    }
    if board {
        let style = zebra::web::TermStyle::for_stdout();
        for (n, v) in &chosen {
            out!(
                "game {n}: {} (White) vs {} (Black) {} ({})",
                v.white,
                v.black,
                v.result,
                v.termination
            );
            for step in v.steps.iter().filter(|s| s.play_end) {
                out!(
                    "{}\n{}",
                    step.events.join("; "),
                    zebra::web::frame_text(&step.frame, style)
                );
            }
            if let Some(e) = &v.error {
                out!("this record stops replaying here: {e}");
            }
        }
    }
    Ok(())
}

enum ServeFailure {
    Listen(String),
    Run(String),
}

/// `zebra view FILE`: the viewer served on `listen` until Ctrl-C.
fn serve_view(
    path: &Path,
    games: Vec<zebra::web::GameView>,
    listen: &str,
) -> Result<(), ServeFailure> {
    let listener =
        zebra::web::server::bind(Some(listen)).map_err(|e| ServeFailure::Listen(e.to_string()))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeFailure::Run(format!("cannot listen on {listen}: {e}")))?;
    let count = games.len();
    let library = std::sync::Arc::new(zebra::web::Library::new(games, &path.display().to_string()));
    let rt = runtime().map_err(|_| ServeFailure::Run("cannot start the runtime".to_string()))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| ServeFailure::Run(format!("cannot listen on {local}: {e}")))?;
        out!(
            "serving {count} game{} of {} at http://{local}/ (Ctrl-C stops)",
            if count == 1 { "" } else { "s" },
            path.display()
        );
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        zebra::web::serve(listener, zebra::web::router(library), stop)
            .await
            .map_err(|e| ServeFailure::Run(format!("the server stopped: {e}")))
    })
}

/// `zebra verify FILE [--rules NAME]`: every game replayed as the game its Variant tag
/// names; with `--rules`, a game of another game is bad usage (exit 2).
fn verify(path: &Path, expected: Option<Rules>) -> Result<(), Failure> {
    let cannot =
        |e: &dyn std::fmt::Display| Failure::Run(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| cannot(&e))?;
    // Opening a directory succeeds; reading it would be reported as a damaged line 1.
    if file.metadata().map_err(|e| cannot(&e))?.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    // Game by game, each verdict printed as soon as its game is read: a damaged tail still
    // leaves a verdict for every game before it, and memory holds one game at a time.
    // `bad`: games that diverge; `other`: games of another edition of the rulings, refused
    // unreplayed.
    let (mut games, mut bad, mut other) = (0, 0, 0);
    // The games the unverified records are of: each is judged by its own rulings edition.
    let mut other_games: Vec<Rules> = Vec::new();
    let mut damage = None;
    for item in GameReader::new(std::io::BufReader::new(file)) {
        let rec = match item {
            Ok(rec) => rec,
            Err(e) => {
                out!("game {}: {e}", games + 1);
                damage = Some(match e.line() {
                    Some(line) => format!("cannot be read from line {line} on"),
                    None => "cannot be read".to_string(),
                });
                break;
            }
        };
        games += 1;
        if let (Some(expected), Ok(found)) = (expected, rec.rules()) {
            if found != expected {
                return Err(Failure::Usage(format!(
                    "{}: game {games} is a {found} record, not {expected}; verify it without --rules or with --rules {found}",
                    path.display()
                )));
            }
        }
        match zebra::record::verify_any(&rec) {
            Ok(v) => out!(
                "game {games}: ok, {} ({}, {} actions, {} clock expiries)",
                v.result.map_or("*", |r| r.pgn()),
                v.termination,
                v.actions,
                v.expiries
            ),
            Err(d) if d.is_other_edition() => {
                other += 1;
                let game = rec.rules().unwrap_or_default();
                if !other_games.contains(&game) {
                    other_games.push(game);
                }
                out!("game {games}: {d} (verify it with the zebra release that wrote it)");
            }
            Err(d) => {
                bad += 1;
                out!("game {games}: {d}");
            }
        }
    }
    // What the games of another edition get, after "N of M games" or "N".
    let judged: Vec<String> = other_games
        .iter()
        .map(|&g| {
            let edition = zebra::with_rules!(g, R => <R as zebra::record::Recorded>::RULINGS);
            if other_games.len() == 1 && g == Rules::FootballChess {
                format!("edition {edition}")
            } else {
                format!("{g} edition {edition}")
            }
        })
        .collect();
    let unverified = format!(
        "{} not verified: played under another rulings edition (this zebra judges {} only)",
        if other == 1 { "was" } else { "were" },
        judged.join(", ")
    );
    let before = match (games, bad, other) {
        (0, _, _) => "no complete game before it".to_string(),
        (n, 0, 0) => format!("the {n} game(s) before it verified"),
        (n, b, 0) => format!("{b} of the {n} game(s) before it diverge from the rules"),
        (n, 0, o) => format!("{o} of the {n} game(s) before it {unverified}"),
        (n, b, o) => {
            format!("{b} of the {n} game(s) before it diverge from the rules; {o} {unverified}")
        }
    };
    match damage {
        Some(damage) => Err(Failure::Run(format!(
            "{}: {damage}; {before}",
            path.display()
        ))),
        None if games == 0 => Err(Failure::Run(format!(
            "{}: no game (the file is empty, or holds only blank lines and comments)",
            path.display()
        ))),
        None if bad == 0 && other == 0 => {
            out!("{games} games verified");
            Ok(())
        }
        None if other == 0 => Err(Failure::Run(format!(
            "{bad} of {games} games diverge from the rules"
        ))),
        None if bad == 0 => Err(Failure::Run(format!(
            "{other} of {games} games {unverified}"
        ))),
        None => Err(Failure::Run(format!(
            "{bad} of {games} games diverge from the rules; {other} {unverified}"
        ))),
    }
}

/// `zebra doctor`: what this machine gives a bot, level by level.
fn doctor(json: bool) {
    let level = zebra::sandbox::level();
    let limits = zebra::sandbox::Limits::default();
    let strict = level.strict_missing(&limits);
    let source = |s: &Option<zebra::sandbox::cgroup::Source>| s.as_ref().map(|s| s.to_string());
    if json {
        let v = serde_json::json!({
            "sandbox": level.describe(zebra::sandbox::Mode::Auto, false),
            "namespaces": level.namespaces,
            "user_namespace": level.user_namespace,
            "namespace_problem": level.namespace_problem,
            "wall": {
                "own_user": level.wall.own_user,
                "view": level.wall.view,
                "fresh_proc": level.wall.fresh_proc,
                "no_cgroup_fs": level.wall.view,
                "seccomp": level.wall.seccomp,
                "landlock": level.wall.landlock,
                "problems": level.wall.problems,
            },
            "bot_uids": zebra::sandbox::run::uid_range().ok().map(|(a, b)| format!("{a}-{b}")),
            "cgroups": {
                "memory": source(&level.cgroups.memory),
                "pids": source(&level.cgroups.pids),
                "freezer": source(&level.cgroups.freezer),
            },
            "default_limits": limits.to_string(),
            "strict": strict.is_none(),
            "strict_missing": strict,
        });
        println!("{v}");
        return;
    }
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!(
        "sandbox level (auto): {}",
        level.describe(zebra::sandbox::Mode::Auto, false)
    );
    println!("  rlimits, process group, parent-death signal: yes");
    println!(
        "  PID, network, mount, IPC, UTS and cgroup namespaces: {}{}",
        yes_no(level.namespaces),
        match (&level.namespace_problem, level.user_namespace) {
            (Some(p), _) => format!(" ({p}; fallback: child subreaper)"),
            (None, true) => " (in a user namespace)".to_string(),
            (None, false) => String::new(),
        }
    );
    let wall = &level.wall;
    let root = zebra::sandbox::run::uid_range();
    let user_how = match (level.user_namespace, root) {
        (true, _) => " (Zebra's own id in a user namespace, capabilities dropped)".to_string(),
        (false, Ok((a, b))) => format!(" (a host id of its own from {a}-{b}, ZEBRA_BOT_UIDS)"),
        (false, Err(e)) => format!(" ({e})"),
    };
    for (name, held, how) in [
        (
            "an ordinary user without capabilities",
            wall.own_user,
            user_how,
        ),
        (
            "its own read-only view (pivot_root; no /sys, so no cgroup file system)",
            wall.view,
            String::new(),
        ),
        (
            "a fresh /proc of its own processes",
            wall.fresh_proc,
            String::new(),
        ),
        ("seccomp filter", wall.seccomp, String::new()),
        (
            "Landlock (second file, signal and TCP layer)",
            wall.landlock > 0,
            if wall.landlock > 0 {
                format!(" (v{})", wall.landlock)
            } else {
                " (optional)".to_string()
            },
        ),
    ] {
        println!(
            "  {name}: {}{}",
            yes_no(held && level.namespaces),
            if held && level.namespaces {
                how
            } else {
                String::new()
            }
        );
    }
    for problem in &wall.problems {
        println!("    why not: {problem}");
    }
    for (name, s) in [
        ("memory", &level.cgroups.memory),
        ("pids", &level.cgroups.pids),
        ("freezer", &level.cgroups.freezer),
    ] {
        println!(
            "  cgroup {name}: {}",
            source(s).unwrap_or_else(|| "none".to_string())
        );
    }
    println!("default limits per bot: {limits}");
    match strict {
        None => println!("--sandbox strict: available"),
        Some(missing) => println!("--sandbox strict: not available (lacks {missing})"),
    }
}
