//! Tests: rule 4.3 (throwing: who throws where, direct and indirect throws, interceptions,
//! incomplete passes, fumbles, the forward pass limits) with rulings R11 and R31–R34.
//!
//! Most of them are cases of `tests/data/rules/throwing.txt` (read by
//! `cases::throwing_cases_file`, each named after the test it was). What stays here asserts
//! on what a diagram does not show: the pass in flight as a whole (whether it is direct),
//! the flags thrown so far, and the ball in a pile.

use zebra::rules::{Action, Ball, Event, Foul, FoulKind, Game, Phase, Piece, Role, Side, Throw};

use crate::support::{game, play, sq};

/// The legal throws from `from`, as target squares in notation, sorted.
fn throw_targets(g: &Game, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = g
        .legal_action_list()
        .iter()
        .filter_map(|a| match a {
            Action::Throw { from: f, to } if *f == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn ifp(side: Side, at: &str) -> Event {
    Event::Flag(Foul {
        side,
        kind: FoulKind::IllegalForwardPass,
        spot: sq(at),
    })
}

/// One carrier alone on d4; Black has a pawn on a7 to move.
fn carrier_on_d4(p: char) -> Game {
    game(&format!(
        r#"
offense: white
spot: d3
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . {p}* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#
    ))
}

// ---- who throws where (4.3, R11) ----

#[test]
fn rule_4_3_king_throws_to_any_square() {
    let mut g = carrier_on_d4('K');
    assert_eq!(throw_targets(&g, "d4").len(), 63);
    let ev = play(&mut g, &["d4^g5"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("d4"),
            to: sq("g5"),
            forward: true
        }]
    );
    assert_eq!(
        g.ball(),
        Ball::InFlight(Throw {
            from: sq("d4"),
            to: sq("g5"),
            side: Side::White,
            forward: true,
            direct: false,
            defense_done: false,
        })
    );
}

// ---- direct throws (4.3, R31) ----

const DIRECT: &str = r#"
offense: white
spot: e4
8 . . . . r . . .
7 p . . . . . . .
6 . . . . N . . .
5 . . . . . . . .
4 . . K* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r31_direct_throw_is_caught_after_the_opponent_turn() {
    let mut g = game(DIRECT);
    let ev = play(&mut g, &["c4^e6"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("c4"),
            to: sq("e6"),
            forward: true
        }]
    );
    assert!(matches!(
        g.ball(),
        Ball::InFlight(Throw { direct: true, .. })
    ));
    let ev = play(&mut g, &["a7a6"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Pawn,
                from: sq("a7"),
                to: sq("a6")
            },
            Event::Caught { at: sq("e6") },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
    assert_eq!(g.possession(), Side::White);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    // The receiver moves with the ball on the next turn.
    play(&mut g, &["e6g5"]);
    assert_eq!(g.ball(), Ball::Carried(sq("g5")));
}

#[test]
fn r31_batted_lateral_is_a_fumble_with_the_receiver_team_deciding_first() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: e4^c4
8 . . r . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . N . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["c8c4"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Rook,
                from: sq("c8"),
                to: sq("c4")
            },
            Event::Batted { at: sq("c4") },
            Event::Fumble { at: sq("c4") },
        ]
    );
    assert_eq!(g.ball(), Ball::Contested(sq("c4")));
    assert_eq!(g.phase(), Phase::Contention(Side::White));
    assert_eq!(
        g.board().stack_at(sq("c4")).to_vec(),
        vec![
            Piece::new(Side::White, Role::Knight),
            Piece::new(Side::Black, Role::Rook)
        ]
    );
}

// ---- indirect throws (4.3, R32) ----

const INDIRECT: &str = r#"
offense: white
turn: black
spot: e4
throw: e4^e7
8 . . . . r . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . N . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r32_friendly_piece_arriving_on_the_next_turn_catches() {
    let mut g = game(INDIRECT);
    assert_eq!(play(&mut g, &["a7a6"]).len(), 1);
    assert_eq!(
        g.ball(),
        Ball::InFlight(Throw {
            from: sq("e4"),
            to: sq("e7"),
            side: Side::White,
            forward: true,
            direct: false,
            defense_done: true,
        })
    );
    let ev = play(&mut g, &["f5e7"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Knight,
                from: sq("f5"),
                to: sq("e7")
            },
            Event::Caught { at: sq("e7") },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e7")));
    assert_eq!(g.possession(), Side::White);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

// ---- forward pass limits (4.3, 7.2, R34) ----

/// The line is rank 6: a pass caught on e5 has not crossed it.
const TWO_PASSES: &str = r#"
offense: white
spot: e6
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . N . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r34_first_forward_pass_draws_no_flag() {
    let mut g = game(TWO_PASSES);
    let ev = play(&mut g, &["e4^e5"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("e4"),
            to: sq("e5"),
            forward: true
        }]
    );
    assert!(g.flags().is_empty());
    assert!(g.forward_pass_thrown());
}

#[test]
fn r34_second_forward_pass_draws_illegal_forward_pass() {
    let mut g = game(TWO_PASSES);
    play(&mut g, &["e4^e5", "a7a6"]);
    assert_eq!(g.ball(), Ball::Carried(sq("e5")));
    assert!(!g.ball_crossed_line());
    let ev = play(&mut g, &["e5^f7"]);
    assert_eq!(
        ev,
        vec![
            ifp(Side::White, "e5"),
            Event::Thrown {
                from: sq("e5"),
                to: sq("f7"),
                forward: true
            }
        ]
    );
    assert_eq!(
        g.flags(),
        &[Foul {
            side: Side::White,
            kind: FoulKind::IllegalForwardPass,
            spot: sq("e5")
        }]
    );
    // The illegal pass still flies.
    assert!(matches!(g.ball(), Ball::InFlight(Throw { to, .. }) if to == sq("f7")));
}

#[test]
fn r34_backward_pass_after_a_forward_pass_is_legal() {
    let mut g = game(TWO_PASSES);
    play(&mut g, &["e4^e5", "a7a6"]);
    let ev = play(&mut g, &["e5^c4"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("e5"),
            to: sq("c4"),
            forward: false
        }]
    );
    assert!(g.flags().is_empty());
}

#[test]
fn r34_lateral_after_an_interception_is_legal() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . q* . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5^d7"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("d5"),
            to: sq("d7"),
            forward: false
        }]
    );
    assert!(g.flags().is_empty());
}
