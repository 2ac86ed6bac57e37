//! Entrants: who may join a competition, how much each may use, and how one leaves.
//!
//! - **Invite codes**: an admin makes a code (`zebra serve invite create`, or
//!   `POST /api/v1/invites`) good for a number of sign-ups until it expires; only its
//!   SHA-256 is kept, as for tokens. Anyone holding a code redeems it once per use
//!   (`POST /api/v1/signup`, or the `/signup` page) for a `submit` token owned by a name
//!   nobody holds yet: the token is shown once.
//! - **Quotas** (`[quotas]` in the settings) bind every owner of a `submit` token (an
//!   admin has none): bots kept, versions kept per bot, series running at once, bytes of
//!   uploaded archives kept, bytes uploaded and games queued in the last 24 hours. What
//!   holds too much is a 403 (delete or cancel something first; a request that alone
//!   exceeds a quota, too), what comes too fast a 429 with `Retry-After` (the seconds until
//!   enough of the last 24 hours' uploads or games have aged out); either names its quota
//!   in the problem's `quota` member. `GET /api/v1/quota` shows an owner's limits and use.
//! - **Leaving**: an owner deletes a bot (`DELETE /api/v1/bots/{id}`) or everything they
//!   have (`DELETE /api/v1/owners/{owner}`): the bots' code (their archive and unpacked
//!   files) and check reports go, every running series they play in is cancelled (their
//!   leased games voided: nothing more of them counts), the owner's tokens are revoked.
//!   Finished games and their records stay: they are the opponents' results too.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};

use super::api::{json_answer, parse_json, unread_body, Answer, Problem};
use super::auth::{token_hash, Caller, Scope};
use super::extract::{BotId, Submitter};
use super::store::{Store, StoreError};
use super::Daemon;

/// The quotas' window for the per-day ones.
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// The prefix of every invite code (recognisable when pasted in the wrong place).
pub(crate) const INVITE_PREFIX: &str = "invite_";

/// Sign-ups one invite code allows at most.
pub const MAX_USES: u32 = 10_000;

/// How much one owner may use; `None`: no limit. An admin has no quota.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Quotas {
    /// Bots (names, whatever their versions) kept at once.
    pub bots: Option<u64>,
    /// Versions kept of each bot.
    pub versions: Option<u64>,
    /// Series running at once.
    pub series: Option<u64>,
    /// Bytes of uploaded archives kept (as uploaded, compressed; each archive once).
    pub stored_bytes: Option<u64>,
    /// Bytes uploaded in the last 24 hours (deleted bots' too).
    pub uploaded_bytes_per_day: Option<u64>,
    /// Games of the owner's series queued in the last 24 hours.
    pub games_per_day: Option<u64>,
}

/// What an owner uses of what [`Quotas`] limit (from [`Store::usage`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bots (names) kept.
    pub bots: u64,
    /// Versions kept of the bot an upload names.
    pub versions: u64,
    /// Whether the owner keeps a bot of that name (an upload is then a new version).
    pub has_family: bool,
    /// Series running.
    pub series: u64,
    /// Bytes of archives kept.
    pub stored: u64,
    /// The last 24 hours' uploads: (when, bytes), oldest first.
    pub uploads: Vec<(i64, u64)>,
    /// The last 24 hours' series: (when, games), oldest first.
    pub games: Vec<(i64, u64)>,
}

/// A quota that refuses a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The quota's key in `[quotas]`.
    pub quota: &'static str,
    /// 403 (too much held, or the request alone is too large) or 429 (too fast).
    pub status: StatusCode,
    pub detail: String,
    /// With 429: seconds until the request would fit.
    pub retry_after_s: Option<u64>,
}

impl Refusal {
    /// A 429: `why` the request does not fit now, and in how many seconds it would.
    fn too_fast(quota: &'static str, why: String, wait_s: u64) -> Refusal {
        Refusal {
            quota,
            status: StatusCode::TOO_MANY_REQUESTS,
            detail: format!("quota {quota}: {why}; retry in {wait_s} s"),
            retry_after_s: Some(wait_s),
        }
    }
}

impl From<Refusal> for Problem {
    fn from(r: Refusal) -> Problem {
        let mut p = Problem::new(r.status, r.detail).quota(r.quota);
        if let Some(s) = r.retry_after_s {
            p = p.retry_after(s);
        }
        p
    }
}

/// A size for people: `12.5 MiB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// Seconds until the oldest entries of `window` (oldest first) that sum to at least
/// `excess` are 24 hours old.
fn retry_after(window: &[(i64, u64)], excess: u64, now_ms: i64) -> u64 {
    let mut shed = 0;
    for &(when, amount) in window {
        shed += amount;
        if shed >= excess {
            return ((when + DAY_MS - now_ms).max(0) as u64)
                .div_ceil(1000)
                .max(1);
        }
    }
    (DAY_MS / 1000) as u64
}

impl Quotas {
    /// The quotas set, for `--check-config`: `bots 5, stored_bytes 200.0 MiB`, or `none`.
    pub fn describe(&self) -> String {
        let counts = [
            ("bots", self.bots),
            ("versions", self.versions),
            ("series", self.series),
        ];
        let sizes = [
            ("stored_bytes", self.stored_bytes),
            ("uploaded_bytes_per_day", self.uploaded_bytes_per_day),
        ];
        let set: Vec<String> = counts
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
            .chain(
                sizes
                    .iter()
                    .filter_map(|(k, v)| v.map(|v| format!("{k} {}", size(v)))),
            )
            .chain(self.games_per_day.map(|v| format!("games_per_day {v}")))
            .collect();
        if set.is_empty() {
            "none".to_string()
        } else {
            set.join(", ")
        }
    }

    /// Whether `owner` may upload an archive of `bytes` now.
    pub fn upload(&self, usage: &Usage, bytes: u64, now_ms: i64) -> Result<(), Refusal> {
        let forbidden = |quota, detail| Refusal {
            quota,
            status: StatusCode::FORBIDDEN,
            detail,
            retry_after_s: None,
        };
        match (usage.has_family, self.bots, self.versions) {
            (false, Some(most), _) if usage.bots >= most => {
                return Err(forbidden(
                    "bots",
                    format!(
                        "quota bots: you keep {} bots, the most this server allows each entrant ({most}); delete one (DELETE /api/v1/bots/ID) or upload a new version of one you keep",
                        usage.bots
                    ),
                ))
            }
            (true, _, Some(most)) if usage.versions >= most => {
                return Err(forbidden(
                    "versions",
                    format!(
                        "quota versions: you keep {} versions of this bot, the most this server allows ({most}); delete an older version (DELETE /api/v1/bots/ID) first",
                        usage.versions
                    ),
                ))
            }
            _ => {}
        }
        // A request that can never fit first: waiting would not help.
        if let Some(most) = self.uploaded_bytes_per_day.filter(|&most| bytes > most) {
            return Err(forbidden(
                "uploaded_bytes_per_day",
                format!(
                    "quota uploaded_bytes_per_day: this archive ({}) alone is more than the {} a day this server takes from each entrant; make it smaller",
                    size(bytes),
                    size(most)
                ),
            ));
        }
        if let Some(most) = self.stored_bytes {
            if usage.stored + bytes > most {
                return Err(forbidden(
                    "stored_bytes",
                    format!(
                        "quota stored_bytes: this archive ({}) and the {} you keep exceed the {} this server keeps for each entrant; delete a bot or version you no longer need",
                        size(bytes),
                        size(usage.stored),
                        size(most)
                    ),
                ));
            }
        }
        if let Some(most) = self.uploaded_bytes_per_day {
            let used: u64 = usage.uploads.iter().map(|u| u.1).sum();
            if used + bytes > most {
                let wait = retry_after(&usage.uploads, used + bytes - most, now_ms);
                return Err(Refusal::too_fast(
                    "uploaded_bytes_per_day",
                    format!(
                        "you uploaded {} in the last 24 hours and this archive is {}, over the {} a day allowed",
                        size(used),
                        size(bytes),
                        size(most)
                    ),
                    wait,
                ));
            }
        }
        Ok(())
    }

    /// Whether `owner` may submit a series of `games` games now.
    pub fn series(&self, usage: &Usage, games: u64, now_ms: i64) -> Result<(), Refusal> {
        if let Some(most) = self.series {
            if usage.series >= most {
                return Err(Refusal {
                    quota: "series",
                    status: StatusCode::FORBIDDEN,
                    detail: format!(
                        "quota series: you have {} series running, the most this server allows each entrant at once ({most}); wait for one to end or cancel one",
                        usage.series
                    ),
                    retry_after_s: None,
                });
            }
        }
        if let Some(most) = self.games_per_day {
            if games > most {
                return Err(Refusal {
                    quota: "games_per_day",
                    status: StatusCode::FORBIDDEN,
                    detail: format!(
                        "quota games_per_day: a series of {games} games is more than the {most} games a day this server plays for each entrant; ask for fewer games"
                    ),
                    retry_after_s: None,
                });
            }
            let used: u64 = usage.games.iter().map(|g| g.1).sum();
            if used + games > most {
                let wait = retry_after(&usage.games, used + games - most, now_ms);
                return Err(Refusal::too_fast(
                    "games_per_day",
                    format!(
                        "your series queued {used} games in the last 24 hours and this one has {games}, over the {most} a day allowed"
                    ),
                    wait,
                ));
            }
        }
        Ok(())
    }
}

/// An invite code as the store keeps it (without the code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InviteRow {
    pub id: i64,
    pub uses_left: u32,
    pub expires_ms: Option<i64>,
    pub note: String,
    pub created_ms: i64,
    /// The owners who signed up with it, in order.
    pub owners: Vec<String>,
}

/// What deleting a bot did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Deleted {
    pub bot: i64,
    /// The running series it played against one other bot, now cancelled.
    pub series_cancelled: Vec<i64>,
    /// The running series of more bots it played in: they go on without its games (and
    /// end `incomplete`).
    pub series_reduced: Vec<i64>,
    /// Games that will not be played (its leased ones, voided, among them).
    pub games_cancelled: usize,
    /// Its games that were being played: none of them counts.
    pub leases_voided: usize,
    /// Its unpacked files (removed if they are an upload's).
    #[serde(skip)]
    pub dir: Option<std::path::PathBuf>,
    /// Its archive, when no other bot still standing came in it.
    #[serde(skip)]
    pub archive: Option<String>,
}

/// What deleting an owner did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OwnerDeleted {
    pub owner: String,
    pub bots: Vec<Deleted>,
    /// Their own running series, cancelled.
    pub series_cancelled: Vec<i64>,
    pub tokens_revoked: usize,
}

/// A time for people, in UTC: `2026-12-11 04:05 UTC`.
pub fn utc(ms: i64) -> String {
    let secs = (ms / 1000).max(0) as u64;
    let (y, m, d) = crate::record::time::civil_date(secs);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs % 86_400 / 3600,
        secs % 3600 / 60
    )
}

/// A new invite code: the prefix and 32 hex digits of kernel randomness.
fn new_code() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(format!(
        "{INVITE_PREFIX}{}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    ))
}

/// Makes an invite code good for `uses` sign-ups until `expires` from now (`None`: no
/// end) and returns it with its expiry (only its hash is stored).
pub fn create_invite(
    store: &mut Store,
    uses: u32,
    expires: Option<std::time::Duration>,
    note: &str,
) -> Result<(String, Option<i64>), String> {
    if !(1..=MAX_USES).contains(&uses) {
        return Err(format!("--uses {uses}: give 1 to {MAX_USES} sign-ups"));
    }
    if note.chars().count() > 200 || note.chars().any(char::is_control) {
        return Err("--note: give at most 200 characters on one line".to_string());
    }
    let now = super::now_ms();
    let expires_ms = expires.map(|d| now + d.as_millis().min(i64::MAX as u128 / 2) as i64);
    let code = new_code().map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    store
        .add_invite(&token_hash(&code), uses, expires_ms, note, now)
        .map_err(|e| e.to_string())?;
    Ok((code, expires_ms))
}

/// The routes of this module (`DELETE /api/v1/bots/{id}` is routed with the bot's other
/// methods, in `super::api`).
pub fn router() -> Router<Arc<Daemon>> {
    Router::new()
        .route("/api/v1/invites", get(list_invites).post(invite))
        .route("/api/v1/invites/:id", axum::routing::delete(revoke_invite))
        .route("/api/v1/signup", post(signup))
        .route("/api/v1/quota", get(quota))
        .route("/api/v1/owners/:owner", axum::routing::delete(delete_owner))
        .route("/signup", get(signup_page))
}

fn admin_only(who: &Caller, what: &str) -> Result<(), Problem> {
    if who.scope == Scope::Admin {
        Ok(())
    } else {
        Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "this token's scope is {}; {what} needs admin",
                who.scope.as_str()
            ),
        ))
    }
}

/// The body of `POST /api/v1/invites`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InviteRequest {
    #[serde(default = "one")]
    uses: u32,
    /// A duration (`7d`, `36h`), or `none`.
    #[serde(default)]
    expires: Option<String>,
    #[serde(default)]
    note: String,
}

fn one() -> u32 {
    1
}

/// How long an invite is good for when its maker does not say.
pub const DEFAULT_EXPIRY: &str = "14d";

/// `expires` as given (`7d`, `36h`, `90m`, `none`), or the default; 1 minute to 3650 days.
pub fn expiry(text: Option<&str>) -> Result<Option<std::time::Duration>, String> {
    let text = text.unwrap_or(DEFAULT_EXPIRY).trim();
    if text.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit {
        "d" => 86_400,
        "h" => 3_600,
        "m" => 60,
        _ => 0,
    };
    let seconds = number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|s| (60..=3650 * 86_400).contains(s));
    seconds
        .map(|s| Some(std::time::Duration::from_secs(s)))
        .ok_or_else(|| {
            format!(
                "'{}': give days, hours or minutes from 1m to 3650d, such as 7d or 36h, or none",
                crate::bot::text::clean(text, 40)
            )
        })
}

/// The answer of `POST /api/v1/invites`.
#[derive(Serialize)]
struct Invited {
    code: String,
    expires_ms: Option<i64>,
    signup_url: String,
    uses: u32,
}

/// `POST /api/v1/invites` (admin): a new invite code, shown once.
async fn invite(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    admin_only(&who, "making an invite code")?;
    let body = body.map_err(|e| unread_body(e, "the body", super::api::MAX_BODY))?;
    let request: InviteRequest = if body.is_empty() {
        InviteRequest {
            uses: 1,
            expires: None,
            note: String::new(),
        }
    } else {
        parse_json(&body)?
    };
    let expires = expiry(request.expires.as_deref())
        .map_err(|e| Problem::new(StatusCode::UNPROCESSABLE_ENTITY, e).field("expires"))?;
    let uses = request.uses;
    let note = request.note;
    let made = daemon
        .db(move |s| Ok(create_invite(s, uses, expires, &note)))
        .await?;
    let (code, expires_ms) = made.map_err(|e| {
        if let Some(why) = e.strip_prefix("--uses ") {
            Problem::new(StatusCode::UNPROCESSABLE_ENTITY, why).field("uses")
        } else if let Some(why) = e.strip_prefix("--note: ") {
            Problem::new(StatusCode::UNPROCESSABLE_ENTITY, why).field("note")
        } else {
            tracing::error!("an invite code: {e}");
            super::api::internal(e)
        }
    })?;
    Ok(json_answer(
        StatusCode::CREATED,
        &Invited {
            signup_url: format!("/signup#code={code}"),
            code,
            expires_ms,
            uses,
        },
    ))
}

/// `GET /api/v1/invites` (admin): the codes made (never the codes themselves), who used
/// each.
async fn list_invites(State(daemon): State<Arc<Daemon>>, Submitter(who): Submitter) -> Answer {
    admin_only(&who, "listing invite codes")?;
    let invites = daemon.db(|s| s.invites()).await?;
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "invites": invites }),
    ))
}

/// `DELETE /api/v1/invites/{id}` (admin): no more sign-ups with that code.
async fn revoke_invite(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    Path(id): Path<String>,
) -> Answer {
    admin_only(&who, "revoking an invite code")?;
    let id = super::extract::id_of(&id, "invite")?;
    if !daemon.db(move |s| s.revoke_invite(id)).await? {
        return Err(Problem::new(
            StatusCode::NOT_FOUND,
            format!("there is no invite {id}: GET /api/v1/invites lists them"),
        ));
    }
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "id": id, "uses_left": 0 }),
    ))
}

/// The body of `POST /api/v1/signup`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SignUp {
    code: String,
    owner: String,
}

/// The answer of `POST /api/v1/signup`.
#[derive(Serialize)]
struct SignedUp {
    owner: String,
    quotas: Quotas,
    scope: &'static str,
    token: String,
}

/// `POST /api/v1/signup` (no token): an invite code redeemed for a submit token.
async fn signup(State(daemon): State<Arc<Daemon>>, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = body.map_err(|e| unread_body(e, "the body", super::api::MAX_BODY))?;
    let SignUp { code, owner } = parse_json(&body)?;
    // A plain name (a worker's owner may be it), starting with a letter or digit.
    crate::bot::text::check_user_name(&owner)
        .ok()
        .filter(|_| super::fleet::plain_name(&owner))
        .filter(|_| owner.starts_with(|c: char| c.is_ascii_alphanumeric()))
        .ok_or_else(|| {
            Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "owner: give a name of 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
            )
            .field("owner")
        })?;
    let code = code.trim().to_string();
    if !code.starts_with(INVITE_PREFIX) || code.len() > 100 {
        return Err(
            Problem::new(StatusCode::FORBIDDEN, StoreError::InviteRefused.to_string())
                .field("code"),
        );
    }
    let token =
        super::auth::new_token().map_err(|e| super::api::internal(format!("/dev/urandom: {e}")))?;
    let (invite, token_key, name) = (token_hash(&code), token_hash(&token), owner.clone());
    daemon
        .db(move |s| s.redeem_invite(&invite, &name, &token_key, super::now_ms()))
        .await
        .map_err(|e| match e {
            e @ StoreError::InviteRefused => {
                Problem::new(StatusCode::FORBIDDEN, e.to_string()).field("code")
            }
            e @ StoreError::OwnerTaken(_) => {
                Problem::new(StatusCode::CONFLICT, e.to_string()).field("owner")
            }
            e => e.into(),
        })?;
    tracing::info!(owner, "an entrant signed up with an invite code");
    Ok(json_answer(
        StatusCode::CREATED,
        &SignedUp {
            owner,
            quotas: daemon.settings.quotas.clone(),
            scope: "submit",
            token,
        },
    ))
}

/// The answer of `GET /api/v1/quota`.
#[derive(Serialize)]
struct QuotaAnswer {
    limits: Quotas,
    owner: String,
    used: Used,
}

#[derive(Serialize)]
struct Used {
    bots: u64,
    games_per_day: u64,
    series: u64,
    stored_bytes: u64,
    uploaded_bytes_per_day: u64,
}

/// `GET /api/v1/quota[?owner=NAME]` (submit): the caller's quotas and use (an admin may
/// name any owner, and has no quota of their own).
async fn quota(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Answer {
    let mine = who.owner.clone().unwrap_or_default();
    let owner = match query.get("owner") {
        Some(o) if *o != mine => {
            admin_only(&who, "another owner's quota")?;
            o.clone()
        }
        _ => mine,
    };
    let name = owner.clone();
    let usage = daemon
        .db(move |s| s.usage(&name, None, super::now_ms()))
        .await?;
    let limits = if who.scope == Scope::Admin && !query.contains_key("owner") {
        Quotas::default()
    } else {
        daemon.settings.quotas.clone()
    };
    Ok(json_answer(
        StatusCode::OK,
        &QuotaAnswer {
            limits,
            owner,
            used: Used {
                bots: usage.bots,
                games_per_day: usage.games.iter().map(|g| g.1).sum(),
                series: usage.series,
                stored_bytes: usage.stored,
                uploaded_bytes_per_day: usage.uploads.iter().map(|u| u.1).sum(),
            },
        },
    ))
}

/// The quotas that bind `who` (none for an admin).
pub(crate) fn quotas_of<'a>(daemon: &'a Daemon, who: &Caller) -> Option<&'a Quotas> {
    (who.scope != Scope::Admin && daemon.settings.quotas != Quotas::default())
        .then_some(&daemon.settings.quotas)
}

/// After a deletion has committed: the series it cancelled closed, the series it reduced
/// ended if nothing is left of them, the files removed (an upload's own directory only: a
/// bot registered by path keeps its program). Run as a task of its own, so that a client
/// that goes away does not stop it half done.
fn tidy(daemon: &Arc<Daemon>, deleted: Vec<Deleted>, series: Vec<i64>) {
    let daemon = Arc::clone(daemon);
    tokio::spawn(async move {
        for id in deleted
            .iter()
            .flat_map(|d| d.series_cancelled.iter())
            .chain(&series)
        {
            if let Some(books) = daemon.cached_books(*id) {
                books
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .close(super::series::Ending::Cancelled);
            }
            daemon.drop_books(*id);
        }
        for id in deleted.iter().flat_map(|d| d.series_reduced.iter()) {
            if let Err(e) = super::tally::settle(&daemon, *id).await {
                tracing::error!(series = id, "cannot settle a series after a deletion: {e}");
            }
        }
        let uploads = daemon.settings.data.join("uploads");
        let uploads = std::fs::canonicalize(&uploads).unwrap_or(uploads);
        let dirs: Vec<std::path::PathBuf> = deleted.into_iter().filter_map(|d| d.dir).collect();
        let _ = tokio::task::spawn_blocking(move || {
            for dir in dirs {
                let Ok(dir) = std::fs::canonicalize(dir) else {
                    continue;
                };
                if dir.starts_with(&uploads) && dir != uploads {
                    if let Err(e) = std::fs::remove_dir_all(&dir) {
                        tracing::warn!(
                            "cannot remove a deleted bot's files {}: {e}",
                            dir.display()
                        );
                    }
                }
            }
        })
        .await;
        daemon.wake.notify_waiters();
    });
}

/// Removes the archives no bot standing came in; called under the store's hold, right after
/// the deletion (an upload of the same bytes, also under the hold, comes wholly before or
/// after, and writes the file again).
fn remove_archives(store: &Store, deleted: &[&Deleted]) {
    let archives = store.archives();
    for hash in deleted.iter().filter_map(|d| d.archive.as_deref()) {
        archives.remove(hash);
    }
}

/// `DELETE /api/v1/bots/{id}` (submit; its owner or an admin).
pub(crate) async fn delete_bot(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    BotId(id): BotId,
) -> Answer {
    let bot = daemon
        .db(move |s| s.bot(id))
        .await?
        .ok_or_else(|| Problem::new(StatusCode::NOT_FOUND, format!("there is no bot {id}")))?;
    if !who.owns(&bot.owner) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "bot {id} is {}'s: only its owner or an admin deletes it",
                bot.owner
            ),
        ));
    }
    let attempts = daemon.settings.max_attempts;
    let deleted = daemon
        .db(move |s| {
            let deleted = s.delete_bot(id, attempts, super::now_ms())?;
            if let Some(d) = &deleted {
                remove_archives(s, &[d]);
            }
            Ok(deleted)
        })
        .await?
        .ok_or_else(|| {
            Problem::new(
                StatusCode::GONE,
                format!("bot {id} was deleted by its owner before"),
            )
        })?;
    tidy(&daemon, vec![deleted.clone()], Vec::new());
    tracing::info!(bot = id, owner = bot.owner, series = ?deleted.series_cancelled, "a bot deleted by its owner");
    Ok(json_answer(StatusCode::OK, &deleted))
}

/// `DELETE /api/v1/owners/{owner}` (submit; that owner, or an admin): everything of theirs.
async fn delete_owner(
    State(daemon): State<Arc<Daemon>>,
    Submitter(who): Submitter,
    Path(owner): Path<String>,
) -> Answer {
    if !who.owns(&owner) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "only an owner deletes their own data (or an admin)",
        ));
    }
    if owner == "admin" {
        return Err(Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the owner admin is the server's own (its shell registers bots under it): remove its bots one by one",
        ));
    }
    let attempts = daemon.settings.max_attempts;
    let name = owner.clone();
    let held = Arc::clone(&daemon);
    let done = daemon
        .db(move |s| {
            let done = s.delete_owner(&name, attempts, super::now_ms())?;
            remove_archives(s, &done.bots.iter().collect::<Vec<_>>());
            // Forgotten under the store's hold: a token looked up before the revocation
            // is remembered before it (see super::extract), so never after.
            held.forget_tokens_of(&name);
            Ok(done)
        })
        .await?;
    tidy(&daemon, done.bots.clone(), done.series_cancelled.clone());
    tracing::info!(
        owner,
        bots = done.bots.len(),
        tokens = done.tokens_revoked,
        "an owner's data deleted"
    );
    Ok(json_answer(StatusCode::OK, &done))
}

const SIGNUP: &str = include_str!("assets/signup.html");

/// `/signup`: the form that redeems an invite code (the code may come in the address:
/// `/signup#code=…`).
async fn signup_page() -> Response {
    let mut page = crate::web::server::html(SIGNUP.to_string());
    page.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 10 * DAY_MS;

    fn quotas() -> Quotas {
        Quotas {
            bots: Some(2),
            versions: Some(3),
            series: Some(1),
            stored_bytes: Some(1000),
            uploaded_bytes_per_day: Some(600),
            games_per_day: Some(100),
        }
    }

    #[test]
    fn uploads_within_every_quota_pass_and_each_quota_refuses_with_its_name() {
        let q = quotas();
        let fresh = Usage::default();
        assert_eq!(q.upload(&fresh, 500, NOW), Ok(()));
        assert_eq!(Quotas::default().upload(&fresh, u64::MAX / 2, NOW), Ok(()));
        let full = Usage {
            bots: 2,
            ..Usage::default()
        };
        let r = q.upload(&full, 10, NOW).unwrap_err();
        assert_eq!((r.quota, r.status), ("bots", StatusCode::FORBIDDEN));
        // A new version of a bot kept is not a new bot.
        let family = Usage {
            bots: 2,
            versions: 1,
            has_family: true,
            ..Usage::default()
        };
        assert_eq!(q.upload(&family, 10, NOW), Ok(()));
        let versions = Usage {
            versions: 3,
            ..family.clone()
        };
        assert_eq!(q.upload(&versions, 10, NOW).unwrap_err().quota, "versions");
        let stored = Usage {
            stored: 900,
            ..Usage::default()
        };
        assert_eq!(q.upload(&stored, 100, NOW), Ok(()));
        assert_eq!(
            q.upload(&stored, 101, NOW).unwrap_err().quota,
            "stored_bytes"
        );
        let alone = q.upload(&fresh, 601, NOW).unwrap_err();
        assert_eq!(
            (alone.quota, alone.status, alone.retry_after_s),
            ("uploaded_bytes_per_day", StatusCode::FORBIDDEN, None)
        );
    }

    #[test]
    fn too_fast_is_429_with_the_seconds_until_enough_of_the_day_ages_out() {
        let q = quotas();
        // 300 bytes 20 hours ago, 200 bytes 1 hour ago: 500 of 600 used.
        let usage = Usage {
            uploads: vec![(NOW - 20 * 3_600_000, 300), (NOW - 3_600_000, 200)],
            ..Usage::default()
        };
        assert_eq!(q.upload(&usage, 100, NOW), Ok(()));
        // 150 more: 50 too many; the oldest upload ages out in 4 hours.
        let r = q.upload(&usage, 150, NOW).unwrap_err();
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(r.retry_after_s, Some(4 * 3600));
        // 450 more: 350 too many: both must age out, the second in 23 hours.
        let r = q.upload(&usage, 450, NOW).unwrap_err();
        assert_eq!(r.retry_after_s, Some(23 * 3600));
        assert!(r.detail.contains("retry in 82800 s"), "{}", r.detail);
        let games = Usage {
            games: vec![(NOW - DAY_MS + 1500, 90)],
            ..Usage::default()
        };
        assert_eq!(q.series(&games, 10, NOW), Ok(()));
        let r = q.series(&games, 11, NOW).unwrap_err();
        assert_eq!(
            (r.quota, r.status, r.retry_after_s),
            ("games_per_day", StatusCode::TOO_MANY_REQUESTS, Some(2))
        );
        let r = q.series(&Usage::default(), 101, NOW).unwrap_err();
        assert_eq!(
            (r.quota, r.status),
            ("games_per_day", StatusCode::FORBIDDEN)
        );
        let running = Usage {
            series: 1,
            ..Usage::default()
        };
        assert_eq!(q.series(&running, 1, NOW).unwrap_err().quota, "series");
    }

    #[test]
    fn invite_expiries_read_days_hours_and_none_and_refuse_the_rest() {
        assert_eq!(
            expiry(None).unwrap(),
            Some(std::time::Duration::from_secs(14 * 86_400))
        );
        assert_eq!(
            expiry(Some("7d")).unwrap(),
            Some(std::time::Duration::from_secs(7 * 86_400))
        );
        assert_eq!(
            expiry(Some("36h")).unwrap(),
            Some(std::time::Duration::from_secs(36 * 3600))
        );
        assert_eq!(expiry(Some("none")).unwrap(), None);
        assert_eq!(
            expiry(Some("200h")).unwrap(),
            Some(std::time::Duration::from_secs(200 * 3600))
        );
        for bad in [
            "0d",
            "5s",
            "soon",
            "99999d",
            "",
            "30s",
            "18446744073709551615d",
        ] {
            assert!(expiry(Some(bad)).is_err(), "{bad}");
        }
    }
}
