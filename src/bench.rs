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

/// What the referee benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct RefereeReport {
    pub games: u32,
    pub decisions: u64,
    pub seconds: f64,
    pub decisions_per_second: f64,
    /// The referee process's own CPU time (all its threads, not the bots') per decision.
    pub referee_cpu_us_per_decision: f64,
    /// Wall time per decision, end to end: request built, sent, answered, judged, events out.
    pub decision_round_trip_us: f64,
    /// The bare baseline: one short line to a child process (`cat`) and back.
    pub pipe_round_trip_us: f64,
}

/// CPU time this process has used so far (user + system, all threads).
fn own_cpu() -> std::time::Duration {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| std::time::Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Plays `games` play-count games between two copies of an instant bot and measures the
/// referee; then measures a bare pipe ping-pong with `cat` on the same machine.
pub async fn referee(
    bot: &crate::bot::BotSpec,
    games: u32,
    seed: u64,
) -> Result<RefereeReport, String> {
    use crate::referee::{GameConfig, Referee, TimeControl};
    let cfg = GameConfig {
        tc: TimeControl::parse("plays=10,play=10s,reaction=10s").expect("a valid time control"),
        ..GameConfig::default()
    };
    let mut decisions = 0u64;
    let cpu0 = own_cpu();
    let start = Instant::now();
    for i in 0..games.max(1) {
        let cfg = GameConfig {
            seed: seed + i as u64,
            ..cfg.clone()
        };
        let report = Referee::play(bot, bot, &cfg, |_, _| {}).await;
        if report.termination != crate::record::Termination::Normal {
            return Err(format!(
                "benchmark game {i} did not finish normally: {}",
                report.reason
            ));
        }
        decisions += report.bots.iter().map(|b| b.decisions as u64).sum::<u64>();
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let cpu = (own_cpu() - cpu0).as_secs_f64();
    let pipe = pipe_round_trip(20_000)
        .map_err(|e| format!("cannot run the pipe baseline with cat: {e}"))?;
    Ok(RefereeReport {
        games: games.max(1),
        decisions,
        seconds,
        decisions_per_second: decisions as f64 / seconds,
        referee_cpu_us_per_decision: cpu * 1e6 / decisions.max(1) as f64,
        decision_round_trip_us: seconds * 1e6 / decisions.max(1) as f64,
        pipe_round_trip_us: pipe,
    })
}

/// Microseconds per round trip of a short line through `cat` over two pipes.
fn pipe_round_trip(rounds: u32) -> std::io::Result<f64> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut to = child.stdin.take().expect("piped");
    let mut from = BufReader::new(child.stdout.take().expect("piped"));
    let line = b"{\"type\":\"ping\",\"id\":1}\n";
    let mut back = String::new();
    let start = Instant::now();
    for _ in 0..rounds {
        to.write_all(line)?;
        to.flush()?;
        back.clear();
        from.read_line(&mut back)?;
    }
    let elapsed = start.elapsed();
    drop(to);
    let _ = child.wait();
    Ok(elapsed.as_secs_f64() * 1e6 / rounds as f64)
}
