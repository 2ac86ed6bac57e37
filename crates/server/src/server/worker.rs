//! The workers: each leases the next game from the store, plays it through
//! [`crate::series::game::play`] (the code `zebra match` plays with), stores its record and
//! result, and folds it into its series' books, which may end the series (every game
//! played, or the SPRT decided).
//!
//! A bot's fault is a result: a crash, a timeout or a memory limit is a forfeit recorded
//! with its verdict. The daemon's fault is not: a game abandoned at shutdown has its attempt
//! voided and is played again; a finish that comes after its lease was voided is not
//! counted. A bot that crashes `suspend_after` times in a row is suspended: its queued games
//! wait until an admin makes it active again, or the series is cancelled.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::record::write_game;
use crate::series::game::{play, PlayedGame};

use super::series::Ending;
use super::store::{BotState, Finished, GameEnd, Lease, StoreError};
use super::{now_ms, Daemon};

/// How long an idle worker waits before it looks at the queue again, if nobody wakes it.
const IDLE_POLL: Duration = Duration::from_secs(1);

/// One worker, until the daemon stops leasing.
///
/// A finished game is stored while the worker's next game plays (its record written and
/// fsynced, its result committed, its series settled: some 3 ms a game, which would
/// otherwise be a pause between games). At most one game per worker waits to be stored,
/// and the worker does not return before it is.
pub async fn run(daemon: Arc<Daemon>, slot: usize) {
    let lease_ms = daemon.settings.lease.as_millis() as i64;
    let max_attempts = daemon.settings.max_attempts;
    let mut storing: Option<tokio::task::JoinHandle<()>> = None;
    while !daemon.stopping.is_cancelled() {
        // Registered before the queue is read, so that a submission in between wakes us.
        let woken = daemon.wake.notified();
        let owner = daemon.owner.clone();
        let leased = daemon
            .db(move |s| s.lease(&owner, now_ms(), lease_ms, max_attempts))
            .await;
        match leased {
            Ok(Some(lease)) => match play_lease(&daemon, lease).await {
                Ok(Some(done)) => {
                    if let Some(previous) = storing.take() {
                        let _ = previous.await;
                    }
                    let daemon = Arc::clone(&daemon);
                    storing = Some(tokio::spawn(async move {
                        let (lease, played, books) = done;
                        if let Err(e) = count(&daemon, lease, played, &books).await {
                            tracing::error!(slot, "a game could not be stored: {e}");
                        }
                    }));
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(slot, "a game could not be stored: {e}");
                    tokio::time::sleep(IDLE_POLL).await;
                }
            },
            Ok(None) => {
                tokio::select! {
                    _ = woken => {}
                    _ = tokio::time::sleep(IDLE_POLL) => {}
                    _ = daemon.stopping.cancelled() => {}
                }
            }
            Err(e) => {
                tracing::error!(slot, "cannot lease a game: {e}");
                tokio::time::sleep(IDLE_POLL).await;
            }
        }
    }
    if let Some(last) = storing {
        let _ = last.await;
    }
}

/// A played game waiting to be stored: its lease, the game and its series' books.
type Played = (
    Lease,
    PlayedGame,
    Arc<std::sync::Mutex<super::series::Books>>,
);

/// Plays a leased game, renewing the lease meanwhile; the game to store, unless it was
/// voided.
async fn play_lease(daemon: &Arc<Daemon>, mut lease: Lease) -> Result<Option<Played>, StoreError> {
    let max_attempts = daemon.settings.max_attempts;
    let books = match daemon.books(lease.series).await {
        Ok(books) => books,
        Err(e) => {
            // A series the daemon cannot set up (a bot's registration no longer reads) is
            // the daemon's problem, not a result: the attempt is voided.
            tracing::error!(series = lease.series, "cannot set up the series: {e}");
            daemon
                .db(move |s| s.void_lease(&lease, max_attempts))
                .await?;
            return Ok(None);
        }
    };
    let game = {
        let mut b = books.lock().unwrap_or_else(|e| e.into_inner());
        let game = b
            .schedule
            .get(lease.number)
            .map(|fixture| b.entrants.game(&b.config, fixture, lease.attempt));
        if let Some(g) = &game {
            b.game_started(&g.fixture, g.attempt);
        }
        game.map(|g| (g, Arc::clone(&b.hub)))
    };
    let Some((game, hub)) = game else {
        tracing::error!(
            series = lease.series,
            game = lease.number,
            "not in the schedule"
        );
        daemon
            .db(move |s| s.void_lease(&lease, max_attempts))
            .await?;
        return Ok(None);
    };
    // Its transcript and the bots' stderr, if kept, are for their owners only (the data
    // directory is private: see super::private).
    let mut game = game;
    game.config.private_logs = true;
    daemon.metrics.games_running.fetch_add(1, Ordering::Relaxed);
    let played = {
        let spectator: Arc<dyn crate::referee::Spectator> = hub;
        let game_future = play(game, daemon.abandon.child_token(), Some(spectator));
        tokio::pin!(game_future);
        let renew_every = daemon.settings.lease / 3;
        let mut renew =
            tokio::time::interval_at(tokio::time::Instant::now() + renew_every, renew_every);
        loop {
            tokio::select! {
                played = &mut game_future => break played,
                _ = renew.tick() => {
                    let mut held = lease.clone();
                    let until = now_ms() + daemon.settings.lease.as_millis() as i64;
                    let kept = daemon.db(move |s| s.renew(&mut held, until).map(|k| (k, held))).await;
                    match kept {
                        Ok((true, held)) => lease = held,
                        Ok((false, _)) => tracing::warn!(game = lease.game, "lease lost; the result will not count"),
                        Err(e) => tracing::error!("cannot renew a lease: {e}"),
                    }
                }
            }
        }
    };
    daemon.metrics.games_running.fetch_sub(1, Ordering::Relaxed);
    let Some(played) = played else {
        // Abandoned (the daemon is stopping): played again after a restart.
        daemon.metrics.games_voided.fetch_add(1, Ordering::Relaxed);
        let series = lease.series;
        daemon
            .db(move |s| s.void_lease(&lease, max_attempts))
            .await?;
        return settle(daemon, series).await.map(|()| None);
    };
    Ok(Some((lease, played, books)))
}

/// Stores a played game (record file first, then the result if the lease still holds)
/// and folds it into its series.
async fn count(
    daemon: &Arc<Daemon>,
    lease: Lease,
    played: PlayedGame,
    books: &Arc<std::sync::Mutex<super::series::Books>>,
) -> Result<(), StoreError> {
    let text = write_game(&played.report.record).map_err(|e| StoreError::Io {
        what: "write the record of",
        path: format!("game {}", lease.game).into(),
        source: std::io::Error::other(e.to_string()),
    })?;
    let records = daemon.records().clone();
    let hash = tokio::task::spawn_blocking(move || records.put(&text))
        .await
        .map_err(|e| StoreError::Io {
            what: "write the record of",
            path: format!("game {}", lease.game).into(),
            source: std::io::Error::other(e),
        })??;
    let end = GameEnd {
        number: lease.number,
        result: played
            .report
            .result
            .map_or("*", crate::rules::GameResult::pgn)
            .to_string(),
        termination: played.report.termination.code().to_string(),
        conduct: serde_json::to_string(&played.conduct).expect("conduct serializes"),
        record: hash,
    };
    let series = lease.series;
    let (white, black) = (lease.white, lease.black);
    let game = books
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .config
        .rules
        .name();
    // The pool's books count the game while the store is still held (server::pool).
    let d = Arc::clone(daemon);
    let finished = daemon
        .db(move |s| {
            let finished = s.finish(&lease, &end, now_ms())?;
            if finished != Finished::Stale {
                d.pool.count(game, white, black, &end.result, &end.conduct);
            }
            Ok(finished)
        })
        .await?;
    if finished == Finished::Stale {
        daemon.metrics.games_voided.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let m = &daemon.metrics;
    m.games_finished.fetch_add(1, Ordering::SeqCst);
    for c in &played.conduct {
        m.timeouts
            .fetch_add(u64::from(c.timeouts), Ordering::Relaxed);
        m.illegal.fetch_add(u64::from(c.illegal), Ordering::Relaxed);
        if let Some(v) = &c.verdict {
            m.verdict(v);
        }
    }
    suspend_crashers(
        daemon,
        [(white, &played.conduct[0]), (black, &played.conduct[1])],
    )
    .await?;
    let decided = {
        let mut b = books.lock().unwrap_or_else(|e| e.into_inner());
        let decided = b.add(&played.outcome);
        b.game_finished(&played);
        decided
    };
    if decided.is_some() {
        let end = books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .end_when_played();
        conclude(daemon, series, Ending::Played(end)).await?;
        return Ok(());
    }
    settle(daemon, series).await
}

/// Ends series `series` if it has no game left to play: every game finished, or some void
/// after their attempts (`incomplete`: the statistics lack them).
pub async fn settle(daemon: &Arc<Daemon>, series: i64) -> Result<(), StoreError> {
    let progress = daemon.db(move |s| s.progress(series)).await?;
    if progress.queued + progress.leased > 0 {
        return Ok(());
    }
    let end = if progress.void > 0 {
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
    if daemon
        .db(move |s| s.conclude(series, ending.code()))
        .await?
    {
        tracing::info!(series, outcome = ending.code(), "series ended");
    }
    if let Some(books) = daemon.cached_books(series) {
        books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .close(ending);
    }
    daemon.drop_books(series);
    Ok(())
}

/// Counts crashes in a row per bot and suspends a bot at the daemon's limit.
async fn suspend_crashers(
    daemon: &Arc<Daemon>,
    sides: [(i64, &crate::series::conduct::GameConduct); 2],
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
