//! The `zebra` binary end to end: output, determinism, JSON and exit codes.

use std::process::Output;

mod common;

use common::run::{scratch, text, zebra, zebra_command, INSTANT_BOT, RANDOM_BOT, TEST_BOT};

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
fn boyer_perft_counts_whole_turns_from_the_start_or_a_fen() {
    let out = zebra(&["perft", "--rules", "boyer-football", "--depth", "2"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim(), "7815");
    let fen = "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0";
    let divided = stdout(&zebra(&[
        "perft",
        "--rules",
        "boyer-football",
        "--position",
        fen,
        "--depth",
        "1",
        "--divide",
    ]));
    let lines: Vec<&str> = divided.lines().collect();
    assert_eq!(lines.last(), Some(&"total 88"), "{divided}");
    assert!(lines.iter().any(|l| l.starts_with("d1d5 ")), "{divided}");
    for (args, needle) in [
        (&["perft", "--rules", "chess"][..], "unknown rules 'chess'"),
        (
            &[
                "perft",
                "--rules",
                "boyer-football",
                "--position",
                "rnbq1knbr/9 w 0",
            ][..],
            "--position: ",
        ),
        (
            &["perft", "--rules", "boyer-football", "--depth", "6"][..],
            "--depth 6 is too deep; use 5 or less",
        ),
        (
            &["perft", "--position", "nowhere"][..],
            "--position: 'nowhere' is not a built-in position (shotgun, scramble, motion)",
        ),
    ] {
        let out = zebra(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn boyer_games_are_played_recorded_reproducibly_and_verified() {
    let dir = scratch("boyer");
    let mut texts = Vec::new();
    for k in 0..2 {
        let pgn = dir.join(format!("b{k}.pgn"));
        let out = zebra(&[
            "play",
            "--rules",
            "boyer-football",
            "--tc",
            "bank=120s,inc=1s",
            "--seed",
            "2",
            "--quiet",
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The bundled greedy bot heads for the goal; the random bot does not.
        assert!(
            stdout(&out).starts_with("result 1-0 (normal)"),
            "{}",
            stdout(&out)
        );
        texts.push(std::fs::read_to_string(&pgn).unwrap());
    }
    assert_eq!(texts[0], texts[1], "the same seed gives the same record");
    // In the terminal with --board: each turn's header, its sub-moves in words, the board
    // as the turn ends (9x9, the goal squares marked, the ball on the square the record's
    // last turn left).
    let out = zebra(&[
        "play",
        "--rules",
        "boyer-football",
        "--tc",
        "bank=120s,inc=1s",
        "--seed",
        "2",
        "--board",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\nturn 1, white\n  White's "), "{text}");
    assert!(text.contains("   a  b  c  d  e  f  g  h  i\n"), "{text}");
    assert!(text.contains("white scores a goal  goals 1-0"), "{text}");
    // A record of another edition of Boyer's rulings is named by its own game's edition.
    let other = dir.join("edition7.pgn");
    std::fs::write(
        &other,
        texts[0].replace("[Rulings \"1\"]", "[Rulings \"7\"]"),
    )
    .unwrap();
    let out = zebra(&["verify", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("this zebra judges edition 1 only"));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("(this zebra judges boyer-football edition 1 only)"));
    let view = zebra(&["view", dir.join("b0.pgn").to_str().unwrap(), "--board"]);
    assert!(view.status.success());
    assert!(stdout(&view).contains("white scores a goal  goals 1-0"));
    assert!(texts[0].contains("[Variant \"boyer-football\"]"));
    // B7: a refereed game starts from the start position (a record of another start would
    // carry it in a FEN tag).
    assert!(!texts[0].contains("[FEN "), "{}", texts[0]);
    assert!(texts[0].contains("{turn 1, white}"));
    let pgn = dir.join("b0.pgn");
    let out = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("1 games verified"));
    let out = zebra(&["verify", "--rules", "football-chess", pgn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a boyer-football record, not football-chess"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    for (args, needle) in [
        (
            &["play", "--rules", "boyer-football", "--tc", "plays=10"][..],
            "unknown chess clock item",
        ),
        (&["play", "--rules", "boyer"][..], "unknown rules 'boyer'"),
    ] {
        let out = zebra(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_reads_a_diagram_file() {
    let dir = scratch("diagram");
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

    // Boyer's Football's position file holds a FEN.
    let fen = dir.join("boyer.fen");
    std::fs::write(&fen, "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0\n").unwrap();
    let args = [
        "perft",
        "--rules",
        "boyer-football",
        "--depth",
        "1",
        "--diagram",
    ];
    let out = zebra(&[&args[..], &[fen.to_str().unwrap()]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout(&out).trim(), "88");
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
    assert_eq!(v["rules"], "football-chess");
    let out = zebra(&["bench", "movegen", "--rounds", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert!(v["generations_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn referee_bench_plays_instant_bots_and_reports_every_figure() {
    let out = zebra(&["bench", "referee", "--games", "1", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    for key in [
        "decisions_per_second",
        "referee_cpu_us_per_decision",
        "decision_round_trip_us",
        "bot_side_us_per_decision",
        "request_build_us",
        "pipe_round_trip_us",
        "pipe_cpu_us_per_round_trip",
    ] {
        assert!(v[key].as_f64().unwrap() > 0.0, "{key}: {v}");
    }
    // Every kind of game is played at least once: protocol 2 sandboxed with freeze-idle
    // off and on, and with --sandbox none; protocol 1 sandboxed (freeze-idle on) and not.
    // Each kind in games of two lengths, so that its cost splits into per decision and per
    // game (numbers; their size depends on the machine and is not asserted).
    let kinds = [
        "freeze_off",
        "freeze_on",
        "sandbox_none",
        "protocol1_freeze_on",
        "protocol1_sandbox_none",
    ];
    for kind in kinds {
        assert!(v[kind]["decisions"].as_u64().unwrap() > 0, "{kind}: {v}");
        for part in [
            "steady_round_trip_us",
            "steady_referee_cpu_us",
            "per_game_ms",
            "per_game_referee_cpu_ms",
        ] {
            assert!(v[kind][part].is_f64(), "{kind}.{part}: {v}");
        }
    }
    assert_eq!(v["games"], 10, "five kinds by two lengths at least: {v}");
    // The bytes written do not depend on the machine: version 2's requests carry the
    // changes, version 1's the whole state and the legal list.
    let bytes = |kind: &str| v[kind]["bytes_per_decision"].as_f64().unwrap();
    for (two, one) in [
        ("freeze_on", "protocol1_freeze_on"),
        ("sandbox_none", "protocol1_sandbox_none"),
    ] {
        assert!(
            bytes(two) > 50.0 && bytes(two) * 3.0 < bytes(one),
            "{two} against {one}: {v}"
        );
    }
    assert!(v["decisions"].as_u64().unwrap() > 100, "{v}");
    // Everything on one CPU works on any machine, and says so.
    let out = zebra(&[
        "bench", "referee", "--games", "1", "--layout", "shared", "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["layout"], "shared");
    assert_eq!(v["referee_cpus"], v["bot_cpus"]);
}

#[test]
fn match_bench_reports_games_per_second_at_concurrency_one_and_two() {
    let out = zebra(&["bench", "match", "--games", "4", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["games"], 4);
    let levels: Vec<u64> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert!(r["games_per_second"].as_f64().unwrap() > 0.0, "{r}");
            r["concurrency"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(levels, [1, 2]);
    // Every run says how busy the machine was; nothing watched, nothing of the viewer.
    for r in v["runs"].as_array().unwrap() {
        assert!(
            r["cpu"]["machine_busy_seconds"].as_f64().unwrap() >= 0.0,
            "{r}"
        );
        assert_eq!(r["cpu"]["browser_seconds"].as_f64(), Some(0.0), "{r}");
    }
}

#[test]
fn match_bench_with_the_viewer_and_no_browser_alternates_plain_and_watched_runs() {
    let out = zebra(&[
        "bench",
        "match",
        "--games",
        "2",
        "--watch-with",
        "none",
        "--repeat",
        "2",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let runs: Vec<(u64, bool)> = v["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["concurrency"].as_u64().unwrap(),
                r["watched"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        runs,
        [
            (1, false),
            (1, true),
            (1, false),
            (1, true),
            (2, false),
            (2, true),
            (2, false),
            (2, true)
        ]
    );
    let levels: Vec<u64> = v["watch_cost"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["concurrency"].as_u64().unwrap())
        .collect();
    assert_eq!(levels, [1, 2]);
    // A browser that cannot be started, and repeat counts out of range, are one line.
    let missing = zebra(&[
        "bench",
        "match",
        "--games",
        "2",
        "--watch-with",
        "/nonexistent-browser",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start /nonexistent-browser"));
    for repeat in ["0", "51"] {
        let out = zebra(&["bench", "match", "--watch-with", "none", "--repeat", repeat]);
        assert_eq!(out.status.code(), Some(2), "--repeat {repeat}");
    }
}

#[test]
fn instant_bot_passes_the_protocol_checklist() {
    let out = zebra(&["check-bot", INSTANT_BOT]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("no problems found"));
    // A bundled bot by its bare name, as play and match take it.
    let out = zebra(&["check-bot", "zebra-instant-bot", "--games", "0"]);
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn play_referees_the_bundled_bots_and_appends_a_verifiable_record() {
    let dir = scratch("play");
    let pgn = dir.join("games.pgn");
    let logs = dir.join("logs");
    for seed in ["1", "2"] {
        let out = zebra(&[
            "play",
            "--tc",
            "plays=2,play=5s,reaction=5s",
            "--seed",
            seed,
            "--pgn",
            pgn.to_str().unwrap(),
            "--log-dir",
            logs.to_str().unwrap(),
        ]);
        let text = stdout(&out);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with("Q1 0-0  white ball, 1st & 10 at e5")),
            "{text}"
        );
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with("result ") && last.contains("(normal) white greedy"),
            "{last}"
        );
    }
    let verified = zebra(&["verify", pgn.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stdout(&verified));
    assert!(stdout(&verified).contains("2 games verified"));
    // Per game: the transcript and each bot's stderr.
    let names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".log")).count(),
        2,
        "{names:?}"
    );
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".stderr")).count(),
        4,
        "{names:?}"
    );
    // Named by their `ready`: the records and the log files follow.
    assert!(
        names.contains(&"greedy-vs-random-seed1.log".to_string()),
        "{names:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_reports_a_forfeit_with_exit_code_3() {
    let white = format!("{TEST_BOT} --garbage");
    let out = zebra(&[
        "play", "--white", &white, "--black", RANDOM_BOT, "--tc", "plays=1", "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("result 0-1 (rules infraction)"), "{text}");
    assert!(text.contains("3 illegal or invalid"), "{text}");
}

#[test]
fn play_rejects_bad_time_controls_and_options() {
    let out = zebra(&["play", "--tc", "quarter=fast"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tc: 'fast' is not a duration"));
    let out = zebra(&["play", "--white-option", "depth"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=VALUE"));
    // Values are checked against the options the bot declares, before the game.
    let out = zebra(&["play", "--white-option", "depth=9", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("an integer from 1 to 3"));
}

#[test]
fn check_bot_passes_a_good_bot_and_names_the_problems_of_a_bad_one() {
    let good = zebra(&["check-bot", RANDOM_BOT]);
    assert!(good.status.success(), "{}", stdout(&good));
    let text = stdout(&good);
    for kind in [
        "formation",
        "motion",
        "reaction",
        "move",
        "contention",
        "penalty",
    ] {
        assert!(
            text.contains(&format!("{kind} decision")),
            "{kind} missing:\n{text}"
        );
    }
    assert!(text.contains("no problems found"));

    for (flags, problem) in [
        ("--garbage", "not a protocol message"),
        ("--illegal", "illegal action"),
        ("--no-ready", "no ready within"),
        ("--ignore-quit", "did not exit"),
        ("--banner", "before ready that are not protocol"),
        ("--double-reply", "second reply"),
    ] {
        let cmd = format!("{TEST_BOT} {flags}");
        // The questions only: the games are another test's.
        let out = zebra(&["check-bot", &cmd, "--decision-ms", "1500", "--games", "0"]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(4), "{flags}:\n{text}");
        assert!(
            text.contains(problem),
            "{flags}: '{problem}' missing:\n{text}"
        );
    }
}

/// A bot that prints debug text to stdout before each reply (a forgotten print) is told
/// once what stdout is for; the replies that follow its stray lines are not a second
/// cascade of problems (wrong ids, second replies), and the rest is one counted line.
#[test]
fn check_bot_tells_a_chatty_bot_that_stdout_is_for_protocol_lines() {
    let cmd = format!("{TEST_BOT} --chatty");
    let out = zebra(&["check-bot", &cmd, "--decision-ms", "1500", "--games", "0"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("stdout carries protocol lines only: write debug text and logs to stderr"),
        "{text}"
    );
    assert!(!text.contains("the reply has id"), "{text}");
    assert!(!text.contains("second reply"), "{text}");
    let problems = text.lines().filter(|l| l.starts_with("PROBLEM")).count();
    assert!(problems <= 3, "{problems} problems:\n{text}");
}

/// check-bot judges the handshake as a game does: a flood before `ready` is named as a
/// flood at once (not as silence after the whole handshake time), and a bot that exits
/// before `ready` is named by its exit code, with the end of its stderr.
#[test]
fn check_bot_names_a_flood_and_a_crash_before_ready_as_a_game_would() {
    // `--no-flush`: its `ready` stays in a buffer that the exit with code 3 drops.
    for (flags, problems) in [
        (
            "--flood-stdout start",
            &["as white: handshake: flooded its output before ready"][..],
        ),
        (
            "--no-flush --crash-after 0",
            &[
                "as white: handshake: crashed with exit code 3 before ready",
                "its stderr ends: test-bot: loading the weights | test-bot: cannot load weights: crashing on purpose",
            ][..],
        ),
    ] {
        let cmd = format!("{TEST_BOT} {flags}");
        let start = std::time::Instant::now();
        let out = zebra(&["check-bot", &cmd, "--games", "0"]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(4), "{flags}:\n{text}");
        for problem in problems {
            assert!(
                text.contains(problem),
                "{flags}: '{problem}' missing:\n{text}"
            );
        }
        assert!(!text.contains("no ready within"), "{flags}:\n{text}");
        // Both sessions, each judged on what the bot did: well under one handshake time.
        assert!(
            start.elapsed() < std::time::Duration::from_secs(8),
            "{flags}"
        );
    }
}

#[test]
fn check_bot_plays_whole_games_and_names_each_problem_with_its_decision() {
    let good = zebra(&["check-bot", RANDOM_BOT]);
    let text = stdout(&good);
    assert!(good.status.success(), "{text}");
    for line in [
        "ok      game 1 as white against zebra-random-bot: ",
        "ok      game 2 as black against zebra-random-bot: ",
    ] {
        assert!(text.contains(line), "{line} missing:\n{text}");
    }
    // A bot that answers every request with an illegal action: each reply the referee
    // refused is named with its request, decision and play, and the forfeit after them.
    let cmd = format!("{TEST_BOT} --illegal");
    let bad = zebra(&["check-bot", &cmd, "--games", "1"]);
    let text = stdout(&bad);
    assert_eq!(bad.status.code(), Some(4), "{text}");
    let game: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("PROBLEM game 1 as white"))
        .collect();
    assert!(
        game.iter().any(|l| l.contains(": request ")
            && l.contains("decision, Q1 white ball")
            && l.contains(": illegal")),
        "{text}"
    );
    assert!(
        game.iter().any(|l| l.contains("it ended the game")),
        "{text}"
    );
    assert!(
        !text.contains("game 2"),
        "--games 1 plays one game:\n{text}"
    );
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = zebra_command(&[])
        .args(["demo", "--seed", "4", "--plays-per-quarter", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is gone: every later line hits a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert!(first.starts_with("Q1 "), "{first}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?} {err}", out.status);
}

/// Processes whose command line contains `token` (the bots of one test).
fn processes_with(token: &str) -> Vec<i32> {
    common::command_lines()
        .into_iter()
        // Only the bots: their program is the test bot (zebra's own arguments hold the token too).
        .filter(|(_, args)| {
            args.first().is_some_and(|p| p.ends_with("zebra-test-bot"))
                && args.iter().any(|a| a.contains(token))
        })
        .map(|(pid, _)| pid)
        .collect()
}

#[test]
fn ctrl_c_stops_the_game_and_every_bot() {
    let token = format!("ctrl-c-{}", std::process::id());
    let white = format!("{TEST_BOT} --name {token} --sleep-ms 50");
    let black = format!("{TEST_BOT} --name {token}");
    let child = zebra_command(&[])
        .args([
            "play",
            "--white",
            &white,
            "--black",
            &black,
            "--tc",
            "plays=200",
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while processes_with(&token).len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(processes_with(&token).len(), 2, "both bots started");
    // Mid-game, well after zebra began watching for the signal.
    std::thread::sleep(std::time::Duration::from_millis(300));
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted; every bot was stopped"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !processes_with(&token).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(processes_with(&token), Vec::<i32>::new(), "no bot survives");
}

/// Ctrl-C (or SIGTERM) in the middle of `zebra play --pgn` leaves the game so far in the
/// record file: `Termination "unterminated"`, Result `*`, every entry played, and the
/// record verifies. For a game of plays (Football Chess) and a game of turns (Boyer's).
#[test]
fn an_interrupted_game_leaves_an_unterminated_record() {
    use std::io::BufRead;
    for (rules, signal) in [
        ("football-chess", libc::SIGINT),
        ("boyer-football", libc::SIGTERM),
    ] {
        let dir = scratch(&format!("interrupted-{rules}"));
        let pgn = dir.join("game.pgn");
        let white = format!("{TEST_BOT} --sleep-ms 20");
        let tc = if rules == "football-chess" {
            "plays=200,play=60s,reaction=60s"
        } else {
            "bank=600s,inc=1s"
        };
        let mut child = zebra_command(&["play", "--rules", rules, "--white", &white])
            .args(["--tc", tc, "--pgn"])
            .arg(&pgn)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Three lines of the game printed: some plays (or turns) are over, so the record
        // has entries, however slow the machine.
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        for _ in 0..3 {
            lines.next().expect("the game goes on").unwrap();
        }
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{rules}: {err}");
        assert!(
            err.contains("the game so far is recorded in"),
            "{rules}: {err}"
        );
        let record = std::fs::read_to_string(&pgn).unwrap();
        assert!(
            record.contains("[Termination \"unterminated\"]"),
            "{rules}: {record}"
        );
        assert!(record.contains("[Result \"*\"]"), "{rules}: {record}");
        let verified = zebra(&["verify", pgn.to_str().unwrap()]);
        let said = stdout(&verified);
        assert!(verified.status.success(), "{rules}: {said}");
        assert!(said.contains("ok, * (unterminated,"), "{rules}: {said}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn one_zebra_line(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("zebra: "), "{err}");
    err
}

#[test]
fn play_checks_every_program_first_and_writes_nothing() {
    let dir = scratch("missing");
    let pgn = dir.join("g.pgn");
    let out = zebra(&[
        "play",
        "--white",
        "/nonexistent/zebra-bot",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = one_zebra_line(&out);
    assert!(
        err.contains("cannot find the program '/nonexistent/zebra-bot'"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "a game was played");
    assert!(!pgn.exists(), "a record was written");
}

#[test]
fn play_accepts_the_bare_names_of_the_bundled_bots() {
    let out = zebra(&[
        "play",
        "-q",
        "--white",
        "zebra-greedy-bot",
        "--black",
        "zebra-random-bot",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("(normal)"), "{}", stdout(&out));
}

#[test]
fn play_checks_pgn_and_log_dir_before_the_game() {
    let dir = scratch("paths");
    let file = dir.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let under_a_file = file.join("sub");
    for args in [
        vec!["play", "-q", "--pgn", under_a_file.to_str().unwrap()],
        vec!["play", "-q", "--log-dir", under_a_file.to_str().unwrap()],
    ] {
        let out = zebra(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let err = one_zebra_line(&out);
        assert!(err.contains(args[2]), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}: a game was played");
    }
}

#[test]
fn clap_errors_are_one_zebra_line_with_exit_code_2() {
    for args in [
        vec!["play", "--no-such-flag"],
        vec!["match", "--games", "many"],
        vec!["match", "--resume", "x", "--tc", "blitz"],
        vec!["frobnicate"],
    ] {
        let out = zebra(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = one_zebra_line(&out);
        // The help to read: the command's own, or zebra's for an unknown command.
        let help = match args[0] {
            "frobnicate" => "zebra --help".to_string(),
            command => format!("zebra {command} --help"),
        };
        assert!(err.ends_with(&format!("(see '{help}')\n")), "{err}");
    }
    // Help and version still print whole, on stdout, with success.
    let help = zebra(&["play", "--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Usage: zebra play"));
}

#[test]
fn a_duplicate_time_control_key_is_a_usage_error() {
    let out = zebra(&["play", "--tc", "plays=4,play=5s,play=1s"]);
    assert_eq!(out.status.code(), Some(2));
    let err = one_zebra_line(&out);
    assert!(err.contains("'play' is given twice"), "{err}");
}

/// The book's "Exit codes" (docs/src/reference/exit-codes.md), case by case (5, 6 and 130 need a series or a signal: see
/// tests/series.rs, which checks them with real SPRT runs and a real Ctrl-C).
#[test]
fn every_documented_exit_code_happens_as_documented() {
    let dir = scratch("exit-codes");
    let crash = format!("{TEST_BOT} --crash-after 1");
    let garbage = format!("{TEST_BOT} --garbage");
    let missing = dir.join("missing.pgn");
    let cases: Vec<(Vec<&str>, i32)> = vec![
        (vec!["demo", "-q"], 0),
        (vec!["play", "-q"], 0),
        (vec!["verify", missing.to_str().unwrap()], 1),
        (vec!["play", "--white", "/nonexistent/bot"], 1),
        (vec!["play", "--tc", "fortnightly"], 2),
        (vec!["play", "--no-such-flag"], 2),
        (vec!["play", "-q", "--white", &crash], 3),
        (
            vec![
                "check-bot",
                &garbage,
                "--decision-ms",
                "500",
                "--games",
                "0",
            ],
            4,
        ),
    ];
    for (args, code) in cases {
        let out = zebra(&args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {out:?}");
        if code == 1 || code == 2 {
            one_zebra_line(&out);
        }
    }
}

/// Rulings edition 2 (R57, R58): fouls cannot freeze the game, so `zebra demo` (two seeded
/// random players) never shows the same play header three times in a row for seeds 1-20.
/// Under edition 1 a defense at its 1-yard line repeated "1st & goal at e7" by fouling.
#[test]
fn demo_games_show_no_run_of_three_identical_play_headers() {
    for seed in 1..=20 {
        let out = zebra(&["demo", "--seed", &seed.to_string()]);
        assert!(out.status.success(), "seed {seed}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let headers: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split_once(": ").map(|(h, _)| h))
            .collect();
        assert!(headers.len() > 20, "seed {seed}: {text}");
        for w in headers.windows(3) {
            assert!(
                !(w[0] == w[1] && w[1] == w[2]),
                "seed {seed}: '{}' three times in a row\n{text}",
                w[0]
            );
        }
    }
}

/// `zebra play` names a bot the user did not name by its `ready`, never taking a name the
/// user gave: two random bots are `random` and `random-2`, whichever side is named.
#[test]
fn play_names_unnamed_bots_by_ready_without_collisions() {
    let both = zebra(&[
        "play", "--white", RANDOM_BOT, "--black", RANDOM_BOT, "--tc", "plays=1", "--quiet",
    ]);
    let last = stdout(&both);
    assert!(
        last.contains("white random ") && last.contains("black random-2 "),
        "{last}"
    );
    let named = zebra(&[
        "play",
        "--white",
        RANDOM_BOT,
        "--black",
        RANDOM_BOT,
        "--black-name",
        "random",
        "--tc",
        "plays=1",
        "--quiet",
    ]);
    let last = stdout(&named);
    assert!(
        last.contains("white random-2 ") && last.contains("black random "),
        "{last}"
    );
}

#[test]
fn check_bot_for_boyer_asks_every_moment_of_a_turn_and_names_problems() {
    let good = zebra(&["check-bot", "--rules", "boyer-football", RANDOM_BOT]);
    let text = stdout(&good);
    assert!(good.status.success(), "{text}");
    for side in ["white", "black"] {
        for moment in [
            "at the start of a turn",
            "after the piece move",
            "after a kick",
        ] {
            let line = format!("ok      as {side}: sub_move decision {moment}: '");
            assert!(text.contains(&line), "{line} missing:\n{text}");
        }
        let game = format!("as {side} against zebra-random-bot: ");
        assert!(text.contains(&game), "{game} missing:\n{text}");
    }
    assert!(text.contains("no problems found"), "{text}");

    for (flags, problem) in [
        ("--garbage", "not a protocol message"),
        ("--illegal", "is not a legal sub-move here"),
    ] {
        let cmd = format!("{TEST_BOT} {flags}");
        let out = zebra(&[
            "check-bot",
            "--rules",
            "boyer-football",
            &cmd,
            "--decision-ms",
            "1500",
            "--games",
            "1",
        ]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(4), "{flags}:\n{text}");
        assert!(
            text.lines().any(
                |l| l.starts_with("PROBLEM as white: sub_move decision") && l.contains(problem)
            ),
            "{flags}: '{problem}' missing:\n{text}"
        );
        // In the game, each refused reply is named with its request.
        assert!(
            text.lines()
                .any(|l| l.starts_with("PROBLEM game 1 as white")
                    && l.contains("(sub_move decision): illegal")),
            "{flags}: the game's problems missing:\n{text}"
        );
    }
}

/// B37 and B38 as a bot meets them: a bad reply is refused and the same position asked
/// again on the running clock; a reply that never comes loses on time.
#[test]
fn boyer_asks_again_after_a_bad_reply_and_a_timeout_loses_on_time() {
    let dir = scratch("b3x");
    let logs = dir.to_str().unwrap();

    // Two illegal replies (below --max-illegal 3), then legal play: the game goes on.
    let white = format!("{TEST_BOT} --illegal-first 2");
    let pgn = dir.join("again.pgn");
    let out = zebra(&[
        "play",
        "--rules",
        "boyer-football",
        "--white",
        &white,
        "--white-name",
        "again",
        "--pgn",
        pgn.to_str().unwrap(),
        "--log-dir",
        logs,
    ]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("white again: 2 illegal or invalid, 0 timed out"),
        "{}",
        stdout(&out)
    );
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert!(record.contains("[Termination \"normal\"]"), "{record}");
    let log = std::fs::read_to_string(dir.join("again-vs-random-seed1.log")).unwrap();
    let to_white: Vec<serde_json::Value> = log
        .lines()
        .filter_map(|l| l.split_once(" white < "))
        .map(|(_, json)| serde_json::from_str(json).unwrap())
        .collect();
    let requests: Vec<&serde_json::Value> = to_white
        .iter()
        .filter(|m| m["type"] == "request")
        .take(3)
        .collect();
    let results: Vec<&serde_json::Value> = to_white
        .iter()
        .filter(|m| m["type"] == "result")
        .take(3)
        .collect();
    assert_eq!(
        results
            .iter()
            .map(|r| r["status"].as_str())
            .collect::<Vec<_>>(),
        [Some("illegal"), Some("illegal"), Some("ok")]
    );
    // The same position each time, asked again with a new id.
    for r in &requests[1..] {
        assert_eq!(r["state"], requests[0]["state"]);
        assert_ne!(r["id"], requests[0]["id"]);
    }
    assert!(verify(&pgn));

    // Every reply illegal: the third forfeits the game (B38's limit, --max-illegal 3).
    let white = format!("{TEST_BOT} --illegal");
    let out = zebra(&[
        "play",
        "--rules",
        "boyer-football",
        "--white",
        &white,
        "--white-name",
        "wrong",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("result 0-1 (rules infraction)")
            && stdout(&out).contains("white wrong: 3 illegal or invalid"),
        "{}",
        stdout(&out)
    );

    // A bot that sleeps far past its 500 ms: it loses on time at its first decision.
    let white = format!("{TEST_BOT} --sleep-ms 10000");
    let pgn = dir.join("late.pgn");
    let out = zebra(&[
        "play",
        "--rules",
        "boyer-football",
        "--tc",
        "turn=500ms",
        "--white",
        &white,
        "--white-name",
        "late",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("result 0-1 (time forfeit)"),
        "{}",
        stdout(&out)
    );
    let record = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        record.contains("[Termination \"time forfeit\"]"),
        "{record}"
    );
    assert!(record.contains("[WhiteVerdict \"timeout\"]"), "{record}");
    assert!(verify(&pgn));
    std::fs::remove_dir_all(&dir).ok();
}

fn verify(pgn: &std::path::Path) -> bool {
    zebra(&["verify", pgn.to_str().unwrap()]).status.success()
}

/// `demo` and `bench` for Boyer's Football: the demo's lines replay to its result, and the
/// benchmark counts exactly the sub-moves of its seeded games.
#[test]
fn boyer_demo_replays_and_its_benchmark_counts_every_sub_move() {
    use zebra::games::boyer::rules::{Game, Position, RandomPlayer, SubMove};
    let a = stdout(&zebra(&[
        "demo",
        "--rules",
        "boyer-football",
        "--seed",
        "7",
    ]));
    assert_eq!(
        a,
        stdout(&zebra(&[
            "demo",
            "--rules",
            "boyer-football",
            "--seed",
            "7"
        ]))
    );
    assert_ne!(
        a,
        stdout(&zebra(&[
            "demo",
            "--rules",
            "boyer-football",
            "--seed",
            "8"
        ]))
    );
    let lines: Vec<&str> = a.lines().collect();
    let (last, turns) = lines.split_last().expect("lines");
    let mut game = Game::new(Position::start());
    for (k, line) in turns.iter().enumerate() {
        let side = if k % 2 == 0 { "white" } else { "black" };
        let (head, subs) = line
            .split_once(": ")
            .expect("turn N, side, score: sub-moves");
        assert!(
            head.starts_with(&format!("turn {}, {side}, ", k + 1)),
            "{head}"
        );
        // A turn that scores ends with the goal in braces.
        let subs = subs.split(" {").next().unwrap_or(subs);
        for sub in subs.split(' ') {
            let sub: SubMove = sub.parse().expect("notation");
            game.apply(sub).expect("legal");
        }
    }
    let result = game.result().expect("the demo plays to the end").pgn();
    assert!(
        last.starts_with(&format!("result {result} white ")),
        "{last}"
    );
    assert!(last.ends_with("(seed 7)"), "{last}");
    assert_eq!(game.position().turns() as usize, turns.len(), "{a}");

    let out = zebra(&[
        "bench",
        "--rules",
        "boyer-football",
        "--games",
        "3",
        "--seed",
        "4",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let mut expected = 0u64;
    for seed in 4..7 {
        let mut game = Game::new(Position::start());
        let mut player = RandomPlayer::new(seed);
        while let Some(sub) = player.choose(&game) {
            game.apply(sub).unwrap();
            expected += 1;
        }
    }
    // One report for every game: its actions are Boyer's sub-moves.
    assert_eq!(v["rules"], "boyer-football");
    assert_eq!(v["actions"], expected);
    assert!(v["actions_per_second"].as_f64().unwrap() > 0.0);
    let out = zebra(&[
        "bench",
        "movegen",
        "--rules",
        "boyer-football",
        "--rounds",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert!(v["actions_listed_per_second"].as_f64().unwrap() > 0.0);
    let out = zebra(&["bench", "referee", "--rules", "boyer-football"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bench referee: measures Football Chess games"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

/// The wall-time cap (`--max-game-time`), with real processes, for both games: White sleeps
/// 20 s on each decision after its third, under a clock that allows it, so only the cap can
/// end the game in time. It ends within a generous margin of the cap, mid-decision, as an
/// adjudication the record states and `zebra verify` accepts, with exit code 0 (no one
/// forfeited), and no bot process is left.
#[test]
fn a_game_at_its_wall_time_cap_is_stopped_mid_decision_and_adjudicated() {
    let dir = scratch("cap");
    for (rules, tc) in [
        ("football-chess", "plays=10,play=30s,reaction=30s"),
        ("boyer-football", "turn=30s"),
    ] {
        let mark = format!("cap-{rules}-{}", std::process::id());
        let pgn = dir.join(format!("{rules}.pgn"));
        let white = format!("{TEST_BOT} --sleep-ms 20000 --sleep-after 3");
        let started = std::time::Instant::now();
        let out = zebra_command(&[])
            .args([
                "play",
                "--rules",
                rules,
                "--white",
                &white,
                "--black",
                RANDOM_BOT,
                "--tc",
                tc,
                "--max-game-time",
                "3s",
                "--pgn",
                pgn.to_str().unwrap(),
                "--quiet",
            ])
            .env("ZEBRA_TEST_MARK", &mark)
            .output()
            .unwrap();
        let took = started.elapsed();
        let text = stdout(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{rules}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // 3 s of cap, a second of quit grace for the sleeping bot, and room for a busy
        // machine: far below the 20 s one more decision would take.
        assert!(
            took < std::time::Duration::from_secs(17),
            "{rules}: {took:?}"
        );
        assert!(
            text.contains("(adjudication)") && text.contains("wall-time cap of 3s reached"),
            "{rules}: {text}"
        );
        let record = std::fs::read_to_string(&pgn).unwrap();
        assert!(
            record.contains("[Termination \"adjudication\"]"),
            "{rules}: {record}"
        );
        assert!(
            record.contains("[TerminationReason \"wall-time cap of 3s reached; adjudicated "),
            "{rules}: {record}"
        );
        // Nobody scored in three decisions of White's: both games adjudicate a draw.
        assert!(record.contains("[Result \"1/2-1/2\"]"), "{rules}: {record}");
        assert!(verify(&pgn), "{rules}: {record}");
        // A tampered result is refused.
        let tampered = dir.join(format!("{rules}-tampered.pgn"));
        std::fs::write(&tampered, record.replace("1/2-1/2", "1-0")).unwrap();
        let refused = zebra(&["verify", tampered.to_str().unwrap()]);
        assert!(!refused.status.success());
        assert!(
            stdout(&refused).contains("adjudication"),
            "{rules}: {}",
            stdout(&refused)
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !common::marked(&mark).is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert_eq!(
            common::marked(&mark),
            Vec::<String>::new(),
            "{rules}: a bot survived its game"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_max_game_time_is_one_line_naming_the_flag() {
    for (args, needle) in [
        (
            vec!["play", "--max-game-time", "25"],
            "--max-game-time: '25' is not a duration: write it like 25m, 90s or 1.5m, or none for no cap",
        ),
        (
            vec!["play", "--max-game-time", "0s"],
            "--max-game-time: the cap must be longer than zero",
        ),
        (
            vec!["match", "--max-game-time", "soon"],
            "--max-game-time: 'soon' is not a duration",
        ),
    ] {
        let out = zebra(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = one_zebra_line(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `zebra play --start`: every game starts from a position of its own kind, says so in its
/// record (the tag its game reads back) and in `game_start`, and the record verifies; a
/// text that is not such a position is one line naming the flag, before any bot starts.
#[test]
fn play_starts_each_game_from_its_own_kind_of_position() {
    let dir = scratch("play-start");
    // Boyer's start with White's b-knight on e3 (the start itself is written as no tag).
    let boyer_fen = "rnbq1knbr/9/9/9/4a4/9/4N4/9/R1BQ1KNBR w 0";
    for (rules, tc, start, tag) in [
        (
            "football-chess",
            "plays=2,play=5s,reaction=5s",
            "quarter=4 left=10% score=14-17 offense=white spot=e3 down=3 distance=10 timeouts=1-2",
            "Situation",
        ),
        ("boyer-football", "turn=5s", boyer_fen, "FEN"),
        (
            "chess-eleven",
            "turns=2,move=5s,formation=10s",
            "7k/3Q4/8/8/8/8/8/3K4 w d7 m - 0-0 1.0 0",
            "Position",
        ),
    ] {
        let pgn = dir.join(format!("{rules}.pgn"));
        let logs = dir.join(format!("{rules}-logs"));
        let out = zebra(&[
            "play",
            "--rules",
            rules,
            "--tc",
            tc,
            "--start",
            start,
            "--pgn",
            pgn.to_str().unwrap(),
            "--log-dir",
            logs.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(
            out.status.success(),
            "{rules}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let record = std::fs::read_to_string(&pgn).unwrap();
        assert!(record.contains("[SetUp \"1\"]"), "{rules}: {record}");
        assert!(
            record.contains(&format!("[{tag} \"{start}\"]")),
            "{rules}: {record}"
        );
        assert!(verify(&pgn), "{rules}: {record}");
        // Both bots were told where the game starts.
        let transcript = std::fs::read_dir(&logs)
            .unwrap()
            .filter_map(|e| e.ok())
            .find(|e| e.path().extension().is_some_and(|x| x == "log"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .unwrap();
        let told = format!("\"situation\":\"{start}\"");
        assert_eq!(
            transcript.matches(&told).count(),
            2,
            "{rules}: {transcript}"
        );
    }
    // Another game's position, or none at all: one line, exit code 2.
    for (rules, start, says) in [
        (
            "chess-eleven",
            boyer_fen,
            "--start: not a position: 3 fields, expected 8",
        ),
        ("boyer-football", "7k/8 w", "--start: FEN"),
        ("football-chess", "kickoff", "--start: "),
    ] {
        let out = zebra(&["play", "--rules", rules, "--start", start]);
        assert_eq!(out.status.code(), Some(2), "{rules}");
        let line = one_zebra_line(&out);
        assert!(line.contains(says), "{rules}: {line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn completions_are_made_for_each_shell_from_the_command_definitions() {
    let out = zebra(&["completions", "bash"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bash = text(&out.stdout);
    for word in ["check-bot", "serve", "--database", "--white", "completions"] {
        assert!(bash.contains(word), "bash lacks {word}");
    }
    // The script is bash that bash reads.
    let file = scratch("completions").join("zebra.bash");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, &bash).unwrap();
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", text(&checked.stderr));
    for (shell, mark) in [
        ("zsh", "#compdef zebra"),
        ("fish", "complete -c zebra"),
        ("elvish", "zebra"),
        ("powershell", "zebra"),
    ] {
        let out = zebra(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains(mark), "{shell}");
    }
    let out = zebra(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("tcsh") && err.lines().count() <= 2, "{err}");
}

/// clap's own refusals keep the one-line form and keep clap's tips: a misspelt flag names
/// the similar one and the command's help, a negative number is a bad value (not an
/// unknown flag), a missing argument names it.
#[test]
fn usage_errors_are_one_line_with_the_tip_and_the_right_help() {
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["match", "--game", "3"],
            &[
                "a similar argument exists: '--games'",
                "(see 'zebra match --help')",
            ],
        ),
        (
            &["match", "--games", "-2"],
            &[
                "invalid value '-2' for '--games",
                "(see 'zebra match --help')",
            ],
        ),
        (
            &["paly"],
            &[
                "a similar subcommand exists: 'play'",
                "(see 'zebra --help')",
            ],
        ),
        (
            &["verify"],
            &["not provided: <FILE>", "(see 'zebra verify --help')"],
        ),
    ];
    for (args, wanted) in cases {
        let out = zebra(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("zebra: "), "{args:?}: {err}");
        for w in wanted {
            assert!(err.contains(w), "{args:?}: {err} lacks {w}");
        }
    }
}
