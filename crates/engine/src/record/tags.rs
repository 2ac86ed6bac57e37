//! The tag pairs of a record, kept in the canonical order, and the values with a meaning.
//!
//! The order is PGN's seven-tag roster, then the Football Chess tags in a fixed order, then
//! any other tag in the order it was given. Keeping [`Tags`] in that order at every `set`
//! means that a record written, read and written again comes out byte for byte the same,
//! whatever order a program or a hand-edited file gave the tags in.

use std::fmt;
use std::str::FromStr;

use super::error::{OtherEdition, RecordError};
use crate::rules::{GameResult, QuarterLength, Settings, Side};

pub const EVENT: &str = "Event";
pub const SITE: &str = "Site";
pub const DATE: &str = "Date";
pub const ROUND: &str = "Round";
pub const WHITE: &str = "White";
pub const BLACK: &str = "Black";
pub const RESULT: &str = "Result";
pub(crate) const VARIANT: &str = "Variant";
pub(crate) const RULES_VERSION: &str = "RulesVersion";
pub const RULINGS: &str = "Rulings";
pub const SCORE: &str = "Score";
pub const TIME_CONTROL: &str = "TimeControl";
pub const QUARTER_LENGTH: &str = "QuarterLength";
pub const SEED: &str = "Seed";
pub const TERMINATION: &str = "Termination";
pub const TERMINATION_REASON: &str = "TerminationReason";
pub(crate) const SET_UP: &str = "SetUp";
/// The start situation of a game that did not start from the opening drive (with
/// `SetUp "1"`, as PGN's FEN): `rules::Situation`'s text.
pub(crate) const SITUATION: &str = "Situation";
pub const WHITE_VERSION: &str = "WhiteVersion";
pub const BLACK_VERSION: &str = "BlackVersion";

/// The value of the Rulings tag: the edition of protocol/RULES.md the engine plays. A record
/// without the tag was played under edition 1.
pub const RULINGS_VALUE: &str = crate::rules::RULINGS_EDITION;
/// The edition of a record without a Rulings tag: everything written before the tag.
pub(crate) const RULINGS_UNTAGGED: &str = "1";

/// PGN's seven-tag roster, which every written record carries.
pub(crate) const ROSTER: [&str; 7] = [EVENT, SITE, DATE, ROUND, WHITE, BLACK, RESULT];

/// The canonical order of the known tags; unknown tags follow in the order given.
pub const ORDER: [&str; 18] = [
    EVENT,
    SITE,
    DATE,
    ROUND,
    WHITE,
    BLACK,
    RESULT,
    VARIANT,
    RULES_VERSION,
    RULINGS,
    SCORE,
    TIME_CONTROL,
    QUARTER_LENGTH,
    SEED,
    TERMINATION,
    TERMINATION_REASON,
    WHITE_VERSION,
    BLACK_VERSION,
];

fn rank(name: &str) -> usize {
    ORDER.iter().position(|&n| n == name).unwrap_or(ORDER.len())
}

/// Tag pairs in the canonical order (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    pairs: Vec<(String, String)>,
}

impl Tags {
    pub fn new() -> Tags {
        Tags::default()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag: replaces its value, or inserts it at its canonical place.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let (name, value) = (name.into(), value.into());
        if let Some(pair) = self.pairs.iter_mut().find(|(n, _)| *n == name) {
            pair.1 = value;
            return;
        }
        let r = rank(&name);
        let at = if r == ORDER.len() {
            self.pairs.len()
        } else {
            self.pairs
                .iter()
                .position(|(n, _)| rank(n) > r)
                .unwrap_or(self.pairs.len())
        };
        self.pairs.insert(at, (name, value));
    }

    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.pairs.iter().position(|(n, _)| n == name)?;
        Some(self.pairs.remove(i).1)
    }

    /// The pairs in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Adds the roster tags that are missing, with PGN's values for "unknown"; a missing
    /// Result gets `result`.
    pub(crate) fn fill_roster(&mut self, result: &str) {
        for name in ROSTER {
            if self.get(name).is_none() {
                let value = match name {
                    DATE => "????.??.??",
                    RESULT => result,
                    _ => "?",
                };
                self.set(name, value);
            }
        }
    }
}

/// A tag name the reader accepts: letters, digits and `_`.
pub(crate) fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How a game ended (the Termination tag), with PGN's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The engine says the game is over; the Result is the engine's.
    Normal,
    /// A team overran a limit the engine does not judge (e.g. the referee's hard limits).
    TimeForfeit,
    /// A team sent something the engine rejects, or broke the protocol.
    RulesInfraction,
    /// A bot crashed, closed its pipe, or never completed the handshake.
    Abandoned,
    /// The user stopped the game.
    Unterminated,
    /// The referee stopped the game at its wall-time cap (`--max-game-time`) and decided
    /// the result by the game's adjudication rule ([`super::Recorded::adjudicate`]).
    Adjudication,
}

impl Termination {
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::TimeForfeit,
        Termination::RulesInfraction,
        Termination::Abandoned,
        Termination::Unterminated,
        Termination::Adjudication,
    ];

    pub(crate) const EXPECTED: &'static str =
        "normal, time forfeit, rules infraction, abandoned, unterminated or adjudication";

    pub const fn code(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::Unterminated => "unterminated",
            Termination::Adjudication => "adjudication",
        }
    }

    /// Whether the Result must name a winner: a forfeit is lost by someone. Abandoned and
    /// unterminated games may also be drawn (`1/2-1/2`) or left open (`*`).
    pub const fn needs_winner(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit | Termination::RulesInfraction
        )
    }

    /// Whether the loser of a game that ended so lost it by forfeit (its own fault): every
    /// early end but an adjudication, which decides a game the rules had not finished.
    pub const fn forfeits(self) -> bool {
        !matches!(self, Termination::Normal | Termination::Adjudication)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Termination {
    type Err = ();
    fn from_str(s: &str) -> Result<Termination, ()> {
        Termination::ALL
            .into_iter()
            .find(|t| t.code() == s)
            .ok_or(())
    }
}

/// The PGN result token: `1-0`, `0-1`, `1/2-1/2`, or `*` when unknown.
pub const fn result_token(result: Option<GameResult>) -> &'static str {
    match result {
        Some(r) => r.pgn(),
        None => "*",
    }
}

/// Parses a result token; `Some(None)` is `*`.
pub fn parse_result(token: &str) -> Option<Option<GameResult>> {
    match token {
        "1-0" => Some(Some(GameResult::Win(Side::White))),
        "0-1" => Some(Some(GameResult::Win(Side::Black))),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// The Score tag's value: white's points, a dash, black's.
pub fn score_value<R: crate::rules::ruleset::RuleSet>(game: &R) -> String {
    format!("{}-{}", game.points(Side::White), game.points(Side::Black))
}

/// The QuarterLength tag's value: `timed`, or the number of plays.
pub(crate) fn quarter_length_value(settings: Settings) -> String {
    match settings.quarter {
        QuarterLength::Timed => "timed".to_string(),
        QuarterLength::Plays(n) => n.to_string(),
    }
}

/// Whether the engine judges a record with these tags: its Rulings tag names the engine's
/// edition. A record without the tag was played under edition 1.
pub(crate) fn rulings_from(tags: &Tags, edition: &str) -> Result<(), OtherEdition> {
    match tags.get(RULINGS) {
        Some(value) if value == edition => Ok(()),
        other => Err(OtherEdition::new(other, edition)),
    }
}

/// The start situation named by the Situation tag, if there is one.
pub(crate) fn situation_from(tags: &Tags) -> Result<Option<crate::rules::Situation>, RecordError> {
    tags.get(SITUATION)
        .map(|value| {
            value.parse().map_err(|error| RecordError::BadSituation {
                value: super::error::quote(value),
                error,
            })
        })
        .transpose()
}

/// The settings named by the QuarterLength tag.
pub(crate) fn settings_from(tags: &Tags) -> Result<Settings, RecordError> {
    let value = tags
        .get(QUARTER_LENGTH)
        .ok_or(RecordError::MissingTag(QUARTER_LENGTH))?;
    if value == "timed" {
        return Ok(Settings::timed());
    }
    // Digits only: `u16::from_str` would also take "+5".
    match value.parse::<u16>() {
        Ok(n) if n > 0 && value.bytes().all(|b| b.is_ascii_digit()) => Ok(Settings::plays(n)),
        _ => Err(RecordError::BadTagValue {
            name: QUARTER_LENGTH.to_string(),
            value: super::error::quote(value),
            expected: "timed, or a number of plays from 1 to 65535",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_keeps_the_canonical_order() {
        let mut tags = Tags::new();
        tags.set("Custom", "1");
        tags.set(SCORE, "0-0");
        tags.set(RESULT, "*");
        tags.set("Another", "2");
        tags.set(EVENT, "e");
        tags.set(SCORE, "7-0");
        let names: Vec<&str> = tags.iter().map(|(n, _)| n).collect();
        assert_eq!(names, [EVENT, RESULT, SCORE, "Custom", "Another"]);
        assert_eq!(tags.get(SCORE), Some("7-0"));
        assert_eq!(tags.remove("Custom"), Some("1".to_string()));
        assert_eq!(tags.len(), 4);
    }

    #[test]
    fn fill_roster_adds_only_missing_tags() {
        let mut tags = Tags::new();
        tags.set(WHITE, "alpha");
        tags.fill_roster("1-0");
        let pairs: Vec<(&str, &str)> = tags.iter().collect();
        assert_eq!(
            pairs,
            [
                (EVENT, "?"),
                (SITE, "?"),
                (DATE, "????.??.??"),
                (ROUND, "?"),
                (WHITE, "alpha"),
                (BLACK, "?"),
                (RESULT, "1-0"),
            ]
        );
    }

    #[test]
    fn quarter_length_round_trips_and_rejects_junk() {
        for settings in [Settings::timed(), Settings::plays(1), Settings::plays(600)] {
            let mut tags = Tags::new();
            tags.set(QUARTER_LENGTH, quarter_length_value(settings));
            assert_eq!(settings_from(&tags), Ok(settings));
        }
        for bad in ["0", "+5", "-1", "70000", "", "Timed", "10 plays"] {
            let mut tags = Tags::new();
            tags.set(QUARTER_LENGTH, bad);
            assert!(settings_from(&tags).is_err(), "{bad:?}");
        }
        assert_eq!(
            settings_from(&Tags::new()),
            Err(RecordError::MissingTag(QUARTER_LENGTH))
        );
    }

    #[test]
    fn rulings_names_the_edition_or_refuses() {
        let mut tags = Tags::new();
        let refused = |tags: &Tags| rulings_from(tags, RULINGS_VALUE).unwrap_err().to_string();
        assert_eq!(
            refused(&tags),
            format!(
                "played under rulings edition 1; this zebra judges edition {RULINGS_VALUE} only"
            )
        );
        tags.set(RULINGS, RULINGS_VALUE);
        assert_eq!(rulings_from(&tags, RULINGS_VALUE), Ok(()));
        for (value, shown) in [
            ("1", "edition 1;"),
            ("3-beta", "edition 3-beta;"),
            ("", "edition \"\";"),
            (" 2", "edition \" 2\";"),
            ("two\u{1b}", "edition \"two\\u001b\";"),
        ] {
            tags.set(RULINGS, value);
            assert!(
                refused(&tags).contains(shown),
                "{value:?}: {}",
                refused(&tags)
            );
        }
    }

    #[test]
    fn termination_and_result_codes_round_trip() {
        for t in Termination::ALL {
            assert_eq!(t.code().parse(), Ok(t));
        }
        assert!("Normal".parse::<Termination>().is_err());
        for token in ["1-0", "0-1", "1/2-1/2", "*"] {
            assert_eq!(parse_result(token).map(result_token), Some(token));
        }
        assert_eq!(parse_result("1-1"), None);
    }
}
