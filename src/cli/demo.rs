//! `zebra demo`: one whole game between two seeded random players inside the engine (no
//! bot processes), printed play by play (Boyer's Football: turn by turn).

use super::args::DemoArgs;
use super::common::{ordinal, rules_flag};
use super::failure::Failure;
use crate::rules::playout::play_random_game;
use crate::rules::{Event, Game, Rules, Settings, Side};

/// Checks the flags and plays the game.
pub(super) fn run(args: DemoArgs) -> Result<(), Failure> {
    if rules_flag(&args.rules)? == Rules::BoyerFootball {
        boyer_demo(args.seed, args.quiet);
        return Ok(());
    }
    if args.plays_per_quarter == 0 {
        return Err(Failure::Usage(
            "--plays-per-quarter must be at least 1".into(),
        ));
    }
    demo(args.seed, args.plays_per_quarter, args.quiet);
    Ok(())
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
            g.score(Side::White),
            g.score(Side::Black),
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
        end.score(Side::White),
        end.score(Side::Black)
    );
}

/// `zebra demo --rules boyer-football`: a seeded random game, one line per turn.
fn boyer_demo(seed: u64, quiet: bool) {
    use crate::rules::boyer;
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
