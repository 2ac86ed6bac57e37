//! Zebra: the referee for bots of football-chess games.
//!
//! Zebra runs bot programs against each other under the rules of its games, enforces the
//! clocks, and records every game. The games themselves, the protocol's messages and the
//! records are the engine crate (`zebra-engine`); bot processes, the sandbox, the referee
//! and series are `zebra-referee`; the viewer and the daemon are `zebra-server`. All are
//! re-exported here under the paths they have always had; this crate is the command line
//! and the benchmarks.
//!
//! Layout (data flows bot process ⇄ `sandbox` ⇄ `bot` ⇄ `protocol` ⇄ `referee` ⇄ the
//! engine's `seam` and `games`, and out to `record` and `series`):
//! - [`rules`], [`games`], [`perft`], [`view`], [`protocol`], [`record`], [`text`],
//!   [`botkit`]: the engine's modules (see `zebra_engine`)
//! - the referee's modules (see `zebra_referee`):
//!   - [`bot`]: bot processes (process groups, stdio tasks, kill and reap)
//!   - [`sandbox`]: containment of bots: limits, namespaces, cgroups, verdicts
//!   - [`referee`]: one refereed game: the loop, misbehaviour policy, transcripts, check-bot
//!   - [`series`]: match series and tournaments: schedule, statistics, SPRT, resume
//! - the front ends' modules (see `zebra_server`):
//!   - [`server`]: `zebra serve`, the competition daemon
//!   - [`web`]: what people look at: the view stream of a game and the embedded viewer page
//!   - [`worker`]: `zebra worker`, a machine lending its cores to a daemon
//! - [`bench`]: the benchmarks behind `zebra bench` (`bench::serve`: `zebra bench serve`)
//! - [`cli`]: the command line: its flags, and one module per command that checks and runs them

pub mod bench;
pub mod cli;

// The other crates' modules under the paths they had before each became its own crate,
// so that `zebra::rules::Game` and `crate::series::config` still name them.
pub use zebra_engine::{
    botkit, games, perft, playout, protocol, record, rules, seam, text, view, with_rules,
};
pub use zebra_referee::{bot, referee, sandbox, series};
pub use zebra_server::{server, web, worker};
