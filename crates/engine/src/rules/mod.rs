//! The games' shared vocabulary and, for the code written before each game had its own
//! folder, the old paths of Football Chess's engine.
//!
//! - `registry`: the games by name ([`Rules`]), the one list a new game is added to
//! - `ruleset`: the trait every game's engine implements
//! - Football Chess's modules and items (`crate::games::football_chess`), re-exported under
//!   the paths they had (Boyer's Football is only at its own, `crate::games::boyer`)
//!
//! Sides, results and clock names are still Football Chess's types, which the other games
//! borrow; they move here when a game needs them to differ.

pub mod registry;
pub mod ruleset;

pub use crate::games::football_chess::action::{Action, Clock, Formation, KnightRoute};
pub use crate::games::football_chess::board::Board;
pub use crate::games::football_chess::error::{
    ActionError, FormationError, FormationFault, NotationError,
};
pub use crate::games::football_chess::event::{Event, GameResult, PlayEnd};
pub use crate::games::football_chess::game::{
    Ball, Decision, DecisionKind, EndedField, Events, FormationCheck, Game, Phase, QuarterLength,
    Settings, Throw,
};
pub use crate::games::football_chess::penalty::{Foul, FoulKind};
pub use crate::games::football_chess::play::ActionList;
pub use crate::games::football_chess::situation::{Situation, SituationError};
pub use crate::games::football_chess::tally::ActionTally;
pub use crate::games::football_chess::types::{
    Bitboard, Dir, File, Piece, Rank, Role, Side, Square,
};
pub use crate::games::football_chess::{
    action, board, diagram, error, event, game, penalty, perft, play, playout, situation, tally,
    types,
};
pub use registry::{Rules, UnknownRules};

pub use crate::games::football_chess::RULINGS_EDITION;
