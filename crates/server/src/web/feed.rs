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
//!
//! A game of Boyer's Football (`rules` `boyer-football`) has [`BoyerFrame`]s instead: the
//! 9x9 board, the ball, the turn and its progress; a step is one sub-move and a new turn
//! has a header, as a new play has in Football Chess.

use serde::Serialize;

use crate::record::{verify_any, Entry, GameRecord, Recorded};
use crate::rules::{boyer, Action, Ball, Event, Game, KnightRoute, Phase, Rules, Side, Square};

/// The version of the view stream's shape; a viewer refuses other versions.
pub const VIEW_VERSION: u32 = 1;

/// One game as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub version: u32,
    /// The game: `football-chess` or `boyer-football` (its frames are drawn accordingly).
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
    pub frame: AnyFrame,
}

/// A position of either game, as the page draws it.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyFrame {
    /// Football Chess's field.
    Field(Frame),
    /// Boyer's Football's board.
    Board(BoyerFrame),
}

impl AnyFrame {
    /// Occupied squares and what stands there, as the page draws them.
    pub fn pieces(&self) -> &[(String, String)] {
        match self {
            AnyFrame::Field(f) => &f.pieces,
            AnyFrame::Board(b) => &b.pieces,
        }
    }

    /// The Football Chess field, if this is one.
    pub fn field(&self) -> Option<&Frame> {
        match self {
            AnyFrame::Field(f) => Some(f),
            AnyFrame::Board(_) => None,
        }
    }
}

/// A position of Boyer's Football.
#[derive(Clone, Debug, Serialize)]
pub struct BoyerFrame {
    /// Occupied squares and their piece's FEN letter (upper case White).
    pub pieces: Vec<(String, String)>,
    /// The ball's square.
    pub ball: String,
    /// Turns completed.
    pub turns: u32,
    /// The side to move; `null` once the game is over.
    pub to_move: Option<Side>,
    /// Sub-moves made in the turn under way, and the squares of the pieces that kicked in
    /// it (they cannot kick again).
    pub made: u8,
    pub kicked: Vec<String>,
    /// Goals: 1 for the side a goal was credited to.
    pub score: [u16; 2],
    /// `turn 3, white to move`, or how the game ended.
    pub situation: String,
}

impl BoyerFrame {
    pub fn of(game: &boyer::Game) -> BoyerFrame {
        let pos = game.position();
        let mut pieces = Vec::new();
        for rank in 0..boyer::SIZE {
            for file in 0..boyer::SIZE {
                let sq = boyer::Sq::at(file, rank).expect("on the board");
                if let Some(p) = pos.piece_at(sq) {
                    pieces.push((sq.to_string(), p.letter().to_string()));
                }
            }
        }
        let situation = match game.outcome() {
            Some(outcome) => outcome.to_string(),
            None => format!("turn {}, {} to move", pos.turns() + 1, pos.turn()),
        };
        BoyerFrame {
            pieces,
            ball: pos.ball().to_string(),
            turns: pos.turns(),
            to_move: game.outcome().is_none().then(|| pos.turn()),
            made: pos.made(),
            kicked: pos.kicked().iter().map(|s| s.to_string()).collect(),
            score: [game.goals(Side::White), game.goals(Side::Black)],
            situation,
        }
    }
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
    game: Replaying,
    entries: usize,
}

/// The game a replay holds. One per viewer feed: the size of the larger game costs nothing
/// worth a box.
#[allow(clippy::large_enum_variant)]
enum Replaying {
    Field(Game),
    Board(boyer::Game),
}

impl Replay {
    /// A replay of a game that starts as `game` stands (a new game, or one from a start
    /// situation).
    pub fn new(game: Game) -> Replay {
        Replay {
            game: Replaying::Field(game),
            entries: 0,
        }
    }

    /// A replay of a game of Boyer's Football from `game`.
    pub fn boyer(game: boyer::Game) -> Replay {
        Replay {
            game: Replaying::Board(game),
            entries: 0,
        }
    }

    /// The frame before the first entry (or where the replay stands now).
    pub fn frame(&self) -> AnyFrame {
        match &self.game {
            Replaying::Field(g) => AnyFrame::Field(Frame::of(g)),
            Replaying::Board(g) => AnyFrame::Board(BoyerFrame::of(g)),
        }
    }

    /// The Football Chess game where the replay stands (`None` for another game).
    pub fn into_game(self) -> Option<Game> {
        match self.game {
            Replaying::Field(g) => Some(g),
            Replaying::Board(_) => None,
        }
    }

    /// Entries applied so far.
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Applies `entry` without making its step (catching up to where a viewer resumes).
    pub fn skip(&mut self, entry: &Entry) -> Result<(), String> {
        let applied = match &mut self.game {
            Replaying::Field(g) => entry.apply_to(g).map(|_| ()),
            Replaying::Board(g) => entry.apply_to(g).map(|_| ()),
        };
        counted(&mut self.entries, entry, applied)
    }

    /// Applies `entry` and returns its step, or why it does not replay.
    pub fn step(&mut self, entry: &Entry) -> Result<Step, String> {
        match &mut self.game {
            Replaying::Field(game) => field_step(game, &mut self.entries, entry),
            Replaying::Board(game) => board_step(game, &mut self.entries, entry),
        }
    }
}

/// Counts an applied entry in `entries`, or names the one that did not replay.
fn counted<T>(
    entries: &mut usize,
    entry: &Entry,
    applied: Result<T, impl std::fmt::Display>,
) -> Result<T, String> {
    let done =
        applied.map_err(|e| format!("entry {} ('{entry}') does not replay: {e}", *entries + 1))?;
    *entries += 1;
    Ok(done)
}

/// An entry of Football Chess: its arrow, pushes, events and the field after it.
fn field_step(game: &mut Game, entries: &mut usize, entry: &Entry) -> Result<Step, String> {
    let header = crate::record::notes::play_header(game);
    let side = match entry {
        Entry::Action { .. } => game.to_move(),
        Entry::Expiry { .. } => None,
    };
    let applied = entry.apply_to(game);
    let events = counted(entries, entry, applied)?;
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
            Event::Pushed { from, to } => Some([from.name().to_string(), to.name().to_string()]),
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
        play_end: game.field_at_play_end().is_some(),
        frame: AnyFrame::Field(Frame::of(game)),
    })
}

/// A sub-move of Boyer's Football: its arrow (the piece's move, or the ball's flight for a
/// kick), a header where a turn begins, the turn's end as `play_end`.
fn board_step(game: &mut boyer::Game, entries: &mut usize, entry: &Entry) -> Result<Step, String> {
    let header = game.header();
    let side = game.position().turn();
    let ball_before = game.position().ball();
    let applied = entry.apply_to(game);
    let events = counted(entries, entry, applied)?;
    let sub = match entry {
        Entry::Action { action, .. } => action.parse::<boyer::SubMove>().ok(),
        Entry::Expiry { .. } => None,
    };
    let (from, to, arrow) = match sub {
        Some(boyer::SubMove::Move { from, to }) => {
            (Some(from.to_string()), Some(to.to_string()), Some("move"))
        }
        Some(boyer::SubMove::Kick { to, .. }) => (
            Some(ball_before.to_string()),
            Some(to.to_string()),
            Some("kick"),
        ),
        _ => (None, None, None),
    };
    let over = events
        .iter()
        .any(|e| matches!(e, boyer::Event::GameOver { .. }));
    Ok(Step {
        token: entry.to_string(),
        side: Some(side),
        kind: "action",
        header,
        emt_ms: None,
        clk_ms: None,
        from,
        to,
        corner: None,
        arrow,
        pushes: Vec::new(),
        events: events
            .iter()
            .filter(|e| !matches!(e, boyer::Event::Played { .. }))
            .map(|e| e.to_string())
            .collect(),
        notable: over,
        play_end: game.position().at_turn_start() || over,
        frame: AnyFrame::Board(BoyerFrame::of(game)),
    })
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
        rules: rules.as_ref().map_or("football-chess", |r| r.name()),
        tags,
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
        termination: tag("Termination"),
        start: AnyFrame::Field(Frame::of(&Game::default())),
        steps: Vec::new(),
        error: None,
    };
    // The tags and the edition are checked the way `zebra verify` checks them; the replay
    // then stops at the first entry the engine rejects.
    let replay = rules
        .map_err(|e| format!("tags: {e}"))
        .and_then(|rules| rec.rulings().map(|()| rules).map_err(|e| e.to_string()))
        .and_then(|rules| {
            match rules {
                Rules::FootballChess => rec.start().map(Replay::new),
                Rules::BoyerFootball => boyer::Game::from_tags(&rec.tags).map(Replay::boyer),
            }
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
pub fn view_games(text: &str) -> Result<Vec<GameView>, crate::record::RecordError> {
    Ok(crate::record::read_games(text)?
        .iter()
        .map(view_game)
        .collect())
}
