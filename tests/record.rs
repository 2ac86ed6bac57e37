//! Game records: write, read, verify (crates/engine/src/record/, protocol/RECORD.md).
//!
//! Records come from seeded random games: `RandomPlayer` chooses the actions; quarters of a
//! few plays, and timed games refereed by the referee's own clock code with random
//! thinking times: the game clock runs as R17 and R70 say and `!game-clock` is reported
//! when it runs out; a time over a decision's limit is a missed decision. Every failure
//! names its seed.
//!
//! The golden file `tests/data/records/golden.pgn` is compared byte for byte. After a
//! deliberate change of the format or of the engine, rewrite it with
//!
//! ```text
//! ZEBRA_REGENERATE=1 cargo test --release --test record
//! ```
//!
//! and review the diff; the example in protocol/RECORD.md is its first game.

use std::path::PathBuf;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zebra::record::{
    read_games, tags, verify, verify_text, write::WIDTH, write_game, DivergenceKind, Entry,
    GameRecord, RecordError, Termination,
};
use zebra::referee::{Clocks, Miss, Missed, Refereed, TimeControl};
use zebra::rules::playout::RandomPlayer;
use zebra::rules::{Action, ActionError, ActionList, Clock, Game, GameResult, Settings, Side};

// ---- building records from random games ----

/// A whole random game in quarters of `plays` plays, with thinking times.
fn plays_record(seed: u64, plays: u16) -> GameRecord {
    let settings = Settings::plays(plays);
    let mut game = Game::new(settings);
    let mut rec = GameRecord::new(settings);
    rec.tags.set(tags::SEED, seed.to_string());
    rec.tags.set(tags::TIME_CONTROL, format!("plays={plays}"));
    let mut player = RandomPlayer::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut list = ActionList::new();
    while let Some(action) = player.choose(&game, &mut list) {
        game.apply(&action)
            .unwrap_or_else(|e| panic!("seed {seed}: {action}: {e}"));
        let emt = rng.gen_bool(0.9).then(|| rng.gen_range(0..3000));
        rec.push_action(action, emt, None);
    }
    rec.finish(&game, Termination::Normal, None);
    rec
}

/// A whole random timed game with quarters of `quarter_ms` of game clock, refereed by the
/// referee's own clock code (`Clocks` and the game's `Refereed` side): thinking times are
/// drawn at random, a time over the limit is a missed decision, and the game clock runs
/// out as the referee reports it (R17, R70).
fn timed_record(seed: u64, quarter_ms: u64) -> GameRecord {
    let settings = Settings::timed();
    let mut game = Game::new(settings);
    let mut rec = GameRecord::new(settings);
    rec.tags.set(tags::SEED, seed.to_string());
    rec.tags.set(
        tags::TIME_CONTROL,
        format!("quarter={}s", quarter_ms / 1000),
    );
    let tc = TimeControl::parse(&format!("quarter={quarter_ms}ms,play=12s,reaction=2800ms"))
        .expect("a time control");
    let mut clocks = Clocks::new(tc);
    let mut player = RandomPlayer::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xc10c);
    let mut list = ActionList::new();
    while game.decision().is_some() {
        assert!(
            rec.entries.len() < 100_000,
            "seed {seed}: the game does not end"
        );
        let budget = game.budget(&clocks);
        let emt = Duration::from_millis(rng.gen_range(0..3000));
        let mut events = if emt > budget.limit {
            match game
                .miss(&mut clocks, &budget, Miss::Timeout)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
            {
                Missed::Consequence { clock, events } => {
                    rec.push_expiry(clock);
                    events
                }
                other => panic!("seed {seed}: {other:?}"),
            }
        } else {
            let action = player.choose(&game, &mut list).expect("a decision is due");
            let events = game
                .apply(&action)
                .unwrap_or_else(|e| panic!("seed {seed}: {action}: {e}"))
                .to_vec();
            let left = <Game as Refereed>::clock_note(&clocks, &budget, emt);
            rec.push_action(action, Some(emt.as_millis() as u64), left);
            events
        };
        let (more, expired) = game
            .charge(&mut clocks, &budget, emt, &events)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if let Some(clock) = expired {
            rec.push_expiry(clock);
        }
        events.extend(more);
        game.follow(&mut clocks, &events);
    }
    rec.finish(&game, Termination::Normal, None);
    rec
}

/// The records most tests run on: short play-count games and short timed games.
fn sample_records() -> Vec<(String, GameRecord)> {
    let mut out = Vec::new();
    for seed in 0..40 {
        out.push((
            format!("plays seed {seed}"),
            plays_record(seed, 1 + (seed % 3) as u16),
        ));
    }
    for seed in 0..12 {
        out.push((format!("timed seed {seed}"), timed_record(seed, 8_000)));
    }
    out
}

/// The game after the first `n` entries.
fn replay(rec: &GameRecord, n: usize) -> Game {
    let mut game = Game::new(rec.settings().unwrap());
    for e in &rec.entries[..n] {
        e.apply_to(&mut game).unwrap();
    }
    game
}

fn write(rec: &GameRecord) -> String {
    write_game(rec).unwrap_or_else(|e| panic!("write: {e}"))
}

fn read_one(text: &str) -> GameRecord {
    let mut games = read_games(text).unwrap_or_else(|e| panic!("read: {e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

// ---- round trips ----

#[test]
fn write_read_write_is_identical() {
    let mut expiries = [0usize; 3];
    for (name, rec) in sample_records() {
        let text = write(&rec);
        let back = read_one(&text);
        assert_eq!(back, rec, "{name}: the record read back differs\n{text}");
        assert_eq!(write(&back), text, "{name}: the second write differs");
        for e in &rec.entries {
            if let Entry::Expiry { clock } = e {
                expiries[*clock as usize] += 1;
            }
        }
    }
    assert!(
        expiries.iter().all(|&n| n > 0),
        "the sample lacks an expiry kind: {expiries:?}"
    );
}

#[test]
fn movetext_lines_wrap_and_every_play_starts_a_line() {
    for (name, rec) in sample_records().into_iter().take(10) {
        let text = write(&rec);
        let movetext = text.split_once("\n\n").unwrap().1;
        for line in movetext.lines() {
            // A single token longer than a line is the one allowed overrun.
            let tokens = line.trim().split(' ').count();
            assert!(
                line.len() <= WIDTH || tokens == 1,
                "{name}: long line {line}"
            );
            assert!(
                line.starts_with("{Q") || line.starts_with("  ") || line.is_empty(),
                "{name}: a line neither starts a play nor continues one: {line}"
            );
        }
        assert!(
            text.ends_with(" 1-0\n\n")
                || text.ends_with(" 0-1\n\n")
                || text.ends_with(" 1/2-1/2\n\n")
        );
    }
}

#[test]
fn tags_are_written_in_canonical_order_with_escapes() {
    let mut rec = GameRecord::new(Settings::plays(1));
    rec.tags.set("Annotator", "zebra");
    rec.tags.set(tags::BLACK_VERSION, "2.0");
    rec.tags.set(tags::WHITE, r#"the "best" bot \ v1"#);
    rec.tags.set(tags::EVENT, "Test");
    rec.tags.set("Zulu", "last");
    let text = write(&rec);
    let names: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "RulesVersion",
            "Rulings",
            "QuarterLength",
            "BlackVersion",
            "Annotator",
            "Zulu"
        ]
    );
    assert!(
        text.contains(r#"[White "the \"best\" bot \\ v1"]"#),
        "{text}"
    );
    assert!(text.ends_with("]\n\n*\n\n"), "{text}");
    assert_eq!(read_one(&text), rec);
}

#[test]
fn the_writer_fills_the_roster() {
    let rec = plays_record(3, 1);
    let mut bare = GameRecord {
        tags: Default::default(),
        entries: rec.entries.clone(),
    };
    bare.tags.set(tags::QUARTER_LENGTH, "1");
    // The writer does not add the edition: a record without it is one of edition 1.
    bare.tags.set(tags::RULINGS, tags::RULINGS_VALUE);
    let text = write(&bare);
    let back = read_one(&text);
    assert_eq!(back.tags.get(tags::DATE), Some("????.??.??"));
    // No Result tag: the engine's result.
    assert_eq!(back.tags.get(tags::RESULT), rec.tags.get(tags::RESULT));
    assert!(verify(&back).is_ok());
}

#[test]
fn multi_game_files() {
    let records: Vec<GameRecord> = sample_records()
        .into_iter()
        .step_by(7)
        .map(|(_, r)| r)
        .collect();
    let file: String = records.iter().map(write).collect();
    let back = read_games(&file).unwrap();
    assert_eq!(back, records);
    let verdicts = verify_text(&file).unwrap();
    assert_eq!(verdicts.len(), records.len());
    assert!(verdicts.iter().all(Result::is_ok));

    // CRLF line ends, extra blank lines and no trailing newline read the same.
    let crlf = format!("\n\n{}", file.replace('\n', "\r\n").trim_end());
    assert_eq!(read_games(&crlf).unwrap(), records);
    assert_eq!(read_games("").unwrap(), vec![]);
    assert_eq!(read_games("\n  \n").unwrap(), vec![]);
}

#[test]
fn a_hand_written_record_reads() {
    let text = "\
; a comment line before the game
{and a brace comment}
[QuarterLength \"1\"]
[Event \"hand\"]
[Result \"*\"]

[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]{[%emt 1.5]}[Pd6,Pe6,Qe7,Nc7,Bf7,Rd8,Rg6] { a comment
that spans [%clk 0:00:07.1] lines } c4>b3 ; the rest of this line is a comment
pass snap {[%eval 0.3] other commands are ignored} *
";
    let rec = read_one(text);
    assert_eq!(rec.entries.len(), 5);
    assert_eq!(
        rec.entries[0],
        Entry::Action {
            action: "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse().unwrap(),
            emt_ms: Some(1500),
            clk_ms: None,
            cpu_ms: None
        }
    );
    assert!(matches!(
        rec.entries[1],
        Entry::Action {
            clk_ms: Some(7100),
            ..
        }
    ));
    assert_eq!(rec.entries[4], Entry::action(Action::Snap));
    assert_eq!(rec.tags.iter().next(), Some(("Event", "hand")));
    let mut stopped = GameRecord {
        tags: {
            let mut t = rec.tags.clone();
            t.set(tags::TERMINATION, "unterminated");
            t
        },
        ..rec.clone()
    };
    // Without a Rulings tag it is a record of edition 1, which the engine does not judge.
    assert!(verify(&stopped).unwrap_err().is_other_edition());
    stopped.tags.set(tags::RULINGS, tags::RULINGS_VALUE);
    let v = verify(&stopped).unwrap();
    assert_eq!((v.actions, v.expiries, v.snaps), (5, 0, 1));
    // The canonical text adds the missing roster tags and reads back the same.
    let canonical = read_one(&write(&rec));
    assert_eq!(canonical.entries, rec.entries);
    assert_eq!(canonical.tags.get(tags::SITE), Some("?"));
    assert_eq!(write(&canonical), write(&rec));
}

// ---- verification ----

#[test]
fn verify_accepts_every_random_game() {
    for (name, rec) in sample_records() {
        let v = verify(&rec).unwrap_or_else(|d| panic!("{name}: {d}"));
        assert!(v.game.is_over(), "{name}");
        assert_eq!(v.result, v.game.result(), "{name}");
        assert_eq!(v.termination, Termination::Normal);
        assert_eq!(v.actions + v.expiries, rec.entries.len(), "{name}");
        assert!(v.snaps > 0, "{name}");
        // Through the text as well.
        let again = verify_text(&write(&rec)).unwrap();
        let summary = zebra::record::Summary {
            rules: zebra::rules::Rules::FootballChess,
            termination: v.termination,
            result: v.result,
            actions: v.actions,
            expiries: v.expiries,
            snaps: v.snaps,
        };
        assert_eq!(again, vec![Ok(summary)], "{name}");
    }
}

#[test]
fn verify_catches_a_tampered_action_at_its_index() {
    for (name, rec) in sample_records() {
        let mut rng = ChaCha8Rng::seed_from_u64(rec.entries.len() as u64);
        let index = rng.gen_range(0..rec.entries.len());
        let game = replay(&rec, index);
        // Snap is refused outside motion, decline outside a penalty choice: one of the two
        // is always refused.
        let bad = [Action::Snap, Action::Decline]
            .into_iter()
            .find(|a| game.clone().apply(a).is_err())
            .unwrap();
        let mut tampered = rec.clone();
        tampered.entries[index] = Entry::action(bad);
        let d = verify(&tampered).unwrap_err();
        assert_eq!(d.index, index, "{name}: {d}");
        assert!(
            matches!(&d.kind, DivergenceKind::ActionRejected { action, .. } if *action == bad.to_string()),
            "{name}: {d}"
        );
        assert!(
            d.to_string().starts_with(&format!("entry {index} (Q")),
            "{name}: {d}"
        );
        // The writer refuses it too, naming the same entry.
        match write_game(&tampered) {
            Err(RecordError::Replay { index: i, .. }) => assert_eq!(i, index, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn verify_catches_a_bad_expiry() {
    // Play-count quarters have no game clock to run out.
    let mut rec = plays_record(5, 2);
    rec.entries.insert(9, Entry::Expiry { clock: Clock::Game });
    let d = verify(&rec).unwrap_err();
    assert_eq!(d.index, 9);
    // The engine's reason (ActionError::ClockNotRunning), as its typed error words it.
    let DivergenceKind::ExpiryRejected {
        clock: Clock::Game,
        error,
    } = &d.kind
    else {
        panic!("{d}");
    };
    assert!(error.to_string().contains("does not run now"), "{error}");
}

#[test]
fn verify_catches_a_wrong_score() {
    for (name, mut rec) in sample_records().into_iter().step_by(5) {
        rec.tags.set(tags::SCORE, "99-0");
        let d = verify(&rec).unwrap_err();
        assert_eq!(d.index, rec.entries.len(), "{name}");
        assert_eq!(d.play, "game over");
        assert!(
            matches!(d.kind, DivergenceKind::Score { .. }),
            "{name}: {d}"
        );
    }
}

#[test]
fn verify_catches_a_wrong_result() {
    for (name, mut rec) in sample_records().into_iter().step_by(5) {
        let wrong = match rec.result().unwrap() {
            Some(GameResult::Win(Side::White)) => "0-1",
            _ => "1-0",
        };
        rec.tags.set(tags::RESULT, wrong);
        let d = verify(&rec).unwrap_err();
        assert_eq!(d.index, rec.entries.len(), "{name}");
        assert!(
            matches!(d.kind, DivergenceKind::Result { tag, .. } if tag == wrong),
            "{name}: {d}"
        );
        // The text carries the wrong result consistently, and verifies the same way.
        assert_eq!(verify_text(&write(&rec)).unwrap(), vec![Err(d)]);
    }
}

#[test]
fn verify_catches_a_truncated_game() {
    for (name, rec) in sample_records().into_iter().step_by(3) {
        let keep = rec.entries.len() / 2;
        let mut cut = rec.clone();
        cut.entries.truncate(keep);
        let d = verify(&cut).unwrap_err();
        assert_eq!(d.index, keep, "{name}");
        assert!(
            matches!(d.kind, DivergenceKind::NotOver { .. }),
            "{name}: {d}"
        );
        assert!(d.play.starts_with('Q'), "{name}: {d}");
        // Also when it arrives as text.
        assert_eq!(verify_text(&write(&cut)).unwrap(), vec![Err(d)]);
    }
}

/// A game stopped at the referee's wall-time cap (`adjudication`): it verifies with the
/// adjudication rule's result for the game as it stands (the team ahead on score, or a
/// draw), and with no other; the claim after the engine's end is a divergence.
#[test]
fn an_adjudicated_record_verifies_only_with_the_adjudicated_result() {
    let mut wins = 0;
    for (name, rec) in sample_records().into_iter().step_by(4) {
        for keep in [rec.entries.len() / 4, rec.entries.len() * 3 / 4] {
            let game = replay(&rec, keep);
            if game.is_over() {
                continue;
            }
            let rule = match game.score(Side::White).cmp(&game.score(Side::Black)) {
                std::cmp::Ordering::Greater => GameResult::Win(Side::White),
                std::cmp::Ordering::Less => GameResult::Win(Side::Black),
                std::cmp::Ordering::Equal => GameResult::Draw,
            };
            wins += usize::from(rule != GameResult::Draw);
            let mut cut = rec.clone();
            cut.entries.truncate(keep);
            cut.finish(&game, Termination::Adjudication, Some(rule));
            cut.tags.set(
                tags::TERMINATION_REASON,
                "wall-time cap of 3s reached; adjudicated at the score",
            );
            let v = verify(&cut).unwrap_or_else(|d| panic!("{name} at {keep}: {d}"));
            assert_eq!(
                (v.termination, v.result),
                (Termination::Adjudication, Some(rule))
            );
            // Through text, as `zebra verify` reads it.
            assert_eq!(verify_text(&write(&cut)).unwrap().len(), 1);
            assert!(verify_text(&write(&cut)).unwrap()[0].is_ok(), "{name}");
            for tampered in [
                Some(GameResult::Win(Side::White)),
                Some(GameResult::Win(Side::Black)),
                Some(GameResult::Draw),
                None,
            ] {
                if tampered == Some(rule) {
                    continue;
                }
                cut.finish(&game, Termination::Adjudication, tampered);
                let d = verify(&cut).unwrap_err();
                assert!(
                    matches!(d.kind, DivergenceKind::Adjudication { .. }),
                    "{name}: {d}"
                );
                assert_eq!(d.index, keep);
                assert!(d.to_string().contains(rule.pgn()), "{d}");
            }
        }
    }
    assert!(wins > 0, "some sample was ahead on score when cut");
    // An adjudication claimed after the engine's end is a divergence.
    let mut full = plays_record(11, 2);
    full.tags.set(tags::TERMINATION, "adjudication");
    let d = verify(&full).unwrap_err();
    assert!(matches!(d.kind, DivergenceKind::AlreadyOver { .. }), "{d}");
}

#[test]
fn forfeits_end_before_the_engine() {
    let rec = plays_record(11, 2);
    let keep = rec.entries.len() / 3;
    let game = replay(&rec, keep);
    let mut cut = rec.clone();
    cut.entries.truncate(keep);

    cut.finish(
        &game,
        Termination::TimeForfeit,
        Some(GameResult::Win(Side::Black)),
    );
    let v = verify(&cut).unwrap();
    assert_eq!(v.result, Some(GameResult::Win(Side::Black)));
    assert_eq!(v.termination, Termination::TimeForfeit);
    assert!(!v.game.is_over());
    assert_eq!(read_one(&write(&cut)), cut);

    for (termination, result, ok) in [
        (
            Termination::RulesInfraction,
            Some(GameResult::Win(Side::White)),
            true,
        ),
        (Termination::RulesInfraction, Some(GameResult::Draw), false),
        (Termination::TimeForfeit, None, false),
        (Termination::Abandoned, None, true),
        (Termination::Abandoned, Some(GameResult::Draw), true),
        (Termination::Unterminated, None, true),
    ] {
        cut.finish(&game, termination, result);
        match verify(&cut) {
            Ok(_) => assert!(ok, "{termination} {result:?}"),
            Err(d) => {
                assert!(!ok, "{termination} {result:?}: {d}");
                assert!(matches!(d.kind, DivergenceKind::NoWinner { .. }), "{d}");
                assert_eq!(d.index, keep);
            }
        }
    }

    // A forfeit claimed after the engine's end is a divergence.
    let mut full = rec.clone();
    full.tags.set(tags::TERMINATION, "time forfeit");
    let d = verify(&full).unwrap_err();
    assert!(matches!(d.kind, DivergenceKind::AlreadyOver { .. }), "{d}");
    // A Score tag is checked for forfeits too.
    cut.tags.set(tags::SCORE, "7-0");
    if tags::score_value(&game) != "7-0" {
        assert!(matches!(
            verify(&cut).unwrap_err().kind,
            DivergenceKind::Score { .. }
        ));
    }
}

#[test]
fn verify_reports_bad_tags_before_replaying() {
    let rec = plays_record(2, 1);
    for (name, value) in [
        (tags::QUARTER_LENGTH, None),
        (tags::QUARTER_LENGTH, Some("ten")),
        (tags::TERMINATION, Some("resigned")),
        (tags::RESULT, Some("1-1")),
    ] {
        let mut bad = rec.clone();
        match value {
            Some(v) => bad.tags.set(name, v),
            None => drop(bad.tags.remove(name)),
        }
        let d = verify(&bad).unwrap_err();
        assert_eq!((d.index, d.play.as_str()), (0, "tags"), "{d}");
        assert!(matches!(d.kind, DivergenceKind::Tags(_)), "{d}");
        assert!(d.to_string().contains(name), "{d}");
    }
}

#[test]
fn a_record_names_its_rulings_edition_and_another_edition_is_refused_unreplayed() {
    // Written today: the edition of the engine, right after RulesVersion.
    let rec = plays_record(5, 1);
    assert_eq!(tags::RULINGS_VALUE, zebra::rules::RULINGS_EDITION);
    let text = write(&rec);
    assert!(
        text.contains("[RulesVersion \"0.1\"]\n[Rulings \"3\"]\n"),
        "{text}"
    );
    assert!(verify(&read_one(&text)).is_ok());

    // Missing (edition 1), or another edition: refused before anything is replayed, even
    // when the moves would diverge, and shown without an entry.
    let mut tampered = rec.clone();
    tampered.entries.truncate(1);
    tampered.entries.push(Entry::action(Action::Snap));
    tampered.entries.push(Entry::action(Action::Snap));
    for (value, found) in [(None, "1"), (Some("2"), "2"), (Some("4"), "4")] {
        for base in [&rec, &tampered] {
            let mut other = base.clone();
            match value {
                Some(v) => other.tags.set(tags::RULINGS, v),
                None => drop(other.tags.remove(tags::RULINGS)),
            }
            let d = verify(&other).unwrap_err();
            assert!(d.is_other_edition(), "{d}");
            assert!(matches!(d.kind, DivergenceKind::Edition(_)), "{d}");
            assert_eq!(
                d.to_string(),
                format!("played under rulings edition {found}; this zebra judges edition 3 only")
            );
        }
    }
    // The reader reads an old record as it is: the tag is not added.
    let old = text.replace("[Rulings \"3\"]\n", "");
    let back = read_one(&old);
    assert_eq!(back.tags.get(tags::RULINGS), None);
    assert!(verify_text(&old).unwrap()[0]
        .as_ref()
        .unwrap_err()
        .is_other_edition());
}

// ---- bad input ----

/// Whether an error is the expected one.
type ErrorCheck = fn(&RecordError) -> bool;

#[test]
fn the_writer_refuses_records_it_could_not_read_back() {
    let rec = plays_record(4, 1);
    let cases: Vec<(GameRecord, ErrorCheck)> = vec![
        (
            {
                let mut r = rec.clone();
                r.tags.remove(tags::QUARTER_LENGTH);
                r
            },
            |e| *e == RecordError::MissingTag(tags::QUARTER_LENGTH),
        ),
        (
            {
                let mut r = rec.clone();
                r.tags.set("Bad Name", "x");
                r
            },
            |e| matches!(e, RecordError::BadTagName(_)),
        ),
        (
            {
                let mut r = rec.clone();
                r.tags.set(tags::SITE, "two\nlines");
                r
            },
            |e| matches!(e, RecordError::BadTagValue { .. }),
        ),
        (
            {
                let mut r = rec.clone();
                r.tags.set(tags::RESULT, "white wins");
                r
            },
            |e| matches!(e, RecordError::BadTagValue { .. }),
        ),
        (
            {
                let mut r = rec.clone();
                r.entries.push(Entry::action(Action::Pass));
                r
            },
            |e| {
                matches!(
                    e,
                    RecordError::Replay { error, .. }
                        if error.to_string() == ActionError::GameOver.to_string()
                )
            },
        ),
    ];
    for (r, expected) in cases {
        let e = write_game(&r).unwrap_err();
        assert!(expected(&e), "{e:?}");
    }
}

#[test]
fn malformed_input_names_the_line() {
    let tags = "[Event \"x\"]\n[QuarterLength \"1\"]\n[Result \"*\"]\n\n";
    let cases: &[(&str, usize, &str)] = &[
        (
            "[Event \"x\"]\n{never closed\n\n",
            2,
            "unterminated comment",
        ),
        ("[Event \"x\"]\n[Site x]\n", 2, "bad tag line"),
        ("[Event \"x\"]\n[Site \"x\"] trailing\n", 2, "bad tag line"),
        ("[Event \"x\"]\n[Event \"y\"]\n", 2, "given twice"),
        ("\n\nsnap e4e5 castle *\n", 3, "unknown token 'castle'"),
        ("snap\n!shot-clock *\n", 2, "unknown token '!shot-clock'"),
        ("snap\n[Pz9] *\n", 2, "unknown token '[Pz9]'"),
        ("snap pass\n\n", 2, "missing result"),
        ("[Event \"x\"]\n", 1, "missing result"),
        ("snap\n\n[Event \"y\"]\nsnap *\n", 3, "missing result"),
        (
            "[Result \"1-0\"]\nsnap 0-1\n",
            2,
            "differs from the Result tag",
        ),
        ("snap * snap\n", 1, "text after the result"),
        ("snap {[%emt soon]} *\n", 1, "bad command"),
        ("snap {[%clk 0:00:01 *\n}\n*\n", 1, "bad command"),
        ("{[%emt 1.0]} snap *\n", 1, "follows no action"),
        ("snap !play-clock\n{[%emt 1.0]} *\n", 2, "follows no action"),
    ];
    for &(body, line, words) in cases {
        let mut texts = vec![(body.to_string(), line)];
        // Behind a tag block (four lines) every line moves down by four; bodies that open
        // with their own tags would clash with it.
        if !body.starts_with('[') {
            texts.push((format!("{tags}{body}"), line + 4));
        }
        for (text, line) in texts {
            let e = read_games(&text).unwrap_err();
            assert_eq!(e.line(), Some(line), "{text:?}: {e}");
            let message = e.to_string();
            assert!(
                message.starts_with(&format!("line {line}: ")) && message.contains(words),
                "{text:?}: {message}"
            );
        }
    }
}

#[test]
fn mutated_text_never_panics() {
    let text = write(&timed_record(1, 6_000));
    let alphabet: Vec<char> = "{}[]\"\\;!%*/-01 \n\tabcdeh8^>@:.".chars().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let (mut read, mut verified) = (0, 0);
    for _ in 0..600 {
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..rng.gen_range(1..4) {
            let at = rng.gen_range(0..chars.len());
            match rng.gen_range(0..4) {
                0 => chars.truncate(at),
                1 => {
                    let end = (at + rng.gen_range(1..20)).min(chars.len());
                    chars.drain(at..end);
                }
                2 => chars.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                _ => chars[at] = alphabet[rng.gen_range(0..alphabet.len())],
            }
            if chars.is_empty() {
                break;
            }
        }
        let mutated: String = chars.into_iter().collect();
        if let Ok(games) = read_games(&mutated) {
            read += 1;
            for g in &games {
                if verify(g).is_ok() {
                    verified += 1;
                }
                // Whatever reads must either write or give a typed error.
                let _ = write_game(g);
            }
        }
    }
    // The mutations hit comments often, so some texts still read and verify.
    assert!(read > 0 && verified > 0, "read {read}, verified {verified}");
}

// ---- the golden file and the documented example ----

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/golden.pgn")
}

/// The games of the golden file: the documented example (a short timed game), a whole
/// play-count game, and a game lost on time with tags that need escaping.
fn golden_games() -> Vec<GameRecord> {
    let mut example = timed_record(EXAMPLE_SEED, 4_000);
    for (name, value) in [
        (tags::EVENT, "RECORD.md example"),
        (tags::SITE, "zebra"),
        (tags::DATE, "2025.04.12"),
        (tags::ROUND, "1"),
        (tags::WHITE, "random"),
        (tags::BLACK, "random"),
        (tags::WHITE_VERSION, "0.1.0"),
        (tags::BLACK_VERSION, "0.1.0"),
    ] {
        example.tags.set(name, value);
    }

    let mut whole = plays_record(144, 1);
    whole.tags.set(tags::EVENT, "golden");

    let full = plays_record(8, 2);
    let keep = full.entries.len() * 2 / 3;
    let mut forfeit = GameRecord {
        tags: full.tags.clone(),
        entries: full.entries[..keep].to_vec(),
    };
    forfeit.finish(
        &replay(&full, keep),
        Termination::TimeForfeit,
        Some(GameResult::Win(Side::Black)),
    );
    forfeit
        .tags
        .set(tags::EVENT, r#"golden "forfeit" \ escapes"#);
    forfeit.tags.set(tags::WHITE, "slow");
    forfeit.tags.set(
        tags::TERMINATION_REASON,
        "white overran the hard limit of 10 s",
    );
    forfeit.tags.set("Annotator", "tests/record.rs");
    vec![example, whole, forfeit]
}

/// The seed of the example: a timed game short enough to read.
const EXAMPLE_SEED: u64 = 38;

#[test]
fn golden_file() {
    let games = golden_games();
    let text: String = games.iter().map(write).collect();
    let path = golden_path();
    if std::env::var_os("ZEBRA_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (ZEBRA_REGENERATE=1 writes it)", path.display()));
    assert!(
        golden == text,
        "{} differs from the records written now; if the change is deliberate, rerun with \
         ZEBRA_REGENERATE=1 and review the diff",
        path.display()
    );
    assert_eq!(read_games(&golden).unwrap(), games);
    let verdicts = verify_text(&golden).unwrap();
    assert!(verdicts.iter().all(Result::is_ok), "{verdicts:?}");
}

#[test]
fn the_documented_example_is_the_first_golden_game() {
    let doc_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol/RECORD.md");
    let doc = std::fs::read_to_string(doc_path).unwrap();
    let example = write(&golden_games()[0]);
    let block = doc
        .split("```pgn\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("protocol/RECORD.md has a ```pgn block");
    assert_eq!(
        block.trim_end(),
        example.trim_end(),
        "the example in protocol/RECORD.md is not the first game of the golden file:\n{example}"
    );
    assert!(verify_text(block).unwrap()[0].is_ok());
}

/// A record of a game Zebra was interrupted in: cut in the middle, it ends unterminated
/// with Result `*`; whole (the game was over, its bots quitting), it ends normally with
/// the engine's result. Either way it verifies.
#[test]
fn an_interrupted_record_ends_unterminated_or_with_its_result() {
    let mut actions = Vec::new();
    let end = zebra::rules::playout::play_random_game(Game::new(Settings::plays(2)), 11, |_, a| {
        actions.push(*a)
    });
    let record = |n: usize| {
        let mut rec = GameRecord::new(Settings::plays(2));
        for a in &actions[..n] {
            rec.push_action(*a, None, None);
        }
        rec
    };
    let mut cut = record(actions.len() / 2);
    assert!(!cut.finish_interrupted().unwrap());
    assert_eq!(cut.termination().unwrap(), Termination::Unterminated);
    assert_eq!(cut.result().unwrap(), None);
    assert!(verify(&cut).is_ok());
    let mut whole = record(actions.len());
    assert!(whole.finish_interrupted().unwrap());
    assert_eq!(whole.termination().unwrap(), Termination::Normal);
    assert_eq!(whole.result().unwrap(), end.result());
    assert!(verify(&whole).is_ok());
}
