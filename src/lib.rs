//! Zebra: the referee for bots of football-chess games.
//!
//! Zebra runs bot programs against each other under the rules of its games, enforces the
//! clocks, and records every game. The games themselves, the protocol's messages and the
//! records are the engine crate (`zebra-engine`), re-exported here under the paths they
//! have always had; this crate is everything that runs processes, reads clocks or serves.
//!
//! Layout (data flows bot process ⇄ `sandbox` ⇄ `bot` ⇄ `protocol` ⇄ `referee` ⇄ the
//! engine's `seam` and `games`, and out to `record` and `series`):
//! - [`rules`], [`games`], [`protocol`], [`record`], [`text`], [`botkit`]: the engine's
//!   modules (see `zebra_engine`)
//! - [`bot`]: bot processes (process groups, stdio tasks, kill and reap)
//! - [`sandbox`]: containment of bots: limits, namespaces, cgroups, verdicts
//! - [`referee`]: one refereed game: the loop, misbehaviour policy, transcripts, check-bot
//! - [`series`]: match series and tournaments: schedule, statistics, SPRT, resume
//! - [`server`]: `zebra serve`, the competition daemon
//! - [`web`]: what people look at: the view stream of a game and the embedded viewer page
//! - [`bench`]: the benchmarks behind `zebra bench`
//! - [`cli`]: the command line: its flags, and one module per command that checks and runs them

pub mod bench;
pub mod bot;
pub mod cli;
pub mod referee;
pub mod sandbox;
pub mod series;
pub mod server;
pub mod web;

// The engine's modules under the paths they had before the engine became its own crate,
// so that `zebra::rules::Game` and `crate::record::GameRecord` still name them.
pub use zebra_engine::{botkit, games, perft, protocol, record, rules, text, view, with_rules};
