//! From `zebra match` flags to a validated series: the bots, the settings saved for
//! `--resume`, and the games already on disk. Every check happens here, once, before any
//! bot is started.

use std::path::{Path, PathBuf};

use crate::sandbox::LimitSettings;

use super::config::{read_config, validate_bots, BotEntry, ConfigError, SeriesConfig};
use super::disk::{self, DiskError, SeriesDir, VOIDED_FILE};
use super::overload::{ReplaySuspect, DEFAULT_MAX_ATTEMPTS};
use super::schedule::Schedule;
use super::shard::{identity, Shard};
use super::spec::SeriesSpec;
use super::standings::GameOutcome;

/// What `zebra match` asks for, as given (the command line's flags, unparsed): [`prepare`]
/// checks it. The command line builds it; nothing here knows how flags are parsed.
#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    /// Continue the series saved in this directory (every other field but `games` unused).
    pub resume: Option<PathBuf>,
    /// Bots as `NAME=COMMAND`.
    pub bots: Vec<String>,
    /// A TOML (or JSON) file naming bots.
    pub config: Option<PathBuf>,
    pub format: String,
    /// Games per encounter.
    pub games: Option<u32>,
    pub rules: String,
    pub tc: Option<String>,
    pub seed: u64,
    pub sprt: Option<String>,
    pub max_illegal: u32,
    pub max_game_time: Option<String>,
    /// The series' directory.
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    pub events: Option<PathBuf>,
    pub log_dir: Option<PathBuf>,
    pub log_failures: bool,
    /// The records' Event tag.
    pub event: String,
    pub replay_suspect: bool,
    /// Time odds as `NAME=ODDS`.
    pub odds: Vec<String>,
    pub situations: Option<String>,
    pub situation_order: String,
    /// The sandbox level: auto, strict or none.
    pub sandbox: String,
    /// on or off.
    pub freeze_idle: String,
    /// The limits for every bot, unparsed (checked with each bot's own).
    pub limits: LimitSettings,
    /// `--shard K/N`: play only shard K of N (into `out/shard-K-of-N`).
    pub shard: Option<String>,
    /// `--shards N`: the same, shard K from the batch system's index.
    pub shards: Option<u32>,
}

/// A series ready to run.
pub struct Prepared {
    pub config: SeriesConfig,
    /// The directory holding `series.json`.
    pub dir: PathBuf,
    /// Games already recorded (a resumed series).
    pub done: Vec<GameOutcome>,
    /// Attempts already voided by `--replay-suspect` (a resumed series), one per attempt.
    pub voided: Vec<GameOutcome>,
    pub resumed: bool,
    /// Held for the whole run: one run per series directory, and one series per PGN file,
    /// at a time (taken by [`Prepared::save`] for a new series).
    pub held: Option<SeriesDir>,
    /// Bots the user did not name (indices into `config.bots`): named for now by their
    /// command, then by the name they send in `ready` ([`Prepared::name_by_ready`]).
    pub unnamed: Vec<usize>,
}

impl Prepared {
    /// Names the bots the user did not name by what they sent in `ready` (`ready[i]` for
    /// `config.bots[i]`), made fit for records and unique (`name`, `name-2`); a bot whose
    /// `ready` name leaves nothing keeps its command's name. Before [`Prepared::save`].
    pub fn name_by_ready(&mut self, ready: &[String]) {
        let bots = &mut self.config.bots;
        let mut taken: Vec<String> = (0..bots.len())
            .filter(|i| !self.unnamed.contains(i))
            .map(|i| bots[i].name.clone())
            .collect();
        for &i in &self.unnamed {
            let base = ready
                .get(i)
                .and_then(|r| crate::bot::name::sanitize(r))
                .unwrap_or_else(|| crate::bot::name::from_command(&bots[i].command, &bots[i].args));
            let name = crate::bot::name::unique(&base, &taken);
            taken.push(name.clone());
            bots[i].name = name;
        }
    }

    /// Creates a new series' directory, locks it and its PGN file, and writes its settings
    /// ([`SeriesDir::create`]); a resumed series is already on disk and held. A shard whose
    /// directory holds the same shard of the same series (run again: a job requeued, a pod
    /// restarted) is resumed, so its games are played once; another series' is refused.
    pub fn save(&mut self) -> Result<(), SetupError> {
        if self.held.is_some() {
            return Ok(());
        }
        if let Some(shard) = self.config.shard {
            if self.dir.join(disk::SERIES_FILE).exists() {
                let saved = SeriesDir::read(&self.dir)?;
                let (mine, theirs) = (identity(&self.config), identity(&saved));
                if saved.shard != Some(shard) || mine != theirs {
                    return Err(SetupError::Usage(format!(
                        "{} holds {} of series {theirs}; these flags make shard {shard} of series {mine}: give another --out, or the flags that series was started with",
                        self.dir.display(),
                        saved.shard.map_or("a whole series".to_string(), |s| format!("shard {s}")),
                    )));
                }
                *self = resume(&self.dir, None)?;
                return Ok(());
            }
        }
        self.held = Some(SeriesDir::create(&self.dir, &mut self.config)?);
        Ok(())
    }
}

/// Why a series cannot start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// Bad flags or config: the user's to fix (exit code 2).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Files that cannot be read or written (exit code 1).
    #[error(transparent)]
    Disk(#[from] DiskError),
    /// A bot's program (or its working directory) is not there (exit code 1).
    #[error("{message}")]
    MissingProgram { message: String },
}

/// Validates the flags into a series (nothing is written until [`Prepared::save`]), or reads
/// a saved one back with `--resume`.
/// `bundled` is the directory of Zebra's own bots (next to the executable): a bot command
/// that names one of them (`zebra-greedy-bot`) runs it from there.
pub fn prepare(args: &MatchRequest, bundled: &Path, stamp: &str) -> Result<Prepared, SetupError> {
    match &args.resume {
        Some(dir) => resume(dir, args.games),
        None => plan(args, bundled, stamp),
    }
}

/// The series saved in `dir`, checked as a new one is, extended to `games` per encounter if
/// that is more than it plans, and held for this run with the games it has played.
fn resume(dir: &Path, games: Option<u32>) -> Result<Prepared, SetupError> {
    let mut config = SeriesDir::read(dir)?;
    let extend = check_saved(&config, dir, games)?;
    if let Some(rounds) = extend {
        config.rounds = rounds;
    }
    let schedule = Schedule::of(&config).map_err(|e| SetupError::Usage(format!("--games: {e}")))?;
    let resumed = SeriesDir::resume(dir, &config, &schedule, extend.is_some())?;
    Ok(Prepared {
        config,
        dir: dir.to_path_buf(),
        done: resumed.done,
        voided: resumed.voided,
        resumed: true,
        held: Some(resumed.dir),
        unnamed: Vec::new(),
    })
}

/// A saved series (a file perhaps edited by hand) gets the checks a new series gets; the
/// rounds it grows to with `--games`, if that is more than it plans (a series grows, it
/// never shrinks).
fn check_saved(
    config: &SeriesConfig,
    dir: &Path,
    games: Option<u32>,
) -> Result<Option<u32>, SetupError> {
    let bad = |what: String| {
        SetupError::Usage(format!("{}: {what}", dir.join(disk::SERIES_FILE).display()))
    };
    validate_bots(&config.bots)?;
    check_limits(config).map_err(SetupError::Usage)?;
    // Pairs, counted as games by the spec.
    if config.rounds == 0 || config.rounds > u32::MAX / 2 {
        return Err(bad(format!(
            "rounds must be from 1 to {} (pairs per encounter)",
            u32::MAX / 2
        )));
    }
    spec_of(config).validate().map_err(|e| bad(e.as_key()))?;
    check_odds(config).map_err(bad)?;
    if config
        .replay_suspect
        .as_ref()
        .is_some_and(|r| r.max_attempts == 0)
    {
        return Err(bad(
            "replay_suspect.max_attempts must be at least 1".to_string()
        ));
    }
    let planned = config.rounds * 2;
    match games {
        None => Ok(None),
        Some(_) if config.shard.is_some() => Err(SetupError::Usage(format!(
            "--games: shard {} plays a block of a series whose size its other shards share; a shard cannot grow",
            config.shard.expect("a shard")
        ))),
        Some(n) if n < planned || n % 2 == 1 => Err(SetupError::Usage(format!(
            "--games {n}: this series plans {planned} games per encounter; give an even number of at least {planned} to extend it (a series grows, it does not shrink)"
        ))),
        Some(n) => Ok(Some(n / 2).filter(|&rounds| rounds > config.rounds)),
    }
}

/// The shard `--shard K/N` or `--shards N` names, if any, with what a shard needs: one
/// directory every shard shares (`--out`), its records and events inside its own.
fn shard_of(args: &MatchRequest) -> Result<Option<Shard>, SetupError> {
    let usage = |m: String| SetupError::Usage(m);
    let (flag, shard) = match (&args.shard, args.shards) {
        (None, None) => return Ok(None),
        (Some(text), _) => (
            "--shard",
            text.parse().map_err(|e| usage(format!("--shard: {e}")))?,
        ),
        (None, Some(n)) => (
            "--shards",
            Shard::from_env(n, |name| std::env::var(name).ok())
                .map_err(|e| usage(format!("--shards: {e}")))?,
        ),
    };
    if args.out.is_none() {
        return Err(usage(format!(
            "{flag}: give --out DIR, the series' directory every shard shares (shard K writes DIR/shard-K-of-N)"
        )));
    }
    for (given, name) in [
        (args.pgn.is_some(), "--pgn"),
        (args.events.is_some(), "--events"),
    ] {
        if given {
            return Err(usage(format!(
                "{flag}: a shard keeps its records and events in its own directory; leave {name} out (zebra merge writes the series' files)"
            )));
        }
    }
    Ok(Some(shard))
}

/// A new series from the flags: bots, spec, files; checked, nothing written.
fn plan(args: &MatchRequest, bundled: &Path, stamp: &str) -> Result<Prepared, SetupError> {
    let usage = |m: String| SetupError::Usage(m);
    let mut bots = Vec::new();
    if let Some(path) = &args.config {
        bots.extend(read_config(path)?);
    }
    for flag in &args.bots {
        bots.push(BotEntry::from_flag(flag)?);
    }
    if bots.is_empty() {
        for name in ["greedy", "random"] {
            bots.push(BotEntry::from_flag(&format!("{name}=zebra-{name}-bot"))?);
        }
    }
    let unnamed = name_by_command(&mut bots);
    for flag in &args.odds {
        let (name, odds) = flag.split_once('=').ok_or_else(|| {
            usage(format!(
                "--odds '{flag}': write NAME=ODDS, e.g. --odds greedy=play=2s,reaction=500ms"
            ))
        })?;
        let bot = bots.iter_mut().find(|b| b.name == name).ok_or_else(|| {
            usage(format!(
                "--odds '{flag}': there is no bot named '{name}' in this series"
            ))
        })?;
        bot.time = Some(odds.to_string());
    }
    validate_bots(&bots)?;
    let spec = SeriesSpec {
        game: Some(args.rules.clone()),
        format: args.format.clone(),
        bots: bots.len(),
        games: args.games.unwrap_or(20),
        tc: args.tc.clone(),
        max_game_time: args.max_game_time.clone(),
        seed: args.seed,
        sprt: args.sprt.clone(),
        max_illegal: args.max_illegal,
        situations: args.situations.clone(),
        situation_order: Some(args.situation_order.clone()),
    }
    .validate()
    .map_err(|e| usage(e.as_flag()))?;
    // A book file is read here, where files are: the spec only names it.
    let situations = super::book::Book::load(spec.rules, &spec.situations, spec.situation_order)
        .map_err(usage)?;
    for bot in &mut bots {
        resolve_command(bot, bundled);
        check_program(bot)?;
    }
    let shard = shard_of(args)?;
    let dir = absolute(
        &args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("zebra-series-{stamp}"))),
    );
    // Every shard shares the series' directory and keeps its games in its own below it.
    let dir = match shard {
        Some(shard) => dir.join(shard.dir_name()),
        None => dir,
    };
    let log_dir = match (&args.log_dir, args.log_failures) {
        (Some(d), _) => Some(absolute(d)),
        (None, true) => Some(dir.join("logs")),
        (None, false) => None,
    };
    let config = SeriesConfig {
        version: super::config::SERIES_FILE_VERSION,
        format: spec.format,
        bots,
        rules: spec.rules,
        rounds: spec.games / 2,
        seed: spec.seed,
        tc: spec.tc.clone(),
        // Saved only when set: a series file without it derives the cap from the clock.
        max_game_time: spec.max_game_time_text(),
        max_illegal: spec.max_illegal,
        sprt: spec.sprt,
        pgn: absolute(&args.pgn.clone().unwrap_or_else(|| dir.join("games.pgn"))),
        pgn_start: 0,
        events: Some(absolute(
            &args
                .events
                .clone()
                .unwrap_or_else(|| dir.join("events.jsonl")),
        )),
        log_dir,
        log_failures: args.log_failures,
        event: args.event.clone(),
        sandbox: crate::sandbox::Settings::from_flags(
            &args.sandbox,
            &args.freeze_idle,
            args.limits.clone(),
        )
        .map_err(usage)?,
        replay_suspect: args.replay_suspect.then(|| ReplaySuspect {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            voided_pgn: dir.join(VOIDED_FILE),
        }),
        situations,
        shard,
        zebra: Some(env!("CARGO_PKG_VERSION").to_string()),
    };
    let mut config = config;
    check_limits(&config).map_err(SetupError::Usage)?;
    check_odds(&config).map_err(SetupError::Usage)?;
    config.pgn_start = std::fs::metadata(&config.pgn).map_or(0, |m| m.len());
    // A shard run again (a job requeued, a pod restarted) continues its own games: see
    // `Prepared::save`.
    if shard.is_none() && dir.join(disk::SERIES_FILE).exists() {
        return Err(DiskError::Exists { dir }.into());
    }
    Ok(Prepared {
        config,
        dir,
        done: Vec::new(),
        voided: Vec::new(),
        resumed: false,
        held: None,
        unnamed,
    })
}

/// The options of a saved series, as a new one gives them (a file edited by hand is
/// checked as the flags were).
fn spec_of(config: &SeriesConfig) -> SeriesSpec {
    SeriesSpec {
        game: Some(config.rules.name().to_string()),
        format: config.format.to_string(),
        bots: config.bots.len(),
        // Checked to fit by `prepare`.
        games: config.rounds * 2,
        tc: Some(config.tc.clone()),
        max_game_time: config.max_game_time.clone(),
        seed: config.seed,
        sprt: config.sprt.map(|s| s.to_string()),
        max_illegal: config.max_illegal,
        situations: Some(
            config
                .situations
                .as_ref()
                .map_or("none", |b| b.source.as_str())
                .to_string(),
        ),
        situation_order: config.situations.as_ref().map(|b| b.order.to_string()),
    }
}

/// Names every bot the user did not name after its command (made unique among all the
/// names); the indices of those bots.
fn name_by_command(bots: &mut [BotEntry]) -> Vec<usize> {
    let unnamed: Vec<usize> = (0..bots.len())
        .filter(|&i| bots[i].name.trim().is_empty())
        .collect();
    let mut taken: Vec<String> = bots
        .iter()
        .filter(|b| !b.name.trim().is_empty())
        .map(|b| b.name.clone())
        .collect();
    for &i in &unnamed {
        let base = crate::bot::name::from_command(&bots[i].command, &bots[i].args);
        let name = crate::bot::name::unique(&base, &taken);
        taken.push(name.clone());
        bots[i].name = name;
    }
    unnamed
}

/// Every bot's limits parse, and `--sandbox strict` can hold them on this machine.
fn check_limits(config: &SeriesConfig) -> Result<(), String> {
    for bot in &config.bots {
        config
            .sandbox
            .limits_for(&bot.limits)
            .map_err(|e| format!("bot '{}': {e}", bot.name))?;
    }
    Ok(())
}

/// Time odds set Football Chess's play and reaction clocks: a series of another game has
/// none (its start situations, the other thing only Football Chess has, are the spec's).
fn check_odds(config: &SeriesConfig) -> Result<(), String> {
    if crate::with_rules!(config.rules, G => <G as crate::referee::Refereed>::TIME_ODDS) {
        return Ok(());
    }
    if let Some(bot) = config.bots.iter().find(|b| b.time.is_some()) {
        return Err(format!(
            "bot '{}': time odds set Football Chess's play and reaction clocks; in a {} series both sides have the same clock (leave out --odds and time)",
            bot.name, config.rules
        ));
    }
    Ok(())
}

/// A bot whose program cannot be found or run would forfeit every game: say so before the
/// series starts.
fn check_program(bot: &BotEntry) -> Result<(), SetupError> {
    // One check for `zebra play` and `zebra match` (a missing `dir` is named as such).
    bot.spec()
        .check_program()
        .map_err(|message| SetupError::MissingProgram { message })
}

/// Paths are absolute in memory, so that a resume from another working directory finds the
/// same files and programs (`series.json` names the series' own files relative to it).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A command with a directory part becomes absolute; a bare name that is one of the
/// bundled bots runs the bundled binary; any other bare name is left to `PATH`.
pub fn resolve_command(bot: &mut BotEntry, bundled: &Path) {
    let command = Path::new(&bot.command);
    if command.components().count() > 1 {
        // Relative to the bot's working directory if it has one, as the OS would do.
        if command.is_relative() && bot.dir.is_none() {
            bot.command = absolute(command).display().to_string();
        }
    } else {
        let candidate = bundled.join(command);
        if candidate.is_file() {
            bot.command = candidate.display().to_string();
        }
    }
    if let Some(dir) = &bot.dir {
        bot.dir = Some(absolute(dir));
    }
}
