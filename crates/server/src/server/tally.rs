//! A finished game counted: its record stored, its result committed if its lease still
//! holds, its worker's figures and its series' books updated, and the series ended when
//! nothing is left to play. The same for a game the daemon's own workers played
//! ([`Tally::played`]) and one a remote worker reports ([`Tally::reported`], which checks
//! the record first: it must be the game leased, and it must replay).
//!
//! A bot's fault is a result: a crash, a timeout or a memory limit is a forfeit recorded
//! with its verdict. The infrastructure's is not: a finish that comes after its lease was
//! voided is not counted. A bot that crashes `suspend_after` times in a row is suspended:
//! its queued games wait until an admin makes it active again, or the series is cancelled.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use crate::record::{GameRecord, Termination};
use crate::rules::Side;
use crate::series::conduct::GameConduct;
use crate::series::events::{GameRef, SeriesEvent};
use crate::series::game::{PlayedGame, SeriesGame};
use crate::series::schedule::Fixture;
use crate::series::standings::GameOutcome;

use super::series::{Books, Ending};
use super::store::{BotState, Finished, GameEnd, Lease, StoreError, WorkerInfo};
use super::{now_ms, Daemon};

/// A finished game as the daemon counts it.
#[derive(Debug)]
pub struct Tally {
    pub fixture: Fixture,
    pub record: GameRecord,
    pub result: String,
    pub termination: Termination,
    /// Why it ended, in words (for the live page).
    pub reason: String,
    /// White's, then Black's.
    pub conduct: [GameConduct; 2],
    pub outcome: GameOutcome,
    /// Its `game_finished` line.
    pub event: SeriesEvent,
}

/// What a worker measured of a game that its record does not hold: the game's wall time
/// and each side's mean wall and CPU time per decision (White's, then Black's), in µs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figures {
    pub duration_ms: u64,
    pub think_us: [u64; 2],
    pub cpu_us: [u64; 2],
}

impl Figures {
    /// The figures of a `game_finished` line.
    pub fn of(event: &SeriesEvent) -> Option<Figures> {
        match event {
            SeriesEvent::GameFinished {
                think_us_per_decision: think,
                cpu_us_per_decision: cpu,
                duration_ms,
                ..
            } => Some(Figures {
                duration_ms: *duration_ms,
                think_us: [think.white, think.black],
                cpu_us: [cpu.white, cpu.black],
            }),
            _ => None,
        }
    }
}

/// The tags a worker adds to each record it plays: who played it, where.
pub fn stamp(record: &mut GameRecord, worker: &WorkerInfo) {
    for (tag, value) in [
        ("Worker", &worker.name),
        ("WorkerHost", &worker.host),
        ("WorkerCpu", &worker.cpu),
        ("WorkerSandbox", &worker.sandbox),
    ] {
        record.tags.set(tag, value.as_str());
    }
}

impl Tally {
    /// A game played here (by the daemon's own worker, or by `zebra worker` before it
    /// reports it).
    pub fn played(played: PlayedGame, names: &[String]) -> Tally {
        let event = SeriesEvent::finished(
            GameRef::of(&played.fixture, names),
            played.attempt,
            &played.report,
            played.duration,
        );
        Tally {
            fixture: played.fixture,
            result: played
                .report
                .result
                .map_or("*", crate::rules::GameResult::pgn)
                .to_string(),
            termination: played.report.termination,
            reason: played.report.reason,
            record: played.report.record,
            conduct: played.conduct,
            outcome: played.outcome,
            event,
        }
    }

    /// A game a remote worker reports: `text`, its record, must be game `game` (the one
    /// leased: its players, seed, start, clocks and series tags), name its worker, and
    /// replay; its result, termination and conduct are the record's. Of the worker's
    /// `game_finished` line only what the record cannot hold is taken: the game's wall time
    /// and the bots' time per decision. The refusal says what is wrong, in one line.
    pub fn reported(
        text: &str,
        game: &SeriesGame,
        worker: &str,
        figures: Option<&Figures>,
        names: &[String],
    ) -> Result<Tally, String> {
        let mut records = crate::record::read_games(text)
            .map_err(|e| format!("the record does not read: {e}"))?;
        if records.len() != 1 {
            return Err(format!(
                "the report holds {} records; send exactly the leased game's",
                records.len()
            ));
        }
        let record = records.remove(0);
        let fixture = game.fixture;
        let mut expected = crate::referee::opening_tags(&game.white, &game.black, &game.config);
        expected.set("Pair", fixture.pair.to_string());
        expected.set("Game", fixture.game.to_string());
        if game.attempt > 1 {
            expected.set("Attempt", game.attempt.to_string());
        }
        expected.set("Worker", worker);
        for (tag, value) in expected.iter() {
            let found = record.tags.get(tag);
            if found != Some(value) {
                return Err(format!(
                    "tag {tag} is {}, but the game leased has \"{value}\": report the game that was leased",
                    found.map_or_else(|| "missing".to_string(), |f| format!("\"{f}\"")),
                ));
            }
        }
        if record.tags.get("Attempt").is_some() && game.attempt == 1 {
            return Err("tag Attempt is there, but this is the game's first attempt".into());
        }
        let summary = crate::record::verify::verify_any(&record)
            .map_err(|e| format!("the record does not replay: {e}"))?;
        let conduct = Side::ALL.map(|side| GameConduct::from_tags(side, &record.tags));
        let [white, black] = conduct;
        let conduct = [white?, black?];
        let mut event = SeriesEvent::restored(GameRef::of(&fixture, names), &record)?;
        if let (
            SeriesEvent::GameFinished {
                think_us_per_decision,
                cpu_us_per_decision,
                duration_ms,
                restored,
                ..
            },
            Some(f),
        ) = (&mut event, figures)
        {
            think_us_per_decision.white = f.think_us[0];
            think_us_per_decision.black = f.think_us[1];
            cpu_us_per_decision.white = f.cpu_us[0];
            cpu_us_per_decision.black = f.cpu_us[1];
            *duration_ms = f.duration_ms;
            *restored = false;
        }
        let reason = match &event {
            SeriesEvent::GameFinished { reason, .. } => reason.clone(),
            _ => String::new(),
        };
        let outcome = GameOutcome::of(&fixture, summary.result, summary.termination)
            .with_conduct(conduct.clone());
        Ok(Tally {
            fixture,
            result: summary
                .result
                .map_or("*", crate::rules::GameResult::pgn)
                .to_string(),
            termination: summary.termination,
            reason,
            record,
            conduct,
            outcome,
            event,
        })
    }

    /// Whether the game ended by a forfeit (not the engine's end, nor an adjudication).
    fn forfeit(&self) -> bool {
        !matches!(
            self.termination,
            Termination::Normal | Termination::Adjudication
        )
    }
}

/// Stores a finished game (its result and record, if the lease still holds) and folds it
/// into its series; `false` if the lease no longer held (not counted).
pub async fn count(
    daemon: &Arc<Daemon>,
    lease: Lease,
    tally: Tally,
    worker: &str,
    books: &Arc<Mutex<Books>>,
) -> Result<bool, StoreError> {
    let text = crate::record::write_game(&tally.record).map_err(|e| StoreError::Io {
        what: "write the record of",
        path: format!("game {}", lease.game).into(),
        source: std::io::Error::other(e.to_string()),
    })?;
    let hash = super::store::record_hash(&text);
    let end = GameEnd {
        number: lease.number,
        result: tally.result.clone(),
        termination: tally.termination.code().to_string(),
        conduct: serde_json::to_string(&tally.conduct).expect("conduct serializes"),
        record: hash,
    };
    let (series, number) = (lease.series, lease.number);
    let (white, black) = (lease.white, lease.black);
    let timeouts = tally.conduct.iter().map(|c| c.timeouts).sum::<u32>();
    let forfeit = tally.forfeit();
    let worker = worker.to_string();
    // The pool's books and the series' count the game while the store is still held
    // (server::pool), with any finished by another daemon sharing the store since they
    // last looked: an exclusion (which takes games back, holding the store too) comes
    // wholly before or after. A decision of the SPRT ends the series in the same hold.
    let d = Arc::clone(daemon);
    let held = Arc::clone(books);
    let counted = daemon
        .db(move |s| {
            // The game and its worker's figures in one write transaction (an exclusion on
            // another daemon comes wholly before or after both).
            let finished = s.exclusive(|s| {
                let finished = s.finish(&lease, &end, &text, now_ms())?;
                if finished != Finished::Stale {
                    s.tally_worker(&worker, timeouts, forfeit)?;
                }
                Ok(finished)
            })?;
            if finished == Finished::Stale {
                return Ok(None);
            }
            // The game is stored: what follows is never a reason to skip the series' count.
            if let Err(e) = d.pool.catch_up(s) {
                tracing::error!("cannot bring the leaderboard's books up to date: {e}");
            }
            // This game and any another daemon sharing the store finished meanwhile.
            let mut b = held.lock().unwrap_or_else(|e| e.into_inner());
            let decided = b.catch_up(s, series, Some(number))?.unwrap_or_else(|e| {
                tracing::error!(series, "cannot count a stored game: {e}");
                false
            });
            let ended = if decided {
                let ending = Ending::Played(b.end_when_played());
                Some((s.conclude(series, ending.code())?, ending))
            } else {
                None
            };
            Ok(Some(ended))
        })
        .await?;
    let Some(ended) = counted else {
        daemon.metrics.games_voided.fetch_add(1, Ordering::Relaxed);
        return Ok(false);
    };
    let m = &daemon.metrics;
    m.games_finished.fetch_add(1, Ordering::SeqCst);
    for c in &tally.conduct {
        m.timeouts
            .fetch_add(u64::from(c.timeouts), Ordering::Relaxed);
        m.illegal.fetch_add(u64::from(c.illegal), Ordering::Relaxed);
        if let Some(v) = &c.verdict {
            m.verdict(v);
        }
    }
    suspend_crashers(
        daemon,
        [(white, &tally.conduct[0]), (black, &tally.conduct[1])],
    )
    .await?;
    books
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .game_counted(&tally);
    if let Some((changed, ending)) = ended {
        closed(daemon, series, changed, ending);
        return Ok(true);
    }
    settle(daemon, series).await.map(|()| true)
}

/// Ends series `series` if it has no game left to play: every game finished, or some void
/// after their attempts (`incomplete`: the statistics lack them).
pub async fn settle(daemon: &Arc<Daemon>, series: i64) -> Result<(), StoreError> {
    // Asked after every game: whether anything is left, before counting what (which reads
    // every game of the series).
    let Some(progress) = daemon
        .db(move |s| {
            if s.unplayed(series)? {
                return Ok(None);
            }
            s.progress(series).map(Some)
        })
        .await?
    else {
        return Ok(());
    };
    if progress.queued + progress.leased > 0 {
        return Ok(());
    }
    // A game void after its attempts, or games withdrawn (a bot of the series deleted by
    // its owner): what the series planned was not all played.
    let end = if progress.void > 0 || progress.cancelled > 0 {
        Ending::Incomplete
    } else {
        match daemon.books(series).await {
            Ok(books) => Ending::Played(
                books
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .end_when_played(),
            ),
            Err(e) => {
                tracing::error!(series, "cannot read the series' books: {e}");
                return Ok(());
            }
        }
    };
    conclude(daemon, series, end).await
}

/// Ends a series: no more of its games are leased, and its books are dropped.
async fn conclude(daemon: &Arc<Daemon>, series: i64, ending: Ending) -> Result<(), StoreError> {
    let changed = daemon
        .db(move |s| s.conclude(series, ending.code()))
        .await?;
    closed(daemon, series, changed, ending);
    Ok(())
}

/// A series another daemon sharing the store ended (`outcome` as stored): its live page
/// here told, its books here dropped.
pub(crate) fn ended_elsewhere(daemon: &Arc<Daemon>, series: i64, outcome: &str) {
    closed(
        daemon,
        series,
        false,
        Ending::of_code(outcome).unwrap_or(Ending::Incomplete),
    );
}

/// What follows a series' end in the store (`changed`: this call ended it): the live page
/// told, the books dropped.
fn closed(daemon: &Arc<Daemon>, series: i64, changed: bool, ending: Ending) {
    if changed {
        tracing::info!(series, outcome = ending.code(), "series ended");
    }
    if let Some(books) = daemon.cached_books(series) {
        books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .close(ending);
    }
    daemon.drop_books(series);
}

/// Counts crashes in a row per bot and suspends a bot at the daemon's limit.
async fn suspend_crashers(
    daemon: &Arc<Daemon>,
    sides: [(i64, &GameConduct); 2],
) -> Result<(), StoreError> {
    let limit = daemon.settings.suspend_after;
    let mut suspend = Vec::new();
    {
        let mut crashes = daemon.crashes.lock().unwrap_or_else(|e| e.into_inner());
        for (bot, conduct) in sides {
            let crashed = matches!(conduct.verdict.as_deref(), Some("crashed" | "not-started"));
            let n = crashes.entry(bot).or_default();
            *n = if crashed { *n + 1 } else { 0 };
            if limit > 0 && *n >= limit {
                suspend.push((bot, *n));
                *n = 0;
            }
        }
    }
    for (bot, n) in suspend {
        tracing::warn!(bot, "suspended after {n} crashes in a row");
        daemon
            .metrics
            .bots_suspended
            .fetch_add(1, Ordering::Relaxed);
        // The reason joins the check report (which stays), for the owner to read.
        daemon
            .db(move |s| {
                let mut report = s
                    .bot(bot)?
                    .and_then(|b| b.report)
                    .and_then(|r| serde_json::from_str::<serde_json::Value>(&r).ok())
                    .filter(serde_json::Value::is_object)
                    .unwrap_or_else(|| serde_json::json!({}));
                report["suspended"] = format!("{n} crashes in a row").into();
                s.set_bot_state(bot, BotState::Suspended, Some(&report.to_string()))
            })
            .await?;
    }
    Ok(())
}

/// Excludes worker `name` (or admits it again): see [`super::store::Store::exclude_worker`].
/// The running series whose games it played fold their books again from the store, and
/// the pool's books are read again, while the store is held (no game is counted between);
/// the series' games queued again are played by others. `None` if there is no such worker.
pub async fn exclude(
    daemon: &Arc<Daemon>,
    name: String,
    excluded: bool,
) -> Result<Option<Vec<i64>>, StoreError> {
    let max_attempts = daemon.settings.max_attempts;
    let d = Arc::clone(daemon);
    let replayed = daemon
        .db(move |s| {
            let Some(series) = s.exclude_worker(&name, excluded, max_attempts)? else {
                return Ok(None);
            };
            if !series.is_empty() {
                d.pool.forget();
            }
            for &id in &series {
                if let Some(books) = d.cached_books(id) {
                    // The store counts a refold: the books are read afresh.
                    let folded = books
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .catch_up(s, id, None)?;
                    if let Err(e) = folded {
                        // Not kept half-folded: read again from the store at the next use.
                        tracing::error!(series = id, "cannot fold the series' books again: {e}");
                        d.books
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .remove(&id);
                    }
                }
            }
            Ok(Some(series))
        })
        .await?;
    if let Some(series) = &replayed {
        if !series.is_empty() {
            daemon.wake.notify_waiters();
        }
    }
    Ok(replayed)
}
