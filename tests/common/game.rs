//! Games played inside the test process against real bot processes (`Referee::play`):
//! bots carrying a mark, their stderr, and skipping what this machine lacks.

use zebra::bot::BotSpec;
use zebra::referee::GameReport;
use zebra::rules::Side;

use super::run::TEST_BOT;

/// The test bot with `args`, named `name`, its environment holding `ZEBRA_TEST_MARK=<mark>`
/// (inherited by every process it starts: see [`super::marked`]).
pub fn marked_bot(name: &str, mark: &str, args: &[&str]) -> BotSpec {
    let mut s = BotSpec::from_command(name, TEST_BOT).unwrap();
    s.args = args.iter().map(|a| a.to_string()).collect();
    s.env
        .push(("ZEBRA_TEST_MARK".to_string(), mark.to_string()));
    s
}

/// What the bot of `side` wrote to stderr (it must have been reaped).
pub fn stderr_of(r: &GameReport, side: Side) -> String {
    let exit = r.bots[side.index()].exit.as_ref().expect("reaped");
    String::from_utf8_lossy(&exit.stderr).into_owned()
}

/// Whether this machine has `what`; if not, says on stderr that the test is skipped (it
/// passes: the level is not there to test).
pub fn needs(what: &str, available: bool) -> bool {
    if !available {
        eprintln!("skipped: this machine has no {what}");
    }
    available
}
