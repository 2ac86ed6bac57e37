//! Property tests over thousands of seeded random games.
//!
//! Every game is played by `RandomPlayer` from a seed; after every action the invariants of
//! the rules are checked (board, ball, downs, quarters, score, spot, results), and on a
//! sample of positions every listed action is applied on a clone and random unlisted or
//! wrong-phase actions are tried: `apply` must accept exactly the listed actions and leave
//! the game untouched when it refuses one. A failure names the seed, the step, the action
//! and the diagrams before and after.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zebra::rules::game::MAX_PLAY_TURNS;
use zebra::rules::playout::{play_random_game, RandomPlayer};
use zebra::rules::{
    Action, ActionError, ActionList, Ball, Bitboard, Clock, Event, Events, Formation,
    FormationCheck, FoulKind, Game, GameResult, KnightRoute, Phase, QuarterLength, Role, Settings,
    Side, Square,
};

/// No game may take more actions than this.
const MAX_GAME_ACTIONS: usize = 100_000;

/// Where a check failed: enough to replay it.
struct Ctx<'a> {
    seed: u64,
    step: usize,
    action: Option<Action>,
    /// A clock the referee reported instead of an action.
    clock: Option<Clock>,
    before: &'a Game,
    after: Option<&'a Game>,
}

impl Ctx<'_> {
    fn fail(&self, message: String) -> ! {
        let mut s = format!("seed {}, step {}", self.seed, self.step);
        if let Some(a) = &self.action {
            write!(s, ", action '{a}'").unwrap();
        }
        if let Some(c) = &self.clock {
            write!(s, ", expired {c}").unwrap();
        }
        write!(
            s,
            ": {message}\n--- before ---\n{}",
            self.before.to_diagram()
        )
        .unwrap();
        let flags = self.before.flags();
        if !flags.is_empty() {
            writeln!(s, "flags: {flags:?}").unwrap();
        }
        if let Some(g) = self.after {
            write!(s, "--- after ---\n{}", g.to_diagram()).unwrap();
        }
        panic!("{s}");
    }
}

macro_rules! check {
    ($ctx:expr, $cond:expr, $($fmt:tt)+) => {
        if !$cond {
            $ctx.fail(format!($($fmt)+));
        }
    };
}

fn count_side(g: &Game, side: Side) -> u8 {
    g.board().count_side(side)
}

/// The invariants of one position.
fn check_state(g: &Game, ctx: &Ctx) {
    let b = g.board();
    let (white, black) = (b.side(Side::White), b.side(Side::Black));
    check!(
        ctx,
        white.0 & black.0 == 0,
        "a square holds a top piece of both sides"
    );
    let mut roles = 0u64;
    for role in Role::ALL {
        let r = b.role(role).0;
        check!(ctx, roles & r == 0, "a square holds two roles");
        roles |= r;
    }
    check!(
        ctx,
        roles == b.occupied().0,
        "role and side bitboards disagree"
    );

    // No two pieces on one square, except on the pile: the bitboards hold one piece a
    // square, so every piece not on them must be under the top of the pile.
    let tops = [white.count(), black.count()];
    let under = match b.pile_square() {
        Some(p) => {
            let n = b.stack_at(p).len();
            check!(ctx, n >= 2, "the pile {p} holds {n} piece(s)");
            n - 1
        }
        None => 0,
    };
    let total: usize = Side::ALL.iter().map(|&s| b.count_side(s) as usize).sum();
    check!(
        ctx,
        total == (tops[0] + tops[1]) as usize + under,
        "{total} pieces, {tops:?} on top, {under} under the pile"
    );
    // Never more pieces than the sideline holds.
    for side in Side::ALL {
        let sideline = b.sideline(side);
        for role in Role::ALL {
            let n = b.count(side, role);
            check!(
                ctx,
                n <= role.sideline_count(),
                "{side} has {n} {role}s on the field"
            );
            check!(
                ctx,
                sideline[role.index()] + n == role.sideline_count(),
                "{side} {role}s: field + sideline"
            );
        }
    }

    let offense = g.offense();
    let defense = g.defense();
    check!(
        ctx,
        defense == offense.other(),
        "defense is not the other side"
    );
    check!(ctx, (1..=4).contains(&g.down()), "down {}", g.down());
    check!(
        ctx,
        (1..=4).contains(&g.quarter()),
        "quarter {}",
        g.quarter()
    );
    check!(
        ctx,
        !g.spot().rank().is_end_zone(),
        "the ball spot {} is in an end zone",
        g.spot()
    );
    check!(
        ctx,
        offense.gain(g.spot().rank(), g.line_to_gain()) > 0,
        "the line to gain (rank {}) is not ahead of the spot {}",
        g.line_to_gain(),
        g.spot()
    );
    check!(
        ctx,
        g.is_goal_to_go() == (g.line_to_gain() == offense.goal()),
        "goal to go"
    );
    for side in Side::ALL {
        check!(
            ctx,
            g.timeouts(side) <= 3,
            "{side} has {} timeouts",
            g.timeouts(side)
        );
    }
    if let QuarterLength::Plays(n) = g.settings().quarter {
        if !g.is_over() && !g.is_untimed_down() {
            check!(
                ctx,
                g.plays_in_quarter() < n,
                "{} plays counted in a quarter of {n}",
                g.plays_in_quarter()
            );
        }
    }
    check!(
        ctx,
        g.is_over() == g.result().is_some(),
        "over without a result, or the reverse"
    );
    check!(
        ctx,
        g.is_over() == g.decision().is_none(),
        "over without a decision, or the reverse"
    );
    check!(
        ctx,
        g.to_move() == g.decision().map(|d| d.side),
        "to_move and decision disagree"
    );
    if let Some(result) = g.result() {
        let (w, bl) = (g.score(Side::White), g.score(Side::Black));
        let want = match w.cmp(&bl) {
            std::cmp::Ordering::Greater => GameResult::Win(Side::White),
            std::cmp::Ordering::Less => GameResult::Win(Side::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        check!(
            ctx,
            result == want,
            "result {result:?} with the score {w}-{bl}"
        );
    }

    let on_field = |side| count_side(g, side);
    let ball = g.ball();
    match g.phase() {
        Phase::Formation(side) => {
            check!(
                ctx,
                ball == Ball::Spotted(g.spot()),
                "ball {ball:?} before the snap"
            );
            if side == offense {
                check!(
                    ctx,
                    b.occupied().is_empty(),
                    "pieces on the field before the offense forms"
                );
            } else {
                check!(
                    ctx,
                    on_field(offense) == 7 && on_field(defense) == 0,
                    "after a legal offense formation"
                );
            }
        }
        Phase::Motion | Phase::Reaction => {
            check!(
                ctx,
                ball == Ball::Spotted(g.spot()),
                "ball {ball:?} before the snap"
            );
            let snapper = b.piece_at(g.spot());
            check!(
                ctx,
                snapper.is_some_and(|p| p.side == offense && p.role == Role::Pawn),
                "no snapper on {}",
                g.spot()
            );
            check_formed(g, ctx);
            let half = Bitboard::at_or_behind(offense, g.spot().rank());
            check!(
                ctx,
                b.side(offense).0 & !half.0 == 0,
                "an offensive piece beyond the line"
            );
            check!(
                ctx,
                b.side(defense).0 & half.0 == 0,
                "a defensive piece on the offense's side"
            );
            let moved = g.moved_in_motion();
            check!(
                ctx,
                moved.0 & !b.side(offense).0 == 0,
                "moved-in-motion squares {moved:?} off the offense"
            );
        }
        Phase::Action(_) => {
            check_formed(g, ctx);
            check!(ctx, b.pile_square().is_none(), "a pile in the action phase");
            check!(
                ctx,
                g.play_turns() < MAX_PLAY_TURNS,
                "{} turns in a play",
                g.play_turns()
            );
            match ball {
                Ball::Carried(sq) => {
                    let p = b.piece_at(sq);
                    check!(
                        ctx,
                        p.is_some(),
                        "the ball is carried on the empty square {sq}"
                    );
                    check!(
                        ctx,
                        p.is_some_and(|p| p.side == g.possession()),
                        "the carrier on {sq} is not of the team in possession ({})",
                        g.possession()
                    );
                    check!(
                        ctx,
                        !sq.file().is_sideline(),
                        "the carrier is out of bounds on {sq}"
                    );
                    check!(
                        ctx,
                        sq.rank() != g.possession().goal(),
                        "a carrier in the end zone it attacks: {sq}"
                    );
                }
                Ball::Loose(sq) => check!(
                    ctx,
                    b.piece_at(sq).is_none(),
                    "a loose ball under a piece on {sq}"
                ),
                Ball::InFlight(t) => {
                    check!(
                        ctx,
                        t.side == g.possession(),
                        "a pass of {} with {} in possession",
                        t.side,
                        g.possession()
                    );
                    let receiver = b.piece_at(t.to);
                    if t.direct {
                        check!(
                            ctx,
                            receiver.is_some_and(|p| p.side == t.side),
                            "no receiver on {}",
                            t.to
                        );
                    } else {
                        check!(
                            ctx,
                            receiver.is_none(),
                            "an indirect pass onto the piece on {}",
                            t.to
                        );
                    }
                    check!(
                        ctx,
                        !(t.direct && t.defense_done),
                        "a direct pass waiting for the offense"
                    );
                }
                other => ctx.fail(format!("ball {other:?} in the action phase")),
            }
        }
        Phase::Contention(_) => {
            check_formed(g, ctx);
            check!(
                ctx,
                g.play_turns() < MAX_PLAY_TURNS,
                "{} turns in a play",
                g.play_turns()
            );
            match ball {
                Ball::Contested(sq) => {
                    check!(
                        ctx,
                        b.piece_at(sq).is_some(),
                        "a contested ball on the empty square {sq}"
                    );
                    check!(
                        ctx,
                        !matches!(b.pile_square(), Some(p) if p != sq),
                        "the pile is on {:?}, the ball on {sq}",
                        b.pile_square()
                    );
                }
                other => ctx.fail(format!("ball {other:?} in contention")),
            }
        }
        Phase::PenaltyChoice(side) => {
            let flags = g.flags();
            check!(ctx, !flags.is_empty(), "a penalty choice without flags");
            check!(
                ctx,
                flags.iter().all(|f| f.side == side.other()),
                "{side} decides on its own flags {flags:?}"
            );
            check!(
                ctx,
                flags.iter().all(|f| !f.kind.is_pre_snap()),
                "a pre-snap flag left for a choice {flags:?}"
            );
        }
        Phase::GameOver => {}
    }
}

/// After two legal formations: seven pieces a side, two pawns or more, no defensive king.
fn check_formed(g: &Game, ctx: &Ctx) {
    let b = g.board();
    for side in Side::ALL {
        check!(
            ctx,
            count_side(g, side) == 7,
            "{side} has {} pieces on the field",
            count_side(g, side)
        );
        check!(
            ctx,
            b.count(side, Role::Pawn) >= 2,
            "{side} has fewer than 2 pawns"
        );
    }
    check!(
        ctx,
        b.count(g.defense(), Role::King) == 0,
        "a defensive king"
    );
}

/// What the events of one action say, and the state change that must match them.
/// `action` is `None` for a clock the referee reported.
fn check_transition(
    before: &Game,
    action: Option<&Action>,
    events: &[Event],
    after: &Game,
    ctx: &Ctx,
) {
    let count = |f: &dyn Fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
    // Scores change by touchdowns (+7) and safeties (+2) only.
    for side in Side::ALL {
        let tds = count(&|e| *e == Event::Touchdown { side });
        let safeties = count(&|e| *e == Event::Safety { side });
        let want = before.score(side) + 7 * tds as u16 + 2 * safeties as u16;
        check!(
            ctx,
            after.score(side) == want,
            "{side} score {} -> {} with {tds} touchdown(s) and {safeties} safety(ies)",
            before.score(side),
            after.score(side)
        );
    }
    // Quarters and the plays counted in them.
    let period_ends: Vec<u8> = events
        .iter()
        .filter_map(|e| match e {
            Event::PeriodEnd { quarter } => Some(*quarter),
            _ => None,
        })
        .collect();
    let next_plays = count(&|e| matches!(e, Event::NextPlay { .. }));
    check!(
        ctx,
        period_ends.len() <= 1,
        "{} period ends in one action",
        period_ends.len()
    );
    check!(
        ctx,
        next_plays <= 1,
        "{next_plays} next plays in one action"
    );
    check!(
        ctx,
        after.quarter() >= before.quarter(),
        "the quarter went back"
    );
    match period_ends.first() {
        Some(&q) => {
            check!(
                ctx,
                q == before.quarter(),
                "end of quarter {q} during quarter {}",
                before.quarter()
            );
            check!(
                ctx,
                after.plays_in_quarter() == 0,
                "{} plays after a period end",
                after.plays_in_quarter()
            );
            if q == 4 {
                check!(
                    ctx,
                    after.is_over(),
                    "the fourth quarter ended but the game goes on"
                );
            } else {
                check!(
                    ctx,
                    after.quarter() == q + 1,
                    "quarter {q} ended, now quarter {}",
                    after.quarter()
                );
            }
        }
        None => {
            check!(
                ctx,
                after.quarter() == before.quarter(),
                "the quarter changed without a period end"
            );
            // R44: a dead-ball foul counts only when it costs a down or awards a score.
            let dead_ball = events
                .iter()
                .any(|e| matches!(e, Event::Flag(f) if f.kind.is_pre_snap()));
            let lost_down = count(&|e| matches!(e, Event::TurnoverOnDowns { .. })) > 0
                || (after.offense() == before.offense() && after.down() == before.down() + 1);
            let awarded = count(&|e| matches!(e, Event::ScoreAwarded { .. })) > 0;
            let counted = if dead_ball && !lost_down && !awarded {
                0
            } else {
                next_plays as u16
            };
            check!(
                ctx,
                after.plays_in_quarter() == before.plays_in_quarter() + counted,
                "plays {} -> {} with {next_plays} play(s) over",
                before.plays_in_quarter(),
                after.plays_in_quarter()
            );
        }
    }
    for e in events {
        if let Event::NextPlay {
            offense,
            down,
            spot,
            to_gain,
        } = *e
        {
            let state = (
                after.offense(),
                after.down(),
                after.spot(),
                after.line_to_gain().number(),
            );
            check!(
                ctx,
                (offense, down, spot, to_gain) == state,
                "{e} but the game has {state:?}"
            );
        }
    }
    // The end of the game.
    let over: Vec<GameResult> = events
        .iter()
        .filter_map(|e| match e {
            Event::GameOver { result } => Some(*result),
            _ => None,
        })
        .collect();
    check!(
        ctx,
        !before.is_over(),
        "an action was applied after the game ended"
    );
    match over.as_slice() {
        [] => check!(
            ctx,
            !after.is_over(),
            "the game ended without a GameOver event"
        ),
        [r] => check!(
            ctx,
            after.result() == Some(*r),
            "GameOver {r:?} but the result is {:?}",
            after.result()
        ),
        _ => ctx.fail("two GameOver events".into()),
    }
    // Possession changes only with an event.
    let last_change = events.iter().rev().find_map(|e| match e {
        Event::PossessionChanged { side } => Some(*side),
        _ => None,
    });
    match last_change {
        Some(side) => check!(
            ctx,
            after.offense() == side,
            "possession changed to {side}, offense is {}",
            after.offense()
        ),
        None => check!(
            ctx,
            after.offense() == before.offense(),
            "the offense changed without an event"
        ),
    }
    // Downs go up by one, or start again at one.
    let (d0, d1) = (before.down(), after.down());
    check!(
        ctx,
        d1 == 1 || d1 == d0 || d1 == d0 + 1,
        "down {d0} -> {d1}"
    );
    // Timeouts: one fewer per timeout called or charged (R71), three again at halftime.
    for side in Side::ALL {
        let used = count(&|e| {
            matches!(e, Event::Timeout { side: s, .. } | Event::TimeoutCharged { side: s, .. }
                if *s == side)
        }) as u8;
        let want = if period_ends == [2] {
            3
        } else {
            before.timeouts(side) - used
        };
        check!(
            ctx,
            after.timeouts(side) == want,
            "{side} timeouts {} -> {}",
            before.timeouts(side),
            after.timeouts(side)
        );
    }
    // Flags: pre-snap kinds before the snap, post-snap kinds after it.
    let after_snap = matches!(before.phase(), Phase::Action(_) | Phase::Contention(_));
    for e in events {
        if let Event::Flag(f) = e {
            check!(
                ctx,
                f.kind.is_pre_snap() != after_snap,
                "{e} in the phase {:?}",
                before.phase()
            );
        }
    }
    // Penalties move the ball against the fouling team.
    let same_drive = period_ends.is_empty() && after.offense() == before.offense();
    for e in events {
        let Event::PenaltyEnforced(f) = *e else {
            continue;
        };
        if !same_drive {
            continue;
        }
        let offense = before.offense();
        let gain = offense.gain(before.spot().rank(), after.spot().rank());
        let by_offense = f.side == offense;
        if f.kind.is_pre_snap() {
            // R57: 5 yards or half the distance; R58: the run of fouls escalates.
            let toward = if by_offense {
                offense.own_end_zone()
            } else {
                offense.goal()
            };
            let rank = Game::penalty_rank(before.spot().rank(), 1, toward);
            let stuck = rank == before.spot().rank();
            let want = offense.gain(before.spot().rank(), rank);
            check!(
                ctx,
                gain == want,
                "{e} moved the spot {gain} rank(s), not {want}"
            );
            let n = before.fouls_in_row(f.side) + 1;
            if by_offense {
                let want_down = if stuck || n >= 2 {
                    before.down() + 1
                } else {
                    before.down()
                };
                check!(
                    ctx,
                    after.down() == want_down,
                    "{e} (foul {n} in a row) left down {}, not {want_down}",
                    after.down()
                );
            } else {
                let reached = offense.gain(before.line_to_gain(), rank) >= 0;
                if stuck || n >= 2 || reached {
                    check!(
                        ctx,
                        after.down() == 1,
                        "{e} (foul {n} in a row) without a first down"
                    );
                } else {
                    check!(ctx, after.down() == before.down(), "{e} changed the down");
                }
            }
        } else if f.kind == FoulKind::IllegalForwardPass {
            // Enforced from the thrower's square, which may be anywhere: after an
            // interception, accepting the intercepting team's foul can even put the snapping
            // team behind its previous spot (seed 2, step 109 of the 4-play-quarter run).
        } else if by_offense {
            check!(
                ctx,
                gain <= 0,
                "{e} moved the offense forward {gain} rank(s)"
            );
        } else {
            check!(ctx, gain >= 0, "{e} moved the offense back {gain} rank(s)");
            let automatic = matches!(
                f.kind,
                FoulKind::Holding | FoulKind::IllegalContact | FoulKind::PassInterference
            );
            if automatic {
                check!(
                    ctx,
                    after.down() == 1,
                    "{e} without an automatic first down"
                );
            }
        }
    }
    // In the action phase the teams alternate, one turn at a time (R13 counts them).
    let play_over = next_plays > 0
        || !period_ends.is_empty()
        || events.iter().any(|e| matches!(e, Event::PlayOver { .. }));
    let turn = matches!(
        action,
        Some(Action::Move { .. } | Action::Throw { .. } | Action::Pass)
    );
    if let (Phase::Action(mover), Phase::Action(next) | Phase::Contention(next), false, true) =
        (before.phase(), after.phase(), play_over, turn)
    {
        check!(
            ctx,
            next == mover.other(),
            "{mover} moved and {next} is to decide"
        );
        check!(
            ctx,
            after.play_turns() == before.play_turns() + 1,
            "turns {} -> {}",
            before.play_turns(),
            after.play_turns()
        );
    }
    // How plays end (only within a quarter: halftime hands the ball to Black).
    if period_ends.is_empty() {
        let offense = before.offense();
        for e in events {
            match *e {
                Event::Safety { side } => {
                    check!(
                        ctx,
                        side == offense.other(),
                        "a safety for the team that snapped"
                    );
                    check!(
                        ctx,
                        after.offense() == side,
                        "after a safety the scorer gets the ball (R14)"
                    );
                }
                Event::Touchdown { side } => {
                    check!(
                        ctx,
                        after.offense() == side.other(),
                        "after a touchdown the other team gets the ball"
                    );
                }
                Event::Snap { from, to } => {
                    check!(
                        ctx,
                        from == before.spot() && Some(to) == before.snap_receiver(),
                        "{e}"
                    );
                    check!(
                        ctx,
                        after.ball() == Ball::Carried(to),
                        "{e} but the ball is {:?}",
                        after.ball()
                    );
                }
                _ => {}
            }
        }
        if after.offense() != offense {
            // R37: every change of possession starts the new offense at its own 20.
            let start = zebra::rules::game::drive_start(after.offense());
            // R59: an accepted foul after a change of possession moves that start.
            let enforced = events
                .iter()
                .any(|e| matches!(e, Event::PenaltyEnforced(_)));
            let at_start =
                after.spot() == start || (enforced && after.spot().file() == start.file());
            check!(
                ctx,
                at_start && after.down() == 1,
                "a new drive at {}, down {}",
                after.spot(),
                after.down()
            );
        } else if next_plays > 0 {
            if events.contains(&Event::OffsettingPenalties) {
                check!(
                    ctx,
                    (after.spot(), after.down()) == (before.spot(), before.down()),
                    "offsetting penalties replay the down"
                );
            }
            if events.contains(&Event::Incomplete) {
                check!(
                    ctx,
                    after.spot() == before.spot(),
                    "an incomplete pass moved the spot"
                );
                check!(
                    ctx,
                    after.down() == before.down() + 1,
                    "an incomplete pass did not use the down"
                );
            }
        }
        if next_plays > 0 && !after.is_over() {
            check!(
                ctx,
                after.phase() == Phase::Formation(after.offense()),
                "a new play starts in {:?}",
                after.phase()
            );
            let ahead = after.spot().rank().offset(2 * after.offense().forward());
            let want = match ahead {
                Some(r) if r != after.offense().goal() => r,
                _ => after.offense().goal(),
            };
            // A first down (R38) sets the line two ranks ahead, or at the goal line.
            if events.iter().any(|e| matches!(e, Event::FirstDown { .. })) {
                check!(
                    ctx,
                    after.down() == 1,
                    "a first down, down {}",
                    after.down()
                );
                check!(
                    ctx,
                    after.line_to_gain() == want,
                    "a first down with the line at {}",
                    after.line_to_gain()
                );
            }
        }
    }
    // Pre-snap fouls are the ones the engine predicts.
    let first_flag = events.iter().find_map(|e| match e {
        Event::Flag(f) => Some(f.kind),
        _ => None,
    });
    let Some(action) = action else { return };
    if matches!(before.phase(), Phase::Motion | Phase::Reaction) && *action != Action::Timeout {
        check!(
            ctx,
            first_flag == before.presnap_foul(action),
            "flag {first_flag:?} where presnap_foul says {:?}",
            before.presnap_foul(action)
        );
    }
    if let (Phase::Formation(side), Action::Formation(f)) = (before.phase(), action) {
        let want = match before.validate_formation(f) {
            Ok(()) => None,
            Err(FormationCheck::Fault(fault)) => Some(fault.foul()),
            Err(FormationCheck::Unplaceable(e)) => ctx.fail(format!(
                "apply placed a formation that validate_formation calls unplaceable: {e}"
            )),
        };
        check!(
            ctx,
            first_flag == want,
            "{side} formation {f}: flag {first_flag:?}, validation says {want:?}"
        );
        if want.is_none() {
            check!(
                ctx,
                count_side(after, side) == 7,
                "a legal formation of {} pieces",
                count_side(after, side)
            );
        }
    }
}

/// Whether `apply` should accept `a`, judged by the legal list. A knight's route may be left
/// out when only one route is legal, and may be named when both routes give the same move;
/// a route named for any other piece is rejected (R26).
fn listed(game: &Game, list: &[Action], a: &Action) -> bool {
    if list.contains(a) {
        return true;
    }
    let Action::Move { from, to, route } = *a else {
        return false;
    };
    let is_knight = game
        .board()
        .piece_at(from)
        .is_some_and(|p| p.role == Role::Knight);
    let plain = Action::Move {
        from,
        to,
        route: None,
    };
    match (route, is_knight) {
        (Some(_), true) => list.contains(&plain),
        (Some(_), false) => false,
        (None, true) => {
            let routes = list
                .iter()
                .filter(|x| matches!(x, Action::Move { from: f, to: t, route: Some(_) } if (*f, *t) == (from, to)))
                .count();
            routes == 1
        }
        (None, false) => false,
    }
}

fn random_square(rng: &mut ChaCha8Rng) -> Square {
    Square::from_index(rng.gen_range(0..64)).unwrap()
}

/// Random actions of the shapes the phase takes, mostly with the deciding team's pieces.
fn random_actions(game: &Game, rng: &mut ChaCha8Rng, n: usize) -> Vec<Action> {
    let own: Vec<Square> = game
        .to_move()
        .map(|s| game.board().side(s).collect())
        .unwrap_or_default();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let from = match own.choose(rng) {
            Some(&sq) if rng.gen_bool(0.8) => sq,
            _ => random_square(rng),
        };
        let to = random_square(rng);
        let route = [
            None,
            Some(KnightRoute::FileFirst),
            Some(KnightRoute::RankFirst),
        ][rng.gen_range(0..3)];
        out.push(match (game.phase(), rng.gen_range(0..4)) {
            (Phase::Motion | Phase::Reaction, 0) => Action::Enter {
                role: Role::ALL[rng.gen_range(0..6)],
                to,
            },
            (Phase::Motion | Phase::Reaction, 1) => Action::Exit { from },
            (Phase::Motion | Phase::Reaction, _) => Action::Motion { from, to },
            (Phase::PenaltyChoice(_), _) => {
                Action::Accept(FoulKind::ALL[rng.gen_range(0..FoulKind::ALL.len())])
            }
            (_, 0) => Action::Throw { from, to },
            _ => Action::Move { from, to, route },
        });
    }
    out
}

/// Actions that are never right in the current phase.
fn wrong_phase_actions(game: &Game) -> Vec<Action> {
    let (a, b) = (
        Square::from_index(0).unwrap(),
        Square::from_index(9).unwrap(),
    );
    let mv = Action::Move {
        from: a,
        to: b,
        route: None,
    };
    let formation = Action::Formation(Formation::empty());
    match game.phase() {
        Phase::Formation(_) => vec![
            Action::Snap,
            Action::Pass,
            mv,
            Action::Decline,
            Action::Accept(FoulKind::Holding),
        ],
        Phase::Motion => vec![
            Action::Pass,
            mv,
            formation,
            Action::Decline,
            Action::Throw { from: a, to: b },
        ],
        Phase::Reaction => vec![Action::Snap, mv, formation, Action::Decline],
        Phase::Action(_) => vec![
            Action::Snap,
            Action::Timeout,
            formation,
            Action::Decline,
            Action::Accept(FoulKind::Holding),
            Action::Motion { from: a, to: b },
            Action::Enter {
                role: Role::Pawn,
                to: b,
            },
            Action::Exit { from: a },
        ],
        Phase::Contention(_) => vec![
            Action::Snap,
            Action::Timeout,
            formation,
            Action::Decline,
            Action::Throw { from: a, to: b },
        ],
        Phase::PenaltyChoice(_) => vec![Action::Snap, Action::Pass, mv, formation, Action::Timeout],
        Phase::GameOver => vec![
            Action::Snap,
            Action::Pass,
            mv,
            formation,
            Action::Timeout,
            Action::Decline,
        ],
    }
}

/// How a property run plays its games.
#[derive(Clone, Copy)]
struct Run {
    settings: Settings,
    /// Apply every listed action on a clone every this many steps.
    all_listed_every: usize,
    /// Try random and wrong-phase actions every this many steps.
    illegal_every: usize,
    faulty_formation_rate: f64,
    /// Timed games: the chance per step that the referee reports a random clock.
    clock_rate: f64,
}

impl Run {
    const fn new(settings: Settings) -> Run {
        Run {
            settings,
            all_listed_every: 50,
            illegal_every: 10,
            faulty_formation_rate: 0.02,
            clock_rate: 0.0,
        }
    }
}

/// What a checked game did.
#[derive(Debug, PartialEq)]
struct Log {
    actions: Vec<Action>,
    events: Vec<Event>,
    diagram: String,
    result: Option<GameResult>,
}

/// Applies `action` to a clone and checks it is accepted and sound.
fn apply_checked(game: &Game, action: &Action, seed: u64, step: usize) -> Game {
    let mut next = game.clone();
    let ctx = Ctx {
        seed,
        step,
        action: Some(*action),
        clock: None,
        before: game,
        after: None,
    };
    let events = match next.apply(action) {
        Ok(ev) => ev,
        Err(e) => ctx.fail(format!("a legal action was rejected: {e}")),
    };
    let ctx = Ctx {
        after: Some(&next),
        ..ctx
    };
    check_transition(game, Some(action), &events, &next, &ctx);
    check_state(&next, &ctx);
    next
}

/// Tries actions `apply` must refuse (or accept, exactly when listed), each on a clone.
fn probe(game: &Game, rng: &mut ChaCha8Rng, seed: u64, step: usize) {
    let list = game.legal_action_list();
    let diagram = game.to_diagram();
    let flags = game.flags().to_vec();
    let mut tries = random_actions(game, rng, 12);
    tries.extend(wrong_phase_actions(game));
    if matches!(game.phase(), Phase::Action(_)) {
        tries.push(Action::Pass);
    }
    let mut diagram_compared = false;
    for a in &tries {
        let mut next = game.clone();
        let ctx = Ctx {
            seed,
            step,
            action: Some(*a),
            clock: None,
            before: game,
            after: None,
        };
        let formation_phase = matches!(game.phase(), Phase::Formation(_));
        // `apply_into` says and does what `apply` does, whatever its list held before.
        let mut into = game.clone();
        let mut written = Events::new();
        written.push(Event::Passed { side: Side::White });
        let into_result = into.apply_into(a, &mut written);
        match next.apply(a) {
            Ok(events) => {
                let ctx = Ctx {
                    after: Some(&next),
                    ..ctx
                };
                check!(
                    ctx,
                    into_result.is_ok() && written == events && into == next,
                    "apply_into differs from apply: {into_result:?} {written:?}"
                );
                check!(
                    ctx,
                    formation_phase || listed(game, &list, a),
                    "an unlisted action was accepted"
                );
                check_transition(game, Some(a), &events, &next, &ctx);
                check_state(&next, &ctx);
            }
            Err(e) => {
                check!(
                    ctx,
                    next == *game,
                    "a rejected action changed the game ({e})"
                );
                check!(
                    ctx,
                    into_result == Err(e.clone()) && written.is_empty() && into == *game,
                    "apply_into differs from apply: {into_result:?} {written:?}"
                );
                check!(
                    ctx,
                    next.flags() == flags,
                    "a rejected action changed the flags ({e})"
                );
                // Implied by the equality above; spelled out once per probe (to_diagram is slow).
                if !diagram_compared {
                    diagram_compared = true;
                    check!(
                        ctx,
                        next.to_diagram() == diagram,
                        "a rejected action changed the diagram ({e})"
                    );
                }
                check!(
                    ctx,
                    !listed(game, &list, a),
                    "a listed action was rejected: {e}"
                );
                if game.is_over() {
                    check!(ctx, e == ActionError::GameOver, "after the game: {e:?}");
                }
            }
        }
    }
    for a in &wrong_phase_actions(game) {
        let mut next = game.clone();
        let ctx = Ctx {
            seed,
            step,
            action: Some(*a),
            clock: None,
            before: game,
            after: None,
        };
        match next.apply(a) {
            Ok(_) => ctx.fail("a wrong-phase action was accepted".into()),
            Err(ActionError::NotNow { .. } | ActionError::GameOver) => {}
            Err(e) => ctx.fail(format!("a wrong-phase action gave {e:?}, not NotNow")),
        }
    }
}

/// Plays one seeded random game, checking everything after every action.
fn play_checked(seed: u64, run: Run) -> Log {
    let mut game = Game::new(run.settings);
    let mut player = RandomPlayer::new(seed);
    player.faulty_formation_rate = run.faulty_formation_rate;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_cafe);
    let mut list = ActionList::new();
    let mut log = Log {
        actions: Vec::new(),
        events: Vec::new(),
        diagram: String::new(),
        result: None,
    };
    check_state(
        &game,
        &Ctx {
            seed,
            step: 0,
            action: None,
            clock: None,
            before: &game,
            after: None,
        },
    );
    let mut step = 0;
    loop {
        if step >= MAX_GAME_ACTIONS {
            panic!(
                "seed {seed}: no result after {step} actions\n{}",
                game.to_diagram()
            );
        }
        if step % run.all_listed_every == 0 {
            for a in game.legal_action_list() {
                apply_checked(&game, &a, seed, step);
            }
        }
        if step % run.illegal_every == 0 {
            probe(&game, &mut rng, seed, step);
        }
        if run.clock_rate > 0.0 && !game.is_over() && rng.gen_bool(run.clock_rate) {
            let clock = [Clock::Play, Clock::Reaction, Clock::Game][rng.gen_range(0..3)];
            let mut next = game.clone();
            let ctx = Ctx {
                seed,
                step,
                action: None,
                clock: Some(clock),
                before: &game,
                after: None,
            };
            match next.expire(clock) {
                Ok(events) => {
                    let ctx = Ctx {
                        after: Some(&next),
                        ..ctx
                    };
                    check_transition(&game, None, &events, &next, &ctx);
                    check_state(&next, &ctx);
                    log.events.extend(events);
                    game = next;
                    step += 1;
                    continue;
                }
                Err(e) => check!(ctx, next == game, "a refused clock changed the game ({e})"),
            }
        }
        let Some(action) = player.choose(&game, &mut list) else {
            break;
        };
        let mut next = game.clone();
        let ctx = Ctx {
            seed,
            step,
            action: Some(action),
            clock: None,
            before: &game,
            after: None,
        };
        let events = match next.apply(&action) {
            Ok(ev) => ev,
            Err(e) => ctx.fail(format!("the random player's action was rejected: {e}")),
        };
        let ctx = Ctx {
            after: Some(&next),
            ..ctx
        };
        check_transition(&game, Some(&action), &events, &next, &ctx);
        check_state(&next, &ctx);
        log.actions.push(action);
        log.events.extend(events);
        game = next;
        step += 1;
    }
    let ctx = Ctx {
        seed,
        step,
        action: None,
        clock: None,
        before: &game,
        after: None,
    };
    check!(
        ctx,
        game.is_over() && game.result().is_some(),
        "the player stopped before the end"
    );
    // Once over, everything is refused.
    probe(&game, &mut rng, seed, step);
    log.diagram = game.to_diagram();
    log.result = game.result();
    log
}

/// Plays the seeds and reports how the games ended (to show the runs reach every ending).
fn play_many(seeds: std::ops::Range<u64>, run: Run) -> Vec<Log> {
    seeds.map(|seed| play_checked(seed, run)).collect()
}

fn assert_variety(logs: &[Log]) {
    let has = |f: &dyn Fn(&Event) -> bool| logs.iter().any(|l| l.events.iter().any(f));
    assert!(
        has(&|e| matches!(e, Event::Touchdown { .. })),
        "no touchdown"
    );
    assert!(
        has(&|e| matches!(e, Event::PeriodEnd { quarter: 4 })),
        "no game end"
    );
    assert!(has(&|e| matches!(e, Event::Flag(_))), "no flag");
    assert!(
        has(&|e| matches!(e, Event::Intercepted { .. })),
        "no interception"
    );
    assert!(
        has(&|e| matches!(e, Event::TurnoverOnDowns { .. })),
        "no turnover on downs"
    );
    let results: std::collections::HashSet<_> = logs.iter().map(|l| l.result).collect();
    assert!(results.len() >= 2, "every game ended the same: {results:?}");
}

#[test]
fn invariants_hold_in_2000_games_of_4_play_quarters() {
    let logs = play_many(0..2000, Run::new(Settings::plays(4)));
    assert_variety(&logs);
}

#[test]
fn invariants_hold_in_2000_games_of_1_play_quarters() {
    let logs = play_many(100_000..102_000, Run::new(Settings::plays(1)));
    assert!(logs.iter().all(|l| l.result.is_some()));
}

#[test]
fn invariants_hold_in_longer_games() {
    let run = Run {
        all_listed_every: 100,
        illegal_every: 20,
        ..Run::new(Settings::plays(15))
    };
    let logs = play_many(200_000..200_150, run);
    assert_variety(&logs);
}

#[test]
fn invariants_hold_with_many_faulty_formations() {
    let run = Run {
        faulty_formation_rate: 0.3,
        ..Run::new(Settings::plays(4))
    };
    let logs = play_many(300_000..300_500, run);
    assert!(logs.iter().any(|l| l
        .events
        .iter()
        .any(|e| matches!(e, Event::Flag(f) if f.kind == FoulKind::TooManyMen))));
}

#[test]
fn invariants_hold_in_timed_games_with_expiring_clocks() {
    let run = Run {
        clock_rate: 0.01,
        ..Run::new(Settings::timed())
    };
    let logs = play_many(400_000..400_300, run);
    assert!(logs.iter().any(|l| l
        .events
        .iter()
        .any(|e| matches!(e, Event::MissedTurn { .. }))));
    assert!(logs.iter().any(|l| l
        .events
        .iter()
        .any(|e| matches!(e, Event::Flag(f) if f.kind == FoulKind::DelayOfGame))));
}

/// Every action of the phase's shapes (all routes, all squares) for the pieces of the team
/// to decide.
fn all_shaped_actions(game: &Game) -> Vec<Action> {
    let Some(side) = game.to_move() else {
        return Vec::new();
    };
    let own: Vec<Square> = game.board().side(side).collect();
    let mut out = Vec::new();
    match game.phase() {
        Phase::Action(_) | Phase::Contention(_) => {
            for &from in &own {
                for to in Square::all() {
                    out.push(Action::Throw { from, to });
                    for route in [
                        None,
                        Some(KnightRoute::FileFirst),
                        Some(KnightRoute::RankFirst),
                    ] {
                        out.push(Action::Move { from, to, route });
                    }
                }
            }
            out.push(Action::Pass);
        }
        Phase::Motion | Phase::Reaction => {
            for sq in Square::all() {
                out.push(Action::Exit { from: sq });
                for role in Role::ALL {
                    out.push(Action::Enter { role, to: sq });
                }
                for &from in &own {
                    out.push(Action::Motion { from, to: sq });
                }
            }
            out.push(Action::Snap);
            out.push(Action::Pass);
            out.push(Action::Timeout);
        }
        Phase::PenaltyChoice(_) => {
            out.extend(FoulKind::ALL.map(Action::Accept));
            out.push(Action::Decline);
        }
        Phase::Formation(_) | Phase::GameOver => {}
    }
    out
}

/// The generator and `apply` agree on every action of every shape, not just on a sample:
/// `apply` accepts exactly the listed actions (up to knight routes, see `listed`).
#[test]
fn apply_accepts_exactly_the_listed_actions() {
    let mut list = ActionList::new();
    let mut compared = 0u64;
    for seed in 500_000..500_200 {
        let mut game = Game::new(Settings::plays(4));
        let mut player = RandomPlayer::new(seed);
        let mut step = 0;
        while let Some(action) = player.choose(&game, &mut list) {
            if step % 7 == 0 {
                let legal = game.legal_action_list();
                let mut seen = std::collections::HashSet::new();
                for a in &legal {
                    assert!(
                        seen.insert(*a),
                        "seed {seed}, step {step}: '{a}' listed twice\n{}",
                        game.to_diagram()
                    );
                }
                for a in all_shaped_actions(&game) {
                    let accepted = game.clone().apply(&a);
                    compared += 1;
                    if accepted.is_ok() != listed(&game, &legal, &a) {
                        panic!(
                            "seed {seed}, step {step}: '{a}' is {} but apply gives {accepted:?}\n{}",
                            if listed(&game, &legal, &a) { "listed" } else { "not listed" },
                            game.to_diagram()
                        );
                    }
                }
            }
            game.apply(&action).unwrap();
            step += 1;
        }
    }
    assert!(compared > 1_000_000, "{compared}");
}

/// Plays a game without checks: the actions and events of a seed.
fn replay(seed: u64, settings: Settings) -> Log {
    let mut actions = Vec::new();
    let mut events = Vec::new();
    let mut game = Game::new(settings);
    let mut player = RandomPlayer::new(seed);
    let mut list = ActionList::new();
    while let Some(a) = player.choose(&game, &mut list) {
        events.extend(game.apply(&a).unwrap());
        actions.push(a);
        assert!(actions.len() < MAX_GAME_ACTIONS, "seed {seed} does not end");
    }
    Log {
        actions,
        events,
        diagram: game.to_diagram(),
        result: game.result(),
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let settings = Settings::plays(4);
    let mut finals = std::collections::HashSet::new();
    for seed in 0..300 {
        let a = replay(seed, settings);
        let b = replay(seed, settings);
        assert_eq!(a, b, "seed {seed} played two different games");
        // The library's own driver makes the same choices.
        let mut visited = Vec::new();
        let g = play_random_game(Game::new(settings), seed, |_, act| visited.push(*act));
        assert_eq!(
            visited, a.actions,
            "seed {seed}: play_random_game chose differently"
        );
        assert_eq!(
            g.to_diagram(),
            a.diagram,
            "seed {seed}: play_random_game ended elsewhere"
        );
        finals.insert(a.actions);
    }
    assert!(
        finals.len() > 290,
        "different seeds should play different games"
    );
    // The checked run (which also probes clones) does not disturb the game either.
    for seed in 0..50 {
        let checked = play_checked(seed, Run::new(settings));
        let plain = replay(seed, settings);
        assert_eq!(checked, plain, "seed {seed}: checking changed the game");
    }
}

/// Suspected rules gap, found while checking penalty enforcement (seed 2, step 109 of the
/// 4-play-quarter run): after Black intercepts, Black's own forward pass (an illegal forward
/// pass, R34) falls incomplete, and declining the flag hands White its ball back, second
/// down at the previous spot, as if White's pass had fallen incomplete. The interception is
/// lost, against R10 (the play goes on with the new carrier) and R37 (every change of
/// possession starts the new offense at its own 20).
#[test]
fn an_incomplete_pass_after_an_interception_keeps_the_change_of_possession() {
    let mut game = Game::from_diagram(
        "offense: white
phase: action
turn: black
spot: e4
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . q* . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . K . . . . . .
",
    )
    .unwrap();
    assert_eq!(game.possession(), Side::Black);
    // Black throws forward to an empty square; nobody reaches it; White declines the flag.
    for a in ["e5^e3", "b1b2", "e5e6", "decline"] {
        game.apply(&a.parse().unwrap()).unwrap();
    }
    assert_eq!(game.offense(), Side::Black, "\n{}", game.to_diagram());
}

/// How an adversarial team fouls (R57, R58: fouling must never stall a game).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fouler {
    /// Plays like the random player.
    No,
    /// Commits a dead-ball foul at its first chance: every formation of this team is short
    /// of a piece (illegal formation), so it never snaps and never lets the other team react.
    Always,
    /// Forms legally, then fouls at every motion or reaction decision: a false start, an
    /// offsides or encroachment reaction, or a substitution (all listed as legal, R23).
    Late,
}

/// A bound on the actions of any game with quarters of `n` plays, whatever the teams do
/// before the snap (the argument is in protocol/RULES.md, edition 2):
/// - counted plays per quarter: `n`, plus at most 9 untimed downs (R62: each needs an
///   enforced defensive foul, and a defense's run of fouls ends in an awarded touchdown
///   after at most 6 moving fouls and 1 more at its 1-yard line, R58);
/// - between two counted plays at most 8 dead-ball fouls that do not count (the offense's
///   first foul of a run, and the defense's fouls before the award), so at most 9 formation
///   cycles, each at most 15 actions (2 formations, 6 motions, 6 reactions, the snap);
/// - a snapped play at most 64 turns (R13) and 1 penalty choice;
/// - at most 12 timeouts a game, each restarting one formation cycle.
fn action_bound(n: u16) -> usize {
    let plays = 4 * (n as usize + 9);
    plays * (9 * 15 + 64 + 1) + 12 * 15
}

/// A legal formation minus one piece: placeable, and an illegal formation (a dead-ball foul).
fn short_formation(player: &mut RandomPlayer, game: &Game, side: Side) -> Action {
    let legal = player.formation(game, side);
    let mut short = Formation::empty();
    for (role, sq) in legal.iter().skip(1) {
        short.place(role, sq).expect("placeable");
    }
    Action::Formation(short)
}

/// A listed motion or reaction that draws a pre-snap flag (R23), chosen at random.
fn presnap_foul(game: &Game, list: &mut ActionList, rng: &mut ChaCha8Rng) -> Option<Action> {
    game.legal_actions(list);
    let fouls: Vec<Action> = list
        .iter()
        .copied()
        .filter(|a| game.presnap_foul(a).is_some())
        .collect();
    fouls.choose(rng).copied()
}

/// Plays one game in which `foulers` decide how each team fouls; every transition is checked.
fn play_fouling(start: Game, seed: u64, foulers: [Fouler; 2]) -> (usize, Game) {
    let mut game = start;
    let mut player = RandomPlayer::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xf0_0f);
    let mut list = ActionList::new();
    let bound = match game.settings().quarter {
        QuarterLength::Plays(n) => action_bound(n),
        QuarterLength::Timed => unreachable!("play-count games only"),
    };
    let mut steps = 0;
    while let Some(decision) = game.decision() {
        assert!(
            steps <= bound,
            "seed {seed} {foulers:?}: {steps} actions, over the bound {bound}\n{}",
            game.to_diagram()
        );
        let fouler = foulers[decision.side.index()];
        let action = match (fouler, game.phase()) {
            (Fouler::Always, Phase::Formation(side)) => short_formation(&mut player, &game, side),
            (Fouler::Late, Phase::Motion | Phase::Reaction) => {
                presnap_foul(&game, &mut list, &mut rng).expect("a foul is always available")
            }
            _ => player.choose(&game, &mut list).expect("a decision to make"),
        };
        game = apply_checked(&game, &action, seed, steps);
        steps += 1;
    }
    (steps, game)
}

#[test]
fn fouling_never_stalls_a_game_from_any_spot() {
    use Fouler::*;
    let kinds = [
        [Always, No],
        [No, Always],
        [Late, No],
        [No, Late],
        [Always, Always],
        [Late, Late],
        [Always, Late],
        [Late, Always],
    ];
    let mut longest = 0;
    let mut seed = 0u64;
    // Every spot rank (2..=7, the 1-yard lines included), both offenses, both halves, and
    // the last play of the game.
    for offense in ["white", "black"] {
        for rank in 2..=7u8 {
            for (quarter, plays) in [(1, 0), (4, 3)] {
                let rows: String = (1..=8u8)
                    .rev()
                    .map(|r| format!("{r} . . . . . . . .\n"))
                    .collect();
                let diagram = format!(
                    "offense: {offense}\nphase: formation\nspot: e{rank}\nquarter: {quarter}\n\
                     plays: {plays}\nquarter-length: 4\nscore: 0-3\n{rows}"
                );
                let start = Game::from_diagram(&diagram).expect("a valid start");
                for foulers in kinds {
                    for _ in 0..12 {
                        seed += 1;
                        let (steps, end) = play_fouling(start.clone(), seed, foulers);
                        assert!(end.is_over());
                        longest = longest.max(steps);
                        // A team that fouls at every chance never scores (R58: it never
                        // snaps, and its defense concedes).
                        for side in Side::ALL {
                            if foulers[side.index()] == Always {
                                assert_eq!(
                                    end.score(side),
                                    start.score(side),
                                    "seed {seed} {foulers:?}: the fouling {side} scored"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    let bound = action_bound(4);
    assert!(longest <= bound, "{longest} > {bound}");
    eprintln!("fouling games: {seed}, longest {longest} actions (bound {bound})");
}

/// The pre-snap list is drawn from by index in random playouts: the count and every index
/// must name exactly what `legal_actions` lists, in its order, and nothing past its end.
#[test]
fn presnap_actions_by_index_are_the_listed_actions() {
    let mut list = ActionList::new();
    let mut presnap_positions = 0;
    for seed in 0..300u64 {
        play_random_game(Game::new(Settings::plays(4)), seed, |game, _| {
            game.legal_actions(&mut list);
            match game.phase() {
                Phase::Motion | Phase::Reaction => {
                    presnap_positions += 1;
                    assert_eq!(
                        game.presnap_action_count(),
                        Some(list.len()),
                        "seed {seed}\n{}",
                        game.to_diagram()
                    );
                    for (i, listed) in list.iter().enumerate() {
                        assert_eq!(
                            game.presnap_action(i).as_ref(),
                            Some(listed),
                            "seed {seed}, index {i}"
                        );
                    }
                    assert_eq!(game.presnap_action(list.len()), None, "seed {seed}");
                }
                _ => {
                    assert_eq!(game.presnap_action_count(), None, "seed {seed}");
                    assert_eq!(game.presnap_action(0), None, "seed {seed}");
                }
            }
        });
    }
    assert!(
        presnap_positions > 10_000,
        "only {presnap_positions} pre-snap positions"
    );
}

/// Random playouts count the action phase's legal actions and list only the chosen piece's
/// moves: the count and every index must name exactly what `legal_actions` lists, in its
/// order, and nothing past its end. Checked at every position of seeded random games and of
/// the perft positions' trees (which reach handoffs, pushes and passes in flight that random
/// games meet rarely).
#[test]
fn tallied_actions_are_the_listed_actions() {
    let mut list = ActionList::new();
    let mut scratch = ActionList::new();
    let mut seen = TallySeen::default();
    let mut check = |game: &Game, origin: &str| {
        game.legal_actions(&mut list);
        let Some(tally) = game.tally_actions() else {
            assert!(
                !matches!(game.phase(), Phase::Action(_)) || game.board().pile_square().is_some(),
                "{origin}: no tally in the action phase\n{}",
                game.to_diagram()
            );
            return;
        };
        seen.note(game, &list);
        assert_eq!(
            tally.total(),
            list.len(),
            "{origin}: count\n{}\nlisted: {list:?}",
            game.to_diagram()
        );
        for (i, listed) in list.iter().enumerate() {
            assert_eq!(
                game.tallied_action(&tally, i, &mut scratch).as_ref(),
                Some(listed),
                "{origin}, index {i}\n{}",
                game.to_diagram()
            );
        }
        assert_eq!(
            game.tallied_action(&tally, list.len(), &mut scratch),
            None,
            "{origin}: past the end"
        );
    };
    for seed in 0..300u64 {
        play_random_game(Game::new(Settings::plays(4)), seed, |game, _| {
            check(game, &format!("seed {seed}"))
        });
    }
    for &(name, _) in zebra::rules::perft::POSITIONS {
        let start = zebra::rules::perft::position(name).expect("a built-in position");
        // Every position two actions deep (three from the action phase's own positions).
        let mut frontier = vec![start];
        for depth in 0..3 {
            let mut next = Vec::new();
            for game in &frontier {
                check(game, &format!("perft {name}, depth {depth}"));
                for action in game.legal_action_list() {
                    let mut child = game.clone();
                    if child.apply(&action).is_ok() && next.len() < 20_000 {
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
    }
    eprintln!("tallied positions: {seen:?}");
    assert!(seen.positions > 50_000, "{seen:?}");
    assert!(seen.passes_in_flight > 1_000, "{seen:?}");
    assert!(seen.handoffs > 100, "{seen:?}");
    assert!(seen.knight_routes > 100, "{seen:?}");
    assert!(seen.pushes > 10_000, "{seen:?}");
    assert!(seen.no_move > 10, "{seen:?}");
}

/// How often the tally test met the cases its set operations treat apart.
#[derive(Debug, Default)]
struct TallySeen {
    positions: u64,
    passes_in_flight: u64,
    /// A move that hands off: a piece passing over its own carrier (R8).
    handoffs: u64,
    /// A knight's move that names its route.
    knight_routes: u64,
    /// A move onto an occupied square of the mover's team (a push).
    pushes: u64,
    /// A position with only the pass.
    no_move: u64,
}

impl TallySeen {
    fn note(&mut self, game: &Game, list: &[Action]) {
        self.positions += 1;
        if matches!(game.ball(), Ball::InFlight(_)) {
            self.passes_in_flight += 1;
        }
        let Phase::Action(side) = game.phase() else {
            return;
        };
        if list == [Action::Pass] {
            self.no_move += 1;
        }
        let carrier = match game.ball() {
            Ball::Carried(c) if game.board().side(side).contains(c) => Some(c),
            _ => None,
        };
        for action in list {
            if let Action::Move { from, to, route } = *action {
                if route.is_some() {
                    self.knight_routes += 1;
                }
                if game.board().side(side).contains(to) {
                    self.pushes += 1;
                }
                // A line move whose line runs over the carrier and on.
                if let Some(c) = carrier {
                    let xy = |s: Square| (s.index() as i32 % 8, s.index() as i32 / 8);
                    let ((ff, fr), (tf, tr), (cf, cr)) = (xy(from), xy(to), xy(c));
                    let (dt, dc) = ((tf - ff, tr - fr), (cf - ff, cr - fr));
                    let same_line = dt.0 * dc.1 == dt.1 * dc.0
                        && dt.0.signum() == dc.0.signum()
                        && dt.1.signum() == dc.1.signum();
                    let steps = |d: (i32, i32)| d.0.abs().max(d.1.abs());
                    if from != c && same_line && steps(dc) < steps(dt) {
                        self.handoffs += 1;
                    }
                }
            }
        }
    }
}

// ---- R70: a timed game always ends within a bound the time control decides ----

/// How a hostile pair spends its clocks in a timed game.
#[derive(Clone, Copy, Debug)]
enum Stall {
    /// The offense answers at once; the defense sits at the edge of its reaction clock.
    SlowDefense,
    /// As `SlowDefense`, and the defense commits a dead-ball foul once per down (the first
    /// pre-snap decision after every snapped play), to stop the clock or run it.
    FoulingDefense,
}

/// What one refereed timed game came to: snapped plays, dead-ball fouls, decisions bounded
/// by the reaction clock, and the wall time its decisions took.
#[derive(Debug, Default)]
struct Spent {
    plays: u32,
    fouls: u32,
    reaction_decisions: u32,
    wall: std::time::Duration,
}

/// Plays one timed game under `tc` with a simulated referee: the referee's own clock code
/// (`Clocks` and the game's `Refereed` side) with the thinking times `stall` chooses, the
/// actions of seeded random players.
fn play_stalled(tc: &str, seed: u64, stall: Stall) -> Spent {
    use zebra::referee::{Clocks, Miss, Missed, Refereed, TimeControl};
    let tc = TimeControl::parse(tc).unwrap();
    let mut clocks = Clocks::new(tc);
    let mut game = Game::new(Settings::timed());
    let mut player = RandomPlayer::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x57a1);
    let mut list = ActionList::new();
    let mut spent = Spent::default();
    let mut foul_due = true;
    let mut steps = 0;
    while let Some(decision) = game.decision() {
        steps += 1;
        assert!(steps < 1_000_000, "seed {seed} {stall:?}: no end");
        let budget = game.budget(&clocks);
        let defending = decision.side != game.offense();
        let elapsed = if defending {
            budget.limit
        } else {
            std::time::Duration::ZERO
        };
        if budget.expires == Clock::Reaction {
            spent.reaction_decisions += 1;
        }
        spent.wall += elapsed;
        let fouling = matches!(stall, Stall::FoulingDefense) && defending && foul_due;
        let action = match game.phase() {
            Phase::Formation(side) if fouling => Some(short_formation(&mut player, &game, side)),
            Phase::Reaction if fouling => presnap_foul(&game, &mut list, &mut rng),
            _ => None,
        };
        let action = match action {
            Some(a) => {
                foul_due = false;
                a
            }
            None => player.choose(&game, &mut list).expect("a decision is due"),
        };
        let mut events = if elapsed > budget.limit {
            match game.miss(&mut clocks, &budget, Miss::Timeout).unwrap() {
                Missed::Consequence { events, .. } => events,
                other => panic!("{other:?}"),
            }
        } else {
            game.apply(&action)
                .unwrap_or_else(|e| panic!("seed {seed} {stall:?}: {action}: {e}"))
                .to_vec()
        };
        let pre_snap = budget.pre_snap;
        for e in &events {
            match e {
                Event::Snap { .. } | Event::SnapFumbled { .. } => spent.plays += 1,
                Event::PenaltyEnforced(_) if pre_snap => spent.fouls += 1,
                Event::PlayOver { .. } => foul_due = true,
                _ => {}
            }
        }
        let (more, _) = game
            .charge(&mut clocks, &budget, elapsed, &events)
            .unwrap_or_else(|e| panic!("seed {seed} {stall:?}: {e}"));
        events.extend(more);
        game.follow(&mut clocks, &events);
    }
    spent
}

#[test]
fn r70_hostile_timed_games_end_within_the_stated_bound_of_plays_and_wall_time() {
    use zebra::referee::TimeControl;
    let mut most = Spent::default();
    for tc in [
        "quarter=1s,play=1s,reaction=300ms,grace=100ms",
        "quarter=250ms,play=1s,reaction=300ms,grace=100ms",
        "quarter=10m,play=20s,reaction=5s,grace=100ms",
    ] {
        let bound = TimeControl::parse(tc).unwrap().bound();
        for seed in 0..300 {
            for stall in [Stall::SlowDefense, Stall::FoulingDefense] {
                let s = play_stalled(tc, seed, stall);
                let why = format!("{tc} seed {seed} {stall:?}: {s:?} over {bound:?}");
                assert!(s.plays <= bound.plays, "{why}");
                assert!(s.fouls <= bound.fouls, "{why}");
                assert!(s.reaction_decisions <= bound.reaction_decisions, "{why}");
                assert!(s.wall <= bound.wall, "{why}");
                most.plays = most.plays.max(s.plays);
                most.fouls = most.fouls.max(s.fouls);
                most.reaction_decisions = most.reaction_decisions.max(s.reaction_decisions);
            }
        }
    }
    // The quarter's length does not matter: a game is at most 4 x 49 snapped plays.
    assert!(most.plays > 0 && most.plays <= 4 * 49, "{most:?}");
}
