//! Who owns what: this Zebra's run name, the lock that says it is alive, and the host user
//! ids its bots run as.
//!
//! Every cgroup and temp directory Zebra makes is named `zebra-<run>-<n>`, where `<run>` is
//! sixteen random hex digits drawn once per process: two Zebras never share a name, not
//! even two that are PID 1 of their containers. A Zebra holds an exclusive `flock` on
//! `<temp>/zebra-<run>.lock` for as long as it lives; the kernel drops it when the process
//! dies, however it dies. A later Zebra removes what a dead run left (its lock file exists
//! and can be taken), and nothing of a run whose lock it cannot judge (no lock file: the
//! run lives in another file system view, e.g. another container's /tmp).
//!
//! When Zebra runs as root, each running bot gets a host user and group id of its own from
//! a range (`ZEBRA_BOT_UIDS`, default 61000-61183), held by a lock file per id
//! (`<temp>/zebra-uid-<id>.lock`), so that two bots, of one Zebra or of several, never
//! share an id: neither can signal, trace or open the other's files.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The default range of bot user ids: above Debian's ordinary users and systemd-homed's
/// container range, below systemd's dynamic users (61184-65519), and within the 65,536
/// ids that a container's user namespace usually maps.
pub(crate) const DEFAULT_UIDS: (u32, u32) = (61000, 61183);

/// This process's run name: 16 random hex digits, the same for the whole process.
pub(crate) fn run_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let mut bytes = [0u8; 8];
        // SAFETY: getrandom writes at most `len` bytes into the buffer.
        let n = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
        if n != bytes.len() as isize {
            // No getrandom (very old kernel): the time and pid still make a collision
            // unlikely, and the lock below makes one harmless.
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0);
            bytes = (t ^ (u64::from(std::process::id()) << 40)).to_le_bytes();
        }
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        hold_run_lock(&id);
        id
    })
}

/// `zebra-<run>-<n>`: a name for one of this run's cgroups or temp directories.
pub fn name(n: u64) -> String {
    format!("zebra-{}-{n}", run_id())
}

fn lock_path(run: &str) -> PathBuf {
    std::env::temp_dir().join(format!("zebra-{run}.lock"))
}

/// Takes this run's lock for the life of the process (the descriptor is never closed).
fn hold_run_lock(run: &str) {
    static LOCK: OnceLock<Option<File>> = OnceLock::new();
    LOCK.get_or_init(|| {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .open(lock_path(run))
            .ok()?;
        try_lock(&f).then_some(f)
    });
}

/// An exclusive lock without waiting.
fn try_lock(f: &File) -> bool {
    // SAFETY: flock only acts on our own descriptor.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// The run a name `zebra-<run>-...` belongs to, if it is one of ours (16 hex digits).
pub fn run_of(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("zebra-")?;
    let run = rest.get(..16)?;
    (run.bytes().all(|b| b.is_ascii_hexdigit()) && rest[16..].starts_with('-')).then_some(run)
}

/// Whether the run `run` is over: its lock file exists and nobody holds it. The caller may
/// then remove what the run left.
pub(crate) fn run_is_dead(run: &str) -> bool {
    if run == run_id() {
        return false;
    }
    let Ok(f) = File::open(lock_path(run)) else {
        return false;
    };
    try_lock(&f)
}

/// The run whose lock file is named `name` (`zebra-<run>.lock`).
pub(crate) fn run_of_lock(name: &str) -> Option<&str> {
    let run = name.strip_prefix("zebra-")?.strip_suffix(".lock")?;
    (run.len() == 16 && run.bytes().all(|b| b.is_ascii_hexdigit())).then_some(run)
}

/// Removes the lock file of a dead run whose leftovers are gone.
pub(crate) fn forget_run(run: &str) {
    if run_is_dead(run) {
        let _ = std::fs::remove_file(lock_path(run));
    }
}

/// The range of bot user ids, from `ZEBRA_BOT_UIDS` (`FIRST-LAST`) or the default.
pub fn uid_range() -> Result<(u32, u32), String> {
    match std::env::var("ZEBRA_BOT_UIDS") {
        Err(_) => Ok(DEFAULT_UIDS),
        Ok(text) => parse_range(&text).ok_or_else(|| {
            format!(
                "ZEBRA_BOT_UIDS '{text}': write a range of user ids such as 61000-61183 (from 1000 to 4294967294, the first not above the last)"
            )
        }),
    }
}

fn parse_range(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.trim().split_once('-')?;
    let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a >= 1000 && a <= b && b < u32::MAX).then_some((a, b))
}

/// A host user id held for one running bot; given back when dropped.
#[derive(Debug)]
pub struct BotUser {
    pub uid: u32,
    _lock: File,
}

/// Takes a free id of the range: the first one whose lock file nobody holds, starting
/// after the last one taken (so ids are not reused at once).
pub(crate) fn take_bot_user() -> io::Result<BotUser> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let (first, last) = uid_range().map_err(io::Error::other)?;
    let count = last - first + 1;
    let start = NEXT.fetch_add(1, Ordering::Relaxed);
    for k in 0..count {
        let uid = first + (start.wrapping_add(k) % count);
        let path = std::env::temp_dir().join(format!("zebra-uid-{uid}.lock"));
        let Ok(f) = open_lock(&path) else { continue };
        if try_lock(&f) {
            NEXT.store(uid - first + 1, Ordering::Relaxed);
            return Ok(BotUser { uid, _lock: f });
        }
    }
    Err(io::Error::other(format!(
        "all {count} bot user ids {first}-{last} are in use: give a larger range in ZEBRA_BOT_UIDS"
    )))
}

fn open_lock(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .create(true)
        .append(true)
        .mode(0o644)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_run_and_are_recognised() {
        let n = name(7);
        assert_eq!(run_of(&n), Some(run_id()));
        assert!(n.ends_with("-7"));
        assert_eq!(
            run_of("zebra-12-3"),
            None,
            "an old pid-keyed name is not a run"
        );
        assert_eq!(
            run_of("zebra-0123456789abcdef-1.tmp"),
            Some("0123456789abcdef")
        );
        assert_eq!(run_of("zebra-0123456789abcdefg-1"), None);
        assert_eq!(
            run_of_lock("zebra-0123456789abcdef.lock"),
            Some("0123456789abcdef")
        );
        assert_eq!(run_of_lock("zebra-uid-61000.lock"), None);
    }

    #[test]
    fn our_own_run_is_alive_and_an_unknown_run_is_not_judged() {
        assert!(!run_is_dead(run_id()));
        // No lock file: another view's run, left alone.
        assert!(!run_is_dead("00000000deadbeef"));
    }

    #[test]
    fn a_run_whose_lock_is_free_is_dead() {
        let run = "fedcba9876543210";
        let path = lock_path(run);
        let held = open_lock(&path).unwrap();
        assert!(try_lock(&held));
        // flock locks belong to the open file: another open of the same file cannot take
        // it while `held` lives.
        assert!(!run_is_dead(run));
        drop(held);
        assert!(run_is_dead(run));
        forget_run(run);
        assert!(!path.exists());
    }

    #[test]
    fn uid_ranges_are_checked() {
        assert_eq!(parse_range("61000-61183"), Some((61000, 61183)));
        assert_eq!(parse_range(" 70000 - 70000 "), Some((70000, 70000)));
        assert_eq!(parse_range("0-10"), None, "root and system ids are refused");
        assert_eq!(parse_range("5000-4000"), None);
        assert_eq!(parse_range("5000"), None);
        assert_eq!(parse_range("5000-4294967295"), None);
    }
}
