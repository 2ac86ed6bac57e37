//! The daemon's storage: one SQLite database (`zebra.db`, WAL mode, one writer) and the game
//! records as files beside it (`records/ab/abcd….pgn`, named by the SHA-256 of their text,
//! fsynced before the database refers to them).
//!
//! The games table is the queue. A game is `queued`, then `leased` by a worker until a
//! deadline, then `finished` (its result and record stored) — or its attempt is voided:
//! the infrastructure's fault (the daemon died, a lease ran out) is never a result, so the
//! game goes back to `queued` and is played again, up to a number of attempts after which
//! it is `void` for good. A finish is accepted only from the lease that is still current,
//! so a game is never counted twice or half. A cancelled series' queued games are
//! `cancelled`. Submission is idempotent: a series submitted again with the same key is the
//! same series (and a different one under a used key is refused).
//!
//! The schema is migrated at open (`PRAGMA user_version` counts the migrations applied);
//! a database from a newer Zebra, or one that fails SQLite's `quick_check`, is refused with
//! its path, never reset.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use sha2::{Digest, Sha256};

/// The database file in the data directory.
pub const DB_FILE: &str = "zebra.db";
/// The directory of record files in the data directory.
pub const RECORDS_DIR: &str = "records";

/// The schema, one migration per step; `user_version` = migrations applied.
const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    -- JSON: program, args, dir, env, options, time odds, limits (as a series' bots).
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'rejected', 'suspended')),
    created_ms INTEGER NOT NULL
);
CREATE TABLE series (
    id INTEGER PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    -- JSON: the options of the series as submitted.
    spec TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'cancelled', 'finished')),
    created_ms INTEGER NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    series_id INTEGER NOT NULL REFERENCES series(id),
    number INTEGER NOT NULL,
    -- The u64 seed's bits.
    seed INTEGER NOT NULL,
    white INTEGER NOT NULL REFERENCES bots(id),
    black INTEGER NOT NULL REFERENCES bots(id),
    state TEXT NOT NULL
        CHECK (state IN ('queued', 'leased', 'finished', 'void', 'cancelled')),
    -- Leases taken, and of them voided (the infrastructure's fault, not a result).
    attempts INTEGER NOT NULL DEFAULT 0,
    voided INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until_ms INTEGER,
    result TEXT,
    termination TEXT,
    -- The record file's SHA-256 (hex).
    record TEXT,
    finished_ms INTEGER,
    UNIQUE (series_id, number)
);
CREATE INDEX games_by_state ON games (state, id);
"#];

/// Why the store cannot do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: not a Zebra database SQLite can read ({detail}); move it away to start afresh, or restore a backup")]
    Corrupt { path: PathBuf, detail: String },
    #[error("{path} has schema version {found}, newer than this Zebra knows ({known}): run the Zebra that wrote it")]
    NewerSchema {
        path: PathBuf,
        found: i64,
        known: usize,
    },
    #[error("cannot {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("there is no bot {0}")]
    UnknownBot(i64),
    #[error("there is already a bot named {0}")]
    BotExists(String),
    #[error("the idempotency key {0} was used for a different series")]
    KeyConflict(String),
    #[error("there is no record {0}")]
    NoRecord(String),
}

/// A game to queue: its number in the series, its seed and its two bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub number: u32,
    pub seed: u64,
    pub white: i64,
    pub black: i64,
}

/// What a submission did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submitted {
    /// A new series with this id.
    Created(i64),
    /// The same series was submitted before under this key: nothing new was queued.
    Existing(i64),
}

/// A game a worker holds until `until_ms`; its attempt (from 1) names the lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub game: i64,
    pub series: i64,
    pub number: u32,
    pub seed: u64,
    pub white: i64,
    pub black: i64,
    pub attempt: u32,
    pub owner: String,
    pub until_ms: i64,
}

/// What became of a finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finished {
    /// Stored, with the record's hash.
    Counted { record: String },
    /// The lease was no longer current (voided meanwhile, or the series cancelled): the
    /// result is not counted. The record file stays (it is named by its content).
    Stale,
}

/// How far a series is, in games per state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    pub queued: u64,
    pub leased: u64,
    pub finished: u64,
    pub void: u64,
    pub cancelled: u64,
    /// Attempts voided over all the series' games.
    pub voided_attempts: u64,
}

/// The data directory: the database and the record files.
pub struct Store {
    conn: Connection,
    dir: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, checks the database and applies the
    /// migrations this Zebra has and the database lacks.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| StoreError::Io { what, path, source }
        };
        std::fs::create_dir_all(dir.join(RECORDS_DIR)).map_err(io("create", dir))?;
        let path = dir.join(DB_FILE);
        let corrupt = |e: rusqlite::Error| StoreError::Corrupt {
            path: path.clone(),
            detail: e.to_string(),
        };
        let conn = Connection::open(&path).map_err(corrupt)?;
        // WAL: readers never wait for the writer; NORMAL sync is durable at each
        // checkpoint and never corrupts (the records themselves are fsynced files).
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(corrupt)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(corrupt)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(corrupt)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(corrupt)?;
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(corrupt)?;
        if check != "ok" {
            return Err(StoreError::Corrupt {
                path,
                detail: check,
            });
        }
        let mut store = Store {
            conn,
            dir: dir.to_path_buf(),
        };
        store.migrate(&path)?;
        Ok(store)
    }

    fn migrate(&mut self, path: &Path) -> Result<(), StoreError> {
        let found: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if found > MIGRATIONS.len() as i64 {
            return Err(StoreError::NewerSchema {
                path: path.to_path_buf(),
                found,
                known: MIGRATIONS.len(),
            });
        }
        for (k, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Exclusive)?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (k + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Registers a bot (active at once: checking new bots comes with registration).
    pub fn add_bot(&mut self, name: &str, spec: &str, now_ms: i64) -> Result<i64, StoreError> {
        let done = self.conn.execute(
            "INSERT INTO bots (name, spec, state, created_ms) VALUES (?1, ?2, 'active', ?3)",
            params![name, spec, now_ms],
        );
        match done {
            Ok(_) => Ok(self.conn.last_insert_rowid()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(StoreError::BotExists(name.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Queues a series and its games in one transaction. With a key already used: the
    /// same spec is the same series (nothing queued again), another spec is refused.
    pub fn submit(
        &mut self,
        key: Option<&str>,
        spec: &str,
        games: &[NewGame],
        now_ms: i64,
    ) -> Result<Submitted, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if let Some(key) = key {
            let before: Option<(i64, String)> = tx
                .query_row(
                    "SELECT id, spec FROM series WHERE idempotency_key = ?1",
                    [key],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            if let Some((id, was)) = before {
                return if was == spec {
                    Ok(Submitted::Existing(id))
                } else {
                    Err(StoreError::KeyConflict(key.to_string()))
                };
            }
        }
        tx.execute(
            "INSERT INTO series (idempotency_key, spec, state, created_ms) \
             VALUES (?1, ?2, 'running', ?3)",
            params![key, spec, now_ms],
        )?;
        let series = tx.last_insert_rowid();
        {
            let mut bot = tx.prepare_cached("SELECT 1 FROM bots WHERE id = ?1")?;
            let mut insert = tx.prepare_cached(
                "INSERT INTO games (series_id, number, seed, white, black, state) \
                 VALUES (?1, ?2, ?3, ?4, ?5, 'queued')",
            )?;
            let mut known = std::collections::HashSet::new();
            for g in games {
                for id in [g.white, g.black] {
                    if known.insert(id) && !bot.exists([id])? {
                        return Err(StoreError::UnknownBot(id));
                    }
                }
                // The seed's bits: SQLite integers are signed 64-bit.
                insert.execute(params![series, g.number, g.seed as i64, g.white, g.black])?;
            }
        }
        tx.commit()?;
        Ok(Submitted::Created(series))
    }

    /// Leases the next queued game (oldest first) to `owner` until `now_ms + lease_ms`.
    /// Leases that ran out first have their attempt voided: the game is queued again, or
    /// `void` for good once it has had `max_attempts`.
    pub fn lease(
        &mut self,
        owner: &str,
        now_ms: i64,
        lease_ms: i64,
        max_attempts: u32,
    ) -> Result<Option<Lease>, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        Self::void_where(&tx, "lease_until_ms < ?1", params![now_ms], max_attempts)?;
        let next = tx
            .query_row(
                "SELECT g.id, g.series_id, g.number, g.seed, g.white, g.black, g.attempts \
                 FROM games g JOIN series s ON s.id = g.series_id \
                 WHERE g.state = 'queued' AND s.state = 'running' ORDER BY g.id LIMIT 1",
                [],
                |r| {
                    Ok(Lease {
                        game: r.get(0)?,
                        series: r.get(1)?,
                        number: r.get(2)?,
                        seed: r.get::<_, i64>(3)? as u64,
                        white: r.get(4)?,
                        black: r.get(5)?,
                        attempt: r.get::<_, u32>(6)? + 1,
                        owner: owner.to_string(),
                        until_ms: now_ms + lease_ms,
                    })
                },
            )
            .optional()?;
        if let Some(lease) = &next {
            tx.execute(
                "UPDATE games SET state = 'leased', attempts = ?2, lease_owner = ?3, \
                 lease_until_ms = ?4 WHERE id = ?1",
                params![lease.game, lease.attempt, owner, lease.until_ms],
            )?;
        }
        tx.commit()?;
        Ok(next)
    }

    /// Extends a lease that is still current; `false` when it is not (voided meanwhile).
    pub fn renew(&mut self, lease: &mut Lease, until_ms: i64) -> Result<bool, StoreError> {
        let changed = self.conn.execute(
            "UPDATE games SET lease_until_ms = ?4 \
             WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            params![lease.game, lease.owner, lease.attempt, until_ms],
        )?;
        if changed == 1 {
            lease.until_ms = until_ms;
        }
        Ok(changed == 1)
    }

    /// Voids the attempts of every leased game (of `owner`, or of anyone): what a daemon
    /// does at start for the games that were running when it died.
    pub fn void_leases(
        &mut self,
        owner: Option<&str>,
        max_attempts: u32,
    ) -> Result<usize, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let n = match owner {
            Some(owner) => Self::void_where(&tx, "lease_owner = ?1", params![owner], max_attempts)?,
            None => Self::void_where(&tx, "1 = 1", params![], max_attempts)?,
        };
        tx.commit()?;
        Ok(n)
    }

    /// Voids the current attempt of the leased games matching `condition`.
    fn void_where(
        tx: &rusqlite::Transaction<'_>,
        condition: &str,
        args: &[&dyn rusqlite::ToSql],
        max_attempts: u32,
    ) -> Result<usize, StoreError> {
        let sql = format!(
            "UPDATE games SET voided = voided + 1, lease_owner = NULL, lease_until_ms = NULL, \
             state = CASE WHEN attempts >= {max_attempts} THEN 'void' ELSE 'queued' END \
             WHERE state = 'leased' AND {condition}"
        );
        Ok(tx.execute(&sql, args)?)
    }

    /// Stores a finished game: the record file first (fsynced), then the result, if the
    /// lease is still current.
    pub fn finish(
        &mut self,
        lease: &Lease,
        result: &str,
        termination: &str,
        record: &str,
        now_ms: i64,
    ) -> Result<Finished, StoreError> {
        let hash = self.put_record(record)?;
        let changed = self.conn.execute(
            "UPDATE games SET state = 'finished', result = ?4, termination = ?5, record = ?6, \
             finished_ms = ?7, lease_owner = NULL, lease_until_ms = NULL \
             WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            params![
                lease.game,
                lease.owner,
                lease.attempt,
                result,
                termination,
                hash,
                now_ms
            ],
        )?;
        Ok(if changed == 1 {
            Finished::Counted { record: hash }
        } else {
            Finished::Stale
        })
    }

    /// Cancels a series: its queued games are cancelled (leased ones finish or are
    /// voided as usual, and are not played again). Returns the games cancelled.
    pub fn cancel(&mut self, series: i64) -> Result<usize, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute(
            "UPDATE series SET state = 'cancelled' WHERE id = ?1 AND state = 'running'",
            [series],
        )?;
        let n = tx.execute(
            "UPDATE games SET state = 'cancelled' WHERE series_id = ?1 AND state = 'queued'",
            [series],
        )?;
        tx.commit()?;
        Ok(n)
    }

    /// The series' games per state.
    pub fn progress(&self, series: i64) -> Result<Progress, StoreError> {
        let mut p = Progress::default();
        let mut stmt = self.conn.prepare_cached(
            "SELECT state, COUNT(*), SUM(voided) FROM games WHERE series_id = ?1 GROUP BY state",
        )?;
        let rows = stmt.query_map([series], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, u64>(1)?,
                r.get::<_, u64>(2)?,
            ))
        })?;
        for row in rows {
            let (state, count, voided) = row?;
            p.voided_attempts += voided;
            match state.as_str() {
                "queued" => p.queued = count,
                "leased" => p.leased = count,
                "finished" => p.finished = count,
                "void" => p.void = count,
                _ => p.cancelled = count,
            }
        }
        Ok(p)
    }

    /// The finished games of a series in game order: number, result, record hash.
    pub fn results(&self, series: i64) -> Result<Vec<(u32, String, String)>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT number, result, record FROM games \
             WHERE series_id = ?1 AND state = 'finished' ORDER BY number",
        )?;
        let rows = stmt.query_map([series], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes a record file named by its SHA-256 (if not there already) and returns the
    /// hash: written to a temporary file, fsynced, renamed, and the directory fsynced.
    pub fn put_record(&self, text: &str) -> Result<String, StoreError> {
        use std::io::Write;
        let hash: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let path = self.record_path(&hash);
        if path.exists() {
            return Ok(hash);
        }
        let shard = path.parent().expect("a record path has a directory");
        let io = |what, p: &Path| {
            let p = p.to_path_buf();
            move |source| StoreError::Io {
                what,
                path: p,
                source,
            }
        };
        std::fs::create_dir_all(shard).map_err(io("create", shard))?;
        let tmp = shard.join(format!("{hash}.{}.tmp", std::process::id()));
        let mut file = std::fs::File::create(&tmp).map_err(io("create", &tmp))?;
        file.write_all(text.as_bytes()).map_err(io("write", &tmp))?;
        file.sync_all().map_err(io("sync", &tmp))?;
        std::fs::rename(&tmp, &path).map_err(io("rename", &tmp))?;
        std::fs::File::open(shard)
            .and_then(|d| d.sync_all())
            .map_err(io("sync", shard))?;
        Ok(hash)
    }

    /// A record's text by its hash.
    pub fn record(&self, hash: &str) -> Result<String, StoreError> {
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(StoreError::NoRecord(hash.to_string()));
        }
        std::fs::read_to_string(self.record_path(hash))
            .map_err(|_| StoreError::NoRecord(hash.to_string()))
    }

    fn record_path(&self, hash: &str) -> PathBuf {
        self.dir
            .join(RECORDS_DIR)
            .join(&hash[..2])
            .join(format!("{hash}.pgn"))
    }
}
