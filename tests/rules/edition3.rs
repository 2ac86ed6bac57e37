//! Tests: edition 3 of the rulings (protocol/RULES.md): one test or more per ruling it
//! changed or added that the engine decides (R45, R60, R62 with the game clock, R71; R70's
//! ticks are the referee's and are tested in `crates/engine/src/games/football_chess/clock.rs` and
//! `tests/properties.rs`), each named after its ruling.

use zebra::rules::{Action, Clock, Event, FoulKind, Game, GameResult, Phase, Side};

use super::support::{
    assert_series, black_holds_on_d7, expire, foul, game, play, snap_and_run_out, BLACK_DEFENSE,
    EMPTY_BOARD, WHITE_OFFENSE,
};

/// An empty field before the offense forms, with extra diagram keys.
fn before_formation(keys: &str) -> Game {
    game(&format!("phase: formation\n{keys}\n{EMPTY_BOARD}"))
}

fn has(ev: &[Event], e: Event) -> bool {
    ev.contains(&e)
}

/// White's formation on the 1-yard line e7, and Black's that fields its king (an illegal
/// formation, R22).
const WHITE_AT_E7: &str = "[Pd7,Pe7,Qe6,Ke5,Nc5,Bf6,Rg7]";
const BLACK_WITH_KING_ON_8: &str = "[Pa8,Pb8,Nc8,Bd8,Ke8,Qf8,Rg8]";

// ---- R45: a defensive dead-ball foul leaves the clock as it was ----

#[test]
fn r45_edition3_a_defensive_dead_ball_foul_leaves_a_running_clock_running() {
    let mut g = before_formation("offense: white\nspot: e5\nclock: running");
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3"]);
    assert!(g.clock_running());
    let ev = play(&mut g, &["c7>c4"]);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::Black, FoulKind::Encroachment, "e5"))
        ),
        "{ev:?}"
    );
    assert!(!has(&ev, Event::ClockStopped), "{ev:?}");
    assert!(
        g.clock_running(),
        "a trailing defense cannot stop the clock"
    );
    assert_series(&g, Side::White, 1, "e6", 7);
}

#[test]
fn r45_edition3_a_defensive_dead_ball_foul_leaves_a_stopped_clock_stopped() {
    let mut g = before_formation("offense: white\nspot: e5\nclock: stopped");
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3"]);
    play(&mut g, &["c7>c4"]);
    assert!(
        !g.clock_running(),
        "a leading defense cannot start the clock"
    );
}

// ---- R62 with the game clock: time running out after a defensive foul ----

#[test]
fn r62_the_game_clock_running_out_after_a_defensive_dead_ball_foul_gives_an_untimed_down() {
    let mut g = before_formation("offense: white\nspot: e5\nclock: running\nquarter: 4");
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "c3>b3", "c7>c4"]);
    assert!(g.to_diagram().contains("last-foul: defense"));
    // The offense thinks the clock out before its next snap: the down is still played.
    let ev = expire(&mut g, Clock::Game);
    assert_eq!(ev, vec![Event::UntimedDown]);
    assert!(g.is_untimed_down());
    assert!(!g.is_over());
    assert_eq!((g.quarter(), g.phase()), (4, Phase::Formation(Side::White)));
    // The untimed down is snapped; then the game ends.
    let ev = snap_and_run_out(&mut g);
    assert!(has(&ev, Event::PeriodEnd { quarter: 4 }), "{ev:?}");
    assert!(g.is_over());
}

#[test]
fn r62_the_game_clock_running_out_after_a_snapped_play_ends_the_period_at_once() {
    let mut g = before_formation("offense: white\nspot: e5\nclock: running\nquarter: 4");
    snap_and_run_out(&mut g);
    assert!(!g.to_diagram().contains("last-foul"));
    let ev = expire(&mut g, Clock::Game);
    assert!(has(&ev, Event::PeriodEnd { quarter: 4 }), "{ev:?}");
    assert!(g.is_over());
}

// ---- R60: an unanswered choice never throws a won game away ----

/// The last play of a play-count game with the `score` given: White runs; Black holds on d7 (White's
/// rook pushed the d6 pawn, the pawn pushed it back); White's queen then runs out of
/// bounds behind the line.
fn last_play_black_holds(score: &str) -> Game {
    let mut g = black_holds_on_d7(&format!(
        "quarter: 4\nquarter-length: 5\nplays: 4\nscore: {score}"
    ));
    play(&mut g, &["g4a4"]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    g
}

#[test]
fn r60_edition3_an_unanswered_choice_declines_when_declining_wins_the_game() {
    let g = last_play_black_holds("3-0");
    // Accepting would give White a first down and an untimed down (R62) it can still lose;
    // declining ends the game with White ahead.
    let mut accepted = g.clone();
    play(&mut accepted, &["accept:holding"]);
    assert!(!accepted.is_over());
    assert_eq!(g.penalty_default(), Some(Action::Decline));
    let mut lapsed = g.clone();
    let ev = expire(&mut lapsed, Clock::Reaction);
    assert_eq!(ev[0], Event::MissedTurn { side: Side::White });
    assert!(
        has(
            &ev,
            Event::PenaltyDeclined {
                kind: FoulKind::Holding
            }
        ),
        "{ev:?}"
    );
    assert_eq!(lapsed.result(), Some(GameResult::Win(Side::White)));
}

#[test]
fn r60_edition3_an_unanswered_choice_never_ends_the_game_lost_when_it_can_go_on() {
    // The same play with White behind 0-3: declining ends the game lost; accepting plays on.
    let mut g = last_play_black_holds("0-3");
    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_eq!(declined.result(), Some(GameResult::Win(Side::Black)));
    assert_eq!(g.penalty_default(), Some(Action::Accept(FoulKind::Holding)));
    expire(&mut g, Clock::Reaction);
    assert!(!g.is_over());
    assert!(g.is_untimed_down());
}

// ---- R71: a free foul at the goal line costs a timeout ----

/// 1st & goal at e7: Black fields its king (an illegal formation) with `timeouts` left.
fn first_and_goal_foul(timeouts: &str) -> (Game, Vec<Event>) {
    let mut g = before_formation(&format!(
        "offense: white\nspot: e7\ndown: 1\nquarter-length: 10\ntimeouts: {timeouts}"
    ));
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    (g, ev)
}

#[test]
fn r71_a_defensive_foul_at_first_and_goal_from_the_1_costs_a_timeout() {
    let (g, ev) = first_and_goal_foul("3-3");
    assert!(
        has(
            &ev,
            Event::TimeoutCharged {
                side: Side::Black,
                left: 2
            }
        ),
        "{ev:?}"
    );
    assert!(!has(&ev, Event::Touchdown { side: Side::White }), "{ev:?}");
    assert_eq!((g.timeouts(Side::White), g.timeouts(Side::Black)), (3, 2));
    assert_series(&g, Side::White, 1, "e7", 8);
    // A charged timeout resets nothing else: the down is replayed, and counts no play.
    assert_eq!(g.plays_in_quarter(), 0);
}

#[test]
fn r71_with_no_timeout_left_the_foul_concedes_the_touchdown() {
    let (g, ev) = first_and_goal_foul("3-0");
    assert!(
        has(&ev, Event::ScoreAwarded { side: Side::White }),
        "{ev:?}"
    );
    assert!(has(&ev, Event::Touchdown { side: Side::White }), "{ev:?}");
    assert_eq!(g.score(Side::White), 7);
    assert_eq!(g.offense(), Side::Black);
}

#[test]
fn r71_on_a_later_down_the_foul_still_gives_a_first_down_and_costs_no_timeout() {
    let mut g = before_formation("offense: white\nspot: e7\ndown: 3\nquarter-length: 10");
    play(&mut g, &[WHITE_AT_E7]);
    let ev = play(&mut g, &[BLACK_WITH_KING_ON_8]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::TimeoutCharged { .. })),
        "{ev:?}"
    );
    assert_eq!(g.timeouts(Side::Black), 3);
    assert_series(&g, Side::White, 1, "e7", 8);
}
