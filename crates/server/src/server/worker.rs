//! The workers: each leases the next game, plays it through [`crate::series::game::play`]
//! (the code `zebra match` plays with) while renewing its lease, and reports it. One loop
//! ([`run`]) for both kinds: the daemon's own workers lease from its store and count their
//! games in place ([`Local`]); `zebra worker` leases over the daemon's HTTP API and reports
//! there (`crate::worker::Remote`). Where the games come from and go to is a [`Lessor`].
//!
//! The infrastructure's fault is never a result: a game abandoned (the worker is stopping)
//! has its attempt voided and is played again; a lease that runs out (the worker vanished)
//! is voided by the next lease taken; a finish that comes after its lease was voided is
//! not counted (see [`super::tally`]).

use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::referee::Spectator;
use crate::series::game::{play, PlayedGame, SeriesGame};

use super::series::Books;
use super::store::{Lease, StoreError, WorkerInfo};
use super::tally::{self, Tally};
use super::{now_ms, Daemon};

/// How long an idle worker waits before it looks for work again, if nobody wakes it.
pub const IDLE_POLL: Duration = Duration::from_secs(1);

/// How long a worker's last game waits to be reported while its next lease is asked for: a
/// lease of work that is there answers within a millisecond or two (the daemon's own
/// workers 0.5 ms, `zebra worker` on the same machine 1.4 ms), so one still waiting after
/// this is waiting for work, or on a slow network, and the report goes meanwhile.
const REPORT_AFTER: Duration = Duration::from_millis(20);

/// A game leased and ready to play.
pub struct Leased<H> {
    pub lease: Lease,
    pub game: SeriesGame,
    /// Who watches it live (the series' live page).
    pub spectator: Option<Arc<dyn Spectator>>,
    /// How often the lease is renewed while the game plays.
    pub renew_every: Duration,
    /// What the lessor keeps with the game until it is reported.
    pub held: H,
}

/// Where a worker's games come from and where they go.
pub trait Lessor: Send + Sync + 'static {
    /// What a leased game carries until it is finished or abandoned.
    type Held: Send + 'static;

    /// The next game to play, if there is one now.
    fn lease(&self) -> impl Future<Output = Result<Option<Leased<Self::Held>>, String>> + Send;

    /// Extends a lease; its new deadline, or `None` when it no longer holds (the result
    /// will not count).
    fn renew(&self, lease: &Lease) -> impl Future<Output = Result<Option<i64>, String>> + Send;

    /// Reports a played game.
    fn finish(
        self: Arc<Self>,
        lease: Lease,
        held: Self::Held,
        played: PlayedGame,
    ) -> impl Future<Output = Result<(), String>> + Send;

    /// Gives a game back unplayed (the worker is stopping): its attempt is voided.
    fn abandon(
        &self,
        lease: Lease,
        held: Self::Held,
    ) -> impl Future<Output = Result<(), String>> + Send;

    /// Waits until there may be new work (or a moment). Made before the lease that found
    /// none is asked for, so that work arriving in between wakes it.
    fn idle(&self) -> impl Future<Output = ()> + Send + '_;

    /// Told when a game starts (`true`) and ends (`false`).
    fn playing(&self, _started: bool) {}

    /// Told when the game of `lease` was played to its end (its report follows).
    fn played(&self, _lease: &Lease) {}
}

/// One worker, until `stop`; the running game is abandoned at `abandon`. `cpu`: the CPU of
/// its slot, which holds each game that stops idle bots, referee and bots (see
/// [`crate::series::placement`]; `None`: nothing pinned).
///
/// A finished game is reported while the worker's next game plays (for the daemon's own
/// workers: its result and record committed, its series settled, about a millisecond a
/// game, which would otherwise be a pause between games), once that game is leased
/// (at most `REPORT_AFTER` later). Per worker at most one played game is held and one
/// being reported (a report waits for the one before it, so a slow report holds the
/// worker back rather than piling up), and the worker does not return before both are
/// reported.
pub async fn run<L: Lessor>(
    lessor: Arc<L>,
    slot: usize,
    cpu: Option<usize>,
    stop: CancellationToken,
    abandon: CancellationToken,
) {
    let mut reporting: Option<tokio::task::JoinHandle<()>> = None;
    let mut unreported: Option<(Lease, L::Held, PlayedGame)> = None;
    while !stop.is_cancelled() {
        let idle = lessor.idle();
        // A lease may wait on the daemon for work: a stop does not wait for it (a game
        // granted meanwhile is not played here; its lease runs out and it is played again).
        // The game just played is reported once the next is leased, so that the lease the
        // next game waits for does not queue behind the report's work (its record stored,
        // its result counted); or after REPORT_AFTER, if the lease is still waiting then
        // (for work, or on a slow network).
        let lease = lessor.lease();
        tokio::pin!(lease);
        let leased = tokio::select! {
            leased = &mut lease => leased,
            _ = tokio::time::sleep(REPORT_AFTER), if unreported.is_some() => {
                report(&lessor, slot, &mut reporting, unreported.take()).await;
                tokio::select! {
                    leased = &mut lease => leased,
                    _ = stop.cancelled() => break,
                }
            }
            _ = stop.cancelled() => break,
        };
        report(&lessor, slot, &mut reporting, unreported.take()).await;
        match leased {
            Ok(Some(leased)) => {
                let Leased {
                    lease,
                    mut game,
                    spectator,
                    renew_every,
                    held,
                } = leased;
                // The slot's CPU (`--affinity auto`, see series::placement) holds the game
                // when it is sequential: its idle bots are stopped whole.
                let sequential = crate::series::placement::sequential(game.config.sandbox);
                if let (Some(cpu), true) = (cpu, sequential) {
                    game.place(crate::series::placement::Place::Game(cpu));
                }
                lessor.playing(true);
                let (lease, played) = play_renewing(
                    &*lessor,
                    lease,
                    game,
                    spectator,
                    renew_every,
                    abandon.child_token(),
                )
                .await;
                lessor.playing(false);
                match played {
                    Some(played) => {
                        lessor.played(&lease);
                        unreported = Some((lease, held, played));
                    }
                    None => {
                        if let Err(e) = lessor.abandon(lease, held).await {
                            tracing::error!(slot, "an abandoned game could not be given back: {e}");
                        }
                    }
                }
            }
            Ok(None) => {
                tokio::select! {
                    _ = idle => {}
                    _ = tokio::time::sleep(IDLE_POLL) => {}
                    _ = stop.cancelled() => {}
                }
            }
            Err(e) => {
                tracing::error!(slot, "cannot lease a game: {e}");
                tokio::select! {
                    _ = tokio::time::sleep(IDLE_POLL) => {}
                    _ = stop.cancelled() => {}
                }
            }
        }
    }
    report(&lessor, slot, &mut reporting, unreported.take()).await;
    if let Some(last) = reporting {
        let _ = last.await;
    }
}

/// Starts reporting a played game (`None`: nothing to report) once the report before it is
/// done: at most one report per worker runs, and they run in the order of the games.
async fn report<L: Lessor>(
    lessor: &Arc<L>,
    slot: usize,
    reporting: &mut Option<tokio::task::JoinHandle<()>>,
    played: Option<(Lease, L::Held, PlayedGame)>,
) {
    let Some((lease, held, played)) = played else {
        return;
    };
    if let Some(previous) = reporting.take() {
        let _ = previous.await;
    }
    let lessor = Arc::clone(lessor);
    *reporting = Some(tokio::spawn(async move {
        if let Err(e) = lessor.finish(lease, held, played).await {
            tracing::error!(slot, "a game could not be reported: {e}");
        }
    }));
}

/// Plays a leased game, renewing its lease meanwhile; `None` if it was abandoned.
async fn play_renewing<L: Lessor>(
    lessor: &L,
    mut lease: Lease,
    game: SeriesGame,
    spectator: Option<Arc<dyn Spectator>>,
    renew_every: Duration,
    cancel: CancellationToken,
) -> (Lease, Option<PlayedGame>) {
    let game_future = play(game, cancel.clone(), spectator, None);
    tokio::pin!(game_future);
    let mut renew =
        tokio::time::interval_at(tokio::time::Instant::now() + renew_every, renew_every);
    loop {
        tokio::select! {
            played = &mut game_future => return (lease, played),
            _ = renew.tick() => match lessor.renew(&lease).await {
                Ok(Some(until)) => lease.until_ms = until,
                Ok(None) => {
                    // Voided (its series cancelled, a bot deleted, the worker excluded):
                    // nothing of it can count any more, so its bots are stopped now.
                    tracing::warn!(game = lease.game, "lease lost; the game is stopped");
                    cancel.cancel();
                }
                Err(e) => tracing::error!("cannot renew a lease: {e}"),
            },
        }
    }
}

/// The daemon's own workers: they lease from its store and count in place.
pub struct Local {
    pub daemon: Arc<Daemon>,
    /// Who the daemon's own workers are, in the records' tags and the workers' figures.
    pub me: WorkerInfo,
}

impl Local {
    /// The daemon's own workers, seen in the workers' figures under `daemon/HOST`.
    pub async fn new(daemon: Arc<Daemon>) -> Result<Local, StoreError> {
        let me = WorkerInfo {
            name: format!(
                "daemon/{}",
                crate::series::shard::host_name().unwrap_or_default()
            ),
            host: crate::series::shard::host_name().unwrap_or_default(),
            cpu: cpu_model(),
            sandbox: sandbox_level(&daemon.settings.sandbox),
            zebra: env!("CARGO_PKG_VERSION").to_string(),
        };
        let info = me.clone();
        daemon.db(move |s| s.seen_worker(&info, now_ms())).await?;
        Ok(Local { daemon, me })
    }
}

/// The CPU model of this machine, as `/proc/cpuinfo` names it (or `unknown`).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| crate::bot::text::clean(model.trim(), 100))
        })
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The level the sandbox holds at here for `settings` (strict, or what it falls back to).
pub fn sandbox_level(settings: &crate::sandbox::Settings) -> String {
    match settings.mode {
        crate::sandbox::Mode::None => "none".to_string(),
        _ => {
            let limits = settings.limits_for(&Default::default()).unwrap_or_default();
            match crate::sandbox::level().strict_missing(&limits) {
                None => "strict".to_string(),
                Some(_) => "partial".to_string(),
            }
        }
    }
}

impl Lessor for Local {
    type Held = Arc<Mutex<Books>>;

    async fn lease(&self) -> Result<Option<Leased<Self::Held>>, String> {
        let daemon = &self.daemon;
        let lease_ms = daemon.settings.lease.as_millis() as i64;
        let max_attempts = daemon.settings.max_attempts;
        let owner = daemon.owner.clone();
        let lease = daemon
            .db(move |s| s.lease(&owner, now_ms(), lease_ms, max_attempts))
            .await
            .map_err(|e| e.to_string())?;
        let Some(lease) = lease else {
            return Ok(None);
        };
        let Some((game, books)) = leased_game(daemon, &lease)
            .await
            .map_err(|e| e.to_string())?
        else {
            return Ok(None);
        };
        let hub = Arc::clone(&books.lock().unwrap_or_else(|e| e.into_inner()).hub);
        // Daemons sharing a store show each other's games live (super::relay).
        let spectator = super::relay::Mirror::spectator(daemon, hub, &lease);
        // Its transcript and the bots' stderr, if kept, are for their owners only (the data
        // directory is private: see super::private).
        let mut game = game;
        game.config.private_logs = true;
        Ok(Some(Leased {
            lease,
            game,
            spectator: Some(spectator),
            renew_every: daemon.settings.lease / 3,
            held: books,
        }))
    }

    async fn renew(&self, lease: &Lease) -> Result<Option<i64>, String> {
        let mut held = lease.clone();
        let until = now_ms() + self.daemon.settings.lease.as_millis() as i64;
        let kept = self
            .daemon
            .db(move |s| s.renew(&mut held, until))
            .await
            .map_err(|e| e.to_string())?;
        Ok(kept.then_some(until))
    }

    async fn finish(
        self: Arc<Self>,
        lease: Lease,
        books: Self::Held,
        played: PlayedGame,
    ) -> Result<(), String> {
        let names = books.lock().unwrap_or_else(|e| e.into_inner()).names();
        let mut tally = Tally::played(played, &names);
        tally::stamp(&mut tally.record, &self.me);
        tally::count(&self.daemon, lease, tally, &self.me.name, &books)
            .await
            .map(drop)
            .map_err(|e| e.to_string())
    }

    async fn abandon(&self, lease: Lease, _books: Self::Held) -> Result<(), String> {
        let daemon = &self.daemon;
        daemon.metrics.games_voided.fetch_add(1, Ordering::Relaxed);
        give_back(daemon, lease).await.map_err(|e| e.to_string())
    }

    fn idle(&self) -> impl Future<Output = ()> + Send + '_ {
        self.daemon.wake.notified()
    }

    fn playing(&self, started: bool) {
        let running = &self.daemon.metrics.games_running;
        if started {
            running.fetch_add(1, Ordering::Relaxed);
        } else {
            running.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// Voids a lease's attempt (its game was not played to the end here) and ends its series
/// if nothing is left to play.
pub(crate) async fn give_back(daemon: &Arc<Daemon>, lease: Lease) -> Result<(), StoreError> {
    let max_attempts = daemon.settings.max_attempts;
    let series = lease.series;
    daemon
        .db(move |s| s.void_lease(&lease, max_attempts))
        .await?;
    tally::settle(daemon, series).await
}

/// The game a lease names, set up from its series' books (and the books), announced on
/// the live page; `None` (the attempt voided) when the daemon cannot set it up: the
/// daemon's problem, never a result.
pub(crate) async fn leased_game(
    daemon: &Arc<Daemon>,
    lease: &Lease,
) -> Result<Option<(SeriesGame, Arc<Mutex<Books>>)>, StoreError> {
    let books = match daemon.books(lease.series).await {
        Ok(books) => books,
        Err(e) => {
            tracing::error!(series = lease.series, "cannot set up the series: {e}");
            give_back(daemon, lease.clone()).await?;
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
        game
    };
    let Some(game) = game else {
        tracing::error!(
            series = lease.series,
            game = lease.number,
            "not in the schedule"
        );
        give_back(daemon, lease.clone()).await?;
        return Ok(None);
    };
    Ok(Some((game, books)))
}

/// The signals that stop a pool of workers (the daemon's, `zebra worker`'s): the first
/// SIGINT or SIGTERM stops leasing; the running games then have a grace period, after
/// which, or at a second signal, they are abandoned.
pub struct Signals {
    int: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
}

impl Signals {
    pub fn watch() -> Result<Signals, String> {
        use tokio::signal::unix::{signal, SignalKind};
        let watch = |kind| signal(kind).map_err(|e| format!("cannot watch for signals: {e}"));
        Ok(Signals {
            int: watch(SignalKind::interrupt())?,
            term: watch(SignalKind::terminate())?,
        })
    }

    /// Until the first signal, or `shutdown`.
    pub async fn first(&mut self, shutdown: &CancellationToken) {
        tokio::select! {
            _ = self.int.recv() => {}
            _ = self.term.recv() => {}
            _ = shutdown.cancelled() => {}
        }
    }

    /// Until every task of `tasks` has returned: `abandon` is cancelled once `grace` is
    /// over, or at the next signal.
    pub async fn drain(
        &mut self,
        tasks: &mut tokio::task::JoinSet<()>,
        grace: Duration,
        abandon: &CancellationToken,
    ) {
        let grace = tokio::time::sleep(grace);
        tokio::pin!(grace);
        loop {
            tokio::select! {
                joined = tasks.join_next() => if joined.is_none() { break },
                _ = &mut grace, if !abandon.is_cancelled() => {
                    tracing::warn!("grace period over: abandoning the running games (played again)");
                    abandon.cancel();
                }
                _ = self.int.recv() => abandon.cancel(),
                _ = self.term.recv() => abandon.cancel(),
            }
        }
    }
}
