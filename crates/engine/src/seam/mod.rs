//! The seam between the games and the referee: the small pure traits a game implements so
//! that the referee, `check-bot` and the records can run it without knowing it, and the
//! setup of one game that every game shares.
//!
//! - [`Refereed`]: the game's clocks, the messages that carry its state, what a missed
//!   decision costs
//! - [`Checked`]: the positions and clocks of `check-bot`'s questions
//! - [`GameSetup`]: what decides a game besides its bots (game, clock, seed, start)
//! - `envelope`: the protocol's messages around a game's payloads
//! - `game_clock`: a game's clock as its game parsed it, one type for every game
//! - `game_start`: where a game starts instead of its usual start, the same way
//! - `chess_clock`: a chess clock, for games without clocks of their own
//! - `cap`: the wall-time cap of one game and its default
//!
//! Nothing here reads a clock or touches a process: the referee (the `zebra` crate's
//! `referee` module) measures and talks; a game, through these traits, decides.

pub mod cap;
pub mod chess_clock;
pub mod envelope;
pub mod game_clock;
pub mod game_start;
// Football Chess's clocks, whose `--tc` every setup still carries (see `GameSetup`).
pub use crate::games::football_chess::clock;

use std::time::Duration;

pub use cap::{MaxGameTime, MaxGameTimeError};
pub use clock::{Budget, Clocks, QuarterMode, TimeControl, TimeControlError, TimeOdds};
pub use envelope::{Asked, Parts, Start};
pub use game_clock::GameClock;
pub use game_start::GameStart;

use crate::protocol::Payloads;
use crate::record::{GameRecord, Recorded};
use crate::rules::{Clock, Rules, Side};

/// What the referee needs of a game beyond its rules and its records: its clocks, the
/// messages that carry its state, and what a missed decision costs. One implementation
/// per game, in `crate::games`. Pure: the referee measures the time and talks to the bots;
/// a game only says what the time and the replies mean.
pub trait Refereed: Recorded {
    /// Both sides' clocks during a game.
    type Clocks: Send;
    /// What binds one decision: its time limit, and what runs out if it is missed.
    type Budget: Copy + Send;

    /// The clock a game gets when none is named (`--tc`'s default; the daemon's series and
    /// ladder too).
    const DEFAULT_CLOCK: &'static str;
    /// Whether series play the game's built-in book of starts by default (Football Chess's
    /// drives, protocol/SITUATIONS.md); another game's series start from its usual start
    /// unless given a book of its own starts.
    const SITUATIONS: bool = false;
    /// Whether a bot's time odds (its own decision clocks) apply: in a game without them
    /// both sides have the series' clock.
    const TIME_ODDS: bool = false;
    /// The game's clock, as `--tc` text parses (its `Display` is the canonical text, which
    /// parses back the same; the record's `TimeControl` tag).
    type TimeControl: std::fmt::Display + Send + Sync + 'static;
    /// Reads `text` as this game's clock.
    fn parse_clock(text: &str) -> Result<Self::TimeControl, TimeControlError>;
    /// Where a game may start instead of its usual start (a book line, `--start`), as its
    /// text reads.
    type Start: std::fmt::Display + Send + Sync + 'static;
    /// Reads `text` as this game's start; the game's own words when it is not one.
    fn parse_start(text: &str) -> Result<Self::Start, String>;
    /// The start of `setup`, which is a game of this kind, if it has one.
    fn start_of(setup: &GameSetup) -> Option<&Self::Start> {
        setup.start.as_ref().map(GameStart::get::<Self>)
    }
    /// The clock of `setup`, which is a game of this kind.
    fn time_control(setup: &GameSetup) -> &Self::TimeControl {
        setup.clock.get::<Self>()
    }
    /// The game, its record (the game's tags and the time control) and its clocks, before
    /// the first decision.
    fn set_up(setup: &GameSetup) -> (Self, GameRecord, Self::Clocks);
    /// Tags set after the roster and the Sandbox tag (per-side time controls).
    fn late_tags(_setup: &GameSetup, _record: &mut GameRecord) {}
    /// Whether the record holds nothing that depends on the wall clock (no date, no
    /// thinking times), so that the same seed and deterministic bots give the same bytes.
    fn reproducible(setup: &GameSetup) -> bool;
    /// The margin past a deadline before a decision counts as missed.
    fn grace(setup: &GameSetup) -> Duration;
    /// The most wall time the bots' decisions of one game can take under ``setup`'s clock and
    /// the game's rules (every limit used to the last grace margin): the default wall-time
    /// cap is derived from it ([`cap::with_margin`]).
    fn wall_bound(setup: &GameSetup) -> Duration;
    /// The game's own parts of its messages; the envelope around them is the protocol's
    /// ([`envelope`] builds it).
    type Wire: Payloads;
    /// What `game_start` tells `side` of the game: its clock (a bot with time odds is told
    /// its own) and the start situation's text.
    fn start(&self, setup: &GameSetup, clocks: &Self::Clocks, side: Side) -> Start<Self::Wire>;
    /// What binds the decision due now.
    fn budget(&self, clocks: &Self::Clocks) -> Self::Budget;
    /// Sealed decisions: when the decision due now is the first of two that neither side
    /// is told of before both are in (Chess Eleven's formations), the side that decides
    /// second and what binds its decision, as they will be once the first is in. Neither
    /// its budget nor its request ([`Refereed::asked`] with that budget) may depend on the
    /// first decision: the referee asks both sides at once, each on its own clock, and
    /// applies the replies in the game's order. `None` (the default): one decision at a
    /// time.
    fn sealed(&self, _clocks: &Self::Clocks) -> Option<(Side, Self::Budget)> {
        None
    }
    /// Whether the decision due now opens a play (Football Chess's and Chess Eleven's
    /// formations): a version-2 request then carries the whole state, so that a bot that
    /// keeps its own game never drifts for long. `false` by default.
    fn opens_play(&self) -> bool {
        false
    }
    /// Its time limit.
    fn limit(budget: &Self::Budget) -> Duration;
    /// What the request for the decision due now says of the game.
    /// The state and the legal list are built only when `parts` wants them.
    fn asked(
        &self,
        clocks: &Self::Clocks,
        budget: &Self::Budget,
        parts: Parts,
    ) -> Asked<Self::Wire>;
    /// What `events` tell both bots, as `event` entries.
    fn told(events: &[Self::Event]) -> Vec<<Self::Wire as Payloads>::Event>;
    /// The clock to note in the record after a decision that took `elapsed`
    /// (`[%clk]`), `None` when the game has none to note.
    fn clock_note(clocks: &Self::Clocks, budget: &Self::Budget, elapsed: Duration) -> Option<u64>;
    /// What a decision not taken costs (a timeout, or a bad reply below the limit).
    fn miss(
        &mut self,
        clocks: &mut Self::Clocks,
        budget: &Self::Budget,
        miss: Miss,
    ) -> Result<Missed<Self::Event>, RefusedExpiry>;
    /// Charges a decision's time (and what its `events` cost on the clocks); the events of
    /// a clock that ran out because of it (and that clock, for the record).
    fn charge(
        &mut self,
        clocks: &mut Self::Clocks,
        budget: &Self::Budget,
        elapsed: Duration,
        events: &[Self::Event],
    ) -> Result<(Vec<Self::Event>, Option<Clock>), RefusedExpiry>;
    /// Moves the clocks on as the events say (a new play, a new turn).
    fn follow(&self, clocks: &mut Self::Clocks, events: &[Self::Event]);
    /// Why a game that reached its end ended, in words.
    fn end_reason(&self) -> String;
}

/// The game refused to apply a clock's expiry it had itself called for: the referee's
/// fault, not a bot's, so the referee ends the game unterminated rather than blame a side.
/// Typed so that the referee can tell it from a bot's doing without reading its words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine refused the {clock} expiry: {reason}")]
pub struct RefusedExpiry {
    /// The clock whose expiry was refused.
    pub clock: Clock,
    /// Why, in the game's words.
    pub reason: String,
}

/// A decision not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No reply in time.
    Timeout,
    /// A reply that is not a legal action, below the forfeit limit.
    BadReply,
}

/// What a missed decision costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missed<E> {
    /// A clock's consequence was applied (and goes into the record as its expiry).
    Consequence { clock: Clock, events: Vec<E> },
    /// Nothing: the same decision is asked again, on the clock still running.
    AskAgain,
    /// The side loses on time.
    LosesOnTime,
}

/// What decides one game besides its bots: the game, its clock, its seed, where it starts,
/// and the referee's two bounds on it (bad replies tolerated, wall-time cap), which the
/// game's worst-case length depends on. The referee's own settings (transport, sandbox,
/// logs, tags) are the referee's `GameConfig`, which holds one of these.
///
/// The game and its clock are one value ([`GameClock`]: the game's own clock type, parsed
/// once by the game): a setup cannot name one game and hold another's clock, and a new kind
/// of clock adds no field here; a start is held the same way ([`GameStart`]). Time odds are
/// Football Chess's (the games that have them say so: [`Refereed::TIME_ODDS`]); another game
/// leaves them at their defaults.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The game played and its clock (`--tc`).
    pub clock: GameClock,
    /// Each side's own play and reaction clocks, if it plays with time odds
    /// (index: [`Side::index`]).
    pub odds: [TimeOdds; 2],
    /// The game's seed (its random events and the bots' `game_start`).
    pub seed: u64,
    /// Where the game starts, if not from its usual start (the same game as `clock`).
    pub start: Option<GameStart>,
    /// Invalid or illegal replies a bot may send before it forfeits.
    pub max_illegal: u32,
    /// The game's wall-time cap (`--max-game-time`), by default derived from its clock.
    pub max_game_time: MaxGameTime,
}

impl Default for GameSetup {
    fn default() -> GameSetup {
        GameSetup {
            clock: GameClock::new::<crate::games::football_chess::Game>(TimeControl::blitz()),
            odds: [TimeOdds::default(); 2],
            seed: 1,
            start: None,
            max_illegal: 3,
            max_game_time: MaxGameTime::Derived,
        }
    }
}

impl GameSetup {
    /// The default setup of a game of `rules`, on that game's default clock.
    pub fn of(rules: Rules) -> GameSetup {
        GameSetup {
            clock: GameClock::default_of(rules),
            ..GameSetup::default()
        }
    }

    /// The game played.
    pub fn rules(&self) -> Rules {
        self.clock.rules()
    }

    /// Reads `text` as a clock of the game played and sets it; the clock in its canonical
    /// form, which reads back the same.
    pub fn read_clock(&mut self, text: &str) -> Result<String, TimeControlError> {
        self.clock = GameClock::read(self.rules(), text)?;
        Ok(self.clock.to_string())
    }

    /// The clock a game of `rules` gets when none is named.
    pub fn default_clock(rules: Rules) -> &'static str {
        crate::with_rules!(rules, R => <R as Refereed>::DEFAULT_CLOCK)
    }

    /// The wall-time cap of a game under this setup (`None`: no cap): the one set, or the
    /// one derived from the game's clock.
    pub fn game_time_cap(&self) -> Option<Duration> {
        self.max_game_time
            .resolve(|| crate::with_rules!(self.rules(), R => <R as Refereed>::wall_bound(self)))
    }
}

/// What `check-bot` needs of a game beyond what the referee does: positions where each
/// side meets each kind of decision, the clocks of its questions and games, and advice on
/// a legal reply that a real game would still punish. Each game implements it in its own
/// module (`crate::games`); `zebra check-bot` runs them.
pub trait Checked: Refereed {
    /// The clock of check-bot's whole games (`--tc` text of the game).
    const GAME_CLOCK: &'static str;
    /// The clock of the daemon's admission smoke game: short, with the clocks of a real
    /// game, so that a bot's whole game is bounded.
    const SMOKE_CLOCK: &'static str;
    /// The clock of the questions, as `--tc` text: every decision gets `decision`.
    fn question_clock(decision: Duration) -> String;
    /// Positions where `side` must decide, one per kind of decision it meets, each with
    /// the words that name it in the report ("formation decision").
    fn scenarios(side: Side) -> Vec<(String, Self)>;
    /// What is wrong with a legal reply (Football Chess: a formation that draws a flag).
    fn advice(&self, _action: &Self::Action) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The referee quotes it in a game's reason (`internal error: ...`): the words stay.
    #[test]
    fn a_refused_expiry_reads_as_before() {
        let refused = RefusedExpiry {
            clock: Clock::Play,
            reason: "no play is running".to_string(),
        };
        assert_eq!(
            refused.to_string(),
            format!(
                "the engine refused the {} expiry: no play is running",
                Clock::Play
            )
        );
    }
}
