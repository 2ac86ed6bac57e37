//! `zebra merge`: the shards of one series (`zebra match --shard K/N`, on any machines) put
//! back together into the series one machine would have played.
//!
//! Every shard must be of the same series (the same [`identity`]) and the same count N,
//! each present once, each finished, every game of the schedule recorded exactly once. The
//! merged directory is then an ordinary series directory: `series.json` (the series as a
//! whole), `games.pgn` in game order (with deterministic bots in play-count mode the very
//! bytes of a one-machine run), `events.jsonl`, and the statistics recomputed from the
//! merged games. Each shard's own figures are reported, and a shard whose score stands out
//! from the others' beyond chance is flagged, as fishtest flags a bad worker.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::record::{write_game, GameRecord};

use super::config::SeriesConfig;
use super::disk::{self, DiskError, SERIES_FILE};
use super::events::{EventLog, GameRef, SeriesEvent};
use super::schedule::Schedule;
use super::shard::{identity, Shard};
use super::standings::{GameOutcome, SprtGates, Standings};
use super::stats::SprtDecision;
use super::{SeriesEnd, SeriesOutcome, Summary};

/// How far from the other shards a shard's score may stand, in standard errors, before it
/// is flagged.
pub const OUTLIER_Z: f64 = 3.0;

/// One shard found on disk.
#[derive(Clone, Debug)]
pub struct ShardDir {
    pub dir: PathBuf,
    pub config: SeriesConfig,
    pub shard: Shard,
    pub identity: String,
}

/// What one shard brought, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct ShardFigures {
    pub shard: String,
    pub dir: PathBuf,
    pub host: Option<String>,
    pub games: u32,
    pub timeouts: u32,
    pub forfeits: u32,
    /// The `Sandbox` tags of its records (one, unless its hosts differed).
    pub sandbox: Vec<String>,
    /// How far its score stands from the rest, in standard errors (`None`: too few games).
    pub z: Option<f64>,
    pub outlier: bool,
}

/// The merged series.
pub struct Merged {
    pub config: SeriesConfig,
    pub identity: String,
    pub outcome: SeriesOutcome,
    pub shards: Vec<ShardFigures>,
}

/// Why shards do not merge.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Disk(#[from] DiskError),
}

fn refused(message: String) -> MergeError {
    MergeError::Refused(message)
}

/// The shard directories `paths` name: each path is a shard's directory (it holds
/// `series.json`), or a directory whose subdirectories are (the series' directory every
/// shard shared; a whole series among them, such as a merge kept there, is passed over).
pub fn find_shards(paths: &[PathBuf]) -> Result<Vec<ShardDir>, MergeError> {
    let mut dirs = Vec::new();
    for path in paths {
        if path.join(SERIES_FILE).exists() {
            dirs.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path).map_err(|e| {
            refused(format!(
                "{}: cannot read it ({e}): name a shard's directory or the one holding them",
                path.display()
            ))
        })?;
        // Only shards: a merged series kept beside them (`--out DIR/merged`) is not one.
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join(SERIES_FILE).exists())
            .filter(|p| disk::load_series(p).map_or(true, |c| c.shard.is_some()))
            .collect();
        if found.is_empty() {
            return Err(refused(format!(
                "{} holds no series (no {SERIES_FILE} in it or its subdirectories)",
                path.display()
            )));
        }
        found.sort();
        dirs.extend(found);
    }
    dirs.into_iter()
        .map(|dir| {
            let config = disk::load_series(&dir)?;
            let shard = config.shard.unwrap_or(Shard { index: 1, count: 1 });
            Ok(ShardDir {
                identity: identity(&config),
                dir,
                config,
                shard,
            })
        })
        .collect()
}

/// Checks that `shards` are all of one series, each once, and reads every game from them:
/// the series as a whole, and its games in game order (each record with its outcome and
/// the index of the shard it came from).
#[allow(clippy::type_complexity)]
pub fn gather(
    shards: &[ShardDir],
) -> Result<(SeriesConfig, Vec<(GameRecord, GameOutcome, usize)>), MergeError> {
    let Some(first) = shards.first() else {
        return Err(refused("no shard to merge".to_string()));
    };
    for s in shards {
        if s.identity != first.identity {
            return Err(refused(format!(
                "{} is series {}, {} is series {}: shards of different series do not merge",
                s.dir.display(),
                s.identity,
                first.dir.display(),
                first.identity
            )));
        }
        if s.shard.count != first.shard.count {
            return Err(refused(format!(
                "{} is shard {} and {} is shard {}: every shard of a merge splits the series the same way",
                s.dir.display(),
                s.shard,
                first.dir.display(),
                first.shard
            )));
        }
    }
    let mut by_index: BTreeMap<u32, &ShardDir> = BTreeMap::new();
    for s in shards {
        if let Some(other) = by_index.insert(s.shard.index, s) {
            return Err(refused(format!(
                "shard {} is given twice ({} and {}): give each shard once",
                s.shard,
                other.dir.display(),
                s.dir.display()
            )));
        }
    }
    let mut whole = first.config.clone();
    whole.shard = None;
    let schedule = Schedule::of(&whole).map_err(|e| refused(e.to_string()))?;
    let total = schedule.total();
    let count = first.shard.count;
    for index in 1..=count {
        if !by_index.contains_key(&index) {
            let shard = Shard { index, count };
            let (a, b) = shard.games(total);
            return Err(refused(format!(
                "shard {shard} is missing (games {a} to {b}): run it, then merge again"
            )));
        }
    }
    let names: Vec<String> = whole.bots.iter().map(|b| b.name.clone()).collect();
    let mut games: Vec<Option<(GameRecord, GameOutcome, usize)>> = vec![None; total as usize];
    for (k, s) in shards.iter().enumerate() {
        let block = Schedule::of(&s.config).map_err(|e| refused(e.to_string()))?;
        let records = disk::recorded_games(&s.config.pgn, s.config.pgn_start, &block, &names)
            .map_err(|e| refused(format!("shard {} in {}: {e}", s.shard, s.dir.display())))?;
        for (record, outcome) in records {
            let slot = &mut games[(outcome.game - 1) as usize];
            if slot.is_some() {
                return Err(refused(format!(
                    "game {} is recorded twice in shard {} ({}): a series counts each game once",
                    outcome.game,
                    s.shard,
                    s.config.pgn.display()
                )));
            }
            *slot = Some((record, outcome, k));
        }
    }
    for (i, pair) in games.chunks(2).enumerate() {
        if pair.iter().all(Option::is_some) {
            continue;
        }
        let (a, b) = (2 * i as u32 + 1, 2 * i as u32 + 2);
        let missing: Vec<u32> = [a, b]
            .into_iter()
            .zip(pair)
            .filter(|(_, g)| g.is_none())
            .map(|(n, _)| n)
            .collect();
        let shard = shards
            .iter()
            .find(|s| {
                let (first, last) = s.shard.games(total);
                (first..=last).contains(&a)
            })
            .expect("every game is in a shard");
        let what = if missing.len() == 1 {
            format!("pair {} is split: game {} is missing", i + 1, missing[0])
        } else {
            format!("games {a} and {b} are missing")
        };
        return Err(refused(format!(
            "shard {} in {} is not finished ({what}): zebra match --resume {} plays what it lacks",
            shard.shard,
            shard.dir.display(),
            shard.dir.display()
        )));
    }
    Ok((whole, games.into_iter().flatten().collect()))
}

/// Merges `shards` into `out` (a new directory): checks them ([`gather`]), writes the
/// series' files, and returns the merged books and each shard's figures.
pub fn merge(shards: &[ShardDir], out: &Path) -> Result<Merged, MergeError> {
    let (mut config, games) = gather(shards)?;
    // A new or empty directory: never an input's, never a half-written earlier merge's.
    if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(refused(format!(
            "--out {} is not empty: give a new directory for the merged series",
            out.display()
        )));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| refused(format!("--out {}: cannot create it: {e}", out.display())))?;
    let out = std::fs::canonicalize(out).unwrap_or_else(|_| out.to_path_buf());
    config.pgn = out.join("games.pgn");
    config.pgn_start = 0;
    config.events = Some(out.join("events.jsonl"));
    config.log_dir = None;
    if let Some(replay) = &mut config.replay_suspect {
        replay.voided_pgn = out.join(disk::VOIDED_FILE);
    }
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let schedule = Schedule::of(&config).map_err(|e| refused(e.to_string()))?;

    // The records, in game order, in one file written whole and synced.
    let mut text = String::new();
    for (record, _, _) in &games {
        text.push_str(&write_game(record).map_err(|e| refused(e.to_string()))?);
    }
    write_synced(&config.pgn, text.as_bytes())?;

    // The books, recomputed from the merged games in game order.
    let mut standings = Standings::new(config.format, &names);
    let encounters: Vec<(usize, usize)> = standings.encounters.iter().map(|e| (e.a, e.b)).collect();
    let mut gates = config
        .sprt
        .map(|params| SprtGates::new(params, &encounters));
    let mut events = EventLog::open(config.events.as_ref().expect("set above"))
        .map_err(|e| refused(format!("{}: {e}", out.display())))?;
    events.emit(&SeriesEvent::SeriesStarted {
        bots: names.clone(),
        format: config.format.to_string(),
        rules: config.rules,
        games_planned: schedule.len(),
        games_done: schedule.len(),
        seed: config.seed,
        time_control: config.tc.clone(),
        sprt: config.sprt.map(|s| s.to_string()),
        concurrency: 1,
        cpus: None,
        replay_suspect: config.replay_suspect.as_ref().map(|r| r.max_attempts),
        warnings: Vec::new(),
        identity: identity(&config),
        shard: None,
        host: None,
    });
    for (record, outcome, _) in &games {
        let fixture = schedule.get(outcome.game).expect("a game of the schedule");
        if let Ok(line) = SeriesEvent::restored(GameRef::of(&fixture, &names), record) {
            events.emit(&line);
        }
        standings.add(outcome);
        if let Some(gates) = gates.as_mut() {
            gates.add(outcome);
        }
    }
    events.emit(&SeriesEvent::StatsUpdated {
        games_finished: standings.finished,
        standings: standings.bots.clone(),
        head_to_head: super::runner::head_to_head(&standings, gates.as_ref()),
    });
    for line in super::runner::decisions_taken(gates.as_ref(), &names) {
        events.emit(&line);
    }
    // Every game of the shards is in: the verdict is the gates' as they stand.
    let end = match gates.as_ref().map(SprtGates::verdict) {
        Some(SprtDecision::AcceptH1) => SeriesEnd::H1Accepted,
        Some(SprtDecision::AcceptH0) => SeriesEnd::H0Accepted,
        Some(SprtDecision::Continue) => SeriesEnd::Inconclusive,
        None => SeriesEnd::Completed,
    };
    events.emit(&SeriesEvent::SeriesFinished {
        outcome: end.code().to_string(),
        games_finished: standings.finished,
        conduct: standings.conduct.clone(),
        replays: standings.replays.clone(),
    });
    disk::save_series(&out, &config)?;

    let figures = shard_figures(shards, &games);
    Ok(Merged {
        identity: identity(&config),
        outcome: SeriesOutcome {
            end,
            standings,
            planned: schedule.len(),
            played_now: 0,
            sprt: gates
                .iter()
                .flat_map(SprtGates::iter)
                .map(|(_, g)| g.report())
                .collect(),
        },
        config,
        shards: figures,
    })
}

/// Each shard's games, timeouts, forfeits, sandbox and host, and how far its score stands
/// from the others'.
fn shard_figures(
    shards: &[ShardDir],
    games: &[(GameRecord, GameOutcome, usize)],
) -> Vec<ShardFigures> {
    let residuals = score_residuals(games);
    let zs = outlier_z(shards.len(), &residuals);
    shards
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let mine = games.iter().filter(|(_, _, from)| *from == k);
            let mut figures = ShardFigures {
                shard: s.shard.to_string(),
                dir: s.dir.clone(),
                host: host_of(s),
                games: 0,
                timeouts: 0,
                forfeits: 0,
                sandbox: Vec::new(),
                z: zs[k],
                outlier: zs[k].is_some_and(|z| z.abs() > OUTLIER_Z),
            };
            for (record, outcome, _) in mine {
                figures.games += 1;
                figures.timeouts += outcome.conduct.iter().map(|c| c.timeouts).sum::<u32>();
                figures.forfeits += u32::from(outcome.conduct.iter().any(|c| c.verdict.is_some()));
                if let Some(tag) = record.tags.get("Sandbox") {
                    if !figures.sandbox.iter().any(|t| t == tag) {
                        figures.sandbox.push(tag.to_string());
                    }
                }
            }
            figures
        })
        .collect()
}

/// Per game, the shard it came from and its residual: the score of its encounter's first
/// bot (1, ½ or 0) less that bot's mean score over the encounter's games, so encounters of
/// different strengths compare. Games without a result are left out.
fn score_residuals(games: &[(GameRecord, GameOutcome, usize)]) -> Vec<(usize, f64)> {
    let score = |o: &GameOutcome| -> Option<f64> {
        let result = o.result?;
        let (a, _) = (o.white.min(o.black), o.white.max(o.black));
        let white = match result {
            crate::rules::GameResult::Win(crate::rules::Side::White) => 1.0,
            crate::rules::GameResult::Win(crate::rules::Side::Black) => 0.0,
            crate::rules::GameResult::Draw => 0.5,
        };
        Some(if o.white == a { white } else { 1.0 - white })
    };
    let mut sums: BTreeMap<(usize, usize), (f64, f64)> = BTreeMap::new();
    for (_, o, _) in games {
        if let Some(s) = score(o) {
            let e = sums
                .entry((o.white.min(o.black), o.white.max(o.black)))
                .or_default();
            e.0 += s;
            e.1 += 1.0;
        }
    }
    games
        .iter()
        .filter_map(|(_, o, from)| {
            let s = score(o)?;
            let (sum, n) = sums[&(o.white.min(o.black), o.white.max(o.black))];
            Some((*from, s - sum / n))
        })
        .collect()
}

/// Each of `shards` shards' z-score: the mean of its games' residuals over its standard
/// error, with the per-game variance pooled over every game. `None` for a shard with fewer
/// than 10 scored games, or when no game varies.
pub fn outlier_z(shards: usize, residuals: &[(usize, f64)]) -> Vec<Option<f64>> {
    let n = residuals.len() as f64;
    let variance = residuals.iter().map(|(_, r)| r * r).sum::<f64>() / n.max(1.0);
    (0..shards)
        .map(|k| {
            let mine: Vec<f64> = residuals
                .iter()
                .filter(|(from, _)| *from == k)
                .map(|(_, r)| *r)
                .collect();
            if mine.len() < 10 || variance <= 0.0 {
                return None;
            }
            let m = mine.len() as f64;
            let mean = mine.iter().sum::<f64>() / m;
            Some(mean / (variance / m).sqrt())
        })
        .collect()
}

/// The host a shard last ran on, from its event stream's last `series_started`.
fn host_of(shard: &ShardDir) -> Option<String> {
    let text = std::fs::read_to_string(shard.config.events.as_ref()?).ok()?;
    text.lines().rev().find_map(|line| {
        let v: serde_json::Value = serde_json::from_str(line).ok()?;
        (v["type"] == "series_started")
            .then(|| v["host"].as_str().map(str::to_string))
            .flatten()
    })
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), MergeError> {
    use std::io::Write;
    let mut file = std::fs::File::create(path)
        .map_err(|e| refused(format!("{}: cannot write it: {e}", path.display())))?;
    file.write_all(bytes)
        .and_then(|_| file.sync_all())
        .map_err(|e| refused(format!("{}: cannot write it: {e}", path.display())))
}

/// Where one shard of a sharded series stands (`zebra merge --status`).
#[derive(Clone, Debug, Serialize)]
pub struct ShardStatus {
    pub shard: String,
    pub dir: PathBuf,
    pub host: Option<String>,
    /// Games of its block recorded so far.
    pub done: u32,
    /// Games of its block.
    pub planned: u32,
}

/// Where a sharded series stands, from its shard directories: read only.
#[derive(Clone, Debug, Serialize)]
pub struct SeriesStatus {
    pub identity: String,
    /// N, the shards the series is split into.
    pub shards: u32,
    pub games_done: u32,
    pub games_planned: u32,
    pub found: Vec<ShardStatus>,
    /// The shards with no directory yet (K of K/N).
    pub missing: Vec<u32>,
}

/// How far the sharded series of `shards` (all of one series and one N, each once: refused
/// otherwise) has come: every shard's games recorded against its block, and the shards not
/// started. Reads only; a shard still running is read as far as it has written.
pub fn status(shards: &[ShardDir]) -> Result<SeriesStatus, MergeError> {
    let Some(first) = shards.first() else {
        return Err(refused("no shard found".to_string()));
    };
    let mut seen = std::collections::BTreeSet::new();
    for s in shards {
        if s.identity != first.identity || s.shard.count != first.shard.count {
            return Err(refused(format!(
                "{} is shard {} of series {}, {} shard {} of series {}: give the shards of one series",
                s.dir.display(),
                s.shard,
                s.identity,
                first.dir.display(),
                first.shard,
                first.identity
            )));
        }
        if !seen.insert(s.shard.index) {
            return Err(refused(format!("shard {} is given twice", s.shard)));
        }
    }
    let names: Vec<String> = first.config.bots.iter().map(|b| b.name.clone()).collect();
    let mut found = Vec::new();
    for s in shards {
        let block = Schedule::of(&s.config).map_err(|e| refused(e.to_string()))?;
        let done: std::collections::BTreeSet<u32> =
            disk::recorded_games(&s.config.pgn, s.config.pgn_start, &block, &names)
                .map_err(|e| refused(format!("shard {} in {}: {e}", s.shard, s.dir.display())))?
                .into_iter()
                .map(|(_, g)| g.game)
                .collect();
        found.push(ShardStatus {
            shard: s.shard.to_string(),
            dir: s.dir.clone(),
            host: host_of(s),
            done: done.len() as u32,
            planned: block.len(),
        });
    }
    let mut whole = first.config.clone();
    whole.shard = None;
    let total = Schedule::of(&whole)
        .map_err(|e| refused(e.to_string()))?
        .total();
    Ok(SeriesStatus {
        identity: first.identity.clone(),
        shards: first.shard.count,
        games_done: found.iter().map(|s| s.done).sum(),
        games_planned: total,
        missing: (1..=first.shard.count)
            .filter(|k| !seen.contains(k))
            .collect(),
        found,
    })
}

impl SeriesStatus {
    /// For people: the series' line, then a line per shard, found or missing.
    pub fn text(&self) -> String {
        let finished = self.found.iter().filter(|s| s.done >= s.planned).count();
        let mut out = format!(
            "series {}: {} of {} games ({:.0}%); {} of {} shards finished, {} not started\n",
            self.identity,
            self.games_done,
            self.games_planned,
            100.0 * f64::from(self.games_done) / f64::from(self.games_planned.max(1)),
            finished,
            self.shards,
            self.missing.len()
        );
        for s in &self.found {
            out.push_str(&format!(
                "shard {}: {} of {} games{}, host {}, {}\n",
                s.shard,
                s.done,
                s.planned,
                if s.done >= s.planned {
                    " (finished)"
                } else {
                    ""
                },
                s.host.as_deref().unwrap_or("unknown"),
                s.dir.display()
            ));
        }
        for k in &self.missing {
            out.push_str(&format!("shard {k}/{}: not started\n", self.shards));
        }
        out
    }
}

/// The summary of a merge for people: the series' own, then a line per shard.
pub fn text(merged: &Merged) -> String {
    let summary = Summary::of(&merged.config, &merged.outcome);
    let mut out = format!(
        "series {} merged from {} shard(s)\n",
        merged.identity,
        merged.shards.len()
    );
    out.push_str(&summary.text(&merged.outcome.standings));
    for s in &merged.shards {
        out.push_str(&format!(
            "shard {}: {} games, {} timeouts, {} forfeits, host {}, sandbox {}{}\n",
            s.shard,
            s.games,
            s.timeouts,
            s.forfeits,
            s.host.as_deref().unwrap_or("unknown"),
            s.sandbox.join(" | "),
            match (s.z, s.outlier) {
                (Some(z), true) => format!(
                    "  OUTLIER: its score stands {z:+.1} standard errors from the rest; check that host, then replay the shard"
                ),
                _ => String::new(),
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_that_scores_far_from_the_rest_is_flagged_and_ordinary_ones_are_not() {
        // Three shards of 40 games: two near a 50% score, one winning every game.
        let mut residuals = Vec::new();
        for k in 0..2 {
            for g in 0..40 {
                residuals.push((k, if g % 2 == 0 { 0.3 } else { -0.3 }));
            }
        }
        for _ in 0..40 {
            residuals.push((2, 0.5));
        }
        let z = outlier_z(3, &residuals);
        assert!(
            z[0].unwrap().abs() < 1.0 && z[1].unwrap().abs() < 1.0,
            "{z:?}"
        );
        assert!(z[2].unwrap() > OUTLIER_Z, "{z:?}");
        // Too few games: no judgement.
        assert_eq!(outlier_z(1, &[(0, 0.5); 9]), vec![None]);
    }
}
