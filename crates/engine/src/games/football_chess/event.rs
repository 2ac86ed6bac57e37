//! What happened: the events an action caused, in order, for records and bots to replay.

use std::fmt;

use super::penalty::{Foul, FoulKind};
use super::types::{Role, Side, Square};

/// How a play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayEnd {
    Tackle,
    Truck,
    OutOfBounds,
    Incomplete,
    Touchdown,
    /// A contested ball resolved in a pile of two or more (4.2).
    Pile,
    /// R13: the play reached its turn limit.
    Whistle,
}

impl PlayEnd {
    pub const fn code(self) -> &'static str {
        match self {
            PlayEnd::Tackle => "tackle",
            PlayEnd::Truck => "truck",
            PlayEnd::OutOfBounds => "out-of-bounds",
            PlayEnd::Incomplete => "incomplete",
            PlayEnd::Touchdown => "touchdown",
            PlayEnd::Pile => "pile",
            PlayEnd::Whistle => "whistle",
        }
    }
}

/// The final result of a game. Serialized as its PGN token (`"1-0"`, `"0-1"`, `"1/2-1/2"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Side),
    /// R16: level after four quarters.
    Draw,
}

impl GameResult {
    /// PGN-style result: `1-0`, `0-1`, `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Side::White) => "1-0",
            GameResult::Win(Side::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl serde::Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.pgn())
    }
}

impl<'de> serde::Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        [
            GameResult::Win(Side::White),
            GameResult::Win(Side::Black),
            GameResult::Draw,
        ]
        .into_iter()
        .find(|r| r.pgn() == s)
        .ok_or_else(|| {
            serde::de::Error::custom(format!("'{s}' is not a result (1-0, 0-1, 1/2-1/2)"))
        })
    }
}

/// Something that happened on the field. Serialized (for the bot protocol) as an object
/// whose `event` is the variant name in snake case, e.g. `{"event":"tackle","at":"e4"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    FormationSet {
        side: Side,
        pieces: u8,
    },
    /// A pre-snap shift (motion or reaction).
    Shifted {
        side: Side,
        from: Square,
        to: Square,
    },
    Substituted {
        side: Side,
    },
    Snap {
        from: Square,
        to: Square,
    },
    /// No receiver behind the snapper: the ball lies loose here (3.4).
    SnapFumbled {
        at: Square,
    },
    Moved {
        side: Side,
        role: Role,
        from: Square,
        to: Square,
    },
    Pushed {
        from: Square,
        to: Square,
    },
    Handoff {
        from: Square,
        to: Square,
    },
    Tackle {
        at: Square,
    },
    Truck {
        at: Square,
    },
    Thrown {
        from: Square,
        to: Square,
        forward: bool,
    },
    Caught {
        at: Square,
    },
    Intercepted {
        side: Side,
        at: Square,
    },
    Batted {
        at: Square,
    },
    Incomplete,
    Fumble {
        at: Square,
    },
    /// A piece moved onto the loose ball; `pieces` is the size of the pile now.
    Contested {
        side: Side,
        at: Square,
        pieces: u8,
    },
    Recovered {
        side: Side,
        at: Square,
    },
    OutOfBounds {
        at: Square,
    },
    PossessionChanged {
        side: Side,
    },
    Touchdown {
        side: Side,
    },
    Safety {
        side: Side,
    },
    Flag(Foul),
    PenaltyEnforced(Foul),
    PenaltyDeclined {
        kind: FoulKind,
    },
    OffsettingPenalties,
    /// R58: a defense kept fouling where the ball could no longer move; the touchdown it
    /// was preventing is awarded to `side` (a `touchdown` event follows).
    ScoreAwarded {
        side: Side,
    },
    /// R62: the period's time or plays ran out on a defensive foul; one more down is played.
    UntimedDown,
    /// R71: a defensive dead-ball foul at its own 1-yard line on first down, which could
    /// neither move the ball nor give a first down, cost `side` one of its timeouts
    /// (`left` remain). Unlike a called timeout it stops no clock and resets nothing.
    TimeoutCharged {
        side: Side,
        left: u8,
    },
    PlayOver {
        end: PlayEnd,
    },
    FirstDown {
        side: Side,
    },
    TurnoverOnDowns {
        side: Side,
    },
    /// The next play: who has the ball, which down, where.
    NextPlay {
        offense: Side,
        down: u8,
        spot: Square,
        to_gain: u8,
    },
    ClockStopped,
    Timeout {
        side: Side,
        left: u8,
    },
    MissedTurn {
        side: Side,
    },
    Passed {
        side: Side,
    },
    FormationLocked {
        side: Side,
    },
    PeriodEnd {
        quarter: u8,
    },
    GameOver {
        result: GameResult,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Event::*;
        match *self {
            FormationSet { side, pieces } => write!(f, "{side} formation ready ({pieces} pieces)"),
            Shifted { side, from, to } => write!(f, "{side} shift {from}>{to}"),
            Substituted { side } => write!(f, "{side} substitution"),
            Snap { from, to } => write!(f, "snap {from} to {to}"),
            SnapFumbled { at } => write!(f, "snap fumbled, ball loose at {at}"),
            Moved {
                side,
                role,
                from,
                to,
            } => write!(f, "{side} {role} {from}-{to}"),
            Pushed { from, to } => write!(f, "push {from} to {to}"),
            Handoff { from, to } => write!(f, "handoff at {from} to {to}"),
            Tackle { at } => write!(f, "tackle at {at}"),
            Truck { at } => write!(f, "truck at {at}"),
            Thrown { from, to, forward } => {
                write!(
                    f,
                    "{} pass {from} to {to}",
                    if forward {
                        "forward"
                    } else {
                        "backward/lateral"
                    }
                )
            }
            Caught { at } => write!(f, "caught at {at}"),
            Intercepted { side, at } => write!(f, "intercepted by {side} at {at}"),
            Batted { at } => write!(f, "pass batted at {at}"),
            Incomplete => write!(f, "incomplete"),
            Fumble { at } => write!(f, "fumble, ball loose at {at}"),
            Contested { side, at, pieces } => {
                write!(f, "{side} on the ball at {at} ({pieces} in the pile)")
            }
            Recovered { side, at } => write!(f, "{side} recovers at {at}"),
            OutOfBounds { at } => write!(f, "out of bounds at {at}"),
            PossessionChanged { side } => write!(f, "{side} ball"),
            Touchdown { side } => write!(f, "touchdown {side}"),
            Safety { side } => write!(f, "safety, 2 points for {side}"),
            Flag(foul) => write!(f, "flag: {foul}"),
            PenaltyEnforced(foul) => write!(f, "penalty enforced: {foul}"),
            PenaltyDeclined { kind } => write!(f, "penalty declined: {kind}"),
            OffsettingPenalties => write!(f, "offsetting penalties"),
            ScoreAwarded { side } => write!(f, "score awarded to {side} for repeated fouls"),
            UntimedDown => write!(f, "untimed down"),
            TimeoutCharged { side, left } => {
                write!(f, "timeout charged to {side} for its foul ({left} left)")
            }
            PlayOver { end } => write!(f, "play over: {}", end.code()),
            FirstDown { side } => write!(f, "first down {side}"),
            TurnoverOnDowns { side } => write!(f, "turnover on downs by {side}"),
            NextPlay {
                offense,
                down,
                spot,
                to_gain,
            } => {
                write!(
                    f,
                    "{offense} ball, down {down}, at {spot}, to gain rank {to_gain}"
                )
            }
            ClockStopped => write!(f, "clock stopped"),
            Timeout { side, left } => write!(f, "timeout {side} ({left} left)"),
            MissedTurn { side } => write!(f, "{side} missed its turn"),
            Passed { side } => write!(f, "{side} passes"),
            FormationLocked { side } => write!(f, "{side} formation locked"),
            PeriodEnd { quarter } => write!(f, "end of quarter {quarter}"),
            GameOver { result } => write!(f, "game over {}", result.pgn()),
        }
    }
}
