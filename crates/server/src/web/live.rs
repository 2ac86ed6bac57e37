//! Live games: what `zebra play --watch` and `zebra match --watch` serve while games are
//! played (and what `zebra serve` will).
//!
//! The [`Hub`] is the [`Spectator`] the games report to. It keeps, under one lock, each
//! running game's record entries (a few bytes each, in one buffer a game: see
//! [`super::entries`]; the steps a browser sees are made from them on demand, by the same
//! [`Replay`] that shows recorded games), the last
//! [`KEPT_FINISHED`] finished games, and the last [`KEPT_EVENTS`] lines of the series'
//! event stream. A game thread only appends under the lock and bumps a counter, so a
//! watched game costs its referee next to nothing, and memory stays bounded however long
//! the series.
//!
//! Two server-sent event feeds (schema: `protocol/schemas/live.json`):
//! - `/api/live`: the series' event stream, in batches: one SSE event carries the lines
//!   there are (at most [`BATCH_LINES`]; SSE joins them with newlines), `id` the number of
//!   its last line; after a reconnection (`Last-Event-ID`) it resumes with the next line,
//!   or, if that line is no longer kept, says `reset` and starts again from the oldest it
//!   keeps.
//! - `/api/live/games/N`: game N as a `view` (the whole view stream so far), then `steps`
//!   in batches, then `end`. Every id is `ATTEMPT-STEPS`: a reconnection resumes after the
//!   last step it had, with no gap and no repetition; a game replayed since (another
//!   attempt) or no longer kept starts over with a `view` or ends with `gone`.
//!
//! Nothing waits for a browser: a feed makes its next message only when the connection
//! takes it (a pull), so a slow or stalled browser holds no queue and delays no game; it
//! falls behind, and catches up in batches of at most [`BATCH_STEPS`] steps, coalesced over
//! [`COALESCE`] (at full speed a browser gets some five messages a second, not one per
//! decision). A browser that goes away ends its feed at the next message.

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::entries::Entries;
use super::feed::{view_head, GameView, Replay, Step};
use crate::record::{GameRecord, Tags};
use crate::referee::Spectator;

/// Finished games whose entries are kept for browsers that open them.
pub(crate) const KEPT_FINISHED: usize = 200;
/// Entries of games dropped past [`KEPT_FINISHED`] kept (emptied, with only the memory
/// their game used: see `Entries::recycle`) for the next games to start with, so that a
/// series of many games allocates none while it plays; at most this many, of at most
/// [`SPARE_ENTRIES_BYTES`] each.
const SPARES: usize = 4;
const SPARE_ENTRIES_BYTES: usize = 1 << 20;
/// Lines of the series' event stream kept for browsers that connect late or reconnect.
pub(crate) const KEPT_EVENTS: usize = 20_000;
/// Steps in one `steps` message at most.
pub(crate) const BATCH_STEPS: usize = 500;
/// Lines of the series' event stream in one message at most.
pub(crate) const BATCH_LINES: usize = 1000;
/// How long a feed waits after news before it sends, to take more news in the same message.
pub(crate) const COALESCE: Duration = Duration::from_millis(200);
/// The same for the series' event stream: the page redraws its list and standings once a
/// second, and each message costs it a wake-up (a series of instant bots writes some
/// hundred lines a second).
pub(crate) const SERIES_COALESCE: Duration = Duration::from_secs(1);
/// A game's new entries are told to the feeds at most this often (ms).
const TELL_EVERY_MS: u64 = 20;
/// A waiting feed looks again after this long even without news (news of entries is
/// thinned out, see `TELL_EVERY_MS`).
const RECHECK: Duration = Duration::from_millis(250);

/// One game as the hub holds it.
struct LiveGame {
    /// Counts the attempts at this game number (`--replay-suspect` plays a game again).
    attempt: u32,
    tags: Tags,
    entries: Entries,
    end: Option<GameEnd>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct GameEnd {
    pub result: String,
    pub termination: String,
    pub reason: String,
}

#[derive(Default)]
struct Held {
    /// Lines of the event stream; the first has id `first`.
    log: VecDeque<Arc<str>>,
    first: u64,
    /// The stream's first line (`series_started`), kept after the log has dropped it.
    pinned: Option<Arc<str>>,
    games: BTreeMap<u32, LiveGame>,
    /// Finished game numbers, oldest first, to drop the oldest past [`KEPT_FINISHED`].
    finished: VecDeque<u32>,
    /// Game numbers whose entries were dropped.
    dropped: u64,
    /// The cleared entries of dropped games, for new games (see [`SPARES`]).
    spare: Vec<Entries>,
    /// The games are over and nothing more will come: feeds end once they have said all.
    closed: bool,
}

/// Live games and the series' event stream, for browsers.
pub struct Hub {
    title: String,
    state: Mutex<Held>,
    /// Bumped on every change (on a game's new entries at most every TELL_EVERY_MS);
    /// feeds wait on it, and look again after RECHECK regardless.
    news: tokio::sync::watch::Sender<u64>,
    born: std::time::Instant,
    /// When (ms after `born`) a game's entries were last told.
    told: AtomicU64,
}

impl Hub {
    pub fn new(title: &str) -> Arc<Hub> {
        Arc::new(Hub {
            title: title.to_string(),
            state: Mutex::new(Held {
                first: 1,
                ..Held::default()
            }),
            news: tokio::sync::watch::channel(0).0,
            born: std::time::Instant::now(),
            told: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Held> {
        // A panic elsewhere while holding the lock leaves consistent data (each change is
        // one push or one assignment): keep serving it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn tell(&self) {
        self.news.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Feeds open now (browsers following the run or a game).
    pub fn feeds(&self) -> usize {
        // One receiver is the sender's own channel end, dropped at creation: every
        // receiver counted is a feed's.
        self.news.receiver_count()
    }

    /// Whether game `number` is here and not over (announced, or being followed).
    pub fn holds(&self, number: u32) -> bool {
        self.lock()
            .games
            .get(&number)
            .is_some_and(|g| g.end.is_none())
    }

    /// Game `number` starts over (another attempt, played elsewhere): its entries so far
    /// are dropped and its feeds start again with a new view.
    pub fn restart(&self, number: u32) {
        if let Some(g) = self.lock().games.get_mut(&number) {
            if g.attempt > 0 {
                g.attempt += 1;
                g.entries.clear();
                g.end = None;
            }
        }
        self.tell();
    }

    /// No more games: feeds end once they have sent everything.
    pub fn close(&self) {
        self.lock().closed = true;
        self.tell();
    }

    /// Game `number` as it stands now, whatever the game (`None` if it is not held, has not
    /// started or does not replay).
    pub(crate) fn replay_now(&self, number: u32) -> Option<Replay> {
        let held = self.snapshot(number)?;
        replay_to(&held.record, held.record.entries.len())
    }

    /// A copy of game `number` (once started): its attempt, its record so far, and whether
    /// it is over. Taken under the lock; everything made from it is made after.
    fn snapshot(&self, number: u32) -> Option<Snapshot> {
        let s = self.lock();
        let g = s.games.get(&number).filter(|g| g.attempt > 0)?;
        Some(Snapshot {
            attempt: g.attempt,
            record: GameRecord {
                tags: g.tags.clone(),
                entries: g.entries.all(),
            },
            ended: g.end.is_some(),
        })
    }
}

/// What [`Hub::snapshot`] copies of a game.
struct Snapshot {
    attempt: u32,
    record: GameRecord,
    ended: bool,
}

/// A replay of `record`'s first `steps` entries (no steps made), or `None` if they do not
/// replay.
fn replay_to(record: &GameRecord, steps: usize) -> Option<Replay> {
    let (_, mut replay) = view_head(record).ok()?;
    for e in record.entries.get(..steps)? {
        replay.skip(e).ok()?;
    }
    Some(replay)
}

impl Spectator for Hub {
    fn announce(&self, number: u32) {
        let mut s = self.lock();
        let Held { games, spare, .. } = &mut *s;
        games.entry(number).or_insert_with(|| LiveGame {
            attempt: 0,
            tags: Tags::new(),
            entries: spare.pop().unwrap_or_default(),
            end: None,
        });
        drop(s);
        self.tell();
    }

    fn series_event(&self, line: &str) {
        let mut s = self.lock();
        let line: Arc<str> = Arc::from(line);
        if s.pinned.is_none() {
            s.pinned = Some(line.clone());
        }
        s.log.push_back(line);
        if s.log.len() > KEPT_EVENTS {
            s.log.pop_front();
            s.first += 1;
        }
        drop(s);
        self.tell();
    }

    fn follow(&self, number: u32, record: &GameRecord) {
        let mut s = self.lock();
        if s.games.get(&number).is_some_and(|g| g.end.is_some()) {
            // A new attempt at a finished game (`--replay-suspect`): running, not finished.
            s.finished.retain(|&n| n != number);
        }
        let Held { games, spare, .. } = &mut *s;
        let game = games.entry(number).or_insert_with(|| LiveGame {
            attempt: 0,
            tags: Tags::new(),
            entries: spare.pop().unwrap_or_default(),
            end: None,
        });
        if game.end.is_some() || game.attempt == 0 {
            game.attempt += 1;
            game.tags = record.tags.clone();
            game.entries.clear();
            game.end = None;
        }
        let have = game.entries.len().min(record.entries.len());
        game.entries.extend(&record.entries[have..]);
        drop(s);
        // Nobody to tell: a feed opened later reads what is held when it starts (and the
        // clock is not read, twice a decision of every game).
        if self.feeds() == 0 {
            return;
        }
        // Told at most every TELL_EVERY: waking the feeds costs the game's thread a lock
        // per shard of the channel, and feeds look again within RECHECK anyway.
        let now = self.born.elapsed().as_millis() as u64;
        if now.saturating_sub(self.told.load(Ordering::Relaxed)) >= TELL_EVERY_MS {
            self.told.store(now, Ordering::Relaxed);
            self.tell();
        }
    }

    fn game_over(&self, number: u32, record: &GameRecord, reason: &str) {
        let mut s = self.lock();
        let Some(game) = s.games.get_mut(&number) else {
            return;
        };
        game.tags = record.tags.clone();
        // What it followed is most often all but the last entries: only the rest is copied
        // (a copy of every entry was a fifth of the hub's cost per game).
        let have = game.entries.len();
        if game.entries.begins(&record.entries) {
            game.entries.extend(&record.entries[have..]);
        } else {
            game.entries.replace(&record.entries);
        }
        game.end = Some(GameEnd {
            result: record.tags.get("Result").unwrap_or("*").to_string(),
            termination: record.tags.get("Termination").unwrap_or("?").to_string(),
            reason: reason.to_string(),
        });
        s.finished.retain(|&n| n != number);
        s.finished.push_back(number);
        while s.finished.len() > KEPT_FINISHED {
            if let Some(old) = s.finished.pop_front() {
                if let Some(mut dropped) = s.games.remove(&old).map(|g| g.entries) {
                    dropped.recycle();
                    if s.spare.len() < SPARES && dropped.capacity_bytes() <= SPARE_ENTRIES_BYTES {
                        s.spare.push(dropped);
                    }
                }
                s.dropped += 1;
            }
        }
        drop(s);
        self.tell();
    }
}

/// One message of a game's feed.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum GameMessage {
    /// The game so far (also after a reconnection that cannot resume).
    View {
        game: u32,
        attempt: u32,
        view: Box<GameView>,
    },
    /// Steps `first + 1 ..= first + steps.len()` (1-based entry numbers).
    Steps {
        game: u32,
        attempt: u32,
        first: usize,
        steps: Vec<Step>,
    },
    /// The game is over: its result as recorded.
    End {
        game: u32,
        attempt: u32,
        #[serde(flatten)]
        end: GameEnd,
        /// The record's problem, if it stopped replaying (never for a game Zebra referees).
        error: Option<String>,
    },
    /// The hub does not hold this game (never played, or finished too long ago).
    Gone { game: u32, message: String },
}

/// Waits for news (or RECHECK), then `coalesce` more; `false` when the hub is gone.
async fn news_or_recheck(news: &mut tokio::sync::watch::Receiver<u64>, coalesce: Duration) -> bool {
    if let Ok(Err(_)) = tokio::time::timeout(RECHECK, news.changed()).await {
        return false;
    }
    tokio::time::sleep(coalesce).await;
    true
}

/// Where a browser's feed of one game stands.
struct GameFeed {
    hub: Arc<Hub>,
    news: tokio::sync::watch::Receiver<u64>,
    number: u32,
    /// The attempt and the replay the browser has; `None` until it has a `view`.
    has: Option<(u32, Replay)>,
    /// An error already sent ends the feed after the `end`.
    error: Option<String>,
    done: bool,
    /// Whether to wait for news before looking again.
    wait: bool,
}

impl GameFeed {
    /// The next message, or `None` when the feed is over.
    async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if self.done {
                return None;
            }
            if self.wait {
                self.wait = false;
                if !news_or_recheck(&mut self.news, COALESCE).await {
                    return None;
                }
            }
            let (message, id) = match self.look() {
                Some(m) => m,
                None => {
                    self.wait = true;
                    continue;
                }
            };
            let data = serde_json::to_string(&message).expect("feed messages serialize");
            let mut event = SseEvent::default().data(data);
            if let Some(id) = id {
                event = event.id(id);
            }
            return Some(event);
        }
    }

    /// What to send now, with its id; `None` when there is nothing new.
    fn look(&mut self) -> Option<(GameMessage, Option<String>)> {
        let number = self.number;
        // Copy what is needed under the lock; steps are made after it is released.
        let (attempt, tags, entries, end) = {
            let s = self.hub.lock();
            let Some(g) = s.games.get(&number) else {
                self.done = true;
                let message = if s.closed || number == 0 {
                    format!("there is no game {number} here")
                } else {
                    format!(
                        "game {number} is not held here: not started yet, or finished too \
                         long ago (the last {KEPT_FINISHED} finished games are kept; the \
                         record file has every game)"
                    )
                };
                return Some((
                    GameMessage::Gone {
                        game: number,
                        message,
                    },
                    None,
                ));
            };
            if g.attempt == 0 {
                // Announced, its bots starting: wait for its first position.
                return None;
            }
            let from = match &self.has {
                Some((a, r)) if *a == g.attempt => r.entries(),
                _ => 0,
            };
            let upto = g.entries.len().min(from + BATCH_STEPS);
            let tags = (self.has.as_ref().map(|h| h.0) != Some(g.attempt)).then(|| g.tags.clone());
            (g.attempt, tags, g.entries.to_vec(from, upto), g.end.clone())
        };
        if let Some(tags) = tags {
            // A new browser, or a new attempt at this game: the whole game so far.
            let record = GameRecord {
                tags,
                entries: entries.clone(),
            };
            let (mut view, mut replay) = match view_head(&record) {
                Ok(head) => head,
                Err(view) => {
                    self.done = true;
                    return Some((
                        GameMessage::View {
                            game: number,
                            attempt,
                            view,
                        },
                        None,
                    ));
                }
            };
            for entry in &entries {
                match replay.step(entry) {
                    Ok(step) => view.steps.push(step),
                    Err(e) => {
                        view.error = Some(e.clone());
                        self.error = Some(e);
                        break;
                    }
                }
            }
            let id = format!("{attempt}-{}", replay.entries());
            self.has = Some((attempt, replay));
            return Some((
                GameMessage::View {
                    game: number,
                    attempt,
                    view: Box::new(view),
                },
                Some(id),
            ));
        }
        let (_, replay) = self.has.as_mut().expect("a view was sent");
        if !entries.is_empty() && self.error.is_none() {
            let first = replay.entries();
            let mut steps = Vec::with_capacity(entries.len());
            for entry in &entries {
                match replay.step(entry) {
                    Ok(step) => steps.push(step),
                    Err(e) => {
                        self.error = Some(e);
                        break;
                    }
                }
            }
            let id = format!("{attempt}-{}", replay.entries());
            return Some((
                GameMessage::Steps {
                    game: number,
                    attempt,
                    first,
                    steps,
                },
                Some(id),
            ));
        }
        if let Some(end) = end {
            self.done = true;
            return Some((
                GameMessage::End {
                    game: number,
                    attempt,
                    end,
                    error: self.error.take(),
                },
                None,
            ));
        }
        None
    }
}

/// Where a browser's feed of the event stream stands.
struct SeriesFeed {
    hub: Arc<Hub>,
    news: tokio::sync::watch::Receiver<u64>,
    /// The id of the next line to send.
    next: u64,
    /// The stream's first line is due (it was dropped from the log, and this browser has
    /// not had it).
    pin: bool,
    wait: bool,
}

impl SeriesFeed {
    async fn next(&mut self) -> Option<SseEvent> {
        loop {
            if self.wait {
                self.wait = false;
                if !news_or_recheck(&mut self.news, SERIES_COALESCE).await {
                    return None;
                }
            }
            let s = self.hub.lock();
            if self.next < s.first {
                // Lines this browser has not had are gone. A reconnection is told so (it
                // starts its list again); then the first line, then the oldest kept.
                let lost = self.next > 1;
                self.next = s.first;
                self.pin = true;
                if lost {
                    return Some(SseEvent::default().data(r#"{"type":"reset"}"#));
                }
            }
            if self.pin {
                self.pin = false;
                if let Some(p) = &s.pinned {
                    return Some(SseEvent::default().data(&**p));
                }
            }
            // Every line there is, up to BATCH_LINES, in one event: a series of instant bots
            // writes dozens of lines a second, and each message costs the browser a wake-up.
            let index = (self.next - s.first) as usize;
            let lines: Vec<&str> = s
                .log
                .iter()
                .skip(index)
                .take(BATCH_LINES)
                .map(|l| &**l)
                .collect();
            if !lines.is_empty() {
                self.next += lines.len() as u64;
                let event = SseEvent::default()
                    .data(lines.join("\n"))
                    .id((self.next - 1).to_string());
                return Some(event);
            }
            if s.closed {
                return None;
            }
            drop(s);
            self.wait = true;
        }
    }
}

/// The id a reconnecting browser last had.
fn last_event_id(headers: &HeaderMap) -> Option<&str> {
    headers.get("last-event-id").and_then(|v| v.to_str().ok())
}

fn sse<F, Fut, G>(state: F, step: G) -> Response
where
    F: Send + 'static,
    G: FnMut(F) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Option<(Result<SseEvent, Infallible>, F)>> + Send + 'static,
{
    let stream = futures_util::stream::unfold(state, step);
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

async fn series_feed(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Response {
    let next = last_event_id(&headers)
        .and_then(|id| id.parse::<u64>().ok())
        .map_or(1, |id| id + 1);
    let feed = SeriesFeed {
        news: hub.news.subscribe(),
        hub,
        next,
        pin: false,
        wait: false,
    };
    sse(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    })
}

async fn game_feed(
    State(hub): State<Arc<Hub>>,
    Path(number): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Ok(number) = number.parse::<u32>() else {
        return super::server::problem(
            StatusCode::NOT_FOUND,
            format!(
                "there is no game '{}': games are numbered from 1",
                super::server::short(&number)
            ),
        );
    };
    let mut feed = GameFeed {
        news: hub.news.subscribe(),
        hub: hub.clone(),
        number,
        has: None,
        error: None,
        done: false,
        wait: false,
    };
    // A reconnection: replay silently up to the last step the browser has, then go on.
    if let Some((attempt, steps)) = last_event_id(&headers)
        .and_then(|id| id.split_once('-'))
        .and_then(|(a, k)| Some((a.parse::<u32>().ok()?, k.parse::<usize>().ok()?)))
    {
        feed.has = hub
            .snapshot(number)
            .filter(|held| held.attempt == attempt)
            .and_then(|held| replay_to(&held.record, steps))
            .map(|replay| (attempt, replay));
    }
    sse(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok(event), feed))
    })
}

/// One game's whole view, as the recorded viewer's `/api/games/N` gives it.
async fn game_view(State(hub): State<Arc<Hub>>, Path(number): Path<String>) -> Response {
    let held = number.parse::<u32>().ok().and_then(|n| hub.snapshot(n));
    match held {
        Some(h) if h.ended => Json(super::feed::view_game(&h.record)).into_response(),
        Some(h) => Json(super::feed::view_so_far(&h.record)).into_response(),
        None => super::server::problem(
            StatusCode::NOT_FOUND,
            format!(
                "game '{}' is not held here (running games and the last {KEPT_FINISHED} finished ones are)",
                super::server::short(&number)
            ),
        ),
    }
}

async fn page(State(hub): State<Arc<Hub>>) -> Response {
    super::server::html(super::page::page_live(&hub.title))
}

/// The router of the live viewer over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/live", get(series_feed))
        .route("/api/live/games/:number", get(game_feed))
        .route("/api/games/:number", get(game_view))
        .with_state(hub)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Entry;

    fn record(actions: usize) -> GameRecord {
        GameRecord {
            tags: Tags::new(),
            entries: (0..actions)
                .map(|k| Entry::action(format!("a{k}")))
                .collect(),
        }
    }

    fn held(hub: &Hub, number: u32) -> (u32, usize) {
        let s = hub.lock();
        let g = &s.games[&number];
        (g.attempt, g.entries.len())
    }

    #[test]
    fn a_game_started_over_elsewhere_keeps_nothing_of_its_last_attempt() {
        let hub = Hub::new("t");
        hub.follow(3, &record(5));
        assert_eq!(held(&hub, 3), (1, 5));
        assert!(hub.holds(3));
        // The new attempt's record is shorter: without a restart its tail would be
        // appended to the old attempt's entries.
        hub.restart(3);
        hub.follow(3, &record(2));
        assert_eq!(held(&hub, 3), (2, 2));
        hub.follow(3, &record(4));
        assert_eq!(held(&hub, 3), (2, 4));
        // A game the hub does not hold is not made up.
        hub.restart(9);
        assert!(!hub.holds(9));
    }

    #[test]
    fn games_started_on_dropped_games_entries_hold_only_their_own() {
        let hub = Hub::new("t");
        let games = KEPT_FINISHED as u32 + 20;
        for number in 1..=games {
            // Of lengths that differ; every other game ends without being followed (its
            // entries are then what a spare held plus the record's, were it not emptied).
            let length = 3 + (number as usize * 7) % 11;
            hub.announce(number);
            if number % 2 == 0 {
                hub.follow(number, &record(length - 1));
            }
            hub.game_over(number, &record(length), "done");
            let s = hub.lock();
            assert_eq!(s.games[&number].entries.all(), record(length).entries);
            assert!(s.spare.len() <= SPARES);
            assert!(s.spare.iter().all(|e| e.len() == 0));
        }
        let s = hub.lock();
        assert_eq!(s.games.len(), KEPT_FINISHED);
        assert_eq!(s.dropped, 20);
        assert!(!s.spare.is_empty(), "dropped games' entries are used again");
        // Each spare holds no more memory than one of these short games used (13 entries
        // at most, of an item and a few bytes of text each).
        let most = 13 * 100;
        assert!(s.spare.iter().all(|e| e.capacity_bytes() <= most));
    }

    #[test]
    fn a_finished_game_holds_exactly_its_record_whatever_was_followed() {
        let hub = Hub::new("t");
        let entries = |number: u32| hub.lock().games[&number].entries.all();
        // Followed up to its last entries: the rest is added.
        hub.follow(1, &record(3));
        hub.game_over(1, &record(5), "done");
        assert_eq!(entries(1), record(5).entries);
        // Followed with other entries than its record's (another daemon's account of it):
        // the record's, not a mix.
        let other = GameRecord {
            tags: Tags::new(),
            entries: vec![Entry::action("x"), Entry::action("y")],
        };
        hub.follow(2, &other);
        hub.game_over(2, &record(4), "done");
        assert_eq!(entries(2), record(4).entries);
        // Followed further than the record (it cannot be a prefix): the record's.
        hub.follow(3, &record(6));
        hub.game_over(3, &record(2), "done");
        assert_eq!(entries(3), record(2).entries);
        assert!(!hub.holds(1) && !hub.holds(2) && !hub.holds(3), "all over");
    }
}
