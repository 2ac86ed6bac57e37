//! The referee of Zebra: everything that runs a bot and holds it to the rules, on one
//! machine, with no network of its own.
//!
//! - [`bot`]: bot processes (process groups, stdio tasks, kill and reap)
//! - [`sandbox`]: the wall around a bot: limits, namespaces, cgroups, seccomp, verdicts
//! - [`referee`]: one refereed game: the conversation, the wall-time clocks, the policy for
//!   misbehaviour, transcripts, check-bot
//! - [`series`]: match series and tournaments: schedule, statistics, SPRT, records, resume
//!
//! It is not the games (the engine crate, `zebra-engine`, which this crate builds on) and
//! not a front end: no HTTP, no database, no command line. The viewer and the daemon are
//! `zebra-server`, the commands are the `zebra` crate.

pub mod bot;
pub mod referee;
pub mod sandbox;
pub mod series;

// The engine's modules under the paths they have in the `zebra` crate, so that the code
// here names them as `crate::rules::Game` and `crate::record::GameRecord`.
pub use zebra_engine::{botkit, games, protocol, record, rules, text, with_rules};
