//! The wall around a bot, attacked for real: each test is a game in which `zebra-test-bot
//! --attack ...` tries what a stranger's bot would try against its opponent, Zebra and the
//! machine (issue "A wall around every bot"). Each asserts that the attack achieved
//! nothing, that the game ended exactly as the same game without the attack (same result,
//! same score, the opponent never flagged, never sent an invalid line), and that no
//! process is left.
//!
//! The games run inside this test process (as root in CI), and once more through the
//! `zebra` binary as an unprivileged user (`setpriv`), where the wall is built in a user
//! namespace. A test whose layer this machine lacks says so on stderr and stops.
//!
//! Paths reach the bot as `--read=PATH` (one word): a word that names an existing file
//! would make its directory one of the bot's own (see `sandbox/view.rs`).

mod common;

use common::game::{marked_bot as bot, needs, stderr_of};
use common::run::{scratch, TEST_BOT, ZEBRA};
use common::{assert_none_left, mark, marked};

use std::path::Path;
use std::time::{Duration, Instant};

use zebra::bot::BotSpec;
use zebra::record::{verify, Termination};
use zebra::referee::{GameClock, GameConfig, GameReport, GameSetup, Referee};
use zebra::rules::Side;
use zebra::sandbox::{self, Verdict};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// Clocks far above what the attacks take, even on a busy machine.
fn config() -> GameConfig {
    GameConfig {
        game: GameSetup {
            clock: GameClock::read(
                zebra::rules::Rules::FootballChess,
                "plays=1,play=20s,reaction=20s,grace=200ms",
            )
            .unwrap(),
            seed: 11,
            ..GameSetup::default()
        },
        handshake: Duration::from_secs(10),
        quit_grace: Duration::from_secs(1),
        ..GameConfig::default()
    }
}

fn play(white: BotSpec, black: BotSpec, mark: &str) -> GameReport {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = rt.block_on(Referee::play(&white, &black, &config(), |_, _, _| {}));
    verify(&report.record).unwrap_or_else(|d| panic!("record does not verify: {d}"));
    assert_none_left(mark);
    report
}

/// The line `PREFIX...` the attacker printed.
fn said<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in the bot's stderr:\n{text}"))
}

/// White attacks with `args`; Black behaves. The same game without the attack must come
/// out the same, and Black must have been untouched. Returns White's stderr.
fn attack(args: &[&str]) -> String {
    let m = mark();
    let base = play(bot("quiet", &m, &[]), bot("victim", &m, &[]), &m);
    let m = mark();
    let r = play(bot("attacker", &m, args), bot("victim", &m, &[]), &m);
    let text = stderr_of(&r, Side::White);
    assert_eq!(r.termination, Termination::Normal, "{}\n{text}", r.reason);
    assert_eq!((r.result, r.score), (base.result, base.score), "{text}");
    let victim = &r.bots[Side::Black.index()];
    assert_eq!(
        (
            victim.illegal,
            victim.timeouts,
            victim.discarded,
            victim.noise
        ),
        (0, 0, 0, 0),
        "the victim was touched: {victim:?}"
    );
    assert_eq!(victim.verdict, None);
    text
}

fn walled() -> bool {
    let l = sandbox::level();
    needs(
        "own view with a fresh /proc",
        l.namespaces && l.wall.view && l.wall.fresh_proc,
    )
}

#[test]
fn a_bot_cannot_write_into_its_opponents_pipe_nor_into_zebras_output() {
    if !walled() {
        return;
    }
    let text = attack(&["--attack", "pipes"]);
    assert_eq!(
        said(&text, "attack pipes:"),
        "attack pipes: opened 0 written 0"
    );
}

#[test]
fn a_bot_sees_only_its_own_processes() {
    if !walled() {
        return;
    }
    let text = attack(&["--attack", "processes", "--fork"]);
    // Its init (PID 1, Zebra's), itself and its own child: never the host's processes.
    let line = said(&text, "attack processes:");
    let foreign: usize = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(foreign <= 1, "{line}");
}

#[test]
fn a_bot_cannot_leave_its_cgroups_and_stays_within_its_memory_limit() {
    if !walled() {
        return;
    }
    let text = attack(&["--attack", "cgroups"]);
    assert_eq!(
        said(&text, "attack cgroups:"),
        "attack cgroups: found 0 moved 0"
    );
    if !needs("memory cgroup", sandbox::level().cgroups.memory.is_some()) {
        return;
    }
    // Tried, then 300 MiB under a 128 MiB limit: the kernel's verdict, as without the try.
    let m = mark();
    let mut hog = bot("hog", &m, &["--attack", "cgroups", "--memory-mb", "300"]);
    hog.limits.memory = Some(128 << 20);
    let r = play(hog, bot("ok", &m, &[]), &m);
    assert_eq!(
        r.bots[0].verdict,
        Some(Verdict::MemoryLimit),
        "{}",
        r.reason
    );
}

#[test]
fn a_bot_cannot_freeze_its_opponent() {
    if !walled() {
        return;
    }
    let text = attack(&["--attack", "freeze"]);
    assert_eq!(
        said(&text, "attack freeze:"),
        "attack freeze: found 0 frozen 0"
    );
}

#[test]
fn a_bot_cannot_signal_nor_trace_any_process_but_its_own() {
    if !walled() || !needs("seccomp", sandbox::level().wall.seccomp) {
        return;
    }
    // A process of the machine the bot aims at by its host pid: it must live on, running.
    let mut sleeper = std::process::Command::new("sleep")
        .arg("600")
        .spawn()
        .unwrap();
    let target = sleeper.id().to_string();
    let me = std::process::id().to_string();
    let text = attack(&[
        "--attack",
        "signal,ptrace",
        "--target",
        &target,
        "--target",
        &me,
    ]);
    let stat = std::fs::read_to_string(format!("/proc/{target}/stat")).unwrap();
    let state = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .next()
        .unwrap();
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert_eq!(state, "S", "the machine's process was stopped: {stat}");
    assert!(
        said(&text, "attack ptrace:").ends_with("attached 0"),
        "{text}"
    );
    // Its own PID 1 (Zebra's init) is not its own: a signal to it is refused or, when
    // the bot shares the init's user id (in a user namespace, without Landlock's signal
    // scope), ignored by the kernel, which spares a namespace's init.
    let level = sandbox::level();
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 || level.wall.landlock >= 6 {
        assert_eq!(said(&text, "attack signal:"), "attack signal: reached 0");
    }
}

#[test]
fn a_bot_reads_no_secret_and_no_file_outside_its_own() {
    if !walled() {
        return;
    }
    let cargo = format!("--read={REPO}/Cargo.toml");
    let text = attack(&["--read=/etc/shadow", &cargo, "--read=/etc/passwd"]);
    assert!(
        said(&text, "read /etc/shadow:").contains("failed"),
        "{text}"
    );
    assert!(
        said(&text, &format!("read {REPO}/Cargo.toml:")).contains("failed"),
        "{text}"
    );
    // What programs need to start is there.
    assert!(said(&text, "read /etc/passwd:").contains("ok"), "{text}");
}

#[test]
fn a_bot_writes_only_into_its_private_tmp() {
    if !walled() {
        return;
    }
    let own_dir = Path::new(TEST_BOT).parent().unwrap();
    let targets = [
        format!("{REPO}/planted-by-a-bot"),
        format!("{}/planted-by-a-bot", own_dir.display()),
        "/etc/planted-by-a-bot".to_string(),
        "/planted-by-a-bot".to_string(),
        "/usr/planted-by-a-bot".to_string(),
    ];
    let mut args: Vec<String> = targets.iter().map(|t| format!("--write={t}")).collect();
    args.push("--write=/tmp/mine".to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = attack(&args);
    for t in &targets {
        assert!(
            said(&text, &format!("write {t}:")).contains("failed"),
            "{text}"
        );
        assert!(!Path::new(t).exists(), "{t} was planted on the machine");
    }
    assert_eq!(said(&text, "write /tmp/mine:"), "write /tmp/mine: ok");
}

#[test]
fn a_bot_has_no_privileges_and_cannot_get_them_back() {
    if !walled() || !needs("own user", sandbox::level().wall.own_user) {
        return;
    }
    let text = attack(&["--attack", "ids,unshare"]);
    let ids = said(&text, "attack ids:");
    assert!(ids.contains("caps 0000000000000000"), "{ids}");
    assert!(ids.contains("no_new_privs 1"), "{ids}");
    assert!(!ids.starts_with("attack ids: uid 0 "), "{ids}");
    if sandbox::level().wall.seccomp {
        assert!(ids.contains("seccomp 2"), "{ids}");
    }
    assert!(said(&text, "attack unshare:").contains("failed"), "{text}");
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        // A host user id of its own, from the range.
        let (first, last) = sandbox::run::uid_range().unwrap();
        let uid: u32 = ids.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!((first..=last).contains(&uid), "{ids}");
    }
}

#[test]
fn a_bot_pinned_to_a_cpu_cannot_leave_it() {
    if !walled() || !needs("seccomp", sandbox::level().wall.seccomp) {
        return;
    }
    let allowed = zebra::series::placement::allowed_cpus();
    if allowed.len() < 2 {
        eprintln!("skipped: needs two CPUs");
        return;
    }
    let m = mark();
    let mut attacker = bot("attacker", &m, &["--attack", "affinity"]);
    attacker.cpus = Some(vec![allowed[1]]);
    let r = play(attacker, bot("victim", &m, &[]), &m);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let text = stderr_of(&r, Side::White);
    assert_eq!(
        said(&text, "attack affinity:"),
        format!(
            "attack affinity: failed (Operation not permitted (os error 1)); cpus {}",
            allowed[1]
        )
    );
}

#[test]
fn many_small_files_stop_at_the_disk_limit() {
    if !walled() {
        return;
    }
    let m = mark();
    let mut filler = bot("filler", &m, &["--attack", "fill-disk"]);
    filler.limits.disk = Some(8 << 20);
    let r = play(filler, bot("ok", &m, &[]), &m);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let text = stderr_of(&r, Side::White);
    let line = said(&text, "attack fill-disk:");
    let bytes: u64 = line.split_whitespace().nth(5).unwrap().parse().unwrap();
    assert!(bytes <= 8 << 20, "{line}");
    assert!(line.contains("No space left"), "{line}");
}

#[test]
fn the_whole_catalogue_fails_for_an_unprivileged_user_too() {
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = Path::new("/usr/bin/setpriv");
    if !root || !setpriv.exists() {
        eprintln!("skipped: needs root (to become 'nobody') and setpriv");
        return;
    }
    let dir = scratch("nobody");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let m = mark();
    let attacker = format!(
        "{TEST_BOT} --attack processes,pipes,cgroups,freeze,ptrace,ids,unshare --read={REPO}/Cargo.toml --read=/etc/shadow --write={REPO}/planted-by-nobody"
    );
    let out = std::process::Command::new(setpriv)
        .args([
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            "--",
        ])
        .args([ZEBRA, "play", "-q", "--tc", "plays=1,play=20s,reaction=20s"])
        .args(["--white", &attacker, "--black", TEST_BOT])
        .args(["--log-dir", dir.to_str().unwrap()])
        .args(["--pgn", dir.join("g.pgn").to_str().unwrap()])
        .env("ZEBRA_TEST_MARK", &m)
        .output()
        .unwrap();
    let record = std::fs::read_to_string(dir.join("g.pgn"))
        .unwrap_or_else(|e| panic!("no record ({e}): {out:?}"));
    let tag = record
        .lines()
        .find(|l| l.starts_with("[Sandbox "))
        .unwrap_or_else(|| panic!("{record}"))
        .to_string();
    if !tag.contains("own read-only view") {
        eprintln!("skipped: no wall for an unprivileged user here ({tag})");
        return;
    }
    assert!(record.contains("[Termination \"normal\"]"), "{record}");
    let log = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".white.stderr"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .unwrap_or_else(|| panic!("no stderr log of the attacker: {out:?}"));
    assert_eq!(
        said(&log, "attack pipes:"),
        "attack pipes: opened 0 written 0"
    );
    assert_eq!(
        said(&log, "attack cgroups:"),
        "attack cgroups: found 0 moved 0"
    );
    assert_eq!(
        said(&log, "attack freeze:"),
        "attack freeze: found 0 frozen 0"
    );
    assert!(
        said(&log, "attack ptrace:").ends_with("attached 0"),
        "{log}"
    );
    assert!(
        said(&log, "attack ids:").contains("caps 0000000000000000"),
        "{log}"
    );
    assert!(said(&log, "attack unshare:").contains("failed"), "{log}");
    assert!(
        said(&log, &format!("read {REPO}/Cargo.toml:")).contains("failed"),
        "{log}"
    );
    assert!(said(&log, "read /etc/shadow:").contains("failed"), "{log}");
    assert!(!Path::new(&format!("{REPO}/planted-by-nobody")).exists());
    let foreign: usize = said(&log, "attack processes:")
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(foreign <= 1, "{log}");
    let _ = std::fs::remove_dir_all(&dir);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !marked(&m).is_empty() {
        assert!(Instant::now() < deadline, "left: {:?}", marked(&m));
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_bot_reads_its_own_directory_given_relative_to_zebras() {
    if !walled() {
        return;
    }
    // Integration tests run in the package's directory: `bots` is relative to it.
    let m = mark();
    let mut own = bot(
        "own",
        &m,
        &["--read=python/random_bot.py", "--read=../Cargo.toml"],
    );
    own.dir = Some("bots".into());
    let r = play(own, bot("ok", &m, &[]), &m);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let text = stderr_of(&r, Side::White);
    assert!(
        said(&text, "read python/random_bot.py:").contains("ok"),
        "{text}"
    );
    assert!(
        said(&text, "read ../Cargo.toml:").contains("failed"),
        "{text}"
    );
}
