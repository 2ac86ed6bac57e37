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
//! use zebra_engine::record::{read_games, verify, write_game, GameRecord, Termination};
//! use zebra_engine::rules::{Game, Settings};
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

use crate::rules::ruleset::RuleSet;
use crate::rules::{Clock, Game, GameResult, Rules, Settings};

pub use error::{OtherEdition, RecordError, QUOTE_MAX};
pub use read::{read_games, GameReader};
pub use tags::{Tags, Termination};
pub use verify::{
    verify, verify_any, verify_as, verify_text, Divergence, DivergenceKind, Summary, Verified,
};
pub use write::write_game;

/// What the record layer needs of a game beyond its rules: how a record names its start,
/// where its blocks begin, which events are worth a comment. Football Chess and Boyer's
/// Football implement it in `crate::games`.
pub trait Recorded: RuleSet {
    /// The edition of the game's rulings file that its records carry (tag `Rulings`).
    const RULINGS: &'static str;
    /// The tags a new record of a game with `settings` carries besides the roster,
    /// Variant, RulesVersion and Rulings (the quarter length, a set-up position).
    fn settings_tags(settings: &Self::Settings, tags: &mut Tags);
    /// The game before a record's first entry, from its tags.
    fn from_tags(tags: &Tags) -> Result<Self, RecordError>;
    /// The header of a block of movetext starting before the next entry (a play of
    /// Football Chess, a turn of Boyer's Football), or `None` inside a block.
    fn header(&self) -> Option<String>;
    /// Whether an event gets a comment of its own in the movetext.
    fn notable(event: &Self::Event) -> bool;
    /// Where the game stands, in words (for a divergence at the end of a record).
    fn whereabouts(&self) -> String;
    /// Whether an event starts a play (counted in [`Verified::snaps`]).
    fn starts_play(_event: &Self::Event) -> bool {
        false
    }
    /// The result of a game the referee stopped at its wall-time cap before the rules
    /// ended it (Termination `adjudication`), decided from the game as it stands; a record
    /// so ended verifies only with this result.
    fn adjudicate(&self) -> GameResult;
    /// The action as the record writes it, once applied with these `events` (Chess
    /// Eleven writes a shot with its drawn outcome); by default as the bot sent it.
    fn as_recorded(action: &Self::Action, _events: &[Self::Event]) -> String {
        action.to_string()
    }
}

/// A record's text quoted for an error line (escaped, cut).
pub(crate) fn error_quote(text: &str) -> String {
    error::quote(text)
}

/// The game a record's Variant tag names (a record without one is Football Chess, as
/// every record written before the tag).
pub(crate) fn rules_of(tags: &Tags) -> Result<Rules, RecordError> {
    match tags.get(tags::VARIANT) {
        None => Ok(Rules::FootballChess),
        Some(value) => value.parse().map_err(|_| RecordError::BadTagValue {
            name: tags::VARIANT.to_string(),
            value: error::quote(value),
            expected: Rules::NAMES,
        }),
    }
}

/// One game as the referee saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    pub tags: Tags,
    pub entries: Vec<Entry>,
}

/// One step of the game: a team's decision, or a clock that ran out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// A team's decision in its game's notation (the record holds games of any rule set;
    /// the replay parses it with the game the Variant tag names).
    Action {
        action: String,
        /// The team's thinking time for this decision, in milliseconds.
        emt_ms: Option<u64>,
        /// The game clock left after this decision (Football Chess: in the quarter; a
        /// chess clock: the side's own), in milliseconds.
        clk_ms: Option<u64>,
        /// The CPU time the bot's process spent on this decision (the kernel's accounting),
        /// in milliseconds: far below `emt_ms` means the bot waited, or the machine was busy.
        cpu_ms: Option<u64>,
    },
    /// A clock the referee saw expire, applied with [`RuleSet::clock_expired`].
    Expiry { clock: Clock },
}

/// Why an entry does not replay: its text is not an action of the game, or the game
/// refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayError(pub String);

impl Entry {
    /// An action without times.
    pub fn action(action: impl fmt::Display) -> Entry {
        Entry::Action {
            action: action.to_string(),
            emt_ms: None,
            clk_ms: None,
            cpu_ms: None,
        }
    }

    /// The entry a movetext token names (as [`Entry`]'s `Display` writes it: `!` and a
    /// clock's code, or an action's notation, not checked here); a protocol version 2
    /// request's `since` holds such tokens.
    pub fn from_token(token: &str) -> Result<Entry, ReplayError> {
        match token.strip_prefix('!') {
            Some(code) => code
                .parse()
                .map(|clock| Entry::Expiry { clock })
                .map_err(|_| ReplayError(format!("'{token}' is not a clock's expiry"))),
            None => Ok(Entry::action(token)),
        }
    }

    /// Applies this entry to `game`; on error the game is unchanged.
    pub fn apply_to<R: RuleSet>(&self, game: &mut R) -> Result<Vec<R::Event>, ReplayError> {
        match self {
            Entry::Action { action, .. } => {
                let parsed: R::Action = action
                    .parse()
                    .map_err(|e: R::NotationError| ReplayError(e.to_string()))?;
                game.play(&parsed).map_err(|e| ReplayError(e.to_string()))
            }
            Entry::Expiry { clock } => game
                .clock_expired(*clock)
                .map_err(|e| ReplayError(e.to_string())),
        }
    }
}

/// The movetext token: the action's notation, or `!` and the clock's code.
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Action { action, .. } => f.write_str(action),
            Entry::Expiry { clock } => write!(f, "!{}", clock.code()),
        }
    }
}

impl GameRecord {
    /// An empty Football Chess record for a game with these settings: the seven-tag
    /// roster with unknown values (`?`, result `*`), the variant, the rules version, the
    /// rulings edition and the quarter length.
    pub fn new(settings: Settings) -> GameRecord {
        GameRecord::of::<Game>(&settings)
    }

    /// An empty record of a game of rule set `R` with these settings.
    pub fn of<R: Recorded>(settings: &R::Settings) -> GameRecord {
        let mut tags = Tags::new();
        tags.fill_roster("*");
        tags.set(tags::VARIANT, R::NAME);
        tags.set(tags::RULES_VERSION, R::VERSION);
        tags.set(tags::RULINGS, R::RULINGS);
        R::settings_tags(settings, &mut tags);
        GameRecord {
            tags,
            entries: Vec::new(),
        }
    }

    /// The game the record's Variant tag names.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        rules_of(&self.tags)
    }

    /// Marks the record as started from `situation` (tags SetUp and Situation).
    pub(crate) fn set_situation(&mut self, situation: &crate::rules::Situation) {
        self.tags.set(tags::SET_UP, "1");
        self.tags.set(tags::SITUATION, situation.to_string());
    }

    /// The start situation, from the Situation tag (`None`: the opening drive).
    pub fn situation(&self) -> Result<Option<crate::rules::Situation>, RecordError> {
        tags::situation_from(&self.tags)
    }

    /// The Football Chess game as it stood before the record's first entry: the settings
    /// of the QuarterLength tag, from the Situation tag's situation if it has one.
    pub fn start(&self) -> Result<Game, RecordError> {
        Game::from_tags(&self.tags)
    }

    /// The settings to replay with, from the QuarterLength tag.
    pub fn settings(&self) -> Result<Settings, RecordError> {
        tags::settings_from(&self.tags)
    }

    /// Whether the engine of the record's game (its Variant) judges this record: `Err` when
    /// its Rulings tag names another edition of that game's rulings than the engine's, or
    /// it has none (edition 1). A Variant naming no game is judged as Football Chess, whose
    /// records came first (reading the record names the bad tag).
    pub fn rulings(&self) -> Result<(), OtherEdition> {
        let edition = crate::with_rules!(self.rules().unwrap_or_default(), R => R::RULINGS);
        tags::rulings_from(&self.tags, edition)
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

    pub fn push_action(
        &mut self,
        action: impl fmt::Display,
        emt_ms: Option<u64>,
        clk_ms: Option<u64>,
    ) {
        self.push_timed_action(action, emt_ms, clk_ms, None);
    }

    /// [`GameRecord::push_action`] with the bot's CPU time for the decision.
    pub fn push_timed_action(
        &mut self,
        action: impl fmt::Display,
        emt_ms: Option<u64>,
        clk_ms: Option<u64>,
        cpu_ms: Option<u64>,
    ) {
        self.entries.push(Entry::Action {
            action: action.to_string(),
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
    /// takes `forfeit` (the winner by forfeit, the adjudicated result, a draw, or `None` for
    /// `*`).
    pub fn finish<R: RuleSet>(
        &mut self,
        game: &R,
        termination: Termination,
        forfeit: Option<GameResult>,
    ) {
        let result = match termination {
            Termination::Normal => game.result(),
            _ => forfeit,
        };
        self.tags.set(tags::SCORE, tags::score_value(game));
        self.tags.set(tags::RESULT, tags::result_token(result));
        self.tags.set(tags::TERMINATION, termination.code());
    }

    /// Ends the record of a game Zebra was interrupted in (Ctrl-C or SIGTERM): the Score of
    /// the game after the last entry and, if the rules had not ended it yet, `Termination
    /// "unterminated"` and Result `*`; a game already over (interrupted while its bots
    /// were quitting) ends normally, with its result. The entries replay from the record's
    /// tags, whatever its game. Returns whether the game was over.
    pub fn finish_interrupted(&mut self) -> Result<bool, RecordError> {
        let rules = self.rules()?;
        crate::with_rules!(rules, R => {
            let mut game = <R as Recorded>::from_tags(&self.tags)?;
            for (index, entry) in self.entries.iter().enumerate() {
                entry
                    .apply_to(&mut game)
                    .map_err(|error| RecordError::Replay {
                        index,
                        entry: entry.to_string(),
                        error,
                    })?;
            }
            let over = game.result().is_some();
            let end = if over {
                Termination::Normal
            } else {
                Termination::Unterminated
            };
            self.finish(&game, end, None);
            Ok(over)
        })
    }
}
