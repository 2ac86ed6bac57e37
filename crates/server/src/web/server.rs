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
        .with_state(library)
}

/// A page, never cached (the viewer changes with Zebra's version).
pub(crate) fn html(page: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response()
}

async fn page(State(lib): State<Arc<Library>>) -> Response {
    html(page_with(None, &lib.title))
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

pub(crate) fn problem(status: StatusCode, message: String) -> Response {
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
pub(crate) fn short(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

pub(crate) async fn not_found() -> Response {
    problem(
        StatusCode::NOT_FOUND,
        "no such page: the viewer is at / and the games at /api/games".to_string(),
    )
}

/// Serves `router` (the recorded games' [`router`], or the live one) on `listener` until
/// `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router.fallback(not_found))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Why the viewer cannot listen.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("--listen: '{0}' is not an address and port such as 127.0.0.1:8080")]
    Address(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
}

/// Binds the viewer's address: `listen`, or 127.0.0.1 and a free port. Done before
/// anything else runs, so that a port in use is said at once.
pub fn bind(listen: Option<&str>) -> Result<std::net::TcpListener, ListenError> {
    let listen = listen.unwrap_or("127.0.0.1:0");
    let addr: std::net::SocketAddr = listen
        .parse()
        .map_err(|_| ListenError::Address(listen.to_string()))?;
    let bind = |source| ListenError::Bind { addr, source };
    let listener = std::net::TcpListener::bind(addr).map_err(bind)?;
    listener.set_nonblocking(true).map_err(bind)?;
    Ok(listener)
}

/// A viewer served on a thread of its own (with its own runtime): making a browser's
/// messages never takes time from the thread that times the bots' replies.
pub struct Background {
    pub addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A task the viewer's runtime runs beside the server (the human seat's desk).
pub type Task = std::pin::Pin<Box<dyn Future<Output = ()> + Send>>;

impl Background {
    /// Serves `router` on `listener`, and runs `tasks`, until [`Background::stop`] (or the
    /// drop).
    pub fn start(
        listener: std::net::TcpListener,
        router: Router,
        tasks: Vec<Task>,
    ) -> std::io::Result<Background> {
        let addr = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let thread = std::thread::Builder::new()
            .name("viewer".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    for task in tasks {
                        tokio::spawn(task);
                    }
                    let listener = match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => l,
                        Err(e) => {
                            tracing::error!("the viewer cannot listen: {e}");
                            return;
                        }
                    };
                    // Not a graceful shutdown: a live feed stays open as long as its
                    // browser does. Open connections end with the runtime below.
                    let server = axum::serve(listener, router.fallback(not_found));
                    tokio::select! {
                        served = server => {
                            if let Err(e) = served {
                                tracing::error!("the viewer stopped: {e}");
                            }
                        }
                        _ = stopped => {}
                    }
                });
                runtime.shutdown_timeout(std::time::Duration::from_millis(100));
            })?;
        Ok(Background {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Stops serving (open connections are closed) and waits for the thread.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.halt();
    }
}
