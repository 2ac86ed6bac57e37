//! `zebra-random-bot`: picks uniformly among the legal actions of each request.
//!
//! Seeded from `game_start`'s seed and its side, so the same game replays the same way.
//! Formations come from the engine's `RandomPlayer::formation` (always legal). Before the
//! snap it keeps the engine random player's habits, so that plays actually happen: it snaps
//! (or lets a motion pass) with chance 0.3 and otherwise picks among the motions that draw
//! no flag. It never calls a timeout.
//!
//! Flags: `--name NAME` (default `random`).

use clap::Parser;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use zebra_engine::botkit::{self, Bot, BotInfo, GameStart, Request};
use zebra_engine::rules::playout::RandomPlayer;
use zebra_engine::rules::{Action, DecisionKind, Side};

#[derive(Parser)]
#[command(
    name = "zebra-random-bot",
    about = "A Football Chess bot that plays at random"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "random")]
    name: String,
    /// The highest protocol version it speaks (1: every request whole).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    protocol: u32,
}

/// The random bot's state: one generator for actions, one engine player for formations.
pub struct RandomBot {
    name: String,
    rng: ChaCha8Rng,
    player: RandomPlayer,
}

impl RandomBot {
    pub fn new(name: &str, seed: u64, side: Side) -> RandomBot {
        let seed = seed.wrapping_mul(2).wrapping_add(side.index() as u64);
        RandomBot {
            name: name.to_string(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            player: RandomPlayer::new(seed ^ 0x5eed),
        }
    }
}

impl Bot for RandomBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            name: self.name.clone(),
            author: "zebra".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            options: Vec::new(),
        }
    }

    fn game_start(&mut self, start: &GameStart) {
        *self = RandomBot::new(&self.name, start.seed, start.side);
    }

    fn boyer_start(&mut self, side: Side, seed: u64) {
        *self = RandomBot::new(&self.name, seed, side);
    }

    /// Boyer's Football: a legal sub-move at random.
    fn decide_boyer(&mut self, req: &botkit::BoyerRequest) -> String {
        req.legal
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_else(|| "pass".to_string())
    }

    fn eleven_start(&mut self, side: Side, seed: u64) {
        *self = RandomBot::new(&self.name, seed, side);
    }

    /// Chess Eleven: a random legal formation (the substitute fielded when it may be, at
    /// random), else a legal action at random.
    fn decide_eleven(&mut self, req: &botkit::ElevenRequest) -> String {
        if req.decision == "formation" {
            let mut player = zebra_engine::games::chess_eleven::RandomPlayer::new(self.rng.gen());
            return player.formation(req.side, req.state.substitute).to_string();
        }
        req.legal
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or_else(|| req.safe())
    }

    fn decide(&mut self, req: &Request) -> String {
        if req.decision == DecisionKind::Formation {
            return match req.game() {
                Some(game) => botkit::formation_with(&mut self.player, &game, req.side).to_string(),
                None => botkit::fallback(req),
            };
        }
        let legal: Vec<&String> = req
            .legal_list()
            .iter()
            .filter(|a| *a != "timeout")
            .collect();
        if matches!(
            req.decision,
            DecisionKind::MotionOrSnap | DecisionKind::Reaction
        ) {
            let stop = if req.decision == DecisionKind::MotionOrSnap {
                "snap"
            } else {
                "pass"
            };
            let game = req.game();
            let clean: Vec<&String> = legal
                .iter()
                .copied()
                .filter(|a| {
                    let action = a.parse::<Action>().ok();
                    match (&game, action) {
                        (Some(g), Some(action)) => g.presnap_foul(&action).is_none(),
                        _ => false,
                    }
                })
                .collect();
            if clean.is_empty() || self.rng.gen_bool(0.3) {
                return stop.to_string();
            }
            return clean
                .choose(&mut self.rng)
                .map(|a| a.to_string())
                .unwrap_or_default();
        }
        match legal.choose(&mut self.rng) {
            Some(a) => a.to_string(),
            None => botkit::fallback(req),
        }
    }
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut bot = RandomBot::new(&args.name, 0, Side::White);
    botkit::run_speaking(&mut bot, args.protocol)
}
