//! Bot processes: spawning, talking over stdio, and making sure none outlives its game.
//!
//! - `name`: names for bots the user did not name (from `ready`, or their command)
//! - `process`: spawn in its own process group, drain stderr, kill the group, reap
//! - `text`: cleaning every string a bot sends (control characters escaped, length capped)
//! - `transport`: the reader task (timestamped, bounded lines) and the writer task
//!
//! Nothing a bot does is an `Err` here: crashes, garbage and silence arrive as
//! [`Incoming`] values for the referee to judge.

pub mod name;
pub mod process;
pub use zebra_engine::text;
pub mod transport;

pub use process::{BotProcess, BotSpec, ExitInfo, SpawnError, Staged, Starting};
pub use transport::Incoming;
