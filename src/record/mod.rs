//! Game records: the PGN-style text of a game, its writer, its reader and its verifier.
//!
//! A [`GameRecord`] is what the referee saw: tag pairs (players, settings, score, how the
//! game ended) and the entries in order, each a team's [`Action`] with its thinking time
//! and the game clock after it, or a [`Clock`] the referee saw expire. Replaying the
//! entries through a fresh [`Game`] built from the record's settings gives the game back,
//! so a record is also the evidence that the referee applied the rules: [`verify()`] replays
//! it and reports the first place where record and engine disagree.
//!
//! The text format is specified in protocol/RECORD.md.
//!
//! ```
//! use zebra::record::{read_games, verify, write_game, GameRecord, Termination};
//! use zebra::rules::{Game, Settings};
//!
//! let mut game = Game::new(Settings::plays(1));
//! let mut record = GameRecord::new(game.settings());
//! let formation = "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse()?;
//! game.apply(&formation)?;
//! record.push_action(formation, Some(532), None);
//! record.finish(&game, Termination::Unterminated, None);
//!
//! let text = write_game(&record)?;
//! let again = read_games(&text)?;
//! assert_eq!(again[0].entries, record.entries);
//! assert_eq!(write_game(&again[0])?, text);
//! assert!(verify(&again[0]).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Layout:
//! - `tags`: the tag pairs, their canonical order, and the values with a meaning
//! - `error`: why a record cannot be read or written
//! - `notes`: the comments a human reads (play headers, notable events)
//! - `time`: the `[%emt]` and `[%clk]` time formats
//! - `write`: record to text, replaying every entry
//! - `read`: text to records, streamed game by game from a file
//! - `verify`: replaying a record to find where it diverges from the engine

pub mod error;
pub mod notes;
pub mod read;
pub mod tags;
pub mod time;
pub mod verify;
pub mod write;

use std::fmt;

use crate::rules::{Action, ActionError, Clock, Events, Game, GameResult, Settings};

pub use error::{OtherEdition, RecordError, QUOTE_MAX};
pub use read::{read_games, GameReader};
pub use tags::{Tags, Termination};
pub use verify::{verify, verify_text, Divergence, DivergenceKind, Verified};
pub use write::write_game;

/// One game as the referee saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    pub tags: Tags,
    pub entries: Vec<Entry>,
}

/// One step of the game: a team's decision, or a clock that ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A team's decision, applied with [`Game::apply`].
    Action {
        action: Action,
        /// The team's thinking time for this decision, in milliseconds.
        emt_ms: Option<u64>,
        /// The game clock left in the quarter after this decision, in milliseconds.
        clk_ms: Option<u64>,
        /// The CPU time the bot's process spent on this decision (the kernel's accounting),
        /// in milliseconds: far below `emt_ms` means the bot waited, or the machine was busy.
        cpu_ms: Option<u64>,
    },
    /// A clock the referee saw expire, applied with [`Game::expire`].
    Expiry { clock: Clock },
}

impl Entry {
    /// An action without times.
    pub const fn action(action: Action) -> Entry {
        Entry::Action {
            action,
            emt_ms: None,
            clk_ms: None,
            cpu_ms: None,
        }
    }

    /// Applies this entry to `game`; on error the game is unchanged.
    pub fn apply_to(&self, game: &mut Game) -> Result<Events, ActionError> {
        match self {
            Entry::Action { action, .. } => game.apply(action),
            Entry::Expiry { clock } => game.expire(*clock),
        }
    }
}

/// The movetext token: the action's notation, or `!` and the clock's code.
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Action { action, .. } => write!(f, "{action}"),
            Entry::Expiry { clock } => write!(f, "!{}", clock.code()),
        }
    }
}

impl GameRecord {
    /// An empty record for a game with these settings: the seven-tag roster with unknown
    /// values (`?`, result `*`), the variant, the rules version, the rulings edition and the
    /// quarter length.
    pub fn new(settings: Settings) -> GameRecord {
        let mut tags = Tags::new();
        tags.fill_roster("*");
        tags.set(tags::VARIANT, tags::VARIANT_NAME);
        tags.set(tags::RULES_VERSION, tags::RULES_VERSION_VALUE);
        tags.set(tags::RULINGS, tags::RULINGS_VALUE);
        tags.set(tags::QUARTER_LENGTH, tags::quarter_length_value(settings));
        GameRecord {
            tags,
            entries: Vec::new(),
        }
    }

    /// Marks the record as started from `situation` (tags SetUp and Situation).
    pub fn set_situation(&mut self, situation: &crate::rules::Situation) {
        self.tags.set(tags::SET_UP, "1");
        self.tags.set(tags::SITUATION, situation.to_string());
    }

    /// The start situation, from the Situation tag (`None`: the opening drive).
    pub fn situation(&self) -> Result<Option<crate::rules::Situation>, RecordError> {
        tags::situation_from(&self.tags)
    }

    /// The game as it stood before the record's first entry: the settings of the
    /// QuarterLength tag, from the Situation tag's situation if it has one.
    pub fn start(&self) -> Result<Game, RecordError> {
        let settings = self.settings()?;
        Ok(match self.situation()? {
            Some(s) => Game::from_situation(settings, &s),
            None => Game::new(settings),
        })
    }

    /// The settings to replay with, from the QuarterLength tag.
    pub fn settings(&self) -> Result<Settings, RecordError> {
        tags::settings_from(&self.tags)
    }

    /// Whether the engine judges this record: `Err` when its Rulings tag names another
    /// edition of the rulings than the engine's, or it has none (edition 1).
    pub fn rulings(&self) -> Result<(), OtherEdition> {
        tags::rulings_from(&self.tags)
    }

    /// How the game ended, from the Termination tag; a record without one ended normally.
    pub fn termination(&self) -> Result<Termination, RecordError> {
        match self.tags.get(tags::TERMINATION) {
            None => Ok(Termination::Normal),
            Some(value) => value.parse().map_err(|_| RecordError::BadTagValue {
                name: tags::TERMINATION.to_string(),
                value: error::quote(value),
                expected: Termination::EXPECTED,
            }),
        }
    }

    /// The result from the Result tag: `None` for `*` (unknown) or a missing tag.
    pub fn result(&self) -> Result<Option<GameResult>, RecordError> {
        match self.tags.get(tags::RESULT) {
            None => Ok(None),
            Some(value) => tags::parse_result(value).ok_or_else(|| RecordError::BadTagValue {
                name: tags::RESULT.to_string(),
                value: error::quote(value),
                expected: "1-0, 0-1, 1/2-1/2 or *",
            }),
        }
    }

    pub fn push_action(&mut self, action: Action, emt_ms: Option<u64>, clk_ms: Option<u64>) {
        self.push_timed_action(action, emt_ms, clk_ms, None);
    }

    /// [`GameRecord::push_action`] with the bot's CPU time for the decision.
    pub fn push_timed_action(
        &mut self,
        action: Action,
        emt_ms: Option<u64>,
        clk_ms: Option<u64>,
        cpu_ms: Option<u64>,
    ) {
        self.entries.push(Entry::Action {
            action,
            emt_ms,
            clk_ms,
            cpu_ms,
        });
    }

    pub fn push_expiry(&mut self, clock: Clock) {
        self.entries.push(Entry::Expiry { clock });
    }

    /// Records how the game ended: the Score of `game` (the game after the last entry), the
    /// Termination, and the Result. A normal end takes the engine's result; any other end
    /// takes `forfeit` (the winner by forfeit, a draw, or `None` for `*`).
    pub fn finish(&mut self, game: &Game, termination: Termination, forfeit: Option<GameResult>) {
        let result = match termination {
            Termination::Normal => game.result(),
            _ => forfeit,
        };
        self.tags.set(tags::SCORE, tags::score_value(game));
        self.tags.set(tags::RESULT, tags::result_token(result));
        self.tags.set(tags::TERMINATION, termination.code());
    }
}
