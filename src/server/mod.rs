//! `zebra serve`: the competition daemon, a second front end over the same series, referee
//! and sandbox code as `zebra match` (every game is played by [`crate::series::game`]).
//!
//! - [`admin`]: `zebra serve bot ...` and `token create`, on the server's own machine
//! - [`config`]: the daemon's settings (file and flags), checked once
//! - [`store`]: the embedded SQLite database and the record files; the games table is the
//!   queue (leases, attempts, voided attempts), submission is idempotent
//! - [`auth`]: bearer tokens (stored hashed) with scopes read, submit, admin
//! - [`series`]: a submitted series checked into what `zebra match` would run, and the books
//!   of a running one
//! - [`worker`]: the workers that lease games, play them and count them
//! - [`check`]: a new bot's check (check-bot and one smoke game) before it may play
//! - [`ladder`]: ladder mode, pairs of games between active bots kept queued
//! - [`api`]: the HTTP API and health and metrics endpoints
//! - [`upload`]: bots uploaded as archives, unpacked with every check
//! - [`metrics`]: the counters `/metrics` shows
//! - [`pages`]: the web pages: the front page, and per series the viewer (stored and live)
//! - [`bench`]: `zebra bench serve`, the daemon measured against `zebra match`
//!
//! Shutdown: SIGTERM or Ctrl-C stops leasing, lets the running games finish within the
//! grace period, then abandons the rest (their attempts are voided, so a restart plays them
//! again), stops the HTTP server and returns. A second signal abandons at once.

pub mod admin;
pub mod api;
pub mod auth;
pub mod bench;
pub mod check;
pub mod config;
pub mod ladder;
pub mod metrics;
pub mod pages;
pub mod pool;
pub mod series;
pub mod store;
pub mod upload;
pub mod worker;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use config::ServeSettings;
use series::{Books, SeriesRequest};
use store::{Records, Store, StoreError};

/// The daemon's shared state: every task holds it through an `Arc`.
pub struct Daemon {
    pub settings: ServeSettings,
    store: Mutex<Store>,
    records: Records,
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
    /// Crashes in a row, per bot id (reset by a game it finishes without crashing).
    crashes: Mutex<HashMap<i64, u32>>,
    /// Tokens seen, by hash: scope and owner (tokens are never changed once made).
    tokens: Mutex<HashMap<String, (String, String)>>,
    pub started: std::time::Instant,
    /// Whether uploads are taken: the strict sandbox must hold on this machine (else why
    /// not, said at start and to every upload).
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
pub const KEPT_ENDED_HUBS: usize = 16;

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

    /// The record files (written without holding the database).
    pub fn records(&self) -> &Records {
        &self.records
    }

    /// The books of running series `id`, loaded from the store on first use.
    pub async fn books(self: &Arc<Self>, id: i64) -> Result<Arc<Mutex<Books>>, String> {
        if let Some(b) = self
            .books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
        {
            return Ok(Arc::clone(b));
        }
        let daemon = Arc::clone(self);
        let books = self
            .db(move |store| {
                let row = store.series(id)?.ok_or(StoreError::NoSeries(id))?;
                let bots = store.bots()?;
                daemon.load_books(&row, &bots, store)
            })
            .await
            .map_err(|e| e.to_string())??;
        let books = Arc::new(Mutex::new(books));
        let mut all = self.books.lock().unwrap_or_else(|e| e.into_inner());
        Ok(Arc::clone(all.entry(id).or_insert(books)))
    }

    /// The books of series `id` if they are loaded (it is running and has been asked for).
    pub fn cached_books(&self, id: i64) -> Option<Arc<Mutex<Books>>> {
        self.books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
    }

    /// Builds a series' books from its stored request and games (read one at a time).
    pub fn load_books(
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
        Books::new(config, |each| store.each_result(row.id, each))
    }

    /// A token already looked up: its scope and owner.
    pub fn known_token(&self, hash: &str) -> Option<(String, String)> {
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
            .cloned()
    }

    pub fn remember_token(&self, hash: String, found: (String, String)) {
        self.tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash, found);
    }

    /// Forgets a series' books (it ended); its live hub is kept a while among the last
    /// [`KEPT_ENDED_HUBS`], so that a page following its last games can still show them.
    pub fn drop_books(&self, id: i64) {
        let books = self
            .books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        if let Some(books) = books {
            let hub = Arc::clone(&books.lock().unwrap_or_else(|e| e.into_inner()).hub);
            let mut ended = self.ended_hubs.lock().unwrap_or_else(|e| e.into_inner());
            ended.push_back((id, hub));
            while ended.len() > KEPT_ENDED_HUBS {
                ended.pop_front();
            }
        }
    }

    /// The live hub of series `id`: its books' while it runs, or one kept after its end.
    pub fn ended_hub(&self, id: i64) -> Option<Arc<crate::web::live::Hub>> {
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
    let file = std::fs::OpenOptions::new()
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

/// Opens the data directory for a command that is not the daemon (`bot add`, `token
/// create`): the store only, which SQLite lets several processes share.
pub fn open_store(data: &Path) -> Result<Store, ServeError> {
    Ok(Store::open(data)?)
}

/// Runs the daemon until SIGTERM, Ctrl-C or `shutdown` (a second one of any abandons the
/// running games at once). `listening` is told the bound address once the API answers.
pub async fn serve(
    settings: ServeSettings,
    bundled: PathBuf,
    listening: impl FnOnce(std::net::SocketAddr),
    shutdown: CancellationToken,
) -> Result<(), ServeError> {
    std::fs::create_dir_all(&settings.data).map_err(|e| {
        ServeError::Setup(format!("cannot create {}: {e}", settings.data.display()))
    })?;
    let _lock = lock_data(&settings.data)?;
    let mut store = Store::open(&settings.data)?;
    // The games that were running when the last daemon died: the infrastructure's fault,
    // never a result; played again.
    let voided = store.void_leases(None, settings.max_attempts)?;
    if voided > 0 {
        tracing::warn!(
            "{voided} game(s) were running when the daemon stopped: voided, to be played again"
        );
    }
    let listener = tokio::net::TcpListener::bind(&settings.listen)
        .await
        .map_err(|e| {
            ServeError::Setup(format!(
                "cannot listen on {}: {e}; give another address with --listen",
                settings.listen
            ))
        })?;
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Setup(format!("cannot read the bound address: {e}")))?;
    // Uploaded bots run only at the strict level: where it cannot hold, no uploads.
    let uploads = {
        let mut strict = settings.sandbox.clone();
        strict.mode = crate::sandbox::Mode::Strict;
        strict.limits_for(&Default::default()).map(|_| ())
    };
    if let Err(why) = &uploads {
        // Said on stderr whatever the log's filter: the operator must know.
        eprintln!("zebra serve: uploads are refused on this machine: {why}");
    }
    let daemon = Arc::new(Daemon {
        uploads,
        records: store.records(),
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
        started: std::time::Instant::now(),
        pool: Default::default(),
        ended_hubs: Mutex::new(Default::default()),
        settings,
    });
    // Series whose last game went void while no daemon ran end now.
    let running = daemon.db(|s| s.running_series()).await?;
    for row in running {
        worker::settle(&daemon, row.id).await?;
    }
    let mut int = signal(tokio::signal::unix::SignalKind::interrupt())?;
    let mut term = signal(tokio::signal::unix::SignalKind::terminate())?;

    let mut tasks = tokio::task::JoinSet::new();
    for slot in 0..daemon.settings.concurrency {
        tasks.spawn(worker::run(Arc::clone(&daemon), slot));
    }
    tasks.spawn(check::run(Arc::clone(&daemon)));
    tasks.spawn(ladder::run(Arc::clone(&daemon)));
    let http_stop = CancellationToken::new();
    let http = {
        let router = api::router(Arc::clone(&daemon));
        let stop = http_stop.clone();
        tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
        })
    };
    listening(addr);

    tokio::select! {
        _ = int.recv() => {}
        _ = term.recv() => {}
        _ = shutdown.cancelled() => {}
    }
    tracing::info!(
        "stopping: no new games; the running ones have {}s to finish",
        daemon.settings.shutdown_grace.as_secs()
    );
    daemon.stopping.cancel();
    daemon.wake.notify_waiters();
    let grace = tokio::time::sleep(daemon.settings.shutdown_grace);
    tokio::pin!(grace);
    loop {
        tokio::select! {
            joined = tasks.join_next() => if joined.is_none() { break },
            _ = &mut grace, if !daemon.abandon.is_cancelled() => {
                tracing::warn!("grace period over: abandoning the running games (played again after a restart)");
                daemon.abandon.cancel();
            }
            _ = int.recv() => daemon.abandon.cancel(),
            _ = term.recv() => daemon.abandon.cancel(),
        }
    }
    http_stop.cancel();
    let _ = http.await;
    tracing::info!("stopped");
    Ok(())
}

fn signal(
    kind: tokio::signal::unix::SignalKind,
) -> Result<tokio::signal::unix::Signal, ServeError> {
    tokio::signal::unix::signal(kind)
        .map_err(|e| ServeError::Setup(format!("cannot watch for signals: {e}")))
}
