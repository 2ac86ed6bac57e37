//! The view stream: a game replayed through its engine into what a viewer draws.
//!
//! One frame before the first entry and one after every entry of the record. Each
//! [`Step`] also carries what the viewer draws as the last action (an [`Arrow`]), the events
//! in words, the header when a play or turn begins there, and the decision's think time.
//! The page never runs the rules itself: replayed and live games reach it as the same
//! stream (schema: `protocol/schemas/view.json`, version [`VIEW_VERSION`]).
//!
//! What is the same for every game lives here: [`GameView`], [`Step`], [`Replay`] and the
//! functions that turn records into views. What a game draws is its own, in its folder
//! behind [`Viewed`]: its frame (the position as the page draws it), its step, the squares
//! of an action, its board as text ([`terminal`]), and what a person at the human seat is
//! offered. [`AnyFrame`] (in [`crate::games`], next to the registry) holds the frame of
//! whichever game is shown.
//!
//! A record that stops replaying (a divergence, another rulings edition) still gives every
//! frame up to the problem, and the problem in words: a viewer shows how far it got and
//! why it stopped, never a blank page.

pub mod terminal;
pub mod words;

use std::fmt;

use serde::Serialize;

pub use crate::games::AnyFrame;
use crate::record::{verify_any, Entry, GameRecord, RecordError, Recorded, ReplayError};
use crate::rules::{Rules, Side};
use terminal::TermStyle;

/// The version of the view stream's shape; a viewer refuses other versions.
pub const VIEW_VERSION: u32 = 1;

/// What a game gives its viewers and its human seat. Pure: everything is computed from the
/// game and the record's entries.
pub trait Viewed: Recorded + Send + 'static {
    /// The position as the page draws it (serialised into the stream as is).
    type Frame: Serialize + Clone + fmt::Debug + Into<AnyFrame>;

    /// The position now.
    fn frame(&self) -> Self::Frame;

    /// Applies `entry` and returns its step (with the frame after it); on error the game
    /// is unchanged.
    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError>;

    /// The squares of an action in notation, for its arrow and for the seat's clicks;
    /// `None` for an action without squares (a button at the seat).
    fn arrow(action: &str) -> Option<Arrow>;

    /// The board of `frame` as lines of text, for a terminal.
    fn board_text(frame: &Self::Frame, style: TermStyle) -> String;

    /// The clock a game with a human seat gets when none is named (`--tc` text): a person
    /// needs more than a bot's second.
    const HUMAN_CLOCK: &'static str;

    /// A legal answer the person may start from, for a decision that is a whole value to
    /// compose (a formation), or `None`.
    fn suggestion(&self, _side: Side, _decision: &str, _seed: u64) -> Option<String> {
        None
    }

    /// Would `draft` be legal now, and would it draw a flag? `None` when the game judges
    /// drafts by what the open request offers (any sub-move is offered as is).
    fn judge_draft(&self, _draft: &str) -> Option<Verdict> {
        None
    }
}

/// The squares of an action as drawn: a move, a throw, a shift, a kick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arrow {
    pub from: String,
    pub to: String,
    /// A knight move's corner square (the end of its first leg), when its route mattered.
    pub corner: Option<String>,
    /// `move`, `throw`, `shift` (Football Chess), `move`, `kick` (Boyer's Football).
    pub kind: &'static str,
}

/// The verdict on a person's draft at the human seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The referee would apply it.
    pub legal: bool,
    /// It is legal and draws this flag (a formation fault, a false start...).
    pub flag: Option<String>,
    /// Why it is not legal.
    pub problem: Option<String>,
}

impl Verdict {
    /// Legal, drawing `flag` if any.
    pub fn legal(flag: Option<String>) -> Verdict {
        Verdict {
            legal: true,
            flag,
            problem: None,
        }
    }

    /// Not legal, for `problem`.
    pub fn illegal(problem: impl fmt::Display) -> Verdict {
        Verdict {
            legal: false,
            flag: None,
            problem: Some(problem.to_string()),
        }
    }
}

/// One game as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub version: u32,
    /// The game (`football-chess`, `boyer-football`): its frames are drawn accordingly.
    pub rules: &'static str,
    /// The record's tags, in order (names and values as written; the page escapes them).
    pub tags: Vec<(String, String)>,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub termination: String,
    /// Where the game stands before the first entry.
    pub start: AnyFrame,
    pub steps: Vec<Step>,
    /// Why the replay stopped before the end of the record, or `None`.
    pub error: Option<String>,
}

/// One entry of the record and the position after it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The movetext token: the action's notation, or `!` and a clock.
    pub token: String,
    /// The team that decided (`null` for a clock expiry).
    pub side: Option<Side>,
    /// `action` or `expiry`.
    pub kind: &'static str,
    /// The header, when a new play (a new turn) begins with this entry.
    pub header: Option<String>,
    /// Think time of the decision and game clock left after it, in milliseconds.
    pub emt_ms: Option<u64>,
    pub clk_ms: Option<u64>,
    /// Squares of the last action, for its arrow: a move, a shift, a throw, a kick.
    pub from: Option<String>,
    pub to: Option<String>,
    /// A knight move's corner square (the end of its first leg), when its route mattered.
    pub corner: Option<String>,
    /// The arrow's kind, or `null`.
    pub arrow: Option<&'static str>,
    /// Pushes this entry caused: [from, to] of the pushed piece.
    pub pushes: Vec<[String; 2]>,
    /// What happened, in words (the engine's terse event lines).
    pub events: Vec<String>,
    /// The entry in one plain-English sentence, its action and what it caused ("Black's
    /// king throws forward from e4 to a3; incomplete."): each game's `caption` module.
    pub caption: String,
    /// The play (the game) ended, or a flag was thrown, in this entry (for the
    /// play-by-play list).
    pub notable: bool,
    /// The frame shows the position as a play (a turn) ended with this entry, before it
    /// was cleared for the next one.
    pub play_end: bool,
    pub frame: AnyFrame,
}

impl Step {
    /// Sets the arrow's fields from `arrow`.
    pub(crate) fn with_arrow(mut self, arrow: Option<Arrow>) -> Step {
        if let Some(a) = arrow {
            self.from = Some(a.from);
            self.to = Some(a.to);
            self.corner = a.corner;
            self.arrow = Some(a.kind);
        }
        self
    }
}

/// A game being replayed into steps, one entry at a time: the one path by which recorded
/// games ([`view_game`]) and live ones become a view stream, whatever the game.
pub struct Replay {
    game: Box<dyn Replaying>,
    entries: usize,
}

/// [`Viewed`] without its types, so that one [`Replay`] holds any game.
trait Replaying: Send {
    fn frame(&self) -> AnyFrame;
    fn apply(&mut self, entry: &Entry) -> Result<(), ReplayError>;
    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError>;
    fn suggestion(&self, side: Side, decision: &str, seed: u64) -> Option<String>;
    fn judge_draft(&self, draft: &str) -> Option<Verdict>;
}

impl<G: Viewed> Replaying for G {
    fn frame(&self) -> AnyFrame {
        Viewed::frame(self).into()
    }

    fn apply(&mut self, entry: &Entry) -> Result<(), ReplayError> {
        entry.apply_to(self).map(|_| ())
    }

    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        Viewed::step(self, entry)
    }

    fn suggestion(&self, side: Side, decision: &str, seed: u64) -> Option<String> {
        Viewed::suggestion(self, side, decision, seed)
    }

    fn judge_draft(&self, draft: &str) -> Option<Verdict> {
        Viewed::judge_draft(self, draft)
    }
}

impl Replay {
    /// A replay of a game that starts as `game` stands (a new game, or one from a start
    /// situation).
    pub fn new<G: Viewed>(game: G) -> Replay {
        Replay {
            game: Box::new(game),
            entries: 0,
        }
    }

    /// The frame before the first entry (or where the replay stands now).
    pub fn frame(&self) -> AnyFrame {
        self.game.frame()
    }

    /// Entries applied so far.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Applies `entry` without making its step (catching up to where a viewer resumes).
    pub fn skip(&mut self, entry: &Entry) -> Result<(), String> {
        let applied = self.game.apply(entry);
        self.counted(entry, applied)
    }

    /// Applies `entry` and returns its step, or why it does not replay.
    pub fn step(&mut self, entry: &Entry) -> Result<Step, String> {
        let step = self.game.step(entry);
        self.counted(entry, step)
    }

    /// A legal answer for the person to start from (see [`Viewed::suggestion`]).
    pub fn suggestion(&self, side: Side, decision: &str, seed: u64) -> Option<String> {
        self.game.suggestion(side, decision, seed)
    }

    /// The game's verdict on a draft (see [`Viewed::judge_draft`]).
    pub fn judge_draft(&self, draft: &str) -> Option<Verdict> {
        self.game.judge_draft(draft)
    }

    /// Counts an applied entry, or names the one that did not replay.
    fn counted<T>(&mut self, entry: &Entry, applied: Result<T, ReplayError>) -> Result<T, String> {
        let done = applied.map_err(|e| {
            format!(
                "entry {} ('{entry}') does not replay: {e}",
                self.entries + 1
            )
        })?;
        self.entries += 1;
        Ok(done)
    }
}

/// The frame of a game at its start, for a view whose record names no playable game.
fn blank_frame() -> AnyFrame {
    Viewed::frame(&crate::games::football_chess::Game::default()).into()
}

/// The head of a record's view: tags, names, result, and the start frame; no steps yet.
/// `Err` holds the head with the reason the record cannot be replayed at all.
pub fn view_head(rec: &GameRecord) -> Result<(GameView, Replay), Box<GameView>> {
    let tag = |name: &str| rec.tags.get(name).unwrap_or("?").to_string();
    let tags: Vec<(String, String)> = rec
        .tags
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let rules = rec.rules();
    let mut view = GameView {
        version: VIEW_VERSION,
        rules: rules.as_ref().map_or(Rules::default().name(), |r| r.name()),
        tags,
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
        termination: tag("Termination"),
        start: blank_frame(),
        steps: Vec::new(),
        error: None,
    };
    // The tags and the edition are checked the way `zebra verify` checks them; the replay
    // then stops at the first entry the engine rejects.
    let replay = rules
        .map_err(|e| format!("tags: {e}"))
        .and_then(|rules| rec.rulings().map(|()| rules).map_err(|e| e.to_string()))
        .and_then(|rules| {
            crate::with_rules!(rules, G => G::from_tags(&rec.tags).map(Replay::new::<G>))
                .map_err(|e| format!("tags: {e}"))
        });
    match replay {
        Ok(replay) => {
            view.start = replay.frame();
            Ok((view, replay))
        }
        Err(e) => {
            view.error = Some(e);
            Err(Box::new(view))
        }
    }
}

/// Replays one record into its view. Never fails: a record that stops replaying keeps the
/// frames before the problem and names it in `error`.
pub fn view_game(rec: &GameRecord) -> GameView {
    let mut view = view_so_far(rec);
    // The end of the game as `zebra verify` judges it (result, termination, score).
    if view.error.is_none() {
        if let Err(d) = verify_any(rec) {
            view.error = Some(d.to_string());
        }
    }
    view
}

/// The view of a game still being played: every entry replayed, its end not judged.
pub fn view_so_far(rec: &GameRecord) -> GameView {
    let (mut view, mut replay) = match view_head(rec) {
        Ok(head) => head,
        Err(view) => return *view,
    };
    for entry in &rec.entries {
        match replay.step(entry) {
            Ok(step) => view.steps.push(step),
            Err(e) => {
                view.error = Some(e);
                break;
            }
        }
    }
    view
}

/// Every game of a record file's text, or the reading problem (with its line).
pub fn view_games(text: &str) -> Result<Vec<GameView>, RecordError> {
    Ok(crate::record::read_games(text)?
        .iter()
        .map(view_game)
        .collect())
}

/// The seat's offer for a request's legal actions: those with squares (clicks on the
/// board) and those without (buttons), in the request's order.
pub fn offer<G: Viewed>(legal: Vec<String>) -> (Vec<(String, Arrow)>, Vec<String>) {
    let mut moves = Vec::new();
    let mut buttons = Vec::new();
    for text in legal {
        match G::arrow(&text) {
            Some(arrow) => moves.push((text, arrow)),
            None => buttons.push(text),
        }
    }
    (moves, buttons)
}
