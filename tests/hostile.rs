//! The catalogue of hostile bots: each misbehaviour done for real by `zebra-test-bot`, its
//! consequence asserted, every record written and verified, and no process left behind.
//!
//! "No process left" is checked by a mark: every bot of a test gets an environment
//! variable with a value of its own, which every process it starts inherits; after the
//! game, no process on the machine may carry it. Tests that need a sandbox level this
//! machine lacks say so on stderr and stop (they pass: the level is not there to test).
//!
//! Margins are generous: CI is a noisy 2-core machine; nothing here depends on load.

mod common;

use common::game::{marked_bot as bot, needs, stderr_of};
use common::{assert_none_left, mark};

use std::time::{Duration, Instant};

use zebra::bot::BotSpec;
use zebra::record::{verify, write_game, Termination};
use zebra::referee::{GameClock, GameConfig, GameReport, GameSetup, Referee};
use zebra::rules::{GameResult, Side};
use zebra::sandbox::{self, Exit, Mode, Policy, Verdict};

fn config(tc: &str) -> GameConfig {
    GameConfig {
        game: GameSetup {
            clock: GameClock::read(zebra::rules::Rules::FootballChess, tc).unwrap(),
            seed: 7,
            ..GameSetup::default()
        },
        handshake: Duration::from_secs(5),
        quit_grace: Duration::from_secs(1),
        ..GameConfig::default()
    }
}

fn fast() -> GameConfig {
    config("plays=1,play=2s,reaction=2s,grace=200ms")
}

/// One game; its record must be writable and verify; then nothing with `mark` may live.
fn game(white: BotSpec, black: BotSpec, cfg: &GameConfig, mark: &str) -> GameReport {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = rt.block_on(Referee::play(&white, &black, cfg, |_, _, _| {}));
    let text =
        write_game(&report.record).unwrap_or_else(|e| panic!("the record cannot be written: {e}"));
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "a control character reached the record:\n{text}"
    );
    verify(&report.record).unwrap_or_else(|d| panic!("record does not verify: {d}\n{text}"));
    assert_none_left(mark);
    report
}

#[test]
fn a_silent_bot_times_out_in_the_handshake() {
    let m = mark();
    let r = game(
        bot("silent", &m, &["--no-ready"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Abandoned);
    assert_eq!(r.bots[0].verdict, Some(Verdict::Timeout));
    assert_eq!(r.record.tags.get("WhiteVerdict"), Some("timeout"));
}

#[test]
fn a_banner_before_ready_is_tolerated() {
    let m = mark();
    let r = game(
        bot("banner", &m, &["--banner"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
}

#[test]
fn a_bot_that_never_flushes_times_out() {
    let m = mark();
    let r = game(
        bot("ok", &m, &[]),
        bot("buffer", &m, &["--no-flush"]),
        &fast(),
        &m,
    );
    assert_eq!(r.bots[1].verdict, Some(Verdict::Timeout), "{}", r.reason);
}

#[test]
fn garbage_non_utf8_long_lines_and_illegal_actions_forfeit_as_illegal() {
    for flags in [
        &["--garbage"][..],
        &["--non-utf8"],
        &["--long-line", "204800"],
        &["--illegal"],
    ] {
        let m = mark();
        let r = game(bot("ok", &m, &[]), bot("bad", &m, flags), &fast(), &m);
        assert_eq!(r.termination, Termination::RulesInfraction, "{flags:?}");
        assert_eq!(r.result, Some(GameResult::Win(Side::White)), "{flags:?}");
        assert_eq!(r.bots[1].verdict, Some(Verdict::Illegal), "{flags:?}");
    }
}

#[test]
fn control_characters_everywhere_are_escaped_in_the_record() {
    let m = mark();
    let r = game(
        bot("nasty", &m, &["--control-chars"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    // Its actions hold control characters too, so they are invalid: a forfeit, recorded.
    assert_eq!(r.termination, Termination::RulesInfraction, "{}", r.reason);
    let version = r.record.tags.get("WhiteVersion").unwrap();
    assert!(version.contains("\\u001b[31m"), "{version}");
    assert!(version.contains("\\u202e"), "{version}");
    let info = r.bots[0].info.as_ref().unwrap();
    for text in [&info.name, &info.author, &info.version, &r.reason] {
        assert!(!text.chars().any(char::is_control), "{text:?}");
    }
    assert!(r.reason.contains("\\u001b"), "{}", r.reason);
}

#[test]
fn a_stdout_flood_before_ready_is_an_output_flood() {
    let m = mark();
    let start = Instant::now();
    let r = game(
        bot("flood", &m, &["--flood-stdout", "start"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::OutputFlood),
        "{}",
        r.reason
    );
    assert!(r.reason.contains("flooded its output"), "{}", r.reason);
    assert_eq!(r.record.tags.get("WhiteVerdict"), Some("output-flood"));
    // Judged on the lines, not by waiting out the handshake.
    assert!(start.elapsed() < Duration::from_secs(5 + 10));
}

#[test]
fn a_stdout_flood_after_ready_is_an_output_flood() {
    let m = mark();
    // Black floods from `ready` on, while White decides first.
    let r = game(
        bot("ok", &m, &[]),
        bot("flood", &m, &["--flood-stdout", "ready"]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::RulesInfraction, "{}", r.reason);
    assert_eq!(
        r.bots[1].verdict,
        Some(Verdict::OutputFlood),
        "{}",
        r.reason
    );
}

#[test]
fn wrong_ids_duplicates_and_stale_replies_are_discarded() {
    for flags in [&["--wrong-id"][..], &["--double-reply"], &["--stale-id"]] {
        let m = mark();
        let r = game(bot("ok", &m, &[]), bot("odd", &m, flags), &fast(), &m);
        assert_eq!(
            r.termination,
            Termination::Normal,
            "{flags:?}: {}",
            r.reason
        );
        assert!(r.bots[1].discarded > 0, "{flags:?}");
    }
}

#[test]
fn a_crash_mid_game_names_the_exit_code_and_the_last_stderr_lines() {
    let m = mark();
    let r = game(
        bot("ok", &m, &[]),
        bot("crash", &m, &["--crash-after", "2"]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Abandoned);
    assert_eq!(r.bots[1].verdict, Some(Verdict::Crashed(Exit::Code(3))));
    assert!(
        r.reason.contains("crashed with exit code 3") && r.reason.contains("cannot load weights"),
        "{}",
        r.reason
    );
    let tag = r.record.tags.get("TerminationReason").unwrap();
    assert!(tag.contains("cannot load weights"), "{tag}");
}

#[test]
fn a_bot_that_closes_stdout_and_lives_on_is_killed() {
    let m = mark();
    let r = game(
        bot("closer", &m, &["--close-stdout-after", "1"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::ClosedOutput),
        "{}",
        r.reason
    );
}

#[test]
fn a_stderr_flood_is_drained_and_capped() {
    let m = mark();
    let r = game(
        bot("noisy", &m, &["--stderr-flood", "8"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let exit = r.bots[0].exit.as_ref().unwrap();
    assert!(exit.stderr.len() <= 1024 * 1024 && exit.stderr_dropped > 0);
}

#[test]
fn bots_that_ignore_quit_and_sigterm_are_killed() {
    let m = mark();
    let r = game(
        bot("stubborn", &m, &["--ignore-quit", "--ignore-sigterm"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[0].exit.as_ref().unwrap().killed);
}

#[test]
fn children_and_double_forked_setsid_children_die_with_the_game() {
    let m = mark();
    let r = game(
        bot("forker", &m, &["--fork"]),
        bot("setsid", &m, &["--fork-setsid"]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    // The children really ran (and `game` checked they are gone).
    assert!(stderr_of(&r, Side::White).contains("child-pid"));
    assert!(stderr_of(&r, Side::Black).contains("child-pid"));
}

#[test]
fn a_memory_hog_is_stopped_at_its_limit() {
    let m = mark();
    let mut hog = bot("hog", &m, &["--memory-mb", "600"]);
    hog.limits.memory = Some(128 << 20);
    let r = game(hog, bot("ok", &m, &[]), &fast(), &m);
    assert_eq!(r.termination, Termination::Abandoned, "{}", r.reason);
    let verdict = r.bots[0].verdict;
    if sandbox::level().cgroups.memory.is_some() {
        assert_eq!(verdict, Some(Verdict::MemoryLimit), "{}", r.reason);
        assert!(r.reason.contains("memory limit"), "{}", r.reason);
    } else {
        // An address-space limit: the allocation fails and the bot aborts.
        assert!(matches!(verdict, Some(Verdict::Crashed(_))), "{verdict:?}");
    }
    assert!(!stderr_of(&r, Side::White).contains("600 MiB touched"));
}

#[test]
fn a_bot_over_its_process_limit_forfeits() {
    if !needs("pids cgroup", sandbox::level().cgroups.pids.is_some()) {
        return;
    }
    let m = mark();
    let mut many = bot("threads", &m, &["--threads", "200"]);
    many.limits.processes = Some(16);
    let r = game(many, bot("ok", &m, &[]), &fast(), &m);
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::ProcessLimit),
        "{}",
        r.reason
    );
    let said = stderr_of(&r, Side::White);
    let started: usize = said
        .lines()
        .find_map(|l| l.strip_prefix("threads: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        started < 16,
        "{started} threads started under a limit of 16"
    );
}

#[test]
fn a_cpu_hog_is_stopped_by_its_cpu_limit() {
    let m = mark();
    // It spins from `ready` on; with time to spare on the clock, only the CPU backstop
    // (2 s) can stop it.
    let mut hog = bot("spin", &m, &["--spin", "--sleep-ms", "400"]);
    hog.limits.cpu = Some(Duration::from_secs(2));
    let cfg = config("plays=40,play=5s,reaction=5s,grace=200ms");
    let mut cfg = cfg;
    cfg.sandbox.freeze_idle = false;
    let r = game(hog, bot("ok", &m, &[]), &cfg, &m);
    assert_eq!(r.bots[0].verdict, Some(Verdict::CpuLimit), "{}", r.reason);
    assert_eq!(r.record.tags.get("WhiteVerdict"), Some("cpu-limit"));
}

#[test]
fn a_huge_file_is_stopped_at_the_file_size_limit() {
    let m = mark();
    let mut writer = bot("writer", &m, &["--write-mb", "64"]);
    writer.limits.file_size = Some(8 << 20);
    let r = game(writer, bot("ok", &m, &[]), &fast(), &m);
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::FileSizeLimit),
        "{}",
        r.reason
    );
}

/// Regression: a runtime that ignores SIGXFSZ and dies of the failed write (Python's
/// OSError, Node's EFBIG) was reported as a crash.
#[test]
fn a_runtime_that_ignores_sigxfsz_is_still_stopped_at_the_file_size_limit() {
    let level = sandbox::level();
    if !needs("own view", level.namespaces && level.wall.view) {
        return;
    }
    let m = mark();
    let mut writer = bot("writer", &m, &["--write-mb", "64", "--ignore-sigxfsz"]);
    writer.limits.file_size = Some(8 << 20);
    let r = game(writer, bot("ok", &m, &[]), &fast(), &m);
    assert!(stderr_of(&r, Side::White).contains("file: failed"));
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::FileSizeLimit),
        "{}",
        r.reason
    );
    // An error exit with no file at the limit stays a crash.
    let m = mark();
    let r = game(
        bot("crasher", &m, &["--crash-after", "1"]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert!(
        matches!(r.bots[0].verdict, Some(Verdict::Crashed(_))),
        "{}",
        r.reason
    );
}

#[test]
fn the_network_is_off() {
    if !needs("network namespace", sandbox::level().namespaces) {
        return;
    }
    // A listener on the machine's loopback: a bot in its own network namespace has a
    // loopback of its own and cannot reach it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let m = mark();
    let r = game(
        bot("net", &m, &["--connect", &addr]),
        bot("ok", &m, &[]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let said = stderr_of(&r, Side::White);
    assert!(said.contains("network: failed"), "{said}");
    assert!(listener.accept().is_err(), "the bot reached the machine");

    // And with the network allowed, the same bot gets through.
    let m = mark();
    let mut open = bot("net", &m, &["--connect", &addr]);
    open.limits.network = true;
    let r = game(open, bot("ok", &m, &[]), &fast(), &m);
    let said = stderr_of(&r, Side::White);
    assert!(said.contains("network: connected"), "{said}");
}

#[test]
fn freeze_idle_keeps_a_spinner_off_the_cpu_during_its_opponents_turn() {
    let m = mark();
    // The spinner answers at once but spins in a thread all the time; its opponent takes
    // 80 ms per decision. Frozen while the opponent thinks, the spinner's CPU time can
    // only come from its own turns (and the moments around the handshake and the end).
    let cfg = config("plays=4,play=5s,reaction=5s,grace=200ms");
    assert!(cfg.sandbox.freeze_idle, "freeze-idle is the default");
    let r = game(
        bot("spinner", &m, &["--spin"]),
        bot("slow", &m, &["--sleep-ms", "80"]),
        &cfg,
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let (spinner, slow) = (&r.bots[0], &r.bots[1]);
    // The opponent's turns add up to seconds: a spinner left running would burn them.
    assert!(slow.think_us >= 1_000_000, "{slow:?}");
    let said = stderr_of(&r, Side::White);
    let cpu_ms: u64 = said
        .lines()
        .find_map(|l| l.strip_prefix("cpu-ms "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no cpu-ms in: {said}"));
    // Two threads may each use the wall time of its own turns; then FREEZE_AFTER (2 ms)
    // of each opponent decision, allowed 40 ms here (half of the opponent's 80 ms) for a
    // late timer on a busy machine; 500 ms cover the start (before both bots are ready)
    // and the end. Left running, the spinner would burn the opponent's whole thinking time
    // (`slow.think_us`, seconds), at least twice this bound.
    let bound = 2 * spinner.think_us / 1000 + 40 * u64::from(slow.decisions) + 500;
    assert!(
        cpu_ms <= bound && bound < slow.think_us / 1000,
        "the spinner used {cpu_ms} ms of CPU; its own turns allow {bound} ms (opponent thought {} ms)",
        slow.think_us / 1000
    );
}

#[test]
fn freeze_idle_stops_the_idle_bot_once_its_opponent_takes_its_time() {
    if sandbox::level().cgroups.freezer.is_none() {
        eprintln!("skipped: counted here through the cgroup freezer");
        return;
    }
    let m = mark();
    // Nobody is stopped up front any more: a bot is stopped only once its opponent's
    // request has been out FREEZE_AFTER. Black's 30 ms decisions always take that long, so
    // White is stopped during them (once for a run of Black's decisions with none of its own
    // between; how often a quick bot's 2 ms pass depends on the machine's load, so nothing
    // is said of Black).
    let r = game(
        bot("quick", &m, &[]),
        bot("slow", &m, &["--sleep-ms", "30"]),
        &fast(),
        &m,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[0].freezes > 0, "{:?}", r.bots[0]);
}

#[test]
fn strict_mode_runs_where_the_machine_allows_it() {
    let level = sandbox::level();
    let m = mark();
    let mut cfg = fast();
    cfg.sandbox = Policy {
        mode: Mode::Strict,
        freeze_idle: true,
    };
    if level
        .strict_missing(&zebra::sandbox::Limits::default())
        .is_some()
    {
        eprintln!("skipped: strict mode is not available here");
        return;
    }
    let r = game(bot("a", &m, &[]), bot("b", &m, &[]), &cfg, &m);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let tag = r.record.tags.get("Sandbox").unwrap();
    assert!(tag.contains("namespaces"), "{tag}");
}
