//! The viewer over HTTP: `zebra view FILE` serves the page and the file's games on
//! 127.0.0.1 (a free port unless `--listen` names one). The page is the one `--html`
//! writes, without inlined games: it asks for the list, then for each game's view stream
//! when it is opened, so that a series' `games.pgn` of thousands of games opens at once.
//!
//! Routes: `/` the page; `/api/games` the list (number, bots, result, termination,
//! entries, whether it replays); `/api/games/N` one game's view stream (1-based; a number
//! the file does not hold is a 404 with a message). Anything else is a 404. The live feed
//! of `--watch` and `zebra serve` will add routes to the same router.

use std::future::Future;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::feed::GameView;
use super::page::page_with;

/// The games a server shows, replayed once when it starts.
pub struct Library {
    games: Vec<GameView>,
    title: String,
}

/// One line of the game list.
#[derive(Serialize)]
struct Summary<'a> {
    number: usize,
    white: &'a str,
    black: &'a str,
    result: &'a str,
    termination: &'a str,
    entries: usize,
    error: Option<&'a str>,
}

impl Library {
    pub fn new(games: Vec<GameView>, title: &str) -> Library {
        Library {
            games,
            title: title.to_string(),
        }
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

/// The router of the viewer over `library`.
pub fn router(library: Arc<Library>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/games", get(list))
        .route("/api/games/:number", get(one))
        .fallback(not_found)
        .with_state(library)
}

async fn page(State(lib): State<Arc<Library>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page_with(None, &lib.title),
    )
        .into_response()
}

async fn list(State(lib): State<Arc<Library>>) -> Response {
    let games: Vec<Summary> = lib
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| Summary {
            number: i + 1,
            white: &g.white,
            black: &g.black,
            result: &g.result,
            termination: &g.termination,
            entries: g.steps.len(),
            error: g.error.as_deref(),
        })
        .collect();
    Json(games).into_response()
}

fn problem(status: StatusCode, message: String) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

async fn one(State(lib): State<Arc<Library>>, Path(number): Path<String>) -> Response {
    let count = lib.games.len();
    match number.parse::<usize>() {
        Ok(n) if (1..=count).contains(&n) => Json(&lib.games[n - 1]).into_response(),
        _ => problem(
            StatusCode::NOT_FOUND,
            format!(
                "there is no game {}: the file holds {count} (1 to {count})",
                short(&number)
            ),
        ),
    }
}

/// A user's text echoed in a message: at most 40 characters (JSON escapes the rest).
fn short(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

async fn not_found() -> Response {
    problem(
        StatusCode::NOT_FOUND,
        "no such page: the viewer is at / and the games at /api/games".to_string(),
    )
}

/// Serves `library` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    library: Arc<Library>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(library))
        .with_graceful_shutdown(shutdown)
        .await
}
