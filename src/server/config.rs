//! The daemon's settings: a TOML file (`--config`), with `--data`, `--listen` and
//! `--concurrency` over it, validated once into [`ServeSettings`]. Every default works on a
//! fresh machine with nothing installed: data in `./zebra-data`, loopback port 8080.
//!
//! ```toml
//! listen = "127.0.0.1:8080"
//! data = "zebra-data"
//! concurrency = 2          # games at once (default: one per CPU)
//! public_read = false      # read-only pages and API without a token
//! max_attempts = 3         # attempts per game before a game the daemon keeps losing is void
//! lease = "60s"            # how long a worker holds a game between renewals
//! suspend_after = 5        # crashes in a row that suspend a bot (0: never)
//! shutdown_grace = "30s"   # SIGTERM: how long running games may finish
//!
//! [sandbox]                # as zebra match's flags: mode, freeze_idle, limits
//! mode = "auto"
//! limits = { memory = "1G", processes = 64 }
//!
//! [ladder]                 # present: the daemon keeps scheduling games between active bots
//! games_at_once = 2        # ladder games queued or running at once (default: concurrency)
//! tc = "plays=10,play=5s,reaction=1s"
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// The file as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ServeFile {
    listen: Option<String>,
    data: Option<PathBuf>,
    concurrency: Option<usize>,
    public_read: Option<bool>,
    max_attempts: Option<u32>,
    lease: Option<String>,
    suspend_after: Option<u32>,
    shutdown_grace: Option<String>,
    sandbox: Option<crate::sandbox::Settings>,
    ladder: Option<LadderFile>,
}

/// `[ladder]` as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LadderFile {
    enabled: Option<bool>,
    games_at_once: Option<usize>,
    tc: Option<String>,
}

/// Ladder mode: the daemon keeps scheduling pairs of games between active bots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// Ladder games queued or being played at once, at most.
    pub games_at_once: usize,
    /// The ladder games' time control, canonical.
    pub tc: String,
}

/// The time control of ladder games unless `[ladder] tc` says otherwise.
pub const LADDER_TC: &str = "plays=10,play=5s,reaction=1s";

/// The daemon's settings, checked.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub listen: String,
    pub data: PathBuf,
    pub concurrency: usize,
    pub public_read: bool,
    pub max_attempts: u32,
    pub lease: Duration,
    pub suspend_after: u32,
    pub shutdown_grace: Duration,
    pub sandbox: crate::sandbox::Settings,
    /// `None`: no ladder (series only).
    pub ladder: Option<Ladder>,
}

/// What the command line says over the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub data: Option<PathBuf>,
    pub listen: Option<String>,
    pub concurrency: Option<usize>,
}

pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
pub const DEFAULT_DATA: &str = "zebra-data";

impl ServeSettings {
    /// Reads `file` (if given), applies the flags and checks every value; the error is one
    /// line naming the file and key.
    pub fn load(file: Option<&Path>, flags: &Overrides) -> Result<ServeSettings, String> {
        let (parsed, origin) = match file {
            None => (ServeFile::default(), "--config".to_string()),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the config file {}: {e}", path.display()))?;
                let parsed: ServeFile = toml::from_str(&text).map_err(|e| {
                    format!(
                        "config file {}: {}",
                        path.display(),
                        e.to_string().trim().replace('\n', " ")
                    )
                })?;
                (parsed, format!("config file {}", path.display()))
            }
        };
        let bad = |key: &str, why: String| format!("{origin}: {key}: {why}");
        let duration = |key: &str, text: Option<&String>, default: Duration| match text {
            None => Ok(default),
            Some(t) => crate::sandbox::limits::parse_duration("a duration", t)
                .map_err(|e| bad(key, format!("'{t}': {}", e.why)))?
                .ok_or_else(|| bad(key, "give a duration such as 30s".to_string())),
        };
        let listen = flags
            .listen
            .clone()
            .or(parsed.listen)
            .unwrap_or_else(|| DEFAULT_LISTEN.to_string());
        listen
            .parse::<std::net::SocketAddr>()
            .map_err(|_| format!("listen address '{listen}': give IP:PORT, e.g. 127.0.0.1:8080"))?;
        let concurrency = flags
            .concurrency
            .or(parsed.concurrency)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if concurrency == 0 || concurrency > 256 {
            return Err(bad(
                "concurrency",
                format!("{concurrency}: give 1 to 256 games at once"),
            ));
        }
        let max_attempts = parsed.max_attempts.unwrap_or(3);
        if max_attempts == 0 {
            return Err(bad("max_attempts", "give at least 1".to_string()));
        }
        let lease = duration("lease", parsed.lease.as_ref(), Duration::from_secs(60))?;
        if lease < Duration::from_secs(3) {
            return Err(bad("lease", "give at least 3s".to_string()));
        }
        let sandbox = parsed.sandbox.unwrap_or_default();
        crate::sandbox::Settings::from_flags(
            sandbox.mode.code(),
            if sandbox.freeze_idle.unwrap_or(true) {
                "on"
            } else {
                "off"
            },
            sandbox.limits.clone(),
        )
        .map_err(|e| bad("sandbox", e))?;
        sandbox
            .limits_for(&Default::default())
            .map_err(|e| bad("sandbox", e))?;
        let ladder = match parsed.ladder {
            Some(l) if l.enabled.unwrap_or(true) => {
                let games_at_once = l.games_at_once.unwrap_or(concurrency);
                if games_at_once == 0 || games_at_once > 1024 {
                    return Err(bad(
                        "ladder.games_at_once",
                        format!("{games_at_once}: give 1 to 1024"),
                    ));
                }
                let tc = crate::referee::TimeControl::parse(l.tc.as_deref().unwrap_or(LADDER_TC))
                    .map_err(|e| bad("ladder.tc", e.to_string()))?;
                Some(Ladder {
                    games_at_once,
                    tc: tc.to_string(),
                })
            }
            _ => None,
        };
        Ok(ServeSettings {
            ladder,
            listen,
            data: flags
                .data
                .clone()
                .or(parsed.data)
                .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA)),
            concurrency,
            public_read: parsed.public_read.unwrap_or(false),
            max_attempts,
            lease,
            suspend_after: parsed.suspend_after.unwrap_or(5),
            shutdown_grace: duration(
                "shutdown_grace",
                parsed.shutdown_grace.as_ref(),
                Duration::from_secs(30),
            )?,
            sandbox,
        })
    }

    /// The settings as `--check-config` prints them.
    pub fn describe(&self) -> String {
        format!(
            "listen {}\ndata {}\nconcurrency {}\npublic_read {}\nmax_attempts {}\nlease {}s\nsuspend_after {}\nshutdown_grace {}s\nsandbox {}\nladder {}",
            self.listen,
            self.data.display(),
            self.concurrency,
            self.public_read,
            self.max_attempts,
            self.lease.as_secs(),
            self.suspend_after,
            self.shutdown_grace.as_secs(),
            serde_json::to_string(&self.sandbox).unwrap_or_default(),
            self.ladder.as_ref().map_or("off".to_string(), |l| format!(
                "{} games at once, tc {}",
                l.games_at_once, l.tc
            )),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<ServeSettings, String> {
        let dir = std::env::temp_dir().join(format!("zebra-serve-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.toml", text.len()));
        std::fs::write(&path, text).unwrap();
        ServeSettings::load(Some(&path), &Overrides::default())
    }

    #[test]
    fn defaults_work_without_a_file_and_flags_win_over_it() {
        let s = ServeSettings::load(None, &Overrides::default()).unwrap();
        assert_eq!(s.listen, DEFAULT_LISTEN);
        assert_eq!(s.data, PathBuf::from(DEFAULT_DATA));
        assert!(!s.public_read);
        let s = load("listen = \"127.0.0.1:9000\"\nconcurrency = 3\n").unwrap();
        assert_eq!((s.listen.as_str(), s.concurrency), ("127.0.0.1:9000", 3));
        let flags = Overrides {
            listen: Some("127.0.0.1:9001".into()),
            ..Overrides::default()
        };
        assert_eq!(
            ServeSettings::load(None, &flags).unwrap().listen,
            "127.0.0.1:9001"
        );
    }

    #[test]
    fn bad_values_are_named_with_their_key() {
        for (text, key) in [
            ("concurrency = 0\n", "concurrency"),
            ("lease = \"1s\"\n", "lease"),
            ("lease = \"soon\"\n", "lease"),
            ("listen = \"localhost\"\n", "localhost"),
            ("colour = 1\n", "colour"),
            ("[sandbox]\nmode = \"tight\"\n", "tight"),
            ("[sandbox]\nlimits = { memory = \"lots\" }\n", "memory"),
            ("[ladder]\ngames_at_once = 0\n", "ladder.games_at_once"),
            ("[ladder]\ntc = \"fast\"\n", "ladder.tc"),
            ("[ladder]\nspeed = 1\n", "speed"),
        ] {
            let err = load(text).unwrap_err();
            assert!(err.contains(key), "{text}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }
}
