//! Tests: clocks and timeouts (6, R17, R45, R46, R47).

use zebra::rules::{
    ActionError, Ball, Clock, Event, Foul, FoulKind, Game, Phase, PlayEnd, Settings, Side,
};

use super::support::{
    action, action_phase, expire, game, is_legal, play, snap_and_run_out, sq, BLACK_DEFENSE,
    EMPTY_BOARD, WHITE_OFFENSE,
};

/// White to form at e5 with the game clock running (it ran on after a play in bounds).
fn formation_running(keys: &str) -> Game {
    game(&format!(
        "offense: white\nphase: formation\nspot: e5\nclock: running\n{keys}\n{EMPTY_BOARD}"
    ))
}

/// White in motion at e5 with the game clock running.
fn motion_running(keys: &str) -> Game {
    let mut g = formation_running(keys);
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert!(g.clock_running());
    g
}

fn expire_rejected(g: &mut Game, clock: Clock) {
    let before = g.clone();
    let err = g.expire(clock).unwrap_err();
    assert!(
        matches!(err, ActionError::ClockNotRunning { .. }),
        "{clock}: {err:?}"
    );
    assert_eq!(*g, before);
}

/// A black knight on d8 tackles the white carrier on e6.
fn tackle_in_bounds(keys: &str) -> (Game, Vec<Event>) {
    let mut g = action_phase(
        &format!("offense: white\nturn: black\nspot: e5\n{keys}"),
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . K* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d8e6"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Tackle
        }),
        "{ev:?}"
    );
    (g, ev)
}

// ---- R45: what stops the game clock ----

#[test]
fn r45_a_tackle_in_bounds_keeps_the_game_clock_running() {
    let (g, ev) = tackle_in_bounds("");
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
    assert_eq!(g.phase(), Phase::Formation(Side::White));
}

#[test]
fn r45_a_first_down_does_not_stop_the_game_clock() {
    let (g, ev) = tackle_in_bounds("to-gain: 6");
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert!(g.clock_running());
}

#[test]
fn r45_an_incomplete_pass_stops_the_game_clock() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
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
    assert!(ev.contains(&Event::Incomplete), "{ev:?}");
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
}

#[test]
fn r45_out_of_bounds_stops_the_game_clock() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
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
    let ev = play(&mut g, &["e6h6"]);
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
}

#[test]
fn r45_a_score_stops_the_game_clock() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
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
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
}

#[test]
fn r45_a_turnover_on_downs_stops_the_game_clock() {
    let (g, ev) = tackle_in_bounds("down: 4");
    assert!(
        ev.contains(&Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
}

#[test]
fn r45_a_change_of_possession_stops_the_game_clock() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
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
    assert!(!g.clock_running());
}

#[test]
fn r45_an_enforced_penalty_stops_the_game_clock_and_a_declined_one_does_not() {
    let build = || {
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
        play(&mut g, &["d6d5", "d4d5", "a6c4"]);
        assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
        g
    };
    let mut g = build();
    let ev = play(&mut g, &["accept:holding"]);
    assert!(ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
    let mut g = build();
    let ev = play(&mut g, &["decline"]);
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
}

#[test]
fn r45_edition3_no_dead_ball_foul_stops_the_game_clock() {
    // Edition 1 stopped the clock at every dead-ball foul, edition 2 at the defense's. Now
    // the offense's false start leaves it running, and so does the defense's offsides.
    let mut g = motion_running("");
    let ev = play(&mut g, &["c3>c6"]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Flag(f) if f.side == Side::White)),
        "{ev:?}"
    );
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
    let mut g = motion_running("");
    let ev = play(&mut g, &["c3>b3", "c7>h2"]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Flag(f) if f.side == Side::Black)),
        "{ev:?}"
    );
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
}

#[test]
fn r45_the_stopped_clock_restarts_at_the_next_snap() {
    let mut g = Game::new(Settings::timed());
    assert!(!g.clock_running());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert!(!g.clock_running());
    play(&mut g, &["snap"]);
    assert!(g.clock_running());
    play(&mut g, &["e4a4"]);
    assert!(!g.clock_running());
    play(&mut g, &["[Pd4,Pb4,Qb3,Ke3,Nc3,Bf4,Rg4]", BLACK_DEFENSE]);
    assert!(!g.clock_running());
    play(&mut g, &["snap"]);
    assert!(g.clock_running());
}

// ---- R46: timeouts ----

#[test]
fn r46_a_timeout_stops_the_clock_and_costs_one_of_three() {
    let mut g = formation_running("");
    assert!(g.can_call_timeout());
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev,
        vec![
            Event::Timeout {
                side: Side::White,
                left: 2
            },
            Event::ClockStopped
        ]
    );
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (2, 3));
    assert!(!g.clock_running());
}

#[test]
fn r46_changed_a_timeout_may_be_called_while_the_game_clock_is_stopped() {
    // Edition 2: 6.4's "stopped play" is a stoppage (a penalty decision), not a stopped
    // game clock; a timeout with the clock stopped resets the formations and leaves the
    // clock stopped.
    let mut g = formation_running("");
    play(&mut g, &["timeout"]);
    assert!(!g.clock_running());
    assert!(g.can_call_timeout());
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev,
        vec![Event::Timeout {
            side: Side::White,
            left: 1
        }]
    );
    assert!(!g.clock_running());
    // Also before the first snap of the game, and for the defense after the offense formed.
    let mut g = Game::new(Settings::timed());
    play(&mut g, &["timeout", WHITE_OFFENSE, "timeout"]);
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (2, 2));
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert!(g.board().occupied().is_empty());
}

#[test]
fn r46_no_timeout_with_none_left() {
    let mut g = formation_running("timeouts: 0-3");
    let before = g.clone();
    assert!(!g.can_call_timeout());
    assert_eq!(
        g.apply(&action("timeout")),
        Err(ActionError::NoTimeouts(Side::White))
    );
    assert_eq!(g, before);
}

#[test]
fn r46_the_team_that_must_decide_calls_the_timeout() {
    let mut g = formation_running("");
    play(&mut g, &[WHITE_OFFENSE]);
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev[0],
        Event::Timeout {
            side: Side::Black,
            left: 2
        }
    );
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (3, 2));

    let mut g = motion_running("");
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev[0],
        Event::Timeout {
            side: Side::White,
            left: 2
        }
    );

    let mut g = motion_running("timeouts: 3-1");
    play(&mut g, &["c3>b3"]);
    assert!(is_legal(&g, "timeout"));
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev[0],
        Event::Timeout {
            side: Side::Black,
            left: 0
        }
    );
}

#[test]
fn r46_a_timeout_resets_both_formations_and_keeps_down_and_spot() {
    let mut g = motion_running("down: 3\nto-gain: 6");
    play(&mut g, &["c3>b3", "pass"]);
    play(&mut g, &["timeout"]);
    assert!(g.board().occupied().is_empty());
    assert!(g.moved_in_motion().is_empty());
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (3, sq("e5"), 6)
    );
    assert_eq!(g.board().sideline(Side::White), [8, 2, 2, 2, 1, 1]);
    // The offense forms again, then the defense.
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "snap"]);
    assert_eq!(g.ball(), Ball::Carried(sq("e4")));
}

#[test]
fn r46_no_timeout_after_the_snap() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(g.clock_running());
    let before = g.clone();
    assert!(matches!(
        g.apply(&action("timeout")),
        Err(ActionError::NotNow { .. })
    ));
    assert!(!g.can_call_timeout());
    assert!(!is_legal(&g, "timeout"));
    assert_eq!(g, before);
}

#[test]
fn r46_changed_timeouts_are_listed_before_the_snap_whether_or_not_the_clock_runs() {
    let g = motion_running("");
    assert!(g.clock_running());
    assert!(is_legal(&g, "timeout"));
    // Before the first snap of the game the clock is stopped: edition 2 lists it too.
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert!(!g.clock_running());
    assert!(is_legal(&g, "timeout"));
    play(&mut g, &["c3>b3"]);
    assert!(is_legal(&g, "timeout"));
    // With none left it is not listed.
    let mut g = formation_running("timeouts: 0-3");
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    assert!(!is_legal(&g, "timeout"));
}

#[test]
fn r46_timeouts_reset_at_halftime_and_only_then() {
    // One snapped play ends each one-play quarter (a dead-ball foul would not count, R44).
    let mut g = formation_running("quarter: 1\ntimeouts: 1-0\nquarter-length: 1");
    snap_and_run_out(&mut g);
    assert_eq!(g.quarter(), 2);
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (1, 0));

    let mut g = formation_running("quarter: 2\ntimeouts: 1-0\nquarter-length: 1");
    snap_and_run_out(&mut g);
    assert_eq!(g.quarter(), 3);
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (3, 3));

    let mut g = formation_running("quarter: 3\ntimeouts: 2-1\nquarter-length: 1");
    snap_and_run_out(&mut g);
    assert_eq!(g.quarter(), 4);
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (2, 1));
}

// ---- R47: clock expiries ----

#[test]
fn r47_the_play_clock_in_the_offense_formation_is_delay_of_game() {
    let mut g = formation_running("down: 2");
    let ev = expire(&mut g, Clock::Play);
    let f = Foul {
        side: Side::White,
        kind: FoulKind::DelayOfGame,
        spot: sq("e5"),
    };
    assert_eq!(ev[0], Event::Flag(f));
    assert_eq!(ev[1], Event::PenaltyEnforced(f));
    assert_eq!((g.down(), g.spot()), (2, sq("e4")));
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    // R45 (edition 2): an offensive dead-ball foul never stops the game clock.
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
}

#[test]
fn r47_the_play_clock_in_motion_is_delay_of_game() {
    let mut g = motion_running("down: 2");
    play(&mut g, &["c3>b3", "pass"]);
    let ev = expire(&mut g, Clock::Play);
    assert!(ev.contains(&Event::Flag(Foul {
        side: Side::White,
        kind: FoulKind::DelayOfGame,
        spot: sq("e5")
    })));
    assert_eq!((g.down(), g.spot()), (2, sq("e4")));
    assert!(g.board().occupied().is_empty());
}

#[test]
fn r47_the_play_clock_does_not_run_while_the_defense_decides_or_after_the_snap() {
    let mut g = formation_running("");
    play(&mut g, &[WHITE_OFFENSE]);
    expire_rejected(&mut g, Clock::Play);
    play(&mut g, &[BLACK_DEFENSE, "c3>b3"]);
    expire_rejected(&mut g, Clock::Play);
    play(&mut g, &["pass", "snap"]);
    expire_rejected(&mut g, Clock::Play);
}

#[test]
fn r47_the_reaction_clock_locks_an_unsent_defensive_formation() {
    let mut g = formation_running("");
    play(&mut g, &[WHITE_OFFENSE]);
    let ev = expire(&mut g, Clock::Reaction);
    let f = Foul {
        side: Side::Black,
        kind: FoulKind::IllegalFormation,
        spot: sq("e5"),
    };
    assert_eq!(ev[0], Event::FormationLocked { side: Side::Black });
    assert_eq!(
        ev[1],
        Event::FormationSet {
            side: Side::Black,
            pieces: 0
        }
    );
    assert_eq!(ev[2], Event::Flag(f));
    assert_eq!(ev[3], Event::PenaltyEnforced(f));
    assert_eq!((g.down(), g.spot()), (1, sq("e6")));
}

#[test]
fn r47_the_reaction_clock_in_a_reaction_is_no_reaction() {
    let mut g = motion_running("");
    play(&mut g, &["c3>b3"]);
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev, vec![Event::MissedTurn { side: Side::Black }]);
    assert_eq!(g.phase(), Phase::Motion);
    assert!(g.flags().is_empty());
}

#[test]
fn r47_the_reaction_clock_does_not_run_while_the_offense_sets_up() {
    let mut g = formation_running("");
    expire_rejected(&mut g, Clock::Reaction);
    let mut g = motion_running("");
    expire_rejected(&mut g, Clock::Reaction);
}

#[test]
fn r47_a_missed_defensive_turn_gives_the_offense_another_move() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5",
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev, vec![Event::MissedTurn { side: Side::Black }]);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.play_turns(), 1);
    play(&mut g, &["e4e5"]);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn r17_an_offense_that_overruns_its_turn_misses_it_too() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev, vec![Event::MissedTurn { side: Side::White }]);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn r47_the_reaction_clock_in_contention_is_no_contest() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: e5
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . Po . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev[0], Event::MissedTurn { side: Side::Black });
    assert!(
        ev.contains(&Event::Recovered {
            side: Side::White,
            at: sq("e3")
        }),
        "{ev:?}"
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e3")));
}

#[test]
fn r47_changed_the_reaction_clock_on_a_penalty_choice_takes_the_option_best_for_the_chooser() {
    // Edition 1 accepted the first flag; edition 2 takes the option best for the team that
    // did not answer (R60). Here White, run out of bounds behind the line on first down,
    // gains most by accepting Black's holding (listed first): half the distance from e5 and
    // a first down on e6 (R57), where declining leaves second down on b4.
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
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    assert_eq!(
        g.penalty_default(),
        Some(action("accept:holding")),
        "{:?}",
        g.flags()
    );
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev[0], Event::MissedTurn { side: Side::White });
    assert_eq!(
        ev[1],
        Event::PenaltyEnforced(Foul {
            side: Side::Black,
            kind: FoulKind::Holding,
            spot: sq("d7")
        })
    );
    assert!(
        ev.contains(&Event::FirstDown { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (1, sq("e6"), 8)
    );
}

#[test]
fn r47_the_game_clock_between_plays_ends_the_period_at_once() {
    let mut g = motion_running("down: 3\nto-gain: 6");
    let ev = expire(&mut g, Clock::Game);
    assert_eq!(ev[0], Event::PeriodEnd { quarter: 1 });
    assert_eq!(
        ev.last(),
        Some(&Event::NextPlay {
            offense: Side::White,
            down: 3,
            spot: sq("e5"),
            to_gain: 6
        })
    );
    assert_eq!(g.quarter(), 2);
    assert!(g.board().occupied().is_empty());
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_eq!(
        (g.down(), g.spot(), g.line_to_gain().number()),
        (3, sq("e5"), 6)
    );
    assert!(!g.clock_running());
}

#[test]
fn r47_the_game_clock_at_the_end_of_the_half_gives_black_the_ball() {
    let mut g = formation_running("quarter: 2\ndown: 2");
    let ev = expire(&mut g, Clock::Game);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 2 }), "{ev:?}");
    assert_eq!(g.quarter(), 3);
    assert_eq!(
        (g.offense(), g.down(), g.spot()),
        (Side::Black, 1, sq("d4"))
    );
}

#[test]
fn r47_the_game_clock_at_the_end_of_the_fourth_quarter_ends_the_game() {
    let mut g = formation_running("quarter: 4\nscore: 0-3");
    let ev = expire(&mut g, Clock::Game);
    assert!(
        ev.contains(&Event::GameOver {
            result: zebra::rules::GameResult::Win(Side::Black)
        }),
        "{ev:?}"
    );
    assert!(g.is_over());
}

#[test]
fn r47_the_game_clock_during_a_play_lets_the_play_finish() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . n . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = expire(&mut g, Clock::Game);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PeriodEnd { .. })),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert_eq!(g.quarter(), 1);
    // The clock has run out: it cannot run out again.
    expire_rejected(&mut g, Clock::Game);
    let ev = play(&mut g, &["e4e5"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PeriodEnd { .. })),
        "{ev:?}"
    );
    let ev = play(&mut g, &["d7e5"]);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::Tackle
        }),
        "{ev:?}"
    );
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
    assert_eq!((g.down(), g.spot()), (2, sq("e5")));
}

#[test]
fn r47_the_game_clock_during_a_play_waits_for_the_penalty_decision() {
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
    play(&mut g, &["d6d5"]);
    expire(&mut g, Clock::Game);
    let ev = play(&mut g, &["d4d5", "a6c4"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PeriodEnd { .. })),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    let ev = play(&mut g, &["accept:holding"]);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
    assert_eq!((g.down(), g.spot()), (1, sq("e3")));
}

#[test]
fn r47_r70_the_game_clock_runs_out_once_a_quarter_and_never_in_play_count_quarters() {
    // The referee reports the end of the game clock once; a second report is refused.
    let mut g = game(&format!(
        "offense: white\nphase: formation\nspot: e5\nclock: stopped\n{EMPTY_BOARD}"
    ));
    let mut during = action_position_running();
    expire(&mut during, Clock::Game);
    expire_rejected(&mut during, Clock::Game);
    // Play-count quarters have no game clock.
    let mut plays = Game::new(Settings::plays(5));
    expire_rejected(&mut plays, Clock::Game);
    // Between plays with the clock stopped (the last tick of a play emptied it, R70): the
    // period ends at once.
    assert!(!g.clock_running());
    let ev = expire(&mut g, Clock::Game);
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
}

/// White's carrier in the action phase with the clock running.
fn action_position_running() -> Game {
    action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    )
}

#[test]
fn r45_the_end_of_a_quarter_stops_the_game_clock() {
    let (mut g, ev) = tackle_in_bounds("quarter-length: 1");
    assert!(ev.contains(&Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert!(!g.clock_running());
    // R46 (edition 2): a timeout may still be called with the clock stopped; it leaves the
    // clock stopped and emits no second stop.
    assert!(g.can_call_timeout());
    let ev = play(&mut g, &["timeout"]);
    assert!(!ev.contains(&Event::ClockStopped), "{ev:?}");
    assert!(!g.clock_running());
}
