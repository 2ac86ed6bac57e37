//! The `zebra` binary: parse flags, validate them once, run, and map failures to one
//! readable line and an exit code (0 success, 1 failure, 2 bad usage).

use std::process::ExitCode;

use clap::Parser;

use zebra::cli::{Cli, Command};
use zebra::rules::perft::{self, perft};
use zebra::rules::playout::play_random_game;
use zebra::rules::{Event, Game, Settings};

fn main() -> ExitCode {
    let cli = Cli::parse();
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
    }
}

enum Failure {
    Usage(String),
    Run(String),
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Play {
            seed,
            plays_per_quarter,
            quiet,
        } => {
            if plays_per_quarter == 0 {
                return Err(Failure::Usage(
                    "--plays-per-quarter must be at least 1".into(),
                ));
            }
            play(seed, plays_per_quarter, quiet);
            Ok(())
        }
        Command::Perft {
            position,
            diagram,
            depth,
            divide,
        } => {
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
                let mut total = 0;
                for (action, n) in perft::divide(&game, depth) {
                    println!("{action} {n}");
                    total += n;
                }
                println!("total {total}");
            } else {
                println!("{}", perft(&game, depth));
            }
            Ok(())
        }
        Command::Bench {
            games,
            seed,
            plays_per_quarter,
            json,
            movegen,
            rounds,
        } => {
            if games == 0 || plays_per_quarter == 0 {
                return Err(Failure::Usage(
                    "--games and --plays-per-quarter must be at least 1".into(),
                ));
            }
            if movegen {
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
                "{} games, {} actions in {:.3} s: {:.0} games/s, {:.0} actions/s (seed {}, {} plays per quarter, one core)",
                r.games, r.actions, r.seconds, r.games_per_second, r.actions_per_second, r.seed, r.plays_per_quarter
            );
            print_report(json, &r, &text);
            Ok(())
        }
    }
}

/// Prints a benchmark report as one JSON object or as one line of text.
fn print_report(json: bool, report: &impl serde::Serialize, text: &str) {
    if json {
        println!(
            "{}",
            serde_json::to_string(report).expect("a report serializes")
        );
    } else {
        println!("{text}");
    }
}

/// Plays and prints one random game, a line per play.
fn play(seed: u64, plays_per_quarter: u16, quiet: bool) {
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
                    println!("{line}");
                }
                line.clear();
            }
        },
    );
    let result = end.result().expect("a finished game has a result");
    println!(
        "result {} white {} black {} (seed {seed})",
        result.pgn(),
        end.score(zebra::rules::Side::White),
        end.score(zebra::rules::Side::Black)
    );
}

fn ordinal(down: u8) -> &'static str {
    match down {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        _ => "4th",
    }
}
