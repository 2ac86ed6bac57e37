//! What the pages browse beyond a series: a bot's games page by page, its rating over time
//! and its results by opponent, the ladder's crosstable, and records in bulk.
//!
//! - `GET /api/v1/bots/{id}/games?opponent=&before=&limit=` [read]: its finished games,
//!   newest first, with the total.
//! - `GET /api/v1/bots/{id}/history?game=` [read]: its rating after each stretch of its
//!   games (at most [`POINTS`] points: the leaderboard's fit over every game finished until
//!   then), and its results against each opponent.
//! - `GET /api/v1/crosstable?game=&limit=` [read]: the rated bots, best first, and each
//!   pair's games and points.
//! - `GET /api/v1/bots/{id}/pgn`, `GET /api/v1/series/{id}/pgn` [read]: every finished
//!   game's record, one after the other, streamed in batches: the memory it takes does not
//!   grow with the number of games, and a client that goes away stops it.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;

use super::api::{cursor, json_answer, page_limit, pool, Answer, Problem};
use super::extract::{BotId, Reader, SeriesId};
use super::store::{GameRow, StoreError};
use super::Daemon;
use crate::rules::Rules;
use crate::series::rating::{fit_meetings, Meeting};

/// The most points of a bot's rating history.
pub const POINTS: usize = 40;

/// Records read from the store and sent at a time in a bulk download.
const BATCH: u32 = 200;

/// Rating fits for the pages (a crosstable, a bot's history: up to [`POINTS`] fits over
/// every bot) run one at a time, off the async threads: however many readers ask, they
/// take one core at most, and the games keep theirs.
static FITS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

pub fn router() -> Router<Arc<Daemon>> {
    Router::new()
        .route("/api/v1/bots/:id/games", get(bot_games))
        .route("/api/v1/bots/:id/history", get(history))
        .route("/api/v1/bots/:id/pgn", get(bot_pgn))
        .route("/api/v1/series/:id/pgn", get(series_pgn))
        .route("/api/v1/crosstable", get(crosstable))
}

/// The game named by `?game=` (default Football Chess).
fn game_of(query: &HashMap<String, String>) -> Result<Rules, Problem> {
    match query.get("game") {
        None => Ok(Rules::FootballChess),
        Some(name) => super::series::game_named(name)
            .map_err(|e| Problem::new(StatusCode::BAD_REQUEST, format!("game: {e}")).field("game")),
    }
}

/// Bot `id`, or a 404.
async fn bot_row(daemon: &Arc<Daemon>, id: i64) -> Result<super::store::BotRow, Problem> {
    daemon
        .db(move |s| s.bot(id))
        .await?
        .ok_or_else(|| Problem::new(StatusCode::NOT_FOUND, format!("there is no bot {id}")))
}

/// The answer of `GET /api/v1/bots/{id}/games`.
#[derive(Serialize)]
struct BotGames {
    games: Vec<GameRow>,
    /// The `before` of the next page (older games), or null on the last page.
    next_before: Option<i64>,
    /// Its finished games (against `opponent`, if given) in all.
    total: u64,
}

async fn bot_games(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    BotId(id): BotId,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let limit = page_limit(&query)?;
    let before = cursor(&query, "before")?;
    let opponent = cursor(&query, "opponent")?;
    bot_row(&daemon, id).await?;
    let (games, total, more) = daemon
        .db(move |s| s.bot_games_page(id, opponent, before, limit))
        .await?;
    let next_before = more.then(|| games.last().map(|g| g.id)).flatten();
    Ok(json_answer(
        StatusCode::OK,
        &BotGames {
            games,
            next_before,
            total,
        },
    ))
}

/// A point of a bot's rating history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// Its games by then.
    pub games: u64,
    /// When its last game by then finished (Unix ms).
    pub finished_ms: i64,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// A bot's results against one opponent.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Opponent {
    pub bot: i64,
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The bot's points against it.
    pub points: f64,
}

/// A finished game as the history reads it: White, Black, White's points, when.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub white: i64,
    pub black: i64,
    pub white_points: f64,
    pub finished_ms: i64,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `bot`'s rating after each stretch of its games among `games` (every finished game of one
/// game, in the order they finished): at most `points` points, the last after its last game,
/// each the leaderboard's fit over every game finished until then.
pub fn rating_history(bot: i64, games: &[Played], points: usize) -> Vec<Point> {
    let own: Vec<usize> = games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.white == bot || g.black == bot)
        .map(|(i, _)| i)
        .collect();
    if own.is_empty() || points == 0 {
        return Vec::new();
    }
    // The positions (in `games`) after which a point is drawn: evenly among its games.
    let k = own.len();
    let marks: Vec<(usize, u64)> = (1..=points.min(k))
        .map(|i| {
            let n = (i * k).div_ceil(points.min(k));
            (own[n - 1], n as u64)
        })
        .collect();
    let mut meetings: HashMap<(i64, i64), (u64, f64)> = HashMap::new();
    let mut out = Vec::with_capacity(marks.len());
    let mut next = 0;
    for (i, g) in games.iter().enumerate() {
        let (pair, first) = if g.white <= g.black {
            ((g.white, g.black), g.white_points)
        } else {
            ((g.black, g.white), 1.0 - g.white_points)
        };
        let m = meetings.entry(pair).or_default();
        m.0 += 1;
        m.1 += first;
        while next < marks.len() && marks[next].0 == i {
            let mut ids: Vec<i64> = meetings.keys().flat_map(|&(a, b)| [a, b]).collect();
            ids.sort_unstable();
            ids.dedup();
            let index: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, &b)| (b, i)).collect();
            let rated = fit_meetings(
                ids.len(),
                meetings.iter().map(|(&(a, b), &(games, points))| Meeting {
                    first: index[&a],
                    second: index[&b],
                    games,
                    points,
                }),
            );
            let r = &rated[index[&bot]];
            out.push(Point {
                games: marks[next].1,
                finished_ms: g.finished_ms,
                elo: round1(r.elo),
                lower: round1(r.lower),
                upper: round1(r.upper),
            });
            next += 1;
        }
    }
    out
}

/// `bot`'s results against each opponent among `games`, most games first.
pub fn by_opponent(bot: i64, games: &[Played]) -> Vec<Opponent> {
    let mut by: HashMap<i64, Opponent> = HashMap::new();
    for g in games {
        let (other, points) = if g.white == bot {
            (g.black, g.white_points)
        } else if g.black == bot {
            (g.white, 1.0 - g.white_points)
        } else {
            continue;
        };
        let o = by.entry(other).or_insert_with(|| Opponent {
            bot: other,
            ..Opponent::default()
        });
        o.games += 1;
        o.points += points;
        match points {
            p if p > 0.75 => o.wins += 1,
            p if p < 0.25 => o.losses += 1,
            _ => o.draws += 1,
        }
    }
    let mut out: Vec<Opponent> = by.into_values().collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then(a.bot.cmp(&b.bot)));
    out
}

/// The answer of `GET /api/v1/bots/{id}/history`.
#[derive(Serialize)]
struct History {
    bot: i64,
    game: &'static str,
    opponents: Vec<Opponent>,
    points: Vec<Point>,
}

async fn history(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    BotId(id): BotId,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let game = game_of(&query)?;
    bot_row(&daemon, id).await?;
    // The same games since the last answer: the same answer. The pool's books stand for
    // the games stored (a new one finished, or a worker's games taken back, changes them).
    let books = pool(&daemon).await?;
    let generation = (Arc::as_ptr(&books) as usize, books.game(game).games);
    drop(books);
    let cached = HISTORIES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(id, game))
        .filter(|(g, _)| *g == generation)
        .map(|(_, body)| Arc::clone(body));
    if let Some(body) = cached {
        return Ok(json_text(&body));
    }
    // Read under the store, fitted without it.
    let (games, names) = daemon
        .db(move |s| {
            let mut games = Vec::new();
            s.each_finished_of(game, |white, black, result, finished_ms| {
                let white_points = match crate::record::tags::parse_result(result) {
                    Some(Some(crate::rules::GameResult::Win(crate::rules::Side::White))) => 1.0,
                    Some(Some(crate::rules::GameResult::Win(crate::rules::Side::Black))) => 0.0,
                    Some(Some(crate::rules::GameResult::Draw)) => 0.5,
                    _ => return,
                };
                games.push(Played {
                    white,
                    black,
                    white_points,
                    finished_ms,
                });
            })?;
            let names: HashMap<i64, String> =
                s.bots()?.into_iter().map(|b| (b.id, b.name)).collect();
            Ok((games, names))
        })
        .await?;
    let _turn = FITS
        .acquire()
        .await
        .map_err(|e| super::api::internal(e.to_string()))?;
    let answer = tokio::task::spawn_blocking(move || {
        let mut opponents = by_opponent(id, &games);
        for o in &mut opponents {
            o.name = names.get(&o.bot).cloned().unwrap_or_default();
        }
        History {
            bot: id,
            game: game.name(),
            points: rating_history(id, &games, POINTS),
            opponents,
        }
    })
    .await
    .map_err(|e| super::api::internal(e.to_string()))?;
    let body = Arc::new(serde_json::to_string(&answer).expect("a history serializes"));
    let mut all = HISTORIES.lock().unwrap_or_else(|e| e.into_inner());
    if all.len() >= MAX_HISTORIES {
        all.clear();
    }
    all.insert((id, game), (generation, Arc::clone(&body)));
    drop(all);
    Ok(json_text(&body))
}

/// A JSON answer already written.
fn json_text(body: &str) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// Histories kept (a bot and game each), forgotten all at once past this many.
const MAX_HISTORIES: usize = 1024;

/// The last history answered per bot and game, with the books' generation it was fitted
/// on: (the pool's books, their games of that game).
type Histories = HashMap<(i64, Rules), ((usize, u64), Arc<String>)>;

static HISTORIES: std::sync::LazyLock<std::sync::Mutex<Histories>> =
    std::sync::LazyLock::new(Default::default);

/// The answer of `GET /api/v1/crosstable`.
#[derive(Serialize)]
struct Crosstable {
    /// The rated bots, best first.
    bots: Vec<Ranked>,
    /// `cells[i][j]`: bot i's games and points against bot j, or null if they never met.
    cells: Vec<Vec<Option<(u64, f64)>>>,
    game: &'static str,
    /// Rated bots in all (the table shows the best `limit`).
    total: usize,
}

#[derive(Serialize)]
struct Ranked {
    elo: f64,
    games: u64,
    id: i64,
    name: String,
    points: f64,
}

async fn crosstable(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    Query(query): Query<HashMap<String, String>>,
) -> Answer {
    let game = game_of(&query)?;
    let limit = match query.get("limit") {
        None => 50,
        Some(_) => match page_limit(&query)? {
            n if n <= 200 => n as usize,
            n => {
                return Err(Problem::new(
                    StatusCode::BAD_REQUEST,
                    format!("limit {n}: give 1 to 200 bots"),
                )
                .field("limit"))
            }
        },
    };
    let bots = daemon.db(|s| s.bots()).await?;
    let table = pool(&daemon).await?.game(game);
    // The fit off the async threads, one at a time (see FITS).
    let (bots, table, rated) = {
        let _turn = FITS
            .acquire()
            .await
            .map_err(|e| super::api::internal(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let index: HashMap<i64, usize> =
                bots.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
            let rated = fit_meetings(bots.len(), table.meetings_among(&index));
            (bots, table, rated)
        })
        .await
        .map_err(|e| super::api::internal(e.to_string()))?
    };
    let mut ranked: Vec<Ranked> = bots
        .iter()
        .zip(&rated)
        .filter(|(b, r)| r.games > 0 && b.deleted_ms.is_none())
        .map(|(b, r)| Ranked {
            elo: round1(r.elo),
            games: r.games,
            id: b.id,
            name: b.name.clone(),
            points: r.points,
        })
        .collect();
    ranked.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.id.cmp(&b.id)));
    let total = ranked.len();
    ranked.truncate(limit);
    let cells = ranked
        .iter()
        .map(|a| {
            ranked
                .iter()
                .map(|b| {
                    let (pair, flip) = if a.id <= b.id {
                        ((a.id, b.id), false)
                    } else {
                        ((b.id, a.id), true)
                    };
                    table.meetings.get(&pair).map(|&(games, points)| {
                        (games, if flip { games as f64 - points } else { points })
                    })
                })
                .collect()
        })
        .collect();
    Ok(json_answer(
        StatusCode::OK,
        &Crosstable {
            bots: ranked,
            cells,
            game: game.name(),
            total,
        },
    ))
}

/// Every finished record of a bot (`bot`) or a series (`series`), streamed.
fn bulk(daemon: Arc<Daemon>, bot: Option<i64>, series: Option<i64>, file: String) -> Response {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(2);
    tokio::spawn(async move {
        let mut after = 0;
        loop {
            let batch = daemon
                .db(move |s| s.records_after(bot, series, after, BATCH))
                .await;
            let batch = match batch {
                Ok(b) if b.is_empty() => return,
                Ok(b) => b,
                Err(e) => {
                    tracing::error!("a bulk download: {e}");
                    let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                    return;
                }
            };
            after = batch.last().map_or(after, |b| b.0);
            let reader = Arc::clone(&daemon);
            // A record that is not there (an older record file removed) is left out and
            // said in the log; any other failure (the database) ends the download with an
            // error rather than leave out a batch.
            let text = tokio::task::spawn_blocking(move || {
                let hashes: Vec<String> = batch.into_iter().map(|(_, hash)| hash).collect();
                let mut text = String::new();
                let reads = reader
                    .records()
                    .read_all(&hashes)
                    .map_err(|e| e.to_string())?;
                for read in reads {
                    match read {
                        Ok(r) => {
                            text.push_str(r.trim_end());
                            text.push_str("\n\n");
                        }
                        Err(e @ super::store::StoreError::NoRecord(_)) => {
                            tracing::error!("a bulk download: {e}")
                        }
                        Err(e) => return Err(e.to_string()),
                    }
                }
                Ok(text)
            })
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
            let text = match text {
                Ok(text) => text,
                Err(e) => {
                    tracing::error!("a bulk download: {e}");
                    let _ = tx.send(Err(std::io::Error::other(e))).await;
                    return;
                }
            };
            // The client went away: stop reading.
            if tx.send(Ok(Bytes::from(text))).await.is_err() {
                return;
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

async fn bot_pgn(State(daemon): State<Arc<Daemon>>, _: Reader, BotId(id): BotId) -> Answer {
    bot_row(&daemon, id).await?;
    Ok(bulk(daemon, Some(id), None, format!("bot-{id}.pgn")))
}

async fn series_pgn(
    State(daemon): State<Arc<Daemon>>,
    _: Reader,
    SeriesId(id): SeriesId,
) -> Answer {
    daemon
        .db(move |s| s.series(id)?.ok_or(StoreError::NoSeries(id)))
        .await?;
    Ok(bulk(daemon, None, Some(id), format!("series-{id}.pgn")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(white: i64, black: i64, white_points: f64, t: i64) -> Played {
        Played {
            white,
            black,
            white_points,
            finished_ms: t,
        }
    }

    #[test]
    fn a_history_has_a_point_per_stretch_and_ends_with_the_leaderboard_s_rating() {
        // Bot 1 loses its first ten games to bot 2, then wins ten against bot 3, while bot
        // 2 beats bot 3 throughout.
        let mut games = Vec::new();
        for t in 0..10 {
            games.push(played(1, 2, 0.0, t));
            games.push(played(2, 3, 1.0, t));
        }
        for t in 10..20 {
            games.push(played(1, 3, 1.0, t));
        }
        let points = rating_history(1, &games, 4);
        assert_eq!(points.len(), 4);
        assert_eq!(
            points.iter().map(|p| p.games).collect::<Vec<_>>(),
            [5, 10, 15, 20]
        );
        assert_eq!(points[3].finished_ms, 19);
        // It rises once it starts winning.
        assert!(points[3].elo > points[1].elo, "{points:?}");
        // The last point is the fit over every game, as the leaderboard's.
        let index: HashMap<i64, usize> = [(1, 0), (2, 1), (3, 2)].into_iter().collect();
        let mut table = super::super::pool::Table::default();
        for g in &games {
            let result = match g.white_points {
                p if p > 0.75 => "1-0",
                p if p < 0.25 => "0-1",
                _ => "1/2-1/2",
            };
            table.count(g.white, g.black, result, "[]");
        }
        let all = fit_meetings(3, table.meetings_among(&index));
        assert_eq!(points[3].elo, round1(all[0].elo));
        // Fewer games than points: one point per game.
        assert_eq!(rating_history(3, &games[..2], 40).len(), 1);
        assert!(rating_history(9, &games, 40).is_empty());

        let o = by_opponent(1, &games);
        assert_eq!(
            o.iter()
                .map(|o| (o.bot, o.games, o.wins, o.draws, o.losses))
                .collect::<Vec<_>>(),
            [(2, 10, 0, 0, 10), (3, 10, 10, 0, 0)]
        );
    }
}
