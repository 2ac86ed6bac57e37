//! Chess Eleven (protocol/CHESS-ELEVEN.md holds the rulings C1–C54): chess pieces and a
//! ball on an 8x8 board, goals in the middle of each back rank, possession won by capture,
//! and a tally of goals. A pure engine: no I/O, no clocks.
//!
//! - `board`: squares, pieces, the board, and the reaches of moves, passes and shots
//! - `action`: actions and their notation
//! - `position`: a round in play: the go's structure, legal actions, apply, position text
//! - `game`: a game: rounds, sealed formations, the seeded shot draw, halves, the end
//! - `formation`: formations checked, the default, the board two formations make
//! - `clock`: its clock (`--tc`), the half clock and a decision's budget
//! - `perft`: the decision tree counted (C54)
//! - `playout`: the rule set, a random player, random games, perft through the engine's traits
//! - `seam`: its records, its referee side, check-bot's positions
//! - `wire`: its payloads in the protocol's messages
//! - `view`: the board as a viewer and a terminal draw it
//! - `error`: typed errors

pub mod action;
pub mod board;
pub mod caption;
pub mod clock;
pub mod error;
pub mod formation;
pub mod game;
pub mod perft;
pub mod playout;
pub mod position;
pub mod seam;
pub mod view;
pub mod wire;

pub use action::{Action, Formation, ShotOutcome};
pub use board::{Board, Piece, Role, Sq};
pub use error::{ChessElevenError, FormationError, NotationError};
pub use game::{DecisionKind, Game, Halves, Settings};
pub use playout::RandomPlayer;
pub use position::{Applied, Ball, Event, Position, RoundEnd};

/// The edition of protocol/CHESS-ELEVEN.md the engine plays (tag `Rulings`).
pub const RULINGS_EDITION: &str = "1";
