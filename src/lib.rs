//! Zebra: the referee for Football Chess bots.
//!
//! Zebra runs bot programs against each other under the official rules of Football Chess,
//! enforces the clocks, and records every game.
//!
//! Layout (data flows bot process ⇄ `bot` ⇄ `protocol` ⇄ `referee` ⇄ `rules`, and out to
//! `record`):
//! - [`rules`]: the pure, deterministic rules engines (no I/O, no clocks, no threads), one
//!   per game, and [`rules::Rules`], the games by name
//! - [`games`]: each game's side of the seam (records, referee), and [`with_rules!`]
//! - [`protocol`]: the bot protocol's messages, line framing and state snapshot
//! - [`bot`]: bot processes (process groups, stdio tasks, kill and reap)
//! - [`sandbox`]: containment of bots: limits, namespaces, cgroups, verdicts
//! - [`referee`]: one refereed game: clocks, misbehaviour policy, transcripts, check-bot
//! - [`record`]: PGN-style game records: writer, reader, verifier
//! - [`series`]: match series and tournaments: schedule, statistics, SPRT, resume
//! - [`server`]: `zebra serve`, the competition daemon (so far: its store and queue)
//! - [`web`]: what people look at: the view stream of a game and the embedded viewer page
//! - [`botkit`]: a small client for bots written in Rust on the engine
//! - [`bench`]: the benchmarks behind `zebra bench`
//! - [`cli`]: the command line: its flags, and one module per command that checks and runs them

pub mod bench;
pub mod bot;
pub mod botkit;
pub mod cli;
pub mod games;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod rules;
pub mod sandbox;
pub mod series;
pub mod server;
pub mod web;
