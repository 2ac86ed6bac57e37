//! `zebra worker`: a machine lending its cores to a `zebra serve` daemon. It leases games
//! over the daemon's HTTP API (a token of scope `worker`), downloads the bots it needs by
//! their archives' SHA-256 (kept in its cache, checked, unpacked with the upload's own
//! checks), plays each game through [`crate::series::game::play`] inside its own wall, as
//! the daemon's own workers do ([`crate::server::worker::run`], the same loop), shows it
//! live, and reports its record, which the daemon checks before it counts it.
//!
//! - [`client`]: the daemon's worker routes, spoken over HTTP(S)
//! - [`cache`]: the bots' archives, downloaded once and checked
//! - [`remote`]: the [`crate::server::worker::Lessor`] over those routes, and the live
//!   page's feed
//!
//! Its leases are renewed while a game plays and run out when the worker vanishes (the
//! game is then played again by someone else; a late report does not count). Stopped with
//! Ctrl-C or SIGTERM, it takes no new games, lets the running ones finish within its grace
//! period, then gives the rest back (their attempts voided, played again); a second signal
//! gives them back at once.

pub mod cache;
pub mod client;
pub mod remote;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// The settings of one `zebra worker`, checked.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// The daemon's address (`http://…` or `https://…`), without a trailing slash.
    pub server: String,
    pub token: String,
    /// Games played at once.
    pub concurrency: usize,
    /// Its name on the daemon (after its token's owner): letters, digits, `.`, `_`, `-`.
    pub name: String,
    /// Where the bots' archives and the failed games' logs are kept.
    pub cache: PathBuf,
    /// It has the programs of the bots the admin registered by path at the same paths.
    pub same_programs: bool,
    /// A PEM certificate to trust for an `https` server (a self-signed one).
    pub ca_cert: Option<PathBuf>,
    /// How long running games may take to finish once it is asked to stop.
    pub grace: Duration,
}

/// Why the worker cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("{0}")]
    Setup(String),
}

/// Runs the worker until SIGTERM, Ctrl-C or `shutdown` (a second one of any gives the
/// running games back at once).
pub async fn work(
    settings: WorkerSettings,
    shutdown: CancellationToken,
) -> Result<(), WorkerError> {
    let level = sandbox_holds()?;
    crate::server::private::dir(&settings.cache).map_err(|e| {
        WorkerError::Setup(format!(
            "cannot create the cache {}: {e}",
            settings.cache.display()
        ))
    })?;
    if let Some(host) = settings.server.strip_prefix("http://") {
        let host = host.split(['/', ':']).next().unwrap_or_default();
        if !matches!(host, "127.0.0.1" | "localhost" | "[::1]" | "") {
            eprintln!(
                "zebra worker: warning: {} is plain HTTP beyond this machine: the token and the bots' code cross the network unencrypted; give the daemon --tls-cert and use https://",
                settings.server
            );
        }
    }
    let client = client::Client::new(&settings).map_err(WorkerError::Setup)?;
    // The server and the token, tried once before any game: one line if either is wrong.
    let hello = client.hello().await.map_err(WorkerError::Setup)?;
    let mut signals = crate::server::worker::Signals::watch().map_err(WorkerError::Setup)?;
    let remote = Arc::new(remote::Remote::new(client, &settings, level.clone()));
    let stop = CancellationToken::new();
    let abandon = CancellationToken::new();
    let mut tasks = tokio::task::JoinSet::new();
    let cpus = crate::series::placement::slot_cpus(settings.concurrency);
    for slot in 0..settings.concurrency {
        tasks.spawn(crate::server::worker::run(
            Arc::clone(&remote),
            slot,
            cpus.get(slot).copied(),
            stop.clone(),
            abandon.clone(),
        ));
    }
    tracing::info!(
        "working for {} as {}/{} ({} at once, sandbox {level})",
        settings.server,
        hello.owner,
        settings.name,
        settings.concurrency
    );
    let quit = remote.quit.clone();
    tokio::select! {
        _ = signals.first(&shutdown) => {}
        _ = quit.cancelled() => {}
    }
    tracing::info!(
        "stopping: no new games; the running ones have {}s to finish",
        settings.grace.as_secs()
    );
    stop.cancel();
    signals.drain(&mut tasks, settings.grace, &abandon).await;
    tracing::info!("stopped");
    if quit.is_cancelled() {
        return Err(WorkerError::Setup(format!(
            "{} refuses this worker's leases (see the line above)",
            settings.server
        )));
    }
    Ok(())
}

/// The sandbox level games run at here: strict, or (with the daemon's test switch, never
/// for bots of strangers) what the machine has.
fn sandbox_holds() -> Result<String, WorkerError> {
    let settings = crate::sandbox::Settings::default();
    let limits = settings
        .limits_for(&Default::default())
        .map_err(WorkerError::Setup)?;
    let Some(missing) = crate::sandbox::level().strict_missing(&limits) else {
        return Ok("strict".to_string());
    };
    if std::env::var(crate::server::ALLOW_WEAK_SANDBOX).as_deref() == Ok("1") {
        eprintln!(
            "zebra worker: warning: {}=1: bots run without the strict sandbox, for tests only: this machine lacks {missing}",
            crate::server::ALLOW_WEAK_SANDBOX
        );
        return Ok(crate::server::worker::sandbox_level(&settings));
    }
    Err(WorkerError::Setup(format!(
        "a worker plays other people's bots only under the strict sandbox, and this machine lacks {missing}; 'zebra doctor' shows every layer and how to fix it"
    )))
}
