//! What Chess Eleven puts in the protocol's envelope (protocol/PROTOCOL.md, "Chess
//! Eleven"): its clock in `game_start`; in `request` the decision (`formation`, `go`,
//! `continue`), the state (the position text of C53 and the same facts as fields), the
//! clocks and the legal actions; its events.

use serde::{Deserialize, Serialize};

use crate::protocol::{self, NoExtra, Payloads};
use crate::rules::Side;

use super::clock::{Clocks, ElevenClock, HalfClock};
use super::formation::role_name;
use super::game::{Game, Phase};
use super::position::{Event, RoundEnd};

/// Chess Eleven's payloads in the protocol's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChessElevenWire {}

impl Payloads for ChessElevenWire {
    type TimeControl = ElevenClockMsg;
    /// `formation`, `go` or `continue`.
    type Decision = String;
    type State = ElevenState;
    type Clocks = ElevenClocksMsg;
    /// The legal actions; `null` for a formation.
    type Legal = Option<Vec<String>>;
    type Extra = NoExtra;
    type Event = ElevenEvent;
}

/// A message from the referee to a Chess Eleven bot.
pub type ElevenToBot = protocol::ToBot<ChessElevenWire>;

/// The clock, as sent in `game_start` (C50).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElevenClockMsg {
    /// Each half's clock, for the live form; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_ms: Option<u64>,
    /// Goes per half, for the counted form; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns_per_half: Option<u16>,
    /// The goal target, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goals: Option<u16>,
    /// The cap on goes of a game without halves; absent with halves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<u16>,
    pub move_ms: u64,
    pub formation_ms: u64,
    pub grace_ms: u64,
}

impl ElevenClockMsg {
    pub fn of(c: &ElevenClock) -> ElevenClockMsg {
        let ms = |d: std::time::Duration| d.as_millis() as u64;
        ElevenClockMsg {
            half_ms: match c.halves {
                HalfClock::Timed(d) => Some(ms(d)),
                _ => None,
            },
            turns_per_half: match c.halves {
                HalfClock::Goes(n) => Some(n),
                _ => None,
            },
            goals: c.goals,
            cap: (c.halves == HalfClock::None).then_some(c.cap),
            move_ms: ms(c.decision),
            formation_ms: ms(c.formation),
            grace_ms: ms(c.grace),
        }
    }
}

/// The clocks in a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElevenClocksMsg {
    /// What is left of the half clock (live form only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_left_ms: Option<u64>,
}

impl ElevenClocksMsg {
    pub fn of(clocks: &Clocks) -> ElevenClocksMsg {
        ElevenClocksMsg {
            half_left_ms: clocks.half_left.map(|d| d.as_millis() as u64),
        }
    }
}

/// The game's state in a request: enough for a stateless bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElevenState {
    /// `formation` between rounds, `play` in a round.
    pub phase: String,
    pub score: [u16; 2],
    /// 1 or 2.
    pub half: u8,
    /// Goes played in this half.
    pub goes: u16,
    /// Who kicks off the round being formed (formations only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kick_off: Option<Side>,
    /// Whether the deciding side may field its substitute for a pawn (formations only, C13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub substitute: bool,
    /// The position text (C53), in a round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

impl ElevenState {
    pub fn of(game: &Game, side: Side) -> ElevenState {
        let score = game.score();
        match game.phase() {
            Phase::Forming(f) => ElevenState {
                phase: "formation".to_string(),
                score,
                half: f.half,
                goes: f.goes,
                kick_off: Some(f.kick_off),
                substitute: f.substitute == Some(side),
                position: None,
            },
            Phase::Play(p) => ElevenState {
                phase: "play".to_string(),
                score,
                half: p.half(),
                goes: p.goes(),
                kick_off: None,
                substitute: false,
                position: Some(p.to_string()),
            },
            Phase::Over { .. } => ElevenState {
                phase: "over".to_string(),
                score,
                half: 2,
                goes: 0,
                kick_off: None,
                substitute: false,
                position: None,
            },
        }
    }
}

/// What happened, for both bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ElevenEvent {
    /// Both formations are in; the round's position.
    KickOff {
        side: Side,
    },
    Moved {
        side: Side,
        from: String,
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        captured: Option<String>,
    },
    TookBall {
        side: Side,
        at: String,
    },
    Passed {
        side: Side,
        from: String,
        to: String,
    },
    Shot {
        side: Side,
        from: String,
        to: String,
        /// `goal`, `save`, `block` or `corner`.
        outcome: String,
    },
    Corner {
        side: Side,
        at: String,
    },
    GoalKick {
        side: Side,
        at: String,
    },
    GoEnded {
        next: Side,
    },
    /// The round ended: `goal`, `checkmate` or `stalemate`; the side that scored, mated or
    /// was stalemated.
    RoundOver {
        end: String,
        side: Side,
        score: [u16; 2],
    },
    HalfTime,
    GameOver {
        score: [u16; 2],
    },
}

impl From<&Event> for ElevenEvent {
    fn from(e: &Event) -> ElevenEvent {
        let s = |sq: &super::board::Sq| sq.to_string();
        match e {
            Event::KickOff { side } => ElevenEvent::KickOff { side: *side },
            Event::Moved {
                side,
                from,
                to,
                promotion,
                captured,
            } => ElevenEvent::Moved {
                side: *side,
                from: s(from),
                to: s(to),
                promotion: promotion.map(|r| role_name(r).to_string()),
                captured: captured.map(|r| role_name(r).to_string()),
            },
            Event::TookBall { side, at } => ElevenEvent::TookBall {
                side: *side,
                at: s(at),
            },
            Event::Passed { side, from, to } => ElevenEvent::Passed {
                side: *side,
                from: s(from),
                to: s(to),
            },
            Event::Shot {
                side,
                from,
                to,
                outcome,
                ..
            } => ElevenEvent::Shot {
                side: *side,
                from: s(from),
                to: s(to),
                outcome: outcome.name().to_string(),
            },
            Event::Corner { side, at } => ElevenEvent::Corner {
                side: *side,
                at: s(at),
            },
            Event::GoalKick { side, at } => ElevenEvent::GoalKick {
                side: *side,
                at: s(at),
            },
            Event::GoEnded { next } => ElevenEvent::GoEnded { next: *next },
            Event::RoundOver { end, score } => {
                let (name, side) = match *end {
                    RoundEnd::Goal { by } => ("goal", by),
                    RoundEnd::Checkmate { by } => ("checkmate", by),
                    RoundEnd::Stalemate { side } => ("stalemate", side),
                };
                ElevenEvent::RoundOver {
                    end: name.to_string(),
                    side,
                    score: *score,
                }
            }
            Event::HalfTime => ElevenEvent::HalfTime,
            Event::GameOver { score } => ElevenEvent::GameOver { score: *score },
        }
    }
}
