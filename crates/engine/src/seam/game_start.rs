//! Where one game starts instead of its usual start, as its own game parsed it, held under
//! one type for every game (as [`super::GameClock`] holds a clock).
//!
//! Each game names its start type (`Refereed::Start`: Football Chess's drive situation,
//! Boyer's FEN, Chess Eleven's position text) and parses the text of a book line or
//! `--start` into it once, where the game is chosen.

use std::fmt;

use super::game_clock::Held;
use super::Refereed;
use crate::rules::Rules;

/// A game's parsed start, and the game it belongs to.
#[derive(Clone, PartialEq, Eq)]
pub struct GameStart(Held);

impl GameStart {
    /// The start `value` of game `G`.
    pub fn new<G: Refereed>(value: G::Start) -> GameStart {
        GameStart(Held::new(G::RULES, value))
    }

    /// Reads `text` as a start of the game `rules` names; the game's own words when it is
    /// not one.
    pub fn read(rules: Rules, text: &str) -> Result<GameStart, String> {
        crate::with_rules!(rules, G => <G as Refereed>::parse_start(text.trim()).map(GameStart::new::<G>))
    }

    /// The game this start belongs to.
    pub fn rules(&self) -> Rules {
        self.0.rules()
    }

    /// The start as game `G` parsed it (dispatch on [`GameStart::rules`] first).
    pub fn get<G: Refereed>(&self) -> &G::Start {
        self.0.get(G::RULES, "start")
    }
}

impl fmt::Display for GameStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.text())
    }
}

impl fmt::Debug for GameStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameStart({}: {})", self.0.rules(), self.0.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess_eleven::Game as ChessEleven;
    use crate::games::football_chess::Game as FootballChess;

    #[test]
    fn a_start_is_read_by_its_own_game_and_reads_back_the_same() {
        let fc =
            "quarter=4 left=10% score=14-17 offense=white spot=e3 down=3 distance=10 timeouts=1-2";
        let start = GameStart::read(Rules::FootballChess, fc).unwrap();
        assert_eq!(start.rules(), Rules::FootballChess);
        assert_eq!(start.get::<FootballChess>().to_string(), start.to_string());
        let again = GameStart::read(Rules::FootballChess, &start.to_string()).unwrap();
        assert_eq!(again, start);
        let c11 = "7k/3Q4/8/8/8/8/8/3K4 w d7 m - 0-0 1.0 0";
        let start = GameStart::read(Rules::ChessEleven, c11).unwrap();
        assert_eq!(start.get::<ChessEleven>().to_string(), c11);
        let boyer = crate::games::boyer::rules::Position::start().to_string();
        let start = GameStart::read(Rules::BoyerFootball, &boyer).unwrap();
        assert_eq!(start.to_string(), boyer);
        // Each game's own words for a text it does not read.
        assert!(GameStart::read(Rules::ChessEleven, fc).is_err());
        assert!(GameStart::read(Rules::FootballChess, c11).is_err());
        assert!(GameStart::read(Rules::BoyerFootball, c11)
            .unwrap_err()
            .contains("FEN"));
    }

    #[test]
    #[should_panic(expected = "a chess-eleven start was read as a football-chess start")]
    fn reading_a_start_as_another_games_is_a_bug_that_says_so() {
        GameStart::read(
            Rules::ChessEleven,
            "7k/3Q4/8/8/8/8/8/3K4 w d7 m - 0-0 1.0 0",
        )
        .unwrap()
        .get::<FootballChess>();
    }
}
