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
