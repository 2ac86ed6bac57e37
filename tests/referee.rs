//! The referee end to end with real bot processes: whole games, reproducible records, and
//! every kind of misbehaviour of protocol/PROTOCOL.md ("What Zebra does when a bot
//! misbehaves"), each done for real by `zebra-test-bot`.
//!
//! Margins are generous: CI is a noisy 2-core machine. Reaction clocks are short (so that
//! games full of timeouts stay short) but the well-behaved bots answer in microseconds.

mod common;

use std::path::Path;
use std::time::Duration;

use zebra::bot::BotSpec;
use zebra::record::{verify, write_game, Termination};
use zebra::referee::{GameClock, GameConfig, GameReport, GameSetup, Referee};
use zebra::rules::{GameResult, Side};

use common::run::{scratch, GREEDY_BOT, RANDOM_BOT, TEST_BOT};

fn spec(name: &str, program: &str, args: &[&str]) -> BotSpec {
    let mut s = BotSpec::from_command(name, program).unwrap();
    s.args = args.iter().map(|a| a.to_string()).collect();
    s
}

fn config(tc: &str) -> GameConfig {
    GameConfig {
        game: GameSetup {
            clock: GameClock::read(zebra::rules::Rules::FootballChess, tc).unwrap(),
            seed: 7,
            ..GameSetup::default()
        },
        handshake: Duration::from_secs(3),
        quit_grace: Duration::from_secs(2),
        ..GameConfig::default()
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// One game; a short play-count game by default.
fn game(white: BotSpec, black: BotSpec, cfg: &GameConfig) -> GameReport {
    let rt = runtime();
    let report = rt.block_on(Referee::play(&white, &black, cfg, |_, _, _| {}));
    // Every record verifies, whatever happened.
    verify(&report.record).unwrap_or_else(|d| {
        panic!(
            "record does not verify: {d}\n{}",
            write_game(&report.record).unwrap()
        )
    });
    for bot in &report.bots {
        if let Some(exit) = &bot.exit {
            assert!(exit.stderr.len() <= 1024 * 1024);
        }
    }
    report
}

fn fast() -> GameConfig {
    config("plays=1,play=2s,reaction=2s,grace=200ms")
}

fn behaving(name: &str) -> BotSpec {
    spec(name, TEST_BOT, &[])
}

#[test]
fn a_whole_game_between_the_bundled_bots_is_refereed_and_recorded() {
    let cfg = config("plays=3,play=5s,reaction=5s");
    let r = game(
        spec("greedy", GREEDY_BOT, &[]),
        spec("random", RANDOM_BOT, &[]),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.result.is_some());
    for bot in &r.bots {
        assert_eq!(
            (bot.illegal, bot.timeouts, bot.discarded),
            (0, 0, 0),
            "{bot:?}"
        );
        assert!(bot.decisions > 10);
        let exit = bot.exit.as_ref().unwrap();
        assert!(!exit.killed, "{} ignored quit", bot.name);
    }
    let text = write_game(&r.record).unwrap();
    assert!(text.contains("[White \"greedy\"]") && text.contains("[Termination \"normal\"]"));
}

#[test]
fn the_same_seed_gives_a_byte_identical_record_in_play_count_mode() {
    let cfg = config("plays=2,play=5s,reaction=5s");
    let one = game(
        spec("random-a", RANDOM_BOT, &[]),
        spec("random-b", RANDOM_BOT, &[]),
        &cfg,
    );
    let two = game(
        spec("random-a", RANDOM_BOT, &[]),
        spec("random-b", RANDOM_BOT, &[]),
        &cfg,
    );
    assert_eq!(
        write_game(&one.record).unwrap(),
        write_game(&two.record).unwrap()
    );
    let mut other = cfg.clone();
    other.game.seed = 8;
    let three = game(
        spec("random-a", RANDOM_BOT, &[]),
        spec("random-b", RANDOM_BOT, &[]),
        &other,
    );
    assert_ne!(
        write_game(&one.record).unwrap(),
        write_game(&three.record).unwrap()
    );
}

#[test]
fn a_bot_that_never_says_ready_forfeits_by_handshake_timeout() {
    let r = game(
        behaving("ok"),
        spec("mute", TEST_BOT, &["--no-ready"]),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Abandoned);
    assert_eq!(r.result, Some(GameResult::Win(Side::White)));
    assert!(
        r.reason.contains("black") && r.reason.contains("handshake"),
        "{}",
        r.reason
    );
}

#[test]
fn a_banner_and_blank_lines_before_ready_are_ignored() {
    let r = game(
        spec("chatty", TEST_BOT, &["--banner"]),
        behaving("ok"),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[0].noise >= 1, "{:?}", r.bots[0]);
    assert_eq!(r.bots[0].illegal, 0);
}

fn assert_forfeits_for_bad_replies(flags: &[&str]) {
    let r = game(behaving("ok"), spec("bad", TEST_BOT, flags), &fast());
    assert_eq!(
        r.termination,
        Termination::RulesInfraction,
        "{flags:?}: {}",
        r.reason
    );
    assert_eq!(r.result, Some(GameResult::Win(Side::White)), "{flags:?}");
    assert_eq!(r.bots[1].illegal, 3, "{flags:?}");
    assert!(
        r.reason
            .starts_with("black sent 3 invalid or illegal replies"),
        "{}",
        r.reason
    );
}

#[test]
fn invalid_json_is_an_illegal_reply_and_three_forfeit() {
    assert_forfeits_for_bad_replies(&["--garbage"]);
}

#[test]
fn non_utf8_is_an_illegal_reply() {
    assert_forfeits_for_bad_replies(&["--non-utf8"]);
}

#[test]
fn a_line_over_the_limit_is_an_illegal_reply_and_never_buffered_whole() {
    assert_forfeits_for_bad_replies(&["--long-line", "3000000"]);
}

#[test]
fn an_illegal_action_costs_the_clock_consequence_then_forfeits() {
    let mut cfg = fast();
    cfg.game.max_illegal = 1000;
    let r = game(
        behaving("ok"),
        spec("illegal", TEST_BOT, &["--illegal"]),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[1].illegal >= 4, "{:?}", r.bots[1]);
    assert_forfeits_for_bad_replies(&["--illegal"]);
}

#[test]
fn wrong_and_stale_ids_and_second_replies_are_discarded() {
    let r = game(
        behaving("ok"),
        spec("dup", TEST_BOT, &["--double-reply"]),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[1].discarded >= 1, "{:?}", r.bots[1]);
    assert_eq!(r.bots[1].illegal, 0);

    // The test bot sends an illegal action under a wrong or stale id before its real reply:
    // applying it would show as an illegal reply.
    for flag in ["--wrong-id", "--stale-id"] {
        let r = game(behaving("ok"), spec("wrong", TEST_BOT, &[flag]), &fast());
        assert_eq!(r.termination, Termination::Normal, "{flag}: {}", r.reason);
        let bot = &r.bots[1];
        assert!(bot.discarded >= 2, "{flag}: {bot:?}");
        assert_eq!((bot.illegal, bot.timeouts), (0, 0), "{flag}: {bot:?}");
    }
}

#[test]
fn a_slow_bot_times_out_and_its_late_replies_are_discarded() {
    // Wide margins both ways: the fast bot has 1.2 s for answers it gives in microseconds,
    // the slow one sleeps more than twice its limit.
    let cfg = config("plays=1,play=1s,reaction=1s,grace=200ms");
    let r = game(
        spec("slow", TEST_BOT, &["--sleep-ms", "2500"]),
        behaving("ok"),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[0].timeouts >= 2, "{:?}", r.bots[0]);
    // Its late answers arrive while later requests are pending, and are thrown away.
    assert!(r.bots[0].discarded >= 1, "{:?}", r.bots[0]);
    assert_eq!(
        r.bots[1].timeouts, 0,
        "the fast bot was never charged: {:?}",
        r.bots[1]
    );
}

#[test]
fn a_timeout_spent_sleeping_is_suspect() {
    // Both bots overrun a 300 ms reaction clock by far: one asleep (no CPU), one spinning.
    // A sleeper's CPU stays near zero however busy the machine is, so all its timeouts are
    // suspect; how many of the spinner's are depends on the machine's load, so that is left
    // to the pure classification's unit test (`suspect_timeout` in referee::clock).
    let cfg = config("plays=1,play=300ms,reaction=300ms,grace=100ms");
    let r = game(
        spec("sleeper", TEST_BOT, &["--sleep-ms", "1500"]),
        spec("spinner", TEST_BOT, &["--busy-ms", "1500"]),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let (sleeper, spinner) = (&r.bots[0], &r.bots[1]);
    assert!(sleeper.timeouts >= 1, "{sleeper:?}");
    assert_eq!(sleeper.suspect_timeouts, sleeper.timeouts, "{sleeper:?}");
    assert!(spinner.timeouts >= 1, "{spinner:?}");
    assert!(spinner.suspect_timeouts <= spinner.timeouts, "{spinner:?}");
    assert_eq!(
        r.record.tags.get("WhiteSuspectTimeouts"),
        Some(sleeper.suspect_timeouts.to_string().as_str())
    );
}

#[test]
fn a_bot_with_time_odds_gets_its_own_reaction_clock() {
    // Both bots take 700 ms per reply; only White's odds (3 s) make that fast enough.
    let mut cfg = config("plays=1,play=400ms,reaction=400ms,grace=100ms");
    cfg.game.odds[0] = zebra::referee::TimeOdds::parse("play=3s,reaction=3s").unwrap();
    let r = game(
        spec("patient", TEST_BOT, &["--sleep-ms", "700"]),
        spec("hurried", TEST_BOT, &["--sleep-ms", "700"]),
        &cfg,
    );
    assert_eq!(r.bots[0].timeouts, 0, "{:?}", r.bots[0]);
    assert!(r.bots[1].timeouts >= 1, "{:?}", r.bots[1]);
    assert_eq!(
        r.record.tags.get("WhiteTimeControl"),
        Some("plays=1,play=3s,reaction=3s,grace=100ms")
    );
}

#[test]
fn a_bot_that_never_flushes_never_completes_the_handshake() {
    let cfg = config("plays=1,play=500ms,reaction=300ms,grace=100ms");
    let r = game(
        behaving("ok"),
        spec("buffered", TEST_BOT, &["--no-flush"]),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Abandoned, "{}", r.reason);
    assert_eq!(r.result, Some(GameResult::Win(Side::White)));
    assert!(
        r.reason.contains("no ready") && r.reason.contains("handshake"),
        "{}",
        r.reason
    );
}

#[test]
fn a_crash_mid_game_forfeits_with_a_reason() {
    let r = game(
        spec("crasher", TEST_BOT, &["--crash-after", "3"]),
        behaving("ok"),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Abandoned);
    assert_eq!(r.result, Some(GameResult::Win(Side::Black)));
    // The reason names the exit code and ends with the bot's last words on stderr.
    assert!(
        r.reason.starts_with("white crashed with exit code 3"),
        "{}",
        r.reason
    );
    assert!(
        r.reason
            .ends_with("cannot load weights: crashing on purpose"),
        "{}",
        r.reason
    );
    assert_eq!(r.bots[0].exit.as_ref().unwrap().code, Some(3));
    assert_eq!(
        r.bots[0].verdict,
        Some(zebra::sandbox::Verdict::Crashed(
            zebra::sandbox::Exit::Code(3)
        ))
    );
    assert_eq!(r.record.tags.get("WhiteVerdict"), Some("crashed"));
}

#[test]
fn a_bot_that_closes_stdout_but_lives_on_forfeits_and_is_killed() {
    let r = game(
        behaving("ok"),
        spec(
            "closer",
            TEST_BOT,
            &["--close-stdout-after", "2", "--ignore-quit"],
        ),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Abandoned, "{}", r.reason);
    assert!(r.bots[1].exit.as_ref().unwrap().killed);
}

#[test]
fn stderr_floods_are_drained_and_capped() {
    let r = game(
        spec("loud", TEST_BOT, &["--stderr-flood", "4"]),
        behaving("ok"),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let exit = r.bots[0].exit.as_ref().unwrap();
    assert_eq!(exit.stderr.len(), 1024 * 1024);
    assert!(
        exit.stderr_dropped >= 3 * 1024 * 1024,
        "{}",
        exit.stderr_dropped
    );
}

#[test]
fn a_bot_that_ignores_quit_is_killed_after_the_grace_period() {
    let started = std::time::Instant::now();
    let r = game(
        spec("stubborn", TEST_BOT, &["--ignore-quit"]),
        behaving("ok"),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[0].exit.as_ref().unwrap().killed);
    assert!(!r.bots[1].exit.as_ref().unwrap().killed);
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_bot_that_forks_leaves_no_process_behind() {
    // The child's pid the bot prints is the one its own PID namespace shows: the child is
    // found by a mark in its environment instead.
    let mark = format!("referee-fork-{}", std::process::id());
    let mut forker = spec("forker", TEST_BOT, &["--fork"]);
    forker
        .env
        .push(("ZEBRA_TEST_MARK".to_string(), mark.clone()));
    let r = game(forker, behaving("ok"), &fast());
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let stderr = String::from_utf8_lossy(&r.bots[0].exit.as_ref().unwrap().stderr).to_string();
    assert!(
        stderr.contains("child-pid "),
        "no child-pid in stderr: {stderr}"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !common::marked(&mark).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        common::marked(&mark),
        Vec::<String>::new(),
        "the bot's child survived the game"
    );
}

#[test]
fn a_program_that_does_not_exist_forfeits_without_stopping_zebra() {
    let r = game(
        spec("ghost", "/nonexistent/zebra-bot", &[]),
        behaving("ok"),
        &fast(),
    );
    assert_eq!(r.termination, Termination::Abandoned);
    assert_eq!(r.result, Some(GameResult::Win(Side::Black)));
    assert!(
        r.reason.contains("cannot start bot 'ghost'"),
        "{}",
        r.reason
    );
}

#[test]
fn the_transcript_holds_every_line_both_ways() {
    let dir = scratch("transcript");
    let mut cfg = fast();
    let path = dir.join("game.log");
    cfg.transcript = Some(path.clone());
    let r = game(behaving("a"), behaving("b"), &cfg);
    assert_eq!(r.termination, Termination::Normal);
    let log = std::fs::read_to_string(Path::new(&path)).unwrap();
    assert!(
        log.contains("white < {\"type\":\"hello\""),
        "{}",
        &log[..200.min(log.len())]
    );
    assert!(log.contains("black > {\"type\":\"ready\""));
    assert!(log.contains("\"type\":\"request\"") && log.contains("\"type\":\"action\""));
    assert!(log.contains("\"type\":\"game_end\""));
    // Each bot's stderr is kept next to the transcript.
    assert!(path.with_extension("white.stderr").exists());
    assert!(path.with_extension("black.stderr").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_duplicate_reply_is_named_a_duplicate_not_late() {
    let dir = scratch("duplicate");
    let mut cfg = fast();
    let path = dir.join("game.log");
    cfg.transcript = Some(path.clone());
    let r = game(
        behaving("a"),
        spec("twice", TEST_BOT, &["--double-reply"]),
        &cfg,
    );
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert!(r.bots[1].discarded > 0);
    let log = std::fs::read_to_string(&path).unwrap();
    let told: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("black < ") && l.contains("\"status\":\"duplicate\""))
        .collect();
    assert!(!told.is_empty(), "no duplicate result in the transcript");
    assert!(told[0].contains("was already answered"), "{}", told[0]);
    assert!(
        !log.contains("\"status\":\"late\""),
        "a second reply was called late"
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---- R70: a timed game always ends ----

#[test]
fn r70_a_defense_sleeping_250ms_on_every_decision_cannot_stall_a_timed_game() {
    // Every decision of the sleeper's defense is legal (250 ms under its 300 ms reaction
    // clock), and costs the game clock nothing; the ticks of its turns still end the game.
    let cfg = config("quarter=250ms,play=1s,reaction=300ms,grace=200ms");
    let bound = cfg.game.clock.get::<zebra::rules::Game>().bound();
    let start = std::time::Instant::now();
    let r = game(
        spec("sleeper", TEST_BOT, &["--sleep-on-defense-ms", "250"]),
        spec("greedy", GREEDY_BOT, &[]),
        &cfg,
    );
    let took = start.elapsed();
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    let sleeper = &r.bots[0];
    // The pure part: the sleeper's decisions stay within what the rules allow a game.
    assert!(
        sleeper.decisions <= bound.reaction_decisions + bound.rounds * 9,
        "{sleeper:?}"
    );
    // The bar, with a wide margin over the ~30 s this takes on an idle machine.
    assert!(took < Duration::from_secs(120), "took {took:?}");
}

#[test]
fn r70_greedy_against_random_in_one_second_quarters_scores_like_football() {
    // Edition 2 let this game run to 1,038 plays and 21-1902: the game clock ran only while
    // the offense thought. Now each turn is a tick, a fortieth of the quarter.
    let cfg = config("quarter=1s,play=1s,reaction=300ms,grace=200ms");
    for seed in [1, 2] {
        let mut cfg = cfg.clone();
        cfg.game.seed = seed;
        let r = game(
            spec("greedy", GREEDY_BOT, &[]),
            spec("random", RANDOM_BOT, &[]),
            &cfg,
        );
        assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
        assert!(r.score[0] < 100 && r.score[1] < 100, "{:?}", r.score);
    }
}

/// The wall-time cap in the library, from a start situation with Black ahead: White falls
/// asleep for 20 s on its third decision (its clocks allow 30 s), the cap of 2 s ends the
/// wait, both bots are ended (the sleeper killed after its quit grace), and the game is
/// adjudicated for the team ahead on score, in the report and in a record that verifies.
#[test]
fn a_game_at_its_wall_time_cap_is_adjudicated_for_the_team_ahead() {
    let mut cfg = config("plays=10,play=30s,reaction=30s");
    cfg.quit_grace = Duration::from_millis(500);
    cfg.game.max_game_time = "2s".parse().unwrap();
    cfg.game.start = Some(
        zebra::referee::GameStart::read(
            zebra::rules::Rules::FootballChess,
            "quarter=2 left=50% score=14-17 offense=white spot=e3 down=1 distance=10 timeouts=3-3",
        )
        .unwrap(),
    );
    let started = std::time::Instant::now();
    let r = game(
        spec(
            "sleeper",
            TEST_BOT,
            &["--sleep-ms", "20000", "--sleep-after", "2"],
        ),
        behaving("awake"),
        &cfg,
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.termination, Termination::Adjudication, "{}", r.reason);
    assert_eq!(r.score, [14, 17]);
    assert_eq!(r.result, Some(GameResult::Win(Side::Black)));
    assert_eq!(
        r.reason,
        "wall-time cap of 2s reached; adjudicated 0-1 at the score 14-17"
    );
    assert_eq!(r.record.tags.get("Termination"), Some("adjudication"));
    assert_eq!(
        r.record.tags.get("TerminationReason"),
        Some(r.reason.as_str())
    );
    assert_eq!(
        r.record.tags.get("WhiteVerdict"),
        None,
        "no one is to blame"
    );
    // The sleeper was asked and never answered its third request; nobody forfeited.
    assert_eq!(r.bots[0].decisions, 2);
    assert!(
        r.bots[0].exit.as_ref().unwrap().killed,
        "the sleeper was killed"
    );
    assert!(r.bots.iter().all(|b| b.verdict.is_none()));
}

/// A short game of Chess Eleven: two counted goes a half.
fn eleven(tc: &str) -> GameConfig {
    let mut cfg = config("plays=1");
    cfg.game = GameSetup {
        clock: GameClock::read(zebra::rules::Rules::ChessEleven, tc).unwrap(),
        seed: 7,
        ..GameSetup::default()
    };
    cfg
}

fn eleven_game(white: BotSpec, black: BotSpec, cfg: &GameConfig) -> GameReport {
    let rt = runtime();
    let report = rt.block_on(zebra::referee::play_game(&white, &black, cfg, |_| {}));
    zebra::record::verify_any(&report.record)
        .unwrap_or_else(|d| panic!("record does not verify: {d}"));
    report
}

/// The lines of a transcript that are requests to or replies from `side`, with their ids.
fn exchanges(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("\"type\":\"request\"") || l.contains("\"type\":\"action\""))
        .map(|l| {
            let side = if l.contains(" white ") {
                "white"
            } else {
                "black"
            };
            let what = if l.contains("\"type\":\"request\"") {
                "asked"
            } else {
                "replied"
            };
            let id = l
                .split("\"id\":")
                .nth(1)
                .unwrap_or("")
                .split(',')
                .next()
                .unwrap_or("");
            format!("{side} {what} {id}")
        })
        .collect()
}

/// Version 2 and a sealed pair: Black, asked again after a bad formation, is not told
/// White's formation in `since` before its own is in; once it is, both come, in order.
#[test]
fn version_2_withholds_the_first_sealed_formation_from_the_second_side_asked_again() {
    let dir = scratch("sealed-v2");
    let mut cfg = eleven("turns=2,move=5s,formation=20s");
    cfg.sandbox.mode = zebra::sandbox::Mode::None;
    let log = dir.join("game.log");
    cfg.transcript = Some(log.clone());
    let white = spec("white", TEST_BOT, &["--protocol2"]);
    let black = spec("black", TEST_BOT, &["--protocol2", "--illegal-first", "1"]);
    let r = eleven_game(white, black, &cfg);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    assert_eq!(r.bots[1].illegal, 1, "black's first formation was refused");
    let requests: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.contains(" black < ") && l.contains("\"type\":\"request\""))
        .map(|l| serde_json::from_str(&l[l.find('{').unwrap()..]).unwrap())
        .collect();
    let since =
        |k: usize| -> Vec<String> { serde_json::from_value(requests[k]["since"].clone()).unwrap() };
    // Asked at once with White, then again alone after its bad formation: nothing new.
    assert_eq!(requests[0]["decision"], "formation");
    assert_eq!(since(0), Vec::<String>::new());
    assert_eq!(requests[1]["decision"], "formation", "{}", requests[1]);
    assert_eq!(since(1), Vec::<String>::new(), "White's formation withheld");
    // Its next request tells both formations, White's first.
    let later = since(2);
    assert!(later.len() >= 2, "{later:?}");
    assert!(
        later[0].starts_with('[') && later[1].starts_with('['),
        "{later:?}"
    );
    let record: Vec<String> = r.record.entries.iter().map(|e| e.to_string()).collect();
    assert_eq!(later[..2], record[..2]);
}

#[test]
fn c11_both_formations_are_asked_at_once_each_on_its_own_clock() {
    // Each bot, asked its first formation, leaves a file and waits (up to 30 s) for the
    // other's: asked one after the other, White would wait alone until its formation clock
    // (40 s) ran out. Asked at once, they meet. No sandbox: both see the same directory.
    let dir = scratch("sealed-meet");
    let (w, b) = (dir.join("white"), dir.join("black"));
    let meet = |mine: &Path, theirs: &Path| {
        spec(
            "meet",
            TEST_BOT,
            &[
                "--write",
                mine.to_str().unwrap(),
                "--wait-for",
                theirs.to_str().unwrap(),
            ],
        )
    };
    let mut cfg = eleven("turns=2,move=5s,formation=40s");
    cfg.sandbox.mode = zebra::sandbox::Mode::None;
    let log = dir.join("game.log");
    cfg.transcript = Some(log.clone());
    let r = eleven_game(meet(&w, &b), meet(&b, &w), &cfg);
    assert_eq!(r.termination, Termination::Normal, "{}", r.reason);
    for (bot, side) in r.bots.iter().zip(["white", "black"]) {
        assert_eq!(bot.timeouts, 0, "{side} timed out: {}", r.reason);
        let stderr = bot
            .exit
            .as_ref()
            .map(|e| String::from_utf8_lossy(&e.stderr).into_owned())
            .unwrap_or_default();
        assert!(stderr.contains(": found"), "{side}'s stderr: {stderr}");
    }
    // Both requests went out before either reply came; the rest of the game is one
    // decision at a time.
    let seen = exchanges(&std::fs::read_to_string(&log).unwrap());
    assert_eq!(seen[..2], ["white asked 1", "black asked 2"], "{seen:?}");
    let mut replies = seen[2..4].to_vec();
    replies.sort();
    assert_eq!(replies, ["black replied 2", "white replied 1"], "{seen:?}");
    assert_eq!(seen[4], "white asked 3", "{seen:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn c11_a_sealed_formation_missed_or_refused_costs_only_its_own_side() {
    // White sleeps through its formation clock: the default formation (C48). Black's first
    // reply is illegal: it is asked again, alone, once White's formation is in. The record
    // is the game's order: White's formation, then Black's.
    let cfg = eleven("turns=2,move=5s,formation=500ms,grace=100ms");
    let r = eleven_game(
        spec(
            "sleepy",
            TEST_BOT,
            &["--sleep-ms", "1500", "--sleep-after", "0"],
        ),
        spec("wrong", TEST_BOT, &["--illegal-first", "1"]),
        &cfg,
    );
    let [white, black] = &r.bots;
    assert!(white.timeouts >= 1, "{}", r.reason);
    assert_eq!(black.illegal, 1, "{}", r.reason);
    assert_eq!(black.timeouts, 0, "{}", r.reason);
    // White's missed formation (the default one, C48) comes first, then Black's.
    let text = write_game(&r.record).unwrap();
    let black_default = zebra::games::chess_eleven::formation::default_for(Side::Black);
    let first =
        format!("{{formations, half 1, white to kick off}} !reaction-clock\n  {black_default}");
    assert!(text.contains(&first), "{text}");
}
