//! One game's clock as its own game parsed it, held under one type for every game.
//!
//! Each game names its clock type (`Refereed::TimeControl`: Football Chess's rule 6
//! clocks, Boyer's chess clock, ...) and parses `--tc` text into it once, where the game is
//! chosen. A [`GameClock`] carries that value with the game it belongs to, so the setup of
//! a game ([`super::GameSetup`]) is the same type whatever the game, and a third clock kind
//! adds no field anywhere: only the game that made a clock reads it back
//! ([`GameClock::get`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use super::{Refereed, TimeControlError};
use crate::rules::Rules;

/// A value of one game's own type (a clock, a start) with that game and its canonical
/// text: the same type whatever the game, read back only by the game that made it.
#[derive(Clone)]
pub(crate) struct Held {
    rules: Rules,
    value: Arc<dyn Any + Send + Sync>,
    /// The canonical text, which reads back as the same value.
    text: Arc<str>,
}

impl Held {
    pub(crate) fn new<T: fmt::Display + Send + Sync + 'static>(rules: Rules, value: T) -> Held {
        Held {
            rules,
            text: value.to_string().into(),
            value: Arc::new(value),
        }
    }

    pub(crate) fn rules(&self) -> Rules {
        self.rules
    }

    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The value as game `game`'s `T` (`what` it is, for the message of a misdispatch).
    pub(crate) fn get<T: 'static>(&self, game: Rules, what: &str) -> &T {
        match self.value.downcast_ref::<T>() {
            Some(value) if game == self.rules => value,
            _ => panic!(
                "a {} {what} was read as a {game} {what}: dispatch on the {what}'s own game",
                self.rules
            ),
        }
    }
}

impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        self.rules == other.rules && self.text == other.text
    }
}

impl Eq for Held {}

/// A game's parsed clock, and the game it belongs to (which cannot be set apart from it).
#[derive(Clone, PartialEq, Eq)]
pub struct GameClock(Held);

impl GameClock {
    /// The clock `value` of game `G`.
    pub fn new<G: Refereed>(value: G::TimeControl) -> GameClock {
        GameClock(Held::new(G::RULES, value))
    }

    /// Reads `text` as a clock of the game `rules` names.
    pub fn read(rules: Rules, text: &str) -> Result<GameClock, TimeControlError> {
        crate::with_rules!(rules, G => <G as Refereed>::parse_clock(text).map(GameClock::new::<G>))
    }

    /// The clock a game of `rules` gets when none is named (its `DEFAULT_CLOCK`).
    pub(crate) fn default_of(rules: Rules) -> GameClock {
        crate::with_rules!(rules, G => {
            let value = <G as Refereed>::parse_clock(<G as Refereed>::DEFAULT_CLOCK)
                .expect("every game's default clock reads (a test of each game says so)");
            GameClock::new::<G>(value)
        })
    }

    /// The game this clock belongs to.
    pub fn rules(&self) -> Rules {
        self.0.rules()
    }

    /// The clock as game `G` parsed it. Only `G`'s own code asks, after dispatching on
    /// [`GameClock::rules`] (the referee's `with_rules!`): the clock's game and `G` are the
    /// same by construction, since a clock is only ever made with its game.
    pub fn get<G: Refereed>(&self) -> &G::TimeControl {
        self.0.get(G::RULES, "clock")
    }
}

impl fmt::Display for GameClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.text())
    }
}

impl fmt::Debug for GameClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameClock({}: {})", self.0.rules(), self.0.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::boyer::rules::Game as Boyer;
    use crate::games::football_chess::Game as FootballChess;
    use crate::seam::chess_clock::ChessClock;
    use crate::seam::TimeControl;

    #[test]
    fn every_games_default_clock_reads_and_reads_back_the_same() {
        for rules in Rules::ALL {
            let clock = GameClock::default_of(rules);
            assert_eq!(clock.rules(), rules);
            let again = GameClock::read(rules, &clock.to_string()).unwrap();
            assert_eq!(again, clock);
        }
    }

    #[test]
    fn a_clock_is_read_by_its_own_game_into_its_own_type() {
        let fc = GameClock::read(Rules::FootballChess, "plays=4,play=2s,reaction=500ms").unwrap();
        assert_eq!(
            *fc.get::<FootballChess>(),
            TimeControl::parse("plays=4,play=2s,reaction=500ms").unwrap()
        );
        assert_eq!(fc.to_string(), "plays=4,play=2s,reaction=500ms,grace=100ms");
        let boyer = GameClock::read(Rules::BoyerFootball, "blitz").unwrap();
        assert_eq!(*boyer.get::<Boyer>(), ChessClock::blitz());
        // Each game's own words for a clock it does not read.
        assert!(GameClock::read(Rules::BoyerFootball, "plays=4").is_err());
        assert!(GameClock::read(Rules::FootballChess, "bank=10s,inc=1s").is_err());
    }

    #[test]
    #[should_panic(expected = "a boyer-football clock was read as a football-chess clock")]
    fn reading_a_clock_as_another_games_is_a_bug_that_says_so() {
        GameClock::read(Rules::BoyerFootball, "rapid")
            .unwrap()
            .get::<FootballChess>();
    }
}
