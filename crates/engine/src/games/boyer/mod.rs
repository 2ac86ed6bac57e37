//! Boyer's Football (`protocol/BOYER.md`), in one folder: its rules engine, the messages
//! that carry it to bots, and its side of the seam (records, chess clock, check-bot).
//!
//! - `rules`: the engine: position, moves and kicks, turns, goals, notation
//! - `wire`: the Boyer messages of the protocol (state, events, the chess clock)
//! - `seam`: the game behind the engine's seam
//! - `view`: the board as a viewer and a terminal draw it, and the human seat's offer

pub mod caption;
pub mod rules;
mod seam;
pub mod view;
pub mod wire;
