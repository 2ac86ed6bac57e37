//! `zebra worker` as an organiser runs it: real daemon and worker processes on loopback,
//! real bots, real HTTP. Remote workers and the daemon's own share a series, one worker is
//! SIGKILLed mid-game, and every game is counted exactly once with the results `zebra
//! match` gets; the daemon counts only a record that is the game leased and replays; a
//! worker's figures, tags and metrics; a graceful stop.
//!
//! Every wait has a generous deadline; nothing asserted depends on the machine's speed.

mod common;
#[path = "common/openapi.rs"]
mod openapi;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use common::daemon::*;
use common::http::http;
use common::run::{scratch, text, ZEBRA};

/// A running `zebra worker`; killed and reaped when dropped.
struct Worker {
    child: Child,
    /// Everything it wrote to stderr so far.
    log: Arc<Mutex<String>>,
    /// The thread that reads its stderr (done once the worker has exited).
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Worker {
    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Waits for the worker to exit: its exit status and everything it wrote.
    fn exited(&mut self) -> (std::process::ExitStatus, String) {
        let status = self.child.wait().unwrap();
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        (status, self.log())
    }
}

/// `zebra worker --server BASE --token-file TOKEN --name NAME --cache DIR/NAME EXTRA...`.
fn start_worker(base: &str, token: &Path, name: &str, dir: &Path, extra: &[&str]) -> Worker {
    let mut child = Command::new(ZEBRA)
        .args(["worker", "--server", base, "--name", name])
        .arg("--token-file")
        .arg(token)
        .arg("--cache")
        .arg(dir.join(format!("cache-{name}")))
        .args(extra)
        .env(WEAK, "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let log = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&log);
    // Drained all the time: a full pipe would stall the worker.
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
            sink.lock().unwrap().push_str(&line);
            line.clear();
        }
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
        sink.lock().unwrap().push_str(&rest);
    });
    Worker {
        child,
        log,
        reader: Some(reader),
    }
}

/// A worker token for `owner`, in a file.
fn worker_token(data: &Path, dir: &Path, owner: &str) -> (String, PathBuf) {
    let t = token(data, "worker", owner);
    let file = dir.join(format!("{owner}.token"));
    std::fs::write(&file, format!("{t}\n")).unwrap();
    (t, file)
}

/// A daemon settings file (leases of `lease`, `attempts` attempts per game).
fn settings(dir: &Path, lease: &str, attempts: u32) -> PathBuf {
    let file = dir.join("serve.toml");
    std::fs::write(
        &file,
        format!("lease = \"{lease}\"\nmax_attempts = {attempts}\n"),
    )
    .unwrap();
    file
}

/// The workers' operations of protocol/openapi.json called so far, as `METHOD TEMPLATE`.
static CALLED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// One call of a workers' route, its answer checked against protocol/openapi.json:
/// (status, JSON answer or null).
fn call(
    base: &str,
    method: &str,
    template: &str,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let text = body.map(Value::to_string);
    let answer = http(
        base,
        method,
        path,
        Some(token),
        &[("Content-Type", "application/json")],
        text.as_deref().map(str::as_bytes),
    );
    openapi::check_answer(&openapi::openapi(), method, template, &answer);
    CALLED.lock().unwrap().push(format!("{method} {template}"));
    (
        answer.0,
        serde_json::from_str(&answer.2).unwrap_or(Value::Null),
    )
}

/// POST a JSON body to a workers' route (path = template).
fn post(base: &str, path: &str, token: &str, body: &Value) -> (u16, Value) {
    call(base, "POST", path, path, token, Some(body))
}

/// The games of series `id`, by number.
fn games(base: &str, token: &str, id: i64) -> Vec<Value> {
    get_json(
        base,
        &format!("/api/v1/series/{id}/games?limit=1000"),
        token,
    )["games"]
        .as_array()
        .unwrap()
        .clone()
}

/// A record's tag value.
fn tag<'a>(record: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    record
        .lines()
        .find_map(|l| l.strip_prefix(&start))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

#[test]
fn two_remote_workers_and_the_daemon_s_own_count_every_game_once_when_one_is_killed_mid_game() {
    let dir = scratch("workers-kill");
    let data = dir.join("data");
    // Bots that take some 40 ms per decision: a game lasts seconds, so a worker killed
    // while it plays one is killed mid-game. Activated by the admin (no check needed).
    for name in ["slow-a", "slow-b"] {
        admin(
            &data,
            &[
                "bot",
                "add",
                name,
                "--",
                "zebra-test-bot",
                "--sleep-ms",
                "40",
                "--name",
                name,
            ],
        );
    }
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let ann = token(&data, "submit", "ann");
    let (_, lab) = worker_token(&data, &dir, "lab");
    // Long leases: a lease of the killed worker stays visible while the test looks.
    let config = settings(&dir, "30s", 3);
    let daemon = start(
        &data,
        &["--concurrency", "1", "--config", config.to_str().unwrap()],
    );
    let base = daemon.base.clone();
    let mut w1 = start_worker(&base, &lab, "w1", &dir, &["--same-programs"]);
    let mut w2 = start_worker(&base, &lab, "w2", &dir, &["--same-programs"]);
    let (status, created) = submit(
        &base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 12, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();

    // w1 killed while it holds a game: stopped (SIGSTOP) while its log says it plays one,
    // then, if the daemon shows a game leased to it a moment later (no report of it can
    // still be on its way), SIGKILLed; else let go on and tried again.
    let playing = wait_for("w1 holding a game", Duration::from_secs(240), || {
        let log = w1.log();
        let last = log
            .lines()
            .rev()
            .find(|l| l.contains("playing game") || l.contains("reported game"))?;
        if !last.contains("playing game") {
            return None;
        }
        signal(&w1.child, libc::SIGSTOP);
        std::thread::sleep(Duration::from_secs(1));
        let held = games(&base, &ann, id)
            .into_iter()
            .find(|g| g["state"] == "leased" && g["worker"] == "lab/w1");
        match held {
            Some(g) => {
                w1.child.kill().unwrap(); // SIGKILL
                Some(g["number"].as_u64().unwrap())
            }
            None => {
                signal(&w1.child, libc::SIGCONT);
                std::thread::sleep(Duration::from_millis(200));
                None
            }
        }
    });
    w1.child.wait().unwrap();

    let done = wait_series_end(&base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}");
    assert_eq!(done["progress"]["finished"], 12, "{done}");
    assert_eq!(done["progress"]["void"], 0, "{done}");
    // The games a single `zebra match` plays, counted once each.
    // (Their sleep in the daemon's registration changes no move: the games are the same.)
    let matched = match_of(
        &dir,
        12,
        [
            "slow-a=zebra-test-bot --name slow-a",
            "slow-b=zebra-test-bot --name slow-b",
        ],
    );
    assert_eq!(statistics(&done["summary"]), statistics(&matched));
    assert_eq!(verify_records(&base, &ann, id, &dir), 12);
    let rows = games(&base, &ann, id);
    let numbers: Vec<u64> = rows.iter().map(|g| g["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=12).collect::<Vec<u64>>());
    assert!(rows.iter().all(|g| g["state"] == "finished"), "{rows:?}");

    // The killed worker's game: its lease ran out, it was played again by another.
    let lost = &rows[playing as usize - 1];
    assert!(lost["voided"].as_u64().unwrap() >= 1, "{lost}");
    assert_ne!(lost["worker"], "lab/w1", "{lost}");
    let (status, _, record) = http(
        &base,
        "GET",
        &format!("/api/v1/games/{}/pgn", lost["id"]),
        Some(&ann),
        &[],
        None,
    );
    assert_eq!(status, 200);
    assert_ne!(tag(&record, "Worker"), Some("lab/w1"), "{record}");

    // Every record names the worker that played it; the figures add up to the games.
    let workers = get_json(&base, "/api/v1/workers", &ann)["workers"]
        .as_array()
        .unwrap()
        .clone();
    let by_name = |name: &str| workers.iter().find(|w| w["name"] == name).cloned();
    let w2_row = by_name("lab/w2").expect("w2 is listed");
    assert!(by_name("lab/w1").is_some(), "{workers:?}");
    let own = workers
        .iter()
        .find(|w| w["name"].as_str().unwrap().starts_with("daemon/"))
        .expect("the daemon's own workers are listed");
    let total: u64 = workers.iter().map(|w| w["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 12, "{workers:?}");
    assert!(w2_row["games"].as_u64().unwrap() >= 1, "{w2_row}");
    for w in [&w2_row, own] {
        for field in ["host", "cpu", "sandbox", "zebra"] {
            assert!(!w[field].as_str().unwrap().is_empty(), "{w}");
        }
    }
    let mut tagged = std::collections::BTreeMap::<String, u64>::new();
    for g in &rows {
        let (_, _, record) = http(
            &base,
            "GET",
            &format!("/api/v1/games/{}/pgn", g["id"]),
            Some(&ann),
            &[],
            None,
        );
        let worker = tag(&record, "Worker").expect("a Worker tag").to_string();
        assert!(tag(&record, "WorkerHost").is_some() && tag(&record, "WorkerSandbox").is_some());
        *tagged.entry(worker).or_default() += 1;
    }
    for w in &workers {
        let name = w["name"].as_str().unwrap();
        assert_eq!(
            tagged.get(name).copied().unwrap_or(0),
            w["games"].as_u64().unwrap(),
            "{name}: {tagged:?}"
        );
    }
    let (_, _, metrics) = http(&base, "GET", "/metrics", Some(&ann), &[], None);
    assert!(
        metrics.contains("zebra_worker_games_total{worker=\"lab/w2\""),
        "{metrics}"
    );

    // Stopped with SIGTERM, w2 leaves at once (it plays nothing) and says so.
    terminate(&w2.child);
    let (status, log) = w2.exited();
    assert!(status.success(), "{status:?}: {log}");
    assert!(log.contains("stopped"), "{log}");
}

/// SIGTERM to a child of ours.
fn terminate(child: &Child) {
    signal(child, libc::SIGTERM);
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe { libc::kill(child.id() as i32, sig) };
}

#[test]
fn the_daemon_counts_only_the_leased_game_s_own_record_and_only_once() {
    let dir = scratch("workers-records");
    let data = dir.join("data");
    register_pair(&data);
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let ann = token(&data, "submit", "ann");
    let (lab, lab_file) = worker_token(&data, &dir, "lab");
    let (bob, _) = worker_token(&data, &dir, "bob");
    let config = settings(&dir, "60s", 5);
    // No game of the daemon's own: only remote workers play.
    let daemon = start(
        &data,
        &["--concurrency", "0", "--config", config.to_str().unwrap()],
    );
    let base = daemon.base.clone();
    let request = json!({"bots": [1, 2], "games": 2, "tc": TC, "seed": 7});

    // Series 1, played by a real worker: its first game's record, to present again.
    let (status, first) = submit(&base, &ann, None, &request);
    assert_eq!(status, 201, "{first}");
    let first = first["id"].as_i64().unwrap();
    let mut w1 = start_worker(&base, &lab_file, "w1", &dir, &["--same-programs"]);
    let done = wait_series_end(&base, &ann, first);
    assert_eq!(done["progress"]["finished"], 2, "{done}");
    terminate(&w1.child);
    assert!(w1.child.wait().unwrap().success(), "{}", w1.log());
    let played = &games(&base, &ann, first)[0];
    let (_, _, record) = http(
        &base,
        "GET",
        &format!("/api/v1/games/{}/pgn", played["id"]),
        Some(&ann),
        &[],
        None,
    );
    assert_eq!(tag(&record, "Worker"), Some("lab/w1"), "{record}");

    // Series 2: the same games, leased by hand.
    let (status, second) = submit(&base, &ann, Some("again"), &request);
    assert_eq!(status, 201, "{second}");
    let second = second["id"].as_i64().unwrap();
    let me = |same: bool, zebra: &str, instance: &str| {
        json!({
            "worker": {"name": "raw", "host": "h", "cpu": "c", "sandbox": "strict", "zebra": zebra},
            "instance": instance,
            "same_programs": same,
            "wait_ms": 0,
        })
    };
    let version = env!("CARGO_PKG_VERSION");
    let (status, hello) = call(
        &base,
        "GET",
        "/api/v1/worker/hello",
        "/api/v1/worker/hello",
        &lab,
        None,
    );
    assert_eq!(status, 200, "{hello}");
    assert_eq!(
        (hello["owner"].as_str(), hello["zebra"].as_str()),
        (Some("lab"), Some(version))
    );
    let (status, _) = call(
        &base,
        "GET",
        "/api/v1/worker/hello",
        "/api/v1/worker/hello",
        &ann,
        None,
    );
    assert_eq!(status, 403, "a submit token is no worker's");
    let nothing = format!("/api/v1/worker/archives/{}", "0".repeat(64));
    let (status, _) = call(
        &base,
        "GET",
        "/api/v1/worker/archives/{sha256}",
        &nothing,
        &lab,
        None,
    );
    assert_eq!(status, 404, "no bot was uploaded: there is no archive");
    // Bots registered by path are not played by a worker without --same-programs.
    let (status, _) = post(
        &base,
        "/api/v1/worker/lease",
        &lab,
        &me(false, version, "1"),
    );
    assert_eq!(status, 204);
    let (status, body) = post(&base, "/api/v1/worker/lease", &lab, &me(true, "0.0.0", "1"));
    assert_eq!(
        (status, body["field"].as_str()),
        (409, Some("worker.zebra")),
        "{body}"
    );
    let (status, body) = post(
        &base,
        "/api/v1/worker/lease",
        &lab,
        &me(true, version, "xyz"),
    );
    assert_eq!(
        (status, body["field"].as_str()),
        (400, Some("instance")),
        "{body}"
    );
    let (status, body) = post(&base, "/api/v1/worker/lease", &ann, &me(true, version, "1"));
    assert_eq!(status, 403, "a submit token is no worker's: {body}");

    let lease = |attempt: u64| {
        let (status, grant) = post(&base, "/api/v1/worker/lease", &lab, &me(true, version, "1"));
        assert_eq!(status, 200, "{grant}");
        assert_eq!(grant["series"], second, "{grant}");
        assert_eq!(grant["lease"]["number"], 1, "{grant}");
        assert_eq!(grant["lease"]["attempt"], attempt, "{grant}");
        assert_eq!(grant["lease"]["owner"], "worker:lab/raw#1", "{grant}");
        assert_eq!(grant["bots"].as_array().unwrap().len(), 2, "{grant}");
        grant["lease"].clone()
    };
    let refused = |lease: &Value, record: &str, why: &str| {
        let (status, body) = post(
            &base,
            "/api/v1/worker/finish",
            &lab,
            &json!({"lease": lease, "record": record}),
        );
        assert_eq!(
            (status, body["field"].as_str()),
            (422, Some("record")),
            "{body}"
        );
        let detail = body["detail"].as_str().unwrap();
        assert!(detail.contains(why) && !detail.contains('\n'), "{detail}");
    };
    let state_of_first = || games(&base, &ann, second)[0].clone();

    // 1: not a record.
    let held = lease(1);
    let (status, body) = post(&base, "/api/v1/worker/renew", &bob, &json!({"lease": held}));
    assert_eq!(status, 403, "another worker's lease: {body}");
    let (status, body) = post(&base, "/api/v1/worker/renew", &lab, &json!({"lease": held}));
    assert_eq!(status, 200, "{body}");
    // The lease as granted, or nothing: another number, series or bot is refused.
    for (field, value) in [
        ("number", json!(2)),
        ("series", json!(first)),
        ("white", json!(2)),
    ] {
        let mut other = held.clone();
        other[field] = value;
        let (status, body) = post(
            &base,
            "/api/v1/worker/renew",
            &lab,
            &json!({"lease": other}),
        );
        assert_eq!(
            (status, body["field"].as_str()),
            (409, Some("lease")),
            "{field}: {body}"
        );
        let (status, _) = post(
            &base,
            "/api/v1/worker/finish",
            &lab,
            &json!({"lease": other, "record": record}),
        );
        assert_eq!(status, 409, "{field}");
    }
    // Its live page shows what the worker sends (a record that reads, or a refusal).
    let (status, _) = post(
        &base,
        "/api/v1/worker/progress",
        &lab,
        &json!({"lease": held, "record": record}),
    );
    assert_eq!(status, 204);
    let (status, body) = post(
        &base,
        "/api/v1/worker/progress",
        &lab,
        &json!({"lease": held, "record": "[Event \"x\"\n"}),
    );
    assert_eq!(
        (status, body["field"].as_str()),
        (422, Some("record")),
        "{body}"
    );
    refused(&held, "no record at all", "does not read");
    let row = state_of_first();
    assert_eq!(
        (row["state"].as_str(), row["voided"].as_u64()),
        (Some("queued"), Some(1)),
        "{row}"
    );

    // 2: series 1's record of the same game: another event, another worker, no attempt.
    let held = lease(2);
    refused(&held, &record, "tag Event");
    // Made to look like this lease's, but with another result: it does not replay.
    let ours = |attempt: u32, result: Option<&str>| {
        let mut text = record
            .replace(
                &format!("[Event \"Zebra serve series {first}\"]"),
                &format!("[Event \"Zebra serve series {second}\"]"),
            )
            .replace("[Worker \"lab/w1\"]", "[Worker \"lab/raw\"]")
            .replace(
                "[Game \"1\"]",
                &format!("[Game \"1\"]\n[Attempt \"{attempt}\"]"),
            );
        if let Some(other) = result {
            let was = tag(&record, "Result").unwrap().to_string();
            text = text.replace(
                &format!("[Result \"{was}\"]"),
                &format!("[Result \"{other}\"]"),
            );
            let end = text.trim_end().rfind(&was).unwrap();
            text.replace_range(end..end + was.len(), other);
        }
        text
    };
    let held = lease(3);
    let result = tag(&record, "Result").unwrap();
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    refused(&held, &ours(3, Some(other)), "does not replay");

    // 4: the game as it was played: counted, once.
    let held = lease(4);
    let report = json!({"lease": held, "record": ours(4, None),
        "figures": {"duration_ms": 1234, "think_us": [5, 6], "cpu_us": [7, 8]}});
    let (status, body) = post(&base, "/api/v1/worker/finish", &lab, &report);
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(&base, "/api/v1/worker/finish", &lab, &report);
    assert_eq!(status, 409, "a second report of the same lease: {body}");
    let row = state_of_first();
    assert_eq!(row["state"], "finished", "{row}");
    assert_eq!(row["result"].as_str(), Some(result), "{row}");
    assert_eq!(row["voided"], 3, "{row}");

    // The other game given back unplayed, then played by a real worker to the end.
    let (status, grant) = post(&base, "/api/v1/worker/lease", &lab, &me(true, version, "1"));
    assert_eq!(
        (status, grant["lease"]["number"].as_u64()),
        (200, Some(2)),
        "{grant}"
    );
    let (status, body) = post(
        &base,
        "/api/v1/worker/abandon",
        &lab,
        &json!({"lease": grant["lease"], "unplayed": true}),
    );
    assert_eq!(status, 204, "{body}");
    // Never started: queued again with its attempt given back.
    let second_game = games(&base, &ann, second)[1].clone();
    assert_eq!(
        (
            second_game["state"].as_str(),
            second_game["attempts"].as_u64(),
            second_game["voided"].as_u64()
        ),
        (Some("queued"), Some(0), Some(0)),
        "{second_game}"
    );
    let _w2 = start_worker(&base, &lab_file, "w2", &dir, &["--same-programs"]);
    let done = wait_series_end(&base, &ann, second);
    assert_eq!(done["outcome"], "completed", "{done}");
    assert_eq!(done["progress"]["finished"], 2, "{done}");
    // The same games as series 1, whoever played them.
    assert_eq!(
        statistics(&done["summary"]),
        statistics(&get_json(&base, &format!("/api/v1/series/{first}"), &ann)["summary"])
    );
    assert_eq!(verify_records(&base, &ann, second, &dir), 2);
    let (_, workers) = call(
        &base,
        "GET",
        "/api/v1/workers",
        "/api/v1/workers",
        &ann,
        None,
    );
    let workers = workers["workers"].clone();
    let raw = workers
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "lab/raw")
        .unwrap()
        .clone();
    assert_eq!(raw["games"], 1, "{raw}");
    let (_, _, metrics) = http(&base, "GET", "/metrics", Some(&ann), &[], None);
    assert!(
        metrics.contains("zebra_reports_refused_total 3\n"),
        "{metrics}"
    );

    // Every workers' operation of the document was called and answered as it says.
    let doc = openapi::openapi();
    let called = CALLED.lock().unwrap().clone();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            if op["tags"][0] == "workers" {
                let name = format!("{} {path}", method.to_ascii_uppercase());
                assert!(called.contains(&name), "{name} was not called");
            }
        }
    }
}

#[test]
fn a_worker_with_a_bad_server_or_token_says_so_in_one_line() {
    let dir = scratch("workers-bad");
    let data = dir.join("data");
    let ann = token(&data, "submit", "ann");
    let file = dir.join("ann.token");
    std::fs::write(&file, &ann).unwrap();
    let out = Command::new(ZEBRA)
        .args(["serve", "--data"])
        .arg(&data)
        .args(["token", "create", "--scope", "worker", "--owner", "lab/x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("a worker's owner"),
        "{}",
        text(&out.stderr)
    );
    let daemon = start(&data, &["--concurrency", "0"]);
    let run = |args: &[&str]| {
        let out = Command::new(ZEBRA)
            .arg("worker")
            .args(args)
            .arg("--cache")
            .arg(dir.join("cache"))
            .env(WEAK, "1")
            .env_remove("ZEBRA_WORKER_TOKEN")
            .output()
            .unwrap();
        // A machine without the strict sandbox adds a warning line first (tests only).
        let err: String = text(&out.stderr)
            .lines()
            .filter(|l| !l.starts_with("zebra worker: warning"))
            .map(|l| format!("{l}\n"))
            .collect();
        (out.status.code(), err)
    };
    let token_file = file.to_str().unwrap();
    // A submit token is not a worker's.
    let (code, err) = run(&["--server", &daemon.base, "--token-file", token_file]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("refuses the token") && err.contains("--scope worker"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, err) = run(&["--server", "localhost:1", "--token-file", token_file]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--server 'localhost:1'"), "{err}");
    let (code, err) = run(&["--server", "http://127.0.0.1:9"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no token"), "{err}");
    let (code, err) = run(&["--server", "http://127.0.0.1:9", "--token-file", token_file]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cannot reach http://127.0.0.1:9"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn a_worker_without_the_same_programs_downloads_uploaded_bots_once_and_plays_them() {
    let dir = scratch("workers-upload");
    let data = dir.join("data");
    let ann = token(&data, "submit", "ann");
    let (_, lab) = worker_token(&data, &dir, "lab");
    let daemon = start(&data, &["--concurrency", "0"]);
    let base = daemon.base.clone();
    if daemon.log.lock().unwrap().contains("uploads are refused") {
        eprintln!("skipped: no strict sandbox on this machine (see zebra doctor)");
        return;
    }
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let mut hashes = Vec::new();
    for name in ["up-a", "up-b"] {
        let manifest = format!("name = \"{name}\"\ncommand = \"bin/random\"\n");
        let bytes = archive(&[
            ("zebra-bot.toml", FILE, manifest.as_bytes(), 0o644),
            ("bin/random", FILE, &random, 0o755),
        ]);
        hashes.push(sha256_hex(&bytes));
        let (status, created) = upload(&base, &ann, &bytes);
        assert_eq!(status, 201, "{created}");
    }
    let bots = wait_checked(&base, &ann);
    assert!(
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["state"] == "active"),
        "{bots}"
    );
    let (status, created) = submit(
        &base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 4, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    // No --same-programs: it plays uploaded bots only, which these are.
    let worker = start_worker(&base, &lab, "w1", &dir, &[]);
    let done = wait_series_end(&base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}: {}", worker.log());
    assert_eq!(verify_records(&base, &ann, id, &dir), 4);
    // Each archive downloaded once, checked, unpacked under its SHA-256.
    let cached = dir.join("cache-w1").join("bots");
    for hash in &hashes {
        assert!(cached.join(hash).join("bin/random").is_file(), "{hash}");
    }
    let mut entries: Vec<String> = std::fs::read_dir(&cached)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    let mut expected = hashes.clone();
    expected.sort();
    assert_eq!(entries, expected, "nothing half-unpacked is left");
    let mode = |p: &Path| {
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(p).unwrap().permissions())
            & 0o777
    };
    assert_eq!(
        mode(&dir.join("cache-w1")),
        0o700,
        "the cache is the worker's alone"
    );
}

/// A SHA-256 in hex, by the system's sha256sum (the test binary has no hasher of its own).
fn sha256_hex(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    text(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_worker_plays_for_an_https_daemon_whose_certificate_it_is_given() {
    let dir = scratch("workers-tls");
    let data = dir.join("data");
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.key_pair.serialize_pem()).unwrap();
    register_pair(&data);
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let ann = token(&data, "submit", "ann");
    let (_, lab) = worker_token(&data, &dir, "lab");
    // The series is queued before the daemon starts (its API is spoken over TLS here).
    let daemon = start(&data, &["--concurrency", "0"]);
    let (status, created) = submit(
        &daemon.base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 2, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201, "{created}");
    let addr = daemon.base.trim_start_matches("http://").to_string();
    drop(daemon);
    let daemon = start(
        &data,
        &[
            "--concurrency",
            "0",
            "--listen",
            &addr,
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
        ],
    );
    let port = addr.rsplit(':').next().unwrap();
    let server = format!("https://localhost:{port}");
    // Without the certificate: one line, the server's certificate not trusted.
    let out = Command::new(ZEBRA)
        .args(["worker", "--server", &server, "--same-programs"])
        .arg("--token-file")
        .arg(&lab)
        .arg("--cache")
        .arg(dir.join("cache"))
        .env(WEAK, "1")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("cannot reach {server}")), "{err}");
    // With it: both games played and counted.
    let worker = start_worker(
        &server,
        &lab,
        "w1",
        &dir,
        &["--same-programs", "--ca-cert", cert.to_str().unwrap()],
    );
    wait_for(
        "two games counted over TLS",
        Duration::from_secs(240),
        || (worker.log().matches(": counted").count() == 2).then_some(()),
    );
    drop(daemon);
}

#[test]
fn an_excluded_worker_gets_no_more_games_and_its_games_are_played_again_by_others() {
    let dir = scratch("workers-exclude");
    let data = dir.join("data");
    for name in ["slow-a", "slow-b"] {
        admin(
            &data,
            &[
                "bot",
                "add",
                name,
                "--",
                "zebra-test-bot",
                "--sleep-ms",
                "30",
                "--name",
                name,
            ],
        );
    }
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let ann = token(&data, "submit", "ann");
    let root = token(&data, "admin", "root");
    let (_, lab) = worker_token(&data, &dir, "lab");
    let config = settings(&dir, "5s", 5);
    let daemon = start(
        &data,
        &["--concurrency", "0", "--config", config.to_str().unwrap()],
    );
    let base = daemon.base.clone();
    let (status, created) = submit(
        &base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 8, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let mut w1 = start_worker(&base, &lab, "w1", &dir, &["--same-programs"]);
    wait_for("w1 to count two games", Duration::from_secs(240), || {
        (w1.log().matches(": counted").count() >= 2).then_some(())
    });
    // Held still while it is excluded (it is the only worker: the series waits too).
    signal(&w1.child, libc::SIGSTOP);
    let exclude = |token: &str, body: Value| {
        call(
            &base,
            "POST",
            "/api/v1/workers/exclude",
            "/api/v1/workers/exclude",
            token,
            Some(&body),
        )
    };
    let (status, _) = exclude(&ann, json!({"name": "lab/w1"}));
    assert_eq!(status, 403, "a submit token excludes nobody");
    let (status, body) = exclude(&root, json!({"name": "lab/nobody"}));
    assert_eq!(
        (status, body["field"].as_str()),
        (404, Some("name")),
        "{body}"
    );
    let (status, body) = exclude(&root, json!({"name": "daemon/x"}));
    assert_eq!(
        status, 404,
        "the daemon's own are not remote workers: {body}"
    );
    let (status, body) = exclude(&root, json!({"name": "lab/w1"}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["series_replayed"], json!([id]), "{body}");
    // Let go, w1 is refused its next lease and stops with one line.
    signal(&w1.child, libc::SIGCONT);
    let (status, log) = w1.exited();
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(log.contains("refuses this worker"), "{log}");
    // w1 is refused from now on; w2 plays the series to its end, w1's games included.
    let w2 = start_worker(&base, &lab, "w2", &dir, &["--same-programs"]);
    let done = wait_series_end(&base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}");
    assert_eq!(done["progress"]["finished"], 8, "{done}");
    let matched = match_of(
        &dir,
        8,
        [
            "slow-a=zebra-test-bot --name slow-a",
            "slow-b=zebra-test-bot --name slow-b",
        ],
    );
    assert_eq!(statistics(&done["summary"]), statistics(&matched));
    assert_eq!(verify_records(&base, &ann, id, &dir), 8);
    for g in games(&base, &ann, id) {
        let (_, _, record) = http(
            &base,
            "GET",
            &format!("/api/v1/games/{}/pgn", g["id"]),
            Some(&ann),
            &[],
            None,
        );
        assert_eq!(tag(&record, "Worker"), Some("lab/w2"), "{record}");
    }
    assert!(w1.log().contains("excluded by an admin"), "{}", w1.log());
    assert!(w2.log().contains(": counted"));
    let (_, list) = call(
        &base,
        "GET",
        "/api/v1/workers",
        "/api/v1/workers",
        &ann,
        None,
    );
    let w1_row = list["workers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "lab/w1")
        .unwrap()
        .clone();
    assert_eq!(w1_row["excluded"], true, "{w1_row}");
    // Admitted again, it may lease (nothing is left to play).
    let (status, body) = exclude(&root, json!({"name": "lab/w1", "excluded": false}));
    assert_eq!(
        (status, body["series_replayed"].clone()),
        (200, json!([])),
        "{body}"
    );
}

/// When a stamp of the worker's log (`2026-11-27T23:45:39.384221Z`) was, in seconds of its
/// day.
fn log_seconds(line: &str) -> f64 {
    let clock = line
        .split_whitespace()
        .next()
        .unwrap()
        .split('T')
        .nth(1)
        .unwrap();
    let clock = clock.trim_end_matches('Z');
    let mut parts = clock.split(':').map(|p| p.parse::<f64>().unwrap());
    let (h, m, s) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    h * 3600.0 + m * 60.0 + s
}

/// A worker reports each game after asking for its next lease (so that lease does not wait
/// for the report), but a lease that waits for work (up to 10 s, `worker::remote`'s
/// LEASE_WAIT) does not hold the report back: the series' last game is reported at once
/// (within 20 ms, `server::worker::REPORT_AFTER`; 7 s is the margin for a loaded machine).
#[test]
fn a_worker_s_last_game_is_counted_while_its_next_lease_waits_for_work() {
    let dir = scratch("workers-last-report");
    let data = dir.join("data");
    for name in ["quick-a", "quick-b"] {
        admin(
            &data,
            &["bot", "add", name, "--", "zebra-random-bot", "--name", name],
        );
    }
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let ann = token(&data, "submit", "ann");
    let (_, lab) = worker_token(&data, &dir, "lab");
    let daemon = start(&data, &["--concurrency", "0"]);
    let base = daemon.base.clone();
    let (status, created) = submit(
        &base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 2, "tc": TC, "seed": 3}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let worker = start_worker(&base, &lab, "w1", &dir, &["--same-programs"]);
    let done = wait_series_end(&base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}: {}", worker.log());
    // The worker logs the report's answer after the daemon has ended the series.
    let log = wait_for(
        "the last report in the worker's log",
        Duration::from_secs(60),
        || {
            let log = worker.log();
            log.contains("reported game 2 ").then_some(log)
        },
    );
    let line = |what: &str| {
        log.lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no '{what}' in the worker's log:\n{log}"))
            .to_string()
    };
    // From the last game's end to its report's answer: one report (milliseconds), not the
    // 10 s a lease waits for work.
    let played = log_seconds(&line("played game 2 "));
    let reported = log_seconds(&line("reported game 2 "));
    // Across midnight the day's seconds start again.
    let after = (reported - played).rem_euclid(86_400.0);
    assert!(
        after < 7.0,
        "the last game was reported {after:.1} s after it ended:\n{log}"
    );
}
