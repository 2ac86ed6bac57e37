//! Control groups: a memory limit and a process limit the kernel enforces on a bot's whole
//! process tree, a freezer that stops the tree at once, and a way to kill all of it.
//!
//! Both cgroup versions are supported, feature by feature: memory, pids and freezing each
//! come from the v2 hierarchy when Zebra's own v2 cgroup delegates them, else from a v1
//! hierarchy where that controller is mounted and writable (hybrid machines mount both).
//! Zebra only ever creates groups below the groups it runs in itself, one per bot
//! (`zebra-<run>-<n>`, see `run`), and removes them when the bot's game ends.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Which hierarchy provides a feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The v2 (unified) hierarchy, in Zebra's own group there.
    V2(PathBuf),
    /// A v1 hierarchy of that controller, in Zebra's own group there.
    V1(PathBuf),
}

impl Source {
    pub(crate) fn dir(&self) -> &Path {
        match self {
            Source::V2(p) | Source::V1(p) => p,
        }
    }

    fn version(&self) -> &'static str {
        match self {
            Source::V2(_) => "v2",
            Source::V1(_) => "v1",
        }
    }
}

impl std::fmt::Display for Source {
    /// `v1 /sys/fs/cgroup/memory/a/b`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.version(), self.dir().display())
    }
}

/// What the cgroup hierarchies of this machine let Zebra do, found once at startup.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cgroups {
    pub memory: Option<Source>,
    pub pids: Option<Source>,
    pub freezer: Option<Source>,
}

impl Cgroups {
    /// Reads /proc/self/cgroup and /proc/self/mountinfo and tries each candidate (a group is
    /// created and removed to prove it is writable).
    pub fn probe() -> Cgroups {
        let (Ok(own), Ok(mounts)) = (
            fs::read_to_string("/proc/self/cgroup"),
            fs::read_to_string("/proc/self/mountinfo"),
        ) else {
            return Cgroups::default();
        };
        let mut found = Cgroups::default();
        let v2 = own_dir_v2(&own, &mounts).filter(|d| writable(d) && joinable(d));
        if let Some(dir) = &v2 {
            let read = |f: &str| fs::read_to_string(dir.join(f)).unwrap_or_default();
            let available = read("cgroup.controllers");
            let wanted: Vec<&str> = ["memory", "pids"]
                .into_iter()
                .filter(|c| available.split_whitespace().any(|a| a == *c))
                .filter(|c| {
                    !read("cgroup.subtree_control")
                        .split_whitespace()
                        .any(|d| d == *c)
                })
                .collect();
            // A group hands a controller to its children only while it holds no process of
            // its own (the root excepted): Zebra first moves itself into a leaf of its own
            // group, `zebra-<pid>-self`, still below where it was started.
            let is_root = own_v2_path(&own) == Some("/");
            if !wanted.is_empty() && !is_root && !read("cgroup.procs").trim().is_empty() {
                let leaf = dir.join(format!("zebra-{}-self", super::run::run_id()));
                if fs::create_dir(&leaf).is_ok()
                    && fs::write(leaf.join("cgroup.procs"), std::process::id().to_string()).is_err()
                {
                    let _ = fs::remove_dir(&leaf);
                }
            }
            for c in wanted {
                let _ = fs::write(dir.join("cgroup.subtree_control"), format!("+{c}"));
            }
            let delegated = read("cgroup.subtree_control");
            let has = |c: &str| delegated.split_whitespace().any(|d| d == c);
            // A controller counts only if a process can really join a group that uses it.
            let usable = |c: &str| has(c) && joinable(dir);
            if usable("memory") {
                found.memory = Some(Source::V2(dir.clone()));
            }
            if usable("pids") {
                found.pids = Some(Source::V2(dir.clone()));
            }
            // Every non-root v2 group has cgroup.freeze; our children are non-root.
            found.freezer = Some(Source::V2(dir.clone()));
        }
        for (controller, slot) in [
            ("memory", &mut found.memory),
            ("pids", &mut found.pids),
            ("freezer", &mut found.freezer),
        ] {
            if slot.is_none() {
                *slot = own_dir_v1(&own, &mounts, controller)
                    .filter(|d| writable(d) && joinable(d))
                    .map(Source::V1);
            }
        }
        found
    }

    pub fn any(&self) -> bool {
        self.memory.is_some() || self.pids.is_some() || self.freezer.is_some()
    }

    /// `cgroup v1 memory+pids+freezer`, `cgroup v2 memory+pids, v1 freezer`, or `no cgroups`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<(String, Vec<&str>)> = Vec::new();
        for (name, src) in [
            ("memory", &self.memory),
            ("pids", &self.pids),
            ("freezer", &self.freezer),
        ] {
            if let Some(src) = src {
                let v = src.version().to_string();
                match parts.iter_mut().find(|(pv, _)| *pv == v) {
                    Some((_, names)) => names.push(name),
                    None => parts.push((v, vec![name])),
                }
            }
        }
        if parts.is_empty() {
            return "no cgroups".to_string();
        }
        let text: Vec<String> = parts
            .into_iter()
            .map(|(v, names)| format!("{v} {}", names.join("+")))
            .collect();
        format!("cgroup {}", text.join(", "))
    }
}

/// Our own group's path in the v2 hierarchy (`/user.slice/...`).
fn own_v2_path(own: &str) -> Option<&str> {
    own.lines().find_map(|l| l.strip_prefix("0::"))
}

/// Our own group in the v2 hierarchy, if one is mounted.
fn own_dir_v2(own: &str, mounts: &str) -> Option<PathBuf> {
    let path = own_v2_path(own)?;
    let (root, point) = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        (right.split_whitespace().next()? == "cgroup2").then(|| {
            let f: Vec<&str> = left.split_whitespace().collect();
            (
                f.get(3).copied().unwrap_or("/"),
                f.get(4).copied().unwrap_or(""),
            )
        })
    })?;
    Some(join_below(point, root, path))
}

/// Our own group in the v1 hierarchy of `controller`, if one is mounted.
fn own_dir_v1(own: &str, mounts: &str, controller: &str) -> Option<PathBuf> {
    let path = own.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, names, path) = (f.next()?, f.next()?, f.next()?);
        names.split(',').any(|n| n == controller).then_some(path)
    })?;
    let (root, point) = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let mut r = right.split_whitespace();
        if r.next()? != "cgroup" {
            return None;
        }
        let options = r.nth(1)?;
        options.split(',').any(|o| o == controller).then(|| {
            let f: Vec<&str> = left.split_whitespace().collect();
            (
                f.get(3).copied().unwrap_or("/"),
                f.get(4).copied().unwrap_or(""),
            )
        })
    })?;
    Some(join_below(point, root, path))
}

/// The directory of cgroup `path` under a mount of hierarchy root `root` at `point`.
fn join_below(point: &str, root: &str, path: &str) -> PathBuf {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .trim_start_matches('/');
    let mut dir = PathBuf::from(point);
    if !rel.is_empty() {
        dir.push(rel);
    }
    dir
}

fn writable(dir: &Path) -> bool {
    let probe = dir.join(format!("zebra-{}-probe", super::run::run_id()));
    let ok = fs::create_dir(&probe).is_ok();
    let _ = fs::remove_dir(&probe);
    ok
}

/// Whether a process can join a new group below `dir`: a trivial program is started into
/// one, exactly as a bot would be (the kernel may refuse, e.g. a v2 group whose parent's
/// controllers and processes conflict).
fn joinable(dir: &Path) -> bool {
    use std::os::unix::process::CommandExt;
    let probe = dir.join(format!("zebra-{}-join", super::run::run_id()));
    if fs::create_dir(&probe).is_err() {
        return false;
    }
    let ok = (|| {
        let procs = OpenOptions::new()
            .write(true)
            .open(probe.join("cgroup.procs"))
            .ok()?;
        let fd = procs.as_raw_fd();
        let program = ["/bin/true", "/usr/bin/true"]
            .into_iter()
            .find(|p| Path::new(p).exists())?;
        let mut cmd = std::process::Command::new(program);
        cmd.stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // SAFETY: write is async-signal-safe; the descriptor outlives the spawn.
        unsafe {
            cmd.pre_exec(move || {
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let status = super::launch::ordinary(|| cmd.status()).ok()?;
        drop(procs);
        status.success().then_some(())
    })()
    .is_some();
    let mut patience = Patience::new();
    while fs::remove_dir(&probe).is_err() && patience.wait() {}
    ok
}

/// The waits between tries at what the kernel finishes soon after a process dies (its
/// exit leaving a group, a group's removal): 50 µs first, doubling up to 10 ms, at most
/// [`Patience::LIMIT`] in all. An exit usually completes within a millisecond, where a
/// fixed 10 ms wait slept the rest (measured: about 1.5 ms less per game of two bots; the
/// bulk of a sandboxed game's extra time is elsewhere, in joining the groups).
pub(crate) struct Patience {
    start: std::time::Instant,
    tries: u32,
}

impl Patience {
    /// How long to keep trying.
    pub(crate) const LIMIT: Duration = Duration::from_millis(500);

    pub(crate) fn new() -> Patience {
        Patience {
            start: std::time::Instant::now(),
            tries: 0,
        }
    }

    /// The wait before try `n + 1` (after `n` failed ones).
    pub(crate) fn delay(n: u32) -> Duration {
        let micros = 50u64.saturating_mul(1u64 << n.min(16));
        Duration::from_micros(micros.min(10_000))
    }

    /// Waits before the next try; `false` (without waiting) once the time is up.
    pub(crate) fn wait(&mut self) -> bool {
        if self.start.elapsed() >= Self::LIMIT {
            return false;
        }
        std::thread::sleep(Self::delay(self.tries));
        self.tries += 1;
        true
    }
}

static NEXT: AtomicU64 = AtomicU64::new(1);

/// One bot's groups (one per hierarchy used), with its limits written.
#[derive(Debug)]
pub struct BotGroups {
    dirs: Vec<PathBuf>,
    /// Each group's `cgroup.procs`, opened before the fork: the child joins by writing "0".
    procs: Vec<File>,
    memory: Option<Source>,
    pids: Option<Source>,
    /// `pids.events`, kept open: it is read after every decision (a bot that hit its
    /// process limit while deciding loses), and one `pread` costs far less than a path
    /// walk through the cgroup file system, an open, a read and a close (measured: the
    /// referee's CPU per decision 5 us higher with the groups than without).
    pids_events: Option<File>,
    freeze: Option<(File, &'static str, &'static str)>,
    /// The memory and pids counters as they were at the start (a reused name never leaks
    /// an earlier count).
    oom_before: u64,
    pids_before: u64,
}

impl BotGroups {
    /// Creates this bot's groups and writes its limits.
    pub fn create(
        cg: &Cgroups,
        memory: Option<u64>,
        processes: Option<u32>,
        freeze: bool,
    ) -> std::io::Result<BotGroups> {
        let mut name = super::run::name(NEXT.fetch_add(1, Ordering::Relaxed));
        let mut groups = BotGroups {
            dirs: Vec::new(),
            procs: Vec::new(),
            memory: None,
            pids: None,
            pids_events: None,
            freeze: None,
            oom_before: 0,
            pids_before: 0,
        };
        let mut used: Vec<&Source> = Vec::new();
        if memory.is_some() {
            used.extend(&cg.memory);
        }
        if processes.is_some() {
            used.extend(&cg.pids);
        }
        if freeze {
            used.extend(&cg.freezer);
        }
        // A name free in every hierarchy used (a leftover no sweep could judge is skipped).
        while used.iter().any(|src| src.dir().join(&name).exists()) {
            name = super::run::name(NEXT.fetch_add(1, Ordering::Relaxed));
        }
        for src in used {
            let dir = src.dir().join(&name);
            if groups.dirs.contains(&dir) {
                continue;
            }
            fs::create_dir(&dir)?;
            groups.dirs.push(dir.clone());
            groups.procs.push(
                OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?,
            );
        }
        let dir_of = |src: &Source| src.dir().join(&name);
        if let (Some(bytes), Some(src)) = (memory, &cg.memory) {
            let dir = dir_of(src);
            match src {
                Source::V2(_) => {
                    fs::write(dir.join("memory.max"), bytes.to_string())?;
                    // Swap would let a bot go past its limit slowly instead of stopping it.
                    let _ = fs::write(dir.join("memory.swap.max"), "0");
                }
                Source::V1(_) => {
                    fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
                    let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
                }
            }
            groups.memory = Some(match src {
                Source::V2(_) => Source::V2(dir),
                Source::V1(_) => Source::V1(dir),
            });
            groups.oom_before = groups.oom_kills();
        }
        if let (Some(n), Some(src)) = (processes, &cg.pids) {
            let dir = dir_of(src);
            fs::write(dir.join("pids.max"), n.to_string())?;
            groups.pids_events = File::open(dir.join("pids.events")).ok();
            groups.pids = Some(match src {
                Source::V2(_) => Source::V2(dir),
                Source::V1(_) => Source::V1(dir),
            });
            groups.pids_before = groups.pids_refused();
        }
        if freeze {
            if let Some(src) = &cg.freezer {
                let dir = dir_of(src);
                groups.freeze = Some(match src {
                    Source::V2(_) => (
                        OpenOptions::new()
                            .write(true)
                            .open(dir.join("cgroup.freeze"))?,
                        "1",
                        "0",
                    ),
                    Source::V1(_) => (
                        OpenOptions::new()
                            .write(true)
                            .open(dir.join("freezer.state"))?,
                        "FROZEN",
                        "THAWED",
                    ),
                });
            }
        }
        Ok(groups)
    }

    /// The descriptors the child writes "0" into to join (see `spawn`).
    pub(crate) fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    pub(crate) fn limits_memory(&self) -> bool {
        self.memory.is_some()
    }

    pub fn limits_processes(&self) -> bool {
        self.pids.is_some()
    }

    pub(crate) fn can_freeze(&self) -> bool {
        self.freeze.is_some()
    }

    /// Stops (or lets go on) every process of the bot at once.
    pub fn set_frozen(&self, frozen: bool) -> bool {
        match &self.freeze {
            Some((file, on, off)) => file
                .write_at(if frozen { on } else { off }.as_bytes(), 0)
                .is_ok(),
            None => false,
        }
    }

    /// How many times the kernel killed a process of this group for want of memory since
    /// it was created.
    pub(crate) fn oom_kills(&self) -> u64 {
        let count = match &self.memory {
            Some(Source::V2(dir)) => read_key(&dir.join("memory.events"), "oom_kill"),
            Some(Source::V1(dir)) => read_key(&dir.join("memory.oom_control"), "oom_kill")
                // Kernels before 4.13 have no oom_kill line: a failed charge at the limit
                // is the next best sign.
                .or_else(|| read_number(&dir.join("memory.failcnt"))),
            None => None,
        };
        count.unwrap_or(0).saturating_sub(self.oom_before)
    }

    /// How many times a fork or a new thread was refused at the process limit.
    pub(crate) fn pids_refused(&self) -> u64 {
        let count = match (&self.pids_events, &self.pids) {
            (Some(file), _) => read_key_at(file, "max"),
            (None, Some(src)) => read_key(&src.dir().join("pids.events"), "max"),
            (None, None) => None,
        };
        count.unwrap_or(0).saturating_sub(self.pids_before)
    }

    /// The group's memory use right now, in bytes (for tests and reports).
    pub(crate) fn memory_peak(&self) -> Option<u64> {
        match &self.memory {
            Some(Source::V2(dir)) => read_number(&dir.join("memory.peak")),
            Some(Source::V1(dir)) => read_number(&dir.join("memory.max_usage_in_bytes")),
            None => None,
        }
    }

    /// Whether the bot has a group at all (none: no limit or freezer asked for one).
    pub(crate) fn any(&self) -> bool {
        !self.dirs.is_empty()
    }

    /// Kills every process left in the groups and removes them (a few tries while the
    /// kernel finishes the exits): whether there were groups and every one is gone (so no
    /// process of the bot was left).
    pub(crate) fn kill_and_remove(&mut self) -> bool {
        self.set_frozen(false);
        let mut patience = Patience::new();
        loop {
            let mut left = false;
            for dir in &self.dirs {
                if let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) {
                    for pid in text
                        .split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok())
                    {
                        left = true;
                        // SAFETY: kill only sends a signal; a pid that is gone yields ESRCH.
                        unsafe {
                            libc::kill(pid, libc::SIGKILL);
                        }
                    }
                }
            }
            if !left || !patience.wait() {
                break;
            }
        }
        self.procs.clear();
        self.freeze = None;
        let mut removed = !self.dirs.is_empty();
        for dir in self.dirs.drain(..) {
            let mut patience = Patience::new();
            while fs::remove_dir(&dir).is_err() && dir.exists() && patience.wait() {}
            removed &= !dir.exists();
        }
        removed
    }
}

impl Drop for BotGroups {
    fn drop(&mut self) {
        if !self.dirs.is_empty() {
            let _ = self.kill_and_remove();
        }
    }
}

/// Kills whatever still runs in the group `dir` (a dead run's leftover: a bot whose exit
/// the kernel has not finished) and removes it, a few tries while the exits complete.
pub(crate) fn kill_and_remove_dir(dir: &Path) {
    let mut patience = Patience::new();
    loop {
        if fs::remove_dir(dir).is_ok() || !dir.exists() {
            return;
        }
        if let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) {
            for pid in text
                .split_whitespace()
                .filter_map(|p| p.parse::<i32>().ok())
            {
                // SAFETY: kill only sends a signal; a pid that is gone yields ESRCH.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        if !patience.wait() {
            return;
        }
    }
}

fn read_number(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The number after `key ` in a flat-keyed cgroup file (`memory.events`, `pids.events`).
fn read_key(path: &Path, key: &str) -> Option<u64> {
    let mut text = String::new();
    let mut f = File::open(path).ok()?;
    f.seek(SeekFrom::Start(0)).ok()?;
    f.read_to_string(&mut text).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// [`read_key`] of a file kept open: one `pread` from its start.
fn read_key_at(file: &File, key: &str) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 256];
    let n = file.read_at(&mut buf, 0).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {

    /// The waits between tries: 50 µs, doubling, never over 10 ms; their sum within the
    /// first 500 ms covers dozens of tries.
    #[test]
    fn patience_starts_short_and_doubles_to_ten_milliseconds() {
        let waits: Vec<u128> = (0..12).map(|n| Patience::delay(n).as_micros()).collect();
        assert_eq!(
            waits,
            [50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000, 10_000, 10_000]
        );
        assert_eq!(Patience::delay(u32::MAX).as_micros(), 10_000);
        let tries_in_limit = (0..)
            .scan(Duration::ZERO, |sum, n| {
                *sum += Patience::delay(n);
                (*sum <= Patience::LIMIT).then_some(n)
            })
            .count();
        assert!(tries_in_limit > 50, "{tries_in_limit}");
    }

    use super::*;

    const MOUNTS: &str = "\
25 30 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755
26 25 0:23 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
27 25 0:24 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
28 25 0:25 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct
29 25 0:26 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const OWN: &str = "\
4:memory:/process_api/abc
8:pids:/
2:cpu,cpuacct:/x
0::/user.slice/session-1.scope
";

    #[test]
    fn own_groups_are_found_below_their_mounts() {
        assert_eq!(
            own_dir_v1(OWN, MOUNTS, "memory"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"))
        );
        assert_eq!(
            own_dir_v1(OWN, MOUNTS, "pids"),
            Some(PathBuf::from("/sys/fs/cgroup/pids"))
        );
        assert_eq!(
            own_dir_v1(OWN, MOUNTS, "cpuacct"),
            Some(PathBuf::from("/sys/fs/cgroup/cpu,cpuacct/x"))
        );
        assert_eq!(own_dir_v1(OWN, MOUNTS, "freezer"), None);
        assert_eq!(
            own_dir_v2(OWN, MOUNTS),
            Some(PathBuf::from(
                "/sys/fs/cgroup/unified/user.slice/session-1.scope"
            ))
        );
    }

    #[test]
    fn a_mount_of_a_subtree_is_joined_from_its_root() {
        // In a container, the hierarchy's root is often mounted from a group of the host.
        let mounts = "40 30 0:26 /docker/1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
        assert_eq!(
            own_dir_v2("0::/docker/1/app\n", mounts),
            Some(PathBuf::from("/sys/fs/cgroup/app"))
        );
        assert_eq!(
            own_dir_v2("0::/docker/1\n", mounts),
            Some(PathBuf::from("/sys/fs/cgroup"))
        );
    }

    #[test]
    fn the_description_groups_features_by_version() {
        let cg = Cgroups {
            memory: Some(Source::V1("/m".into())),
            pids: Some(Source::V1("/p".into())),
            freezer: Some(Source::V2("/u".into())),
        };
        assert_eq!(cg.describe(), "cgroup v1 memory+pids, v2 freezer");
        assert_eq!(Cgroups::default().describe(), "no cgroups");
    }
}
