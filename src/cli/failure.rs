//! How a command fails: [`Failure`], each kind with its exit code in `main` (a one-line
//! message for usage and run failures; the others were already reported).

use crate::referee::preflight::PreflightError;
use crate::series::SeriesEnd;

/// Why a command did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage: the user's to fix (exit code 2).
    Usage(String),
    /// The work failed (exit code 1).
    Run(String),
    /// The game was played but ended by forfeit (already reported on stdout).
    Forfeit,
    /// check-bot found problems (already reported on stdout).
    BotProblems,
    /// The user interrupted the work; every bot was stopped.
    Interrupted,
    /// A series ended in a way scripts branch on (already reported).
    Series(SeriesEnd),
}

/// A bot that cannot start is a failure (exit 1); option values that do not fit are the
/// user's to fix (exit 2).
pub(super) fn preflight_failure(e: PreflightError) -> Failure {
    match e {
        PreflightError::Start(why) => Failure::Run(why),
        PreflightError::Options(why) => Failure::Usage(why),
    }
}
