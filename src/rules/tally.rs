//! Counting the action phase's legal actions without listing them, and finding the one at
//! an index: what a random playout needs, since it wants one action of the ~30 a position
//! offers and listing them all is most of its cost.
//!
//! The count works on sets of squares rather than on one target at a time: a position's
//! landing rules (4.1–4.3, R7–R9) become a few sets worked out once (empty squares, the
//! squares any mover may land on, and for each direction the occupied squares a piece
//! arriving that way may push), and each piece's count is a handful of set operations with
//! few branches. A slider's line needs only its first piece (a bit scan), except where it
//! passes over its own ball carrier (R8) and carries on. Only the chosen piece's moves are
//! then listed, by the generator itself, so the action found is the one
//! [`Game::legal_actions`] lists at that index: a playout drawing an index into the count
//! plays the same game as one drawing from the list.

use super::action::Action;
use super::game::{Ball, Game, Phase};
use super::play::ActionList;
use super::tables::{ray_bits, KNIGHT_BITS, KNIGHT_OVER, RAY_BITS, STEP_BITS};
use super::types::{Dir, Role, Side, Square};

/// The `Dir::ALL` index of the step (`df`, `dr`).
const fn dir_index(df: i8, dr: i8) -> usize {
    let mut d = 0;
    while d < 8 {
        if Dir::ALL[d].df == df && Dir::ALL[d].dr == dr {
            return d;
        }
        d += 1;
    }
    panic!("not a unit step")
}

/// A pawn's step straight ahead and its two diagonal steps, as `Dir::ALL` indices, by side.
const PAWN_STEPS: [(usize, [usize; 2]); 2] = {
    let mut out = [(0, [0, 0]); 2];
    let mut i = 0;
    while i < 2 {
        let f = Side::ALL[i].forward();
        out[i] = (dir_index(0, f), [dir_index(-1, f), dir_index(1, f)]);
        i += 1;
    }
    out
};

/// `ON_AND_BEYOND[s][d]`: square `s` and its ray along `Dir::ALL[d]`; nothing for the
/// 65th entry (64), which stands for "no piece on the line".
static ON_AND_BEYOND: [[u64; 8]; 65] = {
    let rays = ray_bits();
    let mut out = [[0u64; 8]; 65];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            out[s][d] = rays[s][d] | (1u64 << s);
            d += 1;
        }
        s += 1;
    }
    out
};

/// Along which `Dir::ALL` directions square indices rise: the nearest square of a set on
/// such a line is its lowest, on the others its highest.
const RISING: [bool; 8] = {
    let mut out = [false; 8];
    let mut d = 0;
    while d < 8 {
        out[d] = Dir::ALL[d].dr * 8 + Dir::ALL[d].df > 0;
        d += 1;
    }
    out
};

/// The last step of knight jump `k` (`Dir::KNIGHT[k]`) by route, as `Dir::ALL` indices:
/// file first ends along the rank, rank first along the file (see `KnightRoute::path`).
/// A push goes the way of the last step.
const KNIGHT_LAST: [(usize, usize); 8] = {
    let mut out = [(0, 0); 8];
    let mut k = 0;
    while k < 8 {
        let d = Dir::KNIGHT[k];
        out[k] = (dir_index(d.df.signum(), 0), dir_index(0, d.dr.signum()));
        k += 1;
    }
    out
};

/// The action phase's legal actions of one position, counted: per piece (by square) and
/// the carrier's throws. From [`Game::tally_actions`]; [`Game::tallied_action`] finds
/// the action at an index.
#[derive(Clone, Debug)]
pub struct ActionTally {
    side: Side,
    /// Moves of the piece on each of the side's squares (other squares are not read).
    counts: [u8; 64],
    moves: u32,
    throws: u32,
}

impl ActionTally {
    /// How many actions [`Game::legal_actions`] lists: the moves and throws, or the one
    /// pass a team without either has.
    pub fn total(&self) -> usize {
        ((self.moves + self.throws) as usize).max(1)
    }
}

/// The landing rules of one position for one side, as sets of squares.
struct Landings {
    occupied: u64,
    empty: u64,
    opponents: u64,
    /// Occupied squares any mover may land on: the contested ball (4.2), the opposing
    /// carrier (a tackle) and the opposing receiver of a direct throw (4.3).
    contact: u64,
    /// `push[d]`: squares whose piece a move arriving along `Dir::ALL[d]` pushes onto a
    /// square on the board that is empty and without the ball (4.1).
    push: [u64; 8],
    /// Empty squares a pawn's diagonal step may land on: the loose ball, the target of an
    /// indirect throw (R7).
    pawn_diagonal: u64,
}

impl Landings {
    fn new(game: &Game, side: Side) -> Landings {
        let occupied = game.board.occupied().0;
        let opponents = game.board.side(side.other()).0;
        let (contact, ball, pawn_diagonal) = match game.ball {
            Ball::Carried(b) => (b.bit() & opponents, 0, 0),
            Ball::Contested(b) => (b.bit(), b.bit(), 0),
            Ball::Loose(b) => (0, b.bit(), b.bit()),
            Ball::InFlight(t) if t.direct => (t.to.bit() & opponents, t.to.bit(), 0),
            Ball::InFlight(t) => (0, t.to.bit(), t.to.bit() & !occupied),
            Ball::Spotted(_) => (0, 0, 0),
        };
        let free = !(occupied | ball);
        let mut push = [0u64; 8];
        for (d, dir) in Dir::ALL.iter().enumerate() {
            // The squares one step back along `d` from a free square, without wrapping
            // round the board's edge files.
            let shift = i32::from(dir.dr) * 8 + i32::from(dir.df);
            let back = if shift > 0 {
                free >> shift
            } else {
                free << -shift
            };
            let edge = match dir.df {
                1 => FILE_H,
                -1 => FILE_A,
                _ => 0,
            };
            push[d] = back & !edge & occupied;
        }
        Landings {
            occupied,
            empty: !occupied,
            opponents,
            contact,
            push,
            pawn_diagonal,
        }
    }

    /// Squares of `target` (one square or none) a non-pawn move arriving along `d` may land
    /// on: 1 or 0. `gets_ball`: the mover holds the ball as it lands (a truck, 4.1).
    fn onto(&self, target: u64, d: usize, gets_ball: bool) -> u32 {
        let truck = if gets_ball { self.opponents } else { 0 };
        u32::from(target & (self.empty | self.contact | truck | self.push[d]) != 0)
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Game {
    /// Counts the action phase's legal actions without listing them; `None` in any other
    /// phase, and while pieces stand in a pile (the count is then
    /// [`Game::legal_actions`]'s length).
    pub fn tally_actions(&self) -> Option<ActionTally> {
        let Phase::Action(side) = self.phase else {
            return None;
        };
        if self.board.pile_square().is_some() {
            return None;
        }
        let land = Landings::new(self, side);
        let carrier = match self.ball {
            Ball::Carried(b) if self.board.side(side).contains(b) => b.bit(),
            _ => 0,
        };
        let mut tally = ActionTally {
            side,
            counts: [0; 64],
            moves: 0,
            throws: 0,
        };

        let forward = side.forward();
        let (ahead, diagonals) = PAWN_STEPS[side.index()];
        let second = side.own_end_zone().offset(forward);
        for from in self.board.pieces(side, Role::Pawn) {
            let s = from.index();
            let is_carrier = carrier == from.bit();
            let mut n = land.onto(STEP_BITS[s][ahead], ahead, is_carrier);
            // R7: a diagonal step only for contact with the opponent and the ball.
            let contact = land.contact | if is_carrier { land.opponents } else { 0 };
            for d in diagonals {
                let target = STEP_BITS[s][d];
                n += u32::from(target & (land.pawn_diagonal | (land.occupied & contact)) != 0);
            }
            // R65: two squares from the second rank over empty squares onto an empty one.
            if Some(from.rank()) == second {
                let over = STEP_BITS[s][ahead];
                let to = over.trailing_zeros() as usize;
                if over != 0 && over & land.occupied == 0 {
                    n += u32::from(STEP_BITS[to][ahead] & land.empty != 0);
                }
            }
            tally.counts[s] = n as u8;
            tally.moves += n;
        }

        for from in self.board.pieces(side, Role::King) {
            let s = from.index();
            let is_carrier = carrier == from.bit();
            let n: u32 = (0..8)
                .map(|d| land.onto(STEP_BITS[s][d], d, is_carrier))
                .sum();
            tally.counts[s] = n as u8;
            tally.moves += n;
        }

        for from in self.board.pieces(side, Role::Knight) {
            let s = from.index();
            let is_carrier = carrier == from.bit();
            let handoffs = if is_carrier { 0 } else { carrier };
            let n = if KNIGHT_OVER[s].iter().any(|&over| over & handoffs != 0) {
                // Over its own carrier on some route (R8): the routes may differ in who
                // holds the ball; the generator judges them.
                let mut list = ActionList::new();
                self.gen_piece_moves(&self.move_context(side), from, &mut list);
                list.len() as u32
            } else {
                let sure = land.empty | land.contact | if is_carrier { land.opponents } else { 0 };
                (0..8)
                    .map(|k| {
                        let target = KNIGHT_BITS[s][k];
                        let (file_first, rank_first) = KNIGHT_LAST[k];
                        // Both routes land alike (one action), or it is a push, in the
                        // direction of each route's last step: one action per route that
                        // may push. Chosen without a branch: which it is is anyone's guess.
                        let alike = u32::from(target & sure != 0);
                        let pushes = u32::from(target & land.push[file_first] != 0)
                            + u32::from(target & land.push[rank_first] != 0);
                        alike | (pushes & (alike.wrapping_sub(1)))
                    })
                    .sum()
            };
            tally.counts[s] = n as u8;
            tally.moves += n;
        }

        for (role, dirs) in [
            (Role::Bishop, 4..8),
            (Role::Rook, 0..4),
            (Role::Queen, 0..8),
        ] {
            for from in self.board.pieces(side, role) {
                let s = from.index();
                let is_carrier = carrier == from.bit();
                let handoff = if is_carrier { 0 } else { carrier };
                let n: u32 = dirs
                    .clone()
                    .map(|d| line_count(&land, s, d, is_carrier, handoff))
                    .sum();
                tally.counts[s] = n as u8;
                tally.moves += n;
            }
        }

        if carrier != 0 {
            let s = carrier.trailing_zeros() as usize;
            let rays =
                |dirs: &[usize]| -> u32 { dirs.iter().map(|&d| RAY_BITS[s][d].count_ones()).sum() };
            let role = self.board.piece_at(Square(s as u8)).map(|p| p.role);
            tally.throws = match role {
                Some(Role::King) => 63,
                Some(Role::Knight) => KNIGHT_BITS[s].iter().map(|b| b.count_ones()).sum(),
                Some(Role::Pawn) => rays(&[ahead, diagonals[0], diagonals[1]]),
                Some(Role::Bishop) => rays(&[4, 5, 6, 7]),
                Some(Role::Rook) => rays(&[0, 1, 2, 3]),
                Some(Role::Queen) => rays(&[0, 1, 2, 3, 4, 5, 6, 7]),
                None => 0,
            };
        }
        Some(tally)
    }

    /// The action at `index` of [`Game::legal_actions`]'s list for the position `tally`
    /// counted, listing only the moves of the piece it belongs to (into `scratch`).
    /// `None` past the end.
    pub fn tallied_action(
        &self,
        tally: &ActionTally,
        index: usize,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        if tally.moves + tally.throws == 0 {
            return (index == 0).then_some(Action::Pass);
        }
        let mut i = index;
        scratch.clear();
        if i < tally.moves as usize {
            for from in self.board.side(tally.side) {
                let n = usize::from(tally.counts[from.index()]);
                if i < n {
                    self.gen_piece_moves(&self.move_context(tally.side), from, scratch);
                    return scratch.get(i).copied();
                }
                i -= n;
            }
            return None;
        }
        i -= tally.moves as usize;
        self.gen_throws(tally.side, scratch);
        scratch.get(i).copied()
    }
}

/// The moves of a slider on square `s` along `Dir::ALL[d]`: the empty squares up to the
/// first piece, and that piece's square if the mover may land there. Over its own ball
/// carrier (the set `handoff`, empty when the mover is the carrier) the line goes on and
/// the mover holds the ball from there (R8).
fn line_count(land: &Landings, s: usize, d: usize, is_carrier: bool, handoff: u64) -> u32 {
    let (mut from, mut gets_ball, mut handoff) = (s, is_carrier, handoff);
    let mut n = 0;
    loop {
        let ray = RAY_BITS[from][d];
        let blockers = ray & land.occupied;
        // The first piece on the line; 64 (whose `ON_AND_BEYOND` is empty) for none.
        // Without a branch: whether a line is open is anyone's guess.
        let first = if RISING[d] {
            blockers.trailing_zeros()
        } else {
            63u32.wrapping_sub(blockers.leading_zeros()).min(64)
        } as usize;
        let first_bit = blockers & (1u64 << (first & 63));
        n += (ray & !ON_AND_BEYOND[first][d]).count_ones();
        n += land.onto(first_bit, d, gets_ball);
        if first_bit & handoff == 0 {
            return n;
        }
        (from, gets_ball, handoff) = (first, true, 0);
    }
}
