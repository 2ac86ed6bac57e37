//! The bot protocol: one JSON object per line over the bot's stdin and stdout.
//!
//! Every message has a `type`; both sides ignore fields they do not know; durations are
//! integer milliseconds named `*_ms`. protocol/PROTOCOL.md is the contract for bot authors;
//! this module is its one implementation on the referee's side.
//!
//! (Boyer's Football's messages that differ are its own: `crate::games::boyer::wire`.)
//! - `codec`: line framing with a hard length limit
//! - `penalty`: what each choice of a penalty decision leads to, sent with its request
//! - `state`: the game state sent with every request

pub mod codec;

// Each game's own payloads live in its folder; these are their paths from before.
pub use crate::games::football_chess::wire::{penalty, state};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::{Action, DecisionKind, Event, Side};

pub use state::{ClockMsg, ClocksMsg, StateMsg};

/// The protocol versions this referee speaks.
pub const VERSIONS: &[u32] = &[1];
/// The protocol's name in `hello`.
pub const PROTOCOL_NAME: &str = "zebra";

/// A message from the referee to a bot.
///
/// Requests are large (the whole state) and the others small; boxing the state would only
/// add an allocation to every request, so the size difference is accepted.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    Hello {
        protocol: String,
        versions: Vec<u32>,
        max_line_bytes: usize,
        handshake_ms: u64,
    },
    GameStart {
        version: u32,
        rules: String,
        rules_version: String,
        /// The edition of protocol/RULES.md the referee plays
        /// ([`crate::rules::RULINGS_EDITION`]). Empty when a referee from before the field
        /// sent none: a bot may ignore it.
        #[serde(default)]
        rulings: String,
        side: Side,
        opponent: String,
        seed: u64,
        time_control: TimeControlMsg,
        /// The option values set for this bot (declared in its `ready`).
        options: Map<String, Value>,
        /// The start situation's text (`rules::Situation`); absent for the opening drive.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        situation: Option<String>,
    },
    Request {
        id: u64,
        decision: DecisionKind,
        side: Side,
        state: StateMsg,
        clocks: ClocksMsg,
        /// Time left to answer, the one limit that binds this decision.
        deadline_ms: u64,
        /// Every legal action (in notation on the wire), where they can be enumerated (not
        /// formations).
        legal: Option<Vec<Action>>,
        /// In a `penalty` decision: where each choice of `legal` leads.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        penalty_options: Option<Vec<penalty::PenaltyOption>>,
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
        events: Vec<Event>,
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

/// The time control, as sent in `game_start`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeControlMsg {
    /// Wall time per quarter, or `null` when quarters are counted in plays.
    pub quarter_ms: Option<u64>,
    pub plays_per_quarter: Option<u16>,
    pub play_ms: u64,
    pub reaction_ms: u64,
    pub grace_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreMsg {
    pub white: u16,
    pub black: u16,
}

impl serde::Serialize for DecisionKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for DecisionKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DecisionKind, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        DecisionKind::ALL
            .into_iter()
            .find(|k| k.code() == s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown decision '{s}'")))
    }
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
pub fn to_line(msg: &ToBot) -> String {
    serde_json::to_string(msg).expect("protocol messages always serialize")
}
