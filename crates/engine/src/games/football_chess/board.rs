//! Where the pieces stand: one bitboard per side and per role, plus the one pile.
//!
//! Pieces are never captured (rules 2.2), but two or more may share the ball's square
//! after a tackle, a truck or a contested fumble (rules 4.1, 4.2). The bitboards hold the
//! topmost piece of a square; the pieces beneath it live in [`Pile`]. There is only one
//! ball, so there is at most one pile.

use arrayvec::ArrayVec;

use super::types::{Bitboard, Piece, Role, Side, Square};

/// Every piece of both teams (7 + 7) fits in one pile.
pub(crate) const MAX_PILE: usize = 14;

/// The pieces under the topmost piece on the pile square, bottom first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pile {
    square: Option<Square>,
    under: ArrayVec<Piece, MAX_PILE>,
}

/// The pieces on the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    sides: [u64; 2],
    roles: [u64; 6],
    /// The topmost piece of each square, for a lookup without scanning the bitboards
    /// (the legal-action generator asks this for every target square).
    mailbox: [Option<Piece>; 64],
    pile: Pile,
}

impl Default for Board {
    fn default() -> Board {
        Board {
            sides: [0; 2],
            roles: [0; 6],
            mailbox: [None; 64],
            pile: Pile::default(),
        }
    }
}

impl Board {
    pub fn new() -> Board {
        Board::default()
    }

    /// Every square with at least one piece.
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.sides[0] | self.sides[1])
    }

    pub fn side(&self, side: Side) -> Bitboard {
        Bitboard(self.sides[side.index()])
    }

    pub fn role(&self, role: Role) -> Bitboard {
        Bitboard(self.roles[role.index()])
    }

    pub fn pieces(&self, side: Side, role: Role) -> Bitboard {
        Bitboard(self.sides[side.index()] & self.roles[role.index()])
    }

    /// The topmost piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// How many pieces of a side stand on the field, the pile included.
    pub fn count(&self, side: Side, role: Role) -> u8 {
        let under = self
            .pile
            .under
            .iter()
            .filter(|p| p.side == side && p.role == role)
            .count();
        self.pieces(side, role).count() as u8 + under as u8
    }

    /// All pieces of a side on the field, the pile included.
    pub fn count_side(&self, side: Side) -> u8 {
        let under = self.pile.under.iter().filter(|p| p.side == side).count();
        self.side(side).count() as u8 + under as u8
    }

    /// Places a piece on an empty square.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.occupied().contains(sq), "put on occupied {sq}");
        self.sides[piece.side.index()] |= sq.bit();
        self.roles[piece.role.index()] |= sq.bit();
        self.mailbox[sq.index()] = Some(piece);
    }

    /// Lifts the (single, not piled) piece off a square.
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        debug_assert!(self.pile.square != Some(sq), "take from a pile");
        self.sides[piece.side.index()] &= !sq.bit();
        self.roles[piece.role.index()] &= !sq.bit();
        self.mailbox[sq.index()] = None;
        Some(piece)
    }

    /// Moves the piece on `from` onto the empty square `to`.
    pub(crate) fn shift(&mut self, from: Square, to: Square) {
        if let Some(p) = self.take(from) {
            self.put(to, p);
        }
    }

    /// Puts `piece` on top of whatever stands on `sq`, forming (or growing) the pile.
    pub(crate) fn stack(&mut self, sq: Square, piece: Piece) {
        if let Some(top) = self.piece_at(sq) {
            debug_assert!(self.pile.square.is_none() || self.pile.square == Some(sq));
            self.sides[top.side.index()] &= !sq.bit();
            self.roles[top.role.index()] &= !sq.bit();
            self.mailbox[sq.index()] = None;
            self.pile.square = Some(sq);
            self.pile.under.push(top);
        }
        self.put(sq, piece);
    }

    /// The pile square, if two or more pieces share one.
    pub fn pile_square(&self) -> Option<Square> {
        self.pile.square
    }

    /// The pieces on `sq`, bottom first (one piece, or a whole pile).
    pub fn stack_at(&self, sq: Square) -> ArrayVec<Piece, MAX_PILE> {
        let mut out = ArrayVec::new();
        if self.pile.square == Some(sq) {
            out.extend(self.pile.under.iter().copied());
        }
        if let Some(top) = self.piece_at(sq) {
            out.push(top);
        }
        out
    }

    /// Every piece back to the sidelines (each play is formed anew, rules 2.2).
    pub(crate) fn clear(&mut self) {
        *self = Board::default();
    }

    /// Pieces of `side` not on the field, by role.
    pub fn sideline(&self, side: Side) -> [u8; 6] {
        let mut out = [0; 6];
        for role in Role::ALL {
            out[role.index()] = role.sideline_count().saturating_sub(self.count(side, role));
        }
        out
    }
}
