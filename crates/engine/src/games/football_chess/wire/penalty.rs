//! The penalty preview sent with a `penalty` request: for each choice the deciding team
//! has (accept one of the flags, or decline), where the game then stands: the offense,
//! the spot, down and distance, and the score. A bot can weigh its choices without a
//! penalty table of its own.
//!
//! Each entry is made by applying that choice to a copy of the game, so the preview is
//! exactly what the referee does when the bot picks it.

use serde::{Deserialize, Serialize};

use super::state::{PerSide, StateMsg};
use crate::rules::{Action, DecisionKind, Game, Side, Square};

/// Where the game stands after one choice of a penalty decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PenaltyOption {
    /// The choice, as in `legal` (`accept:holding`, `decline`).
    pub action: Action,
    /// The team with the ball for the next play.
    pub offense: Side,
    pub spot: Square,
    pub down: u8,
    pub line_to_gain: u8,
    pub yards_to_go: u8,
    pub goal_to_go: bool,
    /// The score after the choice (a score may stand, fall or be awarded).
    pub score: PerSide,
}

/// The preview of `game`'s pending decision, if it is a penalty decision.
pub fn preview(game: &Game) -> Option<Vec<PenaltyOption>> {
    if game.decision()?.kind != DecisionKind::PenaltyChoice {
        return None;
    }
    let options = game
        .legal_action_list()
        .into_iter()
        .filter_map(|action| {
            let mut after = game.clone();
            after.apply(&action).ok()?;
            let s = StateMsg::of(&after);
            Some(PenaltyOption {
                action,
                offense: s.offense,
                spot: s.spot,
                down: s.down,
                line_to_gain: s.line_to_gain,
                yards_to_go: s.yards_to_go,
                goal_to_go: s.goal_to_go,
                score: s.score,
            })
        })
        .collect();
    Some(options)
}
