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
use super::game::{DecisionKind, Game, Settings};
use super::types::Side;

/// A two-team game the referee can run.
pub trait RuleSet: Clone + Send + 'static {
    /// One decision of one team, written in the rule set's notation.
    type Action: Clone + Display + FromStr<Err = Self::NotationError> + Send;
    /// Something that happened, for records and bots.
    type Event: Clone + Display + Send;
    type Error: std::error::Error + Send + Sync + 'static;
    type NotationError: std::error::Error + Send + Sync + 'static;
    /// The kinds of decision the game asks for (a closed set per rule set).
    type DecisionKind: Copy + Eq + Display + Send;
    /// What a game is created with (quarter length, match length, board variant...).
    type Settings: Clone + Send;

    /// The rule set's entry in the registry, and its name and version, for records
    /// (`Variant`, `RulesVersion`).
    const RULES: super::Rules;
    const NAME: &'static str = Self::RULES.name();
    const VERSION: &'static str;

    fn new_game(settings: &Self::Settings) -> Self;
    /// Who must decide what, or `None` when the game is over.
    fn to_decide(&self) -> Option<(Side, Self::DecisionKind)>;
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
    type DecisionKind = DecisionKind;
    type Settings = Settings;

    const RULES: super::Rules = super::Rules::FootballChess;
    const VERSION: &'static str = "0.1";

    fn new_game(settings: &Settings) -> Game {
        Game::new(*settings)
    }
    fn to_decide(&self) -> Option<(Side, DecisionKind)> {
        self.decision().map(|d| (d.side, d.kind))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A referee written against the trait alone: plays random legal actions, forming with
    /// the engine's random player where the rule set cannot enumerate.
    fn drive<R: RuleSet>(mut game: R, mut form: impl FnMut(&R) -> R::Action) -> (R, usize) {
        let mut steps = 0;
        while let Some((_side, _kind)) = game.to_decide() {
            let legal = game.legal();
            let action = if legal.is_empty() {
                form(&game)
            } else {
                legal[steps % legal.len()].clone()
            };
            let text = action.to_string();
            let reparsed: R::Action = text.parse().expect("notation round-trips");
            game.play(&reparsed).expect("a legal action");
            steps += 1;
        }
        (game, steps)
    }

    #[test]
    fn a_generic_driver_finishes_a_football_chess_game() {
        let mut player = crate::rules::playout::RandomPlayer::new(9);
        let (game, steps) = drive(
            <Game as RuleSet>::new_game(&Settings::plays(3)),
            |g: &Game| {
                let side = g.to_decide().expect("a decision").0;
                Action::Formation(player.formation(g, side))
            },
        );
        assert!(game.result().is_some());
        assert!(steps > 20);
        assert_eq!(<Game as RuleSet>::NAME, "football-chess");
    }
}
