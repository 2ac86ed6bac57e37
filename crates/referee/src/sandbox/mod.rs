//! What a bot may use and see: limits, namespaces, cgroups, and the verdict when it went too
//! far.
//!
//! - `limits`: the per-bot limits (memory, processes, CPU, file size, open files, network)
//! - `cgroup`: cgroup v1 and v2 groups per bot: memory and process limits, freezer, kill
//! - `jail`: the setup of one bot's process between fork and exec (rlimits, namespaces,
//!   the keeper and init that make the bot a process of its own PID namespace, the wall)
//! - `launch`: that setup run by the `zebra-keeper` program, spawned without a fork of
//!   Zebra (no copy of Zebra's memory)
//! - `keeper`: what the keeper and the init do once set up (also the `zebra-keeper`
//!   program's `main`)
//! - `janitor`: a finished bot's groups, temp directory (without namespaces) and user id,
//!   removed after its game on a thread of its own
//! - `view`: the file system a walled bot sees (a read-only root, its files, `/tmp`)
//! - `seccomp`, `landlock`: the system calls and the file, signal and network rights it
//!   may not use
//! - `run`: this Zebra's run name and lock, and the host user ids its bots run as
//! - `verdict`: why a bot's game ended early, as a closed set
//!
//! Levels, probed once per run ([`level`]) and named in every record (`Sandbox` tag):
//! 1. always (unless `--sandbox none`): the bot's own process group, the parent-death
//!    signal, rlimits (CPU time, file size, open files, no core dumps; memory as an
//!    address-space limit where no cgroup can hold it), a private temp directory;
//! 2. namespaces where the kernel allows them: the bot runs in a new PID namespace under an
//!    init of Zebra's (so every process it starts dies with it, by the kernel's guarantee,
//!    whatever it did: double fork, `setsid`), in new network (loopback only), mount, IPC,
//!    UTS and cgroup namespaces, inside a user namespace when Zebra is not root; without
//!    them, Zebra becomes a child subreaper and kills adopted stragglers after each game;
//! 3. the wall, layer by layer as the machine allows ([`Wall`]): a user of its own without
//!    capabilities, its own file system view (read-only root, fresh `/proc`, private
//!    `/tmp`, no `/sys`), Landlock, a seccomp filter;
//! 4. cgroups where a writable hierarchy exists: memory and process limits on the whole
//!    tree, freezing for `--freeze-idle`.

pub mod cgroup;
pub mod jail;
pub mod janitor;
pub mod keeper;
pub mod landlock;
pub mod launch;
pub mod limits;
pub mod netns;
pub mod run;
pub mod seccomp;
pub mod verdict;
pub mod view;

use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock, RwLock};

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
    /// The layers of the wall that hold here (none without namespaces).
    pub wall: Wall,
}

/// The layers around a bot inside its namespaces, each probed on its own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wall {
    /// The bot runs as an ordinary user without capabilities: a host user id of its own
    /// when Zebra is root, Zebra's own id inside a user namespace otherwise.
    pub own_user: bool,
    /// Its root is its own view (`pivot_root`): system directories and its own files
    /// read-only, a private `/tmp`, no `/sys` (so no cgroup file system).
    pub view: bool,
    /// A `/proc` of its own PID namespace in the view.
    pub fresh_proc: bool,
    pub seccomp: bool,
    /// The kernel's Landlock version (0: none, or not used).
    pub landlock: u32,
    /// Why a layer is missing, one line per layer.
    pub problems: Vec<String>,
}

impl Wall {
    /// Every layer the machine might have.
    fn all() -> Wall {
        Wall {
            own_user: !disabled("user"),
            view: !disabled("view"),
            fresh_proc: !disabled("proc") && !disabled("view"),
            seccomp: !disabled("seccomp") && seccomp::available(),
            landlock: if disabled("landlock") {
                0
            } else {
                landlock::abi()
            },
            problems: Vec::new(),
        }
    }

    /// Finds the layers that work here: all at once, else each on its own.
    fn probe() -> Wall {
        let want = Wall::all();
        if jail::probe(&want).is_ok() {
            return want;
        }
        let none = Wall::default();
        let mut found = none.clone();
        let mut problems = Vec::new();
        let mut check = |name: &str, layer: Wall| -> bool {
            match jail::probe(&layer) {
                Ok(()) => true,
                Err(e) => {
                    problems.push(format!("{name}: {e}"));
                    false
                }
            }
        };
        found.own_user = want.own_user
            && check(
                "own user",
                Wall {
                    own_user: true,
                    ..none.clone()
                },
            );
        found.view = want.view
            && check(
                "own view",
                Wall {
                    view: true,
                    ..none.clone()
                },
            );
        found.fresh_proc = found.view
            && want.fresh_proc
            && check(
                "fresh /proc",
                Wall {
                    view: true,
                    fresh_proc: true,
                    ..none.clone()
                },
            );
        found.seccomp = want.seccomp
            && check(
                "seccomp",
                Wall {
                    seccomp: true,
                    ..none.clone()
                },
            );
        found.landlock = if want.landlock > 0
            && check(
                "landlock",
                Wall {
                    landlock: want.landlock,
                    ..none.clone()
                },
            ) {
            want.landlock
        } else {
            0
        };
        found.problems = problems;
        // Together, as bots will get them.
        if let Err(e) = jail::probe(&found) {
            found.problems.push(format!("all layers together: {e}"));
            return Wall {
                problems: found.problems,
                ..Wall::default()
            };
        }
        found
    }

    /// `own user, own view, fresh /proc, seccomp, landlock v6`.
    pub fn describe(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.own_user {
            parts.push("own user".to_string());
        }
        if self.view {
            parts.push("own read-only view".to_string());
        }
        if self.fresh_proc {
            parts.push("fresh /proc".to_string());
        }
        if self.seccomp {
            parts.push("seccomp".to_string());
        }
        if self.landlock > 0 {
            parts.push(format!("landlock v{}", self.landlock));
        }
        parts
    }
}

/// Whether a series stages its next game's bots ahead (`ZEBRA_SANDBOX_DISABLE=stage`
/// turns it off): see [`launch`].
pub fn staging() -> bool {
    !disabled("stage")
}

/// Parts of the sandbox a test (or a user chasing a problem) can turn off:
/// `ZEBRA_SANDBOX_DISABLE=namespaces,cgroups,user,view,proc,seccomp,landlock,launch,stage,netpool`. CI
/// uses it to run the fallback paths on a machine that has everything.
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
            match jail::probe(&Wall::default()) {
                Ok(()) => (true, None),
                Err(e) => (false, Some(format!("cannot create namespaces: {e}"))),
            }
        };
        let wall = if namespaces {
            Wall::probe()
        } else {
            Wall::default()
        };
        sweep_stale(&cgroups);
        Level {
            namespaces,
            user_namespace: namespaces && user_namespace,
            cgroups,
            namespace_problem,
            wall,
        }
    })
}

/// Removes what an earlier Zebra killed outright (`kill -9`) left: its bots' empty groups,
/// its mount point and its bots' temp directories (`zebra-<run>-<n>`), where that run's
/// lock is free (see `run`).
/// Its bots themselves died with it (see `jail`).
fn sweep_stale(cgroups: &Cgroups) {
    let mut dead: HashSet<String> = HashSet::new();
    let mut is_dead = |name: &str| -> bool {
        let Some(run) = run::run_of(name) else {
            return false;
        };
        if dead.contains(run) {
            return true;
        }
        let gone = run::run_is_dead(run);
        if gone {
            dead.insert(run.to_string());
        }
        gone
    };
    let sources = [&cgroups.memory, &cgroups.pids, &cgroups.freezer];
    for dir in sources.into_iter().flatten().map(|s| s.dir()) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if name.to_str().is_some_and(&mut is_dead) {
                // A dead run's group: whatever is still in it is a bot of that run whose
                // end the kernel has not finished.
                cgroup::kill_and_remove_dir(&e.path());
            }
        }
    }
    let mut ended = Vec::new();
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.ends_with(".tmp") && is_dead(name) {
                let _ = std::fs::remove_dir_all(e.path());
            }
            // A run that ended cleanly left only its lock file.
            if let Some(run) = run::run_of_lock(name) {
                ended.push(run.to_string());
            }
        }
    }
    // `forget_run` removes only locks nobody holds.
    for run in dead.into_iter().chain(ended) {
        run::forget_run(&run);
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
            parts.push(format!("{user}pid+{net}mount+ipc+uts+cgroup namespaces"));
            if network {
                parts.push("network allowed".to_string());
            }
            parts.extend(self.wall.describe());
        } else {
            parts.push("subreaper".to_string());
        }
        if self.cgroups.any() {
            parts.push(self.cgroups.describe());
        }
        parts.join(", ")
    }

    /// Under `--sandbox strict`: what is missing for the whole wall (an own user, its own
    /// read-only view with a fresh /proc and no cgroup file system, seccomp), memory and
    /// process limits, process containment and no network to all hold for `limits`, or
    /// `None` when they do. Landlock is used where the kernel has it, never required.
    pub fn strict_missing(&self, limits: &Limits) -> Option<String> {
        let mut missing = Vec::new();
        if limits.memory.is_some() && self.cgroups.memory.is_none() {
            missing.push("a memory cgroup (no writable cgroup v1 memory hierarchy, nor a delegated v2 memory controller)");
        }
        if limits.processes.is_some() && self.cgroups.pids.is_none() {
            missing.push("a pids cgroup (no writable cgroup v1 pids hierarchy, nor a delegated v2 pids controller)");
        }
        if !self.namespaces {
            missing.push("PID and network namespaces");
        } else {
            if !self.wall.own_user {
                missing.push("a user of its own for each bot");
            }
            if !self.wall.view {
                missing.push("a read-only view of its own (pivot_root)");
            }
            if !self.wall.fresh_proc {
                missing.push("a fresh /proc");
            }
            if !self.wall.seccomp {
                missing.push("seccomp");
            }
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
        if !self.wall.problems.is_empty() {
            text.push_str(&format!(" ({})", self.wall.problems.join("; ")));
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

/// Bots being born hold this for reading, a straggler sweep for writing: any number of
/// bots start at once (a sandboxed start waits several milliseconds in the kernel, and the
/// games of a series played at the same time must not start their bots in turn), and a
/// sweep never runs while a bot is born and not yet registered.
static BIRTHS: RwLock<()> = RwLock::new(());

/// Runs `spawn` (which starts a bot process and returns its pid) so that a straggler sweep
/// never mistakes a bot being born for a straggler; other bots may be born at the same time.
pub(crate) fn register_bot<T>(spawn: impl FnOnce() -> (T, Option<i32>)) -> T {
    let _birth = BIRTHS.read().unwrap_or_else(|e| e.into_inner());
    let (value, pid) = spawn();
    if let Some(pid) = pid {
        LIVE_BOTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HashSet::new)
            .insert(pid);
    }
    value
}

/// The bot `pid` has been reaped.
pub(crate) fn unregister_bot(pid: i32) {
    let mut live = LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(set) = live.as_mut() {
        set.remove(&pid);
    }
}

/// Makes Zebra the reaper of its bots' orphans (the fallback without PID namespaces).
pub(crate) fn become_subreaper() -> bool {
    static DONE: OnceLock<bool> = OnceLock::new();
    *DONE.get_or_init(|| {
        const PR_SET_CHILD_SUBREAPER: libc::c_int = 36;
        // SAFETY: prctl with this option only sets a flag of our own process.
        unsafe { libc::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 }
    })
}

/// Kills and reaps every child of Zebra that is not a live bot: processes a bot started and
/// abandoned, which the kernel handed to Zebra as their subreaper. Returns how many.
pub(crate) fn reap_stragglers() -> usize {
    let _no_births = BIRTHS.write().unwrap_or_else(|e| e.into_inner());
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
        if mode != Mode::None && is_root() {
            run::uid_range()?;
        }
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
