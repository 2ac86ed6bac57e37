//! Several `zebra serve` daemons on one PostgreSQL server (started by the suite from
//! Debian's package) and one data directory: they share the queue and the store, any of
//! them answers for all, and one killed with SIGKILL loses and doubles nothing.

use std::path::Path;
use std::time::Duration;

use serde_json::json;

mod common;
#[path = "common/postgres.rs"]
mod postgres_cluster;

use common::daemon::{
    admin, get_json, match_of, start, statistics, submit, verify_records, wait_series_end, Daemon,
    TC,
};
use common::http::http;
use common::run::scratch;

/// `zebra serve --data DATA --database URL ARGS...` that must succeed; its stdout.
fn admin_on(data: &Path, url: &str, args: &[&str]) -> String {
    let mut all = vec!["--database", url];
    all.extend_from_slice(args);
    admin(data, &all)
}

fn daemon_on(data: &Path, url: &str, config: &Path) -> Daemon {
    start(
        data,
        &[
            "--database",
            url,
            "--concurrency",
            "2",
            "--config",
            config.to_str().unwrap(),
        ],
    )
}

#[test]
fn three_daemons_share_one_queue_and_a_sigkilled_one_loses_and_doubles_nothing() {
    let dir = scratch("shared");
    let data = dir.join("data");
    let url = postgres_cluster::database("three_daemons");
    // Bots that take some 40 ms per decision: a game lasts seconds, so a daemon killed
    // while it plays one is killed mid-game. Activated by the admin (no check needed).
    for name in ["slow-a", "slow-b"] {
        admin_on(
            &data,
            &url,
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
    admin_on(&data, &url, &["bot", "activate", "1"]);
    admin_on(&data, &url, &["bot", "activate", "2"]);
    let ann = admin_on(
        &data,
        &url,
        &["token", "create", "--scope", "submit", "--owner", "ann"],
    )
    .trim()
    .to_string();
    // A short lease: the killed daemon's games go back to the queue within seconds.
    let config = dir.join("serve.toml");
    std::fs::write(&config, "lease = \"3s\"\n").unwrap();
    let d1 = daemon_on(&data, &url, &config);
    let mut d2 = daemon_on(&data, &url, &config);
    let d3 = daemon_on(&data, &url, &config);
    let (status, created) = submit(
        &d1.base,
        &ann,
        Some("shared"),
        &json!({"bots": [1, 2], "games": 16, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    // The same series through another daemon under the same key: the same series.
    let (again, same) = submit(
        &d3.base,
        &ann,
        Some("shared"),
        &json!({"bots": [1, 2], "games": 16, "tc": TC, "seed": 7}),
    );
    assert_eq!((again, same["id"].as_i64()), (200, Some(id)), "{same}");

    // The series' event stream through the first daemon, followed from now to its end:
    // the games every daemon plays reach it.
    let stream = {
        let (base, ann) = (d1.base.clone(), ann.clone());
        std::thread::spawn(move || {
            http(
                &base,
                "GET",
                &format!("/api/v1/series/{id}/events"),
                Some(&ann),
                &[],
                None,
            )
        })
    };

    // Killed while it holds a game: that game is played again by another daemon.
    let pid = d2.child.id();
    let mut pg = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    let mine = format!("daemon-{pid}-%");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let held: i64 = loop {
        let found = pg
            .query_opt(
                "SELECT id FROM games WHERE state = 'leased' AND lease_owner LIKE $1 LIMIT 1",
                &[&mine],
            )
            .unwrap();
        if let Some(r) = found {
            break r.get(0);
        }
        if std::time::Instant::now() > deadline {
            let states: Vec<(String, Option<String>)> = pg
                .query("SELECT state, lease_owner FROM games ORDER BY id", &[])
                .unwrap()
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            panic!(
                "the second daemon ({pid}) held no game: {states:?}\n{}\n{}\n{}",
                d1.log.lock().unwrap(),
                d2.log.lock().unwrap(),
                d3.log.lock().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    d2.child.kill().unwrap(); // SIGKILL
    d2.child.wait().unwrap();
    drop(d2);

    let done = wait_series_end(&d3.base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}");
    assert_eq!(done["progress"]["finished"], 16, "{done}");
    assert_eq!(done["progress"]["void"], 0, "{done}");
    // Every daemon's books hold all sixteen, whoever played them, as `zebra match` would.
    // (Their sleep in the daemon's registration changes no move: the games are the same.)
    let matched = match_of(
        &dir,
        16,
        [
            "slow-a=zebra-test-bot --name slow-a",
            "slow-b=zebra-test-bot --name slow-b",
        ],
    );
    for base in [&d1.base, &d3.base] {
        let seen = get_json(base, &format!("/api/v1/series/{id}"), &ann);
        assert_eq!(statistics(&seen["summary"]), statistics(&matched), "{base}");
    }
    assert_eq!(verify_records(&d1.base, &ann, id, &dir), 16);

    // The first daemon's live feed ended with the series, every game in it once: those
    // finished before it was opened in its first line's count, each other one's end as a
    // line of its own, whichever daemon played it.
    let (status, _, text) = stream.join().unwrap();
    assert_eq!(status, 200);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.first().unwrap()["type"], "series_started", "{text}");
    assert_eq!(lines.last().unwrap()["type"], "series_finished", "{text}");
    let mut ends: Vec<u64> = lines
        .iter()
        .filter(|l| l["type"] == "game_finished")
        .map(|l| l["game"].as_u64().unwrap())
        .collect();
    let before = lines[0]["games_done"].as_u64().unwrap();
    ends.sort_unstable();
    let all = ends.len();
    ends.dedup();
    assert_eq!(all, ends.len(), "a game told twice: {text}");
    assert_eq!(before + all as u64, 16, "{text}");

    // In the store: one finished row per number, each finish numbered once, the killed
    // daemon's game voided once and finished by another.
    let rows = pg
        .query(
            "SELECT number, fin_seq, played_by FROM games WHERE series_id = $1 ORDER BY number",
            &[&id],
        )
        .unwrap();
    let numbers: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(numbers, (1..=16).collect::<Vec<i64>>());
    let mut seqs: Vec<i64> = rows.iter().map(|r| r.get(1)).collect();
    seqs.sort_unstable();
    seqs.dedup();
    assert_eq!(seqs.len(), 16);
    let players: std::collections::BTreeSet<String> = rows
        .iter()
        .map(|r| r.get::<_, String>(2))
        .map(|by| {
            by.rsplit_once('-')
                .map_or(by.clone(), |(d, _)| d.to_string())
        })
        .collect();
    assert!(
        players.len() >= 2,
        "more than one daemon played: {players:?}"
    );
    // Games played by other daemons reached the first one's feed.
    let first = format!("daemon-{}-", d1.child.id());
    let elsewhere = rows
        .iter()
        .filter(|r| !r.get::<_, String>(2).starts_with(&first))
        .filter(|r| ends.contains(&(r.get::<_, i64>(0) as u64)))
        .count();
    assert!(elsewhere > 0, "{text}");
    let replayed = pg
        .query_one(
            "SELECT voided, state, played_by FROM games WHERE id = $1",
            &[&held],
        )
        .unwrap();
    assert!(replayed.get::<_, i64>(0) >= 1);
    assert_eq!(replayed.get::<_, String>(1), "finished");
    assert!(!replayed
        .get::<_, String>(2)
        .starts_with(&format!("daemon-{pid}-")));

    // A daemon on PostgreSQL stops cleanly on SIGTERM, as on SQLite.
    let mut d1 = d1;
    // SAFETY: a signal to a child this test started and has not reaped.
    unsafe { libc::kill(d1.child.id() as i32, libc::SIGTERM) };
    let status = d1.child.wait().unwrap();
    assert!(status.success(), "{status:?}: {}", d1.log.lock().unwrap());
}
