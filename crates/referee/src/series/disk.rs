//! What a series keeps on disk, and how it finds its place again.
//!
//! The PGN file is the series' memory: a game counts as played once its record is in the
//! file, flushed and fsynced. `series.json` (written once, atomically, when the series
//! starts) says which games the series plays. Resuming reads both and plays exactly the
//! scheduled games whose records are missing. Whatever follows the last whole record (a
//! record cut short by a kill in the middle of its write, zero bytes a power loss left, junk)
//! is cut from the end of the file, and only it is lost (a torn record's game is played
//! again); a record that lost only its closing blank line gets it back, so that the next one
//! never sticks to it. The event stream follows the records: see [`super::events`].
//!
//! A series directory is self-contained: `series.json` names the files inside it relative
//! to it, so a directory moved or copied elsewhere resumes into its own files. Only files the
//! user put outside it (`--pgn`, `--events`, `--log-dir` elsewhere) are named absolutely.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::record::{write_game, GameReader, GameRecord, OtherEdition, RecordError};

use crate::rules::Side;

use super::conduct::GameConduct;
use super::config::{SeriesConfig, SERIES_FILE_VERSION};
use super::schedule::Schedule;
use super::standings::GameOutcome;

/// The name of the saved settings in an output directory.
pub(crate) const SERIES_FILE: &str = "series.json";
/// Where `--replay-suspect` keeps the attempts it voided, in the output directory.
pub(crate) const VOIDED_FILE: &str = "voided.pgn";
/// The lock file that keeps two runs from appending to the same series at once.
pub(crate) const LOCK_FILE: &str = "lock";

/// An exclusive hold on a series directory and its PGN file, released when dropped (or when
/// the process dies, however it dies: the kernel drops `flock` locks with the file).
pub struct SeriesLock {
    _files: Vec<std::fs::File>,
}

impl SeriesLock {
    /// Removes the series directory's lock file while this still holds it: a series that
    /// ended leaves no `lock` behind. A process that opened the file just before stays out:
    /// [`lock_series`] takes a lock only on the file that is at the path.
    pub fn remove_file(&self, dir: &Path) {
        let _ = std::fs::remove_file(dir.join(LOCK_FILE));
    }

    /// Both holds, released together.
    pub fn and(mut self, other: SeriesLock) -> SeriesLock {
        self._files.extend(other._files);
        self
    }
}

/// A series' directory held by this run: its lock, and its PGN file's, for as long as the
/// value lives. The disk side of setting a series up: [`SeriesDir::create`] for a new
/// series, [`SeriesDir::read`] and [`SeriesDir::resume`] for a saved one; what the settings
/// mean is checked apart from them (`super::spec`, `super::setup`).
pub struct SeriesDir {
    path: PathBuf,
    lock: SeriesLock,
}

/// A saved series taken hold of again, with the games it has played.
pub struct Resumed {
    pub dir: SeriesDir,
    /// Games already recorded.
    pub done: Vec<GameOutcome>,
    /// Attempts already voided by `--replay-suspect`, one per attempt.
    pub voided: Vec<GameOutcome>,
}

impl SeriesDir {
    /// Creates a new series' directory, locks it and the PGN file, and writes the settings
    /// (with `config.pgn_start`, measured under the lock: another series may have appended
    /// to the file since the settings were planned). When a lock is held by another series
    /// or the directory already holds one, a directory made here is removed again: nothing
    /// is left behind.
    pub fn create(path: &Path, config: &mut SeriesConfig) -> Result<SeriesDir, DiskError> {
        let created = !path.exists();
        let made = (|| {
            std::fs::create_dir_all(path).map_err(io("create the directory", path))?;
            let lock = lock_series(path)?;
            if path.join(SERIES_FILE).exists() {
                return Err(DiskError::Exists {
                    dir: path.to_path_buf(),
                });
            }
            let lock = lock.and(lock_pgn(&config.pgn)?);
            config.pgn_start = seal_pgn(&config.pgn)?;
            save_series(path, config)?;
            Ok(lock)
        })();
        match made {
            Ok(lock) => Ok(SeriesDir {
                path: path.to_path_buf(),
                lock,
            }),
            Err(e) => {
                if created {
                    // Only what this run made: the lock file, an empty PGN, the directory.
                    let _ = std::fs::remove_file(path.join(LOCK_FILE));
                    let pgn = &config.pgn;
                    if pgn.starts_with(path) && std::fs::metadata(pgn).is_ok_and(|m| m.len() == 0) {
                        let _ = std::fs::remove_file(pgn);
                    }
                    let _ = std::fs::remove_dir(path);
                }
                Err(e)
            }
        }
    }

    /// The settings saved in `path` (see [`load_series`]). A series being started holds
    /// its lock a moment before its settings are written: that reads as "in use", not as
    /// "no series here".
    pub fn read(path: &Path) -> Result<SeriesConfig, DiskError> {
        load_series(path).map_err(|error| {
            if path.join(LOCK_FILE).exists() {
                if let Err(busy) = lock_series(path) {
                    return busy;
                }
            }
            error
        })
    }

    /// Takes hold of the saved series in `path` (its settings `config`, already checked)
    /// to continue it: locks the directory and the PGN file, writes the settings again if
    /// the series was `extended` with more games, and reads the games already played.
    pub fn resume(
        path: &Path,
        config: &SeriesConfig,
        schedule: &Schedule,
        extended: bool,
    ) -> Result<Resumed, DiskError> {
        let lock = lock_series(path)?.and(lock_pgn(&config.pgn)?);
        if extended {
            // Later pairs follow the earlier ones in the schedule (round by round, seeds and
            // situations by pair number), so the games already played keep their numbers.
            rewrite_series(path, config)?;
        }
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        let done = load_finished(&config.pgn, config.pgn_start, schedule, &names)?;
        let voided = match &config.replay_suspect {
            Some(replay) => load_voided(&replay.voided_pgn, schedule, &names)?,
            None => Vec::new(),
        };
        Ok(Resumed {
            dir: SeriesDir {
                path: path.to_path_buf(),
                lock,
            },
            done,
            voided,
        })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The series ended (not stopped to resume later): it leaves no lock file behind.
    pub fn finish(self) {
        self.lock.remove_file(&self.path);
    }
}

/// Takes the series directory's lock, or says who holds it.
pub(crate) fn lock_series(dir: &Path) -> Result<SeriesLock, DiskError> {
    use std::os::unix::fs::MetadataExt;
    let path = dir.join(LOCK_FILE);
    loop {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("open", &path))?;
        let same = |file: &std::fs::File| -> Option<bool> {
            let held = file.metadata().ok()?;
            let now = std::fs::metadata(&path).ok()?;
            Some(held.ino() == now.ino() && held.dev() == now.dev())
        };
        let lock = flock(file, &path, || DiskError::Busy {
            dir: dir.to_path_buf(),
        })?;
        // The series that held it may have ended and removed the file between our open
        // and our lock: that file is gone, so lock the one at the path now.
        if lock._files.first().and_then(same) == Some(true) {
            return Ok(lock);
        }
    }
}

/// Takes a lock on the PGN file itself (creating it empty if it is not there yet): two
/// series, whatever their directories, never append to one file at once.
pub(crate) fn lock_pgn(pgn: &Path) -> Result<SeriesLock, DiskError> {
    if let Some(parent) = pgn.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(io("create the directory", parent))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(pgn)
        .map_err(io("open", pgn))?;
    flock(file, pgn, || DiskError::PgnBusy {
        path: pgn.to_path_buf(),
    })
}

/// An exclusive `flock` on `file`, without waiting: `busy` when another process holds it.
fn flock(
    file: std::fs::File,
    path: &Path,
    busy: impl FnOnce() -> DiskError,
) -> Result<SeriesLock, DiskError> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only acts on the descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = std::io::Error::last_os_error();
        // Anything but "held by someone else" (a file system without locks) is not "busy".
        if error.kind() == std::io::ErrorKind::WouldBlock {
            return Err(busy());
        }
        return Err(io("lock", path)(error));
    }
    Ok(SeriesLock { _files: vec![file] })
}

/// Why the series' files cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DiskError {
    #[error("cannot {what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a series file ({message}): resume a directory that 'zebra match --out DIR' made")]
    BadSeriesFile { path: PathBuf, message: String },
    #[error("{path} was written by another version of Zebra (series file version {found}, this one reads versions 1 to {SERIES_FILE_VERSION})")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: {source}")]
    Record { path: PathBuf, source: RecordError },
    #[error("{path} holds a game that is not part of this series ({detail}): is this the right directory?")]
    Foreign { path: PathBuf, detail: String },
    /// A game of the series was played under another edition of the rulings: a series is
    /// judged under one edition, so a newer zebra does not finish an older one's series.
    #[error(
        "{path} game {game}: {edition} (resume the series with the zebra release that started it)"
    )]
    Edition {
        path: PathBuf,
        game: u32,
        edition: OtherEdition,
    },
    #[error("{path} is shorter than the {start} bytes it held when the series started: it was edited or replaced, so the series cannot tell which games it played")]
    Shrunk { path: PathBuf, start: u64 },
    #[error("{dir} is in use by another zebra match (it holds the lock {dir}/{LOCK_FILE}): wait for it to end, or stop it first")]
    Busy { dir: PathBuf },
    #[error("{path} is in use by another zebra match (it appends its games there): wait for it to end, or give this series another --pgn")]
    PgnBusy { path: PathBuf },
    #[error("{0}")]
    Schedule(#[from] super::schedule::ScheduleError),
    #[error("{dir} already holds a series: continue it with 'zebra match --resume {dir}', or choose another --out")]
    Exists { dir: PathBuf },
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> DiskError {
    let path = path.to_path_buf();
    move |source| DiskError::Io { what, path, source }
}

/// Saves the series' settings in `dir` (which must exist); refuses a directory that
/// already holds a series (it would be overwritten). Paths inside `dir` are written
/// relative to it.
pub(crate) fn save_series(dir: &Path, config: &SeriesConfig) -> Result<(), DiskError> {
    if dir.join(SERIES_FILE).exists() {
        return Err(DiskError::Exists {
            dir: dir.to_path_buf(),
        });
    }
    rewrite_series(dir, config)
}

/// Writes the series' settings in `dir` over what is there (a series extended with more
/// games), whole or not at all.
pub(crate) fn rewrite_series(dir: &Path, config: &SeriesConfig) -> Result<(), DiskError> {
    let path = dir.join(SERIES_FILE);
    let base = absolute(dir);
    let mut stored = config.clone();
    stored.version = SERIES_FILE_VERSION;
    stored.map_paths(|p| match p.strip_prefix(&base) {
        Ok(inside) if inside.as_os_str().is_empty() => PathBuf::from("."),
        Ok(inside) => inside.to_path_buf(),
        Err(_) => p.to_path_buf(),
    });
    let text = serde_json::to_string_pretty(&stored).expect("the settings serialize");
    // Written aside and renamed: a series file is either whole or absent.
    let tmp = dir.join(format!("{SERIES_FILE}.tmp"));
    let mut file = std::fs::File::create(&tmp).map_err(io("create", &tmp))?;
    file.write_all(text.as_bytes())
        .and_then(|_| file.write_all(b"\n"))
        .and_then(|_| file.sync_all())
        .map_err(io("write", &tmp))?;
    std::fs::rename(&tmp, &path).map_err(io("rename", &tmp))?;
    sync_dir(dir)
}

/// `path` made absolute against the current directory (not resolving links).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Makes a directory's entries durable (a new or renamed file survives a power loss).
fn sync_dir(dir: &Path) -> Result<(), DiskError> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io("sync the directory", dir))
}

/// Reads the settings saved in `dir`, every path made absolute: a relative one is relative
/// to `dir`, wherever `dir` is now.
///
/// A version 1 file (every path absolute) from a directory since moved or copied names the
/// files of the old place: they are rebased into `dir` (see [`old_directory`]), so that the
/// copy neither replays its games nor appends to the original.
pub fn load_series(dir: &Path) -> Result<SeriesConfig, DiskError> {
    let path = dir.join(SERIES_FILE);
    let text = std::fs::read_to_string(&path).map_err(io("read", &path))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| DiskError::BadSeriesFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
    let found = value["version"].as_u64().unwrap_or(0);
    if !(1..=u64::from(SERIES_FILE_VERSION)).contains(&found) {
        return Err(DiskError::Version {
            path,
            found: found.min(u64::from(u32::MAX)) as u32,
        });
    }
    let mut config: SeriesConfig =
        serde_json::from_value(value).map_err(|e| DiskError::BadSeriesFile {
            path,
            message: e.to_string(),
        })?;
    let base = absolute(dir);
    let old = (config.version == 1)
        .then(|| old_directory(&config, &base))
        .flatten();
    config.map_paths(|p| {
        if p.is_relative() {
            return if p == Path::new(".") {
                base.clone()
            } else {
                base.join(p)
            };
        }
        match old.as_ref().map(|old| p.strip_prefix(old)) {
            Some(Ok(inside)) if inside.as_os_str().is_empty() => base.clone(),
            Some(Ok(inside)) => base.join(inside),
            _ => p.to_path_buf(),
        }
    });
    config.version = SERIES_FILE_VERSION;
    Ok(config)
}

/// Where a version 1 series file was written, when that is not `dir` any more (the
/// directory was moved or copied): the directory of the first of its files that Zebra names
/// itself inside the series directory (`voided.pgn`, `events.jsonl`, `games.pgn`, `logs`)
/// whose namesake is in `dir` now. `None` when the series is where it was (or nothing
/// says where it was: its paths are then used as they are).
fn old_directory(config: &SeriesConfig, dir: &Path) -> Option<PathBuf> {
    let candidates = [
        config.replay_suspect.as_ref().map(|r| r.voided_pgn.clone()),
        config.events.clone(),
        Some(config.pgn.clone()),
        config.log_dir.clone().filter(|_| config.log_failures),
    ];
    let defaults = [VOIDED_FILE, "events.jsonl", "games.pgn", "logs"];
    for (path, name) in candidates.into_iter().zip(defaults) {
        let Some(path) = path.filter(|p| p.is_absolute()) else {
            continue;
        };
        let (Some(parent), Some(file)) = (path.parent(), path.file_name()) else {
            continue;
        };
        if file != name || !dir.join(name).exists() {
            continue;
        }
        if same_directory(parent, dir) {
            return None;
        }
        return Some(parent.to_path_buf());
    }
    None
}

/// Whether two paths name one directory (through links, or spelled differently).
fn same_directory(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The games of `schedule` already recorded in `pgn` from byte `start` on (where the
/// series began appending), in file order, each once. A record cut short at the end of the
/// file is dropped from it; a record that does not belong to the schedule is an error.
/// Leaves the file ending in a whole record and its blank line, ready for the next one.
pub(crate) fn load_finished(
    pgn: &Path,
    start: u64,
    schedule: &Schedule,
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    let mut seen = std::collections::BTreeSet::new();
    Ok(load_records(pgn, start, schedule, names)?
        .into_iter()
        .filter(|g| seen.insert(g.game))
        .collect())
}

/// The attempts voided by `--replay-suspect` (`DIR/voided.pgn`), one entry per attempt,
/// so that a resumed series knows how many attempts each game has had already.
pub(crate) fn load_voided(
    pgn: &Path,
    schedule: &Schedule,
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    load_records(pgn, 0, schedule, names)
}

/// Every record of `pgn` from byte `start` on, as games of `schedule`; then the file is
/// cut after the last whole record and sealed with its blank line (see [`seal_pgn`]).
fn load_records(
    pgn: &Path,
    start: u64,
    schedule: &Schedule,
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    let Some(on_disk) = read_records(pgn, start, schedule, names)? else {
        return Ok(Vec::new());
    };
    if on_disk.whole < on_disk.len {
        tracing::warn!(
            "{}: dropped {} bytes after the last whole record (a write cut short, byte {} on); only they are lost",
            pgn.display(),
            on_disk.len - on_disk.whole,
            on_disk.whole
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(pgn)
            .map_err(io("open", pgn))?;
        file.set_len(on_disk.whole)
            .and_then(|_| file.sync_all())
            .map_err(io("truncate", pgn))?;
    }
    seal_pgn(pgn)?;
    Ok(on_disk.games.into_iter().map(|(_, game)| game).collect())
}

/// The whole records of a series' PGN from byte `start` on, each with the game of the
/// schedule it is, in file order (a game recorded twice comes twice): what the event stream
/// is mended from on resume ([`super::events`]). Reads only: [`load_finished`] has cut
/// the file already.
pub(crate) fn recorded_games(
    pgn: &Path,
    start: u64,
    schedule: &Schedule,
    names: &[String],
) -> Result<Vec<(GameRecord, GameOutcome)>, DiskError> {
    Ok(read_records(pgn, start, schedule, names)?.map_or_else(Vec::new, |d| d.games))
}

/// What a PGN file holds from the series' start on.
struct OnDisk {
    /// Its whole records, each with the game it is.
    games: Vec<(GameRecord, GameOutcome)>,
    /// Where the whole records end (an offset in the file): the rest is a torn write.
    whole: u64,
    /// The file's length.
    len: u64,
}

/// Reads the records of `pgn` from byte `start` on and checks that each is a game of
/// `schedule` played under this zebra's rulings; `None` when there is no file yet.
fn read_records(
    pgn: &Path,
    start: u64,
    schedule: &Schedule,
    names: &[String],
) -> Result<Option<OnDisk>, DiskError> {
    let whole = match std::fs::read(pgn) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && start == 0 => return Ok(None),
        Err(e) => return Err(io("read", pgn)(e)),
    };
    let Some(tail) = usize::try_from(start).ok().and_then(|s| whole.get(s..)) else {
        return Err(DiskError::Shrunk {
            path: pgn.to_path_buf(),
            start,
        });
    };
    let (records, kept) = whole_records(tail).map_err(|source| DiskError::Record {
        path: pgn.to_path_buf(),
        source,
    })?;
    // Every record is checked before the file is touched: a wrong directory, or a series
    // played under another edition of the rulings, stays as it was.
    let games = records
        .into_iter()
        .map(|record| {
            let game =
                match_fixture(&record, schedule, names).map_err(|detail| DiskError::Foreign {
                    path: pgn.to_path_buf(),
                    detail,
                })?;
            record.rulings().map_err(|edition| DiskError::Edition {
                path: pgn.to_path_buf(),
                game: game.game,
                edition,
            })?;
            Ok((record, game))
        })
        .collect::<Result<Vec<_>, DiskError>>()?;
    Ok(Some(OnDisk {
        games,
        whole: start + kept as u64,
        len: whole.len() as u64,
    }))
}

/// The whole records at the start of `bytes`, and how many bytes they take: the records
/// up to the first problem, which is then a torn write and dropped with everything after
/// it, whatever it is (a record cut anywhere, zero bytes a power loss left, junk, bytes
/// that are not UTF-8). A record is whole once its result token ends its line, as the
/// writer ends every record (its blank line is [`seal_pgn`]'s to give back).
///
/// Only the end of the file can be torn: Zebra appends each record in one write and cuts
/// a torn one before it appends again. So a problem with a whole record after it is damage
/// inside the file, and the problem itself is the error: cutting there would silently lose
/// the games after it.
fn whole_records(bytes: &[u8]) -> Result<(Vec<GameRecord>, usize), RecordError> {
    let mut reader = GameReader::new(bytes);
    let mut records = Vec::new();
    let mut kept = 0;
    let problem = loop {
        match reader.next() {
            None => return Ok((records, bytes.len())),
            Some(Ok(record)) => {
                // A record with junk on its result's line is not whole: it goes with the
                // junk (the problem that follows it).
                let end = usize::try_from(reader.complete_end()).unwrap_or(usize::MAX);
                if end > kept {
                    kept = end;
                    records.push(record);
                }
            }
            Some(Err(problem)) => break problem,
        }
    };
    // The blank line that closes the last whole record is its own, not the torn write's
    // (anything after it is).
    if bytes.get(kept) == Some(&b'\n') {
        kept += 1;
    }
    if holds_a_whole_record(&bytes[kept..]) {
        return Err(problem);
    }
    Ok((records, kept))
}

/// Whether a whole record starts anywhere in `tail` at the first tag line of a block of
/// tag lines: where a record starts, whatever junk comes before it.
fn holds_a_whole_record(tail: &[u8]) -> bool {
    let mut offset = 0;
    let mut after_tag = false;
    for line in tail.split_inclusive(|&b| b == b'\n') {
        let tag = is_tag_line(line);
        if tag && !after_tag {
            let mut reader = GameReader::new(&tail[offset..]);
            if matches!(reader.next(), Some(Ok(_))) && reader.complete_end() > 0 {
                return true;
            }
        }
        after_tag = tag;
        offset += line.len();
    }
    false
}

/// A line that opens like a tag pair: `[`, a letter, then a tag name's characters up to a
/// blank or a quote (a formation, `[Pd5,Pe5]`, has neither after its first piece).
fn is_tag_line(line: &[u8]) -> bool {
    let Some(after) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = after
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    after.first().is_some_and(u8::is_ascii_alphabetic)
        && matches!(after.get(name), Some(b' ' | b'\t' | b'"'))
}

/// Makes a PGN file that is not empty end with a blank line (the separator a record written
/// whole ends with), so that the next record appended starts a record of its own instead of
/// sticking to the last one (`1-0[Event …`); returns the file's length. A record whose write
/// lost only its last newlines is whole again.
pub(crate) fn seal_pgn(pgn: &Path) -> Result<u64, DiskError> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = match std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(pgn)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io("open", pgn)(e)),
    };
    let len = file.metadata().map_err(io("read", pgn))?.len();
    let mut end = [0u8; 2];
    let last = usize::try_from(len.min(2)).unwrap_or(2);
    file.seek(SeekFrom::Start(len - last as u64))
        .and_then(|_| file.read_exact(&mut end[..last]))
        .map_err(io("read", pgn))?;
    let missing: &[u8] = match &end[..last] {
        [] | [b'\n', b'\n'] => b"",
        [.., b'\n'] => b"\n",
        _ => b"\n\n",
    };
    if missing.is_empty() {
        return Ok(len);
    }
    file.write_all(missing)
        .and_then(|_| file.sync_data())
        .map_err(io("write", pgn))?;
    tracing::warn!(
        "{}: the last record had lost its closing blank line; restored",
        pgn.display()
    );
    Ok(len + missing.len() as u64)
}

/// The schedule's game that `record` is, checked by number, players and seed.
fn match_fixture(
    record: &GameRecord,
    schedule: &Schedule,
    names: &[String],
) -> Result<GameOutcome, String> {
    let tag = |name: &str| record.tags.get(name).unwrap_or("?").to_string();
    let number: u32 = tag("Game").parse().map_err(|_| {
        format!(
            "a record without a Game number tag ({} vs {})",
            tag("White"),
            tag("Black")
        )
    })?;
    let fixture = schedule
        .get(number)
        .ok_or_else(|| match schedule.window() {
            (1, last) if last == schedule.total() => {
                format!("game {number}, beyond the {last} games scheduled")
            }
            (first, last) => format!("game {number}, outside this shard's games {first} to {last}"),
        })?;
    let expected = (
        names[fixture.white].as_str(),
        names[fixture.black].as_str(),
        fixture.seed.to_string(),
    );
    let found = (tag("White"), tag("Black"), tag("Seed"));
    if (found.0.as_str(), found.1.as_str(), found.2.as_str())
        != (expected.0, expected.1, expected.2.as_str())
    {
        return Err(format!(
            "game {number} is {} vs {} with seed {}, the schedule says {} vs {} with seed {}",
            found.0, found.1, found.2, expected.0, expected.1, expected.2
        ));
    }
    let result = record.result().map_err(|e| format!("game {number}: {e}"))?;
    let termination = record
        .termination()
        .map_err(|e| format!("game {number}: {e}"))?;
    let conduct = |side| {
        GameConduct::from_tags(side, &record.tags).map_err(|e| format!("game {number}: {e}"))
    };
    Ok(GameOutcome::of(&fixture, result, termination)
        .with_conduct([conduct(Side::White)?, conduct(Side::Black)?]))
}

/// The PGN file every game is appended to, kept open.
pub struct PgnFile {
    path: PathBuf,
    file: std::fs::File,
}

impl PgnFile {
    pub fn open(path: &Path) -> Result<PgnFile, DiskError> {
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(parent).map_err(io("create the directory", parent))?;
        let created = !path.exists();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io("open", path))?;
        if created {
            sync_dir(parent)?;
        }
        Ok(PgnFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one record in one write and waits until it is on the disk (on a blocking
    /// thread, so that the games still running keep their clocks honest meanwhile).
    pub async fn append(&mut self, record: &GameRecord) -> Result<(), DiskError> {
        let text = write_game(record).map_err(|source| DiskError::Record {
            path: self.path.clone(),
            source,
        })?;
        let mut file = self.file.try_clone().map_err(io("write", &self.path))?;
        let written = tokio::task::spawn_blocking(move || {
            file.write_all(text.as_bytes())
                .and_then(|_| file.sync_data())
        })
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)));
        written.map_err(io("write", &self.path))
    }
}

#[cfg(test)]
mod tests {
    use super::whole_records;

    const A: &str =
        "[Event \"a\"]\n[Site \"b\"]\n\n[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5] {[%emt 0.532]} *\n\n";
    const B: &str =
        "[Event \"b\"]\n[Site \"b\"]\n\n[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5] {[%emt 0.017]}\n  *\n\n";

    /// The Event tags of the whole records of `bytes`, and where they end.
    fn whole(bytes: &[u8]) -> Result<(Vec<String>, usize), String> {
        whole_records(bytes)
            .map(|(records, kept)| {
                let events = records
                    .iter()
                    .map(|r| r.tags.get("Event").unwrap().to_string())
                    .collect();
                (events, kept)
            })
            .map_err(|e| e.to_string())
    }

    /// `n` bytes from a xorshift generator: junk of every kind, the same on every run.
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

    #[test]
    fn a_torn_tail_of_any_bytes_after_whole_records_drops_only_itself() {
        let records = format!("{A}{B}");
        let both = (vec!["a".to_string(), "b".to_string()], records.len());
        assert_eq!(whole(records.as_bytes()), Ok(both.clone()));
        let mut tails: Vec<Vec<u8>> = [
            "[",
            "[Ev",
            "[Event",
            "[Event \"c\"]\n[Si",
            "[Event \"c\"]\n\n[Pd5,Pe5",
            "[Event \"c\"]\n\n[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5] {[%emt",
            "\0\0\0\n[Event \"c\"]\n",
            "junk\n\n",
            "\njunk",
            "\n\n\0",
            "\u{e9}",
        ]
        .iter()
        .map(|t| t.as_bytes().to_vec())
        .collect();
        tails.push(vec![0; 100]);
        // A character cut in two, and bytes that are not UTF-8 at all.
        tails.push("[Event \"\u{e9}".as_bytes()[..9].to_vec());
        for seed in 1..=20 {
            tails.push(junk(seed, 300));
        }
        for tail in tails {
            let mut bytes = records.as_bytes().to_vec();
            bytes.extend_from_slice(&tail);
            assert_eq!(whole(&bytes), Ok(both.clone()), "{tail:?}");
        }
    }

    #[test]
    fn damage_with_a_whole_record_after_it_is_an_error_not_a_cut() {
        for damage in ["\0\0\0\n\n", "junk\n\n", "[Event \"c\"]\n\n[Pd5\n\n"] {
            let text = format!("{A}{damage}{B}");
            let err = whole(text.as_bytes()).unwrap_err();
            assert!(err.starts_with("line "), "{damage:?}: {err}");
        }
        let mut bytes = A.as_bytes().to_vec();
        bytes.extend(junk(7, 300));
        bytes.extend_from_slice(format!("\n\n{B}").as_bytes());
        assert!(whole(&bytes).is_err());
    }

    #[test]
    fn a_record_is_whole_once_its_result_ends_its_line() {
        // It lost its blank line, or its newlines: still whole (sealing gives them back).
        for cut in [1, 2] {
            let text = format!("{A}{}", &B[..B.len() - cut]);
            assert_eq!(whole(text.as_bytes()).unwrap().1, text.len(), "{cut}");
        }
        // Junk on its result's line, or stuck to its result: it goes with the junk.
        for junk in [" \0\0", "\0\0", " junk\n\n"] {
            let text = format!("{A}{}{junk}", &B[..B.len() - 2]);
            let kept = (vec!["a".to_string()], A.len());
            assert_eq!(whole(text.as_bytes()), Ok(kept), "{junk:?}");
        }
        assert_eq!(whole(b"\0\0\0"), Ok((vec![], 0)));
        assert_eq!(whole(b""), Ok((vec![], 0)));
    }
}
