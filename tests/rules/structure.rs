//! Tests: game structure (1.2, 5): quarters, halftime (R1), the end of the game (R16),
//! possession, and play-count quarters (R18, R44).

use zebra::rules::{
    ActionError, Clock, Decision, DecisionKind, Event, Game, GameResult, Phase, Settings, Side,
};

use super::support::{
    action, expire, game, play, snap_and_run_out, sq, BLACK_DEFENSE, WHITE_OFFENSE,
};

/// An empty field before the offense forms, with extra diagram keys.
fn before_formation(keys: &str) -> Game {
    game(&format!(
        "{keys}
phase: formation
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"
    ))
}

#[test]
fn r1_white_has_the_first_possession_on_its_own_20() {
    let g = Game::new(Settings::plays(10));
    assert_eq!(g.offense(), Side::White);
    assert_eq!(g.defense(), Side::Black);
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_eq!(
        g.decision(),
        Some(Decision {
            side: Side::White,
            kind: DecisionKind::Formation
        })
    );
    assert_eq!(g.spot(), sq("e5"));
    assert_eq!(g.down(), 1);
    assert_eq!(g.line_to_gain().number(), 7);
    assert_eq!(g.quarter(), 1);
    assert_eq!((g.score(Side::White), g.score(Side::Black)), (0, 0));
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (3, 3));
    assert_eq!(g.plays_in_quarter(), 0);
    assert_eq!(g.result(), None);
    assert!(!g.is_over());
}

#[test]
fn rule_1_2_four_quarters_then_the_game_ends() {
    let mut g = Game::new(Settings::plays(1));
    let mut quarters_ended = Vec::new();
    for expected_quarter in 1..=4u8 {
        assert_eq!(g.quarter(), expected_quarter);
        // One snapped play per quarter (a dead-ball foul no longer counts a play, R44).
        let ev = snap_and_run_out(&mut g);
        for e in &ev {
            if let Event::PeriodEnd { quarter } = e {
                quarters_ended.push(*quarter);
            }
        }
    }
    assert_eq!(quarters_ended, vec![1, 2, 3, 4]);
    assert!(g.is_over());
    assert_eq!(g.phase(), Phase::GameOver);
    assert_eq!(g.decision(), None);
    assert_eq!(g.result(), Some(GameResult::Draw));
}

#[test]
fn r1_spot_down_and_distance_carry_over_from_quarter_1_to_2() {
    let mut g = Game::new(Settings::plays(1));
    let ev = play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "snap", "e4a4"]);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(
        ev.last(),
        Some(&Event::NextPlay {
            offense: Side::White,
            down: 2,
            spot: sq("b4"),
            to_gain: 7
        })
    );
    assert_eq!(g.quarter(), 2);
    assert_eq!(g.offense(), Side::White);
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (2, sq("b4"), 7)
    );
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_eq!(g.plays_in_quarter(), 0);
}

#[test]
fn r1_black_has_the_first_possession_of_the_second_half() {
    let mut g =
        before_formation("offense: white\nspot: e6\ndown: 3\nquarter: 2\nquarter-length: 1");
    let ev = snap_and_run_out(&mut g);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 2 }), "{ev:?}");
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(g.quarter(), 3);
    assert_eq!(g.offense(), Side::Black);
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (1, sq("d4"), 2)
    );
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
}

#[test]
fn r1_black_driving_at_halftime_restarts_at_its_own_20() {
    let mut g = before_formation(
        "offense: black\nspot: c2\ndown: 3\nto-gain: 1\nquarter: 2\nquarter-length: 1",
    );
    let ev = snap_and_run_out(&mut g);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 2 }), "{ev:?}");
    assert_eq!(g.quarter(), 3);
    assert_eq!(g.offense(), Side::Black);
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (1, sq("d4"), 2)
    );
}

#[test]
fn r1_spot_down_and_distance_carry_over_from_quarter_3_to_4() {
    let mut g =
        before_formation("offense: black\nspot: d6\ndown: 2\nquarter: 3\nquarter-length: 1");
    let ev = snap_and_run_out(&mut g);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 3 }), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::PossessionChanged { .. })),
        "{ev:?}"
    );
    assert_eq!(g.quarter(), 4);
    assert_eq!(g.offense(), Side::Black);
    // The run out of bounds lost 5 yards (toward rank 8 for Black): third down on b7,
    // the line to gain unchanged.
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (3, sq("b7"), 4)
    );
}

#[test]
fn r16_a_tie_after_four_quarters_is_a_draw() {
    let mut g =
        before_formation("offense: white\nspot: e5\nquarter: 4\nscore: 7-7\nquarter-length: 1");
    let ev = snap_and_run_out(&mut g);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 4 }), "{ev:?}");
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            result: GameResult::Draw
        })
    );
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert_eq!(GameResult::Draw.pgn(), "1/2-1/2");
    assert!(g.is_over());
}

#[test]
fn rule_1_1_more_points_after_four_quarters_wins() {
    let mut g =
        before_formation("offense: white\nspot: e5\nquarter: 4\nscore: 9-7\nquarter-length: 1");
    let ev = snap_and_run_out(&mut g);
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            result: GameResult::Win(Side::White)
        })
    );
    assert_eq!(g.result().map(|r| r.pgn()), Some("1-0"));

    let mut g =
        before_formation("offense: black\nspot: d4\nquarter: 4\nscore: 3-10\nquarter-length: 1");
    snap_and_run_out(&mut g);
    assert_eq!(g.result(), Some(GameResult::Win(Side::Black)));
    assert_eq!(g.result().map(|r| r.pgn()), Some("0-1"));
}

#[test]
fn r16_the_game_ends_after_the_fourth_quarter_not_before() {
    let mut g =
        before_formation("offense: white\nspot: e5\nquarter: 3\nscore: 9-7\nquarter-length: 1");
    let ev = snap_and_run_out(&mut g);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::GameOver { .. })),
        "{ev:?}"
    );
    assert_eq!(g.result(), None);
    assert_eq!(g.quarter(), 4);
}

#[test]
fn rule_1_2_nothing_is_accepted_after_the_game_is_over() {
    let mut g = before_formation("offense: white\nspot: e5\nquarter: 4\nquarter-length: 1");
    snap_and_run_out(&mut g);
    let before = g.clone();
    assert_eq!(g.apply(&action(WHITE_OFFENSE)), Err(ActionError::GameOver));
    assert_eq!(g.apply(&action("timeout")), Err(ActionError::GameOver));
    assert_eq!(g.expire(Clock::Play), Err(ActionError::GameOver));
    assert_eq!(g.expire(Clock::Game), Err(ActionError::GameOver));
    assert!(g.legal_action_list().is_empty());
    assert_eq!(g, before);
}

#[test]
fn r44_every_snapped_play_counts_one_play() {
    let mut g = Game::new(Settings::plays(3));
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert_eq!(g.plays_in_quarter(), 0);
    play(&mut g, &["snap"]);
    assert_eq!(g.plays_in_quarter(), 0);
    play(&mut g, &["e4a4"]);
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!(g.quarter(), 1);
}

#[test]
fn r44_changed_a_dead_ball_foul_counts_a_play_only_when_it_costs_a_down() {
    // Edition 1 counted every dead-ball foul; edition 2 counts the ones that cost the
    // offense a down (R57, R58), so that a defense cannot run out a quarter by fouling.
    let mut g = Game::new(Settings::plays(2));
    // White's first foul (offsides): 5 yards, the down replayed, no play counted.
    let ev = play(&mut g, &["[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg6]"]);
    assert!(ev.iter().any(|e| matches!(e, Event::Flag(_))), "{ev:?}");
    assert_eq!(g.plays_in_quarter(), 0);
    assert_eq!((g.spot(), g.down()), (sq("e4"), 1));
    // White's second in a row (delay of game) also costs a down (R58): it counts.
    expire(&mut g, Clock::Play);
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!((g.spot(), g.down()), (sq("e3"), 2));
    // A defensive foul (Black offsides on h3) never counts.
    play(&mut g, &["[Pd3,Pe3,Qe2,Kd2,Nc2,Bf3,Rg3]"]);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
    let ev = play(&mut g, &["[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Ph3]"]);
    assert!(ev.iter().any(|e| matches!(e, Event::Flag(_))), "{ev:?}");
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!((g.spot(), g.down()), (sq("e4"), 2));
    // White's third foul in its run costs a down again: the second play ends the quarter.
    let ev = expire(&mut g, Clock::Play);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
    assert_eq!(g.plays_in_quarter(), 0);
    assert_eq!((g.spot(), g.down()), (sq("e3"), 3));
}

#[test]
fn r44_timeouts_do_not_count_as_plays() {
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 1\nclock: running");
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev[0],
        Event::Timeout {
            side: Side::White,
            left: 2
        }
    );
    assert_eq!(g.plays_in_quarter(), 0);
    assert_eq!(g.quarter(), 1);
}

#[test]
fn r18_timed_quarters_do_not_end_by_counting_plays() {
    let mut g = Game::new(Settings::timed());
    for _ in 0..30 {
        expire(&mut g, Clock::Play);
    }
    assert_eq!(g.quarter(), 1);
    assert_eq!(g.offense(), Side::White);
}

#[test]
fn r18_play_count_quarters_ignore_the_game_clock() {
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 5\nclock: running");
    let before = g.clone();
    assert!(matches!(
        g.expire(Clock::Game),
        Err(ActionError::ClockNotRunning { .. })
    ));
    assert_eq!(g, before);
}

#[test]
fn rule_1_2_possession_changes_after_a_turnover() {
    let mut g = game(
        r#"
offense: white
phase: action
turn: black
down: 4
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . n .
4 . . . . . . . .
3 . . . . . K* . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(g.possession(), Side::White);
    let ev = play(&mut g, &["g5f3"]);
    assert!(
        ev.contains(&Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(g.offense(), Side::Black);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
}

#[test]
fn the_field_as_a_play_ended_is_kept_for_viewers_until_the_next_decision() {
    let mut g = game(
        r#"
offense: white
phase: action
turn: black
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . r . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(g.field_at_play_end().is_none());
    // The rook tackles the carrier: the field is cleared for the next formation, and the
    // pile on e4 is still there to be seen.
    play(&mut g, &["e5e4"]);
    assert!(g.board().occupied().is_empty());
    let ended = g.field_at_play_end().expect("the field at the tackle");
    assert_eq!(ended.board.stack_at(sq("e4")).len(), 2);
    assert_eq!(ended.ball, zebra::rules::Ball::Carried(sq("e4")));
    // With the situation of the play that ended, not of the next one.
    assert_eq!((ended.down, ended.spot), (1, sq("e4")));
    assert_eq!(g.down(), 2);
    // A rejected decision leaves it; the next decision forgets it.
    let before = g.clone();
    assert!(g.apply(&action("snap")).is_err());
    assert_eq!(g, before);
    // A legal formation at the new spot (e4) clears nothing: nothing is kept.
    play(&mut g, &["[Pd4,Pe4,Qe3,Kd3,Nc3,Bf4,Rg4]"]);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
    assert!(g.field_at_play_end().is_none());
}
