//! What a series keeps on disk, and how it finds its place again.
//!
//! The PGN file is the series' memory: a game counts as played once its record is in the
//! file, flushed and fsynced. `series.json` (written once, atomically, when the series
//! starts) says which games the series plays. Resuming reads both and plays exactly the
//! scheduled games whose records are missing. A record cut short by a kill in the middle
//! of a write is dropped from the end of the file (its game is played again).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::record::{read_games, write_game, GameRecord, RecordError};

use crate::rules::Side;

use super::conduct::GameConduct;
use super::config::{SeriesConfig, SERIES_FILE_VERSION};
use super::schedule::Fixture;
use super::standings::GameOutcome;

/// The name of the saved settings in an output directory.
pub const SERIES_FILE: &str = "series.json";
/// Where `--replay-suspect` keeps the attempts it voided, in the output directory.
pub const VOIDED_FILE: &str = "voided.pgn";
/// The lock file that keeps two runs from appending to the same series at once.
pub const LOCK_FILE: &str = "lock";

/// An exclusive hold on a series directory, released when dropped (or when the process
/// dies, however it dies: the kernel drops `flock` locks with the file).
pub struct SeriesLock {
    _file: std::fs::File,
}

/// Takes the series directory's lock, or says who holds it.
pub fn lock_series(dir: &Path) -> Result<SeriesLock, DiskError> {
    use std::os::fd::AsRawFd;
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io("open", &path))?;
    // SAFETY: flock only acts on the descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(DiskError::Busy {
            dir: dir.to_path_buf(),
        });
    }
    Ok(SeriesLock { _file: file })
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
    #[error("{path} was written by another version of Zebra (series file version {found}, this one reads {SERIES_FILE_VERSION})")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: {source}")]
    Record { path: PathBuf, source: RecordError },
    #[error("{path} holds a game that is not part of this series ({detail}): is this the right directory?")]
    Foreign { path: PathBuf, detail: String },
    #[error("{path} is shorter than the {start} bytes it held when the series started: it was edited or replaced, so the series cannot tell which games it played")]
    Shrunk { path: PathBuf, start: u64 },
    #[error("{dir} is in use by another zebra match (it holds the lock {dir}/{LOCK_FILE}): wait for it to end, or stop it first")]
    Busy { dir: PathBuf },
    #[error("{dir} already holds a series: continue it with 'zebra match --resume {dir}', or choose another --out")]
    Exists { dir: PathBuf },
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> DiskError {
    let path = path.to_path_buf();
    move |source| DiskError::Io { what, path, source }
}

/// Creates `dir` and saves the series' settings in it; refuses a directory that already
/// holds a series (it would be overwritten).
pub fn save_series(dir: &Path, config: &SeriesConfig) -> Result<(), DiskError> {
    std::fs::create_dir_all(dir).map_err(io("create the directory", dir))?;
    let path = dir.join(SERIES_FILE);
    if path.exists() {
        return Err(DiskError::Exists {
            dir: dir.to_path_buf(),
        });
    }
    let text = serde_json::to_string_pretty(config).expect("the settings serialize");
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

/// Makes a directory's entries durable (a new or renamed file survives a power loss).
fn sync_dir(dir: &Path) -> Result<(), DiskError> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io("sync the directory", dir))
}

/// Reads the settings saved in `dir`.
pub fn load_series(dir: &Path) -> Result<SeriesConfig, DiskError> {
    let path = dir.join(SERIES_FILE);
    let text = std::fs::read_to_string(&path).map_err(io("read", &path))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| DiskError::BadSeriesFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
    let found = value["version"].as_u64().unwrap_or(0) as u32;
    if found != SERIES_FILE_VERSION {
        return Err(DiskError::Version { path, found });
    }
    serde_json::from_value(value).map_err(|e| DiskError::BadSeriesFile {
        path,
        message: e.to_string(),
    })
}

/// The games of `fixtures` already recorded in `pgn` from byte `start` on (where the
/// series began appending), in file order, each once. A record cut short at the end of the
/// file is dropped from it; a record that does not belong to the schedule is an error.
pub fn load_finished(
    pgn: &Path,
    start: u64,
    fixtures: &[Fixture],
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    let mut seen = std::collections::BTreeSet::new();
    Ok(load_records(pgn, start, fixtures, names)?
        .into_iter()
        .filter(|g| seen.insert(g.game))
        .collect())
}

/// The attempts voided by `--replay-suspect` (`DIR/voided.pgn`), one entry per attempt,
/// so that a resumed series knows how many attempts each game has had already.
pub fn load_voided(
    pgn: &Path,
    fixtures: &[Fixture],
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    load_records(pgn, 0, fixtures, names)
}

/// Every record of `pgn` from byte `start` on, as games of `fixtures`.
fn load_records(
    pgn: &Path,
    start: u64,
    fixtures: &[Fixture],
    names: &[String],
) -> Result<Vec<GameOutcome>, DiskError> {
    let whole = match std::fs::read_to_string(pgn) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && start == 0 => return Ok(Vec::new()),
        Err(e) => return Err(io("read", pgn)(e)),
    };
    let Some(text) = usize::try_from(start).ok().and_then(|s| whole.get(s..)) else {
        return Err(DiskError::Shrunk {
            path: pgn.to_path_buf(),
            start,
        });
    };
    let records = match read_games(text) {
        Ok(records) => records,
        Err(first) => {
            // Only the last record may be damaged (a write cut short by a kill): drop it.
            let cut = last_game_start(text);
            let kept = &text[..cut];
            let records = read_games(kept).map_err(|_| DiskError::Record {
                path: pgn.to_path_buf(),
                source: first,
            })?;
            tracing::warn!(
                "{}: dropped an unfinished record at the end (byte {cut} on); its game is played again",
                pgn.display()
            );
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(pgn)
                .map_err(io("open", pgn))?;
            file.set_len(start + cut as u64)
                .and_then(|_| file.sync_all())
                .map_err(io("truncate", pgn))?;
            records
        }
    };
    records
        .iter()
        .map(|record| {
            match_fixture(record, fixtures, names).map_err(|detail| DiskError::Foreign {
                path: pgn.to_path_buf(),
                detail,
            })
        })
        .collect()
}

/// Byte offset of the last line that opens a record (`[Event `), or 0.
fn last_game_start(text: &str) -> usize {
    let mut last = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            last = offset;
        }
        offset += line.len();
    }
    last
}

/// The schedule's game that `record` is, checked by number, players and seed.
fn match_fixture(
    record: &GameRecord,
    fixtures: &[Fixture],
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
    let fixture = fixtures.iter().find(|f| f.game == number).ok_or_else(|| {
        format!(
            "game {number}, beyond the {} games scheduled",
            fixtures.len()
        )
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
    Ok(GameOutcome::of(fixture, result, termination)
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
