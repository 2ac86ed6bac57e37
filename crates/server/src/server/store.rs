//! The daemon's storage: one database — SQLite (`zebra.db` in the data directory, WAL mode,
//! one writer), or PostgreSQL shared by several daemons (see [`super::sql`]) — holding the
//! games and their records (each record's text named by its SHA-256 and written in the
//! same transaction as its game's result), and the uploaded archives as files in the data
//! directory (`archives/ab/abcd….tar.gz`). Records of games stored by a Zebra before
//! schema 10 are files (`records/ab/abcd….pgn`) and are read from there.
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
//! The schema is migrated at open ([`super::migrations`]: SQLite's `PRAGMA user_version`,
//! PostgreSQL's `zebra_schema` table count the steps applied); a database from a newer
//! Zebra, or one that fails SQLite's `quick_check`, is refused with its path, never reset.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::migrations;
use super::sql::{self, args, Arg, Db, Row};
use crate::rules::Rules;

/// The database file in the data directory.
pub const DB_FILE: &str = "zebra.db";
/// The directory of the record files of games stored before schema 10 (since then the
/// records are in the database).
pub(crate) const RECORDS_DIR: &str = "records";
/// The directory of uploaded archives in the data directory.
pub(crate) const ARCHIVES_DIR: &str = "archives";

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
    #[error("database: {0}")]
    Postgres(#[from] postgres::Error),
    #[error("database: {0}")]
    Column(String),
    #[error("cannot reach the database {url}: {detail}; check the address, that the server runs and that it lets this user in")]
    Unreachable { url: String, detail: String },
    #[error("there is no bot {0}")]
    UnknownBot(i64),
    #[error("bot {id} is {state}, not active: only active bots play")]
    BotNotActive { id: i64, state: BotState },
    /// The bot is active but not admitted to this game: not entered in it, its check is
    /// pending, or it failed it.
    #[error("bot {id} {why}")]
    NotAdmitted { id: i64, why: String },
    #[error("there is already a bot named {0}")]
    BotExists(String),
    #[error("{0}")]
    VersionName(String),
    #[error("the idempotency key {0} was used for a different series")]
    KeyConflict(String),
    #[error("there is no record {0}")]
    NoRecord(String),
    #[error("there is no series {0}")]
    NoSeries(i64),
    #[error("bot {0} was deleted by its owner")]
    BotDeleted(i64),
    #[error("this invite code is unknown, used up or expired: ask the organiser for a new one")]
    InviteRefused,
    #[error("the name {0} is taken: pick another")]
    OwnerTaken(String),
}

/// Games queued by one statement (SQLite's limit of parameters is 32,766).
const GAMES_PER_INSERT: usize = 500;

/// The daemon's database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// `zebra.db` in the data directory (the default).
    Sqlite,
    /// A PostgreSQL server, by its URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl Database {
    /// Reads `--database`: `sqlite` or a `postgres://` (or `postgresql://`) URL.
    pub fn parse(text: &str) -> Result<Database, String> {
        if text == "sqlite" {
            Ok(Database::Sqlite)
        } else if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(Database::Postgres(text.to_string()))
        } else {
            Err(format!(
                "--database {text}: give `sqlite` (the default) or a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE"
            ))
        }
    }

    /// As `--check-config` shows it (no password).
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite => "sqlite".to_string(),
            Database::Postgres(url) => Database::redacted(url),
        }
    }

    /// Whether several daemons may share it.
    pub fn is_shared(&self) -> bool {
        matches!(self, Database::Postgres(_))
    }

    /// The URL without its password, for messages.
    pub fn redacted(url: &str) -> String {
        match url.split_once("://") {
            Some((scheme, rest)) => match rest.rsplit_once('@') {
                Some((user, host)) => {
                    let user = user.split_once(':').map_or(user, |(u, _)| u);
                    format!("{scheme}://{user}@{host}")
                }
                None => url.to_string(),
            },
            None => url.to_string(),
        }
    }
}

/// Which series a page lists (every field left out matches all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeriesFilter {
    pub owner: Option<String>,
    /// running, finished or cancelled.
    pub state: Option<String>,
    /// The game's name (football-chess...).
    pub game: Option<String>,
    /// Series in which this bot plays.
    pub bot: Option<i64>,
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

/// Which games a worker can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Every game: the daemon's own workers, and remote workers that have the programs
    /// of the bots registered by path at the same paths (`zebra worker --same-programs`).
    Every,
    /// Only games whose two bots were uploaded (a worker downloads their archives).
    Uploaded,
}

/// A worker as it says it is on each lease: its name (`OWNER/NAME`) and its machine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerInfo {
    pub name: String,
    pub host: String,
    pub cpu: String,
    /// The sandbox level its games run at (as `zebra doctor` names it).
    pub sandbox: String,
    /// Its Zebra's version.
    pub zebra: String,
}

/// A worker and its figures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WorkerRow {
    #[serde(flatten)]
    pub info: WorkerInfo,
    pub first_ms: i64,
    pub seen_ms: i64,
    /// Games it finished that counted.
    pub games: u64,
    /// Timeouts of either side in those games.
    pub timeouts: u64,
    /// Those games that ended by a forfeit (not the engine's end, nor an adjudication).
    pub forfeits: u64,
    /// Excluded by an admin: it gets no more games.
    pub excluded: bool,
}

/// A game a worker holds until `until_ms`; its attempt (from 1) names the lease.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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

impl Lease {
    /// A lease from a row of `id, series_id, number, seed, white, black, attempts`, held
    /// by `owner` until `until_ms`.
    fn read(r: &Row<'_>, owner: String, until_ms: i64) -> Result<Lease, StoreError> {
        Ok(Lease {
            game: r.get(0)?,
            series: r.get(1)?,
            number: r.get(2)?,
            seed: r.get::<i64>(3)? as u64,
            white: r.get(4)?,
            black: r.get(5)?,
            attempt: r.get(6)?,
            owner,
            until_ms,
        })
    }
}

/// What became of a finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finished {
    /// Stored, with the record's hash.
    Counted { record: String },
    /// The lease was no longer current (voided meanwhile, or the series cancelled): the
    /// result is not counted, and its record is not kept.
    Stale,
}

/// What one daemon among those sharing a store does for all (see [`Store::lead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The admission checks of new bots.
    Checks = 1,
    /// The ladder's scheduling of pairs.
    Ladder = 2,
}

/// Where the store's count of finishes is (see [`Store::finishes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finishes {
    /// The highest finish number.
    pub last: i64,
    /// Times games were taken back (an excluded worker's).
    pub refolds: i64,
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

/// The data directory: the database (and the archives, and older record files, beside it).
pub struct Store {
    db: Db,
    /// The roles this daemon holds (see [`Store::lead`]), one bit each.
    leading: std::cell::Cell<u8>,
    /// The connection they were taken on (see [`super::sql::Db::connections`]).
    lead_connection: std::cell::Cell<u64>,
    dir: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store in `dir` on SQLite, checks the database and
    /// applies the migrations this Zebra has and the database lacks.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_on(dir, &Database::Sqlite)
    }

    /// Opens the store with its database: SQLite's file in `dir`, or a PostgreSQL server
    /// (the archives, and the record files of games stored before schema 10, stay in
    /// `dir`, which daemons sharing the server share too).
    pub fn open_on(dir: &Path, database: &Database) -> Result<Store, StoreError> {
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| StoreError::Io { what, path, source }
        };
        // Private, whoever made them and whatever the umask (see super::private).
        super::private::dir(dir).map_err(io("create", dir))?;
        let archives = dir.join(ARCHIVES_DIR);
        super::private::dir(&archives).map_err(io("create", &archives))?;
        let db = match database {
            Database::Sqlite => Self::open_sqlite(dir)?,
            Database::Postgres(url) => connect_pg(url)?,
        };
        let mut store = Store {
            db,
            leading: std::cell::Cell::new(0),
            lead_connection: std::cell::Cell::new(0),
            dir: dir.to_path_buf(),
        };
        store.migrate(database)?;
        Ok(store)
    }

    fn open_sqlite(dir: &Path) -> Result<Db, StoreError> {
        let path = dir.join(DB_FILE);
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| StoreError::Io { what, path, source }
        };
        // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the
        // database's own mode, so all three are private.
        super::private::file_options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("create", &path))?;
        for file in [
            path.clone(),
            dir.join(format!("{DB_FILE}-wal")),
            dir.join(format!("{DB_FILE}-shm")),
        ] {
            super::private::file_mode(&file).map_err(io("protect", &file))?;
        }
        let corrupt = |e: rusqlite::Error| StoreError::Corrupt {
            path: path.clone(),
            detail: e.to_string(),
        };
        let conn = rusqlite::Connection::open(&path).map_err(corrupt)?;
        // WAL: readers never wait for the writer; NORMAL sync is durable at each
        // checkpoint and never corrupts. A crash may lose the last commits before one
        // (games then played again: their leases were never finished), never half of one:
        // a game's result and its record are one commit.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(corrupt)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(corrupt)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(corrupt)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(corrupt)?;
        conn.set_prepared_statement_cache_capacity(128);
        let check: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(corrupt)?;
        if check != "ok" {
            return Err(StoreError::Corrupt {
                path,
                detail: check,
            });
        }
        Ok(Db::lite(conn))
    }

    fn migrate(&mut self, database: &Database) -> Result<(), StoreError> {
        let known = migrations::SQLITE.len();
        let newer = |found| StoreError::NewerSchema {
            path: match database {
                Database::Sqlite => self.dir.join(DB_FILE),
                Database::Postgres(url) => PathBuf::from(Database::redacted(url)),
            },
            found,
            known,
        };
        match database {
            Database::Sqlite => {
                let found: i64 = self
                    .db
                    .query_one("PRAGMA user_version", args![], |r| r.get(0))?;
                if found > known as i64 {
                    return Err(newer(found));
                }
                for (k, sql) in migrations::SQLITE
                    .iter()
                    .enumerate()
                    .skip(found.max(0) as usize)
                {
                    let tx = self.db.begin()?;
                    tx.batch(sql)?;
                    tx.batch(&format!("PRAGMA user_version = {}", k + 1))?;
                    tx.commit()?;
                }
            }
            Database::Postgres(_) => {
                // One daemon migrates while the others starting at once wait (the writers'
                // lock); each step in the same transaction as its version.
                let tx = self.db.begin()?;
                tx.batch("CREATE TABLE IF NOT EXISTS zebra_schema (version BIGINT NOT NULL)")?;
                let found: Option<i64> =
                    tx.query_opt("SELECT version FROM zebra_schema", args![], |r| r.get(0))?;
                let found = found.unwrap_or(0);
                if found > known as i64 {
                    return Err(newer(found));
                }
                for (version, sql) in migrations::POSTGRES {
                    if *version as i64 > found {
                        tx.batch(sql)?;
                    }
                }
                tx.execute("DELETE FROM zebra_schema", args![])?;
                tx.execute(
                    "INSERT INTO zebra_schema (version) VALUES (?1)",
                    args![known],
                )?;
                tx.commit()?;
            }
        }
        Ok(())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        if self.db.is_pg() {
            self.db
                .query_one("SELECT version FROM zebra_schema", args![], |r| r.get(0))
        } else {
            self.db
                .query_one("PRAGMA user_version", args![], |r| r.get(0))
        }
    }

    /// Registers a bot entered in Football Chess, pending until its check makes it active
    /// (or rejected).
    pub fn add_bot(
        &mut self,
        name: &str,
        spec: &str,
        owner: &str,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        self.insert_bot(name, name, 1, spec, owner, now_ms, &[Rules::FootballChess])
    }

    /// Registers `entry` (pending its check) as the first bot of its name's family, or,
    /// if `owner` already has bots of that family, as its next version: named
    /// `NAME vK` (the entry is renamed, so records name the version). Another owner's
    /// family is refused as [`StoreError::BotExists`]. The bot is entered in Football
    /// Chess, pending its check.
    pub fn add_version(
        &mut self,
        entry: &mut crate::series::BotEntry,
        owner: &str,
        now_ms: i64,
    ) -> Result<AddedBot, StoreError> {
        self.add_version_in(entry, owner, now_ms, &[Rules::FootballChess])
    }

    /// [`Store::add_version`], the bot entered in `games` (none: Football Chess), each
    /// pending its own check.
    pub fn add_version_in(
        &mut self,
        entry: &mut crate::series::BotEntry,
        owner: &str,
        now_ms: i64,
        games: &[Rules],
    ) -> Result<AddedBot, StoreError> {
        let family = entry.name.clone();
        // The last version read and the next one added by one writer.
        let tx = self.db.begin()?;
        let last: Option<(String, i64)> = self.db.query_opt(
            "SELECT owner, MAX(version) FROM bots WHERE family = ?1 GROUP BY family, owner",
            args![&family],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let version = match last {
            None => 1,
            Some((other, _)) if other != owner => return Err(StoreError::BotExists(family)),
            Some((_, v)) => v + 1,
        };
        if version > 1 {
            entry.name = format!("{family} v{version}");
            crate::bot::text::check_user_name(&entry.name).map_err(|e| {
                StoreError::VersionName(format!(
                    "version {version} of {family}: {e}; register it under a shorter name"
                ))
            })?;
        }
        let spec = serde_json::to_string(&*entry).expect("a bot entry serializes");
        let id = self.insert_bot(&entry.name, &family, version, &spec, owner, now_ms, games)?;
        tx.commit()?;
        Ok(AddedBot {
            id,
            name: entry.name.clone(),
            version,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn insert_bot(
        &self,
        name: &str,
        family: &str,
        version: i64,
        spec: &str,
        owner: &str,
        now_ms: i64,
        games: &[Rules],
    ) -> Result<i64, StoreError> {
        let tx = self.db.begin()?;
        let done = tx.insert(
            "INSERT INTO bots (name, spec, state, owner, created_ms, family, version) \
             VALUES (?1, ?2, 'pending', ?3, ?4, ?5, ?6)",
            args![name, spec, owner, now_ms, family, version],
        );
        let id = match done {
            Ok(id) => id,
            Err(e) if Db::is_unique_violation(&e) => {
                return Err(StoreError::BotExists(name.to_string()))
            }
            Err(e) => return Err(e),
        };
        let games = if games.is_empty() {
            &[Rules::FootballChess][..]
        } else {
            games
        };
        for game in games {
            tx.execute(
                "INSERT OR IGNORE INTO bot_games (bot_id, game, state) VALUES (?1, ?2, 'pending')",
                args![id, game.name()],
            )?;
        }
        tx.commit()?;
        Ok(id)
    }

    /// Enters bot `id` in `game`, pending that game's check; `false` if it was entered
    /// already (its check stands).
    pub fn enter(&mut self, id: i64, game: Rules) -> Result<bool, StoreError> {
        match self.bot(id)? {
            None => return Err(StoreError::UnknownBot(id)),
            Some(b) if b.deleted_ms.is_some() => return Err(StoreError::BotDeleted(id)),
            Some(_) => {}
        }
        let n = self.db.execute(
            "INSERT OR IGNORE INTO bot_games (bot_id, game, state) VALUES (?1, ?2, 'pending')",
            args![id, game.name()],
        )?;
        Ok(n == 1)
    }

    /// The games of bot `id`, by name.
    pub fn bot_games(&self, id: i64) -> Result<Vec<BotGame>, StoreError> {
        let rows = self.db.query(
            "SELECT bot_id, game, state, report FROM bot_games WHERE bot_id = ?1 ORDER BY game",
            args![id],
            BotGame::read,
        )?;
        Ok(rows)
    }

    /// The games of every bot, by bot id then name.
    pub(crate) fn all_bot_games(&self) -> Result<Vec<BotGame>, StoreError> {
        let rows = self.db.query(
            "SELECT bot_id, game, state, report FROM bot_games ORDER BY bot_id, game",
            args![],
            BotGame::read,
        )?;
        Ok(rows)
    }

    /// The checks to run: each bot (not suspended) and game whose check is pending, in
    /// turn among owners (every owner's oldest first, then every owner's next...), so that
    /// one owner's burst of uploads does not hold everyone else's checks back.
    pub fn pending_checks(&self) -> Result<Vec<(BotRow, Rules)>, StoreError> {
        let pairs: Vec<(i64, String)> = self.db.query(
            // Fair across owners: each owner's oldest pending check, then each one's second...
            "SELECT g.bot_id, g.game FROM bot_games g JOIN bots b ON b.id = g.bot_id \
             WHERE g.state = 'pending' AND b.state != 'suspended' \
             ORDER BY ROW_NUMBER() OVER (PARTITION BY b.owner ORDER BY g.bot_id, g.game), \
             g.bot_id, g.game",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut out = Vec::new();
        for (id, game) in pairs {
            // A game this Zebra does not know (a newer one's row) is left pending.
            let (Some(bot), Ok(game)) = (self.bot(id)?, game.parse::<Rules>()) else {
                continue;
            };
            out.push((bot, game));
        }
        Ok(out)
    }

    /// Stores the check of bot `id` for `game`: its verdict (active or rejected) and
    /// report. The report becomes the bot's latest; a bot pending or rejected becomes
    /// active once it passed one game's check, rejected once it failed all of them.
    pub fn set_check(
        &mut self,
        id: i64,
        game: Rules,
        verdict: BotState,
        report: &str,
    ) -> Result<(), StoreError> {
        let tx = self.db.begin()?;
        let deleted: Option<Option<i64>> = tx.query_opt(
            "SELECT deleted_ms FROM bots WHERE id = ?1",
            args![id],
            |r| r.get(0),
        )?;
        match deleted {
            None => return Err(StoreError::UnknownBot(id)),
            // Deleted while it was checked: its report is not kept.
            Some(Some(_)) => return Ok(()),
            Some(None) => {}
        }
        let changed = tx.execute(
            "UPDATE bot_games SET state = ?3, report = ?4 WHERE bot_id = ?1 AND game = ?2",
            args![id, game.name(), verdict.as_str(), report],
        )?;
        if changed == 0 {
            return Err(StoreError::UnknownBot(id));
        }
        tx.execute(
            "UPDATE bots SET report = ?2, state = CASE \
                 WHEN state NOT IN ('pending', 'rejected') THEN state \
                 WHEN EXISTS (SELECT 1 FROM bot_games WHERE bot_id = ?1 AND state = 'active') \
                     THEN 'active' \
                 WHEN EXISTS (SELECT 1 FROM bot_games WHERE bot_id = ?1 AND state = 'pending') \
                     THEN state \
                 ELSE 'rejected' END \
             WHERE id = ?1",
            args![id, report],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Sets a bot's state (an admin's `bot activate` and `bot suspend`, a suspension after
    /// crashes), with a report to keep when there is one. Made active, the bot is admitted
    /// to every game it is entered in, whatever their checks said (an admin's override;
    /// the reports stay).
    pub fn set_bot_state(
        &mut self,
        id: i64,
        state: BotState,
        report: Option<&str>,
    ) -> Result<(), StoreError> {
        let tx = self.db.begin()?;
        let deleted: Option<bool> = tx.query_opt(
            "SELECT deleted_ms IS NOT NULL FROM bots WHERE id = ?1",
            args![id],
            |r| r.get(0),
        )?;
        match deleted {
            None => return Err(StoreError::UnknownBot(id)),
            Some(true) => return Err(StoreError::BotDeleted(id)),
            Some(false) => {}
        }
        tx.execute(
            "UPDATE bots SET state = ?2, report = COALESCE(?3, report) WHERE id = ?1",
            args![id, state.as_str(), report],
        )?;
        if state == BotState::Active {
            tx.execute(
                "UPDATE bot_games SET state = 'active' WHERE bot_id = ?1",
                args![id],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every bot, by id.
    pub fn bots(&self) -> Result<Vec<BotRow>, StoreError> {
        let rows = self
            .db
            .query(&format!("{BOT_ROW} ORDER BY id"), args![], BotRow::read)?;
        Ok(rows)
    }

    /// One bot.
    pub fn bot(&self, id: i64) -> Result<Option<BotRow>, StoreError> {
        self.db
            .query_opt(&format!("{BOT_ROW} WHERE id = ?1"), args![id], BotRow::read)
    }

    /// Queues a series and its games in one transaction. With a key already used: the
    /// same spec is the same series (nothing queued again), another spec is refused.
    /// A Football Chess series; [`Store::submit_game`] names the game.
    pub fn submit(
        &mut self,
        key: Option<&str>,
        spec: &str,
        owner: &str,
        games: &[NewGame],
        now_ms: i64,
    ) -> Result<Submitted, StoreError> {
        self.submit_game(key, spec, Rules::FootballChess, owner, games, now_ms)
    }

    /// Queues a series of `game`: each bot must be active and admitted to that game (its
    /// check for it passed, or an admin activated it).
    pub fn submit_game(
        &mut self,
        key: Option<&str>,
        spec: &str,
        game: Rules,
        owner: &str,
        games: &[NewGame],
        now_ms: i64,
    ) -> Result<Submitted, StoreError> {
        let tx = self.db.begin()?;
        if let Some(key) = key {
            let before: Option<(i64, String)> = tx.query_opt(
                "SELECT id, spec FROM series WHERE idempotency_key = ?1",
                args![key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if let Some((id, was)) = before {
                return if was == spec {
                    Ok(Submitted::Existing(id))
                } else {
                    Err(StoreError::KeyConflict(key.to_string()))
                };
            }
        }
        let series = tx.insert(
            "INSERT INTO series (idempotency_key, spec, state, owner, created_ms, game) \
             VALUES (?1, ?2, 'running', ?3, ?4, ?5)",
            args![key, spec, owner, now_ms, game.name()],
        )?;
        {
            let mut known = std::collections::HashSet::new();
            for g in games {
                for id in [g.white, g.black] {
                    if known.insert(id) {
                        let state: Option<(String, bool)> = tx.query_opt(
                            "SELECT state, deleted_ms IS NOT NULL FROM bots WHERE id = ?1",
                            args![id],
                            |r| Ok((r.get(0)?, r.get(1)?)),
                        )?;
                        if state.as_ref().is_some_and(|(_, deleted)| *deleted) {
                            return Err(StoreError::BotDeleted(id));
                        }
                        match state.map(|(s, _)| BotState::parse(&s)) {
                            None => return Err(StoreError::UnknownBot(id)),
                            Some(BotState::Active) => {}
                            Some(state) => return Err(StoreError::BotNotActive { id, state }),
                        }
                        let check: Option<String> = tx.query_opt(
                            "SELECT state FROM bot_games WHERE bot_id = ?1 AND game = ?2",
                            args![id, game.name()],
                            |r| r.get(0),
                        )?;
                        let why = match check.as_deref() {
                            Some("active") => None,
                            None => Some(format!(
                                "is not entered in {game}: enter it with POST /api/v1/bots/{id}/games (its check for {game} runs first)"
                            )),
                            Some("pending") => Some(format!(
                                "has not been checked for {game} yet: wait for its check"
                            )),
                            Some(_) => Some(format!(
                                "failed its check for {game}: it plays {game} once it passes (or an admin activates it)"
                            )),
                        };
                        if let Some(why) = why {
                            return Err(StoreError::NotAdmitted { id, why });
                        }
                    }
                }
            }
            // Many rows a statement (a round trip each on PostgreSQL); the seed's bits, as
            // the databases' integers are signed 64-bit.
            for chunk in games.chunks(GAMES_PER_INSERT) {
                let rows = vec!["(?, ?, ?, ?, ?, 'queued')"; chunk.len()].join(", ");
                let mut values = Vec::with_capacity(chunk.len() * 5);
                for g in chunk {
                    values.extend_from_slice(args![
                        series,
                        g.number,
                        g.seed as i64,
                        g.white,
                        g.black
                    ]);
                }
                tx.execute(
                    &format!(
                        "INSERT INTO games (series_id, number, seed, white, black, state) VALUES {rows}"
                    ),
                    &values,
                )?;
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
        self.lease_for(owner, now_ms, lease_ms, max_attempts, Reach::Every)
    }

    /// [`Store::lease`] for a worker that can play only some games (`reach`).
    pub fn lease_for(
        &mut self,
        owner: &str,
        now_ms: i64,
        lease_ms: i64,
        max_attempts: u32,
        reach: Reach,
    ) -> Result<Option<Lease>, StoreError> {
        let pg = self.db.is_pg();
        if pg {
            // Leases that ran out are voided by one writer at a time (two daemons voiding
            // the same rows in different orders could deadlock).
            let tx = self.db.begin()?;
            Self::void_where(&tx, "lease_until_ms < ?1", args![now_ms], max_attempts)?;
            tx.commit()?;
        }
        let tx = self.db.begin_queue()?;
        if !pg {
            Self::void_where(&tx, "lease_until_ms < ?1", args![now_ms], max_attempts)?;
        }
        // An excluded worker gets nothing, whenever its exclusion came (checked here, in
        // the same transaction as the grant; on PostgreSQL its row is held shared, so an
        // exclusion being written waits for this grant, or this grant for it).
        if let Some(name) = owner
            .strip_prefix("worker:")
            .and_then(|o| o.rsplit_once('#'))
            .map(|(name, _)| name)
        {
            if Self::is_excluded(&tx, name)? {
                tx.commit()?;
                return Ok(None);
            }
        }
        // PostgreSQL: the game is locked until the grant commits, and a game another
        // daemon is granting is passed over rather than waited for.
        let skip = if pg {
            "FOR UPDATE OF g SKIP LOCKED"
        } else {
            ""
        };
        let only_uploaded = match reach {
            Reach::Every => "",
            Reach::Uploaded => "AND w.archive IS NOT NULL AND b.archive IS NOT NULL",
        };
        let next = tx.query_opt(
            &format!(
                "SELECT g.id, g.series_id, g.number, g.seed, g.white, g.black, g.attempts \
                     FROM games g JOIN series s ON s.id = g.series_id \
                     JOIN bots w ON w.id = g.white JOIN bots b ON b.id = g.black \
                     WHERE g.state = 'queued' AND s.state = 'running' \
                     AND w.state = 'active' AND b.state = 'active' {only_uploaded} \
                     ORDER BY g.id LIMIT 1 {skip}"
            ),
            args![],
            |r| {
                // Its next attempt.
                let mut lease = Lease::read(r, owner.to_string(), now_ms + lease_ms)?;
                lease.attempt += 1;
                Ok(lease)
            },
        )?;
        if let Some(lease) = &next {
            tx.execute(
                "UPDATE games SET state = 'leased', attempts = ?2, lease_owner = ?3, \
                 lease_until_ms = ?4 WHERE id = ?1",
                args![lease.game, lease.attempt, owner, lease.until_ms],
            )?;
        }
        tx.commit()?;
        Ok(next)
    }

    /// The lease on game `game` held by `owner` at `attempt`, as the store has it (its
    /// series, number, seed and bots), if it is still current: what a remote worker's
    /// request is checked against, field by field.
    pub fn held(&self, game: i64, owner: &str, attempt: u32) -> Result<Option<Lease>, StoreError> {
        self.db.query_opt(
            "SELECT id, series_id, number, seed, white, black, attempts, lease_owner, \
                 lease_until_ms FROM games \
                 WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            args![game, owner, attempt],
            |r| {
                let (owner, until_ms) = (r.get(7)?, r.get(8)?);
                Lease::read(r, owner, until_ms)
            },
        )
    }

    /// Gives a current lease back without using up its attempt: the game was never
    /// started (its worker could not set it up, or stopped before it began), so it is
    /// queued again as it was. `false` if the lease was not current.
    pub fn release(&mut self, lease: &Lease) -> Result<bool, StoreError> {
        let changed = self.db.execute(
            "UPDATE games SET state = 'queued', attempts = attempts - 1, lease_owner = NULL, \
             lease_until_ms = NULL \
             WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            args![lease.game, lease.owner, lease.attempt],
        )?;
        Ok(changed == 1)
    }

    /// Extends a lease that is still current; `false` when it is not (voided meanwhile).
    pub fn renew(&mut self, lease: &mut Lease, until_ms: i64) -> Result<bool, StoreError> {
        let changed = self.db.execute(
            "UPDATE games SET lease_until_ms = ?4 \
             WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            args![lease.game, lease.owner, lease.attempt, until_ms],
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
        let tx = self.db.begin()?;
        let n = match owner {
            Some(owner) => Self::void_where(&tx, "lease_owner = ?1", args![owner], max_attempts)?,
            None => Self::void_where(&tx, "1 = 1", args![], max_attempts)?,
        };
        tx.commit()?;
        Ok(n)
    }

    /// Voids the attempts of the games the daemon's own workers held (every lease named
    /// `daemon-…`): what a daemon does at start. A remote worker's lease is left to run
    /// out (its worker may still be playing, and then counts its game).
    pub fn void_local_leases(&mut self, max_attempts: u32) -> Result<usize, StoreError> {
        let tx = self.db.begin()?;
        let n = Self::void_where(
            &tx,
            "substr(lease_owner, 1, 7) = 'daemon-'",
            args![],
            max_attempts,
        )?;
        tx.commit()?;
        Ok(n)
    }

    /// Voids one lease's attempt (its game was abandoned: the daemon is stopping).
    pub(crate) fn void_lease(
        &mut self,
        lease: &Lease,
        max_attempts: u32,
    ) -> Result<bool, StoreError> {
        let tx = self.db.begin()?;
        let n = Self::void_where(
            &tx,
            "id = ?1 AND lease_owner = ?2 AND attempts = ?3",
            args![lease.game, lease.owner, lease.attempt],
            max_attempts,
        )?;
        tx.commit()?;
        Ok(n == 1)
    }

    /// Voids the current attempt of the leased games matching `condition`.
    fn void_where(
        tx: &Db,
        condition: &str,
        args: &[sql::Value],
        max_attempts: u32,
    ) -> Result<usize, StoreError> {
        let sql = format!(
            "UPDATE games SET voided = voided + 1, lease_owner = NULL, lease_until_ms = NULL, \
             state = CASE WHEN attempts >= {max_attempts} THEN 'void' ELSE 'queued' END \
             WHERE state = 'leased' AND {condition}"
        );
        tx.execute(&sql, args)
    }

    /// Stores a finished game with its record's text (`record`, whose hash is
    /// `game.record`: see [`record_hash`]), if the lease is still current: the result and
    /// the record in one transaction, so that neither is ever stored without the other.
    /// The game takes the next number in the order of finishes (`fin_seq`: one writer at a
    /// time numbers them, so a reader sees every finish below the highest it sees).
    pub fn finish(
        &mut self,
        lease: &Lease,
        game: &GameEnd,
        record: &str,
        now_ms: i64,
    ) -> Result<Finished, StoreError> {
        let tx = self.db.begin()?;
        let changed = tx.execute(
            "UPDATE games SET state = 'finished', result = ?4, termination = ?5, record = ?6, \
             conduct = ?7, finished_ms = ?8, played_by = lease_owner, lease_owner = NULL, \
             lease_until_ms = NULL, \
             fin_seq = (SELECT COALESCE(MAX(fin_seq), 0) + 1 FROM games) \
             WHERE id = ?1 AND state = 'leased' AND lease_owner = ?2 AND attempts = ?3",
            args![
                lease.game,
                lease.owner,
                lease.attempt,
                game.result,
                game.termination,
                game.record,
                game.conduct,
                now_ms
            ],
        )?;
        if changed == 1 {
            keep_record(&tx, &game.record, record)?;
            tx.execute(
                "DELETE FROM live_games WHERE game_id = ?1",
                args![lease.game],
            )?;
        }
        tx.commit()?;
        Ok(if changed == 1 {
            Finished::Counted {
                record: game.record.clone(),
            }
        } else {
            Finished::Stale
        })
    }

    /// Ends a running series with `outcome` (the SPRT decided, or every game is played):
    /// games still queued are cancelled; leased ones finish and are kept, as `zebra match`
    /// keeps the games running when the SPRT stops it. `false` if it was not running.
    pub fn conclude(&mut self, series: i64, outcome: &str) -> Result<bool, StoreError> {
        let tx = self.db.begin()?;
        let changed = tx.execute("UPDATE series SET state = 'finished', outcome = ?2 WHERE id = ?1 AND state = 'running'", args![series, outcome])?;
        if changed == 1 {
            tx.execute(
                "UPDATE games SET state = 'cancelled' WHERE series_id = ?1 AND state = 'queued'",
                args![series],
            )?;
        }
        tx.commit()?;
        Ok(changed == 1)
    }

    /// Cancels a series: its queued games are cancelled (leased ones finish or are
    /// voided as usual, and are not played again). Returns the games cancelled.
    pub fn cancel(&mut self, series: i64) -> Result<usize, StoreError> {
        let tx = self.db.begin()?;
        tx.execute(
            // The code of `series::Ending::Cancelled`.
            "UPDATE series SET state = 'cancelled', outcome = 'cancelled' \
             WHERE id = ?1 AND state = 'running'",
            args![series],
        )?;
        let n = tx.execute(
            "UPDATE games SET state = 'cancelled' WHERE series_id = ?1 AND state = 'queued'",
            args![series],
        )?;
        tx.commit()?;
        Ok(n)
    }

    /// The series' games per state.
    pub fn progress(&self, series: i64) -> Result<Progress, StoreError> {
        let mut p = Progress::default();
        let rows = self.db.query(
            "SELECT state, COUNT(*), CAST(SUM(voided) AS BIGINT) FROM games WHERE series_id = ?1 \
             GROUP BY state",
            args![series],
            |r| Ok((r.get::<String>(0)?, r.get::<u64>(1)?, r.get::<u64>(2)?)),
        )?;
        for (state, count, voided) in rows {
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

    /// Whether series `series` has a game queued or leased. Asked at every game's end: one
    /// step of the `games_by_series` index, where [`Store::progress`] visits every game of
    /// the series (2.8 ms a game in a 10,000-game series, measured on SQLite).
    pub fn unplayed(&self, series: i64) -> Result<bool, StoreError> {
        let found: Option<i64> = self.db.query_opt(
            "SELECT id FROM games WHERE series_id = ?1 AND state IN ('queued', 'leased') LIMIT 1",
            args![series],
            |r| r.get(0),
        )?;
        Ok(found.is_some())
    }

    /// When the last game of series `series` to finish did (ms since the epoch), if any.
    pub fn last_finish_ms(&self, series: i64) -> Result<Option<i64>, StoreError> {
        self.db.query_one(
            "SELECT MAX(finished_ms) FROM games WHERE series_id = ?1 AND state = 'finished'",
            args![series],
            |r| r.get::<Option<i64>>(0),
        )
    }

    /// The finished games of a series in game order.
    pub fn results(&self, series: i64) -> Result<Vec<GameEnd>, StoreError> {
        let mut all = Vec::new();
        self.each_result(series, |g| all.push(g))?;
        Ok(all)
    }

    /// The finished games of a series in game order, one at a time: a series' books are
    /// folded from them without holding them all.
    pub(crate) fn each_result(
        &self,
        series: i64,
        mut each: impl FnMut(GameEnd),
    ) -> Result<(), StoreError> {
        self.db.each(
            "SELECT number, result, termination, conduct, record FROM games \
             WHERE series_id = ?1 AND state = 'finished' ORDER BY number",
            args![series],
            |r| {
                each(GameEnd {
                    number: r.get(0)?,
                    result: r.get(1)?,
                    termination: r.get(2)?,
                    conduct: r.get::<Option<String>>(3)?.unwrap_or_default(),
                    record: r.get(4)?,
                });
                Ok(())
            },
        )
    }

    /// One series.
    pub fn series(&self, id: i64) -> Result<Option<SeriesRow>, StoreError> {
        self.db.query_opt(
            &format!("{SERIES_ROW} WHERE id = ?1"),
            args![id],
            SeriesRow::read,
        )
    }

    /// The series still running, oldest first.
    pub(crate) fn running_series(&self) -> Result<Vec<SeriesRow>, StoreError> {
        let rows = self.db.query(
            &format!("{SERIES_ROW} WHERE state = 'running' ORDER BY id"),
            args![],
            SeriesRow::read,
        )?;
        Ok(rows)
    }

    /// How many series `owner` has had.
    pub(crate) fn count_series(&self, owner: &str) -> Result<u64, StoreError> {
        self.db.query_one(
            "SELECT COUNT(*) FROM series WHERE owner = ?1",
            args![owner],
            |r| r.get(0),
        )
    }

    /// A page of series, newest first: those `filter` matches with an id below `before`
    /// (if given), at most `limit`; how many `filter` matches in all; whether older ones
    /// follow.
    pub fn series_page(
        &self,
        filter: &SeriesFilter,
        before: Option<i64>,
        limit: u32,
    ) -> Result<(Vec<SeriesRow>, u64, bool), StoreError> {
        let mut conditions = vec!["1 = 1".to_string()];
        let mut args: Vec<sql::Value> = Vec::new();
        let mut arg = |condition: &str, value: sql::Value| {
            args.push(value);
            conditions.push(condition.replace('?', &format!("?{}", args.len())));
        };
        if let Some(owner) = &filter.owner {
            arg("owner = ?", owner.value());
        }
        if let Some(state) = &filter.state {
            arg("state = ?", state.value());
        }
        if let Some(game) = &filter.game {
            arg("game = ?", game.value());
        }
        if let Some(bot) = filter.bot {
            // Both sides by their own indexes; the one value is named twice.
            arg(
                "id IN (SELECT series_id FROM games WHERE white = ? \
                 UNION SELECT series_id FROM games WHERE black = ?)",
                bot.value(),
            );
        }
        let filtered = conditions.join(" AND ");
        let total: i64 = self.db.query_one(
            &format!("SELECT COUNT(*) FROM series WHERE {filtered}"),
            &args,
            |r| r.get(0),
        )?;
        let mut page_params = args.clone();
        // One more than asked: whether a next page exists.
        page_params.push(before.unwrap_or(i64::MAX).value());
        page_params.push((limit + 1).value());
        let (b, l) = (page_params.len() - 1, page_params.len());
        let mut rows = self.db.query(
            &format!("{SERIES_ROW} WHERE {filtered} AND id < ?{b} ORDER BY id DESC LIMIT ?{l}"),
            &page_params,
            SeriesRow::read,
        )?;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        Ok((rows, total.max(0) as u64, more))
    }

    /// The games of each series in `ids`: (planned, finished), planned counting every game
    /// queued for it whatever became of it.
    pub fn series_counts(
        &self,
        ids: &[i64],
    ) -> Result<std::collections::HashMap<i64, (u64, u64)>, StoreError> {
        let mut out = std::collections::HashMap::new();
        for &id in ids {
            let (planned, finished): (i64, i64) = self.db.query_one(
                "SELECT COUNT(*), COUNT(CASE WHEN state = 'finished' THEN 1 END) FROM games \
                 WHERE series_id = ?1",
                args![id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            out.insert(id, (planned.max(0) as u64, finished.max(0) as u64));
        }
        Ok(out)
    }

    /// A page of bot `bot`'s finished games (against `opponent` only, if given), newest
    /// first, with an id below `before`; how many there are in all; whether older ones
    /// follow.
    pub fn bot_games_page(
        &self,
        bot: i64,
        opponent: Option<i64>,
        before: Option<i64>,
        limit: u32,
    ) -> Result<(Vec<GameRow>, u64, bool), StoreError> {
        // Each side by its own index, then merged.
        // (A NULL parameter typed where it is tested: PostgreSQL cannot type it from
        // `IS NULL` alone.)
        let which = "state = 'finished' \
                     AND ((white = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR black = ?2)) \
                     OR (black = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR white = ?2)))";
        let total: i64 = self.db.query_one(
            &format!("SELECT COUNT(*) FROM games WHERE {which}"),
            args![bot, opponent],
            |r| r.get(0),
        )?;
        let rows = self.db.query(
            &format!("{GAME_ROW} WHERE {which} AND id < ?3 ORDER BY id DESC LIMIT ?4"),
            args![bot, opponent, before.unwrap_or(i64::MAX), limit + 1],
            GameRow::read,
        )?;
        let mut rows: Vec<GameRow> = rows;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        Ok((rows, total.max(0) as u64, more))
    }

    /// The records of finished games, in id order after `after`, at most `limit`: a bot's
    /// (`bot`) or a series' (`series`). Each as (game id, record hash).
    pub fn records_after(
        &self,
        bot: Option<i64>,
        series: Option<i64>,
        after: i64,
        limit: u32,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        // One statement per filter, each on its own index (a bot's: both sides' by id; a
        // series': by series), so that a batch never scans the whole table.
        let (sql, key) = match (bot, series) {
            (Some(bot), _) => (
                "SELECT id, record FROM games WHERE ((white = ?1 AND id > ?2) OR (black = ?1 AND id > ?2)) \
                 AND state = 'finished' AND record IS NOT NULL ORDER BY id LIMIT ?3",
                bot,
            ),
            (None, Some(series)) => (
                "SELECT id, record FROM games WHERE series_id = ?1 AND state = 'finished' \
                 AND record IS NOT NULL AND id > ?2 ORDER BY id LIMIT ?3",
                series,
            ),
            (None, None) => return Ok(Vec::new()),
        };
        let rows = self.db.query(sql, args![key, after, limit], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows)
    }

    /// Every finished game of `game` in the order they finished: White, Black, result and
    /// when. Read through `each`, one at a time.
    pub(crate) fn each_finished_of(
        &self,
        game: Rules,
        mut each: impl FnMut(i64, i64, &str, i64),
    ) -> Result<(), StoreError> {
        self.db.each(
            "SELECT g.white, g.black, g.result, COALESCE(g.finished_ms, 0) FROM games g \
             JOIN series s ON s.id = g.series_id \
             WHERE g.state = 'finished' AND s.game = ?1 ORDER BY g.finished_ms, g.id",
            args![game.name()],
            |row| {
                let result: String = row.get(2)?;
                each(row.get(0)?, row.get(1)?, &result, row.get(3)?);
                Ok(())
            },
        )
    }

    /// The games of a series in game order (`after`: only those numbered above it), at
    /// most `limit`.
    pub fn games(&self, series: i64, after: u32, limit: u32) -> Result<Vec<GameRow>, StoreError> {
        let rows = self.db.query(
            &format!("{GAME_ROW} WHERE series_id = ?1 AND number > ?2 ORDER BY number LIMIT ?3"),
            args![series, after, limit],
            GameRow::read,
        )?;
        Ok(rows)
    }

    /// One game.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.db.query_opt(
            &format!("{GAME_ROW} WHERE id = ?1"),
            args![id],
            GameRow::read,
        )
    }

    /// Games queued and leased over every running series.
    pub fn queue(&self) -> Result<(u64, u64), StoreError> {
        self.db.query_one(
            "SELECT COUNT(CASE WHEN state = 'queued' THEN 1 END), \
             COUNT(CASE WHEN state = 'leased' THEN 1 END) \
             FROM games WHERE state IN ('queued', 'leased')",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// Runs `f` as one write transaction (one writer at a time, on PostgreSQL across
    /// daemons too): the store's own transactions inside it join it, so a check and the
    /// writes it guards (a quota and the upload it admits) cannot interleave with another
    /// daemon's. `f`'s error rolls everything back.
    pub fn exclusive<T>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.db.enter(true)?;
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self)));
        match done {
            Ok(Ok(value)) => {
                self.db.leave(true)?;
                Ok(value)
            }
            Ok(Err(e)) => {
                let _ = self.db.leave(false);
                Err(e)
            }
            Err(panic) => {
                let _ = self.db.leave(false);
                std::panic::resume_unwind(panic)
            }
        }
    }

    /// Whether this daemon holds `role` (the admission checks, the ladder's scheduling):
    /// always on SQLite (one daemon); on PostgreSQL the first daemon to ask takes it (an
    /// advisory lock of its connection) and holds it until its connection ends, when
    /// the next to ask takes it over.
    pub fn lead(&self, role: Role) -> Result<bool, StoreError> {
        if !self.db.is_pg() {
            return Ok(true);
        }
        // A connection opened again holds none of the last one's roles.
        if self.lead_connection.get() != self.db.connections() {
            self.lead_connection.set(self.db.connections());
            self.leading.set(0);
        }
        // Asked again by its holder, the lock is counted again: taken once per daemon.
        if self.leading.get() & role as u8 != 0 {
            return Ok(true);
        }
        let taken: bool = self.db.query_one(
            "SELECT pg_try_advisory_lock(?1)",
            args![0x7a_65_62_72_00_i64 + role as i64],
            |r| r.get(0),
        )?;
        if taken {
            self.leading.set(self.leading.get() | role as u8);
        }
        Ok(taken)
    }

    /// Keeps game `lease`'s record so far for the live pages of other daemons sharing the
    /// store (written by the daemon playing it, at most twice a second; no lock taken).
    /// Stamped with the database's clock on PostgreSQL (the daemons' clocks may differ:
    /// readers compare stamps of one clock; `now_ms` is SQLite's stamp).
    pub fn set_live(&self, lease: &Lease, record: &str, now_ms: i64) -> Result<(), StoreError> {
        let now = if self.db.is_pg() {
            "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
        } else {
            "?6"
        };
        self.db.execute(
            &format!(
                "INSERT INTO live_games (game_id, series_id, number, attempt, record, updated_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, {now}) ON CONFLICT (game_id) DO UPDATE SET \
                 attempt = ?4, record = ?5, updated_ms = {now}"
            ),
            args![
                lease.game,
                lease.series,
                lease.number,
                lease.attempt,
                record,
                now_ms
            ],
        )?;
        Ok(())
    }

    /// The running games of series `series` that someone other than `owner` plays, whose
    /// record so far was written after `after_ms` (by the database's clock, see
    /// [`Store::set_live`]): (number, attempt, record, when).
    pub fn live_since(
        &self,
        series: i64,
        after_ms: i64,
        owner: &str,
    ) -> Result<Vec<(u32, u32, String, i64)>, StoreError> {
        self.db.query(
            "SELECT l.number, l.attempt, l.record, l.updated_ms FROM live_games l \
             JOIN games g ON g.id = l.game_id \
             WHERE l.series_id = ?1 AND l.updated_ms > ?2 AND g.state = 'leased' \
             AND g.attempts = l.attempt AND g.lease_owner != ?3 ORDER BY l.number",
            args![series, after_ms, owner],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
    }

    /// Forgets the records so far of games no longer running (voided, cancelled); those
    /// finished are forgotten as they finish.
    pub fn tidy_live(&self) -> Result<usize, StoreError> {
        self.db.execute(
            "DELETE FROM live_games WHERE game_id NOT IN \
             (SELECT id FROM games WHERE state = 'leased')",
            args![],
        )
    }

    /// Where the store's count of finishes is: the highest finish number (0 before any)
    /// and how many times games were taken back. Books read at one point fold what came
    /// after it from [`Store::each_finished_since`] or [`Store::each_result_since`];
    /// after games were taken back they are read afresh.
    pub fn finishes(&self) -> Result<Finishes, StoreError> {
        self.db.query_one(
            "SELECT (SELECT COALESCE(MAX(fin_seq), 0) FROM games), \
             (SELECT value FROM counters WHERE name = 'refolds')",
            args![],
            |r| {
                Ok(Finishes {
                    last: r.get(0)?,
                    refolds: r.get(1)?,
                })
            },
        )
    }

    /// The finished games of a series numbered after finish `after`, in the order they
    /// finished, each with its finish number.
    pub(crate) fn each_result_since(
        &self,
        series: i64,
        after: i64,
        mut each: impl FnMut(i64, GameEnd),
    ) -> Result<(), StoreError> {
        self.db.each(
            "SELECT fin_seq, number, result, termination, conduct, record FROM games \
             WHERE fin_seq > ?2 AND series_id = ?1 AND state = 'finished' ORDER BY fin_seq",
            args![series, after],
            |r| {
                each(
                    r.get(0)?,
                    GameEnd {
                        number: r.get(1)?,
                        result: r.get(2)?,
                        termination: r.get(3)?,
                        conduct: r.get::<Option<String>>(4)?.unwrap_or_default(),
                        record: r.get(5)?,
                    },
                );
                Ok(())
            },
        )
    }

    /// Every finished game numbered after finish `after`, in the order they finished, for
    /// ratings and per-bot books: its finish number, its game's name, White's and Black's
    /// bot ids, the result, the conduct JSON. Read through `each`, one at a time.
    pub(crate) fn each_finished_since(
        &self,
        after: i64,
        mut each: impl FnMut(i64, &str, i64, i64, &str, &str),
    ) -> Result<(), StoreError> {
        self.db.each(
            "SELECT s.game, g.white, g.black, g.result, COALESCE(g.conduct, ''), g.fin_seq \
             FROM games g \
             JOIN series s ON s.id = g.series_id \
             WHERE g.fin_seq > ?1 AND g.state = 'finished' ORDER BY g.fin_seq",
            args![after],
            |row| {
                let game: String = row.get(0)?;
                let (white, black): (i64, i64) = (row.get(1)?, row.get(2)?);
                let result: String = row.get(3)?;
                let conduct: String = row.get(4)?;
                each(row.get(5)?, &game, white, black, &result, &conduct);
                Ok(())
            },
        )
    }

    /// Stores an API token by its SHA-256 (the token itself is never kept).
    pub fn add_token(
        &mut self,
        hash: &str,
        scope: &str,
        owner: &str,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        self.db.insert(
            "INSERT INTO tokens (hash, scope, owner, created_ms) VALUES (?1, ?2, ?3, ?4)",
            args![hash, scope, owner, now_ms],
        )
    }

    /// The scope and owner of the token with this SHA-256, if there is one.
    pub fn token(&self, hash: &str) -> Result<Option<(String, String)>, StoreError> {
        self.db.query_opt(
            "SELECT scope, owner FROM tokens WHERE hash = ?1",
            args![hash],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// Notes a worker asking for games (its figures are kept across its restarts);
    /// `false` if an admin excluded it.
    pub fn seen_worker(&mut self, worker: &WorkerInfo, now_ms: i64) -> Result<bool, StoreError> {
        self.db.execute(
            "INSERT INTO workers (name, host, cpu, sandbox, zebra, first_ms, seen_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (name) DO UPDATE SET \
             host = ?2, cpu = ?3, sandbox = ?4, zebra = ?5, seen_ms = ?6",
            args![
                worker.name,
                worker.host,
                worker.cpu,
                worker.sandbox,
                worker.zebra,
                now_ms
            ],
        )?;
        Ok(!Self::is_excluded(&self.db, &worker.name)?)
    }

    /// Whether worker `OWNER/NAME` has been seen, and how many names its owner's workers
    /// have used.
    pub fn worker_names(&self, name: &str) -> Result<(bool, u64), StoreError> {
        let owner = name.split_once('/').map_or(name, |(owner, _)| owner);
        let known: bool = self.db.query_one(
            "SELECT EXISTS (SELECT 1 FROM workers WHERE name = ?1)",
            args![name],
            |r| r.get(0),
        )?;
        let count: i64 = self.db.query_one(
            "SELECT COUNT(*) FROM workers WHERE substr(name, 1, length(CAST(?1 AS TEXT)) + 1) = CAST(?1 AS TEXT) || '/'",
            args![owner],
            |r| r.get(0),
        )?;
        Ok((known, count.max(0) as u64))
    }

    /// Whether worker `OWNER/NAME` is excluded, by name or with every worker of its owner.
    fn is_excluded(conn: &Db, name: &str) -> Result<bool, StoreError> {
        let owner = name.split_once('/').map_or(name, |(owner, _)| owner);
        let sql = if conn.is_pg() {
            "SELECT excluded != 0 FROM workers WHERE name = ?1 OR name = ?2 FOR SHARE"
        } else {
            "SELECT excluded != 0 FROM workers WHERE name = ?1 OR name = ?2"
        };
        let excluded: Vec<bool> = conn.query(sql, args![name, owner], |r| r.get(0))?;
        Ok(excluded.contains(&true))
    }

    /// Adds a counted game to its worker's figures.
    pub fn tally_worker(
        &mut self,
        name: &str,
        timeouts: u32,
        forfeit: bool,
    ) -> Result<(), StoreError> {
        self.db.execute(
            "UPDATE workers SET games = games + 1, timeouts = timeouts + ?2, \
             forfeits = forfeits + ?3 WHERE name = ?1",
            args![name, timeouts, u32::from(forfeit)],
        )?;
        Ok(())
    }

    /// One worker as it last said it is.
    pub fn worker_info(&self, name: &str) -> Result<Option<WorkerInfo>, StoreError> {
        self.db.query_opt(
            "SELECT name, host, cpu, sandbox, zebra FROM workers WHERE name = ?1",
            args![name],
            |r| {
                Ok(WorkerInfo {
                    name: r.get(0)?,
                    host: r.get(1)?,
                    cpu: r.get(2)?,
                    sandbox: r.get(3)?,
                    zebra: r.get(4)?,
                })
            },
        )
    }

    /// Every worker seen, by name.
    pub fn workers(&self) -> Result<Vec<WorkerRow>, StoreError> {
        let rows = self.db.query(
            "SELECT name, host, cpu, sandbox, zebra, first_ms, seen_ms, games, timeouts, \
             forfeits, excluded FROM workers ORDER BY name",
            args![],
            |r| {
                Ok(WorkerRow {
                    info: WorkerInfo {
                        name: r.get(0)?,
                        host: r.get(1)?,
                        cpu: r.get(2)?,
                        sandbox: r.get(3)?,
                        zebra: r.get(4)?,
                    },
                    first_ms: r.get(5)?,
                    seen_ms: r.get(6)?,
                    games: r.get(7)?,
                    timeouts: r.get(8)?,
                    forfeits: r.get(9)?,
                    excluded: r.get(10)?,
                })
            },
        )?;
        Ok(rows)
    }

    /// Excludes worker `name` (an admin's decision: its results are not to be trusted),
    /// or admits it again (`excluded` false: its games stay as they are). A name without a
    /// `/` is an owner: every worker of that token owner's, under any name, now or later. Excluded, it gets
    /// no more games, its leases are voided, and the games it finished in series still
    /// running are queued again, to be played by others (an ended series keeps its games;
    /// their records name the worker). Returns the running series whose games were queued
    /// again; `None` if no worker has that name.
    pub fn exclude_worker(
        &mut self,
        name: &str,
        excluded: bool,
        max_attempts: u32,
    ) -> Result<Option<Vec<i64>>, StoreError> {
        if name.starts_with("daemon/") {
            // The daemon's own workers are not remote: stop the daemon instead.
            return Ok(None);
        }
        let tx = self.db.begin()?;
        let whole_owner = !name.contains('/');
        let changed = if whole_owner {
            // A row of its own marks the owner (every name under it, the future's too).
            tx.execute("INSERT INTO workers (name, host, cpu, sandbox, zebra, first_ms, seen_ms, excluded) \
                 VALUES (?1, '', '', '', '', 0, 0, ?2) \
                 ON CONFLICT (name) DO UPDATE SET excluded = ?2", args![name, excluded])?;
            tx.execute("UPDATE workers SET excluded = ?2 WHERE substr(name, 1, length(CAST(?1 AS TEXT)) + 1) = CAST(?1 AS TEXT) || '/'", args![name, excluded])?;
            1
        } else {
            tx.execute(
                "UPDATE workers SET excluded = ?2 WHERE name = ?1",
                args![name, excluded],
            )?
        };
        if changed == 0 {
            return Ok(None);
        }
        if !excluded {
            tx.commit()?;
            return Ok(Some(Vec::new()));
        }
        // Its leases: `worker:NAME#INSTANCE`, or for an owner `worker:OWNER/…` (the
        // daemon's own are never excluded here).
        let prefix = if whole_owner {
            format!("worker:{name}/")
        } else {
            format!("worker:{name}#")
        };
        Self::void_where(
            &tx,
            "substr(lease_owner, 1, length(?1)) = ?1",
            args![prefix],
            max_attempts,
        )?;
        let series: Vec<i64> = tx.query(
            "SELECT DISTINCT g.series_id FROM games g JOIN series s ON s.id = g.series_id \
                 WHERE g.state = 'finished' AND s.state = 'running' \
                 AND substr(g.played_by, 1, length(?1)) = ?1 ORDER BY g.series_id",
            args![&prefix],
            |r| r.get(0),
        )?;
        // Those games no longer count among its figures (the timeouts and forfeits seen
        // in them stay: they were seen).
        tx.execute(
            "UPDATE workers SET games = games - (SELECT COUNT(*) FROM games g \
                 WHERE g.state = 'finished' AND substr(g.played_by, 1, length(?1)) = ?1 \
                 AND g.series_id IN (SELECT id FROM series WHERE state = 'running') \
                 AND substr(g.played_by, 8, instr(g.played_by, '#') - 8) = workers.name) \
             WHERE substr(name, 1, length(?2)) = ?2",
            args![
                prefix,
                prefix.trim_start_matches("worker:").trim_end_matches('#')
            ],
        )?;
        tx.execute("UPDATE workers SET games = 0 WHERE games < 0", args![])?;
        // Played again as a new attempt; the excluded one's is voided (not its bots' fault).
        // Games were taken back: every daemon's books are folded afresh (`refolds`).
        tx.execute(
            "UPDATE counters SET value = value + 1 WHERE name = 'refolds'",
            args![],
        )?;
        tx.execute(
            "UPDATE games SET state = 'queued', voided = voided + 1, result = NULL, \
             termination = NULL, record = NULL, conduct = NULL, finished_ms = NULL, \
             played_by = NULL, fin_seq = NULL WHERE state = 'finished' \
             AND substr(played_by, 1, length(?1)) = ?1 \
             AND series_id IN (SELECT id FROM series WHERE state = 'running')",
            args![&prefix],
        )?;
        tx.commit()?;
        Ok(Some(series))
    }

    /// Every finished game a worker played, for the workers' outlier check: its worker
    /// (`OWNER/NAME`, or `daemon`), White's and Black's bot ids, its result. Read through
    /// `each`, one at a time.
    pub(crate) fn each_played(
        &self,
        mut each: impl FnMut(&str, i64, i64, &str),
    ) -> Result<(), StoreError> {
        self.db.each(
            "SELECT played_by, white, black, result FROM games \
             WHERE state = 'finished' AND played_by IS NOT NULL ORDER BY id",
            args![],
            |row| {
                let by: String = row.get(0)?;
                let result: String = row.get(3)?;
                each(&worker_of(&by), row.get(1)?, row.get(2)?, &result);
                Ok(())
            },
        )
    }

    /// Records the archive an uploaded bot came in (its SHA-256, kept in the archives)
    /// and its size.
    pub fn set_archive(&mut self, id: i64, hash: &str, bytes: u64) -> Result<(), StoreError> {
        self.db.execute(
            "UPDATE bots SET archive = ?2, bytes = ?3 WHERE id = ?1",
            args![id, hash, bytes as i64],
        )?;
        Ok(())
    }

    /// What `owner` uses of what the quotas limit, at `now_ms`: `family` names the bot an
    /// upload would add a version to.
    pub fn usage(
        &self,
        owner: &str,
        family: Option<&str>,
        now_ms: i64,
    ) -> Result<super::entrants::Usage, StoreError> {
        let day_ago = now_ms - super::entrants::DAY_MS;
        let count = |sql: &str, args: &[sql::Value]| -> Result<u64, StoreError> {
            let n: i64 = self.db.query_one(sql, args, |r| r.get(0))?;
            Ok(n.max(0) as u64)
        };
        let window = |sql: &str| -> Result<Vec<(i64, u64)>, StoreError> {
            let rows = self.db.query(sql, args![owner, day_ago], |r| {
                Ok((r.get::<i64>(0)?, r.get::<i64>(1)?.max(0) as u64))
            })?;
            Ok(rows)
        };
        Ok(super::entrants::Usage {
            bots: count(
                "SELECT COUNT(DISTINCT family) FROM bots WHERE owner = ?1 AND deleted_ms IS NULL",
                args![owner],
            )?,
            versions: match family {
                None => 0,
                Some(family) => count(
                    "SELECT COUNT(*) FROM bots \
                     WHERE owner = ?1 AND family = ?2 AND deleted_ms IS NULL",
                    args![owner, family],
                )?,
            },
            has_family: match family {
                None => false,
                Some(family) => {
                    count(
                        "SELECT COUNT(*) FROM bots \
                         WHERE owner = ?1 AND family = ?2 AND deleted_ms IS NULL",
                        args![owner, family],
                    )? > 0
                }
            },
            series: count(
                "SELECT COUNT(*) FROM series WHERE owner = ?1 AND state = 'running'",
                args![owner],
            )?,
            // One archive kept once, whichever versions came in it.
            stored: count(
                "SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM (SELECT archive, \
                 MAX(bytes) AS bytes FROM bots \
                 WHERE owner = ?1 AND deleted_ms IS NULL AND archive IS NOT NULL \
                 GROUP BY archive) AS kept",
                args![owner],
            )?,
            // Deleted bots too: deleting does not give the day's uploads back.
            uploads: window(
                "SELECT created_ms, bytes FROM bots \
                 WHERE owner = ?1 AND created_ms > ?2 AND bytes > 0 ORDER BY created_ms",
            )?,
            games: window(
                "SELECT s.created_ms, COUNT(g.id) FROM series s JOIN games g ON g.series_id = s.id \
                 WHERE s.owner = ?1 AND s.created_ms > ?2 AND g.state != 'cancelled' \
                 GROUP BY s.id ORDER BY s.created_ms",
            )?,
        })
    }

    /// Whether a series was submitted under `key` (a resubmission is never a new quota's
    /// worth).
    pub fn key_used(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self
            .db
            .query_opt(
                "SELECT 1 FROM series WHERE idempotency_key = ?1",
                args![key],
                |_| Ok(()),
            )?
            .is_some())
    }

    /// Revokes invite `id` (its uses left drop to none; the sign-ups it made stand);
    /// `false` if there is no such invite.
    pub fn revoke_invite(&mut self, id: i64) -> Result<bool, StoreError> {
        Ok(self
            .db
            .execute("UPDATE invites SET uses_left = 0 WHERE id = ?1", args![id])?
            == 1)
    }

    /// Stores an invite code by its SHA-256: good for `uses` sign-ups until `expires_ms`.
    pub fn add_invite(
        &mut self,
        hash: &str,
        uses: u32,
        expires_ms: Option<i64>,
        note: &str,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        self.db.insert(
            "INSERT INTO invites (hash, uses_left, expires_ms, note, created_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![hash, uses, expires_ms, note, now_ms],
        )
    }

    /// The invite codes (without the codes: only their hashes are kept), newest first.
    pub fn invites(&self) -> Result<Vec<super::entrants::InviteRow>, StoreError> {
        let rows = self.db.query(
            "SELECT i.id, i.uses_left, i.expires_ms, i.note, i.created_ms, \
             (SELECT string_agg(owner, ' ' ORDER BY t.id) FROM tokens t \
                WHERE t.invite = i.id) \
             FROM invites i ORDER BY i.id DESC",
            args![],
            |r| {
                Ok(super::entrants::InviteRow {
                    id: r.get(0)?,
                    uses_left: r.get::<i64>(1)?.max(0) as u32,
                    expires_ms: r.get(2)?,
                    note: r.get(3)?,
                    created_ms: r.get(4)?,
                    owners: r
                        .get::<Option<String>>(5)?
                        .map(|o| o.split(' ').map(str::to_string).collect())
                        .unwrap_or_default(),
                })
            },
        )?;
        Ok(rows)
    }

    /// Whether anything is owned under `owner`, whatever its case: a token, a bot or a
    /// series.
    fn owner_known(tx: &Db, owner: &str) -> Result<bool, StoreError> {
        tx.query_one(
            "SELECT EXISTS (SELECT 1 FROM tokens WHERE lower(owner) = lower(?1)) \
                 OR EXISTS (SELECT 1 FROM bots WHERE lower(owner) = lower(?1)) \
                 OR EXISTS (SELECT 1 FROM series WHERE lower(owner) = lower(?1))",
            args![owner],
            |r| r.get(0),
        )
    }

    /// Redeems an invite code (by its hash) for a submit token (by its hash) owned by
    /// `owner`, a name nobody holds yet, in one transaction: one use of the code is spent.
    pub fn redeem_invite(
        &mut self,
        invite_hash: &str,
        owner: &str,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let tx = self.db.begin()?;
        let invite: Option<i64> = tx.query_opt(
            "SELECT id FROM invites WHERE hash = ?1 AND uses_left > 0 \
                 AND (expires_ms IS NULL OR expires_ms > ?2)",
            args![invite_hash, now_ms],
            |r| r.get(0),
        )?;
        let Some(invite) = invite else {
            return Err(StoreError::InviteRefused);
        };
        let reserved = [super::ladder::OWNER, "admin"];
        if reserved.iter().any(|r| r.eq_ignore_ascii_case(owner)) || Self::owner_known(&tx, owner)?
        {
            return Err(StoreError::OwnerTaken(owner.to_string()));
        }
        tx.execute(
            "UPDATE invites SET uses_left = uses_left - 1 WHERE id = ?1",
            args![invite],
        )?;
        tx.execute(
            "INSERT INTO tokens (hash, scope, owner, created_ms, invite) \
             VALUES (?1, 'submit', ?2, ?3, ?4)",
            args![token_hash, owner, now_ms, invite],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes bot `id` for its owner: marks it deleted and suspended, forgets its check
    /// reports, and cancels every running series it plays in (their leased games voided:
    /// none of them counts any more). Its finished games stay. Returns what was done and
    /// the files to remove; `None` if it was deleted before.
    pub fn delete_bot(
        &mut self,
        id: i64,
        max_attempts: u32,
        now_ms: i64,
    ) -> Result<Option<super::entrants::Deleted>, StoreError> {
        let tx = self.db.begin()?;
        let deleted = Self::delete_in(&tx, id, max_attempts, now_ms)?;
        tx.commit()?;
        Ok(deleted)
    }

    fn delete_in(
        tx: &Db,
        id: i64,
        max_attempts: u32,
        now_ms: i64,
    ) -> Result<Option<super::entrants::Deleted>, StoreError> {
        let row: Option<(String, Option<String>, Option<i64>)> = tx.query_opt(
            "SELECT spec, archive, deleted_ms FROM bots WHERE id = ?1",
            args![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let Some((spec, archive, was)) = row else {
            return Err(StoreError::UnknownBot(id));
        };
        if was.is_some() {
            return Ok(None);
        }
        tx.execute(
            "UPDATE bots SET deleted_ms = ?2, state = 'suspended', report = NULL WHERE id = ?1",
            args![id, now_ms],
        )?;
        tx.execute(
            "UPDATE bot_games SET report = NULL WHERE bot_id = ?1",
            args![id],
        )?;
        let series: Vec<i64> = tx.query(
            "SELECT DISTINCT g.series_id FROM games g JOIN series s ON s.id = g.series_id \
                 WHERE s.state = 'running' AND (g.white = ?1 OR g.black = ?1) ORDER BY g.series_id",
            args![id],
            |r| r.get(0),
        )?;
        let mut done = super::entrants::Deleted {
            bot: id,
            ..Default::default()
        };
        for &s in &series {
            // The bots of the series still standing (this one is deleted already).
            let others: i64 = tx.query_one(
                "SELECT COUNT(*) FROM bots WHERE deleted_ms IS NULL AND id IN \
                 (SELECT white FROM games WHERE series_id = ?1 \
                  UNION SELECT black FROM games WHERE series_id = ?1)",
                args![s],
                |r| r.get(0),
            )?;
            if others <= 1 {
                // Nothing is left to play without it.
                let (leases, games) = Self::cancel_in(tx, s, max_attempts)?;
                done.leases_voided += leases;
                done.games_cancelled += games;
                done.series_cancelled.push(s);
            } else {
                // The others play on; the series ends incomplete.
                let mine = "series_id = ?1 AND (white = ?2 OR black = ?2)";
                done.leases_voided += Self::void_where(tx, mine, args![s, id], max_attempts)?;
                done.games_cancelled += tx.execute(
                    &format!(
                        "UPDATE games SET state = 'cancelled' WHERE state = 'queued' AND {mine}"
                    ),
                    args![s, id],
                )?;
                done.series_reduced.push(s);
            }
        }
        done.dir = serde_json::from_str::<crate::series::BotEntry>(&spec)
            .ok()
            .and_then(|e| e.dir);
        // The archive goes unless another bot still standing came in the same bytes.
        done.archive = match archive {
            None => None,
            Some(hash) => {
                let shared: bool = tx.query_one(
                    "SELECT EXISTS (SELECT 1 FROM bots WHERE archive = ?1 AND deleted_ms IS NULL)",
                    args![&hash],
                    |r| r.get(0),
                )?;
                (!shared).then_some(hash)
            }
        };
        Ok(Some(done))
    }

    /// Cancels running series `series` inside `tx`: its leased games voided, its queued
    /// ones cancelled. Returns (leases voided, games cancelled).
    fn cancel_in(tx: &Db, series: i64, max_attempts: u32) -> Result<(usize, usize), StoreError> {
        tx.execute(
            // The code of `series::Ending::Cancelled`.
            "UPDATE series SET state = 'cancelled', outcome = 'cancelled' \
             WHERE id = ?1 AND state = 'running'",
            args![series],
        )?;
        let voided = Self::void_where(tx, "series_id = ?1", args![series], max_attempts)?;
        let cancelled = tx.execute(
            "UPDATE games SET state = 'cancelled' WHERE series_id = ?1 AND state = 'queued'",
            args![series],
        )?;
        Ok((voided, cancelled))
    }

    /// Deletes everything `owner` has: every bot (as [`Store::delete_bot`]), every
    /// running series of theirs cancelled, every token of theirs revoked.
    pub fn delete_owner(
        &mut self,
        owner: &str,
        max_attempts: u32,
        now_ms: i64,
    ) -> Result<super::entrants::OwnerDeleted, StoreError> {
        let tx = self.db.begin()?;
        let bots: Vec<i64> = tx.query(
            "SELECT id FROM bots WHERE owner = ?1 AND deleted_ms IS NULL ORDER BY id",
            args![owner],
            |r| r.get(0),
        )?;
        let mut done = super::entrants::OwnerDeleted {
            owner: owner.to_string(),
            ..Default::default()
        };
        for id in bots {
            if let Some(d) = Self::delete_in(&tx, id, max_attempts, now_ms)? {
                done.bots.push(d);
            }
        }
        let series: Vec<i64> = tx.query(
            "SELECT id FROM series WHERE owner = ?1 AND state = 'running' ORDER BY id",
            args![owner],
            |r| r.get(0),
        )?;
        for s in series {
            Self::cancel_in(&tx, s, max_attempts)?;
            done.series_cancelled.push(s);
        }
        done.tokens_revoked = tx.execute("DELETE FROM tokens WHERE owner = ?1", args![owner])?;
        tx.commit()?;
        Ok(done)
    }

    /// The archive bot `id` was uploaded in, if it was.
    pub fn archive_of(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .db
            .query_opt("SELECT archive FROM bots WHERE id = ?1", args![id], |r| {
                r.get(0)
            })?
            .flatten())
    }

    /// Whether `hash` is the archive of a bot (what a worker may download).
    pub fn is_archive(&self, hash: &str) -> Result<bool, StoreError> {
        Ok(self
            .db
            .query_opt(
                "SELECT 1 FROM bots WHERE archive = ?1 LIMIT 1",
                args![hash],
                |_| Ok(()),
            )?
            .is_some())
    }

    /// The uploaded archives, named by their SHA-256 (`archives/ab/abcd….tar.gz`).
    pub fn archives(&self) -> Archives {
        Archives {
            dir: self.dir.join(ARCHIVES_DIR),
            ext: "tar.gz",
        }
    }

    /// Keeps a record's text (if not kept already) outside any game, and returns its hash.
    pub fn keep_record(&self, text: &str) -> Result<String, StoreError> {
        let hash = record_hash(text);
        let tx = self.db.begin()?;
        keep_record(&tx, &hash, text)?;
        tx.commit()?;
        Ok(hash)
    }

    /// A record's text by its hash.
    pub fn record(&self, hash: &str) -> Result<String, StoreError> {
        read_record(&self.db, &self.dir, hash)
    }

    /// A reader of records on a connection of its own (see [`RecordReader`]).
    pub fn record_reader(&self, database: &Database) -> RecordReader {
        RecordReader {
            dir: self.dir.clone(),
            database: database.clone(),
            db: std::sync::Mutex::new(None),
        }
    }
}

/// The SHA-256 of a record's text, in hex: its name in the store (`games.record`).
pub fn record_hash(text: &str) -> String {
    hex_digest(text.as_bytes())
}

fn hex_digest(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut hex = String::with_capacity(64);
    for b in Sha256::digest(bytes) {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

/// Whether `text` is a hash the store names things by (so never a path).
fn is_hash(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Keeps a record's text under its hash, in the transaction open on `db`.
fn keep_record(db: &Db, hash: &str, text: &str) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO records (hash, text) VALUES (?1, ?2) ON CONFLICT (hash) DO NOTHING",
        args![hash, text],
    )?;
    Ok(())
}

/// A record's text by its hash: from the database, or for a game stored before schema 10,
/// from its file in `dir`'s `records/`.
fn read_record(db: &Db, dir: &Path, hash: &str) -> Result<String, StoreError> {
    let missing = || StoreError::NoRecord(hash.to_string());
    if !is_hash(hash) {
        return Err(missing());
    }
    let text = db.query_opt(
        "SELECT text FROM records WHERE hash = ?1",
        args![hash],
        |r| r.get(0),
    )?;
    match text {
        Some(text) => Ok(text),
        None => std::fs::read_to_string(
            dir.join(RECORDS_DIR)
                .join(&hash[..2])
                .join(format!("{hash}.pgn")),
        )
        .map_err(|_| missing()),
    }
}

/// Reads records on a database connection of its own, opened at its first read (SQLite:
/// a second connection to `zebra.db`, which in WAL mode never waits for the writer), so
/// that serving records (a bulk download of thousands, a viewer's game) never holds the
/// store the games are counted in.
pub struct RecordReader {
    dir: PathBuf,
    database: Database,
    db: std::sync::Mutex<Option<Db>>,
}

impl RecordReader {
    /// A record's text by its hash (checked to be one: never a path).
    pub fn read(&self, hash: &str) -> Result<String, StoreError> {
        self.read_all(&[hash.to_string()])?
            .pop()
            .unwrap_or_else(|| Err(StoreError::NoRecord(hash.to_string())))
    }

    /// Records' texts by their hashes, in order, holding the connection once; `Err` if
    /// the connection cannot be opened.
    pub fn read_all(
        &self,
        hashes: &[String],
    ) -> Result<Vec<Result<String, StoreError>>, StoreError> {
        let mut held = self.db.lock().unwrap_or_else(|e| e.into_inner());
        let db = match held.take() {
            Some(db) => held.insert(db),
            None => held.insert(self.connect()?),
        };
        Ok(hashes
            .iter()
            .map(|h| read_record(db, &self.dir, h))
            .collect())
    }

    fn connect(&self) -> Result<Db, StoreError> {
        match &self.database {
            Database::Sqlite => {
                let path = self.dir.join(DB_FILE);
                // The store opened this database and checked it: a failure here is not
                // the file's (descriptors run out, say), and is said as it is.
                let cannot = |e: rusqlite::Error| StoreError::Io {
                    what: "open for reading records",
                    path: path.clone(),
                    source: std::io::Error::other(e.to_string()),
                };
                let conn = rusqlite::Connection::open_with_flags(
                    &path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE
                        | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )
                .map_err(cannot)?;
                conn.pragma_update(None, "query_only", "ON")
                    .map_err(cannot)?;
                conn.busy_timeout(std::time::Duration::from_secs(5))
                    .map_err(cannot)?;
                Ok(Db::lite(conn))
            }
            Database::Postgres(url) => connect_pg(url),
        }
    }
}

/// A connection to the PostgreSQL server at `url`.
fn connect_pg(url: &str) -> Result<Db, StoreError> {
    Db::connect_pg(url).map_err(|e| StoreError::Unreachable {
        url: Database::redacted(url),
        detail: e.to_string(),
    })
}

/// Files named by the SHA-256 of their bytes: the uploaded archives
/// (`archives/ab/abcd….tar.gz`).
#[derive(Clone, Debug)]
pub struct Archives {
    dir: PathBuf,
    /// The files' extension.
    ext: &'static str,
}

impl Archives {
    /// Writes a file (if not there already) and returns its hash: written to a temporary
    /// file, fsynced, renamed, and the directory fsynced, so that the database never refers
    /// to a file a crash could lose.
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<String, StoreError> {
        use std::io::Write;
        let hash = hex_digest(bytes);
        let path = self.path(&hash);
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
        if !shard.is_dir() {
            super::private::dir(shard).map_err(io("create", shard))?;
        }
        let tmp = shard.join(format!(
            "{hash}.{}.{:?}.tmp",
            std::process::id(),
            std::thread::current().id()
        ));
        let mut file = super::private::file_options()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(io("create", &tmp))?;
        file.write_all(bytes).map_err(io("write", &tmp))?;
        file.sync_all().map_err(io("sync", &tmp))?;
        std::fs::rename(&tmp, &path).map_err(io("rename", &tmp))?;
        std::fs::File::open(shard)
            .and_then(|d| d.sync_all())
            .map_err(io("sync", shard))?;
        Ok(hash)
    }

    /// Removes a file by its hash (checked to be one); one that is not there is gone.
    pub fn remove(&self, hash: &str) {
        if !is_hash(hash) {
            return;
        }
        let path = self.path(hash);
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!("cannot remove {}: {e}", path.display()),
        }
    }

    /// A file's bytes by its hash (checked to be one), if it is there.
    pub fn read_bytes(&self, hash: &str) -> Option<Vec<u8>> {
        if !is_hash(hash) {
            return None;
        }
        std::fs::read(self.path(hash)).ok()
    }

    fn path(&self, hash: &str) -> PathBuf {
        self.dir
            .join(&hash[..2])
            .join(format!("{hash}.{}", self.ext))
    }
}

/// A bot's lifecycle: registered (pending its check), active (it plays), rejected (its
/// check failed), suspended (by an admin, or after crashing too often in a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BotState {
    Pending,
    Active,
    Rejected,
    Suspended,
}

impl BotState {
    pub const fn as_str(self) -> &'static str {
        match self {
            BotState::Pending => "pending",
            BotState::Active => "active",
            BotState::Rejected => "rejected",
            BotState::Suspended => "suspended",
        }
    }

    /// The database's text (its CHECK constraint admits nothing else).
    fn parse(text: &str) -> BotState {
        match text {
            "active" => BotState::Active,
            "rejected" => BotState::Rejected,
            "suspended" => BotState::Suspended,
            _ => BotState::Pending,
        }
    }
}

impl std::fmt::Display for BotState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A bot's entry in one game: its check's state (pending, active or rejected) and report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotGame {
    pub bot: i64,
    pub game: String,
    pub state: BotState,
    /// JSON: what the game's check found, once checked.
    pub report: Option<String>,
}

impl BotGame {
    fn read(r: &Row<'_>) -> Result<BotGame, StoreError> {
        Ok(BotGame {
            bot: r.get(0)?,
            game: r.get(1)?,
            state: BotState::parse(&r.get::<String>(2)?),
            report: r.get(3)?,
        })
    }
}

const BOT_ROW: &str = "SELECT id, name, spec, state, owner, report, created_ms, \
     COALESCE(family, name), version, \
     (SELECT MIN(n.id) FROM bots n WHERE n.family = bots.family \
        AND n.version > bots.version AND n.state = 'active' AND n.deleted_ms IS NULL), \
     deleted_ms, bytes \
     FROM bots";

/// A bot just registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddedBot {
    pub id: i64,
    pub name: String,
    pub version: i64,
}

/// A registered bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRow {
    pub id: i64,
    pub name: String,
    /// JSON: the bot's entry (command, args, dir, env, options, time odds, limits).
    pub spec: String,
    pub state: BotState,
    pub owner: String,
    /// JSON: what its check found, once checked.
    pub report: Option<String>,
    pub created_ms: i64,
    /// The name its first version was registered under, and its version (1 for the first).
    pub family: String,
    pub version: i64,
    /// A newer version of the same family that passed its check: this one has retired
    /// from the ladder (series that name it still play it).
    pub superseded_by: Option<i64>,
    /// When its owner deleted it (its code and check reports are gone; its row stays,
    /// suspended, for the games it played).
    pub deleted_ms: Option<i64>,
    /// The size of the archive it was uploaded in (0: registered by path).
    pub bytes: u64,
}

impl BotRow {
    fn read(r: &Row<'_>) -> Result<BotRow, StoreError> {
        Ok(BotRow {
            id: r.get(0)?,
            name: r.get(1)?,
            spec: r.get(2)?,
            state: BotState::parse(&r.get::<String>(3)?),
            owner: r.get(4)?,
            report: r.get(5)?,
            created_ms: r.get(6)?,
            family: r.get(7)?,
            version: r.get(8)?,
            superseded_by: r.get(9)?,
            deleted_ms: r.get(10)?,
            bytes: r.get::<i64>(11)?.max(0) as u64,
        })
    }
}

const SERIES_ROW: &str =
    "SELECT id, idempotency_key, spec, state, owner, outcome, created_ms, game FROM series";

/// A submitted series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesRow {
    pub id: i64,
    pub key: Option<String>,
    /// JSON: the series as submitted.
    pub spec: String,
    /// running, cancelled or finished.
    pub state: String,
    pub owner: String,
    pub outcome: Option<String>,
    pub created_ms: i64,
    /// The game it plays (`football-chess`, `boyer-football`).
    pub game: String,
}

impl SeriesRow {
    fn read(r: &Row<'_>) -> Result<SeriesRow, StoreError> {
        Ok(SeriesRow {
            id: r.get(0)?,
            key: r.get(1)?,
            spec: r.get(2)?,
            state: r.get(3)?,
            owner: r.get(4)?,
            outcome: r.get(5)?,
            created_ms: r.get(6)?,
            game: r.get(7)?,
        })
    }
}

const GAME_ROW: &str = "SELECT id, series_id, number, seed, white, black, state, attempts, \
     voided, result, termination, record, COALESCE(lease_owner, played_by), finished_ms \
     FROM games";

/// A game of a series, as the queue holds it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GameRow {
    pub id: i64,
    pub series: i64,
    pub number: u32,
    pub seed: u64,
    pub white: i64,
    pub black: i64,
    /// queued, leased, finished, void or cancelled.
    pub state: String,
    pub attempts: u32,
    pub voided: u32,
    pub result: Option<String>,
    pub termination: Option<String>,
    /// The record's SHA-256, once finished.
    pub record: Option<String>,
    /// Who holds it (leased) or played it (finished): a remote worker's `OWNER/NAME`, or
    /// `daemon` for the daemon's own workers.
    pub worker: Option<String>,
    /// When it finished (Unix ms).
    pub finished_ms: Option<i64>,
}

/// The worker a lease owner names: `worker:OWNER/NAME#INSTANCE` is `OWNER/NAME`, the
/// daemon's own (`daemon-…`) are `daemon`.
pub fn worker_of(owner: &str) -> String {
    match owner.strip_prefix("worker:") {
        Some(rest) => rest
            .rsplit_once('#')
            .map_or(rest, |(name, _)| name)
            .to_string(),
        None => "daemon".to_string(),
    }
}

impl GameRow {
    fn read(r: &Row<'_>) -> Result<GameRow, StoreError> {
        Ok(GameRow {
            id: r.get(0)?,
            series: r.get(1)?,
            number: r.get(2)?,
            seed: r.get::<i64>(3)? as u64,
            white: r.get(4)?,
            black: r.get(5)?,
            state: r.get(6)?,
            attempts: r.get(7)?,
            voided: r.get(8)?,
            result: r.get(9)?,
            termination: r.get(10)?,
            record: r.get(11)?,
            worker: r.get::<Option<String>>(12)?.as_deref().map(worker_of),
            finished_ms: r.get(13)?,
        })
    }
}

/// A finished game as stored: its number, result and termination codes, each side's
/// conduct (JSON) and its record's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub number: u32,
    pub result: String,
    pub termination: String,
    pub conduct: String,
    pub record: String,
}
