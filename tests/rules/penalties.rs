//! Tests: penalties (7.1, 7.2, 7.3, R6, R15, R39-R43).

use zebra::rules::{
    Action, ActionError, Clock, Decision, DecisionKind, Event, FoulKind, Game, Phase, PlayEnd,
    Settings, Side,
};

use super::support::{
    action, action_phase, assert_series, foul, game, play, sq, BLACK_DEFENSE, WHITE_OFFENSE,
};

fn penalty_choice(g: &Game, side: Side) {
    assert_eq!(g.phase(), Phase::PenaltyChoice(side));
    assert_eq!(
        g.decision(),
        Some(Decision {
            side,
            kind: DecisionKind::PenaltyChoice
        })
    );
}

/// Black holds (R39): White's rook pushes the d6 pawn, the pawn pushes the rook straight
/// back; then White's carrier runs out of bounds at a4.
fn defensive_holding() -> (Game, Vec<Event>) {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5d6", "d7d6"]);
    let f = foul(Side::Black, FoulKind::Holding, "d7");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    // The flag does not stop the play (7.2: assessed after the play).
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.flags(), &[f]);
    let ev = play(&mut g, &["c4a4"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::OutOfBounds
        }),
        "{ev:?}"
    );
    penalty_choice(&g, Side::White);
    (g, ev)
}

/// White holds: Black's pawn pushes the d5 rook, the rook pushes it back; then Black
/// tackles the carrier on c4.
fn offensive_holding() -> Game {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 b . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d6d5", "d4d5"]);
    assert!(
        ev.contains(&Event::Flag(foul(Side::White, FoulKind::Holding, "d4"))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["a6c4"]);
    assert!(ev.contains(&Event::Tackle { at: sq("c4") }), "{ev:?}");
    penalty_choice(&g, Side::Black);
    g
}

// ---- 7.1, R6: pre-snap fouls ----

#[test]
fn rule_7_1_every_pre_snap_foul_costs_five_yards_from_the_line_and_replays_the_down() {
    let white_in_motion = [WHITE_OFFENSE, BLACK_DEFENSE];
    let cases: Vec<(Vec<&str>, Option<Clock>, Side, FoulKind)> = vec![
        (
            vec![WHITE_OFFENSE, BLACK_DEFENSE, "c3>c6"],
            None,
            Side::White,
            FoulKind::FalseStart,
        ),
        (
            vec![WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3", "c7>h2"],
            None,
            Side::Black,
            FoulKind::Offsides,
        ),
        (
            vec![WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3", "c7>c4"],
            None,
            Side::Black,
            FoulKind::Encroachment,
        ),
        (
            vec!["[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg5,Ra1]"],
            None,
            Side::White,
            FoulKind::TooManyMen,
        ),
        (
            vec![WHITE_OFFENSE, "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe6,Pa6]"],
            None,
            Side::Black,
            FoulKind::TooManyMen,
        ),
        (
            vec!["[Pd5,Pf5,Qe4,Ke3,Nc3,Bf4,Rg5]"],
            None,
            Side::White,
            FoulKind::IllegalFormation,
        ),
        (
            white_in_motion.to_vec(),
            Some(Clock::Play),
            Side::White,
            FoulKind::DelayOfGame,
        ),
        (
            vec![WHITE_OFFENSE, BLACK_DEFENSE, "@P>a1"],
            None,
            Side::White,
            FoulKind::IllegalSubstitution,
        ),
        (
            vec![WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3", "b8>@"],
            None,
            Side::Black,
            FoulKind::IllegalSubstitution,
        ),
    ];
    for (actions, clock, side, kind) in cases {
        let mut g = game(
            r#"
offense: white
phase: formation
down: 3
spot: e5
to-gain: 8
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
        let Ok(mut ev) = (|| -> Result<Vec<Event>, ActionError> {
            let mut ev = Vec::new();
            for a in &actions {
                ev.extend(g.apply(&action(a))?);
            }
            if let Some(c) = clock {
                ev.extend(g.expire(c)?);
            }
            Ok(ev)
        })() else {
            panic!("{kind}: rejected");
        };
        let f = foul(side, kind, "e5");
        let at = ev
            .iter()
            .position(|e| *e == Event::Flag(f))
            .unwrap_or_else(|| panic!("{kind}: {ev:?}"));
        let tail = ev.split_off(at);
        assert_eq!(tail[1], Event::PenaltyEnforced(f), "{kind}");
        let new_spot = if side == Side::White { "e4" } else { "e6" };
        assert_eq!(
            tail.last(),
            Some(&Event::NextPlay {
                offense: Side::White,
                down: 3,
                spot: sq(new_spot),
                to_gain: 8
            }),
            "{kind}"
        );
        assert_series(&g, Side::White, 3, new_spot, 8);
        // Dead-ball fouls are enforced at once: no choice, a cleared field; the game clock
        // (stopped before the snap here) is started by an offensive foul and left stopped
        // by a defensive one (R45, edition 2).
        assert_eq!(g.phase(), Phase::Formation(Side::White), "{kind}");
        assert!(g.flags().is_empty(), "{kind}");
        assert!(g.board().occupied().is_empty(), "{kind}");
        assert_eq!(g.clock_running(), side == Side::White, "{kind}");
        assert!(kind.is_pre_snap());
    }
}

#[test]
fn r6_a_dead_ball_foul_cannot_be_accepted_or_declined() {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>c6"]);
    let before = g.clone();
    assert!(matches!(
        g.apply(&action("decline")),
        Err(ActionError::NotNow { .. })
    ));
    assert!(matches!(
        g.apply(&action("accept:false-start")),
        Err(ActionError::NotNow { .. })
    ));
    assert_eq!(g, before);
}

#[test]
fn r6_a_defensive_dead_ball_foul_reaching_the_line_to_gain_is_a_first_down() {
    let mut g = game(
        r#"
offense: white
phase: reaction
down: 4
spot: e5
to-gain: 6
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
    let ev = play(&mut g, &["d6>a2"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e6", 8);
}

#[test]
fn r6_black_offense_pre_snap_fouls_move_toward_rank_8() {
    let mut g = game(
        r#"
offense: black
phase: motion
down: 2
spot: d4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . q . . . .
4 . . . p p . . .
3 . . . P P . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = g.expire(Clock::Play).unwrap();
    assert!(
        ev.contains(&Event::PenaltyEnforced(foul(
            Side::Black,
            FoulKind::DelayOfGame,
            "d4"
        ))),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 2, "d5", 2);
}

// ---- R15: the 1-yard line ----

#[test]
fn r15_changed_an_offensive_foul_on_its_own_1_yard_line_costs_a_down() {
    // Edition 1 enforced nothing here; now the ball cannot move (half the distance, R57),
    // so the foul costs the offense a down, which counts as a play (R44).
    let mut g = game(
        r#"
offense: white
phase: formation
down: 2
spot: e2
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
    let ev = g.expire(Clock::Play).unwrap();
    assert!(
        ev.contains(&Event::PenaltyEnforced(foul(
            Side::White,
            FoulKind::DelayOfGame,
            "e2"
        ))),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "e2", 4);
    assert_eq!(g.plays_in_quarter(), 1);
}

#[test]
fn r15_changed_a_defensive_foul_at_its_1_yard_line_gives_a_first_down() {
    // The ball cannot move into the end zone (half the distance, R57): the defense's foul
    // gives the offense a first down instead (edition 1 gave nothing).
    let mut g = game(
        r#"
offense: white
phase: formation
down: 2
spot: e7
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
    play(&mut g, &["[Pd7,Pe7,Qe6,Ke5,Nc5,Bf6,Rg7]"]);
    let ev = play(&mut g, &["[Pa8,Pb8,Nc8,Bd8,Re8,Qf8,Rg6]"]);
    assert!(
        ev.contains(&Event::PenaltyEnforced(foul(
            Side::Black,
            FoulKind::Offsides,
            "e7"
        ))),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e7", 8);
}

#[test]
fn r15_ten_yards_against_the_offense_stop_at_its_2_yard_rank_and_r42_accepting_wipes_out_a_safety()
{
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . p . . . .
3 . . . R . n . .
2 . . . . . . . .
1 . . . . K* . . .
"#,
    );
    let ev = play(&mut g, &["d4d3", "d2d3"]);
    assert!(
        ev.contains(&Event::Flag(foul(Side::White, FoulKind::Holding, "d2"))),
        "{ev:?}"
    );
    play(&mut g, &["f3e1"]);
    penalty_choice(&g, Side::Black);
    let mut declined = g.clone();
    let ev = play(&mut declined, &["decline"]);
    assert!(ev.contains(&Event::Safety { side: Side::Black }), "{ev:?}");
    assert_eq!(declined.score(Side::Black), 2);

    let ev = play(&mut g, &["accept:holding"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Safety { .. })),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::Black), 0);
    assert_series(&g, Side::White, 1, "e2", 5);
}

#[test]
fn r15_defensive_pass_interference_in_the_end_zone_is_spotted_at_the_1_yard_line() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . r R . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e8", "b8c8"]);
    assert!(
        ev.contains(&Event::Flag(foul(
            Side::Black,
            FoulKind::PassInterference,
            "c8"
        ))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["b2b3"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    let ev = play(&mut g, &["accept:pass-interference"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "c7", 8);
}

// ---- 7.2: post-snap fouls ----

#[test]
fn r39_r57_defensive_holding_from_e5_is_half_the_distance_and_an_automatic_first_down() {
    // 10 yards from e5 would be 2 of the 3 ranks to Black's end zone, more than half the
    // distance: the ball moves 1 rank (R57; edition 1 moved it to e7).
    let (mut g, _) = defensive_holding();
    assert_eq!(
        g.legal_action_list(),
        vec![Action::Accept(FoulKind::Holding), Action::Decline]
    );
    let ev = play(&mut g, &["accept:holding"]);
    let f = foul(Side::Black, FoulKind::Holding, "d7");
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e6", 8);
    assert!(!g.clock_running());
    assert!(g.flags().is_empty());
}

#[test]
fn r42_declining_lets_the_play_stand() {
    let (mut g, _) = defensive_holding();
    let ev = play(&mut g, &["decline"]);
    assert_eq!(
        ev[0],
        Event::PenaltyDeclined {
            kind: FoulKind::Holding
        }
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PenaltyEnforced(_))),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "b4", 7);
}

#[test]
fn r39_offensive_holding_is_10_yards_from_the_previous_spot_and_replays_the_down() {
    let mut g = offensive_holding();
    let ev = play(&mut g, &["accept:holding"]);
    assert_eq!(
        ev[0],
        Event::PenaltyEnforced(foul(Side::White, FoulKind::Holding, "d4"))
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e3", 7);
    assert_eq!(g.yards_to_go(), 20);

    let mut g = offensive_holding();
    play(&mut g, &["decline"]);
    assert_series(&g, Side::White, 2, "c4", 7);
}

#[test]
fn r39_pushing_back_a_piece_that_did_not_push_is_not_holding() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . n . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    // White pushes, Black plays elsewhere, then the pawn pushes the rook: not holding.
    play(&mut g, &["d5d6", "f3d2", "c4b4", "d7d6"]);
    assert!(g.flags().is_empty());
}

#[test]
fn r40_illegal_contact_is_5_yards_and_an_automatic_first_down() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5",
        r#"
8 . . r . . . . .
7 . . B . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["c8c7"]);
    let f = foul(Side::Black, FoulKind::IllegalContact, "c7");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    play(&mut g, &["c4a4"]);
    penalty_choice(&g, Side::White);
    let ev = play(&mut g, &["accept:illegal-contact"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e6", 8);
}

#[test]
fn r40_changed_contact_with_a_pawn_is_illegal_contact() {
    // Edition 1 exempted pawns; every piece is an eligible receiver now (R64).
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5",
        r#"
8 . . r . . . . .
7 . . P . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["c8c7"]);
    assert!(
        ev.contains(&Event::Pushed {
            from: sq("c7"),
            to: sq("c6")
        }),
        "{ev:?}"
    );
    assert_eq!(
        g.flags(),
        &[foul(Side::Black, FoulKind::IllegalContact, "c7")]
    );
}

#[test]
fn r40_contact_within_5_yards_or_after_a_pass_is_not_illegal_contact() {
    // One rank beyond the line is within 5 yards.
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5",
        r#"
8 . . . . . . . .
7 . . r . . . . .
6 . . B . . . . .
5 . . . . . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["c7c6"]);
    assert!(g.flags().is_empty());
    // After a pass of the play.
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\nforward-pass: yes",
        r#"
8 . . r . . . . .
7 . . B . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["c8c7"]);
    assert!(g.flags().is_empty());
    // After the offense carried the ball beyond the line.
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ncrossed: yes",
        r#"
8 . . r . . . . .
7 . . B . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["c8c7"]);
    assert!(g.flags().is_empty());
}

#[test]
fn r41_defensive_pass_interference_is_spotted_at_the_foul_with_an_automatic_first_down() {
    // The foul on c6 is 10 yards beyond the line (e4): the ball goes to the spot of the foul.
    let mut g = action_phase(
        "offense: white\nspot: e4\ndown: 3",
        r#"
8 . . . . . . . .
7 . . r . . . . .
6 . . B . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e8", "c7c6"]);
    let f = foul(Side::Black, FoulKind::PassInterference, "c6");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["b2b3"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    penalty_choice(&g, Side::White);
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_series(&declined, Side::White, 4, "e4", 6);
    let ev = play(&mut g, &["accept:pass-interference"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "c6", 8);
}

#[test]
fn r41_changed_defensive_pass_interference_behind_the_line_is_5_yards_beyond_the_previous_spot() {
    // Edition 1 enforced it from the previous spot with no yards; now the ball goes at least
    // 5 yards beyond the previous spot, with the automatic first down.
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . r R . K* . . .
3 . . . . . . . .
2 . . . . . . P .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^c7", "b4c4"]);
    assert!(
        ev.contains(&Event::Flag(foul(
            Side::Black,
            FoulKind::PassInterference,
            "c4"
        ))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["g2g3", "accept:pass-interference"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e6", 8);
}

#[test]
fn r41_offensive_pass_interference_is_10_yards_and_loss_of_down() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . n
7 . . . . . . . .
6 . . b . . . . .
5 . . R . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e8", "h8g6", "c5c6"]);
    let f = foul(Side::White, FoulKind::PassInterference, "c6");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    penalty_choice(&g, Side::Black);
    let ev = play(&mut g, &["accept:pass-interference"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert_series(&g, Side::White, 2, "e3", 7);
}

#[test]
fn r41_a_push_while_a_direct_pass_is_in_flight_is_not_pass_interference() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . r . N . . .
6 . . B . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4^e7", "c7c6"]);
    assert!(
        !g.flags()
            .iter()
            .any(|f| f.kind == FoulKind::PassInterference),
        "{:?}",
        g.flags()
    );
}

#[test]
fn r34_an_illegal_forward_pass_is_5_yards_from_the_spot_of_the_pass_and_loss_of_down() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2\ncrossed: yes",
        r#"
8 . . . . . . . .
7 . . . . K* . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . P . . . . . n
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e7^c8"]);
    let f = foul(Side::White, FoulKind::IllegalForwardPass, "e7");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["h2f1", "b2b3"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    penalty_choice(&g, Side::Black);
    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert_series(&g, Side::White, 3, "e6", 7);
}

#[test]
fn r42_accepting_an_illegal_forward_pass_wipes_out_the_touchdown() {
    let build = || {
        let mut g = action_phase(
            "offense: white\nspot: e5\nforward-pass: yes",
            r#"
8 . . . . B . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . K* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 n . . . . . . .
"#,
        );
        let ev = play(&mut g, &["d4^e8", "a1b3"]);
        assert!(
            ev.contains(&Event::PlayOver {
                end: PlayEnd::Touchdown
            }),
            "{ev:?}"
        );
        assert_eq!(
            g.flags(),
            &[foul(Side::White, FoulKind::IllegalForwardPass, "d4")]
        );
        assert_eq!(
            g.score(Side::White),
            0,
            "the score waits for the penalty decision"
        );
        penalty_choice(&g, Side::Black);
        g
    };
    let mut g = build();
    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Touchdown { .. })),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 0);
    assert_series(&g, Side::White, 2, "d3", 7);

    let mut g = build();
    let ev = play(&mut g, &["decline"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 7);
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r43_a_loss_of_down_on_fourth_down_is_a_turnover_on_downs() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 4",
        r#"
8 . . . . . . . n
7 . . . . . . . .
6 . . b . . . . .
5 . . R . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["e4^e8", "h8g6", "c5c6"]);
    let ev = play(&mut g, &["accept:pass-interference"]);
    assert!(
        ev.contains(&Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r34_changed_an_illegal_forward_pass_after_an_interception_costs_the_intercepting_team_5_yards() {
    // Edition 1 wiped out the play and gave the ball back; now the foul came after the
    // change of possession (R59): Black keeps the ball and starts 5 yards behind its own 20.
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ndown: 2",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . k* . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . P .
"#,
    );
    let ev = play(&mut g, &["d4^d2"]);
    let f = foul(Side::Black, FoulKind::IllegalForwardPass, "d4");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    play(&mut g, &["g1g2", "d4d3"]);
    penalty_choice(&g, Side::White);
    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d5", 3);
}

// ---- 7.3: enforcement ----

#[test]
fn r42_with_several_flags_on_one_team_only_one_is_enforced() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . r . .
7 . . . . . B . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["d5d6", "d7d6", "c4b4", "f8f7", "b4a4"]);
    let holding = foul(Side::Black, FoulKind::Holding, "d7");
    let contact = foul(Side::Black, FoulKind::IllegalContact, "f7");
    assert_eq!(g.flags(), &[holding, contact]);
    penalty_choice(&g, Side::White);
    assert_eq!(
        g.legal_action_list(),
        vec![
            Action::Accept(FoulKind::Holding),
            Action::Accept(FoulKind::IllegalContact),
            Action::Decline
        ]
    );
    let ev = play(&mut g, &["accept:illegal-contact"]);
    let enforced: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::PenaltyEnforced(_)))
        .collect();
    assert_eq!(enforced, vec![&Event::PenaltyEnforced(contact)]);
    assert_series(&g, Side::White, 1, "e6", 8);
}

#[test]
fn r42_decline_declines_every_flag() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . r . .
7 . . . . . B . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["d5d6", "d7d6", "c4b4", "f8f7", "b4a4"]);
    let ev = play(&mut g, &["decline"]);
    assert_eq!(
        ev[0],
        Event::PenaltyDeclined {
            kind: FoulKind::Holding
        }
    );
    assert_eq!(
        ev[1],
        Event::PenaltyDeclined {
            kind: FoulKind::IllegalContact
        }
    );
    assert_series(&g, Side::White, 2, "b4", 7);
}

#[test]
fn r42_only_the_first_flag_of_a_kind_per_team_counts() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . p . .
5 . . . R . R . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d5d6", "d7d6", "f5f6", "f7f6"]);
    let flags: Vec<&Event> = ev.iter().filter(|e| matches!(e, Event::Flag(_))).collect();
    assert_eq!(
        flags,
        vec![&Event::Flag(foul(Side::Black, FoulKind::Holding, "d7"))]
    );
    assert_eq!(g.flags(), &[foul(Side::Black, FoulKind::Holding, "d7")]);
}

#[test]
fn rule_7_3_offsetting_penalties_replay_the_down() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ndown: 3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d6d5", "d4d5", "d6d5"]);
    assert!(
        ev.contains(&Event::Flag(foul(Side::White, FoulKind::Holding, "d4"))),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::Flag(foul(Side::Black, FoulKind::Holding, "d6"))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["c4a4"]);
    assert!(ev.contains(&Event::OffsettingPenalties), "{ev:?}");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PenaltyEnforced(_))),
        "{ev:?}"
    );
    assert_eq!(
        ev.last(),
        Some(&Event::NextPlay {
            offense: Side::White,
            down: 3,
            spot: sq("e5"),
            to_gain: 7
        })
    );
    assert_series(&g, Side::White, 3, "e5", 7);
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert!(!g.clock_running());
}

#[test]
fn r42_accepting_a_defensive_foul_before_the_interception_wipes_it_out() {
    let build = || {
        let mut g = action_phase(
            "offense: white\nspot: e5\ndown: 2",
            r#"
8 . . . . . . . .
7 . . . . . n . .
6 . . . . . . . .
5 . . . p . . . .
4 . . . R K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
        );
        // Black holds, then intercepts a throw onto its knight and runs out of bounds.
        let ev = play(&mut g, &["d4d5", "d6d5", "e4^f7"]);
        assert!(
            ev.contains(&Event::Intercepted {
                side: Side::Black,
                at: sq("f7")
            }),
            "{ev:?}"
        );
        let ev = play(&mut g, &["f7h6"]);
        assert!(ev.contains(&Event::OutOfBounds { at: sq("h6") }), "{ev:?}");
        penalty_choice(&g, Side::White);
        g
    };
    let mut g = build();
    let ev = play(&mut g, &["accept:holding"]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::PossessionChanged { .. })),
        "{ev:?}"
    );
    // Black's holding came before it had the ball (R59: no clean hands): the play is
    // annulled, 10 yards from e5 limited to half the distance (R57), a first down.
    assert_series(&g, Side::White, 1, "e6", 8);

    let mut g = build();
    let ev = play(&mut g, &["decline"]);
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

// ---- the same table with Black on offense (toward rank 1) ----

#[test]
fn r39_defensive_holding_against_black_moves_the_ball_toward_rank_1() {
    let mut g = action_phase(
        "offense: black\nspot: d5\ndown: 3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . q* . .
4 . . . . . . . .
3 . . . r . . . .
2 . . . P . . . .
1 . . . . . . . .
"#,
    );
    // Black's rook pushes the d2 pawn to d1; the pawn pushes the rook straight back: holding.
    let ev = play(&mut g, &["d3d2", "d1d2"]);
    let f = foul(Side::White, FoulKind::Holding, "d1");
    assert!(ev.contains(&Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["f5h5"]);
    assert!(ev.contains(&Event::OutOfBounds { at: sq("h5") }), "{ev:?}");
    penalty_choice(&g, Side::Black);
    let ev = play(&mut g, &["accept:holding"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::Black }),
        "{ev:?}"
    );
    // 10 yards from d5 toward rank 1: exactly half the distance to White's end zone (R57).
    assert_series(&g, Side::Black, 1, "d3", 1);
}

#[test]
fn r34_an_illegal_forward_pass_by_black_is_5_yards_back_toward_rank_8() {
    let mut g = action_phase(
        "offense: black\nspot: d4\ndown: 1\ncrossed: yes",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . k* . . . .
1 . . . . . . N .
"#,
    );
    let ev = play(&mut g, &["d2^b1", "g1h3", "d2c2"]);
    assert!(
        ev.contains(&Event::Flag(foul(
            Side::Black,
            FoulKind::IllegalForwardPass,
            "d2"
        ))),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    play(&mut g, &["accept:illegal-forward-pass"]);
    assert_series(&g, Side::Black, 2, "d3", 2);
}

#[test]
fn r15_black_defensive_pass_interference_in_whites_end_zone_is_spotted_on_rank_2() {
    let mut g = action_phase(
        "offense: black\nspot: d4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . k* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . R r . . . . .
"#,
    );
    // Black throws to e1; White's rook on b1 pushes Black's rook on c1 (which could reach e1).
    let ev = play(&mut g, &["e5^e1", "b1c1"]);
    assert!(
        ev.contains(&Event::Flag(foul(
            Side::White,
            FoulKind::PassInterference,
            "c1"
        ))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["e5d5"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    play(&mut g, &["accept:pass-interference"]);
    assert_series(&g, Side::Black, 1, "c2", 1);
}
