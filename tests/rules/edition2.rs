//! Tests: edition 2 of the rulings (protocol/RULES.md): one test or more per ruling marked
//! *changed* or *new* (R7, R41, R44–R46, R57–R69), each named after its ruling.

use zebra::rules::{
    Action, ActionError, Ball, Clock, Event, FoulKind, Game, GameResult, Phase, Piece, PlayEnd,
    Role, Side,
};

use super::support::{
    action, action_phase, assert_series, black_holds_on_d7, expire, foul, game, is_legal,
    moves_from, play, rejected, snap_and_run_out, sq, BLACK_DEFENSE, EMPTY_BOARD, WHITE_OFFENSE,
};

/// White's formation on the 1-yard line e7, and Black's that fields its king (an illegal
/// formation: R22).
const WHITE_AT_E7: &str = "[Pd7,Pe7,Qe6,Ke5,Nc5,Bf6,Rg7]";
const BLACK_WITH_KING_ON_8: &str = "[Pa8,Pb8,Nc8,Bd8,Ke8,Qf8,Rg8]";

/// An empty field before the offense forms, with extra diagram keys.
fn before_formation(keys: &str) -> Game {
    game(&format!("phase: formation\n{keys}\n{EMPTY_BOARD}"))
}

fn has(ev: &[Event], e: Event) -> bool {
    ev.contains(&e)
}

fn any_period_end(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::PeriodEnd { .. }))
}

fn any_safety(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::Safety { .. }))
}

fn any_touchdown(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::Touchdown { .. }))
}

fn score(g: &Game) -> (u16, u16) {
    (g.score(Side::White), g.score(Side::Black))
}

// ---- R57: half the distance ----

#[test]
fn r57_offensive_holding_from_rank_4_moves_the_ball_half_the_distance() {
    // 10 yards (2 ranks) toward White's end zone from rank 4: d = 3, 2 * 2 > 3, so the ball
    // moves d / 2 = 1 rank.
    assert_eq!(
        Game::penalty_rank(sq("e4").rank(), 2, sq("e1").rank()),
        sq("e3").rank()
    );
    // From rank 5 (d = 4) the full 10 yards apply; from the 1-yard line nothing moves.
    assert_eq!(
        Game::penalty_rank(sq("e5").rank(), 2, sq("e1").rank()),
        sq("e3").rank()
    );
    assert_eq!(
        Game::penalty_rank(sq("e2").rank(), 1, sq("e1").rank()),
        sq("e2").rank()
    );
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 b . . . . . . .
5 . . . p . . . .
4 . . Q* R . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    // The pawn pushes the rook, the rook pushes it back (holding, R39); the bishop tackles.
    let ev = play(&mut g, &["d5d4", "d3d4", "a6c4"]);
    let f = foul(Side::White, FoulKind::Holding, "d3");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    let ev = play(&mut g, &["accept:holding"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert_series(&g, Side::White, 1, "e3", 6);
    assert_eq!(g.yards_to_go(), 15);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

#[test]
fn r57_a_defensive_foul_on_rank_6_moves_the_ball_to_rank_7() {
    let mut g = before_formation("offense: white\nspot: e6\ndown: 3");
    assert!(g.is_goal_to_go());
    play(&mut g, &["[Pd6,Pe6,Qe5,Ke4,Nc4,Bf5,Rg6]"]);
    let ev = play(&mut g, &["[Pd7,Pe7,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    let f = foul(Side::Black, FoulKind::IllegalFormation, "e6");
    assert!(has(&ev, Event::PenaltyEnforced(f)), "{ev:?}");
    // 5 yards: d = 2, exactly half the distance; the first foul of the run, no first down.
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "e7", 8);
    assert_eq!(g.plays_in_quarter(), 0);
}

#[test]
fn r57_a_defensive_foul_at_its_1_yard_line_cannot_move_the_ball_and_gives_a_first_down() {
    let mut g = before_formation("offense: white\nspot: e7\ndown: 4");
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    let f = foul(Side::Black, FoulKind::IllegalFormation, "e7");
    assert!(has(&ev, Event::PenaltyEnforced(f)), "{ev:?}");
    assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
    assert_series(&g, Side::White, 1, "e7", 8);
    assert_eq!(g.plays_in_quarter(), 0);
}

#[test]
fn r57_an_offensive_dead_ball_foul_on_its_1_yard_line_costs_a_down() {
    let mut g = before_formation("offense: white\nspot: e2\ndown: 2\nquarter-length: 10");
    let ev = expire(&mut g, Clock::Play);
    let f = foul(Side::White, FoulKind::DelayOfGame, "e2");
    assert_eq!(ev[..2], [Event::Flag(f), Event::PenaltyEnforced(f)]);
    assert_series(&g, Side::White, 3, "e2", 4);
    // A lost down counts as a play (R44).
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!(g.phase(), Phase::Formation(Side::White));
}

#[test]
fn r57_an_offensive_dead_ball_foul_on_its_1_yard_line_on_fourth_down_turns_the_ball_over() {
    let mut g = before_formation("offense: white\nspot: e2\ndown: 4\nquarter-length: 10");
    let ev = expire(&mut g, Clock::Play);
    assert!(
        has(&ev, Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
}

#[test]
fn r57_black_half_the_distance_toward_rank_1_and_toward_rank_8() {
    // Black on its own 1-yard line (rank 7): its dead-ball foul costs a down.
    let mut g = before_formation("offense: black\nspot: d7\ndown: 1\nquarter-length: 10");
    let ev = expire(&mut g, Clock::Play);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::Black, FoulKind::DelayOfGame, "d7"))
        ),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 2, "d7", 5);
    assert_eq!(g.plays_in_quarter(), 1);

    // Black on White's 2-yard rank (d3): White's foul moves the ball to d2 (d = 2)...
    let mut g = before_formation("offense: black\nspot: d3\ndown: 2");
    play(&mut g, &["[Pd3,Pe3,Qd4,Ke5,Nc4,Bf4,Rg3]"]);
    let ev = play(&mut g, &["[Pd2,Pe2,Qd1,Ke1,Nc2,Bf1,Rg2]"]);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::White, FoulKind::IllegalFormation, "d3"))
        ),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 2, "d2", 1);
    // ... and from d2, White's 1-yard line, it cannot move: a first down for Black.
    let mut g = before_formation("offense: black\nspot: d2\ndown: 3");
    play(&mut g, &["[Pd2,Pe2,Qd3,Ke4,Nc3,Bf3,Rg2]"]);
    let ev = play(&mut g, &["[Pa1,Pb1,Nc1,Qd1,Ke1,Bf1,Rg1]"]);
    assert!(has(&ev, Event::FirstDown { side: Side::Black }), "{ev:?}");
    assert_series(&g, Side::Black, 1, "d2", 1);
}

// ---- R58: fouls in a row escalate ----

#[test]
fn r58_the_second_offensive_dead_ball_foul_in_a_row_costs_a_down() {
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 10");
    let ev = expire(&mut g, Clock::Play);
    assert_eq!(
        ev.last(),
        Some(&Event::NextPlay {
            offense: Side::White,
            down: 1,
            spot: sq("e4"),
            to_gain: 7
        })
    );
    assert_eq!(g.plays_in_quarter(), 0);
    let ev = expire(&mut g, Clock::Play);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::White, FoulKind::DelayOfGame, "e4"))
        ),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 2, "e3", 7);
    assert_eq!(g.plays_in_quarter(), 1);
    // The third costs one more.
    expire(&mut g, Clock::Play);
    assert_series(&g, Side::White, 3, "e2", 7);
    assert_eq!(g.plays_in_quarter(), 2);
}

#[test]
fn r58_the_second_defensive_foul_in_a_row_gives_a_first_down() {
    let mut g = before_formation("offense: white\nspot: e3\ndown: 3\nto-gain: 6");
    play(&mut g, &["[Pd3,Pe3,Qe2,Kd2,Nc2,Bf3,Rg3]"]);
    let ev = play(&mut g, &["[Pd4,Pe4,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "e4", 6);
    play(&mut g, &["[Pd4,Pe4,Qe3,Kd3,Nc3,Bf4,Rg4]"]);
    let ev = play(&mut g, &["[Pd5,Pe5,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    // e5 is short of the line to gain (rank 6): the first down is the escalation's.
    assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
    assert_series(&g, Side::White, 1, "e5", 7);
    assert_eq!(g.plays_in_quarter(), 0);
}

#[test]
fn r58_a_second_defensive_foul_at_its_1_yard_line_concedes_the_touchdown() {
    // The first foul at the 1-yard line cannot move the ball: a first down (R57); the
    // second in the run concedes the touchdown.
    let mut g = before_formation("offense: white\nspot: e7\ndown: 4\nquarter-length: 10");
    for _ in 0..1 {
        play(&mut g, &[WHITE_AT_E7]);
        let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
        assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
        assert_series(&g, Side::White, 1, "e7", 8);
        assert_eq!(score(&g), (0, 0));
    }
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    let awarded = ev
        .iter()
        .position(|e| *e == Event::ScoreAwarded { side: Side::White })
        .unwrap_or_else(|| panic!("{ev:?}"));
    assert_eq!(ev[awarded + 1], Event::Touchdown { side: Side::White });
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(score(&g), (7, 0));
    // The other team receives at its own 20, as after any touchdown; the award counts a play.
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

#[test]
fn r58_a_play_that_stands_ends_the_run_of_fouls() {
    // Offense: foul, a snapped play that stands, foul again: the first of a new run.
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 10");
    expire(&mut g, Clock::Play);
    assert_series(&g, Side::White, 1, "e4", 7);
    snap_and_run_out(&mut g);
    assert_series(&g, Side::White, 2, "b3", 7);
    assert_eq!(g.plays_in_quarter(), 1);
    expire(&mut g, Clock::Play);
    assert_series(&g, Side::White, 2, "b2", 7);
    assert_eq!(g.plays_in_quarter(), 1);

    // Defense: foul, a play that stands, foul again: no first down.
    let mut g = before_formation("offense: white\nspot: e3\ndown: 2\nto-gain: 6");
    play(&mut g, &["[Pd3,Pe3,Qe2,Kd2,Nc2,Bf3,Rg3]"]);
    play(&mut g, &["[Pd4,Pe4,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    assert_series(&g, Side::White, 2, "e4", 6);
    snap_and_run_out(&mut g);
    assert_series(&g, Side::White, 3, "b3", 6);
    play(&mut g, &["[Pb3,Pc3,Qb2,Kc2,Nd2,Be3,Rf3]"]);
    let ev = play(&mut g, &["[Pb4,Pc4,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::FirstDown { .. })),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "b4", 6);
}

// ---- R44: which dead-ball fouls count as plays ----

#[test]
fn r44_changed_a_first_dead_ball_foul_counts_no_play_and_a_lost_down_counts_one() {
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 4");
    // White's offsides (its first foul): no play.
    play(&mut g, &["[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg6]"]);
    assert_series(&g, Side::White, 1, "e4", 7);
    assert_eq!(g.plays_in_quarter(), 0);
    // Black's offsides (its first foul): no play.
    play(&mut g, &["[Pd4,Pe4,Qe3,Kd3,Nc3,Bf4,Rg4]"]);
    play(&mut g, &["[Pd5,Pe5,Qd8,Nc7,Bf7,Rg7,Ph4]"]);
    assert_series(&g, Side::White, 1, "e5", 7);
    assert_eq!(g.plays_in_quarter(), 0);
    // White's second foul in its run costs a down: one play.
    expire(&mut g, Clock::Play);
    assert_series(&g, Side::White, 2, "e4", 7);
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!(g.quarter(), 1);
}

/// The issue that led to edition 2: fourth quarter, one play left, White trails 0–3 and has
/// 4th & goal at e7; Black fields its king again and again to run out the game.
fn last_play_at_e7() -> Game {
    before_formation(
        "offense: white\nspot: e7\ndown: 4\nquarter: 4\nquarter-length: 5\nplays: 4\nscore: 0-3",
    )
}

#[test]
fn r44_r58_a_defense_fouling_at_its_goal_line_cannot_run_out_the_game() {
    let mut g = last_play_at_e7();
    for _ in 0..1 {
        play(&mut g, &[WHITE_AT_E7]);
        let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
        assert!(!any_period_end(&ev), "{ev:?}");
        assert!(!g.is_over());
        assert_eq!((g.quarter(), g.plays_in_quarter()), (4, 4));
        assert_series(&g, Side::White, 1, "e7", 8);
    }
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    assert!(
        has(&ev, Event::ScoreAwarded { side: Side::White }),
        "{ev:?}"
    );
    assert!(has(&ev, Event::PeriodEnd { quarter: 4 }), "{ev:?}");
    assert_eq!(
        ev.last(),
        Some(&Event::GameOver {
            result: GameResult::Win(Side::White)
        })
    );
    assert_eq!(score(&g), (7, 3));
    assert!(g.is_over());
}

#[test]
fn r44_after_a_defensive_foul_on_the_last_play_the_game_ends_with_a_snapped_play() {
    let mut g = last_play_at_e7();
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    assert!(!any_period_end(&ev), "{ev:?}");
    assert_eq!(g.plays_in_quarter(), 4);
    // White snaps and runs out of bounds: the fifth play, the game is over.
    let ev = snap_and_run_out(&mut g);
    assert!(has(&ev, Event::PeriodEnd { quarter: 4 }), "{ev:?}");
    assert!(!has(&ev, Event::UntimedDown), "{ev:?}");
    assert_eq!(g.result(), Some(GameResult::Win(Side::Black)));
}

// ---- R45: which dead-ball fouls start the game clock (edition 3 changed the defense's:
// see edition3.rs) ----

#[test]
fn r45_changed_an_offensive_dead_ball_foul_starts_a_stopped_clock_and_never_stops_it() {
    // Before the first snap the clock is stopped; White's offsides starts it.
    let mut g = Game::default();
    assert!(!g.clock_running());
    let ev = play(&mut g, &["[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg6]"]);
    assert!(!has(&ev, Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
    // After a timeout stopped it, a delay of game starts it again.
    play(&mut g, &["timeout"]);
    assert!(!g.clock_running());
    let ev = expire(&mut g, Clock::Play);
    assert!(!has(&ev, Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
    // A running clock keeps running through a false start.
    play(&mut g, &["[Pd3,Pe3,Qe2,Kd2,Nc2,Bf3,Rg3]", BLACK_DEFENSE]);
    let ev = play(&mut g, &["c2>c5"]);
    assert!(
        has(
            &ev,
            Event::Flag(foul(Side::White, FoulKind::FalseStart, "e3"))
        ),
        "{ev:?}"
    );
    assert!(!has(&ev, Event::ClockStopped), "{ev:?}");
    assert!(g.clock_running());
}

// ---- R46: timeouts with the clock stopped ----

#[test]
fn r46_changed_the_defense_may_call_a_timeout_before_the_first_snap() {
    let mut g = Game::default();
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3"]);
    assert_eq!(g.phase(), Phase::Reaction);
    assert!(!g.clock_running());
    assert!(g.can_call_timeout());
    assert!(is_legal(&g, "timeout"));
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev,
        vec![Event::Timeout {
            side: Side::Black,
            left: 2
        }]
    );
    assert!(!g.clock_running());
    assert!(g.board().occupied().is_empty());
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_series(&g, Side::White, 1, "e5", 7);
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (3, 2));
}

#[test]
fn r46_changed_the_defense_may_call_a_timeout_after_its_own_foul() {
    let mut g = before_formation("offense: white\nspot: e5\nclock: stopped");
    play(&mut g, &[WHITE_OFFENSE, "[Pd6,Pe6,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    assert!(!g.clock_running());
    play(&mut g, &["[Pd6,Pe6,Qe5,Kd5,Nc5,Bf6,Rg6]"]);
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
    let ev = play(&mut g, &["timeout"]);
    assert_eq!(
        ev,
        vec![Event::Timeout {
            side: Side::Black,
            left: 2
        }]
    );
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert_series(&g, Side::White, 1, "e6", 7);
}

// ---- R59: fouls around a change of possession ----

#[test]
fn r59_an_illegal_forward_pass_after_an_interception_keeps_the_ball_with_the_interceptor() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2\nquarter-length: 10",
        r#"
8 . . . . . . . .
7 p . . . . . . .
6 . . . . . . . .
5 . . . . . . n .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^g5"]);
    assert!(
        has(
            &ev,
            Event::Intercepted {
                side: Side::Black,
                at: sq("g5")
            }
        ),
        "{ev:?}"
    );
    // Black throws forward (toward rank 1) after the change: illegal.
    let ev = play(&mut g, &["g5^f3"]);
    let f = foul(Side::Black, FoulKind::IllegalForwardPass, "g5");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["e4d4", "a7a6"]);
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Incomplete
            }
        ),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    assert_eq!(
        g.penalty_default(),
        Some(action("accept:illegal-forward-pass"))
    );
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_series(&declined, Side::Black, 1, "d4", 2);

    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    // Black keeps the ball and starts 5 yards behind its own 20, first down.
    assert_series(&g, Side::Black, 1, "d5", 3);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

/// White throws onto Black's rook on g5 (an interception); during the return Black's rook
/// on d3 pushes White's d2 rook into White's end zone and that rook pushes back: holding by
/// White after the change of possession. `finish` is Black's last move.
fn holding_during_the_return(finish: &str) -> (Game, Vec<Event>) {
    let mut g = action_phase(
        "offense: white\nspot: e5\nquarter-length: 10",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . r .
4 . . . . K* . . .
3 . . . r . . . .
2 . . . R . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^g5", "d3d2", "d1d2"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::White, FoulKind::Holding, "d1"))),
        "{ev:?}"
    );
    let ev = play(&mut g, &[finish]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    (g, ev)
}

#[test]
fn r59_holding_by_the_team_that_lost_the_ball_lets_the_touchdown_count_and_costs_its_drive() {
    let (g, ev) = holding_during_the_return("g5g1");
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_eq!(score(&declined), (0, 7));
    assert_series(&declined, Side::White, 1, "e5", 7);

    let mut g = g;
    let ev = play(&mut g, &["accept:holding"]);
    assert!(has(&ev, Event::Touchdown { side: Side::Black }), "{ev:?}");
    // The holder stood in its own end zone, but after the change: no safety (R61).
    assert!(!any_safety(&ev), "{ev:?}");
    assert_eq!(score(&g), (0, 7));
    // White's drive after the touchdown starts 10 yards back: e5 to e3 (d = 4).
    assert_series(&g, Side::White, 1, "e3", 5);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

#[test]
fn r59_holding_by_the_team_that_lost_the_ball_moves_the_gaining_teams_drive_ahead() {
    let (mut g, ev) = holding_during_the_return("g5h5");
    assert!(has(&ev, Event::OutOfBounds { at: sq("h5") }), "{ev:?}");
    let ev = play(&mut g, &["accept:holding"]);
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    // Black keeps the ball; from its own 20 (d4) 10 yards would be more than half the 3
    // ranks to White's end zone: 1 rank (R57), first down on d3.
    assert_series(&g, Side::Black, 1, "d3", 1);
    assert_eq!(score(&g), (0, 0));
}

/// Both teams can foul around Black's interception on g5: holding on file c, and an illegal
/// forward pass that the bishop on h2 can catch on g1.
const BOTH_FOUL: &str = r#"
8 n . . . . . . .
7 . . . . . . . .
6 . . p . . . . .
5 . . R . . . r .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . b
1 . . . . . . . .
"#;

#[test]
fn r59_clean_hands_a_gaining_team_that_fouled_only_after_the_change_keeps_the_ball() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ndown: 2\nquarter-length: 10",
        BOTH_FOUL,
    );
    // White holds before the change (the c5 rook pushes back the c6 pawn that pushed it).
    let ev = play(&mut g, &["c6c5", "c4c5"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::White, FoulKind::Holding, "c4"))),
        "{ev:?}"
    );
    // Black intercepts, then throws an illegal forward pass that its bishop catches in
    // White's end zone.
    let ev = play(&mut g, &["a8b6", "e4^g5", "g5^g1"]);
    assert!(
        has(
            &ev,
            Event::Flag(foul(Side::Black, FoulKind::IllegalForwardPass, "g5"))
        ),
        "{ev:?}"
    );
    let ev = play(&mut g, &["e4e3", "h2g1"]);
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert!(has(&ev, Event::OffsettingPenalties), "{ev:?}");
    assert!(!any_touchdown(&ev), "{ev:?}");
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(score(&g), (0, 0));
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

#[test]
fn r59_a_gaining_team_that_fouled_before_the_interception_has_no_clean_hands() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 2\nquarter-length: 10",
        BOTH_FOUL,
    );
    // Black holds first (before the change), then White holds.
    let ev = play(&mut g, &["c5c6", "c7c6", "c5c6"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::Black, FoulKind::Holding, "c7"))),
        "{ev:?}"
    );
    assert!(
        has(&ev, Event::Flag(foul(Side::White, FoulKind::Holding, "c5"))),
        "{ev:?}"
    );
    // Black intercepts and runs to a touchdown.
    let ev = play(&mut g, &["a8b6", "e4^g5", "g5g1"]);
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert!(has(&ev, Event::OffsettingPenalties), "{ev:?}");
    assert!(!any_touchdown(&ev), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::PossessionChanged { .. })),
        "{ev:?}"
    );
    // White replays the down from the previous spot.
    assert_eq!(score(&g), (0, 0));
    assert_series(&g, Side::White, 2, "e5", 7);
    assert_eq!(g.plays_in_quarter(), 1);
}

#[test]
fn r59_a_touchdown_by_the_team_that_fouled_after_the_change_does_not_count() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . r .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . . . . . b
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e4^g5", "g5^g1", "e4e3", "h2g1"]);
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_eq!(score(&declined), (0, 7));
    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert!(!any_touchdown(&ev), "{ev:?}");
    assert_eq!(score(&g), (0, 0));
    // Black keeps the ball, 5 yards behind its own 20.
    assert_series(&g, Side::Black, 1, "d5", 3);
}

// ---- R60: an unanswered penalty choice ----

/// Black holds on d7 (White's rook pushed the d6 pawn, the pawn pushed it back); then
/// White's queen makes `finish`.
fn black_holds(finish: &str) -> (Game, Vec<Event>) {
    let g = black_holds_on_d7("");
    assert_eq!(g.penalty_default(), None);
    let f = foul(Side::Black, FoulKind::Holding, "d7");
    assert_eq!(g.flags(), &[f][..], "\n{}", g.to_diagram());
    let mut g = g;
    let ev = play(&mut g, &[finish]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    (g, ev)
}

#[test]
fn r60_an_unanswered_choice_keeps_the_choosers_touchdown() {
    let (mut g, ev) = black_holds("g4g8");
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert_eq!(g.penalty_default(), Some(Action::Decline));
    let ev = expire(&mut g, Clock::Reaction);
    assert_eq!(ev[0], Event::MissedTurn { side: Side::White });
    assert_eq!(
        ev[1],
        Event::PenaltyDeclined {
            kind: FoulKind::Holding
        }
    );
    assert!(has(&ev, Event::Touchdown { side: Side::White }), "{ev:?}");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::PenaltyEnforced(_))),
        "{ev:?}"
    );
    assert_eq!(score(&g), (7, 0));
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r60_an_unanswered_choice_accepts_when_accepting_is_better() {
    // The queen runs out of bounds behind the line: a loss of 5 yards.
    let (g, ev) = black_holds("g4a4");
    assert!(has(&ev, Event::OutOfBounds { at: sq("a4") }), "{ev:?}");
    assert_eq!(g.penalty_default(), Some(action("accept:holding")));
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_series(&declined, Side::White, 2, "b4", 7);

    let mut by_clock = g.clone();
    let ev = expire(&mut by_clock, Clock::Reaction);
    assert_eq!(ev[0], Event::MissedTurn { side: Side::White });
    assert_eq!(
        ev[1],
        Event::PenaltyEnforced(foul(Side::Black, FoulKind::Holding, "d7"))
    );
    assert_series(&by_clock, Side::White, 1, "e6", 8);
    // The expiry does exactly what the announced default does.
    let mut by_default = g.clone();
    let default = g.penalty_default().expect("a default in a penalty choice");
    by_default.apply(&default).unwrap();
    assert_eq!(by_clock, by_default);
}

// ---- R61: a safety from a penalty ----

/// Black's pawn pushes White's rook (`push`), the rook pushes it back (`push_back`: holding
/// from the rook's new square); Black's knight then tackles the queen on g4.
fn white_holds(keys: &str, rows: &str, push: &str, push_back: &str) -> Game {
    let mut g = action_phase(&format!("offense: white\nturn: black\n{keys}"), rows);
    let ev = play(&mut g, &[push, push_back, "h6g4"]);
    assert!(has(&ev, Event::Tackle { at: sq("g4") }), "{ev:?}");
    g
}

const HOLD_IN_END_ZONE: &str = r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . n
5 . . . . . . . .
4 . . . . . . Q* .
3 . . . p . . . .
2 . . . R . . . .
1 . . . . . . . .
"#;

#[test]
fn r61_offensive_holding_from_its_own_end_zone_is_a_safety_when_accepted() {
    let mut g = white_holds(
        "spot: e2\nquarter-length: 10",
        HOLD_IN_END_ZONE,
        "d3d2",
        "d1d2",
    );
    assert_eq!(g.flags(), &[foul(Side::White, FoulKind::Holding, "d1")]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    let ev = play(&mut g, &["accept:holding"]);
    assert!(has(&ev, Event::Safety { side: Side::Black }), "{ev:?}");
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(score(&g), (0, 2));
    // The scoring team receives at its own 20 (R14).
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
}

#[test]
fn r61_an_illegal_forward_pass_from_its_own_end_zone_is_a_safety_when_accepted() {
    let mut g = action_phase(
        "offense: white\nspot: e2\nforward-pass: yes",
        r#"
8 . . . . . . . n
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . P . . . . . .
1 . . . . K* . . .
"#,
    );
    let ev = play(&mut g, &["e1^e3", "h8g6", "b2b3"]);
    assert!(
        has(
            &ev,
            Event::Flag(foul(Side::White, FoulKind::IllegalForwardPass, "e1"))
        ),
        "{ev:?}"
    );
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Incomplete
            }
        ),
        "{ev:?}"
    );
    let ev = play(&mut g, &["accept:illegal-forward-pass"]);
    assert!(has(&ev, Event::Safety { side: Side::Black }), "{ev:?}");
    assert_eq!(score(&g), (0, 2));
    assert_series(&g, Side::Black, 1, "d4", 2);
}

#[test]
fn r61_offensive_holding_from_rank_2_is_no_safety() {
    // The rook is pushed from d3 to d2 and holds from there, on the 1-yard line.
    let mut g = white_holds(
        "spot: e2\ndown: 2",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . n
5 . . . . . . . .
4 . . . p . . Q* .
3 . . . R . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
        "d4d3",
        "d2d3",
    );
    assert_eq!(g.flags(), &[foul(Side::White, FoulKind::Holding, "d2")]);
    let ev = play(&mut g, &["accept:holding"]);
    assert!(!any_safety(&ev), "{ev:?}");
    assert_eq!(score(&g), (0, 0));
    // From the 1-yard line the ball cannot move: the foul costs a down instead (R57).
    assert_series(&g, Side::White, 3, "e2", 4);
}

#[test]
fn r61_holding_in_its_own_end_zone_is_a_safety_also_when_the_ball_came_back() {
    // The ball changed hands in this play and came back to White (`changed: yes`): the play
    // ends with the team that snapped, so its flags are enforced under R42, and holding
    // from its own end zone is a safety there too (only a gaining team keeps the ball, R59).
    let mut g = white_holds("spot: e3\nchanged: yes", HOLD_IN_END_ZONE, "d3d2", "d1d2");
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    let ev = play(&mut g, &["accept:holding"]);
    assert!(any_safety(&ev), "{ev:?}");
    assert_eq!(score(&g), (0, 2));
    assert_eq!(g.offense(), Side::Black);
}

// ---- R62: the untimed down ----

/// Black holds (R39) on the play that uses up the quarter; White runs out of bounds.
fn defensive_foul_on_the_last_play(keys: &str) -> Game {
    let mut g = action_phase(
        &format!("offense: white\nspot: e5\ndown: 2\n{keys}"),
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
    play(&mut g, &["d5d6", "d7d6", "c4a4"]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    g
}

#[test]
fn r62_an_accepted_defensive_foul_on_the_last_play_gives_an_untimed_down() {
    let g = defensive_foul_on_the_last_play("quarter-length: 3\nplays: 2");
    let mut declined = g.clone();
    let ev = play(&mut declined, &["decline"]);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert!(!has(&ev, Event::UntimedDown), "{ev:?}");

    let mut g = g;
    let ev = play(&mut g, &["accept:holding"]);
    assert!(has(&ev, Event::UntimedDown), "{ev:?}");
    assert!(!any_period_end(&ev), "{ev:?}");
    assert_eq!(
        ev.last(),
        Some(&Event::NextPlay {
            offense: Side::White,
            down: 1,
            spot: sq("e6"),
            to_gain: 8
        })
    );
    assert_eq!((g.quarter(), g.plays_in_quarter()), (1, 3));
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    // The untimed down is snapped and counted; then the period ends.
    let ev = snap_and_run_out(&mut g);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!((g.quarter(), g.plays_in_quarter()), (2, 0));
    assert_series(&g, Side::White, 2, "b5", 8);
}

#[test]
fn r62_before_the_untimed_down_an_offensive_foul_ends_the_period_and_a_defensive_one_extends_it() {
    let mut g = defensive_foul_on_the_last_play("quarter-length: 3\nplays: 2");
    play(&mut g, &["accept:holding"]);
    assert_eq!(g.quarter(), 1);

    // White's delay of game gives the untimed down away.
    let mut offense_fouls = g.clone();
    let ev = expire(&mut offense_fouls, Clock::Play);
    assert!(
        has(
            &ev,
            Event::Flag(foul(Side::White, FoulKind::DelayOfGame, "e6"))
        ),
        "{ev:?}"
    );
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(offense_fouls.quarter(), 2);

    // Black's illegal formation before it: one more untimed down.
    let ev = play(
        &mut g,
        &[
            "[Pd6,Pe6,Qe5,Kd5,Nc5,Bf6,Rg6]",
            "[Pd7,Pe7,Ke8,Qd8,Nc7,Bf7,Rg7]",
        ],
    );
    assert!(has(&ev, Event::UntimedDown), "{ev:?}");
    assert!(!any_period_end(&ev), "{ev:?}");
    assert_eq!(g.quarter(), 1);
    assert_series(&g, Side::White, 1, "e7", 8);
    let ev = snap_and_run_out(&mut g);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
}

#[test]
fn r62_offsetting_penalties_on_the_last_play_end_the_period() {
    let mut g = action_phase(
        "offense: white\nturn: black\nspot: e5\ndown: 3\nquarter-length: 3\nplays: 2",
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
    let ev = play(&mut g, &["d6d5", "d4d5", "d6d5", "c4a4"]);
    assert!(has(&ev, Event::OffsettingPenalties), "{ev:?}");
    assert!(!has(&ev, Event::UntimedDown), "{ev:?}");
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
    assert_series(&g, Side::White, 3, "e5", 7);
}

#[test]
fn r62_timed_an_accepted_defensive_foul_after_the_game_clock_ran_out_gives_an_untimed_down() {
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
    play(&mut g, &["d5d6", "d7d6"]);
    let ev = expire(&mut g, Clock::Game);
    assert!(!any_period_end(&ev), "{ev:?}");
    play(&mut g, &["c4a4"]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    let mut declined = g.clone();
    let ev = play(&mut declined, &["decline"]);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");

    let ev = play(&mut g, &["accept:holding"]);
    assert!(has(&ev, Event::UntimedDown), "{ev:?}");
    assert!(!any_period_end(&ev), "{ev:?}");
    assert_eq!(g.quarter(), 1);
    assert!(!g.clock_running());
    assert_series(&g, Side::White, 1, "e6", 8);
    let ev = snap_and_run_out(&mut g);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_eq!(g.quarter(), 2);
}

// ---- R63: no decline of a dead-ball foul ----

#[test]
fn r63_a_dead_ball_foul_is_enforced_without_a_choice_and_the_formations_start_over() {
    let mut g = Game::default();
    let ev = play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3", "c7>c4"]);
    let f = foul(Side::Black, FoulKind::Encroachment, "e5");
    assert!(has(&ev, Event::PenaltyEnforced(f)), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::PenaltyDeclined { .. })),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::Formation(Side::White));
    assert!(g.flags().is_empty());
    assert!(g.legal_action_list().is_empty());
    assert_eq!(g.penalty_default(), None);
    assert!(matches!(
        rejected(&mut g, "decline"),
        ActionError::NotNow { .. }
    ));
    assert!(matches!(
        rejected(&mut g, "accept:encroachment"),
        ActionError::NotNow { .. }
    ));
    // A formation that draws a flag is not corrected: the field is cleared, both form again.
    play(&mut g, &["[Pd6,Pe6,Qe5,Kd5,Nc5,Bf6,Rg6]"]);
    let ev = play(&mut g, &["[Pd7,Pe7,Ke8,Qd8,Nc7,Bf7,Rg7]"]);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::Black, FoulKind::IllegalFormation, "e6"))
        ),
        "{ev:?}"
    );
    assert!(g.board().occupied().is_empty());
    assert_eq!(g.phase(), Phase::Formation(Side::White));
}

// ---- R64: every piece is an eligible receiver ----

#[test]
fn r64_illegal_contact_on_a_pawn_two_ranks_beyond_the_line_is_flagged() {
    // Black has the ball at d4; its pawn on c2 stands two ranks beyond the line.
    let mut g = action_phase(
        "offense: black\nturn: white\nspot: d4",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . q* . .
4 . . . . . . . .
3 . . . . . . . .
2 . . p . . . . .
1 . . R . . . . .
"#,
    );
    let ev = play(&mut g, &["c1c2"]);
    let f = foul(Side::White, FoulKind::IllegalContact, "c2");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["f5h5"]);
    assert!(has(&ev, Event::OutOfBounds { at: sq("h5") }), "{ev:?}");
    let ev = play(&mut g, &["accept:illegal-contact"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(has(&ev, Event::FirstDown { side: Side::Black }), "{ev:?}");
    // 5 yards toward rank 1 (d = 3) and an automatic first down.
    assert_series(&g, Side::Black, 1, "d3", 1);
}

// ---- R65: what Rule Zero brings in ----

/// An action-phase position from its rows (the ball with White's king on g3), `turn` to move.
fn pawn_position(rows: &str, turn: &str) -> Game {
    game(&format!("offense: white\nturn: {turn}\nspot: g3\n{rows}"))
}

#[test]
fn r65_a_pawn_on_its_second_rank_steps_two_squares() {
    let mut g = pawn_position(
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . K* .
2 . . . P . . . .
1 . . . . . . . .
"#,
        "white",
    );
    assert_eq!(moves_from(&g, "d2"), vec!["d2d3", "d2d4"]);
    let ev = play(&mut g, &["d2d4"]);
    assert_eq!(
        ev[0],
        Event::Moved {
            side: Side::White,
            role: Role::Pawn,
            from: sq("d2"),
            to: sq("d4")
        }
    );
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(g.board().piece_at(sq("d4")), Piece::from_char('P'));
    assert_eq!(g.board().piece_at(sq("d2")), None);
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

#[test]
fn r65_a_black_pawn_on_rank_7_steps_two_squares() {
    let mut g = pawn_position(
        r#"
8 . . . . . . . .
7 . . . p . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . K* .
2 . . . . . . . .
1 . . . . . . . .
"#,
        "black",
    );
    assert_eq!(moves_from(&g, "d7"), vec!["d7d5", "d7d6"]);
    play(&mut g, &["d7d5"]);
    assert_eq!(g.board().piece_at(sq("d5")), Piece::from_char('p'));
}

#[test]
fn r65_no_two_step_over_or_onto_a_piece_nor_from_another_rank() {
    let unreachable = |from: &str, to: &str| ActionError::Unreachable {
        role: Role::Pawn,
        from: sq(from),
        to: sq(to),
    };
    // A piece on the square passed over (either team's).
    for blocker in ['n', 'N'] {
        let mut g = pawn_position(
            &format!(
                "8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . {blocker} . . K* .
2 . . . P . . . .
1 . . . . . . . .
"
            ),
            "white",
        );
        assert!(!is_legal(&g, "d2d4"));
        assert_eq!(rejected(&mut g, "d2d4"), unreachable("d2", "d4"));
    }
    // A piece on the square landed on: no push, no tackle by a two-step.
    let mut g = pawn_position(
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . n . . . .
3 . . . . . . K* .
2 . . . P . . . .
1 . . . . . . . .
"#,
        "white",
    );
    assert_eq!(moves_from(&g, "d2"), vec!["d2d3"]);
    assert_eq!(rejected(&mut g, "d2d4"), unreachable("d2", "d4"));
    // Not from the third rank.
    let mut g = pawn_position(
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . P . . K* .
2 . . . . . . . .
1 . . . . . . . .
"#,
        "white",
    );
    assert_eq!(moves_from(&g, "d3"), vec!["d3d4"]);
    assert_eq!(rejected(&mut g, "d3d5"), unreachable("d3", "d5"));
}

#[test]
fn r65_a_two_step_onto_the_loose_ball_picks_it_up() {
    let mut g = game(
        r#"
offense: white
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . .o . . . .
3 . . . . . . . .
2 . . . P . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "d2d4"));
    let ev = play(&mut g, &["d2d4"]);
    assert_eq!(
        ev[1],
        Event::Contested {
            side: Side::White,
            at: sq("d4"),
            pieces: 1
        }
    );
    assert_eq!(g.ball(), Ball::Contested(sq("d4")));
    assert_eq!(g.phase(), Phase::Contention(Side::Black));
}

#[test]
fn r65_no_promotion_a_pawn_on_its_last_rank_stays_a_pawn_without_a_move() {
    let mut g = pawn_position(
        r#"
8 . . . P . . . .
7 . . . . P . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . K* .
2 . . . . . . . .
1 . . . . . . . .
"#,
        "white",
    );
    assert!(moves_from(&g, "d8").is_empty());
    // Black has no piece: it passes, and White's pawns on rank 8 still have no move.
    play(&mut g, &["e7e8", "pass"]);
    assert_eq!(
        g.board().piece_at(sq("e8")),
        Some(Piece::new(Side::White, Role::Pawn))
    );
    assert_eq!(g.phase(), Phase::Action(Side::White));
    assert!(moves_from(&g, "e8").is_empty());
    assert!(moves_from(&g, "d8").is_empty());
    // No notation names a promotion either.
    for s in ["e7e8q", "e7e8=Q", "e7e8Q"] {
        assert!(s.parse::<Action>().is_err(), "{s}");
    }
}

#[test]
fn r65_no_castling_or_en_passant_notation() {
    for s in ["O-O", "O-O-O", "0-0", "0-0-0", "e5d6ep", "e5d6e.p."] {
        assert!(s.parse::<Action>().is_err(), "{s}");
    }
}

// ---- R66: sliding over the ball ----

#[test]
fn r66_a_rook_slides_over_a_loose_ball_without_picking_it_up() {
    let mut g = game(
        r#"
offense: white
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 R . .o . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "a4f4"));
    let ev = play(&mut g, &["a4f4"]);
    assert_eq!(
        ev,
        vec![Event::Moved {
            side: Side::White,
            role: Role::Rook,
            from: sq("a4"),
            to: sq("f4")
        }]
    );
    assert_eq!(g.ball(), Ball::Loose(sq("c4")));
    assert_eq!(g.board().piece_at(sq("f4")), Piece::from_char('R'));
}

#[test]
fn r66_a_rook_slides_over_a_passes_target_without_intercepting_it() {
    let mut g = game(
        r#"
offense: white
turn: black
spot: e5
throw: e4^c6
8 . . . . . . . .
7 . . . . . . . .
6 r . . . . . . .
5 . . . . . . . .
4 . . . . K . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["a6e6"]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Intercepted { .. } | Event::PlayOver { .. })),
        "{ev:?}"
    );
    let Ball::InFlight(t) = g.ball() else {
        panic!("the pass is still in flight: {:?}", g.ball());
    };
    assert_eq!(
        (t.to, t.side, t.defense_done),
        (sq("c6"), Side::White, true)
    );
    assert_eq!(g.phase(), Phase::Action(Side::White));
}

#[test]
fn r66_a_two_step_passes_over_a_loose_ball() {
    let mut g = game(
        r#"
offense: white
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . .o . . . .
2 . . . P . . . .
1 . . . . . . . .
"#,
    );
    assert!(is_legal(&g, "d2d4"));
    let ev = play(&mut g, &["d2d4"]);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(g.ball(), Ball::Loose(sq("d3")));
    assert_eq!(g.board().piece_at(sq("d4")), Piece::from_char('P'));
}

// ---- R67: files a and h are out of bounds for the ball only ----

#[test]
fn r67_a_formation_may_use_files_a_and_h() {
    let mut g = Game::default();
    let white = "[Pa5,Pd5,Pe5,Qe4,Ke3,Nc3,Rh4]";
    let black = "[Ra8,Qd8,Nc7,Bf7,Ph6,Pd6,Pe6]";
    let Action::Formation(f) = action(white) else {
        unreachable!()
    };
    assert_eq!(g.validate_formation(&f), Ok(()));
    let ev = play(&mut g, &[white]);
    assert_eq!(
        ev,
        vec![Event::FormationSet {
            side: Side::White,
            pieces: 7
        }]
    );
    let ev = play(&mut g, &[black]);
    assert_eq!(
        ev,
        vec![Event::FormationSet {
            side: Side::Black,
            pieces: 7
        }]
    );
    assert_eq!(g.phase(), Phase::Motion);
}

#[test]
fn r67_a_piece_without_the_ball_on_file_a_or_h_does_not_end_the_play() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . R p .
4 . . . . K* . . .
3 . . R . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let no_end = |ev: &[Event]| {
        !ev.iter()
            .any(|e| matches!(e, Event::OutOfBounds { .. } | Event::PlayOver { .. }))
    };
    // White's rook pushes Black's pawn onto h5, the pawn moves on along file h, White's
    // other rook moves to a3: the play goes on.
    let ev = play(&mut g, &["f5g5"]);
    assert!(
        has(
            &ev,
            Event::Pushed {
                from: sq("g5"),
                to: sq("h5")
            }
        ),
        "{ev:?}"
    );
    assert!(no_end(&ev), "{ev:?}");
    let ev = play(&mut g, &["h5h4", "c3a3"]);
    assert!(no_end(&ev), "{ev:?}");
    assert_eq!(g.phase(), Phase::Action(Side::Black));
    assert_eq!(g.ball(), Ball::Carried(sq("e4")));
    assert_eq!(g.board().piece_at(sq("a3")), Piece::from_char('R'));
}

// ---- R68: the free play ----

#[test]
fn r68_the_play_goes_on_after_a_defensive_flag_and_the_offense_may_keep_its_touchdown() {
    let mut g = action_phase(
        "offense: white\nspot: e5",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . . . . . Q* .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["d5d6", "d7d6"]);
    assert_eq!(g.flags().len(), 1);
    assert_eq!(g.phase(), Phase::Action(Side::White));
    let ev = play(&mut g, &["g4g8"]);
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert_eq!(
        g.pending_play(),
        Some((PlayEnd::Touchdown, sq("g8"), Side::White))
    );
    assert_eq!(score(&g), (0, 0));
    let mut accepted = g.clone();
    let ev = play(&mut accepted, &["accept:holding"]);
    assert!(!any_touchdown(&ev), "{ev:?}");
    assert_series(&accepted, Side::White, 1, "e6", 8);

    let ev = play(&mut g, &["decline"]);
    assert!(has(&ev, Event::Touchdown { side: Side::White }), "{ev:?}");
    assert_eq!(score(&g), (7, 0));
}

// ---- R69: handoffs anywhere ----

#[test]
fn r69_a_handoff_beyond_the_line_of_scrimmage_draws_no_flag() {
    let mut g = action_phase(
        "offense: white\nspot: e5\ncrossed: yes\nforward-pass: yes",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . R . K* . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . n
"#,
    );
    assert!(is_legal(&g, "b6f6"));
    let ev = play(&mut g, &["b6f6"]);
    assert_eq!(
        ev[1],
        Event::Handoff {
            from: sq("d6"),
            to: sq("f6")
        }
    );
    assert!(g.flags().is_empty());
    assert!(!ev.iter().any(|e| matches!(e, Event::Flag(_))), "{ev:?}");
    assert_eq!(g.ball(), Ball::Carried(sq("f6")));
    assert_eq!(g.phase(), Phase::Action(Side::Black));
}

// ---- R7 (changed): the pawn's diagonal step is for contact ----

#[test]
fn r7_changed_a_black_carrier_pawn_trucks_diagonally_but_no_pawn_pushes_diagonally() {
    let mut g = action_phase(
        "offense: black\nspot: d6",
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . p* . . . .
4 . . n . P . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    // Never a diagonal push: not onto a friendly piece for the carrier.
    assert!(!is_legal(&g, "d5c4"));
    assert_eq!(
        rejected(&mut g, "d5c4"),
        ActionError::PawnDiagonal { to: sq("c4") }
    );
    // Onto White's pawn on e4: a truck, and the play is over there.
    assert!(is_legal(&g, "d5e4"));
    let ev = play(&mut g, &["d5e4"]);
    assert_eq!(ev[1], Event::Truck { at: sq("e4") });
    assert_eq!(
        ev[2],
        Event::PlayOver {
            end: PlayEnd::Truck
        }
    );
    assert_eq!(g.offense(), Side::Black);
    assert_eq!(g.spot(), sq("e4"));
    // A pawn without the ball does not push diagonally either.
    let mut g = pawn_position(
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . p . . . .
4 . . . . N . . .
3 . . . . . . K* .
2 . . . . . . . .
1 . . . . . . . .
"#,
        "black",
    );
    assert!(!is_legal(&g, "d5e4"));
    assert_eq!(
        rejected(&mut g, "d5e4"),
        ActionError::PawnDiagonal { to: sq("e4") }
    );
}

// ---- R41 (changed): defensive pass interference, at least 5 yards ----

#[test]
fn r41_defensive_pass_interference_exactly_5_yards_beyond_the_line_is_spotted_at_the_foul() {
    // The foul on c6 is 5 yards beyond the previous spot e5: the spot of the foul meets
    // "at least 5 yards", so the ball goes there (file c), with the first down.
    let mut g = action_phase(
        "offense: white\nspot: e5\ndown: 3",
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
    let ev = play(&mut g, &["e4^e8", "c7c6", "b2b3"]);
    let f = foul(Side::Black, FoulKind::PassInterference, "c6");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["accept:pass-interference"]);
    assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
    assert_series(&g, Side::White, 1, "c6", 8);
}

// ---- R58: a run across the end of a quarter ----

#[test]
fn r58_a_run_of_fouls_carries_over_from_quarter_1_to_2() {
    // R58 ends a run when a play stands or the ball changes hands; the end of quarter 1
    // does neither (possession, spot and down carry over, R1).
    let mut g = before_formation("offense: white\nspot: e5\nquarter-length: 2\nplays: 1");
    expire(&mut g, Clock::Play);
    let ev = expire(&mut g, Clock::Play);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert_series(&g, Side::White, 2, "e3", 7);
    // White's third foul in a row, in quarter 2: one more down lost.
    expire(&mut g, Clock::Play);
    assert_series(&g, Side::White, 3, "e2", 7);
}
