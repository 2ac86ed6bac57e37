//! One bot's jail: what is prepared before its process starts, what runs between that
//! start and the bot's exec (in `zebra-keeper launch`, [`super::launch`], or in a forked
//! child of Zebra without it), and what is cleaned up when its game ends.
//!
//! With namespaces, the forked child (the *keeper*) joins the bot's cgroups, sets its
//! rlimits, unshares new PID, network, mount, IPC, UTS and cgroup namespaces (and a user
//! namespace when Zebra is not root), then forks the *init*, PID 1 of the new PID
//! namespace, which forks the bot (PID 2). The bot builds its wall and execs:
//! 1. its file system view ([`super::view`]): a read-only root of the system's programs,
//!    its own files, a fresh `/proc` of its namespace and a private `/tmp`, entered with
//!    `pivot_root`;
//! 2. every descriptor but stdio closed at exec;
//! 3. a user of its own: when Zebra is root, a host user and group id held for this bot
//!    alone ([`super::run`]), which clears every capability; in a user namespace, its
//!    capabilities dropped; the bounding and ambient sets emptied, `no_new_privs` set;
//! 4. Landlock ([`super::landlock`]) where the kernel has it, then the seccomp filter
//!    ([`super::seccomp`]).
//!
//! When PID 1 of a namespace dies, the kernel kills every other process in it, so nothing
//! the bot started can outlive it, whatever it did; the init exits as soon as the bot does.
//! The keeper waits and then ends the way the bot ended (same exit code or signal), so
//! Zebra sees the bot's own status. The kernel ties the chain to Zebra: the keeper has the
//! parent-death signal for Zebra, the init for the keeper, the bot for the init.
//!
//! In a forked child everything it needs is allocated before the fork, and between fork
//! and exec only async-signal-safe system calls run.

use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::cgroup::BotGroups;
use super::keeper;
use super::landlock;
use super::launch::Launch;
use super::limits::Limits;
use super::netns::Net;
use super::run::{self, BotUser};
use super::seccomp::Filter;
use super::view::{View, ViewInputs};
use super::{level, Mode, Wall};

/// What the child does between fork and exec, all of it prepared in the parent (or what
/// the launcher does, [`super::launch`]).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct ExecPlan {
    /// `cgroup.procs` of each of the bot's groups: writing "0" moves the writer in.
    join: Vec<RawFd>,
    rlimits: Vec<(libc::__rlimit_resource_t, libc::rlim_t, libc::rlim_t)>,
    namespaces: Option<NsPlan>,
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct NsPlan {
    flags: libc::c_int,
    /// `uid_map` and `gid_map` contents when a user namespace is made (not root).
    maps: Option<(CString, CString)>,
    tmpfs_options: CString,
    /// The run's mount point ([`mount_point`]), where the bot's own tmpfs for its temp
    /// files is mounted (without a view), or its view's root.
    tmp: CString,
    /// The keeper writes the bot's pid (as Zebra sees it) here.
    pid_pipe: RawFd,
    /// A network namespace to join (`setns`), kept from the bot's last start
    /// ([`super::netns`]); `None`: `flags` makes one, or the bot has the host's network.
    net: Option<RawFd>,
    /// The bot's file system view; `None`: the host's, with a tmpfs of its own for its temp
    /// files on the run's mount point.
    view: Option<View>,
    /// The host user and group id the bot becomes (Zebra is root).
    user: Option<u32>,
    /// Drop every capability (in a user namespace, where no id change does it).
    drop_caps: bool,
    landlock: Option<landlock::Rules>,
    seccomp: Option<Filter>,
    /// The bot's file size limit, for the init's check when it ends (see `init_loop`).
    file_limit: Option<u64>,
    /// The keeper program the keeper and the init become ([`keeper::helper`]); the
    /// launcher is that program already.
    #[serde(skip)]
    helper: Option<RawFd>,
    /// A staged start ([`super::launch`]): the bot waits here, its view built, until Zebra
    /// releases it with its CPUs (or lets it go).
    #[serde(skip)]
    hold: Option<RawFd>,
}

impl ExecPlan {
    /// The descriptors the plan uses by number.
    pub(super) fn descriptors(&self) -> Vec<RawFd> {
        let mut fds = self.join.clone();
        fds.extend(self.namespaces.as_ref().map(|ns| ns.pid_pipe));
        fds.extend(self.namespaces.as_ref().and_then(|ns| ns.net));
        fds
    }

    /// Makes the bot wait at `hold` once its wall is built (a staged start), where there
    /// is a wall to wait behind: whether there is.
    pub(super) fn hold_at_wall(&mut self, hold: RawFd) -> bool {
        match &mut self.namespaces {
            Some(ns) => {
                ns.hold = Some(hold);
                true
            }
            None => false,
        }
    }

    /// Whether a start can be staged: the bot has a wall to wait behind.
    pub(super) fn can_hold(&self) -> bool {
        self.namespaces.is_some()
    }
}

/// The parts of a bot that decide what its view holds.
#[derive(Clone, Copy, Debug)]
pub struct BotFiles<'a> {
    /// The program, as an absolute path.
    pub program: &'a Path,
    pub args: &'a [String],
    pub dir: Option<&'a Path>,
    /// Who the bot is (name, command, environment): a network namespace kept from one of
    /// its starts goes to its next start only ([`super::netns`]).
    pub identity: &'a str,
}

/// Counters read when a bot's game ends, before its groups are removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Containment {
    /// Processes of the bot the kernel killed at its memory limit.
    pub oom_kills: u64,
    /// Forks or threads refused at its process limit.
    pub pids_refused: u64,
    /// Stragglers killed after the game (the fallback without PID namespaces).
    pub stragglers: usize,
    /// The bot's memory peak, where a cgroup measured it.
    pub memory_peak: Option<u64>,
}

/// One bot's jail.
#[derive(Debug)]
pub struct Jail {
    pub limits: Limits,
    mode: Mode,
    groups: Option<BotGroups>,
    plan: Option<std::sync::Arc<ExecPlan>>,
    pid_read: Option<OwnedFd>,
    pid_write: Option<OwnedFd>,
    host_tmp: Option<PathBuf>,
    tmpdir: Option<PathBuf>,
    namespaces: bool,
    /// The host user id held for this bot (given back when the jail is dropped).
    user: Option<BotUser>,
    /// A staged bot's pid, read while it was set up ([`Jail::await_held`]).
    held_pid: Option<i32>,
    /// The pid pipe, once the pid is read: the bot's fate comes there ([`Jail::take_fate`]).
    fate: Option<OwnedFd>,
    /// The keeper still ending when the bot's end was told, and a pidfd to wait on it.
    keeper: Option<(i32, Option<OwnedFd>)>,
    /// The bot's network namespace, lent by [`super::netns`] and given back once every
    /// process of the bot is gone.
    net: Option<Net>,
    /// Whether the bot uses the run's mount point ([`mount_point`]).
    mounts: bool,
}

static NEXT_TMP: AtomicU64 = AtomicU64::new(1);

/// A new directory `<temp>/zebra-<run>-<n>.tmp`, 0700: a name no other Zebra uses.
fn make_private_dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    loop {
        let dir = std::env::temp_dir().join(format!(
            "{}.tmp",
            run::name(NEXT_TMP.fetch_add(1, Ordering::Relaxed))
        ));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            // A name taken (a leftover no sweep could judge): the next number.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            other => return other.map(|()| dir),
        }
    }
}

/// The run's mount point: a directory of its own (`<temp>/zebra-<run>-<n>.tmp`, 0700, made
/// by [`make_private_dir`], so never one somebody else made first), made at its first use,
/// where every walled bot of this run mounts its view's root (or its temp files' tmpfs) in
/// its own mount namespace. Nothing is ever written into it on the host, so it is made once,
/// not per bot: a directory made and removed for every bot made the file system's inode
/// allocator skip ever more recently freed inodes (ext4's `recently_deleted`) in every file
/// Zebra creates. Each use checks that it is still the directory made (the same device and
/// inode, not a link) and touches it, so that no temp cleaner takes it for old; one
/// gone or changed is replaced by a new one under another name (a bot still mounted on the
/// old path meets no other's files there). The last bot to let go of it removes it; a run
/// killed outright leaves it to the next run's sweep (`sandbox::sweep_stale`), as its other
/// temp directories.
///
/// Counts the bot as a user of it until [`let_go_of_mount_point`].
fn mount_point() -> io::Result<PathBuf> {
    mount_point_of(&MOUNT_POINT)
}

/// [`mount_point`] of `point` (the run's, or a test's).
fn mount_point_of(point: &Mutex<MountPoint>) -> io::Result<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let mut point = point.lock().unwrap_or_else(|e| e.into_inner());
    // Still the very directory made (its device and inode, not followed through a link):
    // owner and mode are not checked, as some file systems keep neither.
    let made = point.made;
    let ours = |dir: &Path| {
        std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() && Some((m.dev(), m.ino())) == made)
    };
    if let Some(dir) = point.dir.clone().filter(|d| ours(d)) {
        if let Ok(path) = CString::new(dir.as_os_str().as_encoded_bytes()) {
            // SAFETY: a valid path; a null times pointer means now.
            unsafe {
                libc::utimensat(libc::AT_FDCWD, path.as_ptr(), std::ptr::null(), 0);
            }
        }
        point.users += 1;
        return Ok(dir);
    }
    let dir = make_private_dir()?;
    let m = std::fs::symlink_metadata(&dir)?;
    point.made = Some((m.dev(), m.ino()));
    point.dir = Some(dir.clone());
    point.users += 1;
    Ok(dir)
}

/// A bot that used the run's mount point is gone. The last one removes the directory, so
/// that none outlives the bots (a series keeps some bot, playing or staged, nearly all the
/// time). Never sooner: removing it detaches the mounts on it in every mount namespace
/// (a bot's temp files' tmpfs without a view), so it must outlive every bot that uses it.
fn let_go_of_mount_point() {
    let_go_of(&MOUNT_POINT);
}

fn let_go_of(point: &Mutex<MountPoint>) {
    let mut held = point.lock().unwrap_or_else(|e| e.into_inner());
    held.users = held.users.saturating_sub(1);
    if held.users == 0 {
        if let Some(dir) = held.dir.take() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The run's mount point, once made (its device and inode), and how many bots use it.
struct MountPoint {
    dir: Option<PathBuf>,
    made: Option<(u64, u64)>,
    users: usize,
}

static MOUNT_POINT: Mutex<MountPoint> = Mutex::new(MountPoint {
    dir: None,
    made: None,
    users: 0,
});

/// Adds the layers of `wall` to a bot's plan; returns the host user id taken for it.
fn build_wall(
    plan: &mut NsPlan,
    wall: &Wall,
    files: BotFiles,
    limits: &Limits,
    dir: &Path,
) -> io::Result<Option<BotUser>> {
    let mut user = None;
    if wall.own_user && plan.maps.is_none() {
        let taken = run::take_bot_user()?;
        plan.user = Some(taken.uid);
        user = Some(taken);
    }
    plan.drop_caps = wall.own_user;
    if wall.view {
        let owner = match &user {
            Some(u) => (u.uid, u.uid),
            // SAFETY: getuid/getgid cannot fail.
            None => unsafe { (libc::getuid(), libc::getgid()) },
        };
        let cwd = std::env::current_dir()?;
        // A relative working directory is relative to Zebra's.
        let own_dir = files.dir.map(|d| cwd.join(d));
        let start = own_dir.clone().unwrap_or(cwd);
        plan.view = Some(View::plan(
            &ViewInputs {
                program: files.program,
                args: files.args,
                dir: own_dir.as_deref(),
                cwd: &start,
                disk: disk_size(limits),
                owner,
                proc: wall.fresh_proc,
            },
            dir,
        )?);
    }
    if wall.landlock > 0 {
        plan.landlock = Some(landlock::Rules::new(wall.landlock, limits.network));
    }
    if wall.seccomp {
        plan.seccomp = Some(Filter::new());
    }
    Ok(user)
}

/// The size of a bot's writable tmpfs: its disk limit, else twice its file size limit,
/// else 256 MiB.
fn disk_size(limits: &Limits) -> u64 {
    limits
        .disk
        .or(limits.file_size.map(|f| f.saturating_mul(2)))
        .unwrap_or(256 << 20)
}

impl Jail {
    /// Prepares a jail for one bot: creates its cgroups (with `freeze` a freezer too), takes
    /// the run's mount point (with namespaces) or makes its private temp directory (without),
    /// and plans the child's setup.
    pub fn prepare(files: BotFiles, limits: &Limits, mode: Mode, freeze: bool) -> io::Result<Jail> {
        let mut jail = Jail {
            limits: *limits,
            mode,
            groups: None,
            plan: None,
            pid_read: None,
            pid_write: None,
            host_tmp: None,
            tmpdir: None,
            namespaces: false,
            user: None,
            held_pid: None,
            fate: None,
            keeper: None,
            net: None,
            mounts: false,
        };
        if mode == Mode::None {
            return Ok(jail);
        }
        let level = level();
        if level.cgroups.any() {
            // With namespaces the keeper and the init live in the bot's groups too: the
            // process limit is the bot's own, so they come on top.
            let helpers = if level.namespaces { 2 } else { 0 };
            jail.groups = Some(BotGroups::create(
                &level.cgroups,
                limits.memory,
                limits.processes.map(|n| n.saturating_add(helpers)),
                freeze,
            )?);
        }
        let memory_by_cgroup = jail.groups.as_ref().is_some_and(|g| g.limits_memory());
        let mut rlimits = vec![(libc::RLIMIT_CORE, 0, 0)];
        if let Some(cpu) = limits.cpu {
            // SIGXCPU at the limit, SIGKILL two seconds later for a bot that catches it.
            // Whole seconds only: a fraction rounds up.
            let s = (cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0)).max(1);
            rlimits.push((libc::RLIMIT_CPU, s, s + 2));
        }
        if let Some(f) = limits.file_size {
            rlimits.push((libc::RLIMIT_FSIZE, f, f));
        }
        if let Some(n) = limits.open_files {
            rlimits.push((libc::RLIMIT_NOFILE, n as u64, n as u64));
        }
        if let (Some(m), false) = (limits.memory, memory_by_cgroup) {
            // No cgroup: an address-space limit is the only memory limit there is (it also
            // counts reserved, untouched memory, see docs/src/operators/limits.md).
            rlimits.push((libc::RLIMIT_AS, m, m));
        }
        // With namespaces, a mount point: the view's root, or the tmpfs of its temp files,
        // each bot's own in its own mount namespace, so one directory of the run serves
        // them all. Without, a directory of its own on the host for its temp files.
        let dir = if level.namespaces {
            let dir = mount_point()?;
            jail.mounts = true;
            dir
        } else {
            let dir = make_private_dir()?;
            jail.host_tmp = Some(dir.clone());
            dir
        };
        let namespaces = if level.namespaces {
            let (r, w) = pipe()?;
            jail.pid_read = Some(r);
            let mut plan = ns_plan(limits, level.user_namespace, w.as_raw_fd(), &dir)?;
            jail.pid_write = Some(w);
            jail.namespaces = true;
            let identity = files.identity;
            jail.user = build_wall(&mut plan, &level.wall, files, limits, &dir)?;
            if let (None, Some(uid)) = (&plan.view, plan.user) {
                // Without a view, the temp files' tmpfs is the bot's own user's: mounted as
                // root before the bot becomes that user, a root-owned 0700 one would refuse
                // it every file.
                plan.tmpfs_options = tmpfs_options(limits, Some(uid))?;
            }
            // A namespace kept from this bot's last start, where one can be (see `netns`): as
            // root (a namespace of the machine's user namespace), the bot a user of its own
            // without any capability (it cannot change the namespace, nor leave its groups),
            // and groups to say when every process of it is gone.
            if plan.flags & libc::CLONE_NEWNET != 0
                && plan.maps.is_none()
                && plan.user.is_some()
                && plan.drop_caps
                && jail.groups.as_ref().is_some_and(BotGroups::any)
                && !super::disabled("netpool")
            {
                match Net::take(identity) {
                    Ok(net) => {
                        plan.flags &= !libc::CLONE_NEWNET;
                        plan.net = Some(net.fd());
                        jail.net = Some(net);
                    }
                    Err(e) => tracing::debug!("a bot makes its own network namespace: {e}"),
                }
            }
            jail.tmpdir = Some(if plan.view.is_some() {
                PathBuf::from("/tmp")
            } else {
                dir.clone()
            });
            Some(plan)
        } else {
            jail.tmpdir = Some(dir.clone());
            super::become_subreaper();
            None
        };
        jail.plan = Some(std::sync::Arc::new(ExecPlan {
            join: jail
                .groups
                .as_ref()
                .map(|g| g.join_fds())
                .unwrap_or_default(),
            rlimits,
            namespaces,
        }));
        Ok(jail)
    }

    /// The bot's setup as a launch ([`super::launch`]), when it has one and the launcher
    /// is there; `parent` is Zebra's pid, `cpus` where the bot runs, `env` what its
    /// environment adds to Zebra's (the private temp directory comes on top).
    pub(crate) fn launch(
        &self,
        parent: i32,
        cpus: Option<&[usize]>,
        env: &[(String, String)],
        hold: Option<RawFd>,
    ) -> Option<Launch> {
        let mut env: Vec<(OsString, OsString)> =
            env.iter().map(|(k, v)| (k.into(), v.into())).collect();
        if let Some(dir) = &self.tmpdir {
            env.push(("TMPDIR".into(), dir.into()));
        }
        Launch::new(self.plan.as_deref()?, parent, cpus, &env, hold)
    }

    /// Whether this bot's start can be staged ([`super::launch`]): it is launched, and
    /// has a wall to wait behind.
    pub(crate) fn can_stage(&self) -> bool {
        super::launch::launcher().is_some()
            && !super::disabled("stage")
            && self.plan.as_deref().is_some_and(ExecPlan::can_hold)
    }

    /// Wires the jail into the command of a forked start: the private temp directory and
    /// the child's setup.
    pub(crate) fn configure(&self, cmd: &mut tokio::process::Command) {
        if let Some(dir) = &self.tmpdir {
            cmd.env("TMPDIR", dir);
        }
        if let Some(plan) = &self.plan {
            let plan = plan.clone();
            // SAFETY: `enter` makes only async-signal-safe calls and allocates nothing.
            unsafe {
                cmd.pre_exec(move || enter(&plan));
            }
        }
    }

    /// After the spawn: the bot's own pid when a keeper stands between (for its CPU time),
    /// else `direct`.
    pub(crate) fn bot_pid(&mut self, direct: Option<i32>) -> Option<i32> {
        if let Some(pid) = self.held_pid {
            return Some(pid);
        }
        self.pid_write.take();
        let Some(r) = self.pid_read.take() else {
            return direct;
        };
        // The bot writes its pid right after its fork; five seconds is only a guard against
        // a keeper that died.
        let pid = read_word(&r, 5000).map(i32::from_ne_bytes);
        self.fate = pid.map(|_| r);
        pid.or(direct)
    }

    /// Where the bot's wait status comes once it has ended (its init writes it there, see
    /// `keeper::init_loop`), before its namespaces are torn down; `None` without namespaces
    /// (or once taken).
    pub(crate) fn take_fate(&mut self) -> Option<OwnedFd> {
        self.fate.take()
    }

    /// A staged start: waits (ten seconds at most) until the bot has built its wall and
    /// waits for its release, or its setup ended; keeps its pid for [`Jail::bot_pid`].
    pub(crate) fn await_held(&mut self) {
        self.pid_write.take();
        let Some(r) = self.pid_read.take() else {
            return;
        };
        self.held_pid = read_word(&r, 5000).map(i32::from_ne_bytes);
        // The word a held bot writes once walled; if its setup failed instead, the init's
        // word of its end (or nothing): then no fate is kept, and its end is its keeper's.
        if self.held_pid.is_some() && read_word(&r, 10_000) == Some([0xff; 4]) {
            self.fate = Some(r);
        }
    }

    /// The bot's end was told by its init ([`Jail::take_fate`]): `keeper` (its pid, Zebra's
    /// child, not yet reaped) ends by itself once it has reaped the init; [`Jail::finish`]'s
    /// removal waits for that first.
    pub(crate) fn after_keeper(&mut self, keeper: i32) {
        // SAFETY: pidfd_open returns a new descriptor we then own, or -1 (before 5.3).
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, keeper, 0) } as RawFd;
        let pidfd = (fd >= 0).then(|| {
            // SAFETY: a fresh descriptor of ours.
            unsafe { OwnedFd::from_raw_fd(fd) }
        });
        self.keeper = Some((keeper, pidfd));
    }

    /// Stops or resumes the bot's whole process tree: through the cgroup freezer where
    /// there is one (every process, even those that left the group), else by signalling
    /// its process group.
    pub fn freeze(&self, pgid: Option<i32>, frozen: bool) {
        if self.groups.as_ref().is_some_and(|g| g.set_frozen(frozen)) {
            return;
        }
        if let Some(pgid) = pgid {
            // SAFETY: killpg only sends a signal.
            unsafe {
                libc::killpg(pgid, if frozen { libc::SIGSTOP } else { libc::SIGCONT });
            }
        }
    }

    /// Whether [`Jail::freeze`] uses a cgroup freezer.
    pub fn freezes_by_cgroup(&self) -> bool {
        self.groups.as_ref().is_some_and(|g| g.can_freeze())
    }

    /// Whether the bot went over its process limit so far.
    pub(crate) fn pids_refused(&self) -> u64 {
        self.groups.as_ref().map_or(0, |g| g.pids_refused())
    }

    /// The bot's game is over (its process reaped): reads the counters, kills whatever is
    /// left, removes the groups and the temp directory.
    pub fn finish(&mut self) -> Containment {
        let mut c = Containment::default();
        if let Some(g) = self.groups.as_mut() {
            c.oom_kills = g.oom_kills();
            c.pids_refused = g.pids_refused();
            c.memory_peak = g.memory_peak();
        }
        if self.mode != Mode::None && !self.namespaces {
            c.stragglers = super::reap_stragglers();
        }
        // The rest after the game: its keeper and init may still be ending (see
        // [`super::janitor`]).
        let (groups, dir, user) = (self.groups.take(), self.host_tmp.take(), self.user.take());
        let (keeper, net) = (self.keeper.take(), self.net.take());
        if groups.is_some() || dir.is_some() || user.is_some() || keeper.is_some() {
            super::janitor::leave(move || {
                if let Some((pid, pidfd)) = keeper {
                    wait_for_keeper(pid, pidfd);
                }
                if let Some(mut g) = groups {
                    // Every process of the bot (its keeper and init too) was in its groups:
                    // with them removed, none is left in its network namespace.
                    if g.kill_and_remove() {
                        if let Some(net) = net {
                            net.give_back();
                        }
                    }
                }
                if let Some(dir) = dir {
                    let _ = std::fs::remove_dir_all(dir);
                }
                drop(user);
            });
        }
        c
    }

    /// Whether this bot runs as PID 1 of its own namespace.
    pub fn namespaced(&self) -> bool {
        self.namespaces
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        if let Some(dir) = self.host_tmp.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
        if self.mounts {
            let_go_of_mount_point();
        }
    }
}

/// Waits (a second at most) until the keeper `pid` has ended (its init reaped, so its
/// namespaces are gone), through its pidfd where there is one, else by polling; kills its
/// group if it outstays that.
fn wait_for_keeper(pid: i32, pidfd: Option<OwnedFd>) {
    let ended = match &pidfd {
        Some(fd) => readable_within(fd.as_raw_fd(), 1000),
        None => {
            let gone = || {
                std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
                    stat.rsplit_once(") ")
                        .is_some_and(|(_, rest)| rest.starts_with('Z'))
                })
            };
            let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
            while !gone() && std::time::Instant::now() < until {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            gone()
        }
    };
    if !ended {
        // SAFETY: killpg only sends a signal.
        unsafe {
            libc::killpg(pid, libc::SIGKILL);
        }
    }
}

/// Whether `fd` becomes readable within `ms` milliseconds. A signal that interrupts the
/// wait (a bot's SIGCHLD to this thread, say) does not end it: giving up early closed the
/// pid pipe under a bot about to write to it, which then died of SIGPIPE.
fn readable_within(fd: RawFd, ms: i32) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(ms.max(0) as u64);
    loop {
        let left = until.saturating_duration_since(std::time::Instant::now());
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll only touches the struct we pass.
        match unsafe { libc::poll(&mut pfd, 1, left.as_millis() as i32) } {
            1 => return true,
            n if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => return false,
        }
    }
}

/// Four bytes from `r`, waiting at most `ms` milliseconds for them to come.
fn read_word(r: &OwnedFd, ms: i32) -> Option<[u8; 4]> {
    let mut buf = [0u8; 4];
    if !readable_within(r.as_raw_fd(), ms) {
        return None;
    }
    // SAFETY: read only touches the buffer we pass.
    let n = loop {
        let n = unsafe { libc::read(r.as_raw_fd(), buf.as_mut_ptr().cast(), 4) };
        if n >= 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break n;
        }
    };
    (n == 4).then_some(buf)
}

/// A close-on-exec pipe: (read end, write end).
pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors we then own.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])))
    }
}

/// The options of the tmpfs for a bot's temp files without a view: its disk limit, 0700,
/// owned by `owner` (its own user) if given, else by whoever mounts it.
fn tmpfs_options(limits: &Limits, owner: Option<u32>) -> io::Result<CString> {
    let size = disk_size(limits);
    let owner = owner.map_or(String::new(), |id| format!(",uid={id},gid={id}"));
    Ok(CString::new(format!("size={size},mode=0700{owner}"))?)
}

fn ns_plan(
    limits: &Limits,
    user: bool,
    pid_pipe: RawFd,
    tmp: &std::path::Path,
) -> io::Result<NsPlan> {
    let mut flags = libc::CLONE_NEWPID
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_NEWCGROUP;
    if !limits.network {
        flags |= libc::CLONE_NEWNET;
    }
    let maps = if user {
        flags |= libc::CLONE_NEWUSER;
        // SAFETY: getuid/getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        Some((
            CString::new(format!("{uid} {uid} 1\n"))?,
            CString::new(format!("{gid} {gid} 1\n"))?,
        ))
    } else {
        None
    };
    Ok(NsPlan {
        flags,
        maps,
        tmpfs_options: tmpfs_options(limits, None)?,
        tmp: CString::new(tmp.as_os_str().as_encoded_bytes())?,
        pid_pipe,
        net: None,
        view: None,
        user: None,
        drop_caps: false,
        landlock: None,
        seccomp: None,
        file_limit: limits.file_size,
        helper: keeper::helper(),
        hold: None,
    })
}

/// Runs in the forked child (or the launcher), before exec.
pub(super) fn enter(plan: &ExecPlan) -> io::Result<()> {
    // SAFETY (whole function): only async-signal-safe system calls on memory prepared
    // before the fork.
    unsafe {
        for &fd in &plan.join {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                return Err(io::Error::last_os_error());
            }
        }
        for &(resource, soft, hard) in &plan.rlimits {
            let lim = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &lim) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let Some(ns) = &plan.namespaces else {
            // No wall to do it: whatever Zebra itself inherited open stays behind.
            close_all_at_exec();
            return Ok(());
        };
        // The keeper and the init exec zebra-keeper only once set up, or never (without
        // it): they must not keep Zebra's signal handlers meanwhile (a SIGTERM to them
        // would run a handler of Zebra's instead of ending them).
        for sig in 1..32 {
            if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        if libc::unshare(ns.flags) != 0 {
            return Err(io::Error::last_os_error());
        }
        if let Some(net) = ns.net {
            if libc::setns(net, libc::CLONE_NEWNET) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        if let Some((uid_map, gid_map)) = &ns.maps {
            write_file(c"/proc/self/setgroups", b"deny")?;
            write_file(c"/proc/self/uid_map", uid_map.as_bytes())?;
            write_file(c"/proc/self/gid_map", gid_map.as_bytes())?;
        }
        // Between the keeper and the init: the bot's wait status, as the init saw it.
        let mut status_pipe = [0; 2];
        if libc::pipe2(status_pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        // With zebra-keeper: the keeper and the init each hold the write end until the
        // program's `main` runs, and the bot waits for its end of file before it builds its
        // view. So both load their libraries from the host's root, never from a view the
        // bot's pivot_root (which moves the whole mount namespace) half made.
        let mut ready = [-1; 2];
        if ns.helper.is_some() && libc::pipe2(ready.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        let init = libc::fork();
        if init < 0 {
            return Err(io::Error::last_os_error());
        }
        if init > 0 {
            close_all_but([status_pipe[0], ready[1]], ns.helper);
            if let Some(helper) = ns.helper {
                keeper::exec_helper(helper, c"keep", init, status_pipe[0], None, ready[1]);
                libc::close(ready[1]);
            }
            keeper::keep(init, status_pipe[0]);
        }
        // The init: PID 1 of the new namespace. The kernel spares PID 1 every signal it has
        // no handler for (SIGXCPU, SIGXFSZ, SIGTERM...), so the bot must not be PID 1: it
        // runs as PID 2 under this init, with the ordinary fate of every signal.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if ns.flags & libc::CLONE_NEWNET != 0 {
            loopback_up();
        }
        let bot = libc::fork();
        if bot < 0 {
            return Err(io::Error::last_os_error());
        }
        if bot > 0 {
            // The scan needs the view (the bot's only writable place is its /tmp).
            let file_limit = ns.view.as_ref().and(ns.file_limit);
            // Not exec'd (launched): the init also tells Zebra, on the pid pipe, how the
            // bot ended.
            let fate = if ns.helper.is_none() { ns.pid_pipe } else { -1 };
            close_all_but([status_pipe[1], ready[1]], ns.helper.or(Some(ns.pid_pipe)));
            if let Some(helper) = ns.helper {
                keeper::exec_helper(helper, c"init", bot, status_pipe[1], file_limit, ready[1]);
                libc::close(ready[1]);
            }
            keeper::init_loop(bot, status_pipe[1], file_limit, fate);
        }
        // The bot: dies with the init; tells Zebra its pid as Zebra's machine sees it
        // (/proc is still the host's here, so /proc/self names the host pid).
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if ready[0] >= 0 {
            libc::close(ready[1]);
            let mut byte = 0u8;
            while libc::read(ready[0], (&mut byte as *mut u8).cast(), 1) < 0
                && *libc::__errno_location() == libc::EINTR
            {}
            libc::close(ready[0]);
        }
        let mut link = [0u8; 32];
        let n = libc::readlink(c"/proc/self".as_ptr(), link.as_mut_ptr().cast(), link.len());
        let mut pid: i32 = 0;
        if n > 0 {
            for &d in &link[..n as usize] {
                if d.is_ascii_digit() {
                    pid = pid * 10 + (d - b'0') as i32;
                }
            }
        }
        let bytes = pid.to_ne_bytes();
        libc::write(ns.pid_pipe, bytes.as_ptr().cast(), 4);
        wall(ns)
    }
}

/// The bot's side of the wall, in the bot's process just before exec: its view, its
/// descriptors, its user, Landlock and seccomp, in that order (each later step would
/// forbid an earlier one).
unsafe fn wall(ns: &NsPlan) -> io::Result<()> {
    // Our mounts must not reach the host's namespace.
    if libc::mount(
        std::ptr::null(),
        c"/".as_ptr(),
        std::ptr::null(),
        libc::MS_REC | libc::MS_PRIVATE,
        std::ptr::null(),
    ) != 0
    {
        return Err(io::Error::last_os_error());
    }
    match &ns.view {
        Some(view) => view.enter()?,
        None => {
            if libc::mount(
                c"tmpfs".as_ptr(),
                ns.tmp.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                ns.tmpfs_options.as_ptr().cast(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
        }
    }
    if let Some(hold) = ns.hold {
        released(hold, ns.pid_pipe)?;
    }
    // Whatever descriptor Zebra itself inherited without close-on-exec stays behind.
    close_all_at_exec();
    if ns.drop_caps || ns.user.is_some() {
        // The bounding set first: emptying it needs a capability the id change removes.
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
    }
    if let Some(id) = ns.user {
        // From root to an ordinary id: the kernel clears every capability.
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setresgid(id, id, id) != 0
            || libc::setresuid(id, id, id) != 0
        {
            return Err(io::Error::last_os_error());
        }
    } else if ns.drop_caps {
        drop_capabilities()?;
    }
    if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
        return Err(io::Error::last_os_error());
    }
    if let Some(rules) = &ns.landlock {
        rules.restrict_self()?;
    }
    if let Some(filter) = &ns.seccomp {
        filter.install()?;
    }
    Ok(())
}

/// A staged bot's wait: it tells Zebra on `said` (its pid pipe) that its wall is built, then
/// waits until Zebra writes its release on `hold` ([`super::launch::release`]: a byte, 1
/// when a CPU set follows), and is pinned to that set with its init. End of file first:
/// Zebra let it go, and it ends here, its program never run.
unsafe fn released(hold: RawFd, said: RawFd) -> io::Result<()> {
    const SIZE: usize = std::mem::size_of::<libc::cpu_set_t>();
    libc::write(said, [0xffu8; 4].as_ptr().cast(), 4);
    libc::close(said);
    let mut message = [0u8; 1 + SIZE];
    let mut got = 0;
    while got < message.len() {
        let n = libc::read(
            hold,
            message[got..].as_mut_ptr().cast(),
            message.len() - got,
        );
        if n < 0 && *libc::__errno_location() == libc::EINTR {
            continue;
        }
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    libc::close(hold);
    match (got, message[0]) {
        (0, _) => libc::_exit(0),
        (1, 0) => Ok(()),
        (n, 1) if n == message.len() => {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            // SAFETY: cpu_set_t is a plain bit array of exactly SIZE bytes.
            std::ptr::copy_nonoverlapping(
                message[1..].as_ptr(),
                (&mut set as *mut libc::cpu_set_t).cast::<u8>(),
                SIZE,
            );
            // Its init (PID 1 here) too: its wake-ups stay off the CPU it was set up on.
            libc::sched_setaffinity(1, SIZE, &set);
            if libc::sched_setaffinity(0, SIZE, &set) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        }
        _ => Err(io::Error::other("a garbled release")),
    }
}

/// Marks every descriptor above stdio close-on-exec: `close_range` where the kernel has it
/// (5.11), else one by one up to the open-files limit. Async-signal-safe.
pub(super) unsafe fn close_all_at_exec() {
    const CLOSE_RANGE_CLOEXEC: libc::c_int = 1 << 2;
    if libc::close_range(3, libc::c_uint::MAX, CLOSE_RANGE_CLOEXEC) == 0 {
        return;
    }
    let mut lim: libc::rlimit = std::mem::zeroed();
    let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
        lim.rlim_cur.min(1 << 20) as libc::c_int
    } else {
        4096
    };
    for fd in 3..top {
        libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
    }
}

/// Empties the calling thread's capability sets (`capset`).
unsafe fn drop_capabilities() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let data = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    if libc::syscall(libc::SYS_capset, &header as *const Header, data.as_ptr()) != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Closes every descriptor but those of `keep` (negative ones are none) and `also`.
unsafe fn close_all_but(keep: [RawFd; 2], also: Option<RawFd>) {
    let first = keep[0];
    let or_first = |fd: RawFd| if fd < 0 { first } else { fd };
    let mut kept = [first, or_first(keep[1]), also.map_or(first, or_first)];
    kept.sort_unstable();
    let mut from: libc::c_uint = 0;
    let mut ok = true;
    for k in kept.map(|k| k as libc::c_uint) {
        if k > from {
            ok &= libc::close_range(from, k - 1, 0) == 0;
        }
        from = from.max(k + 1);
    }
    ok &= libc::close_range(from, libc::c_uint::MAX, 0) == 0;
    if !ok {
        for fd in 0..4096 {
            if !kept.contains(&fd) {
                libc::close(fd);
            }
        }
    }
}

unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let n = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    libc::close(fd);
    if n != bytes.len() as isize {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A new network namespace has only a loopback interface, and it is down.
pub(super) unsafe fn loopback_up() {
    let s = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
    if s < 0 {
        return;
    }
    let mut req: libc::ifreq = std::mem::zeroed();
    req.ifr_name[0] = b'l' as libc::c_char;
    req.ifr_name[1] = b'o' as libc::c_char;
    if libc::ioctl(s, libc::SIOCGIFFLAGS, &mut req) == 0 {
        req.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        libc::ioctl(s, libc::SIOCSIFFLAGS, &req);
    }
    libc::close(s);
}

/// Whether namespaces, with the layers of `wall`, work here: a trivial program is run
/// through exactly the setup a bot gets (no cgroups, no limits). `Err` says what failed.
pub fn probe(wall: &Wall) -> Result<(), String> {
    let limits = Limits::default();
    // SAFETY: geteuid cannot fail.
    let user_ns = unsafe { libc::geteuid() } != 0;
    let program = ["/bin/true", "/usr/bin/true"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
        .ok_or("no /bin/true to run")?;
    let (r, w) = pipe().map_err(|e| e.to_string())?;
    let dir = make_private_dir().map_err(|e| format!("cannot create a temp directory: {e}"))?;
    let result = (|| {
        let mut ns = ns_plan(&limits, user_ns, w.as_raw_fd(), &dir).map_err(|e| e.to_string())?;
        let files = BotFiles {
            program,
            args: &[],
            dir: None,
            identity: "probe",
        };
        let _user = build_wall(&mut ns, wall, files, &limits, &dir).map_err(|e| e.to_string())?;
        let plan = std::sync::Arc::new(ExecPlan {
            join: Vec::new(),
            rlimits: Vec::new(),
            namespaces: Some(ns),
        });
        let mut cmd = std::process::Command::new(program);
        cmd.stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        use std::os::unix::process::CommandExt;
        // SAFETY: as in `Jail::configure`.
        unsafe {
            cmd.pre_exec(move || enter(&plan));
        }
        match super::launch::ordinary(|| cmd.status()) {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(format!("a walled test program ended with {s}")),
            Err(e) => Err(e.to_string()),
        }
    })();
    drop(w);
    drop(r);
    let _ = std::fs::remove_dir(&dir);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The run's mount point is made once for all its bots, and one removed or swapped for
    /// a link (a temp cleaner, another user) is never used again: the next bot gets a new
    /// directory of Zebra's own. Removed only once no bot uses it.
    #[test]
    fn the_run_s_mount_point_is_shared_checked_and_replaced_when_changed() {
        let point = Mutex::new(MountPoint {
            dir: None,
            made: None,
            users: 0,
        });
        let mount_point = || mount_point_of(&point);
        let first = mount_point().unwrap();
        assert_eq!(mount_point().unwrap(), first, "one for every bot");
        let_go_of(&point);
        assert!(first.is_dir(), "still used");
        // Swapped for a link to a directory of somebody else's choosing.
        let elsewhere = std::env::temp_dir().join(format!("zebra-mp-test-{}", std::process::id()));
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::remove_dir(&first).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &first).unwrap();
        let second = mount_point().unwrap();
        assert_ne!(second, first);
        let meta = std::fs::symlink_metadata(&second).unwrap();
        assert!(meta.is_dir());
        std::fs::remove_file(&first).unwrap();
        std::fs::remove_dir(&elsewhere).unwrap();
        // In use, it stays; the last bot to let go removes it.
        assert!(second.is_dir(), "still used");
        let_go_of(&point);
        assert!(second.is_dir(), "still used");
        let_go_of(&point);
        assert!(!second.exists());
        // The next bot gets a new one.
        let third = mount_point().unwrap();
        assert!(third.is_dir());
        let_go_of(&point);
        assert!(!third.exists());
    }

    /// A signal that reaches the thread waiting on a bot's pid pipe (a SIGCHLD, in Zebra)
    /// does not end the wait: ending it closed the pipe under a bot about to write to it.
    #[test]
    fn a_wait_on_the_pid_pipe_outlasts_a_signal() {
        extern "C" fn nothing(_: libc::c_int) {}
        // SAFETY: a handler that does nothing, for a signal nothing else here uses; no
        // SA_RESTART, and poll is never restarted anyway.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = nothing as extern "C" fn(libc::c_int) as usize;
            libc::sigaction(libc::SIGUSR2, &action, std::ptr::null_mut());
        }
        let (r, w) = pipe().unwrap();
        // SAFETY: pthread_self cannot fail.
        let me = unsafe { libc::pthread_self() };
        let writer = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            // SAFETY: the waiting thread lives until this thread is joined.
            unsafe {
                libc::pthread_kill(me, libc::SIGUSR2);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            std::fs::File::from(w).write_all(&[1, 2, 3, 4]).unwrap();
        });
        assert_eq!(read_word(&r, 10_000), Some([1, 2, 3, 4]));
        writer.join().unwrap();
    }
}
