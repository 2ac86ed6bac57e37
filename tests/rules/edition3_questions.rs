//! Tests: edition 3 of the rulings (protocol/RULES.md), the open questions a second engine
//! would answer differently: a ball that changes hands twice (R42, R59, R37), the holder's
//! square (R61), what ends a run of fouls (R58), pass interference at the 1-yard line (R41,
//! R58) and forced fouls (R48). Each test is named after the ruling it checks.

use zebra::rules::{Action, ActionError, Clock, Event, FoulKind, Game, Phase, PlayEnd, Side};

use super::support::{action, action_phase, assert_series, expire, foul, play, rejected, sq};

fn has(ev: &[Event], e: Event) -> bool {
    ev.contains(&e)
}

fn any_touchdown(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::Touchdown { .. }))
}

fn any_possession_change(ev: &[Event]) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::PossessionChanged { .. }))
}

fn score(g: &Game) -> (u16, u16) {
    (g.score(Side::White), g.score(Side::Black))
}

// ---- (1) R42, R59: a ball that changes hands twice, with a foul in between ----

/// White snapped on e5 (2nd down); Black has intercepted and carries the ball on g5. White's
/// queen on b5 can take it back when Black throws it sideways onto her (an interception
/// at once, R33); the rooks on file c push each other.
const TAKEN_BACK: &str = r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . r . . . . .
5 . Q R . . . r* .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . B
"#;

fn taken_back(turn: &str) -> Game {
    action_phase(
        &format!(
            "offense: white\nturn: {turn}\nspot: e5\ndown: 2\nchanged: yes\nthrown: yes\n\
             quarter-length: 10"
        ),
        TAKEN_BACK,
    )
}

#[test]
fn r59_a_team_that_fouls_while_the_other_team_holds_the_ball_cannot_keep_it_by_taking_it_back() {
    let mut g = taken_back("black");
    // Black's rook pushes White's; White's pushes back: holding by White while Black holds
    // the ball (after the change, before White takes it back).
    let ev = play(&mut g, &["c6c5", "c4c5"]);
    let f = foul(Side::White, FoulKind::Holding, "c4");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    // Black throws sideways onto White's queen, who runs it into the end zone.
    let ev = play(&mut g, &["g5^b5", "b5b8"]);
    assert!(
        has(
            &ev,
            Event::Intercepted {
                side: Side::White,
                at: sq("b5")
            }
        ),
        "{ev:?}"
    );
    assert!(
        has(
            &ev,
            Event::PlayOver {
                end: PlayEnd::Touchdown
            }
        ),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    assert_eq!(g.penalty_default(), Some(action("accept:holding")));

    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_eq!(score(&declined), (7, 0));
    assert_series(&declined, Side::Black, 1, "d4", 2);

    // Accepted: White has no clean hands, so the ball goes back to Black as if Black had
    // kept it (R59): its own 20, 10 yards ahead (half the distance: d4 to d3), first down.
    // White's touchdown does not count.
    let ev = play(&mut g, &["accept:holding"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(!any_touchdown(&ev), "{ev:?}");
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(score(&g), (0, 0));
    assert_series(&g, Side::Black, 1, "d3", 1);
    assert_eq!(g.fouls_in_row(Side::White), 0);
    assert_eq!(g.plays_in_quarter(), 1);
    assert!(!g.clock_running());
    assert_eq!(g.phase(), Phase::Formation(Side::Black));
}

#[test]
fn r42_a_foul_by_the_team_that_then_loses_the_ball_back_annuls_the_play_when_accepted() {
    let mut g = taken_back("white");
    // White pushes Black's rook, Black's rook pushes back: holding by Black while it holds
    // the ball. White then takes the ball back and runs out of bounds on a5.
    let ev = play(&mut g, &["c5c6", "c7c6"]);
    let f = foul(Side::Black, FoulKind::Holding, "c7");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["h1g2", "g5^b5", "b5a5"]);
    assert!(has(&ev, Event::OutOfBounds { at: sq("a5") }), "{ev:?}");
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));

    // Declined: the play stands, White's series goes on (R37): 3rd down on b5.
    let mut declined = g.clone();
    let ev = play(&mut declined, &["decline"]);
    assert!(!any_possession_change(&ev), "{ev:?}");
    assert_series(&declined, Side::White, 3, "b5", 7);

    // Accepted: the play is annulled and the foul enforced from the previous spot (R42):
    // defensive holding, 10 yards (half the distance: e5 to e6), automatic first down.
    let ev = play(&mut g, &["accept:holding"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
    assert!(!any_possession_change(&ev), "{ev:?}");
    assert_series(&g, Side::White, 1, "e6", 8);
    assert_eq!(g.fouls_in_row(Side::Black), 1);
    assert_eq!(g.plays_in_quarter(), 1);
}

#[test]
fn r42_both_teams_fouling_around_a_ball_taken_back_offset_and_replay_the_down() {
    let mut g = taken_back("white");
    // White pushes, Black holds (with the ball), White holds (without it).
    let ev = play(&mut g, &["c5c6", "c7c6", "c5c6"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::Black, FoulKind::Holding, "c7"))),
        "{ev:?}"
    );
    assert!(
        has(&ev, Event::Flag(foul(Side::White, FoulKind::Holding, "c5"))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["g5^b5", "b5a5"]);
    assert!(has(&ev, Event::OffsettingPenalties), "{ev:?}");
    assert!(!any_possession_change(&ev), "{ev:?}");
    // The team that snapped keeps the ball either way: the down is replayed.
    assert_series(&g, Side::White, 2, "e5", 7);
    assert_eq!(g.plays_in_quarter(), 1);
    assert_eq!(score(&g), (0, 0));
}

// ---- (2) R37: after a double change the series goes on ----

/// White snapped on e5; Black intercepted and carries the ball on g6; White's queen on b6.
fn black_gives_it_back(down: u8) -> Game {
    action_phase(
        &format!("offense: white\nturn: black\nspot: e5\ndown: {down}\nchanged: yes\nthrown: yes"),
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . Q . . . . r* .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    )
}

#[test]
fn r37_a_ball_taken_back_in_the_same_play_uses_the_down_where_the_play_ended() {
    let mut g = black_gives_it_back(3);
    let ev = play(&mut g, &["g6^b6", "b6a5"]);
    assert!(
        has(
            &ev,
            Event::Intercepted {
                side: Side::White,
                at: sq("b6")
            }
        ),
        "{ev:?}"
    );
    assert!(has(&ev, Event::OutOfBounds { at: sq("a5") }), "{ev:?}");
    assert!(!any_possession_change(&ev), "{ev:?}");
    // Neither a new drive at White's 20 nor a first down: the next down where it ended.
    assert_series(&g, Side::White, 4, "b5", 7);
    assert_eq!(g.plays_in_quarter(), 1);
}

#[test]
fn r37_a_ball_taken_back_beyond_the_line_to_gain_is_a_first_down() {
    let mut g = black_gives_it_back(3);
    let ev = play(&mut g, &["g6^b6", "b6a7"]);
    assert!(has(&ev, Event::OutOfBounds { at: sq("a7") }), "{ev:?}");
    assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
    assert!(!any_possession_change(&ev), "{ev:?}");
    assert_series(&g, Side::White, 1, "b7", 8);
}

#[test]
fn r37_a_ball_taken_back_short_on_fourth_down_is_a_turnover_on_downs() {
    let mut g = black_gives_it_back(4);
    let ev = play(&mut g, &["g6^b6", "b6a5"]);
    assert!(
        has(&ev, Event::TurnoverOnDowns { side: Side::White }),
        "{ev:?}"
    );
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert!(!g.clock_running());
}

// ---- (6) R61: the holder's square is the one it held from ----

#[test]
fn r61_the_holders_square_is_the_square_it_moved_from() {
    // Black has the ball (its queen on c7, line of scrimmage on rank 6). White's pawn pushes
    // Black's rook from e7 into Black's end zone; the rook pushes back from e8 onto e7.
    let mut g = action_phase(
        "offense: black\nturn: white\nspot: d6\nquarter-length: 10",
        r#"
8 . . . . . . . .
7 . . q* . r . . .
6 . . . . P . . .
5 . N . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["e6e7", "e8e7"]);
    // The flag is spotted where the holder stood (e8, Black's end zone), not where it
    // landed (e7, the 1-yard line).
    let f = foul(Side::Black, FoulKind::Holding, "e8");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    let ev = play(&mut g, &["b5c7"]);
    assert!(has(&ev, Event::Tackle { at: sq("c7") }), "{ev:?}");
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));

    let mut declined = g.clone();
    play(&mut declined, &["decline"]);
    assert_series(&declined, Side::Black, 2, "c7", 4);

    let ev = play(&mut g, &["accept:holding"]);
    assert!(has(&ev, Event::Safety { side: Side::White }), "{ev:?}");
    assert_eq!(score(&g), (2, 0));
    assert_series(&g, Side::White, 1, "e5", 7);
    assert_eq!(g.plays_in_quarter(), 1);
}

// ---- (7) R58: what ends a run of fouls ----

/// White has 1st & goal on e7 (Black's 1-yard line). White's rook on d6 pushes Black's pawn
/// into the end zone and the pawn pushes back: holding by Black (its flag on d8).
const AT_THE_ONE: &str = r#"
8 n . . . . . . .
7 . . . p . . . .
6 . Q* . R . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

fn at_the_one(fouls_in_row: &str) -> Game {
    action_phase(
        &format!("offense: white\nspot: e7\nquarter-length: 10\nfouls-in-row: {fouls_in_row}"),
        AT_THE_ONE,
    )
}

#[test]
fn r58_a_declined_flag_lets_the_play_stand_and_ends_every_run() {
    let mut g = at_the_one("1-1");
    let ev = play(&mut g, &["d6d7", "d8d7", "b6a6"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::Black, FoulKind::Holding, "d8"))),
        "{ev:?}"
    );
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));

    // Accepted, it would be Black's second foul in a row at its 1-yard line: the touchdown.
    let mut accepted = g.clone();
    let ev = play(&mut accepted, &["accept:holding"]);
    assert!(
        has(&ev, Event::ScoreAwarded { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(score(&accepted), (7, 0));

    // Declined, the play stands: both runs end, whoever fouled.
    play(&mut g, &["decline"]);
    assert_series(&g, Side::White, 2, "b6", 8);
    assert_eq!(
        (g.fouls_in_row(Side::White), g.fouls_in_row(Side::Black)),
        (0, 0)
    );
}

#[test]
fn r58_offsetting_penalties_replay_the_down_and_leave_every_run_as_it_was() {
    let mut g = at_the_one("0-1");
    // White pushes, Black holds, White holds; Black's knight tackles the queen.
    let ev = play(&mut g, &["d6d7", "d8d7", "d6d7", "a8b6"]);
    assert!(has(&ev, Event::OffsettingPenalties), "{ev:?}");
    assert_series(&g, Side::White, 1, "e7", 8);
    assert_eq!(g.plays_in_quarter(), 1);
    // Neither foul was enforced and no play stood: the runs neither grow nor end.
    assert_eq!(
        (g.fouls_in_row(Side::White), g.fouls_in_row(Side::Black)),
        (0, 1)
    );
    // So Black's next foul at its 1-yard line is its second in a row: the touchdown.
    play(&mut g, &["[Pd7,Pe7,Qe6,Ke5,Nc5,Bf6,Rg7]"]);
    let ev = play(&mut g, &["[Pa8,Pb8,Nc8,Bd8,Ke8,Qf8,Rg8]"]);
    assert!(
        has(&ev, Event::ScoreAwarded { side: Side::White }),
        "{ev:?}"
    );
    assert_eq!(score(&g), (7, 0));
}

/// The untimed down of quarter `quarter` (R62: Black's foul ended the quarter's last play):
/// Black's pawn pushes White's rook, the rook pushes back (holding by White), Black's knight
/// tackles the queen; Black accepts.
fn offensive_foul_on_the_untimed_down(quarter: u8) -> (Game, Vec<Event>) {
    let mut g = action_phase(
        &format!(
            "offense: white\nturn: black\nspot: e5\ndown: 2\nquarter: {quarter}\n\
             quarter-length: 10\nplays: 10\nuntimed: yes\nfouls-in-row: 0-1"
        ),
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . n
5 . . . R . . . .
4 . . . . . . Q* .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    let ev = play(&mut g, &["d6d5", "d4d5", "h6g4"]);
    assert!(
        has(&ev, Event::Flag(foul(Side::White, FoulKind::Holding, "d4"))),
        "{ev:?}"
    );
    let ev = play(&mut g, &["accept:holding"]);
    (g, ev)
}

#[test]
fn r58_an_untimed_down_ending_in_an_offensive_foul_ends_the_quarter_but_no_run() {
    let (mut g, ev) = offensive_foul_on_the_untimed_down(1);
    assert!(has(&ev, Event::PeriodEnd { quarter: 1 }), "{ev:?}");
    assert!(!g.is_untimed_down());
    assert_eq!(g.quarter(), 2);
    // 10 yards back from e5, the down replayed; the series carries over (R1), and so do
    // both runs: White's holding is the first of its run, Black's foul still counts.
    assert_series(&g, Side::White, 2, "e3", 7);
    assert_eq!(
        (g.fouls_in_row(Side::White), g.fouls_in_row(Side::Black)),
        (1, 1)
    );
    // White's delay of game to open quarter 2 is its second foul in a row: a lost down.
    let ev = expire(&mut g, Clock::Play);
    assert!(
        has(
            &ev,
            Event::PenaltyEnforced(foul(Side::White, FoulKind::DelayOfGame, "e3"))
        ),
        "{ev:?}"
    );
    assert_series(&g, Side::White, 3, "e2", 7);
}

#[test]
fn r58_halftime_starts_a_new_drive_and_ends_every_run() {
    let (g, ev) = offensive_foul_on_the_untimed_down(2);
    assert!(has(&ev, Event::PeriodEnd { quarter: 2 }), "{ev:?}");
    assert!(
        has(&ev, Event::PossessionChanged { side: Side::Black }),
        "{ev:?}"
    );
    assert_eq!(g.quarter(), 3);
    assert_series(&g, Side::Black, 1, "d4", 2);
    assert_eq!(
        (g.fouls_in_row(Side::White), g.fouls_in_row(Side::Black)),
        (0, 0)
    );
}

// ---- (8) R41, R58: pass interference at the 1-yard line ----

/// White has 1st & goal on e7 and throws from e6 to the empty c8; Black's rook pushes the
/// White rook that could have caught it: defensive pass interference on `pushed`.
fn interference_at_the_one(fouls_in_row: &str, rows: &str, push: &str, pushed: &str) -> Game {
    let mut g = action_phase(
        &format!("offense: white\nspot: e7\nquarter-length: 10\nfouls-in-row: {fouls_in_row}"),
        rows,
    );
    let ev = play(&mut g, &["e6^c8", push, "e6f6"]);
    let f = foul(Side::Black, FoulKind::PassInterference, pushed);
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
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
    g
}

const INTERFERENCE_ON_THE_ONE: &str = r#"
8 . . . . . . . .
7 r . R . . . . .
6 . . . . K* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

const INTERFERENCE_IN_THE_END_ZONE: &str = r#"
8 . R . r . . . .
7 . . . . . . . .
6 . . . . K* . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#;

#[test]
fn r41_a_first_pass_interference_at_the_1_yard_line_is_a_first_down_there() {
    for (rows, push, pushed, spot) in [
        (INTERFERENCE_ON_THE_ONE, "a7c7", "c7", "c7"),
        // In the end zone: the ball goes to the 1-yard line on the foul's file.
        (INTERFERENCE_IN_THE_END_ZONE, "d8b8", "b8", "b7"),
    ] {
        let mut g = interference_at_the_one("0-0", rows, push, pushed);
        let ev = play(&mut g, &["accept:pass-interference"]);
        assert!(has(&ev, Event::FirstDown { side: Side::White }), "{ev:?}");
        assert!(!any_touchdown(&ev), "{ev:?}");
        assert_series(&g, Side::White, 1, spot, 8);
        assert_eq!(g.fouls_in_row(Side::Black), 1);
        assert_eq!(score(&g), (0, 0));
    }
}

#[test]
fn r58_a_second_defensive_foul_in_a_row_by_pass_interference_at_the_1_concedes_the_touchdown() {
    for (rows, push, pushed) in [
        (INTERFERENCE_ON_THE_ONE, "a7c7", "c7"),
        // In the end zone: R41 spots the ball on the 1-yard line, where it already was.
        (INTERFERENCE_IN_THE_END_ZONE, "d8b8", "b8"),
    ] {
        let mut g = interference_at_the_one("0-1", rows, push, pushed);
        let ev = play(&mut g, &["accept:pass-interference"]);
        let awarded = ev
            .iter()
            .position(|e| *e == Event::ScoreAwarded { side: Side::White })
            .unwrap_or_else(|| panic!("{ev:?}"));
        assert_eq!(ev[awarded + 1], Event::Touchdown { side: Side::White });
        assert_eq!(score(&g), (7, 0));
        assert_series(&g, Side::Black, 1, "d4", 2);
        assert_eq!(g.plays_in_quarter(), 1);
    }
}

// ---- (9) R48: a team whose every move is a foul must still move ----

/// White's rook has just pushed Black's only piece, the pawn, from d5 to d6 (White has the
/// ball on b4, line of scrimmage on rank 4); `row4` is rank 4 of the diagram.
fn pawn_pushed_back(row4: &str) -> Game {
    let rows = format!(
        "8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
{row4}
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"
    );
    action_phase(
        "offense: white\nturn: black\nspot: e4\nlast-push: d5 d6 white\nquarter-length: 10",
        &rows,
    )
}

#[test]
fn r48_a_team_whose_only_move_is_a_foul_must_make_it() {
    let mut g = pawn_pushed_back("4 . K* . . . . . .");
    // The pawn's only move pushes back the rook that pushed it: holding. It is a legal
    // move, so the turn cannot be passed (no null moves).
    assert_eq!(g.legal_action_list(), vec![action("d6d5")]);
    assert_eq!(rejected(&mut g, "pass"), ActionError::PassNotAllowed);
    let ev = play(&mut g, &["d6d5"]);
    let f = foul(Side::Black, FoulKind::Holding, "d6");
    assert!(has(&ev, Event::Flag(f)), "{ev:?}");
    play(&mut g, &["b4a4"]);
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::White));
    // The forced foul is enforced like any other: defensive holding, 10 yards, first down.
    let ev = play(&mut g, &["accept:holding"]);
    assert_eq!(ev[0], Event::PenaltyEnforced(f));
    assert_series(&g, Side::White, 1, "e6", 8);

    // With the push blocked (a piece on d4) the pawn has no move at all: then it passes.
    let mut g = pawn_pushed_back("4 . K* . N . . . .");
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    play(&mut g, &["pass"]);
    assert_eq!(g.phase(), Phase::Action(Side::White));
}
