//! Boyer's Football (1951), exactly as the vchess site's implementation plays it
//! (protocol/BOYER.md holds the rulings): a pure engine, no I/O, no clocks.
//!
//! A 9x9 board (files a–i, ranks 1–9), five kinds of piece per side that never capture,
//! and one ball. A turn is a sequence of sub-moves: optionally one ordinary piece move
//! first (compulsory when no piece of the side stands next to the ball), then kicks by the
//! side's pieces next to the ball, each piece at most once, until the side passes or no
//! piece of it is next to the ball any more. A goal counts only when the turn changes: the
//! ball on e9 wins for White, on e1 for Black, whoever kicked it there.
//!
//! [`Position::apply`] is the only way a position changes; a refused sub-move returns a
//! [`BoyerError`] and leaves the position as it was. [`perft`] counts whole turns the way
//! the reference implementation's own enumeration does.

use std::fmt;
use std::str::FromStr;

use crate::rules::Side;

/// Files and ranks of the board.
pub const SIZE: i8 = 9;

/// The `RulesVersion` of Boyer's Football records: the reference implementation's state
/// that the rulings follow (protocol/BOYER.md).
pub(crate) const RULES_VERSION: &str = "vchess-2021-04-23";

/// A square of the 9x9 board: `file + 9 * rank`, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(u8);

impl Sq {
    /// The square at `file`, `rank` (from 0), if on the board.
    pub fn at(file: i8, rank: i8) -> Option<Sq> {
        ((0..SIZE).contains(&file) && (0..SIZE).contains(&rank))
            .then(|| Sq((file + SIZE * rank) as u8))
    }
    pub fn file(self) -> i8 {
        (self.0 % 9) as i8
    }
    pub fn rank(self) -> i8 {
        (self.0 / 9) as i8
    }
    /// The square `df` files and `dr` ranks away, if on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Sq> {
        Sq::at(self.file() + df, self.rank() + dr)
    }
    fn index(self) -> usize {
        usize::from(self.0)
    }
    /// King distance.
    fn distance(self, other: Sq) -> i8 {
        (self.file() - other.file())
            .abs()
            .max((self.rank() - other.rank()).abs())
    }
    fn is_corner(self) -> bool {
        matches!(self.file(), 0 | 8) && matches!(self.rank(), 0 | 8)
    }
}

/// The goal White scores in (e9) and the one Black scores in (e1).
pub const WHITE_GOAL: Sq = Sq(4 + 9 * 8);
pub const BLACK_GOAL: Sq = Sq(4);

fn is_goal(sq: Sq) -> bool {
    sq == WHITE_GOAL || sq == BLACK_GOAL
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.file() as u8),
            self.rank() + 1
        )
    }
}

impl FromStr for Sq {
    type Err = BoyerError;
    fn from_str(s: &str) -> Result<Sq, BoyerError> {
        let b = s.as_bytes();
        let bad = || BoyerError::Notation(format!("'{s}' is not a square (a1 to i9)"));
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !(b'1'..=b'9').contains(&b[1]) {
            return Err(bad());
        }
        Sq::at((b[0] - b'a') as i8, (b[1] - b'1') as i8).ok_or_else(bad)
    }
}

/// The five kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
    ];
    fn letter(self) -> char {
        match self {
            Kind::King => 'k',
            Kind::Queen => 'q',
            Kind::Rook => 'r',
            Kind::Bishop => 'b',
            Kind::Knight => 'n',
        }
    }
    /// How many of this kind a side starts with: at most that many in a position.
    fn count(self) -> usize {
        match self {
            Kind::King | Kind::Queen => 1,
            _ => 2,
        }
    }
}

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: Kind,
}

impl Piece {
    /// The FEN letter: `kqrbn`, upper case for White.
    pub fn letter(self) -> char {
        match self.side {
            Side::White => self.kind.letter().to_ascii_uppercase(),
            Side::Black => self.kind.letter(),
        }
    }
}

/// The eight directions, in the order the reference scans the ball's neighbours: N, S, W,
/// E, NW, NE, SW, SE (N is toward rank 9).
const AROUND: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (1, 1),
    (-1, -1),
    (1, -1),
];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// One sub-move of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubMove {
    /// The turn's one ordinary piece move (only as its first sub-move).
    Move { from: Sq, to: Sq },
    /// The piece on `by`, next to the ball, kicks it to `to`.
    Kick { by: Sq, to: Sq },
    /// Ends the turn (possible whenever a piece of the side stands next to the ball).
    Pass,
}

/// `d1d5`, `Kd5>c5`, `pass`.
impl fmt::Display for SubMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubMove::Move { from, to } => write!(f, "{from}{to}"),
            SubMove::Kick { by, to } => write!(f, "K{by}>{to}"),
            SubMove::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for SubMove {
    type Err = BoyerError;
    fn from_str(s: &str) -> Result<SubMove, BoyerError> {
        if s == "pass" {
            return Ok(SubMove::Pass);
        }
        if let Some(rest) = s.strip_prefix('K') {
            let (by, to) = rest.split_once('>').ok_or_else(|| {
                BoyerError::Notation(format!(
                    "'{s}': a kick is K, the kicker's square, >, the target (Kd5>c5)"
                ))
            })?;
            return Ok(SubMove::Kick {
                by: by.parse()?,
                to: to.parse()?,
            });
        }
        if s.len() == 4 && s.is_ascii() {
            return Ok(SubMove::Move {
                from: s[..2].parse()?,
                to: s[2..].parse()?,
            });
        }
        Err(BoyerError::Notation(format!(
            "'{s}' is not a sub-move (d1d5, Kd5>c5 or pass)"
        )))
    }
}

/// Why a sub-move, a FEN or a text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoyerError {
    #[error("{0}")]
    Notation(String),
    #[error("{0}")]
    Fen(String),
    #[error("{0} is not a legal sub-move here")]
    Illegal(SubMove),
    #[error("the game is over")]
    GameOver,
    #[error("Boyer's Football has no game clock to expire")]
    NoGameClock,
}

/// A position: the pieces, the ball, whose turn, how far into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; 81],
    ball: Sq,
    turn: Side,
    /// Completed turns of both sides (the reference's `movesCount`).
    turns: u32,
    /// Sub-moves made in the current turn.
    made: u8,
    /// Squares of the pieces that kicked this turn (pieces cannot move after the first
    /// sub-move, so the square names the piece).
    kicked: u128,
    /// The side that scored, once a turn ended with the ball in a goal.
    winner: Option<Side>,
}

impl Position {
    /// The start position: `rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0`.
    pub fn start() -> Position {
        "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0"
            .parse()
            .expect("the start position is a position")
    }

    pub fn piece_at(&self, sq: Sq) -> Option<Piece> {
        self.board[sq.index()]
    }
    pub fn ball(&self) -> Sq {
        self.ball
    }
    pub fn turn(&self) -> Side {
        self.turn
    }
    /// Completed turns of both sides.
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// The side that scored, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }
    /// Whether the current turn has not made a sub-move yet.
    pub fn at_turn_start(&self) -> bool {
        self.made == 0
    }

    /// Sub-moves made so far in the current turn.
    pub fn made(&self) -> u8 {
        self.made
    }

    /// The squares of the pieces that kicked in the current turn.
    pub fn kicked(&self) -> Vec<Sq> {
        (0..81u8)
            .filter(|&i| self.kicked & (1u128 << i) != 0)
            .map(Sq)
            .collect()
    }

    /// This position `made` sub-moves into its side's turn, the pieces on `kicked` having
    /// kicked (how a bot rebuilds a position from a request's state). Refused when the
    /// progress cannot be: a kicker that is not one of the side's pieces, more kicks than
    /// sub-moves, or a turn under way with no piece of the side next to the ball.
    pub fn with_progress(mut self, made: u8, kicked: &[Sq]) -> Result<Position, BoyerError> {
        let bad = |why: &str| BoyerError::Fen(format!("turn progress: {why}"));
        if kicked.len() > made as usize {
            return Err(bad("more kickers than sub-moves made"));
        }
        for &sq in kicked {
            if self.piece_at(sq).map(|p| p.side) != Some(self.turn) {
                return Err(bad(&format!("{sq} holds no piece of the side to move")));
            }
            self.kicked |= 1u128 << sq.index();
        }
        if made > 0 && !self.next_to_ball(self.turn) {
            return Err(bad(
                "a turn under way needs a piece of its side next to the ball",
            ));
        }
        self.made = made;
        Ok(self)
    }

    fn occupied(&self, sq: Sq) -> bool {
        self.board[sq.index()].is_some() || sq == self.ball
    }

    /// Whether a piece of `side` stands next to the ball.
    fn next_to_ball(&self, side: Side) -> bool {
        AROUND.iter().any(|&(df, dr)| {
            self.ball
                .offset(df, dr)
                .and_then(|s| self.piece_at(s))
                .is_some_and(|p| p.side == side)
        })
    }

    /// Every legal sub-move now, in a fixed order (empty once the game is over, or when
    /// the side to move has none at the start of its turn).
    pub fn legal(&self) -> Vec<SubMove> {
        let mut out = Vec::new();
        self.legal_into(&mut out);
        out
    }

    /// [`Position::legal`] into `out` (cleared first), for callers that reuse a buffer.
    pub(crate) fn legal_into(&self, out: &mut Vec<SubMove>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        let side = self.turn;
        if self.made == 0 {
            self.piece_moves(side, out);
        }
        if self.next_to_ball(side) {
            self.kicks(side, out);
            out.push(SubMove::Pass);
        }
    }

    fn piece_moves(&self, side: Side, out: &mut Vec<SubMove>) {
        for from in (0..81u8).map(Sq) {
            let Some(piece) = self.piece_at(from).filter(|p| p.side == side) else {
                continue;
            };
            let mut to = |to: Sq| {
                if !is_goal(to) {
                    out.push(SubMove::Move { from, to });
                }
            };
            match piece.kind {
                Kind::King => {
                    for (df, dr) in AROUND {
                        if let Some(t) = from.offset(df, dr).filter(|&t| !self.occupied(t)) {
                            to(t);
                        }
                    }
                }
                Kind::Knight => {
                    for (df, dr) in KNIGHT {
                        if let Some(t) = from.offset(df, dr).filter(|&t| !self.occupied(t)) {
                            to(t);
                        }
                    }
                }
                Kind::Queen | Kind::Rook | Kind::Bishop => {
                    let mut any = false;
                    for (k, (df, dr)) in AROUND.into_iter().enumerate() {
                        let diagonal = k >= 4;
                        if (piece.kind == Kind::Rook && diagonal)
                            || (piece.kind == Kind::Bishop && !diagonal)
                        {
                            continue;
                        }
                        let mut t = from;
                        while let Some(next) = t.offset(df, dr).filter(|&n| !self.occupied(n)) {
                            // Sliders pass through a goal square but never stop on it.
                            any |= !is_goal(next);
                            to(next);
                            t = next;
                        }
                    }
                    // A bishop stuck in a corner jumps its blocked neighbour (B-corner).
                    if piece.kind == Kind::Bishop && !any && from.is_corner() {
                        let df = if from.file() == 0 { 1 } else { -1 };
                        let dr = if from.rank() == 0 { 1 } else { -1 };
                        if let (Some(n), Some(j)) =
                            (from.offset(df, dr), from.offset(2 * df, 2 * dr))
                        {
                            if self.occupied(n) && !self.occupied(j) {
                                to(j);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The kicks of `side`: every neighbour of the ball in the reference's scan order,
    /// duplicates (same target) kept by the first kicker found, then the pieces that
    /// already kicked this turn left out (the merge comes first, as in the reference).
    fn kicks(&self, side: Side, out: &mut Vec<SubMove>) {
        let ball = self.ball;
        let mut claimed: u128 = 0;
        for (df, dr) in AROUND {
            let Some(by) = ball.offset(df, dr) else {
                continue;
            };
            let Some(piece) = self.piece_at(by).filter(|p| p.side == side) else {
                continue;
            };
            // The step from the kicker to the ball.
            let step = (-df, -dr);
            let diagonal = df != 0 && dr != 0;
            let used = self.kicked & (1u128 << by.index()) != 0;
            // A target is claimed by the first kicker found (no kicker reaches the same
            // square twice), and offered if that kicker has not kicked this turn.
            let mut emit = |t: Sq| {
                let bit = 1u128 << t.index();
                if claimed & bit == 0 {
                    claimed |= bit;
                    if !used {
                        out.push(SubMove::Kick { by, to: t });
                    }
                }
            };
            match piece.kind {
                Kind::Knight => {
                    for (kf, kr) in KNIGHT {
                        if let Some(t) = ball.offset(kf, kr) {
                            if !self.occupied(t) && (t.distance(by) > 1 || ball.is_corner()) {
                                emit(t);
                            }
                        }
                    }
                }
                Kind::Rook if diagonal => {}
                Kind::Bishop if !diagonal => {}
                kind => {
                    let one = kind == Kind::King;
                    self.slide(ball, step, one, true, &mut emit);
                    // The reverse kick: over the kicker, then on the other way. The square
                    // behind the kicker is that direction's first: barred, it offers
                    // nothing (B25).
                    if let Some(behind) = by.offset(-step.0, -step.1) {
                        if !self.occupied(behind) && self.lands(step, behind) {
                            emit(behind);
                            if !one {
                                self.slide(behind, (-step.0, -step.1), false, false, &mut emit);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The squares from `from` along `step` over empty squares (one only for a king);
    /// `first`: the next square is the direction's first (a barred one ends it).
    fn slide(
        &self,
        from: Sq,
        step: (i8, i8),
        one: bool,
        mut first: bool,
        emit: &mut impl FnMut(Sq),
    ) {
        let mut t = from;
        while let Some(next) = t.offset(step.0, step.1).filter(|&n| !self.occupied(n)) {
            if self.lands(step, next) {
                emit(next);
            } else if first {
                // As the reference: a direction whose first square is barred offers
                // nothing (B25); a barred square further on is crossed.
                break;
            }
            if one {
                break;
            }
            first = false;
            t = next;
        }
    }

    /// Whether a non-knight kick along `step` may land on `target`: no goal in each side's
    /// first turn (B24); and from a ball on rank 1 or 9, no straight kick onto the e-file
    /// (B25: along the rank that is the goal square, along the e-file every square).
    fn lands(&self, step: (i8, i8), target: Sq) -> bool {
        if is_goal(target) && self.turns < 2 {
            return false;
        }
        let straight = step.0 == 0 || step.1 == 0;
        !(matches!(self.ball.rank(), 0 | 8) && straight && target.file() == 4)
    }

    /// Plays `sub`: the position changes only if it is legal now.
    pub fn apply(&mut self, sub: SubMove) -> Result<(), BoyerError> {
        if self.winner.is_some() {
            return Err(BoyerError::GameOver);
        }
        if !self.legal().contains(&sub) {
            return Err(BoyerError::Illegal(sub));
        }
        self.play(sub);
        Ok(())
    }

    /// Plays a sub-move known to be legal.
    fn play(&mut self, sub: SubMove) {
        match sub {
            SubMove::Move { from, to } => {
                self.board[to.index()] = self.board[from.index()].take();
            }
            SubMove::Kick { by, to } => {
                self.kicked |= 1u128 << by.index();
                self.ball = to;
            }
            SubMove::Pass => {
                self.end_turn();
                return;
            }
        }
        self.made += 1;
        if !self.next_to_ball(self.turn) {
            self.end_turn();
        }
    }

    /// The turn changes; a ball in a goal now wins (whoever kicked it there).
    fn end_turn(&mut self) {
        if self.ball == WHITE_GOAL {
            self.winner = Some(Side::White);
        } else if self.ball == BLACK_GOAL {
            self.winner = Some(Side::Black);
        }
        self.turn = self.turn.other();
        self.turns += 1;
        self.made = 0;
        self.kicked = 0;
    }
}

/// The reference's FEN: ranks 9 to 1, White's pieces uppercase, the ball `a`, runs of
/// empty squares as digits; then the side to move and the completed turns. Positions at
/// turn boundaries only.
impl FromStr for Position {
    type Err = BoyerError;
    fn from_str(text: &str) -> Result<Position, BoyerError> {
        // Quoted on one line, however the text came: control characters shown as `?`.
        let shown: String = text
            .chars()
            .take(120)
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        let bad = |why: String| BoyerError::Fen(format!("FEN '{shown}': {why}"));
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [placement, side, turns] = fields[..] else {
            return Err(bad("write the placement, the side to move and the turns played (rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0)".into()));
        };
        let mut board = [None; 81];
        let mut ball = None;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 9 {
            return Err(bad(format!("{} ranks; the board has 9", rows.len())));
        }
        for (k, row) in rows.iter().enumerate() {
            let rank = 8 - k as i8;
            let mut file = 0i8;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    if n == 0 {
                        return Err(bad(format!(
                            "rank {}: a run of empty squares is 1 to 9, not 0",
                            rank + 1
                        )));
                    }
                    file += n as i8;
                    continue;
                }
                let sq = Sq::at(file, rank)
                    .ok_or_else(|| bad(format!("rank {} holds more than 9 squares", rank + 1)))?;
                if c == 'a' {
                    if ball.replace(sq).is_some() {
                        return Err(bad("more than one ball".into()));
                    }
                } else {
                    let kind = Kind::ALL
                        .into_iter()
                        .find(|k| k.letter() == c.to_ascii_lowercase())
                        .ok_or_else(|| {
                            bad(format!(
                                "'{}' is not a piece (k q r b n, K Q R B N) or the ball (a)",
                                if c.is_control() { '?' } else { c }
                            ))
                        })?;
                    if is_goal(sq) {
                        return Err(bad(format!("a piece on the goal square {sq}")));
                    }
                    let side = if c.is_ascii_uppercase() {
                        Side::White
                    } else {
                        Side::Black
                    };
                    board[sq.index()] = Some(Piece { side, kind });
                }
                file += 1;
            }
            if file != 9 {
                return Err(bad(format!(
                    "rank {} holds {file} squares, not 9",
                    rank + 1
                )));
            }
        }
        let ball = ball.ok_or_else(|| bad("no ball".into()))?;
        for side in [Side::White, Side::Black] {
            let mine = board.iter().flatten().filter(|p| p.side == side);
            if mine.clone().count() == 0 {
                return Err(bad(format!("{side} has no piece")));
            }
            for kind in Kind::ALL {
                if mine.clone().filter(|p| p.kind == kind).count() > kind.count() {
                    return Err(bad(format!(
                        "{side} has more {kind:?}s than a side starts with"
                    )));
                }
            }
        }
        let turn = match side {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(bad(format!("'{other}' is not a side to move (w or b)"))),
        };
        let turns = turns
            .parse()
            .map_err(|_| bad(format!("'{turns}' is not a number of turns")))?;
        Ok(Position {
            board,
            ball,
            turn,
            turns,
            made: 0,
            kicked: 0,
            winner: None,
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            let mut empty = 0;
            for file in 0..SIZE {
                let sq = Sq::at(file, rank).expect("on the board");
                let c = if sq == self.ball {
                    Some('a')
                } else {
                    self.piece_at(sq).map(Piece::letter)
                };
                match c {
                    Some(c) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{c}")?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = if self.turn == Side::White { 'w' } else { 'b' };
        write!(f, " {side} {}", self.turns)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The ball was in this side's target goal when a turn ended (B29-B31).
    Goal(Side),
    /// The same position a third time (B33).
    Repetition,
    /// 400 turns without a goal (B34).
    TurnLimit,
    /// Neither side had a legal sub-move (B35).
    NoMoves,
}

impl Outcome {
    /// The winner, if any (a draw otherwise).
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Goal(side) => Some(side),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Goal(side) => write!(f, "{side} scores a goal"),
            Outcome::Repetition => f.write_str("draw by the third repetition"),
            Outcome::TurnLimit => write!(f, "draw after {TURN_LIMIT} turns"),
            Outcome::NoMoves => f.write_str("draw: neither side can move"),
        }
    }
}

/// What a sub-move caused, for records and bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `side` made `sub`.
    Played { side: Side, sub: SubMove },
    /// The turn passed to `next` (the game goes on).
    TurnOver { next: Side },
    /// The game ended.
    GameOver { outcome: Outcome },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Played { side, sub } => write!(f, "{side} {sub}"),
            Event::TurnOver { next } => write!(f, "{next} to play"),
            Event::GameOver { outcome } => write!(f, "{outcome}"),
        }
    }
}

/// The one kind of decision the game asks for: a sub-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    SubMove,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("sub_move")
    }
}

/// Completed turns (both sides) after which a game without a goal is drawn (B34).
pub const TURN_LIMIT: u32 = 400;

/// A position as it stands between turns, for counting repetitions: the pieces, the ball
/// and the side to move (not the turn count, B33), packed exactly (no two placements
/// share a key): four bits per square (empty, or side and kind), then the ball's square
/// and the side to move in the last word's spare bits. Hashing six words instead of 81
/// squares field by field is most of a whole game's speed.
type Placement = [u64; 6];

fn placement(pos: &Position) -> Placement {
    let mut key = [0u64; 6];
    for (i, square) in pos.board.iter().enumerate() {
        if let Some(p) = square {
            let kind = Kind::ALL
                .iter()
                .position(|&k| k == p.kind)
                .expect("a kind of piece") as u64;
            let nibble = 1 + kind + if p.side == Side::White { 0 } else { 5 };
            key[i / 16] |= nibble << (4 * (i % 16));
        }
    }
    // 81 squares fill 324 bits: the sixth word has bits 4..63 free.
    key[5] |= (pos.ball.index() as u64) << 8;
    key[5] |= u64::from(pos.turn == Side::Black) << 16;
    key
}

/// A whole game: a [`Position`] and the rulings that end a game besides a goal
/// (repetition, the turn limit, a side with no move). Perft counts positions, not games,
/// so these live here and not in [`Position`].
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    seen: std::collections::HashMap<Placement, u8>,
    outcome: Option<Outcome>,
    /// Whether the last turn was passed because its side had no sub-move (B35).
    last_forced: bool,
}

impl Game {
    pub fn new(pos: Position) -> Game {
        let mut game = Game {
            pos,
            seen: Default::default(),
            outcome: None,
            last_forced: false,
        };
        game.count_placement();
        game
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal sub-moves; a side that has none at the start of its turn has only
    /// `pass` (its turn is passed, B35). Empty once the game is over.
    pub fn legal(&self) -> Vec<SubMove> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let legal = self.pos.legal();
        if legal.is_empty() {
            vec![SubMove::Pass]
        } else {
            legal
        }
    }

    /// Plays `sub`; the game changes only if it is legal now. Returns what happened.
    pub fn play(&mut self, sub: SubMove) -> Result<Vec<Event>, BoyerError> {
        let side = self.pos.turn;
        self.apply(sub)?;
        let mut events = vec![Event::Played { side, sub }];
        if let Some(outcome) = self.outcome {
            events.push(Event::GameOver { outcome });
        } else if self.pos.turn != side {
            events.push(Event::TurnOver {
                next: self.pos.turn,
            });
        }
        Ok(events)
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<crate::rules::GameResult> {
        self.outcome.map(|o| match o.winner() {
            Some(side) => crate::rules::GameResult::Win(side),
            None => crate::rules::GameResult::Draw,
        })
    }

    /// Goals scored by `side`: 1 for the winner of a goal, 0 otherwise.
    pub fn goals(&self, side: Side) -> u16 {
        u16::from(self.outcome == Some(Outcome::Goal(side)))
    }

    /// Plays `sub`; the game changes only if it is legal now.
    pub fn apply(&mut self, sub: SubMove) -> Result<(), BoyerError> {
        if self.outcome.is_some() {
            return Err(BoyerError::GameOver);
        }
        let forced = self.pos.at_turn_start() && self.pos.legal().is_empty();
        if forced {
            if sub != SubMove::Pass {
                return Err(BoyerError::Illegal(sub));
            }
            self.pos.end_turn();
        } else {
            self.pos.apply(sub)?;
        }
        if !self.pos.at_turn_start() {
            return Ok(());
        }
        // A turn ended: a goal first (B31), then the draws.
        if let Some(side) = self.pos.winner() {
            self.outcome = Some(Outcome::Goal(side));
        } else if forced && self.last_forced {
            self.outcome = Some(Outcome::NoMoves);
        } else if self.count_placement() >= 3 {
            self.outcome = Some(Outcome::Repetition);
        } else if self.pos.turns() >= TURN_LIMIT {
            self.outcome = Some(Outcome::TurnLimit);
        }
        self.last_forced = forced;
        Ok(())
    }

    /// Counts the current placement; how often it has occurred.
    fn count_placement(&mut self) -> u8 {
        let n = self.seen.entry(placement(&self.pos)).or_default();
        *n += 1;
        *n
    }
}

impl crate::rules::ruleset::RuleSet for Game {
    type Action = SubMove;
    type Event = Event;
    type Error = BoyerError;
    type NotationError = BoyerError;
    type DecisionKind = Decision;
    /// The start position.
    type Settings = Position;

    const RULES: crate::rules::Rules = crate::rules::Rules::BoyerFootball;
    const VERSION: &'static str = RULES_VERSION;

    fn new_game(start: &Position) -> Game {
        Game::new(start.clone())
    }
    fn to_decide(&self) -> Option<(Side, Decision)> {
        self.outcome
            .is_none()
            .then_some((self.pos.turn, Decision::SubMove))
    }
    fn legal(&self) -> Vec<SubMove> {
        Game::legal(self)
    }
    fn play(&mut self, sub: &SubMove) -> Result<Vec<Event>, BoyerError> {
        Game::play(self, *sub)
    }
    fn clock_expired(&mut self, _clock: crate::rules::Clock) -> Result<Vec<Event>, BoyerError> {
        Err(BoyerError::NoGameClock)
    }
    fn result(&self) -> Option<crate::rules::GameResult> {
        Game::result(self)
    }
    fn points(&self, side: Side) -> u16 {
        self.goals(side)
    }
}

/// A seeded random player: every legal sub-move equally likely (the demo, the engine
/// benchmark and the property tests). Same seed, same game.
pub struct RandomPlayer {
    rng: rand_chacha::ChaCha8Rng,
    list: Vec<SubMove>,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        use rand::SeedableRng;
        RandomPlayer {
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
            list: Vec::new(),
        }
    }

    /// A legal sub-move of `game` (`pass` for a side with none, B35), or `None` once the
    /// game is over. Reuses one list: no allocation after the first calls.
    pub fn choose(&mut self, game: &Game) -> Option<SubMove> {
        use rand::Rng;
        if game.outcome().is_some() {
            return None;
        }
        self.list.clear();
        game.position().legal_into(&mut self.list);
        if self.list.is_empty() {
            return Some(SubMove::Pass);
        }
        Some(self.list[self.rng.gen_range(0..self.list.len())])
    }
}

/// Random games start from the start position (Boyer's Football has no quarters).
impl crate::playout::Playout for Game {
    fn settings_of(_plays: u16) -> Position {
        Position::start()
    }

    fn play_random(mut self, seed: u64, mut visit: impl FnMut(&Game, &SubMove)) -> Game {
        let mut player = RandomPlayer::new(seed);
        while let Some(sub) = player.choose(&self) {
            visit(&self, &sub);
            self.apply(sub)
                .expect("the random player picks legal sub-moves");
        }
        self
    }

    fn ends_block(event: &Event) -> bool {
        matches!(event, Event::TurnOver { .. } | Event::GameOver { .. })
    }
}

/// The benchmark's game is the random game itself (a sub-move allocates nothing); move
/// generation over every position of 50 random games.
impl crate::playout::Benched for Game {
    const ACTIONS: &'static str = "sub-moves";
    const QUARTERS: bool = false;
    type Position = Position;
    type List = Vec<SubMove>;

    fn bench_game(start: &Position, seed: u64) -> u64 {
        use crate::playout::Playout;
        let mut sub_moves = 0;
        Game::new(start.clone()).play_random(seed, |_, _| sub_moves += 1);
        sub_moves
    }

    fn movegen_positions(seed: u64) -> Vec<Position> {
        use crate::playout::Playout;
        let mut positions = Vec::new();
        for i in 0..50 {
            Game::new(Position::start()).play_random(seed.wrapping_add(i), |game, _| {
                positions.push(game.position().clone())
            });
        }
        positions
    }

    fn list_legal(position: &Position, list: &mut Vec<SubMove>) -> usize {
        position.legal_into(list);
        list.len()
    }
}

/// Perft counts whole turns from a position between turns (see [`perft`]); the built-in
/// position is `start`.
impl crate::perft::Perft for Game {
    const MAX_DEPTH: u32 = 5;
    const DEFAULT_POSITION: Option<&'static str> = Some("start");

    fn names() -> Vec<&'static str> {
        vec!["start"]
    }

    fn named(name: &str) -> Option<Game> {
        (name == "start").then(|| Game::new(Position::start()))
    }

    fn from_text(text: &str) -> Result<Game, String> {
        let pos: Position = text.trim().parse().map_err(|e: BoyerError| e.to_string())?;
        if !pos.at_turn_start() {
            return Err("perft counts whole turns; give a position between turns".into());
        }
        Ok(Game::new(pos))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self.position(), depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(self.position(), depth)
            .into_iter()
            .map(|(sub, n)| (sub.to_string(), n))
            .collect()
    }
}

/// Whole turns to `depth`, counted as the reference enumerates them: a turn is one path
/// of sub-moves from its first to the change of turn; a turn that ends with a goal is a
/// leaf at any depth. `pos` must be at a turn boundary.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut lists = Vec::new();
    count(pos, depth, 0, &mut lists)
}

/// [`perft`] split by the first sub-move: each legal sub-move now with the whole turns to
/// `depth` below it (a sub-move that does not end the turn is followed within the same turn).
pub fn divide(pos: &Position, depth: u32) -> Vec<(SubMove, u64)> {
    if depth == 0 || pos.winner.is_some() {
        return Vec::new();
    }
    let mut lists = Vec::new();
    pos.legal()
        .into_iter()
        .map(|sub| {
            let mut next = pos.clone();
            next.play(sub);
            let n = if next.made > 0 {
                count(&next, depth, 1, &mut lists)
            } else if next.winner.is_some() {
                1
            } else {
                count(&next, depth - 1, 1, &mut lists)
            };
            (sub, n)
        })
        .collect()
}

/// Whole turns to `depth` from `pos`, which is `level` sub-moves deep in the search;
/// `lists` holds one reusable sub-move list per level.
fn count(pos: &Position, depth: u32, level: usize, lists: &mut Vec<Vec<SubMove>>) -> u64 {
    if depth == 0 || pos.winner.is_some() {
        return 1;
    }
    while lists.len() <= level {
        lists.push(Vec::with_capacity(64));
    }
    let mut list = std::mem::take(&mut lists[level]);
    pos.legal_into(&mut list);
    let mut total = 0;
    for &sub in &list {
        let mut next = pos.clone();
        next.play(sub);
        total += if next.made > 0 {
            // The same turn goes on.
            count(&next, depth, level + 1, lists)
        } else if next.winner.is_some() {
            1
        } else {
            count(&next, depth - 1, level + 1, lists)
        };
    }
    lists[level] = list;
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Sq {
        s.parse().unwrap()
    }

    /// The kick targets of the piece on `by` in `fen`, as sorted square names.
    fn kicks_of(fen: &str, by: &str) -> Vec<String> {
        let pos: Position = fen.parse().unwrap();
        let mut t: Vec<String> = pos
            .legal()
            .into_iter()
            .filter_map(|m| match m {
                SubMove::Kick { by: b, to } if b == sq(by) => Some(to.to_string()),
                _ => None,
            })
            .collect();
        t.sort();
        t
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Position::start();
        for depth in 1..=2 {
            let parts = divide(&pos, depth);
            assert_eq!(parts.len(), pos.legal().len());
            assert_eq!(
                parts.iter().map(|(_, n)| n).sum::<u64>(),
                perft(&pos, depth)
            );
        }
    }

    #[test]
    fn fen_round_trips_and_the_start_position_is_the_reference_one() {
        let start = Position::start();
        assert_eq!(start.to_string(), "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0");
        assert_eq!(start.ball(), sq("e5"));
        for bad in [
            "rnbq1knbr/9/9/9/9/9/9/9/RNBQ1KNBR w 0",
            "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQKKNBR w 0",
            "rnbqk1nbr/9/9/9/4a4/9/9/9/RNBQ1KNBR x 0",
            "4k4/9/9/9/4a4/9/9/9/9 w 0",
            "rnbq1knbr/9/9/9/4a4/9/9/9 w 0",
        ] {
            assert!(bad.parse::<Position>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_references_cross_checks() {
        // Queen c7, ball d8: the goal from the third turn on, never before.
        assert_eq!(
            kicks_of("9/3a5/2Q6/9/9/9/9/9/k8 w 2", "c7"),
            sorted(&["e9", "b6", "a5"])
        );
        assert_eq!(
            kicks_of("9/3a5/2Q6/9/9/9/9/9/k8 w 0", "c7"),
            sorted(&["b6", "a5"])
        );
        // Rook e7, ball e8: forward into the goal, and the reverse kick down the file.
        assert_eq!(
            kicks_of("9/4a4/4R4/9/9/9/9/9/k8 w 2", "e7"),
            sorted(&["e9", "e6", "e5", "e4", "e3", "e2", "e1"])
        );
        // Knight g6, ball f7, first turn: knight kicks ignore the first-move rule.
        assert_eq!(
            kicks_of("9/9/5a3/6N2/9/9/9/9/k8 w 0", "g6"),
            sorted(&["d8", "h8", "d6", "e9", "g9", "e5"])
        );
        // A bishop orthogonally next to the ball cannot kick; a king moves it one square.
        assert!(kicks_of("9/9/9/9/9/3Ba4/9/9/k8 w 2", "d4").is_empty());
        assert_eq!(
            kicks_of("9/9/9/9/9/3Ka4/9/9/k8 w 2", "d4"),
            sorted(&["f4", "c4"])
        );
        // Rook b9, ball c9: along the goal rank, over e9 but never onto it.
        assert_eq!(
            kicks_of("1Ra6/9/9/9/9/9/9/9/k8 w 2", "b9"),
            sorted(&["d9", "f9", "g9", "h9", "i9", "a9"])
        );
    }

    #[test]
    fn two_knights_share_targets_with_the_first_one_found() {
        // Knights d4 and e3, ball e4: e3 (south) is found before d4 (west).
        let fen = "9/9/9/9/9/3Na4/4N4/9/k8 w 2";
        assert_eq!(
            kicks_of(fen, "e3"),
            sorted(&["c5", "g5", "c3", "g3", "d6", "f6"])
        );
        assert_eq!(kicks_of(fen, "d4"), sorted(&["d2", "f2"]));
        // In a turn where e3 has kicked already, d4 still loses the shared targets (the
        // merge comes before the once-per-turn rule).
        let mut pos: Position = fen.parse().unwrap();
        pos.kicked |= 1u128 << sq("e3").index();
        pos.made = 1;
        let d4: Vec<String> = pos
            .legal()
            .into_iter()
            .filter_map(|m| match m {
                SubMove::Kick { by, to } if by == sq("d4") => Some(to.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(
            sorted(&d4.iter().map(String::as_str).collect::<Vec<_>>()),
            sorted(&["d2", "f2"])
        );
        assert!(pos
            .legal()
            .iter()
            .all(|m| !matches!(m, SubMove::Kick { by, .. } if *by == sq("e3"))));
    }

    #[test]
    fn the_start_positions_queen_kicks_backwards_over_itself() {
        let mut pos = Position::start();
        pos.apply("d1d5".parse().unwrap()).unwrap();
        assert!(pos.legal().contains(&"Kd5>c5".parse().unwrap()));
        // No goal in the first turn: nothing reaches e9 or e1.
        assert!(pos
            .legal()
            .iter()
            .all(|m| !matches!(m, SubMove::Kick { to, .. } if is_goal(*to))));
    }

    #[test]
    fn the_rules_texts_corner_kick() {
        // The text's diagram: the ball on i1 (not g1), knight h2: h3 is allowed only by the
        // corner exception (it is next to the knight).
        let fen = "3q1k1br/r7R/2n2n3/3Q5/6b2/9/9/7N1/RNB2K1Ba w 2";
        assert!(kicks_of(fen, "h2").contains(&"h3".to_string()));
    }

    #[test]
    fn a_goal_counts_only_when_the_turn_changes() {
        // White rook e7 kicks e8 → e9; then the king d8 may kick it out again.
        let mut pos: Position = "9/3Ka4/4R4/9/9/9/9/9/k8 w 2".parse().unwrap();
        pos.apply("Ke7>e9".parse().unwrap()).unwrap();
        assert_eq!(pos.winner(), None, "mid-turn: not yet a goal");
        assert!(pos.legal().contains(&SubMove::Pass));
        let mut scored = pos.clone();
        scored.apply(SubMove::Pass).unwrap();
        assert_eq!(scored.winner(), Some(Side::White));
        assert!(scored.legal().is_empty());
    }

    #[test]
    fn a_corner_bishop_jumps_its_blocked_neighbour() {
        let pos: Position = "9/9/9/9/9/9/a8/1N7/B4k3 w 2".parse().unwrap();
        assert!(pos.legal().contains(&"a1c3".parse().unwrap()));
    }

    fn play(game: &mut Game, subs: &[&str]) {
        for text in subs {
            game.apply(text.parse().unwrap())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    #[test]
    fn the_third_occurrence_of_a_position_is_a_draw() {
        let mut game = Game::new("9/9/9/9/4a4/9/9/9/K4k3 w 2".parse().unwrap());
        play(&mut game, &["a1a2", "f1f2", "a2a1", "f2f1"]);
        assert_eq!(game.outcome(), None, "twice");
        play(&mut game, &["a1a2", "f1f2", "a2a1"]);
        assert_eq!(game.outcome(), None);
        play(&mut game, &["f2f1"]);
        assert_eq!(game.outcome(), Some(Outcome::Repetition));
        assert!(game.legal().is_empty());
    }

    #[test]
    fn four_hundred_turns_without_a_goal_are_a_draw() {
        let mut game = Game::new("9/9/9/9/4a4/9/9/9/K4k3 w 398".parse().unwrap());
        play(&mut game, &["a1a2"]);
        assert_eq!(game.outcome(), None);
        play(&mut game, &["f1f2"]);
        assert_eq!(game.outcome(), Some(Outcome::TurnLimit));
    }

    #[test]
    fn a_side_without_a_sub_move_passes_its_turn() {
        // White's bishop a1 is shut in (b2 and c3 taken) and nothing touches the ball.
        let mut game = Game::new("9/9/9/9/a8/9/2k6/1n7/B8 w 2".parse().unwrap());
        assert_eq!(game.legal(), vec![SubMove::Pass]);
        assert!(game.apply("a1c3".parse().unwrap()).is_err());
        play(&mut game, &["pass"]);
        assert_eq!(game.position().turn(), Side::Black);
        assert_eq!(game.outcome(), None);
        assert!(game.legal().len() > 1);
    }

    #[test]
    fn a_goal_ends_the_game_before_any_draw() {
        let mut game = Game::new("9/3Ka4/4R4/9/9/9/9/9/k8 w 399".parse().unwrap());
        play(&mut game, &["Ke7>e9", "pass"]);
        assert_eq!(game.outcome(), Some(Outcome::Goal(Side::White)));
    }

    #[test]
    fn notation_round_trips_and_bad_text_is_refused() {
        for text in ["d1d5", "Kd5>c5", "pass"] {
            assert_eq!(text.parse::<SubMove>().unwrap().to_string(), text);
        }
        for bad in ["", "d1", "Kd5c5", "j1d5", "d0d5", "K>", "passs"] {
            assert!(bad.parse::<SubMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn refused_sub_moves_leave_the_position_unchanged() {
        let mut pos = Position::start();
        let before = pos.clone();
        assert_eq!(
            pos.apply(SubMove::Pass),
            Err(BoyerError::Illegal(SubMove::Pass))
        );
        assert_eq!(pos, before);
        assert!(pos.apply("e1e2".parse().unwrap()).is_err());
        assert_eq!(pos, before);
    }
}
