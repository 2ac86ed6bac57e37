//! Chess Eleven's engine against its independent reference: `tests/chess_eleven_ref/
//! c11ref.py`, written in Python from protocol/CHESS-ELEVEN.md alone. From the kick-off and
//! from 200 positions of seeded random games, both list every child of every action (the
//! position after it, or the restart it causes) and count perft to depth 3; every line
//! must agree.

use std::io::Write;
use std::process::{Command, Stdio};

use zebra::games::chess_eleven::perft::perft;
use zebra::games::chess_eleven::playout::KICK_OFF;
use zebra::games::chess_eleven::{Action, Game, Position, RandomPlayer, RoundEnd, Settings};
use zebra::rules::Side;

const DEPTH: u32 = 3;

/// The kick-off and 200 positions of seeded random games: every fifth position of a game
/// (180 of them), and 20 positions of corner goes, for the variety of a round's moments.
fn positions() -> Vec<Position> {
    let mut plain: Vec<Position> = Vec::new();
    let mut corners: Vec<Position> = Vec::new();
    let mut seed = 0;
    while plain.len() < 180 || corners.len() < 20 {
        seed += 1;
        assert!(seed < 5000, "random games give too few corner goes");
        let mut player = RandomPlayer::new(seed);
        let mut game = Game::new(Settings {
            seed,
            ..Settings::default()
        });
        let mut step = 0;
        while let Some(action) = player.choose(&game) {
            if let Some(p) = game.position() {
                step += 1;
                if p.progress().corner {
                    if corners.len() < 20 && !corners.contains(p) {
                        corners.push(p.clone());
                    }
                } else if step % 5 == 0 && plain.len() < 180 && !plain.contains(p) {
                    plain.push(p.clone());
                }
            }
            game.play(&action).unwrap();
        }
    }
    let mut out: Vec<Position> = vec![KICK_OFF.parse().unwrap()];
    out.extend(plain);
    out.extend(corners);
    out
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'w',
        Side::Black => 'b',
    }
}

/// The reference's batch format, from the engine.
fn engine_batch(positions: &[Position]) -> String {
    let mut out = String::new();
    for pos in positions {
        out.push_str(&format!("position {pos}\n"));
        let mut children = Vec::new();
        for action in pos.legal() {
            let actions: Vec<Action> = match action {
                Action::Shot { from, to, .. } if pos.board().get(to).is_some() => pos
                    .shot_outcomes(to)
                    .iter()
                    .map(|&o| Action::Shot {
                        from,
                        to,
                        outcome: Some(o),
                    })
                    .collect(),
                a => vec![a],
            };
            for a in actions {
                let mut next = pos.clone();
                let applied = next.apply(&a).unwrap();
                let result = match applied.end {
                    None => next.to_string(),
                    Some(end) => {
                        let (reason, side) = match end {
                            RoundEnd::Goal { by } => ("goal", by),
                            RoundEnd::Checkmate { by } => ("checkmate", by),
                            RoundEnd::Stalemate { side } => ("stalemate", side),
                        };
                        let [w, b] = next.score();
                        format!("restart {reason} {} {w}-{b}", side_letter(side))
                    }
                };
                children.push((a.to_string(), result));
            }
        }
        children.sort();
        for (key, result) in children {
            out.push_str(&format!("child {key} {result}\n"));
        }
        for d in 1..=DEPTH {
            out.push_str(&format!("perft {d} {}\n", perft(pos, d)));
        }
    }
    out
}

fn reference_batch(positions: &[Position]) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/chess_eleven_ref/c11ref.py"
    );
    let mut child = Command::new("python3")
        .args([script, "batch", &DEPTH.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs the reference (install Python 3)");
    let mut stdin = child.stdin.take().unwrap();
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "the reference failed");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_engine_and_the_independent_reference_agree() {
    let positions = positions();
    assert_eq!(positions.len(), 201);
    assert!(
        positions.iter().filter(|p| p.progress().corner).count() >= 20,
        "the sample has corner goes"
    );
    let ours = engine_batch(&positions);
    let theirs = reference_batch(&positions);
    let mut position = "";
    let mut differences = Vec::new();
    for (a, b) in ours.lines().zip(theirs.lines()) {
        if a.starts_with("position ") {
            position = a;
        }
        if a != b {
            differences.push(format!("{position}\n  engine:    {a}\n  reference: {b}"));
        }
    }
    assert_eq!(
        ours.lines().count(),
        theirs.lines().count(),
        "line counts differ; first differences:\n{}",
        differences
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        differences.is_empty(),
        "{} lines differ; the first:\n{}",
        differences.len(),
        differences
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Thousands of seeded random games (random legal formations, the substitute used at
/// random) end; keep their invariants at every decision (one ball where a ball can be, a
/// king a side, never a legal capture of a king, at most an army's pieces); and their
/// records verify, and read and written again give the same bytes.
#[test]
fn random_games_end_keep_their_invariants_and_replay_from_their_records() {
    use zebra::games::chess_eleven::{Ball, Halves};
    use zebra::record::{read_games, verify_any, write_game, GameRecord, Recorded, Termination};
    let mut goals = 0u32;
    let mut substitutions = 0u32;
    for seed in 0..2000u64 {
        let settings = Settings {
            halves: Halves::Goes(20 + (seed % 3) as u16 * 10),
            goals: (seed % 4 == 0).then_some(3),
            seed,
            ..Settings::default()
        };
        let mut record = GameRecord::of::<Game>(&settings);
        let mut game = Game::new(settings);
        let mut player = RandomPlayer::new(seed);
        let mut decisions = 0;
        while let Some(action) = player.choose(&game) {
            if let Action::Formation(f) = &action {
                substitutions += u32::from(f.bench == zebra::games::chess_eleven::Role::Pawn);
            }
            let events = game.play(&action).unwrap();
            record
                .entries
                .push(zebra::record::Entry::action(Game::as_recorded(
                    &action, &events,
                )));
            decisions += 1;
            assert!(decisions < 20_000, "seed {seed} does not end");
            let Some(p) = game.position() else { continue };
            for side in [Side::White, Side::Black] {
                assert!(
                    p.board().king(side).is_some(),
                    "seed {seed}: a king is gone"
                );
                assert!(p.board().squares_of(side).count() <= 15, "seed {seed}");
            }
            match p.ball() {
                Ball::Carried(s) => assert!(p.board().get(s).is_some(), "seed {seed}"),
                Ball::Flag(_) => assert!(p.progress().corner, "seed {seed}"),
                Ball::Spot => assert!(p.progress().at_start(), "seed {seed}"),
            }
            for a in p.legal() {
                if let Action::Move { to, .. } = a {
                    assert!(
                        p.board().get(to).map(|q| q.role)
                            != Some(zebra::games::chess_eleven::Role::King),
                        "seed {seed}: {a} takes a king in {p}"
                    );
                }
            }
        }
        goals += u32::from(game.score()[0] + game.score()[1]);
        record.finish(&game, Termination::Normal, None);
        let text = write_game(&record).unwrap();
        let read = read_games(&text).unwrap();
        assert_eq!(read.len(), 1);
        verify_any(&read[0]).unwrap_or_else(|d| panic!("seed {seed}: {d}"));
        assert_eq!(write_game(&read[0]).unwrap(), text, "seed {seed}");
    }
    // The sample scores and substitutes: the end of a round and C13 are exercised.
    assert!(goals > 100, "{goals} goals");
    assert!(substitutions > 10, "{substitutions} substitutions");
}

/// A recorded shot whose outcome is not the one the seed draws is refused by `verify`.
#[test]
fn a_record_with_another_shot_outcome_does_not_verify() {
    use zebra::record::{read_games, verify_any, write_game, GameRecord, Recorded, Termination};
    for seed in 0..200u64 {
        let settings = Settings {
            seed,
            ..Settings::default()
        };
        let mut record = GameRecord::of::<Game>(&settings);
        let mut game = Game::new(settings);
        let mut player = RandomPlayer::new(seed);
        while let Some(action) = player.choose(&game) {
            let events = game.play(&action).unwrap();
            record
                .entries
                .push(zebra::record::Entry::action(Game::as_recorded(
                    &action, &events,
                )));
        }
        record.finish(&game, Termination::Normal, None);
        let text = write_game(&record).unwrap();
        let Some(at) = text.find("=save").or_else(|| text.find("=block")) else {
            continue;
        };
        // The drawn save (or block) rewritten as a goal.
        let mut forged = text.clone();
        let len = if text[at..].starts_with("=save") {
            5
        } else {
            6
        };
        forged.replace_range(at..at + len, "=goal");
        let read = read_games(&forged).unwrap();
        let err = verify_any(&read[0]).unwrap_err().to_string();
        assert!(err.contains("the seed draws"), "{err}");
        return;
    }
    panic!("no drawn save or block in 200 random games");
}
