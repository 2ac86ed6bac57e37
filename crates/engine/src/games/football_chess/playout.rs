//! Seeded random play: formations drawn at random within the rules, and a random choice
//! among the legal actions. Used by property tests, the benchmark, `zebra play` and the
//! random bot. Same seed, same game.

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::action::{Action, Formation};
use super::event::Event;
use super::game::{Game, Phase};
use super::play::ActionList;
use super::tally::ActionTally;
use super::types::{Bitboard, Dir, Role, Side, Square};

/// A player that picks uniformly among legal actions, with a few football habits so that
/// random games reach every phase: it snaps soon, rarely commits a pre-snap foul, and
/// usually puts a receiver behind the snapper.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
    /// Scratch for counting the action phase's actions, refilled for each.
    tally: ActionTally,
    /// Chance of placing a formation that breaks a rule (to exercise the flags).
    pub faulty_formation_rate: f64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            tally: ActionTally::new(),
            faulty_formation_rate: 0.02,
        }
    }

    /// Chooses the next action for whoever must decide; `list` is scratch space (left
    /// unfilled before the snap, where an action is drawn by its index, and holding one
    /// piece's moves in the action phase, where the legal actions are counted).
    /// Returns `None` when the game is over.
    pub fn choose(&mut self, game: &Game, list: &mut ActionList) -> Option<Action> {
        match game.phase() {
            Phase::GameOver => return None,
            Phase::Formation(side) => {
                if game.can_call_timeout() && self.rng.gen_bool(0.01) {
                    return Some(Action::Timeout);
                }
                return Some(Action::Formation(self.formation(game, side)));
            }
            _ => {}
        }
        // Before the snap the list is hundreds long: draw an index into it instead of
        // listing it (the same draw `choose` makes on the listed slice, so the same game).
        if let Some(count) = game.presnap_action_count() {
            let stop = if game.phase() == Phase::Motion {
                Action::Snap
            } else {
                Action::Pass
            };
            if self.rng.gen_bool(0.3) {
                return Some(stop);
            }
            for _ in 0..20 {
                let index = self.rng.gen_range(0..count as u32) as usize;
                let a = game
                    .presnap_action(index)
                    .expect("an index below the count names an action");
                if a == Action::Timeout && !self.rng.gen_bool(0.05) {
                    continue;
                }
                if game.presnap_foul(&a).is_none() || self.rng.gen_bool(0.02) {
                    return Some(a);
                }
            }
            return Some(stop);
        }
        // In the action phase, count and draw an index rather than list (the same draw
        // `choose` makes on the listed slice, so the same game).
        if game.recount_actions(&mut self.tally) {
            let index = self.rng.gen_range(0..self.tally.total() as u32) as usize;
            return game.tallied_action(&self.tally, index, list);
        }
        game.legal_actions(list);
        list.choose(&mut self.rng).copied()
    }

    /// A random formation for `side`: legal, except at `faulty_formation_rate`.
    pub fn formation(&mut self, game: &Game, side: Side) -> Formation {
        let offense = game.offense();
        let los = game.spot().rank();
        let own_half = Bitboard::at_or_behind(offense, los);
        let taken = game.board().occupied();
        let region = if side == offense {
            Bitboard(own_half.0 & !taken.0)
        } else {
            Bitboard(!own_half.0 & !taken.0)
        };
        // Fixed-size buffers: a formation is drawn before every play of every playout.
        let mut squares: ArrayVec<Square, 64> = if self.rng.gen_bool(self.faulty_formation_rate) {
            Bitboard(!taken.0).collect()
        } else {
            region.collect()
        };
        shuffle(&mut squares, &mut self.rng);
        let faulty = squares.len() > region.count() as usize;
        let mut pool: ArrayVec<Role, 16> = ArrayVec::new();
        for role in Role::ALL {
            if side != offense && role == Role::King && !faulty {
                continue;
            }
            for _ in 0..role.sideline_count() {
                pool.push(role);
            }
        }
        let mut f = Formation::empty();
        let count = if faulty { self.rng.gen_range(5..=9) } else { 7 };
        let mut placed: ArrayVec<Role, 16> = ArrayVec::new();
        if !faulty {
            placed.push(Role::Pawn);
            placed.push(Role::Pawn);
            for _ in 0..2 {
                let i = pool
                    .iter()
                    .position(|&r| r == Role::Pawn)
                    .expect("pawns in the pool");
                pool.swap_remove(i);
            }
        }
        shuffle(&mut pool, &mut self.rng);
        while placed.len() < count {
            placed.push(pool.pop().expect("16 pieces in the pool"));
        }
        let mut free = squares.into_iter();
        if side == offense && !faulty {
            let _ = f.place(Role::Pawn, game.spot());
            placed.remove(0);
            if self.rng.gen_bool(0.85) {
                if let Some(behind) = game.spot().step(Dir::new(0, -offense.forward())) {
                    if let Some(i) = placed.iter().position(|&r| r != Role::Pawn) {
                        let role = placed.remove(i);
                        let _ = f.place(role, behind);
                    }
                }
            }
        }
        for role in placed {
            for sq in free.by_ref() {
                if f.role_at(sq).is_none() && f.place(role, sq).is_ok() {
                    break;
                }
            }
        }
        f
    }
}

/// Shuffles `items` into the order rand's `SliceRandom::shuffle` gives with the same
/// generator, drawing the same numbers (so the games stay those of every earlier version),
/// without its branch per draw. That shuffle takes each index from a 32-bit draw times the
/// range, rejecting the draw when its low half is past a zone that cuts off the biased
/// remainder only roughly: up to half of all draws are rejected, at random, and a formation
/// draws some forty. Here a rejected draw is a swap of an item with itself that moves on to
/// the next draw for the same index, so only the loop's end is a branch to guess.
fn shuffle<T>(items: &mut [T], rng: &mut impl RngCore) {
    let mut i = items.len().saturating_sub(1);
    while i > 0 {
        let range = i as u32 + 1;
        let zone = (range << range.leading_zeros()).wrapping_sub(1);
        let wide = u64::from(rng.next_u32()) * u64::from(range);
        let taken = usize::from(wide as u32 <= zone);
        // By mask rather than `if`; hidden from the optimiser, which would otherwise turn
        // it back into the branch this is here to avoid.
        let keep = std::hint::black_box(taken.wrapping_neg());
        let j = ((wide >> 32) as usize & keep) | (i & !keep);
        items.swap(i, j);
        i -= taken;
    }
}

/// Plays one whole seeded random game, calling `visit` before every action.
pub fn play_random_game(mut game: Game, seed: u64, mut visit: impl FnMut(&Game, &Action)) -> Game {
    let mut player = RandomPlayer::new(seed);
    let mut list = ActionList::new();
    while let Some(action) = player.choose(&game, &mut list) {
        visit(&game, &action);
        game.apply(&action).unwrap_or_else(|e| {
            panic!(
                "random action {action} rejected: {e}\n{}",
                game.to_diagram()
            )
        });
    }
    game
}

impl crate::playout::Playout for Game {
    fn settings_of(plays: u16) -> crate::rules::Settings {
        crate::rules::Settings::plays(plays)
    }

    fn play_random(self, seed: u64, visit: impl FnMut(&Game, &Action)) -> Game {
        play_random_game(self, seed, visit)
    }

    fn ends_block(event: &Event) -> bool {
        matches!(event, Event::NextPlay { .. } | Event::GameOver { .. })
    }
}

/// The benchmark's game: one list and one event buffer refilled by every action, as a search
/// uses them; move generation over the action phase, where the list is built.
impl crate::playout::Benched for Game {
    type Position = Game;
    type List = ActionList;

    fn bench_game(settings: &crate::rules::Settings, seed: u64) -> u64 {
        let mut game = Game::new(*settings);
        let mut player = RandomPlayer::new(seed);
        let mut list = ActionList::new();
        let mut events = crate::rules::Events::new();
        let mut actions = 0;
        while let Some(action) = player.choose(&game, &mut list) {
            if game.apply_into(&action, &mut events).is_err() {
                // A random player only picks legal actions; stop the game rather than spin.
                break;
            }
            actions += 1;
        }
        actions
    }

    fn movegen_positions(seed: u64) -> Vec<Game> {
        let mut positions = Vec::new();
        for i in 0..50 {
            play_random_game(
                Game::new(crate::rules::Settings::plays(4)),
                seed.wrapping_add(i),
                |game, _| {
                    if matches!(game.phase(), Phase::Action(_)) {
                        positions.push(game.clone());
                    }
                },
            );
        }
        positions
    }

    fn list_legal(position: &Game, list: &mut ActionList) -> usize {
        position.legal_actions(list);
        list.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same order and same draws as rand's shuffle: a formation drawn today is the one
    /// drawn before (and the house bots' formations come from here).
    #[test]
    fn shuffle_is_rands_shuffle() {
        for len in 0..70usize {
            for seed in 0..50u64 {
                let mut ours: Vec<usize> = (0..len).collect();
                let mut theirs = ours.clone();
                let mut a = ChaCha8Rng::seed_from_u64(seed * 1000 + len as u64);
                let mut b = a.clone();
                shuffle(&mut ours, &mut a);
                theirs.shuffle(&mut b);
                assert_eq!(ours, theirs, "len {len} seed {seed}");
                assert_eq!(a.next_u64(), b.next_u64(), "len {len} seed {seed}");
            }
        }
    }
}
