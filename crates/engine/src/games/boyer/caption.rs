//! Boyer's Football in plain English: one sentence for each sub-move of a record, from
//! the sub-move and what it caused ("White's queen on d5 kicks the ball to d8; Black to
//! play."). The viewer, `zebra view --board` and `zebra play --board` show it (the view
//! stream's `caption`).

use super::rules::{Event, Kind, Outcome, Piece, Sq, SubMove, BLACK_GOAL, TURN_LIMIT, WHITE_GOAL};
use crate::view::words::{sentence, team};

/// A kind of piece in words.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "king",
        Kind::Queen => "queen",
        Kind::Rook => "rook",
        Kind::Bishop => "bishop",
        Kind::Knight => "knight",
    }
}

/// The sentence for one sub-move: `piece_at` tells the position before it (who moved or
/// kicked), `events` what it caused, in order.
pub fn caption(events: &[Event], piece_at: impl Fn(Sq) -> Option<Piece>) -> String {
    let mut phrases = Vec::new();
    let who = |side, sq: Sq| match piece_at(sq) {
        Some(p) => format!("{}'s {}", team(p.side), kind_name(p.kind)),
        None => format!("{}'s piece", team(side)),
    };
    for event in events {
        phrases.push(match *event {
            Event::Played { side, sub } => match sub {
                SubMove::Move { from, to } => format!("{} moves from {from} to {to}", who(side, from)),
                SubMove::Kick { by, to } => {
                    // A goal counts when the turn ends with the ball still there (B29):
                    // said at the kick, so that the goal is not news one sub-move later.
                    let goal = match to {
                        t if t == WHITE_GOAL => " (the goal White scores in: it counts if the ball is still there when the turn ends)",
                        t if t == BLACK_GOAL => " (the goal Black scores in: it counts if the ball is still there when the turn ends)",
                        _ => "",
                    };
                    format!("{} on {by} kicks the ball to {to}{goal}", who(side, by))
                }
                SubMove::Pass => format!("{} ends its turn", team(side)),
            },
            Event::TurnOver { next } => format!("{} to play", team(next)),
            Event::GameOver { outcome } => match outcome {
                Outcome::Goal(side) => format!("goal: {} scores and wins", team(side)),
                Outcome::Repetition => "a draw: the same position a third time".into(),
                Outcome::TurnLimit => format!("a draw: {TURN_LIMIT} turns without a goal"),
                Outcome::NoMoves => "a draw: neither side can move".into(),
            },
        });
    }
    sentence(&phrases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Side;

    fn sq(name: &str) -> Sq {
        name.parse().unwrap()
    }

    #[test]
    fn every_kind_of_event_has_a_plain_caption() {
        let queen = |s: Sq| {
            (s == sq("d5")).then_some(Piece {
                side: Side::White,
                kind: Kind::Queen,
            })
        };
        let cases = [
            (
                Event::Played {
                    side: Side::White,
                    sub: SubMove::Move {
                        from: sq("d5"),
                        to: sq("d6"),
                    },
                },
                "White's queen moves from d5 to d6.",
            ),
            (
                Event::Played {
                    side: Side::White,
                    sub: SubMove::Kick {
                        by: sq("d5"),
                        to: sq("d9"),
                    },
                },
                "White's queen on d5 kicks the ball to d9.",
            ),
            (
                Event::Played {
                    side: Side::Black,
                    sub: SubMove::Pass,
                },
                "Black ends its turn.",
            ),
            (
                Event::Played {
                    side: Side::White,
                    sub: SubMove::Kick {
                        by: sq("d5"),
                        to: sq("e9"),
                    },
                },
                "White's queen on d5 kicks the ball to e9 (the goal White scores in: it counts if the ball is still there when the turn ends).",
            ),
            (Event::TurnOver { next: Side::Black }, "Black to play."),
            (
                Event::GameOver {
                    outcome: Outcome::Goal(Side::White),
                },
                "Goal: White scores and wins.",
            ),
            (
                Event::GameOver {
                    outcome: Outcome::Repetition,
                },
                "A draw: the same position a third time.",
            ),
            (
                Event::GameOver {
                    outcome: Outcome::TurnLimit,
                },
                "A draw: 400 turns without a goal.",
            ),
            (
                Event::GameOver {
                    outcome: Outcome::NoMoves,
                },
                "A draw: neither side can move.",
            ),
        ];
        for (event, want) in cases {
            // A new kind of event does not compile here until it has its case above.
            match event {
                Event::Played { .. } | Event::TurnOver { .. } | Event::GameOver { .. } => {}
            }
            assert_eq!(caption(&[event], queen), want);
        }
    }
}
