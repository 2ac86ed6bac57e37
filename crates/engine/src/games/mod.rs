//! The games, one folder each: a game's rules engine, its clocks, its wire payloads and
//! its side of the seam (what the records, [`crate::record::Recorded`], the referee,
//! [`crate::seam::Refereed`], and check-bot, [`crate::seam::Checked`], need of it) live
//! together. [`with_rules!`] is the one place that maps a [`crate::rules::Rules`] name to
//! its engine type.
//!
//! - `football_chess`: Football Chess (`football_chess::Game`)
//! - `boyer`: Boyer's Football (`boyer::rules::Game`)
//! - `chess_eleven`: Chess Eleven (`chess_eleven::Game`)

pub mod boyer;
pub mod chess_eleven;
pub mod football_chess;

use serde::Serialize;

use crate::view::terminal::TermStyle;
use crate::view::Viewed;

/// The frame of whichever game a view shows (see [`crate::view`]): one variant per game,
/// serialised as the game's own frame (the page tells them apart by the view's `rules`).
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyFrame {
    /// Football Chess's field.
    Field(football_chess::view::Frame),
    /// Boyer's Football's board.
    Board(boyer::view::Frame),
    /// Chess Eleven's board.
    Eleven(chess_eleven::view::Frame),
}

impl From<chess_eleven::view::Frame> for AnyFrame {
    fn from(frame: chess_eleven::view::Frame) -> AnyFrame {
        AnyFrame::Eleven(frame)
    }
}

impl From<football_chess::view::Frame> for AnyFrame {
    fn from(frame: football_chess::view::Frame) -> AnyFrame {
        AnyFrame::Field(frame)
    }
}

impl From<boyer::view::Frame> for AnyFrame {
    fn from(frame: boyer::view::Frame) -> AnyFrame {
        AnyFrame::Board(frame)
    }
}

impl AnyFrame {
    /// Occupied squares and what stands there, as the page draws them.
    pub fn pieces(&self) -> &[(String, String)] {
        match self {
            AnyFrame::Field(f) => &f.pieces,
            AnyFrame::Board(b) => &b.pieces,
            AnyFrame::Eleven(e) => &e.pieces,
        }
    }

    /// The Football Chess field, if this is one.
    pub fn field(&self) -> Option<&football_chess::view::Frame> {
        match self {
            AnyFrame::Field(f) => Some(f),
            AnyFrame::Board(_) | AnyFrame::Eleven(_) => None,
        }
    }

    /// The board as text, drawn by its game.
    pub fn text(&self, style: TermStyle) -> String {
        match self {
            AnyFrame::Field(f) => football_chess::Game::board_text(f, style),
            AnyFrame::Board(b) => boyer::rules::Game::board_text(b, style),
            AnyFrame::Eleven(e) => chess_eleven::Game::board_text(e, style),
        }
    }
}

/// Runs `$body` with `$R` standing for the engine type of the game `$rules` names: the
/// registry's dispatch, written once. The body must compile for every game.
///
/// ```
/// use zebra_engine::rules::{ruleset::RuleSet, Rules};
/// let name = zebra_engine::with_rules!(Rules::BoyerFootball, R => <R as RuleSet>::NAME);
/// assert_eq!(name, "boyer-football");
/// ```
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $R:ident => $body:expr) => {
        match $rules {
            $crate::rules::Rules::FootballChess => {
                type $R = $crate::games::football_chess::Game;
                $body
            }
            $crate::rules::Rules::BoyerFootball => {
                type $R = $crate::games::boyer::rules::Game;
                $body
            }
            $crate::rules::Rules::ChessEleven => {
                type $R = $crate::games::chess_eleven::Game;
                $body
            }
        }
    };
}
