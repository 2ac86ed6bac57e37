//! The action phase (rules 4): moves, pushes, tackles, trucks, handoffs, throws, catches,
//! fumbles and contention, and the legal-action generator that shares its judgement.
//!
//! Every move is judged by one function, [`Game::plan_move`] (and for the generator, by
//! the same landing rules in [`Game::landing`]), so that what the generator lists and
//! what `apply` accepts cannot drift apart.

use arrayvec::ArrayVec;

use super::action::{Action, KnightRoute};
use super::error::ActionError;
use super::event::{Event, PlayEnd};
use super::game::{Ball, Events, Game, Phase, Throw, MAX_PLAY_TURNS};
use super::penalty::{Foul, FoulKind};
use super::tables::{KNIGHT_OVER, RAYS};
use super::types::{Bitboard, Dir, Piece, Role, Side, Square};

/// Room for every legal action of any phase (the largest, a defensive reaction with
/// substitutions, stays under 700).
pub(crate) const MAX_ACTIONS: usize = 1024;

/// A buffer of legal actions that never allocates.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// What a move lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Landing {
    /// An empty square.
    Plain,
    /// The loose ball: contention begins (4.2).
    PickUp,
    /// The target square of an indirect throw: a catch, or an interception (4.3).
    Catch,
    /// Pushes the piece on the square to `dest` (4.1).
    Push { dest: Square },
    /// Onto the opposing ball carrier (4.1).
    Tackle,
    /// Onto the opposing receiver of a direct throw: the pass is defended (4.3).
    Bat,
    /// The ball carrier onto an opponent (4.1).
    Truck,
    /// Onto the contested ball (4.2).
    JoinPile,
}

/// What the move generator needs of a position, worked out once per generation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveContext {
    pub side: Side,
    /// The side's own ball carrier.
    pub carrier: Option<Square>,
    /// The rank a pawn of the side may step two squares from (R65).
    pub second: super::types::Rank,
    pub occupied: Bitboard,
    /// Empty squares where landing is not a plain move: the loose ball, a pass's target.
    pub special: Bitboard,
}

/// A judged move, ready to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MovePlan {
    pub from: Square,
    pub to: Square,
    pub piece: Piece,
    /// The friendly ball carrier passed over (R8).
    pub handoff: Option<Square>,
    pub landing: Landing,
}

/// A slider's directions as indices into `Dir::ALL` (whose first four are
/// `Dir::ORTHOGONAL`, the last four `Dir::DIAGONAL`), in the order moves are listed.
pub(crate) fn slider_dirs(role: Role) -> &'static [usize] {
    match role {
        Role::Bishop => &[4, 5, 6, 7],
        Role::Rook => &[0, 1, 2, 3],
        _ => &[0, 1, 2, 3, 4, 5, 6, 7],
    }
}

/// The unit step from `from` to `to` if they share a line of `role`'s slide.
fn slide_dir(role: Role, df: i8, dr: i8) -> Option<Dir> {
    let straight = (df == 0) != (dr == 0);
    let diagonal = df != 0 && df.abs() == dr.abs();
    let ok = match role {
        Role::Bishop => diagonal,
        Role::Rook => straight,
        Role::Queen => straight || diagonal,
        _ => false,
    };
    ok.then(|| Dir::new(df.signum(), dr.signum()))
}

fn delta(from: Square, to: Square) -> (i8, i8) {
    (
        to.file().index() as i8 - from.file().index() as i8,
        to.rank().index() as i8 - from.rank().index() as i8,
    )
}

impl Game {
    /// The square of a friendly ball carrier, if `side` has the ball.
    fn carrier_of(&self, side: Side) -> Option<Square> {
        match self.ball {
            Ball::Carried(sq) if self.board.side(side).contains(sq) => Some(sq),
            _ => None,
        }
    }

    /// Judges where a move ends: the landing rules of 4.1–4.3 with R7–R9.
    ///
    /// `last` is the direction of the mover's last step, `gets_ball` whether the mover has
    /// the ball when it lands (its own, or by a handoff on the way), `pawn_diagonal` whether
    /// this is a pawn's diagonal step.
    pub(crate) fn landing(
        &self,
        side: Side,
        to: Square,
        last: Dir,
        gets_ball: bool,
        pawn_diagonal: bool,
    ) -> Result<Landing, ActionError> {
        let occupant = self.board.piece_at(to);
        let Some(q) = occupant else {
            return match self.ball {
                Ball::Loose(b) if b == to => Ok(Landing::PickUp),
                Ball::InFlight(t) if t.to == to && !t.direct => Ok(Landing::Catch),
                _ if pawn_diagonal => Err(ActionError::PawnDiagonal { to }),
                _ => Ok(Landing::Plain),
            };
        };
        if self.ball == Ball::Contested(to) {
            return Ok(Landing::JoinPile);
        }
        if q.side != side {
            match self.ball {
                Ball::Carried(b) if b == to => return Ok(Landing::Tackle),
                Ball::InFlight(t) if t.direct && t.to == to => return Ok(Landing::Bat),
                _ => {}
            }
        }
        // R7: a pawn's diagonal step is for contact with the opponent and the ball: it may
        // tackle, defend a pass, truck (as a carrier) or play the ball, never push.
        if gets_ball && q.side != side {
            return Ok(Landing::Truck);
        }
        if pawn_diagonal {
            return Err(ActionError::PawnDiagonal { to });
        }
        let dest = to.step(last).ok_or(ActionError::PushOffBoard { at: to })?;
        let ball_there = match self.ball {
            Ball::Loose(b) | Ball::Contested(b) => b == dest,
            Ball::InFlight(t) => t.to == dest,
            _ => false,
        };
        if self.board.occupied().contains(dest) || ball_there {
            return Err(ActionError::PushBlocked { at: to, dest });
        }
        Ok(Landing::Push { dest })
    }

    /// Judges one move of `side` (action phase, or contention when `contention`).
    pub(crate) fn plan_move(
        &self,
        side: Side,
        from: Square,
        to: Square,
        route: Option<KnightRoute>,
        contention: bool,
    ) -> Result<MovePlan, ActionError> {
        let piece = self
            .board
            .piece_at(from)
            .ok_or(ActionError::NoPiece(from))?;
        if piece.side != side {
            return Err(ActionError::NotYours {
                square: from,
                owner: piece.side,
            });
        }
        if contention {
            let pile = self.ball.square();
            if to != pile {
                return Err(ActionError::NotOntoPile(pile));
            }
        }
        if route.is_some() && piece.role != Role::Knight {
            return Err(ActionError::RouteForNonKnight(from));
        }
        let unreachable = ActionError::Unreachable {
            role: piece.role,
            from,
            to,
        };
        let (df, dr) = delta(from, to);
        let is_carrier = self.ball == Ball::Carried(from);
        let carrier = if is_carrier {
            None
        } else {
            self.carrier_of(side)
        };
        let plan = |handoff: Option<Square>, landing| MovePlan {
            from,
            to,
            piece,
            handoff,
            landing,
        };
        match piece.role {
            Role::Pawn => {
                let f = side.forward();
                let diagonal = match (df, dr) {
                    (0, r) if r == f => false,
                    (1 | -1, r) if r == f => true,
                    (0, r) if r == 2 * f => {
                        let landing = self.two_step(side, from, is_carrier).ok_or(unreachable)?;
                        return Ok(plan(None, landing));
                    }
                    _ => return Err(unreachable),
                };
                let landing = self.landing(side, to, Dir::new(df, dr), is_carrier, diagonal)?;
                Ok(plan(None, landing))
            }
            Role::King => {
                if (df, dr) == (0, 0) || df.abs() > 1 || dr.abs() > 1 {
                    return Err(unreachable);
                }
                let landing = self.landing(side, to, Dir::new(df, dr), is_carrier, false)?;
                Ok(plan(None, landing))
            }
            Role::Knight => {
                if !matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)) {
                    return Err(unreachable);
                }
                let d = Dir::new(df, dr);
                let judge = |r: KnightRoute| -> Result<MovePlan, ActionError> {
                    let (over, last) = r.path(from, d);
                    let handoff = over.into_iter().flatten().find(|&s| Some(s) == carrier);
                    let landing =
                        self.landing(side, to, last, is_carrier || handoff.is_some(), false)?;
                    Ok(plan(handoff, landing))
                };
                match route {
                    Some(r) => judge(r),
                    None => match (judge(KnightRoute::FileFirst), judge(KnightRoute::RankFirst)) {
                        (Ok(a), Ok(b)) if a == b => Ok(a),
                        (Ok(_), Ok(_)) => Err(ActionError::AmbiguousRoute { from, to }),
                        (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
                        (Err(e), Err(_)) => Err(e),
                    },
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let u = slide_dir(piece.role, df, dr).ok_or(unreachable)?;
                let mut handoff = None;
                let mut s = from.step(u).expect("on the line to a square on the board");
                while s != to {
                    if self.board.occupied().contains(s) {
                        if Some(s) == carrier && handoff.is_none() {
                            handoff = Some(s);
                        } else {
                            return Err(ActionError::Blocked { from, to, at: s });
                        }
                    }
                    s = s.step(u).expect("on the line to a square on the board");
                }
                let landing = self.landing(side, to, u, is_carrier || handoff.is_some(), false)?;
                Ok(plan(handoff, landing))
            }
        }
    }

    /// R65 (Rule Zero): a pawn on its second rank (rank 2 for White, 7 for Black) may step
    /// two squares straight ahead when both squares are free of pieces, onto a plain square,
    /// the loose ball or a pass's target: never a push, a tackle or a truck. The landing, or
    /// `None` when the step is not available.
    fn two_step(&self, side: Side, from: Square, is_carrier: bool) -> Option<Landing> {
        let second = side.own_end_zone().offset(side.forward())?;
        if from.rank() != second {
            return None;
        }
        let ahead = Dir::new(0, side.forward());
        let over = from.step(ahead)?;
        let to = over.step(ahead)?;
        let occupied = self.board.occupied();
        if occupied.contains(over) || occupied.contains(to) {
            return None;
        }
        self.landing(side, to, ahead, is_carrier, false).ok()
    }

    /// Whether `piece` on `from` could move onto the empty square `target` next turn:
    /// "in position to make a catch" for pass interference (7.2).
    fn could_reach(&self, piece: Piece, from: Square, target: Square) -> bool {
        let (df, dr) = delta(from, target);
        match piece.role {
            Role::Pawn => dr == piece.side.forward() && df.abs() <= 1,
            Role::King => (df, dr) != (0, 0) && df.abs() <= 1 && dr.abs() <= 1,
            Role::Knight => matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)),
            _ => match slide_dir(piece.role, df, dr) {
                None => false,
                Some(u) => {
                    let mut s = from.step(u);
                    while let Some(sq) = s {
                        if sq == target {
                            return true;
                        }
                        if self.board.occupied().contains(sq) {
                            return false;
                        }
                        s = sq.step(u);
                    }
                    false
                }
            },
        }
    }

    /// The flags a push may draw: holding, illegal contact, pass interference (7.2).
    fn push_fouls(&self, side: Side, plan: &MovePlan) -> ArrayVec<Foul, 3> {
        let mut out = ArrayVec::new();
        let Some(q) = self.board.piece_at(plan.to) else {
            return out;
        };
        if q.side == side {
            return out;
        }
        if self.play.last_push == Some((plan.to, plan.from, q.side)) {
            out.push(Foul {
                side,
                kind: FoulKind::Holding,
                spot: plan.from,
            });
        }
        let offense = self.offense;
        // R64: every piece is an eligible receiver, pawns included.
        if side != offense
            && !self.play.thrown
            && !self.play.crossed
            && self.play.possession == offense
            && offense.gain(self.spot.rank(), plan.to.rank()) >= 2
        {
            out.push(Foul {
                side,
                kind: FoulKind::IllegalContact,
                spot: plan.to,
            });
        }
        if let Ball::InFlight(t) = self.ball {
            if t.forward && !t.direct && self.could_reach(q, plan.to, t.to) {
                out.push(Foul {
                    side,
                    kind: FoulKind::PassInterference,
                    spot: plan.to,
                });
            }
        }
        out
    }

    /// Carries out a judged move and everything it causes.
    pub(crate) fn execute_move(&mut self, side: Side, plan: MovePlan, ev: &mut Events) {
        let MovePlan {
            from,
            to,
            piece,
            handoff,
            landing,
        } = plan;
        let fouls = if matches!(landing, Landing::Push { .. }) {
            self.push_fouls(side, &plan)
        } else {
            ArrayVec::new()
        };
        let had_ball = self.ball == Ball::Carried(from) || handoff.is_some();
        ev.push(Event::Moved {
            side,
            role: piece.role,
            from,
            to,
        });
        if let Some(h) = handoff {
            ev.push(Event::Handoff { from: h, to });
        }
        self.play.last_push = None;
        self.board.take(from);
        match landing {
            Landing::Plain => {
                self.board.put(to, piece);
                if had_ball {
                    self.ball = Ball::Carried(to);
                }
            }
            Landing::Push { dest } => {
                self.board.shift(to, dest);
                if self.ball == Ball::Carried(to) {
                    self.ball = Ball::Carried(dest);
                }
                self.board.put(to, piece);
                if had_ball {
                    self.ball = Ball::Carried(to);
                }
                ev.push(Event::Pushed { from: to, to: dest });
                for foul in fouls {
                    self.flag(foul, ev);
                }
                self.play.last_push = Some((to, dest, side));
            }
            Landing::PickUp => {
                self.board.put(to, piece);
                self.ball = Ball::Contested(to);
                ev.push(Event::Contested {
                    side,
                    at: to,
                    pieces: 1,
                });
                self.next_turn(Phase::Contention(side.other()), ev);
                return;
            }
            Landing::Catch => {
                self.board.put(to, piece);
                self.gain_ball(side, to, ev);
            }
            Landing::Tackle => {
                self.board.stack(to, piece);
                ev.push(Event::Tackle { at: to });
                self.end_play(PlayEnd::Tackle, to, side.other(), ev);
                return;
            }
            Landing::Bat => {
                let Ball::InFlight(t) = self.ball else {
                    unreachable!("a bat needs a pass in flight")
                };
                self.board.stack(to, piece);
                ev.push(Event::Batted { at: to });
                if t.forward {
                    self.end_play(PlayEnd::Incomplete, self.spot, t.side, ev);
                } else {
                    // 4.3: a defended lateral or backward pass is a fumble on the receiver's square.
                    self.fumble(to, side, ev);
                }
                return;
            }
            Landing::Truck => {
                self.board.stack(to, piece);
                if handoff.is_some() {
                    // 4.2: a handoff and a truck on one move is a fumble.
                    self.fumble(to, side, ev);
                } else {
                    ev.push(Event::Truck { at: to });
                    self.ball = Ball::Carried(to);
                    // Trucking into the attacking end zone still holds the ball there (5.2).
                    let end = if to.rank() == side.goal() {
                        PlayEnd::Touchdown
                    } else {
                        PlayEnd::Truck
                    };
                    self.end_play(end, to, side, ev);
                }
                return;
            }
            Landing::JoinPile => {
                self.board.stack(to, piece);
                let pieces = self.board.stack_at(to).len() as u8;
                ev.push(Event::Contested {
                    side,
                    at: to,
                    pieces,
                });
                self.next_turn(Phase::Contention(side.other()), ev);
                return;
            }
        }
        if self.check_carrier(ev) {
            return;
        }
        self.progress_throw(side, ev);
        if matches!(self.phase, Phase::Action(_)) {
            self.next_turn(Phase::Action(side.other()), ev);
        }
    }

    /// `side` takes the ball on `at` by a catch, an interception or a recovery.
    fn gain_ball(&mut self, side: Side, at: Square, ev: &mut Events) {
        let thrown_by = match self.ball {
            Ball::InFlight(t) => Some(t.side),
            _ => None,
        };
        self.ball = Ball::Carried(at);
        match thrown_by {
            Some(s) if s == side => ev.push(Event::Caught { at }),
            Some(_) => ev.push(Event::Intercepted { side, at }),
            None => ev.push(Event::Recovered { side, at }),
        }
        self.play.possession = side;
        if side != self.offense {
            self.play.changed = true;
        }
    }

    /// After the ball carrier moved or was moved: touchdown, out of bounds, or crossing the
    /// line. Returns whether the play ended.
    fn check_carrier(&mut self, ev: &mut Events) -> bool {
        let Ball::Carried(at) = self.ball else {
            return false;
        };
        let side = self.play.possession;
        if at.rank() == side.goal() {
            self.end_play(PlayEnd::Touchdown, at, side, ev);
            return true;
        }
        if at.file().is_sideline() {
            ev.push(Event::OutOfBounds { at });
            self.end_play(PlayEnd::OutOfBounds, at, side, ev);
            return true;
        }
        if side == self.offense && self.offense.ahead(at.rank(), self.spot.rank()) {
            self.play.crossed = true;
        }
        false
    }

    /// The ball comes loose on `at` with pieces on it (a defended lateral, a handoff-truck):
    /// contention, with the other side of `last` to decide. On a sideline file it is dead.
    fn fumble(&mut self, at: Square, last: Side, ev: &mut Events) {
        ev.push(Event::Fumble { at });
        if at.file().is_sideline() {
            ev.push(Event::OutOfBounds { at });
            let keeper = self.play.possession;
            self.end_play(PlayEnd::OutOfBounds, at, keeper, ev);
            return;
        }
        self.ball = Ball::Contested(at);
        self.next_turn(Phase::Contention(last.other()), ev);
    }

    /// The ball falls loose on an empty square (a lateral that was not caught).
    fn loose_ball(&mut self, at: Square, ev: &mut Events) -> bool {
        ev.push(Event::Fumble { at });
        if at.file().is_sideline() {
            ev.push(Event::OutOfBounds { at });
            let keeper = self.play.possession;
            self.end_play(PlayEnd::OutOfBounds, at, keeper, ev);
            return true;
        }
        self.ball = Ball::Loose(at);
        false
    }

    /// A pass in flight moves on one stage after the turn of `mover` (4.3): a direct pass not
    /// defended is caught; an indirect pass not intercepted waits for the thrower's team, and
    /// falls if that team does not reach it either.
    fn progress_throw(&mut self, mover: Side, ev: &mut Events) {
        let Ball::InFlight(t) = self.ball else {
            return;
        };
        if t.direct {
            self.gain_ball(t.side, t.to, ev);
            self.check_carrier(ev);
        } else if !t.defense_done {
            debug_assert_ne!(mover, t.side);
            self.ball = Ball::InFlight(Throw {
                defense_done: true,
                ..t
            });
        } else if t.forward {
            self.end_play(PlayEnd::Incomplete, self.spot, t.side, ev);
        } else {
            self.loose_ball(t.to, ev);
        }
    }

    /// Hands the turn on, or blows the whistle at the turn limit (R13).
    fn next_turn(&mut self, next: Phase, ev: &mut Events) {
        self.play.turns = self.play.turns.saturating_add(1);
        if self.play.turns < MAX_PLAY_TURNS {
            self.phase = next;
            return;
        }
        let keeper = self.play.possession;
        match self.ball {
            Ball::InFlight(t) if t.forward => {
                self.end_play(PlayEnd::Incomplete, self.spot, t.side, ev)
            }
            Ball::Contested(_) => {
                self.phase = next;
                self.resolve_contention(ev);
            }
            ball => self.end_play(PlayEnd::Whistle, ball.square(), keeper, ev),
        }
    }

    /// A turn of `side` without a move (a pass with no legal move, or a missed turn).
    pub(crate) fn turn_without_move(&mut self, side: Side, ev: &mut Events) {
        self.play.last_push = None;
        self.progress_throw(side, ev);
        if matches!(self.phase, Phase::Action(_)) {
            self.next_turn(Phase::Action(side.other()), ev);
        }
    }

    /// A turn passed without a new piece on the ball: the contention resolves (4.2).
    pub(crate) fn resolve_contention(&mut self, ev: &mut Events) {
        let Ball::Contested(at) = self.ball else {
            return;
        };
        let stack = self.board.stack_at(at);
        let white = stack.iter().filter(|p| p.side == Side::White).count();
        let black = stack.len() - white;
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Side::White,
            std::cmp::Ordering::Less => Side::Black,
            std::cmp::Ordering::Equal => stack.last().map_or(self.play.possession, |p| p.side),
        };
        self.gain_ball(winner, at, ev);
        if stack.len() == 1 {
            // A single recoverer keeps the ball and the play goes on.
            if !self.check_carrier(ev) {
                self.play.last_push = None;
                self.next_turn(Phase::Action(winner), ev);
            }
            return;
        }
        let end = if at.rank() == winner.goal() {
            PlayEnd::Touchdown
        } else {
            PlayEnd::Pile
        };
        self.end_play(end, at, winner, ev);
    }

    // ---- throws (4.3) ----

    pub(crate) fn throw(
        &mut self,
        side: Side,
        from: Square,
        to: Square,
        ev: &mut Events,
    ) -> Result<(), ActionError> {
        let piece = self
            .board
            .piece_at(from)
            .ok_or(ActionError::NoPiece(from))?;
        if piece.side != side || self.ball != Ball::Carried(from) {
            return Err(ActionError::NotCarrier(from));
        }
        if !Self::can_throw(piece, from, to) {
            return Err(ActionError::ThrowDirection {
                role: piece.role,
                from,
                to,
            });
        }
        let forward = side.ahead(to.rank(), from.rank());
        if forward && (self.play.forward_pass || self.play.crossed || self.play.changed) {
            self.flag(
                Foul {
                    side,
                    kind: FoulKind::IllegalForwardPass,
                    spot: from,
                },
                ev,
            );
        }
        self.play.forward_pass |= forward;
        self.play.thrown = true;
        self.play.last_push = None;
        ev.push(Event::Thrown { from, to, forward });
        let throw = Throw {
            from,
            to,
            side,
            forward,
            direct: false,
            defense_done: false,
        };
        match self.board.piece_at(to) {
            Some(q) if q.side == side => {
                self.ball = Ball::InFlight(Throw {
                    direct: true,
                    ..throw
                });
            }
            Some(q) => {
                // Thrown onto an opponent: intercepted at once.
                self.ball = Ball::InFlight(throw);
                self.gain_ball(q.side, to, ev);
                if self.check_carrier(ev) {
                    return Ok(());
                }
            }
            None => self.ball = Ball::InFlight(throw),
        }
        self.next_turn(Phase::Action(side.other()), ev);
        Ok(())
    }

    /// 4.3, R11: the king throws anywhere; a knight a knight's step; other pieces along their
    /// lines of movement, any distance (pawns: forward, straight or diagonal).
    pub fn can_throw(piece: Piece, from: Square, to: Square) -> bool {
        let (df, dr) = delta(from, to);
        if (df, dr) == (0, 0) {
            return false;
        }
        match piece.role {
            Role::King => true,
            Role::Knight => matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)),
            Role::Pawn => dr * piece.side.forward() > 0 && (df == 0 || df.abs() == dr.abs()),
            role => slide_dir(role, df, dr).is_some(),
        }
    }

    // ---- legal actions ----

    /// Every action the deciding team may take now, written into `out` (cleared first).
    ///
    /// Formations are not enumerable: in a formation phase the list is empty (a timeout is
    /// also possible then, see [`Game::can_call_timeout`]). Actions that commit a pre-snap
    /// foul (a false start, an offsides reaction, a substitution) are legal and listed: the
    /// rules give them a consequence, not a prohibition.
    pub fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        match self.phase {
            Phase::Formation(_) | Phase::GameOver => {}
            Phase::Motion | Phase::Reaction => self.presnap_actions(out),
            Phase::Action(side) => {
                self.gen_moves(side, out);
                self.gen_throws(side, out);
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Phase::Contention(side) => {
                let pile = self.ball.square();
                for from in self.board.side(side) {
                    if from != pile && self.plan_move(side, from, pile, None, true).is_ok() {
                        out.push(Action::Move {
                            from,
                            to: pile,
                            route: None,
                        });
                    }
                }
                out.push(Action::Pass);
            }
            Phase::PenaltyChoice(_) => {
                for f in &self.play.fouls {
                    out.push(Action::Accept(f.kind));
                }
                out.push(Action::Decline);
            }
        }
    }

    /// The legal actions as a fresh list (a convenience; the hot path uses [`Game::legal_actions`]).
    pub fn legal_action_list(&self) -> Vec<Action> {
        let mut list = ActionList::new();
        self.legal_actions(&mut list);
        list.to_vec()
    }

    fn presnap_actions(&self, out: &mut ActionList) {
        let (side, snap) = if self.phase == Phase::Motion {
            (self.offense, true)
        } else {
            (self.defense(), false)
        };
        let empty = Bitboard(!self.board.occupied().0);
        for from in self.board.side(side) {
            if snap && (from == self.spot || self.play.moved.contains(from)) {
                continue;
            }
            for to in empty {
                out.push(Action::Motion { from, to });
            }
        }
        let sideline = self.board.sideline(side);
        for role in Role::ALL {
            if sideline[role.index()] > 0 {
                for to in empty {
                    out.push(Action::Enter { role, to });
                }
            }
        }
        for from in self.board.side(side) {
            out.push(Action::Exit { from });
        }
        out.push(if snap { Action::Snap } else { Action::Pass });
        if self.can_call_timeout() {
            out.push(Action::Timeout);
        }
    }

    /// How many actions [`Game::legal_actions`] lists in a pre-snap phase (motion or
    /// reaction), without listing them: the list is long (every piece to every empty square,
    /// every sideline role onto every empty square) and a random playout wants one of them.
    /// `None` in any other phase.
    pub fn presnap_action_count(&self) -> Option<usize> {
        let (side, snap) = self.presnap_side()?;
        let empty = Bitboard(!self.board.occupied().0).count() as usize;
        let movers = self.presnap_movers(side, snap).count() as usize;
        let sideline = self.board.sideline(side);
        let roles = Role::ALL.iter().filter(|r| sideline[r.index()] > 0).count();
        let fielded = self.board.side(side).count() as usize;
        Some((movers + roles) * empty + fielded + 1 + usize::from(self.can_call_timeout()))
    }

    /// The action at `index` of [`Game::legal_actions`]'s list in a pre-snap phase, found
    /// without listing the others (the same order: motions, entries, exits, the snap or the
    /// pass, a timeout). `None` past the end or in any other phase.
    pub fn presnap_action(&self, index: usize) -> Option<Action> {
        let (side, snap) = self.presnap_side()?;
        let empty = Bitboard(!self.board.occupied().0);
        let per_target = empty.count() as usize;
        let mut i = index;
        let movers = self.presnap_movers(side, snap);
        let moving = movers.count() as usize * per_target;
        if i < moving {
            let from = movers.nth_square(i / per_target)?;
            let to = empty.nth_square(i % per_target)?;
            return Some(Action::Motion { from, to });
        }
        i -= moving;
        let sideline = self.board.sideline(side);
        for role in Role::ALL {
            if sideline[role.index()] > 0 {
                if i < per_target {
                    let to = empty.nth_square(i)?;
                    return Some(Action::Enter { role, to });
                }
                i -= per_target;
            }
        }
        let fielded = self.board.side(side);
        if i < fielded.count() as usize {
            let from = fielded.nth_square(i)?;
            return Some(Action::Exit { from });
        }
        i -= fielded.count() as usize;
        match i {
            0 => Some(if snap { Action::Snap } else { Action::Pass }),
            1 if self.can_call_timeout() => Some(Action::Timeout),
            _ => None,
        }
    }

    /// The deciding team of a pre-snap phase, and whether it is the offense (which snaps).
    fn presnap_side(&self) -> Option<(Side, bool)> {
        match self.phase {
            Phase::Motion => Some((self.offense, true)),
            Phase::Reaction => Some((self.defense(), false)),
            _ => None,
        }
    }

    /// The pieces that may shift before the snap: the offense's snapper and pieces already
    /// in motion may not (3.3), the defense's all may.
    fn presnap_movers(&self, side: Side, snap: bool) -> Bitboard {
        let mut movers = self.board.side(side);
        if snap {
            movers = Bitboard(movers.0 & !self.spot.bit() & !self.play.moved.0);
        }
        movers
    }

    /// Whether `side` has any legal move or throw (a pass is allowed only without one).
    pub(crate) fn has_any_move(&self, side: Side) -> bool {
        if self.carrier_of(side).is_some() {
            return true;
        }
        let mut list = ActionList::new();
        self.gen_moves(side, &mut list);
        !list.is_empty()
    }

    fn gen_moves(&self, side: Side, out: &mut ActionList) {
        let ctx = self.move_context(side);
        for from in self.board.side(side) {
            self.gen_piece_moves(&ctx, from, out);
        }
    }

    /// What generating `side`'s moves needs of the position, worked out once for all its pieces.
    pub(crate) fn move_context(&self, side: Side) -> MoveContext {
        MoveContext {
            side,
            carrier: self.carrier_of(side),
            // A pawn's second rank, where it may step two squares (R65).
            second: side
                .own_end_zone()
                .offset(side.forward())
                .unwrap_or(side.own_end_zone()),
            occupied: self.board.occupied(),
            // Empty squares where landing is not a plain move: the loose ball, a pass's target.
            special: match self.ball {
                Ball::Loose(b) => Bitboard(b.bit()),
                Ball::InFlight(t) => Bitboard(t.to.bit()),
                _ => Bitboard::EMPTY,
            },
        }
    }

    /// The moves of the piece on `from` (one of `ctx.side`'s), in the order
    /// [`Game::legal_actions`] lists them.
    pub(crate) fn gen_piece_moves(&self, ctx: &MoveContext, from: Square, out: &mut ActionList) {
        let MoveContext {
            side,
            carrier,
            second,
            occupied,
            special,
        } = *ctx;
        let piece = self.board.piece_at(from).expect("a piece of the side");
        let is_carrier = carrier == Some(from);
        let mv = |to| Action::Move {
            from,
            to,
            route: None,
        };
        match piece.role {
            Role::Pawn => {
                let f = side.forward();
                for df in [0, -1, 1] {
                    let d = Dir::new(df, f);
                    if let Some(to) = from.step(d) {
                        // A plain empty square needs no judging: a straight step lands,
                        // a diagonal one has nothing to contact (R7).
                        let plain = !occupied.contains(to) && !special.contains(to);
                        if plain {
                            if df == 0 {
                                out.push(mv(to));
                            }
                        } else if self.landing(side, to, d, is_carrier, df != 0).is_ok() {
                            out.push(mv(to));
                        }
                    }
                }
                // The rank test first: most pawns are not on their second rank.
                if from.rank() == second && self.two_step(side, from, is_carrier).is_some() {
                    if let Some(to) = from.step(Dir::new(0, 2 * f)) {
                        out.push(mv(to));
                    }
                }
            }
            Role::King => {
                for d in Dir::ALL {
                    if let Some(to) = from.step(d) {
                        let plain = !occupied.contains(to) && !special.contains(to);
                        if plain || self.landing(side, to, d, is_carrier, false).is_ok() {
                            out.push(mv(to));
                        }
                    }
                }
            }
            Role::Knight => {
                for (k, d) in Dir::KNIGHT.into_iter().enumerate() {
                    let Some(to) = from.step(d) else { continue };
                    let judge = |r: KnightRoute| {
                        let (over, last) = r.path(from, d);
                        let handoff = over
                            .into_iter()
                            .flatten()
                            .find(|&s| !is_carrier && Some(s) == carrier);
                        self.landing(side, to, last, is_carrier || handoff.is_some(), false)
                            .ok()
                            .map(|l| (handoff, l))
                    };
                    // Fast path: onto a plain empty square with no friendly carrier on
                    // either route to hand off to, both routes do the same thing.
                    let handoff_possible = !is_carrier
                        && carrier.is_some_and(|c| KNIGHT_OVER[from.index()][k] & c.bit() != 0);
                    if !occupied.contains(to) && !special.contains(to) && !handoff_possible {
                        out.push(mv(to));
                        continue;
                    }
                    match (judge(KnightRoute::FileFirst), judge(KnightRoute::RankFirst)) {
                        (Some(a), Some(b)) if a == b => out.push(mv(to)),
                        (a, b) => {
                            if a.is_some() {
                                out.push(Action::Move {
                                    from,
                                    to,
                                    route: Some(KnightRoute::FileFirst),
                                });
                            }
                            if b.is_some() {
                                out.push(Action::Move {
                                    from,
                                    to,
                                    route: Some(KnightRoute::RankFirst),
                                });
                            }
                        }
                    }
                }
            }
            role => {
                let judged = Bitboard(occupied.0 | special.0);
                for &d in slider_dirs(role) {
                    let u = Dir::ALL[d];
                    let mut handoff = false;
                    for &to in RAYS[from.index()][d].squares() {
                        // An empty plain square needs no judging (the fast path).
                        if !judged.contains(to) {
                            out.push(mv(to));
                            continue;
                        }
                        let gets_ball = is_carrier || handoff;
                        if self.landing(side, to, u, gets_ball, false).is_ok() {
                            out.push(mv(to));
                        }
                        if occupied.contains(to) {
                            if !handoff && !is_carrier && Some(to) == carrier {
                                handoff = true;
                            } else {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    pub(crate) fn gen_throws(&self, side: Side, out: &mut ActionList) {
        let Some(from) = self.carrier_of(side) else {
            return;
        };
        let piece = self.board.piece_at(from).expect("the carrier");
        match piece.role {
            Role::King => {
                for to in Square::all().filter(|&s| s != from) {
                    out.push(Action::Throw { from, to });
                }
            }
            Role::Knight => {
                for d in Dir::KNIGHT {
                    if let Some(to) = from.step(d) {
                        out.push(Action::Throw { from, to });
                    }
                }
            }
            Role::Pawn => {
                let f = side.forward();
                for df in [0, -1, 1] {
                    let d = Dir::new(df, f);
                    let mut s = from.step(d);
                    while let Some(to) = s {
                        out.push(Action::Throw { from, to });
                        s = to.step(d);
                    }
                }
            }
            role => {
                for &d in slider_dirs(role) {
                    for &to in RAYS[from.index()][d].squares() {
                        out.push(Action::Throw { from, to });
                    }
                }
            }
        }
    }
}
