//! Each game's side of the seam: what the record layer ([`crate::record::Recorded`]) and
//! the referee ([`crate::referee::Refereed`]) need of a rule set besides its pure rules
//! (which live in `crate::rules`). One module per game; [`with_rules!`] is the one place
//! that maps a [`crate::rules::Rules`] name to its engine type.
//!
//! - `football_chess`: Football Chess (`crate::rules::Game`)
//! - `boyer`: Boyer's Football (`crate::rules::boyer::Game`)

pub mod boyer;
pub mod football_chess;

/// Runs `$body` with `$R` standing for the engine type of the game `$rules` names: the
/// registry's dispatch, written once. The body must compile for every game.
///
/// ```
/// use zebra_engine::rules::{ruleset::RuleSet, Rules};
/// let name = zebra_engine::with_rules!(Rules::BoyerFootball, R => <R as RuleSet>::NAME);
/// assert_eq!(name, "boyer-football");
/// ```
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $R:ident => $body:expr) => {
        match $rules {
            $crate::rules::Rules::FootballChess => {
                type $R = $crate::rules::Game;
                $body
            }
            $crate::rules::Rules::BoyerFootball => {
                type $R = $crate::rules::boyer::Game;
                $body
            }
        }
    };
}
