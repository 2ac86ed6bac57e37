//! The options of a series that every front door shares (`zebra match`'s flags, a resumed
//! `series.json`, the HTTP API's JSON), checked in one place: [`SeriesSpec::validate`].
//!
//! It is pure: it reads no file and starts no process. What only one front door has stays
//! with it: the command line's bot commands, files, directories and sandbox; the daemon's
//! bot ids and its rule that a server plays only its own book. A refusal names its
//! [`Field`] and says what is wrong in words, once: the command line shows it as a flag
//! (`--games: ...`), the HTTP API as a field (`games: ...`).

use crate::referee::{GameClock, GameSetup, MaxGameTime, MaxGameTimeError, TimeControlError};
use crate::rules::Rules;

use super::book::SituationOrder;
use super::schedule::{Format, Schedule, ScheduleError};
use super::stats::{SprtParams, SprtParamsError};

/// A series' options as given, unparsed (left out: the default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesSpec {
    /// The game's name; left out: Football Chess.
    pub game: Option<String>,
    /// `round-robin` or `gauntlet`.
    pub format: String,
    /// How many bots play (who they are is each front door's own).
    pub bots: usize,
    /// Games per encounter: even, at least 2.
    pub games: u32,
    /// The game's clock; left out: the game's default.
    pub tc: Option<String>,
    /// The wall-time cap of each game (`25m`, `none`, `auto`); left out: derived.
    pub max_game_time: Option<String>,
    pub seed: u64,
    /// `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`; two bots, or a gauntlet (one SPRT per opponent).
    pub sprt: Option<String>,
    pub max_illegal: u32,
    /// `builtin`, `none` or a book file (read by the front door that allows files); left
    /// out: `builtin` for a game with start situations, else `none`.
    pub situations: Option<String>,
    /// `random` or `sequential`; left out: `random`.
    pub situation_order: Option<String>,
}

/// A [`SeriesSpec`] that holds, its options in their canonical forms.
#[derive(Clone, Debug)]
pub struct ValidSpec {
    pub rules: Rules,
    pub format: Format,
    pub bots: usize,
    pub games: u32,
    /// The clock in its canonical form (the game's default when none was given).
    pub tc: String,
    /// [`MaxGameTime::Derived`] when left out or `auto`.
    pub max_game_time: MaxGameTime,
    pub seed: u64,
    pub sprt: Option<SprtParams>,
    pub max_illegal: u32,
    /// As given, or the game's default (`builtin` or `none`).
    pub situations: String,
    pub situation_order: SituationOrder,
    /// The games the options make.
    pub schedule: Schedule,
}

impl ValidSpec {
    /// The wall-time cap as a series file and the API store it: none when derived.
    pub fn max_game_time_text(&self) -> Option<String> {
        (self.max_game_time != MaxGameTime::Derived).then(|| self.max_game_time.to_string())
    }
}

/// The option a [`SpecError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Game,
    Format,
    Bots,
    Games,
    Tc,
    MaxGameTime,
    Sprt,
    MaxIllegal,
    Situations,
    SituationOrder,
}

impl Field {
    /// Its key in the HTTP API's JSON and in `series.json` (`game` is `rules` there).
    pub const fn key(self) -> &'static str {
        match self {
            Field::Game => "game",
            Field::Format => "format",
            Field::Bots => "bots",
            Field::Games => "games",
            Field::Tc => "tc",
            Field::MaxGameTime => "max_game_time",
            Field::Sprt => "sprt",
            Field::MaxIllegal => "max_illegal",
            Field::Situations => "situations",
            Field::SituationOrder => "situation_order",
        }
    }

    /// Its flag on `zebra match`.
    pub const fn flag(self) -> &'static str {
        match self {
            Field::Game => "--rules",
            Field::Format => "--format",
            Field::Bots => "--bot",
            Field::Games => "--games",
            Field::Tc => "--tc",
            Field::MaxGameTime => "--max-game-time",
            Field::Sprt => "--sprt",
            Field::MaxIllegal => "--max-illegal",
            Field::Situations => "--situations",
            Field::SituationOrder => "--situation-order",
        }
    }
}

/// Why a [`SeriesSpec`] does not hold. The message says what is wrong without naming the
/// field ([`SpecError::field`] does): see [`SpecError::as_flag`] and [`SpecError::as_key`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown rules '{}'; known: {}", crate::bot::text::clean(.0, 40), known_games())]
    Game(String),
    #[error("'{}' is not a format; use round-robin or gauntlet", crate::bot::text::clean(.0, 40))]
    Format(String),
    #[error("a series needs at least two bots; got {0}")]
    Bots(usize),
    #[error("give an even number of at least 2 (games come in pairs with sides swapped); got {0}")]
    Games(u32),
    #[error("{0}")]
    Schedule(ScheduleError),
    #[error("{error} (the clock of {rules})")]
    Tc {
        error: TimeControlError,
        rules: Rules,
    },
    #[error("{0}")]
    MaxGameTime(MaxGameTimeError),
    #[error("{0}")]
    Sprt(SprtParamsError),
    #[error("the SPRT tests the first bot against each other one: give two bots, or --format gauntlet; this round-robin has {0} bots")]
    SprtBots(usize),
    #[error("must be at least 1")]
    MaxIllegal,
    #[error("{0} has no built-in book; give a FILE of its start positions (one per line) or none")]
    Situations(Rules),
    #[error("'{}' is not an order; use random or sequential", crate::bot::text::clean(.0, 40))]
    SituationOrder(String),
}

impl SpecError {
    /// The option at fault.
    pub const fn field(&self) -> Field {
        match self {
            SpecError::Game(_) => Field::Game,
            SpecError::Format(_) => Field::Format,
            SpecError::Bots(_) => Field::Bots,
            SpecError::Games(_) | SpecError::Schedule(_) => Field::Games,
            SpecError::Tc { .. } => Field::Tc,
            SpecError::MaxGameTime(_) => Field::MaxGameTime,
            SpecError::Sprt(_) | SpecError::SprtBots(_) => Field::Sprt,
            SpecError::MaxIllegal => Field::MaxIllegal,
            SpecError::Situations(_) => Field::Situations,
            SpecError::SituationOrder(_) => Field::SituationOrder,
        }
    }

    /// As the command line says it: `--games: ...`.
    pub(crate) fn as_flag(&self) -> String {
        format!("{}: {self}", self.field().flag())
    }

    /// As the HTTP API and a series file say it: `games: ...`.
    pub(crate) fn as_key(&self) -> String {
        format!("{}: {self}", self.field().key())
    }
}

/// The games Zebra plays, for messages.
fn known_games() -> String {
    Rules::ALL
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl SeriesSpec {
    /// Checks every option (in the order a person reads them), and gives them in their
    /// canonical forms.
    pub fn validate(self) -> Result<ValidSpec, SpecError> {
        let rules = match &self.game {
            None => Rules::FootballChess,
            Some(name) => name
                .parse::<Rules>()
                .map_err(|_| SpecError::Game(name.clone()))?,
        };
        let format = Format::parse(&self.format).ok_or(SpecError::Format(self.format))?;
        if self.bots < 2 {
            return Err(SpecError::Bots(self.bots));
        }
        if self.games < 2 || self.games % 2 == 1 {
            return Err(SpecError::Games(self.games));
        }
        let tc = GameClock::read(
            rules,
            self.tc
                .as_deref()
                .unwrap_or_else(|| GameSetup::default_clock(rules)),
        )
        .map_err(|error| SpecError::Tc { error, rules })?
        .to_string();
        let max_game_time = match &self.max_game_time {
            None => MaxGameTime::Derived,
            Some(text) => text.parse().map_err(SpecError::MaxGameTime)?,
        };
        if self.max_illegal == 0 {
            return Err(SpecError::MaxIllegal);
        }
        let sprt = match &self.sprt {
            None => None,
            Some(text) => Some(SprtParams::parse(text).map_err(SpecError::Sprt)?),
        };
        // Two bots, or a gauntlet: each encounter then has its own SPRT, of the first bot
        // against one opponent (in a round-robin of more, whose strength would H1 claim?).
        if sprt.is_some() && self.bots != 2 && format != Format::Gauntlet {
            return Err(SpecError::SprtBots(self.bots));
        }
        // Football Chess's series play its built-in book by default; another game's start
        // from its usual start unless given a book file of its own starts.
        let builtin =
            crate::with_rules!(rules, G => <G as zebra_engine::seam::Refereed>::SITUATIONS);
        let situations = self
            .situations
            .unwrap_or_else(|| if builtin { "builtin" } else { "none" }.to_string());
        if situations == "builtin" && !builtin {
            return Err(SpecError::Situations(rules));
        }
        let situation_order = match &self.situation_order {
            None => SituationOrder::Random,
            Some(text) => SituationOrder::parse(text)
                .ok_or_else(|| SpecError::SituationOrder(text.clone()))?,
        };
        // The games must fit their numbers (they are computed one by one as the series
        // goes, so a long series costs no memory up front).
        let schedule = Schedule::new(format, self.bots, self.games / 2, self.seed)
            .map_err(SpecError::Schedule)?;
        Ok(ValidSpec {
            rules,
            format,
            bots: self.bots,
            games: self.games,
            tc,
            max_game_time,
            seed: self.seed,
            sprt,
            max_illegal: self.max_illegal,
            situations,
            situation_order,
            schedule,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> SeriesSpec {
        SeriesSpec {
            game: None,
            format: "round-robin".to_string(),
            bots: 2,
            games: 20,
            tc: None,
            max_game_time: None,
            seed: 1,
            sprt: None,
            max_illegal: 3,
            situations: None,
            situation_order: None,
        }
    }

    #[test]
    fn each_refusal_names_its_field() {
        let boyer = || SeriesSpec {
            game: Some("boyer-football".to_string()),
            ..spec()
        };
        for (bad, field) in [
            (
                SeriesSpec {
                    game: Some("chess".to_string()),
                    ..spec()
                },
                Field::Game,
            ),
            (
                SeriesSpec {
                    format: "swiss".to_string(),
                    ..spec()
                },
                Field::Format,
            ),
            (SeriesSpec { bots: 1, ..spec() }, Field::Bots),
            (SeriesSpec { games: 3, ..spec() }, Field::Games),
            (SeriesSpec { games: 0, ..spec() }, Field::Games),
            (
                SeriesSpec {
                    bots: 3,
                    games: 4_000_000_000,
                    ..spec()
                },
                Field::Games,
            ),
            (
                SeriesSpec {
                    tc: Some("fast".to_string()),
                    ..spec()
                },
                Field::Tc,
            ),
            (
                SeriesSpec {
                    tc: Some("plays=10".to_string()),
                    ..boyer()
                },
                Field::Tc,
            ),
            (
                SeriesSpec {
                    max_game_time: Some("25".to_string()),
                    ..spec()
                },
                Field::MaxGameTime,
            ),
            (
                SeriesSpec {
                    max_game_time: Some("0s".to_string()),
                    ..spec()
                },
                Field::MaxGameTime,
            ),
            (
                SeriesSpec {
                    max_illegal: 0,
                    ..spec()
                },
                Field::MaxIllegal,
            ),
            (
                SeriesSpec {
                    sprt: Some("elo0=5".to_string()),
                    ..spec()
                },
                Field::Sprt,
            ),
            (
                SeriesSpec {
                    sprt: Some("elo0=0,elo1=5".to_string()),
                    bots: 3,
                    ..spec()
                },
                Field::Sprt,
            ),
            (
                SeriesSpec {
                    situations: Some("builtin".to_string()),
                    ..boyer()
                },
                Field::Situations,
            ),
            (
                SeriesSpec {
                    situation_order: Some("shuffled".to_string()),
                    ..spec()
                },
                Field::SituationOrder,
            ),
        ] {
            let err = bad.clone().validate().unwrap_err();
            assert_eq!(err.field(), field, "{bad:?}: {err}");
        }
    }

    #[test]
    fn one_message_reads_as_a_flag_and_as_a_key() {
        let err = SeriesSpec { games: 3, ..spec() }.validate().unwrap_err();
        assert_eq!(
            err.as_flag(),
            "--games: give an even number of at least 2 (games come in pairs with sides swapped); got 3"
        );
        assert_eq!(
            err.as_key(),
            "games: give an even number of at least 2 (games come in pairs with sides swapped); got 3"
        );
        let err = SeriesSpec {
            max_game_time: Some("soon".to_string()),
            ..spec()
        }
        .validate()
        .unwrap_err();
        assert!(
            err.as_flag()
                .starts_with("--max-game-time: 'soon' is not a duration"),
            "{err}"
        );
        let err = SeriesSpec {
            game: Some("chess".to_string()),
            ..spec()
        }
        .validate()
        .unwrap_err();
        assert_eq!(
            err.as_key(),
            "game: unknown rules 'chess'; known: football-chess, boyer-football, chess-eleven"
        );
        let err = SeriesSpec {
            sprt: Some("elo0=0,elo1=5".to_string()),
            bots: 3,
            ..spec()
        }
        .validate()
        .unwrap_err();
        assert!(
            err.to_string().ends_with("this round-robin has 3 bots"),
            "{err}"
        );
        // A gauntlet has one SPRT per opponent.
        let gauntlet = SeriesSpec {
            sprt: Some("elo0=0,elo1=5".to_string()),
            bots: 3,
            format: "gauntlet".to_string(),
            ..spec()
        };
        assert!(gauntlet.validate().is_ok());
    }

    #[test]
    fn options_come_out_canonical_and_defaults_filled_in() {
        let plain = spec().validate().unwrap();
        assert_eq!(plain.rules, Rules::FootballChess);
        assert_eq!(plain.tc, "plays=10,play=5s,reaction=1s,grace=100ms");
        assert_eq!(plain.max_game_time, MaxGameTime::Derived);
        assert_eq!(plain.max_game_time_text(), None);
        assert_eq!(plain.situations, "builtin");
        assert_eq!(plain.situation_order, SituationOrder::Random);
        assert_eq!(plain.schedule.len(), 20);
        let auto = SeriesSpec {
            max_game_time: Some("auto".to_string()),
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(auto.max_game_time_text(), None);
        let capped = SeriesSpec {
            max_game_time: Some("1500s".to_string()),
            sprt: Some("elo0=0,elo1=5".to_string()),
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(capped.max_game_time_text().as_deref(), Some("25m"));
        assert_eq!(
            capped.sprt.unwrap().to_string(),
            "elo0=0,elo1=5,alpha=0.05,beta=0.05"
        );
        let none = SeriesSpec {
            max_game_time: Some("none".to_string()),
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(none.max_game_time_text().as_deref(), Some("none"));
        let boyer = SeriesSpec {
            game: Some("boyer-football".to_string()),
            tc: Some("blitz".to_string()),
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(boyer.rules, Rules::BoyerFootball);
        assert_eq!(boyer.tc, "bank=10s,inc=100ms,grace=100ms");
        assert_eq!(boyer.situations, "none");
        let gauntlet = SeriesSpec {
            format: "gauntlet".to_string(),
            bots: 3,
            games: 4,
            ..spec()
        }
        .validate()
        .unwrap();
        assert_eq!(gauntlet.format, Format::Gauntlet);
        assert_eq!(gauntlet.schedule.len(), 8);
    }
}
