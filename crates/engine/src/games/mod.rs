//! The games, one folder each: a game's rules engine, its clocks, its wire payloads and
//! its side of the seam (what the records, [`crate::record::Recorded`], the referee,
//! [`crate::seam::Refereed`], and check-bot, [`crate::seam::Checked`], need of it) live
//! together. [`with_rules!`] is the one place that maps a [`crate::rules::Rules`] name to
//! its engine type.
//!
//! - `football_chess`: Football Chess (`football_chess::Game`)
//! - `boyer`: Boyer's Football (`boyer::rules::Game`)

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
                type $R = $crate::games::football_chess::Game;
                $body
            }
            $crate::rules::Rules::BoyerFootball => {
                type $R = $crate::games::boyer::rules::Game;
                $body
            }
        }
    };
}
