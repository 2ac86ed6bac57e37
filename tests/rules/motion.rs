//! Tests: the motion phase (3.3, R4, R5, R23, R24, R25).

use zebra::rules::{Action, ActionError, Event, Foul, FoulKind, Game, Phase, Settings, Side};

use super::support::{action, foul, game, is_legal, play, sq, BLACK_DEFENSE, WHITE_OFFENSE};

/// White at e5 in motion, both formations set.
fn in_motion() -> Game {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert_eq!(g.phase(), Phase::Motion);
    g
}

/// Asserts a dead-ball foul was enforced: field cleared, the same down from the new spot.
fn assert_dead_ball(g: &Game, ev: &[Event], f: Foul, new_spot: &str) {
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    assert!(ev.contains(&Event::PenaltyEnforced(f)), "{ev:?}");
    assert_eq!(g.spot(), sq(new_spot));
    assert_eq!(g.down(), 1);
    assert_eq!(g.phase(), Phase::Formation(g.offense()));
    assert!(g.board().occupied().is_empty());
}

#[test]
fn rule_3_3_a_motion_behind_the_line_gives_the_defense_a_reaction() {
    let mut g = in_motion();
    let ev = play(&mut g, &["c3>b3"]);
    assert_eq!(
        ev,
        vec![Event::Shifted {
            side: Side::White,
            from: sq("c3"),
            to: sq("b3")
        }]
    );
    assert_eq!(g.phase(), Phase::Reaction);
    assert_eq!(g.to_move(), Some(Side::Black));
    assert!(g.moved_in_motion().contains(sq("b3")));
    assert!(g.board().piece_at(sq("c3")).is_none());
}

#[test]
fn rule_3_3_the_defense_may_skip_its_reaction() {
    let mut g = in_motion();
    let ev = play(&mut g, &["c3>b3", "pass"]);
    assert_eq!(ev[1], Event::Passed { side: Side::Black });
    assert_eq!(g.phase(), Phase::Motion);
}

#[test]
fn rule_3_3_motion_may_be_skipped() {
    let mut g = in_motion();
    let ev = play(&mut g, &["snap"]);
    assert!(matches!(ev[0], Event::Snap { .. }), "{ev:?}");
}

#[test]
fn rule_3_3_motion_continues_one_piece_at_a_time_until_the_snap() {
    let mut g = in_motion();
    play(
        &mut g,
        &["c3>b3", "pass", "g5>h5", "c7>c6", "f4>f2", "pass"],
    );
    assert_eq!(g.phase(), Phase::Motion);
    let ev = play(&mut g, &["snap"]);
    assert_eq!(
        ev[0],
        Event::Snap {
            from: sq("e5"),
            to: sq("e4")
        }
    );
}

#[test]
fn r24_the_defense_may_shift_the_same_piece_again() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3", "c7>c6", "g5>h5", "c6>b6"]);
    assert_eq!(g.phase(), Phase::Motion);
    assert!(g.board().piece_at(sq("b6")).is_some());
    assert!(g.flags().is_empty());
}

#[test]
fn r4_each_offensive_piece_moves_at_most_once() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3", "pass"]);
    let before = g.clone();
    assert_eq!(
        g.apply(&action("b3>a3")),
        Err(ActionError::AlreadyMoved(sq("b3")))
    );
    assert_eq!(g, before);
    assert!(!g
        .legal_action_list()
        .iter()
        .any(|a| matches!(a, Action::Motion { from, .. } if *from == sq("b3"))));
}

#[test]
fn r4_the_snapper_may_not_move() {
    let mut g = in_motion();
    let before = g.clone();
    assert_eq!(
        g.apply(&action("e5>a1")),
        Err(ActionError::SnapperMoved(sq("e5")))
    );
    assert_eq!(
        g.apply(&action("e5>e6")),
        Err(ActionError::SnapperMoved(sq("e5")))
    );
    assert_eq!(g, before);
    assert!(!g
        .legal_action_list()
        .iter()
        .any(|a| matches!(a, Action::Motion { from, .. } if *from == sq("e5"))));
}

#[test]
fn r4_a_motion_may_go_to_any_empty_square_at_or_behind_the_line() {
    let mut g = in_motion();
    play(&mut g, &["c3>a1", "pass", "g5>a5", "pass"]);
    assert!(g.flags().is_empty());
    assert_eq!(g.phase(), Phase::Motion);
    assert!(g.board().piece_at(sq("a1")).is_some());
    assert!(g.board().piece_at(sq("a5")).is_some());
}

#[test]
fn r4_a_motion_onto_a_taken_square_is_rejected() {
    let mut g = in_motion();
    let before = g.clone();
    assert_eq!(
        g.apply(&action("c3>e3")),
        Err(ActionError::SquareTaken(sq("e3")))
    );
    assert_eq!(g, before);
}

#[test]
fn rule_3_3_a_motion_beyond_the_line_is_a_false_start() {
    let mut g = in_motion();
    assert_eq!(g.presnap_foul(&action("c3>c6")), Some(FoulKind::FalseStart));
    let ev = play(&mut g, &["c3>c6"]);
    assert_eq!(
        ev[0],
        Event::Shifted {
            side: Side::White,
            from: sq("c3"),
            to: sq("c6")
        }
    );
    assert_dead_ball(&g, &ev, foul(Side::White, FoulKind::FalseStart, "e5"), "e4");
}

#[test]
fn r23_a_false_start_is_a_legal_action_with_a_consequence() {
    let g = in_motion();
    assert!(is_legal(&g, "c3>c6"));
    assert!(is_legal(&g, "c3>h8"));
    assert_eq!(g.presnap_foul(&action("c3>b3")), None);
    assert_eq!(g.presnap_foul(&action("snap")), None);
}

#[test]
fn r5_a_reaction_onto_the_offense_side_is_offsides() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    // a7 -> h2: no white piece next to h2.
    assert_eq!(g.presnap_foul(&action("c7>h2")), Some(FoulKind::Offsides));
    let ev = play(&mut g, &["c7>h2"]);
    assert_dead_ball(&g, &ev, foul(Side::Black, FoulKind::Offsides, "e5"), "e6");
}

#[test]
fn r5_a_reaction_onto_the_line_of_scrimmage_is_offsides() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    let ev = play(&mut g, &["b8>a5"]);
    assert_dead_ball(&g, &ev, foul(Side::Black, FoulKind::Offsides, "e5"), "e6");
}

#[test]
fn r5_a_reaction_next_to_an_offensive_piece_is_encroachment() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    assert_eq!(
        g.presnap_foul(&action("c7>c4")),
        Some(FoulKind::Encroachment)
    );
    let ev = play(&mut g, &["c7>c4"]);
    assert_dead_ball(
        &g,
        &ev,
        foul(Side::Black, FoulKind::Encroachment, "e5"),
        "e6",
    );
}

#[test]
fn r5_a_reaction_beyond_the_line_is_legal() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    assert_eq!(g.presnap_foul(&action("c7>a6")), None);
    let ev = play(&mut g, &["c7>a6"]);
    assert_eq!(ev.len(), 1);
    assert_eq!(g.phase(), Phase::Motion);
}

#[test]
fn r5_reaction_fouls_are_legal_actions() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    assert!(is_legal(&g, "c7>h2"));
    assert!(is_legal(&g, "c7>c4"));
    assert!(is_legal(&g, "pass"));
}

#[test]
fn r25_bringing_a_piece_from_the_sideline_in_motion_is_illegal_substitution() {
    let mut g = in_motion();
    assert!(is_legal(&g, "@N>a1"));
    assert_eq!(
        g.presnap_foul(&action("@N>a1")),
        Some(FoulKind::IllegalSubstitution)
    );
    let ev = play(&mut g, &["@N>a1"]);
    assert_eq!(ev[0], Event::Substituted { side: Side::White });
    assert_dead_ball(
        &g,
        &ev,
        foul(Side::White, FoulKind::IllegalSubstitution, "e5"),
        "e4",
    );
}

#[test]
fn r25_taking_a_piece_to_the_sideline_in_motion_is_illegal_substitution() {
    let mut g = in_motion();
    assert!(is_legal(&g, "c3>@"));
    let ev = play(&mut g, &["c3>@"]);
    assert_eq!(ev[0], Event::Substituted { side: Side::White });
    assert_dead_ball(
        &g,
        &ev,
        foul(Side::White, FoulKind::IllegalSubstitution, "e5"),
        "e4",
    );
}

#[test]
fn r25_a_defensive_substitution_in_reaction_is_illegal_substitution() {
    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    assert!(is_legal(&g, "@P>a8"));
    let ev = play(&mut g, &["@P>a8"]);
    assert_eq!(ev[0], Event::Substituted { side: Side::Black });
    assert_dead_ball(
        &g,
        &ev,
        foul(Side::Black, FoulKind::IllegalSubstitution, "e5"),
        "e6",
    );

    let mut g = in_motion();
    play(&mut g, &["c3>b3"]);
    let ev = play(&mut g, &["c7>@"]);
    assert_dead_ball(
        &g,
        &ev,
        foul(Side::Black, FoulKind::IllegalSubstitution, "e5"),
        "e6",
    );
}

#[test]
fn r25_substitution_needs_a_piece_on_the_sideline() {
    let mut g = in_motion();
    // White placed its only queen and king.
    let before = g.clone();
    assert_eq!(
        g.apply(&action("@Q>a1")),
        Err(ActionError::NotOnSideline(zebra::rules::Role::Queen))
    );
    assert_eq!(
        g.apply(&action("@K>a1")),
        Err(ActionError::NotOnSideline(zebra::rules::Role::King))
    );
    assert_eq!(g, before);
    assert!(!is_legal(&g, "@Q>a1"));
}

#[test]
fn rule_3_3_black_false_start_is_beyond_rank_4_toward_rank_1() {
    let mut g = game(
        r#"
offense: black
phase: motion
spot: d4
8 . . . . . . . .
7 . . . . . . . .
6 . . n k . . . .
5 . . . q . b . .
4 . . . p p . r .
3 . . . P P . . .
2 . . N . . B R .
1 . R . Q . . . .
"#,
    );
    let ev = play(&mut g, &["c6>c5", "pass"]);
    assert!(g.flags().is_empty(), "{ev:?}");
    let ev = play(&mut g, &["g4>g3"]);
    assert_dead_ball(&g, &ev, foul(Side::Black, FoulKind::FalseStart, "d4"), "d5");
}

#[test]
fn r5_a_white_reaction_onto_blacks_side_is_offsides_and_moves_black_forward() {
    let mut g = game(
        r#"
offense: black
phase: reaction
spot: d4
8 . . . . . . . .
7 . . . . . . . .
6 . . n k . . . .
5 . . . q . b . .
4 . . . p p . r .
3 . . . P P . . .
2 . . N . . B R .
1 . R . Q . . . .
"#,
    );
    let ev = play(&mut g, &["b1>a8"]);
    assert_dead_ball(&g, &ev, foul(Side::White, FoulKind::Offsides, "d4"), "d3");
}
