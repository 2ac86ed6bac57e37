//! Remote workers as the daemon sees them (`zebra worker`, see `crate::worker`): the routes
//! they lease games by, renew their leases, show a game live, report it or give it back,
//! and download the bots they play; and the workers' figures.
//!
//! Routes (scope `worker` or `admin`, from the `Authorization` header; bodies are JSON):
//! - `GET /api/v1/worker/hello`: who the token's worker is and the daemon's version
//!   ([`Hello`]): what `zebra worker` asks first, to fail at once with one line.
//! - `POST /api/v1/worker/lease` ([`LeaseAsk`]): the next game this worker can play, as a
//!   [`Grant`] (200), or none within `wait_ms` (204). A worker of another Zebra version
//!   is refused (409): the same version plays the same games.
//! - `POST /api/v1/worker/renew` ([`Held`]): the lease's new deadline (200), or 409 when it
//!   no longer holds (the result would not count).
//! - `POST /api/v1/worker/progress` ([`Progress`]): the game's record so far, for its live
//!   page (204).
//! - `POST /api/v1/worker/finish` ([`Report`]): the finished game. Its record must be the
//!   game leased and replay ([`super::tally::Tally::reported`]); a record that is not is
//!   refused (422, one line) and the game is played again. 409 when the lease no longer
//!   holds: not counted, never counted twice.
//! - `POST /api/v1/worker/abandon` ([`Held`]): the game given back unplayed (204): its
//!   attempt is voided and it is played again.
//! - `GET /api/v1/worker/archives/{sha256}`: an uploaded bot's archive, as it was uploaded
//!   (the worker checks its SHA-256 and unpacks it with the upload's own checks).
//! - `GET /api/v1/workers` [read]: every worker seen, with its figures.
//! - `POST /api/v1/workers/exclude` [admin] ([`Exclusion`]): a worker whose results are not
//!   to be trusted gets no more games, and the games it finished in running series are
//!   played again by others ([`super::tally::exclude`]); `excluded: false` admits it again.
//!
//! A worker is named `OWNER/NAME`: its token's owner and the name it gives. Its leases are
//! held as `worker:OWNER/NAME#INSTANCE` (an instance is one run of `zebra worker`), and a
//! worker may renew, report or give back only leases held under its own token's owner.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};

use super::api::{json_answer, parse_json, unread_body, Answer, Problem};
use super::auth::Scope;
use super::extract::{Reader, Submitter, WorkerCaller};
use super::store::{Lease, Reach, WorkerInfo};
use super::tally::{self, Figures, Tally};
use super::worker::{give_back, leased_game};
use super::{now_ms, Daemon};

/// The largest report or progress body: a record (a long game's is some tens of KB).
pub const MAX_RECORD: usize = 4 * 1024 * 1024;
/// The longest a lease request waits for work.
pub const MAX_WAIT: Duration = Duration::from_secs(20);

/// What a worker says when it asks for a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaseAsk {
    /// Its name (the token's owner is put before it), host, CPU, sandbox level, version.
    pub worker: WorkerInfo,
    /// This run of the worker (hex, 1 to 32 digits).
    pub instance: String,
    /// `true`: it has the programs of the bots registered by path at the same paths
    /// (`--same-programs`); `false`: it plays only uploaded bots.
    #[serde(default)]
    pub same_programs: bool,
    /// How long to wait for a game when there is none now, in ms (at most 20,000).
    #[serde(default)]
    pub wait_ms: u64,
}

/// A bot of a leased game, as registered.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GrantedBot {
    pub id: i64,
    pub name: String,
    /// Its registration (JSON): command, args, dir, options, time odds, limits.
    pub spec: String,
    /// The SHA-256 of the archive it was uploaded in (`None`: registered by path).
    pub archive: Option<String>,
}

/// A game leased to a worker: everything it needs to play it as the daemon would.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Grant {
    pub lease: Lease,
    /// Renew at least this often (a third of the lease's length).
    pub renew_ms: u64,
    /// The series as submitted (JSON), its id, and its bots.
    pub series: i64,
    pub spec: String,
    pub bots: Vec<GrantedBot>,
    /// The daemon's sandbox settings (limits), which every game of its plays under.
    pub sandbox: crate::sandbox::Settings,
}

/// A lease named in a request.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Held {
    pub lease: Lease,
    /// Abandon only: the game was never started (the worker could not set it up, or
    /// stopped first): it is queued again without using up an attempt.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unplayed: bool,
}

/// A game's record so far.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub lease: Lease,
    pub record: String,
}

/// A finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub lease: Lease,
    /// Its record (PGN), tagged with the worker.
    pub record: String,
    /// What the worker measured and the record does not hold.
    #[serde(default)]
    pub figures: Option<Figures>,
}

/// The answer to a worker's hello.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Hello {
    /// The token's owner: the worker is `OWNER/NAME`.
    pub owner: String,
    /// The daemon's Zebra version (a worker must run the same).
    pub zebra: String,
    /// How long a lease lasts without renewal, in ms.
    pub lease_ms: u64,
}

/// The most worker names one owner's workers may use (each keeps its figures and metrics).
pub const MAX_WORKER_NAMES: u64 = 256;

/// The workers' routes.
pub fn router() -> Router<Arc<Daemon>> {
    Router::new()
        .route("/api/v1/worker/hello", get(hello))
        .route("/api/v1/worker/lease", post(lease))
        .route("/api/v1/worker/renew", post(renew))
        .route(
            "/api/v1/worker/progress",
            post(progress).layer(DefaultBodyLimit::max(MAX_RECORD)),
        )
        .route(
            "/api/v1/worker/finish",
            post(finish).layer(DefaultBodyLimit::max(MAX_RECORD)),
        )
        .route("/api/v1/worker/abandon", post(abandon))
        .route("/api/v1/worker/archives/:hash", get(archive))
        .route("/api/v1/workers", get(workers))
        .route("/api/v1/workers/exclude", post(exclude))
}

/// A worker's full name: its token's owner, then the name it gives.
fn full_name(caller: &WorkerCaller, name: &str) -> String {
    format!("{}/{name}", caller.0.owner.as_deref().unwrap_or_default())
}

/// Whether `name` is a plain worker or owner name: 1 to 64 letters, digits, `.`, `_`, `-`.
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

/// The worker `OWNER/NAME` a lease owner `worker:OWNER/NAME#INSTANCE` names, if `OWNER` is
/// exactly the caller's (and the rest a plain name).
fn holder(caller: &WorkerCaller, owner: &str) -> Option<String> {
    let mine = caller.0.owner.as_deref()?;
    let (full, instance) = owner.strip_prefix("worker:")?.rsplit_once('#')?;
    let name = full.strip_prefix(mine)?.strip_prefix('/')?;
    (plain_name(name) && !instance.is_empty()).then(|| full.to_string())
}

/// The lease a request names, as the store holds it: it must be current, held by one of
/// the caller's workers, and the same in every field (a worker cannot name another game,
/// series or pairing than the one it holds). The worker's full name with it.
async fn held(
    daemon: &Arc<Daemon>,
    caller: &WorkerCaller,
    lease: &Lease,
) -> Result<(Lease, String), Problem> {
    let Some(worker) = holder(caller, &lease.owner) else {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "the lease on game {} is not held by this token's workers",
                lease.game
            ),
        )
        .field("lease.owner"));
    };
    let (game, owner, attempt) = (lease.game, lease.owner.clone(), lease.attempt);
    let stored = daemon.db(move |s| s.held(game, &owner, attempt)).await?;
    match stored {
        Some(stored)
            if (stored.series, stored.number, stored.seed, stored.white, stored.black)
                == (lease.series, lease.number, lease.seed, lease.white, lease.black) =>
        {
            Ok((stored, worker))
        }
        Some(_) => Err(Problem::new(
            StatusCode::CONFLICT,
            format!(
                "the lease on game {} is not as it was granted (series, number, seed or bots changed): send it back as it came",
                lease.game
            ),
        )
        .field("lease")),
        None => Err(lost(lease)),
    }
}

/// A request naming one lease of the caller's: the lease as the store holds it, the
/// worker's name, and whether the game was left unplayed.
async fn owned_body(
    daemon: &Arc<Daemon>,
    caller: &WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Result<(Lease, String, bool), Problem> {
    let body = body.map_err(|e| unread_body(e, "the body", super::api::MAX_BODY))?;
    let request: Held = parse_json(&body)?;
    let (lease, worker) = held(daemon, caller, &request.lease).await?;
    Ok((lease, worker, request.unplayed))
}

fn checked_name(name: &str, field: &str) -> Result<(), Problem> {
    if plain_name(name) {
        Ok(())
    } else {
        Err(Problem::new(
            StatusCode::BAD_REQUEST,
            format!("{field}: give 1 to 64 letters, digits, '.', '_' or '-'"),
        )
        .field(field))
    }
}

/// `GET /api/v1/worker/hello`.
async fn hello(State(daemon): State<Arc<Daemon>>, caller: WorkerCaller) -> Answer {
    Ok(json_answer(
        StatusCode::OK,
        &Hello {
            owner: caller.0.owner.unwrap_or_default(),
            zebra: env!("CARGO_PKG_VERSION").to_string(),
            lease_ms: daemon.settings.lease.as_millis() as u64,
        },
    ))
}

/// `POST /api/v1/worker/lease`.
async fn lease(
    State(daemon): State<Arc<Daemon>>,
    caller: WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let body = body.map_err(|e| unread_body(e, "the body", super::api::MAX_BODY))?;
    let ask: LeaseAsk = parse_json(&body)?;
    checked_name(&ask.worker.name, "worker.name")?;
    if ask.instance.is_empty()
        || ask.instance.len() > 32
        || !ask.instance.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Err(
            Problem::new(StatusCode::BAD_REQUEST, "instance: give 1 to 32 hex digits")
                .field("instance"),
        );
    }
    let mine = env!("CARGO_PKG_VERSION");
    if ask.worker.zebra != mine {
        return Err(Problem::new(
            StatusCode::CONFLICT,
            format!(
                "this server runs Zebra {mine} and the worker Zebra {}: run the same version, which plays the same games",
                crate::bot::text::clean(&ask.worker.zebra, 40)
            ),
        )
        .field("worker.zebra"));
    }
    let mut info = ask.worker.clone();
    info.name = full_name(&caller, &ask.worker.name);
    for text in [&mut info.host, &mut info.cpu, &mut info.sandbox] {
        *text = crate::bot::text::clean(text, 100);
    }
    let owner = format!("worker:{}#{}", info.name, ask.instance);
    let reach = if ask.same_programs {
        Reach::Every
    } else {
        Reach::Uploaded
    };
    let allowed = daemon
        .db(move |s| {
            // Names are kept for good (their figures): an owner's workers use a bounded
            // number of them, so that the figures and metrics stay bounded too. Counted
            // and added in one write transaction.
            s.exclusive(|s| {
                let (known, count) = s.worker_names(&info.name)?;
                if !known && count >= MAX_WORKER_NAMES {
                    return Ok(None);
                }
                s.seen_worker(&info, now_ms()).map(Some)
            })
        })
        .await?;
    let Some(allowed) = allowed else {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "this token's workers have used {MAX_WORKER_NAMES} names already, the most a worker owner may: reuse one (zebra worker --name)"
            ),
        )
        .field("worker.name"));
    };
    if !allowed {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "this worker was excluded by an admin: it gets no more games",
        )
        .field("worker.name"));
    }
    let wait = Duration::from_millis(ask.wait_ms).min(MAX_WAIT);
    let until = tokio::time::Instant::now() + wait;
    let lease_ms = daemon.settings.lease.as_millis() as i64;
    let max_attempts = daemon.settings.max_attempts;
    loop {
        if daemon.stopping.is_cancelled() {
            return Ok(StatusCode::NO_CONTENT.into_response());
        }
        let woken = daemon.wake.notified();
        let who = owner.clone();
        let leased = daemon
            .db(move |s| s.lease_for(&who, now_ms(), lease_ms, max_attempts, reach))
            .await?;
        if let Some(lease) = leased {
            if let Some(grant) = grant(&daemon, lease).await? {
                return Ok(json_answer(StatusCode::OK, &grant));
            }
            continue;
        }
        tokio::select! {
            _ = woken => {}
            _ = tokio::time::sleep_until(until) => return Ok(StatusCode::NO_CONTENT.into_response()),
            _ = tokio::time::sleep(super::worker::IDLE_POLL) => {}
            _ = daemon.stopping.cancelled() => {}
        }
        if tokio::time::Instant::now() >= until {
            return Ok(StatusCode::NO_CONTENT.into_response());
        }
    }
}

/// What a worker needs to play a leased game; `None` if the daemon could not set it up
/// (the attempt is voided, see [`leased_game`]).
async fn grant(daemon: &Arc<Daemon>, lease: Lease) -> Result<Option<Grant>, Problem> {
    let Some((game, books)) = leased_game(daemon, &lease).await? else {
        return Ok(None);
    };
    // The worker sets the game up itself from the same registrations and request.
    drop((game, books));
    let ids = [lease.white, lease.black];
    let series = lease.series;
    let (spec, bots) = daemon
        .db(move |s| {
            let row = s
                .series(series)?
                .ok_or(super::store::StoreError::NoSeries(series))?;
            let mut bots = Vec::new();
            for id in ids {
                let bot = s.bot(id)?.ok_or(super::store::StoreError::UnknownBot(id))?;
                bots.push(GrantedBot {
                    id,
                    name: bot.name,
                    spec: bot.spec,
                    archive: s.archive_of(id)?,
                });
            }
            Ok((row.spec, bots))
        })
        .await?;
    Ok(Some(Grant {
        renew_ms: (daemon.settings.lease / 3).as_millis() as u64,
        lease,
        series,
        spec,
        bots,
        sandbox: daemon.settings.sandbox.clone(),
    }))
}

/// `POST /api/v1/worker/renew`.
async fn renew(
    State(daemon): State<Arc<Daemon>>,
    caller: WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let (lease, _, _) = owned_body(&daemon, &caller, body).await?;
    let until = now_ms() + daemon.settings.lease.as_millis() as i64;
    let mut held = lease.clone();
    let kept = daemon.db(move |s| s.renew(&mut held, until)).await?;
    if !kept {
        return Err(lost(&lease));
    }
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "until_ms": until }),
    ))
}

fn lost(lease: &Lease) -> Problem {
    Problem::new(
        StatusCode::CONFLICT,
        format!(
            "the lease on game {} (attempt {}) no longer holds: it ran out or was voided, and the game is played again",
            lease.game, lease.attempt
        ),
    )
}

/// `POST /api/v1/worker/progress`: shown on the series' live page if it is open.
async fn progress(
    State(daemon): State<Arc<Daemon>>,
    caller: WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    use crate::referee::Spectator;
    let body = body.map_err(|e| unread_body(e, "the body", MAX_RECORD))?;
    let Progress { lease, record } = parse_json(&body)?;
    let (lease, _) = held(&daemon, &caller, &lease).await?;
    if daemon.settings.database.is_shared() {
        // For the live pages of the other daemons sharing the store (super::relay).
        let (held, text) = (lease.clone(), record.clone());
        daemon
            .db(move |s| s.set_live(&held, &text, super::now_ms()))
            .await?;
    }
    if let Some(books) = daemon.cached_books(lease.series) {
        let mut records = crate::record::read_games(&record).map_err(|e| {
            Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("the record so far does not read: {e}"),
            )
            .field("record")
        })?;
        if records.len() == 1 {
            let record = records.remove(0);
            let hub = Arc::clone(&books.lock().unwrap_or_else(|e| e.into_inner()).hub);
            hub.follow(lease.number, &record);
        }
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/v1/worker/finish`.
async fn finish(
    State(daemon): State<Arc<Daemon>>,
    caller: WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let body = body.map_err(|e| unread_body(e, "the body", MAX_RECORD))?;
    let Report {
        lease,
        record,
        figures,
    } = parse_json(&body)?;
    // Checked against the store before anything costly: only the stored lease is used.
    let (lease, worker) = held(&daemon, &caller, &lease).await?;
    let books = daemon.books(lease.series).await.map_err(|e| {
        tracing::error!(series = lease.series, "cannot set up the series: {e}");
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server could not set up this game's series; see its log",
        )
    })?;
    let (game, names) = {
        let b = books.lock().unwrap_or_else(|e| e.into_inner());
        let game = b
            .schedule
            .get(lease.number)
            .map(|fixture| b.entrants.game(&b.config, fixture, lease.attempt));
        (game, b.names())
    };
    let Some(game) = game else {
        return Err(Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "game {} is not in series {}'s schedule",
                lease.number, lease.series
            ),
        )
        .field("lease.number"));
    };
    let name = worker.clone();
    let figures_given = figures;
    let checked = tokio::task::spawn_blocking(move || {
        Tally::reported(&record, &game, &name, figures_given.as_ref(), &names)
    })
    .await
    .map_err(|e| {
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the record could not be checked: {e}"),
        )
    })?;
    let tally = match checked {
        Ok(mut tally) => {
            // Where it was played, as the worker said when it leased (not as the record
            // says).
            let key = worker.clone();
            if let Some(info) = daemon.db(move |s| s.worker_info(&key)).await? {
                tally::stamp(&mut tally.record, &info);
            }
            tally
        }
        Err(why) => {
            tracing::warn!(
                worker,
                game = lease.game,
                "a reported record was refused: {why}"
            );
            daemon
                .metrics
                .reports_refused
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let number = lease.number;
            give_back(&daemon, lease).await?;
            return Err(Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "the record of game {number} is refused: {why}; the game will be played again"
                ),
            )
            .field("record"));
        }
    };
    let held = lease.clone();
    if tally::count(&daemon, lease, tally, &worker, &books).await? {
        Ok(json_answer(
            StatusCode::OK,
            &serde_json::json!({ "counted": true }),
        ))
    } else {
        Err(lost(&held))
    }
}

/// `POST /api/v1/worker/abandon`.
async fn abandon(
    State(daemon): State<Arc<Daemon>>,
    caller: WorkerCaller,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let (lease, _, unplayed) = owned_body(&daemon, &caller, body).await?;
    if unplayed {
        // Never started: queued again as it was, its attempt not used up.
        let series = lease.series;
        let released = daemon.db(move |s| s.release(&lease)).await?;
        if released {
            daemon.wake.notify_waiters();
        }
        tally::settle(&daemon, series).await?;
    } else {
        daemon
            .metrics
            .games_voided
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        give_back(&daemon, lease).await?;
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/v1/worker/archives/{sha256}`: only the archive of a registered bot.
async fn archive(
    State(daemon): State<Arc<Daemon>>,
    _: WorkerCaller,
    Path(hash): Path<String>,
) -> Answer {
    let key = hash.clone();
    let bytes = daemon
        .db(move |s| {
            Ok(if s.is_archive(&key)? {
                s.archives().read_bytes(&key)
            } else {
                None
            })
        })
        .await?;
    match bytes {
        Some(bytes) => Ok((
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/gzip")],
            bytes,
        )
            .into_response()),
        None => Err(Problem::new(
            StatusCode::NOT_FOUND,
            format!("there is no bot archive {hash}"),
        )),
    }
}

/// A worker as `GET /api/v1/workers` shows it: its figures and how far its results stand
/// from everyone else's.
#[derive(Serialize)]
struct Listed {
    #[serde(flatten)]
    row: super::store::WorkerRow,
    /// Its games' scores against the same pairings played by others, in standard errors
    /// (`None`: fewer than 10 scored games).
    z: Option<f64>,
    /// `|z|` over [`crate::series::merge::OUTLIER_Z`]: its results stand out; check its
    /// machine, and exclude it if they are not to be trusted.
    outlier: bool,
}

/// `GET /api/v1/workers`.
async fn workers(State(daemon): State<Arc<Daemon>>, _: Reader) -> Answer {
    let (rows, zs) = daemon
        .db(|s| {
            let rows = s.workers()?;
            let names: Vec<String> = rows.iter().map(|w| w.info.name.clone()).collect();
            let mut played = Vec::new();
            s.each_played(|worker, white, black, result| {
                let local = worker == "daemon";
                let index = names
                    .iter()
                    .position(|n| n == worker || (local && n.starts_with("daemon/")));
                if let Some(index) = index {
                    played.push((index, white, black, result.to_string()));
                }
            })?;
            let zs = worker_z(names.len(), &played);
            Ok((rows, zs))
        })
        .await?;
    let workers: Vec<Listed> = rows
        .into_iter()
        .zip(zs)
        .map(|(row, z)| Listed {
            row,
            z: z.map(|z| (z * 100.0).round() / 100.0),
            outlier: z.is_some_and(|z| z.abs() > crate::series::merge::OUTLIER_Z),
        })
        .collect();
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "workers": workers }),
    ))
}

/// Each of `workers` workers' z-score over the games they played (worker index, White's
/// and Black's bot, result): each game's score for the lower bot id of its pairing, less
/// that pairing's mean over every worker's games, pooled as `zebra merge` pools shards
/// ([`crate::series::merge::outlier_z`]): a worker whose machine gets other results for
/// the same bots than the rest stands out.
fn worker_z(workers: usize, played: &[(usize, i64, i64, String)]) -> Vec<Option<f64>> {
    use std::collections::HashMap;
    let score = |white: i64, black: i64, result: &str| -> Option<f64> {
        let for_white = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => return None,
        };
        Some(if white < black {
            for_white
        } else {
            1.0 - for_white
        })
    };
    let mut sums: HashMap<(i64, i64), (f64, f64)> = HashMap::new();
    for (_, white, black, result) in played {
        if let Some(s) = score(*white, *black, result) {
            let e = sums
                .entry((*white.min(black), *white.max(black)))
                .or_default();
            e.0 += s;
            e.1 += 1.0;
        }
    }
    let residuals: Vec<(usize, f64)> = played
        .iter()
        .filter_map(|(k, white, black, result)| {
            let s = score(*white, *black, result)?;
            let (sum, n) = sums[&(*white.min(black), *white.max(black))];
            Some((*k, s - sum / n))
        })
        .collect();
    crate::series::merge::outlier_z(workers, &residuals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_whose_results_differ_for_the_same_bots_stands_out() {
        // Bots 1 and 2 draw half their games and split the rest on two honest workers;
        // worker 2 reports bot 1 winning every game of theirs.
        let mut played = Vec::new();
        for k in 0..40 {
            let result = ["1-0", "0-1", "1/2-1/2", "1/2-1/2"][k % 4];
            played.push((k % 2, 1, 2, result.to_string()));
            played.push((k % 2, 2, 1, result.to_string()));
        }
        for k in 0..20 {
            let (white, black, result) = if k % 2 == 0 {
                (1, 2, "1-0")
            } else {
                (2, 1, "0-1")
            };
            played.push((2, white, black, result.to_string()));
        }
        // A fourth worker with too few games to judge.
        played.push((3, 1, 2, "1-0".to_string()));
        let z = worker_z(4, &played);
        assert!(
            z[0].unwrap().abs() < 3.0 && z[1].unwrap().abs() < 3.0,
            "{z:?}"
        );
        assert!(z[2].unwrap() > 3.0, "{z:?}");
        assert_eq!(z[3], None);
        // Unfinished games count for nobody; no game at all: nothing to judge.
        assert_eq!(worker_z(1, &[(0, 1, 2, "*".to_string())]), vec![None]);
        assert_eq!(worker_z(2, &[]), vec![None, None]);
    }
}

/// An admin's decision on a worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exclusion {
    /// `OWNER/NAME`, as `GET /api/v1/workers` lists it.
    pub name: String,
    /// `true` (the default): excluded; `false`: admitted again.
    #[serde(default = "yes")]
    pub excluded: bool,
}

fn yes() -> bool {
    true
}

/// `POST /api/v1/workers/exclude`.
async fn exclude(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    if who.scope != Scope::Admin {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "this token's scope is submit; excluding a worker needs admin",
        ));
    }
    let body = body.map_err(|e| unread_body(e, "the body", super::api::MAX_BODY))?;
    let Exclusion { name, excluded } = parse_json(&body)?;
    let replayed = tally::exclude(&daemon, name.clone(), excluded).await?;
    let Some(series) = replayed else {
        return Err(Problem::new(
            StatusCode::NOT_FOUND,
            format!("there is no worker {name}: GET /api/v1/workers lists them"),
        )
        .field("name"));
    };
    if excluded {
        tracing::warn!(
            worker = name,
            ?series,
            "worker excluded by an admin; its games in running series are played again"
        );
    }
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "name": name, "excluded": excluded, "series_replayed": series }),
    ))
}
