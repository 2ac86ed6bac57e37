//! One series over many machines, end to end with real processes: `zebra match --shard
//! K/N` (and `--shards N` with a batch system's index) and `zebra merge`. Deterministic
//! bots in play-count mode: the merged series is byte for byte the one-machine series,
//! whatever N; a missing, repeated, foreign or unfinished shard is refused with one line;
//! a shard run again continues its own games.

mod common;
#[path = "common/schema.rs"]
mod schema;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::run::{scratch, zebra, zebra_command, SHARDED_SERIES};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `zebra match` with the series' flags and `extra`, no batch index in its environment.
fn play(extra: &[&str]) -> Output {
    let mut args = vec!["match"];
    args.extend(SHARDED_SERIES);
    args.extend(["--seed", "3", "--concurrency", "1", "--quiet"]);
    args.extend(extra);
    zebra_command(&args)
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .output()
        .expect("zebra runs")
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn one_line(out: &Output, code: i32, needle: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' missing: {err}");
}

fn merge(dirs: &[&Path], out: &Path) -> Output {
    let mut args = vec!["merge".to_string()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap().to_string()));
    args.extend(["--out".to_string(), out.to_str().unwrap().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    zebra(&args)
}

fn shard_dir(series: &Path, k: u32, n: u32) -> PathBuf {
    series.join(format!("shard-{k}-of-{n}"))
}

#[test]
fn shards_merge_into_the_bytes_of_the_one_machine_series_for_any_count() {
    let dir = scratch("shards-any-n");
    let one = dir.join("one");
    ok(&play(&["--out", one.to_str().unwrap()]));
    let whole = std::fs::read(one.join("games.pgn")).unwrap();
    for n in 1..=7u32 {
        let series = dir.join(format!("n{n}"));
        for k in 1..=n {
            ok(&play(&[
                "--shard",
                &format!("{k}/{n}"),
                "--out",
                series.to_str().unwrap(),
            ]));
        }
        let merged = dir.join(format!("merged{n}"));
        let out = merge(&[&series], &merged);
        ok(&out);
        let said = text(&out.stdout);
        assert!(
            said.contains(&format!("merged from {n} shard(s)")),
            "{said}"
        );
        assert_eq!(
            std::fs::read(merged.join("games.pgn")).unwrap(),
            whole,
            "{n} shards"
        );
    }
    // The merged directory is a series: it verifies, and resuming it plays nothing.
    let merged = dir.join("merged3");
    assert!(
        zebra(&["verify", merged.join("games.pgn").to_str().unwrap()])
            .status
            .success()
    );
    let resumed = zebra(&[
        "match",
        "--resume",
        merged.to_str().unwrap(),
        "--json",
        "--quiet",
    ]);
    ok(&resumed);
    let summary: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(summary["games_played_now"], 0);
    assert_eq!(summary["games_finished"], 14);
    // Its events and a shard's validate; the merged stream has every game once, in game
    // order, and the end.
    let schemas =
        schema::Schemas::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/schemas"));
    for file in [
        merged.join("events.jsonl"),
        shard_dir(&dir.join("n3"), 2, 3).join("events.jsonl"),
    ] {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            schemas
                .validate("series-event.json", &value)
                .unwrap_or_else(|e| panic!("{}: {e}: {line}", file.display()));
            if value["type"] == "series_started" && file.starts_with(dir.join("n3")) {
                assert_eq!(value["shard"], "2/3", "{line}");
                assert_eq!(value["games_planned"], 4, "{line}");
            }
        }
    }
    let events = std::fs::read_to_string(merged.join("events.jsonl")).unwrap();
    let finished: Vec<u64> = events
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "game_finished")
        .map(|v| v["game"].as_u64().unwrap())
        .take(14)
        .collect();
    assert_eq!(finished, (1..=14).collect::<Vec<u64>>());
}

#[test]
fn a_shard_of_a_series_with_an_sprt_plays_its_block_and_leaves_the_verdict_to_the_merge() {
    let dir = scratch("shards-sprt");
    let shard = play(&[
        "--shard",
        "1/2",
        "--sprt",
        "elo0=0,elo1=5",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    // Its block played whole, no verdict of its own: inconclusive (exit 6), as ever.
    assert_eq!(shard.status.code(), Some(6), "{}", text(&shard.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&shard.stdout).unwrap();
    assert_eq!(summary["outcome"], "inconclusive");
    assert_eq!(summary["games_played_now"], summary["games_planned"]);
}

#[test]
fn a_merge_refuses_missing_repeated_foreign_and_unfinished_shards_in_one_line() {
    let dir = scratch("shards-refused");
    let series = dir.join("s");
    for k in 1..=3 {
        ok(&play(&[
            "--shard",
            &format!("{k}/3"),
            "--out",
            series.to_str().unwrap(),
        ]));
    }
    let (s1, s2, s3) = (
        shard_dir(&series, 1, 3),
        shard_dir(&series, 2, 3),
        shard_dir(&series, 3, 3),
    );
    let out = |name: &str| dir.join(name);
    one_line(
        &merge(&[&s1, &s3], &out("m1")),
        2,
        "shard 2/3 is missing (games 5 to 8): run it, then merge again",
    );
    one_line(
        &merge(&[&s1, &s2, &s2, &s3], &out("m2")),
        2,
        "shard 2/3 is given twice",
    );
    // Another series (another seed) split the same way.
    let other = dir.join("other");
    let mut args = vec!["match"];
    args.extend(SHARDED_SERIES);
    args.extend(["--seed", "4", "--shard", "2/3", "--quiet"]);
    args.extend(["--out", other.to_str().unwrap()]);
    ok(&zebra(&args));
    one_line(
        &merge(&[&s1, &shard_dir(&other, 2, 3), &s3], &out("m3")),
        2,
        "shards of different series do not merge",
    );
    // Another split of the same series.
    let halves = dir.join("halves");
    ok(&play(&[
        "--shard",
        "1/2",
        "--out",
        halves.to_str().unwrap(),
    ]));
    one_line(
        &merge(&[&s1, &shard_dir(&halves, 1, 2)], &out("m4")),
        2,
        "every shard of a merge splits the series the same way",
    );
    // A shard whose last game was lost (a kill): its pair is split.
    let pgn = s3.join("games.pgn");
    let full = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(&pgn, &full[..full.rfind("[Event ").unwrap()]).unwrap();
    one_line(&merge(&[&series], &out("m5")), 2, "shard 3/3 in");
    let refused = text(&merge(&[&series], &out("m5")).stderr);
    assert!(
        refused.contains("is not finished (pair 7 is split: game 14 is missing)"),
        "{refused}"
    );
    for name in ["m1", "m2", "m3", "m4", "m5"] {
        assert!(
            !out(name).join("games.pgn").exists(),
            "{name}: nothing merged"
        );
    }
    // Run again, the shard plays only the game it lacks; then the merge goes through.
    let again = play(&["--shard", "3/3", "--out", series.to_str().unwrap()]);
    ok(&again);
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        full,
        "the same game again"
    );
    // Never into a directory that holds anything: the shards' own, or an earlier attempt.
    one_line(
        &merge(&[&s1, &s2, &s3], &series),
        2,
        "is not empty: give a new directory for the merged series",
    );
    // Also into the shards' own directory, which a later look passes over.
    ok(&merge(&[&series], &series.join("merged")));
    ok(&zebra(&["merge", series.to_str().unwrap(), "--status"]));
}

#[test]
fn a_shard_run_again_continues_its_own_games_and_refuses_another_series() {
    let dir = scratch("shards-again");
    let series = dir.join("s");
    ok(&play(&[
        "--shard",
        "2/2",
        "--out",
        series.to_str().unwrap(),
    ]));
    let pgn = shard_dir(&series, 2, 2).join("games.pgn");
    let first = std::fs::read_to_string(&pgn).unwrap();
    // The same command again (a job requeued): nothing is added.
    ok(&play(&[
        "--shard",
        "2/2",
        "--out",
        series.to_str().unwrap(),
    ]));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), first);
    // Other flags into the same directory: refused, nothing touched.
    let mut args = vec!["match"];
    args.extend(SHARDED_SERIES);
    args.extend(["--seed", "9", "--shard", "2/2", "--quiet"]);
    args.extend(["--out", series.to_str().unwrap()]);
    one_line(&zebra(&args), 2, "these flags make shard 2/2 of series");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), first);
}

#[test]
fn the_shard_index_comes_from_kubernetes_or_slurm_and_bad_shard_flags_are_one_line() {
    let dir = scratch("shards-env");
    let series = dir.join("s");
    let mut args = vec!["match"];
    args.extend(SHARDED_SERIES);
    args.extend([
        "--seed",
        "3",
        "--concurrency",
        "1",
        "--quiet",
        "--shards",
        "3",
    ]);
    args.extend(["--out", series.to_str().unwrap()]);
    let k8s = zebra_command(&args)
        .env("JOB_COMPLETION_INDEX", "1")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    ok(&k8s);
    assert!(shard_dir(&series, 2, 3).join("games.pgn").exists());
    // A Slurm array run as --array=1-3: task 3 is the third shard.
    let slurm = zebra_command(&args)
        .env_remove("JOB_COMPLETION_INDEX")
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .output()
        .unwrap();
    ok(&slurm);
    assert!(shard_dir(&series, 3, 3).join("games.pgn").exists());
    let none = zebra_command(&args)
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    one_line(&none, 2, "give --shard K/3");
    let out = series.to_str().unwrap();
    for (extra, needle) in [
        (
            vec!["--shard", "0/3", "--out", out],
            "--shard: shard 0 of 3: K runs from 1 to 3",
        ),
        (
            vec!["--shard", "2"],
            "--shard: '2' is not a shard: write K/N",
        ),
        (vec!["--shard", "1/3"], "--shard: give --out DIR"),
        (
            vec!["--shard", "1/3", "--out", out, "--pgn", "x.pgn"],
            "leave --pgn out",
        ),
    ] {
        one_line(&play(&extra), 2, needle);
    }
}

#[test]
fn merge_status_says_how_far_each_shard_is_and_which_have_not_started() {
    let dir = scratch("shards-status");
    let series = dir.join("s");
    for k in [1, 2] {
        ok(&play(&[
            "--shard",
            &format!("{k}/3"),
            "--out",
            series.to_str().unwrap(),
        ]));
    }
    // Shard 2 lost its last game (killed): 3 of its 4.
    let pgn = shard_dir(&series, 2, 3).join("games.pgn");
    let full = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(&pgn, &full[..full.rfind("[Event ").unwrap()]).unwrap();
    let out = zebra(&["merge", series.to_str().unwrap(), "--status"]);
    ok(&out);
    let said = text(&out.stdout);
    let lines: Vec<&str> = said.lines().collect();
    assert!(
        lines[0].ends_with(": 7 of 14 games (50%); 1 of 3 shards finished, 1 not started"),
        "{said}"
    );
    assert!(
        lines[1].starts_with("shard 1/3: 4 of 4 games (finished), host "),
        "{said}"
    );
    assert!(
        lines[2].starts_with("shard 2/3: 3 of 4 games, host "),
        "{said}"
    );
    assert_eq!(lines[3], "shard 3/3: not started", "{said}");
    let out = zebra(&["merge", series.to_str().unwrap(), "--status", "--json"]);
    ok(&out);
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["games_done"], 7);
    assert_eq!(status["games_planned"], 14);
    assert_eq!(status["missing"], serde_json::json!([3]));
    // Reading changed nothing: the torn shard still lacks its game.
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[Event ")
            .count(),
        3
    );
}
