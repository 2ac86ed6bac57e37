//! One series over many machines: shards, and the identity that ties them together.
//!
//! `zebra match --shard K/N` plays shard K of N: a contiguous block of whole pairs of the
//! schedule. A game's number, seed, sides and start situation come from the whole schedule,
//! never from the shard, so a game is the same game whatever N is, and any partition of the
//! pairs merges back into the one-machine series (`zebra merge`). A batch system hands each
//! process its index and nothing else (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, a
//! Slurm array's `SLURM_ARRAY_TASK_ID`): `--shards N` takes the index from there, never N.
//!
//! A shard's directory keeps its settings like any series, and its [`identity`]: a hash of
//! everything that decides the series' games, so that a merge can tell the shards of one
//! series from those of another, and a shard run again (a pod restarted, a job requeued)
//! continues its own games instead of adding to them.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use super::config::SeriesConfig;

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// The most shards of one series.
pub const MAX_SHARDS: u32 = 100_000;

impl Shard {
    /// Shard `index` (from 1) of `count`, if that is one.
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "the shard count must be from 1 to {MAX_SHARDS}, not {count}"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "shard {index} of {count}: K runs from 1 to {count}"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard a batch system's index names, with `count` shards: a Kubernetes Indexed
    /// Job's `JOB_COMPLETION_INDEX` (from 0), or a Slurm array's `SLURM_ARRAY_TASK_ID`
    /// counted from the array's first (`SLURM_ARRAY_TASK_MIN`), so `--array=0-7` and
    /// `--array=1-8` name the same shards. `env` reads a variable.
    pub fn from_env(count: u32, env: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let number = |name: &str| -> Result<Option<u32>, String> {
            env(name)
                .map(|v| {
                    v.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("{name}={v:?} is not a shard index"))
                })
                .transpose()
        };
        let offset = if let Some(k) = number("JOB_COMPLETION_INDEX")? {
            k
        } else if let Some(k) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            k.checked_sub(min).ok_or_else(|| {
                format!("SLURM_ARRAY_TASK_ID={k} is below SLURM_ARRAY_TASK_MIN={min}")
            })?
        } else {
            return Err(format!(
                "--shards {count} takes the shard's index from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm array), and neither is set: give --shard K/{count}"
            ));
        };
        Shard::new(offset.saturating_add(1), count).map_err(|_| {
            format!(
                "the batch index {offset} (counted from 0) is not one of {count} shards: run the array with {count} tasks, or give --shards with its size"
            )
        })
    }

    /// The games of the shard among `total` (whole pairs, a contiguous block): its first
    /// and last game's numbers, first > last when it has none (more shards than pairs).
    pub fn games(self, total: u32) -> (u32, u32) {
        let pairs = u64::from(total / 2);
        let (k, n) = (u64::from(self.index), u64::from(self.count));
        let first_pair = (k - 1) * pairs / n;
        let end_pair = k * pairs / n;
        // At most `total`: both fit a u32.
        ((2 * first_pair + 1) as u32, (2 * end_pair) as u32)
    }

    /// The shard's directory inside a sharded series' directory: `shard-K-of-N`.
    pub fn dir_name(self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;
    /// `K/N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{}' is not a shard: write K/N, e.g. 3/8", text.trim());
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n)
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The series' identity: a hash of everything that decides its games (the Zebra version
/// that set it up, the game, clock, seed, schedule, bots with their names, programs' file
/// names, arguments, options, limits and time odds, the book, the sandbox settings, the
/// records' Event tag), and of nothing a host or a run chooses (file paths and the
/// directories programs are installed in, the shard, a bot's working directory, how many
/// games run at once). Sixteen hex digits of SHA-256 over the settings as JSON.
pub fn identity(config: &SeriesConfig) -> String {
    let mut value = serde_json::to_value(config).expect("the settings serialize");
    if let Some(map) = value.as_object_mut() {
        for key in [
            "version",
            "pgn",
            "pgn_start",
            "events",
            "log_dir",
            "log_failures",
            "shard",
        ] {
            map.remove(key);
        }
        if let Some(bots) = map.get_mut("bots").and_then(|b| b.as_array_mut()) {
            for bot in bots.iter_mut().filter_map(|b| b.as_object_mut()) {
                bot.remove("dir");
                // The program by its file name: hosts install Zebra (whose bundled bots sit
                // beside it) and the bots in different directories.
                if let Some(command) = bot.get("command").and_then(|c| c.as_str()) {
                    let name = Path::new(command)
                        .file_name()
                        .map_or(command.to_string(), |n| n.to_string_lossy().into_owned());
                    bot.insert("command".to_string(), name.into());
                }
            }
        }
        if let Some(replay) = map
            .get_mut("replay_suspect")
            .and_then(|r| r.as_object_mut())
        {
            replay.remove("voided_pgn");
        }
        if let Some(book) = map.get_mut("situations").and_then(|b| b.as_object_mut()) {
            book.remove("source");
        }
        // The version that set the series up (saved with it), so every host's hash agrees.
        if map.get("zebra").map_or(true, |v| v.is_null()) {
            map.insert("zebra".to_string(), env!("CARGO_PKG_VERSION").into());
        }
    }
    let digest = Sha256::digest(canonical(&value).as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// This machine's name (a shard's host, in its events), if it has one.
pub fn host_name() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    let name = crate::bot::text::clean(name.trim(), 64);
    (!name.is_empty()).then_some(name)
}

/// JSON text with every object's keys sorted, whatever order the map keeps them in.
fn canonical(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let items: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::Value::from(k.as_str()),
                        canonical(&map[k])
                    )
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
        serde_json::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_whole_pairs_into_contiguous_blocks_that_cover_every_game_once() {
        for total in [0u32, 2, 4, 14, 40, 1000] {
            for n in 1..=9 {
                let mut next = 1;
                for k in 1..=n {
                    let (first, last) = Shard::new(k, n).unwrap().games(total);
                    assert_eq!(first, next, "total {total}, shard {k}/{n}");
                    assert_eq!(first % 2, 1, "a block starts a pair");
                    assert_eq!((last + 1 - first) % 2, 0, "whole pairs");
                    next = last + 1;
                }
                assert_eq!(next, total + 1, "total {total} in {n} shards");
            }
        }
        // Seven pairs in three shards: 2, 2 and 3 pairs.
        let blocks: Vec<(u32, u32)> = (1..=3)
            .map(|k| Shard::new(k, 3).unwrap().games(14))
            .collect();
        assert_eq!(blocks, [(1, 4), (5, 8), (9, 14)]);
    }

    #[test]
    fn a_shard_reads_as_k_of_n_and_says_what_is_wrong() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(" 1 / 1 ".parse::<Shard>().unwrap().to_string(), "1/1");
        assert_eq!(
            "0/4".parse::<Shard>().unwrap_err(),
            "shard 0 of 4: K runs from 1 to 4"
        );
        assert_eq!(
            "5/4".parse::<Shard>().unwrap_err(),
            "shard 5 of 4: K runs from 1 to 4"
        );
        assert_eq!(
            "3".parse::<Shard>().unwrap_err(),
            "'3' is not a shard: write K/N, e.g. 3/8"
        );
        assert!("1/0".parse::<Shard>().unwrap_err().contains("from 1 to"));
        let json = serde_json::to_string(&Shard::new(2, 5).unwrap()).unwrap();
        assert_eq!(json, "\"2/5\"");
        assert_eq!(
            serde_json::from_str::<Shard>(&json).unwrap(),
            Shard::new(2, 5).unwrap()
        );
    }

    #[test]
    fn the_index_comes_from_kubernetes_or_slurm_never_the_count() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let k8s = Shard::from_env(4, env(&[("JOB_COMPLETION_INDEX", "0")])).unwrap();
        assert_eq!(k8s, Shard::new(1, 4).unwrap());
        // --array=1-4 and --array=0-3 name the same shards.
        let slurm = Shard::from_env(
            4,
            env(&[("SLURM_ARRAY_TASK_ID", "4"), ("SLURM_ARRAY_TASK_MIN", "1")]),
        )
        .unwrap();
        assert_eq!(slurm, Shard::new(4, 4).unwrap());
        let slurm = Shard::from_env(
            4,
            env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "0")]),
        )
        .unwrap();
        assert_eq!(slurm, Shard::new(4, 4).unwrap());
        let none = Shard::from_env(4, env(&[])).unwrap_err();
        assert!(none.contains("give --shard K/4"), "{none}");
        let big = Shard::from_env(4, env(&[("JOB_COMPLETION_INDEX", "4")])).unwrap_err();
        assert!(big.contains("is not one of 4 shards"), "{big}");
        let junk = Shard::from_env(4, env(&[("JOB_COMPLETION_INDEX", "x")])).unwrap_err();
        assert_eq!(junk, "JOB_COMPLETION_INDEX=\"x\" is not a shard index");
    }

    #[test]
    fn the_identity_ignores_where_programs_are_installed_but_not_what_decides_games() {
        let text = r#"{"version":2,"format":"round-robin","bots":[
            {"name":"a","command":"/usr/local/bin/zebra-greedy-bot"},
            {"name":"b","command":"/usr/local/bin/zebra-random-bot","dir":"/home/a"}],
            "rounds":3,"seed":7,"tc":"plays=2","max_illegal":3,"sprt":null,
            "pgn":"/x/games.pgn","events":null,"log_dir":null,"log_failures":false,
            "event":"E","zebra":"0.1.0"}"#;
        let config: SeriesConfig = serde_json::from_str(text).unwrap();
        let id = identity(&config);
        assert_eq!(id.len(), 16);
        let mut elsewhere = config.clone();
        elsewhere.bots[0].command = "/home/b/.cargo/bin/zebra-greedy-bot".to_string();
        elsewhere.bots[1].dir = None;
        elsewhere.pgn = "/y/games.pgn".into();
        elsewhere.shard = Some(Shard::new(2, 3).unwrap());
        assert_eq!(
            identity(&elsewhere),
            id,
            "paths and the shard are the host's"
        );
        for change in [
            |c: &mut SeriesConfig| c.seed = 8,
            |c: &mut SeriesConfig| c.bots[0].command = "/usr/local/bin/other-bot".to_string(),
            |c: &mut SeriesConfig| c.bots[0].args = vec!["--depth".to_string()],
            |c: &mut SeriesConfig| c.zebra = Some("0.2.0".to_string()),
            |c: &mut SeriesConfig| c.rounds = 4,
        ] {
            let mut other = config.clone();
            change(&mut other);
            assert_ne!(identity(&other), id, "{other:?}");
        }
    }

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = serde_json::json!({"b": [ {"z": 1, "a": 2} ], "a": "x"});
        assert_eq!(canonical(&v), r#"{"a":"x","b":[{"a":2,"z":1}]}"#);
    }
}
