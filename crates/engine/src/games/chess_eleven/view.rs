//! Chess Eleven as a viewer draws it: the 8x8 [`Frame`] (pieces, the ball with its carrier,
//! on the centre spot or at a flag, both goals, the benches), a step per decision (a header
//! where a go or a pair of formations begins, the go's end as `play_end`), the board as
//! text, and what the human seat offers: moves and passes and shots as arrows from square
//! to square, `end` as a button, and the default formation to start a formation from.
//!
//! As text, rank 8 on top: a square is a piece (or `.`) with the ball's carrier between
//! `(` `)`; goal squares are coloured (or between `[` `]` in plain text).

use std::fmt::Write;

use serde::Serialize;

use super::action::Action;
use super::board::{goal_of, Role, Sq};
use super::formation;
use super::game::{Game, Phase};
use super::position::{Ball, Event};
use crate::record::{Entry, Recorded, ReplayError};
use crate::rules::Side;
use crate::view::terminal::{self, TermStyle};
use crate::view::{Arrow, Step, Verdict, Viewed};

/// A position of Chess Eleven.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Occupied squares and their piece's letter (upper case White).
    pub pieces: Vec<(String, String)>,
    /// `carried`, `spot`, `flag`, or `none` between rounds.
    pub ball_kind: &'static str,
    /// The carrier's square, or the flag's corner; `null` on the spot or between rounds.
    pub ball: Option<String>,
    /// Each side's bench piece in the round (its letter), when known.
    pub bench: [Option<String>; 2],
    pub score: [u16; 2],
    pub half: u8,
    /// The side whose go (or formation) it is; `null` once the game is over.
    pub to_move: Option<Side>,
    /// `half 1, go 5, white with the ball`, the formations, or how the game ended.
    pub situation: String,
}

impl Frame {
    pub fn of(game: &Game) -> Frame {
        let mut pieces = Vec::new();
        let (ball_kind, ball, situation) = match game.phase() {
            Phase::Play(p) => {
                for sq in Sq::all() {
                    if let Some(piece) = p.board().get(sq) {
                        pieces.push((sq.to_string(), piece.letter().to_string()));
                    }
                }
                let (kind, at) = (p.ball().kind(), p.ball().square().map(|s| s.to_string()));
                let holder = match p.ball() {
                    Ball::Carried(_) if p.carrier_of(p.side()).is_some() => "with the ball",
                    Ball::Carried(_) => "without the ball",
                    Ball::Spot => "to kick off",
                    Ball::Flag(_) => "at a corner",
                };
                (
                    kind,
                    at,
                    format!(
                        "half {}, go {}, {} {holder}",
                        p.half(),
                        p.goes() + 1,
                        p.side()
                    ),
                )
            }
            Phase::Forming(f) => (
                "none",
                None,
                format!("half {}: formations, {} to kick off", f.half, f.kick_off),
            ),
            Phase::Over { .. } => ("none", None, "full time".to_string()),
        };
        let letter = |r: Option<Role>| r.map(|r| r.letter().to_string());
        Frame {
            pieces,
            ball_kind,
            ball,
            bench: [
                letter(game.bench(Side::White)),
                letter(game.bench(Side::Black)),
            ],
            score: game.score(),
            half: match game.phase() {
                Phase::Play(p) => p.half(),
                Phase::Forming(f) => f.half,
                Phase::Over { .. } => 2,
            },
            to_move: game.decision().map(|(s, _)| s),
            situation,
        }
    }

    /// The board as lines of text, rank 8 on top, with file letters and the situation
    /// under it.
    pub fn text(&self, style: TermStyle) -> String {
        let goals: Vec<String> = Side::ALL
            .iter()
            .flat_map(|&s| goal_of(s))
            .map(|s| s.to_string())
            .collect();
        let mut out = terminal::square_board(8, 8, style, |name, _, _| {
            let piece = self
                .pieces
                .iter()
                .find(|(sq, _)| *sq == name)
                .and_then(|(_, p)| p.chars().next());
            let carried = self.ball_kind == "carried" && self.ball.as_deref() == Some(name);
            let flag = self.ball_kind == "flag" && self.ball.as_deref() == Some(name);
            let mid = match piece {
                Some(c) => style.piece(c),
                None if flag => style.ball(),
                None => '.',
            };
            let text = if carried {
                ['(', mid, ')']
            } else if flag && piece.is_some() {
                [style.ball(), mid, ' ']
            } else {
                [' ', mid, ' ']
            };
            terminal::Square {
                piece,
                goal: goals.iter().any(|g| g == name),
                text,
            }
        });
        let spot = if self.ball_kind == "spot" {
            "  ball on the centre spot"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{}  goals {}-{}{spot}",
            self.situation, self.score[0], self.score[1]
        );
        out
    }
}

fn arrow_of(action: &Action) -> Option<Arrow> {
    let (from, to, kind) = match *action {
        Action::Move { from, to, .. } => (from, to, "move"),
        Action::Pass { from, to } => (from, to, "pass"),
        Action::Shot { from, to, .. } => (from, to, "shot"),
        Action::End | Action::Formation(_) => return None,
    };
    Some(Arrow {
        from: from.to_string(),
        to: to.to_string(),
        corner: None,
        kind,
    })
}

impl Viewed for Game {
    type Frame = Frame;

    fn frame(&self) -> Frame {
        Frame::of(self)
    }

    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        let header = Recorded::header(self);
        let side = self.decision().map(|(s, _)| s);
        let before = self.position().map(|p| *p.board());
        let events = entry.apply_to(self)?;
        let action = match entry {
            Entry::Action { action, .. } => action.parse::<Action>().ok(),
            Entry::Expiry { .. } => None,
        };
        let decided = match entry {
            Entry::Action { .. } => side,
            Entry::Expiry { .. } => None,
        };
        let caption = super::caption::caption(
            decided,
            action.as_ref(),
            |sq| before.as_ref().and_then(|b| b.get(sq)),
            &events,
        );
        let ended = events.iter().any(|e| {
            matches!(
                e,
                Event::GoEnded { .. }
                    | Event::Corner { .. }
                    | Event::RoundOver { .. }
                    | Event::KickOff { .. }
                    | Event::GameOver { .. }
            )
        });
        let notable = events.iter().any(Game::notable);
        Ok(Step {
            token: entry.to_string(),
            side: if matches!(entry, Entry::Action { .. }) {
                side
            } else {
                None
            },
            kind: match entry {
                Entry::Action { .. } => "action",
                Entry::Expiry { .. } => "expiry",
            },
            header,
            emt_ms: None,
            clk_ms: None,
            from: None,
            to: None,
            corner: None,
            arrow: None,
            pushes: Vec::new(),
            events: events
                .iter()
                .filter(|e| !matches!(e, Event::Moved { .. } | Event::GoEnded { .. }))
                .map(|e| e.to_string())
                .collect(),
            caption,
            notable,
            play_end: ended,
            frame: Frame::of(self).into(),
        }
        .with_arrow(action.as_ref().and_then(arrow_of)))
    }

    fn arrow(action: &str) -> Option<Arrow> {
        arrow_of(&action.parse::<Action>().ok()?)
    }

    fn board_text(frame: &Frame, style: TermStyle) -> String {
        frame.text(style)
    }

    /// Two minutes a decision, five for a formation.
    const HUMAN_CLOCK: &'static str = "turns=40,move=120s,formation=300s";

    /// The default formation (C12) to start from.
    fn suggestion(&self, side: Side, decision: &str, _seed: u64) -> Option<String> {
        (decision == "formation").then(|| formation::default_for(side).to_string())
    }

    /// A formation draft is judged by the formation rules (C5–C13) for the side to form;
    /// other actions go by the open request's list.
    fn judge_draft(&self, draft: &str) -> Option<Verdict> {
        let Phase::Forming(f) = self.phase() else {
            return None;
        };
        let (side, _) = self.decision()?;
        Some(match draft.parse::<Action>() {
            Ok(Action::Formation(formation)) => {
                match formation::check(&formation, side, f.substitute == Some(side)) {
                    Ok(()) => Verdict::legal(None),
                    Err(e) => Verdict::illegal(e.to_string()),
                }
            }
            Ok(_) => Verdict::illegal("a formation is due"),
            Err(e) => Verdict::illegal(e.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_eleven::game::Settings;

    #[test]
    fn a_board_in_plain_text_shows_pieces_ball_and_goals() {
        let mut game = Game::new(Settings::default());
        for side in Side::ALL {
            game.play(&Action::Formation(formation::default_for(side)))
                .unwrap();
        }
        game.play(&"d2d4".parse().unwrap()).unwrap();
        let text = Frame::of(&game).text(TermStyle::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "8  .  .  r [k][q] r  .  . ");
        assert_eq!(lines[4], "4  .  .  . (P) .  .  .  . ");
        assert_eq!(lines[7], "1  .  .  R [K][Q] R  .  . ");
        assert_eq!(lines[8], "   a  b  c  d  e  f  g  h");
        assert_eq!(lines[9], "half 1, go 1, white with the ball  goals 0-0");
    }
}
