//! Chess Eleven's typed errors: a token that is not an action, an action the position
//! refuses, a formation the rules refuse, a position text that is not one.

use std::fmt;

/// A token that is not an action of Chess Eleven's notation (C51).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{token}': {reason}")]
pub struct NotationError {
    pub token: String,
    pub reason: String,
}

impl NotationError {
    pub(crate) fn new(token: &str, reason: impl fmt::Display) -> NotationError {
        NotationError {
            token: crate::text::clean_owned(token.to_string(), crate::text::SHORT),
            reason: reason.to_string(),
        }
    }
}

/// Why a formation is refused (C5–C13).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormationError {
    #[error("{0} pieces on the field, a formation has 11")]
    Count(usize),
    #[error("the king must stand on {0} (C7)")]
    King(String),
    #[error("a pawn must stand on {0}, in front of the king (C8)")]
    KingsPawn(String),
    #[error("{0} is outside the side's first three ranks (C9)")]
    Rank(String),
    #[error("the pawn on {0} must stand on the side's second or third rank (C9)")]
    PawnRank(String),
    #[error("two pieces on {0}")]
    Twice(String),
    #[error("{0}")]
    Army(String),
    #[error("the substitute cannot be used: {0} (C13)")]
    Substitute(String),
}

/// An action the game refuses where it stands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessElevenError {
    #[error("'{action}' is not legal here: {why}")]
    Illegal { action: String, why: String },
    #[error("{0}")]
    Formation(#[from] FormationError),
    #[error("the game is over")]
    Over,
    #[error("not a position: {0}")]
    Position(String),
    #[error(transparent)]
    Notation(#[from] NotationError),
}
