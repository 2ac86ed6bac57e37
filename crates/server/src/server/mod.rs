//! `zebra serve`: the competition daemon, a second front end over the same series, referee
//! and sandbox code as `zebra match` (every game is played by [`crate::series::game`]).
//!
//! - [`admin`]: `zebra serve bot ...` and `token create`, on the server's own machine
//! - [`config`]: the daemon's settings (file and flags), checked once
//! - [`store`]: the database (embedded SQLite, or PostgreSQL shared by daemons) with the
//!   records, and the archives as files; the games table is the queue (leases, attempts, voided attempts),
//!   submission is idempotent
//! - [`sql`]: the two databases behind one interface; [`migrations`]: both schemas
//! - [`relay`]: live feeds shared by daemons on one PostgreSQL store
//! - [`auth`]: bearer tokens (stored hashed) with scopes read, submit, admin
//! - [`series`]: a submitted series checked into what `zebra match` would run, and the books
//!   of a running one
//! - [`worker`]: the workers that lease games, play them and report them: one loop for the
//!   daemon's own and for `zebra worker`'s
//! - [`tally`]: a finished game counted (its record checked first when a remote worker
//!   reports it), and a series ended when nothing is left to play
//! - [`fleet`]: remote workers as the daemon sees them: the routes they lease, renew,
//!   report and download bots by, their figures, and excluding one
//! - [`entrants`]: invite codes and sign-up, per-owner quotas, an owner deleting their bots
//!   and data
//! - [`check`]: a new bot's check (check-bot and one smoke game) before it may play
//! - [`ladder`]: ladder mode, pairs of games between active bots kept queued
//! - [`api`]: the HTTP API and health and metrics endpoints
//! - [`browse`]: what the pages browse: a bot's games, rating history and opponents, the
//!   crosstable, records in bulk (streamed)
//! - [`extract`]: what a handler takes from a request: its caller (authenticated) and the
//!   ids its path names (checked)
//! - [`http`]: the listener: timeouts, a connection limit, TLS, `SO_REUSEADDR`
//! - [`private`]: the data directory's modes (0700/0600; uploaded code readable by its bot)
//! - [`upload`]: bots uploaded as archives, unpacked with every check
//! - [`metrics`]: the counters `/metrics` shows
//! - [`pages`]: the web pages: the front page, and per series the viewer (stored and live)
//!
//! Every bot runs under the strict sandbox (its own user, view, fresh `/proc`, seccomp,
//! memory and pids limits, no network): where it cannot hold, the daemon does not start
//! and says what the machine lacks and how to fix it ([`ALLOW_WEAK_SANDBOX`] is for tests).
//!
//! Shutdown: SIGTERM or Ctrl-C stops leasing, lets the running games finish within the
//! grace period, then abandons the rest (their attempts are voided, so a restart plays them
//! again), stops the HTTP server and returns. A second signal abandons at once.

pub mod admin;
pub mod api;
pub mod auth;
pub mod browse;
pub mod check;
pub mod config;
pub mod entrants;
pub mod extract;
pub mod fleet;
pub mod http;
pub mod ladder;
pub mod metrics;
pub mod migrations;
pub mod pages;
pub mod pool;
pub mod private;
pub mod relay;
pub mod series;
pub mod sql;
pub mod store;
pub mod tally;
pub mod upload;
pub mod worker;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use config::ServeSettings;
use series::{Books, SeriesRequest};
use store::{RecordReader, Store, StoreError};

/// The daemon's shared state: every task holds it through an `Arc`.
pub struct Daemon {
    pub settings: ServeSettings,
    store: Mutex<Store>,
    records: RecordReader,
    /// The books of the running series, loaded on first use and dropped when a series ends
    /// (memory grows with the series being played, not with those stored).
    books: Mutex<HashMap<i64, Arc<Mutex<Books>>>>,
    /// Told when there may be new work: a series submitted, a bot activated.
    pub wake: tokio::sync::Notify,
    pub metrics: metrics::Metrics,
    /// The name this daemon leases games under.
    pub owner: String,
    /// Where Zebra's bundled bots are (the smoke game's opponent).
    pub bundled: PathBuf,
    /// Stops leasing new games (the first signal).
    pub stopping: CancellationToken,
    /// Abandons the running games (the grace period is over, or a second signal).
    pub abandon: CancellationToken,
    /// The admission checks running, and how long checks take (see [`check::Queue`]).
    pub(crate) checks: Mutex<check::Queue>,
    /// Crashes in a row, per bot id (reset by a game it finishes without crashing).
    crashes: Mutex<HashMap<i64, u32>>,
    /// Tokens seen, by hash: scope and owner (forgotten when their owner deletes their data).
    tokens: Mutex<HashMap<String, (String, String)>>,
    pub started: std::time::Instant,
    /// Whether uploads are taken: the strict sandbox must hold on this machine (it does
    /// unless the daemon was started for tests with [`ALLOW_WEAK_SANDBOX`]; else why not,
    /// said at start and to every upload).
    pub uploads: Result<(), String>,
    /// The live hubs of the last series that ended, oldest first.
    ended_hubs: Mutex<std::collections::VecDeque<(i64, Arc<crate::web::live::Hub>)>>,
    /// Every bot's books and the pairs' sums for ratings, kept up to date by the workers.
    pub pool: pool::Pool,
}

/// Why the daemon cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Setup(String),
}

/// Live hubs of ended series kept for pages still following them (each holds at most the
/// last games the hub keeps).
pub(crate) const KEPT_ENDED_HUBS: usize = 16;

/// Milliseconds since the Unix epoch: the store's clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Daemon {
    /// Runs `f` on the store, off the async threads (SQLite calls block).
    pub async fn db<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let daemon = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut store = daemon.store.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut store)
        })
        .await
        .unwrap_or_else(|e| {
            Err(StoreError::Sql(rusqlite::Error::ToSqlConversionFailure(
                e.into(),
            )))
        })
    }

    /// The records, read on a connection of their own (never holding the store).
    pub fn records(&self) -> &RecordReader {
        &self.records
    }

    /// The books of running series `id`, loaded from the store on first use.
    pub async fn books(self: &Arc<Self>, id: i64) -> Result<Arc<Mutex<Books>>, String> {
        if let Some(b) = self.cached_books(id) {
            if !self.settings.database.is_shared() {
                return Ok(b);
            }
            // Other daemons count games too: what they stored since is folded in first.
            let held = Arc::clone(&b);
            let folded = self
                .db(move |s| {
                    let mut b = held.lock().unwrap_or_else(|e| e.into_inner());
                    let decided = b.catch_up(s, id, None)?;
                    // An SPRT decision another daemon's game made: concluded here too
                    // (concluding twice changes nothing; the page is told by the relay).
                    if let Ok(true) = decided {
                        let ending = series::Ending::Played(b.end_when_played());
                        s.conclude(id, ending.code())?;
                    }
                    Ok(decided.map(drop))
                })
                .await
                .map_err(|e| e.to_string())?;
            folded?;
            return Ok(b);
        }
        let daemon = Arc::clone(self);
        // Folded and cached while the store is held: an exclusion (which folds the cached
        // books again, holding the store) comes wholly before or after.
        self.db(move |store| {
            let row = store.series(id)?.ok_or(StoreError::NoSeries(id))?;
            let bots = store.bots()?;
            Ok(daemon.load_books(&row, &bots, store)?.map(|books| {
                let mut all = daemon.books.lock().unwrap_or_else(|e| e.into_inner());
                Arc::clone(all.entry(id).or_insert_with(|| Arc::new(Mutex::new(books))))
            }))
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// The running series whose books are loaded, with their live hubs.
    pub(crate) fn open_series(&self) -> Vec<(i64, Arc<crate::web::live::Hub>)> {
        self.books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(id, b)| {
                let hub = Arc::clone(&b.lock().unwrap_or_else(|e| e.into_inner()).hub);
                (*id, hub)
            })
            .collect()
    }

    /// The books of series `id` if they are loaded (it is running and has been asked for).
    pub(crate) fn cached_books(&self, id: i64) -> Option<Arc<Mutex<Books>>> {
        self.books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
    }

    /// Builds a series' books from its stored request and games (read one at a time).
    pub(crate) fn load_books(
        &self,
        row: &store::SeriesRow,
        bots: &[store::BotRow],
        store: &Store,
    ) -> Result<Result<Books, String>, StoreError> {
        let request: SeriesRequest = match serde_json::from_str(&row.spec) {
            Ok(request) => request,
            Err(e) => return Ok(Err(format!("series {}: stored request: {e}", row.id))),
        };
        let config =
            match request.series_config(row.id, bots, &self.settings.sandbox, self.log_dir(row.id))
            {
                Ok(config) => config,
                Err(e) => return Ok(Err(e)),
            };
        let now = store.finishes()?;
        let mut last = 0;
        let books = Books::new(config, |each| {
            store.each_result_since(row.id, 0, |seq, game| {
                last = seq;
                each(game)
            })
        })?;
        // Every finish up to `now.last` was visible to the read that followed it.
        Ok(books.map(|mut books| {
            books.seen = store::Finishes {
                last: last.max(now.last),
                refolds: now.refolds,
            };
            books
        }))
    }

    /// A token already looked up: its scope and owner.
    pub(crate) fn known_token(&self, hash: &str) -> Option<(String, String)> {
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
            .cloned()
    }

    /// Forgets the tokens of `owner` (they were revoked).
    pub(crate) fn forget_tokens_of(&self, owner: &str) {
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, (_, o)| o != owner);
    }

    /// Keeps a token looked up (not on a shared store: another daemon may revoke it, so
    /// every request there asks the store).
    pub(crate) fn remember_token(&self, hash: String, found: (String, String)) {
        if self.settings.database.is_shared() {
            return;
        }
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash, found);
    }

    /// Forgets a series' books (it ended); its live hub is kept a while among the last
    /// [`KEPT_ENDED_HUBS`], so that a page following its last games can still show them.
    pub(crate) fn drop_books(&self, id: i64) {
        // The hub joins the kept ones before the books go: a reader finds the series in
        // one place or the other, never in neither.
        let Some(books) = self.cached_books(id) else {
            return;
        };
        let hub = Arc::clone(&books.lock().unwrap_or_else(|e| e.into_inner()).hub);
        {
            let mut ended = self.ended_hubs.lock().unwrap_or_else(|e| e.into_inner());
            ended.push_back((id, hub));
            while ended.len() > KEPT_ENDED_HUBS {
                ended.pop_front();
            }
        }
        self.books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// The live hub of series `id`: its books' while it runs, or one kept after its end.
    pub(crate) fn ended_hub(&self, id: i64) -> Option<Arc<crate::web::live::Hub>> {
        self.ended_hubs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(s, _)| *s == id)
            .map(|(_, h)| Arc::clone(h))
    }

    /// Where series `id` keeps the logs of its failed games.
    pub fn log_dir(&self, id: i64) -> PathBuf {
        self.settings.data.join("logs").join(format!("series-{id}"))
    }
}

/// Holds a lock on `DATA/lock` for the daemon's life: one daemon per data directory.
struct DataLock(#[allow(dead_code)] std::fs::File);

fn lock_data(dir: &Path) -> Result<DataLock, ServeError> {
    use std::os::fd::AsRawFd;
    let path = dir.join("lock");
    let file = private::file_options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| ServeError::Setup(format!("cannot open {}: {e}", path.display())))?;
    // A POSIX record lock, not flock: it belongs to this process alone, so the children
    // the sandbox forks (which hold a copy of every descriptor until they close them) do
    // not keep it after a `kill -9` of the daemon, and a restart never finds it taken.
    let lock = libc::flock {
        l_type: libc::F_WRLCK as libc::c_short,
        l_whence: libc::SEEK_SET as libc::c_short,
        l_start: 0,
        l_len: 0,
        l_pid: 0,
    };
    let _ = private::file_mode(&path);
    // SAFETY: fcntl on a descriptor this function owns, with a lock description on the stack.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &lock) } != 0 {
        return Err(ServeError::Setup(format!(
            "{} is in use by another zebra serve (it holds {}); stop it, or give another --data",
            dir.display(),
            path.display()
        )));
    }
    Ok(DataLock(file))
}

/// Opens the store for a command that is not the daemon (`bot add`, `token create`):
/// SQLite lets several processes share the file, PostgreSQL is shared anyway.
pub fn open_store(settings: &ServeSettings) -> Result<Store, ServeError> {
    Ok(Store::open_on(&settings.data, &settings.database)?)
}

/// Runs the daemon until SIGTERM, Ctrl-C or `shutdown` (a second one of any abandons the
/// running games at once). `listening` is told the bound address once the API answers.
pub async fn serve(
    settings: ServeSettings,
    bundled: PathBuf,
    listening: impl FnOnce(std::net::SocketAddr),
    shutdown: CancellationToken,
) -> Result<(), ServeError> {
    let mut settings = settings;
    let uploads = strict_sandbox(&mut settings)?;
    let tls = settings
        .tls
        .as_ref()
        .map(http::tls_config)
        .transpose()
        .map_err(ServeError::Setup)?;
    // The data directory is the daemon's alone, tightened if it was not (super::private).
    private::dir(&settings.data).map_err(|e| {
        ServeError::Setup(format!("cannot create {}: {e}", settings.data.display()))
    })?;
    // One daemon per data directory on SQLite; on PostgreSQL the daemons sharing the
    // server share the directory too (its files are named by their content or per game).
    let _lock = if settings.database.is_shared() {
        None
    } else {
        Some(lock_data(&settings.data)?)
    };
    let database = settings.database.clone();
    let data = settings.data.clone();
    let mut store = tokio::task::spawn_blocking(move || Store::open_on(&data, &database))
        .await
        .map_err(|e| ServeError::Setup(format!("cannot open the store: {e}")))??;
    for sub in ["logs", "uploads"] {
        let dir = settings.data.join(sub);
        private::dir(&dir)
            .map_err(|e| ServeError::Setup(format!("cannot create {}: {e}", dir.display())))?;
    }
    // The games this daemon's workers were playing when it died: the infrastructure's
    // fault, never a result; played again. Remote workers' leases run out on their own
    // (a worker still playing reports its game, and it counts).
    // On PostgreSQL other daemons' games may be running: a dead daemon's leases run out
    // instead (within `lease`), as a remote worker's do.
    let voided = if settings.database.is_shared() {
        0
    } else {
        store.void_local_leases(settings.max_attempts)?
    };
    if voided > 0 {
        tracing::warn!(
            "{voided} game(s) were running when the daemon stopped: voided, to be played again"
        );
    }
    let cannot_listen = |e: std::io::Error| {
        ServeError::Setup(format!(
            "cannot listen on {}: {e}; give another address with --listen",
            settings.listen
        ))
    };
    let wanted: std::net::SocketAddr = settings
        .listen
        .parse()
        .map_err(|e| cannot_listen(std::io::Error::new(std::io::ErrorKind::InvalidInput, e)))?;
    let listener = http::bind(wanted).map_err(cannot_listen)?;
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Setup(format!("cannot read the bound address: {e}")))?;
    if let Some(warning) = http::plain_warning(addr, tls.is_some()) {
        loud(&warning);
    }
    http::make_room_for(settings.http.max_connections);
    let daemon = Arc::new(Daemon {
        uploads,
        records: store.record_reader(&settings.database),
        store: Mutex::new(store),
        books: Mutex::new(HashMap::new()),
        wake: tokio::sync::Notify::new(),
        metrics: metrics::Metrics::default(),
        owner: format!("daemon-{}-{}", std::process::id(), now_ms()),
        bundled,
        stopping: CancellationToken::new(),
        abandon: CancellationToken::new(),
        crashes: Mutex::new(HashMap::new()),
        tokens: Mutex::new(HashMap::new()),
        checks: Mutex::new(check::Queue::default()),
        started: std::time::Instant::now(),
        pool: Default::default(),
        ended_hubs: Mutex::new(Default::default()),
        settings,
    });
    // Series whose last game went void while no daemon ran end now.
    let running = daemon.db(|s| s.running_series()).await?;
    for row in running {
        tally::settle(&daemon, row.id).await?;
    }
    let mut signals = worker::Signals::watch().map_err(ServeError::Setup)?;

    let mut tasks = tokio::task::JoinSet::new();
    // With concurrency 0 the daemon plays nothing itself (only remote workers do), and is
    // no worker of its own.
    let local = if daemon.settings.concurrency > 0 {
        Some(Arc::new(worker::Local::new(Arc::clone(&daemon)).await?))
    } else {
        None
    };
    let cpus = crate::series::placement::slot_cpus(daemon.settings.concurrency);
    for (slot, local) in std::iter::repeat(local)
        .flatten()
        .take(daemon.settings.concurrency)
        .enumerate()
    {
        tasks.spawn(worker::run(
            local,
            slot,
            cpus.get(slot).copied(),
            daemon.stopping.clone(),
            daemon.abandon.clone(),
        ));
    }
    tasks.spawn(check::run(Arc::clone(&daemon)));
    tasks.spawn(ladder::run(Arc::clone(&daemon)));
    tasks.spawn(relay::run(Arc::clone(&daemon)));
    let http_stop = CancellationToken::new();
    let http = tokio::spawn(http::run(
        listener,
        api::router(Arc::clone(&daemon)),
        Arc::clone(&daemon),
        tls,
        http_stop.clone(),
    ));
    listening(addr);

    signals.first(&shutdown).await;
    tracing::info!(
        "stopping: no new games; the running ones have {}s to finish",
        daemon.settings.shutdown_grace.as_secs()
    );
    daemon.stopping.cancel();
    daemon.wake.notify_waiters();
    signals
        .drain(&mut tasks, daemon.settings.shutdown_grace, &daemon.abandon)
        .await;
    http_stop.cancel();
    let _ = http.await;
    tracing::info!("stopped");
    Ok(())
}

/// The environment variable that lets the daemon start where the strict sandbox cannot
/// hold: for tests of the daemon on machines without namespaces, never for bots of
/// strangers (uploads stay refused).
pub const ALLOW_WEAK_SANDBOX: &str = "ZEBRA_SERVE_ALLOW_WEAK_SANDBOX";

/// What keeps the strict sandbox from holding here for the daemon's limits, and how to fix
/// the machine; `None` when it holds.
pub fn strict_problem(settings: &ServeSettings) -> Result<Option<String>, ServeError> {
    let mut probe = settings.sandbox.clone();
    probe.mode = crate::sandbox::Mode::Auto;
    let limits = probe
        .limits_for(&Default::default())
        .map_err(ServeError::Setup)?;
    Ok(crate::sandbox::level()
        .strict_missing(&limits)
        .map(|missing| {
            format!(
                "bots run only under the strict sandbox, and this machine lacks {missing}; to fix it: {}; 'zebra doctor' shows every layer",
                how_to_fix(&missing)
            )
        }))
}

/// The fixes for what [`crate::sandbox::Level::strict_missing`] names.
fn how_to_fix(missing: &str) -> String {
    let mut fixes = Vec::new();
    if missing.contains("cgroup") {
        fixes.push("run zebra serve as root, or in a delegated cgroup v2 subtree with the memory and pids controllers (systemd: Delegate=yes)");
    }
    if ["namespaces", "user of its own", "view", "/proc"]
        .iter()
        .any(|m| missing.contains(m))
    {
        fixes.push("allow namespaces (as root; or sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; in a container, a profile that allows unshare, mount and pivot_root), and when root a free range of bot user ids (ZEBRA_BOT_UIDS)");
    }
    if missing.contains("seccomp") {
        fixes.push("a kernel with seccomp filters (CONFIG_SECCOMP_FILTER)");
    }
    if missing.contains("no network") {
        fixes.push("remove network = true from [sandbox] limits");
    }
    if fixes.is_empty() {
        fixes.push("see the book's sandbox chapter (docs/src/operators/sandbox.md)");
    }
    fixes.join("; ")
}

/// Bots in the daemon run under the strict sandbox: where it cannot hold, the daemon does
/// not start, unless [`ALLOW_WEAK_SANDBOX`] is `1` (tests), when it says so loudly, runs
/// the registered bots at the best level the machine has, and refuses uploads (the error
/// kept here says why).
fn strict_sandbox(settings: &mut ServeSettings) -> Result<Result<(), String>, ServeError> {
    let Some(problem) = strict_problem(settings)? else {
        return Ok(Ok(()));
    };
    if std::env::var(ALLOW_WEAK_SANDBOX).as_deref() != Ok("1") {
        return Err(ServeError::Setup(problem));
    }
    loud(&format!(
        "{ALLOW_WEAK_SANDBOX}=1: BOTS RUN WITHOUT THE STRICT SANDBOX, for tests only, never for bots of strangers; uploads are refused: {problem}"
    ));
    settings.sandbox.mode = crate::sandbox::Mode::Auto;
    Ok(Err(problem))
}

/// A warning the operator must see: in the log, or on stderr where the log's filter
/// would hide it.
fn loud(line: &str) {
    if tracing::enabled!(tracing::Level::WARN) {
        tracing::warn!("{line}");
    } else {
        eprintln!("zebra serve: warning: {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_missing_layer_gets_its_fix() {
        let fix = how_to_fix("PID and network namespaces (turned off)");
        assert!(fix.contains("allow namespaces"), "{fix}");
        assert!(!fix.contains("network = true"), "{fix}");
        let fix = how_to_fix("a memory cgroup (...) and seccomp");
        assert!(
            fix.contains("Delegate=yes") && fix.contains("CONFIG_SECCOMP_FILTER"),
            "{fix}"
        );
        let fix = how_to_fix("no network (--network or network = true lets bots reach it)");
        assert!(fix.contains("remove network = true"), "{fix}");
        assert!(!how_to_fix("something new").is_empty());
    }
}
