//! What several commands share: the game a `--rules` flag names, Zebra's bundled bots, a
//! bot from its flags, and small text helpers.

use std::path::{Path, PathBuf};

use super::failure::Failure;
use crate::bot::BotSpec;
use crate::rules::Rules;

/// `--rules NAME`, validated.
pub(super) fn rules_flag(name: &str) -> Result<Rules, Failure> {
    name.parse::<Rules>()
        .map_err(|e| Failure::Usage(format!("--rules: {e}")))
}

/// The directory of Zebra's own bots: the one this executable is in.
pub(super) fn bundled_dir() -> Result<PathBuf, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    Ok(exe.parent().unwrap_or(Path::new(".")).to_path_buf())
}

/// A bot bundled with Zebra: a binary next to this executable.
pub(super) fn bundled(program: &str) -> Result<BotSpec, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Run(format!("cannot find the bundled bots: {e}")))?;
    let path = exe.with_file_name(program);
    if !path.exists() {
        return Err(Failure::Run(format!(
            "the bundled bot {} is missing: build it with 'cargo build --release'",
            path.display()
        )));
    }
    let mut spec = BotSpec::from_command(program, "bot").expect("a command");
    spec.program = path;
    Ok(spec)
}

/// A bot from its command line, or the bundled bot `default` next to this executable.
pub(super) fn bot_spec(
    side: &str,
    command: Option<&str>,
    name: Option<String>,
    options: &[String],
    default: &str,
) -> Result<BotSpec, Failure> {
    let mut spec = match command {
        Some(cmd) => {
            BotSpec::from_command("", cmd).map_err(|e| Failure::Usage(format!("--{side}: {e}")))?
        }
        None => bundled(default)?,
    };
    // Until its `ready` names it (see the caller).
    spec.name = name.unwrap_or_else(|| {
        crate::bot::name::from_command(&spec.program.to_string_lossy(), &spec.args)
    });
    crate::bot::text::check_user_name(&spec.name)
        .map_err(|why| Failure::Usage(format!("--{side}-name: {why}")))?;
    for item in options {
        let (k, v) = item.split_once('=').ok_or_else(|| {
            Failure::Usage(format!("--{side}-option '{item}': write it as NAME=VALUE"))
        })?;
        spec.options
            .insert(k.to_string(), crate::bot::text::option_value(v));
    }
    Ok(spec)
}

/// `1st`, `2nd`, `3rd`, `4th`: a down as Football Chess's situation lines say it.
pub(super) fn ordinal(down: u8) -> &'static str {
    match down {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        _ => "4th",
    }
}

/// Prints a report as one JSON object or as its text.
pub(super) fn print_report(json: bool, report: &impl serde::Serialize, text: &str) {
    if json {
        out!(
            "{}",
            serde_json::to_string(report).expect("a report serializes")
        );
    } else {
        out!("{text}");
    }
}
