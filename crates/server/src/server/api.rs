//! The daemon's HTTP API (JSON, described in `protocol/openapi.json`), its health check and
//! its metrics.
//!
//! Every refusal is a problem body (`application/problem+json`, RFC 9457): `title`, `status`,
//! `detail` in one line, and `field` when one field of a request is at fault. A request that
//! is refused writes nothing. Bodies over [`MAX_BODY`] are refused before they are read
//! whole. The network never supplies a command line: series name registered bot ids only.
//!
//! Routes (scope needed in brackets; `read` routes are open to all with `public_read`; a
//! handler asks for its scope by taking [`super::extract::Reader`] or
//! [`super::extract::Submitter`], and for its path's id as a checked one of that module):
//! - `GET /healthz` (none), `GET /metrics` [read]
//! - `GET /api/v1/bots` [read], `GET /api/v1/bots/{id}` [read; the check reports for its
//!   owner or an admin]; `POST /api/v1/bots` [submit] uploads a bot (an archive, see
//!   [`super::upload`]); `POST /api/v1/bots/{id}/games` [submit; its owner or an admin]
//!   enters it in one more game (`{"game": "boyer-football"}`), pending that game's check
//! - `POST /api/v1/series` [submit] with an optional `Idempotency-Key` header;
//!   `GET /api/v1/series` [read]; `GET /api/v1/series/{id}` [read];
//!   `GET /api/v1/series/{id}/games?after=N&limit=M` [read];
//!   `POST /api/v1/series/{id}/cancel` [submit; its owner or an admin];
//!   `GET /api/v1/series/{id}/events` [read] the series' event stream as server-sent events
//! - `GET /api/v1/games/{id}` [read], `/pgn` (the record), `/view` (the JSON view stream
//!   the viewer draws) [read], `/log?part=transcript|white|black` (a failed game's protocol
//!   transcript [read; the owner of either bot, or an admin] or a side's stderr [read; the
//!   owner of that side's bot, or an admin])
//! - `GET /api/v1/leaderboard?game=NAME` [read]: one game's table (default football-chess)

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Serialize;
use serde_json::{json, Value};

use super::auth::Caller;
use super::extract::{BotId, GameId, Reader, SeriesId, Submitter};
use super::pool::{Books, BotBooks};
use super::series::SeriesRequest;
use super::store::{BotRow, BotState, StoreError, Submitted};
use super::Daemon;

/// The largest request body read (a series request is a few hundred bytes).
pub(crate) const MAX_BODY: usize = 64 * 1024;
/// The most rows one list answer holds.
pub(crate) const MAX_PAGE: u32 = 1000;

/// A refusal, as a problem body.
#[derive(Debug)]
pub struct Problem {
    status: StatusCode,
    detail: String,
    field: Option<String>,
    /// The quota that refused the request (see `super::entrants`).
    quota: Option<&'static str>,
    /// A 429's `Retry-After`, in seconds.
    retry_after_s: Option<u64>,
}

impl Problem {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Problem {
        Problem {
            status,
            detail: detail.into(),
            field: None,
            quota: None,
            retry_after_s: None,
        }
    }

    pub(crate) fn quota(mut self, quota: &'static str) -> Problem {
        self.quota = Some(quota);
        self
    }

    pub(crate) fn retry_after(mut self, seconds: u64) -> Problem {
        self.retry_after_s = Some(seconds);
        self
    }

    pub(crate) fn field(mut self, field: impl Into<String>) -> Problem {
        self.field = Some(field.into());
        self
    }

    fn not_found(what: String) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, what)
    }
}

/// A problem as its body says it.
///
/// The fields of this and of the API's other answer bodies are declared in alphabetical
/// order: the order `serde_json`'s objects (without its `preserve_order` feature) write
/// them in, which the answers were built as before they were typed.
#[derive(Serialize)]
struct ProblemBody<'a> {
    detail: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quota: Option<&'static str>,
    status: u16,
    title: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = ProblemBody {
            detail: &self.detail,
            field: self.field.as_deref(),
            quota: self.quota,
            status: self.status.as_u16(),
            title: self.status.canonical_reason().unwrap_or("error"),
            kind: "about:blank",
        };
        let mut response = (
            self.status,
            [(header::CONTENT_TYPE, "application/problem+json")],
            serde_json::to_string(&body).expect("a problem serializes"),
        )
            .into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(seconds) = self.retry_after_s {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<StoreError> for Problem {
    fn from(e: StoreError) -> Problem {
        match e {
            StoreError::UnknownBot(id) => Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("there is no bot {id}"),
            )
            .field("bots"),
            e @ (StoreError::BotNotActive { .. } | StoreError::NotAdmitted { .. }) => {
                Problem::new(StatusCode::CONFLICT, e.to_string()).field("bots")
            }
            e @ StoreError::KeyConflict(_) => Problem::new(StatusCode::CONFLICT, e.to_string()),
            e @ StoreError::BotDeleted(_) => {
                Problem::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).field("bots")
            }
            e @ (StoreError::NoRecord(_) | StoreError::NoSeries(_)) => {
                Problem::not_found(e.to_string())
            }
            e => {
                tracing::error!("store: {e}");
                Problem::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the server could not read or write its store; see its log",
                )
            }
        }
    }
}

pub(crate) type Answer = Result<Response, Problem>;

pub(crate) fn json_answer(status: StatusCode, value: &impl Serialize) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_string(value).expect("answers serialize"),
    )
        .into_response()
}

/// The router of the daemon.
pub fn router(daemon: Arc<Daemon>) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route(
            "/api/v1/bots",
            get(list_bots)
                .post(upload)
                .layer(DefaultBodyLimit::max(super::upload::MAX_ARCHIVE)),
        )
        .route(
            "/api/v1/bots/:id",
            get(get_bot).delete(super::entrants::delete_bot),
        )
        .route("/api/v1/bots/:id/games", post(enter_game))
        .route("/api/v1/series", get(list_series).post(submit))
        .route("/api/v1/series/:id", get(get_series))
        .route("/api/v1/series/:id/games", get(series_games))
        .route("/api/v1/series/:id/cancel", post(cancel))
        .route("/api/v1/series/:id/events", get(super::pages::events))
        .route("/api/v1/games/:id", get(get_game))
        .route("/api/v1/games/:id/pgn", get(game_pgn))
        .route("/api/v1/games/:id/view", get(game_view))
        .route("/api/v1/games/:id/log", get(game_log))
        .route("/api/v1/leaderboard", get(leaderboard))
        .merge(super::fleet::router())
        .merge(super::entrants::router())
        .merge(super::browse::router())
        .merge(super::pages::router())
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&daemon),
            count_requests,
        ))
        .with_state(daemon)
}

async fn count_requests(
    State(daemon): State<Arc<Daemon>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    daemon.metrics.http_requests.fetch_add(1, Ordering::Relaxed);
    next.run(request).await
}

async fn not_found() -> Problem {
    Problem::not_found("no such route; see protocol/openapi.json".to_string())
}

async fn not_allowed() -> Problem {
    Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method; see protocol/openapi.json",
    )
}

async fn healthz(State(daemon): State<Arc<Daemon>>) -> Answer {
    daemon.db(|s| s.schema_version()).await?;
    Ok((StatusCode::OK, "ok\n").into_response())
}

async fn metrics(State(daemon): State<Arc<Daemon>>, _: Reader) -> Answer {
    let (queued, leased, workers) = daemon
        .db(|s| {
            let (queued, leased) = s.queue()?;
            Ok((queued, leased, s.workers()?))
        })
        .await?;
    let text = daemon.metrics.render(
        queued,
        leased,
        daemon.started.elapsed().as_secs_f64(),
        &workers,
    );
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        text,
    )
        .into_response())
}

/// A bot as the API shows it: the games it is entered in, each with its check's state
/// (`pending`, `active`: it plays that game, `rejected`); its check reports (its latest,
/// and one per game) only to its owner or an admin.
fn bot_json(
    bot: &BotRow,
    caller: &Caller,
    books: Option<&BotBooks>,
    games: &[super::store::BotGame],
) -> Value {
    let mine: Vec<&super::store::BotGame> = games.iter().filter(|g| g.bot == bot.id).collect();
    let states: serde_json::Map<String, Value> = mine
        .iter()
        .map(|g| (g.game.clone(), json!(g.state)))
        .collect();
    let mut v = json!({
        "id": bot.id,
        "name": bot.name,
        "family": bot.family,
        "version": bot.version,
        "superseded_by": bot.superseded_by,
        "state": bot.state,
        "owner": bot.owner,
        "created_ms": bot.created_ms,
        "books": books.cloned().unwrap_or_default(),
        "games": states,
    });
    if caller.owns(&bot.owner) {
        let read = |r: Option<&str>| {
            r.and_then(|r| serde_json::from_str(r).ok())
                .unwrap_or(Value::Null)
        };
        v["report"] = read(bot.report.as_deref());
        v["reports"] = mine
            .iter()
            .map(|g| (g.game.clone(), read(g.report.as_deref())))
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    v
}

/// The pool's books: read from the store at the first request that needs them, kept up
/// to date by the workers after that (server::pool), and on a shared store brought up to
/// date at each read.
pub async fn pool(daemon: &Arc<Daemon>) -> Result<Arc<Books>, Problem> {
    // Several daemons on one store: each read brings the books up to what all stored.
    if !daemon.settings.database.is_shared() {
        if let Some(books) = daemon.pool.current() {
            return Ok(books);
        }
    }
    let d = Arc::clone(daemon);
    Ok(daemon.db(move |s| d.pool.read(s)).await?)
}

async fn list_bots(State(daemon): State<Arc<Daemon>>, Reader(who): Reader) -> Answer {
    let (bots, games) = daemon.db(|s| Ok((s.bots()?, s.all_bot_games()?))).await?;
    let pool = pool(&daemon).await?;
    let list: Vec<Value> = bots
        .iter()
        .filter(|b| b.deleted_ms.is_none())
        .map(|b| bot_json(b, &who, pool.all.bots.get(&b.id), &games))
        .collect();
    Ok(json_answer(StatusCode::OK, &json!({ "bots": list })))
}

async fn get_bot(
    State(daemon): State<Arc<Daemon>>,
    Reader(who): Reader,
    BotId(id): BotId,
) -> Answer {
    let (bot, games) = daemon
        .db(move |s| Ok((s.bot(id)?, s.bot_games(id)?)))
        .await?;
    let bot = bot.ok_or_else(|| Problem::not_found(format!("there is no bot {id}")))?;
    if bot.deleted_ms.is_some() {
        return Err(Problem::new(
            StatusCode::GONE,
            format!("bot {id} was deleted by its owner"),
        ));
    }
    let pool = pool(&daemon).await?;
    let mut answer = bot_json(&bot, &who, pool.all.bots.get(&id), &games);
    // A pending bot's owner sees its place in the checks' line.
    if who.owns(&bot.owner) && games.iter().any(|g| g.state == BotState::Pending) {
        let pending: Vec<(i64, crate::rules::Rules)> = daemon
            .db(|s| s.pending_checks())
            .await?
            .into_iter()
            .map(|(b, g)| (b.id, g))
            .collect();
        let queue = daemon.checks.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(place) = queue.place(id, &pending, daemon.settings.checks) {
            answer["check_queue"] = json!(place);
        }
    }
    Ok(json_answer(StatusCode::OK, &answer))
}

/// The body of `POST /api/v1/bots/{id}/games`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    game: String,
}

/// The answer of `POST /api/v1/bots/{id}/games`: the bot's state in that game.
#[derive(Serialize)]
struct Entered {
    game: &'static str,
    id: i64,
    state: super::store::BotState,
    url: String,
}

/// `POST /api/v1/bots/{id}/games`: enters a bot in one more game, pending that game's check
/// (202); a game it is entered in already keeps its check (200). Its owner's or an admin's.
async fn enter_game(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    BotId(id): BotId,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let body = body.map_err(|e| unread_body(e, "the body", MAX_BODY))?;
    let entry: Entry = parse_json(&body)?;
    let game = super::series::game_named(&entry.game).map_err(|e| {
        Problem::new(StatusCode::UNPROCESSABLE_ENTITY, format!("game: {e}")).field("game")
    })?;
    let bot = daemon
        .db(move |s| s.bot(id))
        .await?
        .ok_or_else(|| Problem::not_found(format!("there is no bot {id}")))?;
    if !who.owns(&bot.owner) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "bot {id} is {}'s: only its owner or an admin enters it in a game",
                bot.owner
            ),
        ));
    }
    let (added, games) = daemon
        .db(move |s| Ok((s.enter(id, game)?, s.bot_games(id)?)))
        .await?;
    if added {
        daemon.wake.notify_waiters();
    }
    let state = games
        .iter()
        .find(|g| g.game == game.name())
        .map_or(super::store::BotState::Pending, |g| g.state);
    Ok(json_answer(
        if added {
            StatusCode::ACCEPTED
        } else {
            StatusCode::OK
        },
        &Entered {
            game: game.name(),
            id,
            state,
            url: format!("/api/v1/bots/{id}"),
        },
    ))
}

/// A body that could not be read: too large (413), or cut short (400).
pub(crate) fn unread_body(e: BytesRejection, what: &str, limit: usize) -> Problem {
    let status = if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        StatusCode::PAYLOAD_TOO_LARGE
    } else if e.body_text().contains(super::http::BODY_TIMEOUT) {
        StatusCode::REQUEST_TIMEOUT
    } else {
        StatusCode::BAD_REQUEST
    };
    Problem::new(
        status,
        format!("{what}: {} (at most {limit} bytes)", e.body_text()),
    )
}

/// The answer of `POST /api/v1/bots`: the new bot, pending its check in `games`.
#[derive(Serialize)]
struct Uploaded<'a> {
    games: Vec<&'static str>,
    id: i64,
    name: &'a str,
    state: &'static str,
    url: String,
    version: i64,
}

/// `POST /api/v1/bots`: a bot uploaded as an archive, unpacked with every check of
/// [`super::upload`], registered strict and pending its check, owned by the uploader.
async fn upload(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    if let Err(why) = &daemon.uploads {
        return Err(Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("this server takes no uploads: {why}"),
        ));
    }
    let body = body.map_err(|e| unread_body(e, "the archive", super::upload::MAX_ARCHIVE))?;
    let owner = who.owner.clone().unwrap_or_default();
    // The quotas that need only the archive's size, before it is unpacked (the rest, and
    // these again, once its name is known).
    if let Some(quotas) = super::entrants::quotas_of(&daemon, &who).cloned() {
        let (name, size) = (owner.clone(), body.len() as u64);
        let refused = daemon
            .db(move |s| {
                let now = super::now_ms();
                let usage = super::entrants::Usage {
                    has_family: true,
                    versions: 0,
                    ..s.usage(&name, None, now)?
                };
                Ok(quotas.upload(&usage, size, now).err())
            })
            .await?;
        if let Some(refusal) = refused {
            return Err(refusal.into());
        }
    }
    let hash: String =
        sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(&body))
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
    let dir = std::path::absolute(daemon.settings.data.join("uploads"))
        .unwrap_or_else(|_| daemon.settings.data.join("uploads"))
        .join(format!("{hash}-{}", super::now_ms()));
    let unpack_dir = dir.clone();
    let archive = body.clone();
    let entry = tokio::task::spawn_blocking(move || super::upload::unpack(&body, &unpack_dir))
        .await
        .map_err(|e| internal(e.to_string()))?
        .map_err(|e| {
            let status = match e {
                super::upload::UploadError::TooBig { .. }
                | super::upload::UploadError::TooManyFiles => StatusCode::PAYLOAD_TOO_LARGE,
                super::upload::UploadError::Io(_) => {
                    tracing::error!("an upload: {e}");
                    StatusCode::INTERNAL_SERVER_ERROR
                }
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            };
            Problem::new(status, e.to_string())
        })?;
    let (mut entry, games) = entry;
    let entered: Vec<&'static str> = games.iter().map(|g| g.name()).collect();
    // The archive is kept as it came, by its SHA-256: what a remote worker downloads and
    // unpacks with the same checks (super::remote).
    let quotas = super::entrants::quotas_of(&daemon, &who).cloned();
    let added = daemon
        .db(move |s| {
            // Quotas checked and the bot added in one write transaction: two uploads at
            // once (on two daemons sharing a store too) cannot both take the last place.
            s.exclusive(|s| {
                let now = super::now_ms();
                if let Some(quotas) = quotas {
                    let usage = s.usage(&owner, Some(&entry.name), now)?;
                    if let Err(refusal) = quotas.upload(&usage, archive.len() as u64, now) {
                        return Ok(Err(refusal));
                    }
                }
                let hash = s.archives().put_bytes(&archive)?;
                let bot = s.add_version_in(&mut entry, &owner, now, &games)?;
                s.set_archive(bot.id, &hash, archive.len() as u64)?;
                Ok(Ok(bot))
            })
        })
        .await;
    let bot = match added {
        Ok(Ok(bot)) => bot,
        Ok(Err(refusal)) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(refusal.into());
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(match e {
                StoreError::BotExists(name) => Problem::new(
                    StatusCode::CONFLICT,
                    format!("the name {name} is taken by a bot of another owner: choose another name in zebra-bot.toml"),
                )
                .field("name"),
                StoreError::VersionName(why) => {
                    Problem::new(StatusCode::UNPROCESSABLE_ENTITY, why).field("name")
                }
                e => e.into(),
            });
        }
    };
    let id = bot.id;
    daemon.wake.notify_waiters();
    let mut response = json_answer(
        StatusCode::CREATED,
        &Uploaded {
            games: entered,
            id,
            name: &bot.name,
            state: "pending",
            url: format!("/api/v1/bots/{id}"),
            version: bot.version,
        },
    );
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/bots/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// The answer of `POST /api/v1/series`: the series created, or the one its
/// `Idempotency-Key` made before.
#[derive(Serialize)]
struct Queued {
    game: &'static str,
    games_planned: usize,
    id: i64,
    url: String,
}

/// `POST /api/v1/series`: checks the request, queues its games in one transaction.
async fn submit(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let body = body.map_err(|e| unread_body(e, "the body", MAX_BODY))?;
    let key = match headers.get("idempotency-key") {
        None => None,
        Some(v) => Some(
            v.to_str()
                .ok()
                .filter(|k| {
                    !k.is_empty() && k.len() <= 200 && k.bytes().all(|b| b.is_ascii_graphic())
                })
                .ok_or_else(|| {
                    Problem::new(
                        StatusCode::BAD_REQUEST,
                        "Idempotency-Key: give 1 to 200 visible ASCII characters",
                    )
                    .field("Idempotency-Key")
                })?
                .to_string(),
        ),
    };
    let request: SeriesRequest = parse_json(&body)?;
    let checked = request.check().map_err(|e| {
        Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: {}", e.field, e.message),
        )
        .field(e.field)
    })?;
    let owner = who.owner.clone().unwrap_or_default();
    // A key is its owner's: another owner's request under the same key is another series.
    let key = key.map(|k| format!("{owner}\n{k}"));
    let planned = checked.games.len();
    let spec = checked.spec.clone();
    let rules = checked.request.rules();
    let games = checked.games;
    let quotas = super::entrants::quotas_of(&daemon, &who).cloned();
    let submitted = daemon
        .db(move |s| {
            // One write transaction: the quota and the series it admits.
            s.exclusive(|s| {
                let now = super::now_ms();
                // A resubmission under a used key is never a new quota's worth.
                let again = match key.as_deref() {
                    Some(k) => s.key_used(k)?,
                    None => false,
                };
                if let (Some(quotas), false) = (quotas, again) {
                    let usage = s.usage(&owner, None, now)?;
                    if let Err(refusal) = quotas.series(&usage, games.len() as u64, now) {
                        return Ok(Err(refusal));
                    }
                }
                s.submit_game(key.as_deref(), &spec, rules, &owner, &games, now)
                    .map(Ok)
            })
        })
        .await??;
    let (status, id) = match submitted {
        Submitted::Created(id) => {
            daemon.wake.notify_waiters();
            (StatusCode::CREATED, id)
        }
        Submitted::Existing(id) => (StatusCode::OK, id),
    };
    let mut response = json_answer(
        status,
        &Queued {
            game: rules.name(),
            games_planned: planned,
            id,
            url: format!("/api/v1/series/{id}"),
        },
    );
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/series/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// A JSON body into `T`, refusing unknown fields; the problem names the field at fault.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let parsed: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let problem = Problem::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not a valid request: {inner}"),
        );
        if path == "." || path == "?" || path.is_empty() {
            problem
        } else {
            problem.field(path)
        }
    })?;
    de.end().map_err(|e| {
        Problem::new(
            StatusCode::BAD_REQUEST,
            format!("the body has more after its JSON value: {e}"),
        )
    })?;
    Ok(parsed)
}

/// The answer of `GET /api/v1/series`: a page of series, newest first.
#[derive(Serialize)]
struct SeriesList<'a> {
    /// The `before` of the next page (older series), or null on the last page.
    next_before: Option<i64>,
    series: Vec<SeriesItem<'a>>,
    /// Series the filters match in all.
    total: u64,
}

/// A series in [`SeriesList`]: its row, its request as submitted, its games.
#[derive(Serialize)]
struct SeriesItem<'a> {
    created_ms: i64,
    game: &'a str,
    /// Games finished.
    games_finished: u64,
    /// Games queued for it in all (every encounter's; an SPRT may stop it earlier).
    games_planned: u64,
    id: i64,
    outcome: Option<&'a str>,
    owner: &'a str,
    request: Value,
    state: &'a str,
}

/// `GET /api/v1/series?limit=&before=&owner=&state=&game=&bot=`: a page of series.
async fn list_series(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let limit = page_limit(&query)?;
    let before = cursor(&query, "before")?;
    let text = |name: &str, allowed: &[&str]| -> Result<Option<String>, Problem> {
        match query.get(name) {
            None => Ok(None),
            Some(v) if allowed.is_empty() || allowed.contains(&v.as_str()) => Ok(Some(v.clone())),
            Some(v) => Err(Problem::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "{name} '{}': give one of {}",
                    crate::bot::text::clean(v, 40),
                    allowed.join(", ")
                ),
            )
            .field(name)),
        }
    };
    let games: Vec<&str> = crate::rules::Rules::ALL.iter().map(|r| r.name()).collect();
    let filter = super::store::SeriesFilter {
        owner: text("owner", &[])?,
        state: text("state", &["running", "finished", "cancelled"])?,
        game: text("game", &games)?,
        bot: cursor(&query, "bot")?,
    };
    let (rows, total, more, counts) = daemon
        .db(move |s| {
            let (rows, total, more) = s.series_page(&filter, before, limit)?;
            let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
            Ok((rows, total, more, s.series_counts(&ids)?))
        })
        .await?;
    let next_before = more.then(|| rows.last().map(|r| r.id)).flatten();
    let series = rows
        .iter()
        .map(|r| {
            let (planned, finished) = counts.get(&r.id).copied().unwrap_or_default();
            SeriesItem {
                created_ms: r.created_ms,
                game: &r.game,
                games_finished: finished,
                games_planned: planned,
                id: r.id,
                outcome: r.outcome.as_deref(),
                owner: &r.owner,
                request: serde_json::from_str::<Value>(&r.spec).unwrap_or(Value::Null),
                state: &r.state,
            }
        })
        .collect();
    Ok(json_answer(
        StatusCode::OK,
        &SeriesList {
            next_before,
            series,
            total,
        },
    ))
}

/// An id given as a query parameter (`before`, `bot`): a positive whole number.
pub(crate) fn cursor(query: &HashMap<String, String>, name: &str) -> Result<Option<i64>, Problem> {
    match query.get(name) {
        None => Ok(None),
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(Problem::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "{name} '{}': give an id, a whole number from 1",
                    crate::bot::text::clean(text, 40)
                ),
            )
            .field(name.to_string())),
        },
    }
}

pub(crate) fn page_limit(query: &HashMap<String, String>) -> Result<u32, Problem> {
    number(query, "limit", 100).and_then(|n| {
        if (1..=MAX_PAGE).contains(&n) {
            Ok(n)
        } else {
            Err(Problem::new(
                StatusCode::BAD_REQUEST,
                format!("limit {n}: give 1 to {MAX_PAGE}"),
            )
            .field("limit"))
        }
    })
}

fn number(query: &HashMap<String, String>, name: &str, default: u32) -> Result<u32, Problem> {
    match query.get(name) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| {
            Problem::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "{name} '{}': give a whole number",
                    crate::bot::text::clean(text, 40)
                ),
            )
            .field(name.to_string())
        }),
    }
}

/// `GET /api/v1/series/{id}`: state, progress and the statistics of `zebra match --json`.
async fn get_series(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
) -> Answer {
    let (row, progress) = daemon
        .db(move |s| {
            let row = s.series(id)?.ok_or(StoreError::NoSeries(id))?;
            Ok((row, s.progress(id)?))
        })
        .await?;
    let summary = if row.state == "running" {
        let books = daemon.books(id).await.map_err(internal)?;
        let summary = books.lock().unwrap_or_else(|e| e.into_inner()).summary();
        summary
    } else {
        // An ended series' books are not kept: read from the store for this answer.
        let d = Arc::clone(&daemon);
        let r = row.clone();
        daemon
            .db(move |s| {
                let bots = s.bots()?;
                d.load_books(&r, &bots, s)
            })
            .await?
            .map_err(internal)?
            .summary()
    };
    let mut summary = serde_json::to_value(&summary).expect("a summary serializes");
    summary["outcome"] = row.outcome.clone().map_or(Value::Null, Value::String);
    Ok(json_answer(
        StatusCode::OK,
        &json!({
            "id": row.id,
            "game": row.game,
            "state": row.state,
            "outcome": row.outcome,
            "owner": row.owner,
            "created_ms": row.created_ms,
            "request": serde_json::from_str::<Value>(&row.spec).unwrap_or(Value::Null),
            "progress": progress,
            "summary": summary,
        }),
    ))
}

pub(crate) fn internal(e: String) -> Problem {
    tracing::error!("{e}");
    Problem::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the server could not read this series; see its log",
    )
}

async fn series_games(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let after = number(&query, "after", 0)?;
    let limit = page_limit(&query)?;
    let games = daemon
        .db(move |s| {
            s.series(id)?.ok_or(StoreError::NoSeries(id))?;
            s.games(id, after, limit)
        })
        .await?;
    Ok(json_answer(StatusCode::OK, &json!({ "games": games })))
}

/// The answer of `POST /api/v1/series/{id}/cancel`.
#[derive(Serialize)]
struct Cancelled {
    games_cancelled: usize,
    id: i64,
    state: String,
}

/// `POST /api/v1/series/{id}/cancel`: queued games are cancelled; running ones finish.
async fn cancel(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    SeriesId(id): SeriesId,
) -> Answer {
    let row = daemon
        .db(move |s| s.series(id)?.ok_or(StoreError::NoSeries(id)))
        .await?;
    if !who.owns(&row.owner) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "series {id} is {}'s: only its owner or an admin cancels it",
                row.owner
            ),
        ));
    }
    let cancelled = daemon.db(move |s| s.cancel(id)).await?;
    if let Some(books) = daemon.cached_books(id) {
        books
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .close(super::series::Ending::Cancelled);
    }
    daemon.drop_books(id);
    let row = daemon
        .db(move |s| s.series(id)?.ok_or(StoreError::NoSeries(id)))
        .await?;
    Ok(json_answer(
        StatusCode::OK,
        &Cancelled {
            games_cancelled: cancelled,
            id,
            state: row.state,
        },
    ))
}

/// Game `id` from the store.
async fn game_row(daemon: &Arc<Daemon>, id: i64) -> Result<super::store::GameRow, Problem> {
    daemon
        .db(move |s| s.game(id))
        .await?
        .ok_or_else(|| Problem::not_found(format!("there is no game {id}")))
}

async fn get_game(State(daemon): State<Arc<Daemon>>, _: Reader, GameId(id): GameId) -> Answer {
    let game = game_row(&daemon, id).await?;
    Ok(json_answer(StatusCode::OK, &game))
}

/// A finished game's record text.
pub(crate) async fn record_of(
    daemon: &Arc<Daemon>,
    game: &super::store::GameRow,
) -> Result<String, Problem> {
    let Some(hash) = game.record.clone() else {
        return Err(Problem::not_found(format!(
            "game {} has no record yet (it is {})",
            game.id, game.state
        )));
    };
    let reader = Arc::clone(daemon);
    tokio::task::spawn_blocking(move || reader.records().read(&hash))
        .await
        .map_err(|e| internal(e.to_string()))?
        .map_err(Problem::from)
}

async fn game_pgn(State(daemon): State<Arc<Daemon>>, _: Reader, GameId(id): GameId) -> Answer {
    let game = game_row(&daemon, id).await?;
    let text = record_of(&daemon, &game).await?;
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// A finished game as the viewer's view stream (protocol/schemas/view.json).
async fn game_view(State(daemon): State<Arc<Daemon>>, _: Reader, GameId(id): GameId) -> Answer {
    let game = game_row(&daemon, id).await?;
    let text = record_of(&daemon, &game).await?;
    let views = tokio::task::spawn_blocking(move || crate::web::feed::view_games(&text))
        .await
        .map_err(|e| internal(e.to_string()))?
        .map_err(|e| internal(format!("game {}: its record does not read: {e}", game.id)))?;
    let view = views
        .into_iter()
        .next()
        .ok_or_else(|| internal(format!("game {}: an empty record", game.id)))?;
    Ok(json_answer(StatusCode::OK, &view))
}

/// The logs of a game that went wrong (a forfeit, a timeout, an illegal reply: the daemon
/// keeps no others): the protocol transcript, or White's or Black's stderr. A bot's stderr
/// may say how it thinks: only its own bot's owner (and admins) read it, never the
/// opponent's (who could otherwise make a game fail on purpose to read it). The
/// transcript holds the messages of both sides, which the referee saw and which decided
/// the game: the owners of either bot read it.
async fn game_log(
    State(daemon): State<Arc<Daemon>>,
    Reader(who): Reader,
    GameId(id): GameId,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let game = game_row(&daemon, id).await?;
    let part = query.get("part").map_or("transcript", String::as_str);
    let extension = match part {
        "transcript" => "log",
        "white" => "white.stderr",
        "black" => "black.stderr",
        other => {
            return Err(Problem::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "part '{}': give transcript, white or black",
                    crate::bot::text::clean(other, 40)
                ),
            )
            .field("part"))
        }
    };
    // The bots whose owners may read this part: both for the transcript, one for a side.
    let readers: Vec<i64> = match part {
        "white" => vec![game.white],
        "black" => vec![game.black],
        _ => vec![game.white, game.black],
    };
    let owners = daemon
        .db(move |s| {
            readers
                .iter()
                .map(|id| s.bot(*id))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?;
    if !owners.iter().flatten().any(|b| who.owns(&b.owner)) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            if part == "transcript" {
                "a game's transcript is for the owners of its bots and for admins".to_string()
            } else {
                format!("{part}'s stderr is for the owner of {part}'s bot and for admins")
            },
        ));
    }
    let path = crate::series::game::log_path(
        &daemon.log_dir(game.series),
        game.number,
        game.attempts.max(1),
    )
    .with_extension(extension);
    let text = tokio::task::spawn_blocking(move || std::fs::read(&path))
        .await
        .map_err(|e| internal(e.to_string()))?
        .map_err(|_| {
            Problem::not_found(format!(
                "game {} kept no {part} log: only games that end by forfeit or have a timeout or an illegal reply keep theirs",
                game.id
            ))
        })?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        String::from_utf8_lossy(&text).into_owned(),
    )
        .into_response())
}

/// The answer of `GET /api/v1/leaderboard`.
#[derive(Serialize)]
struct Leaderboard<'a> {
    game: &'static str,
    games: u64,
    model: &'static str,
    ratings: Vec<Rating<'a>>,
}

/// A bot's line in the [`Leaderboard`]: its rating (rounded to a tenth) and its books in
/// that game.
#[derive(Serialize)]
struct Rating<'a> {
    bot: i64,
    elo: f64,
    forfeits: u64,
    games: u64,
    lower: f64,
    name: &'a str,
    points: f64,
    state: super::store::BotState,
    superseded_by: Option<i64>,
    upper: f64,
    verdicts: std::collections::BTreeMap<String, u64>,
}

/// One game's ratings (`?game=NAME`, default football-chess), fitted over its finished
/// games (series::rating: Bradley-Terry on the Elo scale, as Ordo and BayesElo), best
/// first, with each bot's books in that game.
async fn leaderboard(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let rules = match query.get("game") {
        None => crate::rules::Rules::FootballChess,
        Some(name) => super::series::game_named(name).map_err(|e| {
            Problem::new(StatusCode::BAD_REQUEST, format!("game: {e}")).field("game")
        })?,
    };
    let bots = daemon.db(|s| s.bots()).await?;
    let pool = pool(&daemon).await?.game(rules);
    let index: HashMap<i64, usize> = bots.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
    let rated = crate::series::rating::fit_meetings(bots.len(), pool.meetings_among(&index));
    let mut ratings: Vec<Rating> = bots
        .iter()
        .zip(&rated)
        // A deleted bot's games still rate its opponents; its own row is gone.
        .filter(|(b, r)| r.games > 0 && b.deleted_ms.is_none())
        .map(|(b, r)| {
            let books = pool.bots.get(&b.id).cloned().unwrap_or_default();
            Rating {
                bot: b.id,
                elo: round1(r.elo),
                forfeits: books.verdicts.values().sum::<u64>(),
                games: r.games,
                lower: round1(r.lower),
                name: &b.name,
                points: r.points,
                state: b.state,
                superseded_by: b.superseded_by,
                upper: round1(r.upper),
                verdicts: books.verdicts,
            }
        })
        .collect();
    // Best first; a rating that is not a finite number (written as null) sorts last.
    let elo = |r: &Rating| r.elo.is_finite().then_some(r.elo);
    ratings.sort_by(|a, b| {
        elo(b)
            .partial_cmp(&elo(a))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(json_answer(
        StatusCode::OK,
        &Leaderboard {
            game: rules.name(),
            games: pool.games,
            model: "Bradley-Terry on the Elo scale (as Ordo and BayesElo), maximum likelihood with one virtual draw per bot against a 0-rated anchor; 95% intervals",
            ratings,
        },
    ))
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed answers write the bytes the `json!` objects they replaced wrote.
    #[test]
    fn typed_answers_write_what_their_json_objects_wrote() {
        fn same(typed: &impl Serialize, old: Value) {
            assert_eq!(serde_json::to_string(typed).unwrap(), old.to_string());
        }
        same(
            &ProblemBody {
                detail: "limit 0: give 1 to 1000",
                field: Some("limit"),
                quota: None,
                status: 400,
                title: "Bad Request",
                kind: "about:blank",
            },
            json!({"type": "about:blank", "title": "Bad Request", "status": 400,
                   "detail": "limit 0: give 1 to 1000", "field": "limit"}),
        );
        same(
            &ProblemBody {
                detail: "unknown token \"x\"",
                field: None,
                quota: Some("bots"),
                status: 401,
                title: "Unauthorized",
                kind: "about:blank",
            },
            json!({"type": "about:blank", "title": "Unauthorized", "status": 401,
                   "detail": "unknown token \"x\"", "quota": "bots"}),
        );
        same(
            &Entered {
                game: "boyer-football",
                id: 3,
                state: super::super::store::BotState::Pending,
                url: "/api/v1/bots/3".into(),
            },
            json!({"id": 3, "game": "boyer-football", "state": "pending",
                   "url": "/api/v1/bots/3"}),
        );
        same(
            &Uploaded {
                games: vec!["football-chess", "boyer-football"],
                id: 4,
                name: "ann v2",
                state: "pending",
                url: "/api/v1/bots/4".into(),
                version: 2,
            },
            json!({"id": 4, "name": "ann v2", "version": 2, "state": "pending",
                   "games": ["football-chess", "boyer-football"], "url": "/api/v1/bots/4"}),
        );
        same(
            &Queued {
                game: "football-chess",
                games_planned: 4,
                id: 7,
                url: "/api/v1/series/7".into(),
            },
            json!({"id": 7, "game": "football-chess", "games_planned": 4,
                   "url": "/api/v1/series/7"}),
        );
        same(
            &Cancelled {
                games_cancelled: 2,
                id: 7,
                state: "cancelled".into(),
            },
            json!({"id": 7, "state": "cancelled", "games_cancelled": 2}),
        );
        let request = json!({"bots": [1, 2], "games": 4});
        same(
            &SeriesList {
                next_before: Some(7),
                series: vec![SeriesItem {
                    created_ms: 1700000000000,
                    game: "football-chess",
                    games_finished: 1,
                    games_planned: 4,
                    id: 7,
                    outcome: None,
                    owner: "ann",
                    request: request.clone(),
                    state: "running",
                }],
                total: 9,
            },
            json!({"series": [{"id": 7, "game": "football-chess", "state": "running",
                   "outcome": null, "owner": "ann", "created_ms": 1700000000000i64,
                   "games_finished": 1, "games_planned": 4,
                   "request": request}], "next_before": 7, "total": 9}),
        );
        let verdicts: std::collections::BTreeMap<String, u64> =
            [("crashed".to_string(), 1), ("bad-move".to_string(), 2)].into();
        let rating = |elo: f64| Rating {
            bot: 1,
            elo,
            forfeits: 3,
            games: 10,
            lower: -12.5,
            name: "ann",
            points: 5.5,
            state: super::super::store::BotState::Active,
            superseded_by: Some(2),
            upper: 40.0,
            verdicts: verdicts.clone(),
        };
        let old = |elo: f64| {
            json!({"bot": 1, "name": "ann", "state": "active", "superseded_by": 2,
                   "elo": elo, "lower": -12.5, "upper": 40.0, "games": 10, "points": 5.5,
                   "forfeits": 3, "verdicts": verdicts})
        };
        same(
            &Leaderboard {
                game: "football-chess",
                games: 5,
                model: "the model",
                ratings: vec![rating(12.3), rating(f64::NAN)],
            },
            json!({"game": "football-chess", "model": "the model", "games": 5,
                   "ratings": [old(12.3), old(f64::NAN)]}),
        );
    }
}
