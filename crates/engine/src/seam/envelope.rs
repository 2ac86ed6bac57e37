//! The protocol's messages about a game, built around what the game says: the game gives
//! its payloads ([`Start`], [`Asked`], its events); the envelope (type, ids, side, seed,
//! deadline, the game's name and editions) is written here, once for every game.

use std::time::Duration;

use serde_json::{Map, Value};

use super::{GameSetup, Refereed};
use crate::protocol::{Payloads, ToBot};
use crate::rules::Side;

/// The game's part of `game_start`.
#[derive(Clone, Debug, PartialEq)]
pub struct Start<W: Payloads> {
    /// The clock, as the bot is told it.
    pub time_control: W::TimeControl,
    /// The start situation's text; `None` for the game's usual start.
    pub situation: Option<String>,
}

/// The game's part of a `request`: the state and the legal list when they were wanted
/// ([`Parts`]; a version-2 request leaves them out, and they are not even built).
#[derive(Clone, Debug, PartialEq)]
pub struct Asked<W: Payloads> {
    pub decision: W::Decision,
    pub state: Option<W::State>,
    pub clocks: W::Clocks,
    pub legal: Option<W::Legal>,
    pub extra: W::Extra,
}

/// Which of a request's large parts to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    pub state: bool,
    pub legal: bool,
}

impl Parts {
    /// Both.
    pub const ALL: Parts = Parts {
        state: true,
        legal: true,
    };
}

/// The `game_start` message for `side`, playing `opponent` with its `options` set, in the
/// protocol `version` its bot chose.
pub fn game_start<G: Refereed>(
    game: &G,
    setup: &GameSetup,
    clocks: &G::Clocks,
    side: Side,
    opponent: String,
    options: Map<String, Value>,
    version: u32,
) -> ToBot<G::Wire> {
    let Start {
        time_control,
        situation,
    } = game.start(setup, clocks, side);
    ToBot::GameStart {
        version,
        rules: G::RULES.name().to_string(),
        rules_version: G::VERSION.to_string(),
        rulings: G::RULINGS.to_string(),
        side,
        opponent,
        seed: setup.seed,
        tc: G::time_control(setup).to_string(),
        time_control,
        options,
        situation,
    }
}

/// What a request carries besides its decision, clocks and deadline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carry {
    /// Version 2: the record's entries since the bot's previous request, as tokens.
    pub since: Option<Vec<String>>,
    /// The whole state.
    pub state: bool,
    /// The legal list.
    pub legal: bool,
}

impl Carry {
    /// A version-1 request: the whole state and the legal list, no changes.
    pub fn whole() -> Carry {
        Carry {
            since: None,
            state: true,
            legal: true,
        }
    }
}

/// The request `id` to `side` for the decision due now, bound by `budget`, carrying what
/// `carry` says.
pub fn request<G: Refereed>(
    game: &G,
    id: u64,
    side: Side,
    clocks: &G::Clocks,
    budget: &G::Budget,
    carry: Carry,
) -> ToBot<G::Wire> {
    let Asked {
        decision,
        state,
        clocks,
        legal,
        extra,
    } = game.asked(
        clocks,
        budget,
        Parts {
            state: carry.state,
            legal: carry.legal,
        },
    );
    ToBot::Request {
        id,
        decision,
        side,
        since: carry.since,
        state,
        clocks,
        deadline_ms: millis(G::limit(budget)),
        legal,
        extra,
    }
}

/// The `event` message telling both bots what happened.
pub fn events<G: Refereed>(events: &[G::Event]) -> ToBot<G::Wire> {
    ToBot::Event {
        events: G::told(events),
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}
