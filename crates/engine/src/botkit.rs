//! A tiny synchronous client for bots written in Rust on the engine: read the referee's
//! messages from stdin, answer them on stdout.
//!
//! A bot implements [`Bot`] (its `ready` information and a [`Bot::decide`] method) and
//! calls [`run`]. The loop answers `hello` with `ready`, `ping` with `pong`, every `request`
//! with the action `decide` returns, and ends on `quit` or at the end of stdin. Every reply
//! is one line, flushed at once. Lines it cannot read are logged to stderr and skipped; a
//! panic in `decide` is caught and answered with [`fallback`].
//!
//! ```no_run
//! use zebra_engine::botkit::{self, Bot, BotInfo, Request};
//!
//! struct First;
//! impl Bot for First {
//!     fn info(&self) -> BotInfo {
//!         BotInfo::named("first")
//!     }
//!     fn decide(&mut self, req: &Request) -> String {
//!         match req.legal.as_deref() {
//!             Some([first, ..]) => first.clone(),
//!             _ => botkit::fallback(req), // formations: a legal one from the engine
//!         }
//!     }
//! }
//!
//! fn main() -> std::io::Result<()> {
//!     botkit::run(&mut First)
//! }
//! ```
//!
//! The state of every request carries the engine diagram: [`game_of`] (or
//! [`Request::game`]) turns it back into a [`Game`] to try actions on. Diagrams cannot
//! describe a pending penalty choice; decide those from `legal` and `state.flags`.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{Map, Value};

use crate::games::boyer::wire::BoyerToBot;
use crate::games::chess_eleven::wire::ElevenToBot;
use crate::games::football_chess::wire::{
    penalty, ClockMsg, ClocksMsg, RequestExtra, StateMsg, TimeControlMsg, ToBot,
};
use crate::protocol::follow::Follower;
use crate::protocol::{FromBot, OptionDecl, Want};
use crate::rules::playout::RandomPlayer;
use crate::rules::{DecisionKind, Formation, Game, Rules, Side};
use crate::seam::Refereed;

/// What a bot says about itself in `ready`.
#[derive(Clone, Debug, Default)]
pub struct BotInfo {
    pub name: String,
    pub author: String,
    pub version: String,
    /// Settings the user may give (UCI-style); their values arrive in [`GameStart::options`].
    pub options: Vec<OptionDecl>,
}

impl BotInfo {
    /// Just a name; author and version empty, no options.
    pub fn named(name: &str) -> BotInfo {
        BotInfo {
            name: name.to_string(),
            ..BotInfo::default()
        }
    }
}

/// The `game_start` message: side, opponent, seed, clocks and option values.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub side: Side,
    pub opponent: String,
    pub seed: u64,
    pub time_control: TimeControlMsg,
    pub options: Map<String, Value>,
}

/// One `request`: decide now.
#[derive(Clone, Debug)]
pub struct Request {
    pub id: u64,
    pub decision: DecisionKind,
    /// The team that must decide (the bot's own).
    pub side: Side,
    pub state: StateMsg,
    pub clocks: ClocksMsg,
    /// Answer within this many milliseconds.
    pub deadline_ms: u64,
    /// Every legal action in notation; `None` for formations.
    pub legal: Option<Vec<String>>,
    /// In a penalty decision: where each choice leads.
    pub penalty_options: Option<Vec<penalty::PenaltyOption>>,
}

impl Request {
    /// The position as an engine game, or `None` in a penalty phase (see [`game_of`]).
    pub fn game(&self) -> Option<Game> {
        game_of(&self.state)
    }

    /// The legal list, empty for formations.
    pub fn legal_list(&self) -> &[String] {
        self.legal.as_deref().unwrap_or(&[])
    }

    /// The request a referee would send for `game`'s next decision (`None` once it is
    /// over), with a 10 s deadline and no running clocks: for tests and local harnesses.
    pub fn from_game(id: u64, game: &Game) -> Option<Request> {
        let d = game.decision()?;
        let legal = (d.kind != DecisionKind::Formation).then(|| {
            game.legal_action_list()
                .iter()
                .map(|a| a.to_string())
                .collect()
        });
        let clock = |owner: &str| ClockMsg {
            owner: owner.to_string(),
            remaining_ms: None,
            running: false,
        };
        Some(Request {
            id,
            decision: d.kind,
            side: d.side,
            state: StateMsg::of(game),
            clocks: ClocksMsg {
                game: None,
                play: clock(game.offense().name()),
                reaction: clock(game.defense().name()),
            },
            deadline_ms: 10_000,
            legal,
            penalty_options: penalty::preview(game),
        })
    }

    /// The request in a `request` message; `None` for any other message.
    pub fn from_message(msg: &ToBot) -> Option<Request> {
        match msg {
            ToBot::Request {
                id,
                decision,
                side,
                state: Some(state),
                clocks,
                deadline_ms,
                legal,
                extra: RequestExtra { penalty_options },
                ..
            } => Some(Request {
                id: *id,
                decision: *decision,
                side: *side,
                state: state.clone(),
                clocks: clocks.clone(),
                deadline_ms: *deadline_ms,
                legal: legal
                    .as_ref()
                    .and_then(Option::as_ref)
                    .map(|l| l.iter().map(|a| a.to_string()).collect()),
                penalty_options: penalty_options.clone(),
            }),
            _ => None,
        }
    }

    /// The request as the protocol message.
    pub fn to_message(&self) -> ToBot {
        ToBot::Request {
            id: self.id,
            decision: self.decision,
            side: self.side,
            since: None,
            state: Some(self.state.clone()),
            clocks: self.clocks.clone(),
            deadline_ms: self.deadline_ms,
            legal: Some(
                self.legal
                    .as_ref()
                    .map(|l| l.iter().filter_map(|a| a.parse().ok()).collect()),
            ),
            extra: RequestExtra {
                penalty_options: self.penalty_options.clone(),
            },
        }
    }
}

/// A bot: its `ready` information and its decisions.
pub trait Bot {
    /// Name, author, version and options, sent in `ready`.
    fn info(&self) -> BotInfo;
    /// A game begins (side, seed, option values). Called before its first request.
    fn game_start(&mut self, _start: &GameStart) {}
    /// The action for this request, in notation (`e4e5`, `snap`, `[Pd5,...]`).
    fn decide(&mut self, req: &Request) -> String;
    /// Every other message (`result`, `event`, `game_end`), for bots that keep state.
    fn observe(&mut self, _msg: &ToBot) {}
    /// Whether [`Bot::observe`] reads `result` and `event` messages: in protocol version 2
    /// they are then asked for (version 2 sends them only on request). `false` by default.
    fn observes(&self) -> bool {
        false
    }
    /// A game of Boyer's Football begins (`game_start` with `rules: boyer-football`).
    fn boyer_start(&mut self, _side: Side, _seed: u64) {}
    /// The sub-move for a Boyer's Football request (games::boyer::wire). The default plays
    /// the first legal sub-move: a bot for Football Chess alone still finishes the game.
    fn decide_boyer(&mut self, req: &BoyerRequest) -> String {
        req.first_legal()
    }
    /// A game of Chess Eleven begins (`game_start` with `rules: chess-eleven`).
    fn eleven_start(&mut self, _side: Side, _seed: u64) {}
    /// The action for a Chess Eleven request (games::chess_eleven::wire). The default plays
    /// the default formation and the first legal action: a bot for another game still
    /// finishes the game.
    fn decide_eleven(&mut self, req: &ElevenRequest) -> String {
        req.safe()
    }
}

/// A Chess Eleven request, as a bot gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElevenRequest {
    pub id: u64,
    /// `formation`, `go` or `continue`.
    pub decision: String,
    pub side: Side,
    pub state: crate::games::chess_eleven::wire::ElevenState,
    pub deadline_ms: u64,
    /// The legal actions; empty for a formation.
    pub legal: Vec<String>,
}

impl ElevenRequest {
    /// A safe answer: the default formation (C12), or the first legal action.
    pub fn safe(&self) -> String {
        if self.decision == "formation" {
            return crate::games::chess_eleven::formation::default_for(self.side).to_string();
        }
        self.legal
            .first()
            .cloned()
            .unwrap_or_else(|| "end".to_string())
    }

    /// The position of a request in a round, for a bot that searches.
    pub fn position(&self) -> Option<crate::games::chess_eleven::Position> {
        self.state.position.as_deref()?.parse().ok()
    }
}

/// A Boyer's Football request, as a bot gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoyerRequest {
    pub id: u64,
    pub side: Side,
    pub state: crate::games::boyer::wire::BoyerState,
    pub deadline_ms: u64,
    pub legal: Vec<String>,
}

impl BoyerRequest {
    /// A safe answer: the first legal sub-move (the list is never empty; `pass` if it were).
    pub fn first_legal(&self) -> String {
        self.legal
            .first()
            .cloned()
            .unwrap_or_else(|| "pass".to_string())
    }
}

/// The position of a state as an engine game: `Game::from_diagram(&state.diagram)`.
///
/// `None` when the diagram does not load, notably in a penalty phase (diagrams cannot
/// describe a pending penalty choice): decide those from the request's `legal` list.
pub(crate) fn game_of(state: &StateMsg) -> Option<Game> {
    if state.phase == "penalty" {
        return None;
    }
    Game::from_diagram(&state.diagram).ok()
}

/// A legal formation for `side` (7 pieces, at least 2 pawns, the snapper on the ball for
/// the offense, no king on defense, everything on the right side of the line), drawn at
/// random from `seed` by the engine's [`RandomPlayer::formation`].
pub fn formation(game: &Game, side: Side, seed: u64) -> Formation {
    let mut player = RandomPlayer::new(seed);
    player.faulty_formation_rate = 0.0;
    formation_with(&mut player, game, side)
}

/// [`formation`] with a player the bot keeps (so that successive formations differ).
pub fn formation_with(player: &mut RandomPlayer, game: &Game, side: Side) -> Formation {
    player.faulty_formation_rate = 0.0;
    let mut f = player.formation(game, side);
    for _ in 0..8 {
        if game.validate_formation(&f).is_ok() {
            break;
        }
        f = player.formation(game, side);
    }
    f
}

/// A safe answer to any request: the first legal action; for formations a legal one from
/// the engine; `pass` if nothing else can be worked out.
pub fn fallback(req: &Request) -> String {
    if let Some(first) = req.legal_list().first() {
        return first.clone();
    }
    match req.game() {
        Some(game) if req.decision == DecisionKind::Formation => {
            formation(&game, req.side, req.id).to_string()
        }
        _ => "pass".to_string(),
    }
}

/// Runs `bot` on stdin and stdout until `quit` or the end of stdin, speaking protocol
/// version 2 when the referee offers it (the kit keeps its own game; `decide` gets whole
/// requests all the same), else version 1.
pub fn run<B: Bot>(bot: &mut B) -> io::Result<()> {
    run_speaking(bot, 2)
}

/// [`run`], speaking at most protocol version `highest` (1: every request whole).
pub fn run_speaking<B: Bot>(bot: &mut B, highest: u32) -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    run_on(bot, highest, stdin.lock(), stdout.lock())
}

/// The game of the session, and the kit's own copy of it when it follows a version-2
/// game (requests that carry only the changes). One per session, never moved: the size
/// of the largest game is accepted.
#[allow(clippy::large_enum_variant)]
enum Following {
    /// No game yet, or a version-1 game: requests carry everything.
    Nothing,
    FootballChess(Follower<Game>),
    Boyer(Follower<crate::games::boyer::rules::Game>),
    Eleven(Follower<crate::games::chess_eleven::Game>),
    /// A version-2 game the kit could not follow (it asks every request to carry all).
    Lost,
}

/// Runs `bot` on any line source and sink (what [`run`] does with stdin and stdout).
pub(crate) fn run_on<B: Bot>(
    bot: &mut B,
    highest: u32,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    let mut first = true;
    let mut version = 1;
    let mut rules = Rules::FootballChess;
    let mut following = Following::Nothing;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(()); // end of stdin: the referee is gone
        }
        let mut bytes = buf.as_slice();
        if first {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            first = false;
        }
        let Ok(line) = std::str::from_utf8(bytes) else {
            eprintln!("botkit: skipped a line that is not UTF-8");
            continue;
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let unreadable = |e: &dyn std::fmt::Display| {
            eprintln!("botkit: skipped an unreadable line ({e}): {}", clip(line));
        };
        let value: Value = match serde_json::from_str(line) {
            Ok(value) => value,
            Err(e) => {
                unreadable(&e);
                continue;
            }
        };
        let reply = match value.get("type").and_then(Value::as_str).unwrap_or("") {
            "hello" => {
                let offered: Vec<u32> = value
                    .get("versions")
                    .and_then(|v| serde_json::from_value(v.clone()).ok())
                    .unwrap_or_default();
                version = if highest >= 2 && offered.contains(&2) {
                    2
                } else {
                    1
                };
                if !offered.contains(&version) {
                    eprintln!(
                        "botkit: the referee offers versions {offered:?}; this kit speaks 1 and 2"
                    );
                }
                let info = bot.info();
                // `observe` gets what version 1 sends when the bot reads it.
                let wants = if bot.observes() {
                    vec![Want::Events, Want::Results]
                } else {
                    Vec::new()
                };
                Some(FromBot::Ready {
                    version,
                    name: info.name,
                    author: info.author,
                    bot_version: info.version,
                    capabilities: Vec::new(),
                    options: info.options,
                    wants,
                })
            }
            "game_start" => {
                let text = |k: &str| value.get(k).and_then(Value::as_str);
                rules = text("rules")
                    .and_then(|r| r.parse().ok())
                    .unwrap_or(Rules::FootballChess);
                following = if version >= 2 {
                    follow(rules, &value)
                } else {
                    Following::Nothing
                };
                match rules {
                    Rules::FootballChess => match serde_json::from_value::<ToBot>(value) {
                        Ok(ToBot::GameStart {
                            side,
                            opponent,
                            seed,
                            time_control,
                            options,
                            ..
                        }) => bot.game_start(&GameStart {
                            side,
                            opponent,
                            seed,
                            time_control,
                            options,
                        }),
                        Ok(_) => {}
                        Err(e) => unreadable(&e),
                    },
                    Rules::BoyerFootball => match serde_json::from_value::<BoyerToBot>(value) {
                        Ok(BoyerToBot::GameStart { side, seed, .. }) => bot.boyer_start(side, seed),
                        Ok(_) => {}
                        Err(e) => unreadable(&e),
                    },
                    Rules::ChessEleven => match serde_json::from_value::<ElevenToBot>(value) {
                        Ok(ElevenToBot::GameStart { side, seed, .. }) => {
                            bot.eleven_start(side, seed)
                        }
                        Ok(_) => {}
                        Err(e) => unreadable(&e),
                    },
                }
                None
            }
            "request" => match answer(bot, rules, &mut following, value) {
                Ok(reply) => Some(reply),
                Err(e) => {
                    unreadable(&e);
                    None
                }
            },
            "ping" => value
                .get("id")
                .and_then(Value::as_u64)
                .map(|id| FromBot::Pong { id }),
            "quit" => return Ok(()),
            _ => {
                if rules == Rules::FootballChess {
                    if let Ok(msg) = serde_json::from_value::<ToBot>(value) {
                        bot.observe(&msg);
                    }
                }
                None
            }
        };
        if let Some(reply) = reply {
            send(&mut output, &reply)?;
        }
    }
}

/// The kit's own game for a version-2 `game_start`.
fn follow(rules: Rules, start: &Value) -> Following {
    let text = |k: &str| start.get(k).and_then(Value::as_str);
    let (Some(tc), Some(seed)) = (text("tc"), start.get("seed").and_then(Value::as_u64)) else {
        eprintln!("botkit: a game_start without `tc` or `seed`: asking for whole requests");
        return Following::Lost;
    };
    let situation = text("situation");
    let followed = match rules {
        Rules::FootballChess => Follower::start(tc, seed, situation).map(Following::FootballChess),
        Rules::BoyerFootball => Follower::start(tc, seed, situation).map(Following::Boyer),
        Rules::ChessEleven => Follower::start(tc, seed, situation).map(Following::Eleven),
    };
    followed.unwrap_or_else(|e| {
        eprintln!("botkit: cannot set up the game ({e}): asking for whole requests");
        Following::Lost
    })
}

/// Moves `follower` on by a version-2 request's `since` and fills in what the request left
/// out. `Err` when the kit lost the game.
fn catch_up<G: Refereed>(
    follower: &mut Follower<G>,
    request: &mut crate::protocol::ToBot<G::Wire>,
) -> Result<(), String> {
    let crate::protocol::ToBot::Request { since, .. } = request else {
        return Ok(());
    };
    if let Some(since) = since.take() {
        follower.apply(&since)?;
    }
    if follower.fill(request) {
        Ok(())
    } else {
        Err("the request's state is not the kit's own game's".to_string())
    }
}

/// The bot's action for a request of the game `rules` names.
fn answer<B: Bot>(
    bot: &mut B,
    rules: Rules,
    following: &mut Following,
    value: Value,
) -> Result<FromBot, serde_json::Error> {
    let delta = value.get("since").is_some();
    // A request without changes carries everything (check-bot's questions): decided as it
    // is, and the kit's game, if any, no longer matches.
    if !delta && !matches!(following, Following::Nothing | Following::Lost) {
        *following = Following::Lost;
    }
    let mut lost = None;
    let (id, action) = match rules {
        Rules::FootballChess => {
            let mut msg: ToBot = serde_json::from_value(value)?;
            if let (true, Following::FootballChess(f)) = (delta, &mut *following) {
                lost = catch_up(f, &mut msg).err();
            }
            match Request::from_message(&msg) {
                Some(req) => {
                    let action = catch_unwind(AssertUnwindSafe(|| bot.decide(&req)))
                        .unwrap_or_else(|_| {
                            eprintln!(
                                "botkit: decide panicked on request {}; answering a fallback",
                                req.id
                            );
                            fallback(&req)
                        });
                    (req.id, action)
                }
                // Left without a state: the kit lost the game.
                None => return Ok(lost_reply(following, request_id(&msg), "pass".into())),
            }
        }
        Rules::BoyerFootball => {
            let mut msg: BoyerToBot = serde_json::from_value(value)?;
            if let (true, Following::Boyer(f)) = (delta, &mut *following) {
                lost = catch_up(f, &mut msg).err();
            }
            let BoyerToBot::Request {
                id,
                side,
                state,
                deadline_ms,
                legal,
                ..
            } = msg
            else {
                unreachable!("a request reads as a request");
            };
            let legal = legal.unwrap_or_default();
            // Left without a state: the kit lost the game.
            let Some(state) = state else {
                let first = legal.first().cloned();
                return Ok(lost_reply(
                    following,
                    id,
                    first.unwrap_or_else(|| "pass".into()),
                ));
            };
            let req = BoyerRequest {
                id,
                side,
                state,
                deadline_ms,
                legal,
            };
            let action =
                catch_unwind(AssertUnwindSafe(|| bot.decide_boyer(&req))).unwrap_or_else(|_| {
                    eprintln!("botkit: decide_boyer panicked; answering a legal sub-move");
                    req.first_legal()
                });
            (id, action)
        }
        Rules::ChessEleven => {
            let mut msg: ElevenToBot = serde_json::from_value(value)?;
            if let (true, Following::Eleven(f)) = (delta, &mut *following) {
                lost = catch_up(f, &mut msg).err();
            }
            let ElevenToBot::Request {
                id,
                decision,
                side,
                state,
                deadline_ms,
                legal,
                ..
            } = msg
            else {
                unreachable!("a request reads as a request");
            };
            let legal = legal.flatten().unwrap_or_default();
            let Some(state) = state else {
                let safe = if decision == "formation" {
                    crate::games::chess_eleven::formation::default_for(side).to_string()
                } else {
                    legal.first().cloned().unwrap_or_else(|| "end".into())
                };
                return Ok(lost_reply(following, id, safe));
            };
            let req = ElevenRequest {
                id,
                decision,
                side,
                state,
                deadline_ms,
                legal,
            };
            let action =
                catch_unwind(AssertUnwindSafe(|| bot.decide_eleven(&req))).unwrap_or_else(|_| {
                    eprintln!("botkit: decide_eleven panicked; answering a safe action");
                    req.safe()
                });
            (id, action)
        }
    };
    if let Some(why) = lost {
        eprintln!("botkit: lost the game ({why}); asking for whole requests from now on");
        *following = Following::Lost;
    }
    // A kit that cannot follow asks each next request to carry everything.
    let want = if matches!(following, Following::Lost) && delta {
        vec![Want::State, Want::Legal]
    } else {
        Vec::new()
    };
    Ok(FromBot::Action { id, action, want })
}

/// The reply of a kit that lost its game to a request without a state: `action`, and a
/// request for everything from now on.
fn lost_reply(following: &mut Following, id: u64, action: String) -> FromBot {
    eprintln!("botkit: a request without a state; answering {action} and asking for everything");
    *following = Following::Lost;
    FromBot::Action {
        id,
        action,
        want: vec![Want::State, Want::Legal],
    }
}

fn request_id(msg: &ToBot) -> u64 {
    match msg {
        ToBot::Request { id, .. } => *id,
        _ => 0,
    }
}

/// Writes one message as a line and flushes it.
fn send(output: &mut impl Write, msg: &FromBot) -> io::Result<()> {
    let line = serde_json::to_string(msg).map_err(io::Error::other)?;
    output.write_all(line.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}

fn clip(line: &str) -> &str {
    match line.char_indices().nth(120) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Settings;

    struct First;
    impl Bot for First {
        fn info(&self) -> BotInfo {
            BotInfo::named("first")
        }
        fn decide(&mut self, req: &Request) -> String {
            fallback(req)
        }
    }

    #[test]
    fn answers_hello_ping_request_and_stops_at_quit() {
        let game = Game::new(Settings::plays(3));
        let req = Request::from_game(7, &game).unwrap();
        let input = format!(
            "\u{feff}{}\n\nnot json\r\n{}\n{}\n{}\n{}\n",
            r#"{"type":"hello","protocol":"zebra","versions":[1],"max_line_bytes":65536,"handshake_ms":10000}"#,
            r#"{"type":"ping","id":3}"#,
            crate::protocol::to_line(&req.to_message()),
            r#"{"type":"quit"}"#,
            r#"{"type":"ping","id":4}"#,
        );
        let mut out = Vec::new();
        run_on(&mut First, 2, input.as_bytes(), &mut out).unwrap();
        let lines: Vec<FromBot> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| crate::protocol::parse_from_bot(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(matches!(&lines[0], FromBot::Ready { version: 1, name, .. } if name == "first"));
        assert_eq!(lines[1], FromBot::Pong { id: 3 });
        let FromBot::Action { id: 7, action, .. } = &lines[2] else {
            panic!("{:?}", lines[2])
        };
        let f: Formation = action.parse().unwrap();
        assert_eq!(game.validate_formation(&f), Ok(()));
    }

    /// Version 2: the kit answers `ready` with 2, keeps its own game from `game_start` and
    /// the requests' `since`, and `decide` gets whole requests: over a game of requests
    /// carrying only the changes (the state on the first alone), it answers exactly what it
    /// answers to the whole requests of version 1.
    #[test]
    fn follows_a_version_2_game_as_if_given_whole_requests() {
        use crate::seam::envelope::{self, Carry};
        use crate::seam::{GameClock, GameSetup};
        let mut setup = GameSetup::of(Rules::FootballChess);
        setup.clock = GameClock::read(Rules::FootballChess, "plays=2").unwrap();
        let (mut game, _, clocks) = <Game as Refereed>::set_up(&setup);
        let start = envelope::game_start(
            &game,
            &setup,
            &clocks,
            Side::White,
            "x".into(),
            Map::new(),
            2,
        );
        let mut input = format!(
            "{}\n{}\n",
            r#"{"type":"hello","protocol":"zebra","versions":[1,2],"max_line_bytes":65536,"handshake_ms":10000}"#,
            crate::protocol::to_line(&start)
        );
        let mut expected = Vec::new();
        let mut since = Vec::new();
        while let Some(d) = game.decision() {
            let id = expected.len() as u64 + 1;
            let budget = game.budget(&clocks);
            let carry = Carry {
                since: Some(std::mem::take(&mut since)),
                state: id == 1,
                legal: id == 1,
            };
            let request = envelope::request(&game, id, d.side, &clocks, &budget, carry);
            input += &(crate::protocol::to_line(&request) + "\n");
            // What the bot answers to the whole request of version 1.
            let action = fallback(&Request::from_game(id, &game).unwrap());
            game.apply(&action.parse().unwrap()).unwrap();
            since.push(action.clone());
            expected.push(action);
        }
        let mut out = Vec::new();
        run_on(&mut First, 2, input.as_bytes(), &mut out).unwrap();
        let replies: Vec<FromBot> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| crate::protocol::parse_from_bot(l).unwrap())
            .collect();
        assert!(
            matches!(replies[0], FromBot::Ready { version: 2, .. }),
            "{:?}",
            replies[0]
        );
        assert_eq!(replies.len(), expected.len() + 1);
        assert!(expected.len() > 20, "{}", expected.len());
        for (reply, action) in replies[1..].iter().zip(&expected) {
            let FromBot::Action {
                action: got, want, ..
            } = reply
            else {
                panic!("{reply:?}")
            };
            assert_eq!((got, want.is_empty()), (action, true));
        }
    }
}
