//! What one bot may use: memory, processes, CPU time, file size, disk, open files, network.
//!
//! Values come from flags (for every bot) and from a bot's config keys (for that bot);
//! they are validated once, before anything starts, with one readable line per mistake.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The resources one bot may use. `None` means no limit of that kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Memory of all the bot's processes together, in bytes.
    pub memory: Option<u64>,
    /// Processes and threads the bot may run at once (its own included).
    pub processes: Option<u32>,
    /// CPU time of the bot's process over a whole game: a backstop against a bot that
    /// computes forever, far above what the clocks allow.
    pub cpu: Option<Duration>,
    /// Size of any one file the bot writes, in bytes.
    pub file_size: Option<u64>,
    /// All the bot's files together, in bytes: the size of its private writable tmpfs
    /// (`/tmp`, the only place it can write). `None`: twice the file size limit, or 256 MiB.
    pub disk: Option<u64>,
    /// Open file descriptors per process.
    pub open_files: Option<u32>,
    /// Whether the bot may reach the network.
    pub network: bool,
}

impl Default for Limits {
    /// The defaults, and why (docs/src/operators/limits.md): 1 GiB of memory is room for a large
    /// search table yet keeps a few games at once within a small machine; 64 processes
    /// and threads let a bot use every core of a big machine but stop a fork bomb; an hour
    /// of CPU per game is far beyond any time control's budget; 64 MiB per file allows
    /// logs and caches; 256 MiB for all its files together (memory, since they live in a
    /// tmpfs) keeps many small files from doing what one big one cannot; 256 open files are plenty for a process
    /// that talks over stdio; no network, since a bot's decisions must be its own.
    fn default() -> Limits {
        Limits {
            memory: Some(1 << 30),
            processes: Some(64),
            cpu: Some(Duration::from_secs(3600)),
            file_size: Some(64 << 20),
            disk: Some(256 << 20),
            open_files: Some(256),
            network: false,
        }
    }
}

/// A limit value that does not parse or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} '{value}': {why}")]
pub struct LimitError {
    pub what: &'static str,
    pub value: String,
    pub why: String,
}

/// Changes to the limits, from flags or a config file; unset fields keep the base value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub memory: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub processes: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub cpu: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub file_size: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub disk: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "text_or_number"
    )]
    pub open_files: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<bool>,
}

impl LimitSettings {
    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == LimitSettings::default()
    }

    /// `base` with these settings applied; each value checked.
    pub fn apply(&self, base: Limits) -> Result<Limits, LimitError> {
        let mut l = base;
        if let Some(v) = &self.memory {
            l.memory = parse_size("memory", v, 16 << 20)?;
        }
        if let Some(v) = &self.processes {
            l.processes = parse_count("processes", v, 1, 1 << 20)?;
        }
        if let Some(v) = &self.cpu {
            l.cpu = parse_duration("cpu", v)?;
        }
        if let Some(v) = &self.file_size {
            l.file_size = parse_size("file_size", v, 4096)?;
        }
        if let Some(v) = &self.disk {
            l.disk = parse_size("disk", v, 1 << 20)?;
        }
        if let Some(v) = &self.open_files {
            // A process needs its three stdio descriptors and a few for its runtime.
            l.open_files = parse_count("open_files", v, 16, 1 << 20)?;
        }
        if let Some(v) = self.network {
            l.network = v;
        }
        Ok(l)
    }

    /// Settings from `other` where set, else from `self` (a bot's config keys over flags).
    pub fn or(&self, other: &LimitSettings) -> LimitSettings {
        LimitSettings {
            memory: other.memory.clone().or_else(|| self.memory.clone()),
            processes: other.processes.clone().or_else(|| self.processes.clone()),
            cpu: other.cpu.clone().or_else(|| self.cpu.clone()),
            file_size: other.file_size.clone().or_else(|| self.file_size.clone()),
            disk: other.disk.clone().or_else(|| self.disk.clone()),
            open_files: other.open_files.clone().or_else(|| self.open_files.clone()),
            network: other.network.or(self.network),
        }
    }
}

/// A limit in a config file may be written as a number (`processes = 16`) or as text
/// (`memory = "2G"`).
fn text_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(u64),
    }
    Ok(Option::<Raw>::deserialize(d)?.map(|r| match r {
        Raw::Text(t) => t,
        Raw::Number(n) => n.to_string(),
    }))
}

/// The flag that sets the limit a config key names.
pub(crate) fn flag_of(key: &str) -> &'static str {
    match key {
        "memory" => "--memory-limit",
        "processes" => "--process-limit",
        "cpu" => "--cpu-limit",
        "file_size" => "--file-limit",
        "disk" => "--disk-limit",
        _ => "--open-files",
    }
}

fn error(what: &'static str, value: &str, why: impl Into<String>) -> LimitError {
    LimitError {
        what,
        value: value.to_string(),
        why: why.into(),
    }
}

/// `512M`, `2G`, `1.5GiB`, `65536` (bytes), or `none`.
pub fn parse_size(what: &'static str, value: &str, min: u64) -> Result<Option<u64>, LimitError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    let (number, unit) = v.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let scale: u64 = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => {
            return Err(error(
                what,
                value,
                "write a size such as 512M, 2G or 65536 (bytes), or none",
            ))
        }
    };
    let n: f64 = number.parse().map_err(|_| {
        error(
            what,
            value,
            "write a size such as 512M, 2G or 65536 (bytes), or none",
        )
    })?;
    let bytes = n * scale as f64;
    if !bytes.is_finite() || bytes > (1u64 << 50) as f64 {
        return Err(error(what, value, "too large (at most 1P)"));
    }
    let bytes = bytes as u64;
    if bytes < min {
        return Err(error(
            what,
            value,
            format!("too small: at least {}", Size(min)),
        ));
    }
    Ok(Some(bytes))
}

/// A whole number in `min..=max`, or `none`.
pub(crate) fn parse_count(
    what: &'static str,
    value: &str,
    min: u32,
    max: u32,
) -> Result<Option<u32>, LimitError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    match v.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(error(
            what,
            value,
            format!("write a whole number from {min} to {max}, or none"),
        )),
    }
}

/// `90s`, `10m`, `1h`, `500ms` (at least a second), or `none`.
pub fn parse_duration(what: &'static str, value: &str) -> Result<Option<Duration>, LimitError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let (number, unit) = v.split_at(split);
    let n: u64 = number.parse().map_err(|_| {
        error(
            what,
            value,
            "write a duration such as 90s, 10m or 1h, or none",
        )
    })?;
    let d = match unit.trim() {
        "ms" => Duration::from_millis(n),
        "s" | "" => Duration::from_secs(n),
        "m" | "min" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        _ => {
            return Err(error(
                what,
                value,
                "write a duration such as 90s, 10m or 1h, or none",
            ))
        }
    };
    if d < Duration::from_secs(1) {
        return Err(error(what, value, "too small: at least 1s"));
    }
    if d > Duration::from_secs(7 * 24 * 3600) {
        return Err(error(what, value, "too large: at most a week (168h)"));
    }
    Ok(Some(d))
}

/// Bytes as people read them: `1 GiB`, `64 MiB`, `4096 B`.
#[derive(Clone, Copy, Debug)]
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        for (unit, scale) in [
            ("TiB", 1u64 << 40),
            ("GiB", 1 << 30),
            ("MiB", 1 << 20),
            ("KiB", 1 << 10),
        ] {
            if b >= scale && b % scale == 0 {
                return write!(f, "{} {unit}", b / scale);
            }
        }
        if b >= 1 << 20 {
            return write!(f, "{:.1} MiB", b as f64 / (1u64 << 20) as f64);
        }
        write!(f, "{b} B")
    }
}

impl fmt::Display for Limits {
    /// `memory=1 GiB,processes=64,cpu=3600s,file-size=64 MiB,disk=256 MiB,open-files=256,network=off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
        write!(
            f,
            "memory={},processes={},cpu={},file-size={},disk={},open-files={},network={}",
            opt(self.memory.map(|m| Size(m).to_string())),
            opt(self.processes.map(|p| p.to_string())),
            opt(self.cpu.map(|c| format!("{}s", c.as_secs()))),
            opt(self.file_size.map(|m| Size(m).to_string())),
            opt(self.disk.map(|m| Size(m).to_string())),
            opt(self.open_files.map(|p| p.to_string())),
            if self.network { "on" } else { "off" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_units_and_none() {
        assert_eq!(parse_size("m", "512M", 0), Ok(Some(512 << 20)));
        assert_eq!(parse_size("m", "2G", 0), Ok(Some(2 << 30)));
        assert_eq!(parse_size("m", "1.5GiB", 0), Ok(Some(3 << 29)));
        assert_eq!(parse_size("m", "65536", 0), Ok(Some(65536)));
        assert_eq!(parse_size("m", "64kb", 0), Ok(Some(64 << 10)));
        assert_eq!(parse_size("m", "none", 0), Ok(None));
        assert!(parse_size("m", "12X", 0).is_err());
        assert!(parse_size("m", "", 0).is_err());
        assert!(parse_size("m", "-5M", 0).is_err());
        let e = parse_size("memory limit", "1M", 16 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "memory limit '1M': too small: at least 16 MiB"
        );
    }

    #[test]
    fn durations_and_counts() {
        assert_eq!(
            parse_duration("c", "90s"),
            Ok(Some(Duration::from_secs(90)))
        );
        assert_eq!(
            parse_duration("c", "2m"),
            Ok(Some(Duration::from_secs(120)))
        );
        assert_eq!(parse_duration("c", "none"), Ok(None));
        assert!(parse_duration("c", "500ms").is_err());
        assert!(parse_duration("c", "3 weeks").is_err());
        assert_eq!(parse_count("p", "64", 1, 100), Ok(Some(64)));
        assert!(parse_count("p", "0", 1, 100).is_err());
        assert!(parse_count("p", "lots", 1, 100).is_err());
    }

    #[test]
    fn a_bots_settings_override_the_flags() {
        let flags = LimitSettings {
            memory: Some("512M".into()),
            processes: Some("8".into()),
            ..LimitSettings::default()
        };
        let bot = LimitSettings {
            memory: Some("2G".into()),
            network: Some(true),
            ..LimitSettings::default()
        };
        let l = flags.or(&bot).apply(Limits::default()).unwrap();
        assert_eq!(l.memory, Some(2 << 30));
        assert_eq!(l.processes, Some(8));
        assert!(l.network);
        assert_eq!(l.open_files, Some(256));
        assert_eq!(
            Limits::default().to_string(),
            "memory=1 GiB,processes=64,cpu=3600s,file-size=64 MiB,disk=256 MiB,open-files=256,network=off"
        );
    }
}
