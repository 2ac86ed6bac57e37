//! `zebra check-bot`: a bot questioned against the protocol, then games against the
//! bundled random bot; every problem on a line of its own.

use std::path::Path;

use super::args::CheckBotArgs;
use super::common::{bundled, rules_flag};
use super::failure::Failure;
use super::runtime::{interruptible, runtime};
use crate::bot::BotSpec;
use crate::referee::check::{check_bot_for, check_games, CheckLimits};
use crate::rules::Rules;

/// The bot and how it is checked, every flag validated.
struct Plan {
    rules: Rules,
    bot: BotSpec,
    limits: CheckLimits,
    /// Whole games against the bundled random bot after the questions.
    games: u32,
}

/// Checks the flags, questions the bot, plays its games; problems exit with code 4.
pub(super) fn run(args: CheckBotArgs) -> Result<(), Failure> {
    let plan = Plan::new(args)?;
    let runtime = runtime()?;
    let report = interruptible(&runtime, check_bot_for(plan.rules, &plan.bot, plan.limits))?;
    for line in &report.lines {
        out!(
            "{} {}",
            if line.ok { "ok     " } else { "PROBLEM" },
            line.what
        );
    }
    let game_problems = if plan.games > 0 {
        play_games(&runtime, &plan)?
    } else {
        0
    };
    match report.problems() + game_problems {
        0 => {
            out!("no problems found");
            Ok(())
        }
        n => {
            out!("{n} problem(s) found");
            Err(Failure::BotProblems)
        }
    }
}

impl Plan {
    fn new(args: CheckBotArgs) -> Result<Plan, Failure> {
        let rules = rules_flag(&args.rules)?;
        let mut bot = BotSpec::from_command("bot", &args.command)
            .map_err(|e| Failure::Usage(format!("check-bot: {e}")))?;
        // A bundled bot by its bare name, as `play` and `match` take it.
        if let Ok(exe) = std::env::current_exe() {
            bot.resolve_bundled(exe.parent().unwrap_or(Path::new(".")));
        }
        if args.decision_ms == 0 {
            return Err(Failure::Usage("--decision-ms must be at least 1".into()));
        }
        let limits = CheckLimits {
            decision: std::time::Duration::from_millis(args.decision_ms),
            ..CheckLimits::default()
        };
        Ok(Plan {
            rules,
            bot,
            limits,
            games: args.games,
        })
    }
}

/// The games against the bundled random bot, a line for each and for each problem in it;
/// the number of problems.
fn play_games(runtime: &tokio::runtime::Runtime, plan: &Plan) -> Result<usize, Failure> {
    let mut opponent = bundled("zebra-random-bot")?;
    opponent.name = "zebra-random-bot".to_string();
    let played = interruptible(
        runtime,
        check_games(
            plan.rules,
            &plan.bot,
            &opponent,
            plan.games,
            crate::sandbox::Policy::default(),
        ),
    )?;
    let mut problems = 0;
    for (k, g) in played.iter().enumerate() {
        let head = format!("game {} as {} against zebra-random-bot", k + 1, g.side);
        if g.problems.is_empty() {
            out!("ok      {head}: {}", g.outcome);
        }
        for p in &g.problems {
            out!("PROBLEM {head} ({}): {p}", g.outcome);
        }
        problems += g.problems.len();
    }
    Ok(problems)
}
