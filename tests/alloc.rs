//! Legal-action generation never allocates (the hot path of every playout and search).
//!
//! A counting global allocator wraps the system one; the count must not move while
//! `legal_actions` runs on positions of seeded random games, in every phase. It counts
//! each thread's allocations apart: the test harness's own threads (its output, its timer
//! on a slow machine) allocate when they like, and are not the code under test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use zebra::rules::playout::RandomPlayer;
use zebra::rules::{ActionList, Game, Phase, Settings};

struct Counting;

thread_local! {
    // Const-initialised: reading it never allocates (no lazy set-up inside the allocator).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// This thread's allocations so far.
fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // A thread being torn down has no counter left: its allocations are not counted.
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn legal_action_generation_is_allocation_free() {
    // The buffer is made once, outside the measured region, as a caller in a hot loop does.
    let mut scratch = Box::new(ActionList::new());
    let mut list = Box::new(ActionList::new());
    let mut phases_seen = std::collections::BTreeSet::new();
    let mut checked = 0u64;
    for seed in 0..40 {
        let mut game = Game::new(Settings::plays(4));
        let mut player = RandomPlayer::new(seed);
        while let Some(action) = player.choose(&game, &mut scratch) {
            let before = allocations();
            game.legal_actions(&mut list);
            let after = allocations();
            assert_eq!(
                before,
                after,
                "legal_actions allocated in phase {:?} (seed {seed})",
                game.phase()
            );
            checked += 1;
            phases_seen.insert(format!("{:?}", std::mem::discriminant(&game.phase())));
            if matches!(game.phase(), Phase::Action(_)) {
                assert!(!list.is_empty());
            }
            game.apply(&action).expect("a random legal action");
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
    assert!(phases_seen.len() >= 5, "phases covered: {phases_seen:?}");
}
