//! What Football Chess puts in the protocol's envelope (`protocol/PROTOCOL.md`): the clock
//! of `game_start`, the state snapshot, clocks and legal list of a request with the options
//! of a penalty decision, and its events.
//!
//! - `penalty`: what each choice of a penalty decision leads to, sent with its request
//! - `state`: the game state sent with every request

pub mod penalty;
pub mod state;

use serde::{Deserialize, Serialize};

use crate::protocol::{self, Payloads};
use crate::rules::{Action, DecisionKind, Event};

pub use state::{ClockMsg, ClocksMsg, StateMsg};

/// Football Chess's payloads in the protocol's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FootballChessWire {}

impl Payloads for FootballChessWire {
    type TimeControl = TimeControlMsg;
    type Decision = DecisionKind;
    type State = StateMsg;
    type Clocks = ClocksMsg;
    /// Every legal action, where they can be enumerated (not formations).
    type Legal = Option<Vec<Action>>;
    type Extra = RequestExtra;
    type Event = Event;
}

/// A message from the referee to a Football Chess bot.
pub type ToBot = protocol::ToBot<FootballChessWire>;

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

/// What a Football Chess request adds at its end.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestExtra {
    /// In a `penalty` decision: where each choice of `legal` leads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty_options: Option<Vec<penalty::PenaltyOption>>,
}

impl Serialize for DecisionKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for DecisionKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DecisionKind, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        DecisionKind::ALL
            .into_iter()
            .find(|k| k.code() == s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown decision '{s}'")))
    }
}
