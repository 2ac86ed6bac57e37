//! The series' event stream (`--events FILE`): one JSON object per line, flushed as it
//! happens, for dashboards and scripts that should never have to parse human output.
//! Every line carries `"version"` (this stream's format, see
//! protocol/schemas/series-event.json) and `"type"`.
//!
//! The records are the truth and the stream follows them: a game's record is on disk
//! before its `game_finished` line is written, so a crash between the two loses the line.
//! A resume mends the stream first ([`mend`]: a torn last line is cut) and writes every lost
//! `game_finished` back, rebuilt from its record ([`SeriesEvent::restored`]).

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::path::Path;

use serde::Serialize;

use crate::record::{GameRecord, Termination};
use crate::referee::Refereed;
use crate::rules::Side;

use super::conduct::{Conduct, GameConduct};
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
        /// The series' identity (`series::shard::identity`): the same for every shard of it.
        identity: String,
        /// The shard this run plays (`K/N`), absent for a whole series.
        #[serde(skip_serializing_if = "Option::is_none")]
        shard: Option<super::shard::Shard>,
        /// The machine this run is on, when it has a name.
        #[serde(skip_serializing_if = "Option::is_none")]
        host: Option<String>,
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
        /// A resume wrote this line back from the game's record, because a crash lost it
        /// (see [`SeriesEvent::restored`]); absent from lines written as the game ended.
        #[serde(skip_serializing_if = "is_false")]
        restored: bool,
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
        /// The games of the encounter's whole pairs over which its SPRT is judged.
        games_finished: u64,
        sprt: SprtReport,
        /// A gauntlet's: the encounter that decided (its first bot, then the opponent);
        /// absent for two bots.
        #[serde(skip_serializing_if = "Option::is_none")]
        bots: Option<[String; 2]>,
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
            restored: false,
        }
    }

    /// `game_finished` for a game whose record is on disk but whose line was lost (a crash
    /// between the record's write and the line's), built from the record as the line was
    /// built from the referee's report: the same `game` reference, attempt (tag `Attempt`),
    /// result, termination, reason (tag `TerminationReason`, or for a normal end the
    /// engine's reason after replaying the record), score (the replayed game's), per side
    /// `timeouts`, `suspect_timeouts`, `illegal` and `verdict` (the conduct tags) and
    /// `decisions` (see [`decisions`]).
    ///
    /// What the record does not keep cannot be restored, and is 0 with `restored` true:
    /// `duration_ms` (the game's wall time is nowhere in the record), and
    /// `think_us_per_decision` and `cpu_us_per_decision` (the record's `[%emt]` and `[%cpu]`
    /// are in milliseconds, cover only the actions taken, not the timeouts and invalid
    /// replies, and a play-count game has none: a mean built from them would look like the
    /// measurement it is not). The line's `unix_ms` and `elapsed_ms` are the resume's.
    pub fn restored(game: GameRef, record: &GameRecord) -> Result<SeriesEvent, String> {
        let rules = record.rules().map_err(|e| e.to_string())?;
        let replayed = crate::with_rules!(rules, R => replay::<R>(record))?;
        let termination = record.termination().map_err(|e| e.to_string())?;
        let result = record.result().map_err(|e| e.to_string())?;
        let attempt = match record.tags.get("Attempt") {
            None => 1,
            Some(value) => value
                .parse()
                .map_err(|_| format!("the Attempt tag \"{value}\" is not a number"))?,
        };
        let reason = match termination {
            Termination::Normal => replayed.reason,
            _ => record
                .tags
                .get("TerminationReason")
                .unwrap_or_default()
                .to_string(),
        };
        let [w, b] = Side::ALL.map(|side| GameConduct::from_tags(side, &record.tags));
        let [w, b] = [w?, b?];
        let decided = |side: Side, c: &GameConduct| decisions(replayed.actions[side.index()], c);
        let per = |f: fn(&GameConduct) -> u32| PerSide {
            white: f(&w),
            black: f(&b),
        };
        Ok(SeriesEvent::GameFinished {
            game,
            attempt,
            result: result
                .map_or("*", crate::rules::GameResult::pgn)
                .to_string(),
            termination: termination.code().to_string(),
            reason,
            score: PerSide {
                white: replayed.score[0],
                black: replayed.score[1],
            },
            decisions: PerSide {
                white: decided(Side::White, &w),
                black: decided(Side::Black, &b),
            },
            timeouts: per(|c| c.timeouts),
            suspect_timeouts: per(|c| c.suspect_timeouts),
            illegal: per(|c| c.illegal),
            verdict: PerSide {
                white: w.verdict.clone(),
                black: b.verdict.clone(),
            },
            think_us_per_decision: PerSide { white: 0, black: 0 },
            cpu_us_per_decision: PerSide { white: 0, black: 0 },
            duration_ms: 0,
            restored: true,
        })
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A side's decisions, as the referee counts them, from what its record keeps: every
/// request the side answered or missed counts once (an action taken, a timeout, an invalid
/// or illegal reply), except the one that forfeited the game (the timeout that lost on time,
/// the illegal reply over the limit), which the referee counts in `timeouts` or `illegal`
/// but not in `decisions`. A bot gone without a reply (a crash, a flood, a limit) was
/// counted in none of them.
///
/// One case is not in the record: an internal error of the referee after a miss (the
/// engine refusing a clock's consequence) ends the game with the miss counted but not the
/// decision; that game's count is one too high here.
fn decisions(actions: u32, conduct: &GameConduct) -> u32 {
    let forfeited = match conduct.verdict.as_deref() {
        Some("timeout") => conduct.timeouts > 0,
        Some("illegal") => conduct.illegal > 0,
        _ => false,
    };
    (actions + conduct.timeouts + conduct.illegal).saturating_sub(u32::from(forfeited))
}

/// What replaying a record tells of its game's end.
struct Replayed {
    /// The engine's reason for a game that reached its end.
    reason: String,
    score: [u16; 2],
    /// The actions each side took (index: [`Side::index`]).
    actions: [u32; 2],
}

/// Replays `record` as a game of `R`, counting each side's actions.
fn replay<R: Refereed>(record: &GameRecord) -> Result<Replayed, String> {
    let mut game = R::from_tags(&record.tags).map_err(|e| e.to_string())?;
    let mut actions = [0u32; 2];
    for (index, entry) in record.entries.iter().enumerate() {
        if let (crate::record::Entry::Action { .. }, Some((side, _))) = (entry, game.to_decide()) {
            actions[side.index()] += 1;
        }
        entry
            .apply_to(&mut game)
            .map_err(|e| format!("entry {index} ({entry}) does not replay: {e}"))?;
    }
    Ok(Replayed {
        reason: game.end_reason(),
        score: [game.points(Side::White), game.points(Side::Black)],
        actions,
    })
}

/// Mends the event stream at `path` before a run appends to it, and says which games it
/// has a `game_finished` line for (by number and seed). A line is whole when it is a JSON
/// object; whatever follows the last whole line (a line cut short by a crash, zero bytes,
/// junk) is cut, and only it is lost; a last whole line without its newline gets it back,
/// so that the next line never sticks to it. A damaged line between whole ones is left as
/// it is (readers skip what they cannot read).
///
/// No stream yet: no game. `None` when `path` is not a regular file (a pipe, a terminal):
/// it cannot be read back, nor mended.
pub(crate) fn mend(path: &Path) -> std::io::Result<Option<BTreeSet<(u32, u64)>>> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Some(BTreeSet::new())),
        Err(e) => return Err(e),
    }
    /// The fields of a line that say which game it finished (serde_json checks that the
    /// rest is JSON too, without keeping it).
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(rename = "type")]
        kind: Option<serde_json::Value>,
        game: Option<serde_json::Value>,
        seed: Option<serde_json::Value>,
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)?;
    let mut finished = BTreeSet::new();
    let (mut offset, mut whole, mut newline) = (0u64, 0u64, true);
    let mut reader = std::io::BufReader::new(&file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        offset += n as u64;
        let body = line.strip_suffix(b"\n");
        let text = body.unwrap_or(&line);
        let Some(head) = text
            .starts_with(b"{")
            .then(|| serde_json::from_slice::<Head>(text).ok())
            .flatten()
        else {
            continue;
        };
        (whole, newline) = (offset, body.is_some());
        let number = |v: Option<serde_json::Value>| v.and_then(|v| v.as_u64());
        if let (Some("game_finished"), Some(game), Some(seed)) = (
            head.kind.as_ref().and_then(|k| k.as_str()),
            number(head.game).and_then(|g| u32::try_from(g).ok()),
            number(head.seed),
        ) {
            finished.insert((game, seed));
        }
    }
    if whole < offset {
        tracing::warn!(
            "{}: dropped {} bytes after the last whole line (a write cut short, byte {whole} on)",
            path.display(),
            offset - whole
        );
        file.set_len(whole)?;
    }
    if !newline {
        file.write_all(b"\n")?;
    }
    if whole < offset || !newline {
        file.sync_data()?;
    }
    Ok(Some(finished))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn conduct(timeouts: u32, illegal: u32, verdict: Option<&str>) -> GameConduct {
        GameConduct {
            timeouts,
            suspect_timeouts: 0,
            illegal,
            verdict: verdict.map(str::to_string),
        }
    }

    #[test]
    fn decisions_count_every_miss_but_the_one_that_forfeited() {
        assert_eq!(decisions(10, &conduct(0, 0, None)), 10);
        assert_eq!(decisions(10, &conduct(2, 1, None)), 13);
        // Lost on time: its last timeout was no decision; nor the illegal reply over the limit.
        assert_eq!(decisions(10, &conduct(2, 0, Some("timeout"))), 11);
        assert_eq!(decisions(10, &conduct(0, 3, Some("illegal"))), 12);
        // A handshake's verdict comes before any decision.
        assert_eq!(decisions(0, &conduct(0, 0, Some("timeout"))), 0);
        assert_eq!(decisions(0, &conduct(0, 0, Some("illegal"))), 0);
        assert_eq!(decisions(4, &conduct(1, 0, Some("crashed"))), 5);
    }

    #[test]
    fn mending_cuts_only_what_follows_the_last_whole_line() {
        let dir = std::env::temp_dir().join(format!("zebra-mend-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.jsonl");
        assert_eq!(mend(&path).unwrap(), Some(BTreeSet::new()), "no stream yet");
        let lines = concat!(
            "{\"version\":1,\"type\":\"series_started\",\"seed\":7}\n",
            "{\"version\":1,\"type\":\"game_finished\",\"game\":1,\"seed\":7}\n",
            "not json\n",
            "{\"version\":1,\"type\":\"game_finished\",\"game\":2,\"seed\":7}\n",
        );
        let finished = BTreeSet::from([(1, 7), (2, 7)]);
        for (tail, mended) in [
            ("", lines.to_string()),
            ("{\"version\":1,\"type\":\"game_fin", lines.to_string()),
            ("{\"version\":1}", format!("{lines}{{\"version\":1}}\n")),
            ("\0\0\0\0", lines.to_string()),
            ("{\"a\":\n\0\0\n\u{1}junk", lines.to_string()),
        ] {
            std::fs::write(&path, format!("{lines}{tail}")).unwrap();
            assert_eq!(mend(&path).unwrap(), Some(finished.clone()), "{tail:?}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), mended, "{tail:?}");
        }
        // Torn inside a game's line: that game has no line, and the damaged line before it,
        // now after the last whole line, goes too.
        let torn = &lines[..lines.len() - 10];
        std::fs::write(&path, torn).unwrap();
        assert_eq!(mend(&path).unwrap(), Some(BTreeSet::from([(1, 7)])));
        let cut = torn.find("not json").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), &torn[..cut]);
        assert_eq!(mend(Path::new("/dev/null")).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
