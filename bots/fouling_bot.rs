//! `zebra-fouling-bot`: the greedy bot, except that it fields its king in every defensive
//! formation, an illegal formation (3.2) that draws a dead-ball flag every time.
//!
//! It exists to prove a ruling, not to win: under rulings edition 2 a defense that keeps
//! fouling loses yards, then downs, then the touchdown itself (R57, R58), so this bot must
//! lose clearly to `zebra-greedy-bot` (tests/bots.rs plays it as White and as Black). Under
//! edition 1 it held greedy to 7-0 by fouling at its goal line.
//!
//! Flags: `--name NAME` (default `fouling`).

use clap::Parser;

use zebra_engine::botkit::{self, Bot, BotInfo, GameStart, Request};
use zebra_engine::games::football_chess::wire::ToBot;
use zebra_engine::rules::{DecisionKind, Formation, Game, Role, Side};

#[path = "greedy_bot.rs"]
#[allow(dead_code)]
mod greedy;

#[derive(Parser)]
#[command(
    name = "zebra-fouling-bot",
    about = "A Football Chess test bot that fields its king on defense (a foul every time)"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "fouling")]
    name: String,
}

/// The greedy formation with the king in place of its first non-pawn piece: placeable, and
/// an illegal formation for a defense.
fn king_on_defense(game: &Game, side: Side) -> Formation {
    let legal = greedy::greedy_formation(game, side);
    let mut with_king = Formation::empty();
    let mut swapped = false;
    for (role, sq) in legal.iter() {
        let role = if !swapped && role != Role::Pawn {
            swapped = true;
            Role::King
        } else {
            role
        };
        with_king
            .place(role, sq)
            .expect("the squares of a placeable formation");
    }
    with_king
}

struct FoulingBot {
    greedy: greedy::GreedyBot,
    name: String,
}

impl Bot for FoulingBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            name: self.name.clone(),
            ..self.greedy.info()
        }
    }

    fn game_start(&mut self, start: &GameStart) {
        self.greedy.game_start(start);
    }

    /// The last push comes from the events (see `observe`).
    fn observes(&self) -> bool {
        true
    }

    fn observe(&mut self, msg: &ToBot) {
        self.greedy.observe(msg);
    }

    fn decide(&mut self, req: &Request) -> String {
        if req.decision == DecisionKind::Formation {
            if let Some(game) = req.game() {
                if req.side != game.offense() {
                    return king_on_defense(&game, req.side).to_string();
                }
            }
        }
        self.greedy.decide(req)
    }
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut bot = FoulingBot {
        greedy: greedy::GreedyBot::new("greedy", 2),
        name: args.name,
    };
    botkit::run(&mut bot)
}
