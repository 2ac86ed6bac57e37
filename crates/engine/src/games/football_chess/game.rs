//! The game value: the whole state of a Football Chess game, changed only by [`Game::apply`]
//! (a team's decision) and [`Game::expire`] (a clock the referee saw run out).
//!
//! This module owns the series of downs, the score, the quarters, the pre-snap phases and
//! the end of every play (scores, first downs, turnovers, penalty enforcement). The action
//! phase (moves, pushes, throws, contention) lives in [`super::play`].

use arrayvec::ArrayVec;

use super::action::{Action, Clock, Formation};
use super::board::Board;
use super::error::{ActionError, FormationError, FormationFault};
use super::event::{Event, GameResult, PlayEnd};
use super::penalty::{EnforceFrom, Foul, FoulKind};
use super::types::{Bitboard, Dir, Rank, Role, Side, Square};

/// Most events one action can cause (a move that scores and ends the game emits about 12).
pub(crate) const MAX_EVENTS: usize = 32;

/// The events one action caused, in order.
pub type Events = ArrayVec<Event, MAX_EVENTS>;

/// How long a quarter lasts (R18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuarterLength {
    /// By wall time: the referee reports [`Clock::Game`] when it runs out.
    Timed,
    /// A fixed number of plays, for reproducible matches without clocks. Every snapped play
    /// counts, and a dead-ball foul only when it costs a down or awards a score (R44).
    Plays(u16),
}

/// The settings a game is created with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    pub quarter: QuarterLength,
}

impl Settings {
    /// Quarters of `n` plays each (R18); 0 counts as 1.
    pub const fn plays(n: u16) -> Settings {
        Settings {
            quarter: QuarterLength::Plays(n),
        }
    }
    /// Quarters measured by the referee's wall clock.
    pub const fn timed() -> Settings {
        Settings {
            quarter: QuarterLength::Timed,
        }
    }
}

/// Where the game stands, and who must decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The side places its formation: the offense first, then the defense (3.2).
    Formation(Side),
    /// The offense moves one piece in motion, or snaps (3.3, 3.4).
    Motion,
    /// The defense may answer the last motion (3.3).
    Reaction,
    /// The action phase: the side moves or throws (4).
    Action(Side),
    /// The ball is loose on a square with pieces on it: the side contests or passes (4.2).
    Contention(Side),
    /// The side decides on the opponent's flags of the finished play (7.3).
    PenaltyChoice(Side),
    GameOver,
}

/// What kind of decision is asked of a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    Formation,
    MotionOrSnap,
    Reaction,
    Move,
    Contention,
    PenaltyChoice,
}

impl DecisionKind {
    pub const ALL: [DecisionKind; 6] = [
        DecisionKind::Formation,
        DecisionKind::MotionOrSnap,
        DecisionKind::Reaction,
        DecisionKind::Move,
        DecisionKind::Contention,
        DecisionKind::PenaltyChoice,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            DecisionKind::Formation => "formation",
            DecisionKind::MotionOrSnap => "motion",
            DecisionKind::Reaction => "reaction",
            DecisionKind::Move => "move",
            DecisionKind::Contention => "contention",
            DecisionKind::PenaltyChoice => "penalty",
        }
    }
}

impl std::fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Who must decide what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    pub side: Side,
    pub kind: DecisionKind,
}

/// A pass in the air (4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Throw {
    pub from: Square,
    pub to: Square,
    /// The throwing team.
    pub side: Side,
    pub forward: bool,
    /// Thrown onto a friendly receiver (direct) or onto an empty square (indirect).
    pub direct: bool,
    /// Indirect throws: the opponent has had its turn to intercept.
    pub defense_done: bool,
}

/// Where the ball is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ball {
    /// Before the snap: on the line of scrimmage, under the snapper.
    Spotted(Square),
    /// Held by the topmost piece on the square.
    Carried(Square),
    /// On the ground, nobody on it.
    Loose(Square),
    /// Loose with pieces on it: in contention (4.2).
    Contested(Square),
    InFlight(Throw),
}

impl Ball {
    /// The square the ball is on or flying to.
    pub const fn square(self) -> Square {
        match self {
            Ball::Spotted(s) | Ball::Carried(s) | Ball::Loose(s) | Ball::Contested(s) => s,
            Ball::InFlight(t) => t.to,
        }
    }
}

/// Bookkeeping of the current play, reset at every formation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlayState {
    /// Squares of offensive pieces that already went in motion (R4).
    pub moved: Bitboard,
    /// Action-phase turns taken (R13).
    pub turns: u8,
    /// The team that has, or last had, the ball.
    pub possession: Side,
    /// The ball changed hands during the play (R10).
    pub changed: bool,
    pub forward_pass: bool,
    pub thrown: bool,
    /// The offense carried the ball beyond the line of scrimmage (4.3).
    pub crossed: bool,
    /// The last turn's push: (pusher's square, pushed piece's square, pushing side).
    pub last_push: Option<(Square, Square, Side)>,
    /// Post-snap flags, at most one per team and kind.
    pub fouls: ArrayVec<Foul, 8>,
    /// Bit `i` set: `fouls[i]` was thrown after the ball first changed hands (R59).
    pub after_change: u8,
    /// Bit `i` set: `fouls[i]` was thrown while the other team held (or last held) the
    /// ball: a team that ends the play with the ball after such a foul has no clean hands
    /// (R59, edition 3).
    pub unheld: u8,
}

impl PlayState {
    fn new(offense: Side) -> PlayState {
        PlayState {
            moved: Bitboard::EMPTY,
            turns: 0,
            possession: offense,
            changed: false,
            forward_pass: false,
            thrown: false,
            crossed: false,
            last_push: None,
            fouls: ArrayVec::new(),
            after_change: 0,
            unheld: 0,
        }
    }
}

/// A finished play waiting for the penalty decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub end: PlayEnd,
    pub at: Square,
    pub possession: Side,
}

/// The field as a play ended (or a dead-ball foul, a timeout or the end of a period cleared
/// it), with the situation of that play: what a viewer shows for the decision that ended
/// it, since the game itself has moved on to the next formation (see
/// [`Game::field_at_play_end`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndedField {
    pub board: Board,
    pub ball: Ball,
    /// The offense, down, ball spot, line to gain and quarter of the play that ended.
    pub offense: Side,
    pub down: u8,
    pub spot: Square,
    pub to_gain: Rank,
    pub quarter: u8,
}

/// R13: a play still running after this many action-phase turns is whistled dead.
pub const MAX_PLAY_TURNS: u8 = 64;
/// Timeouts per team per half (6.4).
pub(crate) const TIMEOUTS_PER_HALF: u8 = 3;

/// A whole game of Football Chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) settings: Settings,
    pub(crate) board: Board,
    pub(crate) ball: Ball,
    pub(crate) phase: Phase,
    /// The team with the ball for this series of downs.
    pub(crate) offense: Side,
    pub(crate) down: u8,
    /// The ball spot for the snap: its rank is the line of scrimmage (R3).
    pub(crate) spot: Square,
    /// The line to gain; the opponent's goal line when it is goal to go.
    pub(crate) to_gain: Rank,
    pub(crate) quarter: u8,
    pub(crate) score: [u16; 2],
    pub(crate) timeouts: [u8; 2],
    pub(crate) clock_running: bool,
    /// The game clock of this quarter ran out during a play: the quarter ends with it.
    pub(crate) clock_expired: bool,
    pub(crate) plays: u16,
    pub(crate) play: PlayState,
    pub(crate) pending: Option<Outcome>,
    pub(crate) result: Option<GameResult>,
    /// Fouls enforced against each team in a row, since a play last stood (R58).
    pub(crate) fouls_in_row: [u8; 2],
    /// The last enforcement was a defensive foul: a period may not end on it (R62). Kept
    /// from the enforcement to the next snap.
    pub(crate) extend_period: bool,
    /// This down is an untimed down (R62).
    pub(crate) untimed: bool,
    /// The field and the ball as the last decision ended a play (or a foul or a timeout
    /// cleared the field), kept until the next decision: for viewers, which would otherwise
    /// only see the cleared field of the next formation.
    pub(crate) play_end: Option<EndedField>,
    /// The situation of the play being ended, captured before its result changes it.
    pub(crate) ending: Option<(Side, u8, Square, Rank, u8)>,
}

/// R2: where a side starts each drive, 20 yards (4 ranks) out of its own end zone.
/// White on e5, Black on d4: the same spot seen from each side (a half-turn of the board).
pub const fn drive_start(side: Side) -> Square {
    match side {
        Side::White => Square(4 * 8 + 4),
        Side::Black => Square(3 * 8 + 3),
    }
}

/// The line to gain from a spot: 10 yards (2 ranks) ahead, or the goal line (5.1).
pub(crate) fn line_to_gain(offense: Side, spot: Square) -> Rank {
    match spot.rank().offset(2 * offense.forward()) {
        Some(r) if r != offense.goal() => r,
        _ => offense.goal(),
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Settings::timed())
    }
}

impl Game {
    /// A new game: White has the ball on its own 20 (R1, R2) and forms first.
    pub fn new(settings: Settings) -> Game {
        let offense = Side::White;
        let spot = drive_start(offense);
        Game {
            settings,
            board: Board::new(),
            ball: Ball::Spotted(spot),
            phase: Phase::Formation(offense),
            offense,
            down: 1,
            spot,
            to_gain: line_to_gain(offense, spot),
            quarter: 1,
            score: [0, 0],
            timeouts: [TIMEOUTS_PER_HALF; 2],
            clock_running: false,
            clock_expired: false,
            plays: 0,
            play: PlayState::new(offense),
            pending: None,
            result: None,
            fouls_in_row: [0; 2],
            extend_period: false,
            untimed: false,
            play_end: None,
            ending: None,
        }
    }

    /// A game that starts from `situation` instead of the opening drive: its quarter,
    /// score, timeouts, offense, spot, down and line to gain, the offense to form first, the
    /// clock stopped. With quarters of a number of plays, the plays already run in the
    /// quarter follow its share left (`Situation::plays_run`); with timed quarters the
    /// referee starts its game clock at that share.
    pub fn from_situation(settings: Settings, situation: &super::situation::Situation) -> Game {
        let offense = situation.offense();
        let spot = situation.spot();
        let mut game = Game::new(settings);
        game.offense = offense;
        game.ball = Ball::Spotted(spot);
        game.phase = Phase::Formation(offense);
        game.down = situation.down();
        game.spot = spot;
        game.to_gain = situation.line_to_gain();
        game.quarter = situation.quarter();
        game.score = situation.score();
        game.timeouts = situation.timeouts();
        game.plays = match settings.quarter {
            QuarterLength::Plays(n) => situation.plays_run(n.max(1)),
            QuarterLength::Timed => 0,
        };
        game.play = PlayState::new(offense);
        game
    }

    // ---- reading the state ----

    pub fn settings(&self) -> Settings {
        self.settings
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn ball(&self) -> Ball {
        self.ball
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The team with the ball for this series of downs.
    pub fn offense(&self) -> Side {
        self.offense
    }
    pub fn defense(&self) -> Side {
        self.offense.other()
    }
    /// The current down, 1..=4.
    pub fn down(&self) -> u8 {
        self.down
    }
    /// The ball spot of the current down; its rank is the line of scrimmage.
    pub fn spot(&self) -> Square {
        self.spot
    }
    pub fn line_of_scrimmage(&self) -> Rank {
        self.spot.rank()
    }
    pub fn line_to_gain(&self) -> Rank {
        self.to_gain
    }
    /// Yards to gain for a first down (5 per rank).
    pub fn yards_to_go(&self) -> u8 {
        self.offense
            .gain(self.spot.rank(), self.to_gain)
            .unsigned_abs()
            * 5
    }
    pub fn is_goal_to_go(&self) -> bool {
        self.to_gain == self.offense.goal()
    }
    /// The quarter, 1..=4.
    pub fn quarter(&self) -> u8 {
        self.quarter
    }
    pub fn score(&self, side: Side) -> u16 {
        self.score[side.index()]
    }
    pub fn timeouts(&self, side: Side) -> u8 {
        self.timeouts[side.index()]
    }
    /// Whether the game clock runs now (it stops at the events of 6.3 until the next snap).
    pub fn clock_running(&self) -> bool {
        self.clock_running
    }
    /// Plays counted in this quarter (R18).
    pub fn plays_in_quarter(&self) -> u16 {
        self.plays
    }
    /// Fouls enforced against `side` in a row, since a play last stood or the ball last
    /// changed hands (R58): the next foul of that team is number `fouls_in_row + 1`.
    pub fn fouls_in_row(&self, side: Side) -> u8 {
        self.fouls_in_row[side.index()]
    }
    /// Whether this down is an untimed down: the period's plays or time ran out on a
    /// defensive foul (R62).
    pub fn is_untimed_down(&self) -> bool {
        self.untimed
    }
    /// Action-phase turns taken in this play (R13).
    pub fn play_turns(&self) -> u8 {
        self.play.turns
    }
    /// The team that has, or last had, the ball in this play.
    pub fn possession(&self) -> Side {
        self.play.possession
    }
    /// A forward pass was thrown in this play.
    pub fn forward_pass_thrown(&self) -> bool {
        self.play.forward_pass
    }
    /// The offense carried the ball beyond the line of scrimmage in this play.
    pub fn ball_crossed_line(&self) -> bool {
        self.play.crossed
    }
    /// The push of the last turn, if that turn pushed: (the pusher's square, the pushed
    /// piece's square, the pushing side). Pushing that pusher back now is holding (R39).
    pub fn last_push(&self) -> Option<(Square, Square, Side)> {
        self.play.last_push
    }
    /// The finished play a penalty choice is about: how it ended, where, and who had the
    /// ball. Declining the flags lets this result stand.
    pub fn pending_play(&self) -> Option<(PlayEnd, Square, Side)> {
        self.pending.map(|o| (o.end, o.at, o.possession))
    }
    /// Flags thrown in this play, not yet enforced.
    pub fn flags(&self) -> &[Foul] {
        &self.play.fouls
    }
    /// Squares of offensive pieces that already went in motion this play (R4).
    pub fn moved_in_motion(&self) -> Bitboard {
        self.play.moved
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Who must decide what, or `None` once the game is over.
    pub fn decision(&self) -> Option<Decision> {
        let (side, kind) = match self.phase {
            Phase::Formation(s) => (s, DecisionKind::Formation),
            Phase::Motion => (self.offense, DecisionKind::MotionOrSnap),
            Phase::Reaction => (self.defense(), DecisionKind::Reaction),
            Phase::Action(s) => (s, DecisionKind::Move),
            Phase::Contention(s) => (s, DecisionKind::Contention),
            Phase::PenaltyChoice(s) => (s, DecisionKind::PenaltyChoice),
            Phase::GameOver => return None,
        };
        Some(Decision { side, kind })
    }

    /// The side that must decide now.
    pub fn to_move(&self) -> Option<Side> {
        self.decision().map(|d| d.side)
    }

    fn expected(&self) -> String {
        match self.decision() {
            Some(d) => format!("{} must decide on a {}", d.side, d.kind.code()),
            None => "the game is over".to_string(),
        }
    }

    pub(crate) fn not_now(&self, action: &Action) -> ActionError {
        ActionError::NotNow {
            action: action.to_string(),
            expected: self.expected(),
        }
    }

    /// Whether the deciding team may call a timeout now (6.4, R46: before the snap, with one
    /// left, whether or not the game clock runs).
    pub fn can_call_timeout(&self) -> bool {
        self.check_timeout().is_ok()
    }

    fn check_timeout(&self) -> Result<Side, ActionError> {
        let side = match self.phase {
            Phase::Formation(s) => s,
            Phase::Motion => self.offense,
            Phase::Reaction => self.defense(),
            _ => return Err(self.not_now(&Action::Timeout)),
        };
        if self.timeouts[side.index()] == 0 {
            return Err(ActionError::NoTimeouts(side));
        }
        Ok(side)
    }

    // ---- changing the state ----

    /// Applies one team's decision. On error the game is unchanged.
    pub fn apply(&mut self, action: &Action) -> Result<Events, ActionError> {
        let mut events = Events::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] with the events written into `events` (cleared first; left empty on
    /// error): a search or a playout applies millions of actions, and a list of events
    /// returned by value is copied, hundreds of bytes, at every one.
    pub fn apply_into(&mut self, action: &Action, events: &mut Events) -> Result<(), ActionError> {
        events.clear();
        // Most decisions follow one that did not end a play: then there is nothing to keep,
        // and no field to move out and back (a board's worth of bytes per action).
        let kept = if self.play_end.is_some() {
            self.play_end.take()
        } else {
            None
        };
        let result = self.apply_step(action, events);
        if result.is_err() {
            events.clear();
            if kept.is_some() {
                self.play_end = kept;
            }
        }
        result
    }

    /// The field and the ball as the last decision ended a play, before the field was
    /// cleared for the next formation (also when a dead-ball foul, a timeout or the end of
    /// a period cleared it); `None` after any other decision. Viewers show this position
    /// for the decision that ended the play.
    pub fn field_at_play_end(&self) -> Option<&EndedField> {
        self.play_end.as_ref()
    }

    /// Remembers the situation of the play that is ending, before its result moves on.
    fn note_ending(&mut self) {
        if self.ending.is_none() {
            self.ending = Some((
                self.offense,
                self.down,
                self.spot,
                self.to_gain,
                self.quarter,
            ));
        }
    }

    /// Keeps the field as it is now, with the situation noted for it, for viewers.
    fn keep_field(&mut self) {
        let (offense, down, spot, to_gain, quarter) = self.ending.take().unwrap_or((
            self.offense,
            self.down,
            self.spot,
            self.to_gain,
            self.quarter,
        ));
        self.play_end = Some(EndedField {
            board: self.board.clone(),
            ball: self.ball,
            offense,
            down,
            spot,
            to_gain,
            quarter,
        });
    }

    fn apply_step(&mut self, action: &Action, ev: &mut Events) -> Result<(), ActionError> {
        match (self.phase, *action) {
            (Phase::GameOver, _) => return Err(ActionError::GameOver),
            (_, Action::Timeout) => self.timeout(ev)?,
            (Phase::Formation(side), Action::Formation(f)) => self.form(side, &f, ev)?,
            (Phase::Motion, Action::Motion { from, to }) => self.motion(from, to, ev)?,
            (Phase::Reaction, Action::Motion { from, to }) => self.reaction(from, to, ev)?,
            (Phase::Motion | Phase::Reaction, Action::Enter { role, to }) => {
                self.enter(role, to, ev)?
            }
            (Phase::Motion | Phase::Reaction, Action::Exit { from }) => self.exit(from, ev)?,
            (Phase::Motion, Action::Snap) => self.snap(ev),
            (Phase::Reaction, Action::Pass) => {
                ev.push(Event::Passed {
                    side: self.defense(),
                });
                self.phase = Phase::Motion;
            }
            (Phase::Action(side), Action::Move { from, to, route }) => {
                let plan = self.plan_move(side, from, to, route, false)?;
                self.execute_move(side, plan, ev);
            }
            (Phase::Action(side), Action::Throw { from, to }) => self.throw(side, from, to, ev)?,
            (Phase::Action(side), Action::Pass) => {
                if self.has_any_move(side) {
                    return Err(ActionError::PassNotAllowed);
                }
                ev.push(Event::Passed { side });
                self.turn_without_move(side, ev);
            }
            (Phase::Contention(side), Action::Move { from, to, route }) => {
                let plan = self.plan_move(side, from, to, route, true)?;
                self.execute_move(side, plan, ev);
            }
            (Phase::Contention(side), Action::Pass) => {
                ev.push(Event::Passed { side });
                self.resolve_contention(ev);
            }
            (Phase::PenaltyChoice(_), Action::Accept(kind)) => self.accept(kind, ev)?,
            (Phase::PenaltyChoice(_), Action::Decline) => self.decline(ev),
            _ => return Err(self.not_now(action)),
        }
        Ok(())
    }

    /// Applies the consequence of a clock the referee saw expire (6.2).
    ///
    /// - [`Clock::Play`] before the snap, while the offense decides: delay of game.
    /// - [`Clock::Reaction`]: the defense's formation is locked as it is (none sent: an empty
    ///   formation, an illegal formation); a reaction, action-phase turn (either team, R17) or
    ///   contention is missed; an unanswered penalty choice takes the option best for the
    ///   team that did not answer (R60, [`Game::penalty_default`]).
    /// - [`Clock::Game`] (timed quarters, while the clock runs): between plays the period ends
    ///   at once; during a play it ends when the play is over.
    pub fn expire(&mut self, clock: Clock) -> Result<Events, ActionError> {
        let kept = self.play_end.take();
        let result = self.expire_step(clock);
        if result.is_err() {
            self.play_end = kept;
        }
        result
    }

    fn expire_step(&mut self, clock: Clock) -> Result<Events, ActionError> {
        let mut ev = Events::new();
        let not_running = |g: &Game| ActionError::ClockNotRunning {
            clock: clock.to_string(),
            expected: g.expected(),
        };
        match (clock, self.phase) {
            (_, Phase::GameOver) => return Err(ActionError::GameOver),
            (Clock::Play, Phase::Formation(s)) if s == self.offense => self.delay_of_game(&mut ev),
            (Clock::Play, Phase::Motion) => self.delay_of_game(&mut ev),
            (Clock::Reaction, Phase::Formation(s)) if s != self.offense => {
                ev.push(Event::FormationLocked { side: s });
                self.form(s, &Formation::empty(), &mut ev)?;
            }
            (Clock::Reaction, Phase::Reaction) => {
                ev.push(Event::MissedTurn {
                    side: self.defense(),
                });
                self.phase = Phase::Motion;
            }
            (Clock::Reaction, Phase::Action(side)) => {
                ev.push(Event::MissedTurn { side });
                self.turn_without_move(side, &mut ev);
            }
            (Clock::Reaction, Phase::Contention(side)) => {
                ev.push(Event::MissedTurn { side });
                self.resolve_contention(&mut ev);
            }
            (Clock::Reaction, Phase::PenaltyChoice(side)) => {
                // R60: the option best for the team that did not answer.
                ev.push(Event::MissedTurn { side });
                match self.penalty_default() {
                    Some(Action::Accept(kind)) => self.accept(kind, &mut ev)?,
                    _ => self.decline(&mut ev),
                }
            }
            (Clock::Game, phase) => {
                // The referee keeps the game clock and reports once per quarter when it
                // reaches zero, also when the last tick of a play (R70) emptied it and the
                // play's end stopped it.
                if self.settings.quarter != QuarterLength::Timed || self.clock_expired {
                    return Err(not_running(self));
                }
                // The period's end (or the play's) says the clock stopped.
                self.clock_running = false;
                match phase {
                    Phase::Formation(_) | Phase::Motion | Phase::Reaction if self.extend_period => {
                        // R62: time ran out after a defensive foul: this down is untimed.
                        self.clock_expired = true;
                        self.untimed = true;
                        ev.push(Event::UntimedDown);
                    }
                    Phase::Formation(_) | Phase::Motion | Phase::Reaction => {
                        self.keep_field();
                        self.board.clear();
                        self.play = PlayState::new(self.offense);
                        self.end_period(&mut ev);
                        self.push_next_play(&mut ev);
                    }
                    _ => self.clock_expired = true,
                }
            }
            _ => return Err(not_running(self)),
        }
        Ok(ev)
    }

    // ---- formation (3.2) ----

    /// Checks a formation for the side that must form now: `Ok` if it is legal,
    /// [`FormationError`] if it cannot be placed at all, or the [`FormationFault`] that a
    /// flag would be thrown for.
    pub fn validate_formation(&self, formation: &Formation) -> Result<(), FormationCheck> {
        let side = match self.phase {
            Phase::Formation(s) => s,
            _ => self.offense,
        };
        self.check_placeable(side, formation)
            .map_err(FormationCheck::Unplaceable)?;
        match self.formation_fault(side, formation) {
            Some(fault) => Err(FormationCheck::Fault(fault)),
            None => Ok(()),
        }
    }

    fn check_placeable(&self, side: Side, f: &Formation) -> Result<(), FormationError> {
        for role in Role::ALL {
            let count = f.count(role) as u8;
            if count > role.sideline_count() {
                return Err(FormationError::NotOnSideline {
                    role,
                    count,
                    max: role.sideline_count(),
                });
            }
        }
        let other = self.board.side(side.other());
        if let Some((_, sq)) = f.iter().find(|&(_, sq)| other.contains(sq)) {
            return Err(FormationError::SquareTaken(sq));
        }
        Ok(())
    }

    /// The first formation rule broken, in the order: too many men, too few pieces, too few
    /// pawns, snapper (offense) or king (defense), side of the line.
    fn formation_fault(&self, side: Side, f: &Formation) -> Option<FormationFault> {
        let n = f.len() as u8;
        if n > 7 {
            return Some(FormationFault::TooManyMen(n));
        }
        if n < 7 {
            return Some(FormationFault::TooFewPieces(n));
        }
        let pawns = f.count(Role::Pawn) as u8;
        if pawns < 2 {
            return Some(FormationFault::TooFewPawns(pawns));
        }
        let offense_half = Bitboard::at_or_behind(self.offense, self.spot.rank());
        if side == self.offense {
            if f.role_at(self.spot) != Some(Role::Pawn) {
                return Some(FormationFault::NoSnapper(self.spot));
            }
        } else if let Some((_, sq)) = f.iter().find(|&(r, _)| r == Role::King) {
            return Some(FormationFault::KingOnDefense(sq));
        }
        let wrong = f
            .iter()
            .find(|&(_, sq)| offense_half.contains(sq) != (side == self.offense));
        wrong.map(|(_, sq)| FormationFault::WrongSide(sq))
    }

    fn form(&mut self, side: Side, f: &Formation, ev: &mut Events) -> Result<(), ActionError> {
        self.check_placeable(side, f)?;
        for (role, sq) in f.iter() {
            self.board.put(sq, super::types::Piece::new(side, role));
        }
        ev.push(Event::FormationSet {
            side,
            pieces: f.len() as u8,
        });
        if let Some(fault) = self.formation_fault(side, f) {
            self.dead_ball_foul(side, fault.foul(), ev);
        } else if side == self.offense {
            self.phase = Phase::Formation(side.other());
        } else {
            self.phase = Phase::Motion;
        }
        Ok(())
    }

    // ---- motion and reaction (3.3) ----

    fn own_piece(&self, side: Side, sq: Square) -> Result<super::types::Piece, ActionError> {
        let piece = self.board.piece_at(sq).ok_or(ActionError::NoPiece(sq))?;
        if piece.side != side {
            return Err(ActionError::NotYours {
                square: sq,
                owner: piece.side,
            });
        }
        Ok(piece)
    }

    fn motion(&mut self, from: Square, to: Square, ev: &mut Events) -> Result<(), ActionError> {
        let side = self.offense;
        self.own_piece(side, from)?;
        if from == self.spot {
            return Err(ActionError::SnapperMoved(from));
        }
        if self.play.moved.contains(from) {
            return Err(ActionError::AlreadyMoved(from));
        }
        if self.board.occupied().contains(to) {
            return Err(ActionError::SquareTaken(to));
        }
        self.board.shift(from, to);
        self.play.moved.insert(to);
        ev.push(Event::Shifted { side, from, to });
        if Bitboard::at_or_behind(side, self.spot.rank()).contains(to) {
            self.phase = Phase::Reaction;
        } else {
            self.dead_ball_foul(side, FoulKind::FalseStart, ev);
        }
        Ok(())
    }

    fn reaction(&mut self, from: Square, to: Square, ev: &mut Events) -> Result<(), ActionError> {
        let side = self.defense();
        self.own_piece(side, from)?;
        if self.board.occupied().contains(to) {
            return Err(ActionError::SquareTaken(to));
        }
        self.board.shift(from, to);
        ev.push(Event::Shifted { side, from, to });
        if Bitboard::at_or_behind(self.offense, self.spot.rank()).contains(to) {
            // R5: beyond the line next to an offensive piece is encroachment.
            let touching = self.board.side(self.offense).any(|sq| sq.distance(to) == 1);
            let kind = if touching {
                FoulKind::Encroachment
            } else {
                FoulKind::Offsides
            };
            self.dead_ball_foul(side, kind, ev);
        } else {
            self.phase = Phase::Motion;
        }
        Ok(())
    }

    fn deciding_presnap_side(&self) -> Side {
        if self.phase == Phase::Reaction {
            self.defense()
        } else {
            self.offense
        }
    }

    fn enter(&mut self, role: Role, to: Square, ev: &mut Events) -> Result<(), ActionError> {
        let side = self.deciding_presnap_side();
        if self.board.sideline(side)[role.index()] == 0 {
            return Err(ActionError::NotOnSideline(role));
        }
        if self.board.occupied().contains(to) {
            return Err(ActionError::SquareTaken(to));
        }
        self.board.put(to, super::types::Piece::new(side, role));
        ev.push(Event::Substituted { side });
        self.dead_ball_foul(side, FoulKind::IllegalSubstitution, ev);
        Ok(())
    }

    fn exit(&mut self, from: Square, ev: &mut Events) -> Result<(), ActionError> {
        let side = self.deciding_presnap_side();
        self.own_piece(side, from)?;
        self.board.take(from);
        ev.push(Event::Substituted { side });
        self.dead_ball_foul(side, FoulKind::IllegalSubstitution, ev);
        Ok(())
    }

    // ---- snap (3.4) ----

    /// The snap receiver's square: directly behind the snapper, else two behind.
    pub fn snap_receiver(&self) -> Option<Square> {
        let back = Dir::new(0, -self.offense.forward());
        let one = self.spot.step(back)?;
        if self.board.side(self.offense).contains(one) {
            return Some(one);
        }
        let two = one.step(back)?;
        self.board.side(self.offense).contains(two).then_some(two)
    }

    fn snap(&mut self, ev: &mut Events) {
        let back = Dir::new(0, -self.offense.forward());
        self.clock_running = true;
        self.extend_period = false;
        self.play.possession = self.offense;
        self.phase = Phase::Action(self.offense);
        match self.snap_receiver() {
            Some(to) => {
                self.ball = Ball::Carried(to);
                ev.push(Event::Snap {
                    from: self.spot,
                    to,
                });
            }
            None => {
                // Two squares behind, or as far back as the field goes (R19).
                let one = self.spot.step(back).unwrap_or(self.spot);
                let at = one.step(back).unwrap_or(one);
                ev.push(Event::SnapFumbled { at });
                self.ball = Ball::Loose(at);
            }
        }
    }

    // ---- timeouts (6.4) ----

    fn timeout(&mut self, ev: &mut Events) -> Result<(), ActionError> {
        let side = self.check_timeout()?;
        self.timeouts[side.index()] -= 1;
        ev.push(Event::Timeout {
            side,
            left: self.timeouts[side.index()],
        });
        if std::mem::take(&mut self.clock_running) {
            ev.push(Event::ClockStopped);
        }
        // The timeout permits a formation reset: both teams form again.
        self.keep_field();
        self.board.clear();
        self.play = PlayState::new(self.offense);
        self.phase = Phase::Formation(self.offense);
        Ok(())
    }

    // ---- fouls (7) ----

    fn delay_of_game(&mut self, ev: &mut Events) {
        self.dead_ball_foul(self.offense, FoulKind::DelayOfGame, ev);
    }

    /// A pre-snap foul: enforced at once from the line of scrimmage (R6), at most half the
    /// distance to the goal (R57), costing more when the same team keeps fouling (R58).
    pub(crate) fn dead_ball_foul(&mut self, side: Side, kind: FoulKind, ev: &mut Events) {
        self.note_ending();
        let foul = Foul {
            side,
            kind,
            spot: self.spot,
        };
        ev.push(Event::Flag(foul));
        // R45 (edition 3): an offense cannot keep a stopped clock stopped by fouling (its
        // foul starts it); a defense's foul leaves the clock as it was, so that a trailing
        // defense cannot stop a running clock by fouling, nor a leading one run a stopped one.
        if side == self.offense {
            self.clock_running = true;
        }
        self.enforce(foul, true, ev);
    }

    /// Records a post-snap flag (the first of each kind per team stands), and whether the
    /// ball had already changed hands when it was thrown (R59).
    pub(crate) fn flag(&mut self, foul: Foul, ev: &mut Events) {
        let seen = self
            .play
            .fouls
            .iter()
            .any(|f| f.side == foul.side && f.kind == foul.kind);
        if !seen && self.play.fouls.try_push(foul).is_ok() {
            let bit = 1 << (self.play.fouls.len() - 1);
            if self.play.changed {
                self.play.after_change |= bit;
            }
            if self.play.possession != foul.side {
                self.play.unheld |= bit;
            }
            ev.push(Event::Flag(foul));
        }
    }

    /// R57: the rank a penalty of `ranks` ranks leaves the ball on, measured from `from`
    /// toward the end zone `end`: the full yardage, or half the distance to that goal when
    /// the yardage is more than half of it, in whole ranks rounded down. It never reaches
    /// the end zone, and from the rank next to it (the 1-yard line) the ball cannot move.
    pub fn penalty_rank(from: Rank, ranks: u8, end: Rank) -> Rank {
        let room = end.index().abs_diff(from.index());
        let moved = if 2 * ranks > room { room / 2 } else { ranks };
        let step = if end.index() > from.index() { 1 } else { -1 };
        from.offset(step * moved as i8).unwrap_or(from)
    }

    /// Enforces a dead-ball foul, or an accepted post-snap foul that annuls its play: the
    /// ball moves (R57), the down is set (7.3, R43, R58), and a foul from the offense's own
    /// end zone is a safety (R61), a defense that keeps fouling at its goal line concedes
    /// the touchdown (R58).
    fn enforce(&mut self, foul: Foul, dead_ball: bool, ev: &mut Events) {
        let by_offense = foul.side == self.offense;
        let e = foul.kind.enforcement(by_offense);
        let in_row = &mut self.fouls_in_row[foul.side.index()];
        *in_row = in_row.saturating_add(1);
        let repeated = *in_row;
        ev.push(Event::PenaltyEnforced(foul));
        // Set again below when this enforcement leaves a defensive foul last (R62).
        self.extend_period = false;
        if !dead_ball {
            self.clock_running = false;
        }
        let from_own_end_zone = foul.spot.rank() == self.offense.own_end_zone();
        if !dead_ball
            && by_offense
            && from_own_end_zone
            && matches!(foul.kind, FoulKind::Holding | FoulKind::IllegalForwardPass)
        {
            let scorer = self.defense();
            self.score[scorer.index()] += 2;
            ev.push(Event::Safety { side: scorer });
            self.clock_running = false;
            self.new_drive(scorer, ev);
            self.after_play(true, ev);
            return;
        }
        let toward = if by_offense {
            self.offense.own_end_zone()
        } else {
            self.offense.goal()
        };
        // `stuck`: the ball sits on the penalized team's 1-yard line, where half the distance
        // leaves no whole rank: the foul costs a down, or gives one, instead (R57).
        let (base, rank, stuck) = match e.from {
            EnforceFrom::PreviousSpot => {
                let rank = Self::penalty_rank(self.spot.rank(), e.ranks, toward);
                (self.spot, rank, rank == self.spot.rank())
            }
            EnforceFrom::SpotOfFoul if by_offense => {
                let at = foul.spot.rank().out_of_end_zones();
                let rank = Self::penalty_rank(at, e.ranks, toward);
                (Square::new(foul.spot.file(), at), rank, rank == at)
            }
            EnforceFrom::SpotOfFoul => {
                // R41: at the spot of the foul (the 1-yard line if that is in the end zone),
                // and at least 5 yards (half the distance) beyond the previous spot. Left
                // on the previous spot's rank (the defense's 1-yard line), the ball did not
                // move: R57 and R58 apply as to any foul there (edition 3).
                let at = foul.spot.rank().out_of_end_zones();
                let least = Self::penalty_rank(self.spot.rank(), 1, toward);
                if !self.offense.ahead(least, at) {
                    (
                        Square::new(foul.spot.file(), at),
                        at,
                        at == self.spot.rank(),
                    )
                } else {
                    (self.spot, least, least == self.spot.rank())
                }
            }
        };
        self.spot = Square::new(base.file().in_bounds(), rank);
        let mut lost_down = false;
        if by_offense {
            self.extend_period = false;
            // A ball left at or beyond the line to gain is a first down, whatever the foul
            // (an illegal forward pass thrown from beyond the line can leave it there).
            if self.offense.gain(self.to_gain, rank) >= 0 {
                self.first_down(ev);
            } else if e.loss_of_down || stuck || (dead_ball && repeated >= 2) {
                lost_down = true;
                self.next_down(ev);
            }
        } else {
            // R71: on first down at its own 1-yard line a defense's dead-ball foul can neither
            // move the ball nor give a first down; it costs one of the defense's timeouts,
            // and with none left it counts as a second foul in a row.
            let mut concede = stuck && repeated >= 2;
            if dead_ball && stuck && self.down == 1 && repeated == 1 {
                let t = &mut self.timeouts[foul.side.index()];
                if *t > 0 {
                    *t -= 1;
                    ev.push(Event::TimeoutCharged {
                        side: foul.side,
                        left: *t,
                    });
                } else {
                    concede = true;
                }
            }
            if concede {
                // R58: the palpably unfair act: a defense that keeps fouling where the ball
                // can no longer move concedes the touchdown it is preventing.
                let scorer = self.offense;
                ev.push(Event::ScoreAwarded { side: scorer });
                self.score[scorer.index()] += 7;
                ev.push(Event::Touchdown { side: scorer });
                self.clock_running = false;
                self.new_drive(scorer.other(), ev);
                self.after_play(true, ev);
                return;
            }
            // R62: a period does not end on a defensive foul.
            self.extend_period = true;
            let reached = self.offense.gain(self.to_gain, rank) >= 0;
            if reached || e.first_down || stuck || repeated >= 2 {
                self.first_down(ev);
            }
        }
        // R44: a dead-ball foul counts as a play only when it costs the offense a down.
        self.after_play(!dead_ball || lost_down, ev);
    }

    fn accept(&mut self, kind: FoulKind, ev: &mut Events) -> Result<(), ActionError> {
        let i = self
            .play
            .fouls
            .iter()
            .position(|f| f.kind == kind)
            .ok_or(ActionError::NoSuchFoul(kind))?;
        let foul = self.play.fouls[i];
        let after_change = self.play.after_change & (1 << i) != 0;
        let unheld = self.play.unheld & (1 << i) != 0;
        match self.pending.take() {
            // R59, edition 3: the team that ends the play with the ball fouled while the
            // other team held it (a ball taken back, or an interception after a foul): no
            // clean hands. The ball goes to the other team as if it had kept it: annulled
            // (R42) if that team snapped, else as a foul after the change (R59).
            Some(o) if unheld && o.possession == foul.side => {
                let keeper = foul.side.other();
                if keeper == self.offense {
                    self.enforce(foul, false, ev)
                } else {
                    let end = match o.end {
                        PlayEnd::Touchdown => PlayEnd::Whistle,
                        end => end,
                    };
                    let o = Outcome {
                        end,
                        possession: keeper,
                        ..o
                    };
                    self.enforce_after_change(foul, o, ev)
                }
            }
            Some(o) if after_change && o.possession != self.offense => {
                self.enforce_after_change(foul, o, ev)
            }
            _ => self.enforce(foul, false, ev),
        }
        Ok(())
    }

    /// R59: an accepted foul thrown after the ball changed hands, in a play that ended with
    /// the team that gained it (`o`; for a ball taken back after a foul by the team that
    /// took it, `o` is the play as if the other team had kept it). The play stands (except a
    /// touchdown by the fouling team) and the yardage moves the next snap's spot against the
    /// fouling team, from wherever the result leaves it (R57); possession is never handed
    /// back.
    fn enforce_after_change(&mut self, foul: Foul, mut o: Outcome, ev: &mut Events) {
        ev.push(Event::PenaltyEnforced(foul));
        // The team that snapped is the one without the ball at the end.
        let e = foul.kind.enforcement(foul.side != o.possession);
        if o.end == PlayEnd::Touchdown && o.possession == foul.side {
            o.end = PlayEnd::Whistle;
        }
        self.apply_result(o, ev);
        let toward = if foul.side == self.offense {
            self.offense.own_end_zone()
        } else {
            self.offense.goal()
        };
        let rank = Self::penalty_rank(self.spot.rank(), e.ranks, toward);
        self.spot = Square::new(self.spot.file(), rank);
        self.down = 1;
        self.to_gain = line_to_gain(self.offense, self.spot);
        self.clock_running = false;
        self.extend_period = false;
        self.after_play(true, ev);
    }

    fn decline(&mut self, ev: &mut Events) {
        for f in self.play.fouls.clone() {
            ev.push(Event::PenaltyDeclined { kind: f.kind });
        }
        if let Some(outcome) = self.pending.take() {
            self.finish(outcome, ev);
        }
    }

    /// R60: what an unanswered penalty choice does: the option best for the team choosing,
    /// judged on the state each option leads to: a game it ends won by the chooser first,
    /// then the score margin, then who has the ball, then how far that team has advanced,
    /// then the down; a game it ends lost by the chooser last. A tie declines (the play
    /// stands). `None` outside a penalty choice.
    pub fn penalty_default(&self) -> Option<Action> {
        let Phase::PenaltyChoice(chooser) = self.phase else {
            return None;
        };
        let options = std::iter::once(Action::Decline)
            .chain(self.play.fouls.iter().map(|f| Action::Accept(f.kind)));
        let mut best: Option<((u8, i32), Action)> = None;
        for action in options {
            let mut after = self.clone();
            if after.apply(&action).is_err() {
                continue;
            }
            // Edition 3: a game this option ends with the chooser winning ranks above every
            // continuing state, and one it ends with the chooser losing below every one.
            let outcome = match after.result() {
                Some(GameResult::Win(s)) if s == chooser => 2,
                Some(GameResult::Win(_)) => 0,
                _ => 1,
            };
            let value = (outcome, after.value_for(chooser));
            if best.is_none() || best.is_some_and(|(b, _)| value > b) {
                best = Some((value, action));
            }
        }
        best.map(|(_, a)| a)
    }

    /// R60's criterion as one number: score margin, then possession, then the ranks the
    /// team with the ball has advanced from its own end zone, then an earlier down.
    fn value_for(&self, side: Side) -> i32 {
        let margin = self.score[side.index()] as i32 - self.score[side.other().index()] as i32;
        let progress = self
            .offense
            .gain(self.offense.own_end_zone(), self.spot.rank()) as i32;
        let drive = 100 + 10 * progress + (5 - self.down as i32);
        let possession = if self.offense == side { drive } else { -drive };
        margin * 10_000 + possession
    }

    // ---- the end of a play ----

    /// The play is over: flags are assessed, then the result stands.
    pub(crate) fn end_play(&mut self, end: PlayEnd, at: Square, possession: Side, ev: &mut Events) {
        self.note_ending();
        ev.push(Event::PlayOver { end });
        let outcome = Outcome {
            end,
            at,
            possession,
        };
        let fouls = &self.play.fouls;
        if fouls.is_empty() {
            self.finish(outcome, ev);
            return;
        }
        let both = fouls.iter().any(|f| f.side == Side::White)
            && fouls.iter().any(|f| f.side == Side::Black);
        if !both {
            self.pending = Some(outcome);
            self.phase = Phase::PenaltyChoice(fouls[0].side.other());
            return;
        }
        // R59, clean hands: the team that gained the ball keeps it when it fouled only
        // while it had the ball; otherwise the penalties offset and the down is replayed.
        let unheld = self.play.unheld;
        let gained = possession != self.offense;
        let clean = gained
            && fouls
                .iter()
                .enumerate()
                .all(|(i, f)| f.side != possession || unheld & (1 << i) == 0);
        ev.push(Event::OffsettingPenalties);
        self.clock_running = false;
        // R62: offsetting fouls do not extend a period.
        self.extend_period = false;
        if clean {
            // The fouling team's touchdown does not count; the ball stays with it.
            let end = if end == PlayEnd::Touchdown {
                PlayEnd::Whistle
            } else {
                end
            };
            self.apply_result(Outcome { end, ..outcome }, ev);
        }
        self.after_play(true, ev);
    }

    /// The play's result stands: score, downs, possession, then the next play.
    fn finish(&mut self, o: Outcome, ev: &mut Events) {
        self.apply_result(o, ev);
        self.extend_period = false;
        self.after_play(true, ev);
    }

    /// Applies a play's result: score, downs, possession (5). A play that stands ends every
    /// run of fouls (R58).
    fn apply_result(&mut self, o: Outcome, ev: &mut Events) {
        self.fouls_in_row = [0; 2];
        match o.end {
            PlayEnd::Touchdown => {
                self.score[o.possession.index()] += 7;
                ev.push(Event::Touchdown { side: o.possession });
                self.clock_running = false;
                self.new_drive(o.possession.other(), ev);
            }
            PlayEnd::Incomplete if o.possession == self.offense => {
                ev.push(Event::Incomplete);
                self.clock_running = false;
                self.next_down(ev);
            }
            PlayEnd::Incomplete => {
                // A pass by the team that took the ball away fell: the change of
                // possession stands (R10, R37).
                ev.push(Event::Incomplete);
                self.clock_running = false;
                self.new_drive(o.possession, ev);
            }
            _ if o.possession != self.offense => {
                // An interception or a recovered fumble: the new offense starts at its own
                // 20 (5.3), also when downed in its own end zone (a touchback, R14).
                self.clock_running = false;
                self.new_drive(o.possession, ev);
            }
            _ if o.at.rank() == self.offense.own_end_zone() => {
                let scorer = self.offense.other();
                self.score[scorer.index()] += 2;
                ev.push(Event::Safety { side: scorer });
                self.clock_running = false;
                self.new_drive(scorer, ev);
            }
            end => {
                // R12: a play that ends with the ball on file a or h (out of bounds, or a
                // tackle, truck or pile there) stops the clock.
                if end == PlayEnd::OutOfBounds || o.at.file().is_sideline() {
                    self.clock_running = false;
                }
                // R49: a ball dead in the attacking end zone without a touchdown (a loose
                // ball whistled dead there) is spotted on the 1-yard line.
                self.spot = Square::new(o.at.file().in_bounds(), o.at.rank().out_of_end_zones());
                if self.offense.gain(self.to_gain, self.spot.rank()) >= 0 {
                    self.first_down(ev);
                } else {
                    self.next_down(ev);
                }
            }
        }
    }

    fn first_down(&mut self, ev: &mut Events) {
        self.down = 1;
        self.to_gain = line_to_gain(self.offense, self.spot);
        ev.push(Event::FirstDown { side: self.offense });
    }

    fn next_down(&mut self, ev: &mut Events) {
        if self.down == 4 {
            ev.push(Event::TurnoverOnDowns { side: self.offense });
            self.clock_running = false;
            self.new_drive(self.offense.other(), ev);
        } else {
            self.down += 1;
        }
    }

    /// A change of possession: `side` starts 20 yards out of its own end zone (5.3, R2).
    /// Runs of fouls end with it (R58).
    fn new_drive(&mut self, side: Side, ev: &mut Events) {
        if side != self.offense {
            ev.push(Event::PossessionChanged { side });
        }
        self.offense = side;
        self.spot = drive_start(side);
        self.down = 1;
        self.to_gain = line_to_gain(side, self.spot);
        self.fouls_in_row = [0; 2];
    }

    /// Between plays: clear the field, count the play (R44), end the period if it is over,
    /// unless the last enforcement was a defensive foul: then an untimed down (R62).
    fn after_play(&mut self, counts: bool, ev: &mut Events) {
        if !self.clock_running {
            ev.push(Event::ClockStopped);
        }
        self.keep_field();
        self.board.clear();
        self.pending = None;
        self.play = PlayState::new(self.offense);
        if counts {
            self.plays = self.plays.saturating_add(1);
        }
        let over = match self.settings.quarter {
            QuarterLength::Plays(n) => self.plays >= n.max(1),
            QuarterLength::Timed => self.clock_expired,
        };
        // Kept until the snap: a game clock that runs out before it owes the down too (R62).
        let extend = self.extend_period;
        self.untimed = over && extend;
        if self.untimed {
            ev.push(Event::UntimedDown);
        }
        if over && !extend {
            self.end_period(ev);
        } else {
            self.ball = Ball::Spotted(self.spot);
            self.phase = Phase::Formation(self.offense);
        }
        self.push_next_play(ev);
    }

    fn push_next_play(&self, ev: &mut Events) {
        if self.phase != Phase::GameOver {
            ev.push(Event::NextPlay {
                offense: self.offense,
                down: self.down,
                spot: self.spot,
                to_gain: self.to_gain.number(),
            });
        }
    }

    /// The end of a quarter: halftime changes possession (R1), the fourth ends the game (R16).
    fn end_period(&mut self, ev: &mut Events) {
        ev.push(Event::PeriodEnd {
            quarter: self.quarter,
        });
        self.plays = 0;
        self.extend_period = false;
        self.untimed = false;
        self.clock_expired = false;
        if self.clock_running {
            self.clock_running = false;
            ev.push(Event::ClockStopped);
        }
        if self.quarter == 4 {
            let result = match self.score[0].cmp(&self.score[1]) {
                std::cmp::Ordering::Greater => GameResult::Win(Side::White),
                std::cmp::Ordering::Less => GameResult::Win(Side::Black),
                std::cmp::Ordering::Equal => GameResult::Draw,
            };
            self.result = Some(result);
            self.phase = Phase::GameOver;
            ev.push(Event::GameOver { result });
            return;
        }
        if self.quarter == 2 {
            self.timeouts = [TIMEOUTS_PER_HALF; 2];
            self.new_drive(Side::Black, ev);
            self.play = PlayState::new(self.offense);
        }
        self.quarter += 1;
        self.ball = Ball::Spotted(self.spot);
        self.phase = Phase::Formation(self.offense);
    }
}

/// The verdict on a formation that is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormationCheck {
    /// It cannot be placed at all: applying it is an error.
    #[error("{0}")]
    Unplaceable(FormationError),
    /// It can be placed, and draws this flag.
    #[error("{0}")]
    Fault(FormationFault),
}

impl Game {
    /// The pre-snap foul an action would draw, if any: a motion beyond the line (false
    /// start), a reaction onto the offense's side (offsides or encroachment), a substitution.
    pub fn presnap_foul(&self, action: &Action) -> Option<FoulKind> {
        let offense_half = Bitboard::at_or_behind(self.offense, self.spot.rank());
        match (self.phase, *action) {
            (Phase::Motion, Action::Motion { to, .. }) if !offense_half.contains(to) => {
                Some(FoulKind::FalseStart)
            }
            (Phase::Reaction, Action::Motion { to, .. }) if offense_half.contains(to) => {
                let touching = self.board.side(self.offense).any(|sq| sq.distance(to) == 1);
                Some(if touching {
                    FoulKind::Encroachment
                } else {
                    FoulKind::Offsides
                })
            }
            (Phase::Motion | Phase::Reaction, Action::Enter { .. } | Action::Exit { .. }) => {
                Some(FoulKind::IllegalSubstitution)
            }
            _ => None,
        }
    }
}
