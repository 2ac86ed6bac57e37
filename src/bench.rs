//! `zebra bench`: seeded random playouts on one core, measured in whole games and applied
//! actions per second. Each step generates the legal actions, picks one and applies it.

use std::time::Instant;

use serde::Serialize;

use crate::rules::playout::RandomPlayer;
use crate::rules::{ActionList, Game, Settings};

/// What a benchmark run measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub games: u64,
    pub actions: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    pub actions_per_second: f64,
    pub seed: u64,
    pub plays_per_quarter: u16,
}

/// Plays `games` random games from consecutive seeds and times them.
pub fn run(games: u64, seed: u64, plays_per_quarter: u16) -> BenchReport {
    let mut list = ActionList::new();
    let mut actions = 0u64;
    let start = Instant::now();
    for i in 0..games {
        let mut game = Game::new(Settings::plays(plays_per_quarter));
        let mut player = RandomPlayer::new(seed.wrapping_add(i));
        while let Some(action) = player.choose(&game, &mut list) {
            if game.apply(&action).is_err() {
                // A random player only picks legal actions; stop the game rather than spin.
                break;
            }
            actions += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    BenchReport {
        games,
        actions,
        seconds,
        games_per_second: games as f64 / seconds,
        actions_per_second: actions as f64 / seconds,
        seed,
        plays_per_quarter,
    }
}
