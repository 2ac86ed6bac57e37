//! Squares, pieces and the board of Chess Eleven, and the reaches the rulings build on:
//! where a piece moves, attacks, passes and shoots (protocol/CHESS-ELEVEN.md, C21–C25).

use std::fmt;
use std::str::FromStr;

use crate::rules::Side;

use super::error::NotationError;

/// A square of the 8x8 board: `file + 8 * rank`, both from 0 (a1 = 0, h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(u8);

impl Sq {
    /// The square at `file`, `rank` (from 0), if on the board.
    pub const fn at(file: i8, rank: i8) -> Option<Sq> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Sq((file + 8 * rank) as u8))
        } else {
            None
        }
    }
    /// Every square, a1, b1, ..., h1, a2, ..., h8 (the order of formations, C51).
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..64).map(Sq)
    }
    pub const fn file(self) -> i8 {
        (self.0 % 8) as i8
    }
    pub const fn rank(self) -> i8 {
        (self.0 / 8) as i8
    }
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Sq> {
        Sq::at(self.file() + df, self.rank() + dr)
    }
    /// A light square (a1 is dark, FIDE 2.1).
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }
    /// The rank counted from `side`'s back rank (0 = its first rank).
    pub const fn rank_of(self, side: Side) -> i8 {
        match side {
            Side::White => self.rank(),
            Side::Black => 7 - self.rank(),
        }
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'1' + self.rank() as u8) as char
        )
    }
}

impl FromStr for Sq {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Sq, NotationError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            Ok(Sq(b[0] - b'a' + 8 * (b[1] - b'1')))
        } else {
            Err(NotationError::new(s, "not a square (a1 to h8)"))
        }
    }
}

/// The goal squares of `side`'s own goal (C2): d1, e1 for White; d8, e8 for Black.
pub const fn goal_of(side: Side) -> [Sq; 2] {
    match side {
        Side::White => [Sq(3), Sq(4)],
        Side::Black => [Sq(59), Sq(60)],
    }
}

/// The centre circle (C3): d4, e4, d5, e5.
pub const CIRCLE: [Sq; 4] = [Sq(27), Sq(28), Sq(35), Sq(36)];

/// The corner beside which a corner puts the ball (C34): the defending back rank's corner
/// on the side of the goal square shot at.
pub fn corner_for(goal_square: Sq) -> Sq {
    let file = if goal_square.file() <= 3 { 0 } else { 7 };
    Sq::at(file, goal_square.rank()).expect("a back-rank corner")
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    /// What a pawn may become (C29).
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The upper-case letter.
    pub const fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }

    /// How many a standard army has (C5).
    pub const fn army_count(self) -> u8 {
        match self {
            Role::King | Role::Queen => 1,
            Role::Rook | Role::Bishop | Role::Knight => 2,
            Role::Pawn => 8,
        }
    }
}

/// A piece of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

impl Piece {
    /// Its letter in a position text: upper case for White.
    pub fn letter(self) -> char {
        match self.side {
            Side::White => self.role.letter(),
            Side::Black => self.role.letter().to_ascii_lowercase(),
        }
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Which pieces stop a line between two squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blockers {
    /// Every piece (moves, attacks and passes).
    All,
    /// Only the pieces of this side (a shot's clear line, C25).
    Of(Side),
}

/// The 64 squares and what stands on each.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board([Option<Piece>; 64]);

impl Default for Board {
    fn default() -> Board {
        Board([None; 64])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.placement())
    }
}

impl Board {
    pub fn get(&self, sq: Sq) -> Option<Piece> {
        self.0[sq.index()]
    }
    pub fn set(&mut self, sq: Sq, piece: Option<Piece>) {
        self.0[sq.index()] = piece;
    }
    /// Occupied squares of `side`, in square order.
    pub fn squares_of(&self, side: Side) -> impl Iterator<Item = (Sq, Role)> + '_ {
        Sq::all().filter_map(move |s| match self.get(s) {
            Some(p) if p.side == side => Some((s, p.role)),
            _ => None,
        })
    }
    pub fn king(&self, side: Side) -> Option<Sq> {
        self.squares_of(side)
            .find(|&(_, r)| r == Role::King)
            .map(|(s, _)| s)
    }

    /// The placement field of a position text: ranks 8 down to 1.
    pub fn placement(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.get(Sq::at(file, rank).expect("on the board")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// Reads a placement field.
    pub fn from_placement(text: &str) -> Result<Board, String> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 8 {
            return Err(format!("{} ranks, expected 8", ranks.len()));
        }
        let mut board = Board::default();
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as i8;
            let mut file = 0i8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(format!("'{c}' is not a run of empty squares"));
                    }
                    file += d as i8;
                } else {
                    let role = Role::from_letter(c)
                        .ok_or_else(|| format!("'{c}' is not a piece letter (KQRBNP)"))?;
                    let side = if c.is_ascii_uppercase() {
                        Side::White
                    } else {
                        Side::Black
                    };
                    let sq = Sq::at(file, rank)
                        .ok_or_else(|| format!("rank {} is longer than 8", rank + 1))?;
                    board.set(sq, Some(Piece { side, role }));
                    file += 1;
                }
                if file > 8 {
                    return Err(format!("rank {} is longer than 8", rank + 1));
                }
            }
            if file != 8 {
                return Err(format!("rank {} has {file} squares, expected 8", rank + 1));
            }
        }
        Ok(board)
    }

    /// Whether the line from `from` to `to` is a straight line along `dirs` with every
    /// square strictly between free of `blockers`.
    fn line_clear(&self, from: Sq, to: Sq, dirs: &[(i8, i8)], blockers: Blockers) -> bool {
        let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
        if (df, dr) == (0, 0) {
            return false;
        }
        let step = (df.signum(), dr.signum());
        if !dirs.contains(&step) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return false;
        }
        let mut at = from.offset(step.0, step.1);
        while let Some(sq) = at {
            if sq == to {
                return true;
            }
            match (self.get(sq), blockers) {
                (Some(_), Blockers::All) => return false,
                (Some(p), Blockers::Of(side)) if p.side == side => return false,
                _ => {}
            }
            at = sq.offset(step.0, step.1);
        }
        false
    }

    /// Whether `piece` standing on `from` reaches `to` by its move pattern, as a capture
    /// would (the end square's occupant ignored), with lines stopped by `blockers`. The
    /// pawn's pattern is its captures and, when `with_steps`, its steps ahead (C23).
    pub(crate) fn reaches(
        &self,
        piece: Piece,
        from: Sq,
        to: Sq,
        blockers: Blockers,
        with_steps: bool,
    ) -> bool {
        let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
        match piece.role {
            Role::King => df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0),
            Role::Knight => matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)),
            Role::Rook => self.line_clear(from, to, &ROOK_DIRS, blockers),
            Role::Bishop => self.line_clear(from, to, &BISHOP_DIRS, blockers),
            Role::Queen => {
                self.line_clear(from, to, &ROOK_DIRS, blockers)
                    || self.line_clear(from, to, &BISHOP_DIRS, blockers)
            }
            Role::Pawn => {
                let fwd = piece.side.forward();
                if dr == fwd && df.abs() == 1 {
                    return true;
                }
                if !with_steps || df != 0 {
                    return false;
                }
                if dr == fwd {
                    return true;
                }
                let middle_free = match (from.offset(0, fwd).and_then(|m| self.get(m)), blockers) {
                    (None, _) => true,
                    (Some(_), Blockers::All) => false,
                    (Some(p), Blockers::Of(side)) => p.side != side,
                };
                dr == 2 * fwd && from.rank_of(piece.side) == 1 && middle_free
            }
        }
    }

    /// Whether a piece of `by` attacks `sq` (check, C31).
    pub fn attacked(&self, sq: Sq, by: Side) -> bool {
        // Knights and kings and pawns by their patterns from sq; lines by walking out.
        for (df, dr) in KNIGHT_LEAPS {
            if let Some(s) = sq.offset(df, dr) {
                if self.get(s) == Some(piece(by, Role::Knight)) {
                    return true;
                }
            }
        }
        for (df, dr) in KING_STEPS {
            if let Some(s) = sq.offset(df, dr) {
                if self.get(s) == Some(piece(by, Role::King)) {
                    return true;
                }
            }
        }
        for df in [-1, 1] {
            if let Some(s) = sq.offset(df, -by.forward()) {
                if self.get(s) == Some(piece(by, Role::Pawn)) {
                    return true;
                }
            }
        }
        for (dirs, role) in [(ROOK_DIRS, Role::Rook), (BISHOP_DIRS, Role::Bishop)] {
            for (df, dr) in dirs {
                let mut at = sq.offset(df, dr);
                while let Some(s) = at {
                    if let Some(p) = self.get(s) {
                        if p.side == by && (p.role == role || p.role == Role::Queen) {
                            return true;
                        }
                        break;
                    }
                    at = s.offset(df, dr);
                }
            }
        }
        false
    }

    pub fn in_check(&self, side: Side) -> bool {
        self.king(side)
            .is_some_and(|k| self.attacked(k, side.other()))
    }

    /// The squares a piece on `from` may move to by its pattern (empty squares and
    /// opponent pieces; a pawn's captures only onto opponents or `ep`), before check.
    pub(crate) fn targets(&self, from: Sq, ep: Option<Sq>, out: &mut Vec<Sq>) {
        let Some(p) = self.get(from) else { return };
        let free_or_enemy = |s: Sq| self.get(s).map_or(true, |q| q.side != p.side);
        match p.role {
            Role::King | Role::Knight => {
                let steps = if p.role == Role::King {
                    &KING_STEPS
                } else {
                    &KNIGHT_LEAPS
                };
                for &(df, dr) in steps {
                    if let Some(s) = from.offset(df, dr) {
                        if free_or_enemy(s) {
                            out.push(s);
                        }
                    }
                }
            }
            Role::Rook | Role::Bishop | Role::Queen => {
                let dirs: &[(i8, i8)] = match p.role {
                    Role::Rook => &ROOK_DIRS,
                    Role::Bishop => &BISHOP_DIRS,
                    _ => &KING_STEPS,
                };
                for &(df, dr) in dirs {
                    let mut at = from.offset(df, dr);
                    while let Some(s) = at {
                        match self.get(s) {
                            None => out.push(s),
                            Some(q) => {
                                if q.side != p.side {
                                    out.push(s);
                                }
                                break;
                            }
                        }
                        at = s.offset(df, dr);
                    }
                }
            }
            Role::Pawn => {
                let fwd = p.side.forward();
                if let Some(one) = from.offset(0, fwd) {
                    if self.get(one).is_none() {
                        out.push(one);
                        if from.rank_of(p.side) == 1 {
                            if let Some(two) = from.offset(0, 2 * fwd) {
                                if self.get(two).is_none() {
                                    out.push(two);
                                }
                            }
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(s) = from.offset(df, fwd) {
                        let enemy = self.get(s).is_some_and(|q| q.side != p.side);
                        // En passant: onto the square the opponent's pawn stepped over.
                        let passed = ep == Some(s)
                            && s.offset(0, -fwd)
                                .and_then(|b| self.get(b))
                                .is_some_and(|q| q == piece(p.side.other(), Role::Pawn));
                        if enemy || passed {
                            out.push(s);
                        }
                    }
                }
            }
        }
    }
}

pub(crate) const fn piece(side: Side, role: Role) -> Piece {
    Piece { side, role }
}
