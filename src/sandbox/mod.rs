//! What a bot may use and see: limits, namespaces, cgroups, and the verdict when it went too
//! far.
//!
//! - `limits`: the per-bot limits (memory, processes, CPU, file size, open files, network)
//! - `cgroup`: cgroup v1 and v2 groups per bot: memory and process limits, freezer, kill
//! - `jail`: the setup of one bot's process between fork and exec (rlimits, namespaces,
//!   the keeper that makes the bot PID 1 of its own PID namespace)
//! - `verdict`: why a bot's game ended early, as a closed set
//!
//! Levels, probed once per run ([`level`]) and named in every record (`Sandbox` tag):
//! 1. always (unless `--sandbox none`): the bot's own process group, the parent-death
//!    signal, rlimits (CPU time, file size, open files, no core dumps; memory as an
//!    address-space limit where no cgroup can hold it), a private temp directory;
//! 2. namespaces where the kernel allows them: the bot runs as PID 1 of a new PID namespace
//!    (so every process it starts dies with it, by the kernel's guarantee, whatever it did:
//!    double fork, `setsid`), in a new network namespace (loopback only) and a new mount
//!    namespace (a private, size-limited tmpfs as its TMPDIR), inside a user namespace when Zebra is not root;
//!    without them, Zebra becomes a child subreaper and kills adopted stragglers after
//!    each game;
//! 3. cgroups where a writable hierarchy exists: memory and process limits on the whole
//!    tree, freezing for `--freeze-idle`.

pub mod cgroup;
pub mod jail;
pub mod limits;
pub mod verdict;

use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock};

pub use cgroup::Cgroups;
pub use jail::Jail;
pub use limits::{LimitError, LimitSettings, Limits, Size};
pub use verdict::{Exit, Verdict};

/// How hard Zebra contains bots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The best the machine allows, recorded in every record.
    #[default]
    Auto,
    /// Process group and parent-death signal only: for debugging a bot.
    None,
    /// Refuse to start unless memory limits, process containment and no network all hold.
    Strict,
}

impl Mode {
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "auto" => Some(Mode::Auto),
            "none" => Some(Mode::None),
            "strict" => Some(Mode::Strict),
            _ => None,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::None => "none",
            Mode::Strict => "strict",
        }
    }
}

/// The containment of a game's bots, as chosen by the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub mode: Mode,
    /// Stop a bot's whole process tree while it is not its turn.
    pub freeze_idle: bool,
}

impl Policy {
    /// For a bot started only to be looked at (a preflight, `check-bot`): contained as
    /// usual, never frozen.
    pub fn probe() -> Policy {
        Policy {
            mode: Mode::Auto,
            freeze_idle: false,
        }
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            mode: Mode::Auto,
            freeze_idle: true,
        }
    }
}

/// What this machine lets Zebra do, found once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// PID, network and mount namespaces work (with a user namespace when not root).
    pub namespaces: bool,
    pub user_namespace: bool,
    pub cgroups: Cgroups,
    /// Why namespaces are missing, when they are.
    pub namespace_problem: Option<String>,
}

/// Parts of the sandbox a test (or a user chasing a problem) can turn off:
/// `ZEBRA_SANDBOX_DISABLE=namespaces,cgroups`. CI uses it to run the fallback paths on a
/// machine that has everything.
fn disabled(part: &str) -> bool {
    std::env::var("ZEBRA_SANDBOX_DISABLE")
        .map(|v| v.split(',').any(|p| p.trim() == part))
        .unwrap_or(false)
}

/// The machine's level, probed on first use.
pub fn level() -> &'static Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    LEVEL.get_or_init(|| {
        let cgroups = if disabled("cgroups") {
            Cgroups::default()
        } else {
            Cgroups::probe()
        };
        let user_namespace = !is_root();
        let (namespaces, namespace_problem) = if disabled("namespaces") {
            (
                false,
                Some("turned off by ZEBRA_SANDBOX_DISABLE".to_string()),
            )
        } else {
            match jail::probe_namespaces() {
                Ok(()) => (true, None),
                Err(e) => (false, Some(e)),
            }
        };
        sweep_stale(&cgroups);
        Level {
            namespaces,
            user_namespace: namespaces && user_namespace,
            cgroups,
            namespace_problem,
        }
    })
}

/// Removes what an earlier Zebra killed outright (`kill -9`) left: its bots' empty groups
/// (`zebra-<pid>-<n>`) and temp directories (`zebra-<pid>-<n>.tmp`), where that Zebra's
/// pid no longer runs. Its bots themselves died with it (see `jail`).
fn sweep_stale(cgroups: &Cgroups) {
    let me = std::process::id();
    let stale_pid = |name: &str| -> Option<u32> {
        let pid: u32 = name
            .strip_prefix("zebra-")?
            .split('-')
            .next()?
            .parse()
            .ok()?;
        // SAFETY: kill with signal 0 only checks that the process exists.
        let gone = pid != me
            && unsafe { libc::kill(pid as i32, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        gone.then_some(pid)
    };
    let sources = [&cgroups.memory, &cgroups.pids, &cgroups.freezer];
    for dir in sources.into_iter().flatten().map(|s| s.dir()) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if name.to_str().and_then(stale_pid).is_some() {
                // Fails (and stays) if anything still runs in it.
                let _ = std::fs::remove_dir(e.path());
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.ends_with(".tmp") && stale_pid(name).is_some() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

impl Level {
    /// What a bot started under `mode` gets, for the `Sandbox` tag and summaries:
    /// `rlimits, pid+net+mount namespaces, cgroup v1 memory+pids+freezer`.
    /// With `network`, some bot of the game may reach the network (no network namespace).
    pub fn describe(&self, mode: Mode, network: bool) -> String {
        if mode == Mode::None {
            return "none (process group only)".to_string();
        }
        let mut parts = vec!["rlimits".to_string()];
        if self.namespaces {
            let user = if self.user_namespace { "user+" } else { "" };
            let net = if network { "" } else { "net+" };
            parts.push(format!("{user}pid+{net}mount namespaces"));
            if network {
                parts.push("network allowed".to_string());
            }
        } else {
            parts.push("subreaper".to_string());
        }
        if self.cgroups.any() {
            parts.push(self.cgroups.describe());
        }
        parts.join(", ")
    }

    /// Under `--sandbox strict`: what is missing for memory limits, process containment
    /// and no network to all hold for `limits`, or `None` when they do.
    pub fn strict_missing(&self, limits: &Limits) -> Option<String> {
        let mut missing = Vec::new();
        if limits.memory.is_some() && self.cgroups.memory.is_none() {
            missing.push("a memory cgroup (no writable cgroup v1 memory hierarchy, nor a delegated v2 memory controller)");
        }
        if !self.namespaces {
            missing.push("PID and network namespaces");
        }
        if limits.network {
            missing.push("no network (--network or network = true lets bots reach it)");
        }
        if missing.is_empty() {
            return None;
        }
        let mut text = missing.join(" and ");
        if let Some(p) = &self.namespace_problem {
            if !self.namespaces {
                text.push_str(&format!(" ({p})"));
            }
        }
        Some(text)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Mode::Auto, false))
    }
}

/// Processes Zebra started as bots and that may still run: without PID namespaces Zebra is
/// a child subreaper, and any other process it finds among its children is a bot's
/// straggler to kill.
static LIVE_BOTS: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Runs `spawn` (which starts a bot process and returns its pid) with the registry of live
/// bots locked, so that a straggler sweep never mistakes a bot being born for a straggler.
pub fn register_bot<T>(spawn: impl FnOnce() -> (T, Option<i32>)) -> T {
    let mut live = LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner());
    let (value, pid) = spawn();
    if let Some(pid) = pid {
        live.get_or_insert_with(HashSet::new).insert(pid);
    }
    value
}

/// The bot `pid` has been reaped.
pub fn unregister_bot(pid: i32) {
    let mut live = LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(set) = live.as_mut() {
        set.remove(&pid);
    }
}

/// Makes Zebra the reaper of its bots' orphans (the fallback without PID namespaces).
pub fn become_subreaper() -> bool {
    static DONE: OnceLock<bool> = OnceLock::new();
    *DONE.get_or_init(|| {
        const PR_SET_CHILD_SUBREAPER: libc::c_int = 36;
        // SAFETY: prctl with this option only sets a flag of our own process.
        unsafe { libc::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 }
    })
}

/// Kills and reaps every child of Zebra that is not a live bot: processes a bot started and
/// abandoned, which the kernel handed to Zebra as their subreaper. Returns how many.
pub fn reap_stragglers() -> usize {
    let live = LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner());
    let me = std::process::id() as i32;
    let mut killed = 0;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if live.as_ref().is_some_and(|l| l.contains(&pid)) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
        let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if ppid != me || !is_straggler_candidate(pid) {
            continue;
        }
        // SAFETY: kill sends a signal; waitpid reaps our own child or fails harmlessly.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        killed += 1;
    }
    killed
}

/// Only adopted processes are stragglers: a child Zebra started itself for another purpose
/// (none today) would be registered like a bot. A process whose parent died and that the
/// kernel gave to Zebra has a process group other than Zebra's own.
fn is_straggler_candidate(pid: i32) -> bool {
    // SAFETY: getpgid only reads.
    unsafe { libc::getpgid(pid) != libc::getpgid(0) }
}

/// The containment a series (or a game) was set up with: saved in `series.json`, so that a
/// resumed series contains its bots as it began.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default)]
    pub mode: Mode,
    /// `None` (an older series file): on, the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freeze_idle: Option<bool>,
    /// Limits for every bot, from the flags.
    #[serde(default, skip_serializing_if = "LimitSettings::is_empty")]
    pub limits: LimitSettings,
}

impl Settings {
    /// From the raw flag values, each checked.
    pub fn from_flags(
        mode: &str,
        freeze_idle: &str,
        limits: LimitSettings,
    ) -> Result<Settings, String> {
        let mode = Mode::parse(mode)
            .ok_or_else(|| format!("--sandbox '{mode}': use auto, strict or none"))?;
        let freeze_idle = match freeze_idle {
            "on" => true,
            "off" => false,
            other => return Err(format!("--freeze-idle '{other}': use on or off")),
        };
        limits
            .apply(Limits::default())
            .map_err(|e| format!("{} '{}': {}", limits::flag_of(e.what), e.value, e.why))?;
        Ok(Settings {
            mode,
            freeze_idle: Some(freeze_idle),
            limits,
        })
    }

    pub fn policy(&self) -> Policy {
        Policy {
            mode: self.mode,
            freeze_idle: self.freeze_idle.unwrap_or(true),
        }
    }

    /// One bot's limits: its own settings over these, over the defaults; and under
    /// `strict`, a check that this machine can hold them.
    pub fn limits_for(&self, bot: &LimitSettings) -> Result<Limits, String> {
        let limits = self
            .limits
            .or(bot)
            .apply(Limits::default())
            .map_err(|e| format!("limits.{e}"))?;
        if self.mode == Mode::Strict {
            if let Some(missing) = level().strict_missing(&limits) {
                return Err(format!(
                    "--sandbox strict: this machine lacks {missing}; run with --sandbox auto, or see 'zebra doctor'"
                ));
            }
        }
        Ok(limits)
    }
}
