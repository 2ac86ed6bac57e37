//! The data directory is the daemon's alone: it and every directory in it are created
//! 0700, every file 0600 (the database with the records and its `-wal`/`-shm`, the lock,
//! the archives, the failed games' logs), whatever the umask, and a data directory found with wider modes
//! is tightened at start. Bots run as host users of their own: were the data directory
//! readable, any bot could read the database (token hashes, every registration), the
//! records and the other bots' logs, and copy its rivals' uploaded code.
//!
//! The one exception is the unpacked code of an uploaded bot (see [`super::upload`]): each
//! bot runs as a dedicated unprivileged uid that sees its own directory bind-mounted
//! read-only into its private view, so that directory must be readable by others (0755
//! directories, 0644 files, 0755 programs). No host user reaches it through the host's
//! tree: `DATA` and `DATA/uploads` are 0700.
//!
//! Modes are given explicitly (`DirBuilder::mode`, `OpenOptions::mode`) and set again
//! with `chmod` when the thing existed or the umask narrowed them, never left to the
//! umask of whoever started the daemon.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Directories of the data directory.
pub const DIR: u32 = 0o700;
/// Files of the data directory.
pub const FILE: u32 = 0o600;

/// Creates `path` as a private directory, with any missing parent (0700 too, less what
/// the umask takes); a directory already there is made private as well (only `path`
/// itself: existing parents are the operator's).
pub fn dir(path: &Path) -> io::Result<()> {
    DirBuilder::new().recursive(true).mode(DIR).create(path)?;
    std::fs::set_permissions(path, Permissions::from_mode(DIR))
}

/// Options that create a file 0600 (an existing file keeps its mode: see [`file_mode`]).
pub(crate) fn file_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.mode(FILE);
    options
}

/// Makes an existing file private; a missing one is no error.
pub(crate) fn file_mode(path: &Path) -> io::Result<()> {
    match std::fs::set_permissions(path, Permissions::from_mode(FILE)) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Writes `text` to a new file `path`, created 0600 (or replaces its content, then makes
/// it 0600).
pub fn write(path: &Path, text: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut file = file_options()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    file.write_all(text)?;
    file_mode(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn directories_and_files_are_private_whatever_was_there() {
        let root = std::env::temp_dir().join(format!("zebra-private-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::set_permissions(&root, Permissions::from_mode(0o755)).unwrap();
        dir(&root).unwrap();
        assert_eq!(mode(&root), 0o700, "an existing directory is tightened");
        let deep = root.join("a/b/c");
        dir(&deep).unwrap();
        for d in ["a", "a/b", "a/b/c"] {
            assert_eq!(mode(&root.join(d)), 0o700, "{d}");
        }
        let file = deep.join("f");
        write(&file, b"x").unwrap();
        assert_eq!(mode(&file), 0o600);
        std::fs::set_permissions(&file, Permissions::from_mode(0o644)).unwrap();
        write(&file, b"y").unwrap();
        assert_eq!(mode(&file), 0o600, "an existing file is tightened");
        file_mode(&root.join("missing")).unwrap();
        let _ = std::fs::remove_dir_all(&root);
    }
}
