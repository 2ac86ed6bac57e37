//! Counting the action phase's legal actions without listing them, and finding the one at
//! an index: what a random playout needs, since it wants one action of the ~30 a position
//! offers and listing them all is most of its cost.
//!
//! The count works on sets of squares rather than on one target at a time: a position's
//! landing rules (4.1–4.3, R7–R9) become a few sets worked out once (empty squares, the
//! squares any mover may land on, and for each direction the occupied squares a piece
//! arriving that way may push), and each piece's count is a handful of set operations with
//! few branches. A slider's line needs only its first piece (a bit scan), except where it
//! passes over its own ball carrier (R8) and carries on. The action at an index is found
//! from the same sets, in the generator's order (only a line or a knight's route over the
//! own carrier has the generator list that one piece's moves), so it is the one
//! [`Game::legal_actions`] lists at that index: a playout drawing an index into the count
//! plays the same game as one drawing from the list (`tests/properties.rs` checks every
//! index of every position of many games).

use super::action::{Action, KnightRoute};
use super::game::{Ball, Game, Phase};
use super::play::{slider_dirs, ActionList};
use super::tables::{KNIGHT_BITS, KNIGHT_OVER, RAYS, RAY_BITS, STEP_BITS};
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

const EAST: usize = dir_index(1, 0);
const WEST: usize = dir_index(-1, 0);
const NORTH: usize = dir_index(0, 1);
const SOUTH: usize = dir_index(0, -1);

/// `KNIGHT_BY_LAST[s]`: the knight's targets from `s`, then those by the last step of their
/// routes: file first ends east or west, rank first north or south (see `KNIGHT_LAST`).
static KNIGHT_BY_LAST: [[u64; 5]; 64] = {
    let mut out = [[0u64; 5]; 64];
    let mut s = 0;
    while s < 64 {
        let mut k = 0;
        while k < 8 {
            // Stepped here rather than read from KNIGHT_BITS: under the crate's minimum Rust
            // (1.80) a static's initialiser may not read another static.
            let target = match Square(s as u8).step(Dir::KNIGHT[k]) {
                Some(to) => to.bit(),
                None => 0,
            };
            let (file_first, rank_first) = KNIGHT_LAST[k];
            out[s][0] |= target;
            out[s][if file_first == EAST { 1 } else { 2 }] |= target;
            out[s][if rank_first == NORTH { 3 } else { 4 }] |= target;
            k += 1;
        }
        s += 1;
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
    /// The side's own ball carrier, as a set.
    carrier: u64,
    land: Landings,
}

impl Default for ActionTally {
    fn default() -> ActionTally {
        ActionTally::new()
    }
}

impl ActionTally {
    /// A tally of nothing, to be filled by [`Game::recount_actions`].
    pub fn new() -> ActionTally {
        ActionTally {
            side: Side::White,
            counts: [0; 64],
            moves: 0,
            throws: 0,
            carrier: 0,
            land: Landings::NONE,
        }
    }

    /// How many actions [`Game::legal_actions`] lists: the moves and throws, or the one
    /// pass a team without either has.
    pub fn total(&self) -> usize {
        ((self.moves + self.throws) as usize).max(1)
    }
}

/// The landing rules of one position for one side, as sets of squares.
#[derive(Clone, Debug)]
struct Landings {
    occupied: u64,
    opponents: u64,
    /// Occupied squares any mover may land on: the contested ball (4.2), the opposing
    /// carrier (a tackle) and the opposing receiver of a direct throw (4.3).
    contact: u64,
    /// `arrive[d]`: the squares a mover without the ball arriving along `Dir::ALL[d]` may
    /// land on: the empty ones, contact, and those whose piece it pushes onto a square on
    /// the board that is empty and without the ball (4.1).
    arrive: [u64; 8],
    /// Empty squares a pawn's diagonal step may land on: the loose ball, the target of an
    /// indirect throw (R7).
    pawn_diagonal: u64,
}

impl Landings {
    const NONE: Landings = Landings {
        occupied: 0,
        opponents: 0,
        contact: 0,
        arrive: [0; 8],
        pawn_diagonal: 0,
    };

    /// Works the sets out for `side` to move in `game`, in place (the tally is refilled
    /// for every action of a playout, so nothing is built to be copied).
    #[inline(always)]
    fn fill(&mut self, game: &Game, side: Side) {
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
            let push = back & !edge & occupied;
            self.arrive[d] = !occupied | contact | push;
        }
        self.occupied = occupied;
        self.opponents = opponents;
        self.contact = contact;
        self.pawn_diagonal = pawn_diagonal;
    }

    /// Squares of `target` (one square or none) a non-pawn move arriving along `d` may land
    /// on: 1 or 0. `gets_ball`: the mover holds the ball as it lands (a truck, 4.1).
    #[inline(always)]
    fn onto(&self, target: u64, d: usize, gets_ball: bool) -> u32 {
        let truck = if gets_ball { self.opponents } else { 0 };
        u32::from(target & (self.arrive[d] | truck) != 0)
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Landings {
    /// A pawn's moves on square `s` by the generator's groups: straight ahead, diagonally
    /// to the lower file, to the higher file, two squares ahead (R65); each 0 or 1.
    #[inline(always)]
    fn pawn_steps(&self, s: usize, side: Side, is_carrier: bool) -> [u32; 4] {
        let (ahead, [lower, higher]) = PAWN_STEPS[side.index()];
        // R7: a diagonal step only for contact with the opponent and the ball.
        let contact = self.contact | if is_carrier { self.opponents } else { 0 };
        let diagonal = self.pawn_diagonal | (self.occupied & contact);
        // R65: from the second rank, over an empty square onto an empty one.
        let over = STEP_BITS[s][ahead];
        let second = side.own_end_zone().offset(side.forward());
        let two = Some(Square(s as u8).rank()) == second && over & self.occupied == 0;
        [
            self.onto(over, ahead, is_carrier),
            u32::from(STEP_BITS[s][lower] & diagonal != 0),
            u32::from(STEP_BITS[s][higher] & diagonal != 0),
            u32::from(two) & u32::from(pawn_two_step(s, side) & !self.occupied != 0),
        ]
    }

    /// A knight's moves on square `s` (no friendly carrier on any route: R8's handoffs are
    /// left to the generator), all eight jumps at once: what [`Landings::knight_jump`] says
    /// jump by jump, as three sets. A target any mover may land on is one move; any other
    /// is a move for each route whose last step pushes its piece.
    #[inline(always)]
    fn knight_moves(&self, s: usize, is_carrier: bool) -> u32 {
        let sure = self.knight_sure(is_carrier);
        let [targets, east, west, north, south] = KNIGHT_BY_LAST[s];
        let pushed = targets & !sure;
        let file_first = pushed & ((east & self.arrive[EAST]) | (west & self.arrive[WEST]));
        let rank_first = pushed & ((north & self.arrive[NORTH]) | (south & self.arrive[SOUTH]));
        (targets & sure).count_ones() + file_first.count_ones() + rank_first.count_ones()
    }

    /// The squares a knight lands on by either route alike: empty, contact, and the
    /// opponents when it carries the ball (a truck).
    #[inline(always)]
    fn knight_sure(&self, is_carrier: bool) -> u64 {
        !self.occupied | self.contact | if is_carrier { self.opponents } else { 0 }
    }

    /// The moves of knight jump `k` from `s`: how many, whether both routes land alike (one
    /// move), and else whether each route (file first, rank first) may push, in the
    /// direction of its last step.
    #[inline(always)]
    fn knight_jump(&self, s: usize, k: usize, is_carrier: bool) -> (u32, bool, [bool; 2]) {
        let sure = self.knight_sure(is_carrier);
        let target = KNIGHT_BITS[s][k];
        let (file_first, rank_first) = KNIGHT_LAST[k];
        let alike = target & sure != 0;
        let pushes = [
            // Where the target is not sure, it holds a piece a move may land on only by
            // pushing it.
            target & self.arrive[file_first] != 0,
            target & self.arrive[rank_first] != 0,
        ];
        // Chosen without a branch: which it is is anyone's guess.
        let one = u32::from(alike);
        let n = one | ((u32::from(pushes[0]) + u32::from(pushes[1])) & one.wrapping_sub(1));
        (n, alike, pushes)
    }
}

/// The square two steps ahead of a pawn of `side` on `s`, as a set (empty off the board).
fn pawn_two_step(s: usize, side: Side) -> u64 {
    PAWN_TWO_STEPS[side.index()][s]
}

/// `PAWN_TWO_STEPS[side][s]`: the square two steps ahead of `s` for `side`, as a set.
static PAWN_TWO_STEPS: [[u64; 64]; 2] = {
    let mut out = [[0u64; 64]; 2];
    let mut i = 0;
    while i < 2 {
        let ahead = Dir::new(0, Side::ALL[i].forward());
        let mut s = 0;
        while s < 64 {
            if let Some(over) = Square(s as u8).step(ahead) {
                if let Some(to) = over.step(ahead) {
                    out[i][s] = to.bit();
                }
            }
            s += 1;
        }
        i += 1;
    }
    out
};

impl Game {
    /// Counts the action phase's legal actions without listing them; `None` in any other
    /// phase, and while pieces stand in a pile (the count is then
    /// [`Game::legal_actions`]'s length).
    pub fn tally_actions(&self) -> Option<ActionTally> {
        let mut tally = ActionTally::new();
        self.recount_actions(&mut tally).then_some(tally)
    }

    /// [`Game::tally_actions`] into a tally kept from an earlier position (a playout
    /// counts every action it plays: refilling one tally spares building and copying a
    /// new one each time); false, and the tally left meaningless, where that gives `None`.
    pub(crate) fn recount_actions(&self, tally: &mut ActionTally) -> bool {
        // A piece's count is the size of a set: one instruction where the processor has
        // it, a dozen where it does not (the x86-64 baseline the binary is built for), so
        // the count is compiled twice and the processor picks (the answer is the same).
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the one instruction this copy is compiled to use.
            return unsafe { self.recount_actions_with_popcnt(tally) };
        }
        self.count_actions(tally)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn recount_actions_with_popcnt(&self, tally: &mut ActionTally) -> bool {
        self.count_actions(tally)
    }

    /// How many moves the generator lists for the piece on `from`. Kept out of line: the
    /// list is kilobytes, and a frame that size costs every count its stack probes.
    #[inline(never)]
    fn listed_moves(&self, side: Side, from: Square) -> u32 {
        let mut list = ActionList::new();
        self.gen_piece_moves(&self.move_context(side), from, &mut list);
        list.len() as u32
    }

    /// What [`Game::recount_actions`] does, for either copy. Only the counts of the side's
    /// squares are written: they are the only ones read.
    #[inline(always)]
    fn count_actions(&self, tally: &mut ActionTally) -> bool {
        let Phase::Action(side) = self.phase else {
            return false;
        };
        if self.board.pile_square().is_some() {
            return false;
        }
        let carrier = match self.ball {
            Ball::Carried(b) if self.board.side(side).contains(b) => b.bit(),
            _ => 0,
        };
        tally.side = side;
        tally.carrier = carrier;
        tally.land.fill(self, side);
        let land = &tally.land;
        let mut moves = 0;
        // Role by role rather than square by square: which role the next square holds
        // would be a guess for every piece.
        for from in self.board.pieces(side, Role::Pawn) {
            let s = from.index();
            let n: u32 = land.pawn_steps(s, side, carrier == from.bit()).iter().sum();
            tally.counts[s] = n as u8;
            moves += n;
        }
        for from in self.board.pieces(side, Role::King) {
            let s = from.index();
            let is_carrier = carrier == from.bit();
            let n: u32 = (0..8)
                .map(|d| land.onto(STEP_BITS[s][d], d, is_carrier))
                .sum();
            tally.counts[s] = n as u8;
            moves += n;
        }
        for from in self.board.pieces(side, Role::Knight) {
            let s = from.index();
            let is_carrier = carrier == from.bit();
            let n = if knight_hands_off(s, carrier) {
                // Over its own carrier on some route (R8): the routes may differ in who
                // holds the ball; the generator judges them.
                self.listed_moves(side, from)
            } else {
                land.knight_moves(s, is_carrier)
            };
            tally.counts[s] = n as u8;
            moves += n;
        }
        // The lines written out one by one, so that each line's direction is a constant
        // where it is scanned.
        let line = |s: usize, d: usize| {
            let is_carrier = carrier == 1u64 << s;
            let truck = if is_carrier { land.opponents } else { 0 };
            let handoff = if is_carrier { 0 } else { carrier };
            line_targets(land, s, d, truck, handoff).0
        };
        let straight = |s| line(s, 0) | line(s, 1) | line(s, 2) | line(s, 3);
        let diagonal = |s| line(s, 4) | line(s, 5) | line(s, 6) | line(s, 7);
        let mut count = |from: Square, targets: u64| {
            let n = targets.count_ones();
            tally.counts[from.index()] = n as u8;
            moves += n;
        };
        for from in self.board.pieces(side, Role::Bishop) {
            count(from, diagonal(from.index()));
        }
        for from in self.board.pieces(side, Role::Rook) {
            count(from, straight(from.index()));
        }
        for from in self.board.pieces(side, Role::Queen) {
            count(from, straight(from.index()) | diagonal(from.index()));
        }
        tally.moves = moves;
        tally.throws = 0;
        if carrier != 0 {
            let s = carrier.trailing_zeros() as usize;
            let (ahead, [lower, higher]) = PAWN_STEPS[side.index()];
            let rays = |dirs: &[usize]| dirs.iter().map(|&d| RAY_BITS[s][d].count_ones()).sum();
            tally.throws = match self.board.piece_at(Square(s as u8)).map(|p| p.role) {
                Some(Role::King) => 63,
                Some(Role::Knight) => KNIGHT_BITS[s].iter().map(|b| b.count_ones()).sum(),
                Some(Role::Pawn) => rays(&[ahead, lower, higher]),
                Some(role) => rays(slider_dirs(role)),
                None => 0,
            };
        }
        true
    }

    /// The action at `index` of [`Game::legal_actions`]'s list for the position `tally`
    /// counted; `None` past the end. Lists at most one piece's moves or the throws (into
    /// `scratch`): a pawn's, king's or slider's move is found without listing.
    pub fn tallied_action(
        &self,
        tally: &ActionTally,
        index: usize,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        // Compiled twice, as the count is (a line's moves are the size of a set).
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the one instruction this copy is compiled to use.
            return unsafe { self.tallied_action_with_popcnt(tally, index, scratch) };
        }
        self.find_action(tally, index, scratch)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn tallied_action_with_popcnt(
        &self,
        tally: &ActionTally,
        index: usize,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        self.find_action(tally, index, scratch)
    }

    /// What [`Game::tallied_action`] does, for either copy.
    #[inline(always)]
    fn find_action(
        &self,
        tally: &ActionTally,
        index: usize,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        if tally.moves + tally.throws == 0 {
            return (index == 0).then_some(Action::Pass);
        }
        let i = index;
        scratch.clear();
        if i >= tally.moves as usize {
            self.gen_throws(tally.side, scratch);
            return scratch.get(i - tally.moves as usize).copied();
        }
        // The piece whose moves hold index `i`: every piece is looked at, so that the walk
        // does not stop at a random place (a mispredicted branch per action).
        let (mut before, mut found) = (0, None);
        for from in self.board.side(tally.side) {
            let n = usize::from(tally.counts[from.index()]);
            if i.wrapping_sub(before) < n {
                found = Some((from, i - before));
            }
            before += n;
        }
        let (from, i) = found?;
        self.tallied_move(tally, from, i).or_else(|| {
            self.gen_piece_moves(&self.move_context(tally.side), from, scratch);
            scratch.get(i).copied()
        })
    }

    /// Move `i` of the piece on `from`, found from the tally without listing; `None` where
    /// the generator must list: a line or a knight's route over the own carrier (R8).
    #[inline(always)]
    fn tallied_move(&self, tally: &ActionTally, from: Square, i: usize) -> Option<Action> {
        let mv = |to, route| Action::Move { from, to, route };
        if self.board.piece_at(from)?.role != Role::Knight {
            return self.tallied_step(tally, from, i).map(|to| mv(to, None));
        }
        let land = &tally.land;
        let s = from.index();
        let is_carrier = tally.carrier == from.bit();
        if knight_hands_off(s, tally.carrier) {
            return None;
        }
        let mut i = i;
        for (k, target) in KNIGHT_BITS[s].iter().enumerate() {
            let (n, alike, [file_first, _]) = land.knight_jump(s, k, is_carrier);
            if i < n as usize {
                let to = Square(target.trailing_zeros() as u8);
                // Listed as the generator does: one move when both routes land alike, else
                // the file-first push before the rank-first one, each naming its route.
                let route = match (alike, file_first, i) {
                    (true, _, _) => None,
                    (false, true, 0) => Some(KnightRoute::FileFirst),
                    _ => Some(KnightRoute::RankFirst),
                };
                return Some(mv(to, route));
            }
            i -= n as usize;
        }
        None
    }

    /// Where move `i` of the pawn, king or slider on `from` lands, found from the tally;
    /// `None` for a line over the own carrier (R8).
    #[inline(always)]
    fn tallied_step(&self, tally: &ActionTally, from: Square, mut i: usize) -> Option<Square> {
        let land = &tally.land;
        let s = from.index();
        let is_carrier = tally.carrier == from.bit();
        // The piece's groups of moves in the generator's order: how many each has, and
        // where its k-th lands; the first group holding move `i` names it.
        let mut pick = |n: u32, target: &dyn Fn(usize) -> Option<Square>| {
            let here = i < n as usize;
            let found = if here { target(i) } else { None };
            if !here {
                i -= n as usize;
            }
            (here, found)
        };
        let step = |bits: u64| (bits != 0).then(|| Square(bits.trailing_zeros() as u8));
        match self.board.piece_at(from)?.role {
            Role::Pawn => {
                let (ahead, [lower, higher]) = PAWN_STEPS[tally.side.index()];
                let targets = [
                    STEP_BITS[s][ahead],
                    STEP_BITS[s][lower],
                    STEP_BITS[s][higher],
                    pawn_two_step(s, tally.side),
                ];
                let counts = land.pawn_steps(s, tally.side, is_carrier);
                for k in 0..4 {
                    if let (true, found) = pick(counts[k], &|_| step(targets[k])) {
                        return found;
                    }
                }
                None
            }
            Role::King => {
                for (d, &target) in STEP_BITS[s].iter().enumerate() {
                    let n = land.onto(target, d, is_carrier);
                    if let (true, found) = pick(n, &|_| step(target)) {
                        return found;
                    }
                }
                None
            }
            // Knights are found by `tallied_move`, with their routes.
            Role::Knight => None,
            role => {
                let truck = if is_carrier { land.opponents } else { 0 };
                let handoff = if is_carrier { 0 } else { tally.carrier };
                for &d in slider_dirs(role) {
                    let (targets, handed) = line_targets(land, s, d, truck, handoff);
                    let n = targets.count_ones();
                    // A line over the own carrier skips the carrier's square when it cannot
                    // be pushed: such a line is left to the generator.
                    let on_line = |k: usize| RAYS[s][d].squares().get(k).copied();
                    if let (true, found) = pick(n, &on_line) {
                        return found.filter(|_| !handed);
                    }
                }
                None
            }
        }
    }
}

/// Whether a route of the knight on `s` passes over its own side's carrier (the set
/// `carrier`, empty when there is none), where the routes may differ in who holds the ball
/// (R8): the generator judges such a knight. A knight carrying the ball passes over no
/// carrier.
#[inline(always)]
fn knight_hands_off(s: usize, carrier: u64) -> bool {
    let handoffs = if carrier == 1 << s { 0 } else { carrier };
    KNIGHT_OVER[s].iter().any(|&over| over & handoffs != 0)
}

/// The squares a slider on square `s` may move to along `Dir::ALL[d]`: the empty squares up
/// to the first piece, and that piece's square if the mover may land there (`truck`: the
/// opponents, when the mover holds the ball, 4.1). Over its own ball carrier (the set
/// `handoff`, empty when the mover is the carrier) the line goes on and the mover holds
/// the ball from there (R8); the flag says the line did. The lines of one piece never
/// meet, so a piece's count is the size of the union of its lines.
#[inline(always)]
fn line_targets(land: &Landings, s: usize, d: usize, truck: u64, handoff: u64) -> (u64, bool) {
    let reach = line_reach(land, s, d);
    let targets = reach & (land.arrive[d] | truck);
    if reach & handoff == 0 {
        return (targets, false);
    }
    let carrier = handoff.trailing_zeros() as usize;
    let beyond = line_reach(land, carrier, d) & (land.arrive[d] | land.opponents);
    (targets | beyond, true)
}

/// The squares of the line from `s` along `Dir::ALL[d]` up to and with its first piece
/// (the whole line when it is open), found without a branch: whether a line is open is
/// anyone's guess. The line from the first piece on is cut off; a stand-in piece on the
/// board's last square that way (whose own line is empty) does for an open line.
#[inline(always)]
fn line_reach(land: &Landings, s: usize, d: usize) -> u64 {
    let ray = RAY_BITS[s][d];
    let blockers = ray & land.occupied;
    let first = if RISING[d] {
        (blockers | 1 << 63).trailing_zeros()
    } else {
        63 - (blockers | 1).leading_zeros()
    } as usize;
    ray ^ RAY_BITS[first][d]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Settings;
    use crate::rules::playout::play_random_game;

    /// The copy for processors without a popcount instruction says what the one this
    /// machine runs (`tests/properties.rs` checks that one against the listed actions).
    #[test]
    fn both_copies_count_and_find_alike() {
        let (mut positions, mut actions) = (0, 0);
        for seed in 0..40 {
            play_random_game(Game::new(Settings::plays(3)), seed, |game, _| {
                let mut portable = ActionTally::new();
                let counted = game.count_actions(&mut portable);
                let tally = game.tally_actions();
                assert_eq!(counted, tally.is_some(), "seed {seed}");
                let Some(tally) = tally else { return };
                positions += 1;
                assert_eq!(
                    (portable.moves, portable.throws),
                    (tally.moves, tally.throws),
                    "seed {seed}"
                );
                for from in game.board.side(tally.side) {
                    let s = from.index();
                    assert_eq!(portable.counts[s], tally.counts[s], "seed {seed} {from}");
                }
                let mut scratch = ActionList::new();
                for i in 0..=tally.total() {
                    let found = game.find_action(&portable, i, &mut scratch);
                    assert_eq!(found, game.tallied_action(&tally, i, &mut scratch));
                    actions += 1;
                }
            });
        }
        assert!(
            positions > 1_000 && actions > 20_000,
            "{positions} {actions}"
        );
    }
}
