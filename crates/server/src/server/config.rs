//! The daemon's settings: a TOML file (`--config`), with `--data`, `--listen`,
//! `--concurrency`, `--tls-cert` and `--tls-key` over it, validated once into
//! [`ServeSettings`]. Every default works on a fresh machine with nothing installed: data
//! in `./zebra-data`, loopback port 8080.
//!
//! ```toml
//! listen = "127.0.0.1:8080"
//! data = "zebra-data"
//! database = "sqlite"      # or postgres://USER:PASSWORD@HOST:PORT/DB: daemons sharing it
//!                          # share the queue and the store (and must share `data` too)
//! concurrency = 2          # games at once (default: one per CPU; 0: only remote workers play)
//! public_read = false      # read-only pages and API without a token
//! max_attempts = 3         # attempts per game before a game the daemon keeps losing is void
//! lease = "60s"            # how long a worker holds a game between renewals
//! suspend_after = 5        # crashes in a row that suspend a bot (0: never)
//! shutdown_grace = "30s"   # SIGTERM: how long running games may finish
//! tls_cert = "cert.pem"    # HTTPS: the certificate chain and its key, PEM (both or neither)
//! tls_key = "key.pem"
//! checks = 1               # new bots' admission checks run at once (1 to 64)
//!
//! [sandbox]                # as zebra match's flags: freeze_idle, limits; every bot runs
//! limits = { memory = "1G", processes = 64 }   # at the strict level (mode: strict only)
//!
//! [http]                   # what a connection may hold of the server
//! header_timeout = "15s"   # a request's head, from connect or from the last answer
//!                          # (so also how long an idle keep-alive connection stays)
//! body_timeout = "120s"    # a request's whole body (an upload: 16 MiB at most)
//! write_timeout = "30s"    # an answer the client stops reading: closed after this
//! max_connections = 512    # open at once; more wait in the kernel's queue
//!
//! [ladder]                 # present: the daemon keeps scheduling games between active bots
//! games_at_once = 2        # ladder games queued or running at once (default: concurrency)
//! games = ["football-chess"]  # the games it runs, each its own ladder (default: this one)
//! tc = "plays=10,play=5s,reaction=1s"  # the clock of its one game; with several games a
//!                          # table: tc = { football-chess = "...", boyer-football = "blitz" }
//!                          # (a game left out: its default clock)
//! max_game_time = "10m"    # wall-time cap of each game (default: derived from tc), or "none"
//!
//! [quotas]                 # per owner of a submit token (admins have none); a key left
//! bots = 5                 # out: no limit. Bots (names) kept at once
//! versions = 10            # versions kept of each bot
//! series = 3               # series running at once
//! stored_bytes = "200M"    # bytes of uploaded archives kept
//! uploaded_bytes_per_day = "100M"  # bytes uploaded in the last 24 hours
//! games_per_day = 5000     # games of the owner's series queued in the last 24 hours
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
    database: Option<String>,
    concurrency: Option<usize>,
    public_read: Option<bool>,
    max_attempts: Option<u32>,
    lease: Option<String>,
    suspend_after: Option<u32>,
    shutdown_grace: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    checks: Option<usize>,
    sandbox: Option<SandboxFile>,
    quotas: Option<QuotasFile>,
    http: Option<HttpFile>,
    ladder: Option<LadderFile>,
}

/// `[sandbox]` as written: `zebra match`'s settings, but the mode can only be strict.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SandboxFile {
    mode: Option<String>,
    freeze_idle: Option<bool>,
    #[serde(default)]
    limits: crate::sandbox::LimitSettings,
}

/// `[quotas]` as written (sizes as text: `200M`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct QuotasFile {
    bots: Option<u64>,
    versions: Option<u64>,
    series: Option<u64>,
    stored_bytes: Option<String>,
    uploaded_bytes_per_day: Option<String>,
    games_per_day: Option<u64>,
}

/// `[http]` as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HttpFile {
    header_timeout: Option<String>,
    body_timeout: Option<String>,
    write_timeout: Option<String>,
    max_connections: Option<usize>,
}

/// What a connection may hold of the server (see [`super::http`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Http {
    /// From a connection's start, or from its last answer, until a request's head is
    /// read whole: the header timeout and the keep-alive idle timeout both.
    pub header_timeout: Duration,
    /// A request's whole body.
    pub body_timeout: Duration,
    /// An answer the client does not read: a write that makes no progress for this long
    /// closes the connection.
    pub write_timeout: Duration,
    /// Connections served at once; more wait in the kernel's accept queue.
    pub max_connections: usize,
}

impl Default for Http {
    fn default() -> Http {
        Http {
            header_timeout: Duration::from_secs(15),
            body_timeout: Duration::from_secs(120),
            write_timeout: Duration::from_secs(30),
            max_connections: 512,
        }
    }
}

/// HTTPS: the certificate chain and its private key, PEM files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tls {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// `[ladder]` as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LadderFile {
    enabled: Option<bool>,
    games_at_once: Option<usize>,
    games: Option<Vec<String>>,
    tc: Option<LadderClock>,
    max_game_time: Option<String>,
}

/// `[ladder] tc`: the clock of the ladder's one game, or a clock per game.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum LadderClock {
    One(String),
    PerGame(std::collections::BTreeMap<String, String>),
}

/// Ladder mode: the daemon keeps scheduling pairs of games between active bots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// Ladder games queued or being played at once, at most (per game).
    pub games_at_once: usize,
    /// The games it runs, each with its clock (canonical): a ladder per game, over the
    /// bots admitted to it.
    pub games: Vec<(crate::rules::Rules, String)>,
    /// Their wall-time cap, canonical (`None`: derived from the clock).
    pub max_game_time: Option<String>,
}

/// The daemon's settings, checked.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub listen: String,
    pub data: PathBuf,
    /// SQLite in `data`, or a PostgreSQL server daemons share.
    pub database: super::store::Database,
    pub concurrency: usize,
    pub public_read: bool,
    pub max_attempts: u32,
    pub lease: Duration,
    pub suspend_after: u32,
    pub shutdown_grace: Duration,
    /// How bots are contained: always at the strict level (the file cannot say otherwise;
    /// see `super::serve` for the one exception, for tests).
    pub sandbox: crate::sandbox::Settings,
    pub http: Http,
    /// `None`: plain HTTP.
    pub tls: Option<Tls>,
    /// `None`: no ladder (series only).
    pub ladder: Option<Ladder>,
    /// Admission checks run at once.
    pub checks: usize,
    /// What each owner may use (all `None`: no limits).
    pub quotas: super::entrants::Quotas,
}

/// What the command line says over the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub data: Option<PathBuf>,
    pub database: Option<String>,
    pub listen: Option<String>,
    pub concurrency: Option<usize>,
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
}

pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
pub(crate) const DEFAULT_DATA: &str = "zebra-data";

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
        // 0: the daemon plays no game itself, only remote workers do (`zebra worker`).
        if concurrency > 256 {
            return Err(bad(
                "concurrency",
                format!("{concurrency}: give 0 to 256 games at once (0: only remote workers play)"),
            ));
        }
        let database = match flags.database.as_ref().or(parsed.database.as_ref()) {
            None => super::store::Database::Sqlite,
            Some(text) => super::store::Database::parse(text).map_err(|e| {
                if flags.database.is_some() {
                    e
                } else {
                    bad("database", e.replace("--database ", ""))
                }
            })?,
        };
        let max_attempts = parsed.max_attempts.unwrap_or(3);
        if max_attempts == 0 {
            return Err(bad("max_attempts", "give at least 1".to_string()));
        }
        let lease = duration("lease", parsed.lease.as_ref(), Duration::from_secs(60))?;
        if lease < Duration::from_secs(3) {
            return Err(bad("lease", "give at least 3s".to_string()));
        }
        let sandbox = parsed.sandbox.unwrap_or_default();
        // Bots from strangers, run unattended: the strict level or nothing. Whether this
        // machine has it is for the daemon's start to say, not for every admin command.
        if let Some(mode) = sandbox.mode.as_deref().filter(|m| *m != "strict") {
            return Err(bad(
                "sandbox.mode",
                format!(
                    "'{}': the daemon runs every bot at the strict level; remove the key or give strict",
                    crate::bot::text::clean(mode, 40)
                ),
            ));
        }
        let sandbox = crate::sandbox::Settings::from_flags(
            "strict",
            if sandbox.freeze_idle.unwrap_or(true) {
                "on"
            } else {
                "off"
            },
            sandbox.limits,
        )
        .map_err(|e| bad("sandbox", e))?;
        let http_file = parsed.http.unwrap_or_default();
        let defaults = Http::default();
        let timeout = |key: &str, text: Option<&String>, default: Duration| {
            let d = duration(key, text, default)?;
            if d < Duration::from_millis(100) || d > Duration::from_secs(3600) {
                return Err(bad(key, "give 100ms to 1h".to_string()));
            }
            Ok(d)
        };
        let http = Http {
            header_timeout: timeout(
                "http.header_timeout",
                http_file.header_timeout.as_ref(),
                defaults.header_timeout,
            )?,
            body_timeout: timeout(
                "http.body_timeout",
                http_file.body_timeout.as_ref(),
                defaults.body_timeout,
            )?,
            write_timeout: timeout(
                "http.write_timeout",
                http_file.write_timeout.as_ref(),
                defaults.write_timeout,
            )?,
            max_connections: match http_file.max_connections {
                None => defaults.max_connections,
                Some(n) if (1..=65_536).contains(&n) => n,
                Some(n) => {
                    return Err(bad("http.max_connections", format!("{n}: give 1 to 65536")))
                }
            },
        };
        let tls = match (
            flags.tls_cert.clone().or(parsed.tls_cert),
            flags.tls_key.clone().or(parsed.tls_key),
        ) {
            (None, None) => None,
            (Some(cert), Some(key)) => Some(Tls { cert, key }),
            (Some(_), None) => {
                return Err(format!(
                    "{origin}: a TLS certificate without its key: give --tls-key (tls_key) too"
                ))
            }
            (None, Some(_)) => {
                return Err(format!(
                    "{origin}: a TLS key without its certificate: give --tls-cert (tls_cert) too"
                ))
            }
        };
        let ladder = match parsed.ladder {
            Some(l) if l.enabled.unwrap_or(true) => {
                let games_at_once = l.games_at_once.unwrap_or(concurrency.max(1));
                if games_at_once == 0 || games_at_once > 1024 {
                    return Err(bad(
                        "ladder.games_at_once",
                        format!("{games_at_once}: give 1 to 1024"),
                    ));
                }
                let mut rules = Vec::new();
                for name in l
                    .games
                    .unwrap_or_else(|| vec![crate::rules::Rules::FootballChess.name().to_string()])
                {
                    let game =
                        super::series::game_named(&name).map_err(|e| bad("ladder.games", e))?;
                    if !rules.contains(&game) {
                        rules.push(game);
                    }
                }
                if rules.is_empty() {
                    return Err(bad("ladder.games", "name at least one game".to_string()));
                }
                let given = |game: crate::rules::Rules| -> Result<Option<String>, String> {
                    Ok(match &l.tc {
                        None => None,
                        Some(LadderClock::One(tc)) if rules.len() == 1 => Some(tc.clone()),
                        Some(LadderClock::One(_)) => {
                            return Err(bad(
                                "ladder.tc",
                                format!(
                                    "with several games give a clock per game: tc = {{ {} }}",
                                    rules
                                        .iter()
                                        .map(|r| format!("{} = \"...\"", r.name()))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            ))
                        }
                        Some(LadderClock::PerGame(map)) => {
                            if let Some(other) = map
                                .keys()
                                .find(|k| !rules.iter().any(|r| r.name() == k.as_str()))
                            {
                                return Err(bad(
                                    "ladder.tc",
                                    format!("'{other}' is not one of the ladder's games"),
                                ));
                            }
                            map.get(game.name()).cloned()
                        }
                    })
                };
                let mut games = Vec::new();
                for &game in &rules {
                    let text = given(game)?.unwrap_or_else(|| {
                        crate::referee::GameConfig::default_clock(game).to_string()
                    });
                    let tc = crate::referee::GameClock::read(game, &text)
                        .map_err(|e| bad("ladder.tc", format!("{game}: {e}")))?
                        .to_string();
                    games.push((game, tc));
                }
                let max_game_time = match l.max_game_time.as_deref() {
                    None => crate::referee::MaxGameTime::Derived,
                    Some(text) => text
                        .parse()
                        .map_err(|e: crate::referee::MaxGameTimeError| {
                            bad("ladder.max_game_time", e.to_string())
                        })?,
                };
                Some(Ladder {
                    games_at_once,
                    games,
                    max_game_time: (max_game_time != crate::referee::MaxGameTime::Derived)
                        .then(|| max_game_time.to_string()),
                })
            }
            _ => None,
        };
        let checks = parsed.checks.unwrap_or(1);
        if !(1..=64).contains(&checks) {
            return Err(bad(
                "checks",
                format!("{checks}: give 1 to 64 checks at once"),
            ));
        }
        let q = parsed.quotas.unwrap_or_default();
        let count = |key: &str, n: Option<u64>| match n {
            Some(0) => Err(bad(
                key,
                "give at least 1 (leave the key out for no limit)".to_string(),
            )),
            n => Ok(n),
        };
        let bytes = |key: &str, text: Option<&String>| -> Result<Option<u64>, String> {
            match text {
                None => Ok(None),
                Some(t) => crate::sandbox::limits::parse_size("a size", t, 1)
                    .map_err(|e| bad(key, format!("'{t}': {}", e.why))),
            }
        };
        let quotas = super::entrants::Quotas {
            bots: count("quotas.bots", q.bots)?,
            versions: count("quotas.versions", q.versions)?,
            series: count("quotas.series", q.series)?,
            stored_bytes: bytes("quotas.stored_bytes", q.stored_bytes.as_ref())?,
            uploaded_bytes_per_day: bytes(
                "quotas.uploaded_bytes_per_day",
                q.uploaded_bytes_per_day.as_ref(),
            )?,
            games_per_day: count("quotas.games_per_day", q.games_per_day)?,
        };
        Ok(ServeSettings {
            database,
            checks,
            quotas,
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
            http,
            tls,
        })
    }

    /// The settings as `--check-config` prints them.
    pub fn describe(&self) -> String {
        format!(
            "listen {}{}\ndata {}\ndatabase {}\nconcurrency {}\nchecks {}\nquotas {}\npublic_read {}\nmax_attempts {}\nlease {}s\nsuspend_after {}\nshutdown_grace {}s\nsandbox {}\nhttp header_timeout {:?}, body_timeout {:?}, write_timeout {:?}, max_connections {}\nladder {}",
            self.listen,
            self.tls.as_ref().map_or(" (plain HTTP)".to_string(), |t| format!(
                " (HTTPS: certificate {}, key {})",
                t.cert.display(),
                t.key.display()
            )),
            self.data.display(),
            self.database.describe(),
            self.concurrency,
            self.checks,
            self.quotas.describe(),
            self.public_read,
            self.max_attempts,
            self.lease.as_secs(),
            self.suspend_after,
            self.shutdown_grace.as_secs(),
            serde_json::to_string(&self.sandbox).unwrap_or_default(),
            self.http.header_timeout,
            self.http.body_timeout,
            self.http.write_timeout,
            self.http.max_connections,
            self.ladder.as_ref().map_or("off".to_string(), |l| format!(
                "{} games at once, {}, max_game_time {}",
                l.games_at_once,
                l.games
                    .iter()
                    .map(|(game, tc)| format!("{game} tc {tc}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                l.max_game_time.as_deref().unwrap_or("auto")
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
        assert_eq!(s.sandbox.mode, crate::sandbox::Mode::Strict);
        assert_eq!((s.http.clone(), s.tls.clone()), (Http::default(), None));
        let s = load(
            "[sandbox]\nmode = \"strict\"\n[http]\nheader_timeout = \"2s\"\nmax_connections = 8\n",
        )
        .unwrap();
        assert_eq!(s.sandbox.mode, crate::sandbox::Mode::Strict);
        assert_eq!(
            (s.http.header_timeout, s.http.max_connections),
            (Duration::from_secs(2), 8)
        );
        let tls = Overrides {
            tls_cert: Some("c.pem".into()),
            tls_key: Some("k.pem".into()),
            ..Overrides::default()
        };
        assert_eq!(
            ServeSettings::load(None, &tls).unwrap().tls,
            Some(Tls {
                cert: "c.pem".into(),
                key: "k.pem".into()
            })
        );
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
    fn a_ladder_runs_each_game_named_with_its_own_clock() {
        let read = |text: &str| load(text).unwrap().ladder.unwrap();
        // Clocks are kept canonical.
        let chess = crate::referee::TimeControl::parse(crate::referee::GameConfig::default_clock(
            crate::rules::Rules::FootballChess,
        ))
        .unwrap()
        .to_string();
        // (Each text its own length: `load` names its file by the length.)
        let one = read("[ladder]\n# a ladder of Football Chess alone, by default\n");
        assert_eq!(
            one.games,
            [(crate::rules::Rules::FootballChess, chess.clone())]
        );
        let two = read(
            "[ladder]\ngames = [\"football-chess\", \"boyer-football\"]\ntc = { boyer-football = \"blitz\" }\n",
        );
        assert_eq!(
            two.games,
            [
                (crate::rules::Rules::FootballChess, chess.clone()),
                (
                    crate::rules::Rules::BoyerFootball,
                    "bank=10s,inc=100ms,grace=100ms".to_string()
                )
            ]
        );
    }

    #[test]
    fn bad_values_are_named_with_their_key() {
        for (text, key) in [
            ("concurrency = 300\n", "concurrency"),
            ("lease = \"1s\"\n", "lease"),
            ("lease = \"soon\"\n", "lease"),
            ("listen = \"localhost\"\n", "localhost"),
            ("colour = 1\n", "colour"),
            ("[sandbox]\nmode = \"tight\"\n", "tight"),
            ("[sandbox]\nmode = \"auto\"\n", "sandbox.mode"),
            ("[sandbox]\nmode = \"none\"\n", "strict level"),
            ("[http]\nheader_timeout = \"0s\"\n", "http.header_timeout"),
            ("[http]\nmax_connections = 0\n", "http.max_connections"),
            ("[http]\nidle = \"1s\"\n", "idle"),
            ("tls_cert = \"c.pem\"\n", "--tls-key"),
            ("tls_key = \"k.pem\"\n", "--tls-cert"),
            ("[sandbox]\nlimits = { memory = \"lots\" }\n", "memory"),
            ("[ladder]\ngames_at_once = 0\n", "ladder.games_at_once"),
            ("[ladder]\ntc = \"fast\"\n", "ladder.tc"),
            ("[ladder]\ngames = [\"chess\"]\n", "ladder.games"),
            (
                "[ladder]\ngames = [\"boyer-football\"]\ntc = \"plays=10\"\n",
                "ladder.tc",
            ),
            (
                "[ladder]\ngames = [\"football-chess\", \"boyer-football\"]\ntc = \"blitz\"\n",
                "ladder.tc",
            ),
            ("[ladder]\nmax_game_time = \"25\"\n", "ladder.max_game_time"),
            ("[ladder]\nmax_game_time = \"0s\"\n", "ladder.max_game_time"),
            ("[ladder]\nspeed = 1\n", "speed"),
        ] {
            let err = load(text).unwrap_err();
            assert!(err.contains(key), "{text}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }
}
