//! The `zebra` binary end to end: output, determinism, JSON and exit codes.

use std::process::{Command, Output};

fn zebra(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zebra"))
        .args(args)
        .output()
        .expect("the zebra binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

#[test]
fn play_prints_a_whole_game_and_its_result() {
    let out = zebra(&["demo", "--seed", "3", "--plays-per-quarter", "4"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let last = text.lines().last().expect("output");
    assert!(last.starts_with("result "), "{last}");
    assert!(last.ends_with("(seed 3)"), "{last}");
    assert!(text
        .lines()
        .any(|l| l.starts_with("Q1 white ball, 1st & 10 at e5")));
    assert!(text.lines().any(|l| l.starts_with("Q4 ")));
}

#[test]
fn play_is_reproducible_with_the_same_seed() {
    let a = stdout(&zebra(&["demo", "--seed", "11"]));
    let b = stdout(&zebra(&["demo", "--seed", "11"]));
    let c = stdout(&zebra(&["demo", "--seed", "12"]));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn quiet_play_prints_one_line() {
    let out = zebra(&["demo", "--seed", "5", "--quiet"]);
    assert_eq!(stdout(&out).lines().count(), 1);
}

#[test]
fn perft_matches_the_library() {
    let out = zebra(&["perft", "--position", "scramble", "--depth", "2"]);
    assert!(out.status.success());
    let game = zebra::rules::perft::position("scramble").unwrap();
    assert_eq!(
        stdout(&out).trim(),
        zebra::rules::perft::perft(&game, 2).to_string()
    );
    let divided = stdout(&zebra(&[
        "perft",
        "--position",
        "scramble",
        "--depth",
        "2",
        "--divide",
    ]));
    assert!(divided
        .trim_end()
        .ends_with(&format!("total {}", zebra::rules::perft::perft(&game, 2))));
}

#[test]
fn perft_reads_a_diagram_file() {
    let dir = std::env::temp_dir().join(format!("zebra-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, zebra::rules::perft::POSITIONS[0].1).unwrap();
    let out = zebra(&["perft", "--diagram", good.to_str().unwrap(), "--depth", "1"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim(), "82");

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "offense: purple\n").unwrap();
    let out = zebra(&["perft", "--diagram", bad.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("zebra: ") && err.contains("bad.txt") && err.contains("purple"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    let missing = dir.join("missing.txt");
    let out = zebra(&["perft", "--diagram", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_usage_exits_with_2_and_one_line() {
    for args in [
        &["perft", "--position", "nowhere"][..],
        &["perft"][..],
        &["perft", "--position", "shotgun", "--depth", "9"][..],
        &["demo", "--plays-per-quarter", "0"][..],
        &["bench", "--games", "0"][..],
    ] {
        let out = zebra(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("zebra: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert_eq!(
        zebra(&["demo", "--seed", "minus-one"]).status.code(),
        Some(2)
    );
    assert_eq!(zebra(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn bench_json_reports_rates() {
    let out = zebra(&["bench", "--games", "5", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["actions_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(v["games"], 5);
    let out = zebra(&["bench", "movegen", "--rounds", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert!(v["generations_per_second"].as_f64().unwrap() > 0.0);
}
