//! `zebra play`: one refereed game between two bots (or a bot and a person at the viewer),
//! shown as it goes, its record appended to a file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::args::PlayArgs;
use super::common::{bot_spec, ordinal, rules_flag};
use super::failure::{preflight_failure, Failure};
use super::runtime::{interruptible, runtime};
use super::watch::{bind_watch, linger, start_watch};
use crate::bot::BotSpec;
use crate::record::{write_game, GameRecord, Termination};
use crate::referee::preflight::preflight;
use crate::referee::{GameConfig, GameReport, GameSetup, Referee, Spectator};
use crate::rules::{Event, Game, Rules, Side};
use crate::series::events::{EventLog, GameRef, SeriesEvent};

/// `--white human`: a person plays that side in the viewer.
const HUMAN: &str = "human";

/// The game asked for, every flag checked and both bots found.
struct Plan {
    /// The game's rules and clock (time control, wall-time cap); the rest is the plan's.
    clock: GameSetup,
    /// The side a person plays at the viewer.
    human: Option<Side>,
    /// The live viewer's address, bound.
    listener: Option<std::net::TcpListener>,
    sandbox: crate::sandbox::Settings,
    white: BotSpec,
    black: BotSpec,
    /// Which sides the user named (the others are named by their `ready`).
    named: [bool; 2],
    seed: u64,
    max_illegal: u32,
    pgn: Option<PathBuf>,
    log_dir: Option<PathBuf>,
    quiet: bool,
    board: bool,
    affinity: crate::series::placement::Affinity,
}

/// Checks the flags, names the bots (each started once), plays the game.
pub(super) fn run(args: PlayArgs) -> Result<(), Failure> {
    let mut plan = Plan::new(args)?;
    plan.name_bots()?;
    plan.play()
}

impl Plan {
    /// Everything is checked before the game, as for a series: flags, a missing program,
    /// a log directory that cannot be made.
    fn new(args: PlayArgs) -> Result<Plan, Failure> {
        let rules = rules_flag(&args.rules)?;
        let human = human_seat(&args)?;
        let mut clock = game_clock(rules, args.tc, human, args.max_game_time.as_deref())?;
        if let Some(text) = &args.start {
            let start = crate::referee::GameStart::read(rules, text)
                .map_err(|e| Failure::Usage(format!("--start: {e}")))?;
            clock.start = Some(start);
        }
        let listener = bind_watch(&args.watch, human.is_some())?;
        let sandbox = crate::sandbox::Settings::from_flags(
            &args.sandbox.sandbox,
            &args.sandbox.freeze_idle,
            args.sandbox.limits(),
        )
        .map_err(Failure::Usage)?;
        let limits = sandbox
            .limits_for(&crate::sandbox::LimitSettings::default())
            .map_err(Failure::Usage)?;
        if args.max_illegal == 0 {
            return Err(Failure::Usage("--max-illegal must be at least 1".into()));
        }
        let named = [args.white_name.is_some(), args.black_name.is_some()];
        let mut white = bot_spec(
            "white",
            args.white.as_deref(),
            args.white_name,
            &args.white_options,
            "zebra-greedy-bot",
        )?;
        let mut black = bot_spec(
            "black",
            args.black.as_deref(),
            args.black_name,
            &args.black_options,
            "zebra-random-bot",
        )?;
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
        for bot in [&mut white, &mut black] {
            bot.resolve_bundled(exe.parent().unwrap_or(Path::new(".")));
            bot.check_program().map_err(Failure::Run)?;
        }
        if let Some(dir) = &args.log_dir {
            check_log_dir(dir).map_err(Failure::Run)?;
        }
        Ok(Plan {
            clock,
            human,
            listener,
            sandbox,
            white,
            black,
            named,
            seed: args.seed,
            max_illegal: args.max_illegal,
            pgn: args.pgn,
            log_dir: args.log_dir,
            quiet: args.quiet,
            board: args.board,
            affinity: args.affinity,
        })
    }

    /// Each bot starts once before the game: its option values are checked against what
    /// it declares, and a bot the user did not name is named by its `ready`.
    fn name_bots(&mut self) -> Result<(), Failure> {
        let runtime = runtime()?;
        let named = self.named;
        // The names the user gave are never taken by a bot's `ready`.
        let mut taken: Vec<String> = [&self.white, &self.black]
            .into_iter()
            .zip(named)
            .filter(|(_, named)| *named)
            .map(|(bot, _)| bot.name.clone())
            .collect();
        for (k, bot) in [&mut self.white, &mut self.black].into_iter().enumerate() {
            let relay = self.human.is_some_and(|h| h.index() == k);
            if relay || (named[k] && bot.options.is_empty()) {
                continue;
            }
            let ready = runtime
                .block_on(preflight(
                    bot,
                    GameConfig::default().handshake,
                    self.sandbox.mode,
                ))
                .map_err(preflight_failure)?;
            if !named[k] {
                let base = crate::bot::name::sanitize(&ready).unwrap_or_else(|| bot.name.clone());
                bot.name = crate::bot::name::unique(&base, &taken);
                taken.push(bot.name.clone());
            }
        }
        Ok(())
    }

    /// Opens the record file, starts the viewer, plays the game and prints its result.
    fn play(mut self) -> Result<(), Failure> {
        let transcript = self.log_dir.as_ref().map(|dir| {
            dir.join(format!(
                "{}-vs-{}-seed{}.log",
                file_safe(&self.white.name),
                file_safe(&self.black.name),
                self.seed
            ))
        });
        let record_file = match &self.pgn {
            Some(path) => Some(open_record_file(path).map_err(Failure::Run)?),
            None => None,
        };
        let sequential = crate::series::placement::sequential(self.sandbox.policy());
        let cfg = GameConfig {
            game: GameSetup {
                seed: self.seed,
                max_illegal: self.max_illegal,
                ..self.clock
            },
            transcript,
            sandbox: self.sandbox.policy(),
            ..GameConfig::default()
        };
        let title = format!("{} vs {}", self.white.name, self.black.name);
        let watching = start_watch(self.listener, &title, Some(1), self.human)?;
        if let Some(desk) = watching.as_ref().and_then(|w| w.desk.as_ref()) {
            match desk.side() {
                Side::White => self.white.args = desk.relay_args(),
                Side::Black => self.black.args = desk.relay_args(),
            }
        }
        let show = Show {
            quiet: self.quiet,
            board: self.board,
        };
        // After the viewer's threads started: only this thread (the game's referee) and the
        // bots are pinned, and the CPU is held for the game alone.
        let claim = place(self.affinity, sequential, &mut self.white, &mut self.black);
        let played = play_game(
            &self.white,
            &self.black,
            &cfg,
            record_file,
            show,
            watching.as_ref().map(|w| &w.hub),
        );
        drop(claim);
        if !matches!(played, Err(Failure::Interrupted)) {
            linger(watching);
        }
        played
    }
}

/// `--affinity` for the one game: pins this thread (the game's referee) and the bots where
/// the mode says, or warns and pins nothing; the CPU's claim, to hold until the game ends.
fn place(
    affinity: crate::series::placement::Affinity,
    sequential: bool,
    white: &mut BotSpec,
    black: &mut BotSpec,
) -> Option<crate::series::placement::CpuClaim> {
    use crate::series::placement::{allowed_cpus, claim, place};
    let placement = place(affinity, &allowed_cpus(), 1, sequential);
    if let Some(warning) = &placement.warning {
        eprintln!("zebra: {warning}");
    }
    let at = placement.places.and_then(|p| p.first().copied())?;
    let preferred = match at {
        crate::series::placement::Place::Game(cpu) => cpu,
        crate::series::placement::Place::Bots([w, b]) => {
            white.cpus = Some(vec![w]);
            black.cpus = Some(vec![b]);
            return None;
        }
    };
    // A CPU another game of this machine holds is not taken: unpinned then.
    let held = claim(preferred, &allowed_cpus())?;
    if let Err(e) = crate::bot::process::pin_current_thread(&[held.cpu]) {
        eprintln!(
            "zebra: warning: cannot pin the game to CPU {}: {e}",
            held.cpu
        );
        return None;
    }
    white.cpus = Some(vec![held.cpu]);
    black.cpus = Some(vec![held.cpu]);
    Some(held)
}

/// The side `--white human` or `--black human` gives a person, if either does.
fn human_seat(args: &PlayArgs) -> Result<Option<Side>, Failure> {
    let (white, black) = (args.white.as_deref(), args.black.as_deref());
    // A person at the viewer: that side's "bot" is the seat's relay (see web::seat).
    let human = match (white, black) {
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
            Side::White => &args.white_options,
            Side::Black => &args.black_options,
        };
        if !given.is_empty() {
            return Err(Failure::Usage(format!(
                "--{side}-option: the human seat takes no options"
            )));
        }
    }
    Ok(human)
}

/// The game's own clock: Football Chess's time control or a chess clock, and the game's
/// wall-time cap.
fn game_clock(
    rules: Rules,
    tc: Option<String>,
    human: Option<Side>,
    max_game_time: Option<&str>,
) -> Result<GameSetup, Failure> {
    let mut clock = GameSetup::of(rules);
    let tc_text = tc.unwrap_or_else(|| {
        if human.is_some() {
            crate::web::seat::human_clock(rules)
        } else {
            GameSetup::default_clock(rules)
        }
        .to_string()
    });
    clock
        .read_clock(&tc_text)
        .map_err(|e| Failure::Usage(format!("--tc: {e}")))?;
    if let Some(text) = max_game_time {
        clock.max_game_time = text
            .parse()
            .map_err(|e| Failure::Usage(format!("--max-game-time: {e}")))?;
    }
    Ok(clock)
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

/// A bot's name as part of a file name.
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

/// What is printed as the game goes.
#[derive(Clone, Copy)]
struct Show {
    /// Only the result line.
    quiet: bool,
    /// The field as every play (or turn) ends.
    board: bool,
}

/// Plays one refereed game, shows it as it goes, appends its record.
fn play_game(
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    pgn: Option<(PathBuf, std::fs::File)>,
    show: Show,
    hub: Option<&Arc<crate::web::Hub>>,
) -> Result<(), Failure> {
    // The live viewer is told the game as a series of one game.
    let spectator = hub.map(|h| h.clone() as Arc<dyn Spectator>);
    let mut events = EventLog::none().with_spectator(spectator.clone());
    let game_ref = GameRef {
        game: 1,
        pair: 1,
        round: 1,
        leg: 1,
        white: white.name.clone(),
        black: black.name.clone(),
        seed: cfg.game.seed,
    };
    events.emit(&SeriesEvent::GameStarted {
        game: game_ref.clone(),
        attempt: 1,
    });
    let started = std::time::Instant::now();
    let runtime = runtime()?;
    let mut so_far = SoFar::default();
    let played = if cfg.game.rules() != Rules::FootballChess {
        play_by_turns(
            &runtime,
            white,
            black,
            cfg,
            show,
            spectator.as_ref(),
            &mut so_far,
        )
    } else {
        play_by_plays(
            &runtime,
            white,
            black,
            cfg,
            show,
            spectator.as_ref(),
            &mut so_far,
        )
    };
    let report = match played {
        Ok(report) => report,
        Err(Failure::Interrupted) => {
            if let (Some((path, file)), Some(mut record)) = (pgn, so_far.0) {
                let over = record
                    .finish_interrupted()
                    .map_err(|e| Failure::Run(format!("cannot end the record: {e}")))?;
                append_record(&path, file, &record)?;
                if over {
                    eprintln!(
                        "zebra: the game was over; it is recorded in {} ({} entries)",
                        path.display(),
                        record.entries.len()
                    );
                } else {
                    eprintln!(
                        "zebra: the game so far is recorded in {} (Termination \"unterminated\", {} entries)",
                        path.display(),
                        record.entries.len()
                    );
                }
            }
            return Err(Failure::Interrupted);
        }
        Err(e) => return Err(e),
    };
    if let Some((path, file)) = pgn {
        append_record(&path, file, &report.record)?;
    }
    if let Some(s) = &spectator {
        s.game_over(1, &report.record, &report.reason);
        events.emit(&SeriesEvent::finished(
            game_ref,
            1,
            &report,
            started.elapsed(),
        ));
    }
    print_result(white, black, &report)
}

/// A record appended to the `--pgn` file and synced to disk.
fn append_record(path: &Path, mut file: std::fs::File, record: &GameRecord) -> Result<(), Failure> {
    let text =
        write_game(record).map_err(|e| Failure::Run(format!("cannot write the record: {e}")))?;
    file.write_all(text.as_bytes())
        .and_then(|_| file.sync_all())
        .map_err(|e| Failure::Run(format!("cannot write {}: {e}", path.display())))
}

/// The record of the game being played as it grows (new entries appended, the record never
/// copied whole after the first time), so that a game stopped by Ctrl-C or SIGTERM still
/// leaves its record.
#[derive(Default)]
struct SoFar(Option<GameRecord>);

impl SoFar {
    fn follow(&mut self, record: &GameRecord) {
        match &mut self.0 {
            Some(kept) if kept.entries.len() <= record.entries.len() => {
                kept.tags.clone_from(&record.tags);
                let known = kept.entries.len();
                kept.entries.extend_from_slice(&record.entries[known..]);
            }
            _ => self.0 = Some(record.clone()),
        }
    }
}

/// A game other than Football Chess, as the viewer replays it: one line per turn, the
/// board as a turn ends.
fn play_by_turns(
    runtime: &tokio::runtime::Runtime,
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    show: Show,
    spectator: Option<&Arc<dyn Spectator>>,
    so_far: &mut SoFar,
) -> Result<GameReport, Failure> {
    let style = crate::web::TermStyle::for_stdout();
    if !show.quiet {
        out!(
            "{}: {} (white) vs {} (black)",
            cfg.game.rules(),
            white.name,
            black.name
        );
    }
    let mut replay: Option<crate::web::feed::Replay> = None;
    let mut line = String::new();
    let mut boards = Boards::new(style);
    interruptible(
        runtime,
        crate::referee::play_game(white, black, cfg, |record| {
            so_far.follow(record);
            if let Some(s) = spectator {
                s.follow(1, record);
            }
            if show.quiet {
                return;
            }
            if show.board {
                boards.follow(record);
                return;
            }
            if replay.is_none() {
                replay = crate::web::feed::view_head(record).ok().map(|(_, r)| r);
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
                }
            }
        }),
    )
}

/// `--board`: every entry's caption in plain English under its play's (turn's) header,
/// and the board as each play (turn) ends, replayed from the record as it grows.
struct Boards {
    replay: Option<crate::web::feed::Replay>,
    style: crate::web::TermStyle,
}

impl Boards {
    fn new(style: crate::web::TermStyle) -> Boards {
        Boards {
            replay: None,
            style,
        }
    }

    fn follow(&mut self, record: &GameRecord) {
        if self.replay.is_none() {
            self.replay = crate::web::feed::view_head(record).ok().map(|(_, r)| r);
        }
        let Some(r) = self.replay.as_mut() else {
            return;
        };
        for entry in record.entries.iter().skip(r.entries()) {
            let Ok(step) = r.step(entry) else { return };
            print_step(&step, self.style);
        }
    }
}

/// One step as `--board` shows it: the header where a play (turn) begins, the caption,
/// and the board where it ends. `zebra view --board` prints recorded games the same way.
pub(super) fn print_step(step: &crate::web::Step, style: crate::web::TermStyle) {
    if let Some(header) = &step.header {
        out!("{header}");
    }
    out!("  {}", step.caption);
    if step.play_end {
        out!("{}", step.frame.text(style));
    }
}

/// A game of Football Chess: a situation line per play, its flags and scores, the field
/// as a play ends.
fn play_by_plays(
    runtime: &tokio::runtime::Runtime,
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    show: Show,
    spectator: Option<&Arc<dyn Spectator>>,
    so_far: &mut SoFar,
) -> Result<GameReport, Failure> {
    let style = crate::web::TermStyle::for_stdout();
    if !show.quiet && !show.board {
        // The game as it starts: its usual start or `--start`.
        let (start, _, _) = <Game as crate::referee::Refereed>::set_up(&cfg.game);
        out!("{}", situation(&start));
    }
    let mut boards = Boards::new(style);
    interruptible(
        runtime,
        Referee::play(white, black, cfg, |game, events, record| {
            so_far.follow(record);
            if let Some(s) = spectator {
                s.follow(1, record);
            }
            if show.quiet {
                return;
            }
            if show.board {
                boards.follow(record);
                return;
            }
            for e in events {
                match e {
                    Event::Touchdown { .. }
                    | Event::Safety { .. }
                    | Event::Flag(_)
                    | Event::TurnoverOnDowns { .. }
                    | Event::PeriodEnd { .. } => {
                        let words = crate::games::football_chess::caption::caption(
                            None,
                            None,
                            &|_| None,
                            std::slice::from_ref(e),
                        );
                        out!("  {words}")
                    }
                    Event::NextPlay { .. } => out!("{}", situation(game)),
                    _ => {}
                }
            }
        }),
    )
}

/// The bots' misbehaviour, then the result line; a forfeit is a failure (exit code 3).
fn print_result(white: &BotSpec, black: &BotSpec, report: &GameReport) -> Result<(), Failure> {
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
