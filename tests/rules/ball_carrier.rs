//! Tests: rule 4.2 (the ball carrier: possession, handoffs, fumbles, contention and piles)
//! with rulings R10, R13 and R28–R30.
//!
//! Possession, handoffs (R8), tackles and trucks after a change of possession (R10) and the
//! dead ball on file a or h (R30) are cases of `tests/data/rules/ball_carrier.txt` (read by
//! `cases::ball_carrier_cases_file`, each named after the test it was). What stays here is
//! contention and piles (R28, R29) and the whistle (R13), not yet moved.

use zebra::rules::{Action, ActionError, Ball, Event, Phase, Piece, PlayEnd, Role, Side};

use crate::support::{action, game, is_legal, play, rejected, sq};

fn piece(c: char) -> Piece {
    Piece::from_char(c).unwrap()
}

// ---- pick-up and contention (4.2, R29) ----

const LOOSE_D5: &str = r#"
offense: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . .o . . . .
4 . . . P . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r29_picking_up_a_loose_ball_puts_it_in_contention() {
    let mut g = game(LOOSE_D5);
    let ev = play(&mut g, &["d4d5"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Pawn,
                from: sq("d4"),
                to: sq("d5")
            },
            Event::Contested {
                side: Side::White,
                at: sq("d5"),
                pieces: 1
            },
        ]
    );
    assert_eq!(g.ball(), Ball::Contested(sq("d5")));
    assert_eq!(g.phase(), Phase::Contention(Side::Black));
    assert_eq!(g.legal_action_list(), vec![action("e6d5"), Action::Pass]);
}

#[test]
fn r29_single_uncontested_recoverer_keeps_the_ball_and_its_team_moves() {
    let mut g = game(LOOSE_D5);
    play(&mut g, &["d4d5"]);
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::White,
                at: sq("d5")
            }
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("d5")));
    assert_eq!(g.possession(), Side::White);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.play_turns(), 2);
}

#[test]
fn r29_defense_recovering_alone_takes_the_ball_and_moves_next() {
    // Black is first onto the ball.
    let mut g2 = game(
        r#"
offense: white
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . .o . . . .
4 . . . P . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g2, &["e6d5", "pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Pawn,
                from: sq("e6"),
                to: sq("d5")
            },
            Event::Contested {
                side: Side::Black,
                at: sq("d5"),
                pieces: 1
            },
            Event::Passed { side: Side::White },
            Event::Recovered {
                side: Side::Black,
                at: sq("d5")
            },
        ]
    );
    assert_eq!(g2.ball(), Ball::Carried(sq("d5")));
    assert_eq!(g2.possession(), Side::Black);
    assert_eq!(g2.offense(), Side::White);
    assert_eq!(g2.phase(), Phase::Action(Side::Black));
}

#[test]
fn r29_contention_alternates_until_a_team_passes() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . n . . . . .
5 . . . . . . . .
4 . . . Po . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . R . . . .
"#,
    );
    assert_eq!(
        play(&mut g, &["c6d4"]),
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Knight,
                from: sq("c6"),
                to: sq("d4")
            },
            Event::Contested {
                side: Side::Black,
                at: sq("d4"),
                pieces: 2
            },
        ]
    );
    assert_eq!(g.phase(), Phase::Contention(Side::White));
    assert_eq!(
        play(&mut g, &["d1d4"]),
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("d1"),
                to: sq("d4")
            },
            Event::Contested {
                side: Side::White,
                at: sq("d4"),
                pieces: 3
            },
        ]
    );
    assert_eq!(g.phase(), Phase::Contention(Side::Black));
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    assert_eq!(
        play(&mut g, &["pass"]),
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::White,
                at: sq("d4")
            },
            Event::PlayOver { end: PlayEnd::Pile },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("d4"),
                to_gain: 5
            },
        ]
    );
}

#[test]
fn r29_pile_goes_to_the_team_with_more_pieces_even_if_not_on_top() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . (PPp) . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::White },
            Event::Recovered {
                side: Side::White,
                at: sq("d4")
            },
            Event::PlayOver { end: PlayEnd::Pile },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("d4"),
                to_gain: 5
            },
        ]
    );
}

#[test]
fn r29_pile_with_more_defenders_is_a_turnover() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . (ppP) . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::Black,
                at: sq("d4")
            },
            Event::PlayOver { end: PlayEnd::Pile },
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
    assert_eq!(g.offense(), Side::Black);
}

#[test]
fn r29_tied_pile_goes_to_the_topmost_piece_black() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . (Pp) . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev[1],
        Event::Recovered {
            side: Side::Black,
            at: sq("d4")
        }
    );
    assert_eq!(ev[2], Event::PlayOver { end: PlayEnd::Pile });
    assert_eq!(ev[3], Event::PossessionChanged { side: Side::Black });
    assert_eq!(g.offense(), Side::Black);
}

#[test]
fn r29_tied_pile_goes_to_the_topmost_piece_white() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . (pPpP) . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev[1],
        Event::Recovered {
            side: Side::White,
            at: sq("d4")
        }
    );
    assert_eq!(ev[2], Event::PlayOver { end: PlayEnd::Pile });
    assert_eq!(g.offense(), Side::White);
    assert_eq!(g.down(), 2);
}

const CONTESTED_D4: &str = r#"
offense: white
phase: contention
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . p . . .
4 . . . Po . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . r .
"#;

#[test]
fn r29_during_contention_the_only_moves_are_onto_the_ball() {
    let mut g = game(CONTESTED_D4);
    assert_eq!(rejected(&mut g, "g1g4"), ActionError::NotOntoPile(sq("d4")));
    assert_eq!(rejected(&mut g, "e5e4"), ActionError::NotOntoPile(sq("d4")));
    let mut list = g.legal_action_list();
    list.sort_by_key(|a| a.to_string());
    assert_eq!(list, vec![action("e5d4"), Action::Pass]);
}

#[test]
fn r29_pieces_in_the_pile_do_not_move() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . (qP) . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    assert_eq!(rejected(&mut g, "d4d5"), ActionError::NotOntoPile(sq("d4")));
    assert_eq!(
        rejected(&mut g, "d4d4"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d4")
        }
    );
}

#[test]
fn r29_a_team_may_pass_in_contention_while_it_could_contest() {
    let mut g = game(CONTESTED_D4);
    assert!(is_legal(&g, "pass"));
    assert!(is_legal(&g, "e5d4"));
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::White,
                at: sq("d4")
            }
        ]
    );
    assert_eq!(g.phase(), Phase::Action(Side::White));
}

// ---- handoff then truck (4.2, R28) ----

const HANDOFF_TRUCK: &str = r#"
offense: white
spot: d2
8 . . n . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . K* . . . .
2 . . . . . . . .
1 . . . R . . . .
"#;

#[test]
fn r28_handoff_then_truck_is_a_fumble() {
    let mut g = game(HANDOFF_TRUCK);
    let ev = play(&mut g, &["d1d6"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("d1"),
                to: sq("d6")
            },
            Event::Handoff {
                from: sq("d3"),
                to: sq("d6")
            },
            Event::Fumble { at: sq("d6") },
        ]
    );
    assert_eq!(g.ball(), Ball::Contested(sq("d6")));
    assert_eq!(g.phase(), Phase::Contention(Side::Black));
    assert_eq!(
        g.board().stack_at(sq("d6")).to_vec(),
        vec![piece('p'), piece('R')]
    );
}

#[test]
fn r28_uncontested_trucker_keeps_the_ball_and_the_play_ends() {
    let mut g = game(HANDOFF_TRUCK);
    play(&mut g, &["d1d6"]);
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::White,
                at: sq("d6")
            },
            Event::PlayOver { end: PlayEnd::Pile },
            Event::FirstDown { side: Side::White },
            Event::NextPlay {
                offense: Side::White,
                down: 1,
                spot: sq("d6"),
                to_gain: 8
            },
        ]
    );
}

#[test]
fn r28_trucked_team_contesting_the_fumble_wins_it() {
    let mut g = game(HANDOFF_TRUCK);
    play(&mut g, &["d1d6"]);
    assert_eq!(
        play(&mut g, &["c8d6"]),
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Knight,
                from: sq("c8"),
                to: sq("d6")
            },
            Event::Contested {
                side: Side::Black,
                at: sq("d6"),
                pieces: 3
            },
        ]
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::White },
            Event::Recovered {
                side: Side::Black,
                at: sq("d6")
            },
            Event::PlayOver { end: PlayEnd::Pile },
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

#[test]
fn r28_knight_handoff_then_truck_is_a_fumble() {
    let mut g = game(
        r#"
offense: white
spot: b2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . p . . . . .
2 . K* . . . . . .
1 . N . . . . . .
"#,
    );
    let ev = play(&mut g, &["b1c3/f"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Knight,
                from: sq("b1"),
                to: sq("c3")
            },
            Event::Handoff {
                from: sq("b2"),
                to: sq("c3")
            },
            Event::Fumble { at: sq("c3") },
        ]
    );
    assert_eq!(g.phase(), Phase::Contention(Side::Black));
}

// ---- the whistle after 64 turns (R13) ----

#[test]
fn r13_no_whistle_before_the_64th_turn() {
    let mut g = game(
        r#"
offense: white
spot: e4
turns: 62
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
    let ev = play(&mut g, &["e4e5"]);
    assert_eq!(ev.len(), 1);
    assert_eq!(g.play_turns(), 63);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn r13_whistle_at_the_carrier_after_64_turns() {
    let mut g = game(
        r#"
offense: white
spot: e4
turns: 63
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
    let ev = play(&mut g, &["e4e5"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::King,
                from: sq("e4"),
                to: sq("e5")
            },
            Event::PlayOver {
                end: PlayEnd::Whistle
            },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("e5"),
                to_gain: 6
            },
        ]
    );
}

#[test]
fn r13_whistle_on_a_loose_ball_keeps_it_with_the_team_that_last_had_it() {
    let mut g = game(
        r#"
offense: white
possession: black
spot: e4
turns: 63
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . .o . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b2b3"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Pawn,
                from: sq("b2"),
                to: sq("b3")
            },
            Event::PlayOver {
                end: PlayEnd::Whistle
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

#[test]
fn r13_whistle_on_a_loose_ball_spots_it_where_it_lies() {
    let mut g = game(
        r#"
offense: white
spot: e4
turns: 63
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . .o . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b2b3"]);
    assert_eq!(
        ev[1],
        Event::PlayOver {
            end: PlayEnd::Whistle
        }
    );
    assert_eq!(
        ev[2],
        Event::NextPlay {
            offense: Side::White,
            down: 2,
            spot: sq("d5"),
            to_gain: 6
        }
    );
}

#[test]
fn r13_whistle_resolves_a_pile_first() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: white
spot: e4
turns: 63
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . (Pp) . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . R . . . .
"#,
    );
    let ev = play(&mut g, &["d1d5"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("d1"),
                to: sq("d5")
            },
            Event::Contested {
                side: Side::White,
                at: sq("d5"),
                pieces: 3
            },
            Event::Recovered {
                side: Side::White,
                at: sq("d5")
            },
            Event::PlayOver { end: PlayEnd::Pile },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("d5"),
                to_gain: 6
            },
        ]
    );
}

#[test]
fn r13_whistle_drops_a_forward_pass_in_flight_incomplete() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
turns: 63
throw: e4^e6
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
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
}

#[test]
fn r13_whistle_kills_a_lateral_in_flight_at_its_target() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
turns: 63
throw: e4^c4
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
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
            Event::PlayOver {
                end: PlayEnd::Whistle
            },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("c4"),
                to_gain: 6
            },
        ]
    );
}

#[test]
fn r13_single_recovery_on_the_64th_turn_is_whistled_at_the_carrier() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: e4
turns: 63
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . Po . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert_eq!(
        ev,
        vec![
            Event::Passed { side: Side::Black },
            Event::Recovered {
                side: Side::White,
                at: sq("d5")
            },
            Event::PlayOver {
                end: PlayEnd::Whistle
            },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("d5"),
                to_gain: 6
            },
        ]
    );
}
