//! The per-game protocol transcript: every line sent to and received from each bot, with
//! the time since the game started. Written for people debugging a bot.
//!
//! With [`KeepLogs::Failures`] (`zebra match --log-failures`, and always in the daemon) the
//! transcript of a game that went well is deleted at its end and its bots' stderr files
//! are not written at all. It goes to its file as the game runs, not to memory: a
//! transcript of instant bots runs to megabytes per game (the state goes out with every
//! request), and megabytes written into the referee's own memory cost more than the same
//! written to a file, because every page written after a bot was forked from the referee
//! is a copy-on-write fault that interrupts the other CPUs (measured: 100 games of
//! instant bots took 4.9 s that way, 4.0 s with the file, 3.7 s with no transcript).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::bot::Incoming;
use crate::rules::Side;

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

/// An open transcript file.
pub struct Transcript {
    path: PathBuf,
    keep: KeepLogs,
    out: BufWriter<File>,
}

/// A new log file at `path` (its directory made if missing): `private`, 0600 in a 0700
/// directory whatever the umask (the daemon's logs), else as the umask says.
fn create_log(path: &Path, private: bool) -> std::io::Result<File> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        if private {
            builder.mode(0o700);
        }
        builder.create(dir)?;
    }
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

impl Transcript {
    pub fn create(path: &Path, keep: KeepLogs, private: bool) -> std::io::Result<Transcript> {
        Ok(Transcript {
            path: path.to_path_buf(),
            keep,
            out: BufWriter::new(create_log(path, private)?),
        })
    }

    /// `   12.345 white < {...}`: a line Zebra sent.
    pub fn sent(&mut self, at: Duration, side: Side, line: &str) {
        let _ = writeln!(self.out, "{:>10.3} {side:<5} < {line}", at.as_secs_f64());
    }

    /// `   12.400 white > {...}`: what Zebra read, stamped when its newline arrived.
    pub(crate) fn received(&mut self, at: Duration, side: Side, incoming: &Incoming) {
        let text = match incoming {
            // Valid messages hold no raw control characters; garbage may: escaped, so
            // that reading the transcript in a terminal is safe.
            Incoming::Line { text, .. } => crate::bot::text::clean(text, usize::MAX),
            Incoming::TooLong { len, .. } => {
                format!("(a line of {len} bytes, over the limit, dropped)")
            }
            Incoming::NotUtf8 { .. } => "(a line that is not UTF-8, dropped)".to_string(),
            Incoming::Closed { .. } => "(output closed)".to_string(),
        };
        let _ = writeln!(self.out, "{:>10.3} {side:<5} > {text}", at.as_secs_f64());
    }

    /// Ends the transcript of a game that `went_wrong` or not; `true` if it is kept, in
    /// which case the bots' stderr files go next to it.
    pub fn finish(mut self, went_wrong: bool) -> bool {
        let _ = self.out.flush();
        let keep = self.keep == KeepLogs::Always || went_wrong;
        if !keep {
            drop(self.out);
            let _ = std::fs::remove_file(&self.path);
        }
        keep
    }
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
    fn a_failures_only_transcript_stays_only_for_a_game_gone_wrong() {
        for went_wrong in [false, true] {
            let path = scratch(&format!("end-{went_wrong}"));
            let mut t = Transcript::create(&path, KeepLogs::Failures, false).unwrap();
            t.sent(
                Duration::from_millis(1500),
                Side::White,
                "{\"type\":\"quit\"}",
            );
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
