//! A `zebra serve` daemon as its tests run it: a real process on a free loopback port,
//! its admin commands, tokens, series submitted over HTTP, waits with generous deadlines,
//! and the comparisons with `zebra match` (the daemon's tests and its remote workers').

use std::io::{BufRead, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::http;
use super::run::{text, zebra, ZEBRA};

/// Short play-count games: reproducible, and quick whatever the machine's load.
pub const TC: &str = "plays=6,play=5s,reaction=2s";

/// `zebra serve --data DIR ARGS...` that must succeed; its stdout.
pub fn admin(data: &Path, args: &[&str]) -> String {
    // `--data` first: after `--`, everything belongs to the bot's command.
    let out = Command::new(ZEBRA)
        .arg("serve")
        .arg("--data")
        .arg(data)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

pub fn token(data: &Path, scope: &str, owner: &str) -> String {
    admin(
        data,
        &["token", "create", "--scope", scope, "--owner", owner],
    )
    .trim()
    .to_string()
}

/// A running daemon; killed and reaped when dropped.
pub struct Daemon {
    pub child: Child,
    pub base: String,
    /// Everything it wrote to stderr after its address line.
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(data: &Path, extra: &[&str]) -> Daemon {
    start_with(data, extra, &[])
}

/// The variable that lets a daemon start where the strict sandbox cannot hold (for tests).
pub const WEAK: &str = "ZEBRA_SERVE_ALLOW_WEAK_SANDBOX";

/// A daemon with more environment (`ZEBRA_SANDBOX_DISABLE` to play a poorer machine), on
/// a free loopback port unless `extra` says `--listen`. Where the strict sandbox cannot
/// hold, it starts all the same, for tests ([`WEAK`]: it says so and refuses uploads).
pub fn start_with(data: &Path, extra: &[&str], env: &[(&str, &str)]) -> Daemon {
    start_command(data, extra, env, Command::new(ZEBRA))
}

/// [`start_with`] from a command already made (a shell that sets the umask first).
pub fn start_command(
    data: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
    mut command: Command,
) -> Daemon {
    command.arg("serve").arg("--data").arg(data);
    if !extra.contains(&"--listen") {
        command.args(["--listen", "127.0.0.1:0"]);
    }
    let mut child = command
        .args(extra)
        .env(WEAK, "1")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    // zebra serve: listening on http://127.0.0.1:PORT (data in DIR); ... (warnings first)
    let mut before = String::new();
    let base = loop {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            panic!("no address in: {before}");
        }
        if let Some(url) = line
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
        {
            break url.to_string();
        }
        before.push_str(&line);
    };
    let log = std::sync::Arc::new(std::sync::Mutex::new(before));
    let sink = log.clone();
    // Drained all the time: a full pipe would stall the daemon.
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = stderr.read_to_string(&mut rest);
        sink.lock().unwrap().push_str(&rest);
    });
    Daemon { child, base, log }
}

pub fn get_json(base: &str, path: &str, token: &str) -> Value {
    let (status, _, body) = http(base, "GET", path, Some(token), &[], None);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

pub fn submit(base: &str, token: &str, key: Option<&str>, body: &Value) -> (u16, Value) {
    let headers: Vec<(&str, &str)> = key.map(|k| ("Idempotency-Key", k)).into_iter().collect();
    let (status, _, text) = http(
        base,
        "POST",
        "/api/v1/series",
        Some(token),
        &headers,
        Some(body.to_string().as_bytes()),
    );
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Waits until `probe` gives `Some`, for at most `limit`.
pub fn wait_for<T>(what: &str, limit: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(start.elapsed() < limit, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until every bot is checked (no longer pending).
pub fn wait_checked(base: &str, token: &str) -> Value {
    wait_for("the bots' checks", Duration::from_secs(180), || {
        let bots = get_json(base, "/api/v1/bots", token);
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["state"] != "pending")
            .then_some(bots)
    })
}

pub fn wait_series_end(base: &str, token: &str, id: i64) -> Value {
    wait_for("the series to end", Duration::from_secs(300), || {
        let s = get_json(base, &format!("/api/v1/series/{id}"), token);
        (s["state"] != "running").then_some(s)
    })
}

/// Registers the bundled greedy and random bots (ids 1 and 2).
pub fn register_pair(data: &Path) {
    admin(data, &["bot", "add", "greedy", "--", "zebra-greedy-bot"]);
    admin(data, &["bot", "add", "random", "--", "zebra-random-bot"]);
}

/// `zebra match --json` on the same bots, seeds and options.
pub fn match_summary(dir: &Path, games: u32) -> Value {
    match_of(
        dir,
        games,
        ["greedy=zebra-greedy-bot", "random=zebra-random-bot"],
    )
}

/// `zebra match --json` of two bots (`NAME=COMMAND`) on the daemon's tests' seed and clock.
pub fn match_of(dir: &Path, games: u32, bots: [&str; 2]) -> Value {
    let out = Command::new(ZEBRA)
        .args(["match", "--json", "--quiet", "--concurrency", "2"])
        .args(["--bot", bots[0], "--bot", bots[1]])
        .args(["--games", &games.to_string(), "--tc", TC, "--seed", "7"])
        .arg("--out")
        .arg(dir.join("match"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What must be equal between `zebra match` and the daemon in play-count mode.
pub fn statistics(summary: &Value) -> Value {
    json!({
        "standings": summary["standings"],
        "encounters": summary["encounters"],
        "conduct": summary["conduct"],
        "games_finished": summary["games_finished"],
        "games_planned": summary["games_planned"],
    })
}

/// Downloads every record of a series and verifies them with `zebra verify`.
pub fn verify_records(base: &str, token: &str, id: i64, dir: &Path) -> usize {
    let games = get_json(
        base,
        &format!("/api/v1/series/{id}/games?limit=1000"),
        token,
    );
    let mut pgn = String::new();
    let mut n = 0;
    for g in games["games"].as_array().unwrap() {
        if g["state"] != "finished" {
            continue;
        }
        let (status, head, body) = http(
            base,
            "GET",
            &format!("/api/v1/games/{}/pgn", g["id"]),
            Some(token),
            &[],
            None,
        );
        assert_eq!(status, 200, "{body}");
        assert!(head.contains("application/x-chess-pgn"), "{head}");
        pgn.push_str(&body);
        n += 1;
    }
    let file = dir.join(format!("series-{id}.pgn"));
    std::fs::write(&file, pgn).unwrap();
    let out = zebra(&["verify", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    n
}

/// A gzip-compressed tar archive of `entries`: (path, kind, content or link target, mode),
/// written header by header (the names as given, even the ones a careful tool refuses).
pub fn archive(entries: &[(&str, tar::EntryType, &[u8], u32)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(gz);
    for (path, kind, data, mode) in entries {
        let mut header = tar::Header::new_gnu();
        let name = &mut header.as_gnu_mut().unwrap().name;
        name[..path.len()].copy_from_slice(path.as_bytes());
        header.set_entry_type(*kind);
        header.set_mode(*mode);
        if *kind == tar::EntryType::Symlink {
            header
                .set_link_name(std::str::from_utf8(data).unwrap())
                .unwrap();
            header.set_size(0);
            header.set_cksum();
            builder.append(&header, std::io::empty()).unwrap();
        } else {
            header.set_size(data.len() as u64);
            header.set_cksum();
            builder.append(&header, *data).unwrap();
        }
    }
    builder.into_inner().unwrap().finish().unwrap()
}

pub fn upload(base: &str, token: &str, body: &[u8]) -> (u16, Value) {
    let (status, _, text) = http(
        base,
        "POST",
        "/api/v1/bots",
        Some(token),
        &[("Content-Type", "application/gzip")],
        Some(body),
    );
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

pub const FILE: tar::EntryType = tar::EntryType::Regular;
