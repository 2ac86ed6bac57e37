//! Typed errors: every way to call the engine wrong, each naming the piece, square or rule.
//!
//! A rejected action leaves the game untouched.

use thiserror::Error;

use super::penalty::FoulKind;
use super::types::{Role, Side, Square};

/// A string that is not valid action or position notation.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    #[error("'{0}' is not an action (see the notation table in protocol/RULES.md)")]
    Malformed(String),
    #[error("'{0}' is not a square (a1..h8)")]
    BadSquare(String),
    #[error("'{0}' does not start with a piece letter (P, N, B, R, Q, K)")]
    BadRole(String),
    #[error("'{0}' has an unknown knight route (use /f or /r)")]
    BadRoute(String),
    #[error("'{0}' is not a side (white or black)")]
    BadSide(String),
    #[error("'{0}' is not a foul name")]
    BadFoul(String),
    #[error("the formation names {0} twice")]
    SquareTwice(Square),
    #[error("a formation holds at most 16 pieces")]
    TooManyPieces,
}

/// A formation that cannot be placed at all (as opposed to a legal placement that draws a
/// flag, see [`FormationFault`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FormationError {
    #[error("{count} {role}s placed but the sideline holds only {max} (2.2)")]
    NotOnSideline { role: Role, count: u8, max: u8 },
    #[error("{0} is already taken by the other team")]
    SquareTaken(Square),
}

/// A placeable formation that breaks a formation rule of 3.2; placing it draws a flag.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum FormationFault {
    #[error("{0} pieces placed; at most 7 may play (too many men, 7.1)")]
    TooManyMen(u8),
    #[error("{0} pieces placed; a formation has exactly 7 (illegal formation, 3.2)")]
    TooFewPieces(u8),
    #[error("{0} pawns placed; at least 2 are required (illegal formation, 3.2)")]
    TooFewPawns(u8),
    #[error("no pawn on the ball at {0} to snap it (illegal formation, 3.2)")]
    NoSnapper(Square),
    #[error("the king on {0} may not play defense (illegal formation, 3.2)")]
    KingOnDefense(Square),
    #[error("the piece on {0} is on the wrong side of the line of scrimmage (offsides, 3.2)")]
    WrongSide(Square),
}

impl FormationFault {
    /// The foul this fault draws.
    pub const fn foul(self) -> FoulKind {
        match self {
            FormationFault::TooManyMen(_) => FoulKind::TooManyMen,
            FormationFault::WrongSide(_) => FoulKind::Offsides,
            _ => FoulKind::IllegalFormation,
        }
    }
}

/// Why an action was rejected. The game is unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("'{action}' is not possible now: {expected}")]
    NotNow { action: String, expected: String },
    #[error("no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {square} belongs to {owner}")]
    NotYours { square: Square, owner: Side },
    #[error("{0} is not empty")]
    SquareTaken(Square),
    #[error("the snapper on {0} may not move before the snap (R4)")]
    SnapperMoved(Square),
    #[error("the piece on {0} already went in motion this play (R4)")]
    AlreadyMoved(Square),
    #[error("no {0} left on the sideline")]
    NotOnSideline(Role),
    #[error("{0}")]
    Formation(#[from] FormationError),
    #[error("a {role} cannot move from {from} to {to} (4.1)")]
    Unreachable {
        role: Role,
        from: Square,
        to: Square,
    },
    #[error("the path from {from} to {to} is blocked at {at} (4.1, R8)")]
    Blocked {
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("the push of the piece on {at} would leave the board (4.1, R9)")]
    PushOffBoard { at: Square },
    #[error("the push of the piece on {at} would land on {dest}, which is taken or holds the ball (4.1, R9)")]
    PushBlocked { at: Square, dest: Square },
    #[error(
        "a pawn moves diagonally only to tackle, to play the ball or to join a pile (R7): {to}"
    )]
    PawnDiagonal { to: Square },
    #[error("both knight routes from {from} to {to} are legal and differ: add /f or /r (4.1)")]
    AmbiguousRoute { from: Square, to: Square },
    #[error("only knights take a route (/f or /r); the piece on {0} is not a knight (4.1)")]
    RouteForNonKnight(Square),
    #[error("the piece on {0} does not have the ball")]
    NotCarrier(Square),
    #[error("a {role} cannot throw from {from} to {to}: only along its lines of movement (4.3)")]
    ThrowDirection {
        role: Role,
        from: Square,
        to: Square,
    },
    #[error("pass is allowed only when no move is legal (rule zero: no null moves)")]
    PassNotAllowed,
    #[error("during contention the only moves are onto the ball at {0}, or pass (4.2)")]
    NotOntoPile(Square),
    #[error("{0} has no timeouts left this half (6.4)")]
    NoTimeouts(Side),
    #[error("there is no {0} flag to accept")]
    NoSuchFoul(FoulKind),
    #[error("the {clock} does not run now: {expected}")]
    ClockNotRunning { clock: String, expected: String },
}
