//! The bots a worker has downloaded: `CACHE/bots/SHA256/`, each an uploaded archive
//! unpacked by the daemon's own unpacker ([`crate::server::upload`]: every path checked,
//! links kept inside, sizes bounded, modes set), once its bytes were checked to have the
//! SHA-256 the lease named. A download that fails or does not match leaves nothing; a
//! directory there is complete (it is renamed into place only once unpacked).
//!
//! The cache is the worker's alone (0700, like the daemon's data directory); each bot's
//! code inside is readable by the bot's own host user, as on the daemon.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::client::Client;

/// The unpacked bots, by their archive's SHA-256.
pub struct Cache {
    dir: PathBuf,
    /// One download at a time: two games needing the same new bot fetch it once.
    fetching: tokio::sync::Mutex<()>,
}

impl Cache {
    pub fn new(root: &Path) -> Cache {
        Cache {
            dir: root.join("bots"),
            fetching: tokio::sync::Mutex::new(()),
        }
    }

    /// The directory bot archive `hash` is unpacked in, downloaded first if it is not
    /// there.
    pub async fn bot(&self, client: &Client, hash: &str) -> Result<PathBuf, String> {
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "the lease names the archive '{hash}', not a SHA-256"
            ));
        }
        let dir = self.dir.join(hash);
        if dir.is_dir() {
            return Ok(dir);
        }
        let _one = self.fetching.lock().await;
        if dir.is_dir() {
            return Ok(dir);
        }
        let bytes = client.archive(hash).await?;
        let got: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if got != hash.to_ascii_lowercase() {
            return Err(format!(
                "the archive {hash} downloaded has SHA-256 {got}: refused (a proxy or the server changed it)"
            ));
        }
        let place = dir.clone();
        tokio::task::spawn_blocking(move || unpack(&bytes, &place))
            .await
            .map_err(|e| e.to_string())??;
        Ok(dir)
    }
}

/// Unpacks into a fresh directory beside `dir`, then renames it into place.
fn unpack(bytes: &[u8], dir: &Path) -> Result<(), String> {
    let fresh = dir.with_extension(format!("part-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    crate::server::upload::unpack(bytes, &fresh)
        .map_err(|e| format!("the archive {} does not unpack: {e}", dir.display()))?;
    match std::fs::rename(&fresh, dir) {
        Ok(()) => Ok(()),
        // Another worker process sharing this cache put the same bot there first.
        Err(_) if dir.is_dir() => {
            let _ = std::fs::remove_dir_all(&fresh);
            Ok(())
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&fresh);
            Err(format!("cannot put {} in place: {e}", dir.display()))
        }
    }
}
