//! `zebra completions SHELL`: the shell's completion script, made by clap_complete from
//! the same command definitions as `--help`, so that it never lags behind a flag.

use std::io::Write;

use super::args::CompletionsArgs;
use super::failure::Failure;

/// Prints the script (a reader that goes away early, `| head`, is not an error).
pub(super) fn run(args: CompletionsArgs) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "zebra", &mut script);
    match std::io::stdout().lock().write_all(&script) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Run(format!("cannot write the script: {e}")))
        }
        _ => Ok(()),
    }
}
