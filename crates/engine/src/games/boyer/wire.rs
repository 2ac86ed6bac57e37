//! What Boyer's Football puts in the protocol's envelope (PROTOCOL.md, "Rule sets"): a
//! chess clock in `game_start`, the position and the turn's progress in `request`,
//! sub-moves in `event`. Everything else is the envelope every game shares.

use serde::{Deserialize, Serialize};

use crate::games::boyer::rules::{self as boyer, Outcome};
use crate::protocol::{self, NoExtra, Payloads};
use crate::rules::Side;

/// Boyer's Football's payloads in the protocol's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoyerWire {}

impl Payloads for BoyerWire {
    type TimeControl = ChessClockMsg;
    /// Always `sub_move`.
    type Decision = String;
    type State = BoyerState;
    type Clocks = SideClocks;
    /// Every legal sub-move now.
    type Legal = Vec<String>;
    type Extra = NoExtra;
    type Event = BoyerEvent;
}

/// A message from the referee to a Boyer's Football bot.
pub type BoyerToBot = protocol::ToBot<BoyerWire>;

/// The chess clock, as sent in `game_start`: a bank with its increment, or a time per turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessClockMsg {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_ms: Option<u64>,
    pub grace_ms: u64,
}

/// Each side's time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideClocks {
    pub white_ms: u64,
    pub black_ms: u64,
}

/// The position and how far into its turn the side to move is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoyerState {
    /// The placement, side to move and completed turns (the reference's FEN).
    pub fen: String,
    /// Sub-moves made so far in this turn.
    pub made: u8,
    /// Squares of the pieces that kicked this turn (they cannot kick again).
    pub kicked: Vec<String>,
}

impl BoyerState {
    pub fn of(pos: &boyer::Position) -> BoyerState {
        BoyerState {
            fen: pos.to_string(),
            made: pos.made(),
            kicked: pos.kicked().iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The position again (a bot rebuilding it to search); the reason when it is none.
    pub fn position(&self) -> Result<boyer::Position, boyer::BoyerError> {
        let kicked = self
            .kicked
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<boyer::Sq>, _>>()?;
        self.fen
            .parse::<boyer::Position>()?
            .with_progress(self.made, &kicked)
    }
}

/// What happened, for both bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BoyerEvent {
    Played {
        side: Side,
        sub_move: String,
    },
    TurnOver {
        next: Side,
    },
    GameOver {
        outcome: String,
        winner: Option<Side>,
    },
}

impl From<&boyer::Event> for BoyerEvent {
    fn from(e: &boyer::Event) -> BoyerEvent {
        match *e {
            boyer::Event::Played { side, sub } => BoyerEvent::Played {
                side,
                sub_move: sub.to_string(),
            },
            boyer::Event::TurnOver { next } => BoyerEvent::TurnOver { next },
            boyer::Event::GameOver { outcome } => BoyerEvent::GameOver {
                outcome: match outcome {
                    Outcome::Goal(_) => "goal",
                    Outcome::Repetition => "repetition",
                    Outcome::TurnLimit => "turn_limit",
                    Outcome::NoMoves => "no_moves",
                }
                .to_string(),
                winner: outcome.winner(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_rebuilds_its_position_mid_turn() {
        let mut game = boyer::Game::new(boyer::Position::start());
        game.play("d1d5".parse().unwrap()).unwrap();
        let kick = game
            .legal()
            .into_iter()
            .find(|s| matches!(s, boyer::SubMove::Kick { .. }))
            .expect("the queen next to the ball kicks");
        game.play(kick).unwrap();
        assert!(game.position().made() == 2 || game.position().made() == 0);
        let state = BoyerState::of(game.position());
        let back = state.position().unwrap();
        assert_eq!(&back, game.position());
        let text = serde_json::to_string(&state).unwrap();
        let again: BoyerState = serde_json::from_str(&text).unwrap();
        assert_eq!(again, state);
    }
}
