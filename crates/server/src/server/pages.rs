//! The daemon's web pages, in the viewer's dark look (`assets/pages.css`, `pages.js`): the
//! front page (a leaderboard per game, series page by page with filters, bots; refreshed
//! every two seconds from the API), a page per bot (`/bots/N`: its rating over time, its
//! results by opponent, its games page by page with links to the viewer, its records in
//! bulk), the crosstable (`/crosstable`), the sign-up form (`super::entrants`), and per
//! series the viewer: `/series/N/` lists its stored games
//! and replays any of them, `/series/N/live/` follows its games as they are played (the
//! live mode of `zebra match --watch`, fed by the series' hub).
//!
//! The pages hold no data themselves: their scripts read the API. A browser without a token
//! gets one from the address once (`/#token=…`, kept as a `SameSite=Strict` cookie that the
//! read routes accept; the cookie can never submit or cancel anything), or none at all when
//! the daemon runs with `public_read`. Bot names and other user text are written with
//! `textContent` only.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use tower::ServiceExt;

use super::api::{record_of, Problem};
use super::extract::{id_of, Reader, SeriesGame, SeriesId};
use super::Daemon;

const FRONT: &str = include_str!("assets/index.html");
const BOT: &str = include_str!("assets/bot.html");
const CROSSTABLE: &str = include_str!("assets/crosstable.html");
const CSS: &str = include_str!("assets/pages.css");
const JS: &str = include_str!("assets/pages.js");

pub fn router() -> Router<Arc<Daemon>> {
    Router::new()
        .route("/", get(front))
        .route(
            "/bots/:id",
            get(|| async { crate::web::server::html(BOT.to_string()) }),
        )
        .route(
            "/crosstable",
            get(|| async { crate::web::server::html(CROSSTABLE.to_string()) }),
        )
        .route(
            "/assets/pages.css",
            get(|| async { asset("text/css", CSS) }),
        )
        .route(
            "/assets/pages.js",
            get(|| async { asset("text/javascript", JS) }),
        )
        .route("/series/:id", get(to_slash))
        .route("/series/:id/", get(viewer))
        .route("/series/:id/api/games", get(game_list))
        .route("/series/:id/api/games/:number", get(game_view))
        .route("/series/:id/live", get(to_slash_live))
        .route("/series/:id/live/", get(live))
        .route("/series/:id/live/*rest", get(live))
}

/// A stylesheet or script the pages share (cached a minute: they change with the daemon).
fn asset(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "max-age=60"),
        ],
        text,
    )
        .into_response()
}

async fn front() -> Response {
    crate::web::server::html(FRONT.to_string())
}

async fn to_slash(Path(id): Path<String>) -> Response {
    Redirect::permanent(&format!("/series/{}/", id_of(&id, "series").unwrap_or(0))).into_response()
}

async fn to_slash_live(Path(id): Path<String>) -> Response {
    Redirect::permanent(&format!(
        "/series/{}/live/",
        id_of(&id, "series").unwrap_or(0)
    ))
    .into_response()
}

/// The viewer, listing the series' games (`api/games`, relative to the page); its title
/// names the series' game for a caller who may read it (the page itself is open to all:
/// its scripts read the API, which asks for the token).
async fn viewer(
    State(daemon): State<Arc<Daemon>>,
    SeriesId(id): SeriesId,
    reader: Option<Reader>,
) -> Result<Response, Problem> {
    let game = if reader.is_some() {
        daemon
            .db(move |s| Ok(s.series(id)?.map(|r| r.game)))
            .await?
            .unwrap_or_default()
    } else {
        String::new()
    };
    let title = if game.is_empty() {
        format!("Zebra series {id}")
    } else {
        format!("Zebra series {id} ({game})")
    };
    Ok(crate::web::server::html(crate::web::page_with(
        None, &title,
    )))
}

/// A finished game as the viewer's list shows it (the shape of `zebra view`'s list, with
/// no count of entries nor error: a stored game read well). Its fields are in
/// alphabetical order, as the `json!` object it was before.
#[derive(Serialize)]
struct Listed<'a> {
    black: String,
    entries: Option<usize>,
    error: Option<&'a str>,
    number: u32,
    result: Option<&'a str>,
    termination: Option<&'a str>,
    white: String,
}

/// The series' finished games, as the viewer lists them.
async fn game_list(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
) -> Result<Response, Problem> {
    let (games, bots) = daemon
        .db(move |s| {
            s.series(id)?
                .ok_or(super::store::StoreError::NoSeries(id))?;
            Ok((s.games(id, 0, super::series::MAX_SERIES_GAMES)?, s.bots()?))
        })
        .await?;
    let name = |bot: i64| {
        bots.iter()
            .find(|b| b.id == bot)
            .map_or(String::new(), |b| b.name.clone())
    };
    let list: Vec<Listed> = games
        .iter()
        .filter(|g| g.state == "finished")
        .map(|g| Listed {
            black: name(g.black),
            entries: None,
            error: None,
            number: g.number,
            result: g.result.as_deref(),
            termination: g.termination.as_deref(),
            white: name(g.white),
        })
        .collect();
    Ok(axum::Json(list).into_response())
}

/// Game `number` of the series as a view stream.
async fn game_view(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesGame { series: id, number }: SeriesGame,
) -> Result<Response, Problem> {
    let game = daemon
        .db(move |s| Ok(s.games(id, number.saturating_sub(1), 1)?.pop()))
        .await?
        .filter(|g| g.number == number)
        .ok_or_else(|| {
            Problem::new(
                StatusCode::NOT_FOUND,
                format!("series {id} has no game {number}"),
            )
        })?;
    let text = record_of(&daemon, &game).await?;
    let view = tokio::task::spawn_blocking(move || crate::web::feed::view_games(&text))
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|v| v.into_iter().next())
        .ok_or_else(|| {
            Problem::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("game {number} of series {id}: its record does not read"),
            )
        })?;
    Ok(axum::Json(view).into_response())
}

/// `/series/N/live/…`: handed to the series' hub (the live viewer's own routes), with the
/// prefix taken off.
async fn live(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
    request: Request,
) -> Result<Response, Problem> {
    let hub = series_hub(&daemon, id).await?;
    let prefix = format!("/series/{id}/live");
    let rest = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .strip_prefix(&prefix)
        .unwrap_or("/")
        .to_string();
    Ok(forward(hub, &rest, request).await)
}

/// `GET /api/v1/series/{id}/events`: the series' event stream (the lines of
/// `protocol/schemas/series-event.json`) as server-sent events, in batches, resumable with
/// `Last-Event-ID`: the live page's feed, for API clients.
pub async fn events(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
    request: Request,
) -> Result<Response, Problem> {
    let hub = series_hub(&daemon, id).await?;
    Ok(forward(hub, "/api/live", request).await)
}

/// The live hub of series `id`: its books' while it runs, or one kept after its end.
async fn series_hub(daemon: &Arc<Daemon>, id: i64) -> Result<Arc<crate::web::live::Hub>, Problem> {
    // What this daemon holds first, then the store: a series that ends meanwhile moves from
    // the running books to the kept hubs (see `Daemon::drop_books`), so that a page never
    // gets books loaded afresh for a series that has just ended (a hub never closed).
    // (On a shared store the books are asked for below, which folds in what other
    // daemons counted.)
    if !daemon.settings.database.is_shared() {
        if let Some(books) = daemon.cached_books(id) {
            return Ok(Arc::clone(
                &books.lock().unwrap_or_else(|e| e.into_inner()).hub,
            ));
        }
    }
    if let Some(hub) = daemon.ended_hub(id) {
        return Ok(hub);
    }
    let running = daemon
        .db(move |s| Ok(s.series(id)?.map(|r| r.state == "running")))
        .await?;
    match running {
        None => Err(Problem::new(
            StatusCode::NOT_FOUND,
            format!("there is no series {id}"),
        )),
        Some(true) => {
            let books = daemon.books(id).await.map_err(|e| {
                tracing::error!("{e}");
                Problem::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the series could not be read; see the log",
                )
            })?;
            let hub = Arc::clone(&books.lock().unwrap_or_else(|e| e.into_inner()).hub);
            Ok(hub)
        }
        Some(false) => daemon.ended_hub(id).ok_or_else(|| {
            Problem::new(
                StatusCode::NOT_FOUND,
                format!(
                    "series {id} has ended and its live stream is no longer kept: its status is at /api/v1/series/{id}, its games at /series/{id}/"
                ),
            )
        }),
    }
}

/// Hands `request` to the hub's own router as a request for `path`.
async fn forward(hub: Arc<crate::web::live::Hub>, path: &str, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    // A new request (method, path, headers, body) without the outer router's extensions:
    // its path parameters would otherwise reach the inner router's extractors.
    let mut inner_request = Request::new(body);
    *inner_request.method_mut() = parts.method;
    *inner_request.uri_mut() = path
        .parse()
        .unwrap_or_else(|_| "/".parse().expect("a path"));
    *inner_request.headers_mut() = parts.headers;
    let inner = crate::web::live::router(hub).fallback(crate::web::server::not_found);
    let mut response = inner
        .oneshot(inner_request)
        .await
        .unwrap_or_else(|never| match never {})
        .into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A listed game writes the bytes the `json!` object it replaced wrote.
    #[test]
    fn a_listed_game_writes_what_its_json_object_wrote() {
        let listed = Listed {
            black: "bob".into(),
            entries: None,
            error: None,
            number: 2,
            result: Some("1-0"),
            termination: None,
            white: "ann".into(),
        };
        let old = serde_json::json!({"number": 2, "white": "ann", "black": "bob",
            "result": "1-0", "termination": null, "entries": null, "error": null});
        assert_eq!(serde_json::to_string(&listed).unwrap(), old.to_string());
    }
}
