//! Chess Eleven in plain English: one sentence for each entry of a record, from the action
//! and what it caused ("White's queen passes from d4 to d7; Black to go."). The viewer,
//! `zebra view --board` and `zebra play --board` show it (the view stream's `caption`).

use super::formation::role_name;
use super::{Action, Event, Piece, RoundEnd, ShotOutcome, Sq};
use crate::rules::Side;
use crate::view::words::{sentence, team};

/// The sentence for one entry: the side that decided (`None` for a clock), its action,
/// `piece_at` the position before it, and its events in order.
pub fn caption(
    side: Option<Side>,
    action: Option<&Action>,
    piece_at: impl Fn(Sq) -> Option<Piece>,
    events: &[Event],
) -> String {
    let who = |side: Side, sq: Sq| match piece_at(sq) {
        Some(p) => format!("{}'s {}", team(p.side), role_name(p.role)),
        None => format!("{}'s piece", team(side)),
    };
    let mut phrases = Vec::new();
    match (side, action) {
        (Some(side), Some(Action::Formation(_))) => {
            phrases.push(format!("{} sets its formation (sealed)", team(side)))
        }
        (Some(side), Some(Action::End)) => phrases.push(format!("{} ends its go", team(side))),
        (None, _) => phrases.push("a clock runs out".into()),
        _ => {}
    }
    for event in events {
        phrases.push(match *event {
            Event::KickOff { side } => format!("kick-off: {} has the ball", team(side)),
            Event::Moved {
                side,
                from,
                to,
                promotion,
                captured,
            } => {
                let mut phrase = format!("{} moves from {from} to {to}", who(side, from));
                if let Some(role) = captured {
                    phrase.push_str(&format!(" and takes the {}", role_name(role)));
                }
                if let Some(role) = promotion {
                    phrase.push_str(&format!(", promoted to a {}", role_name(role)));
                }
                phrase
            }
            Event::TookBall { side, at } => format!("{} has the ball on {at}", team(side)),
            Event::Passed { side, from, to } => {
                format!("{} passes the ball from {from} to {to}", who(side, from))
            }
            Event::Shot {
                side,
                from,
                to,
                outcome,
                drawn,
            } => {
                let result = match outcome {
                    ShotOutcome::Goal => "goal",
                    ShotOutcome::Save => "saved by the king in goal",
                    ShotOutcome::Block => "blocked in the goal",
                    ShotOutcome::Corner => "wide: a corner",
                };
                let luck = if drawn { " (drawn from the seed)" } else { "" };
                format!(
                    "{} shoots from {from} at {to}: {result}{luck}",
                    who(side, from)
                )
            }
            Event::Corner { side, at } => format!("corner for {} at {at}", team(side)),
            Event::GoalKick { side, at } => {
                format!("goal kick: {}'s king has the ball on {at}", team(side))
            }
            Event::GoEnded { next } => format!("{} to go", team(next)),
            Event::RoundOver { end, score } => {
                let what = match end {
                    // The shot before it said "goal".
                    RoundEnd::Goal { by } => format!("the round is {}'s", team(by)),
                    RoundEnd::Checkmate { by } => {
                        format!("checkmate by {}, worth two goals", team(by))
                    }
                    RoundEnd::Stalemate { side } => {
                        format!("{} cannot move: the round ends without a goal", team(side))
                    }
                };
                format!("{what}; the score is {}-{}", score[0], score[1])
            }
            Event::HalfTime => "half time".into(),
            Event::GameOver { score } => {
                let end = match score[0].cmp(&score[1]) {
                    std::cmp::Ordering::Greater => "White wins".to_string(),
                    std::cmp::Ordering::Less => "Black wins".to_string(),
                    std::cmp::Ordering::Equal => "a draw".to_string(),
                };
                format!("game over, {}-{}: {end}", score[0], score[1])
            }
        });
    }
    sentence(&phrases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_eleven::Role;

    fn sq(name: &str) -> Sq {
        name.parse().unwrap()
    }

    #[test]
    fn every_kind_of_event_has_a_plain_caption() {
        let (w, b) = (Side::White, Side::Black);
        let queen = |s: Sq| {
            (s == sq("d4")).then_some(Piece {
                side: Side::White,
                role: Role::Queen,
            })
        };
        let cases = [
            (Event::KickOff { side: w }, "Kick-off: White has the ball."),
            (
                Event::Moved {
                    side: w,
                    from: sq("d4"),
                    to: sq("d7"),
                    promotion: None,
                    captured: Some(Role::Knight),
                },
                "White's queen moves from d4 to d7 and takes the knight.",
            ),
            (
                Event::TookBall { side: b, at: sq("e5") },
                "Black has the ball on e5.",
            ),
            (
                Event::Passed {
                    side: w,
                    from: sq("d4"),
                    to: sq("d6"),
                },
                "White's queen passes the ball from d4 to d6.",
            ),
            (
                Event::Shot {
                    side: w,
                    from: sq("d4"),
                    to: sq("d8"),
                    outcome: ShotOutcome::Save,
                    drawn: true,
                },
                "White's queen shoots from d4 at d8: saved by the king in goal (drawn from the seed).",
            ),
            (
                Event::Corner { side: w, at: sq("h8") },
                "Corner for White at h8.",
            ),
            (
                Event::GoalKick { side: b, at: sq("d8") },
                "Goal kick: Black's king has the ball on d8.",
            ),
            (Event::GoEnded { next: b }, "Black to go."),
            (
                Event::RoundOver {
                    end: RoundEnd::Checkmate { by: w },
                    score: [2, 0],
                },
                "Checkmate by White, worth two goals; the score is 2-0.",
            ),
            (Event::HalfTime, "Half time."),
            (
                Event::GameOver { score: [1, 1] },
                "Game over, 1-1: a draw.",
            ),
        ];
        for (event, want) in cases {
            // A new kind of event does not compile here until it has its case above.
            match event {
                Event::KickOff { .. }
                | Event::Moved { .. }
                | Event::TookBall { .. }
                | Event::Passed { .. }
                | Event::Shot { .. }
                | Event::Corner { .. }
                | Event::GoalKick { .. }
                | Event::GoEnded { .. }
                | Event::RoundOver { .. }
                | Event::HalfTime
                | Event::GameOver { .. } => {}
            }
            assert_eq!(caption(Some(w), None, queen, &[event]), want);
        }
        assert_eq!(caption(None, None, queen, &[]), "A clock runs out.");
    }
}
