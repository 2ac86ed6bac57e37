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
//! - `follow`: a bot's own game, kept in step by version 2's changes

pub mod codec;
pub mod follow;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::Side;

/// The protocol versions this referee speaks: 1 (every request carries the whole state and
/// the legal list) and 2 (requests carry what changed since the bot's last one; see
/// protocol/PROTOCOL.md, "Version 2").
pub const VERSIONS: &[u32] = &[1, 2];
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
        /// The clock as `--tc` text reads it (the record's TimeControl tag): with the
        /// game's name, seed and situation, what sets up the game as the referee does.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        tc: String,
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
        /// Version 2: the record's entries since this bot's previous request (since the
        /// game's start for its first), both sides', as movetext tokens (actions in notation,
        /// `!play-clock` for a clock's expiry). Absent in version 1, and in version 2 for a
        /// request the bot cannot reach by applying entries (check-bot's questions): the
        /// request then carries `state` and `legal`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        since: Option<Vec<String>>,
        /// The whole game. Always in version 1; in version 2 on the bot's first request of
        /// a game and of each play, and when the bot asked for it (so is `legal`).
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        state: Option<W::State>,
        clocks: W::Clocks,
        /// Time left to answer, the one limit that binds this decision.
        deadline_ms: u64,
        /// The legal actions (in notation on the wire), where the game lists them. Always in
        /// version 1; in version 2 as `state`.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        legal: Option<W::Legal>,
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
        /// Version 2: what every request should carry besides the changes ([`Want`]).
        #[serde(
            default,
            deserialize_with = "wants",
            skip_serializing_if = "Vec::is_empty"
        )]
        wants: Vec<Want>,
    },
    Action {
        id: u64,
        #[serde(deserialize_with = "short_text")]
        action: String,
        /// Version 2: what the bot's next request should carry besides the changes.
        #[serde(
            default,
            deserialize_with = "wants",
            skip_serializing_if = "Vec::is_empty"
        )]
        want: Vec<Want>,
    },
    Pong {
        id: u64,
    },
    Log {
        #[serde(deserialize_with = "long_text")]
        message: String,
    },
}

/// What a version-2 bot asks its requests to carry besides the changes: in `ready` for
/// every request, in an `action` for the next one. Words this referee does not know are
/// ignored (a later version may add some).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    /// The whole state.
    State,
    /// The legal list.
    Legal,
    /// `event` messages (only in `ready`): what happened, after every decision.
    Events,
    /// `result` messages for replies that were applied as sent (only in `ready`).
    Results,
    #[serde(other)]
    Unknown,
}

/// What a version-2 bot's requests carry besides the changes, and which messages it gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wants {
    pub state: bool,
    pub legal: bool,
    pub events: bool,
    pub results: bool,
}

impl Wants {
    /// Everything: how a version-1 bot is served.
    pub const ALL: Wants = Wants {
        state: true,
        legal: true,
        events: true,
        results: true,
    };

    /// The wants a list names.
    pub fn of(list: &[Want]) -> Wants {
        let mut wants = Wants::default();
        for want in list {
            match want {
                Want::State => wants.state = true,
                Want::Legal => wants.legal = true,
                Want::Events => wants.events = true,
                Want::Results => wants.results = true,
                Want::Unknown => {}
            }
        }
        wants
    }

    /// Both at once.
    pub fn or(self, other: Wants) -> Wants {
        Wants {
            state: self.state || other.state,
            legal: self.legal || other.legal,
            events: self.events || other.events,
            results: self.results || other.results,
        }
    }
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

/// `wants` and `want`, read leniently: a field of another shape (a version-1 bot's own
/// field of that name) asks for nothing rather than spoiling its message.
fn wants<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Want>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|item| serde_json::from_value(item).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// A field that is present, even as `null` (`Some(None)` for an `Option` payload); absent
/// fields take their default (`None`) instead.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
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
