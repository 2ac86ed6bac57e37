//! Tests: rule 4.3 (throwing: who throws where, direct and indirect throws, interceptions,
//! incomplete passes, fumbles, the forward pass limits) with rulings R11 and R31–R34.

use zebra::rules::{
    Action, ActionError, Ball, Event, Foul, FoulKind, Game, Phase, Piece, PlayEnd, Role, Side,
    Throw,
};

use crate::support::{game, is_legal, play, rejected, sq};

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

fn strings(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
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

#[test]
fn rule_4_3_rook_throws_along_its_lines() {
    let mut g = carrier_on_d4('R');
    assert_eq!(
        throw_targets(&g, "d4"),
        strings(&[
            "d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4", "h4"
        ])
    );
    assert_eq!(
        rejected(&mut g, "d4^e6"),
        ActionError::ThrowDirection {
            role: Role::Rook,
            from: sq("d4"),
            to: sq("e6")
        }
    );
}

#[test]
fn rule_4_3_bishop_throws_along_its_diagonals() {
    let mut g = carrier_on_d4('B');
    assert_eq!(
        throw_targets(&g, "d4"),
        strings(&["e5", "f6", "g7", "h8", "c5", "b6", "a7", "e3", "f2", "g1", "c3", "b2", "a1"])
    );
    assert_eq!(
        rejected(&mut g, "d4^d7"),
        ActionError::ThrowDirection {
            role: Role::Bishop,
            from: sq("d4"),
            to: sq("d7")
        }
    );
}

#[test]
fn rule_4_3_queen_throws_along_rook_and_bishop_lines() {
    let mut g = carrier_on_d4('Q');
    assert_eq!(throw_targets(&g, "d4").len(), 27);
    assert_eq!(
        rejected(&mut g, "d4^e6"),
        ActionError::ThrowDirection {
            role: Role::Queen,
            from: sq("d4"),
            to: sq("e6")
        }
    );
}

#[test]
fn r11_knight_throws_exactly_a_knight_step() {
    let mut g = carrier_on_d4('N');
    assert_eq!(
        throw_targets(&g, "d4"),
        strings(&["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"])
    );
    for to in ["d6", "f8", "h8", "d5"] {
        assert_eq!(
            rejected(&mut g, &format!("d4^{to}")),
            ActionError::ThrowDirection {
                role: Role::Knight,
                from: sq("d4"),
                to: sq(to)
            }
        );
    }
}

#[test]
fn r11_white_pawn_throws_along_its_forward_lines() {
    let mut g = carrier_on_d4('P');
    assert_eq!(
        throw_targets(&g, "d4"),
        strings(&["d5", "d6", "d7", "d8", "c5", "b6", "a7", "e5", "f6", "g7", "h8"])
    );
    for to in ["d3", "e4", "c3", "e6"] {
        assert_eq!(
            rejected(&mut g, &format!("d4^{to}")),
            ActionError::ThrowDirection {
                role: Role::Pawn,
                from: sq("d4"),
                to: sq(to)
            }
        );
    }
}

#[test]
fn r11_black_pawn_throws_down_the_board() {
    let mut g = game(
        r#"
offense: black
spot: e6
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . p* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(
        throw_targets(&g, "e5"),
        strings(&["e4", "e3", "e2", "e1", "d4", "c3", "b2", "a1", "f4", "g3", "h2"])
    );
    assert_eq!(
        rejected(&mut g, "e5^e6"),
        ActionError::ThrowDirection {
            role: Role::Pawn,
            from: sq("e5"),
            to: sq("e6")
        }
    );
}

#[test]
fn r11_throws_fly_over_pieces() {
    let mut g = game(
        r#"
offense: white
spot: c2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . p . . .
2 . . . P . . . .
1 . . B* . . . . .
"#,
    );
    assert!(is_legal(&g, "c1^g5"));
    let ev = play(&mut g, &["c1^g5"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("c1"),
            to: sq("g5"),
            forward: true
        }]
    );
}

#[test]
fn rule_4_3_only_the_carrier_throws() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#,
    );
    assert_eq!(rejected(&mut g, "e4^e6"), ActionError::NotCarrier(sq("e4")));
}

#[test]
fn rule_4_3_throwing_counts_as_a_move() {
    let mut g = carrier_on_d4('K');
    play(&mut g, &["d4^d6"]);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
    assert_eq!(g.play_turns(), 1);
}

#[test]
fn r11_forward_means_a_target_rank_ahead_of_the_thrower() {
    let g = carrier_on_d4('K');
    for (to, forward) in [
        ("d5", true),
        ("h8", true),
        ("a4", false),
        ("h4", false),
        ("d2", false),
        ("a1", false),
    ] {
        let mut t = g.clone();
        let ev = play(&mut t, &[&format!("d4^{to}")]);
        assert_eq!(
            ev,
            vec![Event::Thrown {
                from: sq("d4"),
                to: sq(to),
                forward
            }],
            "{to}"
        );
    }
    let b = game(
        r#"
offense: black
spot: d6
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
    for (to, forward) in [("d3", true), ("d7", false), ("a5", false)] {
        let mut t = b.clone();
        let ev = play(&mut t, &[&format!("d5^{to}")]);
        assert_eq!(
            ev,
            vec![Event::Thrown {
                from: sq("d5"),
                to: sq(to),
                forward
            }],
            "{to}"
        );
    }
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
fn r31_batted_forward_pass_is_incomplete() {
    let mut g = game(DIRECT);
    play(&mut g, &["c4^e6"]);
    let ev = play(&mut g, &["e8e6"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Rook,
                from: sq("e8"),
                to: sq("e6")
            },
            Event::Batted { at: sq("e6") },
            Event::PlayOver {
                end: PlayEnd::Incomplete
            },
            Event::Incomplete,
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("e4"),
                to_gain: 6
            },
        ]
    );
    assert_eq!(g.down(), 2);
    assert_eq!(g.spot(), sq("e4"));
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

// ---- throws onto an opponent (4.3, R33) ----

#[test]
fn r33_throw_onto_an_opponent_is_intercepted_at_once() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e6"]);
    assert_eq!(
        ev,
        vec![
            Event::Thrown {
                from: sq("e4"),
                to: sq("e6"),
                forward: true
            },
            Event::Intercepted {
                side: Side::Black,
                at: sq("e6")
            },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
    assert_eq!(g.possession(), Side::Black);
    assert_eq!(g.offense(), Side::White);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn r33_interception_in_the_interceptor_end_zone_is_a_touchdown() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . r . . .
"#,
    );
    let ev = play(&mut g, &["e4^e1"]);
    assert_eq!(
        ev,
        vec![
            Event::Thrown {
                from: sq("e4"),
                to: sq("e1"),
                forward: false
            },
            Event::Intercepted {
                side: Side::Black,
                at: sq("e1")
            },
            Event::PlayOver {
                end: PlayEnd::Touchdown
            },
            Event::Touchdown { side: Side::Black },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 1,
                spot: sq("e5"),
                to_gain: 7
            },
        ]
    );
    assert_eq!(g.score(Side::Black), 7);
}

#[test]
fn r33_interception_on_file_h_is_out_of_bounds_for_the_interceptor() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . p
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^h7"]);
    assert_eq!(
        ev,
        vec![
            Event::Thrown {
                from: sq("e4"),
                to: sq("h7"),
                forward: true
            },
            Event::Intercepted {
                side: Side::Black,
                at: sq("h7")
            },
            Event::OutOfBounds { at: sq("h7") },
            Event::PlayOver {
                end: PlayEnd::OutOfBounds
            },
            Event::PossessionChanged { side: Side::Black },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::Black,
                down: 1,
                spot: sq("d4"),
                to_gain: 2
            },
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
fn r32_opponent_arriving_first_intercepts() {
    let mut g = game(INDIRECT);
    let ev = play(&mut g, &["e8e7"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Rook,
                from: sq("e8"),
                to: sq("e7")
            },
            Event::Intercepted {
                side: Side::Black,
                at: sq("e7")
            },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e7")));
    assert_eq!(g.possession(), Side::Black);
    assert_eq!(g.phase(), Phase::Action(Side::White));
}

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

#[test]
fn r32_forward_pass_nobody_reaches_is_incomplete_at_the_previous_spot() {
    let mut g = game(
        r#"
offense: white
down: 2
spot: e4
throw: c2^c6
throw-stage: offense
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . K . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["c2b2"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::King,
                from: sq("c2"),
                to: sq("b2")
            },
            Event::PlayOver {
                end: PlayEnd::Incomplete
            },
            Event::Incomplete,
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 3,
                spot: sq("e4"),
                to_gain: 6
            },
        ]
    );
    assert_eq!(g.down(), 3);
    assert_eq!(g.spot(), sq("e4"));
    assert_eq!(g.offense(), Side::White);
}

#[test]
fn r32_lateral_nobody_reaches_falls_loose() {
    let mut g = game(
        r#"
offense: white
spot: e4
throw: e4^c4
throw-stage: offense
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . p . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4e3"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::King,
                from: sq("e4"),
                to: sq("e3")
            },
            Event::Fumble { at: sq("c4") },
        ]
    );
    assert_eq!(g.ball(), Ball::Loose(sq("c4")));
    assert_eq!(g.phase(), Phase::Action(Side::Black));
    // Either team may now recover it.
    let ev = play(&mut g, &["c5c4"]);
    assert_eq!(
        ev[1],
        Event::Contested {
            side: Side::Black,
            at: sq("c4"),
            pieces: 1
        }
    );
}

#[test]
fn rule_4_3_backward_pass_batted_is_a_fumble_not_an_incomplete_pass() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: e4^e3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K p . .
3 . . . . N . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["f4e3"]);
    assert_eq!(ev[1], Event::Batted { at: sq("e3") });
    assert_eq!(ev[2], Event::Fumble { at: sq("e3") });
    assert!(!ev.contains(&Event::Incomplete));
    assert_eq!(g.phase(), Phase::Contention(Side::White));
}

// ---- catches in the end zone and on the sidelines (R33) ----

#[test]
fn r33_catch_in_the_end_zone_is_a_touchdown() {
    let mut g = game(
        r#"
offense: white
spot: e4
throw: e4^e8
throw-stage: offense
8 . . . . . . . .
7 . . . . . . . .
6 . . . N . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d6e8"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Knight,
                from: sq("d6"),
                to: sq("e8")
            },
            Event::Caught { at: sq("e8") },
            Event::PlayOver {
                end: PlayEnd::Touchdown
            },
            Event::Touchdown { side: Side::White },
            Event::PossessionChanged { side: Side::Black },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::Black,
                down: 1,
                spot: sq("d4"),
                to_gain: 2
            },
        ]
    );
    assert_eq!(g.score(Side::White), 7);
}

#[test]
fn r33_direct_throw_to_a_receiver_in_the_end_zone_is_a_touchdown() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . N . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e8", "a7a6"]);
    assert_eq!(
        ev,
        vec![
            Event::Thrown {
                from: sq("e4"),
                to: sq("e8"),
                forward: true
            },
            Event::Moved {
                side: Side::Black,
                role: Role::Pawn,
                from: sq("a7"),
                to: sq("a6")
            },
            Event::Caught { at: sq("e8") },
            Event::PlayOver {
                end: PlayEnd::Touchdown
            },
            Event::Touchdown { side: Side::White },
            Event::PossessionChanged { side: Side::Black },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::Black,
                down: 1,
                spot: sq("d4"),
                to_gain: 2
            },
        ]
    );
    assert_eq!(g.score(Side::White), 7);
}

#[test]
fn r33_catch_on_file_a_is_out_of_bounds() {
    let mut g = game(
        r#"
offense: white
spot: e4
throw: e4^a6
throw-stage: offense
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . N . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b4a6"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Knight,
                from: sq("b4"),
                to: sq("a6")
            },
            Event::Caught { at: sq("a6") },
            Event::OutOfBounds { at: sq("a6") },
            Event::PlayOver {
                end: PlayEnd::OutOfBounds
            },
            Event::FirstDown { side: Side::White },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 1,
                spot: sq("b6"),
                to_gain: 8
            },
        ]
    );
}

#[test]
fn r33_direct_catch_on_file_h_is_out_of_bounds() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . R
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^h5", "a7a6"]);
    assert_eq!(
        ev[2..].to_vec(),
        vec![
            Event::Caught { at: sq("h5") },
            Event::OutOfBounds { at: sq("h5") },
            Event::PlayOver {
                end: PlayEnd::OutOfBounds
            },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("g5"),
                to_gain: 6
            },
        ]
    );
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
fn r34_forward_pass_after_the_ball_crossed_the_line_is_illegal() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4e5"]);
    assert!(g.ball_crossed_line());
    // Coming back behind the line does not undo it.
    play(&mut g, &["a7a6", "e5e4", "a6a5"]);
    let ev = play(&mut g, &["e4^e6"]);
    assert_eq!(
        ev,
        vec![
            ifp(Side::White, "e4"),
            Event::Thrown {
                from: sq("e4"),
                to: sq("e6"),
                forward: true
            }
        ]
    );
}

const CROSSED: &str = r#"
offense: white
spot: e4
crossed: yes
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . K* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r34_forward_pass_with_crossed_flag_from_diagram_is_illegal() {
    let mut g = game(CROSSED);
    let ev = play(&mut g, &["e5^e7"]);
    assert_eq!(ev[0], ifp(Side::White, "e5"));
    // A lateral is still allowed.
    let mut g = game(CROSSED);
    let ev = play(&mut g, &["e5^b5"]);
    assert_eq!(
        ev,
        vec![Event::Thrown {
            from: sq("e5"),
            to: sq("b5"),
            forward: false
        }]
    );
}

#[test]
fn r34_forward_pass_after_an_interception_is_illegal() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4^e6"]);
    assert_eq!(g.possession(), Side::Black);
    let ev = play(&mut g, &["e6^e2"]);
    assert_eq!(
        ev,
        vec![
            ifp(Side::Black, "e6"),
            Event::Thrown {
                from: sq("e6"),
                to: sq("e2"),
                forward: true
            }
        ]
    );
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

#[test]
fn r31_direct_throw_is_caught_when_the_opponent_can_only_pass() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . N . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4^e6"]);
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Caught { at: sq("e6") }
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
    assert_eq!(g.phase(), Phase::Action(Side::White));
}

#[test]
fn r32_opponent_that_can_only_pass_lets_the_thrower_team_reach_the_ball() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4^e5", "pass"]);
    assert!(matches!(
        g.ball(),
        Ball::InFlight(Throw {
            defense_done: true,
            ..
        })
    ));
    let ev = play(&mut g, &["e4e5"]);
    assert_eq!(ev[1], Event::Caught { at: sq("e5") });
    assert_eq!(g.ball(), Ball::Carried(sq("e5")));
}

#[test]
fn r31_landing_on_the_thrower_after_the_throw_is_a_push_not_a_tackle() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: c4^e6
8 . . r . . . . .
7 . . . . . . . .
6 . . . . N . . .
5 . . . . . . . .
4 . . K . . . . .
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
            Event::Pushed {
                from: sq("c4"),
                to: sq("c3")
            },
            Event::Caught { at: sq("e6") },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
}
