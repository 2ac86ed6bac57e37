//! The `zebra` binary: parse the flags, run the command (see `zebra::cli`), and map a
//! failure to one readable line and an exit code: 0 success, 1 failure, 2 bad usage, 3 a
//! forfeit, 4 a bot's problems, 5 and 6 a series' SPRT end (H0, inconclusive), 130
//! interrupted.

use std::process::ExitCode;

use zebra::cli::{Cli, Failure};
use zebra::series::SeriesEnd;

fn main() -> ExitCode {
    let cli = match Cli::from_env() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let outcome = zebra::cli::run(cli.command);
    // Nothing a bot left (its groups, its temp directory) outlives the command.
    zebra::sandbox::janitor::settle();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("zebra: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Run(msg)) => {
            eprintln!("zebra: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Forfeit) => ExitCode::from(3),
        Err(Failure::BotProblems) => ExitCode::from(4),
        Err(Failure::Series(end)) => ExitCode::from(match end {
            SeriesEnd::H0Accepted => 5,
            SeriesEnd::Inconclusive => 6,
            SeriesEnd::Interrupted => 130,
            SeriesEnd::Completed | SeriesEnd::H1Accepted => 0,
        }),
        Err(Failure::Interrupted) => {
            eprintln!("zebra: interrupted; every bot was stopped");
            ExitCode::from(130)
        }
    }
}

/// clap's own errors as the one `zebra:` line every other usage error is; `--help` and
/// `--version` print as clap prints them.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
    }
    // Arguments as the OS gave them: one that is not UTF-8 is refused by clap, not a panic.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let command = zebra::cli::subcommand_of(&args);
    let line = zebra::cli::usage_line(&e.render().to_string(), command.as_deref());
    eprintln!("zebra: {line}");
    ExitCode::from(2)
}
