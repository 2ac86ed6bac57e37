//! The engine of Zebra: the games and everything about them that needs no process, no
//! clock reading and no network. Bots, the Python binding and the fuzz targets depend on
//! this crate alone; the referee, the series and the daemon (the `zebra` crate) build on it.
//!
//! - [`rules`]: the pure, deterministic rules engines, one per game, and
//!   [`rules::Rules`], the games by name
//! - [`games`]: each game's side of the seam (records, referee, check-bot), and
//!   [`with_rules!`], the registry's dispatch
//! - [`perft`]: legal sequences counted for every game, and the counts' data-file format
//! - [`playout`]: seeded random games of any game, and `zebra demo`'s lines
//! - [`seam`]: the small pure traits a game implements for the referee and check-bot,
//!   the clocks as arithmetic, and one game's setup
//! - [`protocol`]: the bot protocol's messages, line framing and state snapshot
//! - [`record`]: PGN-style game records: writer, reader (any `BufRead`), verifier
//! - [`text`]: text from a bot made safe to show and store
//! - [`view`]: games replayed into what a viewer draws, and boards as text
//! - [`botkit`]: a small synchronous client for bots written in Rust on the engine

pub mod botkit;
pub mod games;
pub mod perft;
pub mod playout;
pub mod protocol;
pub mod record;
pub mod rules;
pub mod seam;
pub mod text;
pub mod view;
