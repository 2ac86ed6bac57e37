//! Football Chess, in one folder: its rules engine (pure, deterministic, no I/O, no clocks,
//! no threads), its clocks, its wire payloads and its side of the seam.
//!
//! A [`Game`] changes only through [`Game::apply`] (a team's [`Action`]) and
//! [`Game::expire`] (a [`Clock`] the referee saw run out); both return the [`Event`]s they
//! caused, or a typed error that leaves the game as it was. The same game and the same
//! input always give the same result.
//!
//! ```
//! use zebra_engine::games::football_chess::{Action, ActionList, Ball, Game, Phase, Settings, Side};
//!
//! let mut game = Game::new(Settings::plays(10)); // quarters of 10 plays (R18)
//! let white: Action = "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse()?;
//! let black: Action = "[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6]".parse()?;
//! game.apply(&white)?;
//! game.apply(&black)?;
//! game.apply(&Action::Snap)?; // the king behind the snapper takes the ball (3.4)
//! assert_eq!(game.ball(), Ball::Carried("e4".parse()?));
//! assert_eq!(game.phase(), Phase::Action(Side::White));
//!
//! let mut list = ActionList::new(); // reusable; generation never allocates
//! game.legal_actions(&mut list);
//! assert!(list.contains(&"e4^h8".parse()?)); // the king throws anywhere (4.3)
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout:
//! - `types`: sides, roles, squares, bitboards, directions
//! - `board`: where the pieces stand, and the pile on the ball
//! - `action`: the actions and their text notation
//! - `game`: the game value, downs, score, quarters, formation, motion, snap, penalties
//! - `play`: the action phase (moves, pushes, throws, contention) and legal-action generation
//! - `penalty`: the fouls and what they cost
//! - `event`: what happened
//! - `error`: why an action was rejected
//! - `diagram`: positions as readable text, for tests, perft and printing
//! - `perft`: counting legal action sequences, to cross-check implementations
//! - `tables`: rays and knight routes computed at compile time, for the move generator
//! - `tally`: the action phase's legal actions counted without listing them, for playouts
//! - `playout`: seeded random play, for tests, benchmarks and the random bot
//! - `clock`: the three clocks of rule 6 as pure arithmetic, and the `--tc` text
//! - `wire`: the state and penalty options sent to bots (`protocol/PROTOCOL.md`)
//! - `seam`: the game behind the engine's seam: its records, its referee side (clocks and
//!   requests), check-bot's positions
//! - `view`: the field as a viewer and a terminal draw it, and what the human seat offers

pub mod action;
pub mod board;
pub mod caption;
pub mod clock;
pub mod diagram;
pub mod error;
pub mod event;
pub mod game;
pub mod penalty;
pub mod perft;
pub mod play;
pub mod playout;
mod seam;
pub mod situation;
mod tables;
pub mod tally;
pub mod types;
pub mod view;
pub mod wire;

pub use seam::request;

pub use action::{Action, Clock, Formation, KnightRoute};
pub use board::Board;
pub use error::{ActionError, FormationError, FormationFault, NotationError};
pub use event::{Event, GameResult, PlayEnd};
pub use game::{
    Ball, Decision, DecisionKind, EndedField, Events, FormationCheck, Game, Phase, QuarterLength,
    Settings, Throw,
};
pub use penalty::{Foul, FoulKind};
pub use play::ActionList;
pub use situation::{Situation, SituationError};
pub use tally::ActionTally;
pub use types::{Bitboard, Dir, File, Piece, Rank, Role, Side, Square};

/// The edition of the rulings (protocol/RULES.md) this engine plays. Edition 1 is every
/// engine before the second edition of the rulings; its records carry no `Rulings` tag.
/// Records (the `Rulings` tag) and `game_start` (`rulings`) name the edition, and a record
/// of another edition is refused rather than replayed under rulings it was not played by.
pub const RULINGS_EDITION: &str = "3";
