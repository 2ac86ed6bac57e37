//! Live feeds shared by daemons on one PostgreSQL store: a series' live page on any daemon
//! shows every game of the series, whichever daemon (or its remote workers) plays it.
//!
//! - A daemon's own games write their record so far to the store (`live_games`) at most
//!   every [`EVERY`] through [`Mirror`], the spectator beside the series' hub.
//! - [`run`]: every [`EVERY`], for each running series whose live page is open here, the
//!   daemon reads what other daemons' games wrote since it last looked and hands it to the
//!   hub (a game seen for the first time is announced as started), and brings the series'
//!   books up to date, which tells the hub of the games counted elsewhere (their end, their
//!   line in the event stream: `Books::catch_up`).
//!
//! Nothing of this runs on SQLite (one daemon: its hub hears every game first hand).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use super::store::Lease;
use super::{now_ms, Daemon};
use crate::record::GameRecord;
use crate::referee::Spectator;

/// How often a game's record so far is written, and other daemons' are read, at most.
pub const EVERY: Duration = Duration::from_millis(500);

/// How far back each read of the others' records looks before the last stamp it saw.
const OVERLAP_MS: i64 = 1_000;

/// Records so far no longer running are forgotten this often.
const TIDY_EVERY: Duration = Duration::from_secs(30);

/// Hands a daemon's own game to its hub and, every [`EVERY`] at most, its record so far
/// to the store, by a task that ends with the game.
pub struct Mirror {
    hub: Arc<crate::web::live::Hub>,
    latest: Mutex<(Option<Instant>, Option<String>)>,
}

impl Mirror {
    /// The game's spectator: the hub itself on SQLite, a mirror on a shared store.
    pub fn spectator(
        daemon: &Arc<Daemon>,
        hub: Arc<crate::web::live::Hub>,
        lease: &Lease,
    ) -> Arc<dyn Spectator> {
        if !daemon.settings.database.is_shared() {
            return hub;
        }
        let mirror = Arc::new(Mirror {
            hub,
            latest: Mutex::new((None, None)),
        });
        let weak: Weak<Mirror> = Arc::downgrade(&mirror);
        let (daemon, lease) = (Arc::clone(daemon), lease.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(EVERY).await;
                let Some(mirror) = weak.upgrade() else { break };
                let text = mirror
                    .latest
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .1
                    .take();
                drop(mirror);
                if let Some(text) = text {
                    let lease = lease.clone();
                    if let Err(e) = daemon
                        .db(move |s| s.set_live(&lease, &text, now_ms()))
                        .await
                    {
                        tracing::debug!("live feed: {e}");
                    }
                }
            }
        });
        mirror
    }
}

impl Spectator for Mirror {
    fn announce(&self, number: u32) {
        self.hub.announce(number);
    }

    fn series_event(&self, line: &str) {
        self.hub.series_event(line);
    }

    fn follow(&self, number: u32, record: &GameRecord) {
        self.hub.follow(number, record);
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        if latest.0.is_some_and(|at| at.elapsed() < EVERY) {
            return;
        }
        if let Ok(text) = crate::record::write_game(record) {
            *latest = (Some(Instant::now()), Some(text));
        }
    }

    fn game_over(&self, number: u32, record: &GameRecord, reason: &str) {
        self.hub.game_over(number, record, reason);
    }
}

/// Feeds the open live pages of running series with the games other daemons play, until
/// the daemon stops (on a shared store only).
pub async fn run(daemon: Arc<Daemon>) {
    if !daemon.settings.database.is_shared() {
        return;
    }
    // Per series: when its feed was last read, and the attempt followed of each game.
    let mut read: HashMap<i64, (i64, HashMap<u32, u32>)> = HashMap::new();
    let mut tidied = Instant::now();
    while !daemon.stopping.is_cancelled() {
        tokio::select! {
            _ = tokio::time::sleep(EVERY) => {}
            _ = daemon.stopping.cancelled() => break,
        }
        // Series another daemon ended: their pages here are told, their books dropped.
        let loaded: Vec<i64> = daemon.open_series().into_iter().map(|(id, _)| id).collect();
        let ended = daemon
            .db(move |s| {
                let mut ended = Vec::new();
                for id in loaded {
                    if let Some(row) = s.series(id)? {
                        if row.state != "running" {
                            ended.push((id, row.outcome.unwrap_or_default()));
                        }
                    }
                }
                Ok(ended)
            })
            .await
            .unwrap_or_default();
        for (id, outcome) in ended {
            // The last games counted elsewhere first, then the end.
            if let Some(books) = daemon.cached_books(id) {
                let held = Arc::clone(&books);
                let _ = daemon
                    .db(move |s| {
                        held.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .catch_up(s, id, None)
                    })
                    .await;
            }
            super::tally::ended_elsewhere(&daemon, id, &outcome);
        }
        let open: Vec<i64> = daemon
            .open_series()
            .into_iter()
            .filter(|(_, hub)| hub.feeds() > 0)
            .map(|(id, _)| id)
            .collect();
        read.retain(|id, _| open.contains(id));
        for id in open {
            // Games counted elsewhere since: folded, and told to the page.
            let Ok(books) = daemon.books(id).await else {
                continue;
            };
            // A second back from the last stamp read: a row stamped just before it but
            // committed after that read is read now (following a record again is free).
            let after = read.get(&id).map_or(0, |(after, _)| after - OVERLAP_MS);
            let owner = daemon.owner.clone();
            let rows = match daemon.db(move |s| s.live_since(id, after, &owner)).await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::debug!(series = id, "live feeds of other daemons: {e}");
                    continue;
                }
            };
            let entry = read.entry(id).or_default();
            let mut b = books.lock().unwrap_or_else(|e| e.into_inner());
            for (number, attempt, text, at) in rows {
                entry.0 = entry.0.max(at);
                let Some(record) = crate::record::read_games(&text)
                    .ok()
                    .and_then(|mut games| (games.len() == 1).then(|| games.remove(0)))
                else {
                    continue;
                };
                // A game voided where it ran and played again (another daemon's lease ran
                // out): the page starts it over rather than mixing two attempts.
                if entry
                    .1
                    .insert(number, attempt)
                    .is_some_and(|was| was != attempt)
                {
                    b.hub.restart(number);
                }
                // Announced once (a game leased through this daemon by a remote worker
                // was announced when it was leased).
                if !b.hub.holds(number) {
                    if let Some(fixture) = b.schedule.get(number) {
                        b.game_started(&fixture, attempt);
                    }
                }
                b.hub.follow(number, &record);
            }
        }
        if tidied.elapsed() >= TIDY_EVERY {
            tidied = Instant::now();
            if let Err(e) = daemon.db(|s| s.tidy_live()).await {
                tracing::debug!("live feeds: {e}");
            }
        }
    }
}
