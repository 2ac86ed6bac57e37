//! Starting a walled bot without forking Zebra.
//!
//! A fork copies the whole referee's page tables, and until the child execs, every page
//! either side writes is copied again (in the daemon: SQLite's pages, other games'
//! buffers, with a TLB flush on each of Zebra's threads). A walled bot's setup (cgroups,
//! namespaces, its view) takes milliseconds, all of it in such a child. So where the
//! `zebra-keeper` program is there ([`super::keeper::helper`]), Zebra instead spawns it
//! the way `posix_spawn` does (the calling thread waits only until the program runs; no
//! memory is copied) as `zebra-keeper launch PLAN REPORT PROGRAM ARG0 [ARG...]`:
//! - `PLAN` is a memory file holding the jail's plan (the one [`super::jail`] otherwise
//!   runs in a forked child), Zebra's pid, the bot's CPUs and its environment, as JSON;
//! - the launcher, itself run with Zebra's environment (it works outside the wall: no
//!   library the bot's environment names is loaded into it), does that setup: it becomes
//!   the keeper, forks the init and the bot, and the bot execs `PROGRAM` with `ARG0
//!   ARG...` and its environment, where it starts (in its view, or the working directory
//!   the launcher was given);
//! - a setup error is written to `REPORT` (an errno and a message), which the bot's exec
//!   closes: Zebra reads it to its end, as the standard library's spawn reads its own error
//!   pipe, so a bot that could not be walled never counts as started.
//!
//! A start can be **staged** ([`BotProcess::stage`](crate::bot::BotProcess::stage)): the
//! plan then names a release pipe too, the launcher runs on a spare CPU, and the bot, its
//! wall built (groups, namespaces, view), waits on that pipe before its last steps (its
//! user, Landlock, seccomp) and its exec. [`release`] writes the CPUs of its game there; the
//! pipe's end unread (Zebra let it go) ends it, its program never run.
//!
//! The plan's descriptors (the cgroups' `cgroup.procs`, the pid pipe) reach the launcher by
//! number: they are made inheritable only while the launcher is spawned, under a lock
//! every other spawn of this process takes too ([`ordinary`]), and the launcher marks them
//! close-on-exec again before anything else.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io::{self, Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use super::jail::{self, ExecPlan};
use super::keeper;

/// Taken to write by a launch while descriptors are inheritable, to read by any other bot
/// spawn (which must not inherit them).
static SPAWNS: RwLock<()> = RwLock::new(());

/// Where bots are launched: the launcher's path when there is one and
/// `ZEBRA_SANDBOX_DISABLE` does not name `launch`, as `zebra doctor` says it.
pub fn launcher() -> Option<PathBuf> {
    on().then(keeper::helper_path).flatten()
}

/// Whether launches are on (checked once).
fn on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !super::disabled("launch") && Path::new("/proc/self/fd").is_dir())
}

/// A launch prepared for one bot: the plan written into its file, the report pipe open.
pub(crate) struct Launch {
    helper: PathBuf,
    plan: OwnedFd,
    report_read: OwnedFd,
    report_write: OwnedFd,
    /// Descriptors the launcher uses by number.
    inherit: Vec<RawFd>,
}

/// What the launcher reads: Zebra's pid, the bot's CPUs (a staged start's: where it is set
/// up), the bot's whole environment (`NAME=value`: the launcher itself runs with Zebra's),
/// the jail's plan and, for a staged start, the descriptor it waits on for its release.
type Order<P> = (i32, Option<Vec<usize>>, Vec<CString>, P, Option<RawFd>);

impl Launch {
    /// `None` when there is no `zebra-keeper` (or no `/proc` to exec it through, or
    /// launches are turned off): the bot is then set up in a forked child. `env`: what the
    /// bot's environment adds to Zebra's.
    pub(super) fn new(
        plan: &ExecPlan,
        parent: i32,
        cpus: Option<&[usize]>,
        env: &[(OsString, OsString)],
        hold: Option<RawFd>,
    ) -> Option<Launch> {
        if !on() {
            return None;
        }
        let helper = PathBuf::from(format!("/proc/self/fd/{}", keeper::helper()?));
        let order: Order<&ExecPlan> = (
            parent,
            cpus.map(<[usize]>::to_vec),
            environment(env),
            plan,
            hold,
        );
        let prepared = (|| -> io::Result<_> {
            let order = serde_json::to_vec(&order).map_err(io::Error::other)?;
            // A memory file, not a pipe: no size it could block on, and nobody needs to read
            // it before the launcher runs.
            // SAFETY: memfd_create returns a new descriptor we then own.
            let plan_fd = unsafe { libc::memfd_create(c"zebra-plan".as_ptr(), libc::MFD_CLOEXEC) };
            if plan_fd < 0 {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: a fresh descriptor of ours.
            let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(plan_fd) });
            file.write_all(&order)?;
            file.rewind()?;
            let (report_read, report_write) = jail::pipe()?;
            Ok((
                above_stdio(file.into())?,
                report_read,
                above_stdio(report_write)?,
            ))
        })();
        let (plan_fd, report_read, report_write) = match prepared {
            Ok(fds) => fds,
            Err(e) => {
                tracing::warn!("a bot starts as a fork of Zebra: its launch failed ({e})");
                return None;
            }
        };
        let mut inherit = plan.descriptors();
        inherit.extend([plan_fd.as_raw_fd(), report_write.as_raw_fd()]);
        inherit.extend(hold);
        Some(Launch {
            helper,
            plan: plan_fd,
            report_read,
            report_write,
            inherit,
        })
    }

    /// The command that runs `program` (named `arg0`, with `args`) through the launcher;
    /// the caller adds stdio, working directory and process group (the environment is in
    /// the plan).
    pub(crate) fn command(
        &self,
        program: &Path,
        arg0: &OsStr,
        args: &[String],
    ) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(&self.helper);
        // The launcher runs outside the wall with Zebra's own environment: nothing the bot's
        // adds (a library to preload, say) reaches it; the bot gets its own at its exec.
        cmd.arg0(keeper::PROGRAM)
            .arg("launch")
            .arg(self.plan.as_raw_fd().to_string())
            .arg(self.report_write.as_raw_fd().to_string())
            .arg(program)
            .arg(arg0)
            .args(args);
        cmd
    }

    /// Spawns through `spawn` (the command of [`Launch::command`]) with the plan's
    /// descriptors inheritable. The launcher then sets the bot up on its own: what it made
    /// of it comes with [`Pending::wait`].
    pub(crate) fn spawn<T>(
        self,
        spawn: impl FnOnce() -> io::Result<T>,
    ) -> io::Result<(T, Pending)> {
        let child = {
            let _alone = SPAWNS.write().unwrap_or_else(|e| e.into_inner());
            set_cloexec(&self.inherit, false);
            let child = spawn();
            set_cloexec(&self.inherit, true);
            child
        }?;
        drop(self.plan);
        drop(self.report_write);
        Ok((
            child,
            Pending {
                report: self.report_read,
            },
        ))
    }
}

/// A launcher running: its report still to read.
pub(crate) struct Pending {
    report: OwnedFd,
}

impl Pending {
    /// Waits until the bot has exec'd (`Ok`) or its setup failed (what stopped it).
    pub(crate) fn wait(self) -> io::Result<()> {
        let mut report = Vec::new();
        std::fs::File::from(self.report).read_to_end(&mut report)?;
        match report.len() {
            0 => Ok(()),
            _ => Err(decode(&report)),
        }
    }
}

/// A release pipe for a staged start: (the launcher's end, above stdio; Zebra's end).
pub(crate) fn hold_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = jail::pipe()?;
    Ok((above_stdio(read)?, write))
}

/// Releases a staged bot (see [`jail`]'s `released`): it is pinned to `cpus` (any: `None`)
/// and execs its program.
pub(crate) fn release(go: OwnedFd, cpus: Option<&[usize]>) -> io::Result<()> {
    let mut message = vec![u8::from(cpus.is_some())];
    if let Some(cpus) = cpus {
        let set = crate::bot::process::cpu_set(cpus);
        // SAFETY: cpu_set_t is a plain bit array; we read exactly its bytes.
        message.extend_from_slice(unsafe {
            std::slice::from_raw_parts(
                (&set as *const libc::cpu_set_t).cast::<u8>(),
                std::mem::size_of::<libc::cpu_set_t>(),
            )
        });
    }
    // Fewer bytes than a pipe takes at once: written whole, never blocking.
    std::fs::File::from(go).write_all(&message)
}

/// `fd`, or a copy of it above stdio (0-2 are the bot's: a Zebra started with one of them
/// closed gets new descriptors there, which the spawn's stdio would overwrite).
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC returns a new descriptor we then own.
    let copy = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if copy < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor of ours.
    Ok(unsafe { OwnedFd::from_raw_fd(copy) })
}

/// Any spawn but a launch, in a process that launches bots: never while a launch's
/// descriptors are inheritable (a child that got them would hold a bot's `cgroup.procs`,
/// and Zebra would wait on the launch's report for as long as that child lives).
pub fn ordinary<T>(spawn: impl FnOnce() -> T) -> T {
    let _shared = SPAWNS.read().unwrap_or_else(|e| e.into_inner());
    spawn()
}

/// The first steps of every bot's start, launched or forked: the parent-death signal (Zebra
/// killed outright cannot kill the bot: the kernel then does; if Zebra died before this took
/// effect, the parent is someone else already and the bot must not start), and its CPUs.
///
/// # Safety
/// Async-signal-safe calls only: may run in a forked child.
pub(crate) unsafe fn tie(parent: i32, cpus: Option<&libc::cpu_set_t>) -> io::Result<()> {
    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || libc::getppid() != parent {
        return Err(io::Error::other("the referee is gone"));
    }
    if let Some(set) = cpus {
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Zebra's environment with `env` over it (a later name replaces an earlier one), as
/// `NAME=value` strings.
fn environment(env: &[(OsString, OsString)]) -> Vec<CString> {
    let mut vars: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    for (name, value) in env {
        vars.retain(|(n, _)| n != name);
        vars.push((name.clone(), value.clone()));
    }
    vars.into_iter()
        .filter_map(|(name, value)| {
            let mut line = name.into_vec();
            line.push(b'=');
            line.extend(value.into_vec());
            CString::new(line).ok()
        })
        .collect()
}

fn set_cloexec(fds: &[RawFd], on: bool) {
    for &fd in fds {
        // SAFETY: only the flags of descriptors the launch holds open.
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, if on { libc::FD_CLOEXEC } else { 0 });
        }
    }
}

fn encode(e: &io::Error) -> Vec<u8> {
    let mut bytes = e.raw_os_error().unwrap_or(0).to_ne_bytes().to_vec();
    bytes.extend(e.to_string().bytes().take(1000));
    bytes
}

fn decode(report: &[u8]) -> io::Error {
    let (code, message) = report.split_at(report.len().min(4));
    match <[u8; 4]>::try_from(code).map(i32::from_ne_bytes) {
        Ok(n) if n != 0 => io::Error::from_raw_os_error(n),
        _ => io::Error::other(format!(
            "the bot's setup failed: {}",
            String::from_utf8_lossy(message)
        )),
    }
}

/// `zebra-keeper launch PLAN REPORT PROGRAM ARG0 [ARG...]` (`args` from `PLAN` on): the
/// setup, then the bot's exec. Returns (2) only on a usage error; a setup error is reported
/// and ends the process.
///
/// # Safety
/// To be called as the program's `main`, before any thread exists.
pub(super) unsafe fn main(args: &[&CStr]) -> libc::c_int {
    let number = |s: &CStr| s.to_str().ok()?.parse::<RawFd>().ok().filter(|&n| n > 2);
    let [plan, report, rest @ ..] = args else {
        return 2;
    };
    let (Some(plan), Some(report)) = (number(plan), number(report)) else {
        return 2;
    };
    libc::fcntl(report, libc::F_SETFD, libc::FD_CLOEXEC);
    // Zebra counts an empty report as a bot that started: a launcher that cannot read its
    // own arguments says so there.
    let e = match rest {
        [program, argv @ ..] if !argv.is_empty() => match setup(plan, program, argv) {
            Err(e) => e,
            Ok(never) => match never {},
        },
        _ => io::Error::other("zebra-keeper launch: no program to run"),
    };
    let bytes = encode(&e);
    libc::write(report, bytes.as_ptr().cast(), bytes.len());
    libc::_exit(127)
}

/// In the process that ends as the bot (the keeper and the init never come back).
unsafe fn setup(
    plan_fd: RawFd,
    program: &CStr,
    argv: &[&CStr],
) -> io::Result<std::convert::Infallible> {
    let mut bytes = Vec::new();
    std::fs::File::from(OwnedFd::from_raw_fd(plan_fd)).read_to_end(&mut bytes)?;
    let (parent, cpus, env, mut plan, hold): Order<ExecPlan> =
        serde_json::from_slice(&bytes).map_err(|e| io::Error::other(format!("its plan: {e}")))?;
    // Whatever the launcher was given stays out of the bot: the plan's descriptors by name,
    // then any other (Zebra's own inheritance).
    set_cloexec(&plan.descriptors(), true);
    if let Some(hold) = hold {
        if !plan.hold_at_wall(hold) {
            return Err(io::Error::other(
                "a staged start without a wall to wait behind",
            ));
        }
    }
    jail::close_all_at_exec();
    tie(
        parent,
        cpus.as_deref().map(crate::bot::process::cpu_set).as_ref(),
    )?;
    let mut args: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    args.push(std::ptr::null());
    let mut envp: Vec<*const libc::c_char> = env.iter().map(|e| e.as_ptr()).collect();
    envp.push(std::ptr::null());
    jail::enter(&plan)?;
    // As the standard library's spawn does: a file without an interpreter line runs
    // under /bin/sh.
    libc::execvpe(program.as_ptr(), args.as_ptr(), envp.as_ptr());
    Err(io::Error::last_os_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    #[test]
    fn reports_come_back_as_the_error_they_were() {
        let os = io::Error::from_raw_os_error(libc::EPERM);
        assert_eq!(decode(&encode(&os)).raw_os_error(), Some(libc::EPERM));
        let other = decode(&encode(&io::Error::other("the referee is gone")));
        assert_eq!(other.raw_os_error(), None);
        assert!(other.to_string().contains("the referee is gone"), "{other}");
        assert!(decode(b"xy").to_string().contains("setup failed"));
    }

    #[test]
    fn a_launcher_without_its_descriptors_is_a_usage_error() {
        let (plan, report, program) = (c("3"), c("4"), c("/bin/true"));
        // SAFETY: a usage error returns before anything is touched.
        unsafe {
            assert_eq!(main(&[]), 2);
            assert_eq!(main(&[&plan]), 2);
            assert_eq!(main(&[&c("x"), &report, &program, &program]), 2);
            assert_eq!(main(&[&plan, &c("1"), &program, &program]), 2);
        }
    }
}
