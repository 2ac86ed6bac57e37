//! The viewer: the view stream against the engine, the exported page (escaping, errors),
//! `zebra view` as a user runs it, and the page in a real headless Chromium.
//!
//! The browser tests need Debian's `chromium` (`.ci/run` installs it). Without it they say
//! so and pass, unless `ZEBRA_REQUIRE_CHROMIUM=1` (set by `.ci/run`) makes its absence a
//! failure. Screenshots are kept under the system temp dir (`zebra-web-shots-PID/`), never
//! in the repository.

mod common;
#[path = "common/schema.rs"]
mod schema;
#[path = "common/webdriver.rs"]
mod webdriver;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use zebra::record::{read_games, write_game, Entry, GameRecord, Termination};
use zebra::rules::playout::play_random_game;
use zebra::rules::{Game, Settings, Side};
use zebra::web::{export_html, view_game, view_games, Frame};

use common::run::{scratch, zebra, zebra_command, TEST_BOT};

/// The golden multi-game record file's text.
fn golden() -> String {
    std::fs::read_to_string(common::golden_path()).unwrap()
}

/// A whole seeded random game as a record.
fn random_record(seed: u64) -> GameRecord {
    let mut rec = GameRecord::new(Settings::plays(4));
    let end = play_random_game(Game::new(Settings::plays(4)), seed, |_, a| {
        rec.entries.push(Entry::action(*a))
    });
    rec.finish(&end, Termination::Normal, None);
    rec.tags.set("White", format!("random-{seed}"));
    rec
}

/// The pieces of a position as the view stream writes them.
fn pieces_of(game: &Game) -> Vec<(String, String)> {
    Frame::of(game).pieces
}

/// Every frame of the view equals the engine's position after the same entries.
fn assert_frames_follow_the_engine(rec: &GameRecord) {
    let view = view_game(rec);
    assert!(view.error.is_none(), "{:?}", view.error);
    assert_eq!(view.steps.len(), rec.entries.len());
    let mut game = Game::new(rec.settings().unwrap());
    assert_eq!(view.start.pieces(), pieces_of(&game));
    for (i, (entry, step)) in rec.entries.iter().zip(&view.steps).enumerate() {
        entry.apply_to(&mut game).unwrap();
        let f = step.frame.field().expect("a Football Chess frame");
        assert_eq!(f.pieces, pieces_of(&game), "entry {}", i + 1);
        // At the decision that ended a play, the situation of that play; else the game's.
        let (down, quarter, spot) = match game.field_at_play_end() {
            Some(e) => (e.down, e.quarter, e.spot),
            None => (game.down(), game.quarter(), game.spot()),
        };
        assert_eq!(step.play_end, game.field_at_play_end().is_some());
        assert_eq!(
            (f.score, f.down, f.quarter, f.spot.as_str()),
            (
                [game.score(Side::White), game.score(Side::Black)],
                down,
                quarter,
                spot.name()
            ),
            "entry {}",
            i + 1
        );
        assert_eq!(step.token, entry.to_string());
    }
}

#[test]
fn the_view_stream_follows_the_engine_entry_by_entry() {
    for rec in read_games(&golden()).unwrap() {
        assert_frames_follow_the_engine(&rec);
    }
    for seed in 1..=20 {
        assert_frames_follow_the_engine(&random_record(seed));
    }
}

#[test]
fn the_view_stream_validates_against_its_schema() {
    let schemas =
        schema::Schemas::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas"));
    let mut games: Vec<GameRecord> = read_games(&golden()).unwrap();
    games.extend((1..=5).map(random_record));
    let mut broken = random_record(7);
    broken.entries.truncate(5);
    broken
        .entries
        .push(Entry::action(zebra::rules::Action::Snap));
    broken
        .entries
        .push(Entry::action(zebra::rules::Action::Snap));
    games.push(broken);
    let mut states = std::collections::BTreeSet::new();
    for rec in &games {
        let value = serde_json::to_value(view_game(rec)).unwrap();
        if let Err(e) = schemas.validate("view.json", &value) {
            panic!("the view stream does not validate: {e}");
        }
        for step in value["steps"].as_array().unwrap() {
            states.insert(step["frame"]["ball"]["state"].as_str().unwrap().to_string());
        }
    }
    // The games reach every state of the ball the schema names.
    assert_eq!(states.len(), 5, "{states:?}");
    // And the schema is not a blank check.
    let mut bad = serde_json::to_value(view_game(&games[0])).unwrap();
    bad["steps"][0]["frame"]["down"] = serde_json::json!(5);
    assert!(schemas.validate("view.json", &bad).is_err());
    let mut bad = serde_json::to_value(view_game(&games[0])).unwrap();
    bad["version"] = serde_json::json!(2);
    assert!(schemas.validate("view.json", &bad).is_err());
}

#[test]
fn plays_start_where_the_record_has_a_play_header() {
    let rec = &read_games(&golden()).unwrap()[0];
    let view = view_game(rec);
    let headers = view.steps.iter().filter(|s| s.header.is_some()).count();
    let text = write_game(rec).unwrap();
    // The writer starts every play with its header in a comment: `{Q1 white ball, ...}`.
    let written = text.matches("{Q").count();
    assert_eq!(headers, written);
    assert!(headers > 3);
}

#[test]
fn a_record_that_stops_replaying_keeps_its_frames_and_says_why() {
    let mut rec = random_record(3);
    let keep = rec.entries.len() / 2;
    // An entry the engine must reject there: a second snap in a row.
    rec.entries.truncate(keep);
    rec.entries.push(Entry::action(zebra::rules::Action::Snap));
    rec.entries.push(Entry::action(zebra::rules::Action::Snap));
    let view = view_game(&rec);
    let error = view.error.expect("a problem");
    assert!(error.contains("does not replay"), "{error}");
    assert!(view.steps.len() >= keep, "{} < {keep}", view.steps.len());
    // Another edition of the rulings: refused before any frame, named.
    let mut old = random_record(4);
    old.tags.set("Rulings", "1");
    let view = view_game(&old);
    assert!(view.steps.is_empty());
    assert!(view.error.unwrap().contains("edition 1"));
}

#[test]
fn nothing_from_a_record_can_close_the_data_element_or_run() {
    let mut rec = random_record(5);
    let evil = "</script><script>alert(1)</script><!-- & \u{2028}";
    rec.tags.set("White", evil);
    rec.tags.set("Black", "<img src=x onerror=alert(2)>");
    let text = write_game(&rec).unwrap();
    let page = export_html(&text, None).unwrap();
    assert!(!page.contains("<script>alert"), "raw script in the page");
    assert!(!page.contains("<img"), "raw markup in the page");
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the page's own elements"
    );
    // The data element holds the names exactly, as JSON.
    let start = page.find("id=\"zebra-games\">").unwrap() + "id=\"zebra-games\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(data[0]["white"], evil);
    // The title is escaped as HTML text.
    assert!(page.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)"));
}

#[test]
fn export_takes_one_game_or_all_and_names_the_problems() {
    let text = golden();
    let all = export_html(&text, None).unwrap();
    let one = export_html(&text, Some(2)).unwrap();
    assert!(one.len() < all.len());
    let err = export_html(&text, Some(4)).unwrap_err().to_string();
    assert_eq!(
        err,
        "there is no game 4: the file holds 3 (--game takes 1 to 3)"
    );
    assert_eq!(
        export_html("", None).unwrap_err().to_string(),
        "the file holds no game"
    );
    let err = export_html("[Event \"x\"\nnot a record\n", None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line"), "{err}");
    assert_eq!(view_games(&text).unwrap().len(), 3);
}

#[test]
fn zebra_view_writes_the_page_and_refuses_bad_input_with_one_line() {
    let dir = scratch("cli");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, golden()).unwrap();
    let out_file = dir.join("out.html");
    let out = zebra(&[
        "view",
        pgn.to_str().unwrap(),
        "--html",
        out_file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(&out_file).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        !page.contains("{{") && !page.contains("/*{{"),
        "a marker was left"
    );
    for (args, code, want) in [
        (vec!["--game", "7"], 2, "there is no game 7"),
        (vec!["--game", "x"], 2, "invalid value 'x'"),
    ] {
        let mut all = vec!["view", pgn.to_str().unwrap(), "--html", "/dev/null"];
        all.extend(args);
        let out = zebra(&all);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("zebra: ") && err.contains(want), "{err}");
    }
    for (path, want) in [
        (dir.to_str().unwrap().to_string(), "it is a directory"),
        (
            dir.join("missing.pgn").to_str().unwrap().to_string(),
            "cannot read",
        ),
    ] {
        let out = zebra(&["view", &path, "--html", "/dev/null"]);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
    let junk = dir.join("junk.pgn");
    std::fs::write(&junk, "hello\n").unwrap();
    let out = zebra(&["view", junk.to_str().unwrap(), "--html", "/dev/null"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("line 1"), "{err}");
}

// ---- in a real browser ----

/// Runs a headless Chromium command to its end, in its own process group, within two
/// minutes: a browser that hangs on a loaded machine fails the test with a message instead
/// of hanging the suite, and its whole group is killed.
fn browser_output(cmd: &mut Command) -> Output {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("chromium starts");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            // SAFETY: signals the process group this test created for the browser.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // The group's other processes (renderers) end with the browser; make sure.
    // SAFETY: as above; the group may already be gone (ESRCH is fine).
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The page's DOM after its script ran, as headless Chromium serializes it.
fn dump_dom(browser: &str, url: &str) -> String {
    let out = browser_output(Command::new(browser).args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--dump-dom",
        url,
    ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The board the page shows: every `data-square`/`data-pieces` pair, in document order.
fn board_in_dom(dom: &str) -> Vec<(String, String)> {
    let attr = |s: &str, name: &str| -> Option<String> {
        let at = s.find(&format!("{name}=\""))? + name.len() + 2;
        Some(s[at..at + s[at..].find('"')?].to_string())
    };
    dom.split("<g ")
        .skip(1)
        .filter_map(|g| {
            let tag = &g[..g.find('>')?];
            Some((attr(tag, "data-square")?, attr(tag, "data-pieces")?))
        })
        .collect()
}

#[test]
fn the_page_in_chromium_shows_the_engines_board_at_every_play() {
    let Some(browser) = webdriver::chromium() else {
        return;
    };
    let dir = scratch("browser");
    let text = golden();
    let page = dir.join("golden.html");
    std::fs::write(&page, export_html(&text, None).unwrap()).unwrap();
    let views = view_games(&text).unwrap();
    let mut checked = 0;
    for (g, view) in views.iter().enumerate().take(2) {
        // The start of every third play, and the last position.
        let mut steps: Vec<usize> = view
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| s.header.is_some())
            .map(|(i, _)| i)
            .step_by(3)
            .collect();
        steps.push(view.steps.len());
        for step in steps {
            let url = format!("file://{}#game={}&step={step}", page.display(), g + 1);
            let dom = dump_dom(browser, &url);
            assert!(
                dom.contains(&format!("data-step=\"{step}\"")),
                "the page did not reach step {step}"
            );
            let want = if step == 0 {
                &view.start
            } else {
                &view.steps[step - 1].frame
            };
            assert_eq!(
                board_in_dom(&dom),
                want.pieces(),
                "game {}, step {step}",
                g + 1
            );
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} positions checked");
    // Keep a look at the page for people.
    screenshot(
        browser,
        &format!("file://{}#game=1&step=40", page.display()),
        "recorded-game.png",
    );
}

#[test]
fn the_page_in_chromium_says_why_a_record_stops_replaying() {
    let Some(browser) = webdriver::chromium() else {
        return;
    };
    let dir = scratch("problem");
    let mut rec = random_record(6);
    rec.entries.truncate(10);
    rec.entries.push(Entry::action(zebra::rules::Action::Snap));
    rec.entries.push(Entry::action(zebra::rules::Action::Snap));
    // Written without the writer (which replays, and would refuse): the reader only parses.
    let mut text = String::new();
    for (k, v) in rec.tags.iter() {
        text.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    text.push('\n');
    let tokens: Vec<String> = rec.entries.iter().map(|e| e.to_string()).collect();
    text.push_str(&tokens.join(" "));
    text.push_str(" 1-0\n");
    let page = dir.join("bad.html");
    std::fs::write(&page, export_html(&text, None).unwrap()).unwrap();
    let dom = dump_dom(browser, &format!("file://{}", page.display()));
    let banner = dom
        .split("id=\"problem\"")
        .nth(1)
        .expect("the problem banner");
    let banner = &banner[..banner.find("</div>").unwrap()];
    assert!(!banner.contains("hidden"), "{banner}");
    assert!(banner.contains("stops replaying"), "{banner}");
    assert!(banner.contains("does not replay"), "{banner}");
}

#[test]
fn the_board_in_a_pipe_is_ascii_and_in_a_terminal_has_glyphs_and_colours() {
    let dir = scratch("board");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, golden()).unwrap();
    let path = pgn.to_str().unwrap();
    // Through a pipe: plain ASCII, one board per play end, rank 8 first.
    let out = zebra(&["view", path, "--board", "--game", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.is_ascii(), "non-ASCII in a pipe");
    assert!(!text.contains('\x1b'));
    let boards = text.matches("   a  b  c  d  e  f  g  h\n").count();
    let view = view_game(&read_games(&golden()).unwrap()[0]);
    assert_eq!(boards, view.steps.iter().filter(|s| s.play_end).count());
    assert!(boards > 5);
    assert!(text.starts_with("game 1: "), "{text}");
    // In a real terminal (a pty from `script`): chess glyphs and ANSI colours.
    let cmd = format!(
        "{} view {path} --board --game 1",
        env!("CARGO_BIN_EXE_zebra")
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env_remove("NO_COLOR")
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success());
    let tty = String::from_utf8_lossy(&out.stdout);
    assert!(tty.contains("\x1b[44"), "no colours in a terminal");
    assert!(
        tty.chars().any(|c| ('\u{2654}'..='\u{265F}').contains(&c)),
        "no glyphs"
    );
}

#[test]
fn zebra_play_board_prints_the_field_as_plays_end() {
    let out = zebra(&["play", "--board", "--tc", "plays=1", "--seed", "3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.matches("   a  b  c  d  e  f  g  h").count() >= 4,
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().starts_with("result "),
        "{text}"
    );
    // --board and --quiet contradict each other.
    let out = zebra(&["play", "--board", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
}

// ---- served: zebra view FILE ----

/// A running `zebra view` server; killed and reaped when dropped.
struct Server {
    child: std::process::Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(file: &Path, extra: &[&str]) -> Server {
    use std::io::BufRead;
    let mut child = zebra_command(&[])
        .arg("view")
        .arg(file)
        .args(["--listen", "127.0.0.1:0"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // serving 3 games of FILE at http://127.0.0.1:PORT/ (Ctrl-C stops)
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in: {line}"))
        .trim_end_matches('/')
        .to_string();
    Server { child, base }
}

/// A plain HTTP/1.1 GET: (status, content type, body).
fn get(base: &str, path: &str) -> (u16, String, String) {
    let (status, head, body) = common::http::http(base, "GET", path, None, &[], None);
    let kind = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type: ").map(str::to_string))
        .unwrap_or_default();
    (status, kind, body)
}

#[test]
fn zebra_view_serves_the_page_the_list_and_each_game() {
    let dir = scratch("serve");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, golden()).unwrap();
    let server = start_server(&pgn, &[]);
    assert!(
        server.base.starts_with("http://127.0.0.1:"),
        "{}",
        server.base
    );
    let (status, kind, page) = get(&server.base, "/");
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(
        page.contains("id=\"zebra-games\">null</script>"),
        "games are fetched, not inlined"
    );
    let (status, _, list) = get(&server.base, "/api/games");
    assert_eq!(status, 200);
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 3);
    assert_eq!(list[2]["termination"], "time forfeit");
    let (status, _, game) = get(&server.base, "/api/games/2");
    assert_eq!(status, 200);
    let game: serde_json::Value = serde_json::from_str(&game).unwrap();
    let want = serde_json::to_value(&view_games(&golden()).unwrap()[1]).unwrap();
    assert_eq!(game, want);
    for path in [
        "/api/games/4",
        "/api/games/0",
        "/api/games/x",
        "/nope",
        "/../etc/passwd",
    ] {
        let (status, _, body) = get(&server.base, path);
        assert_eq!(status, 404, "{path}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(body["error"].as_str().unwrap().len() > 10, "{path}: {body}");
    }
    let (_, _, body) = get(&server.base, "/api/games/4");
    assert!(
        body.contains("there is no game 4: the file holds 3"),
        "{body}"
    );
}

#[test]
fn a_port_in_use_is_one_line_and_exit_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = scratch("port");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, golden()).unwrap();
    let out = zebra(&["view", pgn.to_str().unwrap(), "--listen", &addr]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("zebra: cannot listen on {addr}")),
        "{err}"
    );
    let out = zebra(&["view", pgn.to_str().unwrap(), "--listen", "localhost"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is not an address and port"), "{err}");
    let out = zebra(&["view", pgn.to_str().unwrap(), "--listen", &addr, "--board"]);
    assert_eq!(out.status.code(), Some(2));
    // --listen on play and match means --watch: the same line, before anything is written.
    let out_dir = dir.join("series");
    let log_dir = dir.join("logs");
    for args in [
        vec![
            "play",
            "--listen",
            addr.as_str(),
            "--log-dir",
            log_dir.to_str().unwrap(),
        ],
        vec![
            "match",
            "--games",
            "2",
            "--listen",
            addr.as_str(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
    ] {
        let out = zebra(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("zebra: cannot listen on {addr}"))),
            "{args:?}: {err}"
        );
    }
    assert!(!out_dir.exists() && !log_dir.exists(), "nothing is written");
}

#[test]
fn the_served_page_in_chromium_fetches_a_game_and_shows_the_engines_board() {
    let Some(browser) = webdriver::chromium() else {
        return;
    };
    let dir = scratch("serve-browser");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, golden()).unwrap();
    let server = start_server(&pgn, &[]);
    let view = &view_games(&golden()).unwrap()[1];
    for step in [0, 30, view.steps.len()] {
        let url = format!("{}/#game=2&step={step}", server.base);
        let out = browser_output(Command::new(browser).args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            &url,
        ]));
        let dom = String::from_utf8(out.stdout).unwrap();
        assert!(
            dom.contains(&format!("data-step=\"{step}\"")),
            "step {step} not shown"
        );
        let want = if step == 0 {
            &view.start
        } else {
            &view.steps[step - 1].frame
        };
        assert_eq!(board_in_dom(&dom), want.pieces(), "step {step}");
    }
}

// ---- live: zebra play --watch, zebra match --watch ----

/// A running `zebra play|match --watch`; killed and reaped when dropped.
struct Watched {
    child: std::process::Child,
    base: String,
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watched {
    /// Ctrl-C: the viewer stays up after the end until then; the exit code stays the run's.
    fn interrupt(mut self) -> std::process::ExitStatus {
        // SAFETY: signals the child this test started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let start = std::time::Instant::now();
        let deadline = start + std::time::Duration::from_secs(60);
        let mut again = start + std::time::Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            // Known race (issue note, 2026-11-26): a Ctrl-C that lands between the end of
            // the series' runtime and the viewer's wait is lost; a user presses again, and
            // so does this test, every 5 s.
            if std::time::Instant::now() >= again {
                // SAFETY: as above.
                unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
                again += std::time::Duration::from_secs(5);
            }
            assert!(
                std::time::Instant::now() < deadline,
                "zebra did not stop after Ctrl-C"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// Starts `zebra ARGS --watch` and reads the viewer's address from its stderr.
fn start_watched(args: &[&str]) -> Watched {
    use std::io::BufRead;
    let mut child = zebra_command(&[])
        .args(args)
        .args(["--watch", "--listen", "127.0.0.1:0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let base = loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "no address on stderr: {seen}"
        );
        seen.push_str(&line);
        if let Some(rest) = line.strip_prefix("watch at ") {
            break rest.trim().trim_end_matches('/').to_string();
        }
    };
    // Keep draining stderr so that the process never blocks on it.
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    Watched { child, base }
}

/// One message of a feed: its id (if any) and its data as JSON.
type Sse = (Option<String>, serde_json::Value);

/// Reads a server-sent event feed until `enough` says so or the server ends it. An event
/// whose data has several lines (the run's feed batches its lines) gives one message per
/// line; the event's id (the number of its last line) numbers them, counting back.
fn read_feed(
    base: &str,
    path: &str,
    last_id: Option<&str>,
    mut enough: impl FnMut(&[Sse]) -> bool,
) -> Vec<Sse> {
    use std::io::{BufRead, Write};
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    let resume = last_id.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{resume}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut reader = std::io::BufReader::new(stream);
    let mut line = String::new();
    // Headers, then chunked body: lines that are chunk sizes are skipped (an event's
    // lines never look like bare hexadecimal numbers: they start with a field name).
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        assert!(!line.is_empty(), "the feed closed in its headers");
    }
    let mut events = Vec::new();
    let (mut id, mut data) = (None, String::new());
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return events;
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if let Some(d) = l.strip_prefix("data: ") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(d);
        } else if let Some(i) = l.strip_prefix("id: ") {
            id = Some(i.to_string());
        } else if l.is_empty() && !data.is_empty() {
            let lines: Vec<&str> = data.split('\n').collect();
            let last: Option<u64> = id.as_deref().and_then(|i| i.parse().ok());
            assert!(
                lines.len() == 1 || last.is_some(),
                "a batch of lines without a line number: {data}"
            );
            for (k, line) in lines.iter().enumerate() {
                let back = (lines.len() - 1 - k) as u64;
                let line_id = match last {
                    Some(n) if lines.len() > 1 => Some((n - back).to_string()),
                    _ => id.clone(),
                };
                events.push((line_id, serde_json::from_str(line).unwrap()));
            }
            id = None;
            data.clear();
            if enough(&events) {
                return events;
            }
        }
    }
}

/// The whole text of a feed that ends (its chunk sizes left in).
fn feed_text(base: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    text.replace("\r\n", "\n")
}

/// The steps a game feed delivered, in order: a `view`'s, then each batch's.
fn steps_of(events: &[Sse]) -> Vec<serde_json::Value> {
    let mut steps = Vec::new();
    for (_, e) in events {
        match e["type"].as_str().unwrap() {
            "view" => steps = e["view"]["steps"].as_array().unwrap().clone(),
            "steps" => {
                assert_eq!(
                    e["first"].as_u64().unwrap() as usize,
                    steps.len(),
                    "a gap or a repeat: {e}"
                );
                steps.extend(e["steps"].as_array().unwrap().iter().cloned());
            }
            _ => {}
        }
    }
    steps
}

#[test]
fn a_live_game_resumes_from_last_event_id_with_no_gap_and_no_repeat() {
    let dir = scratch("live-resume");
    let pgn = dir.join("game.pgn");
    // Each bot sleeps 30 ms per decision: the game lasts several seconds at the least, so
    // the browser below reconnects while it runs (a busier machine only makes it longer).
    let slow = format!("{} --sleep-ms 30", TEST_BOT);
    let watched = start_watched(&[
        "play",
        "--white",
        &slow,
        "--black",
        &slow,
        "--tc",
        "plays=6,play=5s,reaction=2s",
        "--pgn",
        pgn.to_str().unwrap(),
        "-q",
    ]);
    // A browser takes the game so far and one batch, then goes away.
    let first = read_feed(&watched.base, "/api/live/games/1", None, |ev| {
        ev.iter().any(|(_, e)| e["type"] == "steps")
    });
    assert_eq!(first[0].1["type"], "view", "{:?}", first[0]);
    let last_id = first.last().unwrap().0.clone().expect("steps carry an id");
    let had = steps_of(&first).len();
    assert_eq!(last_id, format!("1-{had}"));
    // It comes back with the last id it had: the next step is the one after it, up to the
    // end.
    let rest = read_feed(&watched.base, "/api/live/games/1", Some(&last_id), |ev| {
        ev.iter().any(|(_, e)| e["type"] == "end")
    });
    assert_eq!(
        rest[0].1["type"], "steps",
        "the game was still running: it resumes with steps, not a new view"
    );
    assert_eq!(rest[0].1["first"].as_u64(), Some(had as u64));
    assert!(rest.iter().all(|(_, e)| e["type"] != "view"));
    let end = &rest.last().unwrap().1;
    assert_eq!(end["type"], "end");
    let mut both = first.clone();
    both.extend(rest.iter().cloned());
    let live = steps_of(&both);
    // What it saw is the record's view stream, step for step.
    let record = read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let want = serde_json::to_value(view_game(&record[0]).steps).unwrap();
    assert_eq!(serde_json::Value::Array(live), want);
    assert_eq!(end["result"], record[0].tags.get("Result").unwrap());
    // A browser that opens the finished game gets all of it at once.
    let late = read_feed(&watched.base, "/api/live/games/1", None, |_| false);
    assert_eq!(serde_json::Value::Array(steps_of(&late)), want);
    assert_eq!(late.last().unwrap().1["type"], "end");
    // An id from another attempt, or beyond the game, starts over with a view.
    let odd = read_feed(&watched.base, "/api/live/games/1", Some("7-3"), |_| false);
    assert_eq!(odd[0].1["type"], "view");
    // The run's event stream: numbered lines; a reconnection resumes after its id.
    let series = read_feed(&watched.base, "/api/live", None, |_| false);
    let types: Vec<&str> = series
        .iter()
        .map(|(_, e)| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["game_started", "game_finished"]);
    assert_eq!(series[0].0.as_deref(), Some("1"));
    assert_eq!(series[1].0.as_deref(), Some("2"));
    // Lines there already are come in one event (its id the last line's number).
    let text = feed_text(&watched.base, "/api/live");
    assert_eq!(text.matches("\ndata: ").count(), 2, "{text}");
    assert_eq!(text.matches("\nid: ").count(), 1, "{text}");
    assert!(text.contains("\nid: 2\n"), "{text}");
    let again = read_feed(&watched.base, "/api/live", Some("1"), |_| false);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0], series[1]);
    // A game the run does not have.
    let gone = read_feed(&watched.base, "/api/live/games/2", None, |_| false);
    assert_eq!(gone[0].1["type"], "gone");
    // Every message has the shape protocol/schemas/live.json gives, and the schema is not
    // a blank check.
    let schemas =
        schema::Schemas::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas"));
    for (_, message) in first
        .iter()
        .chain(&rest)
        .chain(&late)
        .chain(&odd)
        .chain(&series)
        .chain(&gone)
    {
        if let Err(e) = schemas.validate("live.json", message) {
            panic!("a live message does not validate: {e}\n{message}");
        }
    }
    let mut bad = rest[0].1.clone();
    bad["first"] = serde_json::json!(-1);
    assert!(schemas.validate("live.json", &bad).is_err());
    let status = watched.interrupt();
    assert_eq!(status.code(), Some(0), "the game's exit code, not Ctrl-C's");
}

/// Takes a screenshot of `url` for people to look at, into the screenshots directory.
fn screenshot(browser: &str, url: &str, name: &str) {
    let shot = shots_dir().join(name);
    let out = browser_output(
        Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1400,900",
            ])
            .arg(format!("--screenshot={}", shot.display()))
            .arg(url),
    );
    assert!(out.status.success());
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);
    eprintln!("screenshot: {}", shot.display());
}

/// Where screenshots are kept (never in the repository).
fn shots_dir() -> PathBuf {
    let shots = std::env::temp_dir().join(format!("zebra-web-shots-{}", std::process::id()));
    std::fs::create_dir_all(&shots).unwrap();
    shots
}

/// The seat's state as the server has it now (its feed's first message).
fn seat_now(base: &str) -> serde_json::Value {
    read_feed(base, "/api/seat", None, |ev| !ev.is_empty())[0]
        .1
        .clone()
}

/// Waits (up to 15 s) for the seat's request `id` to close after its clicks. On a loaded
/// machine a frame that arrives between a piece's click and its target's redraws the board
/// and drops the half-made move, as it would for a person: the request then stays open,
/// and the caller looks again and clicks again, at most 4 times a request (`tries`).
fn closed_after_clicks(base: &str, id: u64, tries: &mut HashMap<u64, u32>) {
    let wait = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while seat_now(base)["id"].as_u64() == Some(id) {
        if std::time::Instant::now() >= wait {
            let n = tries.entry(id).or_insert(0);
            *n += 1;
            assert!(*n < 4, "request {id} stayed open after 4 tries");
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_person_plays_a_game_through_the_human_seat_by_clicking() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("seat");
    let pgn = dir.join("game.pgn");
    // One play per quarter, and clocks no loaded machine can run out.
    let watched = start_watched(&[
        "play",
        "--white",
        "human",
        "--tc",
        "plays=1,play=120s,reaction=120s",
        "--pgn",
        pgn.to_str().unwrap(),
        "-q",
    ]);
    driver.open(&format!("{}/", watched.base));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    let (mut decisions, mut formations, mut clicked_moves) = (0, 0, 0);
    let mut tries = HashMap::new();
    let mut shot_taken = false;
    loop {
        assert!(std::time::Instant::now() < deadline, "the game did not end");
        let seat = seat_now(&watched.base);
        if seat["over"] == true {
            break;
        }
        let Some(id) = seat["id"].as_u64() else {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        };
        // The page shows the same open request.
        let shown = driver.run(
            "const s = document.getElementById('seat'); return s.hidden ? null : s.dataset.id;",
        );
        if shown.as_str() != Some(id.to_string().as_str()) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        }
        let buttons: Vec<&str> = seat["buttons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap())
            .collect();
        let moves = seat["moves"].as_array().unwrap();
        if seat["decision"] == "formation" {
            let suggestion = seat["suggestion"].as_str().unwrap().to_string();
            if formations == 0 {
                // The first formation piece by piece: pick a role, click its square.
                for item in suggestion.trim_matches(['[', ']']).split(',') {
                    let (role, square) = item.split_at(1);
                    driver.click(&format!("#seat button[data-role='{role}']"));
                    driver.click(&format!("#hits rect[data-sq='{square}']"));
                    driver.click(&format!("#seat button[data-role='{role}']"));
                }
                let draft = driver.run("return document.getElementById('seat-draft').textContent;");
                let mut got: Vec<String> = draft
                    .as_str()
                    .unwrap()
                    .trim_matches(['[', ']'])
                    .split(',')
                    .map(str::to_string)
                    .collect();
                let mut want: Vec<String> = suggestion
                    .trim_matches(['[', ']'])
                    .split(',')
                    .map(str::to_string)
                    .collect();
                got.sort();
                want.sort();

                assert_eq!(
                    got, want,
                    "the draft holds the pieces clicked onto the field"
                );
                // The engine's verdict reaches the page.
                let verdict_deadline =
                    std::time::Instant::now() + std::time::Duration::from_secs(60);
                while driver.run("return document.getElementById('seat-note').textContent;")
                    != "a legal formation"
                {
                    assert!(
                        std::time::Instant::now() < verdict_deadline,
                        "no verdict on the draft"
                    );
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
            } else {
                driver.click("#seat-suggest");
            }
            driver.click("#seat-send-formation");
            formations += 1;
        } else if let Some(b) = ["snap", "pass"].into_iter().find(|b| buttons.contains(b)) {
            driver.click(&format!("#seat button[data-action='{b}']"));
        } else if let Some(m) = moves.first() {
            // A piece, then its target, on the field.
            let (from, to) = (m["from"].as_str().unwrap(), m["to"].as_str().unwrap());
            driver.click(&format!("#hits rect[data-sq='{from}']"));
            driver.click(&format!("#hits rect[data-sq='{to}']"));
            let same: Vec<_> = moves
                .iter()
                .filter(|o| o["from"] == m["from"] && o["to"] == m["to"])
                .collect();
            if same.len() > 1 {
                // Two knight routes to one square: the page asks which.
                driver.click(&format!(
                    "#seat button[data-action='{}']",
                    m["action"].as_str().unwrap()
                ));
            }
            clicked_moves += 1;
        } else {
            driver.click(&format!("#seat button[data-action='{}']", buttons[0]));
        }
        decisions += 1;
        if decisions == 12 && !shot_taken {
            driver.run("window.scrollTo(0, 0); return null;");
            std::fs::write(shots_dir().join("live-human-seat.png"), driver.screenshot()).unwrap();
            shot_taken = true;
        }
        // The request closes before the seat is looked at again.
        closed_after_clicks(&watched.base, id, &mut tries);
    }
    assert!(
        formations >= 4 && clicked_moves > 0,
        "{formations} formations, {clicked_moves} moves"
    );
    // The seat hears the end before the record is written: wait until the run says the
    // game is finished (said once it is on disk).
    read_feed(&watched.base, "/api/live", None, |ev| {
        ev.iter().any(|(_, e)| e["type"] == "game_finished")
    });
    // The record: the person as White, every decision applied as clicked (no timeout, no
    // illegal reply), and it verifies.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let record = &read_games(&text).unwrap()[0];
    assert_eq!(record.tags.get("White"), Some("human"));
    assert_eq!(record.tags.get("Termination"), Some("normal"));
    let out = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        text.matches("!p").count() + text.matches("!r").count(),
        0,
        "no clock ran out"
    );
    // The page follows the game to its last position.
    let view = view_game(record);
    let last = view.steps.last().unwrap().frame.pieces();
    let wait = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let dom = driver.run("return document.getElementById('field').outerHTML;");
        let board = board_in_dom(dom.as_str().unwrap());
        if board == last {
            break;
        }
        assert!(
            std::time::Instant::now() < wait,
            "the page shows {board:?}, not {last:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    driver.run("window.scrollTo(0, 0); return null;");
    std::fs::write(
        shots_dir().join("live-human-seat-end.png"),
        driver.screenshot(),
    )
    .unwrap();
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
}

/// Chebyshev distance between two squares named as `e5` (Boyer's board is 9x9).
fn squares_apart(a: &str, b: &str) -> u32 {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    (a[0].abs_diff(b[0]) as u32).max(a[1].abs_diff(b[1]) as u32)
}

#[test]
fn a_person_plays_boyers_football_through_the_human_seat_by_clicking() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("seat-boyer");
    let pgn = dir.join("game.pgn");
    // Two minutes a turn: no loaded machine runs it out.
    let watched = start_watched(&[
        "play",
        "--rules",
        "boyer-football",
        "--white",
        "human",
        "--black",
        "zebra-random-bot",
        "--seed",
        "5",
        "--tc",
        "turn=120s",
        "--pgn",
        pgn.to_str().unwrap(),
        "-q",
    ]);
    driver.open(&format!("{}/", watched.base));
    // The person plays for a goal (White scores with the ball on e9): a kick nearest e9
    // when one is offered, else the move nearest the ball, else pass. Every choice is
    // made by clicks on the board (or the pass button), as a person would.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(900);
    let (mut decisions, mut kicks, mut moves_clicked, mut passes) = (0, 0, 0, 0);
    let mut tries = HashMap::new();
    let mut shot_taken = false;
    loop {
        assert!(std::time::Instant::now() < deadline, "the game did not end");
        let seat = seat_now(&watched.base);
        assert!(
            seat["last_status"].is_null() || seat["last_status"] == "ok",
            "a reply was refused: {seat}"
        );
        if seat["over"] == true {
            break;
        }
        let Some(id) = seat["id"].as_u64() else {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        };
        assert_eq!(seat["rules"], "boyer-football", "{seat}");
        // The page shows the same open request, on Boyer's board.
        let shown = driver.run(
            "const s = document.getElementById('seat'); const f = document.getElementById('field'); \
             return s.hidden || f.getAttribute('data-board') !== 'boyer' ? null : [s.dataset.id, f.getAttribute('data-ball-square')];",
        );
        if shown[0].as_str() != Some(id.to_string().as_str()) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        }
        let ball = shown[1].as_str().unwrap_or("e5").to_string();
        let moves = seat["moves"].as_array().unwrap();
        let buttons: Vec<&str> = seat["buttons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap())
            .collect();
        let best = |kind: &str, goal: &str| {
            moves
                .iter()
                .filter(|m| m["kind"] == kind)
                .min_by_key(|m| squares_apart(m["to"].as_str().unwrap(), goal))
        };
        let chosen = best("kick", "e9").or_else(|| best("move", &ball));
        match chosen {
            Some(m) if !(m["kind"] == "move" && buttons.contains(&"pass")) => {
                // The piece, then its target, on the board.
                let (from, to) = (m["from"].as_str().unwrap(), m["to"].as_str().unwrap());
                driver.click(&format!("#hits rect[data-sq='{from}']"));
                let targets = driver.run("return [...document.querySelectorAll('#marks [data-target]')].map(t => t.getAttribute('data-target'));");
                assert!(
                    targets
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|t| t.as_str() == Some(to)),
                    "{to} is not marked after a click on {from}: {targets}"
                );
                driver.click(&format!("#hits rect[data-sq='{to}']"));
                let same = moves
                    .iter()
                    .filter(|o| o["from"] == m["from"] && o["to"] == m["to"])
                    .count();
                if same > 1 {
                    // A move and a kick to one square: the page asks which.
                    driver.click(&format!(
                        "#seat button[data-action='{}']",
                        m["action"].as_str().unwrap()
                    ));
                }
                if m["kind"] == "kick" {
                    kicks += 1;
                } else {
                    moves_clicked += 1;
                }
            }
            _ => {
                assert!(buttons.contains(&"pass"), "nothing to play: {seat}");
                driver.click("#seat button[data-action='pass']");
                passes += 1;
            }
        }
        decisions += 1;
        if decisions == 6 && !shot_taken {
            driver.run("window.scrollTo(0, 0); return null;");
            std::fs::write(
                shots_dir().join("live-human-seat-boyer.png"),
                driver.screenshot(),
            )
            .unwrap();
            shot_taken = true;
        }
        closed_after_clicks(&watched.base, id, &mut tries);
    }
    assert!(
        moves_clicked > 0 && kicks > 0,
        "{moves_clicked} moves, {kicks} kicks, {passes} passes"
    );
    read_feed(&watched.base, "/api/live", None, |ev| {
        ev.iter().any(|(_, e)| e["type"] == "game_finished")
    });
    // The record: a Boyer game with the person as White, ended by the rules (no forfeit:
    // every reply was legal and in time), and it verifies.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let record = &read_games(&text).unwrap()[0];
    assert_eq!(record.tags.get("Variant"), Some("boyer-football"));
    assert_eq!(record.tags.get("White"), Some("human"));
    assert_eq!(record.tags.get("Termination"), Some("normal"), "{text}");
    let out = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The page says the game is over.
    let wait = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while driver
        .run("return document.getElementById('seat').textContent.includes('The game is over.');")
        != true
    {
        assert!(
            std::time::Instant::now() < wait,
            "the page never said the game is over"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
}

#[test]
fn a_followed_series_moves_on_to_a_running_game_after_one_ends() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("watch-follow");
    // Bots that sleep 60 ms a decision: a game lasts some 8 s (longer on a busy machine),
    // four games one at a time; the page opens during the first, and when that one has
    // ended and the page has dwelt 3 s on it, the second runs.
    let slow = |name: &str| format!("{name}={} --sleep-ms 60", TEST_BOT);
    let watched = start_watched(&[
        "match",
        "--bot",
        &slow("north"),
        "--bot",
        &slow("south"),
        "--games",
        "4",
        "--concurrency",
        "1",
        "--tc",
        "plays=6,play=5s,reaction=2s",
        "--out",
        dir.join("series").to_str().unwrap(),
        "-q",
    ]);
    driver.open(&format!("{}/", watched.base));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let mut shown: Vec<String> = Vec::new();
    loop {
        let now = driver.run(
            "return [document.getElementById('live-text').textContent, document.getElementById('game-select').value];",
        );
        let game = now[1].as_str().unwrap_or("").to_string();
        if !game.is_empty() && shown.last() != Some(&game) {
            shown.push(game);
        }
        if now[0].as_str() == Some("finished: completed") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the page says {now}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // Game indices as the page showed them: the first game, then later ones only.
    assert_eq!(shown.first().map(String::as_str), Some("0"), "{shown:?}");
    assert!(shown.len() >= 2, "the page stayed on the first game");
    assert!(shown.windows(2).all(|w| w[0] < w[1]), "{shown:?}");
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
}

#[test]
fn a_watched_series_lists_its_games_and_standings_in_the_browser() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("watch-series");
    let out = dir.join("series");
    let watched = start_watched(&[
        "match",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--tc",
        "plays=4,play=5s,reaction=2s",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    driver.open(&format!("{}/", watched.base));
    // The page follows the run until the series is over (it may already be).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    loop {
        let status = driver.run("return document.getElementById('live-text').textContent;");
        if status.as_str() == Some("finished: completed") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the page says {status}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // Every game with its result, as the series' record holds them.
    let records = read_games(&std::fs::read_to_string(out.join("games.pgn")).unwrap()).unwrap();
    assert_eq!(records.len(), 6);
    let options = driver.run(
        "return Array.from(document.querySelectorAll('#game-select option')).map(o => o.textContent);",
    );
    let options: Vec<&str> = options
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert_eq!(options.len(), 6, "{options:?}");
    for rec in &records {
        let number: usize = rec.tags.get("Game").unwrap().parse().unwrap();
        let line = options
            .iter()
            .find(|o| o.starts_with(&format!("{number}. ")))
            .unwrap_or_else(|| panic!("game {number} is not listed: {options:?}"));
        assert!(
            line.contains(&format!(
                "{} \u{2013} {}  {}",
                rec.tags.get("White").unwrap(),
                rec.tags.get("Black").unwrap(),
                rec.tags.get("Result").unwrap()
            )),
            "{line}"
        );
    }
    // The standings after the last game: six games each.
    let rows = driver.run(
        "return Array.from(document.querySelectorAll('#standings tr')).map(r => Array.from(r.children).map(c => c.textContent));",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in &rows[1..] {
        assert_eq!(row[1], "6", "{row:?}");
    }
    let caption = driver.run("return document.querySelector('#standings caption').textContent;");
    assert_eq!(caption, "Standings after 6 games");
    // Any game opens from the list, drawn from the engine's position.
    driver.run("const s = document.getElementById('game-select'); s.value = '0'; s.dispatchEvent(new Event('change')); return null;");
    let first = records
        .iter()
        .find(|r| r.tags.get("Game") == Some("1"))
        .unwrap();
    let view = view_game(first);
    let last = view.steps.last().unwrap().frame.pieces().to_vec();
    let wait = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let steps = view.steps.len();
    loop {
        // Its last position, with the control a person would use.
        driver.click("#to-end");
        let dom = driver.run("return document.getElementById('field').outerHTML;");
        let board = board_in_dom(dom.as_str().unwrap());
        if board == last {
            break;
        }
        let shown = driver.run("return [document.getElementById('position').textContent, document.getElementById('matchup').textContent, document.getElementById('problem').textContent];");
        assert!(
            std::time::Instant::now() < wait,
            "the page shows {shown} (game 1 has {steps} steps): {board:?}"
        );
        assert!(
            std::time::Instant::now() < wait,
            "game 1's last position is not shown"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    driver.run("window.scrollTo(0, 0); return null;");
    std::fs::write(shots_dir().join("live-series.png"), driver.screenshot()).unwrap();
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
}

/// A live page opened from its permalink (`#number=N&step=K`) shows game N at step K and
/// stays there (following off), its list line says what its board says (the result, not
/// `running`, once the game is over), every step has its caption in words, and the Elo
/// line names whose Elo it is. Deterministic bots in play-count mode: the same games on
/// any machine.
#[test]
fn a_live_permalink_opens_its_game_and_step() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("live-permalink");
    let out = dir.join("series");
    let slow = format!("{TEST_BOT} --name slow --sleep-ms 2");
    let watched = start_watched(&[
        "match",
        "--games",
        "6",
        "--concurrency",
        "1",
        "--tc",
        "plays=10,play=30s,reaction=10s",
        "--bot",
        &slow,
        "--bot",
        common::run::RANDOM_BOT,
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let base = watched.base.clone();
    let wait_for = |what: &str, js: &str| -> serde_json::Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        loop {
            let v = driver.run(js);
            if v != serde_json::Value::Null && v != serde_json::Value::Bool(false) {
                return v;
            }
            assert!(std::time::Instant::now() < deadline, "{what}: never");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    driver.open(&format!("{base}/"));
    wait_for(
        "the series ends",
        "return document.getElementById('live-text').textContent === 'finished: completed';",
    );
    // Whose Elo: the first bot's against the second (the bots do not sweep each other).
    let elo = driver.run(
        "const r = Array.from(document.querySelectorAll('#standings tr')); return r[r.length - 1].textContent;",
    );
    assert!(
        elo.as_str()
            .unwrap()
            .starts_with("Elo of slow against random: "),
        "{elo}"
    );
    // The permalink of game 2, step 5, opened afresh.
    driver.open("about:blank");
    driver.open(&format!("{base}/#number=2&step=5"));
    let position = wait_for(
        "game 2 at step 5",
        "const p = document.getElementById('position').textContent; return p.startsWith('5 / ') ? p : null;",
    );
    let records = read_games(&std::fs::read_to_string(out.join("games.pgn")).unwrap()).unwrap();
    let second = records
        .iter()
        .find(|r| r.tags.get("Game") == Some("2"))
        .unwrap();
    let view = view_game(second);
    assert_eq!(position, format!("5 / {}", view.steps.len()).as_str());
    let shown = driver.run(
        "return [document.getElementById('matchup').textContent, document.getElementById('follow').checked, \
         document.querySelector('#caption .words').textContent, document.getElementById('permalink').getAttribute('href')];",
    );
    let shown = shown.as_array().unwrap();
    assert!(
        shown[0]
            .as_str()
            .unwrap()
            .contains(second.tags.get("White").unwrap()),
        "{shown:?}"
    );
    assert_eq!(shown[1], false, "a permalink stops following");
    assert_eq!(shown[2], view.steps[4].caption.as_str());
    assert_eq!(shown[3], "#number=2&step=5");
    // The list line of the game on show says what its board says.
    let line = wait_for(
        "game 2's list line with its result",
        "const o = Array.from(document.querySelectorAll('#game-select option')).find(o => o.textContent.startsWith('2. ')); \
         return o && !o.textContent.includes('running') ? o.textContent : null;",
    );
    assert!(
        line.as_str()
            .unwrap()
            .contains(second.tags.get("Result").unwrap()),
        "{line}"
    );
    // Every step of the play-by-play has words, not only notation.
    let wordless = driver.run(
        "return Array.from(document.querySelectorAll('#plays .act')).filter(a => !/^[A-Z].*[.]/.test(a.textContent)).length;",
    );
    assert_eq!(wordless, 0);
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Boyer's Football in the viewer ----

/// A whole seeded random game of Boyer's Football as a record.
fn boyer_record(seed: u64) -> GameRecord {
    use zebra::games::boyer::rules as boyer;
    let mut rec = GameRecord::of::<boyer::Game>(&boyer::Position::start());
    let mut game = boyer::Game::new(boyer::Position::start());
    let mut player = boyer::RandomPlayer::new(seed);
    while let Some(sub) = player.choose(&game) {
        game.apply(sub).unwrap();
        rec.entries.push(Entry::action(sub));
    }
    rec.finish(&game, Termination::Normal, None);
    rec
}

/// Boyer frames follow the engine sub-move by sub-move, turns begin where the record's
/// turn headers are, and the stream validates against view.json's Boyer branch (and not
/// against its Football Chess one).
#[test]
fn a_boyer_view_follows_the_engine_and_validates() {
    use zebra::games::boyer::rules as boyer;
    use zebra::web::AnyFrame;
    let schemas =
        schema::Schemas::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas"));
    for seed in 1..=6 {
        // Through the record's text, as `zebra view` reads it.
        let rec = &read_games(&write_game(&boyer_record(seed)).unwrap()).unwrap()[0];
        let view = view_game(rec);
        assert!(view.error.is_none(), "seed {seed}: {:?}", view.error);
        assert_eq!(view.rules, "boyer-football");
        assert_eq!(view.steps.len(), rec.entries.len());
        let mut game = boyer::Game::new(boyer::Position::start());
        for (entry, step) in rec.entries.iter().zip(&view.steps) {
            let starts_turn = game.position().at_turn_start();
            let side = game.position().turn();
            entry.apply_to(&mut game).unwrap();
            let AnyFrame::Board(f) = &step.frame else {
                panic!("a Boyer frame")
            };
            assert_eq!(f.ball, game.position().ball().to_string());
            assert_eq!(f.turns, game.position().turns());
            assert_eq!(f.made, game.position().made());
            assert_eq!(step.side, Some(side));
            assert_eq!(step.header.is_some(), starts_turn, "{}", step.token);
            assert_eq!(
                step.play_end,
                game.position().at_turn_start() || game.outcome().is_some()
            );
            let fen_pieces = game
                .position()
                .to_string()
                .split(' ')
                .next()
                .unwrap()
                .chars()
                .filter(|c| c.is_ascii_alphabetic() && *c != 'a')
                .count();
            assert_eq!(f.pieces.len(), fen_pieces);
        }
        let value = serde_json::to_value(&view).unwrap();
        if let Err(e) = schemas.validate("view.json", &value) {
            panic!("seed {seed}: the Boyer view does not validate: {e}");
        }
        // Read as Football Chess, the same stream is refused.
        let mut as_fc = value.clone();
        as_fc["rules"] = serde_json::json!("football-chess");
        assert!(schemas.validate("view.json", &as_fc).is_err());
    }
}

/// The page `zebra view --html` writes for the records `text` (saved as `dir/NAME.pgn`).
fn page_of(dir: &Path, name: &str, text: &str) -> PathBuf {
    let record = dir.join(format!("{name}.pgn"));
    std::fs::write(&record, text).unwrap();
    let page = dir.join(format!("{name}.html"));
    let out = zebra(&[
        "view",
        record.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    page
}

#[test]
fn the_page_in_chromium_draws_a_boyer_game_on_its_nine_by_nine_board() {
    let Some(browser) = webdriver::chromium() else {
        return;
    };
    let dir = scratch("boyer");
    let text = [3, 4]
        .iter()
        .map(|&s| write_game(&boyer_record(s)).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let page = page_of(&dir, "boyer", &text);
    let views = view_games(&text).unwrap();
    let view = &views[1];
    // A turn's start, a kick, and the end.
    let kick = view
        .steps
        .iter()
        .position(|s| s.arrow == Some("kick"))
        .expect("a random game kicks")
        + 1;
    for step in [0, kick, view.steps.len()] {
        let url = format!("file://{}#game=2&step={step}", page.display());
        let dom = dump_dom(browser, &url);
        assert!(
            dom.contains(&format!("data-step=\"{step}\"")),
            "step {step}"
        );
        assert!(dom.contains("data-board=\"boyer\""), "step {step}");
        let want = if step == 0 {
            &view.start
        } else {
            &view.steps[step - 1].frame
        };
        assert_eq!(board_in_dom(&dom), want.pieces(), "step {step}");
        let zebra::web::AnyFrame::Board(f) = want else {
            panic!("a Boyer frame")
        };
        assert!(
            dom.contains(&format!("data-ball-square=\"{}\"", f.ball)),
            "step {step}"
        );
        // Both goal squares, and the list named for turns.
        assert!(dom.contains("data-goal=\"e9\"") && dom.contains("data-goal=\"e1\""));
        assert!(dom.contains(">Turn by turn<"), "step {step}");
    }
    screenshot(
        browser,
        &format!("file://{}#game=2&step={kick}", page.display()),
        "boyer-game.png",
    );
}

/// `zebra match --rules boyer-football --watch`: a browser following a game live gets the
/// Boyer view stream, the same as the record's once the game is over.
#[test]
fn a_live_boyer_game_streams_the_records_view() {
    let dir = scratch("live-boyer");
    let out = dir.join("series");
    let watched = start_watched(&[
        "match",
        "--rules",
        "boyer-football",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    // The viewer's address is printed before the series announces its first game: until
    // then the game's feed says it is not held ("gone"), and a browser asks again.
    let feed = wait_for_view(|| {
        read_feed(&watched.base, "/api/live/games/1", None, |ev| {
            ev.iter().any(|(_, e)| e["type"] == "end")
        })
    });
    assert_eq!(feed[0].1["type"], "view", "{:?}", feed[0]);
    assert_eq!(feed[0].1["view"]["rules"], "boyer-football");
    let end = &feed.last().unwrap().1;
    assert_eq!(end["type"], "end");
    assert!(end["error"].is_null(), "{end}");
    let record = read_games(&std::fs::read_to_string(out.join("games.pgn")).unwrap()).unwrap();
    let game1 = record
        .iter()
        .find(|r| r.tags.get("Game") == Some("1"))
        .expect("game 1 recorded");
    let want = serde_json::to_value(view_game(game1).steps).unwrap();
    assert_eq!(serde_json::Value::Array(steps_of(&feed)), want);
    let status = watched.interrupt();
    assert!(status.success(), "{status:?}");
}

/// A game's feed once it has a view: asked again (for up to two minutes) while the game
/// is not yet held.
fn wait_for_view(mut read: impl FnMut() -> Vec<Sse>) -> Vec<Sse> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let feed = read();
        if feed.first().is_some_and(|(_, e)| e["type"] != "gone")
            || std::time::Instant::now() > deadline
        {
            return feed;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A seeded random game of Chess Eleven's engine as a record (shots with their drawn
/// outcomes, as the referee writes them).
fn eleven_record(seed: u64) -> GameRecord {
    use zebra::games::chess_eleven as eleven;
    use zebra::record::Recorded;
    let settings = eleven::Settings {
        halves: eleven::Halves::Goes(12),
        seed,
        ..eleven::Settings::default()
    };
    let mut rec = GameRecord::of::<eleven::Game>(&settings);
    let mut game = eleven::Game::new(settings);
    let mut player = eleven::RandomPlayer::new(seed);
    while let Some(action) = player.choose(&game) {
        let events = game.play(&action).unwrap();
        rec.entries
            .push(Entry::action(eleven::Game::as_recorded(&action, &events)));
    }
    rec.finish(&game, Termination::Normal, None);
    rec
}

/// Chess Eleven frames follow the engine decision by decision and the stream validates
/// against view.json's Chess Eleven branch (and not against the other games').
#[test]
fn a_chess_eleven_view_follows_the_engine_and_validates() {
    use zebra::games::chess_eleven as eleven;
    use zebra::web::AnyFrame;
    let schemas =
        schema::Schemas::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas"));
    for seed in 1..=6 {
        let rec = &read_games(&write_game(&eleven_record(seed)).unwrap()).unwrap()[0];
        let view = view_game(rec);
        assert!(view.error.is_none(), "seed {seed}: {:?}", view.error);
        assert_eq!(view.rules, "chess-eleven");
        assert_eq!(view.steps.len(), rec.entries.len());
        let mut game = <eleven::Game as zebra::record::Recorded>::from_tags(&rec.tags).unwrap();
        for (entry, step) in rec.entries.iter().zip(&view.steps) {
            entry.apply_to(&mut game).unwrap();
            let AnyFrame::Eleven(f) = &step.frame else {
                panic!("a Chess Eleven frame")
            };
            assert_eq!(f.score, game.score());
            let on_board = game.position().map_or(0, |p| {
                zebra::rules::Side::ALL
                    .iter()
                    .map(|&s| p.board().squares_of(s).count())
                    .sum()
            });
            assert_eq!(f.pieces.len(), on_board, "{}", step.token);
        }
        let value = serde_json::to_value(&view).unwrap();
        if let Err(e) = schemas.validate("view.json", &value) {
            panic!("seed {seed}: the Chess Eleven view does not validate: {e}");
        }
        for other in ["football-chess", "boyer-football"] {
            let mut as_other = value.clone();
            as_other["rules"] = serde_json::json!(other);
            assert!(
                schemas.validate("view.json", &as_other).is_err(),
                "seed {seed}: a Chess Eleven stream validates as {other}"
            );
        }
    }
}

/// `zebra view --html` draws a Chess Eleven game on its 8x8 board in Chromium: the pieces
/// of each frame, both goals, the ball where the frame has it, the list named for goes.
#[test]
fn the_page_in_chromium_draws_a_chess_eleven_game_on_its_board() {
    let Some(browser) = webdriver::chromium() else {
        return;
    };
    let dir = scratch("eleven");
    let text = write_game(&eleven_record(5)).unwrap();
    let page = page_of(&dir, "eleven", &text);
    let views = view_games(&text).unwrap();
    let view = &views[0];
    let pass = view
        .steps
        .iter()
        .position(|s| s.arrow == Some("pass"))
        .expect("a random game passes")
        + 1;
    for step in [2, pass, view.steps.len()] {
        let url = format!("file://{}#step={step}", page.display());
        let dom = dump_dom(browser, &url);
        assert!(
            dom.contains(&format!("data-step=\"{step}\"")),
            "step {step}"
        );
        assert!(dom.contains("data-board=\"eleven\""), "step {step}");
        let want = &view.steps[step - 1].frame;
        assert_eq!(board_in_dom(&dom), want.pieces(), "step {step}");
        let zebra::web::AnyFrame::Eleven(f) = want else {
            panic!("a Chess Eleven frame")
        };
        assert!(
            dom.contains(&format!("data-ball-state=\"{}\"", f.ball_kind)),
            "step {step}"
        );
        for goal in ["d1", "e1", "d8", "e8"] {
            assert!(dom.contains(&format!("data-goal=\"{goal}\"")), "{goal}");
        }
        assert!(dom.contains(">Go by go<"), "step {step}");
    }
    screenshot(
        browser,
        &format!("file://{}#step={pass}", page.display()),
        "chess-eleven-game.png",
    );
}

/// A person plays a short game of Chess Eleven through the human seat, by clicks: the
/// suggested formation (with the bench picked) sent by its button, then moves, passes and
/// shots as clicks from square to square, and `end` by its button.
#[test]
fn a_person_plays_chess_eleven_through_the_human_seat_by_clicking() {
    let Some(driver) = webdriver::driver() else {
        return;
    };
    let dir = scratch("seat-eleven");
    let pgn = dir.join("game.pgn");
    // Two minutes a decision, five a formation: no loaded machine runs them out.
    let watched = start_watched(&[
        "play",
        "--rules",
        "chess-eleven",
        "--white",
        "human",
        "--black",
        "zebra-random-bot",
        "--seed",
        "7",
        "--tc",
        "turns=4,move=120s,formation=300s",
        "--pgn",
        pgn.to_str().unwrap(),
        "-q",
    ]);
    driver.open(&format!("{}/", watched.base));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(900);
    let (mut formations, mut clicked, mut buttons_pressed) = (0, 0, 0);
    let mut tries = HashMap::new();
    let mut shot_taken = false;
    loop {
        assert!(std::time::Instant::now() < deadline, "the game did not end");
        let seat = seat_now(&watched.base);
        assert!(
            seat["last_status"].is_null() || seat["last_status"] == "ok",
            "a reply was refused: {seat}"
        );
        if seat["over"] == true {
            break;
        }
        let Some(id) = seat["id"].as_u64() else {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        };
        assert_eq!(seat["rules"], "chess-eleven", "{seat}");
        let shown = driver.run(
            "const s = document.getElementById('seat'); return s.hidden ? null : s.dataset.id;",
        );
        if shown.as_str() != Some(id.to_string().as_str()) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        }
        if seat["decision"] == "formation" {
            // The suggestion, a bench piece picked by its button, and send.
            driver.click("#seat-suggest");
            driver.click("#seat-bench button[data-bench='N']");
            driver.click("#seat-bench button[data-bench='B']");
            let draft = driver.run("return document.getElementById('seat-draft').textContent;");
            assert!(
                draft.as_str().unwrap().ends_with("]/B"),
                "the draft names its bench: {draft}"
            );
            driver.click("#seat-send-formation");
            formations += 1;
        } else {
            let moves = seat["moves"].as_array().unwrap();
            let pick = ["shot", "pass", "move"]
                .iter()
                .find_map(|kind| moves.iter().find(|m| m["kind"] == *kind));
            let buttons: Vec<&str> = seat["buttons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_str().unwrap())
                .collect();
            // Half the time a go with the ball ends at once, by its button.
            match pick {
                Some(m)
                    if !(buttons.contains(&"end") && clicked % 2 == 1 && m["kind"] != "shot") =>
                {
                    let (from, to) = (m["from"].as_str().unwrap(), m["to"].as_str().unwrap());
                    driver.click(&format!("#hits rect[data-sq='{from}']"));
                    driver.click(&format!("#hits rect[data-sq='{to}']"));
                    let same = moves
                        .iter()
                        .filter(|o| o["from"] == m["from"] && o["to"] == m["to"])
                        .count();
                    if same > 1 {
                        driver.click(&format!(
                            "#seat button[data-action='{}']",
                            m["action"].as_str().unwrap()
                        ));
                    }
                    clicked += 1;
                }
                _ => {
                    assert!(buttons.contains(&"end"), "nothing to play: {seat}");
                    driver.click("#seat button[data-action='end']");
                    buttons_pressed += 1;
                }
            }
            if clicked == 3 && !shot_taken {
                driver.run("window.scrollTo(0, 0); return null;");
                std::fs::write(
                    shots_dir().join("live-human-seat-eleven.png"),
                    driver.screenshot(),
                )
                .unwrap();
                shot_taken = true;
            }
        }
        closed_after_clicks(&watched.base, id, &mut tries);
    }
    assert!(
        formations >= 2 && clicked > 0,
        "{formations} formations, {clicked} clicks, {buttons_pressed} buttons"
    );
    read_feed(&watched.base, "/api/live", None, |ev| {
        ev.iter().any(|(_, e)| e["type"] == "game_finished")
    });
    let text = std::fs::read_to_string(&pgn).unwrap();
    let record = &read_games(&text).unwrap()[0];
    assert_eq!(record.tags.get("Variant"), Some("chess-eleven"));
    assert_eq!(record.tags.get("White"), Some("human"));
    assert_eq!(record.tags.get("Termination"), Some("normal"), "{text}");
    let out = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    drop(driver);
    assert_eq!(watched.interrupt().code(), Some(0));
}
