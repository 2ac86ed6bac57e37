//! Tests: rule 4.1 (movement, pushing, tackle and truck, knight routes) with rulings R7–R9,
//! R12, R26, R27 and R48.

use zebra::rules::{
    Action, ActionError, Ball, Event, Game, KnightRoute, NotationError, Phase, Piece, PlayEnd,
    Role, Side,
};

use crate::support::{action, game, is_legal, moves_from, play, rejected, sq};

// ---- helpers ----

fn strings(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn piece(c: char) -> Option<Piece> {
    Piece::from_char(c)
}

/// One piece alone on d4 (`turn` decides who moves); the ball is with a white pawn on g2,
/// on no line of the piece on d4.
fn alone_on_d4(p: char, turn: &str) -> Game {
    game(&format!(
        r#"
offense: white
turn: {turn}
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . {p} . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#
    ))
}

// ---- chess movement of each piece type (4.1) ----

#[test]
fn rule_4_1_king_moves_one_square_in_any_direction() {
    let mut g = alone_on_d4('K', "white");
    assert_eq!(
        moves_from(&g, "d4"),
        strings(&["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"])
    );
    assert_eq!(
        rejected(&mut g, "d4d6"),
        ActionError::Unreachable {
            role: Role::King,
            from: sq("d4"),
            to: sq("d6")
        }
    );
}

#[test]
fn rule_4_1_rook_moves_along_its_rank_and_file() {
    let mut g = alone_on_d4('R', "white");
    assert_eq!(
        moves_from(&g, "d4"),
        strings(&[
            "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8", "d4a4", "d4b4", "d4c4", "d4e4",
            "d4f4", "d4g4", "d4h4"
        ])
    );
    assert_eq!(
        rejected(&mut g, "d4e5"),
        ActionError::Unreachable {
            role: Role::Rook,
            from: sq("d4"),
            to: sq("e5")
        }
    );
}

#[test]
fn rule_4_1_bishop_moves_along_its_diagonals() {
    let mut g = alone_on_d4('B', "white");
    assert_eq!(
        moves_from(&g, "d4"),
        strings(&[
            "d4e5", "d4f6", "d4g7", "d4h8", "d4c5", "d4b6", "d4a7", "d4e3", "d4f2", "d4g1", "d4c3",
            "d4b2", "d4a1"
        ])
    );
    assert_eq!(
        rejected(&mut g, "d4d6"),
        ActionError::Unreachable {
            role: Role::Bishop,
            from: sq("d4"),
            to: sq("d6")
        }
    );
}

#[test]
fn rule_4_1_queen_moves_like_rook_and_bishop() {
    let mut g = alone_on_d4('Q', "white");
    let moves = moves_from(&g, "d4");
    assert_eq!(moves.len(), 27);
    for m in [
        "d4d8", "d4a4", "d4h4", "d4d1", "d4h8", "d4a1", "d4a7", "d4g1",
    ] {
        assert!(moves.contains(&m.to_string()), "{m} missing from {moves:?}");
    }
    assert_eq!(
        rejected(&mut g, "d4e6"),
        ActionError::Unreachable {
            role: Role::Queen,
            from: sq("d4"),
            to: sq("e6")
        }
    );
}

#[test]
fn rule_4_1_knight_moves_in_an_l() {
    let mut g = alone_on_d4('N', "white");
    assert_eq!(
        moves_from(&g, "d4"),
        strings(&["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"])
    );
    assert_eq!(
        rejected(&mut g, "d4d6"),
        ActionError::Unreachable {
            role: Role::Knight,
            from: sq("d4"),
            to: sq("d6")
        }
    );
}

#[test]
fn rule_2_1_white_pawn_moves_up_the_board() {
    let mut g = alone_on_d4('P', "white");
    assert_eq!(moves_from(&g, "d4"), strings(&["d4d5"]));
    assert_eq!(
        rejected(&mut g, "d4d3"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d3")
        }
    );
    let ev = play(&mut g, &["d4d5"]);
    assert_eq!(
        ev,
        vec![Event::Moved {
            side: Side::White,
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d5")
        }]
    );
    assert_eq!(g.board().piece_at(sq("d5")), piece('P'));
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn rule_2_1_black_pawn_moves_down_the_board() {
    let mut g = alone_on_d4('p', "black");
    assert_eq!(moves_from(&g, "d4"), strings(&["d4d3"]));
    assert_eq!(
        rejected(&mut g, "d4d5"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d5")
        }
    );
    play(&mut g, &["d4d3"]);
    assert_eq!(g.board().piece_at(sq("d3")), piece('p'));
    assert_eq!(g.board().piece_at(sq("d4")), None);
}

#[test]
fn r7_pawn_has_no_two_square_step_off_its_second_rank() {
    // The two-step exists from rank 2 (White) or 7 (Black) only (R65).
    let mut g = alone_on_d4('P', "white");
    assert_eq!(
        rejected(&mut g, "d4d6"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d6")
        }
    );
    let mut b = alone_on_d4('p', "black");
    assert_eq!(
        rejected(&mut b, "d4d2"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d2")
        }
    );
}

#[test]
fn r7_pawn_does_not_move_sideways() {
    let mut g = alone_on_d4('P', "white");
    assert_eq!(
        rejected(&mut g, "d4e4"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("e4")
        }
    );
}

#[test]
fn r7_pawn_diagonal_onto_an_empty_square_is_rejected() {
    let mut g = alone_on_d4('P', "white");
    assert_eq!(
        rejected(&mut g, "d4e5"),
        ActionError::PawnDiagonal { to: sq("e5") }
    );
    assert_eq!(
        rejected(&mut g, "d4c5"),
        ActionError::PawnDiagonal { to: sq("c5") }
    );
}

const PAWN_DIAGONALS: &str = r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . p . N . . .
4 . . . P . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#;

#[test]
fn r7_pawn_diagonal_onto_an_opponent_that_is_not_the_carrier_is_rejected() {
    let mut g = game(PAWN_DIAGONALS);
    assert_eq!(
        rejected(&mut g, "d4c5"),
        ActionError::PawnDiagonal { to: sq("c5") }
    );
    assert!(!is_legal(&g, "d4c5"));
}

#[test]
fn r7_pawn_diagonal_onto_a_friendly_piece_is_rejected() {
    let mut g = game(PAWN_DIAGONALS);
    assert_eq!(
        rejected(&mut g, "d4e5"),
        ActionError::PawnDiagonal { to: sq("e5") }
    );
    assert!(!is_legal(&g, "d4e5"));
}

#[test]
fn r7_pawn_tackles_diagonally() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . p . . .
4 . . . K* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "e5d4"));
    let ev = play(&mut g, &["e5d4"]);
    assert_eq!(ev[1], Event::Tackle { at: sq("d4") });
    assert_eq!(
        ev[2],
        Event::PlayOver {
            end: PlayEnd::Tackle
        }
    );
}

#[test]
fn r7_pawn_plays_a_loose_ball_diagonally() {
    let mut g = game(
        r#"
offense: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . .o . . . .
4 . . P . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "c4d5"));
    let ev = play(&mut g, &["c4d5"]);
    assert_eq!(
        ev[1],
        Event::Contested {
            side: Side::White,
            at: sq("d5"),
            pieces: 1
        }
    );
    assert_eq!(g.ball(), Ball::Contested(sq("d5")));
}

#[test]
fn r7_pawn_intercepts_a_pass_in_flight_diagonally() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: e4^d5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "e6d5"));
    let ev = play(&mut g, &["e6d5"]);
    assert_eq!(
        ev[1],
        Event::Intercepted {
            side: Side::Black,
            at: sq("d5")
        }
    );
    assert_eq!(g.ball(), Ball::Carried(sq("d5")));
}

#[test]
fn r7_pawn_defends_a_receiver_diagonally() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: e4^d5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . N . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "e6d5"));
    let ev = play(&mut g, &["e6d5"]);
    assert_eq!(ev[1], Event::Batted { at: sq("d5") });
    assert_eq!(
        ev[2],
        Event::PlayOver {
            end: PlayEnd::Incomplete
        }
    );
}

#[test]
fn r7_pawn_joins_a_pile_diagonally() {
    let mut g = game(
        r#"
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
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "e5d4"));
    let ev = play(&mut g, &["e5d4"]);
    assert_eq!(
        ev[1],
        Event::Contested {
            side: Side::Black,
            at: sq("d4"),
            pieces: 2
        }
    );
    assert_eq!(g.phase(), Phase::Contention(Side::White));
}

#[test]
fn r7_changed_a_carrier_pawn_trucks_diagonally() {
    // Edition 1 refused this; 2.2 gives the pawn its diagonal step exactly for contact.
    let mut g = game(
        r#"
offense: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . p . . .
4 . . . P* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "d4e5"));
    let ev = play(&mut g, &["d4e5"]);
    assert_eq!(ev[1], Event::Truck { at: sq("e5") });
    assert_eq!(
        ev[2],
        Event::PlayOver {
            end: PlayEnd::Truck
        }
    );
    assert_eq!(g.spot(), sq("e5"));
}

#[test]
fn r7_pawn_pushes_straight_ahead() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . p . . . .
4 . . . P . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#,
    );
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
            Event::Pushed {
                from: sq("d5"),
                to: sq("d6")
            },
        ]
    );
    assert_eq!(g.board().piece_at(sq("d6")), piece('p'));
    assert_eq!(g.board().piece_at(sq("d5")), piece('P'));
}

#[test]
fn r7_black_pawn_pushes_down_the_board() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . p . . . .
4 . . . N . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5d4"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("d4"),
            to: sq("d3")
        }
    );
    assert_eq!(g.board().piece_at(sq("d3")), piece('N'));
    assert_eq!(g.board().piece_at(sq("d4")), piece('p'));
}

// ---- no moving through occupied squares (4.1, R8) ----

const BLOCKED_FILE: &str = r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . p . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . R . . . .
"#;

#[test]
fn r8_slider_cannot_pass_an_opponent() {
    let mut g = game(BLOCKED_FILE);
    assert_eq!(
        rejected(&mut g, "d1d6"),
        ActionError::Blocked {
            from: sq("d1"),
            to: sq("d6"),
            at: sq("d4")
        }
    );
    let moves = moves_from(&g, "d1");
    assert!(
        moves.contains(&"d1d4".to_string()),
        "landing on the blocker is a push: {moves:?}"
    );
    for m in ["d1d5", "d1d6", "d1d7", "d1d8"] {
        assert!(
            !moves.contains(&m.to_string()),
            "{m} passes through d4: {moves:?}"
        );
    }
}

#[test]
fn r8_slider_cannot_pass_a_friendly_piece_that_has_no_ball() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . N . . .
2 . . . . . . P* .
1 . . B . . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "c1g5"),
        ActionError::Blocked {
            from: sq("c1"),
            to: sq("g5"),
            at: sq("e3")
        }
    );
    assert!(is_legal(&g, "c1d2"));
    assert!(!is_legal(&g, "c1f4"));
}

#[test]
fn r26_knight_jumps_over_every_square_of_its_routes() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . p . . . . . .
2 . P p . . . P* .
1 . N P . . . . .
"#,
    );
    assert!(is_legal(&g, "b1c3"));
    let ev = play(&mut g, &["b1c3"]);
    assert_eq!(
        ev,
        vec![Event::Moved {
            side: Side::White,
            role: Role::Knight,
            from: sq("b1"),
            to: sq("c3")
        }]
    );
}

// ---- pushing (4.1, R9) ----

#[test]
fn rule_4_1_push_moves_one_square_in_the_direction_of_motion() {
    let mut g = game(BLOCKED_FILE);
    let ev = play(&mut g, &["d1d4"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("d1"),
                to: sq("d4")
            },
            Event::Pushed {
                from: sq("d4"),
                to: sq("d5")
            },
        ]
    );
    assert_eq!(g.board().piece_at(sq("d4")), piece('R'));
    assert_eq!(g.board().piece_at(sq("d5")), piece('p'));
    assert_eq!(g.board().piece_at(sq("d1")), None);
}

#[test]
fn rule_4_1_push_of_a_friendly_piece() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . R . . N . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b4e4"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("e4"),
            to: sq("f4")
        }
    );
    assert_eq!(g.board().piece_at(sq("f4")), piece('N'));
    assert_eq!(g.board().piece_at(sq("e4")), piece('R'));
}

#[test]
fn rule_4_1_diagonal_push_goes_diagonally() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . p . . .
2 . . . . . . P* .
1 . . B . . . . .
"#,
    );
    let ev = play(&mut g, &["c1e3"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("e3"),
            to: sq("f4")
        }
    );
    assert_eq!(g.board().piece_at(sq("f4")), piece('p'));
}

#[test]
fn rule_4_1_king_pushes_one_square_on() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . p . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4f5"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("f5"),
            to: sq("g6")
        }
    );
    assert_eq!(g.board().piece_at(sq("g6")), piece('p'));
}

#[test]
fn r9_push_never_off_the_board() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . p . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . R . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "d1d8"),
        ActionError::PushOffBoard { at: sq("d8") }
    );
    assert!(!is_legal(&g, "d1d8"));
    assert!(is_legal(&g, "d1d7"));
}

#[test]
fn r9_push_never_into_an_occupied_square() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . P . . . .
4 . . . p . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . . . R . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "d1d4"),
        ActionError::PushBlocked {
            at: sq("d4"),
            dest: sq("d5")
        }
    );
    assert!(!is_legal(&g, "d1d4"));
}

#[test]
fn r9_push_never_onto_a_loose_ball() {
    let mut g = game(
        r#"
offense: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . .o . . . .
4 . . . p . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . R . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "d1d4"),
        ActionError::PushBlocked {
            at: sq("d4"),
            dest: sq("d5")
        }
    );
    assert!(!is_legal(&g, "d1d4"));
}

#[test]
fn r9_push_never_onto_the_target_of_a_pass_in_flight() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
throw: e4^d6
8 . . . r . . . .
7 . . . N . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "d8d7"),
        ActionError::PushBlocked {
            at: sq("d7"),
            dest: sq("d6")
        }
    );
    assert!(!is_legal(&g, "d8d7"));
}

#[test]
fn r9_landing_on_a_friendly_carrier_pushes_it_with_the_ball() {
    let mut g = game(
        r#"
offense: white
spot: d3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . K* . . . .
2 . . . . . . . .
1 . . . R . . . .
"#,
    );
    let ev = play(&mut g, &["d1d3"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("d1"),
                to: sq("d3")
            },
            Event::Pushed {
                from: sq("d3"),
                to: sq("d4")
            },
        ]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("d4")));
    assert_eq!(g.board().piece_at(sq("d4")), piece('K'));
    assert_eq!(g.possession(), Side::White);
}

#[test]
fn r12_carrier_pushed_onto_file_a_is_out_of_bounds() {
    let mut g = game(
        r#"
offense: white
spot: b3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . K* . . R . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4b4"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::Rook,
                from: sq("e4"),
                to: sq("b4")
            },
            Event::Pushed {
                from: sq("b4"),
                to: sq("a4")
            },
            Event::OutOfBounds { at: sq("a4") },
            Event::PlayOver {
                end: PlayEnd::OutOfBounds
            },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("b4"),
                to_gain: 5
            },
        ]
    );
    assert!(!g.clock_running());
}

// ---- tackle and truck (4.1, R27) ----

#[test]
fn rule_4_1_tackle_ends_the_play_with_the_carrier_team_in_possession() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
8 . . . . r . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . K* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e8e5"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::Black,
                role: Role::Rook,
                from: sq("e8"),
                to: sq("e5")
            },
            Event::Tackle { at: sq("e5") },
            Event::PlayOver {
                end: PlayEnd::Tackle
            },
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("e5"),
                to_gain: 6
            },
        ]
    );
    assert_eq!(g.offense(), Side::White);
    assert_eq!(g.down(), 2);
    assert_eq!(g.spot(), sq("e5"));
    assert_eq!(g.phase(), Phase::Formation(Side::White));
}

#[test]
fn rule_4_1_truck_ends_the_play_with_the_carrier_team_in_possession() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . K* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e5e6"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::King,
                from: sq("e5"),
                to: sq("e6")
            },
            Event::Truck { at: sq("e6") },
            Event::PlayOver {
                end: PlayEnd::Truck
            },
            Event::FirstDown { side: Side::White },
            Event::NextPlay {
                offense: Side::White,
                down: 1,
                spot: sq("e6"),
                to_gain: 8
            },
        ]
    );
    assert_eq!(g.offense(), Side::White);
}

#[test]
fn rule_4_1_carrier_cannot_push_an_opponent_it_trucks() {
    // A rook carrier landing on an opponent trucks it, even where a push would be legal.
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . p . . .
4 . . . . . . . .
3 . . . . R* . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e3e5"]);
    assert_eq!(ev[1], Event::Truck { at: sq("e5") });
    assert!(!ev.iter().any(|e| matches!(e, Event::Pushed { .. })));
}

/// A second forward pass (flagged), caught on e5: the play then ends on a flag, so the field
/// stays as it was while Black decides on the penalty.
const FLAGGED_CATCH: &str = r#"
offense: white
spot: e4
forward-pass: yes
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . R . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . p . . . .
1 . . . . . . . .
"#;

#[test]
fn r27_truck_leaves_both_pieces_on_the_square_trucker_on_top() {
    let mut g = game(FLAGGED_CATCH);
    let ev = play(&mut g, &["e4^e5", "d2d1", "e5e6"]);
    assert!(ev.contains(&Event::Truck { at: sq("e6") }));
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    assert_eq!(
        g.board().stack_at(sq("e6")).to_vec(),
        vec![piece('p').unwrap(), piece('R').unwrap()]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
}

#[test]
fn r27_tackle_leaves_both_pieces_on_the_square_tackler_on_top() {
    let mut g = game(FLAGGED_CATCH);
    let ev = play(&mut g, &["e4^e5", "d2d1", "e4d3", "e6e5"]);
    assert!(ev.contains(&Event::Tackle { at: sq("e5") }));
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    assert_eq!(
        g.board().stack_at(sq("e5")).to_vec(),
        vec![piece('R').unwrap(), piece('p').unwrap()]
    );
}

// ---- knight route selection (4.1, R26) ----

const KNIGHT_PUSH: &str = r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . p . . . . .
2 . . . . . . P* .
1 . N . . . . . .
"#;

#[test]
fn r26_knight_push_goes_along_the_last_leg_of_the_file_first_route() {
    let mut g = game(KNIGHT_PUSH);
    let ev = play(&mut g, &["b1c3/f"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("c3"),
            to: sq("d3")
        }
    );
    assert_eq!(g.board().piece_at(sq("d3")), piece('p'));
    assert_eq!(g.board().piece_at(sq("c3")), piece('N'));
}

#[test]
fn r26_knight_push_goes_along_the_last_leg_of_the_rank_first_route() {
    let mut g = game(KNIGHT_PUSH);
    let ev = play(&mut g, &["b1c3/r"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("c3"),
            to: sq("c4")
        }
    );
    assert_eq!(g.board().piece_at(sq("c4")), piece('p'));
}

#[test]
fn r26_knight_push_with_the_long_leg_last() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . p . . P* .
1 . N . . . . . .
"#,
    );
    let mut f = g.clone();
    assert_eq!(
        play(&mut f, &["b1d2/f"])[1],
        Event::Pushed {
            from: sq("d2"),
            to: sq("e2")
        }
    );
    assert_eq!(
        play(&mut g, &["b1d2/r"])[1],
        Event::Pushed {
            from: sq("d2"),
            to: sq("d3")
        }
    );
}

#[test]
fn r26_knight_move_without_route_is_ambiguous_when_routes_differ() {
    let mut g = game(KNIGHT_PUSH);
    assert_eq!(
        rejected(&mut g, "b1c3"),
        ActionError::AmbiguousRoute {
            from: sq("b1"),
            to: sq("c3")
        }
    );
    assert!(is_legal(&g, "b1c3/f"));
    assert!(is_legal(&g, "b1c3/r"));
    assert!(!is_legal(&g, "b1c3"));
}

#[test]
fn r26_knight_move_without_route_is_accepted_when_only_one_route_is_legal() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . p P . . . .
2 . . . . . . P* .
1 . N . . . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "b1c3/f"),
        ActionError::PushBlocked {
            at: sq("c3"),
            dest: sq("d3")
        }
    );
    assert!(!is_legal(&g, "b1c3/f"));
    assert!(is_legal(&g, "b1c3/r"));
    let ev = play(&mut g, &["b1c3"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("c3"),
            to: sq("c4")
        }
    );
}

#[test]
fn r26_knight_route_off_the_board_push_leaves_only_the_other_route() {
    let mut g = game(
        r#"
offense: white
spot: c2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . p
2 . . P* . . . . .
1 . . . . . . N .
"#,
    );
    assert_eq!(
        rejected(&mut g, "g1h3/f"),
        ActionError::PushOffBoard { at: sq("h3") }
    );
    let ev = play(&mut g, &["g1h3"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("h3"),
            to: sq("h4")
        }
    );
}

#[test]
fn r26_knight_route_is_listed_without_suffix_when_it_decides_nothing() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . N . . . . . .
"#,
    );
    assert!(is_legal(&g, "b1c3"));
    assert!(!is_legal(&g, "b1c3/f"));
    assert!(!is_legal(&g, "b1c3/r"));
    // A route where it does not matter is accepted, with the same effect.
    let mut plain = g.clone();
    let ev = play(&mut g, &["b1c3/r"]);
    assert_eq!(ev, play(&mut plain, &["b1c3"]));
    assert_eq!(g, plain);
}

#[test]
fn r26_knight_route_decides_a_handoff() {
    let g0 = game(
        r#"
offense: white
spot: b2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . K* . . . . . .
1 . N . . . . . .
"#,
    );
    let mut g = g0.clone();
    assert_eq!(
        rejected(&mut g, "b1c3"),
        ActionError::AmbiguousRoute {
            from: sq("b1"),
            to: sq("c3")
        }
    );
    assert!(is_legal(&g, "b1c3/f"));
    assert!(is_legal(&g, "b1c3/r"));

    let mut f = g0.clone();
    let ev = play(&mut f, &["b1c3/f"]);
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
        ]
    );
    assert_eq!(f.ball(), Ball::Carried(sq("c3")));

    let mut r = g0;
    let ev = play(&mut r, &["b1c3/r"]);
    assert_eq!(
        ev,
        vec![Event::Moved {
            side: Side::White,
            role: Role::Knight,
            from: sq("b1"),
            to: sq("c3")
        }]
    );
    assert_eq!(r.ball(), Ball::Carried(sq("b2")));
}

#[test]
fn r26_knight_carrier_truck_needs_no_route() {
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
2 . . . . . . . .
1 . N* . . . . . .
"#,
    );
    assert!(is_legal(&g, "b1c3"));
    assert!(!is_legal(&g, "b1c3/f"));
    let ev = play(&mut g, &["b1c3"]);
    assert_eq!(ev[1], Event::Truck { at: sq("c3") });
}

#[test]
fn r26_route_notation_round_trips() {
    assert_eq!(
        action("b1c3/f"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: Some(KnightRoute::FileFirst)
        }
    );
    assert_eq!(
        action("b1c3/r"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: Some(KnightRoute::RankFirst)
        }
    );
    assert_eq!(
        action("b1c3"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: None
        }
    );
    for s in ["b1c3/f", "b1c3/r", "b1c3"] {
        assert_eq!(action(s).to_string(), s);
    }
}

#[test]
fn r26_unknown_route_letter_is_a_notation_error() {
    assert_eq!(
        "b1c3/x".parse::<Action>(),
        Err(NotationError::BadRoute("b1c3/x".to_string()))
    );
    assert_eq!(
        "b1c3/".parse::<Action>(),
        Err(NotationError::BadRoute("b1c3/".to_string()))
    );
}

// ---- out of bounds (R12) ----

#[test]
fn r12_carrier_moving_onto_file_a_is_out_of_bounds() {
    let mut g = game(
        r#"
offense: white
spot: b3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . K* . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b4a4"]);
    assert_eq!(
        ev,
        vec![
            Event::Moved {
                side: Side::White,
                role: Role::King,
                from: sq("b4"),
                to: sq("a4")
            },
            Event::OutOfBounds { at: sq("a4") },
            Event::PlayOver {
                end: PlayEnd::OutOfBounds
            },
            Event::ClockStopped,
            Event::NextPlay {
                offense: Side::White,
                down: 2,
                spot: sq("b4"),
                to_gain: 5
            },
        ]
    );
    assert_eq!(g.spot(), sq("b4"));
    assert!(!g.clock_running());
}

#[test]
fn r12_carrier_moving_onto_file_h_is_spotted_on_file_g() {
    let mut g = game(
        r#"
offense: white
spot: d4
down: 3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . R* . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5h5"]);
    assert!(ev.contains(&Event::OutOfBounds { at: sq("h5") }));
    assert!(ev.contains(&Event::PlayOver {
        end: PlayEnd::OutOfBounds
    }));
    assert_eq!(g.spot(), sq("g5"));
    assert_eq!(g.down(), 4);
}

#[test]
fn r12_non_carrier_on_file_a_is_not_out_of_bounds() {
    let mut g = game(
        r#"
offense: white
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . R . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b4a4"]);
    assert_eq!(
        ev,
        vec![Event::Moved {
            side: Side::White,
            role: Role::Rook,
            from: sq("b4"),
            to: sq("a4")
        }]
    );
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

// ---- pass only without a move (R48) ----

#[test]
fn r48_pass_is_rejected_while_a_move_exists() {
    let mut g = alone_on_d4('N', "white");
    assert_eq!(rejected(&mut g, "pass"), ActionError::PassNotAllowed);
    assert!(!is_legal(&g, "pass"));
}

#[test]
fn r48_team_without_a_move_passes() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . p . . . . . .
1 P N R . . . . .
"#,
    );
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    let ev = play(&mut g, &["pass"]);
    assert_eq!(ev, vec![Event::Passed { side: Side::Black }]);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.play_turns(), 1);
}

#[test]
fn r48_carrier_team_cannot_pass_while_it_can_throw() {
    let mut g = game(
        r#"
offense: white
spot: d3
8 . . . p . . . .
7 . . . p . . . .
6 . . . P . . . .
5 . . . P . . . .
4 . . . P* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let list = g.legal_action_list();
    assert!(
        !list.iter().any(|a| matches!(a, Action::Move { .. })),
        "{list:?}"
    );
    assert!(list.contains(&action("d4^d8")));
    assert!(!list.contains(&Action::Pass));
    assert_eq!(rejected(&mut g, "pass"), ActionError::PassNotAllowed);
}

#[test]
fn r9_friendly_carrier_pushed_into_the_end_zone_scores() {
    let mut g = game(
        r#"
offense: white
spot: d4
8 . . . . . . . .
7 . . . K* . . . .
6 . . . . . . . .
5 . . . R . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5d7"]);
    assert_eq!(
        ev[1],
        Event::Pushed {
            from: sq("d7"),
            to: sq("d8")
        }
    );
    assert_eq!(
        ev[2],
        Event::PlayOver {
            end: PlayEnd::Touchdown
        }
    );
    assert_eq!(ev[3], Event::Touchdown { side: Side::White });
    assert_eq!(g.score(Side::White), 7);
}

#[test]
fn r12_truck_ending_on_file_a_stops_the_clock() {
    let mut g = game(
        r#"
offense: white
spot: b3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 p K* . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["b4a4"]);
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
    assert_eq!(g.spot(), sq("b4"));
}
