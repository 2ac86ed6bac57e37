//! A new bot's check before it may play: `check-bot`'s questions (handshake, every kind of
//! decision, from both sides) and one smoke game against Zebra's bundled random bot, both
//! in the daemon's sandbox with the bot's own limits. A bot is checked once for each game
//! it is entered in, with that game's questions and a smoke game of that game: it plays a
//! game once it passed that game's check. A bot that passes one game's check becomes
//! `active`; one that fails every game's is `rejected`. Each report is stored with the
//! bot, for its owner to read (`GET /api/v1/bots/{id}`).
//!
//! Checks run in a bounded pool (`checks` in the settings, default 1), oldest bot first: a
//! burst of uploads at a deadline waits in line instead of taking the machine from the
//! games. While a bot waits, its owner sees its place in the line and the expected wait
//! ([`Queue::place`]), from the mean time of the checks timed so far.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::bot::BotSpec;
use crate::referee::check::{check_bot_for, CheckLimits};
use crate::referee::{GameConfig, GameSetup};
use crate::rules::Rules;
use crate::series::config::BotEntry;

use super::store::{BotRow, BotState, StoreError};
use super::Daemon;

/// What the check found.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The game checked (`football-chess`, `boyer-football`).
    pub game: Rules,
    /// `active` or `rejected`.
    pub verdict: BotState,
    /// check-bot's findings, one line each.
    pub check: Vec<CheckFinding>,
    /// The smoke game, if it was played.
    pub smoke: Option<SmokeGame>,
    /// Why it was rejected, in one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckFinding {
    pub ok: bool,
    /// Legal play worth fixing (a formation that draws a flag, a slow handshake): the bot
    /// is admitted all the same.
    pub advisory: bool,
    pub what: String,
}

/// The smoke game: the bot as White against the bundled random bot.
#[derive(Clone, Debug, Serialize)]
pub struct SmokeGame {
    pub result: String,
    pub termination: String,
    pub reason: String,
    pub verdict: Option<String>,
}

/// The smoke game's clock: short, but with the clocks of a real game (each game's own,
/// `Checked::SMOKE_CLOCK`).
fn smoke_clock(rules: Rules) -> &'static str {
    crate::with_rules!(rules, G => <G as zebra_engine::seam::Checked>::SMOKE_CLOCK)
}

/// What a check is expected to take before one has been timed.
const FIRST_GUESS: Duration = Duration::from_secs(20);

/// The checks running and how long checks take: what a waiting bot's place is told from.
#[derive(Debug, Default)]
pub struct Queue {
    /// The checks running: (bot, game) and when each started.
    running: HashMap<(i64, Rules), std::time::Instant>,
    /// The mean duration of the checks finished (and how many), or none yet.
    mean: Option<(Duration, u32)>,
    /// Checks whose task failed (a bug in Zebra, said in the log): not started again
    /// until the daemon restarts, rather than failing over and over.
    broken: std::collections::HashSet<(i64, Rules)>,
}

/// Where a pending bot's check stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    /// Checks to run before its first one starts (0: it is running, or next).
    pub ahead: usize,
    /// Whether one of its checks is running now.
    pub running: bool,
    /// Seconds until its last pending check should be done, from the mean check time.
    pub expected_wait_s: u64,
    /// Checks run at once.
    pub at_once: usize,
}

impl Queue {
    fn mean(&self) -> Duration {
        self.mean.map_or(FIRST_GUESS, |(d, _)| d)
    }

    fn timed(&mut self, took: Duration) {
        self.mean = Some(match self.mean {
            None => (took, 1),
            // A running mean over the last 20 or so (a new machine load shows soon).
            Some((mean, n)) => {
                let k = n.min(19);
                ((mean * k + took) / (k + 1), n + 1)
            }
        });
    }

    /// Where `bot` stands among `pending` (every pending check, oldest bot first, as
    /// [`super::store::Store::pending_checks`] lists them) with `at_once` checks at a time;
    /// `None` if it has no check pending.
    pub fn place(&self, bot: i64, pending: &[(i64, Rules)], at_once: usize) -> Option<Place> {
        let at_once = at_once.max(1);
        let mine: Vec<&(i64, Rules)> = pending.iter().filter(|p| p.0 == bot).collect();
        if mine.is_empty() {
            return None;
        }
        let waiting: Vec<&(i64, Rules)> = pending
            .iter()
            .filter(|p| !self.running.contains_key(p))
            .collect();
        let running = mine.iter().any(|p| self.running.contains_key(p));
        let ahead = if waiting.iter().any(|p| p.0 == bot) {
            waiting.iter().take_while(|p| p.0 != bot).count()
        } else {
            0
        };
        // The pool played forward at the mean check time: each slot free when its running
        // check should end (or now), each waiting check taken by the slot free first; the
        // bot's wait ends with the last of its own checks.
        let mean = self.mean();
        let mut slots: Vec<Duration> = self
            .running
            .values()
            .map(|t| mean.saturating_sub(t.elapsed()))
            .collect();
        let mut last = self
            .running
            .iter()
            .filter(|(k, _)| k.0 == bot)
            .map(|(_, t)| mean.saturating_sub(t.elapsed()))
            .max()
            .unwrap_or_default();
        slots.resize(slots.len().max(at_once), Duration::ZERO);
        for p in &waiting {
            let (k, free) = slots
                .iter()
                .enumerate()
                .min_by_key(|(_, d)| **d)
                .map(|(k, d)| (k, *d))
                .expect("at least one slot");
            slots[k] = free + mean;
            if p.0 == bot {
                last = last.max(slots[k]);
            }
        }
        let wait = last;
        Some(Place {
            ahead,
            running,
            expected_wait_s: wait.as_secs_f64().ceil() as u64,
            at_once,
        })
    }
}

/// Checks pending bots as they come, `checks` at a time, oldest first, until the daemon
/// stops (a check running then ends at the abandon signal: its bot stays pending).
pub async fn run(daemon: Arc<Daemon>) {
    let mut pool: tokio::task::JoinSet<Duration> = tokio::task::JoinSet::new();
    // Which check each task runs: a task that panics still frees its place.
    let mut tasks: HashMap<tokio::task::Id, (i64, Rules)> = HashMap::new();
    while !daemon.stopping.is_cancelled() {
        let woken = daemon.wake.notified();
        // On a shared store one daemon runs the checks (another takes over if it dies).
        let lead = daemon.db(|s| s.lead(super::store::Role::Checks)).await;
        if pool.len() < daemon.settings.checks && lead.as_ref().is_ok_and(|l| *l) {
            match daemon.db(|s| s.pending_checks()).await {
                Ok(checks) => {
                    for (bot, game) in checks {
                        if pool.len() >= daemon.settings.checks {
                            break;
                        }
                        let key = (bot.id, game);
                        {
                            let mut queue = daemon.checks.lock().unwrap_or_else(|e| e.into_inner());
                            if queue.running.contains_key(&key) || queue.broken.contains(&key) {
                                continue;
                            }
                            queue.running.insert(key, std::time::Instant::now());
                        }
                        let daemon = Arc::clone(&daemon);
                        let task = pool.spawn(async move {
                            let started = std::time::Instant::now();
                            if let Err(e) = check_one(&daemon, bot, game).await {
                                tracing::error!("cannot store a bot's check: {e}");
                            }
                            started.elapsed()
                        });
                        tasks.insert(task.id(), key);
                    }
                }
                Err(e) => tracing::error!("cannot read the bots: {e}"),
            }
        }
        tokio::select! {
            Some(done) = pool.join_next_with_id(), if !pool.is_empty() => {
                let (task, took) = match done {
                    Ok((task, took)) => (task, Some(took)),
                    Err(e) => {
                        tracing::error!("a bot's check failed (a bug in Zebra): {e}; it is not tried again until the daemon restarts");
                        (e.id(), None)
                    }
                };
                let mut queue = daemon.checks.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(key) = tasks.remove(&task) {
                    queue.running.remove(&key);
                    if took.is_none() {
                        queue.broken.insert(key);
                    }
                }
                if let (Some(took), false) = (took, daemon.abandon.is_cancelled()) {
                    queue.timed(took);
                }
                // Bots may play now: wake the workers.
                daemon.wake.notify_waiters();
            }
            _ = woken => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = daemon.stopping.cancelled() => {}
        }
    }
    // Stopping: the running checks end by themselves, or at the abandon signal.
    while pool.join_next().await.is_some() {}
}

async fn check_one(daemon: &Arc<Daemon>, bot: BotRow, game: Rules) -> Result<(), StoreError> {
    let id = bot.id;
    let report = tokio::select! {
        report = check(daemon, &bot, game) => report,
        // Stopping: the bot stays pending and is checked after a restart.
        _ = daemon.abandon.cancelled() => return Ok(()),
    };
    tracing::info!(bot = id, name = bot.name, game = %game, verdict = %report.verdict, "bot checked");
    let json = serde_json::to_string(&report).expect("a report serializes");
    daemon
        .db(move |s| s.set_check(id, game, report.verdict, &json))
        .await
}

/// Runs the check of one bot for one game.
pub async fn check(daemon: &Daemon, bot: &BotRow, game: Rules) -> CheckReport {
    let rejected = |problem: String| CheckReport {
        game,
        verdict: BotState::Rejected,
        check: Vec::new(),
        smoke: None,
        problem: Some(problem),
    };
    let entry: BotEntry = match serde_json::from_str(&bot.spec) {
        Ok(entry) => entry,
        Err(e) => return rejected(format!("its registration does not read: {e}")),
    };
    // An uploaded bot is contained strictly from its first start.
    let mut strict_settings = daemon.settings.sandbox.clone();
    if entry.strict {
        strict_settings.mode = crate::sandbox::Mode::Strict;
    }
    let sandbox = &strict_settings;
    let limits = match sandbox.limits_for(&entry.limits) {
        Ok(limits) => limits,
        Err(e) => return rejected(e),
    };
    let spec = entry.spec_with(limits);
    if let Err(e) = spec.check_program() {
        return rejected(e);
    }
    let found = check_bot_for(
        game,
        &spec,
        CheckLimits {
            mode: sandbox.mode,
            ..CheckLimits::default()
        },
    )
    .await;
    let check: Vec<CheckFinding> = found
        .lines
        .iter()
        .map(|l| CheckFinding {
            ok: l.ok,
            advisory: l.advisory,
            what: l.what.clone(),
        })
        .collect();
    if let Some(bad) = check.iter().find(|l| !l.ok && !l.advisory) {
        return CheckReport {
            problem: Some(format!("check-bot: {}", bad.what)),
            ..rejected(String::new())
        }
        .with_check(check);
    }
    let smoke = smoke_game(daemon, &spec, sandbox, game).await;
    let problem = smoke.as_ref().and_then(|g| {
        g.verdict
            .as_ref()
            .map(|v| format!("the smoke game: it {v}: {}", g.reason))
            .or_else(|| {
                // Lost by its own fault (an adjudication at the wall-time cap is none).
                (g.termination
                    .parse::<crate::record::Termination>()
                    .map_or(true, |t| t.forfeits())
                    && g.result == "0-1")
                    .then(|| format!("the smoke game: {}", g.reason))
            })
    });
    CheckReport {
        game,
        verdict: if problem.is_some() {
            BotState::Rejected
        } else {
            BotState::Active
        },
        check,
        smoke,
        problem,
    }
}

impl CheckReport {
    fn with_check(mut self, check: Vec<CheckFinding>) -> CheckReport {
        self.check = check;
        self
    }
}

/// One short game of `game` as White against the bundled random bot (`None` if Zebra's
/// bundled bots are not installed next to it: the check-bot questions then stand alone).
async fn smoke_game(
    daemon: &Daemon,
    spec: &BotSpec,
    sandbox: &crate::sandbox::Settings,
    game: Rules,
) -> Option<SmokeGame> {
    let mut opponent = BotEntry::from_flag("zebra-random-bot=zebra-random-bot")
        .ok()?
        .spec_with(sandbox.limits_for(&Default::default()).ok()?);
    opponent.resolve_bundled(&daemon.bundled);
    if opponent.check_program().is_err() {
        tracing::warn!("no bundled random bot next to zebra: smoke games are skipped");
        return None;
    }
    let mut config = GameConfig {
        game: GameSetup {
            seed: 1,
            ..GameSetup::of(game)
        },
        event: "Zebra serve smoke game".to_string(),
        sandbox: sandbox.policy(),
        ..GameConfig::default()
    };
    config
        .read_clock(smoke_clock(game))
        .expect("a valid smoke clock");
    let report = crate::referee::play_game(spec, &opponent, &config, |_| {}).await;
    Some(SmokeGame {
        result: report
            .result
            .map_or("*", crate::rules::GameResult::pgn)
            .to_string(),
        termination: report.termination.code().to_string(),
        reason: crate::bot::text::clean(&report.reason, 300),
        verdict: report.bots[0].verdict.map(|v| v.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FC: Rules = Rules::FootballChess;
    const BF: Rules = Rules::BoyerFootball;

    #[test]
    fn a_waiting_bot_is_told_its_place_and_wait_in_rounds_of_the_pool() {
        let mut q = Queue::default();
        for _ in 0..3 {
            q.timed(Duration::from_secs(10));
        }
        assert_eq!(q.mean(), Duration::from_secs(10));
        let pending = [(1, FC), (2, FC), (2, BF), (3, FC), (4, FC)];
        // Nothing running, two at a time: bot 4 is fifth, its check ends in round 3.
        let p = q.place(4, &pending, 2).unwrap();
        assert_eq!((p.ahead, p.running, p.expected_wait_s), (4, false, 30));
        // Bot 2's two checks: the second ends in round 2.
        let p = q.place(2, &pending, 2).unwrap();
        assert_eq!((p.ahead, p.expected_wait_s), (1, 20));
        assert_eq!(q.place(9, &pending, 2), None);
        // Bots 1 and 2 (football-chess) running, the pool full: the rest wait for them.
        let now = std::time::Instant::now();
        q.running.insert((1, FC), now);
        q.running.insert((2, FC), now);
        let p = q.place(4, &pending, 2).unwrap();
        assert_eq!((p.ahead, p.running), (2, false));
        assert!((29..=30).contains(&p.expected_wait_s), "{p:?}");
        let p = q.place(1, &pending, 2).unwrap();
        assert_eq!((p.ahead, p.running), (0, true));
        assert!(p.expected_wait_s <= 10, "{p:?}");
        // One slot of two busy for 10 s more, two waiting: the second starts when the first
        // free slot frees again (in 10 s), after the busy one (in 10 s): done in 20 s.
        let mut part = Queue::default();
        part.timed(Duration::from_secs(10));
        part.running.insert((1, FC), std::time::Instant::now());
        let waiting = [(1, FC), (2, FC), (3, FC)];
        let p = part.place(3, &waiting, 2).unwrap();
        assert_eq!(p.ahead, 1);
        assert!((19..=20).contains(&p.expected_wait_s), "{p:?}");
        // With one slot, the same line: 10 + 10 + 10.
        assert!((29..=30).contains(&part.place(3, &waiting, 1).unwrap().expected_wait_s));
        // Before any check was timed, a first guess.
        let fresh = Queue::default();
        assert_eq!(
            fresh.place(1, &pending, 1).unwrap().expected_wait_s,
            FIRST_GUESS.as_secs()
        );
    }
}
