//! Tests: the snap (3.4, R19, R56).

use zebra::rules::{ActionError, Ball, DecisionKind, Event, Game, Phase, Settings, Side};

use super::support::{action, game, play, sq};

/// A motion-phase diagram for `offense` with the ball on `spot` and the given board rows.
fn motion(offense: &str, spot: &str, rows: &str) -> Game {
    game(&format!(
        "offense: {offense}\nphase: motion\nspot: {spot}\n{rows}"
    ))
}

#[test]
fn rule_3_4_the_snap_goes_to_the_piece_directly_behind_the_snapper() {
    let mut g = Game::new(Settings::timed());
    play(
        &mut g,
        &[
            "[Pd5,Pe5,Ke4,Qe3,Nc3,Bf4,Rg5]",
            "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe6]",
        ],
    );
    assert!(!g.clock_running());
    assert_eq!(g.snap_receiver(), Some(sq("e4")));
    let ev = play(&mut g, &["snap"]);
    assert_eq!(
        ev,
        vec![Event::Snap {
            from: sq("e5"),
            to: sq("e4")
        }]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e4")));
    assert_eq!(g.possession(), Side::White);
    assert!(g.clock_running());
}

#[test]
fn rule_3_4_the_snap_goes_two_behind_when_the_square_behind_is_empty() {
    let mut g = motion(
        "white",
        "e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p p . . .
5 . . . P P . . .
4 . . . . . . . .
3 . . . . Q . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(
        ev,
        vec![Event::Snap {
            from: sq("e5"),
            to: sq("e3")
        }]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e3")));
}

#[test]
fn rule_3_4_the_nearer_receiver_takes_the_snap() {
    let mut g = motion(
        "white",
        "e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p p . . .
5 . . . P P . . .
4 . . . . N . . .
3 . . . . K . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["snap"]);
    assert_eq!(g.ball(), Ball::Carried(sq("e4")));
}

#[test]
fn rule_3_4_a_receiver_three_behind_is_too_far_and_the_snap_is_fumbled() {
    let mut g = motion(
        "white",
        "e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p p . . .
5 . . . P P . . .
4 . . . K . . . .
3 . . . . . . . .
2 . . . . Q . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.snap_receiver(), None);
    let ev = play(&mut g, &["snap"]);
    assert_eq!(ev, vec![Event::SnapFumbled { at: sq("e3") }]);
    assert_eq!(g.ball(), Ball::Loose(sq("e3")));
    assert_eq!(g.phase(), Phase::Action(Side::White));
}

#[test]
fn rule_3_4_a_black_snap_goes_toward_rank_8() {
    let mut g = motion(
        "black",
        "d4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . q . . . .
5 . . . . . . . .
4 . . . p p . . .
3 . . . P P . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(
        ev,
        vec![Event::Snap {
            from: sq("d4"),
            to: sq("d6")
        }]
    );
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn rule_3_4_a_fumbled_black_snap_lies_two_squares_toward_rank_8() {
    let mut g = motion(
        "black",
        "d4",
        r#"
8 . . . . . . . .
7 . . . q . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . p p . . .
3 . . . P P . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(ev, vec![Event::SnapFumbled { at: sq("d6") }]);
    assert_eq!(g.ball(), Ball::Loose(sq("d6")));
}

#[test]
fn r19_a_fumbled_snap_on_the_2_yard_rank_lies_in_the_end_zone() {
    let mut g = motion(
        "white",
        "e2",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . p p . . .
2 . . . P P . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(ev, vec![Event::SnapFumbled { at: sq("e1") }]);
    assert_eq!(g.ball(), Ball::Loose(sq("e1")));

    let mut g = motion(
        "black",
        "d7",
        r#"
8 . . . . . . . .
7 . . . p p . . .
6 . . . P P . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(ev, vec![Event::SnapFumbled { at: sq("d8") }]);
}

#[test]
fn r19_on_the_3_yard_rank_the_receiver_may_stand_in_the_end_zone() {
    let mut g = motion(
        "white",
        "e3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . p p . . .
3 . . . P P . . .
2 . . . . . . . .
1 . . . . K . . .
"#,
    );
    let ev = play(&mut g, &["snap"]);
    assert_eq!(
        ev,
        vec![Event::Snap {
            from: sq("e3"),
            to: sq("e1")
        }]
    );
}

#[test]
fn r56_after_the_snap_the_offense_moves_first_then_the_teams_alternate() {
    let mut g = motion(
        "white",
        "e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p p . . .
5 . . . P P . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["snap"]);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(
        g.decision().map(|d| (d.side, d.kind)),
        Some((Side::White, DecisionKind::Move))
    );
    assert_eq!(g.play_turns(), 0);
    play(&mut g, &["e4f3"]);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
    assert_eq!(g.play_turns(), 1);
    play(&mut g, &["d6d5"]);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.play_turns(), 2);
    // White may not move twice in a row: the black pawn is not White's to move.
    let before = g.clone();
    assert_eq!(
        g.apply(&action("e6e5")),
        Err(ActionError::NotYours {
            square: sq("e6"),
            owner: Side::Black
        })
    );
    assert_eq!(g, before);
}

#[test]
fn rule_3_4_the_snap_is_only_possible_in_motion() {
    let mut g = Game::new(Settings::timed());
    let before = g.clone();
    assert!(matches!(
        g.apply(&action("snap")),
        Err(ActionError::NotNow { .. })
    ));
    play(&mut g, &["[Pd5,Pe5,Ke4,Qe3,Nc3,Bf4,Rg5]"]);
    assert!(matches!(
        g.apply(&action("snap")),
        Err(ActionError::NotNow { .. })
    ));
    assert_ne!(g, before);
    play(&mut g, &["[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe6]", "c3>b3"]);
    // The defense's reaction is due: no snap now.
    assert!(matches!(
        g.apply(&action("snap")),
        Err(ActionError::NotNow { .. })
    ));
    play(&mut g, &["pass", "snap"]);
    assert!(matches!(
        g.apply(&action("snap")),
        Err(ActionError::NotNow { .. })
    ));
}
