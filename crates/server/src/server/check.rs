//! A new bot's check before it may play: `check-bot`'s questions (handshake, every kind of
//! decision, from both sides) and one smoke game against Zebra's bundled random bot, both
//! in the daemon's sandbox with the bot's own limits. A bot is checked once for each game
//! it is entered in, with that game's questions and a smoke game of that game: it plays a
//! game once it passed that game's check. A bot that passes one game's check becomes
//! `active`; one that fails every game's is `rejected`. Each report is stored with the
//! bot, for its owner to read (`GET /api/v1/bots/{id}`).

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

/// Checks pending bots as they come, until the daemon stops.
pub async fn run(daemon: Arc<Daemon>) {
    while !daemon.stopping.is_cancelled() {
        let woken = daemon.wake.notified();
        let pending = daemon.db(|s| s.pending_checks()).await;
        match pending {
            Ok(checks) if !checks.is_empty() => {
                for (bot, game) in checks {
                    if daemon.stopping.is_cancelled() {
                        return;
                    }
                    if let Err(e) = check_one(&daemon, bot, game).await {
                        tracing::error!("cannot store a bot's check: {e}");
                    }
                }
                // Bots may play now: wake the workers.
                daemon.wake.notify_waiters();
                continue;
            }
            Ok(_) => {}
            Err(e) => tracing::error!("cannot read the bots: {e}"),
        }
        tokio::select! {
            _ = woken => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = daemon.stopping.cancelled() => {}
        }
    }
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
