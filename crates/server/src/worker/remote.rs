//! The [`Lessor`] of `zebra worker`: games leased over the daemon's routes, set up here
//! from the series' request and its bots' registrations exactly as the daemon sets them
//! up ([`crate::server::series::SeriesRequest::series_config`], [`Books`]), reported with
//! their records, and shown live through [`Feed`].

use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use crate::record::GameRecord;
use crate::referee::Spectator;
use crate::series::game::PlayedGame;
use crate::server::fleet::{Grant, LeaseAsk, Report};
use crate::server::series::{Books, SeriesRequest};
use crate::server::store::{BotRow, BotState, Lease, WorkerInfo};
use crate::server::tally::{self, Figures, Tally};
use crate::server::worker::{Leased, Lessor};

use super::cache::Cache;
use super::client::{Answer, Client};
use super::WorkerSettings;

/// How long a lease request waits for work on the daemon.
const LEASE_WAIT: Duration = Duration::from_secs(10);
/// How often a game's record so far is sent for its live page, at most.
const FEED_EVERY: Duration = Duration::from_millis(500);
/// How many series' books are kept set up (the series being played now, in practice).
const KEPT_SERIES: usize = 16;
/// Tries at reporting a finished game before it is left to its lease's end.
const REPORT_TRIES: u32 = 5;

/// The worker's side of its leases.
pub struct Remote {
    client: Client,
    cache: Cache,
    /// Who it says it is (its name without its token's owner).
    info: WorkerInfo,
    /// This run of the worker, in hex.
    instance: String,
    same_programs: bool,
    /// The logs of failed games (kept here, on the worker's machine).
    logs: std::path::PathBuf,
    /// Series set up, by id and the bots' registrations they were set up with.
    books: Mutex<Vec<(SetUp, Arc<Mutex<Books>>)>>,
    /// Cancelled when the daemon refuses this worker for good (excluded): it stops.
    pub quit: tokio_util::sync::CancellationToken,
}

/// A series as it was set up: its id and its bots' registrations.
type SetUp = (i64, String);

/// What a leased game keeps until it is reported.
pub struct Kept {
    names: Vec<String>,
    /// Its live feed (stops when the game ends and this is dropped).
    _feed: Arc<Feed>,
}

impl Remote {
    pub fn new(client: Client, settings: &WorkerSettings, sandbox: String) -> Remote {
        let host = crate::series::shard::host_name().unwrap_or_default();
        let instance = format!(
            "{:x}{:x}",
            std::process::id(),
            crate::server::now_ms() & 0xffff_ffff
        );
        Remote {
            client,
            cache: Cache::new(&settings.cache),
            info: WorkerInfo {
                name: settings.name.clone(),
                host,
                cpu: crate::server::worker::cpu_model(),
                sandbox,
                zebra: env!("CARGO_PKG_VERSION").to_string(),
            },
            instance,
            same_programs: settings.same_programs,
            logs: settings.cache.join("logs"),
            books: Mutex::new(Vec::new()),
            quit: tokio_util::sync::CancellationToken::new(),
        }
    }

    /// The series' books as the daemon has them (without their results: a worker only
    /// plays), set up once per series and set of registrations.
    async fn books(&self, grant: &Grant) -> Result<Arc<Mutex<Books>>, String> {
        let key = (
            grant.series,
            grant
                .bots
                .iter()
                .map(|b| format!("{}:{}:{:?}", b.id, b.spec, b.archive))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        if let Some((_, b)) = self
            .books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(k, _)| *k == key)
        {
            return Ok(Arc::clone(b));
        }
        let mut rows = Vec::new();
        for bot in &grant.bots {
            let mut entry: crate::series::BotEntry = serde_json::from_str(&bot.spec)
                .map_err(|e| format!("bot {}'s registration does not read: {e}", bot.id))?;
            if let Some(hash) = &bot.archive {
                entry.dir = Some(self.cache.bot(&self.client, hash).await?);
            } else if !self.same_programs {
                return Err(format!(
                    "bot {} was registered by path, and this worker plays only uploaded bots (--same-programs lets it run them from the same paths)",
                    bot.id
                ));
            } else if let Err(why) = entry.spec().check_program() {
                // This machine lacks the program: its fault, not the bot's. The game goes
                // back unplayed instead of being a forfeit the bot did not commit.
                return Err(format!(
                    "bot {} ({}) cannot run on this worker: {why}; install it at the same path as on the daemon's machine, or run without --same-programs",
                    bot.id, bot.name
                ));
            }
            rows.push(BotRow {
                id: bot.id,
                name: bot.name.clone(),
                spec: serde_json::to_string(&entry).expect("a bot entry serializes"),
                state: BotState::Active,
                owner: String::new(),
                report: None,
                created_ms: 0,
                family: bot.name.clone(),
                version: 1,
                superseded_by: None,
                deleted_ms: None,
                bytes: 0,
            });
        }
        let request: SeriesRequest = serde_json::from_str(&grant.spec)
            .map_err(|e| format!("series {}'s request does not read: {e}", grant.series))?;
        // The daemon's limits, but this worker's wall: strict always (where this machine
        // has it; the daemon's test switch aside), and never a network, whatever the
        // daemon (or someone between) sends.
        let mut sandbox = grant.sandbox.clone();
        sandbox.mode = if self.info.sandbox == "strict" {
            crate::sandbox::Mode::Strict
        } else {
            crate::sandbox::Mode::Auto
        };
        if sandbox.limits.network == Some(true)
            || rows.iter().any(|r| r.spec.contains("\"network\":true"))
        {
            return Err(
                "the daemon's game lets a bot reach the network, which a worker never allows"
                    .into(),
            );
        }
        let config = request.series_config(
            grant.series,
            &rows,
            &sandbox,
            self.logs.join(format!("series-{}", grant.series)),
        )?;
        let books = Books::new(config, |_| Ok::<(), String>(()))??;
        let books = Arc::new(Mutex::new(books));
        let mut kept = self.books.lock().unwrap_or_else(|e| e.into_inner());
        kept.push((key, Arc::clone(&books)));
        if kept.len() > KEPT_SERIES {
            kept.remove(0);
        }
        Ok(books)
    }

    /// Its full name on the daemon, from a lease held under it (`worker:OWNER/NAME#…`).
    fn full_name(lease: &Lease) -> String {
        lease
            .owner
            .strip_prefix("worker:")
            .and_then(|o| o.rsplit_once('#'))
            .map_or_else(String::new, |(name, _)| name.to_string())
    }

    /// Gives back a game this worker could not set up: never started, so its attempt is
    /// not used up.
    async fn give_back(&self, lease: &Lease, why: &str) {
        tracing::error!(
            game = lease.game,
            "cannot play a leased game: {why}; giving it back"
        );
        if let Err(e) = self.client.abandon(lease, true).await {
            tracing::error!(game = lease.game, "cannot give it back: {e}");
        }
    }
}

impl Lessor for Remote {
    type Held = Kept;

    async fn lease(&self) -> Result<Option<Leased<Kept>>, String> {
        let ask = LeaseAsk {
            worker: self.info.clone(),
            instance: self.instance.clone(),
            same_programs: self.same_programs,
            wait_ms: LEASE_WAIT.as_millis() as u64,
        };
        let grant = match self.client.lease(&ask).await? {
            Answer::Done(Some(grant)) => grant,
            Answer::Done(None) | Answer::Lost(_) => return Ok(None),
            Answer::Refused(why) => {
                tracing::error!("{why}; stopping");
                self.quit.cancel();
                return Ok(None);
            }
        };
        let books = match self.books(&grant).await {
            Ok(books) => books,
            Err(why) => {
                self.give_back(&grant.lease, &why).await;
                return Err(why);
            }
        };
        let (game, names) = {
            let b = books.lock().unwrap_or_else(|e| e.into_inner());
            let game = b
                .schedule
                .get(grant.lease.number)
                .map(|fixture| b.entrants.game(&b.config, fixture, grant.lease.attempt));
            (game, b.names())
        };
        let Some(mut game) = game else {
            let why = format!("game {} is not in its series' schedule", grant.lease.number);
            self.give_back(&grant.lease, &why).await;
            return Err(why);
        };
        game.config.private_logs = true;
        tracing::info!(
            "playing game {} of series {} (attempt {}): {} - {}",
            grant.lease.number,
            grant.series,
            grant.lease.attempt,
            game.white.name,
            game.black.name
        );
        let feed = Feed::start(self.client.clone(), grant.lease.clone());
        Ok(Some(Leased {
            renew_every: Duration::from_millis(grant.renew_ms.max(100)),
            spectator: Some(Arc::clone(&feed) as Arc<dyn Spectator>),
            lease: grant.lease,
            game,
            held: Kept { names, _feed: feed },
        }))
    }

    async fn renew(&self, lease: &Lease) -> Result<Option<i64>, String> {
        match self.client.renew(lease).await? {
            Answer::Done(until) => Ok(Some(until)),
            Answer::Lost(_) => Ok(None),
            Answer::Refused(why) => Err(why),
        }
    }

    async fn finish(
        self: Arc<Self>,
        lease: Lease,
        kept: Kept,
        played: PlayedGame,
    ) -> Result<(), String> {
        let mut tally = Tally::played(played, &kept.names);
        drop(kept);
        let me = WorkerInfo {
            name: Self::full_name(&lease),
            ..self.info.clone()
        };
        tally::stamp(&mut tally.record, &me);
        let record = crate::record::write_game(&tally.record).map_err(|e| e.to_string())?;
        let report = Report {
            lease: lease.clone(),
            record,
            figures: Figures::of(&tally.event),
        };
        // A network blip or a daemon restarting is not the game's end: tried again until
        // the lease runs out (after that the report could not count).
        let mut wait = Duration::from_millis(500);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let last = attempt >= REPORT_TRIES
                && crate::server::now_ms() + wait.as_millis() as i64 > lease.until_ms;
            match self.client.finish(&report).await {
                Ok(Answer::Done(())) => {
                    tracing::info!(
                        "reported game {} of series {}: counted",
                        lease.number,
                        lease.series
                    );
                    return Ok(());
                }
                Ok(Answer::Lost(why)) if attempt == 1 => {
                    tracing::warn!(game = lease.game, "not counted: {why}");
                    return Ok(());
                }
                Ok(Answer::Lost(why)) => {
                    // An earlier try may have been counted with its answer lost.
                    tracing::warn!(
                        game = lease.game,
                        "counted by an earlier try, or not at all (the daemon's game list says which): {why}"
                    );
                    return Ok(());
                }
                Ok(Answer::Refused(why)) => return Err(format!("the report was refused: {why}")),
                Err(e) if last => return Err(format!("{e}; the game's lease has run out")),
                Err(e) => {
                    tracing::warn!(game = lease.game, "cannot report yet ({e}); trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    fn played(&self, lease: &Lease) {
        tracing::info!(
            "played game {} of series {}; reporting it",
            lease.number,
            lease.series
        );
    }

    async fn abandon(&self, lease: Lease, _kept: Kept) -> Result<(), String> {
        match self.client.abandon(&lease, false).await? {
            Answer::Done(()) | Answer::Lost(_) => Ok(()),
            Answer::Refused(why) => Err(why),
        }
    }

    fn idle(&self) -> impl Future<Output = ()> + Send + '_ {
        // The lease itself waited on the daemon for work; an answer that came early (the
        // daemon is stopping) is not asked again at once.
        tokio::time::sleep(crate::server::worker::IDLE_POLL)
    }
}

/// A game's live feed: the record so far, sent at most every [`FEED_EVERY`] by a task that
/// ends with the game. Only the latest record waits to be sent; the record is written out
/// at most that often (the referee calls [`Spectator::follow`] after every decision).
pub struct Feed {
    latest: Mutex<(Option<Instant>, Option<String>)>,
}

impl Feed {
    fn start(client: Client, lease: Lease) -> Arc<Feed> {
        let feed = Arc::new(Feed {
            latest: Mutex::new((None, None)),
        });
        let weak: Weak<Feed> = Arc::downgrade(&feed);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(FEED_EVERY).await;
                let Some(feed) = weak.upgrade() else { break };
                let text = feed
                    .latest
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .1
                    .take();
                drop(feed);
                if let Some(text) = text {
                    if let Err(e) = client.progress(&lease, text).await {
                        tracing::debug!(game = lease.game, "live feed: {e}");
                    }
                }
            }
        });
        feed
    }
}

impl Spectator for Feed {
    fn announce(&self, _number: u32) {}

    fn series_event(&self, _line: &str) {}

    fn follow(&self, _number: u32, record: &GameRecord) {
        let mut latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        if latest.0.is_some_and(|at| at.elapsed() < FEED_EVERY) {
            return;
        }
        if let Ok(text) = crate::record::write_game(record) {
            *latest = (Some(Instant::now()), Some(text));
        }
    }

    fn game_over(&self, _number: u32, _record: &GameRecord, _reason: &str) {}
}
