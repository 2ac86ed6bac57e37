//! Match series and tournaments: `zebra match`.
//!
//! A series is a schedule of games in pairs (same seed, sides swapped), played several at
//! once by a coordinator that writes every finished game to disk before it counts it, and
//! that can stop early on an SPRT decision or on Ctrl-C and later resume exactly where the
//! disk says it stopped.
//!
//! - `config`: the bots (command line or TOML/JSON file) and the saved settings
//! - `schedule`: which games, in which order, with which seeds (pure)
//! - `stats`: Elo, LOS, pentanomial counts and the SPRT (pure)
//! - `rating`: ratings fitted over a pool's games, with intervals, for leaderboards (pure)
//! - `standings`: finished games folded into per-bot and per-encounter books
//! - `conduct`: per-bot timeouts, suspect timeouts, illegal replies and forfeits
//! - `overload`: the warning for more bots than CPUs, and `--replay-suspect`
//! - `disk`: `series.json`, the fsynced PGN, and finding the missing games on resume
//! - `setup`: flags validated once into a series on disk (or one read back to resume)
//! - `shard`: one series over many machines (`--shard K/N`) and the series' identity
//! - `placement`: the CPUs of each game at once (`--affinity`; pure)
//! - `runner`: the coordinator: concurrency, stopping, events, progress
//! - `game`: one game from its fixture to its counted outcome (both front ends play here)
//! - `events`: the JSON-lines event stream (`--events`)
//! - `merge`: `zebra merge`, the shards of one series put back together
//! - `progress`: the bar or lines people watch

pub mod book;
pub mod conduct;
pub mod config;
pub mod disk;
pub mod events;
pub mod game;
pub mod merge;
pub mod overload;
pub mod placement;
pub mod progress;
pub mod rating;
pub mod runner;
pub mod schedule;
pub mod setup;
pub mod shard;
pub mod spec;
pub mod standings;
pub mod stats;

use serde::Serialize;

pub use config::{BotEntry, ConfigError, SeriesConfig};
pub use game::{Entrants, PlayedGame, SeriesGame};
pub use runner::{run, RunOptions, SeriesEnd, SeriesOutcome};
pub use standings::{BotLine, GameOutcome, Standings};

/// The machine-readable summary of a series (`zebra match --json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub version: u32,
    pub outcome: SeriesEnd,
    pub games_planned: u32,
    pub games_finished: u64,
    /// Games without a result (`*`), counted nowhere.
    pub games_unfinished: u64,
    pub games_played_now: u32,
    pub format: String,
    pub standings: Vec<BotLine>,
    /// Each bot's timeouts, suspect timeouts, illegal replies and forfeits, in the order of
    /// `standings`.
    pub conduct: Vec<conduct::Conduct>,
    /// `--replay-suspect`'s books (and counted games with suspect timeouts without it).
    pub replays: overload::Replays,
    pub encounters: Vec<EncounterSummary>,
    /// A gauntlet of more than one opponent: its first bot against all of them as one (`b`
    /// is `the gauntlet`; every game and pair of its encounters counted once; no SPRT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gauntlet: Option<EncounterSummary>,
    /// How the bots were contained: the `Sandbox` tag of the records.
    pub sandbox: String,
}

/// One encounter's statistics, from `a`'s point of view.
#[derive(Clone, Debug, Serialize)]
pub struct EncounterSummary {
    pub a: String,
    pub b: String,
    pub stats: stats::Report,
}

impl Summary {
    pub fn of(config: &SeriesConfig, outcome: &SeriesOutcome) -> Summary {
        let s = &outcome.standings;
        Summary {
            version: 1,
            outcome: outcome.end,
            games_planned: outcome.planned,
            games_finished: s.finished,
            games_unfinished: s.unfinished,
            games_played_now: outcome.played_now,
            format: config.format.to_string(),
            sandbox: crate::referee::sandbox_tag(
                config.sandbox.policy(),
                config.bots.iter().any(|b| {
                    config
                        .sandbox
                        .limits_for(&b.limits)
                        .is_ok_and(|l| l.network)
                }),
            ),
            standings: s.bots.clone(),
            conduct: s.conduct.clone(),
            replays: s.replays.clone(),
            encounters: s
                .encounters
                .iter()
                .enumerate()
                .map(|(i, e)| EncounterSummary {
                    a: s.bots[e.a].name.clone(),
                    b: s.bots[e.b].name.clone(),
                    stats: {
                        // The SPRT as the encounter's gate judged it (see `SprtGate`).
                        let mut stats = e.tally.report(None);
                        stats.sprt = outcome.sprt.get(i).copied();
                        stats
                    },
                })
                .collect(),
            gauntlet: (config.format == schedule::Format::Gauntlet && s.encounters.len() > 1).then(
                || EncounterSummary {
                    a: s.bots[0].name.clone(),
                    b: "the gauntlet".to_string(),
                    stats: s
                        .encounters
                        .iter()
                        .fold(stats::Tally::default(), |sum, e| sum.plus(&e.tally))
                        .report(None),
                },
            ),
        }
    }

    /// The summary for people.
    pub fn text(&self, standings: &Standings) -> String {
        let mut out = format!(
            "series {}: {} of {} games ({}{})\n",
            self.outcome.code(),
            self.games_finished,
            self.games_planned,
            self.format,
            if self.games_unfinished > 0 {
                format!(", {} without a result", self.games_unfinished)
            } else {
                String::new()
            }
        );
        for e in self.encounters.iter().chain(&self.gauntlet) {
            let r = &e.stats;
            out.push_str(&format!(
                "{} vs {}: +{} ={} -{}  score {}  Elo {}  LOS {}  draws {}  pentanomial {:?}\n",
                e.a,
                e.b,
                r.wins,
                r.draws,
                r.losses,
                r.score
                    .map_or("n/a".to_string(), |s| format!("{:.1}%", 100.0 * s)),
                progress::elo_of(r),
                r.los
                    .map_or("n/a".to_string(), |l| format!("{:.1}%", 100.0 * l)),
                r.draw_ratio
                    .map_or("n/a".to_string(), |d| format!("{:.1}%", 100.0 * d)),
                r.pentanomial
            ));
            if let Some(sprt) = &r.sprt {
                out.push_str(&format!(
                    "  SPRT {}: LLR {:.2} [{:.2}, {:.2}] {}\n",
                    sprt.params,
                    sprt.llr,
                    sprt.lower,
                    sprt.upper,
                    match sprt.decision {
                        stats::SprtDecision::AcceptH1 => "H1 accepted",
                        stats::SprtDecision::AcceptH0 => "H0 accepted",
                        stats::SprtDecision::Continue => "no decision",
                    }
                ));
            }
        }
        if self.standings.len() > 2 {
            out.push_str(&standings.crosstable());
        }
        for c in &self.conduct {
            out.push_str(&format!("{}: {}\n", c.name, c.text()));
        }
        if let Some(line) = self.replays.text() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}
