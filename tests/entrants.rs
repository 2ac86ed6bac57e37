//! Entrants as an organiser and the entrants meet them: invite codes made on the shell and
//! over the API, redeemed over HTTP for submit tokens; every quota refusing with its name
//! (403, or 429 with `Retry-After`); an owner deleting a bot in the middle of a series
//! (the series cancelled, its game stopped, its code gone, its finished games kept and
//! verifying) and then all their data (their tokens revoked). Real daemon, real HTTP,
//! every answer checked against protocol/openapi.json.

mod common;
#[path = "common/openapi.rs"]
mod openapi;

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use common::daemon::*;
use common::http::http;
use common::run::{scratch, text, ZEBRA};
use openapi::{check_answer, openapi};

/// A request whose answer is checked against the document; its status and JSON body.
fn call(
    doc: &Value,
    base: &str,
    method: &str,
    template: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
) -> (u16, Value, String) {
    let headers: &[(&str, &str)] = if template == "/api/v1/bots" {
        &[("Content-Type", "application/gzip")]
    } else {
        &[]
    };
    let answer = http(base, method, path, token, headers, body);
    check_answer(doc, method, template, &answer);
    let value = serde_json::from_str(&answer.2).unwrap_or(Value::Null);
    (answer.0, value, answer.1)
}

/// An uploadable bot: a manifest and a script, and `pad` bytes that do not compress
/// (a seeded generator: the same archive every run).
fn bot_archive(name: &str, pad: usize, seed: u64) -> Vec<u8> {
    let manifest = format!("name = \"{name}\"\ncommand = \"run.sh\"\n").into_bytes();
    let mut x = seed | 1;
    let noise: Vec<u8> = (0..pad)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    archive(&[
        ("zebra-bot.toml", FILE, &manifest, 0o644),
        ("run.sh", FILE, b"#!/bin/sh\nexit 3\n", 0o755),
        ("pad.bin", FILE, &noise, 0o644),
    ])
}

fn strict_missing(daemon: &Daemon) -> bool {
    let weak = daemon.log.lock().unwrap().contains("uploads are refused");
    if weak {
        eprintln!("skipped: no strict sandbox on this machine (see zebra doctor)");
    }
    weak
}

#[test]
fn invite_codes_sign_entrants_up_and_every_quota_refuses_with_its_name() {
    let doc = openapi();
    let dir = scratch("entrants-quotas");
    let data = dir.join("data");
    register_pair(&data);
    admin(&data, &["bot", "activate", "1"]);
    admin(&data, &["bot", "activate", "2"]);
    let root = token(&data, "admin", "root");
    // Bad flags: one line each, nothing made.
    for (args, says) in [
        (&["--uses", "0"][..], "--uses 0: give 1 to 10000"),
        (&["--expires", "soon"][..], "--expires 'soon'"),
    ] {
        let out = std::process::Command::new(ZEBRA)
            .arg("serve")
            .arg("--data")
            .arg(&data)
            .args(["invite", "create"])
            .args(args)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let code = admin(&data, &["invite", "create", "--uses", "2", "--note", "lab"])
        .trim()
        .to_string();
    assert!(code.starts_with("invite_") && code.len() == 39, "{code}");
    let listed = admin(&data, &["invite", "list"]);
    assert!(
        listed.contains("2 uses left") && listed.contains("lab"),
        "{listed}"
    );
    assert!(
        !listed.contains(&code),
        "the code itself is never kept: {listed}"
    );

    let config = dir.join("zebra.toml");
    std::fs::write(
        &config,
        "[quotas]\nbots = 1\nversions = 3\nseries = 2\nstored_bytes = \"150K\"\n\
         uploaded_bytes_per_day = \"250K\"\ngames_per_day = 8\n",
    )
    .unwrap();
    // Nothing plays: the series stay running while the quotas are tried.
    let daemon = start(
        &data,
        &["--config", config.to_str().unwrap(), "--concurrency", "0"],
    );
    let base = &daemon.base;

    // Sign-up.
    let signup = |code: &str, owner: &str| {
        let body = json!({ "code": code, "owner": owner }).to_string();
        call(
            &doc,
            base,
            "POST",
            "/api/v1/signup",
            "/api/v1/signup",
            None,
            Some(body.as_bytes()),
        )
    };
    let (status, p, _) = signup("invite_00000000000000000000000000000000", "alice");
    assert_eq!((status, &p["field"]), (403, &json!("code")), "{p}");
    let (status, p, _) = signup(&code, "a b");
    assert_eq!((status, &p["field"]), (422, &json!("owner")), "{p}");
    let (status, p, _) = signup(&code, "admin");
    assert_eq!((status, &p["field"]), (409, &json!("owner")), "{p}");
    let (status, a, _) = signup(&code, "alice");
    assert_eq!(status, 201, "{a}");
    assert_eq!(
        (&a["owner"], &a["scope"]),
        (&json!("alice"), &json!("submit"))
    );
    assert_eq!(a["quotas"]["games_per_day"], 8);
    let alice = a["token"].as_str().unwrap().to_string();
    let (status, b, _) = signup(&code, "bob");
    assert_eq!(status, 201, "{b}");
    let bob = b["token"].as_str().unwrap().to_string();
    let (status, p, _) = signup(&code, "carol");
    assert_eq!(status, 403, "used up: {p}");
    // An invite made over the API; a taken name is refused before a use is spent.
    let invites = |method: &str, token: &str, body: Option<&[u8]>| {
        call(
            &doc,
            base,
            method,
            "/api/v1/invites",
            "/api/v1/invites",
            Some(token),
            body,
        )
    };
    let (status, inv, _) = invites(
        "POST",
        &root,
        Some(br#"{"uses": 1, "expires": "36h", "note": "late entry"}"#),
    );
    assert_eq!(status, 201, "{inv}");
    let late = inv["code"].as_str().unwrap().to_string();
    assert_eq!(inv["signup_url"], format!("/signup#code={late}"));
    for (token, status) in [(&alice, 403), (&root, 201)] {
        let made = invites("POST", token, None);
        assert_eq!(made.0, status, "{}", made.1);
    }
    let (status, p, _) = signup(&late, "alice");
    assert_eq!(status, 409, "{p}");
    let (status, _, _) = signup(&late, "carol");
    assert_eq!(status, 201, "the use was not spent on the taken name");
    // A leaked code revoked: no more sign-ups with it, over the API or on the shell.
    let (_, spare, _) = invites("POST", &root, Some(br#"{"uses": 5}"#));
    let spare_code = spare["code"].as_str().unwrap().to_string();
    let (_, listed, _) = invites("GET", &root, None);
    let spare_id = listed["invites"][0]["id"].as_i64().unwrap();
    let revoke = |token: &str, id: i64| {
        call(
            &doc,
            base,
            "DELETE",
            "/api/v1/invites/{id}",
            &format!("/api/v1/invites/{id}"),
            Some(token),
            None,
        )
    };
    assert_eq!(revoke(&alice, spare_id).0, 403);
    assert_eq!(revoke(&root, 999).0, 404);
    assert_eq!(revoke(&root, spare_id).0, 200);
    assert_eq!(signup(&spare_code, "dora").0, 403, "revoked");
    admin(&data, &["invite", "revoke", &spare_id.to_string()]);
    let out = std::process::Command::new(ZEBRA)
        .arg("serve")
        .arg("--data")
        .arg(&data)
        .args(["invite", "revoke", "999"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(
        !out.status.success() && err.contains("there is no invite 999"),
        "{err}"
    );
    let (_, made, _) = invites("GET", &root, None);
    let owners: Vec<Value> = made["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["owners"].clone())
        .collect();
    assert!(owners.contains(&json!(["alice", "bob"])), "{made}");
    assert!(owners.contains(&json!(["carol"])), "{made}");
    assert_eq!(invites("GET", &alice, None).0, 403);
    let (status, head, page) = http(base, "GET", "/signup", None, &[], None);
    assert_eq!(status, 200);
    assert!(head.contains("text/html") && page.contains("/api/v1/signup"));

    // series and games_per_day.
    let series = |token: &str, games: u32, key: Option<&str>| {
        let body = json!({"bots": [1, 2], "games": games, "tc": TC}).to_string();
        let headers: Vec<(&str, &str)> = key.map(|k| ("Idempotency-Key", k)).into_iter().collect();
        let answer = http(
            base,
            "POST",
            "/api/v1/series",
            Some(token),
            &headers,
            Some(body.as_bytes()),
        );
        check_answer(&doc, "POST", "/api/v1/series", &answer);
        (
            answer.0,
            serde_json::from_str::<Value>(&answer.2).unwrap(),
            answer.1,
        )
    };
    let (status, p, _) = series(&alice, 10, None);
    assert_eq!((status, &p["quota"]), (403, &json!("games_per_day")), "{p}");
    let (status, s1, _) = series(&alice, 4, Some("k1"));
    assert_eq!(status, 201, "{s1}");
    let (status, s2, _) = series(&alice, 2, None);
    assert_eq!(status, 201, "4 + 2 fit in 8: {s2}");
    let (status, p, _) = series(&alice, 2, None);
    assert_eq!((status, &p["quota"]), (403, &json!("series")), "{p}");
    let (status, again, _) = series(&alice, 4, Some("k1"));
    assert_eq!(
        (status, &again["id"]),
        (200, &s1["id"]),
        "a resubmission is never refused"
    );
    // A cancelled series gives its games back (none of them was played).
    let (status, _, _) = http(
        base,
        "POST",
        &format!("/api/v1/series/{}/cancel", s2["id"]),
        Some(&alice),
        &[],
        None,
    );
    assert_eq!(status, 200);
    let (status, p, head) = series(&alice, 6, None);
    assert_eq!((status, &p["quota"]), (429, &json!("games_per_day")), "{p}");
    assert!(head.contains("retry-after: "), "{head}");
    let (status, s3, _) = series(&alice, 4, None);
    assert_eq!(status, 201, "4 + 4 fit in 8: {s3}");

    if strict_missing(&daemon) {
        return;
    }
    let up = |token: &str, body: &[u8]| {
        call(
            &doc,
            base,
            "POST",
            "/api/v1/bots",
            "/api/v1/bots",
            Some(token),
            Some(body),
        )
    };
    // bots and versions.
    for v in 1..=3 {
        let (status, b, _) = up(&alice, &bot_archive("pike", 10, v));
        assert_eq!(status, 201, "version {v}: {b}");
    }
    let (status, p, _) = up(&alice, &bot_archive("pike", 10, 4));
    assert_eq!((status, &p["quota"]), (403, &json!("versions")), "{p}");
    let (status, p, _) = up(&alice, &bot_archive("perch", 10, 5));
    assert_eq!((status, &p["quota"]), (403, &json!("bots")), "{p}");
    assert!(p["detail"]
        .as_str()
        .unwrap()
        .contains("DELETE /api/v1/bots/"));

    // stored_bytes, then uploaded_bytes_per_day (a deletion gives the first back, not
    // the second).
    let (status, first, _) = up(&bob, &bot_archive("carp", 100_000, 11));
    assert_eq!(status, 201, "{first}");
    let (status, p, _) = up(&bob, &bot_archive("carp", 100_000, 12));
    assert_eq!((status, &p["quota"]), (403, &json!("stored_bytes")), "{p}");
    let delete = |token: &str, id: &Value| {
        call(
            &doc,
            base,
            "DELETE",
            "/api/v1/bots/{id}",
            &format!("/api/v1/bots/{id}"),
            Some(token),
            None,
        )
    };
    assert_eq!(delete(&bob, &first["id"]).0, 200);
    let (status, second, _) = up(&bob, &bot_archive("carp", 100_000, 12));
    assert_eq!(status, 201, "{second}");
    assert_eq!(delete(&bob, &second["id"]).0, 200);
    let (status, p, head) = up(&bob, &bot_archive("carp", 100_000, 13));
    assert_eq!(
        (status, &p["quota"]),
        (429, &json!("uploaded_bytes_per_day")),
        "{p}"
    );
    let wait: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no Retry-After: {head}"));
    // The first upload ages out a day after it came (minutes ago at most).
    assert!((80_000..=86_400).contains(&wait), "{wait}");
    let (status, p, _) = up(&bob, &bot_archive("carp", 260_000, 14));
    assert_eq!(
        (status, &p["quota"]),
        (403, &json!("uploaded_bytes_per_day")),
        "alone over a day's allowance: {p}"
    );
    // An admin has no quota.
    let (status, _, _) = up(&root, &bot_archive("whale", 260_000, 15));
    assert_eq!(status, 201);

    // What each sees of the quotas.
    let quota =
        |token: &str, path: &str| call(&doc, base, "GET", "/api/v1/quota", path, Some(token), None);
    let (status, q, _) = quota(&alice, "/api/v1/quota");
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["owner"], "alice");
    assert_eq!(q["limits"]["bots"], 1);
    assert_eq!(
        (
            &q["used"]["bots"],
            &q["used"]["series"],
            &q["used"]["games_per_day"]
        ),
        (&json!(1), &json!(2), &json!(8)),
        "{q}"
    );
    assert_eq!(quota(&bob, "/api/v1/quota?owner=alice").0, 403);
    let (status, q, _) = quota(&root, "/api/v1/quota?owner=bob");
    assert_eq!((status, &q["used"]["bots"]), (200, &json!(0)), "{q}");
    assert_eq!(
        q["used"]["uploaded_bytes_per_day"].as_u64().unwrap() / 1000,
        200
    );
}

/// The processes whose command line holds `mark`.
fn processes_marked(mark: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            if String::from_utf8_lossy(&cmd).contains(mark) {
                found.push(pid);
            }
        }
    }
    found
}

fn files_under(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            if e.path().is_dir() {
                files_under(&e.path())
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn an_owner_deletes_a_bot_mid_series_and_then_everything_they_have() {
    let doc = openapi();
    let dir = scratch("entrants-delete");
    let data = dir.join("data");
    let mark = "slow-entrant-delete";
    admin(
        &data,
        &[
            "bot",
            "add",
            "slow",
            "--",
            "zebra-test-bot",
            "--sleep-ms",
            "40",
            "--name",
            mark,
        ],
    );
    for (k, name) in ["rando", "rando2"].iter().enumerate() {
        admin(&data, &["bot", "add", name, "--", "zebra-random-bot"]);
        admin(&data, &["bot", "activate", &(k + 2).to_string()]);
    }
    let root = token(&data, "admin", "root");
    let bob = token(&data, "submit", "bob");
    let code = admin(&data, &["invite", "create"]).trim().to_string();
    let config = dir.join("zebra.toml");
    // Short leases: a voided lease is noticed within 2 s, and its game stopped.
    std::fs::write(&config, "lease = \"6s\"\nchecks = 2\n").unwrap();
    let daemon = start(
        &data,
        &["--config", config.to_str().unwrap(), "--concurrency", "2"],
    );
    let base = &daemon.base;
    if strict_missing(&daemon) {
        return;
    }
    let body = json!({ "code": code, "owner": "alice" }).to_string();
    let (status, signed, _) = call(
        &doc,
        base,
        "POST",
        "/api/v1/signup",
        "/api/v1/signup",
        None,
        Some(body.as_bytes()),
    );
    assert_eq!(status, 201, "{signed}");
    let alice = signed["token"].as_str().unwrap().to_string();
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let good = archive(&[
        (
            "zebra-bot.toml",
            FILE,
            b"name = \"minnow\"\ncommand = \"bin/random\"\n",
            0o644,
        ),
        ("bin/random", FILE, &random, 0o755),
    ]);
    let (status, up) = upload(base, &alice, &good);
    assert_eq!(status, 201, "{up}");
    let id = up["id"].as_i64().unwrap();
    // While it waits for its check, its owner sees its place in the line; nobody else does.
    let path = format!("/api/v1/bots/{id}");
    let bot_as = |token: &str| {
        call(
            &doc,
            base,
            "GET",
            "/api/v1/bots/{id}",
            &path,
            Some(token),
            None,
        )
    };
    let (_, mine, _) = bot_as(&alice);
    if mine["state"] == "pending" {
        let place = &mine["check_queue"];
        assert_eq!(place["at_once"], 2, "{mine}");
        assert_eq!(place["ahead"], 0, "nothing else waits: {mine}");
    }
    let (_, theirs, _) = bot_as(&bob);
    assert!(theirs.get("check_queue").is_none(), "{theirs}");
    let bots = wait_checked(base, &alice);
    let (_, mine, _) = bot_as(&alice);
    assert!(mine.get("check_queue").is_none(), "checked: {mine}");
    assert!(
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["id"] == id && b["state"] == "active"),
        "{bots}"
    );
    assert_eq!(files_under(&data.join("archives")), 1);
    // A: short, played out before the deletion. B: long games of the slow bot (minutes
    // each: one still playing when looked at long after the deletion would be one not
    // stopped), filling both of the daemon's slots. C: three bots, waiting behind B.
    let series = |bots: Value, tc: &str| {
        let (status, s) = submit(
            base,
            &bob,
            None,
            &json!({"bots": bots, "games": 2, "tc": tc}),
        );
        assert_eq!(status, 201, "{s}");
        s["id"].as_i64().unwrap()
    };
    let a = series(json!([1, id]), TC);
    let done = wait_series_end(base, &bob, a);
    assert_eq!(done["progress"]["finished"], 2, "{done}");
    let b = series(json!([1, id]), "plays=400,play=5s,reaction=2s");
    let c = series(json!([2, 3, id]), TC);
    wait_for("B's two games playing", Duration::from_secs(240), || {
        let s = get_json(base, &format!("/api/v1/series/{b}"), &bob);
        (s["progress"]["leased"].as_u64() == Some(2)).then_some(())
    });

    let delete = |token: &str| {
        call(
            &doc,
            base,
            "DELETE",
            "/api/v1/bots/{id}",
            &path,
            Some(token),
            None,
        )
    };
    assert_eq!(delete(&bob).0, 403, "bob does not own it");
    let (status, deleted, _) = delete(&alice);
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(deleted["series_cancelled"], json!([b]), "{deleted}");
    assert_eq!(deleted["series_reduced"], json!([c]), "{deleted}");
    assert_eq!(deleted["leases_voided"], 2, "{deleted}");
    assert_eq!(delete(&alice).0, 410);
    assert_eq!(bot_as(&bob).0, 410);
    let listed = get_json(base, "/api/v1/bots", &bob);
    assert!(
        listed["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["id"] != id),
        "{listed}"
    );
    // Its code is gone; the series is cancelled and nothing of it plays any more.
    assert_eq!(files_under(&data.join("archives")), 0);
    wait_for(
        "the unpacked upload to be removed",
        Duration::from_secs(60),
        || {
            (!std::fs::read_dir(data.join("uploads"))
                .unwrap()
                .flatten()
                .any(|e| e.path().join("bin/random").exists()))
            .then_some(())
        },
    );
    let s = get_json(base, &format!("/api/v1/series/{b}"), &bob);
    assert_eq!(s["state"], "cancelled", "{s}");
    assert_eq!(s["progress"]["leased"], 0, "{s}");
    assert_eq!(s["progress"]["queued"], 0, "{s}");
    wait_for(
        "the stopped game's bots to be gone",
        Duration::from_secs(60),
        || processes_marked(mark).is_empty().then_some(()),
    );
    // Series A, ended before, keeps its games, which verify; C plays on without the
    // deleted bot (its other two bots' games) and ends incomplete.
    let kept = get_json(base, &format!("/api/v1/series/{a}"), &bob);
    assert_eq!(
        (&kept["state"], &kept["progress"]["finished"]),
        (&json!("finished"), &json!(2)),
        "{kept}"
    );
    assert_eq!(verify_records(base, &bob, a, &dir), 2);
    let reduced = wait_series_end(base, &bob, c);
    assert_eq!(reduced["outcome"], "incomplete", "{reduced}");
    assert_eq!(reduced["progress"]["finished"], 2, "{reduced}");
    assert_eq!(reduced["progress"]["cancelled"], 4, "{reduced}");
    let (status, p) = submit(
        base,
        &bob,
        None,
        &json!({"bots": [1, id], "games": 2, "tc": TC}),
    );
    assert_eq!((status, &p["field"]), (422, &json!("bots")), "{p}");
    assert!(p["detail"].as_str().unwrap().contains("deleted"), "{p}");

    // Everything of alice's: another bot, and her token.
    let (status, _) = upload(base, &alice, &bot_archive("minnow", 10, 3));
    assert_eq!(status, 201);
    let owner = |token: &str, who: &str| {
        call(
            &doc,
            base,
            "DELETE",
            "/api/v1/owners/{owner}",
            &format!("/api/v1/owners/{who}"),
            Some(token),
            None,
        )
    };
    assert_eq!(owner(&bob, "alice").0, 403);
    assert_eq!(owner(&root, "admin").0, 422);
    let (status, gone, _) = owner(&alice, "alice");
    assert_eq!(status, 200, "{gone}");
    assert_eq!(
        (
            gone["bots"].as_array().unwrap().len(),
            &gone["tokens_revoked"]
        ),
        (1, &json!(1)),
        "{gone}"
    );
    let (status, _, _) = http(base, "GET", "/api/v1/bots", Some(&alice), &[], None);
    assert_eq!(status, 401, "her token is revoked");
    // The daemon goes on for the others.
    assert_eq!(
        http(base, "GET", "/api/v1/bots", Some(&bob), &[], None).0,
        200
    );
}
