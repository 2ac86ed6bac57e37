//! What the API's and the pages' handlers take from a request before they run: who is
//! asking ([`Reader`], [`Submitter`]) and which bot, series or game the path names
//! ([`BotId`], [`SeriesId`], [`GameId`], [`SeriesGame`]).
//!
//! Each is an axum extractor whose refusal is the API's problem answer
//! ([`super::api::Problem`]): a handler that names one among its arguments does not run
//! for a caller who may not call it, so no handler can forget to ask. Extractors run in the
//! order of a handler's arguments: the caller comes before the path's ids, so that a
//! missing token is a 401 before an unknown id is a 404 (only the viewer page, open to all,
//! reads its id first and its caller as an `Option`).
//!
//! Tokens come from `Authorization: Bearer …`, or, on read routes only, from the cookie the
//! pages keep the token in ([`TOKEN_COOKIE`]): a browser sends a cookie on its own, so a
//! cookie may never submit or cancel anything.

use std::sync::Arc;

use axum::async_trait;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::api::Problem;
use super::auth::{bearer, token_hash, Caller, Scope};
use super::Daemon;

/// A caller who may read: one with a token of any scope (its `Authorization` header or the
/// pages' cookie), or anybody when the daemon runs with `public_read`.
#[derive(Clone, Debug)]
pub struct Reader(pub Caller);

/// A caller whose token (from its `Authorization` header, never from a cookie) may submit:
/// scope `submit` or `admin`.
#[derive(Clone, Debug)]
pub struct Submitter(pub Caller);

/// A remote worker (scope `worker`, or an admin), by its `Authorization` header.
#[derive(Clone, Debug)]
pub struct WorkerCaller(pub Caller);

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for WorkerCaller {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Problem> {
        caller(daemon, &parts.headers, Scope::Worker)
            .await
            .map(WorkerCaller)
    }
}

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for Reader {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Problem> {
        caller(daemon, &parts.headers, Scope::Read)
            .await
            .map(Reader)
    }
}

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for Submitter {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Problem> {
        caller(daemon, &parts.headers, Scope::Submit)
            .await
            .map(Submitter)
    }
}

/// Who is asking, if they may do what needs `need`.
async fn caller(daemon: &Arc<Daemon>, headers: &HeaderMap, need: Scope) -> Result<Caller, Problem> {
    // Pages: the browser sends the token it was given as a cookie (read routes only: a
    // cookie is sent by the browser on its own, so it may never change anything).
    let from_cookie = (need == Scope::Read)
        .then(|| cookie_token(headers))
        .flatten()
        .map(|t| format!("Bearer {t}"));
    let header_given = headers.get(header::AUTHORIZATION).is_some();
    let value = headers
        .get(header::AUTHORIZATION)
        .cloned()
        .or_else(|| from_cookie.and_then(|v| HeaderValue::from_str(&v).ok()));
    let Some(value) = value else {
        if need == Scope::Read && daemon.settings.public_read {
            return Ok(Caller {
                scope: Scope::Read,
                owner: None,
            });
        }
        return Err(Problem::new(
            StatusCode::UNAUTHORIZED,
            "no token: send 'Authorization: Bearer TOKEN' (an admin makes one with 'zebra serve token create')",
        ));
    };
    let Some(token) = value.to_str().ok().and_then(bearer) else {
        return Err(Problem::new(
            StatusCode::UNAUTHORIZED,
            "the Authorization header is not 'Bearer TOKEN'",
        ));
    };
    let hash = token_hash(token);
    let found = match daemon.known_token(&hash) {
        Some(found) => Some(found),
        None => {
            // Remembered under the store's hold, as a revocation forgets it: a token revoked
            // is either not found here or forgotten after.
            let held = Arc::clone(daemon);
            daemon
                .db(move |s| {
                    let found = s.token(&hash)?;
                    if let Some(found) = &found {
                        held.remember_token(hash, found.clone());
                    }
                    Ok(found)
                })
                .await?
        }
    };
    let Some((scope, owner)) = found else {
        // A page's cookie left from an earlier token (revoked, or another server's): on a
        // server open to all readers it is no token at all, not a refusal.
        if !header_given && need == Scope::Read && daemon.settings.public_read {
            return Ok(Caller {
                scope: Scope::Read,
                owner: None,
            });
        }
        return Err(Problem::new(StatusCode::UNAUTHORIZED, "unknown token"));
    };
    let scope = Scope::parse(&scope).unwrap_or(Scope::Read);
    if !scope.allows(need) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "this token's scope is {}; this needs {}",
                scope.as_str(),
                need.as_str()
            ),
        ));
    }
    Ok(Caller {
        scope,
        owner: Some(owner),
    })
}

/// The cookie the daemon's pages keep the token in.
pub(crate) const TOKEN_COOKIE: &str = "zebra_token";

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| {
            c.trim()
                .strip_prefix(TOKEN_COOKIE)?
                .strip_prefix('=')
                .map(str::to_string)
        })
        .filter(|t| !t.is_empty())
}

/// A path id: a positive integer.
pub(crate) fn id_of(text: &str, what: &str) -> Result<i64, Problem> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| {
            Problem::new(
                StatusCode::NOT_FOUND,
                format!("there is no {what} '{}'", crate::bot::text::clean(text, 40)),
            )
        })
}

/// The path parameter `name` as text ("" if the route has none); a path that does not
/// decode is axum's own refusal.
async fn param(parts: &mut Parts, daemon: &Arc<Daemon>, name: &str) -> Result<String, Response> {
    let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, daemon)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok(params
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .unwrap_or_default())
}

/// The path's `{id}` as the id of a `what`; 404 if it is not a positive integer.
async fn path_id(parts: &mut Parts, daemon: &Arc<Daemon>, what: &str) -> Result<i64, Response> {
    let text = param(parts, daemon, "id").await?;
    id_of(&text, what).map_err(IntoResponse::into_response)
}

/// The bot the path's `{id}` names (not yet looked up: only its form is checked).
#[derive(Clone, Copy, Debug)]
pub struct BotId(pub i64);

/// The series the path's `{id}` names (not yet looked up: only its form is checked).
#[derive(Clone, Copy, Debug)]
pub struct SeriesId(pub i64);

/// The game the path's `{id}` names (not yet looked up: only its form is checked).
#[derive(Clone, Copy, Debug)]
pub struct GameId(pub i64);

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for BotId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Response> {
        path_id(parts, daemon, "bot").await.map(BotId)
    }
}

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for SeriesId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Response> {
        path_id(parts, daemon, "series").await.map(SeriesId)
    }
}

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for GameId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Response> {
        path_id(parts, daemon, "game").await.map(GameId)
    }
}

/// Game `{number}` of the series `{id}` (the viewer's `/series/{id}/api/games/{number}`);
/// 404 if either is not a number.
#[derive(Clone, Copy, Debug)]
pub struct SeriesGame {
    pub series: i64,
    pub number: u32,
}

#[async_trait]
impl FromRequestParts<Arc<Daemon>> for SeriesGame {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, daemon: &Arc<Daemon>) -> Result<Self, Response> {
        let series = path_id(parts, daemon, "series").await?;
        let number = param(parts, daemon, "number").await?.parse().map_err(|_| {
            Problem::new(
                StatusCode::NOT_FOUND,
                format!("series {series} has no such game"),
            )
            .into_response()
        })?;
        Ok(SeriesGame { series, number })
    }
}
