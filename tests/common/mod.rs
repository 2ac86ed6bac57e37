//! Helpers shared by the test binaries, written once: a binary says `mod common;` and
//! uses what it needs.
//!
//! - here: processes found by the mark in their environment, and the golden records;
//! - [`run`]: the binaries' paths, `zebra ARGS`, scratch directories, waiting;
//! - [`game`]: games played in the test process against real bot processes;
//! - [`http`]: one HTTP/1.1 exchange with a server Zebra runs;
//! - [`daemon`]: a `zebra serve` process, its admin commands and series over HTTP.
//!
//! `schema.rs` and `webdriver.rs` (JSON Schemas, a WebDriver client) sit beside them but are
//! included only by the binaries that need them (`#[path = "common/schema.rs"]`): they are
//! larger and need more of the dev-dependencies.

// Every test binary compiles all of this module and uses a part of it.
#![allow(dead_code)]

pub mod daemon;
pub mod game;
pub mod http;
pub mod run;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Whether the process whose `/proc/<pid>` directory this is has exited but is not reaped
/// yet: a zombie holds no resources but its pid, and counts as gone.
pub fn is_zombie(proc_dir: &Path) -> bool {
    std::fs::read_to_string(proc_dir.join("stat"))
        .map(|stat| {
            // The state follows the command name, which is in parentheses and may hold
            // spaces: read it after the last ')'.
            stat.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

/// Live processes whose environment holds `ZEBRA_TEST_MARK=<mark>`, as `pid comm`: a test
/// gives its bots (or Zebra) a mark, and every process they start inherits it.
pub fn marked(mark: &str) -> Vec<String> {
    let needle = format!("ZEBRA_TEST_MARK={mark}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) && !is_zombie(&entry.path()) {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            found.push(format!("{pid} {}", comm.trim()));
        }
    }
    found
}

/// A mark of its own for one test's processes: `<binary>-<pid>-<n>`, `n` counting up
/// within the test process.
pub fn mark() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    format!(
        "{}-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Fails unless every process marked `mark` is gone within 15 s (a game's processes die
/// with it; the margin is for a busy machine).
pub fn assert_none_left(mark: &str) {
    let ok = run::wait_until(Duration::from_secs(15), || marked(mark).is_empty());
    assert!(ok, "processes outlived their game: {:?}", marked(mark));
}

/// Every live process (zombies left out) with its command line, one string per argument:
/// for tests that find their processes by what they were started with.
pub fn command_lines() -> Vec<(i32, Vec<String>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if is_zombie(&entry.path()) {
            continue;
        }
        let args = cmd
            .split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        found.push((pid, args));
    }
    found
}

/// The golden multi-game record file (`tests/data/records/golden.pgn`: three games, written
/// by the record writer; `tests/record.rs` regenerates it).
pub fn golden_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/golden.pgn")
}
