//! Football Chess in plain English: one sentence for each entry of a record, from the
//! action and the events it caused ("Black's king throws forward from e4 to a3;
//! incomplete."). The viewer's play-by-play, its caption under the field, `zebra view
//! --board` and `zebra play --board` all show this sentence (it travels in each step of
//! the view stream as `caption`).

use super::{Action, Clock, Event, GameResult, Piece, PlayEnd, Square};
use crate::view::words::{ordinal, sentence, spaced, team};

/// The sentence for one entry: `action` (`None` for a clock that ran out, `expired`),
/// `before` the field before it (the top piece of a square: who threw, shifted or was
/// pushed; a move's event names its own piece), and its events in order.
pub fn caption(
    action: Option<&Action>,
    expired: Option<Clock>,
    before: &dyn Fn(Square) -> Option<Piece>,
    events: &[Event],
) -> String {
    let mover = match action {
        Some(
            Action::Motion { from, .. }
            | Action::Move { from, .. }
            | Action::Throw { from, .. }
            | Action::Exit { from },
        ) => before(*from),
        _ => None,
    };
    let mut phrases = Vec::new();
    if let Some(clock) = expired {
        phrases.push(format!("the {} runs out", spaced(clock.code())));
    }
    let piece = |fallback: &str| match mover {
        Some(p) => format!("{}'s {}", team(p.side), p.role.name()),
        None => fallback.to_string(),
    };
    for event in events {
        let phrase = match *event {
            Event::FormationSet { side, pieces } => {
                format!("{} lines up ({pieces} pieces)", team(side))
            }
            Event::Shifted { side, from, to } => match mover {
                Some(_) => format!("{} shifts from {from} to {to}", piece("")),
                None => format!("{} shifts a piece from {from} to {to}", team(side)),
            },
            Event::Substituted { side } => match action {
                Some(Action::Enter { role, to }) => format!(
                    "{} brings a {} onto the field at {to}",
                    team(side),
                    role.name()
                ),
                Some(Action::Exit { from }) => {
                    format!("{} takes a piece off the field from {from}", team(side))
                }
                _ => format!("{} substitutes a piece", team(side)),
            },
            Event::Snap { from, to } => format!("the ball is snapped from {from} to {to}"),
            Event::SnapFumbled { at } => format!("the snap is fumbled, the ball loose at {at}"),
            Event::Moved {
                side,
                role,
                from,
                to,
            } => format!("{}'s {} moves from {from} to {to}", team(side), role.name()),
            // The pushed piece stood on `from` before the action.
            Event::Pushed { from, to } => match before(from) {
                Some(p) => format!(
                    "pushes {}'s {} from {from} to {to}",
                    team(p.side),
                    p.role.name()
                ),
                None => format!("pushes the piece on {from} to {to}"),
            },
            // R8: the moving piece passes over its carrier and takes the ball with it.
            Event::Handoff { from, to } => {
                format!("takes the ball from the carrier on {from} (a handoff) to {to}")
            }
            Event::Tackle { at } => format!("tackle at {at}"),
            Event::Truck { at } => format!("the carrier trucks at {at} and keeps the ball"),
            Event::Thrown { from, to, forward } => format!(
                "{} throws {} from {from} to {to}",
                piece("the carrier"),
                if forward {
                    "forward"
                } else {
                    "back or sideways"
                }
            ),
            Event::Caught { at } => format!("the pass is caught at {at}"),
            Event::Intercepted { side, at } => format!("intercepted by {} at {at}", team(side)),
            Event::Batted { at } => format!("the pass is batted down at {at}"),
            Event::Incomplete => "the pass falls incomplete".to_string(),
            Event::Fumble { at } => format!("fumble, the ball loose at {at}"),
            Event::Contested { side, at, pieces } => format!(
                "{} goes for the loose ball at {at} ({pieces} in the pile)",
                team(side)
            ),
            Event::Recovered { side, at } => format!("{} recovers the ball at {at}", team(side)),
            Event::OutOfBounds { at } => format!("out of bounds at {at}"),
            Event::PossessionChanged { side } => format!("{} has the ball now", team(side)),
            Event::Touchdown { side } => format!("touchdown for {}", team(side)),
            Event::Safety { side } => format!("safety: 2 points for {}", team(side)),
            Event::Flag(foul) => format!(
                "flag: {} against {} at {}",
                spaced(foul.kind.code()),
                team(foul.side),
                foul.spot
            ),
            Event::PenaltyEnforced(foul) => format!(
                "the {} penalty against {} is enforced",
                spaced(foul.kind.code()),
                team(foul.side)
            ),
            Event::PenaltyDeclined { kind } => {
                format!("the {} penalty is declined", spaced(kind.code()))
            }
            Event::OffsettingPenalties => "offsetting penalties: the down is replayed".into(),
            Event::ScoreAwarded { side } => format!(
                "the score is awarded to {} for the defense's repeated fouls",
                team(side)
            ),
            Event::UntimedDown => "one untimed down is still played".into(),
            Event::TimeoutCharged { side, left } => format!(
                "{} is charged a timeout for its foul ({left} left)",
                team(side)
            ),
            Event::PlayOver { end } => match end {
                // The other ends have their own event (a tackle, a touchdown...).
                PlayEnd::Whistle => "the whistle: the play reached its turn limit".into(),
                PlayEnd::Pile => "the pile ends the play".into(),
                _ => String::new(),
            },
            Event::FirstDown { side } => format!("first down for {}", team(side)),
            Event::TurnoverOnDowns { side } => {
                format!("{} turns the ball over on downs", team(side))
            }
            Event::NextPlay {
                offense,
                down,
                spot,
                to_gain,
            } => format!(
                "next: {} ball, {} down at {spot}, to gain rank {to_gain}",
                team(offense),
                ordinal(u32::from(down))
            ),
            Event::ClockStopped => "the clock stops".into(),
            Event::Timeout { side, left } => {
                format!("{} calls a timeout ({left} left)", team(side))
            }
            Event::MissedTurn { side } => format!("{} misses its turn", team(side)),
            Event::Passed { side } => format!("{} lets its turn go", team(side)),
            Event::FormationLocked { side } => format!("{}'s formation is locked", team(side)),
            Event::PeriodEnd { quarter } => {
                format!("end of the {} quarter", ordinal(u32::from(quarter)))
            }
            Event::GameOver { result } => match result {
                GameResult::Win(side) => format!("game over: {} wins", team(side)),
                GameResult::Draw => "game over: a draw".into(),
            },
        };
        phrases.push(phrase);
    }
    // An action that changed nothing anyone sees (a penalty choice is told by its events).
    if phrases.iter().all(String::is_empty) {
        if let Some(a) = action {
            phrases.push(match a {
                Action::Accept(kind) => format!("the {} penalty is accepted", spaced(kind.code())),
                Action::Decline => "the penalties are declined".into(),
                other => format!("{other}"),
            });
        }
    }
    sentence(&phrases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::football_chess::{Foul, FoulKind, Role, Side};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// One event of every kind. The match below does not compile when a kind is added
    /// until it has its example here.
    fn every_kind() -> Vec<Event> {
        let foul = Foul {
            side: Side::Black,
            kind: FoulKind::PassInterference,
            spot: sq("e5"),
        };
        let (w, b, e4, e5) = (Side::White, Side::Black, sq("e4"), sq("e5"));
        let all = vec![
            Event::FormationSet { side: w, pieces: 7 },
            Event::Shifted {
                side: b,
                from: e5,
                to: sq("f6"),
            },
            Event::Substituted { side: w },
            Event::Snap {
                from: e4,
                to: sq("e3"),
            },
            Event::SnapFumbled { at: sq("e3") },
            Event::Moved {
                side: w,
                role: Role::King,
                from: e4,
                to: e5,
            },
            Event::Pushed {
                from: e5,
                to: sq("e6"),
            },
            Event::Handoff {
                from: e4,
                to: sq("d4"),
            },
            Event::Tackle { at: e5 },
            Event::Truck { at: e5 },
            Event::Thrown {
                from: e4,
                to: sq("a3"),
                forward: true,
            },
            Event::Caught { at: sq("a3") },
            Event::Intercepted {
                side: b,
                at: sq("a3"),
            },
            Event::Batted { at: sq("a3") },
            Event::Incomplete,
            Event::Fumble { at: e5 },
            Event::Contested {
                side: b,
                at: e5,
                pieces: 2,
            },
            Event::Recovered { side: b, at: e5 },
            Event::OutOfBounds { at: sq("a3") },
            Event::PossessionChanged { side: b },
            Event::Touchdown { side: w },
            Event::Safety { side: b },
            Event::Flag(foul),
            Event::PenaltyEnforced(foul),
            Event::PenaltyDeclined {
                kind: FoulKind::Holding,
            },
            Event::OffsettingPenalties,
            Event::ScoreAwarded { side: w },
            Event::UntimedDown,
            Event::TimeoutCharged { side: b, left: 1 },
            Event::PlayOver {
                end: PlayEnd::Whistle,
            },
            Event::FirstDown { side: w },
            Event::TurnoverOnDowns { side: w },
            Event::NextPlay {
                offense: b,
                down: 2,
                spot: e5,
                to_gain: 3,
            },
            Event::ClockStopped,
            Event::Timeout { side: w, left: 2 },
            Event::MissedTurn { side: b },
            Event::Passed { side: b },
            Event::FormationLocked { side: w },
            Event::PeriodEnd { quarter: 2 },
            Event::GameOver {
                result: GameResult::Win(Side::White),
            },
        ];
        for e in &all {
            match e {
                Event::FormationSet { .. }
                | Event::Shifted { .. }
                | Event::Substituted { .. }
                | Event::Snap { .. }
                | Event::SnapFumbled { .. }
                | Event::Moved { .. }
                | Event::Pushed { .. }
                | Event::Handoff { .. }
                | Event::Tackle { .. }
                | Event::Truck { .. }
                | Event::Thrown { .. }
                | Event::Caught { .. }
                | Event::Intercepted { .. }
                | Event::Batted { .. }
                | Event::Incomplete
                | Event::Fumble { .. }
                | Event::Contested { .. }
                | Event::Recovered { .. }
                | Event::OutOfBounds { .. }
                | Event::PossessionChanged { .. }
                | Event::Touchdown { .. }
                | Event::Safety { .. }
                | Event::Flag(_)
                | Event::PenaltyEnforced(_)
                | Event::PenaltyDeclined { .. }
                | Event::OffsettingPenalties
                | Event::ScoreAwarded { .. }
                | Event::UntimedDown
                | Event::TimeoutCharged { .. }
                | Event::PlayOver { .. }
                | Event::FirstDown { .. }
                | Event::TurnoverOnDowns { .. }
                | Event::NextPlay { .. }
                | Event::ClockStopped
                | Event::Timeout { .. }
                | Event::MissedTurn { .. }
                | Event::Passed { .. }
                | Event::FormationLocked { .. }
                | Event::PeriodEnd { .. }
                | Event::GameOver { .. } => {}
            }
        }
        all
    }

    /// Plain words: a capital first, a full stop last, no notation's underscores, hyphens
    /// of codes, braces or lowercase team names.
    fn plain(text: &str) -> bool {
        text.chars().next().is_some_and(char::is_uppercase)
            && text.ends_with('.')
            && !text.contains(['_', '{', '}', '>', '^', '@'])
            && !text.contains("white")
            && !text.contains("black")
            && !text.contains("-pass")
            && !text.contains("-men")
    }

    #[test]
    fn every_kind_of_event_has_a_plain_caption() {
        for event in every_kind() {
            let text = caption(None, None, &|_| None, std::slice::from_ref(&event));
            assert!(plain(&text), "{event:?}: {text:?}");
        }
        // Every foul reads as words.
        for kind in FoulKind::ALL {
            let foul = Foul {
                side: Side::White,
                kind,
                spot: sq("e4"),
            };
            let text = caption(None, None, &|_| None, &[Event::Flag(foul)]);
            assert!(plain(&text), "{kind:?}: {text:?}");
        }
    }

    #[test]
    fn a_throw_names_its_thrower_and_ends_in_one_sentence() {
        let action: Action = "e4^a3".parse().unwrap();
        let king = |s: Square| (s == sq("e4")).then_some(Piece::new(Side::Black, Role::King));
        let events = [
            Event::Thrown {
                from: sq("e4"),
                to: sq("a3"),
                forward: true,
            },
            Event::Incomplete,
            Event::OutOfBounds { at: sq("a3") },
            Event::PlayOver {
                end: PlayEnd::Incomplete,
            },
        ];
        assert_eq!(
            caption(Some(&action), None, &king, &events),
            "Black's king throws forward from e4 to a3; the pass falls incomplete; out of bounds at a3."
        );
        // A push names the pushed piece, where it stood and where it went.
        let pawn = |s: Square| (s == sq("f2")).then_some(Piece::new(Side::Black, Role::Pawn));
        let push = [Event::Pushed {
            from: sq("f2"),
            to: sq("g2"),
        }];
        assert_eq!(
            caption(None, None, &pawn, &push),
            "Pushes Black's pawn from f2 to g2."
        );
        assert_eq!(
            caption(
                None,
                None,
                &|_| None,
                &[Event::Handoff {
                    from: sq("e5"),
                    to: sq("h2")
                }]
            ),
            "Takes the ball from the carrier on e5 (a handoff) to h2."
        );
        assert_eq!(
            caption(None, Some(Clock::Play), &|_| None, &[]),
            "The play clock runs out."
        );
        assert_eq!(
            caption(Some(&Action::Decline), None, &|_| None, &[]),
            "The penalties are declined."
        );
    }
}
