//! Boyer's Football as a viewer draws it: the 9x9 board [`Frame`] (the ball, the turn and
//! its progress), a step per sub-move (a header where a turn begins, the turn's end as
//! `play_end`), the board as text, and what the human seat offers: a piece's move
//! (`d1d5`) from its square to its target, a kick (`Kd4>f6`) from the kicking piece's
//! square to where the ball goes, and `pass` as a button.
//!
//! As text, rank 9 on top: a square is a piece (or `.`) and the ball's mark; the goal
//! squares e9 and e1 are coloured (or marked `[ ]` in plain text).

use std::fmt::Write;

use serde::Serialize;

use super::rules::{Event, Game, Sq, SubMove, SIZE};
use crate::record::{Entry, Recorded, ReplayError};
use crate::rules::Side;
use crate::view::terminal::{self, TermStyle};
use crate::view::{Arrow, Step, Viewed};

/// A position of Boyer's Football.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Occupied squares and their piece's FEN letter (upper case White).
    pub pieces: Vec<(String, String)>,
    /// The ball's square.
    pub ball: String,
    /// Turns completed.
    pub turns: u32,
    /// The side to move; `null` once the game is over.
    pub to_move: Option<Side>,
    /// Sub-moves made in the turn under way, and the squares of the pieces that kicked in
    /// it (they cannot kick again).
    pub made: u8,
    pub kicked: Vec<String>,
    /// Goals: 1 for the side a goal was credited to.
    pub score: [u16; 2],
    /// `turn 3, white to move`, or how the game ended.
    pub situation: String,
}

impl Frame {
    pub fn of(game: &Game) -> Frame {
        let pos = game.position();
        let mut pieces = Vec::new();
        for rank in 0..SIZE {
            for file in 0..SIZE {
                let sq = Sq::at(file, rank).expect("on the board");
                if let Some(p) = pos.piece_at(sq) {
                    pieces.push((sq.to_string(), p.letter().to_string()));
                }
            }
        }
        let situation = match game.outcome() {
            Some(outcome) => outcome.to_string(),
            None => format!("turn {}, {} to move", pos.turns() + 1, pos.turn()),
        };
        Frame {
            pieces,
            ball: pos.ball().to_string(),
            turns: pos.turns(),
            to_move: game.outcome().is_none().then(|| pos.turn()),
            made: pos.made(),
            kicked: pos.kicked().iter().map(|s| s.to_string()).collect(),
            score: [game.goals(Side::White), game.goals(Side::Black)],
            situation,
        }
    }

    /// The board as lines of text, rank 9 on top, with file letters and the situation
    /// under it.
    pub fn text(&self, style: TermStyle) -> String {
        let mut out = terminal::square_board(9, 9, style, |name, fi, rank| {
            let piece = self
                .pieces
                .iter()
                .find(|(sq, _)| *sq == name)
                .and_then(|(_, p)| p.chars().next());
            let mid = match piece {
                Some(c) => style.piece(c),
                None if name == self.ball => style.ball(),
                None => '.',
            };
            terminal::Square {
                piece,
                goal: fi == 4 && (rank == 1 || rank == 9),
                text: [' ', mid, ' '],
            }
        });
        let _ = writeln!(
            out,
            "{}  goals {}-{}",
            self.situation, self.score[0], self.score[1]
        );
        out
    }
}

impl Viewed for Game {
    type Frame = Frame;

    fn frame(&self) -> Frame {
        Frame::of(self)
    }

    /// A kick's arrow runs from where the ball was to where it goes.
    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        let header = Recorded::header(self);
        let side = self.position().turn();
        let ball_before = self.position().ball();
        let before = self.position().clone();
        let events = entry.apply_to(self)?;
        let caption = super::caption::caption(&events, |sq| before.piece_at(sq));
        let sub = match entry {
            Entry::Action { action, .. } => action.parse::<SubMove>().ok(),
            Entry::Expiry { .. } => None,
        };
        let arrow = match sub {
            Some(SubMove::Move { from, to }) => Some((from, to, "move")),
            Some(SubMove::Kick { to, .. }) => Some((ball_before, to, "kick")),
            _ => None,
        }
        .map(|(from, to, kind)| Arrow {
            from: from.to_string(),
            to: to.to_string(),
            corner: None,
            kind,
        });
        let over = events.iter().any(|e| matches!(e, Event::GameOver { .. }));
        Ok(Step {
            token: entry.to_string(),
            side: Some(side),
            kind: "action",
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
                .filter(|e| !matches!(e, Event::Played { .. }))
                .map(|e| e.to_string())
                .collect(),
            caption,
            notable: over,
            play_end: self.position().at_turn_start() || over,
            frame: Frame::of(self).into(),
        }
        .with_arrow(arrow))
    }

    /// A kick is offered from the kicking piece's square (where the person clicks).
    fn arrow(action: &str) -> Option<Arrow> {
        let (from, to, kind) = match action.parse::<SubMove>().ok()? {
            SubMove::Move { from, to } => (from, to, "move"),
            SubMove::Kick { by, to } => (by, to, "kick"),
            SubMove::Pass => return None,
        };
        Some(Arrow {
            from: from.to_string(),
            to: to.to_string(),
            corner: None,
            kind,
        })
    }

    fn board_text(frame: &Frame, style: TermStyle) -> String {
        frame.text(style)
    }

    /// Two minutes a turn (its sub-moves share them).
    const HUMAN_CLOCK: &'static str = "turn=120s";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::boyer::rules::Position;

    #[test]
    fn a_board_in_plain_text_shows_pieces_ball_and_goals() {
        let text = Frame::of(&Game::new(Position::start())).text(TermStyle::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        // Rank 9: Black's pieces and its goal square e9 empty; rank 5: the ball on e5.
        assert_eq!(lines[0], "9  r  n  b  q [.] k  n  b  r ");
        assert_eq!(lines[4], "5  .  .  .  .  *  .  .  .  . ");
        assert_eq!(lines[8], "1  R  N  B  Q [.] K  N  B  R ");
        assert_eq!(lines[9], "   a  b  c  d  e  f  g  h  i");
        assert_eq!(lines[10], "turn 1, white to move  goals 0-0");
    }
}
