//! The bots of a series and the settings it runs under, from the command line or a config
//! file (TOML or JSON), validated once; and the same settings saved next to the games, so
//! that `--resume DIR` continues exactly the series that was started.
//!
//! A config file names each bot:
//!
//! ```toml
//! [[bot]]
//! name = "greedy"
//! command = "target/release/zebra-greedy-bot"   # the program
//! args = ["--name", "greedy"]                   # optional
//! dir = "."                                     # optional working directory
//! env = { RUST_LOG = "info" }                   # optional environment
//! options = { depth = 2 }                       # optional option values (sent in game_start)
//! time = "play=2s,reaction=500ms"               # optional time odds
//! ```
//!
//! The JSON form is the same structure: `{"bot": [{"name": ..., "command": ...}]}`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::bot::BotSpec;
use crate::referee::{GameConfig, GameSetup, MaxGameTime, MaxGameTimeError, TimeOdds};
use crate::sandbox::{LimitSettings, Limits};

use super::schedule::Format;
use super::stats::SprtParams;

/// One bot as a config file or `--bot NAME=CMD` names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// Empty for a bot the user did not name: `zebra match` names it by its `ready`
    /// (bot::name) before the series is saved.
    #[serde(default)]
    pub name: String,
    /// The program to run.
    pub command: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Working directory of the bot's process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Option values sent in `game_start`.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// Time odds: `play=2s,reaction=500ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// This bot's own limits, over the flags': `limits = { memory = "2G", processes = 16 }`.
    #[serde(default, skip_serializing_if = "LimitSettings::is_empty")]
    pub limits: LimitSettings,
    /// Always contained at the strict level, whatever the series' `--sandbox` (a bot
    /// uploaded to `zebra serve` is): its games refuse to run where strict cannot hold.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strict: bool,
}

/// A config file's contents.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    bot: Vec<BotEntry>,
}

/// What is wrong with the bots or settings of a series.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("config file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error(
        "--bot '{0}': give a command, as NAME=COMMAND or COMMAND, e.g. --bot greedy=target/release/zebra-greedy-bot"
    )]
    BadBotFlag(String),
    #[error("--bot '{flag}': {why}")]
    BadBotCommand { flag: String, why: String },
    #[error("bot '{name}' has an empty command: give the program to run")]
    EmptyCommand { name: String },
    #[error("a bot has an empty name: every bot needs a name for the records")]
    EmptyName,
    #[error("{0}")]
    BadName(String),
    #[error("two bots are named '{0}': names must be unique (they label records and statistics)")]
    DuplicateName(String),
    #[error("bot '{name}': time odds: {source}")]
    Odds {
        name: String,
        source: crate::referee::TimeControlError,
    },
    #[error("a series needs at least two bots; got {0} (use --bot NAME=COMMAND or --config FILE)")]
    TooFewBots(usize),
    #[error("{0} bots: a series has at most {max}", max = super::schedule::MAX_BOTS)]
    TooManyBots(usize),
}

impl BotEntry {
    /// `NAME=COMMAND` or just `COMMAND` (an empty name: named later by its `ready`), the
    /// command split as a shell would (program, then arguments). A `NAME=` prefix is one
    /// whose name has no spaces, slashes or quotes: `python3 bot.py --depth=3` is all
    /// command.
    pub fn from_flag(flag: &str) -> Result<BotEntry, ConfigError> {
        let (name, command) = match flag.split_once('=') {
            Some((name, command))
                if !name.is_empty()
                    && !name
                        .chars()
                        .any(|c| c.is_whitespace() || matches!(c, '/' | '\\' | '\'' | '"')) =>
            {
                (name, command)
            }
            _ => ("", flag),
        };
        if command.trim().is_empty() {
            return Err(ConfigError::BadBotFlag(flag.to_string()));
        }
        let mut words = crate::bot::process::split_command(command)
            .map_err(|why| ConfigError::BadBotCommand {
                flag: flag.to_string(),
                why,
            })?
            .into_iter();
        Ok(BotEntry {
            name: name.trim().to_string(),
            command: words.next().unwrap_or_default(),
            args: words.collect(),
            dir: None,
            env: BTreeMap::new(),
            options: serde_json::Map::new(),
            time: None,
            limits: LimitSettings::default(),
            strict: false,
        })
    }

    /// The time odds this bot plays with (none when not set).
    pub fn odds(&self) -> Result<TimeOdds, ConfigError> {
        match &self.time {
            None => Ok(TimeOdds::default()),
            Some(text) => TimeOdds::parse(text).map_err(|source| ConfigError::Odds {
                name: self.name.clone(),
                source,
            }),
        }
    }

    /// How to start this bot, with the limits it plays under.
    pub fn spec_with(&self, limits: Limits) -> BotSpec {
        BotSpec {
            limits,
            ..self.spec()
        }
    }

    /// How to start this bot (with the default limits).
    pub fn spec(&self) -> BotSpec {
        BotSpec {
            name: self.name.clone(),
            program: PathBuf::from(&self.command),
            args: self.args.clone(),
            dir: self.dir.clone(),
            env: self
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            options: self.options.clone(),
            cpus: None,
            limits: crate::sandbox::Limits::default(),
        }
    }
}

/// Reads the bots of a config file: TOML, or JSON when the name ends in `.json`.
pub fn read_config(path: &Path) -> Result<Vec<BotEntry>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let parse_error = |message: String| ConfigError::Parse {
        path: path.to_path_buf(),
        message,
    };
    let file: ConfigFile = if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).map_err(|e| parse_error(e.to_string()))?
    } else {
        toml::from_str(&text).map_err(|e| parse_error(e.to_string().trim().replace('\n', " ")))?
    };
    if file.bot.is_empty() {
        return Err(parse_error(
            "it names no bots: add [[bot]] tables with name and command".to_string(),
        ));
    }
    Ok(file.bot)
}

/// Checks the bots of a series: at least two, unique non-empty names, commands, odds.
pub fn validate_bots(bots: &[BotEntry]) -> Result<(), ConfigError> {
    if bots.len() < 2 {
        return Err(ConfigError::TooFewBots(bots.len()));
    }
    if bots.len() > super::schedule::MAX_BOTS {
        return Err(ConfigError::TooManyBots(bots.len()));
    }
    let mut seen = std::collections::BTreeSet::new();
    for bot in bots {
        bot.validate()?;
        if !seen.insert(bot.name.as_str()) {
            return Err(ConfigError::DuplicateName(bot.name.clone()));
        }
    }
    Ok(())
}

impl BotEntry {
    /// One bot's own checks: a name fit for records, a command, time odds that parse.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.name.trim().is_empty() {
            return Err(ConfigError::EmptyName);
        }
        crate::bot::text::check_user_name(&self.name).map_err(ConfigError::BadName)?;
        if self.command.trim().is_empty() {
            return Err(ConfigError::EmptyCommand {
                name: self.name.clone(),
            });
        }
        self.odds()?;
        Ok(())
    }
}

/// Everything that decides which games a series plays and how: saved as `series.json` in
/// the output directory and read back by `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesConfig {
    /// The format of this file.
    pub version: u32,
    pub format: Format,
    pub bots: Vec<BotEntry>,
    /// The game played (a series file without this key: Football Chess, the only game
    /// before there were two).
    #[serde(default)]
    pub rules: crate::rules::Rules,
    /// Pairs per encounter.
    pub rounds: u32,
    pub seed: u64,
    /// The game's clock in its canonical form: Football Chess's time control, or the chess
    /// clock of a game without clocks of its own.
    pub tc: String,
    /// The wall-time cap of each game in its canonical form (`25m`, `none`); a series file
    /// without this key: derived from the clock (`auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_game_time: Option<String>,
    pub max_illegal: u32,
    pub sprt: Option<SprtParams>,
    /// The PGN file every game is appended to (in `series.json`: relative to the series
    /// directory when inside it, like the other paths of the series' own files).
    pub pgn: PathBuf,
    /// Its length when the series started: a series may append to a file that already
    /// holds other games, and only reads back its own.
    #[serde(default)]
    pub pgn_start: u64,
    /// The JSON-lines event stream, if any.
    pub events: Option<PathBuf>,
    /// Where transcripts go, if anywhere, and whether only failed games keep theirs.
    pub log_dir: Option<PathBuf>,
    pub log_failures: bool,
    /// The PGN Event tag.
    pub event: String,
    /// How bots are contained (a series file without this key: the defaults).
    #[serde(default)]
    pub sandbox: crate::sandbox::Settings,
    /// `--replay-suspect`: void and replay games a suspect timeout may have decided (a
    /// series file without this key does not replay).
    #[serde(default)]
    pub replay_suspect: Option<super::overload::ReplaySuspect>,
    /// The book of start situations (`--situations`), its lines kept here so that a resume
    /// plays the same ones; none: every game from the opening drive (and a series file
    /// from before books).
    #[serde(default)]
    pub situations: Option<super::book::Book>,
    /// The shard of the series this directory plays (`--shard K/N`); none: all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
    /// The Zebra version that set the series up (part of its identity); a series file
    /// without it: the version reading it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zebra: Option<String>,
}

/// The version of `series.json` this build writes: 2, where the files inside the series
/// directory are named relative to it. It also reads version 1, where every path is
/// absolute (see [`super::disk::load_series`]).
pub const SERIES_FILE_VERSION: u32 = 2;

impl SeriesConfig {
    /// Rewrites every path of a file the series writes (its PGN, events, logs and voided
    /// attempts): made relative to the series directory on saving, absolute on reading.
    /// The bots' programs and directories are the user's and stay as given.
    pub(crate) fn map_paths(&mut self, mut f: impl FnMut(&Path) -> PathBuf) {
        self.pgn = f(&self.pgn);
        if let Some(events) = &mut self.events {
            *events = f(events);
        }
        if let Some(logs) = &mut self.log_dir {
            *logs = f(logs);
        }
        if let Some(replay) = &mut self.replay_suspect {
            replay.voided_pgn = f(&replay.voided_pgn);
        }
    }

    /// The referee's settings every game of the series shares: its game, clock and
    /// wall-time cap.
    pub(crate) fn game_config(&self) -> GameConfig {
        let mut cfg = GameConfig {
            game: GameSetup {
                // Validated when the series was set up.
                max_game_time: self.max_game_time().unwrap_or_default(),
                ..GameSetup::of(self.rules)
            },
            ..GameConfig::default()
        };
        cfg.read_clock(&self.tc)
            .expect("validated when the series was set up");
        cfg
    }

    /// The wall-time cap of each game, as set (derived when not).
    pub fn max_game_time(&self) -> Result<MaxGameTime, MaxGameTimeError> {
        self.max_game_time
            .as_deref()
            .map_or(Ok(MaxGameTime::Derived), str::parse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("zebra-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn toml_and_json_name_the_same_bots() {
        let toml = write(
            "bots.toml",
            r#"
[[bot]]
name = "greedy"
command = "bin/greedy"
args = ["--name", "g"]
dir = "/tmp"
env = { RUST_LOG = "info" }
options = { depth = 2 }
time = "play=2s,reaction=500ms"

[[bot]]
name = "random"
command = "bin/random"
"#,
        );
        let json = write(
            "bots.json",
            r#"{"bot": [
                {"name": "greedy", "command": "bin/greedy", "args": ["--name", "g"],
                 "dir": "/tmp", "env": {"RUST_LOG": "info"}, "options": {"depth": 2},
                 "time": "play=2s,reaction=500ms"},
                {"name": "random", "command": "bin/random"}]}"#,
        );
        let a = read_config(&toml).unwrap();
        assert_eq!(a, read_config(&json).unwrap());
        validate_bots(&a).unwrap();
        let spec = a[0].spec();
        assert_eq!(spec.args, ["--name", "g"]);
        assert_eq!(spec.env, [("RUST_LOG".to_string(), "info".to_string())]);
        assert_eq!(spec.options["depth"], 2);
        let odds = a[0].odds().unwrap();
        assert_eq!(odds.reaction, Some(std::time::Duration::from_millis(500)));
        assert!(a[1].odds().unwrap().is_none());
    }

    #[test]
    fn bad_config_files_name_the_problem() {
        let unknown = write(
            "unknown.toml",
            "[[bot]]\nname = \"a\"\ncommand = \"x\"\ncolour = 1\n",
        );
        let err = read_config(&unknown).unwrap_err().to_string();
        assert!(
            err.contains("unknown.toml") && err.contains("colour"),
            "{err}"
        );
        let empty = write("empty.toml", "");
        assert!(read_config(&empty)
            .unwrap_err()
            .to_string()
            .contains("names no bots"));
        let missing = std::env::temp_dir().join("zebra-no-such-config.toml");
        assert!(read_config(&missing)
            .unwrap_err()
            .to_string()
            .contains("cannot read"));
    }

    #[test]
    fn bot_flags_and_validation() {
        let a = BotEntry::from_flag("greedy=bin/greedy --depth 3").unwrap();
        assert_eq!(
            (a.name.as_str(), a.command.as_str()),
            ("greedy", "bin/greedy")
        );
        assert_eq!(a.args, ["--depth", "3"]);
        // No NAME=: all command, named later (by its ready).
        let unnamed = BotEntry::from_flag("python3 'my bots/bot.py' --depth=3").unwrap();
        assert_eq!(unnamed.name, "");
        assert_eq!(unnamed.command, "python3");
        assert_eq!(unnamed.args, ["my bots/bot.py", "--depth=3"]);
        let path = BotEntry::from_flag("./bots/x=1").unwrap();
        assert_eq!(
            (path.name.as_str(), path.command.as_str()),
            ("", "./bots/x=1")
        );
        assert!(BotEntry::from_flag("name=").is_err());
        assert!(BotEntry::from_flag("  ").is_err());
        let b = BotEntry::from_flag("greedy=bin/other").unwrap();
        assert!(matches!(
            validate_bots(&[a.clone(), b]),
            Err(ConfigError::DuplicateName(_))
        ));
        assert!(matches!(
            validate_bots(std::slice::from_ref(&a)),
            Err(ConfigError::TooFewBots(1))
        ));
        let mut odd = BotEntry::from_flag("odd=bin/odd").unwrap();
        odd.time = Some("quarter=3s".to_string());
        let err = validate_bots(&[a, odd]).unwrap_err().to_string();
        assert!(
            err.contains("odd") && err.contains("play=DURATION"),
            "{err}"
        );
    }
}
