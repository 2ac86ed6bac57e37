//! A position of a round in play, the actions it offers and what each does: the go's
//! structure (C15–C20, C34–C36), moves (C21, C27–C31), passes (C22–C24), shots (C25, C26),
//! checkmate and stalemate (C32, C33), and the position text (C53).
//!
//! [`Position::apply`] is the only way a position changes; a refused action returns an
//! error and leaves the position as it was. A go's decisions are one action each; a go
//! that has nothing left to offer ends by itself, so every position reached mid-go offers
//! a real choice.

use std::fmt;
use std::str::FromStr;

use crate::rules::Side;

use super::action::{Action, ShotOutcome};
use super::board::{corner_for, goal_of, piece, Blockers, Board, Piece, Role, Sq, CIRCLE};
use super::error::ChessElevenError;

/// Where the ball is (C17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ball {
    /// Carried by the piece on this square.
    Carried(Sq),
    /// On the centre spot (C3), at a kick-off.
    Spot,
    /// At the flag beside this corner square (C4), during a corner go.
    Flag(Sq),
}

impl Ball {
    /// `carried`, `spot` or `flag`, as viewers name it.
    pub const fn kind(self) -> &'static str {
        match self {
            Ball::Carried(_) => "carried",
            Ball::Spot => "spot",
            Ball::Flag(_) => "flag",
        }
    }

    /// The carrier's square or the flag's corner; `None` on the spot.
    pub const fn square(self) -> Option<Sq> {
        match self {
            Ball::Carried(s) | Ball::Flag(s) => Some(s),
            Ball::Spot => None,
        }
    }
}

/// An element of a go used so far (C19, C35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    Move,
    Pass,
}

/// How far into its go the side is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Progress {
    /// A corner go (C34).
    pub corner: bool,
    used: [Option<Element>; 2],
}

impl Progress {
    fn corner() -> Progress {
        Progress {
            corner: true,
            used: [None; 2],
        }
    }
    pub fn at_start(&self) -> bool {
        self.used[0].is_none()
    }
    pub fn used(&self, e: Element) -> bool {
        self.used.contains(&Some(e))
    }
    fn push(&mut self, e: Element) {
        let slot = self
            .used
            .iter_mut()
            .find(|u| u.is_none())
            .expect("two elements at most");
        *slot = Some(e);
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.corner && self.at_start() {
            return f.write_str("-");
        }
        if self.corner {
            f.write_str("c")?;
        }
        for e in self.used.iter().flatten() {
            f.write_str(match e {
                Element::Move => "m",
                Element::Pass => "p",
            })?;
        }
        Ok(())
    }
}

/// Why a round ends before its time (C33, C37).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundEnd {
    /// A shot scored for `by`.
    Goal { by: Side },
    /// `by` checkmated the other side: two goals.
    Checkmate { by: Side },
    /// `side` could not move and was not in check.
    Stalemate { side: Side },
}

impl RoundEnd {
    /// The side that kicks off the next round (C14).
    pub fn kick_off(self) -> Side {
        match self {
            RoundEnd::Goal { by } | RoundEnd::Checkmate { by } => by.other(),
            RoundEnd::Stalemate { side } => side,
        }
    }
    /// The goals it adds, and to whom.
    pub fn goals(self) -> Option<(Side, u16)> {
        match self {
            RoundEnd::Goal { by } => Some((by, 1)),
            RoundEnd::Checkmate { by } => Some((by, 2)),
            RoundEnd::Stalemate { .. } => None,
        }
    }
}

/// What happened, for records, bots and viewers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Both formations are in: a round starts with `side` to kick off.
    KickOff {
        side: Side,
    },
    Moved {
        side: Side,
        from: Sq,
        to: Sq,
        promotion: Option<Role>,
        captured: Option<Role>,
    },
    /// A piece of `side` took the ball on `at` (a capture, the circle, the corner).
    TookBall {
        side: Side,
        at: Sq,
    },
    Passed {
        side: Side,
        from: Sq,
        to: Sq,
    },
    Shot {
        side: Side,
        from: Sq,
        to: Sq,
        outcome: ShotOutcome,
        /// At an occupied goal square: the outcome was drawn (C38).
        drawn: bool,
    },
    /// The ball goes to the flag by `at`: `side` has a corner go.
    Corner {
        side: Side,
        at: Sq,
    },
    /// A corner go left the ball at the flag: the defending king has it (C36).
    GoalKick {
        side: Side,
        at: Sq,
    },
    /// A go ended; `next` has the next one.
    GoEnded {
        next: Side,
    },
    /// The round ended; the score after it.
    RoundOver {
        end: RoundEnd,
        score: [u16; 2],
    },
    /// The first half is over.
    HalfTime,
    /// The game is over.
    GameOver {
        score: [u16; 2],
    },
}

/// A position of a round in play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) side: Side,
    pub(crate) ball: Ball,
    pub(crate) progress: Progress,
    pub(crate) ep: Option<Sq>,
    pub(crate) score: [u16; 2],
    pub(crate) half: u8,
    pub(crate) goes: u16,
    pub(crate) shots: u32,
}

/// What one action led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub events: Vec<Event>,
    /// The round ended (the position is then the one it ended in).
    pub end: Option<RoundEnd>,
}

impl Position {
    /// The kick-off position of a round: `board` set up, the ball on the spot, `side` to go.
    pub fn kick_off(
        board: Board,
        side: Side,
        score: [u16; 2],
        half: u8,
        goes: u16,
        shots: u32,
    ) -> Position {
        Position {
            board,
            side,
            ball: Ball::Spot,
            progress: Progress::default(),
            ep: None,
            score,
            half,
            goes,
            shots,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The side whose go it is.
    pub fn side(&self) -> Side {
        self.side
    }
    pub fn ball(&self) -> Ball {
        self.ball
    }
    pub fn progress(&self) -> Progress {
        self.progress
    }
    pub fn score(&self) -> [u16; 2] {
        self.score
    }
    pub fn half(&self) -> u8 {
        self.half
    }
    /// Goes played in this half.
    pub fn goes(&self) -> u16 {
        self.goes
    }
    /// Shots whose outcome was drawn so far in the game (C38).
    pub fn shots_drawn(&self) -> u32 {
        self.shots
    }
    pub fn en_passant(&self) -> Option<Sq> {
        self.ep
    }

    /// The square of the piece of `side` with the ball, if it has it.
    pub fn carrier_of(&self, side: Side) -> Option<Sq> {
        match self.ball {
            Ball::Carried(s) if self.board.get(s).is_some_and(|p| p.side == side) => Some(s),
            _ => None,
        }
    }

    pub fn in_check(&self) -> bool {
        self.board.in_check(self.side)
    }

    /// Every legal action now, in a fixed order (moves, passes, shots, `end`).
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        if self.progress.at_start() {
            self.first_elements(&mut out);
        } else {
            self.later_elements(&mut out);
        }
        out
    }

    /// The round ends here before anyone acts: the side has no legal first element (C33).
    pub fn round_end(&self) -> Option<RoundEnd> {
        if !self.progress.at_start() || !self.legal().is_empty() {
            return None;
        }
        Some(if self.in_check() {
            RoundEnd::Checkmate {
                by: self.side.other(),
            }
        } else {
            RoundEnd::Stalemate { side: self.side }
        })
    }

    fn first_elements(&self, out: &mut Vec<Action>) {
        self.moves(out);
        if self.ball == Ball::Spot && !self.progress.corner {
            // C15: onto the circle whenever possible.
            let to_circle =
                |a: &Action| matches!(a, Action::Move { to, .. } if CIRCLE.contains(to));
            if out.iter().any(to_circle) {
                out.retain(to_circle);
            }
        }
        if self.progress.corner && !self.in_check() {
            if let Ball::Flag(flag) = self.ball {
                self.corner_passes(flag, out);
            }
        }
    }

    fn later_elements(&self, out: &mut Vec<Action>) {
        if let Ball::Flag(flag) = self.ball {
            // A corner go after a move that left the ball at the flag: the pass must come.
            self.corner_passes(flag, out);
            return;
        }
        let Some(carrier) = self.carrier_of(self.side) else {
            return;
        };
        if self.progress.corner && !self.progress.used(Element::Move) {
            self.moves(out);
        }
        if !self.progress.used(Element::Pass) {
            self.passes(carrier, out);
        }
        self.shots(carrier, out);
        if !out.is_empty() {
            out.push(Action::End);
        }
    }

    /// Legal chess moves of the side (C21, C27–C31).
    fn moves(&self, out: &mut Vec<Action>) {
        let mut targets = Vec::with_capacity(32);
        for (from, role) in self.board.squares_of(self.side) {
            targets.clear();
            self.board.targets(from, self.ep, &mut targets);
            for &to in &targets {
                // A king is never captured, even by a corner go's move after a check (C31).
                if self.board.get(to).is_some_and(|p| p.role == Role::King) {
                    continue;
                }
                let mut after = self.board;
                move_on(&mut after, from, to, None, self.ep);
                if after.in_check(self.side) {
                    continue;
                }
                if role == Role::Pawn && to.rank_of(self.side) == 7 {
                    for r in Role::PROMOTIONS {
                        out.push(Action::Move {
                            from,
                            to,
                            promotion: Some(r),
                        });
                    }
                } else {
                    out.push(Action::Move {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
    }

    /// Passes from the carrier (C22–C24).
    fn passes(&self, carrier: Sq, out: &mut Vec<Action>) {
        let passer = self.board.get(carrier).expect("a carrier");
        for (to, role) in self.board.squares_of(self.side) {
            if to == carrier {
                continue;
            }
            let receiver = piece(self.side, role);
            if self.board.reaches(passer, carrier, to, Blockers::All, true)
                || self
                    .board
                    .reaches(receiver, to, carrier, Blockers::All, true)
            {
                out.push(Action::Pass { from: carrier, to });
            }
        }
    }

    /// Corner passes from the flag (C35).
    fn corner_passes(&self, flag: Sq, out: &mut Vec<Action>) {
        for (to, role) in self.board.squares_of(self.side) {
            if self
                .board
                .reaches(piece(self.side, role), to, flag, Blockers::All, true)
            {
                out.push(Action::Pass { from: flag, to });
            }
        }
    }

    /// Shots from the carrier (C25).
    fn shots(&self, carrier: Sq, out: &mut Vec<Action>) {
        let shooter = self.board.get(carrier).expect("a carrier");
        for goal in goal_of(self.side.other()) {
            if self.board.get(goal).is_some_and(|p| p.side == self.side) {
                continue;
            }
            if self.board.reaches(
                shooter,
                carrier,
                goal,
                Blockers::Of(self.side.other()),
                true,
            ) {
                out.push(Action::Shot {
                    from: carrier,
                    to: goal,
                    outcome: None,
                });
            }
        }
    }

    /// The outcomes a shot at `to` may have: `[Goal]` at an empty goal square, else goal,
    /// save or block as the occupant is, and corner (C26).
    pub fn shot_outcomes(&self, to: Sq) -> &'static [ShotOutcome] {
        match self.board.get(to) {
            None => &[ShotOutcome::Goal],
            Some(p) if p.role == Role::King => {
                &[ShotOutcome::Goal, ShotOutcome::Save, ShotOutcome::Corner]
            }
            Some(_) => &[ShotOutcome::Goal, ShotOutcome::Block, ShotOutcome::Corner],
        }
    }

    /// Applies a legal action. A shot at an occupied goal square must carry its outcome
    /// (the game draws it, C38); the position is unchanged when the action is refused.
    pub fn apply(&mut self, action: &Action) -> Result<Applied, ChessElevenError> {
        let illegal = |why: &str| ChessElevenError::Illegal {
            action: action.to_string(),
            why: why.to_string(),
        };
        if !self.legal().contains(&action.as_sent()) {
            return Err(illegal(&self.why_not(action)));
        }
        if let Action::Shot { to, outcome, .. } = *action {
            let possible = self.shot_outcomes(to);
            match outcome {
                None if possible.len() > 1 => {
                    return Err(illegal(
                        "the goal square is occupied: the shot needs its drawn outcome",
                    ))
                }
                Some(o) if !possible.contains(&o) => {
                    return Err(illegal("that outcome cannot follow a shot at this square"))
                }
                _ => {}
            }
        }
        Ok(self.apply_unchecked(action))
    }

    fn why_not(&self, action: &Action) -> String {
        match action {
            Action::Formation(_) => "no formation is due: the round is in play".to_string(),
            _ if self.progress.at_start() && self.in_check() => {
                "the king is in check: the go must start with a move that ends it".to_string()
            }
            _ => {
                let legal: Vec<String> = self.legal().iter().map(|a| a.to_string()).collect();
                format!("legal now: {}", legal.join(" "))
            }
        }
    }

    /// Applies an action known to be legal (perft, playouts).
    pub(crate) fn apply_unchecked(&mut self, action: &Action) -> Applied {
        let mut events = Vec::new();
        let side = self.side;
        let end = match *action {
            Action::Formation(_) => unreachable!("formations are the game's, not a position's"),
            Action::Move {
                from,
                to,
                promotion,
            } => self.play_move(from, to, promotion, &mut events),
            Action::Pass { from, to } => {
                self.ball = Ball::Carried(to);
                self.progress.push(Element::Pass);
                events.push(Event::Passed { side, from, to });
                self.go_on(&mut events)
            }
            Action::Shot { from, to, outcome } => {
                let outcome = outcome.unwrap_or(ShotOutcome::Goal);
                let occupied = self.board.get(to).is_some();
                if occupied {
                    self.shots += 1;
                }
                events.push(Event::Shot {
                    side,
                    from,
                    to,
                    outcome,
                    drawn: occupied,
                });
                match outcome {
                    // The scoring go counts among the half's goes, as every go does (C42).
                    ShotOutcome::Goal => {
                        self.goes += 1;
                        Some(RoundEnd::Goal { by: side })
                    }
                    ShotOutcome::Save | ShotOutcome::Block => {
                        self.ball = Ball::Carried(to);
                        events.push(Event::TookBall {
                            side: side.other(),
                            at: to,
                        });
                        self.end_go(&mut events)
                    }
                    ShotOutcome::Corner => {
                        let at = corner_for(to);
                        self.goes += 1;
                        self.ball = Ball::Flag(at);
                        self.progress = Progress::corner();
                        self.ep = None;
                        events.push(Event::Corner { side, at });
                        self.round_end()
                    }
                }
            }
            Action::End => self.end_go(&mut events),
        };
        if let Some(end) = end {
            if let Some((by, n)) = end.goals() {
                self.score[by.index()] += n;
            }
            events.push(Event::RoundOver {
                end,
                score: self.score,
            });
        }
        Applied { events, end }
    }

    fn play_move(
        &mut self,
        from: Sq,
        to: Sq,
        promotion: Option<Role>,
        events: &mut Vec<Event>,
    ) -> Option<RoundEnd> {
        let side = self.side;
        let at_start = self.progress.at_start();
        let held = self.carrier_of(side).is_some();
        let mover = self.board.get(from).expect("a legal move has a mover");
        let captured = move_on(&mut self.board, from, to, promotion, self.ep);
        events.push(Event::Moved {
            side,
            from,
            to,
            promotion,
            captured,
        });
        let was_spot = self.ball == Ball::Spot;
        let new_ball = match self.ball {
            Ball::Carried(c) if c == from => Ball::Carried(to),
            Ball::Carried(_) if captured.is_some() && !held => Ball::Carried(to),
            Ball::Spot if captured.is_some() || CIRCLE.contains(&to) => Ball::Carried(to),
            Ball::Flag(f) if captured.is_some() || to == f => Ball::Carried(to),
            b => b,
        };
        // The mover took the ball unless it carried it already (a capture of the carrier
        // takes it too, though the ball stays on its square).
        if new_ball == Ball::Carried(to) && self.ball != Ball::Carried(from) {
            events.push(Event::TookBall { side, at: to });
        }
        self.ball = new_ball;
        self.ep = (mover.role == Role::Pawn && (to.rank() - from.rank()).abs() == 2)
            .then(|| from.offset(0, side.forward()).expect("between two ranks"));
        let goes_on =
            !at_start || self.progress.corner || held || (was_spot && CIRCLE.contains(&to));
        self.progress.push(Element::Move);
        if !goes_on {
            return self.end_go(events);
        }
        self.go_on(events)
    }

    /// After an element: the go goes on if anything is left, else it ends (C19, C35, C36).
    fn go_on(&mut self, events: &mut Vec<Event>) -> Option<RoundEnd> {
        if !self.legal().is_empty() {
            return None;
        }
        if let Ball::Flag(_) = self.ball {
            let defender = self.side.other();
            let king = self.board.king(defender).expect("kings are never captured");
            self.ball = Ball::Carried(king);
            events.push(Event::GoalKick {
                side: defender,
                at: king,
            });
        }
        self.end_go(events)
    }

    fn end_go(&mut self, events: &mut Vec<Event>) -> Option<RoundEnd> {
        if !self.progress.used(Element::Move) {
            self.ep = None;
        }
        self.goes += 1;
        self.side = self.side.other();
        self.progress = Progress::default();
        events.push(Event::GoEnded { next: self.side });
        self.round_end()
    }
}

/// Moves a piece on `board` (en passant and promotion included); the role it captured.
fn move_on(
    board: &mut Board,
    from: Sq,
    to: Sq,
    promotion: Option<Role>,
    ep: Option<Sq>,
) -> Option<Role> {
    let mover = board.get(from).expect("a mover");
    let mut captured = board.get(to).map(|p| p.role);
    if mover.role == Role::Pawn && captured.is_none() && Some(to) == ep && from.file() != to.file()
    {
        let behind = to
            .offset(0, -mover.side.forward())
            .expect("behind the ep square");
        board.set(behind, None);
        captured = Some(Role::Pawn);
    }
    board.set(from, None);
    board.set(
        to,
        Some(Piece {
            side: mover.side,
            role: promotion.unwrap_or(mover.role),
        }),
    );
    captured
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Side::White => 'w',
            Side::Black => 'b',
        };
        write!(f, "{} {side} ", self.board.placement())?;
        match self.ball {
            Ball::Carried(s) => write!(f, "{s}")?,
            Ball::Spot => f.write_str("spot")?,
            Ball::Flag(s) => write!(f, "flag-{s}")?,
        }
        write!(f, " {} ", self.progress)?;
        match self.ep {
            Some(s) => write!(f, "{s}")?,
            None => f.write_str("-")?,
        }
        write!(
            f,
            " {}-{} {}.{} {}",
            self.score[0], self.score[1], self.half, self.goes, self.shots
        )
    }
}

impl FromStr for Position {
    type Err = ChessElevenError;
    fn from_str(text: &str) -> Result<Position, ChessElevenError> {
        let bad = |why: String| ChessElevenError::Position(why);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 8 {
            return Err(bad(format!(
                "{} fields, expected 8 (placement side ball progress en-passant score half.goes shots)",
                fields.len()
            )));
        }
        let board = Board::from_placement(fields[0]).map_err(bad)?;
        let side = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(bad(format!("side '{other}': w or b"))),
        };
        let ball = match fields[2] {
            "spot" => Ball::Spot,
            f => match f.strip_prefix("flag-") {
                Some(c) => Ball::Flag(c.parse().map_err(|_| bad(format!("ball '{f}'")))?),
                None => Ball::Carried(
                    f.parse()
                        .map_err(|_| bad(format!("ball '{f}': a square, spot or flag-<corner>")))?,
                ),
            },
        };
        let mut progress = Progress::default();
        if fields[3] != "-" {
            let mut chars = fields[3].chars().peekable();
            if chars.peek() == Some(&'c') {
                progress.corner = true;
                chars.next();
            }
            for c in chars {
                let e = match c {
                    'm' => Element::Move,
                    'p' => Element::Pass,
                    _ => {
                        return Err(bad(format!(
                            "progress '{}': -, m, mp, c, cm, cp...",
                            fields[3]
                        )))
                    }
                };
                if progress.used(e) {
                    return Err(bad(format!(
                        "progress '{}' uses an element twice",
                        fields[3]
                    )));
                }
                progress.push(e);
            }
        }
        let ep = match fields[4] {
            "-" => None,
            s => Some(s.parse().map_err(|_| bad(format!("en passant '{s}'")))?),
        };
        let (w, b) = fields[5]
            .split_once('-')
            .ok_or_else(|| bad(format!("score '{}': W-B", fields[5])))?;
        let num = |s: &str| {
            s.parse::<u16>()
                .map_err(|_| bad(format!("'{s}' is not a count")))
        };
        let score = [num(w)?, num(b)?];
        let (half, goes) = fields[6]
            .split_once('.')
            .ok_or_else(|| bad(format!("'{}': half.goes", fields[6])))?;
        let half = match half {
            "1" => 1,
            "2" => 2,
            h => return Err(bad(format!("half '{h}': 1 or 2"))),
        };
        let goes = num(goes)?;
        let shots = fields[7]
            .parse::<u32>()
            .map_err(|_| bad(format!("'{}' is not a count of shots", fields[7])))?;
        let pos = Position {
            board,
            side,
            ball,
            progress,
            ep,
            score,
            half,
            goes,
            shots,
        };
        pos.validate().map_err(bad)?;
        Ok(pos)
    }
}

impl Position {
    /// Whether the position could arise in play (the checks a position text must pass).
    fn validate(&self) -> Result<(), String> {
        for side in Side::ALL {
            let kings = self
                .board
                .squares_of(side)
                .filter(|&(_, r)| r == Role::King)
                .count();
            if kings != 1 {
                return Err(format!("{side} has {kings} kings, exactly one expected"));
            }
            if self.board.squares_of(side).count() > 11 + 4 {
                return Err(format!(
                    "{side} has more pieces than a formation and promotions allow"
                ));
            }
        }
        for (sq, p) in Sq::all().filter_map(|s| self.board.get(s).map(|p| (s, p))) {
            if p.role == Role::Pawn && matches!(sq.rank_of(p.side), 0 | 7) {
                return Err(format!("a pawn on {sq}, a rank no pawn stands on"));
            }
        }
        // At the start of an ordinary go the other side has just moved, so it is not in
        // check; within a go, or at a corner go, the side itself has (a check it gave may
        // stand while its go goes on).
        let safe = if self.progress.at_start() && !self.progress.corner {
            self.side.other()
        } else {
            self.side
        };
        if self.board.in_check(safe) {
            return Err(format!("{safe} is in check, which no legal play leaves"));
        }
        match self.ball {
            Ball::Carried(s) if self.board.get(s).is_none() => {
                return Err(format!("the ball is carried on {s}, an empty square"))
            }
            Ball::Flag(s) if !matches!((s.file(), s.rank()), (0 | 7, 0 | 7)) => {
                return Err(format!("flag-{s} is not a corner"))
            }
            Ball::Flag(_) if !self.progress.corner => {
                return Err("the ball is at a flag outside a corner go".to_string())
            }
            _ => {}
        }
        if !self.progress.at_start()
            && !self.progress.corner
            && self.carrier_of(self.side).is_none()
        {
            return Err("a go under way without the ball".to_string());
        }
        if self.progress.at_start() && self.progress.corner && !matches!(self.ball, Ball::Flag(_)) {
            return Err("a corner go starts with the ball at a flag".to_string());
        }
        if let Some(ep) = self.ep {
            if !matches!(ep.rank(), 2 | 5) {
                return Err(format!("en passant square {ep} is not on rank 3 or 6"));
            }
        }
        Ok(())
    }
}

impl fmt::Display for RoundEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundEnd::Goal { by } => write!(f, "goal for {by}"),
            RoundEnd::Checkmate { by } => write!(f, "checkmate by {by}, two goals"),
            RoundEnd::Stalemate { side } => write!(f, "{side} stalemated, no goal"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::KickOff { side } => write!(f, "kick-off, {side}"),
            Event::Moved {
                side,
                from,
                to,
                captured,
                ..
            } => {
                write!(f, "{side} {from}-{to}")?;
                if let Some(r) = captured {
                    write!(f, " takes the {}", super::formation::role_name(*r))?;
                }
                Ok(())
            }
            Event::TookBall { side, at } => write!(f, "{side} has the ball on {at}"),
            Event::Passed { side, from, to } => write!(f, "{side} passes {from} to {to}"),
            Event::Shot {
                side,
                from,
                to,
                outcome,
                ..
            } => write!(f, "{side} shoots {from} at {to}: {}", outcome.name()),
            Event::Corner { side, at } => write!(f, "corner for {side} at {at}"),
            Event::GoalKick { side, at } => write!(f, "goal kick, {side}'s king on {at}"),
            Event::GoEnded { next } => write!(f, "{next} to go"),
            Event::RoundOver { end, score } => write!(f, "{end}, {}-{}", score[0], score[1]),
            Event::HalfTime => f.write_str("half time"),
            Event::GameOver { score } => write!(f, "full time, {}-{}", score[0], score[1]),
        }
    }
}
