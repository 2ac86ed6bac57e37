//! `zebra man --out DIR`: the man pages, made by clap_mangen from the same command
//! definitions as `--help` (see [`super::command`]), so that they never lag behind a flag.

use super::args::ManArgs;
use super::failure::Failure;

/// Writes zebra.1 and zebra-COMMAND.1 for every command people run, and names them.
pub(super) fn run(args: ManArgs) -> Result<(), Failure> {
    let out = &args.out;
    std::fs::create_dir_all(out).map_err(|e| {
        Failure::Run(format!(
            "cannot make {}: {e} (choose another --out)",
            out.display()
        ))
    })?;
    clap_mangen::generate_to(super::command(), out).map_err(|e| {
        Failure::Run(format!(
            "cannot write the man pages into {}: {e} (choose another --out)",
            out.display()
        ))
    })?;
    let pages = page_names(&super::command(), "zebra");
    println!(
        "{} man pages in {}: {}",
        pages.len(),
        out.display(),
        pages.join(" ")
    );
    Ok(())
}

/// The pages clap_mangen writes for `cmd` named `name`: its own, then one per visible
/// subcommand, nested ones too (`zebra-serve-bot-add.1`), sorted.
fn page_names(cmd: &clap::Command, name: &str) -> Vec<String> {
    let mut pages = vec![format!("{name}.1")];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.extend(page_names(sub, &format!("{name}-{}", sub.get_name())));
    }
    pages.sort();
    pages
}
