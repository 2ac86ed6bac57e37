//! The two processes a walled bot runs under, the keeper (Zebra's child) and the init (PID 1
//! of the bot's namespace), after their setup: each waits and hands the bot's fate on.
//!
//! They are forked from Zebra and used to wait as forks of it. A fork that never execs
//! shares every page of Zebra's memory copy-on-write for as long as it lives: each page
//! Zebra writes afterwards is copied by a fault that also stops Zebra's other threads for
//! a TLB flush, all game long (in the daemon, whose store, HTTP server and games write a lot
//! of memory, this cost a tenth of its games per second). So both exec the small
//! `zebra-keeper` program that ships beside `zebra` (this file and [`super::launch`] are
//! its code) before they wait: they then hold no memory of Zebra's. Where Zebra spawns the
//! bot through that program's `launch` ([`super::launch`]), the keeper and the init are
//! that program from the start and never exec. Without the program (a library user, a
//! missing file), they wait as forks, as before.
//!
//! Only async-signal-safe calls run here before the exec, on memory prepared before the
//! fork; the program itself runs no Rust runtime setup (`#![no_main]`). Forked, both exec
//! before the bot builds its view (the bot waits until the program's `main` closes a
//! pipe), so the program loads its libraries from the host's root, never from a half-made
//! view; launched, they are the program already.

use std::ffi::CStr;
use std::os::fd::RawFd;

/// The helper program's file name, looked for beside the running executable.
pub const PROGRAM: &str = "zebra-keeper";

/// What `zebra-keeper --protocol` prints: the arguments [`exec_helper`] passes, versioned.
pub const PROTOCOL: &str =
    "zebra-keeper 4: keep|init PID FD LIMIT READY; launch PLAN REPORT PROGRAM ARG0 [ARG...]";

/// PID 1 of the bot's namespace: reaps whatever is orphaned there until the bot itself
/// ends, hands the bot's wait status to the keeper, and exits, which makes the kernel
/// kill every process left in the namespace.
///
/// A bot that ignores SIGXFSZ (most language runtimes turn the failed write into an
/// exception) ends with an error code rather than the signal; when its view holds a file at
/// its size limit, the init reports the signal instead, so the verdict is the file size
/// limit whatever the runtime did.
///
/// # Safety
/// Async-signal-safe calls only; `status_out` is the keeper's status pipe.
pub unsafe fn init_loop(
    bot: libc::pid_t,
    status_out: RawFd,
    file_limit: Option<u64>,
    fate: RawFd,
) -> ! {
    loop {
        let mut status = 0;
        let r = libc::waitpid(-1, &mut status, 0);
        if r == bot {
            if let Some(limit) = file_limit {
                if libc::WIFEXITED(status)
                    && libc::WEXITSTATUS(status) != 0
                    && file_at_least(c"/tmp", limit)
                {
                    status = libc::SIGXFSZ;
                }
            }
            let bytes = status.to_ne_bytes();
            // Zebra first (its pid pipe, where there is one): it need not wait for this
            // namespace and the keeper's to be torn down to know how the bot ended.
            if fate >= 0 {
                libc::write(fate, bytes.as_ptr().cast(), 4);
            }
            libc::write(status_out, bytes.as_ptr().cast(), 4);
            libc::_exit(0);
        }
        if r < 0 && *libc::__errno_location() != libc::EINTR {
            libc::_exit(1);
        }
    }
}

/// Whether a regular file of at least `limit` bytes lies under `dir` (eight levels deep at
/// most, 100,000 entries at most), without allocating: a directory stream per level.
unsafe fn file_at_least(dir: &std::ffi::CStr, limit: u64) -> bool {
    const DEPTH: usize = 8;
    const BUF: usize = 2048;
    let mut fds = [-1 as RawFd; DEPTH];
    let mut bufs = [[0u8; BUF]; DEPTH];
    let mut fill = [0usize; DEPTH];
    let mut pos = [0usize; DEPTH];
    fds[0] = libc::open(
        dir.as_ptr(),
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
    );
    if fds[0] < 0 {
        return false;
    }
    let mut level = 0usize;
    let mut seen = 0u32;
    let mut found = false;
    'walk: loop {
        if pos[level] >= fill[level] {
            let n = libc::syscall(
                libc::SYS_getdents64,
                fds[level],
                bufs[level].as_mut_ptr(),
                BUF,
            );
            if n <= 0 {
                libc::close(fds[level]);
                if level == 0 {
                    break 'walk;
                }
                level -= 1;
                continue;
            }
            fill[level] = n as usize;
            pos[level] = 0;
        }
        // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
        let entry = bufs[level].as_ptr().add(pos[level]);
        let reclen = u16::from_ne_bytes([*entry.add(16), *entry.add(17)]) as usize;
        let kind = *entry.add(18);
        let name = entry.add(19).cast::<libc::c_char>();
        pos[level] += reclen.max(1);
        seen += 1;
        if seen > 100_000 {
            for fd in fds.iter().take(level + 1) {
                libc::close(*fd);
            }
            break 'walk;
        }
        let dot = *name == b'.' as libc::c_char
            && (*name.add(1) == 0 || (*name.add(1) == b'.' as libc::c_char && *name.add(2) == 0));
        if dot {
            continue;
        }
        if kind == libc::DT_REG {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstatat(fds[level], name, &mut st, libc::AT_SYMLINK_NOFOLLOW) == 0
                && st.st_size as u64 >= limit
            {
                found = true;
                for fd in fds.iter().take(level + 1) {
                    libc::close(*fd);
                }
                break 'walk;
            }
        } else if kind == libc::DT_DIR && level + 1 < DEPTH {
            let fd = libc::openat(
                fds[level],
                name,
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            );
            if fd >= 0 {
                level += 1;
                fds[level] = fd;
                fill[level] = 0;
                pos[level] = 0;
            }
        }
    }
    found
}

/// The keeper (Zebra's own child): waits for the init, then ends the way the bot ended (its
/// exit code, or the same signal), so that Zebra reads the bot's fate from its child.
///
/// # Safety
/// Async-signal-safe calls only; `status_in` is the init's status pipe.
pub unsafe fn keep(init: libc::pid_t, status_in: RawFd) -> ! {
    let mut status = 0;
    loop {
        let r = libc::waitpid(init, &mut status, 0);
        if r == init {
            break;
        }
        if r < 0 && *libc::__errno_location() != libc::EINTR {
            libc::_exit(1);
        }
    }
    let mut bytes = [0u8; 4];
    if libc::read(status_in, bytes.as_mut_ptr().cast(), 4) != 4 {
        // The init died without word of the bot (killed along with the namespace).
        libc::_exit(if libc::WIFSIGNALED(status) {
            128 + libc::WTERMSIG(status)
        } else {
            1
        });
    }
    let status = i32::from_ne_bytes(bytes);
    if libc::WIFEXITED(status) {
        libc::_exit(libc::WEXITSTATUS(status));
    }
    let sig = libc::WTERMSIG(status);
    libc::signal(sig, libc::SIG_DFL);
    libc::kill(libc::getpid(), sig);
    libc::_exit(128 + sig)
}

/// A decimal number as a NUL-terminated string, made without allocating.
struct Digits {
    bytes: [u8; 24],
}

impl Digits {
    fn of(n: i64) -> Digits {
        let mut bytes = [0u8; 24];
        let mut tmp = [0u8; 20];
        let mut len = 0;
        let mut m = n.unsigned_abs();
        loop {
            tmp[len] = b'0' + (m % 10) as u8;
            len += 1;
            m /= 10;
            if m == 0 {
                break;
            }
        }
        let mut at = 0;
        if n < 0 {
            bytes[0] = b'-';
            at = 1;
        }
        for i in 0..len {
            bytes[at + i] = tmp[len - 1 - i];
        }
        Digits { bytes }
    }

    fn ptr(&self) -> *const libc::c_char {
        self.bytes.as_ptr().cast()
    }
}

/// Reads back a number [`Digits`] wrote.
fn parse(text: &CStr) -> Option<i64> {
    let s = text.to_str().ok()?;
    s.parse().ok()
}

/// Replaces the calling process (a keeper or an init, after its setup) by the helper
/// program at `helper` (a descriptor opened before the fork), told its role, the pid to
/// wait for, the status descriptor, the file size limit (-1: none) and the descriptor to
/// close once its `main` runs (`ready`, -1: none). Returns only if the exec failed; the
/// caller then waits itself. `status_fd` and `ready` are made to survive the exec.
///
/// # Safety
/// Async-signal-safe calls only: to be called in a forked child.
pub unsafe fn exec_helper(
    helper: RawFd,
    role: &CStr,
    pid: libc::pid_t,
    status_fd: RawFd,
    file_limit: Option<u64>,
    ready: RawFd,
) {
    if libc::fcntl(status_fd, libc::F_SETFD, 0) != 0
        || (ready >= 0 && libc::fcntl(ready, libc::F_SETFD, 0) != 0)
    {
        return;
    }
    let pid = Digits::of(i64::from(pid));
    let fd = Digits::of(i64::from(status_fd));
    let limit = Digits::of(file_limit.map_or(-1, |l| l.min(i64::MAX as u64) as i64));
    let ready_fd = Digits::of(i64::from(ready));
    let argv: [*const libc::c_char; 7] = [
        c"zebra-keeper".as_ptr(),
        role.as_ptr(),
        pid.ptr(),
        fd.ptr(),
        limit.ptr(),
        ready_fd.ptr(),
        std::ptr::null(),
    ];
    extern "C" {
        static environ: *const *const libc::c_char;
    }
    libc::syscall(
        libc::SYS_execveat,
        helper,
        c"".as_ptr(),
        argv.as_ptr(),
        environ,
        libc::AT_EMPTY_PATH,
    );
    // Failed: the descriptors go back to close-on-exec, as the caller had them.
    libc::fcntl(status_fd, libc::F_SETFD, libc::FD_CLOEXEC);
    if ready >= 0 {
        libc::fcntl(ready, libc::F_SETFD, libc::FD_CLOEXEC);
    }
}

/// The helper program's `main`: `zebra-keeper keep|init PID FD LIMIT READY`, as
/// [`exec_helper`] runs it, or `zebra-keeper launch ...` ([`super::launch`]);
/// `--protocol` prints [`PROTOCOL`]. Returns (2, after one line on stderr) only when run
/// any other way.
///
/// # Safety
/// `argv` holds `argc` valid C strings.
pub unsafe fn helper_main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    let arg = |i: libc::c_int| (i < argc).then(|| CStr::from_ptr(*argv.add(i as usize)));
    if argc == 2 && arg(1).map(CStr::to_bytes) == Some(b"--protocol") {
        let line = format!("{PROTOCOL}\n");
        libc::write(1, line.as_ptr().cast(), line.len());
        return 0;
    }
    if arg(1).map(CStr::to_bytes) == Some(b"launch") {
        let args: Vec<&CStr> = (2..argc).filter_map(arg).collect();
        let code = super::launch::main(&args);
        libc::write(2, USAGE.as_ptr().cast(), USAGE.len());
        return code;
    }
    let numbers = (
        arg(2).and_then(parse),
        arg(3).and_then(parse),
        arg(4).and_then(parse),
    );
    let ready = arg(5).and_then(parse);
    let role = arg(1).map(CStr::to_bytes);
    if let (Some(role), (Some(pid), Some(fd), Some(limit)), Some(ready), 6) =
        (role, numbers, ready, argc)
    {
        // Loaded: the bot may build its view now.
        if ready >= 0 {
            libc::close(ready as RawFd);
        }
        let (pid, fd) = (pid as libc::pid_t, fd as RawFd);
        let limit = u64::try_from(limit).ok();
        match role {
            b"keep" => keep(pid, fd),
            b"init" => init_loop(pid, fd, limit, -1),
            _ => {}
        }
    }
    libc::write(2, USAGE.as_ptr().cast(), USAGE.len());
    2
}

/// The one line `zebra-keeper` run any other way says.
const USAGE: &[u8] = b"zebra-keeper: a part of Zebra's sandbox, run by Zebra only\n";

/// Where [`helper`] finds the program, if anywhere (`zebra doctor` says it): beside the
/// running executable, or, for a test binary in cargo's `deps/`, one directory up; and only
/// a program that answers `--protocol` with [`PROTOCOL`] (a stale build is not used: once
/// exec'd, a keeper that misread its arguments could not fall back).
pub fn helper_path() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let up = dir
        .parent()
        .filter(|_| dir.file_name() == Some("deps".as_ref()));
    let path = [Some(dir), up]
        .into_iter()
        .flatten()
        .map(|d| d.join(PROGRAM))
        .find(|p| p.is_file())?;
    let out = super::launch::ordinary(|| {
        std::process::Command::new(&path)
            .arg("--protocol")
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
    })
    .ok()?;
    (out.status.success() && out.stdout == format!("{PROTOCOL}\n").as_bytes()).then_some(path)
}

/// The helper program beside the running executable (or one directory up: test binaries
/// live in `deps/`), opened once per process (a path-only descriptor, closed at every
/// exec but the helper's own); `None` when there is none.
pub fn helper() -> Option<RawFd> {
    use std::os::fd::IntoRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    static HELPER: std::sync::OnceLock<Option<RawFd>> = std::sync::OnceLock::new();
    *HELPER.get_or_init(|| {
        let path = helper_path()?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
            .open(path)
            .ok()?;
        Some(file.into_raw_fd())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_without_allocating_and_read_back() {
        for n in [
            0i64,
            7,
            42,
            -1,
            1_000_000,
            i64::from(i32::MAX),
            i64::MAX,
            -123,
        ] {
            let d = Digits::of(n);
            let text = CStr::from_bytes_until_nul(&d.bytes).unwrap();
            assert_eq!(text.to_str().unwrap(), n.to_string());
            assert_eq!(parse(text), Some(n));
        }
    }
}
