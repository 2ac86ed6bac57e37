//! The command line, as clap parses it: raw values only; `main` validates and runs them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Zebra: the referee for Football Chess bots.
#[derive(Debug, Parser)]
#[command(name = "zebra", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one whole game between two seeded random players and print it play by play.
    Play {
        /// Seed of the random players (same seed, same game).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plays per quarter (quarters measured in plays, rule R18).
        #[arg(long, default_value_t = 10)]
        plays_per_quarter: u16,
        /// Print only the final line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Count legal action sequences from a position to a depth (perft).
    Perft {
        /// A built-in position: shotgun, scramble, motion.
        #[arg(long, conflicts_with = "diagram")]
        position: Option<String>,
        /// A file holding a position diagram (see protocol/RULES.md, "Diagrams").
        #[arg(long)]
        diagram: Option<PathBuf>,
        /// Number of actions.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Print the count below each legal action.
        #[arg(long)]
        divide: bool,
    },
    /// Benchmark seeded random playouts on one core.
    Bench {
        /// Number of games.
        #[arg(long, default_value_t = 200)]
        games: u64,
        /// Seed of the first game; game i uses seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plays per quarter.
        #[arg(long, default_value_t = 10)]
        plays_per_quarter: u16,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Measure legal-action generation alone (action-phase positions from random games).
        #[arg(long)]
        movegen: bool,
        /// With --movegen: how many times each collected position is generated.
        #[arg(long, default_value_t = 20, requires = "movegen")]
        rounds: u32,
    },
}
