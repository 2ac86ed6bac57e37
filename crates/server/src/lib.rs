//! The network front ends of Zebra: what people look at and the competition daemon.
//!
//! - [`web`]: the view stream of a game, the embedded viewer page and its local server,
//!   live games and a person's seat
//! - [`server`]: `zebra serve`, the competition daemon: HTTP API, SQLite store, workers,
//!   uploads, ladder
//! - [`worker`]: `zebra worker`, a machine lending its cores to a daemon
//!
//! It plays no game itself: every game goes through the referee crate (`zebra-referee`)
//! as `zebra match` plays it; and it is not the command line (the `zebra` crate).

pub mod server;
pub mod web;
pub mod worker;

// The engine's and the referee's modules under the paths they have in the `zebra` crate,
// so that the code here names them as `crate::series::game` and `crate::rules::Rules`.
pub use zebra_engine::{botkit, games, protocol, record, rules, text, with_rules};
pub use zebra_referee::{bot, referee, sandbox, series};
