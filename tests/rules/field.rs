//! Tests: field and pieces (2.1, 2.2, R3, R12, R20).

use zebra::rules::{
    ActionError, Event, FormationCheck, FormationError, FormationFault, Game, Piece, PlayEnd, Role,
    Settings, Side,
};

use super::support::{action, game, is_legal, play, sq, BLACK_DEFENSE, WHITE_OFFENSE};

fn formation(s: &str) -> zebra::rules::Formation {
    s.parse().unwrap()
}

#[test]
fn r20_squares_are_named_as_in_chess_a1_is_whites_left_corner() {
    let g = game(
        r#"
offense: white
phase: motion
spot: e5
8 r . . . . . . n
7 . . . . . . . .
6 . . . . . . . .
5 . . . . P . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 R . . . . . . N
"#,
    );
    let b = g.board();
    assert_eq!(
        b.piece_at(sq("a1")),
        Some(Piece::new(Side::White, Role::Rook))
    );
    assert_eq!(
        b.piece_at(sq("h1")),
        Some(Piece::new(Side::White, Role::Knight))
    );
    assert_eq!(
        b.piece_at(sq("a8")),
        Some(Piece::new(Side::Black, Role::Rook))
    );
    assert_eq!(
        b.piece_at(sq("h8")),
        Some(Piece::new(Side::Black, Role::Knight))
    );
    assert_eq!(
        b.piece_at(sq("e5")),
        Some(Piece::new(Side::White, Role::Pawn))
    );
    assert_eq!(sq("a1").to_string(), "a1");
    assert_eq!(sq("h8").to_string(), "h8");
}

#[test]
fn rule_2_1_the_board_is_eight_by_eight() {
    assert!("a1".parse::<zebra::rules::Square>().is_ok());
    assert!("h8".parse::<zebra::rules::Square>().is_ok());
    assert!("i1".parse::<zebra::rules::Square>().is_err());
    assert!("a9".parse::<zebra::rules::Square>().is_err());
    assert!("a0".parse::<zebra::rules::Square>().is_err());
    assert_eq!(zebra::rules::Square::all().count(), 64);
}

#[test]
fn rule_2_1_white_moves_up_and_black_moves_down() {
    let g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . . . . . .
4 . . . P . . . .
3 . . . . . . . .
2 . . . . K* . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "d4d5"));
    assert!(!is_legal(&g, "d4d3"));
    let mut g = g;
    play(&mut g, &["d4d5"]);
    assert!(is_legal(&g, "d6d5"));
    // The black pawn on d6 steps toward rank 1, never toward rank 8.
    assert!(!is_legal(&g, "d6d7"));
    let black_pawn_moves: Vec<String> = g
        .legal_action_list()
        .iter()
        .map(|a| a.to_string())
        .filter(|a| a.starts_with("d6"))
        .collect();
    assert!(
        black_pawn_moves.iter().all(|m| m.ends_with('5')),
        "{black_pawn_moves:?}"
    );
}

#[test]
fn rule_2_1_rank_8_is_whites_goal_and_rank_1_is_blacks() {
    let mut g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . Q* . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e7e8"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 7);

    let mut g = game(
        r#"
offense: black
phase: action
spot: d4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . q* . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d2d1"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::Black), 7);
}

#[test]
fn rule_2_1_a_rank_is_five_yards() {
    let g = Game::new(Settings::timed());
    assert_eq!(g.line_of_scrimmage().number(), 5);
    assert_eq!(g.line_to_gain().number(), 7);
    assert_eq!(g.yards_to_go(), 10);
    let g = game(
        r#"
offense: white
phase: formation
spot: e4
to-gain: 7
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.yards_to_go(), 15);
}

#[test]
fn r3_the_line_of_scrimmage_is_the_rank_of_the_ball() {
    let mut g = Game::new(Settings::timed());
    assert_eq!(g.line_of_scrimmage().number(), 5);
    play(
        &mut g,
        &[WHITE_OFFENSE, BLACK_DEFENSE, "snap", "e4b4", "c7b5"],
    );
    // The play goes on; the carrier on b4 then runs out at a4.
    let ev = play(&mut g, &["b4a4"]);
    assert!(ev.contains(&Event::OutOfBounds { at: sq("a4") }), "{ev:?}");
    assert_eq!(g.spot(), sq("b4"));
    assert_eq!(g.line_of_scrimmage().number(), 4);
}

#[test]
fn r12_file_a_is_out_of_bounds_and_the_ball_comes_in_to_file_b() {
    let mut g = Game::new(Settings::timed());
    let ev = play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "snap", "e4a4"]);
    assert!(ev.contains(&Event::OutOfBounds { at: sq("a4") }), "{ev:?}");
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::OutOfBounds
        }),
        "{ev:?}"
    );
    assert_eq!(g.spot(), sq("b4"));
    assert_eq!(g.down(), 2);
    assert!(!g.clock_running());
}

#[test]
fn r12_file_h_is_out_of_bounds_and_the_ball_comes_in_to_file_g() {
    let mut g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . Q* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e6h6"]);
    assert!(ev.contains(&Event::OutOfBounds { at: sq("h6") }), "{ev:?}");
    assert_eq!(g.spot(), sq("g6"));
    assert_eq!(g.down(), 2);
}

#[test]
fn r12_files_b_and_g_are_in_bounds() {
    let mut g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . n
7 . . . . . . . .
6 . . . . Q* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e6g6"]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::OutOfBounds { .. } | Event::PlayOver { .. })),
        "{ev:?}"
    );
    assert_eq!(g.phase(), zebra::rules::Phase::Action(Side::Black));
    let ev = play(&mut g, &["h8g6"]);
    assert!(ev.contains(&Event::Tackle { at: sq("g6") }), "{ev:?}");
    assert_eq!(g.spot(), sq("g6"));
}

#[test]
fn rule_2_2_each_sideline_holds_sixteen_pieces() {
    let g = Game::new(Settings::timed());
    // Pawn, knight, bishop, rook, queen, king.
    assert_eq!(g.board().sideline(Side::White), [8, 2, 2, 2, 1, 1]);
    assert_eq!(g.board().sideline(Side::Black), [8, 2, 2, 2, 1, 1]);
    assert!(g.board().occupied().is_empty());
}

#[test]
fn rule_2_2_placed_pieces_leave_the_sideline_and_come_back_after_the_play() {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert_eq!(g.board().sideline(Side::White), [6, 1, 1, 1, 0, 0]);
    assert_eq!(g.board().sideline(Side::Black), [6, 1, 1, 0, 0, 1]);
    assert_eq!(g.board().count_side(Side::White), 7);
    assert_eq!(g.board().count_side(Side::Black), 7);
    play(&mut g, &["snap", "e4a4"]);
    assert!(g.board().occupied().is_empty());
    assert_eq!(g.board().sideline(Side::White), [8, 2, 2, 2, 1, 1]);
}

#[test]
fn rule_2_2_no_more_of_a_role_than_the_sideline_holds() {
    let cases = [
        ("[Pa2,Pb2,Pc2,Pd2,Pe2,Pf2,Pg2,Ph2,Pe5]", Role::Pawn, 9, 8),
        ("[Na1,Nb1,Nc1,Pd5,Pe5,Kd4,Qe4]", Role::Knight, 3, 2),
        ("[Ba1,Bb1,Bc1,Pd5,Pe5,Kd4,Qe4]", Role::Bishop, 3, 2),
        ("[Ra1,Rb1,Rc1,Pd5,Pe5,Kd4,Qe4]", Role::Rook, 3, 2),
        ("[Qa1,Qb1,Rc1,Pd5,Pe5,Kd4,Ne4]", Role::Queen, 2, 1),
        ("[Ka1,Kb1,Rc1,Pd5,Pe5,Qd4,Ne4]", Role::King, 2, 1),
    ];
    for (text, role, count, max) in cases {
        let mut g = Game::new(Settings::timed());
        let before = g.clone();
        let err = g.apply(&action(text)).unwrap_err();
        assert_eq!(
            err,
            ActionError::Formation(FormationError::NotOnSideline { role, count, max }),
            "{text}"
        );
        assert_eq!(g, before);
        assert_eq!(
            g.validate_formation(&formation(text)),
            Err(FormationCheck::Unplaceable(FormationError::NotOnSideline {
                role,
                count,
                max
            })),
            "{text}"
        );
    }
}

#[test]
fn rule_2_2_seven_active_pieces_with_at_least_two_pawns() {
    let g = Game::new(Settings::timed());
    assert_eq!(g.validate_formation(&formation(WHITE_OFFENSE)), Ok(()));
    assert_eq!(
        g.validate_formation(&formation("[Pe5,Rd5,Qe4,Ke3,Nc3,Bf4,Rg5]")),
        Err(FormationCheck::Fault(FormationFault::TooFewPawns(1)))
    );
    assert_eq!(
        g.validate_formation(&formation("[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4]")),
        Err(FormationCheck::Fault(FormationFault::TooFewPieces(6)))
    );
    assert_eq!(
        g.validate_formation(&formation("[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg5,Ph5]")),
        Err(FormationCheck::Fault(FormationFault::TooManyMen(8)))
    );
}
