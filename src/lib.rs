//! Zebra: the referee for Football Chess bots.
//!
//! Zebra runs bot programs against each other under the official rules of Football Chess,
//! enforces the clocks, and records every game. Today it holds the rules engine and the
//! tools around it; the referee, match series and records build on it.
//!
//! Layout:
//! - [`rules`]: the pure, deterministic rules engine (no I/O, no clocks, no threads)
//! - [`bench`]: the random-playout benchmark behind `zebra bench`
//! - [`cli`]: the command line (raw flags; `main` validates and runs them)

pub mod bench;
pub mod bot;
pub mod botkit;
pub mod cli;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod rules;
