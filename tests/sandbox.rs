//! The sandbox through the `zebra` binary: a `kill -9` of Zebra mid-game leaves nothing of
//! its bots, the fallback levels (without namespaces, without cgroups) still end every
//! process with its game, hostile text never reaches a terminal raw nor stops a series,
//! and bad limits or an impossible `--sandbox strict` are one-line usage errors.
//!
//! Processes are found by a mark in their environment, inherited from Zebra by every bot
//! and every process a bot starts. Nothing here depends on how busy the machine is: the
//! waits are generous and only for things that must happen.

mod common;

use common::run::{scratch, wait_until, zebra_command, TEST_BOT, ZEBRA};
use common::{assert_none_left, marked};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// A mark named after its test (a test here needs one only).
fn mark(name: &str) -> String {
    format!("sandbox-cli-{name}-{}", std::process::id())
}

/// `zebra ARGS` with the mark in its environment (and so in its bots'), not yet run.
fn zebra(args: &[&str], mark: &str, env: &[(&str, &str)]) -> Command {
    let mut cmd = zebra_command(args);
    cmd.env("ZEBRA_TEST_MARK", mark);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("zebra runs")
}

fn namespaces_here() -> bool {
    let out = Command::new(ZEBRA)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["namespaces"] == serde_json::Value::Bool(true)
}

/// A game whose bots fork: White keeps a child in its group, Black double-forks a child
/// into a session of its own. Both reply slowly, so the game is still running when the
/// test strikes.
fn forking_game(mark: &str, env: &[(&str, &str)], pgn: &Path, plays: u32) -> Command {
    let white = format!("{TEST_BOT} --fork --sleep-ms 100");
    let black = format!("{TEST_BOT} --fork-setsid --sleep-ms 100");
    zebra(
        &[
            "play",
            "--white",
            &white,
            "--black",
            &black,
            "--tc",
            &format!("plays={plays},play=5s,reaction=5s"),
            "-q",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        mark,
        env,
    )
}

/// The run id of the live Zebra `pid`: the name of the lock file it holds open
/// (`<temp>/zebra-<run>.lock`).
fn run_of(pid: u32) -> Option<String> {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()?
        .flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .find_map(|target| {
            let name = target.file_name()?.to_str()?.to_string();
            let run = name.strip_prefix("zebra-")?.strip_suffix(".lock")?;
            (run.len() == 16).then(|| run.to_string())
        })
}

/// The places where a Zebra whose temp directory is `tmp` leaves names: `tmp` and the
/// cgroup directories `zebra doctor` names. Running it also sweeps what dead runs of `tmp`
/// left. Each test gives its Zebras a temp directory of its own: a run's lock file lives
/// there, so Zebras of other tests (in /tmp) cannot judge, and so never sweep, its runs.
fn leftover_dirs(tmp: &Path) -> Vec<PathBuf> {
    let doctor = Command::new(ZEBRA)
        .args(["doctor", "--json"])
        .env("TMPDIR", tmp)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let mut dirs = vec![tmp.to_path_buf()];
    for c in ["memory", "pids", "freezer"] {
        if let Some(src) = v["cgroups"][c].as_str() {
            dirs.push(PathBuf::from(src.split_once(' ').unwrap().1));
        }
    }
    dirs
}

/// What run `run` left in `dirs` (its lock file included).
fn left_by(run: &str, dirs: &[PathBuf]) -> Vec<String> {
    let prefix = format!("zebra-{run}");
    dirs.iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().flatten())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with(&prefix))
        .collect()
}

/// Starts `cmd` (a forking game, maybe wrapped), waits for the bots' children, kills the
/// Zebra process among the marked ones with SIGKILL; returns its run id once nothing of
/// its bots lives.
fn kill_zebra_mid_game(mut cmd: Command, m: &str) -> String {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Both sleepers are up: the forker's child and the setsid grandchild.
    let up = wait_until(Duration::from_secs(20), || {
        marked(m).iter().filter(|p| p.ends_with(" sleep")).count() >= 2
    });
    assert!(up, "the bots' children never started: {:?}", marked(m));
    let zebra: u32 = marked(m)
        .iter()
        .find(|p| p.ends_with(" zebra"))
        .and_then(|p| p.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no zebra among {:?}", marked(m)));
    let run = run_of(zebra).expect("a live Zebra holds its run's lock");
    // SAFETY: kill only sends a signal.
    unsafe {
        libc::kill(zebra as i32, libc::SIGKILL);
    }
    child.wait().unwrap();
    assert_none_left(m);
    run
}

#[test]
fn kill_9_of_zebra_mid_game_leaves_no_process_of_any_bot() {
    if !namespaces_here() {
        eprintln!("skipped: no namespaces here (the fallback cannot outlive a kill -9 of Zebra; docs/src/operators/sandbox-caveats.md)");
        return;
    }
    let dir = scratch("kill9");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let m = mark("kill9");
    let dirs = leftover_dirs(&tmp);
    let env = [("TMPDIR", tmp.to_str().unwrap())];
    let run = kill_zebra_mid_game(forking_game(&m, &env, &dir.join("g.pgn"), 20), &m);
    // Its empty groups and temp directories stay, named by its run...
    let left = left_by(&run, &dirs);
    assert!(left.iter().any(|n| n.ends_with(".tmp")), "{left:?}");
    assert!(left.iter().any(|n| n.ends_with(".lock")), "{left:?}");
    // ... until the next Zebra that starts sweeps them, its lock file last.
    let _ = leftover_dirs(&tmp);
    let left = left_by(&run, &dirs);
    assert!(left.is_empty(), "left: {left:?}");
}

/// Regression: names were keyed by Zebra's PID, so a Zebra killed as PID 2 of a PID
/// namespace left names the next Zebra that was PID 2 of its namespace took for its own
/// (it never swept them, and a name collision failed a bot's start with "File exists").
#[test]
fn a_zebra_killed_as_pid_2_of_a_namespace_leaves_nothing_the_next_one_takes_for_its_own() {
    let unshare = Path::new("/usr/bin/unshare");
    // SAFETY: geteuid cannot fail.
    if !namespaces_here() || unsafe { libc::geteuid() } != 0 || !unshare.exists() {
        eprintln!("skipped: needs namespaces, root and unshare");
        return;
    }
    let dir = scratch("pid2");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let m = mark("pid2");
    let dirs = leftover_dirs(&tmp);
    // `sh -c 'zebra ...; true'`: sh is PID 1 of the new namespace, Zebra PID 2.
    let in_namespace = |plays: u32, pgn: &Path| {
        let game = forking_game(&m, &[], pgn, plays);
        let words: Vec<String> = std::iter::once(game.get_program())
            .chain(game.get_args())
            .map(|w| format!("'{}'", w.to_str().unwrap()))
            .collect();
        let mut cmd = Command::new(unshare);
        cmd.args(["--fork", "--pid", "--mount-proc", "sh", "-c"])
            .arg(format!("{}; true", words.join(" ")))
            .env("ZEBRA_TEST_MARK", &m)
            .env("TMPDIR", &tmp);
        cmd
    };
    let run = kill_zebra_mid_game(in_namespace(20, &dir.join("first.pgn")), &m);
    assert!(!left_by(&run, &dirs).is_empty());
    // The next Zebra, PID 2 of its own namespace too, plays a whole game...
    let out = in_namespace(1, &dir.join("second.pgn")).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = std::fs::read_to_string(dir.join("second.pgn")).unwrap();
    assert!(record.contains("[Termination \"normal\"]"), "{record}");
    // ... and has swept what the first one left.
    let left = left_by(&run, &dirs);
    assert!(left.is_empty(), "left: {left:?}");
    assert_none_left(&m);
}

#[test]
fn without_namespaces_cgroups_or_the_subreaper_still_end_every_process_with_its_game() {
    for disable in ["namespaces", "namespaces,cgroups"] {
        let dir = scratch(&format!("fallback-{}", disable.replace(',', "-")));
        let m = mark(&disable.replace(',', "-"));
        let pgn = dir.join("g.pgn");
        let out = run(&mut forking_game(
            &m,
            &[("ZEBRA_SANDBOX_DISABLE", disable)],
            &pgn,
            1,
        ));
        assert!(out.status.success(), "{disable}: {out:?}");
        assert_none_left(&m);
        let record = std::fs::read_to_string(&pgn).unwrap();
        let tag = record
            .lines()
            .find(|l| l.starts_with("[Sandbox "))
            .unwrap_or_else(|| panic!("no Sandbox tag:\n{record}"));
        assert!(tag.contains("subreaper"), "{disable}: {tag}");
        if disable.contains("cgroups") {
            assert!(!tag.contains("cgroup"), "{tag}");
        }
    }
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw_and_the_record_is_written() {
    let dir = scratch("text");
    let m = mark("text");
    let pgn = dir.join("g.pgn");
    let white = format!("{TEST_BOT} --control-chars --name evil");
    let out = run(&mut zebra(
        &["play", "--white", &white, "--pgn", pgn.to_str().unwrap()],
        &m,
        &[],
    ));
    // A forfeit (its actions are not actions), reported and recorded.
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    for (what, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(
            !bytes.iter().any(|&b| b == 0x1b || b == 0x07 || b == 0x01),
            "a raw control byte reached the terminal on {what}: {}",
            String::from_utf8_lossy(bytes)
        );
    }
    let verify = run(&mut zebra(&["verify", pgn.to_str().unwrap()], &m, &[]));
    assert!(verify.status.success(), "{verify:?}");
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        record.contains("[WhiteVersion \"0.1.0\\\\u001b[31mred"),
        "{record}"
    );
    assert_none_left(&m);
}

#[test]
fn a_series_with_a_hostile_bot_runs_to_its_end_and_resumes() {
    let dir = scratch("series");
    let m = mark("series");
    let out_dir = dir.join("s");
    let nasty = format!("nasty={TEST_BOT} --control-chars");
    let crash = format!("crash={TEST_BOT} --crash-after 1");
    let args = [
        "match",
        "--bot",
        &nasty,
        "--bot",
        &crash,
        "--bot",
        "random=zebra-random-bot",
        "--games",
        "2",
        "--tc",
        "plays=1,play=2s,reaction=2s",
        "--json",
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    let out = run(&mut zebra(&args, &m, &[]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The summary names the containment, as every record's Sandbox tag does.
    let sandbox = summary["sandbox"].as_str().unwrap();
    assert!(sandbox.starts_with("rlimits, "), "{summary}");
    let record = std::fs::read_to_string(out_dir.join("games.pgn")).unwrap();
    assert!(
        record.contains(&format!("[Sandbox \"{sandbox}\"]")),
        "{record}"
    );
    let conduct = summary["conduct"].as_array().unwrap();
    let verdicts = |name: &str| {
        conduct
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{summary}"))["verdicts"]
            .clone()
    };
    // Against random, each loses both games its own way; against each other, whoever
    // fails first loses: one verdict per game, six games in all.
    let illegal = verdicts("nasty")["illegal"].as_u64().unwrap_or(0);
    let crashed = verdicts("crash")["crashed"].as_u64().unwrap_or(0);
    assert!(illegal >= 2 && crashed >= 2, "{summary}");
    assert_eq!(illegal + crashed, 6, "{summary}");
    let pgn = out_dir.join("games.pgn");
    let verify = run(&mut zebra(&["verify", pgn.to_str().unwrap()], &m, &[]));
    assert!(verify.status.success(), "{verify:?}");
    // A resume of the finished series reads every record back and agrees.
    let again = run(&mut zebra(
        &[
            "match",
            "--resume",
            out_dir.to_str().unwrap(),
            "--json",
            "-q",
        ],
        &m,
        &[],
    ));
    assert!(again.status.success(), "{again:?}");
    let resumed: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(resumed["conduct"], summary["conduct"]);
    assert_none_left(&m);
}

#[test]
fn bad_limits_names_and_impossible_strict_mode_are_usage_errors() {
    let m = mark("usage");
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, &'a str);
    let mut cases: Vec<Case> = vec![
        (
            vec!["play", "--memory-limit", "lots"],
            vec![],
            "--memory-limit 'lots'",
        ),
        (
            vec!["play", "--cpu-limit", "5ms"],
            vec![],
            "--cpu-limit '5ms'",
        ),
        (
            vec!["play", "--process-limit", "0"],
            vec![],
            "--process-limit '0'",
        ),
        (
            vec!["play", "--sandbox", "paranoid"],
            vec![],
            "--sandbox 'paranoid'",
        ),
        (
            vec!["play", "--freeze-idle", "maybe"],
            vec![],
            "--freeze-idle 'maybe'",
        ),
        (
            vec!["play", "--white-name", "a\u{1b}b"],
            vec![],
            "control character",
        ),
        (
            vec!["match", "--memory-limit", "1K", "--games", "2"],
            vec![],
            "--memory-limit '1K'",
        ),
        (
            vec!["play", "--sandbox", "strict"],
            vec![("ZEBRA_SANDBOX_DISABLE", "namespaces,cgroups")],
            "--sandbox strict: this machine lacks",
        ),
        (
            vec!["play", "--sandbox", "strict"],
            vec![("ZEBRA_SANDBOX_DISABLE", "seccomp")],
            // Named last of what is missing: alone as root ("lacks seccomp;"), after the
            // cgroups an unprivileged user cannot write ("... and seccomp;").
            "seccomp; run with --sandbox auto",
        ),
        (
            vec!["play", "--disk-limit", "1K"],
            vec![],
            "--disk-limit '1K'",
        ),
    ];
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        // Only root gives bots host ids of their own.
        cases.push((
            vec!["play"],
            vec![("ZEBRA_BOT_UIDS", "0-100")],
            "ZEBRA_BOT_UIDS '0-100': write a range of user ids",
        ));
    }
    for (args, env, expected) in cases {
        let out = run(&mut zebra(&args, &m, &env));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn doctor_names_every_level() {
    let out = Command::new(ZEBRA).arg("doctor").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "sandbox level (auto): rlimits, ",
        "PID, network, mount, IPC, UTS and cgroup namespaces: ",
        "an ordinary user without capabilities: ",
        "its own read-only view (pivot_root; no /sys, so no cgroup file system): ",
        "a fresh /proc of its own processes: ",
        "seccomp filter: ",
        "Landlock (second file, signal and TCP layer): ",
        "cgroup memory: ",
        "cgroup pids: ",
        "cgroup freezer: ",
        "default limits per bot: memory=1 GiB",
        "--sandbox strict: ",
    ] {
        assert!(text.contains(line), "missing '{line}':\n{text}");
    }
}

/// The `cpus: ...` line a test bot with `--report-cpus` left in `logs/file`.
fn cpus_said(logs: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(logs.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .find_map(|l| l.strip_prefix("cpus: ").map(str::to_string))
        .unwrap_or_else(|| panic!("{file}: {text}"))
}

/// Plays a walled game of two sleepy bots with `env` and returns, for each bot's keeper and
/// init (by their arguments: older kernels name a process exec'd through a descriptor by
/// the descriptor's number), its second argument and its parent (`zebra`, or `keeper`:
/// another of them), once four are seen.
fn keeper_roles(name: &str, env: &[(&str, &str)]) -> Vec<(String, &'static str)> {
    let m = mark(name);
    let bot = format!("{TEST_BOT} --sleep-ms 300");
    let mut game = zebra(
        &[
            "play",
            "--white",
            &bot,
            "--black",
            &bot,
            "--tc",
            "plays=1,play=5s,reaction=5s",
            "-q",
        ],
        &m,
        env,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let zebra_pid = game.id().to_string();
    let roles = || {
        let keepers: Vec<(String, String, String)> = marked(&m)
            .iter()
            .filter_map(|p| p.split_whitespace().next())
            .filter_map(|pid| {
                let line = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
                let mut args = line.split(|&b| b == 0);
                if args.next() != Some(b"zebra-keeper") {
                    return None;
                }
                let role = String::from_utf8_lossy(args.next().unwrap_or_default()).into();
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                let parent = stat
                    .rsplit_once(") ")?
                    .1
                    .split_whitespace()
                    .nth(1)?
                    .to_string();
                Some((pid.to_string(), role, parent))
            })
            .collect();
        let mut roles: Vec<(String, &'static str)> = keepers
            .iter()
            .map(|(_, role, parent)| {
                let of = if *parent == zebra_pid {
                    "zebra"
                } else if keepers.iter().any(|(pid, _, _)| pid == parent) {
                    "keeper"
                } else {
                    "other"
                };
                (role.clone(), of)
            })
            .collect();
        roles.sort();
        roles
    };
    // Both bots running (exec'd: no copy of a launcher that is about to become a bot is
    // left to count), then their four keepers and inits.
    let bots = || {
        marked(&m)
            .iter()
            .filter_map(|p| p.split_whitespace().next())
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| c.starts_with(TEST_BOT.as_bytes()))
            })
            .count()
    };
    let mut seen = Vec::new();
    let four = wait_until(Duration::from_secs(20), || {
        seen = roles();
        bots() == 2 && seen.len() == 4
    });
    let _ = game.kill();
    let _ = game.wait();
    assert!(four, "{name}: {seen:?}");
    assert_none_left(&m);
    seen
}

#[test]
fn a_walled_bot_is_launched_through_the_keeper_program() {
    if !namespaces_here() {
        eprintln!("skipped: no namespaces here");
        return;
    }
    let role = |r: &str, of| (r.to_string(), of);
    // Each bot's keeper is the launcher Zebra spawned (no fork of Zebra holding its memory),
    // and its init a fork of it.
    assert_eq!(
        keeper_roles("launch", &[]),
        [
            role("launch", "keeper"),
            role("launch", "keeper"),
            role("launch", "zebra"),
            role("launch", "zebra")
        ]
    );
    // Launches turned off: forks of Zebra that exec the program once set up.
    assert_eq!(
        keeper_roles("keeper", &[("ZEBRA_SANDBOX_DISABLE", "launch")]),
        [
            role("init", "keeper"),
            role("init", "keeper"),
            role("keep", "zebra"),
            role("keep", "zebra")
        ]
    );
}

/// Runs the launcher by hand the way Zebra does, `zebra-keeper launch 3 4 /bin/sh sh -c
/// ...` (a bot that prints `$GREETING` and `$HOME`), with `plan` on descriptor 3 (`PARENT`
/// in it replaced by the shell's pid, the launcher's parent) and the report on 4. Returns
/// what the shell printed and the report.
fn launch_by_hand(name: &str, plan: &str) -> (String, String) {
    launch_by_hand_running(
        name,
        plan,
        "/bin/sh sh -c 'echo \"$GREETING\" \"${HOME:-no home}\"'",
    )
}

/// [`launch_by_hand`] with `program` (the launcher's arguments after its descriptors).
fn launch_by_hand_running(name: &str, plan: &str, program: &str) -> (String, String) {
    let dir = scratch(name);
    std::fs::write(dir.join("plan.in"), plan).unwrap();
    let script = format!(
        "sed \"s/PARENT/$$/\" plan.in > plan; {} launch 3 4 {program} 3<plan 4>report; echo \"rc=$?\"",
        env!("CARGO_BIN_EXE_zebra-keeper")
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(&dir)
        .output()
        .unwrap();
    let report = std::fs::read(dir.join("report")).unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&report).into_owned(),
    )
}

#[test]
fn the_launcher_execs_the_bot_once_set_up_and_reports_what_stopped_it() {
    // A plan without namespaces (the parent check alone): the program runs with the plan's
    // environment and nothing of the launcher's, nothing is reported.
    let bare = r#"{"join":[],"rlimits":[],"namespaces":null}"#;
    let plan = format!(r#"[PARENT,null,["GREETING=walled"],{bare},null]"#);
    let (out, report) = launch_by_hand("launch-ok", &plan);
    assert_eq!(
        (out.as_str(), report.as_str()),
        ("walled no home\nrc=0\n", "")
    );
    // Another parent than the plan's: the bot does not start, and the report says why.
    let (out, report) = launch_by_hand("launch-parent", &format!("[1,null,[],{bare},null]"));
    assert_eq!(out, "rc=127\n");
    assert!(report.contains("the referee is gone"), "{report:?}");
    // A staged start (a release descriptor) without a wall to wait behind: refused.
    let (out, report) = launch_by_hand("launch-held", &format!("[PARENT,null,[],{bare},5]"));
    assert_eq!(out, "rc=127\n");
    assert!(report.contains("without a wall"), "{report:?}");
    // A plan it cannot read.
    let (out, report) = launch_by_hand("launch-garbage", "not a plan");
    assert_eq!(out, "rc=127\n");
    assert!(report.contains("its plan"), "{report:?}");
    // No program: reported too (an empty report would count as a bot started).
    let (out, report) = launch_by_hand_running("launch-none", "[]", "");
    assert_eq!(out, "rc=127\n");
    assert!(report.contains("no program"), "{report:?}");
    // Without its descriptors: one line of usage, nothing run.
    let out = Command::new(env!("CARGO_BIN_EXE_zebra-keeper"))
        .arg("launch")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("run by Zebra only"));
}

#[test]
fn a_bot_holds_no_descriptor_but_its_stdio_however_it_was_started() {
    // Launched and forked, each with namespaces and with cgroups and rlimits alone. (With
    // `--sandbox none` a bot inherits what Zebra itself inherited open, as any child does.)
    for (name, disable) in [
        ("fds-launched", ""),
        ("fds-launched-bare", "namespaces"),
        ("fds-forked", "launch"),
        ("fds-forked-bare", "launch,namespaces"),
    ] {
        let dir = scratch(name);
        let m = mark(name);
        let bot = format!("a={TEST_BOT} --attack fds");
        let logs = dir.join("logs");
        let out = run(&mut zebra(
            &[
                "match",
                "--bot",
                &bot,
                "--bot",
                &bot.replacen("a=", "b=", 1),
                "--games",
                "2",
                "--tc",
                "plays=1,play=10s,reaction=10s",
                "-q",
                "--out",
                dir.join("s").to_str().unwrap(),
                "--log-dir",
                logs.to_str().unwrap(),
            ],
            &m,
            &[("ZEBRA_SANDBOX_DISABLE", disable)],
        ));
        assert!(out.status.success(), "{name}: {out:?}");
        for side in ["white", "black"] {
            let file = logs.join(format!("game-0001.{side}.stderr"));
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(
                text.lines().any(|l| l == "attack fds: none"),
                "{name}: {}: {text}",
                file.display()
            );
        }
        assert_none_left(&m);
    }
}

/// `zebra match` of bots `a` and `b` (`NAME=COMMAND`), `games` games one at a time at
/// `plays=1`, every game's logs kept in `logs`, with `extra` flags and `env`.
fn logged_match(
    bots: [&str; 2],
    games: usize,
    out_dir: &Path,
    logs: &Path,
    extra: &[&str],
    m: &str,
    env: &[(&str, &str)],
) -> Output {
    let games = games.to_string();
    let mut args = vec![
        "match",
        "--bot",
        bots[0],
        "--bot",
        bots[1],
        "--games",
        &games,
        "--concurrency",
        "1",
        "--tc",
        "plays=1,play=2s,reaction=2s",
        "-q",
        "--out",
        out_dir.to_str().unwrap(),
        "--log-dir",
        logs.to_str().unwrap(),
    ];
    args.extend(extra);
    run(&mut zebra(&args, m, env))
}

#[test]
fn affinity_pins_each_games_bots_to_cpus_of_their_own() {
    let allowed = zebra::bench::allowed_cpus();
    if allowed.len() < 2 {
        eprintln!("skipped: --affinity needs two CPUs; this process may use {allowed:?}");
        return;
    }
    let dir = scratch("affinity");
    let m = mark("affinity");
    let a = format!("a={TEST_BOT} --report-cpus");
    let b = format!("b={TEST_BOT} --report-cpus");
    let out_dir = dir.join("s");
    let logs = dir.join("logs");
    let out = logged_match([&a, &b], 2, &out_dir, &logs, &["--affinity"], &m, &[]);
    assert!(out.status.success(), "{out:?}");
    let said = |file: &str| cpus_said(&logs, file);
    for game in ["game-0001", "game-0002"] {
        assert_eq!(
            said(&format!("{game}.white.stderr")),
            allowed[0].to_string()
        );
        assert_eq!(
            said(&format!("{game}.black.stderr")),
            allowed[1].to_string()
        );
    }
    assert_none_left(&m);
}

/// Each game's `(White, Black)` names, in the order of `games.pgn`.
fn sides_of(pgn: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .map(str::to_string)
    };
    let (mut out, mut white) = (Vec::new(), None);
    for line in text.lines() {
        if let Some(w) = tag(line, "White") {
            white = Some(w);
        } else if let Some(b) = tag(line, "Black") {
            out.push((white.take().unwrap(), b));
        }
    }
    out
}

/// Each start's network namespace, as the test bot's `--report-netns` said it, by the
/// bot's name, in the order of the games of `pgn` (logs in `logs`).
fn namespaces_of(pgn: &Path, logs: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let said = |file: &str| {
        let text = std::fs::read_to_string(logs.join(file)).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("netns: ").map(str::to_string))
            .unwrap_or_else(|| panic!("{file}: {text}"))
    };
    let mut of: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (i, (white, black)) in sides_of(pgn).iter().enumerate() {
        let w = said(&format!("game-{:04}.white.stderr", i + 1));
        let b = said(&format!("game-{:04}.black.stderr", i + 1));
        assert!(!w.contains("unknown") && !b.contains("unknown"), "{w} {b}");
        // The two bots of a game never share one.
        assert_ne!(w, b, "game {}", i + 1);
        of.entry(white.clone()).or_default().push(w);
        of.entry(black.clone()).or_default().push(b);
    }
    of
}

#[test]
fn a_bot_s_network_namespace_is_kept_for_its_own_next_games_only() {
    let doctor = Command::new(ZEBRA)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    let pids = v["cgroups"]["pids"].as_str().is_some_and(|p| !p.is_empty());
    if v["namespaces"] != true || v["user_namespace"] != false || !pids {
        eprintln!("skipped: kept network namespaces need root, namespaces and a pids group");
        return;
    }
    let dir = scratch("netns");
    let m = mark("netns");
    // The same program for both: only the bot (its name) tells their namespaces apart.
    let a = format!("a={TEST_BOT} --report-netns --sleep-ms 50");
    let b = format!("b={TEST_BOT} --report-netns --sleep-ms 50");
    let games = 8;
    let pgn = dir.join("s").join("games.pgn");
    let out = logged_match(
        [&a, &b],
        games,
        &dir.join("s"),
        &dir.join("logs"),
        &[],
        &m,
        &[],
    );
    assert!(out.status.success(), "{out:?}");
    let of = namespaces_of(&pgn, &dir.join("logs"));
    let (a_ns, b_ns) = (&of["a"], &of["b"]);
    assert_eq!((a_ns.len(), b_ns.len()), (games, games));
    // Never one of a's for b, in any game.
    assert!(a_ns.iter().all(|n| !b_ns.contains(n)), "{a_ns:?} {b_ns:?}");
    // Kept and joined again: fewer namespaces than games (each next game is staged while
    // one plays, so a bot may hold two).
    for ns in [a_ns, b_ns] {
        let distinct: std::collections::BTreeSet<&String> = ns.iter().collect();
        assert!(distinct.len() < games, "{ns:?}");
    }
    // Turned off, every start makes its own.
    let env = [("ZEBRA_SANDBOX_DISABLE", "netpool")];
    let (off, logs_off) = (dir.join("s-off"), dir.join("logs-off"));
    let out = logged_match([&a, &b], 4, &off, &logs_off, &[], &m, &env);
    assert!(out.status.success(), "{out:?}");
    let of = namespaces_of(&off.join("games.pgn"), &logs_off);
    let all: Vec<&String> = of.values().flatten().collect();
    if all.iter().all(|n| n.starts_with("cookie")) {
        // Cookies are never given twice (inode numbers are, once a namespace is gone).
        let distinct: std::collections::BTreeSet<&&String> = all.iter().collect();
        assert_eq!(distinct.len(), 8, "{all:?}");
    }
    assert_none_left(&m);
}

#[test]
fn without_its_view_a_bot_of_its_own_user_writes_its_temp_files() {
    let doctor = Command::new(ZEBRA)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    if v["namespaces"] != true || v["wall"]["own_user"] != true {
        eprintln!("skipped: needs namespaces and a user of its own for each bot");
        return;
    }
    let dir = scratch("no-view-tmp");
    let m = mark("no-view-tmp");
    let writer = format!("{TEST_BOT} --write-mb 1");
    let logs = dir.join("logs");
    let out = run(&mut zebra(
        &[
            "play",
            "--white",
            &writer,
            "--black",
            TEST_BOT,
            "--tc",
            "plays=1,play=2s,reaction=2s",
            "-q",
            "--log-dir",
            logs.to_str().unwrap(),
        ],
        &m,
        &[("ZEBRA_SANDBOX_DISABLE", "view")],
    ));
    assert!(out.status.success(), "{out:?}");
    let white = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".white.stderr"))
        .unwrap();
    let text = std::fs::read_to_string(white).unwrap();
    // Its temp files' tmpfs is its own user's (it was root's, 0700: "Permission denied").
    assert!(text.contains("file: written"), "{text}");
    assert_none_left(&m);
}

/// The CPUs this process may use, where `--affinity auto` pins games (two CPUs or more, a
/// cgroup freezer); `None`, said, elsewhere.
fn cpus_auto_pins() -> Option<Vec<usize>> {
    let allowed = zebra::bench::allowed_cpus();
    if allowed.len() < 2 {
        eprintln!("skipped: needs two CPUs; this process may use {allowed:?}");
        return None;
    }
    if zebra::sandbox::level().cgroups.freezer.is_none() {
        eprintln!("skipped: auto pins games only where a cgroup freezer stops idle bots");
        return None;
    }
    Some(allowed)
}

#[test]
fn by_default_each_game_at_once_runs_on_a_cpu_of_its_own_with_both_its_bots() {
    let Some(allowed) = cpus_auto_pins() else {
        return;
    };
    let dir = scratch("auto-affinity");
    // Its own directory of CPU claims (TMPDIR): the other tests' games claim none of it.
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let m = mark("auto-affinity");
    let a = format!("a={TEST_BOT} --report-cpus");
    let b = format!("b={TEST_BOT} --report-cpus");
    let logs = dir.join("logs");
    let all = allowed
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let series = |affinity: &[&str], out: &str| {
        let out_dir = dir.join(out);
        let mut args = vec![
            "match",
            "--bot",
            &a,
            "--bot",
            &b,
            "--games",
            "2",
            "--concurrency",
            "2",
            "--tc",
            "plays=1,play=5s,reaction=5s",
            "-q",
            "--out",
            out_dir.to_str().unwrap(),
            "--log-dir",
            logs.to_str().unwrap(),
        ];
        args.extend(affinity);
        let out = run(&mut zebra(&args, &m, &[("TMPDIR", tmp.to_str().unwrap())]));
        assert!(out.status.success(), "{out:?}");
    };
    series(&[], "auto");
    let mut used = Vec::new();
    for game in ["game-0001", "game-0002"] {
        let white = cpus_said(&logs, &format!("{game}.white.stderr"));
        let black = cpus_said(&logs, &format!("{game}.black.stderr"));
        assert_eq!(white, black, "{game}: both bots on the game's CPU");
        assert!(
            allowed.iter().any(|c| c.to_string() == white),
            "{game}: {white}"
        );
        used.push(white);
    }
    // The two games ran at once, each on a CPU of its own.
    assert_ne!(used[0], used[1]);
    // Claims end with the games: a second series gets the same CPUs back.
    std::fs::remove_dir_all(&logs).unwrap();
    series(&["--affinity", "game"], "game");
    let again: Vec<String> = ["game-0001", "game-0002"]
        .iter()
        .map(|g| cpus_said(&logs, &format!("{g}.white.stderr")))
        .collect();
    assert_eq!(again, used);
    // --affinity none: every bot may run anywhere.
    std::fs::remove_dir_all(&logs).unwrap();
    series(&["--affinity", "none"], "none");
    assert_eq!(cpus_said(&logs, "game-0001.white.stderr"), all);
    // Freeze-idle off: auto pins nothing (a bot may think while the other does).
    std::fs::remove_dir_all(&logs).unwrap();
    series(&["--freeze-idle", "off"], "unfrozen");
    assert_eq!(cpus_said(&logs, "game-0002.black.stderr"), all);
    // Without the sandbox idle bots are stopped by signals, which a child in a session of
    // its own escapes: not sequential, so auto pins nothing.
    std::fs::remove_dir_all(&logs).unwrap();
    series(&["--sandbox", "none"], "bare");
    assert_eq!(cpus_said(&logs, "game-0001.black.stderr"), all);
    assert_none_left(&m);
}

#[test]
fn zebra_play_runs_its_game_on_one_cpu_and_leaves_a_claimed_cpu_alone() {
    let Some(allowed) = cpus_auto_pins() else {
        return;
    };
    let dir = scratch("play-affinity");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let m = mark("play-affinity");
    let bot = format!("{TEST_BOT} --report-cpus");
    let logs = dir.join("logs");
    let play = || {
        let out = run(&mut zebra(
            &[
                "play",
                "--white",
                &bot,
                "--black",
                &bot,
                "--tc",
                "plays=1,play=5s,reaction=5s",
                "-q",
                "--log-dir",
                logs.to_str().unwrap(),
            ],
            &m,
            &[("TMPDIR", tmp.to_str().unwrap())],
        ));
        assert!(out.status.success(), "{out:?}");
        let said = |side: &str| {
            let file = std::fs::read_dir(&logs)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.to_string_lossy().ends_with(&format!("{side}.stderr")))
                .unwrap_or_else(|| panic!("no {side} log in {}", logs.display()));
            let name = file.file_name().unwrap().to_str().unwrap().to_string();
            cpus_said(&logs, &name)
        };
        let (white, black) = (said("white"), said("black"));
        std::fs::remove_dir_all(&logs).unwrap();
        assert_eq!(white, black);
        white
    };
    assert_eq!(play(), allowed[0].to_string());
    // Another game of this machine holds the first CPU: the next free one is taken.
    let held = zebra::series::placement::claim_in(&tmp.join("zebra-cpus"), allowed[0], &allowed)
        .expect("the first CPU is free");
    assert_eq!(held.cpu, allowed[0]);
    assert_eq!(play(), allowed[1].to_string());
    drop(held);
    assert_none_left(&m);
}

#[test]
fn a_user_without_root_gets_a_user_namespace_and_an_address_space_limit() {
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
    let pgn = dir.join("g.pgn");
    let m = mark("nobody");
    let forker = format!("{TEST_BOT} --fork-setsid");
    let hog = format!("{TEST_BOT} --memory-mb 600");
    let out = run(Command::new(setpriv)
        .args([
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            "--",
        ])
        .args([ZEBRA, "play", "-q", "--memory-limit", "256M"])
        .args(["--white", &forker, "--black", &hog])
        .args(["--pgn", pgn.to_str().unwrap()])
        .env("ZEBRA_TEST_MARK", &m));
    let record =
        std::fs::read_to_string(&pgn).unwrap_or_else(|e| panic!("no record ({e}): {out:?}"));
    let tag = record
        .lines()
        .find(|l| l.starts_with("[Sandbox "))
        .unwrap_or_else(|| panic!("{record}"));
    if tag.contains("subreaper") {
        eprintln!("skipped: this kernel refuses user namespaces to unprivileged users ({tag})");
    } else {
        assert!(
            tag.contains("user+pid+net+mount+ipc+uts+cgroup namespaces"),
            "{tag}"
        );
    }
    // No cgroup is writable for 'nobody': the memory limit is an address-space limit, and
    // the hog's allocation fails (a crash, not a memory-limit verdict).
    assert!(!tag.contains("cgroup v"), "{tag}");
    assert!(record.contains("[BlackVerdict \"crashed\"]"), "{record}");
    assert_none_left(&m);
}

#[test]
fn in_a_real_terminal_a_hostile_bot_s_text_arrives_escaped() {
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("skipped: no 'script' to give Zebra a terminal");
        return;
    }
    let dir = scratch("tty");
    let m = mark("tty");
    let typescript = dir.join("typescript");
    // A bot with escape sequences in its ready, its log line, its replies and its stderr,
    // which it leaves by crashing: Zebra prints the crash reason with that stderr.
    let command = format!(
        "{ZEBRA} play --white '{TEST_BOT} --control-chars --crash-after 1' --tc plays=1,play=2s,reaction=2s"
    );
    let out = run(Command::new(script)
        .args(["-qec", &command])
        .arg(&typescript)
        .env("ZEBRA_TEST_MARK", &m));
    let seen = std::fs::read(&typescript).unwrap();
    let text = String::from_utf8_lossy(&seen);
    assert!(text.contains("crashed with exit code 3"), "{out:?}\n{text}");
    // Zebra itself prints no escape sequences; every one of the bot's arrived escaped.
    assert!(
        !seen.contains(&0x1b),
        "a raw ESC reached the terminal:\n{text}"
    );
    assert!(text.contains("\\u001b[31mred"), "{text}");
    assert_none_left(&m);
}

/// The CPUs of marked processes that are staged bots: launched (`zebra-keeper launch`, not
/// yet their program) and waiting on their release pipe.
fn staged_bots(m: &str) -> Vec<String> {
    marked(m)
        .iter()
        .filter_map(|p| p.split_whitespace().next())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.starts_with(b"zebra-keeper\0launch\0"))
                && std::fs::read_to_string(format!("/proc/{pid}/wchan"))
                    .is_ok_and(|w| w.contains("pipe_read"))
        })
        .filter_map(|pid| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|c| c.trim().to_string())
        })
        .collect()
}

/// Whether no Zebra whose temp directory is `tmp` claims CPU `cpu` now (its lock file is
/// free; taken and let go at once).
fn unclaimed(tmp: &Path, cpu: &str) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(file) = std::fs::File::open(tmp.join("zebra-cpus").join(format!("cpu-{cpu}.lock")))
    else {
        return true;
    };
    // SAFETY: flock on a descriptor we own; the lock goes with the file.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// A one-game-at-a-time series of two slow test bots in `dir/out`, with `env`: returns the
/// running `zebra match`.
fn slow_series(dir: &Path, out: &str, m: &str, env: &[(&str, &str)]) -> std::process::Child {
    let a = format!("a={TEST_BOT} --report-cpus --sleep-ms 100");
    let b = format!("b={TEST_BOT} --report-cpus --sleep-ms 100");
    let out_dir = dir.join(out);
    let logs = dir.join(format!("{out}-logs"));
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut env = env.to_vec();
    env.push(("TMPDIR", tmp.to_str().unwrap()));
    zebra(
        &[
            "match",
            "--bot",
            &a,
            "--bot",
            &b,
            "--games",
            "4",
            "--concurrency",
            "1",
            "--situations",
            "none",
            "--tc",
            "plays=1,play=5s,reaction=5s",
            "-q",
            "--out",
            out_dir.to_str().unwrap(),
            "--log-dir",
            logs.to_str().unwrap(),
        ],
        m,
        &env,
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap()
}

#[test]
fn a_series_stages_each_next_games_bots_on_a_spare_cpu_and_plays_the_same_games() {
    let Some(allowed) = cpus_auto_pins() else {
        return;
    };
    if !namespaces_here() {
        eprintln!("skipped: staging needs a wall to hold a bot behind");
        return;
    }
    let dir = scratch("staging");
    let m = mark("staging");
    let mut series = slow_series(&dir, "staged", &m, &[]);
    // While a game plays, the next one's two bots wait, walled, on a CPU no game uses; that
    // CPU is claimed only while they are set up, not while they wait.
    let mut held = Vec::new();
    let mut claimable = false;
    let seen = wait_until(Duration::from_secs(60), || {
        let now = staged_bots(&m);
        if now.len() == 2 {
            held = now;
            claimable = held.iter().all(|cpu| unclaimed(&dir.join("tmp"), cpu));
        }
        claimable || series.try_wait().unwrap().is_some()
    });
    let status = series.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(seen && held.len() == 2, "no staged bots seen: {held:?}");
    assert!(
        claimable,
        "the spare CPU stayed claimed while its bots waited"
    );
    // Released onto the game's CPU: every bot of every game ran where its referee did.
    let logs = dir.join("staged-logs");
    let game_cpu = cpus_said(&logs, "game-0001.white.stderr");
    assert!(
        held.iter().all(|c| *c != game_cpu),
        "{held:?} vs {game_cpu}"
    );
    assert!(allowed.iter().any(|c| c.to_string() == game_cpu));
    for game in 1..=4 {
        for side in ["white", "black"] {
            let said = cpus_said(&logs, &format!("game-{game:04}.{side}.stderr"));
            assert_eq!(said, game_cpu, "game {game}, {side}");
        }
    }
    // The same games as without staging, byte for byte.
    let mut plain = slow_series(&dir, "plain", &m, &[("ZEBRA_SANDBOX_DISABLE", "stage")]);
    let mut plain_held = Vec::new();
    wait_until(Duration::from_secs(60), || {
        plain_held.extend(staged_bots(&m));
        plain.try_wait().unwrap().is_some()
    });
    assert!(plain.wait().unwrap().success());
    assert!(
        plain_held.is_empty(),
        "staged though turned off: {plain_held:?}"
    );
    let pgn = |out: &str| std::fs::read(dir.join(out).join("games.pgn")).unwrap();
    assert_eq!(pgn("staged"), pgn("plain"));
    assert_none_left(&m);
    let dirs = leftover_dirs(&dir.join("tmp"));
    let left: Vec<String> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().flatten())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with("zebra-") && n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_series_stopped_while_a_game_is_staged_leaves_nothing_and_resumes_it() {
    if cpus_auto_pins().is_none() || !namespaces_here() {
        return;
    }
    let dir = scratch("staging-stop");
    let m = mark("staging-stop");
    let mut series = slow_series(&dir, "out", &m, &[]);
    let mut run = None;
    let seen = wait_until(Duration::from_secs(60), || {
        run = run.take().or_else(|| run_of(series.id()));
        staged_bots(&m).len() == 2 || series.try_wait().unwrap().is_some()
    });
    assert!(
        seen && series.try_wait().unwrap().is_none(),
        "no staged bots seen"
    );
    // A first Ctrl-C: the game playing ends and is recorded; the staged one goes unplayed.
    // SAFETY: kill only sends a signal.
    unsafe {
        libc::kill(series.id() as i32, libc::SIGINT);
    }
    // Interrupted: 130, as a shell says of a Ctrl-C.
    let status = series.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert_none_left(&m);
    let run = run.expect("the series' run id");
    let left = left_by(&run, &leftover_dirs(&dir.join("tmp")));
    assert!(left.is_empty(), "{left:?}");
    let pgn = std::fs::read_to_string(dir.join("out").join("games.pgn")).unwrap();
    let played = pgn.matches("[Game \"").count();
    assert!((1..4).contains(&played), "{played} games recorded");
    // Resumed, the staged game and the rest are played.
    let out = run_in(
        &dir,
        &m,
        &["match", "--resume", dir.join("out").to_str().unwrap(), "-q"],
    );
    assert!(out.status.success(), "{out:?}");
    let pgn = std::fs::read_to_string(dir.join("out").join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Game \"").count(), 4, "{pgn}");
    assert_none_left(&m);
}

/// `zebra ARGS` marked, with `dir/tmp` as its temp directory, run to its end.
fn run_in(dir: &Path, m: &str, args: &[&str]) -> Output {
    run(&mut zebra(
        args,
        m,
        &[("TMPDIR", dir.join("tmp").to_str().unwrap())],
    ))
}
