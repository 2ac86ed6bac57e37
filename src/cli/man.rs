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
    let mut pages: Vec<String> = std::fs::read_dir(out)
        .map_err(|e| Failure::Run(format!("cannot read {}: {e}", out.display())))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("zebra") && name.ends_with(".1"))
        .collect();
    pages.sort();
    println!(
        "{} man pages in {}: {}",
        pages.len(),
        out.display(),
        pages.join(" ")
    );
    Ok(())
}
