//! The games Zebra referees, by name: the one list a new rule set is added to.
//!
//! `--rules NAME` on the command line and the `Variant` tag of a record name a game with
//! [`Rules`]; everything that depends on the game dispatches on it once, at the edge.

use std::fmt;
use std::str::FromStr;

/// A game Zebra can referee.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// Football Chess (the official rules v0.1 and protocol/RULES.md).
    #[default]
    FootballChess,
    /// Boyer's Football (1951), exact to its reference implementation (protocol/BOYER.md).
    BoyerFootball,
    /// Chess Eleven (its rules text and protocol/CHESS-ELEVEN.md).
    ChessEleven,
}

impl Rules {
    pub const ALL: [Rules; 3] = [
        Rules::FootballChess,
        Rules::BoyerFootball,
        Rules::ChessEleven,
    ];
    /// Every game's name, for messages that say what is expected.
    pub const NAMES: &'static str = "football-chess, boyer-football or chess-eleven";

    /// The name on the command line, in records (`Variant`) and in `game_start.rules`.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::FootballChess => "football-chess",
            Rules::BoyerFootball => "boyer-football",
            Rules::ChessEleven => "chess-eleven",
        }
    }

    /// The version of the rule text the engine plays (`RulesVersion`).
    pub const fn version(self) -> &'static str {
        match self {
            Rules::FootballChess => "0.1",
            Rules::BoyerFootball => crate::games::boyer::rules::RULES_VERSION,
            Rules::ChessEleven => crate::games::chess_eleven::playout::RULES_VERSION,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown rule-set name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules '{0}'; known: football-chess, boyer-football, chess-eleven")]
pub struct UnknownRules(pub String);

impl FromStr for Rules {
    type Err = UnknownRules;
    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name() == s)
            // Quoted in an error line: control characters and length kept out of it.
            .ok_or_else(|| {
                UnknownRules(
                    s.chars()
                        .take(40)
                        .map(|c| if c.is_control() { '?' } else { c })
                        .collect(),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known() {
        for r in Rules::ALL {
            assert_eq!(r.name().parse::<Rules>(), Ok(r));
            // A series file names the game as the command line does.
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.name()));
            assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
        }
        let e = "chess".parse::<Rules>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown rules 'chess'; known: football-chess, boyer-football, chess-eleven"
        );
        assert_eq!(Rules::default(), Rules::FootballChess);
    }
}
