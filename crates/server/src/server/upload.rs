//! Bots uploaded by participants: a gzip-compressed tar archive holding the bot and a
//! manifest, `zebra-bot.toml`, at its root:
//!
//! ```toml
//! name = "my-bot"             # the bot's name in records (unique on the server)
//! command = "bin/my-bot"      # the program, relative to the archive's root
//! args = ["--fast"]           # optional
//! options = { depth = 3 }     # optional, sent in game_start
//! time = "play=2s"            # optional time odds (Football Chess's clocks)
//! games = ["football-chess", "boyer-football"]  # optional: the games it plays
//! ```
//!
//! `games` enters the bot in those games (left out: `["football-chess"]`); it is checked
//! for each, and plays each game whose check it passed.
//!
//! The archive is unpacked by this module alone, entry by entry, never by a library's
//! "unpack all": every path is relative with no `..` (nor a root, nor a prefix), only files,
//! directories and symbolic links whose target stays inside are accepted (no hard links,
//! devices or fifos), nothing is written through a link the archive made, and the archive
//! is refused past [`MAX_FILES`] entries or [`MAX_UNPACKED`] bytes unpacked (an archive
//! bomb stops at the limit, whatever it claims). Modes are set, not taken: directories
//! 0755, files 0644, files marked executable 0755 (never setuid, setgid or sticky), so that
//! the bot's own host user reads them (see [`super::private`]). An entry that cannot be put
//! where it says (a path under a file, a file where a directory is, a path given twice) is
//! a bad archive naming the entry, never the server's error. A refused archive leaves
//! nothing.
//! The bot is registered `strict` (always contained at the strict level) and pending its
//! check, owned by the uploader.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use crate::rules::Rules;
use crate::series::config::BotEntry;

/// The largest archive accepted (compressed), in bytes.
pub(crate) const MAX_ARCHIVE: usize = 16 * 1024 * 1024;
/// The most bytes an archive may unpack to.
pub(crate) const MAX_UNPACKED: u64 = 128 * 1024 * 1024;
/// The most entries an archive may hold.
pub(crate) const MAX_FILES: usize = 2_000;
/// The manifest's name at the archive's root.
pub(crate) const MANIFEST: &str = "zebra-bot.toml";

/// The manifest as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    name: String,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    options: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    time: Option<String>,
    #[serde(default)]
    games: Option<Vec<String>>,
}

/// Why an upload is refused: one line for the uploader.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("the archive is over {limit} bytes unpacked: unpack it smaller")]
    TooBig { limit: u64 },
    #[error("the archive holds more than {MAX_FILES} entries")]
    TooManyFiles,
    #[error("archive entry '{path}': {why}")]
    BadEntry { path: String, why: String },
    #[error("the archive is not a gzip-compressed tar file: {0}")]
    NotAnArchive(String),
    #[error("the archive has no {MANIFEST} at its root")]
    NoManifest,
    #[error("{MANIFEST}: {0}")]
    BadManifest(String),
    #[error("cannot unpack the archive here: {0}")]
    Io(String),
}

/// Unpacks `archive` into `dir` (which must not exist) and returns the bot it describes,
/// its program inside `dir`, and the games it is entered in. On any refusal `dir` is
/// removed again.
pub(crate) fn unpack(archive: &[u8], dir: &Path) -> Result<(BotEntry, Vec<Rules>), UploadError> {
    let result = unpack_into(archive, dir).and_then(|()| bot_of(dir));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

/// Modes of a bot's unpacked code: it runs as a host user of its own, which must read its
/// files (see [`super::private`]: the directories above it are the daemon's alone).
const CODE_DIR: u32 = 0o755;
const CODE_FILE: u32 = 0o644;
/// A file the archive marks executable (by anyone).
const CODE_PROGRAM: u32 = 0o755;

fn unpack_into(archive: &[u8], dir: &Path) -> Result<(), UploadError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let io = |e: std::io::Error| UploadError::Io(e.to_string());
    // DATA/uploads: the daemon's alone, so that no host user reaches any bot's code.
    super::private::dir(dir.parent().unwrap_or(Path::new("."))).map_err(io)?;
    std::fs::DirBuilder::new()
        .mode(CODE_DIR)
        .create(dir)
        .map_err(io)?;
    set_mode(dir, CODE_DIR).map_err(io)?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    let entries = tar
        .entries()
        .map_err(|e| UploadError::NotAnArchive(e.to_string()))?;
    let mut unpacked = 0u64;
    let mut count = 0usize;
    for entry in entries {
        let mut entry = entry.map_err(|e| UploadError::NotAnArchive(e.to_string()))?;
        count += 1;
        if count > MAX_FILES {
            return Err(UploadError::TooManyFiles);
        }
        let raw = entry
            .path()
            .map_err(|e| UploadError::NotAnArchive(e.to_string()))?
            .into_owned();
        let shown = crate::bot::text::clean(&raw.to_string_lossy(), 120);
        let bad = |why: String| UploadError::BadEntry {
            path: shown.clone(),
            why,
        };
        let relative =
            inside(&raw).ok_or_else(|| bad("an absolute path or one with '..'".to_string()))?;
        if relative.as_os_str().is_empty() {
            continue; // "./" itself
        }
        let target = dir.join(&relative);
        let parent = relative.parent().unwrap_or(Path::new(""));
        let kind = entry.header().entry_type();
        if matches!(kind, tar::EntryType::Link) {
            return Err(bad("a hard link".to_string()));
        }
        // Its directories first: real ones, made by the archive or now, never through a
        // link or under a file.
        make_dirs(dir, parent).map_err(|e| e.into_error(&bad))?;
        // What the archive already put at the entry's own path.
        let existing = match std::fs::symlink_metadata(&target) {
            Ok(m) => Some(m.file_type()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(placed(e, &bad)),
        };
        match kind {
            tar::EntryType::Directory => {
                if let Some(kind) = existing.filter(|k| !k.is_dir()) {
                    return Err(bad(taken(kind, "a directory")));
                }
                make_dirs(dir, &relative).map_err(|e| e.into_error(&bad))?;
            }
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                if let Some(kind) = existing {
                    return Err(bad(taken(kind, "a file")));
                }
                let mode = if entry.header().mode().unwrap_or(0) & 0o111 != 0 {
                    CODE_PROGRAM
                } else {
                    CODE_FILE
                };
                // create_new: never through a link, never over anything.
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(mode)
                    .open(&target)
                    .map_err(|e| placed(e, &bad))?;
                // Counted as written, whatever the header claims: a bomb stops here.
                let left = MAX_UNPACKED - unpacked;
                let copied = std::io::copy(&mut (&mut entry).take(left + 1), &mut file)
                    .map_err(|e| UploadError::NotAnArchive(e.to_string()))?;
                unpacked += copied;
                if unpacked > MAX_UNPACKED {
                    return Err(UploadError::TooBig {
                        limit: MAX_UNPACKED,
                    });
                }
                // The mode asked for, less no umask bit; never setuid, setgid or sticky.
                set_mode(&target, mode).map_err(io)?;
            }
            tar::EntryType::Symlink => {
                let link = entry
                    .link_name()
                    .map_err(|e| UploadError::NotAnArchive(e.to_string()))?
                    .ok_or_else(|| bad("a link without a target".to_string()))?
                    .into_owned();
                // The target, from the link's own directory, must stay inside.
                if link.is_absolute() || inside(&parent.join(&link)).is_none() {
                    return Err(bad("a link leaving the bot's directory".to_string()));
                }
                if let Some(kind) = existing {
                    return Err(bad(taken(kind, "a link")));
                }
                std::os::unix::fs::symlink(&link, &target).map_err(|e| placed(e, &bad))?;
            }
            _ => return Err(bad("not a file, directory or link".to_string())),
        }
    }
    Ok(())
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Why an entry cannot go where something of `kind` already is.
fn taken(kind: std::fs::FileType, what: &str) -> String {
    if kind.is_dir() {
        format!("{what} where the archive already made a directory")
    } else if kind.is_symlink() {
        format!("{what} where the archive already made a link")
    } else {
        format!("{what} where the archive already made a file: a path given twice")
    }
}

/// An error creating an entry: the archive's fault when the path cannot be made as asked
/// (a 422 naming the entry), the server's otherwise (a full disk: a 500, logged).
fn placed(e: std::io::Error, bad: &impl Fn(String) -> UploadError) -> UploadError {
    match e.raw_os_error() {
        Some(libc::EEXIST) => bad("a path given twice".to_string()),
        Some(libc::ENOTDIR) => bad("a path under a file".to_string()),
        Some(libc::EISDIR) => bad("a file where the archive made a directory".to_string()),
        Some(libc::ELOOP) => bad("a path through a link".to_string()),
        Some(libc::ENAMETOOLONG) => bad("a name too long for this file system".to_string()),
        _ => UploadError::Io(e.to_string()),
    }
}

/// Why [`make_dirs`] stopped.
enum DirError {
    /// The archive's fault: the reason.
    Archive(String),
    Io(std::io::Error),
}

impl DirError {
    fn into_error(self, bad: &impl Fn(String) -> UploadError) -> UploadError {
        match self {
            DirError::Archive(why) => bad(why),
            DirError::Io(e) => placed(e, bad),
        }
    }
}

/// Makes the directories of `relative` inside `root`, one component at a time, each
/// [`CODE_DIR`]. Refused: a component the archive made a file (a path under a file), and
/// one it made a link: nothing is ever written through a link of the archive's, since a
/// chain of links that each stay inside on paper (`a -> .`, then `b -> a/..`) leads out.
fn make_dirs(root: &Path, relative: &Path) -> Result<(), DirError> {
    use std::os::unix::fs::DirBuilderExt;
    let mut at = root.to_path_buf();
    let mut shown = PathBuf::new();
    for part in relative.components() {
        at.push(part);
        shown.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_dir() => continue,
            Ok(m) if m.file_type().is_symlink() => {
                return Err(DirError::Archive(format!(
                    "a path through the link '{}' (nothing is unpacked through a link)",
                    shown.display()
                )))
            }
            Ok(_) => {
                return Err(DirError::Archive(format!(
                    "a path under '{}', which the archive made a file",
                    shown.display()
                )))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::DirBuilder::new()
                    .mode(CODE_DIR)
                    .create(&at)
                    .map_err(DirError::Io)?;
                set_mode(&at, CODE_DIR).map_err(DirError::Io)?;
            }
            Err(e) => return Err(DirError::Io(e)),
        }
    }
    Ok(())
}

/// `path` as a relative path inside the root, resolving `.` and `..` lexically; `None` if
/// it is absolute or climbs out.
fn inside(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The bot the unpacked manifest describes, and its games.
fn bot_of(dir: &Path) -> Result<(BotEntry, Vec<Rules>), UploadError> {
    let path = dir.join(MANIFEST);
    if std::fs::symlink_metadata(&path).map_or(true, |m| !m.is_file()) {
        return Err(UploadError::NoManifest);
    }
    let text =
        std::fs::read_to_string(&path).map_err(|e| UploadError::BadManifest(e.to_string()))?;
    let m: Manifest = toml::from_str(&text)
        .map_err(|e| UploadError::BadManifest(e.to_string().trim().replace('\n', " ")))?;
    let mut games = Vec::new();
    for name in m
        .games
        .unwrap_or_else(|| vec![Rules::FootballChess.name().to_string()])
    {
        let game = super::series::game_named(&name)
            .map_err(|e| UploadError::BadManifest(format!("games: {e}")))?;
        if !games.contains(&game) {
            games.push(game);
        }
    }
    if games.is_empty() {
        return Err(UploadError::BadManifest(
            "games: name at least one game, e.g. games = [\"football-chess\"]".into(),
        ));
    }
    let program = inside(Path::new(&m.command))
        .filter(|p| !p.as_os_str().is_empty())
        .ok_or_else(|| {
            UploadError::BadManifest(
                "command: give the program's path inside the archive, e.g. bin/my-bot".into(),
            )
        })?;
    let entry = BotEntry {
        name: m.name,
        // Relative to the bot's directory, which the bot runs in.
        command: format!("./{}", program.display()),
        args: m.args,
        dir: Some(dir.to_path_buf()),
        env: Default::default(),
        options: m.options,
        time: m.time,
        limits: Default::default(),
        strict: true,
    };
    entry
        .validate()
        .map_err(|e| UploadError::BadManifest(e.to_string()))?;
    let resolved = dir.join(&program);
    let real = resolved.canonicalize().map_err(|_| {
        UploadError::BadManifest(format!(
            "command: no file {} in the archive",
            program.display()
        ))
    })?;
    let root = dir
        .canonicalize()
        .map_err(|e| UploadError::Io(e.to_string()))?;
    if !real.starts_with(&root) {
        return Err(UploadError::BadManifest(
            "command: it leads out of the archive".into(),
        ));
    }
    entry
        .spec()
        .check_program()
        .map_err(UploadError::BadManifest)?;
    Ok((entry, games))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    const FILE: tar::EntryType = tar::EntryType::Regular;
    const DIR: tar::EntryType = tar::EntryType::Directory;
    const LINK: tar::EntryType = tar::EntryType::Symlink;
    const MANIFEST_TEXT: &[u8] = b"name = \"x\"\ncommand = \"run.sh\"\n";

    /// A gzip-compressed tar of `entries` (path, kind, content or link target, mode), the
    /// names written as given.
    fn archive(entries: &[(&str, tar::EntryType, &[u8], u32)]) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut builder = tar::Builder::new(gz);
        for (path, kind, data, mode) in entries {
            let mut header = tar::Header::new_gnu();
            let name = &mut header.as_gnu_mut().unwrap().name;
            name[..path.len()].copy_from_slice(path.as_bytes());
            header.set_entry_type(*kind);
            header.set_mode(*mode);
            let body: &[u8] = if *kind == LINK {
                header
                    .set_link_name(std::str::from_utf8(data).unwrap())
                    .unwrap();
                &[]
            } else {
                data
            };
            header.set_size(body.len() as u64);
            header.set_cksum();
            builder.append(&header, body).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    /// A fresh `uploads` directory in a fresh data directory.
    fn uploads(name: &str) -> PathBuf {
        let root = std::env::temp_dir()
            .join(format!("zebra-upload-{}-{name}", std::process::id()))
            .join("uploads");
        let _ = std::fs::remove_dir_all(root.parent().unwrap());
        root
    }

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    #[test]
    fn an_entry_that_cannot_be_placed_is_a_bad_archive_naming_it() {
        let run: &[u8] = b"#!/bin/sh\n";
        for (name, entries, needle) in [
            (
                "under-a-file",
                vec![
                    ("bin/run", FILE, run, 0o755),
                    ("bin/run/x", FILE, run, 0o644),
                ],
                "'bin/run/x': a path under 'bin/run', which the archive made a file",
            ),
            (
                "dir-under-a-file",
                vec![
                    ("bin/run", FILE, run, 0o755),
                    ("bin/run/x/", DIR, b"", 0o755),
                ],
                "bin/run/x/': a path under 'bin/run', which the archive made a file",
            ),
            (
                "file-over-a-dir",
                vec![("bin/run/", DIR, b"", 0o755), ("bin/run", FILE, run, 0o755)],
                "'bin/run': a file where the archive already made a directory",
            ),
            (
                "dir-over-a-file",
                vec![("bin/run", FILE, run, 0o755), ("bin/run/", DIR, b"", 0o755)],
                "bin/run/': a directory where the archive already made a file",
            ),
            (
                "twice",
                vec![("run.sh", FILE, run, 0o755), ("run.sh", FILE, run, 0o755)],
                "'run.sh': a file where the archive already made a file: a path given twice",
            ),
            (
                "link-over-a-file",
                vec![("run.sh", FILE, run, 0o755), ("run.sh", LINK, b"x", 0o777)],
                "'run.sh': a link where the archive already made a file",
            ),
        ] {
            let dir = uploads(name).join("bot");
            let mut all = vec![(MANIFEST, FILE, MANIFEST_TEXT, 0o644)];
            all.extend(entries);
            let err = unpack(&archive(&all), &dir).unwrap_err();
            assert!(matches!(err, UploadError::BadEntry { .. }), "{name}: {err}");
            assert!(err.to_string().contains(needle), "{name}: {err}");
            assert!(!dir.exists(), "{name}: a refused archive leaves nothing");
        }
    }

    #[test]
    fn nothing_is_written_through_a_chain_of_links_that_leads_out() {
        // Each link stays inside on paper; together `b` is the uploads directory.
        let dir = uploads("chain").join("bot");
        let evil = archive(&[
            (MANIFEST, FILE, MANIFEST_TEXT, 0o644),
            ("a", LINK, b".", 0o777),
            ("b", LINK, b"a/..", 0o777),
            ("b/planted", FILE, b"x", 0o644),
        ]);
        let err = unpack(&evil, &dir).unwrap_err();
        assert!(
            err.to_string()
                .contains("'b/planted': a path through the link 'b'"),
            "{err}"
        );
        assert!(!dir.parent().unwrap().join("planted").exists());
        assert!(!dir.exists());
    }

    #[test]
    fn unpacked_code_is_readable_by_its_bot_and_the_uploads_private() {
        let dir = uploads("modes").join("bot");
        let good = archive(&[
            (MANIFEST, FILE, MANIFEST_TEXT, 0o600),
            ("run.sh", FILE, b"#!/bin/sh\n", 0o4700),
            ("lib/", DIR, b"", 0o700),
            ("lib/data.txt", FILE, b"1", 0o666),
            ("deep/er/x", FILE, b"1", 0o640),
        ]);
        unpack(&good, &dir).unwrap();
        assert_eq!(mode(dir.parent().unwrap()), 0o700, "uploads/");
        for (path, want) in [
            ("", 0o755),
            (MANIFEST, 0o644),
            ("run.sh", 0o755),
            ("lib", 0o755),
            ("lib/data.txt", 0o644),
            ("deep", 0o755),
            ("deep/er", 0o755),
            ("deep/er/x", 0o644),
        ] {
            assert_eq!(mode(&dir.join(path)), want, "{path}");
        }
        let _ = std::fs::remove_dir_all(dir.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn paths_stay_inside_or_are_refused() {
        assert_eq!(inside(Path::new("a/./b")), Some(PathBuf::from("a/b")));
        assert_eq!(inside(Path::new("a/../b")), Some(PathBuf::from("b")));
        assert_eq!(inside(Path::new("../b")), None);
        assert_eq!(inside(Path::new("a/../../b")), None);
        assert_eq!(inside(Path::new("/etc/passwd")), None);
        assert_eq!(inside(Path::new("./")), Some(PathBuf::new()));
    }
}
