//! The seam between the referee and a game's rules.
//!
//! The referee drives any rule set through this trait: who decides, which actions are
//! legal, apply one, report a clock. Football Chess is the first implementation; Chess
//! Eleven and Boyer's Football will be others, and the referee will not change for them.

use std::fmt::Display;
use std::str::FromStr;

use super::action::{Action, Clock};
use super::error::{ActionError, NotationError};
use super::event::{Event, GameResult};
use super::game::{Decision, Game};
use super::types::Side;

/// A two-team game the referee can run.
pub trait RuleSet: Clone + Send + 'static {
    /// One decision of one team, written in the rule set's notation.
    type Action: Clone + Display + FromStr<Err = Self::NotationError> + Send;
    /// Something that happened, for records and bots.
    type Event: Clone + Display + Send;
    type Error: std::error::Error + Send + Sync + 'static;
    type NotationError: std::error::Error + Send + Sync + 'static;

    /// The rule set's name and version, for records (`Variant`, `RulesVersion`).
    const NAME: &'static str;
    const VERSION: &'static str;

    /// Who must decide what, or `None` when the game is over.
    fn decision(&self) -> Option<Decision>;
    /// The legal actions where they can be enumerated (empty for formations).
    fn legal(&self) -> Vec<Self::Action>;
    fn play(&mut self, action: &Self::Action) -> Result<Vec<Self::Event>, Self::Error>;
    /// A clock ran out for the deciding team.
    fn clock_expired(&mut self, clock: Clock) -> Result<Vec<Self::Event>, Self::Error>;
    fn result(&self) -> Option<GameResult>;
    fn points(&self, side: Side) -> u16;
}

impl RuleSet for Game {
    type Action = Action;
    type Event = Event;
    type Error = ActionError;
    type NotationError = NotationError;

    const NAME: &'static str = "football-chess";
    const VERSION: &'static str = "0.1";

    fn decision(&self) -> Option<Decision> {
        Game::decision(self)
    }
    fn legal(&self) -> Vec<Action> {
        self.legal_action_list()
    }
    fn play(&mut self, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.apply(action).map(|e| e.to_vec())
    }
    fn clock_expired(&mut self, clock: Clock) -> Result<Vec<Event>, ActionError> {
        self.expire(clock).map(|e| e.to_vec())
    }
    fn result(&self) -> Option<GameResult> {
        Game::result(self)
    }
    fn points(&self, side: Side) -> u16 {
        self.score(side)
    }
}
