//! A human seat: `zebra play --white human` (or `--black human`) lets a person play in the
//! viewer against a bot, in any game (`--rules boyer-football` too).
//!
//! To the referee the person is a bot like any other: a process it starts, talks to over
//! stdio, and times with the same clocks. That process is `zebra seat-relay ADDR TOKEN`,
//! which only carries lines between its stdio and this [`Desk`] over a loopback connection
//! (the token keeps anyone else off the seat). The desk answers the handshake and pings
//! itself, holds the open request, and hands the page what it needs to offer the person:
//! each legal action with its squares (for clicks on the field), the actions without
//! squares (buttons), and for formations a legal suggestion and a live check of the
//! person's draft against the formation rules (the engine judges; the page never runs the
//! rules). The person's choice goes back to the referee as the reply to that request; a
//! request that timed out is the referee's to judge, as for any bot.
//!
//! The game is the one `game_start` names (`rules`). In Boyer's Football every sub-move is
//! offered the same way: a piece's move (`d1d5`) from its square to its target, a kick
//! (`Kd4>f6`) from the kicking piece's square to where the ball goes (kind `kick`), and
//! `pass` as a button.
//!
//! Routes (added to the live viewer's): `/api/seat` (server-sent events: the seat's state
//! on every change), `POST /api/seat/action` (`{"id":N,"action":"..."}`), `POST
//! /api/seat/check` (`{"action":"..."}`: would this be legal now, and would it draw a flag).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use super::feed::{offer, Replay, Verdict, Viewed};
use super::live::Hub;
use crate::rules::{Rules, Side};

/// What the page shows of the seat.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SeatState {
    /// The person's team.
    pub side: Option<Side>,
    /// The game (`football-chess`, `boyer-football`), once `game_start` has named it.
    pub rules: Option<Rules>,
    /// The relay is connected (the game has started).
    pub connected: bool,
    /// The open request: its id, the decision, and the time given in milliseconds.
    pub id: Option<u64>,
    pub decision: Option<String>,
    pub deadline_ms: Option<u64>,
    /// Legal actions that name squares: notation, from, to, the knight's corner, and kind
    /// (`move`, `throw`, `shift`; Boyer's Football: `move`, `kick`, from the kicker).
    pub moves: Vec<SeatMove>,
    /// Legal actions without squares (`snap`, `pass`, `timeout`, `accept`, `decline`...).
    pub buttons: Vec<String>,
    /// For a formation: a legal one the person may start from.
    pub suggestion: Option<String>,
    /// The referee's verdict on the last reply (`ok`, `illegal`, `timeout`...) and why.
    pub last_status: Option<String>,
    pub last_reason: Option<String>,
    /// The game has ended.
    pub over: bool,
    /// Bumped on every change.
    pub version: u64,
}

/// One legal action with squares.
#[derive(Clone, Debug, Serialize)]
pub struct SeatMove {
    pub action: String,
    pub from: String,
    pub to: String,
    pub corner: Option<String>,
    pub kind: &'static str,
}

/// The seat's end of the relay, and the person's open request.
pub struct Desk {
    side: Side,
    token: String,
    hub: Arc<Hub>,
    /// The game number the seat plays in the hub.
    number: u32,
    state: tokio::sync::watch::Sender<SeatState>,
    replies: tokio::sync::mpsc::UnboundedSender<String>,
    inbox: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<String>>>,
    listener: Mutex<Option<std::net::TcpListener>>,
    addr: std::net::SocketAddr,
}

impl Desk {
    /// A desk for `side`, listening on a free loopback port for its relay.
    pub fn new(side: Side, hub: Arc<Hub>, number: u32) -> std::io::Result<Arc<Desk>> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let (replies, inbox) = tokio::sync::mpsc::unbounded_channel();
        let state = SeatState {
            side: Some(side),
            ..SeatState::default()
        };
        Ok(Arc::new(Desk {
            side,
            token: token(),
            hub,
            number,
            state: tokio::sync::watch::channel(state).0,
            replies,
            inbox: Mutex::new(Some(inbox)),
            listener: Mutex::new(Some(listener)),
            addr,
        }))
    }

    /// The relay's arguments after the program: `seat-relay ADDR TOKEN`.
    pub fn relay_args(&self) -> Vec<String> {
        vec![
            "seat-relay".to_string(),
            self.addr.to_string(),
            self.token.clone(),
        ]
    }

    pub fn side(&self) -> Side {
        self.side
    }

    fn change(&self, f: impl FnOnce(&mut SeatState)) {
        self.state.send_modify(|s| {
            f(s);
            s.version += 1;
        });
    }

    /// Serves the relay: accepts it (the first connection that names the token), then
    /// carries lines until the game ends. Runs on the viewer's runtime.
    pub async fn run(self: Arc<Desk>) {
        let Some(listener) = self.listener.lock().ok().and_then(|mut l| l.take()) else {
            return;
        };
        let Some(mut inbox) = self.inbox.lock().ok().and_then(|mut i| i.take()) else {
            return;
        };
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        // The token first: anything else on this port is closed unanswered. The reader
        // that read the token reads on: the relay may have sent more behind it already.
        let (mut lines, mut write) = loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let (read, write) = stream.into_split();
            let mut reader = tokio::io::BufReader::new(read);
            let mut first = Vec::new();
            let read =
                tokio::time::timeout(Duration::from_secs(5), reader.read_until(b'\n', &mut first))
                    .await;
            if matches!(read, Ok(Ok(_))) && first.trim_ascii() == self.token.as_bytes() {
                break (reader.lines(), write);
            }
        };
        drop(listener);
        self.change(|s| s.connected = true);
        loop {
            tokio::select! {
                line = lines.next_line() => {
                    let Ok(Some(line)) = line else { break };
                    if let Some(reply) = self.take(&line) {
                        if write.write_all(format!("{reply}\n").as_bytes()).await.is_err() {
                            break;
                        }
                    }
                }
                Some(reply) = inbox.recv() => {
                    if write.write_all(format!("{reply}\n").as_bytes()).await.is_err() {
                        break;
                    }
                }
            }
        }
        self.change(|s| {
            s.connected = false;
            s.over = true;
            s.id = None;
        });
    }

    /// One line from the referee; the desk's own answer, if it has one.
    fn take(&self, line: &str) -> Option<String> {
        let msg: serde_json::Value = serde_json::from_str(line).ok()?;
        match msg["type"].as_str()? {
            "hello" => Some(
                serde_json::json!({
                    "type": "ready",
                    "version": 1,
                    "name": "human",
                    "author": "a person at the viewer",
                    "bot_version": env!("CARGO_PKG_VERSION"),
                })
                .to_string(),
            ),
            "ping" => Some(serde_json::json!({"type": "pong", "id": msg["id"]}).to_string()),
            "game_start" => {
                let rules = msg["rules"].as_str().and_then(|r| r.parse::<Rules>().ok());
                self.change(|s| s.rules = Some(rules.unwrap_or_default()));
                None
            }
            "request" => {
                self.open(&msg);
                None
            }
            "result" => {
                let id = msg["id"].as_u64();
                self.change(|s| {
                    if s.id == id {
                        s.id = None;
                        s.moves.clear();
                        s.buttons.clear();
                        s.suggestion = None;
                    }
                    s.last_status = msg["status"].as_str().map(str::to_string);
                    s.last_reason = msg["reason"].as_str().map(str::to_string);
                });
                None
            }
            "game_end" | "quit" => {
                self.change(|s| {
                    s.over = true;
                    s.id = None;
                });
                None
            }
            _ => None,
        }
    }

    /// A request: what the page offers for it.
    fn open(&self, msg: &serde_json::Value) {
        let legal: Vec<String> = msg["legal"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let rules = self.state.borrow().rules.unwrap_or_default();
        let (moves, buttons) = crate::with_rules!(rules, G => offer::<G>(legal));
        let moves = moves
            .into_iter()
            .map(|(action, a)| SeatMove {
                action,
                from: a.from,
                to: a.to,
                corner: a.corner,
                kind: a.kind,
            })
            .collect();
        let decision = msg["decision"].as_str().map(str::to_string);
        let suggestion = decision.as_deref().and_then(|d| {
            let seed = msg["id"].as_u64().unwrap_or(0);
            self.replay()?.suggestion(self.side, d, seed)
        });
        self.change(|s| {
            s.id = msg["id"].as_u64();
            s.decision = decision;
            s.deadline_ms = msg["deadline_ms"].as_u64();
            s.moves = moves;
            s.buttons = buttons;
            s.suggestion = suggestion;
        });
    }

    /// The game as it stands (the hub's record of it, replayed).
    fn replay(&self) -> Option<Replay> {
        self.hub.replay_now(self.number)
    }
}

/// The clock a game with a human seat gets when none is named: a person needs more than a
/// bot's second to react (each game's own, `Viewed::HUMAN_CLOCK`).
pub fn human_clock(rules: Rules) -> &'static str {
    crate::with_rules!(rules, G => <G as Viewed>::HUMAN_CLOCK)
}

/// A token nobody else can guess from outside this process.
fn token() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let from_kernel = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !from_kernel {
        // std seeds every RandomState from the system's randomness.
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `zebra seat-relay ADDR TOKEN`: carries lines between stdio and the desk at ADDR until
/// either side ends.
pub fn relay(addr: &str, token: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut socket = std::net::TcpStream::connect(addr)?;
    socket.set_nodelay(true)?;
    writeln!(socket, "{token}")?;
    let from_desk = socket.try_clone()?;
    let down = std::thread::spawn(move || pump(from_desk, std::io::stdout()));
    let _ = pump(std::io::stdin(), socket.try_clone()?);
    let _ = socket.shutdown(std::net::Shutdown::Both);
    let _ = down.join();
    Ok(())
}

/// Copies `from` to `to`, flushing every read, until the end or an error. Not
/// `std::io::copy`: between a socket and a pipe it splices, and a splice waiting for the
/// socket holds the pipe's lock, so that the referee's read of the relay's output would
/// block its whole thread until the person answers.
fn pump(mut from: impl std::io::Read, mut to: impl std::io::Write) -> std::io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        to.flush()?;
    }
}

#[derive(Deserialize)]
struct Reply {
    id: u64,
    action: String,
}

#[derive(Deserialize)]
struct Draft {
    action: String,
}

async fn seat_feed(State(desk): State<Arc<Desk>>) -> Response {
    let rx = desk.state.subscribe();
    let stream = futures_util::stream::unfold((rx, true), |(mut rx, first)| async move {
        if !first && rx.changed().await.is_err() {
            return None;
        }
        let state = rx.borrow_and_update().clone();
        let data = serde_json::to_string(&state).expect("the seat serializes");
        let event = SseEvent::default().data(data).id(state.version.to_string());
        Some((Ok::<_, std::convert::Infallible>(event), (rx, false)))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

async fn act(State(desk): State<Arc<Desk>>, Json(reply): Json<Reply>) -> Response {
    let open = desk.state.borrow().id;
    if open != Some(reply.id) {
        return super::server::problem(
            StatusCode::CONFLICT,
            format!(
                "request {} is not open (the open one: {})",
                reply.id,
                open.map_or("none".to_string(), |i| i.to_string())
            ),
        );
    }
    let line = serde_json::json!({"type": "action", "id": reply.id, "action": reply.action});
    // Sent as typed: a reply the referee finds illegal is judged as any bot's would be.
    if desk.replies.send(line.to_string()).is_err() {
        return super::server::problem(StatusCode::GONE, "the game is over".to_string());
    }
    desk.change(|s| {
        s.id = None;
        s.moves.clear();
        s.buttons.clear();
        s.suggestion = None;
    });
    Json(serde_json::json!({"sent": true})).into_response()
}

async fn check(State(desk): State<Arc<Desk>>, Json(draft): Json<Draft>) -> Response {
    let state = desk.state.borrow().clone();
    // The game judges the draft; a game without drafts to judge (every sub-move of Boyer's
    // Football is offered as is) goes by what the open request offers.
    let verdict = match desk.replay() {
        None => Verdict::illegal("the game has not started"),
        Some(replay) => replay.judge_draft(&draft.action).unwrap_or_else(|| {
            let offered = state.moves.iter().any(|m| m.action == draft.action)
                || state.buttons.contains(&draft.action);
            if offered {
                Verdict::legal(None)
            } else {
                Verdict::illegal(format!("{} is not a legal action now", draft.action))
            }
        }),
    };
    Json(verdict).into_response()
}

/// The seat's routes, to merge into the live viewer's router.
pub fn router(desk: Arc<Desk>) -> Router {
    Router::new()
        .route("/api/seat", get(seat_feed))
        .route("/api/seat/action", post(act))
        .route("/api/seat/check", post(check))
        .with_state(desk)
}
