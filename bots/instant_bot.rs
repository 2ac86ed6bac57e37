//! `zebra-instant-bot`: answers at once, from the request's legal list, without thinking.
//!
//! It is the opponent of `zebra bench referee` and the match benchmarks, where the bots'
//! own cost must be next to nothing so that what is measured is the referee. It reads each
//! line into a borrowed view of the few fields it needs (the rest of the state is skipped
//! unparsed) and answers:
//! - before the snap, `snap` or `pass` (no motion, no shift: the play goes on at once);
//! - any other listed decision, an action drawn uniformly from `legal` (never `timeout`);
//! - a formation, which has no list, a legal one drawn by the engine from the diagram.
//!
//! Seeded from `game_start`'s seed and its side, so the same game replays the same way.
//! It speaks protocol version 2 when offered (its own game, kept with the engine from each
//! request's `since`: the legal list and the diagram come from it), else version 1.
//! Flags: `--name NAME` (default `instant`), `--protocol 1|2` (the highest version it
//! speaks, default 2: `zebra bench referee` measures both).

use std::io::{self, BufRead, Write};

use clap::Parser;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

use zebra_engine::botkit;
use zebra_engine::protocol::follow::Follower;
use zebra_engine::rules::playout::RandomPlayer;
use zebra_engine::rules::{Game, Side};

#[derive(Parser)]
#[command(
    name = "zebra-instant-bot",
    about = "A Football Chess bot that answers at once from the legal list"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "instant")]
    name: String,
    /// The highest protocol version it speaks.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    protocol: u32,
}

/// The fields of a referee message this bot looks at; serde skips everything else.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    #[serde(default)]
    id: u64,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    side: Option<Side>,
    #[serde(default, borrow)]
    decision: Option<&'a str>,
    #[serde(default, borrow)]
    legal: Option<Vec<&'a str>>,
    #[serde(default, borrow)]
    state: Option<StateView<'a>>,
    #[serde(default)]
    versions: Vec<u32>,
    /// Version 2: the record's entries since the previous request.
    #[serde(default, borrow)]
    since: Option<Vec<&'a str>>,
    #[serde(default, borrow)]
    tc: Option<&'a str>,
    #[serde(default, borrow)]
    situation: Option<std::borrow::Cow<'a, str>>,
}

#[derive(Deserialize)]
struct StateView<'a> {
    // A diagram holds `\n` escapes, so it cannot always be borrowed.
    #[serde(borrow)]
    diagram: std::borrow::Cow<'a, str>,
}

fn main() -> io::Result<()> {
    let args = Args::parse();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut player = RandomPlayer::new(0);
    let mut line = String::new();
    let mut version = 1;
    // Version 2: the bot's own game.
    let mut own: Option<Follower<Game>> = None;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let Ok(msg) = serde_json::from_str::<Incoming>(line.trim_start_matches('\u{feff}')) else {
            continue;
        };
        let reply = match msg.kind {
            "hello" => {
                version = if args.protocol >= 2 && msg.versions.contains(&2) {
                    2
                } else {
                    1
                };
                format!(
                    "{{\"type\":\"ready\",\"version\":{version},\"name\":{},\"author\":\"zebra\",\"bot_version\":\"{}\"}}",
                    serde_json::Value::from(args.name.as_str()),
                    env!("CARGO_PKG_VERSION")
                )
            }
            "ping" => format!("{{\"type\":\"pong\",\"id\":{}}}", msg.id),
            "quit" => return Ok(()),
            "game_start" => {
                let side = msg.side.unwrap_or(Side::White);
                let seed = msg.seed.wrapping_mul(2).wrapping_add(side.index() as u64);
                rng = ChaCha8Rng::seed_from_u64(seed);
                player = RandomPlayer::new(seed ^ 0x5eed);
                own = match (version, msg.tc) {
                    (2, Some(tc)) => Follower::start(tc, msg.seed, msg.situation.as_deref()).ok(),
                    _ => None,
                };
                continue;
            }
            "request" => {
                let action = match (&msg.since, own.as_mut()) {
                    (Some(since), Some(game)) => {
                        let since: Vec<String> = since.iter().map(|t| t.to_string()).collect();
                        match game.apply(&since) {
                            Ok(_) => Some(choose_in(game.game(), &msg, &mut rng, &mut player)),
                            // Out of step: from now on every request carries everything.
                            Err(_) => {
                                own = None;
                                None
                            }
                        }
                    }
                    _ => None,
                };
                // Without a game of its own (another game, or out of step), a version-2 bot
                // asks the next request to carry the state and the legal list.
                let want = if msg.since.is_some() && own.is_none() {
                    ",\"want\":[\"state\",\"legal\"]"
                } else {
                    ""
                };
                let action = action.unwrap_or_else(|| choose(&msg, &mut rng, &mut player));
                format!(
                    "{{\"type\":\"action\",\"id\":{},\"action\":{}{want}}}",
                    msg.id,
                    serde_json::Value::from(action)
                )
            }
            _ => continue,
        };
        out.write_all(reply.as_bytes())?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
}

/// The answer to a version-2 request, from the bot's own game: as [`choose`] would answer
/// the whole request.
fn choose_in(
    game: &Game,
    msg: &Incoming,
    rng: &mut ChaCha8Rng,
    player: &mut RandomPlayer,
) -> String {
    if msg.decision == Some("formation") {
        if let Some(side) = msg.side {
            return botkit::formation_with(player, game, side).to_string();
        }
    }
    let legal: Vec<String> = game
        .legal_action_list()
        .iter()
        .map(|a| a.to_string())
        .collect();
    let legal: Vec<&str> = legal.iter().map(String::as_str).collect();
    let whole = Incoming {
        legal: Some(legal),
        state: None,
        since: None,
        versions: Vec::new(),
        tc: None,
        situation: None,
        ..*msg
    };
    choose(&whole, rng, player)
}

/// The answer to one request.
fn choose(msg: &Incoming, rng: &mut ChaCha8Rng, player: &mut RandomPlayer) -> String {
    let legal = msg.legal.as_deref().unwrap_or(&[]);
    // Before the snap, go straight to the play: no motion, no reaction.
    match msg.decision {
        Some("motion") if legal.contains(&"snap") => return "snap".to_string(),
        Some("reaction") if legal.contains(&"pass") => return "pass".to_string(),
        _ => {}
    }
    let choices: Vec<&str> = legal.iter().copied().filter(|a| *a != "timeout").collect();
    if !choices.is_empty() {
        return choices[rng.gen_range(0..choices.len())].to_string();
    }
    if msg.decision == Some("formation") {
        let game = msg
            .state
            .as_ref()
            .and_then(|s| Game::from_diagram(&s.diagram).ok());
        if let (Some(game), Some(side)) = (game, msg.side) {
            return botkit::formation_with(player, &game, side).to_string();
        }
    }
    legal.first().copied().unwrap_or("pass").to_string()
}
