//! The command line: its flags as clap parses them ([`Cli`], raw values only), and one
//! module per command. The `zebra` binary parses, calls [`run`], and maps a [`Failure`] to
//! its exit code.

#[macro_use]
mod out;

mod args;
mod bench;
mod common;
mod demo;
mod doctor;
mod failure;
mod r#match;
mod perft;
mod play;
mod runtime;
mod serve;
mod verify;
mod view;
mod watch;

pub use args::*;
pub use failure::Failure;

use std::path::Path;

use self::bench::boyer_bench;
use self::common::{bot_spec, bundled, file_safe, print_report, rules_flag};
use self::demo::{boyer_demo, demo};
use self::doctor::doctor;
use self::failure::preflight_failure;
use self::perft::{boyer_perft, print_divide};
use self::play::{check_log_dir, open_record_file, play, HUMAN, HUMAN_TC};
use self::r#match::match_series;
use self::runtime::{interruptible, runtime};
use self::serve::serve;
use self::verify::verify;
use self::view::view;
use self::watch::{bind_watch, linger, start_watch};
use crate::bot::BotSpec;
use crate::referee::check::{check_bot_for, CheckLimits};
use crate::referee::preflight::preflight;
use crate::referee::GameConfig;
use crate::rules::perft::perft;
use crate::rules::{Game, Rules, Side};

pub fn run(command: Command) -> Result<(), Failure> {
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
            let human_asked = [white.as_deref(), black.as_deref()].contains(&Some(HUMAN));
            if rules != Rules::FootballChess && human_asked {
                return Err(Failure::Usage(format!(
                    "a human seat plays Football Chess only; play {rules} between two bots"
                )));
            }
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
                    HUMAN_TC
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
            let settings = crate::sandbox::Settings::from_flags(
                &sandbox.sandbox,
                &sandbox.freeze_idle,
                sandbox.limits(),
            )
            .map_err(Failure::Usage)?;
            let limits = settings
                .limits_for(&crate::sandbox::LimitSettings::default())
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
                            crate::bot::name::sanitize(&ready).unwrap_or_else(|| bot.name.clone());
                        bot.name = crate::bot::name::unique(&base, &taken);
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
        Command::SeatRelay { addr, token } => crate::web::seat::relay(&addr, &token)
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
                    crate::referee::check::check_games(
                        rules,
                        &spec,
                        &opponent,
                        games,
                        crate::sandbox::Policy::default(),
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
                (Some(name), _) => crate::rules::perft::position(&name).ok_or_else(|| {
                    let names: Vec<&str> = crate::rules::perft::POSITIONS
                        .iter()
                        .map(|(n, _)| *n)
                        .collect();
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
                print_divide(crate::rules::perft::divide(&game, depth));
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
                    .block_on(crate::bench::series(
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
                    crate::server::bench::run(&bot, &dir, games.min(10_000) as u32, 2, repeat),
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
                    crate::bench::referee(&bot, games.min(1000) as u32, seed, layout),
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
                    interruptible(&runtime, crate::bench::flood(&bot))?.map_err(Failure::Run)?;
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
                let r = crate::bench::movegen(seed, rounds);
                let text = format!(
                    "{} positions x {rounds} rounds: {:.0} generations/s, {:.0} listed actions/s (one core)",
                    r.positions, r.generations_per_second, r.actions_listed_per_second
                );
                print_report(json, &r, &text);
                return Ok(());
            }
            let r = crate::bench::run(games, seed, plays_per_quarter);
            let text = format!(
                "{} games, {} actions in {:.3} s: {:.0} games/s, {:.0} actions/s (seed {}, {} plays per quarter, one core); a copy of a game: {} bytes, {:.0} ns",
                r.games, r.actions, r.seconds, r.games_per_second, r.actions_per_second, r.seed, r.plays_per_quarter, r.copy_bytes, r.copy_ns
            );
            print_report(json, &r, &text);
            Ok(())
        }
    }
}
