//! Bots uploaded by participants: a gzip-compressed tar archive holding the bot and a
//! manifest, `zebra-bot.toml`, at its root:
//!
//! ```toml
//! name = "my-bot"             # the bot's name in records (unique on the server)
//! command = "bin/my-bot"      # the program, relative to the archive's root
//! args = ["--fast"]           # optional
//! options = { depth = 3 }     # optional, sent in game_start
//! time = "play=2s"            # optional time odds
//! ```
//!
//! The archive is unpacked by this module alone, entry by entry, never by a library's
//! "unpack all": every path is relative with no `..` (nor a root, nor a prefix), only files,
//! directories and symbolic links whose target stays inside are accepted (no hard links,
//! devices or fifos), modes lose setuid/setgid/sticky bits and write access for others, and
//! the archive is refused past [`MAX_FILES`] entries or [`MAX_UNPACKED`] bytes unpacked (an
//! archive bomb stops at the limit, whatever it claims). A refused archive leaves nothing.
//! The bot is registered `strict` (always contained at the strict level) and pending its
//! check, owned by the uploader.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

use crate::series::config::BotEntry;

/// The largest archive accepted (compressed), in bytes.
pub const MAX_ARCHIVE: usize = 16 * 1024 * 1024;
/// The most bytes an archive may unpack to.
pub const MAX_UNPACKED: u64 = 128 * 1024 * 1024;
/// The most entries an archive may hold.
pub const MAX_FILES: usize = 2_000;
/// The manifest's name at the archive's root.
pub const MANIFEST: &str = "zebra-bot.toml";

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
}

/// Why an upload is refused: one line for the uploader.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("the archive is over {limit} bytes unpacked: unpack it smaller")]
    TooBig { limit: u64 },
    #[error("the archive holds more than {MAX_FILES} entries")]
    TooManyFiles,
    #[error("archive entry '{path}': {why}")]
    BadEntry { path: String, why: &'static str },
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
/// its program inside `dir`. On any refusal `dir` is removed again.
pub fn unpack(archive: &[u8], dir: &Path) -> Result<BotEntry, UploadError> {
    let result = unpack_into(archive, dir).and_then(|()| bot_of(dir));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

fn unpack_into(archive: &[u8], dir: &Path) -> Result<(), UploadError> {
    let io = |e: std::io::Error| UploadError::Io(e.to_string());
    std::fs::create_dir_all(dir.parent().unwrap_or(Path::new("."))).map_err(io)?;
    std::fs::create_dir(dir).map_err(io)?;
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
        let bad = |why| UploadError::BadEntry {
            path: shown.clone(),
            why,
        };
        let relative = inside(&raw).ok_or_else(|| bad("an absolute path or one with '..'"))?;
        if relative.as_os_str().is_empty() {
            continue; // "./" itself
        }
        let target = dir.join(&relative);
        let mode = entry.header().mode().unwrap_or(0o644) & 0o755;
        match entry.header().entry_type() {
            tar::EntryType::Directory => {
                std::fs::create_dir_all(&target).map_err(io)?;
            }
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(io)?;
                }
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&target)
                    .map_err(|_| bad("a path given twice, or under a file"))?;
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
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode))
                    .map_err(io)?;
            }
            tar::EntryType::Symlink => {
                let link = entry
                    .link_name()
                    .map_err(|e| UploadError::NotAnArchive(e.to_string()))?
                    .ok_or_else(|| bad("a link without a target"))?
                    .into_owned();
                // The target, from the link's own directory, must stay inside.
                let from = relative.parent().unwrap_or(Path::new(""));
                if link.is_absolute() || inside(&from.join(&link)).is_none() {
                    return Err(bad("a link leaving the bot's directory"));
                }
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(io)?;
                }
                std::os::unix::fs::symlink(&link, &target)
                    .map_err(|_| bad("a path given twice, or under a file"))?;
            }
            tar::EntryType::Link => return Err(bad("a hard link")),
            _ => return Err(bad("not a file, directory or link")),
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

/// The bot the unpacked manifest describes.
fn bot_of(dir: &Path) -> Result<BotEntry, UploadError> {
    let path = dir.join(MANIFEST);
    if std::fs::symlink_metadata(&path).map_or(true, |m| !m.is_file()) {
        return Err(UploadError::NoManifest);
    }
    let text =
        std::fs::read_to_string(&path).map_err(|e| UploadError::BadManifest(e.to_string()))?;
    let m: Manifest = toml::from_str(&text)
        .map_err(|e| UploadError::BadManifest(e.to_string().trim().replace('\n', " ")))?;
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
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

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
