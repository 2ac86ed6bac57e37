//! `zebra bench`: seeded random playouts on one core, measured in whole games and applied
//! actions per second. Each step generates the legal actions, picks one and applies it.

use std::time::Instant;

use serde::Serialize;

use crate::rules::playout::RandomPlayer;
use crate::rules::{ActionList, Game, Phase, Settings};

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

/// What the move-generation micro-benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct MovegenReport {
    pub positions: u64,
    pub generations: u64,
    pub actions_listed: u64,
    pub seconds: f64,
    pub generations_per_second: f64,
    pub actions_listed_per_second: f64,
}

/// Legal-action generation alone: positions of the action phase collected from seeded
/// random games, each generated `rounds` times.
pub fn movegen(seed: u64, rounds: u32) -> MovegenReport {
    let mut positions = Vec::new();
    let mut list = ActionList::new();
    for i in 0..50 {
        let mut game = Game::new(Settings::plays(4));
        let mut player = RandomPlayer::new(seed.wrapping_add(i));
        while let Some(action) = player.choose(&game, &mut list) {
            if matches!(game.phase(), Phase::Action(_)) {
                positions.push(game.clone());
            }
            if game.apply(&action).is_err() {
                break;
            }
        }
    }
    let mut listed = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for game in &positions {
            game.legal_actions(&mut list);
            listed += list.len() as u64;
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let generations = positions.len() as u64 * rounds as u64;
    MovegenReport {
        positions: positions.len() as u64,
        generations,
        actions_listed: listed,
        seconds,
        generations_per_second: generations as f64 / seconds,
        actions_listed_per_second: listed as f64 / seconds,
    }
}
