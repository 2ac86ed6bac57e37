//! The bot protocol: one JSON object per line over the bot's stdin and stdout.
//!
//! Every message has a `type`; both sides ignore fields they do not know; durations are
//! integer milliseconds named `*_ms`. protocol/PROTOCOL.md is the contract for bot authors;
//! this module is its one implementation on the referee's side.
//!
//! The envelope is the same for every game ([`ToBot`]): a game fills in only its own parts
//! of `game_start`, `request` and `event` ([`Payloads`]), as typed values in its folder
//! (`crate::games::football_chess::wire`, `crate::games::boyer::wire`).
//! - `codec`: line framing with a hard length limit

pub mod codec;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::Side;

/// The protocol versions this referee speaks.
pub const VERSIONS: &[u32] = &[1];
/// The protocol's name in `hello`.
pub const PROTOCOL_NAME: &str = "zebra";

/// A value a game puts in a message: it is written and read back as JSON.
pub trait Payload: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send {}

impl<T: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send> Payload for T {}

/// A game's own parts of the referee's messages, as typed values (one marker type per
/// game names them): the rest of each message is the envelope, [`ToBot`].
pub trait Payloads: Clone + Debug + PartialEq + Send + 'static {
    /// `game_start`'s `time_control`: the clock as this game states it.
    type TimeControl: Payload;
    /// `request`'s `decision`: what kind of decision is due.
    type Decision: Payload;
    /// `request`'s `state`: the position, complete enough for a stateless bot.
    type State: Payload;
    /// `request`'s `clocks`.
    type Clocks: Payload;
    /// `request`'s `legal`: the legal actions, where the game lists them.
    type Legal: Payload;
    /// Fields a game adds at the end of a `request` ([`NoExtra`] for none).
    type Extra: Payload;
    /// One entry of an `event` message.
    type Event: Payload;
}

/// No fields added to a request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoExtra {}

/// The payloads of no game, for the messages that carry none (`hello`, `result`,
/// `game_end`, `ping`, `quit`): they read the same in every game, and a referee that sends
/// them before or apart from a game writes them as `ToBot<AnyGame>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnyGame {}

impl Payloads for AnyGame {
    type TimeControl = AnyGame;
    type Decision = AnyGame;
    type State = AnyGame;
    type Clocks = AnyGame;
    type Legal = AnyGame;
    type Extra = AnyGame;
    type Event = AnyGame;
}

/// A message from the referee to a bot.
///
/// Requests are large (the whole state) and the others small; boxing the state would only
/// add an allocation to every request, so the size difference is accepted.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", bound = "")]
pub enum ToBot<W: Payloads> {
    Hello {
        protocol: String,
        versions: Vec<u32>,
        max_line_bytes: usize,
        handshake_ms: u64,
    },
    GameStart {
        version: u32,
        /// The game's name (`football-chess`, `boyer-football`).
        rules: String,
        rules_version: String,
        /// The edition of the game's rulings file the referee plays (protocol/RULES.md,
        /// protocol/BOYER.md). Empty when a referee from before the field sent none: a bot
        /// may ignore it.
        #[serde(default)]
        rulings: String,
        side: Side,
        opponent: String,
        seed: u64,
        time_control: W::TimeControl,
        /// The option values set for this bot (declared in its `ready`).
        options: Map<String, Value>,
        /// The start situation's text (Football Chess's `rules::Situation`, Boyer's
        /// Football's FEN); absent for the game's usual start.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        situation: Option<String>,
    },
    Request {
        id: u64,
        decision: W::Decision,
        side: Side,
        state: W::State,
        clocks: W::Clocks,
        /// Time left to answer, the one limit that binds this decision.
        deadline_ms: u64,
        /// The legal actions (in notation on the wire), where the game lists them.
        legal: W::Legal,
        /// What the game adds (Football Chess: `penalty_options`).
        #[serde(flatten)]
        extra: W::Extra,
    },
    Result {
        id: u64,
        status: ReplyStatus,
        elapsed_ms: u64,
        /// The CPU time the bot's process spent on the request (kernel accounting), when
        /// the referee could read it; `null` otherwise (and for late replies).
        #[serde(default)]
        cpu_ms: Option<u64>,
        /// What the referee did: the bot's action, or the consequence applied instead.
        applied: Option<String>,
        reason: Option<String>,
    },
    Event {
        events: Vec<W::Event>,
    },
    GameEnd {
        result: String,
        score: ScoreMsg,
        termination: String,
        reason: String,
    },
    Ping {
        id: u64,
    },
    Quit,
}

/// A message from a bot to the referee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    Ready {
        version: u32,
        #[serde(deserialize_with = "short_text")]
        name: String,
        #[serde(default, deserialize_with = "short_text")]
        author: String,
        #[serde(default, deserialize_with = "short_text")]
        bot_version: String,
        #[serde(default, deserialize_with = "short_texts")]
        capabilities: Vec<String>,
        #[serde(default)]
        options: Vec<OptionDecl>,
    },
    Action {
        id: u64,
        #[serde(deserialize_with = "short_text")]
        action: String,
    },
    Pong {
        id: u64,
    },
    Log {
        #[serde(deserialize_with = "long_text")]
        message: String,
    },
}

/// What became of a bot's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyStatus {
    Ok,
    Illegal,
    Timeout,
    Late,
    /// A second reply to a request already answered.
    Duplicate,
}

/// An option a bot declares in `ready` (UCI-style).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionDecl {
    #[serde(deserialize_with = "short_text")]
    pub name: String,
    #[serde(rename = "type")]
    pub kind: OptionKind,
    #[serde(default)]
    pub default: Value,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default, deserialize_with = "short_texts")]
    pub choices: Vec<String>,
}

// Every string a bot sends is cleaned where it is parsed (see `bot::text`): whatever a bot
// puts in it, it reaches records, reasons and terminals as one line of printable text.
fn short_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(crate::text::clean_owned(
        String::deserialize(d)?,
        crate::text::SHORT,
    ))
}

fn long_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(crate::text::clean_owned(
        String::deserialize(d)?,
        crate::text::LONG,
    ))
}

fn short_texts<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let texts = Vec::<String>::deserialize(d)?;
    Ok(texts
        .into_iter()
        .map(|t| crate::text::clean_owned(t, crate::text::SHORT))
        .collect())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    Int,
    Bool,
    String,
    Choice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreMsg {
    pub white: u16,
    pub black: u16,
}

/// Why a line from a bot is not a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a message: {0}")]
    NotMessage(String),
}

/// Parses one line from a bot.
pub fn parse_from_bot(line: &str) -> Result<FromBot, ParseError> {
    // One pass for the common case; only a line that fails is looked at again, to tell
    // broken JSON from a message of the wrong shape.
    serde_json::from_str(line).map_err(|e| {
        match serde_json::from_str::<serde::de::IgnoredAny>(line) {
            Err(json) => ParseError::NotJson(json.to_string()),
            Ok(_) => ParseError::NotMessage(e.to_string()),
        }
    })
}

/// Serializes a message as one line (no trailing newline).
pub fn to_line<W: Payloads>(msg: &ToBot<W>) -> String {
    serde_json::to_string(msg).expect("protocol messages always serialize")
}
