//! The view stream: a game replayed through the engine into what the viewer draws.
//!
//! One [`Frame`] before the first entry and one after every entry of the record: the pieces
//! on the field (piles bottom first), the ball and its state, the down, distance, spot,
//! score, quarter, timeouts and clocks, the flags of the play, and the sidelines. Each
//! [`Step`] also carries what the viewer draws as the last action (its squares, a knight's
//! route, pushes), the events in words, the play header when a play begins there, and the
//! decision's think time. The page never runs the rules itself: replay and live games reach
//! it as the same stream (schema: `protocol/schemas/view.json`, version [`VIEW_VERSION`]).
//!
//! A record that stops replaying (a divergence, another rulings edition) still gives every
//! frame up to the problem, and the problem in words: the viewer shows how far it got and
//! why it stopped, never a blank page.

use serde::Serialize;

use crate::record::{verify, Entry, GameRecord};
use crate::rules::{Action, Ball, Event, Game, KnightRoute, Phase, Side, Square};

/// The version of the view stream's shape; a viewer refuses other versions.
pub const VIEW_VERSION: u32 = 1;

/// One game as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub version: u32,
    /// The record's tags, in order (names and values as written; the page escapes them).
    pub tags: Vec<(String, String)>,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub termination: String,
    /// Where the game stands before the first entry.
    pub start: Frame,
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
    /// The play header, when a new play begins with this entry.
    pub header: Option<String>,
    /// Think time of the decision and game clock left after it, in milliseconds.
    pub emt_ms: Option<u64>,
    pub clk_ms: Option<u64>,
    /// Squares of the last action, for its arrow: a move, a shift, a throw.
    pub from: Option<String>,
    pub to: Option<String>,
    /// A knight move's corner square (the end of its first leg), when its route mattered.
    pub corner: Option<String>,
    /// `move`, `throw`, `shift`, or `null`.
    pub arrow: Option<&'static str>,
    /// Pushes this entry caused: [from, to] of the pushed piece.
    pub pushes: Vec<[String; 2]>,
    /// What happened, in words.
    pub events: Vec<String>,
    /// The play ended, or a flag was thrown, in this entry (for the play-by-play list).
    pub notable: bool,
    /// The frame shows the field as a play ended with this entry (a tackle, a score, a
    /// dead-ball foul, a timeout), before it was cleared for the next formation.
    pub play_end: bool,
    pub frame: Frame,
}

/// The ball as drawn.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum BallView {
    Spotted {
        square: String,
    },
    Carried {
        square: String,
    },
    Loose {
        square: String,
    },
    Contested {
        square: String,
    },
    InFlight {
        from: String,
        to: String,
        forward: bool,
    },
}

/// One position.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Occupied squares: square name and the pieces there, bottom first, as diagram letters
    /// (uppercase White, lowercase Black).
    pub pieces: Vec<(String, String)>,
    pub ball: BallView,
    pub offense: Side,
    pub down: u8,
    /// The ball spot of the down; its rank is the line of scrimmage.
    pub spot: String,
    /// The line to gain (rank number).
    pub to_gain: u8,
    pub goal_to_go: bool,
    pub yards_to_go: u8,
    pub quarter: u8,
    /// White's and Black's points.
    pub score: [u16; 2],
    pub timeouts: [u8; 2],
    /// `formation`, `motion`, `reaction`, `action`, `contention`, `penalty`, `over`.
    pub phase: &'static str,
    pub to_move: Option<Side>,
    pub clock_running: bool,
    /// The flags of the play not yet enforced, in words.
    pub flags: Vec<String>,
    /// Pieces on each sideline by role, in the order P N B R Q K: White's, then Black's.
    pub sidelines: [[u8; 6]; 2],
    /// The play header of the current (or next) play.
    pub situation: String,
}

impl Frame {
    /// The position a viewer shows after the last decision: the field as the play ended
    /// when that decision ended one (the tackle, the score, the foul), else the field now.
    pub fn of(game: &Game) -> Frame {
        let ended = game.field_at_play_end();
        let (board, ball) = ended.map_or((game.board(), game.ball()), |e| (&e.board, e.ball));
        let (offense, down, spot, to_gain, quarter) = ended.map_or(
            (
                game.offense(),
                game.down(),
                game.spot(),
                game.line_to_gain(),
                game.quarter(),
            ),
            |e| (e.offense, e.down, e.spot, e.to_gain, e.quarter),
        );
        let goal_to_go = to_gain == offense.goal();
        let yards_to_go = offense.gain(spot.rank(), to_gain).unsigned_abs() * 5;
        let pieces = board
            .occupied()
            .map(|sq| {
                let stack: String = board.stack_at(sq).iter().map(|p| p.char()).collect();
                (sq.name().to_string(), stack)
            })
            .collect();
        let ball = match ball {
            Ball::Spotted(s) => BallView::Spotted {
                square: s.name().to_string(),
            },
            Ball::Carried(s) => BallView::Carried {
                square: s.name().to_string(),
            },
            Ball::Loose(s) => BallView::Loose {
                square: s.name().to_string(),
            },
            Ball::Contested(s) => BallView::Contested {
                square: s.name().to_string(),
            },
            Ball::InFlight(t) => BallView::InFlight {
                from: t.from.name().to_string(),
                to: t.to.name().to_string(),
                forward: t.forward,
            },
        };
        let phase = match game.phase() {
            Phase::Formation(_) => "formation",
            Phase::Motion => "motion",
            Phase::Reaction => "reaction",
            Phase::Action(_) => "action",
            Phase::Contention(_) => "contention",
            Phase::PenaltyChoice(_) => "penalty",
            Phase::GameOver => "over",
        };
        Frame {
            pieces,
            ball,
            offense,
            down,
            spot: spot.name().to_string(),
            to_gain: to_gain.number(),
            goal_to_go,
            yards_to_go,
            quarter,
            score: [game.score(Side::White), game.score(Side::Black)],
            timeouts: [game.timeouts(Side::White), game.timeouts(Side::Black)],
            phase,
            to_move: game.to_move(),
            clock_running: game.clock_running(),
            flags: game.flags().iter().map(|f| f.to_string()).collect(),
            sidelines: [board.sideline(Side::White), board.sideline(Side::Black)],
            situation: crate::record::notes::situation_text(
                quarter,
                offense,
                down,
                (!goal_to_go).then_some(yards_to_go),
                spot,
            ),
        }
    }
}

/// The corner of a knight's route: the end of its first leg.
fn knight_corner(from: Square, to: Square, route: KnightRoute) -> String {
    let (file, rank) = match route {
        // The first leg runs along the file: the rank changes first.
        KnightRoute::FileFirst => (from.file(), to.rank()),
        KnightRoute::RankFirst => (to.file(), from.rank()),
    };
    Square::new(file, rank).name().to_string()
}

pub(crate) fn arrow_of(
    action: &Action,
) -> (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<&'static str>,
) {
    let name = |s: Square| Some(s.name().to_string());
    match *action {
        Action::Move { from, to, route } => (
            name(from),
            name(to),
            route.map(|r| knight_corner(from, to, r)),
            Some("move"),
        ),
        Action::Throw { from, to } => (name(from), name(to), None, Some("throw")),
        Action::Motion { from, to } => (name(from), name(to), None, Some("shift")),
        _ => (None, None, None, None),
    }
}

/// A game being replayed into steps, one entry at a time: the one path by which recorded
/// games ([`view_game`]) and live ones (`super::live`) become a view stream.
pub struct Replay {
    game: Game,
    entries: usize,
}

impl Replay {
    /// A replay of a game that starts as `game` stands (a new game, or one from a start
    /// situation).
    pub fn new(game: Game) -> Replay {
        Replay { game, entries: 0 }
    }

    /// The frame before the first entry (or where the replay stands now).
    pub fn frame(&self) -> Frame {
        Frame::of(&self.game)
    }

    /// The game where the replay stands.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// Entries applied so far.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Applies `entry` without making its step (catching up to where a viewer resumes).
    pub fn skip(&mut self, entry: &Entry) -> Result<(), String> {
        self.apply(entry).map(|_| ())
    }

    fn apply(&mut self, entry: &Entry) -> Result<Vec<Event>, String> {
        let events = entry.apply_to(&mut self.game).map_err(|e| {
            format!(
                "entry {} ('{entry}') does not replay: {e}",
                self.entries + 1
            )
        })?;
        self.entries += 1;
        Ok(events.to_vec())
    }

    /// Applies `entry` and returns its step, or why it does not replay.
    pub fn step(&mut self, entry: &Entry) -> Result<Step, String> {
        let header = crate::record::notes::play_header(&self.game);
        let side = match entry {
            Entry::Action { .. } => self.game.to_move(),
            Entry::Expiry { .. } => None,
        };
        let events = self.apply(entry)?;
        let (from, to, corner, arrow, emt_ms, clk_ms, kind) = match entry {
            Entry::Action {
                action,
                emt_ms,
                clk_ms,
                ..
            } => {
                // The entry replayed, so its text is an action.
                let (f, t, c, a) = action
                    .parse::<Action>()
                    .ok()
                    .as_ref()
                    .map_or((None, None, None, None), arrow_of);
                (f, t, c, a, *emt_ms, *clk_ms, "action")
            }
            Entry::Expiry { .. } => (None, None, None, None, None, None, "expiry"),
        };
        let pushes = events
            .iter()
            .filter_map(|e| match e {
                Event::Pushed { from, to } => {
                    Some([from.name().to_string(), to.name().to_string()])
                }
                _ => None,
            })
            .collect();
        let notable = events.iter().any(|e| {
            matches!(
                e,
                Event::PlayOver { .. } | Event::Flag(_) | Event::PenaltyEnforced(_)
            )
        });
        Ok(Step {
            token: entry.to_string(),
            side,
            kind,
            header,
            emt_ms,
            clk_ms,
            from,
            to,
            corner,
            arrow,
            pushes,
            events: events
                .iter()
                .filter(|e| {
                    crate::record::notes::is_notable(e)
                        || matches!(
                            e,
                            Event::Pushed { .. }
                                | Event::Tackle { .. }
                                | Event::Truck { .. }
                                | Event::Handoff { .. }
                                | Event::Snap { .. }
                        )
                })
                .map(|e| e.to_string())
                .collect(),
            notable,
            play_end: self.game.field_at_play_end().is_some(),
            frame: Frame::of(&self.game),
        })
    }
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
    let mut view = GameView {
        version: VIEW_VERSION,
        tags,
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
        termination: tag("Termination"),
        start: Frame::of(&Game::default()),
        steps: Vec::new(),
        error: None,
    };
    // The tags and the edition are checked the way `zebra verify` checks them; the replay
    // then stops at the first entry the engine rejects.
    match rec
        .rulings()
        .map_err(|e| e.to_string())
        .and_then(|()| rec.start().map_err(|e| format!("tags: {e}")))
    {
        Ok(game) => {
            let replay = Replay::new(game);
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
        if let Err(d) = verify(rec) {
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
pub fn view_games(text: &str) -> Result<Vec<GameView>, crate::record::RecordError> {
    Ok(crate::record::read_games(text)?
        .iter()
        .map(view_game)
        .collect())
}
