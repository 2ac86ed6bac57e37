//! The daemon's pages at a competition's size, as people see them: 10,000 stored games
//! between 20 bots in 25 series, the front page (leaderboards, series page by page with
//! filters), a bot's page (rating chart, results by opponent, its games page by page) and
//! the crosstable in headless Chromium, with screenshots; the records of a bot and of a
//! series downloaded in bulk (streamed) and verified.
//!
//! The games are written into the store directly (a played game's record stands for each
//! of them): playing 10,000 games would take the test most of an hour. How long the pages
//! take is printed, never asserted (the machine may be busy); reads under load are
//! measured by `zebra bench serve` (docs/src/benchmarks.md).

mod common;
#[path = "common/openapi.rs"]
mod openapi;
#[path = "common/webdriver.rs"]
#[allow(dead_code)]
mod webdriver;
use webdriver::wait_page;

use std::path::Path;

use serde_json::{json, Value};

use common::daemon::*;
use common::http::http;
use common::run::{scratch, text, zebra};
use openapi::{check_answer, openapi};

const BOTS: i64 = 20;
const SERIES: i64 = 25;
const PER_SERIES: i64 = 400;

/// A store of `SERIES` finished series of `PER_SERIES` games each among `BOTS` bots,
/// every game's record `record`; results from a seeded generator in which a lower id wins
/// more often (so that the ratings spread).
fn populate(data: &Path, record: &str) {
    use zebra::server::store::{BotState, Store};
    let mut store = Store::open(data).unwrap();
    let hash = store.keep_record(record).unwrap();
    for i in 1..=BOTS {
        let name = format!("bot-{i:02}");
        let spec = json!({"name": name, "command": "zebra-random-bot"}).to_string();
        let id = store.add_bot(&name, &spec, "admin", i).unwrap();
        store.set_bot_state(id, BotState::Active, None).unwrap();
    }
    drop(store);
    let mut conn = rusqlite::Connection::open(data.join(zebra::server::store::DB_FILE)).unwrap();
    let tx = conn.transaction().unwrap();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut t = 1_700_000_000_000_i64;
    for s in 1..=SERIES {
        let a = (s - 1) % BOTS + 1;
        let b = (s + 6) % BOTS + 1;
        // The request as the daemon stores it (defaults filled in).
        let request: zebra::server::series::SeriesRequest =
            serde_json::from_value(json!({"bots": [a, b], "games": PER_SERIES, "tc": TC})).unwrap();
        let spec = request.check().unwrap().spec;
        tx.execute(
            "INSERT INTO series (id, spec, state, owner, created_ms, outcome, game) \
             VALUES (?1, ?2, 'finished', 'ann', ?3, 'completed', 'football-chess')",
            rusqlite::params![s, spec, t],
        )
        .unwrap();
        for n in 1..=PER_SERIES {
            // Every game between two bots of the 20, so that the crosstable fills.
            let white = ((next() % BOTS as u64) + 1) as i64;
            let mut black = ((next() % BOTS as u64) + 1) as i64;
            if black == white {
                black = white % BOTS + 1;
            }
            let (white, black) = if n <= 8 { (a, b) } else { (white, black) };
            let edge = (black - white) as f64 / BOTS as f64; // the lower id is stronger
            let roll = (next() % 1000) as f64 / 1000.0;
            let result = if roll < 0.4 + 0.3 * edge {
                "1-0"
            } else if roll < 0.55 + 0.3 * edge {
                "1/2-1/2"
            } else {
                "0-1"
            };
            t += 1000;
            tx.execute(
                "INSERT INTO games (series_id, number, seed, white, black, state, attempts, \
                 result, termination, record, finished_ms, conduct, played_by, fin_seq) \
                 VALUES (?1, ?2, ?2, ?3, ?4, 'finished', 1, ?5, 'normal', ?6, ?7, '[]', 'daemon-x', \
                 (SELECT COALESCE(MAX(fin_seq), 0) + 1 FROM games))",
                rusqlite::params![s, n, white, black, result, hash, t],
            )
            .unwrap();
        }
    }
    tx.commit().unwrap();
}

/// A chunked body (`Transfer-Encoding: chunked`) as its bytes: each chunk's hexadecimal
/// size line, then the chunk.
fn dechunk(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

/// The milliseconds from the page's navigation to now, as the page measures them.
const SINCE_NAVIGATION: &str = "return Math.round(performance.now());";

#[test]
fn ten_thousand_games_page_by_page_in_chromium_and_in_bulk() {
    let doc = openapi();
    let dir = scratch("pages-scale");
    let data = dir.join("data");
    // One real record stands for every game.
    let out = zebra(&[
        "match",
        "--quiet",
        "--bot",
        "greedy=zebra-greedy-bot",
        "--bot",
        "random=zebra-random-bot",
        "--games",
        "2",
        "--tc",
        TC,
        "--seed",
        "7",
        "--out",
        dir.join("match").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pgn = std::fs::read_to_string(dir.join("match/games.pgn")).unwrap();
    let record = format!("{}\n", pgn.split("\n\n[Event ").next().unwrap().trim_end());
    populate(&data, &record);
    let read = token(&data, "read", "rita");
    // Open to all readers, as a public competition's pages are.
    let config = dir.join("zebra.toml");
    std::fs::write(&config, "public_read = true\n").unwrap();
    let daemon = start(
        &data,
        &["--concurrency", "0", "--config", config.to_str().unwrap()],
    );
    let base = &daemon.base;
    let stale = format!("zebra_token=zebra_{}", "0".repeat(64));
    for (token, headers, want) in [
        (None, vec![], 200),
        // A page's cookie left from a token this server does not know: no token at all.
        (None, vec![("Cookie", stale.as_str())], 200),
        // A bad token in the header is still refused.
        (Some("zebra_nothing"), vec![], 401),
    ] {
        let (status, _, body) = http(base, "GET", "/api/v1/series", token, &headers, None);
        assert_eq!(status, want, "{headers:?}: {body}");
    }

    // The API the pages read: pages, filters and totals.
    let get = |path: &str, template: &str| {
        let answer = http(base, "GET", path, Some(&read), &[], None);
        assert_eq!(answer.0, 200, "{path}: {}", answer.2);
        check_answer(&doc, "GET", template, &answer);
        serde_json::from_str::<Value>(&answer.2).unwrap_or(Value::Null)
    };
    let page = get("/api/v1/series?limit=10", "/api/v1/series");
    assert_eq!(page["total"], SERIES);
    assert_eq!(page["series"][0]["id"], SERIES);
    assert_eq!(page["series"][0]["games_planned"], PER_SERIES);
    assert_eq!(page["series"][0]["games_finished"], PER_SERIES);
    let next = page["next_before"].as_i64().unwrap();
    let older = get(
        &format!("/api/v1/series?limit=10&before={next}"),
        "/api/v1/series",
    );
    assert_eq!(older["series"][0]["id"], next - 1);
    let last = get("/api/v1/series?limit=10&before=6", "/api/v1/series");
    assert_eq!(
        (
            last["series"].as_array().unwrap().len(),
            &last["next_before"]
        ),
        (5, &Value::Null)
    );
    let full = get("/api/v1/series?limit=25", "/api/v1/series");
    assert_eq!(
        full["next_before"],
        Value::Null,
        "an exactly full last page"
    );
    for (query, total) in [
        ("owner=ann", SERIES),
        ("owner=nobody", 0),
        ("state=finished&owner=ann&game=football-chess", SERIES),
        ("state=running", 0),
        ("game=boyer-football", 0),
    ] {
        let page = get(&format!("/api/v1/series?{query}"), "/api/v1/series");
        assert_eq!(page["total"], total, "{query}");
    }
    let with = get("/api/v1/series?bot=1&limit=1000", "/api/v1/series");
    assert!(with["total"].as_i64().unwrap() >= 2, "{with}");
    let against = get(
        "/api/v1/bots/3/games?opponent=5&limit=1000",
        "/api/v1/bots/{id}/games",
    );
    assert!(against["total"].as_u64().unwrap() > 0);
    for g in against["games"].as_array().unwrap() {
        let pair = [g["white"].as_i64().unwrap(), g["black"].as_i64().unwrap()];
        assert!(pair == [3, 5] || pair == [5, 3], "{g}");
    }
    let (status, _, body) = http(
        base,
        "GET",
        "/api/v1/series?state=lost",
        Some(&read),
        &[],
        None,
    );
    assert!(
        status == 400 && body.contains("\"field\":\"state\""),
        "{body}"
    );
    let games = get("/api/v1/bots/3/games?limit=50", "/api/v1/bots/{id}/games");
    let total = games["total"].as_u64().unwrap();
    assert!(total > 500, "{total}");
    assert_eq!(games["games"].as_array().unwrap().len(), 50);
    let ids: Vec<i64> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first");
    let history = get("/api/v1/bots/3/history", "/api/v1/bots/{id}/history");
    assert_eq!(
        get("/api/v1/bots/3/history", "/api/v1/bots/{id}/history"),
        history,
        "the same answer again (kept until a game finishes)"
    );
    assert_eq!(history["points"].as_array().unwrap().len(), 40);
    assert_eq!(
        history["points"][39]["games"].as_u64().unwrap(),
        total,
        "the last point after its last game"
    );
    let board = get("/api/v1/leaderboard", "/api/v1/leaderboard");
    let elo_of = |id: i64| {
        board["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["bot"] == id)
            .unwrap()["elo"]
            .as_f64()
            .unwrap()
    };
    // The same fit as the leaderboard's (to its rounding: the sums are added in another
    // order).
    let last_elo = history["points"][39]["elo"].as_f64().unwrap();
    assert!(
        (last_elo - elo_of(3)).abs() <= 0.2,
        "{last_elo} {}",
        elo_of(3)
    );
    let against: u64 = history["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["games"].as_u64().unwrap())
        .sum();
    assert_eq!(against, total);
    let cross = get("/api/v1/crosstable?limit=20", "/api/v1/crosstable");
    assert_eq!(cross["total"], BOTS);
    assert!(elo_of(1) > elo_of(20), "the stronger bot rates higher");

    // Records in bulk: a bot's and a series', streamed, every one verifying.
    for (path, games) in [
        ("/api/v1/bots/3/pgn".to_string(), total),
        (format!("/api/v1/series/{SERIES}/pgn"), PER_SERIES as u64),
    ] {
        let (status, head, raw) = http(base, "GET", &path, Some(&read), &[], None);
        assert_eq!(status, 200, "{path}");
        assert!(head.contains("application/x-chess-pgn") && head.contains("attachment"));
        assert!(
            head.contains("transfer-encoding: chunked"),
            "streamed: {head}"
        );
        let body = dechunk(&raw);
        assert_eq!(body.matches("[Event ").count() as u64, games, "{path}");
        let file = dir.join("bulk.pgn");
        std::fs::write(&file, &body).unwrap();
        let out = zebra(&["verify", file.to_str().unwrap()]);
        assert!(out.status.success(), "{path}: {}", text(&out.stdout));
    }

    let Some(driver) = webdriver::driver() else {
        return;
    };
    let shots = std::env::temp_dir().join(format!("zebra-pages-shots-{}", std::process::id()));
    std::fs::create_dir_all(&shots).unwrap();
    // The front page: the leaderboard of 20 and a page of 25 series of the 25.
    driver.open(&format!("{base}/#token={read}"));
    wait_page(
        &driver,
        "the front page",
        "return document.body.dataset.refreshed;",
    );
    let front_ms = driver.run(SINCE_NAVIGATION);
    let shown = driver.run(
        "return [document.querySelectorAll('#leaderboard tbody tr').length, \
         document.querySelectorAll('#series tbody tr').length, \
         document.getElementById('series-count').textContent, \
         getComputedStyle(document.body).backgroundColor, \
         document.getElementById('older').disabled];",
    );
    assert_eq!(shown[4], true, "no older page: {shown}");
    assert_eq!(shown[0], BOTS, "{shown}");
    assert_eq!(shown[1], 25, "{shown}");
    assert_eq!(shown[2], "series 1 to 25 of 25", "{shown}");
    assert_eq!(
        shown[3], "rgb(14, 17, 22)",
        "the viewer's dark look: {shown}"
    );
    std::fs::write(shots.join("front.png"), driver.screenshot()).unwrap();
    driver.run("document.getElementById('series').scrollIntoView(); return true;");
    std::fs::write(shots.join("front-series.png"), driver.screenshot()).unwrap();
    // A filter: only series of another game: none.
    driver.run(
        "const s = document.getElementById('f-game'); s.value = 'boyer-football'; \
         s.dispatchEvent(new Event('change')); return true;",
    );
    wait_page(
        &driver,
        "the filtered series",
        "return document.getElementById('series-count').textContent === 'no series';",
    );

    // A bot's page: its chart, its opponents, its first page of games with viewer links.
    driver.open(&format!("{base}/bots/3"));
    wait_page(
        &driver,
        "the bot page",
        "return document.body.dataset.ready;",
    );
    let bot_ms = driver.run(SINCE_NAVIGATION);
    let shown = driver.run(
        "return [document.getElementById('name').textContent, \
         document.getElementById('chart').dataset.points, \
         document.querySelectorAll('#opponents tbody tr').length, \
         document.querySelectorAll('#games tbody tr').length, \
         document.getElementById('games-count').textContent, \
         document.querySelector('#games tbody tr a[href*=\"#number=\"]').getAttribute('href')];",
    );
    assert_eq!(shown[0], "bot-03", "{shown}");
    assert_eq!(shown[1], "40", "{shown}");
    assert!(shown[2].as_u64().unwrap() >= 10, "{shown}");
    assert_eq!(shown[3], 50, "{shown}");
    assert_eq!(shown[4], format!("games 1 to 50 of {total}"), "{shown}");
    assert!(
        shown[5].as_str().unwrap().starts_with("/series/"),
        "{shown}"
    );
    std::fs::write(shots.join("bot.png"), driver.screenshot()).unwrap();
    driver.run("document.getElementById('older').click(); return true;");
    wait_page(
        &driver,
        "the bot's next page of games",
        &format!(
            "return document.getElementById('games-count').textContent === 'games 51 to 100 of {total}';"
        ),
    );

    // The crosstable.
    driver.open(&format!("{base}/crosstable"));
    wait_page(
        &driver,
        "the crosstable",
        "return document.body.dataset.ready;",
    );
    let rows = driver.run("return document.querySelectorAll('#cross tbody tr').length;");
    assert_eq!(rows, BOTS);
    std::fs::write(shots.join("crosstable.png"), driver.screenshot()).unwrap();
    eprintln!(
        "with {} stored games: the front page ready {front_ms} ms after navigation, the bot page {bot_ms} ms; screenshots in {}",
        SERIES * PER_SERIES,
        shots.display()
    );
}
