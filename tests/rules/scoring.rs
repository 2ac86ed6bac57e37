//! Tests: downs, scoring and turnovers (5.1, 5.2, 5.3, R14, R35, R36, R37, R38).

use zebra::rules::{Event, Game, Phase, PlayEnd, Side};

use super::support::{action_phase, assert_series, game, play, sq};

fn next_play(offense: Side, down: u8, spot: &str, to_gain: u8) -> Event {
    Event::NextPlay {
        offense,
        down,
        spot: sq(spot),
        to_gain,
    }
}

/// White carrier on `carrier`, tackled by the black knight on `knight`; ball spotted at `spot`.
fn white_tackled(keys: &str, carrier: &str, knight: &str) -> (Game, Vec<Event>) {
    let mut rows = vec![vec![".".to_string(); 8]; 8];
    let c = sq(carrier);
    let n = sq(knight);
    rows[c.rank().index() as usize][c.file().index() as usize] = "K*".into();
    rows[n.rank().index() as usize][n.file().index() as usize] = "n".into();
    let board: String = (0..8)
        .rev()
        .map(|r| format!("{} {}\n", r + 1, rows[r].join(" ")))
        .collect();
    let mut g = action_phase(&format!("offense: white\nturn: black\n{keys}"), &board);
    let ev = play(&mut g, &[&format!("{knight}{carrier}")]);
    assert!(ev.contains(&Event::Tackle { at: c }), "{ev:?}");
    (g, ev)
}

#[test]
fn rule_5_1_a_play_short_of_the_line_to_gain_uses_a_down() {
    let (g, ev) = white_tackled("spot: e5", "e6", "d8");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_eq!(ev.last(), Some(&next_play(Side::White, 2, "e6", 7)));
    assert_series(&g, Side::White, 2, "e6", 7);
    assert_eq!(g.yards_to_go(), 5);
}

#[test]
fn rule_5_1_the_line_of_scrimmage_moves_back_with_a_loss() {
    let (g, _) = white_tackled("spot: e5\ndown: 2", "c3", "b5");
    assert_series(&g, Side::White, 3, "c3", 7);
    assert_eq!(g.yards_to_go(), 20);
    assert_eq!(g.line_of_scrimmage().number(), 3);
}

#[test]
fn rule_5_1_two_ranks_earn_a_first_down() {
    let (g, ev) = white_tackled("spot: e3\ndown: 3", "e5", "d7");
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(ev.last(), Some(&next_play(Side::White, 1, "e5", 7)));
    assert_series(&g, Side::White, 1, "e5", 7);
    assert_eq!(g.yards_to_go(), 10);
}

#[test]
fn rule_5_1_one_rank_is_not_enough_for_a_first_down() {
    let (g, ev) = white_tackled("spot: e3\ndown: 3", "e4", "d6");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 4, "e4", 5);
}

#[test]
fn rule_5_1_passing_the_line_to_gain_also_earns_a_first_down() {
    let (g, ev) = white_tackled("spot: c3", "c6", "b8");
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "c6", 8);
}

#[test]
fn r38_the_line_to_gain_is_the_goal_line_when_closer() {
    let (g, _) = white_tackled("spot: e4", "e6", "d8");
    assert_series(&g, Side::White, 1, "e6", 8);
    assert!(g.is_goal_to_go());
    assert_eq!(g.yards_to_go(), 10);
    let (g, _) = white_tackled("spot: e5", "e7", "c8");
    assert_series(&g, Side::White, 1, "e7", 8);
    assert!(g.is_goal_to_go());
    assert_eq!(g.yards_to_go(), 5);
}

#[test]
fn r38_goal_to_go_has_no_first_down_short_of_the_goal() {
    let (g, ev) = white_tackled("spot: e6\nto-gain: 8\ndown: 2", "e7", "c8");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "e7", 8);
}

#[test]
fn r38_blacks_line_to_gain_is_two_ranks_toward_rank_1() {
    let mut g = action_phase(
        "offense: black\nturn: white\nspot: d4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . N . . .
3 . . . . . . . .
2 . . . k* . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.line_to_gain().number(), 2);
    let ev = play(&mut g, &["e4d2"]);
    assert!(
        ev.contains(&Event::FirstDown { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d2", 1);
    assert!(g.is_goal_to_go());
}

#[test]
fn rule_5_1_four_downs_without_a_first_down_turn_the_ball_over() {
    let (g, ev) = white_tackled("spot: e5\ndown: 4", "e6", "d8");
    assert!(
        ev.contains(&Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(ev.last(), Some(&next_play(Side::Black, 1, "d4", 2)));
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
}

#[test]
fn rule_5_1_a_first_down_on_fourth_down_keeps_the_ball() {
    let (g, ev) = white_tackled("spot: e5\ndown: 4", "e7", "c8");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::TurnoverOnDowns { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 1, "e7", 8);
}

#[test]
fn rule_5_3_an_incomplete_pass_returns_to_the_previous_spot_and_uses_a_down() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2",
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e7", "d8c6", "b2b3"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    assert!(ev.contains(&Event::Incomplete), "{ev:?}");
    assert_eq!(ev.last(), Some(&next_play(Side::White, 3, "e5", 7)));
    assert_series(&g, Side::White, 3, "e5", 7);
}

#[test]
fn rule_5_3_an_incomplete_pass_on_fourth_down_is_a_turnover_on_downs() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 4",
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e7", "d8c6", "b2b3"]);
    assert!(
        ev.contains(&Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn rule_5_2_a_touchdown_is_worth_seven_points_and_the_other_team_receives() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 3\nscore: 3-4",
        r#"
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
    let ev = play(&mut g, &["e6e8"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Touchdown
        }),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (10, 4));
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn rule_5_2_black_scores_in_rank_1() {
    let mut g = action_phase(
        "offense: black\nspot: d4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . b* . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["f2g1"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (0, 7));
    assert_series(&g, Side::White, 1, "e5", 7);
}

#[test]
fn r35_a_touchdown_on_a8_wins_over_out_of_bounds() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . Q* . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["c6a8"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::OutOfBounds { .. })),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 7);
}

#[test]
fn r35_a_pile_resolved_in_the_attacking_end_zone_is_a_touchdown() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: e5
8 . . . . (pP) . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 7);
}

#[test]
fn r35_a_truck_into_the_attacking_end_zone_is_a_touchdown() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . p . . .
7 . . . . . . . .
6 . . . . Q* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e6e8"]);
    assert!(
        ev.contains(&Event::Touchdown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(g.score(Side::White), 7);
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn rule_5_2_a_carrier_tackled_in_its_own_end_zone_is_a_safety() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e3\ndown: 2\nscore: 0-5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . n . . . .
2 . . . . . . . .
1 . . . . K* . . .
"#,
    );
    let ev = play(&mut g, &["d3e1"]);
    assert!(ev.contains(&Event::Safety { side: Side::Black }), "{ev:?}");
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (0, 7));
    // R14: the scoring team gets the ball at its own 20.
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r36_running_out_of_bounds_in_the_own_end_zone_is_a_safety() {
    let mut g = action_phase(
        "offense: white\nspot: c3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . K* . . . . . .
"#,
    );
    let ev = play(&mut g, &["b1a1"]);
    assert!(ev.contains(&Event::Safety { side: Side::Black }), "{ev:?}");
    assert_eq!(g.score(Side::Black), 2);
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r36_a_black_safety_scores_for_white() {
    let mut g = action_phase(
        "offense: black\nturn: white\nspot: d6",
        r#"
8 . . . . q* . . .
7 . . . . . . . .
6 . . . . . N . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["f6e8"]);
    assert!(ev.contains(&Event::Safety { side: Side::White }), "{ev:?}");
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (2, 0));
    assert_series(&g, Side::White, 1, "e5", 7);
}

#[test]
fn r36_a_pile_won_by_the_snapping_team_in_its_own_end_zone_is_a_safety() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: e3
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . (pP) . . .
"#,
    );
    let ev = play(&mut g, &["pass"]);
    assert!(ev.contains(&Event::Safety { side: Side::Black }), "{ev:?}");
    assert_eq!(g.score(Side::Black), 2);
}

#[test]
fn r36_an_interceptor_downed_in_its_own_end_zone_is_a_touchback() {
    let mut g = action_phase(
        "offense: white\nturn: white\nspot: e5",
        r#"
8 . . . q* . . . .
7 . . . . . . . .
6 . . . . N . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.possession(), Side::Black);
    let ev = play(&mut g, &["e6d8"]);
    assert!(ev.contains(&Event::Tackle { at: sq("d8") }), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Safety { .. } | Event::Touchdown { .. })),
        "{ev:?}"
    );
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (0, 0));
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r37_after_an_interception_the_new_offense_starts_at_its_own_20() {
    let mut g = action_phase(
        "offense: white\nturn: white\nspot: e5\ndown: 3",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . q* . . . . .
1 . . . . N . . .
"#,
    );
    let ev = play(&mut g, &["e1c2"]);
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r37_after_a_throw_onto_an_opponent_the_interceptor_keeps_the_ball() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2",
        r#"
8 . . . . . . . .
7 . . . . n . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^e7"]);
    assert!(
        ev.contains(&Event::Intercepted {
            side: Side::Black,
            at: sq("e7")
        }),
        "{ev:?}"
    );
    assert_eq!(g.possession(), Side::Black);
    // Black runs, White tackles: Black's ball on its own 20, not where the play ended.
    let ev = play(&mut g, &["e7d5", "e4d5"]);
    assert!(ev.contains(&Event::Tackle { at: sq("d5") }), "{ev:?}");
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r37_an_interception_stands_when_the_interceptors_pass_falls_incomplete() {
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
    assert_eq!(g.possession(), Side::Black);
    // Black (which intercepted) throws forward: an illegal forward pass that falls incomplete.
    let ev = play(&mut g, &["d4^d2", "g1g2", "d4d3"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Incomplete
        }),
        "{ev:?}"
    );
    let ev = play(&mut g, &["decline"]);
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn rule_5_2_an_interception_returned_for_a_touchdown_scores_for_the_defense() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ndown: 3",
        r#"
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
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (0, 7));
    // The team scored upon receives: White, on its own 20, first down.
    assert_series(&g, Side::White, 1, "e5", 7);
}
