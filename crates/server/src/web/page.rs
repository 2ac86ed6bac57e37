//! The viewer page: one HTML file, its style and script embedded in the binary
//! (`src/web/assets/`, plain files: no build step, no CDN, no network).
//!
//! [`export_html`] inlines a record's games into the page as JSON, so that the file opens
//! from disk with no server. Everything a bot or a record supplied (names, tags, events)
//! travels as JSON data inside a `<script type="application/json">` element, with `<`, `>`
//! and `&` escaped so that no text can close the element, and the script writes it with
//! `textContent` only: nothing from a record is ever parsed as HTML or run.

use thiserror::Error;

use super::feed::{view_games, GameView};
use crate::record::RecordError;

const PAGE: &str = include_str!("assets/viewer.html");
const STYLE: &str = include_str!("assets/viewer.css");
const SCRIPT: &str = include_str!("assets/viewer.js");

/// Why a record cannot become a page.
#[derive(Debug, Error)]
pub enum PageError {
    #[error("{0}")]
    Read(#[from] RecordError),
    #[error("the file holds no game")]
    NoGame,
    #[error("there is no game {asked}: the file holds {count} (--game takes 1 to {count})")]
    NoSuchGame { asked: usize, count: usize },
}

/// JSON that cannot end the `<script>` element it sits in, nor open a comment or an entity.
pub(crate) fn script_safe_json<T: serde::Serialize>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("view data serializes");
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The page around these games (the title names the first), or, with `None`, the page that
/// asks its server for them (`/api/games`). The markers are filled in one pass over the
/// template, so that no inserted text is ever scanned for another marker.
pub fn page_with(games: Option<&[GameView]>, title: &str) -> String {
    page_filled(&script_safe_json(&games), title)
}

/// The page that follows live games (`/api/live`): the same page and drawing, in its live
/// mode.
pub fn page_live(title: &str) -> String {
    page_filled("\"live\"", title)
}

fn page_filled(data: &str, title: &str) -> String {
    let title = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let fills = [
        ("{{TITLE}}", title.as_str()),
        ("/*{{STYLE}}*/", STYLE),
        ("{{GAMES}}", data),
        ("/*{{SCRIPT}}*/", SCRIPT),
    ];
    let mut out = String::with_capacity(PAGE.len() + STYLE.len() + SCRIPT.len() + data.len());
    let mut rest = PAGE;
    for (marker, value) in fills {
        let at = rest
            .find(marker)
            .expect("the viewer template holds every marker in order");
        out.push_str(&rest[..at]);
        out.push_str(value);
        rest = &rest[at + marker.len()..];
    }
    out.push_str(rest);
    out
}

/// The games of a record file's text, each with its number in the file (1-based): all of
/// them, or game `game` alone. The one place `--game` is judged, for every `zebra view`.
pub fn chosen_games(text: &str, game: Option<usize>) -> Result<Vec<(usize, GameView)>, PageError> {
    let mut games = view_games(text)?;
    if games.is_empty() {
        return Err(PageError::NoGame);
    }
    match game {
        None => Ok(games
            .into_iter()
            .enumerate()
            .map(|(i, g)| (i + 1, g))
            .collect()),
        Some(n) if n == 0 || n > games.len() => Err(PageError::NoSuchGame {
            asked: n,
            count: games.len(),
        }),
        Some(n) => Ok(vec![(n, games.swap_remove(n - 1))]),
    }
}

/// The self-contained page for these games (the title names the first).
pub fn page_for(games: &[GameView]) -> String {
    let title = games.first().map_or(String::new(), |g| {
        format!("{} vs {} ({})", g.white, g.black, g.result)
    });
    page_with(Some(games), &title)
}

/// The self-contained page for the games of a record file's text: all of them, or game
/// `game` (1-based) alone.
pub fn export_html(text: &str, game: Option<usize>) -> Result<String, PageError> {
    let games: Vec<GameView> = chosen_games(text, game)?
        .into_iter()
        .map(|(_, g)| g)
        .collect();
    Ok(page_for(&games))
}
