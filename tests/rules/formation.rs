//! Tests: setup and formation (3.1, 3.2, R2, R3, R21, R22).

use zebra::rules::{
    ActionError, Event, Formation, FormationCheck, FormationError, FormationFault, Foul, FoulKind,
    Game, Phase, Settings, Side,
};

use super::support::{action, game, play, sq, BLACK_DEFENSE, WHITE_OFFENSE};

const BLACK_OFFENSE: &str = "[Pd4,Pe4,Qd5,Kd6,Nc6,Bf5,Rg4]";
const WHITE_DEFENSE: &str = "[Pd3,Pe3,Nc2,Bf2,Rg2,Qd1,Rb1]";

fn formation(s: &str) -> Formation {
    s.parse().unwrap()
}

/// Black's offense before its formation, ball on d4.
fn black_to_form() -> Game {
    game(
        r#"
offense: black
phase: formation
spot: d4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    )
}

/// A white formation at e5 that draws a dead-ball flag: the flag, the 5 yards, the down replayed.
fn assert_white_formation_foul(text: &str, kind: FoulKind, fault: FormationFault) {
    let mut g = Game::new(Settings::timed());
    assert_eq!(
        g.validate_formation(&formation(text)),
        Err(FormationCheck::Fault(fault)),
        "{text}"
    );
    let ev = play(&mut g, &[text]);
    let foul = Foul {
        side: Side::White,
        kind,
        spot: sq("e5"),
    };
    assert!(
        matches!(
            ev[0],
            Event::FormationSet {
                side: Side::White,
                ..
            }
        ),
        "{ev:?}"
    );
    assert_eq!(ev[1], Event::Flag(foul), "{text}");
    assert_eq!(ev[2], Event::PenaltyEnforced(foul), "{text}");
    assert_eq!(
        (g.spot(), g.down(), g.offense()),
        (sq("e4"), 1, Side::White),
        "{text}"
    );
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert!(g.board().occupied().is_empty());
}

/// A black defensive formation (against White at e5) that draws a dead-ball flag.
fn assert_black_defense_foul(text: &str, kind: FoulKind, fault: FormationFault) {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE]);
    assert_eq!(
        g.validate_formation(&formation(text)),
        Err(FormationCheck::Fault(fault)),
        "{text}"
    );
    let ev = play(&mut g, &[text]);
    let foul = Foul {
        side: Side::Black,
        kind,
        spot: sq("e5"),
    };
    assert!(ev.contains(&Event::Flag(foul)), "{text}: {ev:?}");
    assert!(ev.contains(&Event::PenaltyEnforced(foul)), "{text}: {ev:?}");
    assert_eq!(
        (g.spot(), g.down(), g.offense()),
        (sq("e6"), 1, Side::White),
        "{text}"
    );
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert!(g.board().occupied().is_empty());
}

#[test]
fn rule_3_1_the_field_starts_empty_with_the_ball_on_whites_20() {
    let g = Game::new(Settings::timed());
    assert!(g.board().occupied().is_empty());
    assert_eq!(g.spot(), sq("e5"));
    assert_eq!(g.ball(), zebra::rules::Ball::Spotted(sq("e5")));
    assert_eq!(g.line_of_scrimmage().number(), 5);
}

#[test]
fn r2_white_starts_every_drive_on_e5_and_black_on_d4() {
    // A black drive after a white touchdown.
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
    play(&mut g, &["e7e8"]);
    assert_eq!(
        (g.offense(), g.spot(), g.down()),
        (Side::Black, sq("d4"), 1)
    );
    assert_eq!(g.line_to_gain().number(), 2);
    // A white drive after a black touchdown.
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
    play(&mut g, &["d2d1"]);
    assert_eq!(
        (g.offense(), g.spot(), g.down()),
        (Side::White, sq("e5"), 1)
    );
    assert_eq!(g.line_to_gain().number(), 7);
}

#[test]
fn rule_3_2_the_offense_forms_first_then_the_defense() {
    let mut g = Game::new(Settings::timed());
    let ev = play(&mut g, &[WHITE_OFFENSE]);
    assert_eq!(
        ev,
        vec![Event::FormationSet {
            side: Side::White,
            pieces: 7
        }]
    );
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
    let ev = play(&mut g, &[BLACK_DEFENSE]);
    assert_eq!(
        ev,
        vec![Event::FormationSet {
            side: Side::Black,
            pieces: 7
        }]
    );
    assert_eq!(g.phase(), Phase::Motion);
    assert!(g.flags().is_empty());
    assert_eq!(g.board().count_side(Side::White), 7);
    assert_eq!(g.board().count_side(Side::Black), 7);
}

#[test]
fn rule_3_2_black_offense_forms_at_or_behind_rank_4() {
    let mut g = black_to_form();
    assert_eq!(g.validate_formation(&formation(BLACK_OFFENSE)), Ok(()));
    play(&mut g, &[BLACK_OFFENSE]);
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_eq!(g.validate_formation(&formation(WHITE_DEFENSE)), Ok(()));
    play(&mut g, &[WHITE_DEFENSE]);
    assert_eq!(g.phase(), Phase::Motion);
}

#[test]
fn r3_the_offense_may_stand_on_the_line_of_scrimmage() {
    let g = Game::new(Settings::timed());
    assert_eq!(
        g.validate_formation(&formation("[Pa5,Pb5,Nc5,Bd5,Pe5,Rf5,Qg5]")),
        Ok(())
    );
}

#[test]
fn r3_the_defense_may_not_stand_on_the_line_of_scrimmage() {
    assert_black_defense_foul(
        "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pa5]",
        FoulKind::Offsides,
        FormationFault::WrongSide(sq("a5")),
    );
}

#[test]
fn r22_too_many_men_on_offense() {
    assert_white_formation_foul(
        "[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg5,Pa1]",
        FoulKind::TooManyMen,
        FormationFault::TooManyMen(8),
    );
}

#[test]
fn r22_too_many_men_on_defense() {
    assert_black_defense_foul(
        "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe6,Pa8]",
        FoulKind::TooManyMen,
        FormationFault::TooManyMen(8),
    );
}

#[test]
fn r22_fewer_than_seven_pieces_is_an_illegal_formation() {
    assert_white_formation_foul(
        "[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4]",
        FoulKind::IllegalFormation,
        FormationFault::TooFewPieces(6),
    );
    assert_black_defense_foul(
        "[Rb8,Qd8,Nc7,Bf7,Pd6,Pe6]",
        FoulKind::IllegalFormation,
        FormationFault::TooFewPieces(6),
    );
}

#[test]
fn r22_fewer_than_two_pawns_is_an_illegal_formation() {
    assert_white_formation_foul(
        "[Rd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg5]",
        FoulKind::IllegalFormation,
        FormationFault::TooFewPawns(1),
    );
    assert_black_defense_foul(
        "[Rb8,Qd8,Nc7,Bf7,Rg7,Nd6,Pe6]",
        FoulKind::IllegalFormation,
        FormationFault::TooFewPawns(1),
    );
}

#[test]
fn r22_the_offense_needs_a_pawn_on_the_ball() {
    // A pawn beside the ball is not a snapper.
    assert_white_formation_foul(
        "[Pd5,Pf5,Qe4,Ke3,Nc3,Bf4,Rg5]",
        FoulKind::IllegalFormation,
        FormationFault::NoSnapper(sq("e5")),
    );
    // Nor is another piece on the ball.
    assert_white_formation_foul(
        "[Pd5,Pf5,Re5,Qe4,Ke3,Nc3,Bf4]",
        FoulKind::IllegalFormation,
        FormationFault::NoSnapper(sq("e5")),
    );
}

#[test]
fn r22_the_defense_may_not_play_its_king() {
    assert_black_defense_foul(
        "[Rb8,Kd8,Nc7,Bf7,Rg7,Pd6,Pe6]",
        FoulKind::IllegalFormation,
        FormationFault::KingOnDefense(sq("d8")),
    );
}

#[test]
fn r22_an_offensive_piece_beyond_the_line_is_offsides() {
    assert_white_formation_foul(
        "[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg6]",
        FoulKind::Offsides,
        FormationFault::WrongSide(sq("g6")),
    );
}

#[test]
fn r22_a_defensive_piece_behind_the_line_is_offsides() {
    assert_black_defense_foul(
        "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Ph4]",
        FoulKind::Offsides,
        FormationFault::WrongSide(sq("h4")),
    );
}

#[test]
fn r22_faults_are_checked_in_the_published_order() {
    let g = Game::new(Settings::timed());
    // Too many men before anything else, even with one pawn and a piece offside.
    assert_eq!(
        g.validate_formation(&formation("[Rd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg6,Na1]")),
        Err(FormationCheck::Fault(FormationFault::TooManyMen(8)))
    );
    // Too few pieces before too few pawns.
    assert_eq!(
        g.validate_formation(&formation("[Pe6,Qe4]")),
        Err(FormationCheck::Fault(FormationFault::TooFewPieces(2)))
    );
    // Too few pawns before the snapper.
    assert_eq!(
        g.validate_formation(&formation("[Pd5,Re5,Qe4,Ke3,Nc3,Bf4,Rg5]")),
        Err(FormationCheck::Fault(FormationFault::TooFewPawns(1)))
    );
    // The snapper before the side of the line.
    assert_eq!(
        g.validate_formation(&formation("[Pd5,Pf5,Qe4,Ke3,Nc3,Bf4,Rg6]")),
        Err(FormationCheck::Fault(FormationFault::NoSnapper(sq("e5"))))
    );
    // Defense: the king before the side of the line.
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE]);
    assert_eq!(
        g.validate_formation(&formation("[Rb8,Kd8,Nc7,Bf7,Rg7,Pd6,Ph4]")),
        Err(FormationCheck::Fault(FormationFault::KingOnDefense(sq(
            "d8"
        ))))
    );
}

#[test]
fn r22_faults_draw_the_fouls_of_7_1() {
    assert_eq!(FormationFault::TooManyMen(8).foul(), FoulKind::TooManyMen);
    assert_eq!(
        FormationFault::TooFewPieces(6).foul(),
        FoulKind::IllegalFormation
    );
    assert_eq!(
        FormationFault::TooFewPawns(1).foul(),
        FoulKind::IllegalFormation
    );
    assert_eq!(
        FormationFault::NoSnapper(sq("e5")).foul(),
        FoulKind::IllegalFormation
    );
    assert_eq!(
        FormationFault::KingOnDefense(sq("d8")).foul(),
        FoulKind::IllegalFormation
    );
    assert_eq!(
        FormationFault::WrongSide(sq("a5")).foul(),
        FoulKind::Offsides
    );
}

#[test]
fn r22_a_black_offense_beyond_its_line_is_offsides_toward_rank_8() {
    let mut g = black_to_form();
    let ev = play(&mut g, &["[Pd4,Pe4,Qd5,Kd6,Nc6,Bf5,Rg3]"]);
    let foul = Foul {
        side: Side::Black,
        kind: FoulKind::Offsides,
        spot: sq("d4"),
    };
    assert!(ev.contains(&Event::PenaltyEnforced(foul)), "{ev:?}");
    assert_eq!(
        (g.offense(), g.spot(), g.down()),
        (Side::Black, sq("d5"), 1)
    );
}

#[test]
fn r22_a_white_defense_beyond_its_line_moves_black_forward() {
    let mut g = black_to_form();
    play(&mut g, &[BLACK_OFFENSE]);
    let ev = play(&mut g, &["[Pd3,Pe3,Nc2,Bf2,Rg2,Qd1,Rh4]"]);
    let foul = Foul {
        side: Side::White,
        kind: FoulKind::Offsides,
        spot: sq("d4"),
    };
    assert!(ev.contains(&Event::PenaltyEnforced(foul)), "{ev:?}");
    assert_eq!(
        (g.offense(), g.spot(), g.down()),
        (Side::Black, sq("d3"), 1)
    );
}

#[test]
fn r21_more_pieces_of_a_role_than_the_sideline_is_rejected() {
    let mut g = Game::new(Settings::timed());
    let before = g.clone();
    let err = g
        .apply(&action("[Pd5,Pe5,Qe4,Ke3,Rc3,Rf4,Rg5]"))
        .unwrap_err();
    assert_eq!(
        err,
        ActionError::Formation(FormationError::NotOnSideline {
            role: zebra::rules::Role::Rook,
            count: 3,
            max: 2
        })
    );
    assert_eq!(g, before);
}

#[test]
fn r21_a_square_the_other_team_holds_is_rejected() {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE]);
    let before = g.clone();
    let err = g
        .apply(&action("[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe5]"))
        .unwrap_err();
    assert_eq!(
        err,
        ActionError::Formation(FormationError::SquareTaken(sq("e5")))
    );
    assert_eq!(g, before);
    assert_eq!(
        g.validate_formation(&formation("[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe5]")),
        Err(FormationCheck::Unplaceable(FormationError::SquareTaken(
            sq("e5")
        )))
    );
}

#[test]
fn r21_a_square_named_twice_is_not_a_formation() {
    assert_eq!(
        "[Pd5,Pe5,Pd5]".parse::<Formation>(),
        Err(zebra::rules::NotationError::SquareTwice(sq("d5")))
    );
}

#[test]
fn r21_formation_notation_round_trips_in_square_order() {
    let f = formation("[Rg5,Pe5,Pd5,Qe4,Ke3,Nc3,Bf4]");
    assert_eq!(f.to_string(), "[Nc3,Ke3,Qe4,Bf4,Pd5,Pe5,Rg5]");
    assert_eq!(f.len(), 7);
    assert_eq!(f.to_string().parse::<Formation>(), Ok(f));
}

#[test]
fn rule_3_2_a_defensive_formation_foul_reaching_the_line_to_gain_is_a_first_down() {
    let mut g = game(
        r#"
offense: white
phase: formation
down: 3
spot: e5
to-gain: 6
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
    play(&mut g, &[WHITE_OFFENSE]);
    let ev = play(&mut g, &["[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Kf6]"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(
        (g.spot(), g.down(), g.line_to_gain().number()),
        (sq("e6"), 1, 8)
    );
}
