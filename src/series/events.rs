//! The series' event stream (`--events FILE`): one JSON object per line, flushed as it
//! happens, for dashboards and scripts that should never have to parse human output.
//! Every line carries `"version"` (this stream's format, see
//! protocol/schemas/series-event.json) and `"type"`.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::conduct::Conduct;
use super::overload::Replays;
use super::stats::{Report, SprtReport};
use super::BotLine;

/// The version of the event stream's format.
pub const EVENTS_VERSION: u32 = 1;

/// White and Black, or anything per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PerSide<T> {
    pub white: T,
    pub black: T,
}

/// Which game an event is about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRef {
    pub game: u32,
    pub pair: u32,
    pub round: u32,
    pub leg: u8,
    pub white: String,
    pub black: String,
    pub seed: u64,
}

impl GameRef {
    pub fn of(f: &super::schedule::Fixture, names: &[String]) -> GameRef {
        GameRef {
            game: f.game,
            pair: f.pair,
            round: f.round,
            leg: f.leg,
            white: names[f.white].clone(),
            black: names[f.black].clone(),
            seed: f.seed,
        }
    }
}

/// What a warning is about (a closed set: scripts branch on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    /// More bots run at once than the machine has CPUs: timeouts may be its fault.
    Overload,
}

impl WarningCode {
    pub const ALL: [WarningCode; 1] = [WarningCode::Overload];
}

/// Something people should know before trusting the results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub code: WarningCode,
    /// The warning in words, as printed on stderr.
    pub message: String,
}

/// One event of a series.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeriesEvent {
    SeriesStarted {
        bots: Vec<String>,
        format: String,
        /// The game played (`football-chess`, `boyer-football`).
        rules: crate::rules::Rules,
        games_planned: u32,
        /// Games already on disk (a resumed series).
        games_done: u32,
        seed: u64,
        time_control: String,
        sprt: Option<String>,
        concurrency: usize,
        /// The CPUs this process may run on, when known.
        cpus: Option<usize>,
        /// `--replay-suspect`: the attempts per game at most; null when off.
        replay_suspect: Option<u32>,
        /// Said once at the start (also on stderr).
        warnings: Vec<Warning>,
    },
    GameStarted {
        #[serde(flatten)]
        game: GameRef,
        /// 1, or more for a game played again by `--replay-suspect`.
        attempt: u32,
    },
    GameFinished {
        #[serde(flatten)]
        game: GameRef,
        attempt: u32,
        /// `1-0`, `0-1`, `1/2-1/2`, or `*`.
        result: String,
        termination: String,
        reason: String,
        score: PerSide<u16>,
        decisions: PerSide<u32>,
        timeouts: PerSide<u32>,
        suspect_timeouts: PerSide<u32>,
        illegal: PerSide<u32>,
        /// Why a bot ended the game early (`crashed`, `memory-limit`...), or null.
        verdict: PerSide<Option<String>>,
        /// Wall time and the bots' CPU time per decision, on average, in microseconds.
        think_us_per_decision: PerSide<u64>,
        cpu_us_per_decision: PerSide<u64>,
        duration_ms: u64,
    },
    /// `--replay-suspect` voided this attempt (a suspect timeout may have decided it): it
    /// is in `voided.pgn`, counts nowhere, and the game starts again.
    GameVoided {
        #[serde(flatten)]
        game: GameRef,
        attempt: u32,
        max_attempts: u32,
        result: String,
        termination: String,
        timeouts: PerSide<u32>,
        suspect_timeouts: PerSide<u32>,
        duration_ms: u64,
    },
    StatsUpdated {
        games_finished: u64,
        standings: Vec<BotLine>,
        /// Two bots: the head-to-head statistics of the first against the second.
        head_to_head: Option<Report>,
    },
    SprtDecision {
        games_finished: u64,
        sprt: SprtReport,
    },
    SeriesFinished {
        /// `completed`, `h1-accepted`, `h0-accepted`, `inconclusive` or `interrupted`; in
        /// `zebra serve` also `cancelled` or `incomplete`.
        outcome: String,
        games_finished: u64,
        /// Each bot's timeouts, suspect timeouts, illegal replies and forfeits over the
        /// counted games, in the order of `series_started`'s bots.
        conduct: Vec<Conduct>,
        replays: Replays,
    },
}

impl SeriesEvent {
    /// `game_finished` for a game the referee reported.
    pub fn finished(
        game: GameRef,
        attempt: u32,
        report: &crate::referee::GameReport,
        duration: std::time::Duration,
    ) -> SeriesEvent {
        let [w, b] = &report.bots;
        let per = |f: &dyn Fn(&crate::referee::BotReport) -> u32| PerSide {
            white: f(w),
            black: f(b),
        };
        let mean = |total: u64, n: u32| total / u64::from(n.max(1));
        SeriesEvent::GameFinished {
            game,
            attempt,
            result: report
                .result
                .map_or("*", crate::rules::GameResult::pgn)
                .to_string(),
            termination: report.termination.code().to_string(),
            reason: report.reason.clone(),
            score: PerSide {
                white: report.score[0],
                black: report.score[1],
            },
            decisions: per(&|r| r.decisions),
            timeouts: per(&|r| r.timeouts),
            suspect_timeouts: per(&|r| r.suspect_timeouts),
            illegal: per(&|r| r.illegal),
            verdict: PerSide {
                white: w.verdict.map(|v| v.code().to_string()),
                black: b.verdict.map(|v| v.code().to_string()),
            },
            think_us_per_decision: PerSide {
                white: mean(w.think_us, w.decisions),
                black: mean(b.think_us, b.decisions),
            },
            cpu_us_per_decision: PerSide {
                white: mean(w.cpu_us, w.decisions),
                black: mean(b.cpu_us, b.decisions),
            },
            duration_ms: duration.as_millis() as u64,
        }
    }
}

/// Where events go: a file appended line by line, or nowhere.
pub struct EventLog {
    file: Option<std::fs::File>,
    start: std::time::Instant,
    /// A live viewer (`--watch`), told every line too.
    spectator: Option<std::sync::Arc<dyn crate::referee::Spectator>>,
}

#[derive(Serialize)]
struct Line<'a> {
    version: u32,
    /// Milliseconds since the Unix epoch: when it happened.
    unix_ms: u64,
    /// Milliseconds since this run of the series started.
    elapsed_ms: u64,
    #[serde(flatten)]
    event: &'a SeriesEvent,
}

impl EventLog {
    pub fn none() -> EventLog {
        EventLog {
            file: None,
            start: std::time::Instant::now(),
            spectator: None,
        }
    }

    /// Also tells every line to `spectator`.
    pub fn with_spectator(
        mut self,
        spectator: Option<std::sync::Arc<dyn crate::referee::Spectator>>,
    ) -> EventLog {
        self.spectator = spectator;
        self
    }

    /// Appends to `path` (a resumed series continues its stream).
    pub fn open(path: &Path) -> std::io::Result<EventLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(EventLog {
            file: Some(file),
            start: std::time::Instant::now(),
            spectator: None,
        })
    }

    /// Writes one event as one line; a failing disk is reported once and then ignored,
    /// because losing the event stream must not lose the series.
    pub fn emit(&mut self, event: &SeriesEvent) {
        if self.file.is_none() && self.spectator.is_none() {
            return;
        }
        let unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let line = Line {
            version: EVENTS_VERSION,
            unix_ms,
            elapsed_ms: self.start.elapsed().as_millis() as u64,
            event,
        };
        let mut text = serde_json::to_string(&line).expect("events serialize");
        if let Some(s) = &self.spectator {
            s.series_event(&text);
        }
        text.push('\n');
        if let Some(file) = self.file.as_mut() {
            if let Err(e) = file.write_all(text.as_bytes()) {
                tracing::warn!(
                    "cannot write the event stream: {e}; no more events will be written"
                );
                self.file = None;
            }
        }
    }
}
