//! `zebra serve` as a client sees it: a real daemon process on 127.0.0.1, real HTTP, real
//! bots. Registration and checks, a series equal to `zebra match` on the same seeds,
//! records that verify, tokens and scopes on every route, bad input refused with a problem
//! body naming the field, idempotent resubmission, cancel, `kill -9` mid-series and a
//! restart that ends with exactly the games of an uninterrupted run, SIGTERM.
//!
//! Every wait has a generous deadline and no assertion depends on how fast the machine is.

mod common;
#[path = "common/openapi.rs"]
mod openapi;
#[path = "common/webdriver.rs"]
#[allow(dead_code)] // the driver's clicks are for the viewer's tests
mod webdriver;
use webdriver::wait_page;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use common::daemon::*;
use common::http::http;
use common::run::{scratch, text, ZEBRA};
use openapi::{check_answer, openapi};

#[test]
fn a_series_through_the_api_equals_zebra_match_and_its_records_verify() {
    let dir = scratch("equal");
    let data = dir.join("data");
    register_pair(&data);
    // A bot that fails its check: it exits at once.
    admin(&data, &["bot", "add", "broken", "--", "/bin/false"]);
    let ann = token(&data, "submit", "ann");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    let bots = wait_checked(base, &ann);
    let states: Vec<(&str, &str)> = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["name"].as_str().unwrap(), b["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        states,
        [
            ("greedy", "active"),
            ("random", "active"),
            ("broken", "rejected")
        ]
    );
    // The check report is the owner's (admin here), not ann's.
    assert!(bots["bots"][2].get("report").is_none());
    let root = token(&data, "admin", "root");
    let broken = get_json(base, "/api/v1/bots/3", &root);
    assert!(
        broken["report"]["problem"]
            .as_str()
            .unwrap()
            .contains("check-bot"),
        "{broken}"
    );
    let good = get_json(base, "/api/v1/bots/1", &root);
    assert_eq!(good["report"]["smoke"]["termination"], "normal", "{good}");

    // A rejected bot cannot play.
    let (status, problem) = submit(base, &ann, None, &json!({"bots": [1, 3], "tc": TC}));
    assert_eq!(
        (status, problem["field"].as_str()),
        (409, Some("bots")),
        "{problem}"
    );

    let request = json!({"bots": [1, 2], "games": 8, "tc": TC, "seed": 7});
    let (status, created) = submit(base, &ann, Some("ci-run-1"), &request);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["games_planned"], 8);
    let done = wait_series_end(base, &ann, id);
    assert_eq!(
        (done["state"].as_str(), done["outcome"].as_str()),
        (Some("finished"), Some("completed")),
        "{done}"
    );
    assert_eq!(done["progress"]["finished"], 8);
    let matched = match_summary(&dir, 8);
    assert_eq!(statistics(&done["summary"]), statistics(&matched));
    assert_eq!(verify_records(base, &ann, id, &dir), 8);

    // The same request under its key again: the same series, nothing queued again.
    let (status, again) = submit(base, &ann, Some("ci-run-1"), &request);
    assert_eq!((status, again["id"].as_i64()), (200, Some(id)));
    let (status, conflict) = submit(
        base,
        &ann,
        Some("ci-run-1"),
        &json!({"bots": [1, 2], "games": 4, "tc": TC}),
    );
    assert_eq!(status, 409, "{conflict}");
    assert_eq!(
        get_json(base, "/api/v1/series", &ann)["series"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The game as the viewer's JSON view stream, and the leaderboard with both bots.
    let view = get_json(base, "/api/v1/games/1/view", &ann);
    assert!(
        view["steps"].as_array().is_some_and(|s| !s.is_empty()),
        "{view}"
    );
    let board = get_json(base, "/api/v1/leaderboard", &ann);
    let ratings = board["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    assert_eq!(ratings[0]["games"], 8);
    let (status, head, metrics) = http(base, "GET", "/metrics", Some(&ann), &[], None);
    assert_eq!(status, 200);
    assert!(head.contains("text/plain"), "{head}");
    assert!(
        metrics.contains("zebra_games_finished_total 8\n"),
        "{metrics}"
    );

    // The series' event stream: a finished series' stream ends, its last line the end.
    let (status, head, stream) = http(
        base,
        "GET",
        &format!("/api/v1/series/{id}/events"),
        Some(&ann),
        &[],
        None,
    );
    assert_eq!(status, 200);
    assert!(head.contains("text/event-stream"), "{head}");
    let lines: Vec<Value> = stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.first().unwrap()["type"], "series_started");
    assert_eq!(lines.last().unwrap()["type"], "series_finished");
    assert_eq!(lines.last().unwrap()["outcome"], "completed");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l["type"] == "game_finished")
            .count(),
        8
    );

    the_server_answers_as_its_openapi_document_says(base, &root, id);
}

#[test]
fn a_gauntlet_s_summary_over_http_has_its_gauntlet_line_as_documented() {
    let dir = scratch("gauntlet-summary");
    let data = dir.join("data");
    register_pair(&data);
    admin(&data, &["bot", "add", "twin", "--", "zebra-random-bot"]);
    let ann = token(&data, "submit", "ann");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    wait_checked(base, &ann);
    let request = json!({"bots": [1, 2, 3], "format": "gauntlet", "games": 2, "tc": TC});
    let (status, created) = submit(base, &ann, None, &request);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let done = wait_series_end(base, &ann, id);
    // Greedy against random and twin as one: every game of both encounters.
    let gauntlet = &done["summary"]["gauntlet"];
    assert_eq!(gauntlet["a"], "greedy", "{done}");
    assert_eq!(gauntlet["b"], "the gauntlet", "{done}");
    let games: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| gauntlet["stats"][k].as_u64().unwrap())
        .sum();
    assert_eq!(games, 4, "{done}");
    let answer = http(
        base,
        "GET",
        &format!("/api/v1/series/{id}"),
        Some(&ann),
        &[],
        None,
    );
    check_answer(&openapi(), "GET", "/api/v1/series/{id}", &answer);
}

/// Boyer's Football's clock for the daemon's tests: a turn has 5 s, whatever the load (the
/// records hold no times: the same seeds give the same games).
const BOYER_TC: &str = "turn=5s";

/// One exchange checked against protocol/openapi.json; its status and JSON body.
fn documented(
    base: &str,
    token: &str,
    method: &str,
    template: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, Value) {
    let text = body.map(Value::to_string);
    let answer = http(
        base,
        method,
        path,
        Some(token),
        &[],
        text.as_deref().map(str::as_bytes),
    );
    check_answer(&openapi(), method, template, &answer);
    (
        answer.0,
        serde_json::from_str(&answer.2).unwrap_or(Value::Null),
    )
}

#[test]
fn a_boyer_series_over_http_plays_after_its_bots_pass_boyers_check_and_rates_on_its_own_board() {
    let dir = scratch("boyer");
    let data = dir.join("data");
    register_pair(&data);
    let ann = token(&data, "submit", "ann");
    let root = token(&data, "admin", "root");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    let bots = wait_checked(base, &ann);
    // Registered by an admin: entered in Football Chess, as every bot before games.
    assert_eq!(
        bots["bots"][0]["games"],
        json!({"football-chess": "active"})
    );
    let boyer = |bots: &[i64]| json!({"game": "boyer-football", "bots": bots, "games": 4, "tc": BOYER_TC, "seed": 3});

    // A series of a game its bots have not passed the check of is refused, naming them.
    let (status, problem) = submit(base, &ann, None, &boyer(&[1, 2]));
    assert_eq!((status, problem["field"].as_str()), (409, Some("bots")));
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("not entered in boyer-football"),
        "{problem}"
    );
    // Each bad option names its field: an unknown game (with the games known), a clock of
    // the other game, Football Chess's drives.
    for (body, name, says) in [
        (
            json!({"game": "chess", "bots": [1, 2]}),
            "game",
            "known: football-chess, boyer-football",
        ),
        (
            json!({"game": "boyer-football", "bots": [1, 2], "tc": TC}),
            "tc",
            "boyer-football",
        ),
        (
            json!({"game": "boyer-football", "bots": [1, 2], "situations": "builtin"}),
            "situations",
            "has no built-in book",
        ),
    ] {
        let (status, problem) = documented(
            base,
            &ann,
            "POST",
            "/api/v1/series",
            "/api/v1/series",
            Some(&body),
        );
        assert_eq!(
            (status, problem["field"].as_str()),
            (422, Some(name)),
            "{problem}"
        );
        assert!(
            problem["detail"].as_str().unwrap().contains(says),
            "{problem}"
        );
    }

    // Entering the bots in Boyer's Football: their owner's (the admin's) to do, not ann's.
    let enter = json!({"game": "boyer-football"});
    let (status, _) = documented(
        base,
        &ann,
        "POST",
        "/api/v1/bots/{id}/games",
        "/api/v1/bots/1/games",
        Some(&enter),
    );
    assert_eq!(status, 403);
    let (status, bad) = documented(
        base,
        &root,
        "POST",
        "/api/v1/bots/{id}/games",
        "/api/v1/bots/1/games",
        Some(&json!({"game": "chess"})),
    );
    assert_eq!(
        (status, bad["field"].as_str()),
        (422, Some("game")),
        "{bad}"
    );
    for id in [1, 2] {
        let path = format!("/api/v1/bots/{id}/games");
        let (status, entered) = documented(
            base,
            &root,
            "POST",
            "/api/v1/bots/{id}/games",
            &path,
            Some(&enter),
        );
        assert_eq!(
            (status, entered["state"].as_str()),
            (202, Some("pending")),
            "{entered}"
        );
    }
    // Each is checked for Boyer's Football: its questions and a Boyer smoke game.
    let checked = wait_for("the Boyer checks", Duration::from_secs(300), || {
        let bots = get_json(base, "/api/v1/bots", &root);
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["games"]["boyer-football"] != "pending")
            .then_some(bots)
    });
    for bot in checked["bots"].as_array().unwrap() {
        assert_eq!(
            bot["games"],
            json!({"football-chess": "active", "boyer-football": "active"}),
            "{bot}"
        );
        let report = &bot["reports"]["boyer-football"];
        assert_eq!(report["game"], "boyer-football", "{report}");
        assert_eq!(report["verdict"], "active", "{report}");
        assert!(report["smoke"]["result"].is_string(), "{report}");
        assert_eq!(bot["reports"]["football-chess"]["verdict"], "active");
    }
    // Entered again: its check stands.
    let (status, again) = documented(
        base,
        &root,
        "POST",
        "/api/v1/bots/{id}/games",
        "/api/v1/bots/1/games",
        Some(&enter),
    );
    assert_eq!((status, again["state"].as_str()), (200, Some("active")));

    // A Boyer series and a Football Chess one, side by side.
    let (status, created) = documented(
        base,
        &ann,
        "POST",
        "/api/v1/series",
        "/api/v1/series",
        Some(&boyer(&[1, 2])),
    );
    assert_eq!(
        (status, created["game"].as_str()),
        (201, Some("boyer-football")),
        "{created}"
    );
    let id = created["id"].as_i64().unwrap();
    let (status, chess) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 2, "tc": TC, "seed": 3}),
    );
    assert_eq!(
        (status, chess["game"].as_str()),
        (201, Some("football-chess"))
    );
    let done = wait_series_end(base, &ann, id);
    assert_eq!(
        (done["state"].as_str(), done["outcome"].as_str()),
        (Some("finished"), Some("completed")),
        "{done}"
    );
    assert_eq!(done["game"], "boyer-football");
    assert_eq!(done["request"]["game"], "boyer-football");
    assert_eq!(done["progress"]["finished"], 4);
    wait_series_end(base, &ann, chess["id"].as_i64().unwrap());
    let (_, status_answer) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/series/{id}",
        &format!("/api/v1/series/{id}"),
        None,
    );
    assert_eq!(status_answer["summary"]["games_finished"], 4);
    let (_, list) = documented(base, &ann, "GET", "/api/v1/series", "/api/v1/series", None);
    let games: Vec<&str> = list["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["football-chess", "boyer-football"]);

    // Stored as Boyer records that verify, and viewable.
    assert_eq!(verify_records(base, &ann, id, &dir), 4);
    let first = get_json(base, &format!("/api/v1/series/{id}/games"), &ann)["games"][0]["id"]
        .as_i64()
        .unwrap();
    let (status, _, pgn) = http(
        base,
        "GET",
        &format!("/api/v1/games/{first}/pgn"),
        Some(&ann),
        &[],
        None,
    );
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"boyer-football\"]"), "{pgn}");
    let (status, _) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/games/{id}/view",
        &format!("/api/v1/games/{first}/view"),
        None,
    );
    assert_eq!(status, 200);

    // Each game its own leaderboard: Boyer's has the four Boyer games, Football Chess's
    // (the default) the two others.
    let (status, board) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/leaderboard",
        "/api/v1/leaderboard?game=boyer-football",
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        (board["game"].as_str(), board["games"].as_u64()),
        (Some("boyer-football"), Some(4))
    );
    let ratings = board["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    assert!(ratings.iter().all(|r| r["games"] == 4), "{board}");
    let (_, chess_board) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/leaderboard",
        "/api/v1/leaderboard",
        None,
    );
    assert_eq!(
        (chess_board["game"].as_str(), chess_board["games"].as_u64()),
        (Some("football-chess"), Some(2))
    );
    let (status, bad) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/leaderboard",
        "/api/v1/leaderboard?game=chess",
        None,
    );
    assert_eq!((status, bad["field"].as_str()), (400, Some("game")));

    // The front page: a table per game, each series with its game.
    if let Some(driver) = webdriver::driver() {
        driver.open(&format!("{base}/#token={ann}"));
        let shown = wait_page(
            &driver,
            "the leaderboards",
            "const b = (id) => [...document.querySelectorAll('#' + id + ' tbody tr')].map(r => Number(r.dataset.games)); \
             const boyer = b('leaderboard-boyer-football'); \
             return boyer.length === 2 ? [boyer, b('leaderboard'), [...document.querySelectorAll('#series tbody tr')].map(r => r.dataset.game)] : null;",
        );
        assert_eq!(
            shown,
            json!([[4, 4], [2, 2], ["football-chess", "boyer-football"]])
        );
    }

    // An upload says its games in its manifest: checked for those alone.
    if daemon.log.lock().unwrap().contains("uploads are refused") {
        eprintln!("uploads skipped: no strict sandbox on this machine (see zebra doctor)");
        return;
    }
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let manifest = |games: &str| {
        format!("name = \"boyer-only\"\ncommand = \"random\"\ngames = {games}\n").into_bytes()
    };
    let wrong = manifest(r#"["chess"]"#);
    let (status, refused) = upload(
        base,
        &ann,
        &archive(&[
            ("zebra-bot.toml", FILE, &wrong, 0o644),
            ("random", FILE, &random, 0o755),
        ]),
    );
    assert_eq!(status, 422, "{refused}");
    assert!(
        refused["detail"].as_str().unwrap().contains("games"),
        "{refused}"
    );
    let good = manifest(r#"["boyer-football"]"#);
    let (status, uploaded) = upload(
        base,
        &ann,
        &archive(&[
            ("zebra-bot.toml", FILE, &good, 0o644),
            ("random", FILE, &random, 0o755),
        ]),
    );
    assert_eq!(status, 201, "{uploaded}");
    assert_eq!(uploaded["games"], json!(["boyer-football"]));
    let up = uploaded["id"].as_i64().unwrap();
    let bot = wait_for("the upload's check", Duration::from_secs(300), || {
        let bot = get_json(base, &format!("/api/v1/bots/{up}"), &ann);
        (bot["state"] != "pending").then_some(bot)
    });
    assert_eq!(bot["games"], json!({"boyer-football": "active"}), "{bot}");
    let (status, problem) = submit(base, &ann, None, &json!({"bots": [1, up], "tc": TC}));
    assert_eq!(
        (status, problem["field"].as_str()),
        (409, Some("bots")),
        "{problem}"
    );
    let (status, _) = submit(base, &ann, None, &boyer(&[1, up]));
    assert_eq!(status, 201);
}

/// Every operation of the document, called with a token and without, and with an id
/// nobody has: each answer is one the document declares, with the declared body.
fn the_server_answers_as_its_openapi_document_says(base: &str, token: &str, series: i64) {
    let doc = openapi();
    let body = json!({"bots": [1, 2], "games": 2, "tc": TC}).to_string();
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let bot = archive(&[
        (
            "zebra-bot.toml",
            FILE,
            b"name = \"conformance\"\ncommand = \"random\"\n",
            0o644,
        ),
        ("random", FILE, &random, 0o755),
    ]);
    let calls: Vec<(&str, &str, String, Option<&[u8]>)> = vec![
        ("GET", "/healthz", "/healthz".into(), None),
        ("GET", "/metrics", "/metrics".into(), None),
        ("GET", "/api/v1/bots", "/api/v1/bots".into(), None),
        (
            "POST",
            "/api/v1/bots",
            "/api/v1/bots".into(),
            Some(bot.as_slice()),
        ),
        ("GET", "/api/v1/bots/{id}", "/api/v1/bots/1".into(), None),
        (
            "POST",
            "/api/v1/bots/{id}/games",
            "/api/v1/bots/1/games".into(),
            Some(br#"{"game": "boyer-football"}"#.as_slice()),
        ),
        ("GET", "/api/v1/series", "/api/v1/series".into(), None),
        (
            "POST",
            "/api/v1/series",
            "/api/v1/series".into(),
            Some(body.as_bytes()),
        ),
        (
            "GET",
            "/api/v1/series/{id}",
            format!("/api/v1/series/{series}"),
            None,
        ),
        (
            "GET",
            "/api/v1/series/{id}/games",
            format!("/api/v1/series/{series}/games"),
            None,
        ),
        (
            "GET",
            "/api/v1/series/{id}/events",
            format!("/api/v1/series/{series}/events"),
            None,
        ),
        (
            "POST",
            "/api/v1/series/{id}/cancel",
            format!("/api/v1/series/{series}/cancel"),
            Some(b"".as_slice()),
        ),
        ("GET", "/api/v1/games/{id}", "/api/v1/games/1".into(), None),
        (
            "GET",
            "/api/v1/games/{id}/pgn",
            "/api/v1/games/1/pgn".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/games/{id}/view",
            "/api/v1/games/1/view".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/leaderboard",
            "/api/v1/leaderboard".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/games/{id}/log",
            "/api/v1/games/1/log".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/bots/{id}/games",
            "/api/v1/bots/1/games?limit=5".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/bots/{id}/history",
            "/api/v1/bots/1/history".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/bots/{id}/pgn",
            "/api/v1/bots/1/pgn".into(),
            None,
        ),
        (
            "GET",
            "/api/v1/series/{id}/pgn",
            format!("/api/v1/series/{series}/pgn"),
            None,
        ),
        (
            "GET",
            "/api/v1/crosstable",
            "/api/v1/crosstable".into(),
            None,
        ),
    ];
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            // The remote workers' routes (tests/workers.rs calls them as workers do) and
            // the entrants' (tests/entrants.rs) are checked in their own tests.
            if op["tags"][0] == "workers" || op["tags"][0] == "entrants" {
                continue;
            }
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                documented.push((method.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    let mut called: Vec<(String, String)> = calls
        .iter()
        .map(|(m, t, _, _)| (m.to_string(), t.to_string()))
        .collect();
    documented.sort();
    called.sort();
    assert_eq!(
        documented, called,
        "the document and the routes tested differ"
    );
    for (method, template, path, body) in &calls {
        let body = *body;
        let answer = http(base, method, path, Some(token), &[], body);
        // 503: a machine without the strict sandbox takes no uploads (still as documented).
        let refused_upload = answer.0 == 503 && *method == "POST" && *template == "/api/v1/bots";
        // 404: a clean game keeps no logs (a failed one's are read in their own test).
        let no_log = answer.0 == 404 && template.ends_with("/log");
        assert!(
            answer.0 < 300 || refused_upload || no_log,
            "{method} {path}: {}",
            answer.2
        );
        check_answer(&doc, method, template, &answer);
        if *template != "/healthz" {
            let anonymous = http(base, method, path, None, &[], body);
            assert_eq!(anonymous.0, 401, "{method} {path}");
            check_answer(&doc, method, template, &anonymous);
        }
        if template.contains("{id}") {
            let missing = path
                .replace(&format!("/{series}"), "/999")
                .replace("/1", "/999");
            let answer = http(base, method, &missing, Some(token), &[], body);
            assert_eq!(answer.0, 404, "{method} {missing}");
            check_answer(&doc, method, template, &answer);
        }
    }
    // A refused body: the problem as documented.
    let refused = http(
        base,
        "POST",
        "/api/v1/series",
        Some(token),
        &[],
        Some(b"{\"bots\": 3}"),
    );
    assert_eq!(refused.0, 400);
    check_answer(&doc, "POST", "/api/v1/series", &refused);
}

#[test]
fn every_route_refuses_a_missing_or_weaker_token_and_bad_input_names_the_field() {
    let data = scratch("auth").join("data");
    register_pair(&data);
    let read = token(&data, "read", "rita");
    let ann = token(&data, "submit", "ann");
    let bob = token(&data, "submit", "bob");
    let daemon = start(&data, &["--concurrency", "1"]);
    let base = &daemon.base;
    wait_checked(base, &read);
    let reads = [
        "/metrics",
        "/api/v1/bots",
        "/api/v1/bots/1",
        "/api/v1/series",
        "/api/v1/series/1",
        "/api/v1/series/1/games",
        "/api/v1/games/1",
        "/api/v1/games/1/pgn",
        "/api/v1/games/1/view",
        "/api/v1/leaderboard",
    ];
    for path in reads {
        let (status, head, body) = http(base, "GET", path, None, &[], None);
        assert_eq!(status, 401, "{path}: {body}");
        assert!(head.contains("application/problem+json"), "{path}: {head}");
        assert!(head.contains("www-authenticate: bearer"), "{path}: {head}");
        let (status, _, body) = http(base, "GET", path, Some("zebra_wrong"), &[], None);
        assert_eq!(status, 401, "{path}: {body}");
    }
    for (path, body) in [
        ("/api/v1/series", r#"{"bots":[1,2]}"#),
        ("/api/v1/series/1/cancel", ""),
    ] {
        let (status, _, text) = http(base, "POST", path, None, &[], Some(body.as_bytes()));
        assert_eq!(status, 401, "{path}: {text}");
        let (status, _, text) = http(base, "POST", path, Some(&read), &[], Some(body.as_bytes()));
        assert_eq!(status, 403, "{path}: {text}");
        assert!(text.contains("needs submit"), "{text}");
    }
    let (status, _, text) = http(base, "GET", "/healthz", None, &[], None);
    assert_eq!((status, text.as_str()), (200, "ok\n"));

    // Bad input: a 4xx problem naming the field; nothing written.
    for (body, status, field) in [
        ("{", 400, None),
        (r#"{"bots": [1, 2], "gmaes": 4}"#, 400, Some("gmaes")),
        (r#"{"bots": [1, 2], "games": "four"}"#, 400, Some("games")),
        (r#"{"bots": [1, 2], "games": 5}"#, 422, Some("games")),
        (r#"{"bots": [1, 99]}"#, 422, Some("bots")),
        (r#"{"bots": [1, 2], "tc": "soon"}"#, 422, Some("tc")),
        (
            r#"{"bots": [1, 2], "format": "swiss"}"#,
            422,
            Some("format"),
        ),
        (r#"{"bots": [1, 2]} trailing"#, 400, None),
    ] {
        let (got, head, text) = http(
            base,
            "POST",
            "/api/v1/series",
            Some(&ann),
            &[],
            Some(body.as_bytes()),
        );
        assert_eq!(got, status, "{body}: {text}");
        assert!(head.contains("application/problem+json"), "{head}");
        let problem: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(problem["status"], status);
        assert_eq!(problem["field"].as_str(), field, "{body}: {text}");
        assert!(!problem["detail"].as_str().unwrap().contains('\n'));
    }
    // The unknown field is named in the detail.
    let (_, _, text) = http(
        base,
        "POST",
        "/api/v1/series",
        Some(&ann),
        &[],
        Some(br#"{"bots": [1, 2], "gmaes": 4}"#),
    );
    assert!(text.contains("gmaes"), "{text}");
    let big = vec![b' '; 200 * 1024];
    let (status, _, text) = http(base, "POST", "/api/v1/series", Some(&ann), &[], Some(&big));
    assert_eq!(status, 413, "{text}");
    for path in [
        "/api/v1/series/x",
        "/api/v1/series/-1",
        "/api/v1/games/99",
        "/nope",
    ] {
        let (status, _, text) = http(base, "GET", path, Some(&read), &[], None);
        assert_eq!(status, 404, "{path}: {text}");
    }
    let (status, _, text) = http(
        base,
        "GET",
        "/api/v1/series?limit=0",
        Some(&read),
        &[],
        None,
    );
    assert_eq!(status, 400, "{text}");
    assert!(get_json(base, "/api/v1/series", &read)["series"]
        .as_array()
        .unwrap()
        .is_empty());

    // Cancel: only the owner (or an admin); queued games are cancelled.
    let (status, created) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 400, "tc": TC}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let cancel = format!("/api/v1/series/{id}/cancel");
    let (status, _, text) = http(base, "POST", &cancel, Some(&bob), &[], Some(b""));
    assert_eq!(status, 403, "{text}");
    let (status, _, text) = http(base, "POST", &cancel, Some(&ann), &[], Some(b""));
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["state"], "cancelled");
    assert!(
        answer["games_cancelled"].as_u64().unwrap() > 300,
        "{answer}"
    );
    let s = get_json(base, &format!("/api/v1/series/{id}"), &read);
    assert_eq!(s["outcome"], "cancelled");
    // Running games finish; nothing more is leased.
    let settled = wait_for("the running game to end", Duration::from_secs(120), || {
        let s = get_json(base, &format!("/api/v1/series/{id}"), &read);
        (s["progress"]["leased"] == 0).then_some(s)
    });
    assert_eq!(settled["progress"]["queued"], 0);
}

#[test]
fn kill_9_mid_series_then_restart_ends_with_the_games_of_an_uninterrupted_run() {
    let dir = scratch("crash");
    let data = dir.join("data");
    register_pair(&data);
    let ann = token(&data, "submit", "ann");
    let mut daemon = start(&data, &["--concurrency", "2"]);
    let base = daemon.base.clone();
    wait_checked(&base, &ann);
    let (status, created) = submit(
        &base,
        &ann,
        Some("nightly"),
        &json!({"bots": [1, 2], "games": 16, "tc": TC, "seed": 7}),
    );
    assert_eq!(status, 201);
    let id = created["id"].as_i64().unwrap();
    // Killed once some games are counted and others are running.
    wait_for("a few games", Duration::from_secs(120), || {
        let s = get_json(&base, &format!("/api/v1/series/{id}"), &ann);
        let p = &s["progress"];
        (p["finished"].as_u64().unwrap() >= 3 || s["state"] != "running").then_some(())
    });
    // A keep-alive connection open across the kill: the dead daemon's end of it closes
    // first and lingers in TIME_WAIT, and its bots are still running at that moment.
    let addr = base.trim_start_matches("http://").to_string();
    let mut held = std::net::TcpStream::connect(&addr).unwrap();
    held.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(held, "GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut answer = [0u8; 12];
    held.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    daemon.child.kill().unwrap(); // SIGKILL
    daemon.child.wait().unwrap();
    drop(daemon);
    drop(held);

    // At once, on the same address: SO_REUSEADDR, and no listening socket left behind in
    // a process of the dead daemon's.
    let daemon = start(&data, &["--concurrency", "2", "--listen", &addr]);
    let base = daemon.base.clone();
    let done = wait_series_end(&base, &ann, id);
    assert_eq!(done["outcome"], "completed", "{done}");
    assert_eq!(done["progress"]["finished"], 16);
    assert_eq!(done["progress"]["void"], 0);
    let matched = match_summary(&dir, 16);
    assert_eq!(statistics(&done["summary"]), statistics(&matched));
    assert_eq!(verify_records(&base, &ann, id, &dir), 16);
    // Each game counted once: one finished row per number.
    let games = get_json(&base, &format!("/api/v1/series/{id}/games"), &ann);
    let numbers: Vec<u64> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=16).collect::<Vec<u64>>());
}

#[test]
fn sigterm_stops_cleanly_and_the_abandoned_games_are_played_after_a_restart() {
    let data = scratch("term").join("data");
    // Slow bots: a game is surely running when the signal comes.
    let slow = format!(
        "{}",
        Path::new(ZEBRA).with_file_name("zebra-test-bot").display()
    );
    admin(
        &data,
        &["bot", "add", "slow-a", "--", &slow, "--sleep-ms", "60"],
    );
    admin(
        &data,
        &["bot", "add", "slow-b", "--", &slow, "--sleep-ms", "60"],
    );
    let ann = token(&data, "submit", "ann");
    // A grace period far shorter than a game of these bots.
    let config = data.with_file_name("serve.toml");
    std::fs::write(&config, "shutdown_grace = \"1s\"\n").unwrap();
    let config = config.to_str().unwrap();
    let mut daemon = start(&data, &["--concurrency", "1", "--config", config]);
    let base = daemon.base.clone();
    let bots = wait_checked(&base, &ann);
    assert!(
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["state"] == "active"),
        "{bots}"
    );
    let (_, created) = submit(
        &base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 2, "tc": TC}),
    );
    let id = created["id"].as_i64().unwrap();
    wait_for("a game to run", Duration::from_secs(60), || {
        let s = get_json(&base, &format!("/api/v1/series/{id}"), &ann);
        (s["progress"]["leased"] == 1).then_some(())
    });
    // SIGTERM with a grace shorter than the game: it is abandoned, and the daemon exits 0.
    unsafe { libc::kill(daemon.child.id() as i32, libc::SIGTERM) };
    let status = wait_for("the daemon to exit", Duration::from_secs(120), || {
        daemon.child.try_wait().unwrap()
    });
    assert!(
        status.success(),
        "{status:?}: {}",
        daemon.log.lock().unwrap()
    );
    drop(daemon);
    let daemon = start(&data, &["--concurrency", "1"]);
    let done = wait_series_end(&daemon.base, &ann, id);
    assert_eq!(done["progress"]["finished"], 2, "{done}");
    assert!(
        done["progress"]["voided_attempts"].as_u64().unwrap() >= 1,
        "{done}"
    );
}

#[test]
fn bad_settings_and_a_bad_data_directory_are_one_line() {
    let dir = scratch("settings");
    let data = dir.join("data");
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--data"])
        .arg(&data)
        .env(WEAK, "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("schema 10): ok") && text(&out.stdout).contains("quotas none"),
        "{}",
        text(&out.stdout)
    );

    let bad = dir.join("bad.toml");
    for (file, says) in [
        ("concurrency = 300\n", "concurrency"),
        ("checks = 0\n", "checks: 0: give 1 to 64"),
        ("[quotas]\nbots = 0\n", "quotas.bots: give at least 1"),
        (
            "[quotas]\nstored_bytes = \"lots\"\n",
            "quotas.stored_bytes: 'lots'",
        ),
        ("[quotas]\nseats = 3\n", "unknown field `seats`"),
    ] {
        std::fs::write(&bad, file).unwrap();
        let out = Command::new(ZEBRA)
            .args(["serve", "--check-config", "--config"])
            .arg(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = text(&out.stderr);
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{file}: {err}"
        );
    }
    std::fs::write(&bad, "[quotas]\nbots = 5\nstored_bytes = \"200M\"\n").unwrap();
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--config"])
        .arg(&bad)
        .arg("--data")
        .arg(&data)
        .env(WEAK, "1")
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains("quotas bots 5, stored_bytes 200.0 MiB"),
        "{}",
        text(&out.stdout)
    );

    // A corrupt database: named, never reset.
    let junk_dir = dir.join("junk");
    std::fs::create_dir_all(&junk_dir).unwrap();
    std::fs::write(junk_dir.join("zebra.db"), vec![0x5a_u8; 8192]).unwrap();
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--data"])
        .arg(&junk_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("zebra.db") && err.lines().count() == 1,
        "{err}"
    );

    // Two daemons on one data directory: the second says who holds it.
    let first = start(&data, &[]);
    let out = Command::new(ZEBRA)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("in use"),
        "{}",
        text(&out.stderr)
    );
    drop(first);

    // Admin commands: bad scope, a name taken, a missing program.
    for (args, needle) in [
        (vec!["token", "create", "--scope", "root"], "--scope"),
        (
            vec!["bot", "add", "ghost", "--", "/no/such/bot"],
            "/no/such/bot",
        ),
        (vec!["bot", "add", "nameless"], "give the program"),
    ] {
        let out = Command::new(ZEBRA)
            .arg("serve")
            .arg("--data")
            .arg(&data)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    admin(&data, &["bot", "add", "greedy", "--", "zebra-greedy-bot"]);
    // The same name again by its owner is the next version; by another owner, refused.
    let again = admin(&data, &["bot", "add", "greedy", "--", "zebra-random-bot"]);
    assert!(again.contains("bot 2 greedy v2: registered"), "{again}");
    let out = Command::new(ZEBRA)
        .args(["serve", "bot", "add", "greedy", "--owner", "bob", "--data"])
        .arg(&data)
        .args(["--", "zebra-random-bot"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("the name greedy is taken by a bot of another owner")
            && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn ladder_mode_keeps_pairs_queued_between_active_bots_and_fills_the_leaderboard() {
    let dir = scratch("ladder");
    let data = dir.join("data");
    register_pair(&data);
    admin(&data, &["bot", "add", "instant", "--", "zebra-instant-bot"]);
    // A bot that draws flags on purpose: legal play, admitted (its check says so).
    admin(&data, &["bot", "add", "fouler", "--", "zebra-fouling-bot"]);
    admin(&data, &["bot", "add", "broken", "--", "/bin/false"]);
    let config = dir.join("serve.toml");
    std::fs::write(
        &config,
        format!("[ladder]\ngames_at_once = 2\ntc = \"{TC}\"\n"),
    )
    .unwrap();
    let read = token(&data, "read", "rita");
    let daemon = start(
        &data,
        &["--concurrency", "2", "--config", config.to_str().unwrap()],
    );
    let base = &daemon.base;
    let board = wait_for("ladder games", Duration::from_secs(300), || {
        let board = get_json(base, "/api/v1/leaderboard", &read);
        let ratings = board["ratings"].as_array().unwrap();
        (board["games"].as_u64().unwrap() >= 16
            && ratings.len() == 4
            && ratings.iter().all(|r| r["games"].as_u64().unwrap() >= 4))
        .then_some(board)
    });
    // The rejected bot never plays.
    assert!(board["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["name"] != "broken"));
    // Every ladder series is one pair (same seed, sides swapped), owned by the ladder, and
    // no more than games_at_once ladder games are ever queued or running.
    let list = get_json(base, "/api/v1/series?limit=1000", &read);
    let series = list["series"].as_array().unwrap();
    assert!(series.len() >= 6, "{list}");
    let mut open = 0;
    for s in series {
        assert_eq!(s["owner"], "ladder");
        assert_eq!(s["request"]["games"], 2);
        let status = get_json(base, &format!("/api/v1/series/{}", s["id"]), &read);
        let p = &status["progress"];
        open += p["queued"].as_u64().unwrap() + p["leased"].as_u64().unwrap();
    }
    assert!(open <= 2 + 2, "ladder games open: {open}");
}

#[test]
fn the_pages_show_the_leaderboard_updating_a_live_game_and_a_replay_in_chromium() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("pages");
    let data = dir.join("data");
    // Bots that sleep 25 ms a decision: a game lasts seconds, so one is live when looked at.
    let slow = Path::new(ZEBRA).with_file_name("zebra-test-bot");
    let slow = slow.to_str().unwrap();
    admin(
        &data,
        &["bot", "add", "north", "--", slow, "--sleep-ms", "25"],
    );
    admin(
        &data,
        &["bot", "add", "south", "--", slow, "--sleep-ms", "25"],
    );
    let read = token(&data, "read", "rita");
    let ann = token(&data, "submit", "ann");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    wait_checked(base, &read);
    // A long series: games finish while the pages are open, and one is always running.
    let (status, _) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 60, "tc": TC}),
    );
    assert_eq!(status, 201);
    let shots = std::env::temp_dir().join(format!("zebra-serve-shots-{}", std::process::id()));
    std::fs::create_dir_all(&shots).unwrap();

    // The front page, given the token in its address: the leaderboard fills and updates.
    driver.open(&format!("{base}/#token={read}"));
    let first = wait_page(
        &driver,
        "a leaderboard row",
        "const r = document.querySelector('#leaderboard tbody tr'); return r && Number(r.dataset.games);",
    );
    assert!(
        driver.run("return location.hash").as_str() == Some(""),
        "the token is taken out of the address"
    );
    // A bot's history, read now and again once more games have finished: never the same
    // answer kept past a finished game.
    let games_in = |h: &Value| {
        h["points"]
            .as_array()
            .unwrap()
            .last()
            .map_or(0, |p| p["games"].as_u64().unwrap())
    };
    let before = games_in(&get_json(base, "/api/v1/bots/1/history", &read));
    let later = wait_page(
        &driver,
        "the leaderboard to update",
        &format!("const r = document.querySelector('#leaderboard tbody tr'); return r && Number(r.dataset.games) > {first} && Number(r.dataset.games);"),
    );
    assert!(later.as_u64().unwrap() > first.as_u64().unwrap());
    wait_for("a newer history", Duration::from_secs(180), || {
        (games_in(&get_json(base, "/api/v1/bots/1/history", &read)) > before).then_some(())
    });
    let names = driver.run(
        "return [...document.querySelectorAll('#leaderboard tbody tr td:nth-child(2)')].map(t => t.textContent).sort();",
    );
    assert_eq!(names, json!(["north", "south"]));
    std::fs::write(shots.join("front.png"), driver.screenshot()).unwrap();

    // A live game in the viewer: its board drawn.
    driver.open(&format!("{base}/series/1/live/"));
    let squares = wait_page(
        &driver,
        "a live board",
        "const n = document.querySelectorAll('[data-square][data-pieces]').length; return n > 0 && n;",
    );
    assert!(squares.as_u64().unwrap() >= 7, "{squares}");
    std::fs::write(shots.join("live.png"), driver.screenshot()).unwrap();

    // A stored game replayed: the series' finished games, listed, and game 1 shown at
    // its 20th step (a permalink), the field drawn.
    driver.open(&format!("{base}/series/1/#game=1&step=20"));
    wait_page(
        &driver,
        "the replayed game's board",
        "return document.querySelectorAll('[data-square][data-pieces]').length > 0;",
    );
    std::fs::write(shots.join("replay.png"), driver.screenshot()).unwrap();
    eprintln!("screenshots in {}", shots.display());

    // Without a token (and without public_read), the page says how to get in.
    let (status, _, _) = http(base, "GET", "/series/1/api/games", None, &[], None);
    assert_eq!(status, 401);
}

#[test]
fn uploaded_bots_are_unpacked_with_every_check_run_strict_and_play() {
    let dir = scratch("upload");
    let data = dir.join("data");
    admin(&data, &["bot", "add", "greedy", "--", "zebra-greedy-bot"]);
    let ann = token(&data, "submit", "ann");
    let root = token(&data, "admin", "root");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    if daemon.log.lock().unwrap().contains("uploads are refused") {
        // A machine without the strict sandbox: uploads are refused, as they must be.
        let (status, _) = upload(base, &ann, b"x");
        assert_eq!(status, 503);
        eprintln!("skipped: no strict sandbox on this machine (see zebra doctor)");
        return;
    }
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let manifest = |name: &str, command: &str| {
        format!("name = \"{name}\"\ncommand = \"{command}\"\n").into_bytes()
    };

    // A good bot: checked, active, owned by its uploader, strict, and it plays.
    let good_manifest = manifest("uploaded", "bin/random");
    let good = archive(&[
        ("zebra-bot.toml", FILE, &good_manifest, 0o644),
        ("bin/random", FILE, &random, 0o4755),
    ]);
    let (status, created) = upload(base, &ann, &good);
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["state"], "pending");
    let id = created["id"].as_i64().unwrap();
    // A broken one: it exits at once, so its check rejects it.
    let broken_manifest = manifest("quitter", "run.sh");
    let broken = archive(&[
        ("zebra-bot.toml", FILE, &broken_manifest, 0o644),
        ("run.sh", FILE, b"#!/bin/sh\nexit 3\n", 0o755),
    ]);
    let (status, quitter) = upload(base, &ann, &broken);
    assert_eq!(status, 201, "{quitter}");
    // A Python bot as the book's "Uploaded bots" tells: the tutorial's bot with a shebang
    // line, marked executable, beside the helper it imports (where Python is installed).
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if python {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/python");
        let script = format!(
            "#!/usr/bin/env python3\n{}",
            std::fs::read_to_string(repo.join("first_bot.py")).unwrap()
        );
        let helper = std::fs::read(repo.join("zebra_bot.py")).unwrap();
        let py_manifest = manifest("py-first", "first_bot.py");
        let py = archive(&[
            ("zebra-bot.toml", FILE, &py_manifest, 0o644),
            ("first_bot.py", FILE, script.as_bytes(), 0o755),
            ("zebra_bot.py", FILE, &helper, 0o644),
        ]);
        let (status, created) = upload(base, &ann, &py);
        assert_eq!(status, 201, "{created}");
    }
    let bots = wait_checked(base, &ann);
    let state = |name: &str| {
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == name)
            .map(|b| b["state"].as_str().unwrap().to_string())
    };
    assert_eq!(state("uploaded").as_deref(), Some("active"), "{bots}");
    assert_eq!(state("quitter").as_deref(), Some("rejected"), "{bots}");
    if python {
        assert_eq!(state("py-first").as_deref(), Some("active"), "{bots}");
    }
    let mine = get_json(base, &format!("/api/v1/bots/{id}"), &ann);
    assert_eq!(mine["owner"], "ann");
    assert!(
        mine["report"]["check"].is_array(),
        "the owner sees the report: {mine}"
    );
    // The setuid bit was dropped on unpacking; the code is readable by the bot's own
    // user (which sees only its directory), the uploads directory by the daemon alone.
    let unpacked = std::fs::read_dir(data.join("uploads"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("bin/random").exists())
        .unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&data.join("uploads")), 0o700);
    assert_eq!(mode(&data), 0o700);
    for (path, want) in [
        ("", 0o755),
        ("bin", 0o755),
        ("bin/random", 0o755),
        ("zebra-bot.toml", 0o644),
    ] {
        assert_eq!(mode(&unpacked.join(path)), want, "{path}");
    }
    let (status, s) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [1, id], "games": 2, "tc": TC}),
    );
    assert_eq!(status, 201, "{s}");
    let done = wait_series_end(base, &ann, s["id"].as_i64().unwrap());
    assert_eq!(done["progress"]["finished"], 2, "{done}");
    let (_, _, pgn) = http(base, "GET", "/api/v1/games/1/pgn", Some(&root), &[], None);
    // Strict: its own namespaces and the whole wall (and the memory limit), as the tag says.
    assert!(
        pgn.contains("pid+net+mount+ipc+uts+cgroup namespaces"),
        "{pgn}"
    );
    assert!(
        pgn.contains("own user, own read-only view, fresh /proc, seccomp"),
        "{pgn}"
    );

    // Malicious and bad archives: refused with the reason, nothing left behind.
    let before = std::fs::read_dir(data.join("uploads")).unwrap().count();
    let bomb = vec![0u8; 150 * 1024 * 1024];
    let evil = manifest("evil", "x");
    // Each bad archive: the manifest, one bad entry; the answer and a word of its reason.
    let with_manifest = |entry: (&str, tar::EntryType, &[u8], u32)| {
        archive(&[("zebra-bot.toml", FILE, &evil, 0o644), entry])
    };
    use tar::EntryType::{Link, Symlink};
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (with_manifest(("../escape", FILE, b"x", 0o644)), 422, "'..'"),
        (
            with_manifest(("/tmp/zebra-abs", FILE, b"x", 0o644)),
            422,
            "absolute",
        ),
        (
            with_manifest(("x", Symlink, b"/etc/passwd", 0o777)),
            422,
            "link leaving",
        ),
        (
            with_manifest(("x", Symlink, b"../../x", 0o777)),
            422,
            "link leaving",
        ),
        (
            with_manifest(("x", Link, b"zebra-bot.toml", 0o644)),
            422,
            "hard link",
        ),
        (with_manifest(("big", FILE, &bomb, 0o644)), 413, "unpacked"),
        (
            archive(&[("bin/x", FILE, b"x", 0o755)]),
            422,
            "zebra-bot.toml",
        ),
        (
            archive(&[(
                "zebra-bot.toml",
                FILE,
                b"name = \"a\"\ncommand = \"../../bin/sh\"\n",
                0o644,
            )]),
            422,
            "command",
        ),
        (b"not an archive at all".to_vec(), 422, "not a gzip"),
        // Entries that cannot be put where they say: the archive's fault, never a 500.
        (
            archive(&[
                ("zebra-bot.toml", FILE, &evil, 0o644),
                ("bin/run", FILE, b"x", 0o755),
                ("bin/run/x", FILE, b"x", 0o755),
            ]),
            422,
            "'bin/run/x': a path under 'bin/run', which the archive made a file",
        ),
        (
            archive(&[
                ("zebra-bot.toml", FILE, &evil, 0o644),
                ("bin/", tar::EntryType::Directory, b"", 0o755),
                ("bin", FILE, b"x", 0o755),
            ]),
            422,
            "'bin': a file where the archive already made a directory",
        ),
        // Links that each stay inside, and together lead out: nothing written through.
        (
            archive(&[
                ("zebra-bot.toml", FILE, &evil, 0o644),
                ("a", Symlink, b".", 0o777),
                ("b", Symlink, b"a/..", 0o777),
                ("b/planted", FILE, b"x", 0o644),
            ]),
            422,
            "through the link 'b'",
        ),
        (vec![7u8; 17 * 1024 * 1024], 413, "at most"),
    ];
    for (body, status, needle) in &cases {
        let (got, problem) = upload(base, &ann, body);
        assert_eq!(got, *status, "{needle}: {problem}");
        assert!(
            problem["detail"].as_str().unwrap_or("").contains(needle),
            "{needle}: {problem}"
        );
    }
    assert!(!dir.join("escape").exists() && !Path::new("/tmp/zebra-abs").exists());
    assert!(!data.join("uploads/planted").exists());
    assert_eq!(
        std::fs::read_dir(data.join("uploads")).unwrap().count(),
        before
    );
    // The name belongs to ann: another owner's upload under it is refused.
    let bob = token(&data, "submit", "bob");
    let (status, problem) = upload(base, &bob, &good);
    assert_eq!(
        (status, problem["field"].as_str()),
        (409, Some("name")),
        "{problem}"
    );
    // Ann's upload under it is its next version: checked in turn, and once active the
    // first retires from the ladder (it keeps its games and rating).
    let (status, v2) = upload(base, &ann, &good);
    assert_eq!(status, 201, "{v2}");
    assert_eq!(
        (v2["name"].as_str(), v2["version"].as_i64()),
        (Some("uploaded v2"), Some(2))
    );
    let bots = wait_checked(base, &ann);
    let first = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == id)
        .unwrap();
    assert_eq!(first["superseded_by"], v2["id"], "{bots}");
    assert_eq!(first["family"], "uploaded");
    // Reading needs no more than read; uploading needs submit.
    let read = token(&data, "read", "rita");
    assert_eq!(upload(base, &read, &good).0, 403);
    drop(daemon);

    // Started for tests where the strict sandbox cannot hold, the daemon says so at start
    // and takes no uploads.
    let poor = start_with(&data, &[], &[("ZEBRA_SANDBOX_DISABLE", "namespaces")]);
    assert!(
        poor.log.lock().unwrap().contains("uploads are refused"),
        "{}",
        poor.log.lock().unwrap()
    );
    let (status, problem) = upload(&poor.base, &ann, &good);
    assert_eq!(status, 503, "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("namespaces"),
        "{problem}"
    );
}

/// `sh -c 'umask 0; exec zebra ...'`: a umask that takes no bit, so that every mode the
/// daemon's files get is its own doing.
fn umask_zero() -> Command {
    let mut command = Command::new("sh");
    command.args(["-c", "umask 0; exec \"$0\" \"$@\"", ZEBRA]);
    command
}

/// `dir` and everything under it, (path, mode), without looking into `except`.
fn modes(dir: &Path, except: &Path, out: &mut Vec<(PathBuf, u32)>) {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir).unwrap();
    out.push((dir.to_path_buf(), meta.permissions().mode() & 0o7777));
    if meta.is_dir() && dir != except {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            modes(&e.path(), except, out);
        }
    }
}

#[test]
fn each_owner_reads_the_transcript_and_only_their_own_bots_stderr_and_the_data_stays_private() {
    let data = scratch("logs").join("data");
    let crasher = Path::new(ZEBRA).with_file_name("zebra-test-bot");
    let crasher = crasher.to_str().unwrap();
    admin(
        &data,
        &[
            "bot",
            "add",
            "--owner",
            "gil",
            "greedy",
            "--",
            "zebra-greedy-bot",
        ],
    );
    // Crashes once it has answered 30 requests: its check's smoke game rejects it, and an
    // admin lets it play anyway, so that its games end by forfeit and keep their logs.
    admin(
        &data,
        &[
            "bot",
            "add",
            "--owner",
            "ann",
            "crasher",
            "--",
            crasher,
            "--crash-after",
            "30",
        ],
    );
    let ann = token(&data, "submit", "ann");
    let gil = token(&data, "read", "gil");
    let bob = token(&data, "submit", "bob");
    let root = token(&data, "admin", "root");
    // A data directory as an older Zebra left it, readable by all: tightened at start.
    use std::os::unix::fs::PermissionsExt;
    for (path, mode) in [(data.clone(), 0o755), (data.join("zebra.db"), 0o644)] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let daemon = start_command(&data, &["--concurrency", "1"], &[], umask_zero());
    let base = &daemon.base;
    let bots = wait_checked(base, &ann);
    assert_eq!(bots["bots"][1]["state"], "rejected", "{bots}");
    admin(&data, &["bot", "activate", "2"]);
    // From the opening drive: a situation with few plays left could end a game before
    // the crasher's turn to crash.
    let (status, s) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [1, 2], "games": 2, "tc": TC, "situations": "none"}),
    );
    assert_eq!(status, 201, "{s}");
    let done = wait_series_end(base, &ann, s["id"].as_i64().unwrap());
    assert_eq!(
        done["summary"]["conduct"][1]["verdicts"]["crashed"], 2,
        "{done}"
    );
    let log = |token: &str, part: &str| {
        http(
            base,
            "GET",
            &format!("/api/v1/games/1/log?part={part}"),
            Some(token),
            &[],
            None,
        )
    };
    let (status, head, transcript) = log(&ann, "transcript");
    assert_eq!(status, 200, "{transcript}");
    assert!(head.contains("text/plain"), "{head}");
    assert!(transcript.contains("game_start"), "{transcript}");
    // The transcript (both sides' messages, as the referee saw them) is for the owners of
    // either bot; a bot's stderr for its own owner alone; admins read everything.
    let game = get_json(base, "/api/v1/games/1", &ann);
    let (crasher_side, greedy_side) = if game["white"] == 2 {
        ("white", "black")
    } else {
        ("black", "white")
    };
    for (who, token, part, status) in [
        ("gil", &gil, "transcript", 200),
        ("bob", &bob, "transcript", 403),
        ("ann", &ann, crasher_side, 200),
        ("ann", &ann, greedy_side, 403),
        ("gil", &gil, greedy_side, 200),
        ("gil", &gil, crasher_side, 403),
        ("bob", &bob, crasher_side, 403),
        ("root", &root, "transcript", 200),
        ("root", &root, "white", 200),
        ("root", &root, "black", 200),
    ] {
        let (got, _, body) = log(token, part);
        assert_eq!(got, status, "{who} reading {part}: {body}");
    }
    let (_, _, refused) = log(&ann, greedy_side);
    assert!(refused.contains("stderr is for the owner"), "{refused}");
    assert_eq!(log(&ann, "everything").0, 400);

    // Private whatever the umask (zero here): the data directory and all in it, the
    // database (records included) and its -wal and -shm, the lock and the logs.
    let mut found = Vec::new();
    modes(&data, &data.join("uploads"), &mut found);
    let names: Vec<String> = found
        .iter()
        .map(|(p, _)| p.strip_prefix(&data).unwrap().display().to_string())
        .collect();
    for needed in [
        "zebra.db",
        "zebra.db-wal",
        "zebra.db-shm",
        "lock",
        "logs",
        "uploads",
    ] {
        assert!(names.iter().any(|n| n == needed), "{needed} in {names:?}");
    }
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("logs/series-1/") && n.ends_with(".stderr")),
        "{names:?}"
    );
    // The records are in the database: no record file, no directory of them.
    assert!(!names.iter().any(|n| n.starts_with("records")), "{names:?}");
    for (path, mode) in &found {
        let want = if path.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(*mode, want, "{}", path.display());
    }
}

#[test]
fn the_daemon_refuses_to_start_where_the_strict_sandbox_cannot_hold() {
    let dir = scratch("strict");
    let data = dir.join("data");
    // A poorer machine, played by turning layers off: one line, what is missing and how
    // to fix the machine.
    for (disabled, needles) in [
        ("namespaces", &["namespaces"][..]),
        ("seccomp", &["seccomp", "namespaces"][..]),
    ] {
        let out = Command::new(ZEBRA)
            .args(["serve", "--listen", "127.0.0.1:0", "--data"])
            .arg(&data)
            .env("ZEBRA_SANDBOX_DISABLE", disabled)
            .env_remove(WEAK)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{disabled}: {err}");
        assert_eq!(err.lines().count(), 1, "{disabled}: one line: {err}");
        assert!(
            err.contains("strict sandbox")
                && err.contains("to fix it")
                && needles.iter().any(|n| err.contains(n)),
            "{disabled}: {err}"
        );
    }
    // Its settings' check says the same.
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--data"])
        .arg(&data)
        .env("ZEBRA_SANDBOX_DISABLE", "namespaces")
        .env_remove(WEAK)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("strict sandbox") && err.lines().count() == 1,
        "{err}"
    );
    // Nor can its settings ask for less.
    let config = dir.join("auto.toml");
    std::fs::write(&config, "[sandbox]\nmode = \"auto\"\n").unwrap();
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sandbox.mode"),
        "{}",
        text(&out.stderr)
    );
    // For tests only, the daemon starts all the same: loudly, and without uploads.
    let weak = start_with(&data, &[], &[("ZEBRA_SANDBOX_DISABLE", "namespaces")]);
    let said = weak.log.lock().unwrap().clone();
    assert!(said.contains("WITHOUT THE STRICT SANDBOX"), "{said}");
    let ann = token(&data, "submit", "ann");
    assert_eq!(upload(&weak.base, &ann, b"x").0, 503);
}

/// The value of the sample `name` (no labels) in a `/metrics` text.
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

#[test]
fn idle_and_slow_connections_are_closed_and_never_crowd_out_a_fresh_request() {
    let dir = scratch("connections");
    let data = dir.join("data");
    let config = dir.join("serve.toml");
    std::fs::write(
        &config,
        "[http]\nheader_timeout = \"1s\"\nbody_timeout = \"2s\"\nmax_connections = 40\n",
    )
    .unwrap();
    let root = token(&data, "admin", "root");
    let daemon = start(&data, &["--config", config.to_str().unwrap()]);
    let base = &daemon.base;
    let host = base.trim_start_matches("http://").to_string();
    // 200 connections (five times the limit) that say nothing, or half a request's head,
    // and then nothing more.
    let mut idle: Vec<std::net::TcpStream> = (0..200)
        .map(|i| {
            let mut c = std::net::TcpStream::connect(&host).unwrap();
            if i % 2 == 1 {
                c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                    .unwrap();
            }
            c
        })
        .collect();
    // A fresh request is answered all the same (once the idle ones ahead of it are
    // dropped at their header timeout).
    let (status, _, body) = http(base, "GET", "/healthz", None, &[], None);
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    let (_, _, text) = http(base, "GET", "/metrics", Some(&root), &[], None);
    assert!(metric(&text, "zebra_http_connections") <= 40.0, "{text}");
    // Every idle one is closed by the server: end of file, or reset.
    for (i, c) in idle.iter_mut().enumerate() {
        c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let mut rest = Vec::new();
        match c.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            Err(e) => panic!("connection {i} is still open after 120 s: {e}"),
        }
    }
    // A body that stops coming: 408 at the body timeout.
    let mut slow = std::net::TcpStream::connect(&host).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    write!(
        slow,
        "POST /api/v1/series HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {root}\r\nContent-Length: 100\r\n\r\n{{"
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, _, text) = http(base, "GET", "/metrics", Some(&root), &[], None);
    assert!(
        metric(&text, "zebra_http_connections_total") >= 202.0,
        "{text}"
    );
}

/// `GET path` over HTTPS to 127.0.0.1:`port`, trusting only the certificate `cert_pem`
/// (made for localhost): the raw answer.
fn https_get(cert_pem: &str, port: u16, path: &str) -> String {
    use rustls::pki_types::{pem::PemObject, CertificateDer, ServerName};
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(cert_pem.as_bytes()).unwrap())
        .unwrap();
    let config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    let client = rustls::ClientConnection::new(std::sync::Arc::new(config), name).unwrap();
    let tcp = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut tls = rustls::StreamOwned::new(client, tcp);
    write!(
        tls,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    // The end may come as an error (no close_notify): what was read is the answer.
    let _ = tls.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn https_with_a_self_signed_certificate_and_a_warning_for_plain_http_beyond_loopback() {
    let dir = scratch("tls");
    let data = dir.join("data");
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    std::fs::write(&cert, made.cert.pem()).unwrap();
    std::fs::write(&key, made.key_pair.serialize_pem()).unwrap();
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());

    // Plain HTTP on loopback: nothing to say. On every interface: a warning.
    let quiet = start(&data, &[]);
    assert!(!quiet.log.lock().unwrap().contains("plain HTTP"));
    drop(quiet);
    let plain = start(&data, &["--listen", "0.0.0.0:0"]);
    let said = plain.log.lock().unwrap().clone();
    assert!(
        said.contains("over plain HTTP") && said.contains("--tls-cert"),
        "{said}"
    );
    drop(plain);

    // HTTPS on every interface: no warning, and a client that trusts the certificate
    // gets its answers.
    let secure = start(
        &data,
        &[
            "--listen",
            "0.0.0.0:0",
            "--tls-cert",
            cert,
            "--tls-key",
            key,
        ],
    );
    let said = secure.log.lock().unwrap().clone();
    assert!(!said.contains("plain HTTP"), "{said}");
    assert!(
        secure.base.starts_with("https://0.0.0.0:"),
        "{}",
        secure.base
    );
    let port: u16 = secure.base.rsplit(':').next().unwrap().parse().unwrap();
    let answer = https_get(&made.cert.pem(), port, "/healthz");
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok\n"),
        "{answer}"
    );
    // Plain HTTP to it is no request (the handshake fails).
    let mut raw = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    raw.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let _ = raw.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut answer = Vec::new();
    let _ = raw.read_to_end(&mut answer);
    assert!(!String::from_utf8_lossy(&answer).contains("200"));
    drop(secure);

    // A key that is not one: one line naming the file and what is wrong.
    let out = Command::new(ZEBRA)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data)
        .args(["--tls-cert", cert, "--tls-key", cert])
        .env(WEAK, "1")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.lines().count() == 1
            && err.contains("TLS key")
            && err.contains("cert.pem")
            && err.contains("no private key"),
        "{err}"
    );
    // Half of the pair: refused before anything starts.
    let out = Command::new(ZEBRA)
        .args(["serve", "--check-config", "--data"])
        .arg(&data)
        .args(["--tls-cert", cert])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--tls-key"),
        "{}",
        text(&out.stderr)
    );
}

/// An uploaded bot that attacks the daemon from inside its game: it tries to read the
/// database, another participant's code and the data directory, to plant files in the
/// other bot's directory and the data directory, and to write into every process it can
/// reach. Every try fails; the other bot's code is unchanged; nothing is planted.
#[test]
fn a_hostile_upload_reaches_neither_the_database_nor_other_bots_nor_the_data_directory() {
    let dir = scratch("hostile-upload");
    let data = dir.join("data");
    let ann = token(&data, "submit", "ann");
    let bob = token(&data, "submit", "bob");
    let root = token(&data, "admin", "root");
    let daemon = start(&data, &["--concurrency", "1"]);
    let base = &daemon.base;
    if daemon.log.lock().unwrap().contains("uploads are refused") {
        eprintln!("skipped: no strict sandbox on this machine (see zebra doctor)");
        return;
    }
    let manifest = |name: &str, command: &str| {
        format!("name = \"{name}\"\ncommand = \"{command}\"\n").into_bytes()
    };
    // Bob's bot, the victim: a random mover.
    let random = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-random-bot")).unwrap();
    let victim_manifest = manifest("victim", "bin/random");
    let (status, victim) = upload(
        base,
        &bob,
        &archive(&[
            ("zebra-bot.toml", FILE, &victim_manifest, 0o644),
            ("bin/random", FILE, &random, 0o755),
        ]),
    );
    assert_eq!(status, 201, "{victim}");
    wait_checked(base, &bob);
    let victim_dir = std::fs::read_dir(data.join("uploads"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("bin/random").exists())
        .unwrap();
    let victim_code = victim_dir.join("bin/random");
    let before = std::fs::read(&victim_code).unwrap();
    // Ann's spy: the test bot behind a script naming every target by its host path; it
    // crashes after its first request so that its game keeps its stderr.
    let db = data.join("zebra.db");
    let targets = [
        format!("--read={}", db.display()),
        format!("--read={}", victim_code.display()),
        format!("--read={}", data.join("lock").display()),
        format!("--write={}", victim_dir.join("bin/planted").display()),
        format!("--write={}", data.join("planted").display()),
        format!("--write={}", db.display()),
    ];
    let script = format!(
        "#!/bin/sh\nexec ./bin/test-bot --crash-after 1 --attack processes,pipes {}\n",
        targets.join(" ")
    );
    let test_bot = std::fs::read(Path::new(ZEBRA).with_file_name("zebra-test-bot")).unwrap();
    let spy_manifest = manifest("spy", "run.sh");
    let (status, spy) = upload(
        base,
        &ann,
        &archive(&[
            ("zebra-bot.toml", FILE, &spy_manifest, 0o644),
            ("run.sh", FILE, script.as_bytes(), 0o755),
            ("bin/test-bot", FILE, &test_bot, 0o755),
        ]),
    );
    assert_eq!(status, 201, "{spy}");
    let spy_id = spy["id"].as_i64().unwrap();
    wait_checked(base, &ann);
    // Its check rejects it (it crashes); an admin lets it play anyway.
    admin(&data, &["bot", "activate", &spy_id.to_string()]);
    let (status, s) = submit(
        base,
        &ann,
        None,
        &json!({"bots": [victim["id"], spy_id], "games": 2, "tc": TC, "situations": "none"}),
    );
    assert_eq!(status, 201, "{s}");
    wait_series_end(base, &ann, s["id"].as_i64().unwrap());
    let game = get_json(base, "/api/v1/games/1", &root);
    let side = if game["white"] == spy_id {
        "white"
    } else {
        "black"
    };
    let (status, _, stderr) = http(
        base,
        "GET",
        &format!("/api/v1/games/1/log?part={side}"),
        Some(&ann),
        &[],
        None,
    );
    assert_eq!(status, 200, "{stderr}");
    for target in &targets {
        let (verb, path) = target[2..].split_once('=').unwrap();
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("{verb} {path}:")))
            .unwrap_or_else(|| panic!("no line for {target} in:\n{stderr}"));
        assert!(line.contains("failed"), "{line}");
    }
    assert!(
        stderr.contains("attack pipes: opened 0 written 0"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&victim_code).unwrap(),
        before,
        "the victim's code changed"
    );
    assert!(!victim_dir.join("bin/planted").exists());
    assert!(!data.join("planted").exists());
    // The database is intact: the daemon still answers from it.
    assert_eq!(get_json(base, "/api/v1/games/1", &root)["id"], 1);
}

/// Chess Eleven in the daemon: bots entered in it are checked with its questions and smoke
/// game, a series of it plays over HTTP, its records verify, and it has its own
/// leaderboard.
#[test]
fn a_chess_eleven_series_over_http_plays_after_its_check_and_rates_on_its_own_board() {
    let dir = scratch("eleven");
    let data = dir.join("data");
    register_pair(&data);
    let ann = token(&data, "submit", "ann");
    let root = token(&data, "admin", "root");
    let daemon = start(&data, &["--concurrency", "2"]);
    let base = &daemon.base;
    wait_checked(base, &ann);
    let enter = json!({"game": "chess-eleven"});
    for id in [1, 2] {
        let path = format!("/api/v1/bots/{id}/games");
        let (status, entered) = documented(
            base,
            &root,
            "POST",
            "/api/v1/bots/{id}/games",
            &path,
            Some(&enter),
        );
        assert_eq!(
            (status, entered["state"].as_str()),
            (202, Some("pending")),
            "{entered}"
        );
    }
    let checked = wait_for("the Chess Eleven checks", Duration::from_secs(300), || {
        let bots = get_json(base, "/api/v1/bots", &root);
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["games"]["chess-eleven"] != "pending")
            .then_some(bots)
    });
    for bot in checked["bots"].as_array().unwrap() {
        let report = &bot["reports"]["chess-eleven"];
        assert_eq!(report["verdict"], "active", "{report}");
        assert!(report["smoke"]["result"].is_string(), "{report}");
    }
    let series = json!({"game": "chess-eleven", "bots": [1, 2], "games": 4,
        "tc": "turns=10,move=5s,formation=10s", "seed": 3});
    let (status, created) = documented(
        base,
        &ann,
        "POST",
        "/api/v1/series",
        "/api/v1/series",
        Some(&series),
    );
    assert_eq!(
        (status, created["game"].as_str()),
        (201, Some("chess-eleven")),
        "{created}"
    );
    let id = created["id"].as_i64().unwrap();
    let done = wait_series_end(base, &ann, id);
    assert_eq!(
        (done["state"].as_str(), done["outcome"].as_str()),
        (Some("finished"), Some("completed")),
        "{done}"
    );
    assert_eq!(done["progress"]["finished"], 4);
    assert_eq!(verify_records(base, &ann, id, &dir), 4);
    let (status, board) = documented(
        base,
        &ann,
        "GET",
        "/api/v1/leaderboard",
        "/api/v1/leaderboard?game=chess-eleven",
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        (board["game"].as_str(), board["games"].as_u64()),
        (Some("chess-eleven"), Some(4))
    );
}
