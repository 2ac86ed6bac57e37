//! `zebra match` end to end, with real bot processes: pairs, verification, resume after a
//! real SIGKILL (also of a directory moved or copied since), torn writes at the end of the
//! PGN, one series per PGN file, a four-billion-game schedule, SPRT stops and exit codes,
//! Ctrl-C, tournaments, config files, logs.
//!
//! Series here use play-count quarters, so games are reproducible and a resumed series can
//! be compared with one never interrupted, record by record.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use zebra::record::{read_games, write_game, GameRecord};

mod common;

use common::run::{scratch, text, wait_until, zebra, GREEDY_BOT, RANDOM_BOT, TEST_BOT, ZEBRA};

fn records(pgn: &Path) -> Vec<GameRecord> {
    read_games(&std::fs::read_to_string(pgn).unwrap_or_default()).expect("a readable PGN")
}

/// Each record's text by its Game number.
fn by_game(pgn: &Path) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    for r in records(pgn) {
        let n: u32 = r.tags.get("Game").expect("a Game tag").parse().unwrap();
        assert!(
            out.insert(n, write_game(&r).unwrap()).is_none(),
            "game {n} recorded twice"
        );
    }
    out
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(text(&out.stdout).trim()).unwrap_or_else(|e| {
        panic!(
            "not one JSON object ({e}):\n{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    })
}

/// Processes whose command line holds `marker`, their arguments joined by spaces.
fn processes_with(marker: &str) -> Vec<String> {
    common::command_lines()
        .into_iter()
        .map(|(_, args)| args.join(" "))
        .filter(|cmdline| cmdline.contains(marker))
        .collect()
}

fn games_in(pgn: &Path) -> usize {
    std::fs::read_to_string(pgn)
        .map(|t| t.lines().filter(|l| l.starts_with("[Event ")).count())
        .unwrap_or(0)
}

#[test]
fn a_twenty_game_series_verifies_and_its_pairs_share_seeds_with_sides_swapped() {
    let dir = scratch("twenty");
    let out = zebra(&[
        "match",
        "--games",
        "20",
        "--concurrency",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = json(&out);
    assert_eq!(summary["outcome"], "completed");
    assert_eq!(summary["games_finished"], 20);
    let pgn = dir.join("games.pgn");
    let verified = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", text(&verified.stdout));
    assert!(text(&verified.stdout).contains("20 games verified"));

    let games = records(&pgn);
    assert_eq!(games.len(), 20);
    let mut pairs: BTreeMap<String, Vec<&GameRecord>> = BTreeMap::new();
    for g in &games {
        pairs
            .entry(g.tags.get("Pair").unwrap().to_string())
            .or_default()
            .push(g);
    }
    assert_eq!(pairs.len(), 10);
    for (pair, legs) in pairs {
        let [a, b] = legs.as_slice() else {
            panic!("pair {pair} has {} games", legs.len())
        };
        assert_eq!(a.tags.get("Seed"), b.tags.get("Seed"), "pair {pair}");
        assert_eq!(a.tags.get("White"), b.tags.get("Black"), "pair {pair}");
        assert_eq!(a.tags.get("Black"), b.tags.get("White"), "pair {pair}");
        assert_eq!(a.tags.get("Round"), b.tags.get("Round"), "pair {pair}");
    }
    let numbers: Vec<u32> = by_game(&pgn).into_keys().collect();
    assert_eq!(numbers, (1..=20).collect::<Vec<_>>());
    // The points of the summary add up to the games played.
    let points: f64 = summary["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 20.0);
}

#[test]
fn a_series_killed_with_sigkill_resumes_to_the_same_result_without_losing_a_game() {
    let marker = format!("kill{}", std::process::id());
    let bots = [
        format!("greedy={GREEDY_BOT} --name g-{marker}"),
        format!("random={RANDOM_BOT} --name r-{marker}"),
    ];
    let series = |dir: &Path| {
        vec![
            "match".to_string(),
            "--bot".to_string(),
            bots[0].clone(),
            "--bot".to_string(),
            bots[1].clone(),
            "--games".to_string(),
            "40".to_string(),
            "--concurrency".to_string(),
            "2".to_string(),
            "--seed".to_string(),
            "5".to_string(),
            "--out".to_string(),
            dir.display().to_string(),
            "--quiet".to_string(),
            "--json".to_string(),
        ]
    };

    // The reference: the same series, never interrupted.
    let whole = scratch("kill-reference");
    let reference = Command::new(ZEBRA).args(series(&whole)).output().unwrap();
    assert!(reference.status.success(), "{}", text(&reference.stderr));

    let dir = scratch("kill");
    let pgn = dir.join("games.pgn");
    let mut child: Child = Command::new(ZEBRA)
        .args(series(&dir))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_until(Duration::from_secs(60), || games_in(&pgn) >= 4),
        "the series never got going"
    );
    // A real SIGKILL: Zebra gets no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    let before = games_in(&pgn);
    assert!(
        before < 40,
        "the series ended before the kill; make it longer"
    );
    // Its bots die with it (the kernel's parent-death signal), none is left running.
    assert!(
        wait_until(Duration::from_secs(10), || processes_with(&marker)
            .is_empty()),
        "bots outlived a killed Zebra: {:?}",
        processes_with(&marker)
    );

    let resumed = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let summary = json(&resumed);
    assert_eq!(summary["games_finished"], 40);
    let recorded_before = by_game(&pgn).len();
    assert_eq!(recorded_before, 40, "every game once, none twice");
    let played_now = summary["games_played_now"].as_u64().unwrap() as usize;
    assert!(
        played_now <= 40 - before + 1,
        "played {played_now}, {before} were on disk"
    );

    // Same games, same records, same statistics as the uninterrupted series.
    assert_eq!(by_game(&pgn), by_game(&whole.join("games.pgn")));
    let expected = json(&reference);
    assert_eq!(summary["standings"], expected["standings"]);
    assert_eq!(summary["encounters"], expected["encounters"]);
    // The per-bot counts are rebuilt from the records' tags, the same as never stopped.
    assert_eq!(summary["conduct"], expected["conduct"]);
    assert_eq!(summary["replays"], expected["replays"]);
    // The event stream follows the records: every line whole, one game_finished per game,
    // each (restored or not) what the uninterrupted series wrote but for the times.
    let finished = finished_lines(&dir.join("events.jsonl"));
    let reference = finished_lines(&whole.join("events.jsonl"));
    assert_eq!(finished.len(), 40);
    for (game, line) in &finished {
        assert_eq!(
            recorded_fields(line),
            recorded_fields(&reference[game]),
            "game {game}"
        );
    }
}

/// A bot that sleeps past every deadline: its timeouts are all suspect (it uses no CPU),
/// however busy the machine is, which makes the replay books exact.
fn sleepy_series(dir: &Path, replay: bool, json_out: bool) -> Output {
    let sleepy = format!("sleepy={TEST_BOT} --sleep-ms 600");
    let quick = format!("quick={RANDOM_BOT}");
    let mut args = vec![
        "match",
        "--bot",
        &sleepy,
        "--bot",
        &quick,
        "--games",
        "2",
        "--concurrency",
        "2",
        "--tc",
        "plays=1,play=300ms,reaction=300ms,grace=100ms",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ];
    if replay {
        args.push("--replay-suspect");
    }
    if json_out {
        args.push("--json");
    }
    zebra(&args)
}

/// The sleepy bot's counts: every timeout suspect, nothing else.
fn assert_sleepy_conduct(summary: &serde_json::Value) {
    let sleepy = &summary["conduct"][0];
    assert_eq!(sleepy["name"], "sleepy", "{summary}");
    let timeouts = sleepy["timeouts"].as_u64().unwrap();
    assert!(timeouts >= 2, "a timeout per game at least: {summary}");
    assert_eq!(sleepy["suspect_timeouts"], timeouts, "{summary}");
    assert_eq!(sleepy["illegal"], 0, "{summary}");
    assert_eq!(summary["conduct"][1]["name"], "quick", "{summary}");
}

#[test]
fn timeouts_and_suspect_timeouts_are_counted_per_bot_and_survive_a_resume() {
    let dir = scratch("conduct");
    let out = sleepy_series(&dir, false, true);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = json(&out);
    assert_sleepy_conduct(&summary);
    // Without --replay-suspect both games count, and the summary says they were suspect.
    let replays = &summary["replays"];
    assert_eq!(replays["enabled"], false);
    assert_eq!(replays["max_attempts"], 1);
    assert_eq!(replays["voided"], 0);
    assert_eq!(replays["counted_suspect"], 2);
    assert!(!dir.join("voided.pgn").exists());
    // Two games at once run four bots: a warning exactly when there are fewer CPUs.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let warned = text(&out.stderr).contains("zebra: warning: 2 games at once run 4 bots on");
    assert_eq!(warned, cpus < 4, "{cpus} CPUs: {}", text(&out.stderr));
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    assert_eq!(
        events.contains("\"code\":\"overload\""),
        cpus < 4,
        "{events}"
    );
    for r in records(&dir.join("games.pgn")) {
        let side = if r.tags.get("White") == Some("sleepy") {
            "White"
        } else {
            "Black"
        };
        let timeouts = r.tags.get(&format!("{side}Timeouts")).unwrap();
        assert_eq!(
            r.tags.get(&format!("{side}SuspectTimeouts")),
            Some(timeouts)
        );
        assert_eq!(r.tags.get("Attempt"), None);
    }

    // A resume plays nothing and counts the same from the records; so does its summary
    // for people.
    let again = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let resumed = json(&again);
    assert_eq!(resumed["games_played_now"], 0);
    assert_eq!(resumed["conduct"], summary["conduct"]);
    assert_eq!(resumed["replays"], summary["replays"]);
    let people = zebra(&["match", "--resume", dir.to_str().unwrap(), "--quiet"]);
    let people = text(&people.stdout);
    let timeouts = summary["conduct"][0]["timeouts"].as_u64().unwrap();
    assert!(
        people.contains(&format!(
            "sleepy: timeouts {timeouts} ({timeouts} suspect), illegal replies 0, forfeits 0"
        )),
        "{people}"
    );
    assert!(people.contains("2 games had suspect timeouts"), "{people}");
    assert!(people.contains("--replay-suspect"), "{people}");
}

#[test]
fn replay_suspect_plays_suspect_games_again_up_to_the_cap_and_resumes_exactly() {
    let dir = scratch("replay");
    let out = sleepy_series(&dir, true, true);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = json(&out);
    assert_eq!(summary["games_finished"], 2);
    assert_eq!(summary["games_played_now"], 2);
    assert_sleepy_conduct(&summary);
    // Every attempt had a suspect timeout: two voided per game, the third counted anyway.
    let expected_replays = serde_json::json!({
        "enabled": true,
        "max_attempts": 3,
        "voided": 4,
        "games_replayed": 2,
        "counted_suspect": 2,
    });
    assert_eq!(summary["replays"], expected_replays);
    let series: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("series.json")).unwrap()).unwrap();
    assert_eq!(series["replay_suspect"]["max_attempts"], 3);

    // The series' PGN holds exactly the counted games (the third attempts); the voided
    // ones are kept apart, and both files verify.
    let pgn = dir.join("games.pgn");
    let voided = dir.join("voided.pgn");
    let counted = records(&pgn);
    assert_eq!(counted.len(), 2);
    assert!(counted.iter().all(|r| r.tags.get("Attempt") == Some("3")));
    let mut attempts: Vec<(String, String)> = records(&voided)
        .iter()
        .map(|r| {
            (
                r.tags.get("Game").unwrap().to_string(),
                r.tags.get("Attempt").unwrap_or("1").to_string(),
            )
        })
        .collect();
    attempts.sort();
    assert_eq!(
        attempts,
        [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")]
            .map(|(g, a)| (g.to_string(), a.to_string()))
    );
    for file in [&pgn, &voided] {
        let verified = zebra(&["verify", file.to_str().unwrap()]);
        assert!(verified.status.success(), "{}", text(&verified.stdout));
    }
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    assert_eq!(events.matches("\"type\":\"game_voided\"").count(), 4);
    assert_eq!(events.matches("\"type\":\"game_started\"").count(), 6);

    // The summary for people says so too (a resume of the finished series counts the same).
    let people = zebra(&["match", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(people.status.success(), "{}", text(&people.stderr));
    let people = text(&people.stdout);
    assert!(
        people.contains("replays: 2 games played again for suspect timeouts (4 attempts voided, at most 3 per game); 2 games still had one at the last attempt and counted anyway"),
        "{people}"
    );

    // Lose the last counted game, as a kill before its write would: the resume knows the
    // game had its two voided attempts already, so it plays the third, which counts.
    let whole = std::fs::read_to_string(&pgn).unwrap();
    let last = whole.rfind("[Event ").unwrap();
    std::fs::write(&pgn, &whole[..last]).unwrap();
    let resumed = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let resumed = json(&resumed);
    assert_eq!(resumed["games_played_now"], 1);
    assert_eq!(resumed["games_finished"], 2);
    assert_eq!(resumed["replays"], expected_replays);
    assert_sleepy_conduct(&resumed);
    assert_eq!(records(&voided).len(), 4, "no attempt beyond the cap");
    assert_eq!(by_game(&pgn).len(), 2);
}

#[test]
fn sprt_accepts_h1_for_greedy_against_random_and_stops_early() {
    let dir = scratch("sprt-h1");
    let out = zebra(&[
        "match",
        "--games",
        "400",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary = json(&out);
    assert_eq!(summary["outcome"], "h1-accepted");
    let finished = summary["games_finished"].as_u64().unwrap();
    assert!(finished < 400, "stopped early: {finished}");
    let sprt = &summary["encounters"][0]["stats"]["sprt"];
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());

    // The verdict is judged over whole pairs in schedule order: one game at a time gives
    // the very same decision, at the very same pair.
    let serial = scratch("sprt-h1-serial");
    let one = zebra(&[
        "match",
        "--games",
        "400",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
        "--concurrency",
        "1",
        "--out",
        serial.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(json(&one)["encounters"][0]["stats"]["sprt"], *sprt);
}

/// A gauntlet of three bots (`NAME=PROGRAM`, the first one tested) with an SPRT, short
/// plays on generous clocks, into `dir`: its output with `--json`.
fn gauntlet_with_sprt(
    dir: &Path,
    bots: [String; 3],
    games: &str,
    sprt: &str,
    concurrency: &str,
) -> Output {
    let mut args = vec!["match", "--format", "gauntlet"];
    for bot in &bots {
        args.extend(["--bot", bot]);
    }
    args.extend([
        "--games",
        games,
        "--tc",
        "plays=3,play=5s,reaction=2s",
        "--sprt",
        sprt,
        "--concurrency",
        concurrency,
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    zebra(&args)
}

/// The games an encounter of a summary counted (those with a result).
fn encounter_games(e: &serde_json::Value) -> u64 {
    ["wins", "draws", "losses"]
        .iter()
        .map(|k| e["stats"][k].as_u64().unwrap())
        .sum()
}

#[test]
fn a_gauntlet_judges_each_opponent_on_its_own_sprt() {
    // Greedy first, against random (which it beats) and against itself (which it does not):
    // each encounter has its own SPRT and stops at its own decision; the series ends when
    // both have decided, with H0 (greedy is not the stronger against every opponent).
    let play = |name: &str, concurrency: &str| {
        let dir = scratch(name);
        let bots = [
            format!("greedy={GREEDY_BOT}"),
            format!("random={RANDOM_BOT}"),
            format!("mirror={GREEDY_BOT}"),
        ];
        let out = gauntlet_with_sprt(&dir, bots, "40", "elo0=0,elo1=200", concurrency);
        assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
        (dir, json(&out))
    };
    let (dir, summary) = play("gauntlet-sprt", "2");
    assert_eq!(summary["outcome"], "h0-accepted");
    let encounters = summary["encounters"].as_array().unwrap();
    let decision = |i: usize| encounters[i]["stats"]["sprt"]["decision"].clone();
    assert_eq!(encounters[0]["b"], "random");
    assert_eq!(decision(0), "accept_h1");
    assert_eq!(encounters[1]["b"], "mirror");
    assert_eq!(decision(1), "accept_h0");
    for e in encounters {
        assert!(encounter_games(e) < 40, "each encounter stopped early: {e}");
    }
    // The first bot against the gauntlet as a whole: every game of both encounters.
    assert_eq!(summary["gauntlet"]["b"], "the gauntlet");
    assert_eq!(
        encounter_games(&summary["gauntlet"]),
        encounters.iter().map(encounter_games).sum::<u64>()
    );
    // One decision line per encounter, naming it.
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let decided: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "sprt_decision")
        .map(|e| e["bots"].clone())
        .collect();
    assert_eq!(decided.len(), 2, "{events}");
    assert!(decided.contains(&serde_json::json!(["greedy", "random"])));
    assert!(decided.contains(&serde_json::json!(["greedy", "mirror"])));

    // Each SPRT is judged over its encounter's whole pairs in schedule order: one game at a
    // time gives the very same decisions, at the very same pairs.
    let (_, serial) = play("gauntlet-sprt-serial", "1");
    for i in 0..2 {
        assert_eq!(
            serial["encounters"][i]["stats"]["sprt"],
            encounters[i]["stats"]["sprt"]
        );
    }
    // Resumed, a decided series plays nothing more and says the same.
    let resumed = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert_eq!(resumed.status.code(), Some(5), "{}", text(&resumed.stderr));
    let resumed = json(&resumed);
    assert_eq!(resumed["games_played_now"], 0);
    assert_eq!(resumed["encounters"], summary["encounters"]);
}

#[test]
fn a_gauntlet_skips_a_decided_encounter_s_games_and_ends_when_the_rest_are_played() {
    // Random first: against greedy its SPRT accepts H0 within 6 of 10 games; against its
    // twin it plays all 10 without a decision. The 4 games left against greedy are skipped,
    // and the series still ends (not "interrupted"): H0, one encounter having accepted it.
    let dir = scratch("gauntlet-skip");
    let bots = [
        format!("random={RANDOM_BOT}"),
        format!("greedy={GREEDY_BOT}"),
        format!("twin={RANDOM_BOT}"),
    ];
    let out = gauntlet_with_sprt(&dir, bots, "10", "elo0=-100,elo1=100", "1");
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    let summary = json(&out);
    assert_eq!(summary["outcome"], "h0-accepted");
    let e = &summary["encounters"];
    assert_eq!(e[0]["stats"]["sprt"]["decision"], "accept_h0");
    assert_eq!(e[1]["stats"]["sprt"]["decision"], "continue");
    assert!(
        encounter_games(&e[0]) < 10,
        "greedy's encounter stopped early"
    );
    assert_eq!(encounter_games(&e[1]), 10, "the twin's played out");
    assert_eq!(
        summary["games_finished"].as_u64().unwrap(),
        encounter_games(&e[0]) + 10
    );
}

#[test]
fn a_bot_against_itself_ends_with_h0_or_no_decision() {
    let dir = scratch("sprt-self");
    let a = format!("a={RANDOM_BOT}");
    let b = format!("b={RANDOM_BOT}");
    let out = zebra(&[
        "match",
        "--bot",
        &a,
        "--bot",
        &b,
        "--games",
        "40",
        "--tc",
        "plays=3,play=5s,reaction=2s",
        "--sprt",
        "elo0=0,elo1=150",
        // One game at a time: the LLR then passes the same values in every run (with games
        // finishing in varying order, a bound could be touched on one path and not another).
        "--concurrency",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    let summary = json(&out);
    match out.status.code() {
        Some(5) => assert_eq!(summary["outcome"], "h0-accepted"),
        Some(6) => {
            assert_eq!(summary["outcome"], "inconclusive");
            assert_eq!(summary["games_finished"], 40);
        }
        other => panic!("exit {other:?}: {summary}"),
    }
}

#[test]
fn ctrl_c_finishes_the_running_games_then_resume_completes_the_series() {
    let marker = format!("int{}", std::process::id());
    let dir = scratch("interrupt");
    // Bots that take ~20 ms per decision: each game lasts a second or more.
    let slow = |name: &str| format!("{name}={TEST_BOT} --sleep-ms 10 --name {name}-{marker}");
    let (a, b) = (slow("a"), slow("b"));
    let args = [
        "match",
        "--bot",
        &a,
        "--bot",
        &b,
        "--games",
        "6",
        "--concurrency",
        "2",
        "--tc",
        "plays=1,play=5s,reaction=2s",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ];
    let child = Command::new(ZEBRA)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let events = dir.join("events.jsonl");
    assert!(wait_until(Duration::from_secs(30), || {
        std::fs::read_to_string(&events)
            .map(|t| t.matches("\"game_started\"").count() >= 2)
            .unwrap_or(false)
    }));
    // SAFETY: kill only sends a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("stopping after"),
        "{}",
        text(&out.stderr)
    );
    let kept = by_game(&dir.join("games.pgn"));
    // The two running games were finished and recorded; no new one was started.
    assert_eq!(kept.len(), 2, "{:?}", kept.keys());
    assert!(
        processes_with(&marker).is_empty(),
        "{:?}",
        processes_with(&marker)
    );
    let started = std::fs::read_to_string(&events).unwrap();
    assert_eq!(started.matches("\"game_started\"").count(), 2);
    assert!(started.contains("\"outcome\":\"interrupted\""));

    let resumed = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let summary = json(&resumed);
    assert_eq!(summary["games_finished"], 6);
    assert_eq!(summary["games_played_now"], 4);
    assert_eq!(by_game(&dir.join("games.pgn")).len(), 6);
}

#[test]
fn ctrl_c_twice_stops_at_once_and_kills_every_bot() {
    let marker = format!("twice{}", std::process::id());
    let dir = scratch("twice");
    let slow = |name: &str| format!("{name}={TEST_BOT} --sleep-ms 50 --name {name}-{marker}");
    let (a, b) = (slow("a"), slow("b"));
    let child = Command::new(ZEBRA)
        .args([
            "match",
            "--bot",
            &a,
            "--bot",
            &b,
            "--games",
            "4",
            "--concurrency",
            "2",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Four bots running (their own command lines: a sandboxed bot's keeper and init, whose
    // command line names the bot too, exist as early as the preflight, before Zebra
    // watches for Ctrl-C).
    assert!(wait_until(Duration::from_secs(30), || processes_with(
        &marker
    )
    .iter()
    .filter(|c| c.starts_with(TEST_BOT))
    .count()
        >= 4));
    let start = Instant::now();
    for _ in 0..2 {
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        std::thread::sleep(Duration::from_millis(200));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(start.elapsed() < Duration::from_secs(20));
    assert!(
        wait_until(Duration::from_secs(5), || processes_with(&marker)
            .is_empty()),
        "{:?}",
        processes_with(&marker)
    );
    // Whatever was written is whole.
    records(&dir.join("games.pgn"));
}

#[test]
fn round_robin_and_gauntlet_over_three_bots() {
    let dir = scratch("tournament");
    let bots = [
        format!("alpha={RANDOM_BOT}"),
        format!("beta={RANDOM_BOT}"),
        format!("gamma={GREEDY_BOT}"),
    ];
    let run = |format: &str, out: &Path, json: bool| {
        let mut args = vec!["match".to_string()];
        for b in &bots {
            args.extend(["--bot".to_string(), b.clone()]);
        }
        args.extend(
            [
                "--format",
                format,
                "--games",
                "2",
                "--tc",
                "plays=3,play=5s,reaction=2s",
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ]
            .map(String::from),
        );
        if json {
            args.push("--json".to_string());
        }
        Command::new(ZEBRA).args(args).output().unwrap()
    };
    let rr = run("round-robin", &dir.join("rr"), false);
    assert!(rr.status.success(), "{}", text(&rr.stderr));
    let table = text(&rr.stdout);
    assert!(table.contains("6 of 6 games"), "{table}");
    for name in ["alpha", "beta", "gamma"] {
        assert!(table.contains(name), "{table}");
    }
    assert!(table.contains("/2"), "crosstable cells: {table}");
    assert_eq!(records(&dir.join("rr/games.pgn")).len(), 6);

    let g = run("gauntlet", &dir.join("g"), true);
    assert!(g.status.success(), "{}", text(&g.stderr));
    assert_eq!(json(&g)["games_finished"], 4);
    for r in records(&dir.join("g/games.pgn")) {
        assert!(
            r.tags.get("White") == Some("alpha") || r.tags.get("Black") == Some("alpha"),
            "the gauntlet runs through the first bot"
        );
    }
}

#[test]
fn bots_from_a_config_file_with_options_environment_and_time_odds() {
    let dir = scratch("config");
    let config = dir.join("bots.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[[bot]]
name = "deep"
command = "{GREEDY_BOT}"
options = {{ depth = 1 }}
env = {{ ZEBRA_TEST = "1" }}
time = "reaction=3s"

[[bot]]
name = "rand"
command = "{RANDOM_BOT}"
args = ["--name", "rand"]
"#
        ),
    )
    .unwrap();
    let out = zebra(&[
        "match",
        "--config",
        config.to_str().unwrap(),
        "--games",
        "2",
        "--tc",
        "plays=3,play=5s,reaction=1s",
        "--out",
        dir.join("s").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = records(&dir.join("s/games.pgn"));
    assert_eq!(games.len(), 2);
    let deep_white = games
        .iter()
        .find(|g| g.tags.get("White") == Some("deep"))
        .unwrap();
    assert_eq!(
        deep_white.tags.get("WhiteTimeControl"),
        Some("plays=3,play=5s,reaction=3s,grace=100ms")
    );

    std::fs::write(&config, "[[bot]]\nname = \"x\"\ncomand = \"typo\"\n").unwrap();
    let bad = zebra(&["match", "--config", config.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(
        err.starts_with("zebra: ") && err.contains("comand"),
        "{err}"
    );
}

#[test]
fn log_failures_keeps_transcripts_of_failed_games_only() {
    let dir = scratch("logs");
    let a = format!("calm={RANDOM_BOT}");
    let b = format!("steady={RANDOM_BOT}");
    let c = format!("rogue={TEST_BOT} --illegal");
    let out = zebra(&[
        "match",
        "--bot",
        &a,
        "--bot",
        &b,
        "--bot",
        &c,
        "--games",
        "2",
        "--tc",
        "plays=2,play=5s,reaction=2s",
        "--out",
        dir.to_str().unwrap(),
        "--log-failures",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let logs = dir.join("logs");
    let mut kept: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".log"))
        .collect();
    kept.sort();
    // Games 1 and 2 are calm against steady (clean); the rogue's four games failed.
    assert_eq!(
        kept,
        [
            "game-0003.log",
            "game-0004.log",
            "game-0005.log",
            "game-0006.log"
        ]
    );
    let transcript = std::fs::read_to_string(logs.join("game-0003.log")).unwrap();
    assert!(transcript.contains("\"type\":\"request\""));
}

#[test]
fn a_series_appends_to_an_existing_pgn_and_reads_back_only_its_own_games() {
    let dir = scratch("append");
    let pgn = dir.join("all.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let first = zebra(&[
        "play",
        "--quiet",
        "--tc",
        "plays=2,play=5s,reaction=2s",
        "--pgn",
        pgn_arg,
    ]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out_dir = dir.join("s");
    let series = zebra(&[
        "match",
        "--games",
        "4",
        "--pgn",
        pgn_arg,
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(series.status.success(), "{}", text(&series.stderr));
    assert_eq!(records(&pgn).len(), 5);
    // Resuming a finished series plays nothing and counts only the series' four games.
    let again = zebra(&[
        "match",
        "--resume",
        out_dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let summary = json(&again);
    assert_eq!(summary["games_finished"], 4);
    assert_eq!(summary["games_played_now"], 0);
    assert_eq!(records(&pgn).len(), 5);
}

#[test]
fn a_record_cut_short_at_the_end_is_dropped_and_its_game_played_again() {
    let dir = scratch("torn");
    let out = zebra(&[
        "match",
        "--games",
        "4",
        "--concurrency",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pgn = dir.join("games.pgn");
    let whole = by_game(&pgn);
    // Cut the last record in the middle, as a power loss during its write would.
    let text_now = std::fs::read_to_string(&pgn).unwrap();
    let last = text_now.rfind("[Event ").unwrap();
    let cut = last + (text_now.len() - last) / 2;
    std::fs::write(&pgn, &text_now[..cut]).unwrap();
    let resumed = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(json(&resumed)["games_played_now"], 1);
    assert_eq!(by_game(&pgn), whole, "the same four records again");
    let verified = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", text(&verified.stdout));
}

#[test]
fn bad_series_flags_are_usage_errors_with_a_reason() {
    for (args, needle) in [
        (vec!["match", "--games", "3"], "even number"),
        (
            vec!["match", "--format", "swiss"],
            "round-robin or gauntlet",
        ),
        (vec!["match", "--sprt", "elo0=5,elo1=0"], "elo1"),
        (vec!["match", "--concurrency", "0"], "concurrency"),
        (vec!["match", "--bot", "lonely=x"], "at least two bots"),
        (
            vec![
                "match",
                "--bot",
                "a=x",
                "--bot",
                "b=y",
                "--bot",
                "c=z",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "3 bots",
        ),
        (
            vec!["match", "--resume", "/nonexistent", "--seed", "4"],
            "cannot be used",
        ),
        (
            vec!["match", "--max-game-time", "soon"],
            "--max-game-time: 'soon' is not a duration",
        ),
        (
            vec!["match", "--resume", "/nonexistent", "--max-game-time", "5m"],
            "cannot be used",
        ),
        (
            vec!["match", "--resume", "/nonexistent", "--replay-suspect"],
            "cannot be used",
        ),
    ] {
        let out = zebra(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let err = text(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let typo = zebra(&[
        "match",
        "--bot",
        "a=zebra-random-bot",
        "--bot",
        "b=./no/such/bot",
    ]);
    assert_eq!(typo.status.code(), Some(1));
    assert!(
        text(&typo.stderr).contains("no/such/bot'"),
        "{}",
        text(&typo.stderr)
    );

    // Every bot is started once before the series: options it does not declare, or a bot
    // that never completes the handshake, stop everything before a directory is written.
    let pre = scratch("preflight");
    let greedy = format!("g={GREEDY_BOT}");
    let mute = format!("mute={TEST_BOT} --no-ready");
    let out_dir = pre.join("s");
    for (bot, code, needle) in [
        (greedy.as_str(), 2, "'depht' is not one it declares"),
        (mute.as_str(), 1, "sent no ready"),
    ] {
        let config = pre.join("bots.toml");
        let (name, command) = bot.split_once('=').unwrap();
        let mut parts = command.split(' ');
        let program = parts.next().unwrap();
        let args: Vec<String> = parts.map(|a| format!("{a:?}")).collect();
        std::fs::write(
            &config,
            format!(
                "[[bot]]\nname = \"{name}\"\ncommand = \"{program}\"\nargs = [{}]\noptions = {{ depht = 2 }}\n\n[[bot]]\nname = \"r\"\ncommand = \"{RANDOM_BOT}\"\n",
                args.join(", ")
            ),
        )
        .unwrap();
        let out = zebra(&[
            "match",
            "--config",
            config.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains(needle), "{}", text(&out.stderr));
        assert!(!out_dir.join("series.json").exists());
    }

    let missing = zebra(&["match", "--resume", "/nonexistent-zebra-series"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("series.json"));

    let dir = scratch("exists");
    let first = zebra(&[
        "match",
        "--games",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(first.status.success());
    let again = zebra(&["match", "--games", "2", "--out", dir.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("--resume"));
    // A hand-edited series file is checked like the flags were.
    let file = dir.join("series.json");
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replace("plays=10", "plays=ten");
    std::fs::write(&file, edited).unwrap();
    let resumed = zebra(&["match", "--resume", dir.to_str().unwrap()]);
    assert_eq!(resumed.status.code(), Some(2));
    assert!(
        text(&resumed.stderr).contains("series.json: tc:"),
        "{}",
        text(&resumed.stderr)
    );

    // A directory whose lock is held but whose series.json is not written yet (a series in
    // its first moment) is in use, not missing.
    let starting = scratch("starting");
    std::fs::create_dir_all(&starting).unwrap();
    let held = starting.join("held");
    let mut holder = Command::new("flock")
        .arg(starting.join("lock"))
        .args(["sh", "-c", "touch \"$0\"; read line"])
        .arg(&held)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_until(Duration::from_secs(30), || held.exists()));
    let refused = zebra(&["match", "--resume", starting.to_str().unwrap()]);
    drop(holder.stdin.take());
    holder.wait().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        text(&refused.stderr).contains("in use"),
        "{}",
        text(&refused.stderr)
    );

    // One run per series directory: a second run waits its turn, it does not interleave.
    let dir = scratch("busy");
    let slow = format!("slow={TEST_BOT} --sleep-ms 20");
    let quick = format!("quick={RANDOM_BOT}");
    let mut first = Command::new(ZEBRA)
        .args([
            "match",
            "--bot",
            &slow,
            "--bot",
            &quick,
            "--games",
            "2",
            "--tc",
            "plays=1,play=5s,reaction=2s",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // series.json is written under the lock (the lock file alone appears a moment earlier).
    assert!(wait_until(Duration::from_secs(30), || dir
        .join("series.json")
        .exists()));
    let second = zebra(&["match", "--resume", dir.to_str().unwrap()]);
    assert_eq!(second.status.code(), Some(1), "{}", text(&second.stderr));
    assert!(
        text(&second.stderr).contains("in use"),
        "{}",
        text(&second.stderr)
    );
    assert!(first.wait().unwrap().success());
}

/// A series whose games reach their wall-time cap: each is stopped mid-decision and
/// adjudicated, counted like any finished game (no forfeit, nothing unfinished), its
/// `game_finished` event names the cap, the cap is saved for `--resume`, the records verify,
/// and no bot is left running.
#[test]
fn series_games_at_their_wall_time_cap_are_adjudicated_and_counted() {
    let dir = scratch("cap");
    let mark = format!("series-cap-{}", std::process::id());
    let slow = format!("slow={TEST_BOT} --sleep-ms 20000 --sleep-after 3");
    let quick = format!("quick={RANDOM_BOT}");
    let started = Instant::now();
    let out = Command::new(ZEBRA)
        .args([
            "match",
            "--bot",
            &slow,
            "--bot",
            &quick,
            "--games",
            "2",
            "--concurrency",
            "2",
            "--tc",
            "plays=10,play=30s,reaction=30s",
            "--max-game-time",
            "3s",
            "--situations",
            "none",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
            "--json",
        ])
        .env("ZEBRA_TEST_MARK", &mark)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Two games at once, each 3 s and a quit grace: far below one more 20 s decision.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let summary = json(&out);
    assert_eq!(summary["games_finished"], 2, "{summary}");
    assert_eq!(summary["games_unfinished"], 0, "{summary}");
    for line in summary["standings"].as_array().unwrap() {
        assert_eq!(line["forfeits"], 0, "{summary}");
        assert_eq!(line["games"], 2, "{summary}");
    }
    let pgn = dir.join("games.pgn");
    let games = records(&pgn);
    assert_eq!(games.len(), 2);
    for r in &games {
        assert_eq!(r.tags.get("Termination"), Some("adjudication"));
        let reason = r.tags.get("TerminationReason").unwrap_or_default();
        assert!(
            reason.starts_with("wall-time cap of 3s reached"),
            "{reason}"
        );
    }
    assert_verifies(&pgn);
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let finished: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["type"] == "game_finished")
        .collect();
    assert_eq!(finished.len(), 2, "{events}");
    for e in &finished {
        assert_eq!(e["termination"], "adjudication", "{e}");
        assert!(
            e["reason"]
                .as_str()
                .unwrap()
                .starts_with("wall-time cap of 3s reached"),
            "{e}"
        );
    }
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("series.json")).unwrap()).unwrap();
    assert_eq!(saved["max_game_time"], "3s", "{saved}");
    assert!(wait_until(Duration::from_secs(5), || common::marked(&mark).is_empty()));
}

/// `cp -r FROM TO`, as a user copies a series directory.
fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let status = Command::new("cp")
        .arg("-r")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// A finished series of `games` quick games, one at a time, in `dir`.
fn finished_series(dir: &Path, games: &str) {
    let out = zebra(&[
        "match",
        "--games",
        games,
        "--concurrency",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The text of `pgn` without its last record (its game is then missing).
fn without_last_record(pgn: &Path) -> String {
    let whole = std::fs::read_to_string(pgn).unwrap();
    whole[..whole.rfind("[Event ").unwrap()].to_string()
}

fn resume_json(dir: &Path) -> serde_json::Value {
    let out = zebra(&[
        "match",
        "--resume",
        dir.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    json(&out)
}

fn assert_verifies(pgn: &Path) {
    let verified = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(
        verified.status.success(),
        "{}{}",
        text(&verified.stdout),
        text(&verified.stderr)
    );
}

/// The Game, White, Black and Seed tags of every record, by game: what a series decides.
fn fixtures_of(pgn: &Path) -> BTreeMap<u32, [String; 3]> {
    by_game(pgn)
        .into_iter()
        .map(|(n, record)| {
            let r = &read_games(&record).unwrap()[0];
            let tag = |t: &str| r.tags.get(t).unwrap_or("?").to_string();
            (n, [tag("White"), tag("Black"), tag("Seed")])
        })
        .collect()
}

#[test]
fn a_moved_or_copied_series_directory_resumes_into_its_own_files() {
    let marker = format!("move{}", std::process::id());
    let root = scratch("relocate");
    let original = root.join("original");
    let slow = |name: &str| format!("{name}={TEST_BOT} --sleep-ms 5 --name {name}-{marker}");
    let (a, b) = (slow("a"), slow("b"));
    let mut child = Command::new(ZEBRA)
        .args([
            "match",
            "--bot",
            &a,
            "--bot",
            &b,
            "--games",
            "8",
            "--concurrency",
            "1",
            "--tc",
            "plays=1,play=5s,reaction=2s",
            "--log-failures",
            "--replay-suspect",
            "--out",
            original.to_str().unwrap(),
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pgn = original.join("games.pgn");
    assert!(
        wait_until(Duration::from_secs(60), || games_in(&pgn) >= 2),
        "the series never got going"
    );
    // A real SIGKILL mid-series.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(wait_until(Duration::from_secs(10), || processes_with(
        &marker
    )
    .is_empty()));
    let before = games_in(&pgn);
    assert!(
        before < 8,
        "the series ended before the kill; make it longer"
    );
    // The series file names its own files relative to the directory.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(original.join("series.json")).unwrap())
            .unwrap();
    assert_eq!(saved["pgn"], "games.pgn");
    assert_eq!(saved["events"], "events.jsonl");
    assert_eq!(saved["log_dir"], "logs");
    assert_eq!(saved["replay_suspect"]["voided_pgn"], "voided.pgn");

    // A copy resumes into the copy; the original is left exactly as it was.
    let copy = root.join("copy");
    copy_dir(&original, &copy);
    let untouched = std::fs::read(&pgn).unwrap();
    let summary = resume_json(&copy);
    assert_eq!(summary["games_finished"], 8);
    assert_eq!(
        std::fs::read(&pgn).unwrap(),
        untouched,
        "the original changed"
    );
    let copied = copy.join("games.pgn");
    assert_eq!(by_game(&copied).len(), 8, "every game once, none twice");
    assert_verifies(&copied);

    // A moved directory resumes in its new place, and nothing appears in the old one.
    let moved = root.join("moved");
    std::fs::rename(&original, &moved).unwrap();
    let summary = resume_json(&moved);
    assert_eq!(summary["games_finished"], 8);
    assert!(!original.exists(), "the resume wrote into the old place");
    let moved_pgn = moved.join("games.pgn");
    assert_eq!(by_game(&moved_pgn).len(), 8);
    assert_verifies(&moved_pgn);
    // The same games in both.
    assert_eq!(fixtures_of(&moved_pgn), fixtures_of(&copied));
}

#[test]
fn a_series_file_of_version_1_with_absolute_paths_resumes_where_its_directory_is_now() {
    let root = scratch("relocate-v1");
    let original = root.join("original");
    finished_series(&original, "4");
    let pgn = original.join("games.pgn");
    let whole = fixtures_of(&pgn);
    // As an older Zebra wrote it: every path absolute, into the directory of that time.
    let file = original.join("series.json");
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    saved["version"] = 1.into();
    saved["pgn"] = pgn.to_str().unwrap().into();
    saved["events"] = original.join("events.jsonl").to_str().unwrap().into();
    std::fs::write(&file, serde_json::to_string_pretty(&saved).unwrap()).unwrap();
    std::fs::write(&pgn, without_last_record(&pgn)).unwrap();

    let copy = root.join("copy");
    copy_dir(&original, &copy);
    let untouched = std::fs::read(&pgn).unwrap();
    let summary = resume_json(&copy);
    assert_eq!(summary["games_played_now"], 1);
    assert_eq!(
        std::fs::read(&pgn).unwrap(),
        untouched,
        "the original changed"
    );
    assert_eq!(fixtures_of(&copy.join("games.pgn")), whole);

    let moved = root.join("moved");
    std::fs::rename(&original, &moved).unwrap();
    let summary = resume_json(&moved);
    assert_eq!(summary["games_played_now"], 1);
    assert!(!original.exists());
    assert_eq!(fixtures_of(&moved.join("games.pgn")), whole);
    assert_verifies(&moved.join("games.pgn"));
    // Resumed where it was, an old file keeps working.
    let again = resume_json(&moved);
    assert_eq!(again["games_played_now"], 0);
}

#[test]
fn two_series_appending_to_one_pgn_at_once_the_second_refuses() {
    let root = scratch("shared-pgn");
    let shared = root.join("same.pgn");
    let slow = format!("slow={TEST_BOT} --sleep-ms 20");
    let quick = format!("quick={RANDOM_BOT}");
    let series = |out: &Path| {
        vec![
            "match".to_string(),
            "--bot".to_string(),
            slow.clone(),
            "--bot".to_string(),
            quick.clone(),
            "--games".to_string(),
            "2".to_string(),
            "--tc".to_string(),
            "plays=1,play=5s,reaction=2s".to_string(),
            "--pgn".to_string(),
            shared.display().to_string(),
            "--out".to_string(),
            out.display().to_string(),
            "--quiet".to_string(),
        ]
    };
    let first_dir = root.join("first");
    let mut first = Command::new(ZEBRA)
        .args(series(&first_dir))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(wait_until(Duration::from_secs(30), || first_dir
        .join("series.json")
        .exists()));
    let second_dir = root.join("second");
    let second = Command::new(ZEBRA)
        .args(series(&second_dir))
        .output()
        .unwrap();
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("zebra: ") && err.contains("same.pgn") && err.contains("in use"),
        "{err}"
    );
    assert!(
        !second_dir.exists(),
        "the refused series left its directory"
    );
    assert!(first.wait().unwrap().success());
    assert_eq!(by_game(&shared).len(), 2);
    assert_verifies(&shared);
}

#[test]
fn four_billion_games_are_scheduled_lazily_and_more_than_can_be_numbered_are_refused() {
    let root = scratch("huge");
    // Three bots make three encounters: twelve billion games do not fit a game number. One
    // line, exit 2, and nothing is created.
    let three = root.join("three");
    let out = zebra(&[
        "match",
        "--bot",
        &format!("a={RANDOM_BOT}"),
        "--bot",
        &format!("b={RANDOM_BOT}"),
        "--bot",
        &format!("c={RANDOM_BOT}"),
        "--games",
        "4000000000",
        "--out",
        three.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("zebra: --games: 3 encounter(s) of 2000000000 pair(s)")
            && err.contains("at most"),
        "{err}"
    );
    assert!(!three.exists());

    // Two bots, four billion games: the series starts at once, in little memory, and a
    // Ctrl-C stops it like any other.
    let dir = root.join("two");
    let run = |args: &[&str]| {
        let child = Command::new(ZEBRA)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pgn = dir.join("games.pgn");
        let start = games_in(&pgn);
        assert!(
            wait_until(Duration::from_secs(60), || games_in(&pgn) >= start + 2),
            "no game was played"
        );
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        assert!(peak_kb < 200 * 1024, "peak memory {peak_kb} kB");
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    };
    run(&[
        "match",
        "--games",
        "4000000000",
        "--concurrency",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let saved = std::fs::read_to_string(dir.join("series.json")).unwrap();
    assert!(saved.contains("\"rounds\": 2000000000"), "{saved}");
    run(&["match", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert_verifies(&dir.join("games.pgn"));

    // A series file edited to more games than can be numbered is refused on resume.
    let edited = root.join("edited");
    let out = zebra(&[
        "match",
        "--bot",
        &format!("a={RANDOM_BOT}"),
        "--bot",
        &format!("b={RANDOM_BOT}"),
        "--bot",
        &format!("c={RANDOM_BOT}"),
        "--games",
        "2",
        "--out",
        edited.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = edited.join("series.json");
    let text_now = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text_now.replace("\"rounds\": 1", "\"rounds\": 2000000000"),
    )
    .unwrap();
    let out = zebra(&["match", "--resume", edited.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("series.json") && err.contains("at most"),
        "{err}"
    );
}

#[test]
fn a_record_that_lost_its_closing_blank_line_gets_it_back_before_the_next_game() {
    let root = scratch("unsealed");
    let template = root.join("template");
    finished_series(&template, "4");
    let whole = by_game(&template.join("games.pgn"));
    for strip in ["\n\n", "\n"] {
        let dir = root.join(format!("strip{}", strip.len()));
        copy_dir(&template, &dir);
        let pgn = dir.join("games.pgn");
        // Game 4 is missing, and game 3 lost its last newline(s): `… 1-0` with no blank line.
        let cut = without_last_record(&pgn);
        let unsealed = cut.strip_suffix(strip).unwrap().to_string();
        assert!(unsealed.ends_with(|c: char| c != '\n') || strip.len() == 1);
        std::fs::write(&pgn, &unsealed).unwrap();
        let summary = resume_json(&dir);
        assert_eq!(summary["games_played_now"], 1, "{strip:?}");
        assert_eq!(summary["games_finished"], 4, "{strip:?}");
        assert_verifies(&pgn);
        assert_eq!(by_game(&pgn), whole, "{strip:?}");
        assert!(std::fs::read_to_string(&pgn).unwrap().ends_with("\n\n"));
    }
}

#[test]
fn a_torn_fragment_after_a_whole_record_drops_only_the_fragment() {
    let root = scratch("fragment");
    let template = root.join("template");
    finished_series(&template, "4");
    let whole = by_game(&template.join("games.pgn"));
    for n in 1..=6 {
        let dir = root.join(format!("fragment{n}"));
        copy_dir(&template, &dir);
        let pgn = dir.join("games.pgn");
        // Game 4's write was cut after its first `n` bytes (`[`, `[E`, … `[Event`).
        let torn = format!("{}{}", without_last_record(&pgn), &"[Event \"Zebra"[..n]);
        std::fs::write(&pgn, torn).unwrap();
        let summary = resume_json(&dir);
        assert_eq!(summary["games_played_now"], 1, "fragment of {n} bytes");
        assert_eq!(summary["games_finished"], 4, "fragment of {n} bytes");
        assert_verifies(&pgn);
        assert_eq!(by_game(&pgn), whole, "fragment of {n} bytes");
    }
}

/// `n` bytes from a xorshift generator seeded with `seed`: junk of every kind (zero bytes,
/// newlines, bytes that are not UTF-8, `[`), the same on every run.
fn junk(mut seed: u64, n: usize) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// Issue 29: 100 zero bytes after the last whole record (or junk that is not UTF-8) made
/// the resume drop that record too and play its game again (or refuse to resume). Whatever
/// follows the last whole record is cut, and only it: a resume plays exactly the games
/// whose records are not whole, and the file ends byte for byte as one never torn.
#[test]
fn a_torn_tail_of_zero_bytes_or_junk_drops_only_itself_not_the_record_before_it() {
    let root = scratch("torn-tail");
    let template = root.join("template");
    finished_series(&template, "4");
    let original = std::fs::read(template.join("games.pgn")).unwrap();
    let three = without_last_record(&template.join("games.pgn")).into_bytes();
    let fourth = &original[three.len()..];
    let movetext = fourth.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let tails: Vec<(&str, Vec<u8>)> = vec![
        ("zeros", vec![0; 100]),
        ("half-tag-line", fourth[..20].to_vec()),
        ("half-tags", fourth[..movetext - 30].to_vec()),
        (
            "half-movetext",
            fourth[..(movetext + fourth.len()) / 2].to_vec(),
        ),
        ("junk", junk(29, 300)),
        ("junk-after-newline", [&b"\n"[..], &junk(4, 300)].concat()),
        (
            "zeros-then-a-fragment",
            [&[0; 50][..], b"\n[Event \"Zeb"].concat(),
        ),
    ];
    for (name, tail) in &tails {
        // After all four records (nothing to play), and after three (game 4 torn).
        for (whole, base) in [(4, &original), (3, &three)] {
            let dir = root.join(format!("{name}-{whole}"));
            copy_dir(&template, &dir);
            let pgn = dir.join("games.pgn");
            std::fs::write(&pgn, [&base[..], &tail[..]].concat()).unwrap();
            let summary = resume_json(&dir);
            assert_eq!(
                summary["games_played_now"],
                4 - whole,
                "{name} after {whole} records"
            );
            assert_eq!(summary["games_finished"], 4, "{name} after {whole} records");
            assert!(
                std::fs::read(&pgn).unwrap() == original,
                "{name} after {whole} records: not the file of a series never torn:\n{}",
                text(&std::fs::read(&pgn).unwrap())
            );
            assert_verifies(&pgn);
        }
    }
}

/// The fields of a `game_finished` line that its record keeps: all but when it was written
/// and the times the record does not hold (see `SeriesEvent::restored`).
fn recorded_fields(line: &serde_json::Value) -> serde_json::Value {
    let mut line = line.clone();
    let fields = line.as_object_mut().unwrap();
    for field in [
        "unix_ms",
        "elapsed_ms",
        "duration_ms",
        "think_us_per_decision",
        "cpu_us_per_decision",
        "restored",
    ] {
        fields.remove(field);
    }
    line
}

/// Every line of an event stream, each a JSON object.
fn event_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
        })
        .collect()
}

/// The `game_finished` lines of a stream, by game; each game at most once.
fn finished_lines(path: &Path) -> BTreeMap<u64, serde_json::Value> {
    let mut out = BTreeMap::new();
    for line in event_lines(path) {
        if line["type"] == "game_finished" {
            let game = line["game"].as_u64().unwrap();
            assert!(
                out.insert(game, line).is_none(),
                "game {game} finished twice"
            );
        }
    }
    out
}

/// Issue 29: `events.jsonl` lost the `game_finished` line of the last game to a SIGKILL
/// (after its record was fsynced, before its line was written), and the resume did not
/// write it back. The record is the truth and the stream follows it: the resume cuts the
/// torn line, writes the lost one back once, equal to the one the game wrote but for the
/// times the record does not keep, before the resumed run's own lines.
#[test]
fn a_game_finished_line_lost_to_a_crash_is_written_back_once_on_resume() {
    let dir = scratch("lost-event");
    finished_series(&dir, "4");
    let path = dir.join("events.jsonl");
    let full = std::fs::read_to_string(&path).unwrap();
    let written = finished_lines(&path);
    assert_eq!(written.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    // The kill came as game 4's line was being written: it is torn, nothing after it is there.
    let at = full.find("\"type\":\"game_finished\",\"game\":4,").unwrap();
    let start = full[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &full[start..start + full[start..].find('\n').unwrap()];
    let kept = &full[..start];
    std::fs::write(&path, format!("{kept}{}", &line[..line.len() / 2])).unwrap();

    let summary = resume_json(&dir);
    assert_eq!(summary["games_played_now"], 0);
    assert_eq!(summary["games_finished"], 4);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.starts_with(kept),
        "the whole lines are kept:\n{after}"
    );
    let lines = event_lines(&path);
    let restored = &lines[kept.lines().count()];
    assert_eq!(restored["type"], "game_finished", "{after}");
    assert_eq!(restored["game"], 4);
    assert_eq!(restored["restored"], true);
    assert_eq!(lines[kept.lines().count() + 1]["type"], "series_started");
    let finished = finished_lines(&path);
    assert_eq!(finished.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(
        recorded_fields(&finished[&4]),
        recorded_fields(&written[&4])
    );
    for game in 1..=3 {
        assert_eq!(finished[&game], written[&game], "game {game} untouched");
        assert_eq!(written[&game].get("restored"), None);
    }

    // Never twice: a second resume finds it and writes only its own lines.
    let before = std::fs::read_to_string(&path).unwrap();
    resume_json(&dir);
    assert_eq!(finished_lines(&path), finished);
    assert!(std::fs::read_to_string(&path).unwrap().starts_with(&before));
}

/// Games that end every way a series game ends (normally, timeouts, illegal replies, a
/// forfeit over the limit, a crash, a loss on time): every `game_finished` line rebuilt
/// from its record is the one the game wrote, but for the times the record does not keep.
#[test]
fn every_lost_game_finished_line_is_rebuilt_from_its_record_as_the_game_wrote_it() {
    let root = scratch("rebuilt-events");
    let football = [
        format!("quick={RANDOM_BOT}"),
        format!("sleepy={TEST_BOT} --sleep-ms 400"),
        format!("clumsy={TEST_BOT} --illegal-first 2"),
        format!("cheat={TEST_BOT} --illegal"),
        format!("crashy={TEST_BOT} --crash-after 3"),
    ];
    let boyer = [
        format!("quick={RANDOM_BOT}"),
        format!("slow={TEST_BOT} --sleep-ms 150"),
    ];
    let all = [
        (
            "football-chess",
            "plays=1,play=200ms,reaction=200ms,grace=100ms",
            &football[..],
        ),
        ("boyer-football", "bank=400ms,inc=0s,grace=50ms", &boyer[..]),
    ];
    let mut written = Vec::new();
    for (rules, tc, bots) in all {
        let dir = root.join(rules);
        let mut args = vec![
            "match",
            "--rules",
            rules,
            "--format",
            "gauntlet",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--tc",
            tc,
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ];
        for bot in bots {
            args.extend(["--bot", bot.as_str()]);
        }
        let out = zebra(&args);
        assert!(out.status.success(), "{rules}: {}", text(&out.stderr));
        let path = dir.join("events.jsonl");
        let lines = finished_lines(&path);
        assert_eq!(lines.len(), 2 * (bots.len() - 1), "{rules}");
        // Every game_finished line lost.
        let kept: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.contains("\"type\":\"game_finished\""))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, kept).unwrap();
        let summary = resume_json(&dir);
        assert_eq!(summary["games_played_now"], 0, "{rules}");
        let restored = finished_lines(&path);
        assert_eq!(restored.len(), lines.len(), "{rules}");
        for (game, line) in &restored {
            assert_eq!(line["restored"], true);
            assert_eq!(
                recorded_fields(line),
                recorded_fields(&lines[game]),
                "{rules} game {game}"
            );
        }
        written.extend(lines.into_values());
    }
    // Each way of ending is there (else this test proves less than it says).
    let some = |field: &str, want: &dyn Fn(&serde_json::Value) -> bool| {
        written
            .iter()
            .any(|l| want(&l[field]["white"]) || want(&l[field]["black"]))
    };
    let counted = |v: &serde_json::Value| v.as_u64() > Some(0);
    assert!(some("timeouts", &counted), "{written:?}");
    assert!(some("illegal", &counted), "{written:?}");
    for verdict in ["illegal", "crashed", "timeout"] {
        assert!(some("verdict", &|v| v == verdict), "{verdict}: {written:?}");
    }
}

#[test]
fn a_config_dir_that_does_not_exist_is_named_not_called_a_missing_program() {
    let dir = scratch("missing-dir");
    let config = dir.join("bots.toml");
    std::fs::write(
        &config,
        "[[bot]]\nname = \"a\"\ncommand = \"zebra-random-bot\"\ndir = \"/nonexistent/bot-home\"\n\n[[bot]]\nname = \"b\"\ncommand = \"zebra-random-bot\"\n",
    )
    .unwrap();
    let out_dir = dir.join("s");
    let out = zebra(&[
        "match",
        "--config",
        config.to_str().unwrap(),
        "--games",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bot 'a': its directory /nonexistent/bot-home does not exist"),
        "{err}"
    );
    assert!(!out_dir.exists(), "a series directory was made");
}

#[test]
fn a_series_of_another_rulings_edition_is_not_resumed_and_its_files_are_left_alone() {
    let root = scratch("edition");
    let template = root.join("template");
    finished_series(&template, "4");
    let tag = "[Rulings \"3\"]\n";
    let written = std::fs::read_to_string(template.join("games.pgn")).unwrap();
    assert_eq!(written.matches(tag).count(), 4, "{written}");
    for (name, replacement, edition) in [
        ("untagged", "", "1"),
        ("edition1", "[Rulings \"1\"]\n", "1"),
        ("edition2", "[Rulings \"2\"]\n", "2"),
    ] {
        let dir = root.join(name);
        copy_dir(&template, &dir);
        let pgn = dir.join("games.pgn");
        // Game 2 of another edition; game 4 torn by a kill, which a resume would cut and
        // play again: the refusal comes first, and nothing is cut, sealed or played.
        let whole = std::fs::read_to_string(&pgn).unwrap();
        let second = whole.match_indices(tag).nth(1).unwrap().0;
        let edited = format!(
            "{}{replacement}{}",
            &whole[..second],
            &whole[second + tag.len()..]
        );
        let torn = format!("{}[Event \"Zeb", without_last_record_of(&edited));
        std::fs::write(&pgn, &torn).unwrap();
        let events = std::fs::read(dir.join("events.jsonl")).unwrap();
        let out = zebra(&["match", "--resume", dir.to_str().unwrap(), "--quiet"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(
            err,
            format!(
                "zebra: {} game 2: played under rulings edition {edition}; this zebra judges edition 3 only (resume the series with the zebra release that started it)\n",
                pgn.display()
            ),
            "{name}"
        );
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), torn, "{name}");
        assert_eq!(std::fs::read(dir.join("events.jsonl")).unwrap(), events);
    }
}

/// `text` without its last record.
fn without_last_record_of(text: &str) -> &str {
    &text[..text.rfind("[Event ").unwrap()]
}

/// Deterministic bots (greedy against the fouling greedy) over 40 games: the built-in book makes at
/// least 30 different games, the opening drive exactly 2 (one per side). Pairs keep their
/// situation at any concurrency (byte-identical records), both games of a pair share it.
#[test]
fn a_book_makes_deterministic_bots_play_distinct_games_at_any_concurrency() {
    let series = |dir: &Path, situations: &str, concurrency: &str| {
        let out = zebra(&[
            "match",
            "--bot",
            &format!("north={GREEDY_BOT}"),
            "--bot",
            &format!("south={}", env!("CARGO_BIN_EXE_zebra-fouling-bot")),
            "--games",
            "40",
            "--tc",
            "plays=4,play=10s,reaction=5s",
            "--situations",
            situations,
            "--concurrency",
            concurrency,
            "--out",
            &dir.display().to_string(),
            "--quiet",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        dir.join("games.pgn")
    };
    // A game: its start and its moves (the roster, seed and numbering tags differ anyway).
    let games = |pgn: &Path| -> std::collections::BTreeSet<String> {
        by_game(pgn)
            .values()
            .map(|text| {
                text.lines()
                    .filter(|l| !l.starts_with('[') || l.starts_with("[Situation "))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect()
    };
    let booked = series(&scratch("book-2"), "builtin", "2");
    let distinct = games(&booked).len();
    assert!(distinct >= 30, "{distinct} distinct games with the book");
    let plain = series(&scratch("book-none"), "none", "2");
    assert_eq!(games(&plain).len(), 2, "without a book: one game per side");
    assert!(!std::fs::read_to_string(&plain)
        .unwrap()
        .contains("[Situation "));
    let one_at_a_time = series(&scratch("book-1"), "builtin", "1");
    assert_eq!(by_game(&booked), by_game(&one_at_a_time));
    // Both games of a pair start from the same situation, the bots' sides swapped.
    let recs = records(&booked);
    let mut pairs: BTreeMap<String, Vec<&GameRecord>> = BTreeMap::new();
    for r in &recs {
        pairs
            .entry(r.tags.get("Pair").unwrap().to_string())
            .or_default()
            .push(r);
    }
    assert_eq!(pairs.len(), 20);
    for (pair, games) in pairs {
        let [a, b] = games[..] else {
            panic!("pair {pair}: {} games", games.len())
        };
        assert_eq!(
            a.tags.get("Situation"),
            b.tags.get("Situation"),
            "pair {pair}"
        );
        assert!(a.tags.get("Situation").is_some() && a.tags.get("SetUp") == Some("1"));
        assert_eq!(a.tags.get("White"), b.tags.get("Black"));
    }
    // Every record replays from its situation.
    let out = zebra(&["verify", &booked.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}

#[test]
fn a_bad_book_stops_the_series_before_it_starts_naming_line_and_field() {
    let dir = scratch("bad-book");
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "# two\nquarter=1 left=100% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3\nquarter=1 left=100% score=0-0 offense=white spot=e8 down=1 distance=10 timeouts=3-3\n",
    )
    .unwrap();
    let out_dir = dir.join("series");
    for (args, needle) in [
        (
            vec!["--situations", book.to_str().unwrap()],
            "line 3: field spot: e8 is in an end zone",
        ),
        (
            vec!["--situations", "/nonexistent/book.txt"],
            "--situations /nonexistent/book.txt: cannot read it",
        ),
        (
            vec!["--situation-order", "shuffled"],
            "--situation-order: 'shuffled' is not an order; use random or sequential",
        ),
    ] {
        let mut all = vec!["match", "--games", "2", "--out", out_dir.to_str().unwrap()];
        all.extend(args);
        let out = zebra(&all);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(needle) && err.lines().count() == 1, "{err}");
        assert!(!out_dir.join("games.pgn").exists(), "nothing played");
    }
}

/// Bot commands are split as a shell splits them: a quoted path with spaces runs, an
/// unclosed quote is one usage line.
#[test]
fn a_quoted_bot_path_with_spaces_plays_and_an_open_quote_is_one_line() {
    let dir = scratch("quoted");
    let bots = dir.join("my bots");
    std::fs::create_dir_all(&bots).unwrap();
    let copy = bots.join("random bot");
    std::fs::copy(RANDOM_BOT, &copy).unwrap();
    let out_dir = dir.join("series");
    let out = zebra(&[
        "match",
        "--bot",
        &format!("quoted='{}' --name 'a b'", copy.display()),
        "--bot",
        &format!("plain={RANDOM_BOT}"),
        "--games",
        "2",
        "--tc",
        "plays=2,play=10s,reaction=5s",
        "--situations",
        "none",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(records(&out_dir.join("games.pgn")).len(), 2);
    let out = zebra(&[
        "match",
        "--bot",
        "x='unclosed --fast",
        "--bot",
        "y=zebra-random-bot",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a quote that is not closed") && err.lines().count() == 1,
        "{err}"
    );
    let out = zebra(&["check-bot", "\"unclosed"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("check-bot: the command"), "{err}");
}

/// A series that ended leaves no lock; resuming a complete one says so and plays nothing.
#[test]
fn an_ended_series_leaves_no_lock_and_resuming_it_says_it_is_complete() {
    let dir = scratch("ended");
    let out = zebra(&[
        "match",
        "--games",
        "2",
        "--tc",
        "plays=2,play=10s,reaction=5s",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !dir.join("lock").exists(),
        "the lock is removed at a clean end"
    );
    let again = zebra(&["match", "--resume", dir.to_str().unwrap()]);
    let err = text(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(
        err.contains("is complete (2 games): nothing to play"),
        "{err}"
    );
    assert!(!err.contains("resume with"), "{err}");
    assert!(!dir.join("lock").exists());
    assert_eq!(records(&dir.join("games.pgn")).len(), 2);
}

/// `--resume DIR --games N` with a larger N plays the further pairs: the series then holds
/// exactly the games of one played at N from the start; a smaller N is one usage line.
#[test]
fn a_finished_series_is_extended_with_more_pairs_as_if_played_whole() {
    let series = |dir: &Path, games: &str| {
        let out = zebra(&[
            "match",
            "--bot",
            &format!("greedy={GREEDY_BOT}"),
            "--bot",
            &format!("random={RANDOM_BOT}"),
            "--games",
            games,
            "--tc",
            "plays=3,play=10s,reaction=5s",
            "--seed",
            "11",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    let grown = scratch("extend");
    series(&grown, "2");
    let first = by_game(&grown.join("games.pgn"));
    let out = zebra(&[
        "match",
        "--resume",
        grown.to_str().unwrap(),
        "--games",
        "6",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(json(&out)["games_finished"], 6);
    let extended = by_game(&grown.join("games.pgn"));
    assert_eq!(extended.len(), 6);
    assert_eq!(
        extended[&1], first[&1],
        "the games played stay as they were"
    );
    let whole = scratch("extend-whole");
    series(&whole, "6");
    assert_eq!(extended, by_game(&whole.join("games.pgn")));
    let out = zebra(&["match", "--resume", grown.to_str().unwrap(), "--games", "4"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--games 4: this series plans 6 games per encounter")
            && err.lines().count() == 1,
        "{err}"
    );
}

/// `--odds NAME=ODDS` gives one bot its own clocks, as `time` in a config file does.
#[test]
fn time_odds_on_the_command_line_reach_the_records() {
    let dir = scratch("odds");
    let out = zebra(&[
        "match",
        "--bot",
        &format!("greedy={GREEDY_BOT}"),
        "--bot",
        &format!("random={RANDOM_BOT}"),
        "--odds",
        "greedy=play=3s,reaction=700ms",
        "--games",
        "2",
        "--tc",
        "plays=2,play=5s,reaction=2s",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recs = records(&dir.join("games.pgn"));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        let side = if r.tags.get("White") == Some("greedy") {
            "White"
        } else {
            "Black"
        };
        let odds = r
            .tags
            .get(&format!("{side}TimeControl"))
            .unwrap_or_default();
        assert!(
            odds.contains("play=3s") && odds.contains("reaction=700ms"),
            "{odds}"
        );
    }
    for (flag, needle) in [
        ("nobody=play=1s", "there is no bot named 'nobody'"),
        ("greedy", "write NAME=ODDS"),
        ("greedy=fast", "time odds"),
    ] {
        let out = zebra(&["match", "--odds", flag, "--games", "2"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{flag}: {err}"
        );
    }
}

/// Bots the user did not name are named by their `ready`, made unique in the series; a name
/// the user gave stays and is never taken. Records, the saved settings and the summary
/// follow, and a resumed series keeps the names.
#[test]
fn unnamed_bots_take_their_ready_names_made_unique() {
    let dir = scratch("ready-names");
    let out_dir = dir.join("s");
    let out = zebra(&[
        "match",
        "--bot",
        &format!("random={GREEDY_BOT}"),
        "--bot",
        RANDOM_BOT,
        "--bot",
        &format!("{RANDOM_BOT} --name random"),
        "--games",
        "2",
        "--tc",
        "plays=1,play=5s,reaction=5s",
        "--situations",
        "none",
        "--out",
        out_dir.to_str().unwrap(),
        "--quiet",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = json(&out);
    let names: BTreeSet<String> = summary["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["random", "random-2", "random-3"]
            .map(String::from)
            .into_iter()
            .collect(),
        "{summary}"
    );
    let players: BTreeSet<String> = records(&out_dir.join("games.pgn"))
        .iter()
        .flat_map(|r| {
            [
                r.tags.get("White").unwrap().to_string(),
                r.tags.get("Black").unwrap().to_string(),
            ]
        })
        .collect();
    assert_eq!(players, names);
    let saved = std::fs::read_to_string(out_dir.join("series.json")).unwrap();
    assert!(
        saved.contains("\"random-2\"") && saved.contains("\"random-3\""),
        "{saved}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A four-game series of `rules` (on `tc`, or the game's default clock) in `dir`, one game
/// at a time: it completes, its records verify and name the game, and its JSON summary.
fn other_game_series(
    rules: &str,
    tc: Option<&str>,
    dir: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let mut args = vec![
        "match",
        "--rules",
        rules,
        "--games",
        "4",
        "--concurrency",
        "1",
    ];
    if let Some(tc) = tc {
        args.extend(["--tc", tc]);
    }
    args.extend(["--out", dir.to_str().unwrap(), "--json", "--quiet"]);
    args.extend(extra);
    let out = zebra(&args);
    assert!(out.status.success(), "{rules}: {}", text(&out.stderr));
    let summary = json(&out);
    assert_eq!(summary["outcome"], "completed");
    assert_eq!(summary["games_finished"], 4);
    let pgn = dir.join("games.pgn");
    assert_verifies(&pgn);
    for game in records(&pgn) {
        assert_eq!(game.tags.get("Variant"), Some(rules));
    }
    summary
}

/// The last game of the series in `dir` lost (as a kill would lose it) is played again on
/// resume, the same game.
fn resume_replays_the_lost_game(dir: &Path) {
    let pgn = dir.join("games.pgn");
    let whole = by_game(&pgn);
    std::fs::write(&pgn, without_last_record(&pgn)).unwrap();
    assert_eq!(resume_json(dir)["games_played_now"], 1);
    assert_eq!(by_game(&pgn), whole, "the same four records again");
}

/// Each `(extra flags, words)` of a series of `rules` is refused with one line holding the
/// words, exit code 2, before anything is written.
fn refused_series(rules: &str, name: &str, cases: &[(&[&str], &str)]) {
    let out_dir = scratch(name).join("s");
    for (extra, needle) in cases {
        let mut args = vec!["match", "--games", "2", "--out", out_dir.to_str().unwrap()];
        if !extra.contains(&"--rules") {
            args.extend(["--rules", rules]);
        }
        args.extend(extra.iter());
        let out = zebra(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert!(!out_dir.exists(), "{extra:?}: nothing written");
    }
}

#[test]
fn a_boyer_series_plays_verifies_and_resumes_and_refuses_what_only_football_chess_has() {
    // (Watching a Boyer series live: tests/web.rs.)
    let dir = scratch("boyer");
    other_game_series("boyer-football", None, &dir, &[]);
    for game in records(&dir.join("games.pgn")) {
        // The default clock of the game: rapid, a chess clock.
        assert_eq!(
            game.tags.get("TimeControl"),
            Some("bank=60s,inc=1s,grace=100ms")
        );
    }
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("series.json")).unwrap()).unwrap();
    assert_eq!(saved["rules"], "boyer-football");
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let started: serde_json::Value = serde_json::from_str(events.lines().next().unwrap()).unwrap();
    assert_eq!(started["type"], "series_started");
    assert_eq!(started["rules"], "boyer-football");
    resume_replays_the_lost_game(&dir);
    refused_series(
        "boyer-football",
        "boyer-refused",
        &[
            (
                &["--situations", "builtin"],
                "boyer-football has no built-in book",
            ),
            (
                &["--odds", "greedy=play=2s"],
                "time odds set Football Chess's",
            ),
            (&["--tc", "plays=10"], "--tc: unknown chess clock item"),
            (&["--rules", "chess"], "--rules: unknown rules 'chess'"),
        ],
    );
}

/// A Chess Eleven series: its clock in its records, the same games again from the same seed
/// byte for byte, a lost game played again on resume, a book of its own start positions,
/// and Football Chess's flags refused.
#[test]
fn a_chess_eleven_series_plays_verifies_reproduces_and_resumes() {
    let tc = "turns=12,move=5s,formation=10s";
    let dir = scratch("eleven");
    other_game_series("chess-eleven", Some(tc), &dir, &[]);
    let pgn = dir.join("games.pgn");
    for game in records(&pgn) {
        assert_eq!(
            game.tags.get("TimeControl"),
            Some("turns=12,move=5s,formation=10s,grace=100ms")
        );
        assert_eq!(game.tags.get("Halves"), Some("12 goes"));
    }
    // Counted halves and deterministic bots: another run gives the same bytes, game by game.
    let again = scratch("eleven-again");
    other_game_series("chess-eleven", Some(tc), &again, &[]);
    assert_eq!(by_game(&again.join("games.pgn")), by_game(&pgn));
    resume_replays_the_lost_game(&dir);

    // A book of the game's own start positions (C53 texts): each pair plays one, with the
    // sides swapped, as Football Chess's pairs play situations.
    let book = dir.join("positions.txt");
    let positions = [
        "7k/3Q4/8/8/8/8/8/3K4 w d7 m - 0-0 1.0 0",
        "3k4/5N2/8/8/8/7R/8/3K4 w flag-h8 c - 0-0 1.4 1",
    ];
    std::fs::write(
        &book,
        format!("# two positions\n{}\n", positions.join("\n")),
    )
    .unwrap();
    let booked = scratch("eleven-book");
    let book_flags = [
        "--situations",
        book.to_str().unwrap(),
        "--situation-order",
        "sequential",
    ];
    other_game_series("chess-eleven", Some(tc), &booked, &book_flags);
    let starts: Vec<String> = records(&booked.join("games.pgn"))
        .iter()
        .map(|g| g.tags.get("Position").unwrap_or("none").to_string())
        .collect();
    assert_eq!(
        starts,
        [positions[0], positions[0], positions[1], positions[1]],
        "pair k plays the book's k-th position"
    );
    let book_bad = dir.join("bad.txt");
    let bad_line = "3k4/8/8/8/8/8/8/3K4 x spot - - 0-0 1.0 0";
    std::fs::write(&book_bad, format!("{}\n{bad_line}\n", positions[0])).unwrap();
    refused_series(
        "chess-eleven",
        "eleven-refused",
        &[
            (
                &["--situations", "builtin"],
                "chess-eleven has no built-in book; give a FILE of its start positions",
            ),
            (&["--tc", "plays=10"], "unknown Chess Eleven clock item"),
            (
                &["--situations", book_bad.to_str().unwrap()],
                "line 2: not a position: side 'x': w or b",
            ),
        ],
    );
}

// --- The preflight's refusals, in a game's words (the handshake shared with the referee) ---

/// A bot that never gets to `ready` stops `zebra match` with one line that says what it
/// did as a game would: a flood is an output flood (not a silent bot, after the whole
/// handshake time), and a crash gives its exit code and the end of its stderr.
#[test]
fn a_preflight_refusal_in_match_names_a_flood_and_a_crash_like_a_game_does() {
    let dir = scratch("preflight-words");
    let out_dir = dir.join("s");
    let random = format!("r={RANDOM_BOT}");
    // `--no-flush`: its `ready` stays in a buffer that the exit with code 3 drops.
    for (bot, needles) in [
        (
            format!("flood={TEST_BOT} --flood-stdout start"),
            &["bot 'flood' flooded its output before ready"][..],
        ),
        (
            format!("crash={TEST_BOT} --no-flush --crash-after 0"),
            &[
                "bot 'crash' crashed with exit code 3 before ready",
                "its stderr ends: test-bot: loading the weights | test-bot: cannot load weights: crashing on purpose",
            ][..],
        ),
    ] {
        let start = Instant::now();
        let out = zebra(&[
            "match",
            "--bot",
            &bot,
            "--bot",
            &random,
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bot}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{bot}: '{needle}' missing: {err}");
        }
        assert_eq!(err.trim_end().lines().count(), 1, "{bot}: {err}");
        // Judged on what the bot did, not by waiting out the handshake's 10 s.
        assert!(start.elapsed() < Duration::from_secs(8), "{bot}");
        assert!(!out_dir.join("series.json").exists(), "{bot}");
    }
}
