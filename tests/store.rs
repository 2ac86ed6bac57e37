//! The daemon's store: migrations, refusals at open, idempotent submission, and the games
//! table as a queue (leases, voided attempts, stale finishes, cancel).

use std::path::PathBuf;

use zebra::rules::Rules;
use zebra::server::store::{
    record_hash, BotState, Finished, GameEnd, Lease, NewGame, Store, StoreError, Submitted, DB_FILE,
};

mod common;
#[path = "common/postgres.rs"]
mod postgres_cluster;

use common::run::scratch;
use zebra::server::store::Database;

/// The database a test's store is on: SQLite in its directory, or a database of its own on
/// the test suite's PostgreSQL server (the archives stay in the directory).
enum Db {
    Sqlite,
    Postgres(String),
}

impl Db {
    /// A scratch directory of the test's own: the SQLite and PostgreSQL runs of one test
    /// run at once, and `scratch` empties the directory it gives.
    fn scratch(&self, name: &str) -> PathBuf {
        match self {
            Db::Sqlite => scratch(&format!("{name}-sqlite")),
            Db::Postgres(_) => scratch(&format!("{name}-postgres")),
        }
    }

    fn open(&self, dir: &std::path::Path) -> Store {
        match self {
            Db::Sqlite => Store::open(dir),
            Db::Postgres(url) => Store::open_on(dir, &Database::Postgres(url.clone())),
        }
        .unwrap()
    }
}

/// Each test of the store's behaviour, once on each database.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                super::$name(&super::Db::Sqlite)
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                let url = crate::postgres_cluster::database(stringify!($name));
                super::$name(&super::Db::Postgres(url))
            })*
        }
    };
}

on_both!(
    an_exclusive_step_keeps_all_or_nothing_of_what_it_wrote,
    the_pages_reads_answer_alike_on_both_databases,
    a_name_registered_again_by_its_owner_is_the_next_version_and_retires_the_last_once_checked,
    a_series_submitted_again_under_its_key_is_the_same_series,
    games_are_leased_in_order_and_a_finish_counts_once,
    a_lease_that_runs_out_is_voided_and_the_game_played_again_up_to_its_attempts,
    after_a_crash_the_running_games_are_voided_and_played_again,
    a_restarted_daemon_voids_its_own_leases_and_leaves_a_remote_worker_s_to_run_out,
    a_worker_without_the_same_programs_leases_only_games_of_uploaded_bots,
    an_excluded_owner_s_workers_get_nothing_under_any_name,
    a_cancelled_series_leases_nothing_more,
    records_are_kept_with_their_game_once_by_content_and_bad_hashes_are_not_paths,
    only_active_bots_play_and_a_concluded_series_cancels_what_is_queued,
    tokens_are_found_by_their_hash_only,
    deleting_a_bot_cancels_its_running_series_and_frees_its_archive_only_when_unshared,
    checks_take_turns_among_owners_and_a_deleted_bot_is_never_checked_admitted_or_entered,
    an_excluded_worker_s_replayed_games_leave_its_figures
);

/// Stores a game's end with its record, if the lease holds.
fn finish(store: &mut Store, lease: &Lease, result: &str, record: &str, now: i64) -> Finished {
    let end = GameEnd {
        number: lease.number,
        result: result.to_string(),
        termination: "normal".to_string(),
        conduct: "[]".to_string(),
        record: record_hash(record),
    };
    store.finish(lease, &end, record, now).unwrap()
}

/// A store with two bots and a series of `n` games between them.
fn with_series(db: &Db, name: &str, n: u32) -> (PathBuf, Store, i64) {
    let dir = db.scratch(name);
    let mut store = db.open(&dir);
    let a = store
        .add_bot("north", r#"{"command":"a"}"#, "admin", 1)
        .unwrap();
    let b = store
        .add_bot("south", r#"{"command":"b"}"#, "ann", 1)
        .unwrap();
    for id in [a, b] {
        store.set_bot_state(id, BotState::Active, None).unwrap();
    }
    let games: Vec<NewGame> = (1..=n)
        .map(|number| NewGame {
            number,
            seed: u64::MAX - u64::from(number),
            white: if number % 2 == 1 { a } else { b },
            black: if number % 2 == 1 { b } else { a },
        })
        .collect();
    let Submitted::Created(series) = store.submit(Some("k1"), "{}", "ann", &games, 2).unwrap()
    else {
        panic!("a new series")
    };
    (dir, store, series)
}

#[test]
fn a_new_store_is_migrated_and_reopens_as_it_was() {
    let dir = scratch("open");
    let mut store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    let id = store.add_bot("north", "{}", "ann", 1).unwrap();
    assert!(matches!(
        store.add_bot("north", "{}", "bob", 2),
        Err(StoreError::BotExists(name)) if name == "north"
    ));
    drop(store);
    let mut again = Store::open(&dir).unwrap();
    assert_eq!(again.schema_version().unwrap(), 10);
    assert!(matches!(
        again.add_bot("north", "{}", "ann", 3),
        Err(StoreError::BotExists(_))
    ));
    let bot = again.bot(id).unwrap().unwrap();
    assert_eq!(
        (bot.name.as_str(), bot.owner.as_str(), bot.state),
        ("north", "ann", BotState::Pending)
    );
    assert_eq!(again.bots().unwrap(), vec![bot]);
}

fn entry(name: &str) -> zebra::series::BotEntry {
    serde_json::from_value(serde_json::json!({"name": name, "command": "bot"})).unwrap()
}

fn a_name_registered_again_by_its_owner_is_the_next_version_and_retires_the_last_once_checked(
    db: &Db,
) {
    let dir = db.scratch("versions");
    let mut store = db.open(&dir);
    let first = store.add_version(&mut entry("north"), "ann", 1).unwrap();
    assert_eq!((first.name.as_str(), first.version), ("north", 1));
    // Another owner cannot take the name, nor its next version.
    assert!(matches!(
        store.add_version(&mut entry("north"), "bob", 2),
        Err(StoreError::BotExists(name)) if name == "north"
    ));
    let mut second_entry = entry("north");
    let second = store.add_version(&mut second_entry, "ann", 3).unwrap();
    assert_eq!((second.name.as_str(), second.version), ("north v2", 2));
    // The stored spec names the version, as its records will.
    assert_eq!(second_entry.name, "north v2");
    let row = store.bot(second.id).unwrap().unwrap();
    assert!(row.spec.contains("\"north v2\""), "{}", row.spec);
    assert_eq!((row.family.as_str(), row.version), ("north", 2));
    // The first retires only when the next has passed its check.
    store
        .set_bot_state(first.id, BotState::Active, None)
        .unwrap();
    assert_eq!(store.bot(first.id).unwrap().unwrap().superseded_by, None);
    store
        .set_bot_state(second.id, BotState::Rejected, None)
        .unwrap();
    assert_eq!(store.bot(first.id).unwrap().unwrap().superseded_by, None);
    let third = store.add_version(&mut entry("north"), "ann", 4).unwrap();
    assert_eq!(third.name, "north v3");
    store
        .set_bot_state(third.id, BotState::Active, None)
        .unwrap();
    assert_eq!(
        store.bot(first.id).unwrap().unwrap().superseded_by,
        Some(third.id)
    );
    assert_eq!(store.bot(third.id).unwrap().unwrap().superseded_by, None);
    // A version's name that would be too long for records is refused, nothing written.
    let long = "n".repeat(118);
    store.add_version(&mut entry(&long), "ann", 5).unwrap();
    assert!(matches!(
        store.add_version(&mut entry(&long), "ann", 6),
        Err(StoreError::VersionName(why)) if why.contains("shorter name")
    ));
    assert_eq!(store.bots().unwrap().len(), 4);
}

/// Schema 4 undone: the database as a Zebra of schema 3 left it.
/// Schema 5 back to 4, as a Zebra before remote workers left it: its tokens table's CHECK
/// knew no `worker` scope.
/// Schema 9 back to 5: no live games, no finish order, no games by bot, no invites, no archive sizes, no
/// deletions.
const DOWN_TO_5: &str =
    "DROP TABLE records; DROP TABLE live_games; DROP INDEX games_by_fin_seq; ALTER TABLE games DROP COLUMN fin_seq; \
     DROP TABLE counters; DROP INDEX games_by_white; DROP INDEX games_by_black; \
     DROP INDEX bots_by_owner; DROP INDEX series_by_owner; \
     ALTER TABLE bots DROP COLUMN deleted_ms; ALTER TABLE bots DROP COLUMN bytes; \
     CREATE TABLE tokens_v5 (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, \
       scope TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin', 'worker')), \
       owner TEXT NOT NULL, created_ms INTEGER NOT NULL); \
     INSERT INTO tokens_v5 SELECT id, hash, scope, owner, created_ms FROM tokens; \
     DROP TABLE tokens; ALTER TABLE tokens_v5 RENAME TO tokens; DROP TABLE invites; \
     PRAGMA user_version = 5;";

const DOWN_TO_4: &str = "DROP TABLE workers; ALTER TABLE bots DROP COLUMN archive; \
     ALTER TABLE games DROP COLUMN played_by; \
     CREATE TABLE tokens_v4 (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, \
       scope TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin')), \
       owner TEXT NOT NULL, created_ms INTEGER NOT NULL); \
     INSERT INTO tokens_v4 SELECT id, hash, scope, owner, created_ms FROM tokens; \
     DROP TABLE tokens; ALTER TABLE tokens_v4 RENAME TO tokens; \
     PRAGMA user_version = 4;";

const DOWN_TO_3: &str = "DROP TABLE workers; ALTER TABLE bots DROP COLUMN archive; \
     ALTER TABLE games DROP COLUMN played_by; \
     DROP INDEX series_by_game; DROP TABLE bot_games; \
     ALTER TABLE series DROP COLUMN game; PRAGMA user_version = 3;";

#[test]
fn a_database_of_schema_9_gains_records_and_its_record_files_still_read() {
    let (dir, mut store, _) = with_series(&Db::Sqlite, "schema9", 1);
    let lease = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
    let Finished::Counted { record } = finish(&mut store, &lease, "1-0", "a game\n", 200) else {
        panic!("counted")
    };
    drop(store);
    // As schema 9 kept it: the record a file named by its hash, not a row.
    let shard = dir.join("records").join(&record[..2]);
    std::fs::create_dir_all(&shard).unwrap();
    std::fs::write(shard.join(format!("{record}.pgn")), "a game\n").unwrap();
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch("DROP TABLE records; PRAGMA user_version = 9;")
        .unwrap();
    drop(conn);
    let store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    assert_eq!(store.record(&record).unwrap(), "a game\n");
    let reader = store.record_reader(&Database::Sqlite);
    assert_eq!(reader.read(&record).unwrap(), "a game\n");
}

#[test]
fn a_database_of_schema_4_keeps_its_tokens_and_gains_workers() {
    let dir = scratch("schema4");
    let mut store = Store::open(&dir).unwrap();
    store.add_token("h-ann", "submit", "ann", 1).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch(&format!("{DOWN_TO_5} {DOWN_TO_4}"))
        .unwrap();
    // As schema 4 was: no worker token could be stored.
    assert!(conn
        .execute(
            "INSERT INTO tokens (hash, scope, owner, created_ms) VALUES ('x', 'worker', 'w', 1)",
            [],
        )
        .is_err());
    drop(conn);
    let mut store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    assert_eq!(
        store.token("h-ann").unwrap(),
        Some(("submit".to_string(), "ann".to_string()))
    );
    store.add_token("h-lab", "worker", "lab", 2).unwrap();
    assert!(
        store.add_token("h-x", "root", "x", 3).is_err(),
        "an unknown scope"
    );
    let me = zebra::server::store::WorkerInfo {
        name: "lab/w1".into(),
        host: "h".into(),
        cpu: "c".into(),
        sandbox: "strict".into(),
        zebra: "0".into(),
    };
    assert!(store.seen_worker(&me, 10).unwrap());
    store.tally_worker("lab/w1", 2, true).unwrap();
    store.tally_worker("lab/w1", 0, false).unwrap();
    let w = &store.workers().unwrap()[0];
    assert_eq!((w.games, w.timeouts, w.forfeits), (2, 2, 1));
    assert_eq!((w.first_ms, w.seen_ms), (10, 10));
}

#[test]
fn a_database_of_schema_3_gains_games_with_every_bot_and_series_football_chess() {
    let dir = scratch("schema3");
    let mut store = Store::open(&dir).unwrap();
    let active = store.add_bot("north", "{}", "ann", 1).unwrap();
    let rejected = store.add_bot("south", "{}", "ann", 1).unwrap();
    let pending = store.add_bot("east", "{}", "ann", 1).unwrap();
    let suspended = store.add_bot("west", "{}", "ann", 1).unwrap();
    let report = |verdict: &str| format!(r#"{{"verdict":"{verdict}","check":[]}}"#);
    store
        .set_bot_state(active, BotState::Active, Some(&report("active")))
        .unwrap();
    store
        .set_bot_state(rejected, BotState::Rejected, Some(&report("rejected")))
        .unwrap();
    // Checked, then suspended after crashes: its check stands.
    store
        .set_bot_state(suspended, BotState::Suspended, Some(&report("active")))
        .unwrap();
    let games = [NewGame {
        number: 1,
        seed: 1,
        white: active,
        black: suspended,
    }];
    drop(store);
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch(&format!("{DOWN_TO_5} {DOWN_TO_3}"))
        .unwrap();
    conn.execute(
        "INSERT INTO series (spec, state, owner, created_ms) VALUES ('{}', 'running', 'ann', 1)",
        [],
    )
    .unwrap();
    drop(conn);
    let mut store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    assert_eq!(store.series(1).unwrap().unwrap().game, "football-chess");
    let state = |store: &Store, id| {
        let games = store.bot_games(id).unwrap();
        assert_eq!(games.len(), 1, "{games:?}");
        assert_eq!(games[0].game, "football-chess");
        games[0].state
    };
    assert_eq!(state(&store, active), BotState::Active);
    assert_eq!(state(&store, rejected), BotState::Rejected);
    assert_eq!(state(&store, pending), BotState::Pending);
    assert_eq!(state(&store, suspended), BotState::Active);
    // The reports moved along.
    assert!(store.bot_games(active).unwrap()[0].report.is_some());
    // A Boyer series wants bots that passed Boyer's check.
    store
        .set_bot_state(suspended, BotState::Active, None)
        .unwrap();
    assert!(matches!(
        store.submit_game(None, "{}", Rules::BoyerFootball, "ann", &games, 2),
        Err(StoreError::NotAdmitted { id, .. }) if id == active
    ));
    assert!(store.enter(active, Rules::BoyerFootball).unwrap());
    assert!(!store.enter(active, Rules::BoyerFootball).unwrap());
    assert_eq!(
        store.pending_checks().unwrap().len(),
        2,
        "east's and north's"
    );
    assert!(matches!(
        store.submit_game(None, "{}", Rules::BoyerFootball, "ann", &games, 2),
        Err(StoreError::NotAdmitted { id, ref why }) if id == active && why.contains("not been checked")
    ));
    store
        .set_check(
            active,
            Rules::BoyerFootball,
            BotState::Active,
            &report("active"),
        )
        .unwrap();
    store.enter(suspended, Rules::BoyerFootball).unwrap();
    store
        .set_check(
            suspended,
            Rules::BoyerFootball,
            BotState::Rejected,
            &report("rejected"),
        )
        .unwrap();
    assert!(matches!(
        store.submit_game(None, "{}", Rules::BoyerFootball, "ann", &games, 2),
        Err(StoreError::NotAdmitted { id, ref why }) if id == suspended && why.contains("failed")
    ));
    // Its owner's other game is unaffected: a bot failing one game's check stays active.
    assert_eq!(
        store.bot(suspended).unwrap().unwrap().state,
        BotState::Active
    );
    // An admin's activation admits it to every game it is entered in.
    store
        .set_bot_state(suspended, BotState::Active, None)
        .unwrap();
    let Submitted::Created(series) = store
        .submit_game(None, "{}", Rules::BoyerFootball, "ann", &games, 2)
        .unwrap()
    else {
        panic!("a new series")
    };
    assert_eq!(
        store.series(series).unwrap().unwrap().game,
        "boyer-football"
    );
    // A pending bot that fails its only game's check is rejected; one that passes one of
    // two is active.
    store
        .set_check(
            pending,
            Rules::FootballChess,
            BotState::Rejected,
            &report("rejected"),
        )
        .unwrap();
    assert_eq!(
        store.bot(pending).unwrap().unwrap().state,
        BotState::Rejected
    );
    let mut two = entry("both");
    let both = store
        .add_version_in(
            &mut two,
            "ann",
            3,
            &[Rules::FootballChess, Rules::BoyerFootball],
        )
        .unwrap()
        .id;
    store
        .set_check(
            both,
            Rules::BoyerFootball,
            BotState::Rejected,
            &report("rejected"),
        )
        .unwrap();
    assert_eq!(store.bot(both).unwrap().unwrap().state, BotState::Pending);
    store
        .set_check(
            both,
            Rules::FootballChess,
            BotState::Active,
            &report("active"),
        )
        .unwrap();
    assert_eq!(store.bot(both).unwrap().unwrap().state, BotState::Active);
}

#[test]
fn a_database_of_schema_2_gains_versions_with_every_bot_its_own_first() {
    let dir = scratch("schema2");
    let mut store = Store::open(&dir).unwrap();
    let north = store.add_bot("north", "{}", "ann", 1).unwrap();
    drop(store);
    // Back to schema 2 as an older Zebra left it: no family, no version.
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch(&format!(
        "{DOWN_TO_5} {DOWN_TO_3} DROP INDEX bots_by_version; ALTER TABLE bots DROP COLUMN family; \
         ALTER TABLE bots DROP COLUMN version; PRAGMA user_version = 2;"
    ))
    .unwrap();
    drop(conn);
    let mut store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    let bot = store.bot(north).unwrap().unwrap();
    assert_eq!((bot.family.as_str(), bot.version), ("north", 1));
    let next = store.add_version(&mut entry("north"), "ann", 2).unwrap();
    assert_eq!(next.name, "north v2");
}

#[test]
fn a_corrupt_or_newer_database_is_refused_with_its_path_and_left_alone() {
    let dir = scratch("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(DB_FILE);
    let junk = vec![0x5a_u8; 8192];
    std::fs::write(&db, &junk).unwrap();
    let err = Store::open(&dir).err().expect("refused");
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains(&db.display().to_string()), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), junk, "never reset");

    let dir = scratch("newer");
    drop(Store::open(&dir).unwrap());
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = Store::open(&dir).err().expect("refused");
    assert!(
        matches!(
            err,
            StoreError::NewerSchema {
                found: 99,
                known: 10,
                ..
            }
        ),
        "{err}"
    );
}

fn a_series_submitted_again_under_its_key_is_the_same_series(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "idempotent", 4);
    let games = [NewGame {
        number: 1,
        seed: 1,
        white: 1,
        black: 2,
    }];
    assert_eq!(
        store.submit(Some("k1"), "{}", "ann", &games, 3).unwrap(),
        Submitted::Existing(series)
    );
    assert_eq!(
        store.progress(series).unwrap().queued,
        4,
        "nothing queued again"
    );
    assert!(matches!(
        store.submit(Some("k1"), r#"{"games":2}"#, "ann", &games, 3),
        Err(StoreError::KeyConflict(k)) if k == "k1"
    ));
    // An unknown bot: refused, and nothing of the series is written.
    let stray = [NewGame {
        number: 1,
        seed: 1,
        white: 1,
        black: 77,
    }];
    assert!(matches!(
        store.submit(Some("k2"), "{}", "ann", &stray, 3),
        Err(StoreError::UnknownBot(77))
    ));
    assert!(matches!(
        store.submit(Some("k2"), "{}", "ann", &games, 3).unwrap(),
        // (PostgreSQL spends the refused series' id: ids only grow.)
        Submitted::Created(id) if id > series
    ));
}

fn the_pages_reads_answer_alike_on_both_databases(db: &Db) {
    use zebra::server::store::SeriesFilter;
    let (_dir, mut store, series) = with_series(db, "pages", 4);
    for (k, result) in ["1-0", "0-1", "1/2-1/2"].iter().enumerate() {
        let lease = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
        finish(
            &mut store,
            &lease,
            result,
            &format!("[Game \"{k}\"]\n"),
            200 + k as i64,
        );
    }
    // A bot's games, all and against one opponent (its null and its value).
    let (all, total, more) = store.bot_games_page(1, None, None, 2).unwrap();
    assert_eq!((all.len(), total, more), (2, 3, true));
    let (mine, total, _) = store.bot_games_page(1, Some(2), None, 10).unwrap();
    assert_eq!((mine.len(), total), (3, 3));
    let (none, total, _) = store.bot_games_page(1, Some(77), None, 10).unwrap();
    assert_eq!((none.len(), total), (0, 0));
    let (older, _, more) = store.bot_games_page(1, None, Some(all[1].id), 10).unwrap();
    assert_eq!((older.len(), more), (1, false));
    // Series pages with every filter, their counts, records in bulk.
    let filter = SeriesFilter {
        owner: Some("ann".to_string()),
        state: Some("running".to_string()),
        game: Some("football-chess".to_string()),
        bot: Some(2),
    };
    let (rows, total, more) = store.series_page(&filter, None, 10).unwrap();
    assert_eq!((rows.len(), total, more), (1, 1, false), "{rows:?}");
    let (rows, total, _) = store
        .series_page(&SeriesFilter::default(), Some(series), 10)
        .unwrap();
    assert_eq!((rows.len(), total), (0, 1));
    assert_eq!(store.series_counts(&[series]).unwrap()[&series], (4, 3));
    assert_eq!(store.records_after(Some(1), None, 0, 10).unwrap().len(), 3);
    assert_eq!(
        store.records_after(None, Some(series), 0, 2).unwrap().len(),
        2
    );
    assert_eq!(store.queue().unwrap(), (1, 0));
}

fn an_exclusive_step_keeps_all_or_nothing_of_what_it_wrote(db: &Db) {
    let (dir, mut store, _) = with_series(db, "exclusive", 2);
    // Its own transactions inside join it: kept together...
    let id = store
        .exclusive(|s| {
            let id = s.add_bot("alpha", "{}", "ann", 1)?;
            s.add_token("h-alpha", "submit", "ann", 1)?;
            Ok(id)
        })
        .unwrap();
    assert!(store.bot(id).unwrap().is_some());
    // ...or dropped together when the step fails, whichever part failed.
    let failed = store.exclusive(|s| {
        s.add_bot("beta", "{}", "ann", 2)?;
        s.add_bot("alpha", "{}", "bob", 2)
    });
    assert!(
        matches!(failed, Err(StoreError::BotExists(_))),
        "{failed:?}"
    );
    assert!(store.bots().unwrap().iter().all(|b| b.name != "beta"));
    // A step returning early with nothing written (a resubmission) changes nothing.
    let again = store
        .exclusive(|s| s.submit(Some("k1"), "{}", "ann", &[], 3))
        .unwrap();
    assert!(matches!(again, Submitted::Existing(_)), "{again:?}");
    // And the store takes write transactions afterwards as before.
    drop(store);
    let mut store = db.open(&dir);
    store.add_bot("gamma", "{}", "ann", 4).unwrap();
}

fn games_are_leased_in_order_and_a_finish_counts_once(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "lease", 3);
    let first = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
    assert_eq!((first.number, first.attempt, first.until_ms), (1, 1, 1_100));
    assert_eq!(first.seed, u64::MAX - 1, "the seed's 64 bits survive");
    let second = store.lease("w2", 100, 1_000, 3).unwrap().unwrap();
    assert_eq!(second.number, 2);
    let done = finish(&mut store, &first, "1-0", "[Game \"1\"]\n", 200);
    let Finished::Counted { record } = done else {
        panic!("counted")
    };
    assert_eq!(store.record(&record).unwrap(), "[Game \"1\"]\n");
    // The same lease again: already finished, not counted twice.
    assert_eq!(
        finish(&mut store, &first, "0-1", "other", 300),
        Finished::Stale
    );
    let p = store.progress(series).unwrap();
    assert_eq!((p.queued, p.leased, p.finished), (1, 1, 1));
    assert!(store.unplayed(series).unwrap(), "one queued, one leased");
    let third = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
    assert!(store.unplayed(series).unwrap(), "one leased");
    finish(&mut store, &second, "1/2-1/2", "[Game \"2\"]\n", 400);
    finish(&mut store, &third, "0-1", "[Game \"3\"]\n", 500);
    assert!(!store.unplayed(series).unwrap(), "all finished");
    let results = store.results(series).unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(
        (
            results[0].number,
            results[0].result.as_str(),
            &results[0].record
        ),
        (1, "1-0", &record)
    );
}

fn a_lease_that_runs_out_is_voided_and_the_game_played_again_up_to_its_attempts(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "expire", 1);
    let mut lease = store.lease("w1", 0, 100, 2).unwrap().unwrap();
    assert!(store.renew(&mut lease, 150).unwrap());
    assert_eq!(lease.until_ms, 150);
    // At 120 the renewed lease holds: nothing else to lease.
    assert_eq!(store.lease("w2", 120, 100, 2).unwrap(), None);
    // At 200 it has run out: voided, and the game goes to the next worker (attempt 2).
    let again = store.lease("w2", 200, 100, 2).unwrap().unwrap();
    assert_eq!(
        (again.game, again.attempt, again.owner.as_str()),
        (lease.game, 2, "w2")
    );
    // The first worker's late finish is not counted; its lease cannot be renewed.
    assert_eq!(
        finish(&mut store, &lease, "1-0", "late", 210),
        Finished::Stale
    );
    assert!(!store.renew(&mut lease, 999).unwrap());
    // The second lease runs out too: two attempts were allowed, the game is void.
    assert_eq!(store.lease("w3", 400, 100, 2).unwrap(), None);
    let p = store.progress(series).unwrap();
    assert_eq!((p.void, p.finished, p.voided_attempts), (1, 0, 2));
}

fn after_a_crash_the_running_games_are_voided_and_played_again(db: &Db) {
    let (dir, mut store, series) = with_series(db, "crash", 2);
    let running = store.lease("daemon-1", 0, 60_000, 3).unwrap().unwrap();
    // The daemon dies with the lease held (no finish, no release).
    drop(store);
    let mut store = db.open(&dir);
    assert_eq!(store.void_leases(None, 3).unwrap(), 1);
    let replay = store.lease("daemon-2", 10, 60_000, 3).unwrap().unwrap();
    assert_eq!((replay.game, replay.attempt), (running.game, 2));
    assert_eq!(
        finish(&mut store, &running, "1-0", "from the dead daemon", 20),
        Finished::Stale
    );
    assert!(matches!(
        finish(&mut store, &replay, "0-1", "replayed", 30),
        Finished::Counted { .. }
    ));
    let p = store.progress(series).unwrap();
    assert_eq!((p.finished, p.queued, p.voided_attempts), (1, 1, 1));
    assert_eq!(store.results(series).unwrap()[0].result, "0-1");
}

fn a_restarted_daemon_voids_its_own_leases_and_leaves_a_remote_worker_s_to_run_out(db: &Db) {
    let (dir, mut store, series) = with_series(db, "restart-remote", 2);
    let own = store.lease("daemon-1-5", 0, 60_000, 3).unwrap().unwrap();
    let remote = store
        .lease("worker:lab/w1#1", 0, 60_000, 3)
        .unwrap()
        .unwrap();
    drop(store);
    let mut store = db.open(&dir);
    assert_eq!(store.void_local_leases(3).unwrap(), 1);
    // The remote worker plays on and its game counts; the daemon's is played again.
    assert!(matches!(
        finish(&mut store, &remote, "1-0", "remote", 10),
        Finished::Counted { .. }
    ));
    assert_eq!(finish(&mut store, &own, "1-0", "dead", 10), Finished::Stale);
    let again = store.lease("daemon-2-6", 20, 60_000, 3).unwrap().unwrap();
    assert_eq!((again.game, again.attempt), (own.game, 2));
    let p = store.progress(series).unwrap();
    assert_eq!((p.finished, p.leased, p.voided_attempts), (1, 1, 1));
}

fn a_worker_without_the_same_programs_leases_only_games_of_uploaded_bots(db: &Db) {
    use zebra::server::store::Reach;
    let (_dir, mut store, _series) = with_series(db, "reach", 2);
    assert_eq!(
        store
            .lease_for("worker:lab/w#1", 0, 60_000, 3, Reach::Uploaded)
            .unwrap(),
        None,
        "bots registered by path"
    );
    let hash = store.archives().put_bytes(b"an archive").unwrap();
    assert_eq!(store.archives().read_bytes(&hash).unwrap(), b"an archive");
    assert!(store.archives().read_bytes("../../zebra.db").is_none());
    store.set_archive(1, &hash, 10).unwrap();
    assert_eq!(
        store
            .lease_for("worker:lab/w#1", 0, 60_000, 3, Reach::Uploaded)
            .unwrap(),
        None,
        "one of the two bots was uploaded"
    );
    store.set_archive(2, &hash, 10).unwrap();
    assert!(store.is_archive(&hash).unwrap());
    assert!(!store.is_archive(&"0".repeat(64)).unwrap());
    let lease = store
        .lease_for("worker:lab/w#1", 0, 60_000, 3, Reach::Uploaded)
        .unwrap()
        .expect("both bots uploaded");
    assert_eq!(lease.number, 1);
    assert_eq!(store.archive_of(1).unwrap(), Some(hash));
}

fn an_excluded_owner_s_workers_get_nothing_under_any_name(db: &Db) {
    use zebra::server::store::{Reach, WorkerInfo};
    let (_dir, mut store, _series) = with_series(db, "exclude-owner", 4);
    let me = |name: &str| WorkerInfo {
        name: name.into(),
        host: "h".into(),
        cpu: "c".into(),
        sandbox: "strict".into(),
        zebra: "0".into(),
    };
    assert_eq!(store.worker_names("lab/w1").unwrap(), (false, 0));
    assert!(store.seen_worker(&me("lab/w1"), 1).unwrap());
    assert!(store.seen_worker(&me("lab/w2"), 1).unwrap());
    assert!(store.seen_worker(&me("labs/w1"), 1).unwrap());
    assert_eq!(store.worker_names("lab/w1").unwrap(), (true, 2));
    assert_eq!(store.worker_names("lab/w3").unwrap(), (false, 2));
    let held = store
        .lease_for("worker:lab/w1#1", 1, 60_000, 3, Reach::Every)
        .unwrap()
        .unwrap();
    assert_eq!(store.exclude_worker("nobody/x", true, 3).unwrap(), None);
    assert_eq!(store.exclude_worker("daemon/h", true, 3).unwrap(), None);
    assert_eq!(store.exclude_worker("lab", true, 3).unwrap(), Some(vec![]));
    // Its lease is gone, and no name of its owner's gets a game.
    assert_eq!(
        store.held(held.game, &held.owner, held.attempt).unwrap(),
        None
    );
    assert!(!store.seen_worker(&me("lab/w1"), 2).unwrap());
    assert!(!store.seen_worker(&me("lab/another"), 2).unwrap());
    for owner in ["worker:lab/w1#1", "worker:lab/another#2"] {
        assert_eq!(
            store.lease_for(owner, 2, 60_000, 3, Reach::Every).unwrap(),
            None
        );
    }
    assert!(store.seen_worker(&me("ann/w1"), 2).unwrap());
    assert!(store
        .lease_for("worker:ann/w1#1", 2, 60_000, 3, Reach::Every)
        .unwrap()
        .is_some());
    // Admitted again, every worker of its owner's plays.
    store.exclude_worker("lab", false, 3).unwrap();
    assert!(store
        .lease_for("worker:lab/another#2", 3, 60_000, 3, Reach::Every)
        .unwrap()
        .is_some());
}

fn a_cancelled_series_leases_nothing_more(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "cancel", 3);
    let running = store.lease("w", 0, 1_000, 3).unwrap().unwrap();
    assert_eq!(store.cancel(series).unwrap(), 2);
    assert_eq!(store.lease("w", 1, 1_000, 3).unwrap(), None);
    // The game already running still finishes and counts.
    assert!(matches!(
        finish(&mut store, &running, "1/2-1/2", "x", 2),
        Finished::Counted { .. }
    ));
    let row = store.series(series).unwrap().unwrap();
    assert_eq!(
        (row.state.as_str(), row.outcome.as_deref()),
        ("cancelled", Some("cancelled"))
    );
    let p = store.progress(series).unwrap();
    assert_eq!((p.finished, p.cancelled, p.queued), (1, 2, 0));
}

fn records_are_kept_with_their_game_once_by_content_and_bad_hashes_are_not_paths(db: &Db) {
    let (dir, mut store, _) = with_series(db, "records", 2);
    let first = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
    let second = store.lease("w1", 100, 1_000, 3).unwrap().unwrap();
    let Finished::Counted { record: a } = finish(&mut store, &first, "1-0", "one game\n", 200)
    else {
        panic!("counted")
    };
    assert_eq!(a, record_hash("one game\n"));
    assert_eq!(a.len(), 64);
    assert_eq!(store.record(&a).unwrap(), "one game\n");
    // The same text again (another game, or kept apart): one record, the same name.
    assert_eq!(store.keep_record("one game\n").unwrap(), a);
    finish(&mut store, &second, "1-0", "one game\n", 300);
    // A stale finish keeps nothing: no record without its game.
    assert_eq!(
        finish(&mut store, &first, "0-1", "a stale game\n", 400),
        Finished::Stale
    );
    let stale = record_hash("a stale game\n");
    assert!(matches!(store.record(&stale), Err(StoreError::NoRecord(_))));
    // Nothing of it is a file in the data directory.
    assert!(!dir.join("records").exists());
    // A record stored as a file by a Zebra before schema 10 still reads.
    let old = record_hash("an older game\n");
    let shard = dir.join("records").join(&old[..2]);
    std::fs::create_dir_all(&shard).unwrap();
    std::fs::write(shard.join(format!("{old}.pgn")), "an older game\n").unwrap();
    assert_eq!(store.record(&old).unwrap(), "an older game\n");
    // The reader on a connection of its own reads them all, and sees later records too.
    let database = match db {
        Db::Sqlite => Database::Sqlite,
        Db::Postgres(url) => Database::Postgres(url.clone()),
    };
    let reader = store.record_reader(&database);
    let later = store.keep_record("a later game\n").unwrap();
    let read: Vec<String> = reader
        .read_all(&[a.clone(), old.clone(), later.clone()])
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(read, ["one game\n", "an older game\n", "a later game\n"]);
    let again = store.keep_record("the latest game\n").unwrap();
    assert_eq!(reader.read(&again).unwrap(), "the latest game\n");
    for bad in ["../../etc/passwd", "", &"g".repeat(64), &stale] {
        assert!(
            matches!(store.record(bad), Err(StoreError::NoRecord(_))),
            "{bad}"
        );
        assert!(
            matches!(reader.read(bad), Err(StoreError::NoRecord(_))),
            "{bad}"
        );
    }
}

fn only_active_bots_play_and_a_concluded_series_cancels_what_is_queued(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "conclude", 4);
    let pending = store.add_bot("east", "{}", "ann", 5).unwrap();
    let games = [NewGame {
        number: 1,
        seed: 1,
        white: 1,
        black: pending,
    }];
    assert!(matches!(
        store.submit(None, "{}", "ann", &games, 6),
        Err(StoreError::BotNotActive { id, state: BotState::Pending }) if id == pending
    ));
    let running = store.lease("w", 10, 1_000, 3).unwrap().unwrap();
    // The SPRT decides: what is queued is cancelled, the running game still counts.
    assert!(store.conclude(series, "h1-accepted").unwrap());
    assert!(!store.conclude(series, "completed").unwrap(), "once");
    assert!(matches!(
        finish(&mut store, &running, "1-0", "x", 20),
        Finished::Counted { .. }
    ));
    let p = store.progress(series).unwrap();
    assert_eq!((p.finished, p.cancelled, p.queued), (1, 3, 0));
    let row = store.series(series).unwrap().unwrap();
    assert_eq!(
        (
            row.state.as_str(),
            row.outcome.as_deref(),
            row.owner.as_str()
        ),
        ("finished", Some("h1-accepted"), "ann")
    );
    let games = store.games(series, 0, 10).unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    assert_eq!(store.game(games[0].id).unwrap().unwrap(), games[0]);
    assert_eq!(
        store.games(series, 3, 10).unwrap().len(),
        1,
        "paged by number"
    );
    assert_eq!(store.queue().unwrap(), (0, 0));
}

fn tokens_are_found_by_their_hash_only(db: &Db) {
    let dir = db.scratch("tokens");
    let mut store = db.open(&dir);
    store
        .add_token(&"ab".repeat(32), "submit", "ann", 1)
        .unwrap();
    assert_eq!(
        store.token(&"ab".repeat(32)).unwrap(),
        Some(("submit".to_string(), "ann".to_string()))
    );
    assert_eq!(store.token(&"cd".repeat(32)).unwrap(), None);
}

#[test]
fn a_database_of_schema_5_gains_invites_and_an_invite_signs_up_each_new_name_once() {
    let dir = scratch("schema5");
    let mut store = Store::open(&dir).unwrap();
    store.add_token("h-ann", "submit", "ann", 1).unwrap();
    let bot = store.add_bot("north", "{}", "ann", 1).unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    conn.execute_batch(DOWN_TO_5).unwrap();
    drop(conn);
    let mut store = Store::open(&dir).unwrap();
    assert_eq!(store.schema_version().unwrap(), 10);
    assert_eq!(
        store.token("h-ann").unwrap(),
        Some(("submit".to_string(), "ann".to_string()))
    );
    let row = store.bot(bot).unwrap().unwrap();
    assert_eq!((row.bytes, row.deleted_ms), (0, None));

    let now = 1_000_000;
    store
        .add_invite("i-two", 2, Some(now + 10), "", now)
        .unwrap();
    store
        .add_invite("i-old", 5, Some(now), "", now - 50)
        .unwrap();
    store.add_invite("i-free", 1, None, "open", now).unwrap();
    let refused = |r: Result<(), StoreError>| matches!(r, Err(StoreError::InviteRefused));
    assert!(refused(store.redeem_invite("i-none", "cy", "t0", now)));
    assert!(
        refused(store.redeem_invite("i-old", "cy", "t0", now)),
        "expired"
    );
    for taken in ["ann", "admin"] {
        assert!(matches!(
            store.redeem_invite("i-two", taken, "t0", now),
            Err(StoreError::OwnerTaken(name)) if name == taken
        ));
    }
    store.redeem_invite("i-two", "cy", "t-cy", now).unwrap();
    assert!(matches!(
        store.redeem_invite("i-two", "cy", "t-cy2", now),
        Err(StoreError::OwnerTaken(_))
    ));
    store.redeem_invite("i-two", "di", "t-di", now + 9).unwrap();
    assert!(
        refused(store.redeem_invite("i-two", "ed", "t-ed", now)),
        "used up"
    );
    store
        .redeem_invite("i-free", "ed", "t-ed", now + (1 << 40))
        .unwrap();
    assert_eq!(
        store.token("t-cy").unwrap(),
        Some(("submit".to_string(), "cy".to_string()))
    );
    let invites = store.invites().unwrap();
    assert_eq!(invites.len(), 3);
    let two = invites
        .iter()
        .find(|i| i.expires_ms == Some(now + 10))
        .unwrap();
    assert_eq!(
        (two.uses_left, two.owners.clone()),
        (0, vec!["cy".to_string(), "di".to_string()])
    );
}

fn deleting_a_bot_cancels_its_running_series_and_frees_its_archive_only_when_unshared(db: &Db) {
    let (_dir, mut store, series) = with_series(db, "delete", 4);
    let hash = store.archives().put_bytes(b"shared bytes").unwrap();
    store.set_archive(1, &hash, 12).unwrap();
    store.set_archive(2, &hash, 12).unwrap();
    let usage = store.usage("ann", Some("south"), 5).unwrap();
    assert_eq!((usage.bots, usage.versions, usage.has_family), (1, 1, true));
    assert_eq!((usage.series, usage.stored), (1, 12));
    assert_eq!(usage.games, vec![(2, 4)]);
    let lease = store.lease("daemon-x", 10, 60_000, 3).unwrap().unwrap();
    let leased = store.lease("daemon-x", 10, 60_000, 3).unwrap().unwrap();
    assert_eq!(
        finish(&mut store, &lease, "1-0", "[Event \"x\"]\n\n1-0\n", 20),
        Finished::Counted {
            record: record_hash("[Event \"x\"]\n\n1-0\n")
        }
    );
    let deleted = store.delete_bot(2, 3, 30).unwrap().expect("deleted now");
    assert_eq!(deleted.series_cancelled, vec![series]);
    assert_eq!((deleted.leases_voided, deleted.games_cancelled), (1, 3));
    assert_eq!(deleted.archive, None, "bot 1 came in the same archive");
    assert_eq!(store.delete_bot(2, 3, 31).unwrap(), None, "once");
    let row = store.bot(2).unwrap().unwrap();
    assert_eq!(
        (row.state, row.deleted_ms, row.report),
        (BotState::Suspended, Some(30), None)
    );
    let p = store.progress(series).unwrap();
    assert_eq!((p.finished, p.leased, p.queued, p.cancelled), (1, 0, 0, 3));
    assert_eq!(
        finish(&mut store, &leased, "0-1", "[Event \"y\"]\n\n0-1\n", 40),
        Finished::Stale,
        "the voided lease never counts"
    );
    let usage = store.usage("ann", Some("south"), 50).unwrap();
    assert_eq!((usage.bots, usage.stored, usage.series), (0, 0, 0));
    assert_eq!(
        usage.uploads,
        vec![(1, 12)],
        "a deletion does not give the day back"
    );
    assert!(matches!(
        store.submit(
            Some("k2"),
            "{}",
            "ann",
            &[NewGame {
                number: 1,
                seed: 1,
                white: 1,
                black: 2
            }],
            60
        ),
        Err(StoreError::BotDeleted(2))
    ));
    let deleted = store.delete_bot(1, 3, 70).unwrap().unwrap();
    assert_eq!(deleted.archive, Some(hash), "the last bot of the archive");
    let done = store.delete_owner("ann", 3, 80).unwrap();
    assert_eq!((done.bots.len(), done.tokens_revoked), (0, 0));
}

fn checks_take_turns_among_owners_and_a_deleted_bot_is_never_checked_admitted_or_entered(db: &Db) {
    let dir = db.scratch("fair");
    let mut store = db.open(&dir);
    // ann uploads three bots at once, then bob one: bob's waits behind ann's first only.
    let mut ids = Vec::new();
    for (name, owner) in [("a1", "ann"), ("a2", "ann"), ("a3", "ann"), ("b1", "bob")] {
        ids.push(store.add_bot(name, "{}", owner, 1).unwrap());
    }
    let order: Vec<i64> = store
        .pending_checks()
        .unwrap()
        .iter()
        .map(|(b, _)| b.id)
        .collect();
    assert_eq!(order, [ids[0], ids[3], ids[1], ids[2]]);

    let gone = ids[1];
    store.delete_bot(gone, 3, 5).unwrap().expect("deleted");
    let order: Vec<i64> = store
        .pending_checks()
        .unwrap()
        .iter()
        .map(|(b, _)| b.id)
        .collect();
    assert!(!order.contains(&gone), "{order:?}");
    // A check that was running when it was deleted stores nothing.
    store
        .set_check(gone, Rules::FootballChess, BotState::Active, "{}")
        .unwrap();
    let row = store.bot(gone).unwrap().unwrap();
    assert_eq!((row.state, row.report), (BotState::Suspended, None));
    assert!(matches!(
        store.set_bot_state(gone, BotState::Active, None),
        Err(StoreError::BotDeleted(id)) if id == gone
    ));
    assert!(matches!(
        store.enter(gone, Rules::BoyerFootball),
        Err(StoreError::BotDeleted(_))
    ));

    // Names are taken whatever their case; admin and ladder are reserved.
    store.add_invite("inv", 10, None, "", 1).unwrap();
    for taken in ["ANN", "Bob", "Ladder", "ADMIN"] {
        assert!(
            matches!(
                store.redeem_invite("inv", taken, "t", 2),
                Err(StoreError::OwnerTaken(_))
            ),
            "{taken}"
        );
    }
    store.redeem_invite("inv", "cy", "t-cy", 2).unwrap();
}

fn an_excluded_worker_s_replayed_games_leave_its_figures(db: &Db) {
    use zebra::server::store::{Reach, WorkerInfo};
    let (_dir, mut store, series) = with_series(db, "exclude-figures", 4);
    for name in ["lab/w1", "lab/w10"] {
        let info = WorkerInfo {
            name: name.into(),
            host: "h".into(),
            cpu: "c".into(),
            sandbox: "strict".into(),
            zebra: "0".into(),
        };
        assert!(store.seen_worker(&info, 1).unwrap());
        let lease = store
            .lease_for(&format!("worker:{name}#1"), 1, 60_000, 3, Reach::Every)
            .unwrap()
            .unwrap();
        let record = format!("[Event \"{name}\"]\n\n1-0\n");
        assert!(matches!(
            finish(&mut store, &lease, "1-0", &record, 2),
            Finished::Counted { .. }
        ));
        store.tally_worker(name, 1, false).unwrap();
    }
    let games = |store: &Store, name: &str| {
        let row = store.workers().unwrap();
        let w = row.iter().find(|w| w.info.name == name).unwrap();
        (w.games, w.timeouts)
    };
    assert_eq!(games(&store, "lab/w1"), (1, 1));
    assert_eq!(
        store.exclude_worker("lab/w1", true, 3).unwrap(),
        Some(vec![series])
    );
    // Its game is played again: it no longer counts among its figures (the timeout seen
    // stays); the other worker of a name it begins is untouched.
    assert_eq!(games(&store, "lab/w1"), (0, 1));
    assert_eq!(games(&store, "lab/w10"), (1, 1));
    assert_eq!(store.progress(series).unwrap().finished, 1);
}

#[test]
fn both_databases_have_the_same_tables_and_columns() {
    let dir = scratch("same-schema");
    drop(Store::open(&dir).unwrap());
    let lite = rusqlite::Connection::open(dir.join(DB_FILE)).unwrap();
    let mut stmt = lite
        .prepare(
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
             WHERE m.type = 'table' ORDER BY 1, 2",
        )
        .unwrap();
    let sqlite: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let url = postgres_cluster::database("same_schema");
    drop(Store::open_on(&scratch("same-schema-pg"), &Database::Postgres(url.clone())).unwrap());
    let mut pg = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    let postgres: Vec<(String, String)> = pg
        .query(
            "SELECT table_name::text, column_name::text FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name != 'zebra_schema' ORDER BY 1, 2",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert!(sqlite.len() > 50, "{sqlite:?}");
    assert_eq!(sqlite, postgres);
}

#[test]
fn one_daemon_of_those_sharing_postgresql_holds_each_role_until_it_goes() {
    use zebra::server::store::Role;
    let url = postgres_cluster::database("roles");
    let db = Db::Postgres(url);
    let first = db.open(&scratch("roles-1"));
    let second = db.open(&scratch("roles-2"));
    assert!(first.lead(Role::Checks).unwrap());
    assert!(first.lead(Role::Checks).unwrap(), "still its own");
    assert!(!second.lead(Role::Checks).unwrap());
    assert!(second.lead(Role::Ladder).unwrap(), "each role on its own");
    assert!(!first.lead(Role::Ladder).unwrap());
    drop(first);
    // Its connection closed: the role is free for the next to ask (once the server has
    // seen the session end, which takes it a moment).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !second.lead(Role::Checks).unwrap() {
        assert!(std::time::Instant::now() < deadline, "never taken over");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SQLite: one daemon, every role its own.
    let lite = Db::Sqlite.open(&scratch("roles-lite"));
    assert!(lite.lead(Role::Checks).unwrap() && lite.lead(Role::Ladder).unwrap());
}

#[test]
fn a_store_whose_postgresql_connection_is_closed_connects_again_without_its_roles() {
    use zebra::server::store::Role;
    let url = postgres_cluster::database("reconnect");
    let db = Db::Postgres(url.clone());
    let first = db.open(&scratch("reconnect-1"));
    let second = db.open(&scratch("reconnect-2"));
    assert!(first.lead(Role::Checks).unwrap());
    // The server ends the first store's session (as a restart or a failover would).
    let mut admin = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid != pg_backend_pid() \
             AND query LIKE '%pg_try_advisory_lock%'",
            &[],
        )
        .unwrap();
    // The statement that finds it closed fails; the next one connects again.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while first.bots().is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "never connected again"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(first.bots().unwrap().len(), 0);
    // Its role went with its session: the other store takes it, and the first no longer
    // claims it.
    while !second.lead(Role::Checks).unwrap() {
        assert!(std::time::Instant::now() < deadline, "the role never freed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!first.lead(Role::Checks).unwrap());
}
