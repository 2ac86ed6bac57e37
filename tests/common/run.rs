//! Running Zebra's binaries from a test: their paths, `zebra ARGS`, a scratch directory of
//! the test's own, and waiting for what must happen.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The `zebra` binary Cargo built for this test run.
pub const ZEBRA: &str = env!("CARGO_BIN_EXE_zebra");
/// The misbehaving test bot (`bots/test_bot.rs`), every misbehaviour behind a flag.
pub const TEST_BOT: &str = env!("CARGO_BIN_EXE_zebra-test-bot");
/// The bundled random bot.
pub const RANDOM_BOT: &str = env!("CARGO_BIN_EXE_zebra-random-bot");
/// The bundled greedy bot.
pub const GREEDY_BOT: &str = env!("CARGO_BIN_EXE_zebra-greedy-bot");
/// The bundled bot that answers at once, for the benchmarks.
pub const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_zebra-instant-bot");

/// A short series for the tests of sharding and its recipes (all but its seed): 14 games
/// (7 pairs) of quick play-count games between the deterministic greedy and fouling bots.
pub const SHARDED_SERIES: [&str; 8] = [
    "--bot",
    "greedy=zebra-greedy-bot",
    "--bot",
    "fouling=zebra-fouling-bot",
    "--games",
    "14",
    "--tc",
    "plays=2,play=5s,reaction=5s",
];

/// `zebra ARGS` not yet run: for a test that adds environment, pipes or a signal.
pub fn zebra_command(args: &[&str]) -> Command {
    let mut cmd = Command::new(ZEBRA);
    cmd.args(args);
    cmd
}

/// `zebra ARGS` run to its end, its output collected.
pub fn zebra(args: &[&str]) -> Output {
    zebra_command(args).output().expect("the zebra binary runs")
}

/// Bytes a process wrote, as text (anything not UTF-8 replaced, never a panic).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty directory for one test: `<temp>/zebra-<binary>-<name>-<pid>`, whatever
/// an earlier run left there removed first. The test binary's name and the process id keep
/// binaries (run one after another, or at once by two `cargo test`s) and runs apart; a test
/// gives each of its directories a name no other test of its binary uses. A test removes
/// it when it passes, if it likes; a failed test's directory is left to look at.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "zebra-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether `check` holds within `limit`, asked every 20 ms and once more at the deadline
/// (so a busy machine that slept past it still gets its answer).
pub fn wait_until(limit: Duration, mut check: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if check() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    check()
}
