//! The per-game protocol transcript: every line sent to and received from each bot, with
//! the time since the game started. Written for people debugging a bot.
//!
//! With [`KeepLogs::Failures`] (`zebra match --log-failures`, and always in the daemon) only
//! a game that went wrong keeps its transcript, and its bots' stderr files. Such a
//! transcript is held in memory while the game runs, up to [`MEMORY_CAP`] bytes, then in an
//! unlinked file of the log directory (`O_TMPFILE`; a named file, deleted if the game went
//! well, where the file system has none); it gets its name only when the game went wrong.
//! So a clean game touches no disk, and a crash leaves no half transcript behind. Measured
//! on this project's VM: 3,000 lines of a version-2 game (374 KB) took 9 us to memory and
//! 300 us to a file then deleted (named or unlinked alike). Writing into memory was once
//! slower (each page written after a bot's fork was a copy-on-write fault for as long as
//! the bot's keeper lived); the keeper now execs (see `sandbox::keeper`). The memory of a
//! transcript that ended in memory (written out or not) is kept, cleared, for a next game's
//! (at most [`SPARE_BYTES`] of it in all): a game then writes into pages already there,
//! where growing a new buffer to its size cost the game thread some 0.2 ms of allocation,
//! copying and page faults.
//! With [`KeepLogs::Always`] the lines go to the named file as they come.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::bot::Incoming;
use crate::rules::Side;

/// The bytes of lines a failures-only transcript keeps in memory before it moves to an
/// unlinked file: per game at once, whatever its length, at most this much (in an
/// allocation of at most twice this).
pub const MEMORY_CAP: usize = 4 << 20;

/// The most bytes of cleared memory transcripts kept for the next games' (see
/// [`Spares`]): a few games' worth at once, however many games there were.
pub(crate) const SPARE_BYTES: usize = 16 << 20;

/// Cleared buffers of memory transcripts, for the next games: at most `cap` bytes of them.
struct Spares {
    held: Mutex<Vec<Vec<u8>>>,
    cap: usize,
}

impl Spares {
    const fn new(cap: usize) -> Spares {
        Spares {
            held: Mutex::new(Vec::new()),
            cap,
        }
    }

    /// A cleared buffer for a memory transcript: one a finished game gave back, else new.
    fn take(&self) -> Vec<u8> {
        self.held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(64 << 10))
    }

    /// Keeps a memory transcript's buffer, cleared, for a next game, unless the spares
    /// would then hold more than their cap.
    fn give(&self, mut bytes: Vec<u8>) {
        bytes.clear();
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let bytes_held: usize = held.iter().map(Vec::capacity).sum();
        if bytes_held + bytes.capacity() <= self.cap {
            held.push(bytes);
        }
    }
}

/// This process's spare transcript buffers.
static SPARES: Spares = Spares::new(SPARE_BYTES);

/// Which games keep their transcript and their bots' stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeepLogs {
    /// Every game (`zebra play --log-dir`, `zebra match --log-dir`).
    #[default]
    Always,
    /// Games that ended early or in which a reply was not taken (a timeout, an illegal or
    /// a late reply).
    Failures,
}

/// An open transcript.
pub struct Transcript {
    path: PathBuf,
    private: bool,
    sink: Sink,
}

/// Where a transcript's lines go.
enum Sink {
    /// [`KeepLogs::Always`]: the file at the transcript's path.
    Named(BufWriter<File>),
    /// [`KeepLogs::Failures`]: memory, up to [`MEMORY_CAP`]...
    Memory(Vec<u8>),
    /// ...then an unlinked file in the log directory, named only if kept...
    Unlinked(BufWriter<File>),
    /// ...or, without `O_TMPFILE`, the file at the path, deleted unless kept...
    Doomed(BufWriter<File>),
    /// ...or nowhere, when neither file could be made (said once): the lines so far.
    Stopped(Vec<u8>),
}

/// A new log file at `path` (its directory made if missing): `private`, 0600 in a 0700
/// directory whatever the umask (the daemon's logs), else as the umask says.
fn create_log(path: &Path, private: bool) -> std::io::Result<File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    make_dir(path, private)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    if private {
        options.mode(0o600);
    }
    let file = options.open(path)?;
    if private {
        // Created 0600 less the umask's bits; a file that was there kept its own mode.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// Writes a log file beside a transcript (a bot's stderr), private as [`create_log`] says.
pub(crate) fn write_log(path: &Path, text: &[u8], private: bool) -> std::io::Result<()> {
    create_log(path, private)?.write_all(text)
}

/// Makes the directory of a log file (0700 when `private`).
fn make_dir(path: &Path, private: bool) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        if private {
            builder.mode(0o700);
        }
        builder.create(dir)?;
    }
    Ok(())
}

/// An unlinked file in the directory of `path` (`O_TMPFILE`), 0600 when `private`.
fn unlinked(path: &Path, private: bool) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .mode(if private { 0o600 } else { 0o666 })
        .open(dir)?;
    if private {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

impl Transcript {
    pub fn create(path: &Path, keep: KeepLogs, private: bool) -> std::io::Result<Transcript> {
        let sink = match keep {
            KeepLogs::Always => Sink::Named(BufWriter::new(create_log(path, private)?)),
            KeepLogs::Failures => {
                // Made now, so that a directory that cannot be is said as the game starts.
                make_dir(path, private)?;
                Sink::Memory(SPARES.take())
            }
        };
        Ok(Transcript {
            path: path.to_path_buf(),
            private,
            sink,
        })
    }

    /// Writes one line, `{at:>10.3} {side:<5} {arrow} {text}`; a failures-only transcript
    /// over [`MEMORY_CAP`] moves to a file. Written piece by piece, without the formatting
    /// machinery: a game writes some 3,000 lines, and formatting the time stamp as a float
    /// was most of their cost.
    fn line(&mut self, at: Duration, side: Side, arrow: &[u8], text: &str) {
        let mut stamp = [0u8; 32];
        let stamp = stamp_into(at, &mut stamp);
        let pieces: [&[u8]; 6] = [
            stamp,
            b" ",
            side.name().as_bytes(),
            arrow,
            text.as_bytes(),
            b"\n",
        ];
        match &mut self.sink {
            Sink::Named(out) | Sink::Unlinked(out) | Sink::Doomed(out) => {
                for piece in pieces {
                    let _ = out.write_all(piece);
                }
            }
            Sink::Memory(bytes) => {
                for piece in pieces {
                    bytes.extend_from_slice(piece);
                }
                if bytes.len() > MEMORY_CAP {
                    let bytes = std::mem::take(bytes);
                    self.spill(bytes);
                }
            }
            Sink::Stopped(_) => {}
        }
    }

    /// Moves a failures-only transcript from memory to an unlinked file (else a named one;
    /// else it stops where it is, said once).
    fn spill(&mut self, bytes: Vec<u8>) {
        let file = unlinked(&self.path, self.private)
            .map(|f| Sink::Unlinked(BufWriter::new(f)))
            .or_else(|_| {
                create_log(&self.path, self.private).map(|f| Sink::Doomed(BufWriter::new(f)))
            });
        self.sink = match file {
            Ok(mut sink) => {
                if let Sink::Unlinked(out) | Sink::Doomed(out) = &mut sink {
                    let _ = out.write_all(&bytes);
                }
                sink
            }
            Err(e) => {
                tracing::warn!(
                    "cannot write the transcript {}: {e}; it stops at {} bytes",
                    self.path.display(),
                    bytes.len()
                );
                Sink::Stopped(bytes)
            }
        };
    }

    /// `   12.345 white < {...}`: a line Zebra sent.
    pub fn sent(&mut self, at: Duration, side: Side, line: &str) {
        self.line(at, side, b" < ", line);
    }

    /// `   12.400 white > {...}`: what Zebra read, stamped when its newline arrived.
    pub(crate) fn received(&mut self, at: Duration, side: Side, incoming: &Incoming) {
        let text = match incoming {
            // Valid messages hold no raw control characters; garbage may: escaped, so
            // that reading the transcript in a terminal is safe.
            Incoming::Line { text, .. } => crate::bot::text::clean_borrowed(text, usize::MAX),
            Incoming::TooLong { len, .. } => {
                format!("(a line of {len} bytes, over the limit, dropped)").into()
            }
            Incoming::NotUtf8 { .. } => "(a line that is not UTF-8, dropped)".into(),
            Incoming::Closed { .. } => "(output closed)".into(),
        };
        self.line(at, side, b" > ", &text);
    }

    /// Ends the transcript of a game that `went_wrong` or not; `true` if it is kept, in
    /// which case the bots' stderr files go next to it.
    pub fn finish(self, went_wrong: bool) -> bool {
        let kept = match self.sink {
            Sink::Named(mut out) => out.flush().is_ok(),
            Sink::Memory(bytes) | Sink::Stopped(bytes) => {
                let kept = went_wrong
                    && create_log(&self.path, self.private)
                        .and_then(|mut f| f.write_all(&bytes))
                        .map_err(|e| {
                            tracing::warn!(
                                "cannot write the transcript {}: {e}",
                                self.path.display()
                            )
                        })
                        .is_ok();
                SPARES.give(bytes);
                kept
            }
            Sink::Unlinked(out) => went_wrong && name(out, &self.path),
            Sink::Doomed(mut out) => {
                let _ = out.flush();
                drop(out);
                if !went_wrong {
                    let _ = std::fs::remove_file(&self.path);
                }
                went_wrong
            }
        };
        kept
    }
}

/// `at` in seconds with three decimals, right-aligned in ten columns, as `{:>10.3}` writes
/// `at.as_secs_f64()`: `     1.250`. Rounded to the nearest millisecond; an exact half
/// (which the float format rounds by the float's binary value) goes through the float
/// format itself.
fn stamp_into(at: Duration, buf: &mut [u8; 32]) -> &[u8] {
    if at.subsec_nanos() % 1_000_000 == 500_000 {
        use std::io::Write;
        let mut out = &mut buf[..];
        let _ = write!(out, "{:>10.3}", at.as_secs_f64());
        let written = 32 - out.len();
        return &buf[..written];
    }
    let ms = at.as_secs() * 1000 + u64::from((at.subsec_nanos() + 500_000) / 1_000_000);
    let (mut secs, frac) = (ms / 1000, ms % 1000);
    let mut i = buf.len();
    for digit in [frac % 10, frac / 10 % 10, frac / 100] {
        i -= 1;
        buf[i] = b'0' + digit as u8;
    }
    i -= 1;
    buf[i] = b'.';
    loop {
        i -= 1;
        buf[i] = b'0' + (secs % 10) as u8;
        secs /= 10;
        if secs == 0 {
            break;
        }
    }
    while buf.len() - i < 10 {
        i -= 1;
        buf[i] = b' ';
    }
    &buf[i..]
}

/// Gives an unlinked transcript its name (whatever was there is replaced).
fn name(out: BufWriter<File>, path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(file) = out.into_inner() else {
        return false;
    };
    let from = format!("/proc/self/fd/{}\0", file.as_raw_fd());
    let Ok(to) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    let link = || {
        // SAFETY: both strings are NUL-terminated and outlive the call.
        unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr().cast(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            ) == 0
        }
    };
    if link() {
        return true;
    }
    // A file of an earlier run by that name is replaced; nothing is removed otherwise.
    let exists = std::io::Error::last_os_error().raw_os_error() == Some(libc::EEXIST);
    let linked = exists && std::fs::remove_file(path).is_ok() && link();
    if !linked {
        tracing::warn!(
            "cannot name the transcript {}: {}",
            path.display(),
            std::io::Error::last_os_error()
        );
    }
    linked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("zebra-transcript-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("game-0001.log")
    }

    #[test]
    fn a_stamp_is_written_as_the_float_format_writes_it() {
        let mut buf = [0u8; 32];
        for (secs, nanos) in [
            (0, 0),
            (0, 1),
            (0, 499_999),
            (0, 500_001),
            (0, 500_000),
            (1, 500_000),
            (0, 62_500_000),
            (7, 1_500_000),
            (0, 999_400_000),
            (0, 999_600_000),
            (1, 250_000_000),
            (59, 999_999_999),
            (12_345, 678_901_234),
            (9_999_999, 123_000_000),
            (123_456_789_012, 7_000_000),
        ] {
            let at = Duration::new(secs, nanos);
            assert_eq!(
                std::str::from_utf8(stamp_into(at, &mut buf)).unwrap(),
                format!("{:>10.3}", at.as_secs_f64()),
                "{at:?}"
            );
        }
    }

    #[test]
    fn a_failures_only_transcript_stays_only_for_a_game_gone_wrong() {
        for went_wrong in [false, true] {
            let path = scratch(&format!("end-{went_wrong}"));
            let mut t = Transcript::create(&path, KeepLogs::Failures, false).unwrap();
            t.sent(
                Duration::from_millis(1500),
                Side::White,
                "{\"type\":\"quit\"}",
            );
            // Held in memory: nothing on disk while the game runs.
            assert!(!path.exists());
            assert_eq!(t.finish(went_wrong), went_wrong);
            assert_eq!(path.exists(), went_wrong);
            if went_wrong {
                assert_eq!(
                    std::fs::read_to_string(&path).unwrap(),
                    "     1.500 white < {\"type\":\"quit\"}\n"
                );
            }
            let _ = std::fs::remove_dir_all(path.parent().unwrap());
        }
    }

    #[test]
    fn a_transcript_on_a_used_buffer_holds_only_its_own_lines() {
        let path = scratch("spare");
        for game in 0..20 {
            let mut t = Transcript::create(&path, KeepLogs::Failures, false).unwrap();
            t.sent(
                Duration::from_millis(game),
                Side::Black,
                &"y".repeat(100_000),
            );
            t.sent(
                Duration::from_millis(2),
                Side::White,
                &format!("game {game}"),
            );
            let Sink::Memory(bytes) = &t.sink else {
                panic!("in memory")
            };
            // Whichever buffer it was given, it holds this game's lines only: two lines of
            // a stamp (10), a space, the side (5), the arrow (3) and a newline.
            assert_eq!(bytes.len(), 2 * 20 + 100_000 + format!("game {game}").len());
            assert!(!t.finish(false));
        }
    }

    #[test]
    fn spare_buffers_come_back_cleared_and_stay_within_their_cap() {
        let spares = Spares::new(3 << 20);
        let mut first = spares.take();
        first.resize(1 << 20, 7);
        let capacity = first.capacity();
        spares.give(first);
        // The same memory, empty.
        let again = spares.take();
        assert!(again.is_empty());
        assert_eq!(again.capacity(), capacity);
        // None left: a new one.
        assert_eq!(spares.take().capacity(), 64 << 10);
        spares.give(again);
        for _ in 0..10 {
            spares.give(Vec::with_capacity(1 << 20));
        }
        let held = spares.held.lock().unwrap();
        assert!(held.iter().all(Vec::is_empty));
        let bytes: usize = held.iter().map(Vec::capacity).sum();
        assert!(bytes <= 3 << 20, "{bytes}");
        assert!(held.len() >= 2, "kept up to the cap");
    }

    #[test]
    fn a_failures_only_transcript_over_the_memory_cap_moves_to_an_unlinked_file() {
        let line = "x".repeat(1000);
        let lines = MEMORY_CAP / 1000 + 10;
        for went_wrong in [false, true] {
            let path = scratch(&format!("spill-{went_wrong}"));
            let mut t = Transcript::create(&path, KeepLogs::Failures, true).unwrap();
            for _ in 0..lines {
                t.sent(Duration::from_millis(1), Side::Black, &line);
            }
            let dir = path.parent().unwrap();
            if unlinked(&path, true).is_ok() {
                assert!(
                    matches!(t.sink, Sink::Unlinked(_)),
                    "spilled to an unlinked file"
                );
                // Nothing is named in the directory while the game runs.
                assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
            } else {
                // A file system without O_TMPFILE: the named file, deleted if not kept.
                assert!(matches!(t.sink, Sink::Doomed(_)));
            }
            assert_eq!(t.finish(went_wrong), went_wrong);
            if went_wrong {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(text.lines().count(), lines);
                assert_eq!(
                    text.lines().next().unwrap(),
                    format!("     0.001 black < {line}")
                );
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600);
            } else {
                assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
            }
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    #[test]
    fn private_logs_are_0600_in_a_0700_directory_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let path = scratch("private");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let t = Transcript::create(&path, KeepLogs::Always, true).unwrap();
        assert!(t.finish(true));
        let stderr = path.with_extension("white.stderr");
        write_log(&stderr, b"thinking", true).unwrap();
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!((mode(&path), mode(&stderr)), (0o600, 0o600));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn an_always_transcript_stays_for_a_game_that_went_well() {
        let path = scratch("always");
        let t = Transcript::create(&path, KeepLogs::Always, false).unwrap();
        assert!(t.finish(false));
        assert!(path.exists());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
