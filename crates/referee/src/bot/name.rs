//! Names for bots the user did not name: the `name` a bot sends in `ready`, made fit for
//! records and file names, or else one made from its command; unique within a series
//! (`greedy`, `greedy-2`).
//!
//! Without this every Python bot would be "python3" in records and standings, and two of
//! them could not meet.

use std::path::Path;

/// Characters a made name keeps at most.
pub(crate) const MAX_LEN: usize = 40;

/// Programs that run a script named by their first argument: the script names the bot.
const INTERPRETERS: &[&str] = &[
    "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "ruby",
    "perl", "php", "lua", "sh", "bash", "dash", "zsh", "java", "julia", "Rscript", "dotnet", "env",
];

/// `text` as a bot name: letters, digits, `-`, `_`, `.` and `+` kept, any other run of
/// characters one `-`, at most [`MAX_LEN`] characters; `None` if nothing is left.
pub fn sanitize(text: &str) -> Option<String> {
    let mut name = String::new();
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '+') {
            if gap && !name.is_empty() {
                name.push('-');
            }
            gap = false;
            name.push(c);
        } else {
            gap = true;
        }
        if name.chars().count() >= MAX_LEN {
            break;
        }
    }
    let name: String = name.chars().take(MAX_LEN).collect();
    let name = name.trim_matches(|c| c == '-' || c == '.');
    (!name.is_empty()).then(|| name.to_string())
}

/// A name made from a command: the script's for an interpreter (`python3 -u bots/my_bot.py`
/// is `my_bot`), the program's otherwise; `bot` if neither gives one.
pub fn from_command(program: &str, args: &[String]) -> String {
    let stem = |p: &str| {
        Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let program_stem = stem(program);
    let interpreted =
        INTERPRETERS.contains(&program_stem.as_str()) || program_stem.starts_with("python");
    let base = if interpreted {
        args.iter()
            .find(|a| !a.starts_with('-') && !a.contains('='))
            .map(|a| stem(a))
            .unwrap_or(program_stem)
    } else {
        program_stem
    };
    sanitize(&base).unwrap_or_else(|| "bot".to_string())
}

/// `base`, or `base-2`, `base-3`... : the first not in `taken`.
pub fn unique(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|candidate| !taken.contains(candidate))
        .expect("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_name_is_made_fit_for_records_and_file_names() {
        assert_eq!(
            sanitize("Deep Blitz 2.1").as_deref(),
            Some("Deep-Blitz-2.1")
        );
        assert_eq!(sanitize("  my/bot\u{7}\n").as_deref(), Some("my-bot"));
        assert_eq!(sanitize("../../etc").as_deref(), Some("etc"));
        assert_eq!(sanitize("Ångström_bot+").as_deref(), Some("Ångström_bot+"));
        assert_eq!(sanitize(" \t/\u{1b}[31m "), Some("31m".to_string()));
        assert_eq!(sanitize("..."), None);
        assert_eq!(sanitize(""), None);
        let long = "x".repeat(500);
        assert_eq!(sanitize(&long).unwrap().len(), MAX_LEN);
    }

    #[test]
    fn a_command_names_its_script_or_its_program() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            from_command("python3", &args(&["-u", "bots/my_bot.py"])),
            "my_bot"
        );
        assert_eq!(
            from_command("/usr/bin/node", &args(&["random_bot.js"])),
            "random_bot"
        );
        assert_eq!(
            from_command("./target/release/engine", &args(&["--fast"])),
            "engine"
        );
        assert_eq!(from_command("python3", &[]), "python3");
        assert_eq!(from_command("", &[]), "bot");
    }

    proptest::proptest! {
        /// Whatever a bot sends, a made name is fit for records and file names, and making
        /// it again changes nothing; a failure shrinks to the smallest text (proptest).
        #[test]
        fn any_text_makes_a_fit_name_or_none(text in "\\PC{0,80}|[ -~]{0,60}") {
            if let Some(name) = sanitize(&text) {
                proptest::prop_assert!(name.chars().count() <= MAX_LEN);
                proptest::prop_assert!(name.chars().all(|c| c.is_alphanumeric() || "-_.+".contains(c)));
                proptest::prop_assert!(!name.starts_with(['-', '.']) && !name.ends_with(['-', '.']));
                proptest::prop_assert!(crate::bot::text::check_user_name(&name).is_ok());
                proptest::prop_assert_eq!(sanitize(&name), Some(name.clone()));
            }
        }
    }

    #[test]
    fn names_are_made_unique_with_a_number() {
        let taken = vec!["greedy".to_string(), "greedy-2".to_string()];
        assert_eq!(unique("random", &taken), "random");
        assert_eq!(unique("greedy", &taken), "greedy-3");
    }
}
