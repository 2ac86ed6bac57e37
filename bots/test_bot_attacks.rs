//! The attacks of `zebra-test-bot --attack ...`: what a stranger's bot would try against
//! its opponent, Zebra and the machine, each done for real, each reported on stderr as one
//! line `attack NAME: ...` that the tests read.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Numeric entries of `/proc`: the processes this bot can see.
fn visible_pids() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The bot's own process and its descendants are fair game; everything else is not.
fn foreign(pid: i32) -> bool {
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    if pid == me {
        return false;
    }
    // A process whose chain of parents reaches us is ours.
    let mut p = pid;
    for _ in 0..64 {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
            return true;
        };
        let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, r)| r.split_whitespace().nth(1))
            .and_then(|x| x.parse::<i32>().ok())
        else {
            return true;
        };
        if ppid == me {
            return false;
        }
        if ppid <= 1 {
            return true;
        }
        p = ppid;
    }
    true
}

/// Runs one attack by name and prints what it achieved.
pub fn run(name: &str, targets: &[i32]) {
    let line = match name {
        "processes" => processes(),
        "pipes" => pipes(),
        "cgroups" => cgroups(),
        "freeze" => freeze(),
        "signal" => signal(targets),
        "ptrace" => ptrace(targets),
        "fill-disk" => fill_disk(),
        "ids" => ids(),
        "unshare" => unshare(),
        "affinity" => affinity(),
        "fds" => fds(),
        other => format!("unknown attack {other}"),
    };
    eprintln!("attack {name}: {line}");
}

/// Tries to read `path`: `read PATH: ok N bytes` or `read PATH: failed (why)`.
pub fn read(path: &str) {
    match std::fs::read(path) {
        Ok(bytes) => eprintln!("read {path}: ok {} bytes", bytes.len()),
        Err(e) => eprintln!("read {path}: failed ({e})"),
    }
}

/// Tries to create and write `path`: `write PATH: ok` or `write PATH: failed (why)`.
pub fn write(path: &str) {
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .and_then(|mut f| f.write_all(b"planted by a bot\n"));
    match result {
        Ok(()) => eprintln!("write {path}: ok"),
        Err(e) => eprintln!("write {path}: failed ({e})"),
    }
}

/// How many processes it sees, and how many are not its own.
fn processes() -> String {
    let pids = visible_pids();
    let others = pids.iter().filter(|&&p| foreign(p)).count();
    format!("visible {} foreign {others}", pids.len())
}

/// Writes junk and a forged result line into every descriptor of every other process it
/// can open through /proc: its opponent's stdout pipe to Zebra, Zebra's own output.
fn pipes() -> String {
    let mut opened = 0;
    let mut written = 0;
    for pid in visible_pids().into_iter().filter(|&p| foreign(p)) {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            let Ok(mut f) = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(fd.path())
            else {
                continue;
            };
            opened += 1;
            if f.write_all(b"not json\nresult 1-0 (forged by a bot)\n")
                .is_ok()
            {
                written += 1;
            }
        }
    }
    format!("opened {opened} written {written}")
}

/// Every `file` under `dir` (depth-limited), for the cgroup attacks.
fn files_named(dir: &Path, file: &str, depth: u32, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if e.file_name() == file {
            out.push(p);
        } else if depth > 0 && e.file_type().is_ok_and(|t| t.is_dir()) {
            files_named(&p, file, depth - 1, out);
        }
    }
}

/// Tries to move itself to every cgroup it can find (out of its limits).
fn cgroups() -> String {
    let mut found = Vec::new();
    files_named(Path::new("/sys/fs/cgroup"), "cgroup.procs", 4, &mut found);
    let moved = found
        .iter()
        .filter(|p| std::fs::write(p, "0").is_ok())
        .count();
    format!("found {} moved {moved}", found.len())
}

/// Tries to freeze every cgroup it can find (its opponent's among them).
fn freeze() -> String {
    let mut v2 = Vec::new();
    files_named(Path::new("/sys/fs/cgroup"), "cgroup.freeze", 5, &mut v2);
    let mut v1 = Vec::new();
    files_named(Path::new("/sys/fs/cgroup"), "freezer.state", 5, &mut v1);
    // SAFETY: getpid cannot fail.
    let own = format!("{}", unsafe { libc::getpid() });
    let mine = |p: &Path| {
        std::fs::read_to_string(p.with_file_name("cgroup.procs"))
            .is_ok_and(|t| t.lines().any(|l| l == own))
    };
    let frozen = v2
        .iter()
        .filter(|p| !mine(p) && std::fs::write(p, "1").is_ok())
        .count()
        + v1.iter()
            .filter(|p| !mine(p) && std::fs::write(p, "FROZEN").is_ok())
            .count();
    format!("found {} frozen {frozen}", v2.len() + v1.len())
}

/// Sends SIGSTOP to every process id from 2 to 32,768 that is not its own (whether /proc
/// shows it or not), and to `extra` (a host pid a test names).
fn signal(extra: &[i32]) -> String {
    let mut reached = 0;
    for pid in (2..=32_768).chain(extra.iter().copied()) {
        if Path::new(&format!("/proc/{pid}")).exists() && !foreign(pid) {
            continue;
        }
        // SAFETY: kill only sends a signal.
        if unsafe { libc::kill(pid, libc::SIGSTOP) } == 0 {
            reached += 1;
        }
    }
    format!("reached {reached}")
}

/// Tries to attach to every process it can see.
fn ptrace(targets: &[i32]) -> String {
    let mut attached = 0;
    let mut tried = 0;
    for pid in visible_pids()
        .into_iter()
        .filter(|&p| foreign(p))
        .chain([1])
        .chain(targets.iter().copied())
    {
        tried += 1;
        // SAFETY: PTRACE_SEIZE only attaches (it does not stop the tracee).
        if unsafe { libc::ptrace(libc::PTRACE_SEIZE, pid, 0, 0) } == 0 {
            attached += 1;
        }
    }
    format!("tried {tried} attached {attached}")
}

/// Fills `$TMPDIR` with small files until something refuses (at most 200,000 files).
fn fill_disk() -> String {
    let dir = std::env::temp_dir().join("fill");
    let _ = std::fs::create_dir(&dir);
    let block = [9u8; 4096];
    let mut files = 0u64;
    let mut why = "the count".to_string();
    for i in 0..200_000 {
        let r =
            std::fs::File::create(dir.join(i.to_string())).and_then(|mut f| f.write_all(&block));
        match r {
            Ok(()) => files += 1,
            Err(e) => {
                why = e.to_string();
                break;
            }
        }
    }
    format!("files {files} bytes {} stopped by {why}", files * 4096)
}

/// Its user ids and effective capabilities, as /proc/self/status shows them.
fn ids() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| "?".to_string())
    };
    format!(
        "uid {} caps {} no_new_privs {} seccomp {}",
        field("Uid:"),
        field("CapEff:"),
        field("NoNewPrivs:"),
        field("Seccomp:")
    )
}

/// The descriptors it holds beyond stdio and what each is (`none`, or `3=pipe:[123] ...`):
/// anything Zebra or its launcher left open is a way out (a cgroup's `cgroup.procs`, a
/// pipe of Zebra's).
fn fds() -> String {
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return "cannot list /proc/self/fd".to_string();
    };
    let mut held: Vec<(i32, String)> = dir
        .filter_map(|e| {
            let e = e.ok()?;
            let fd: i32 = e.file_name().to_str()?.parse().ok()?;
            let target = std::fs::read_link(e.path()).ok()?;
            Some((fd, target.display().to_string()))
        })
        // The listing's own descriptor.
        .filter(|(fd, target)| *fd > 2 && !target.ends_with("/fd"))
        .collect();
    held.sort();
    if held.is_empty() {
        return "none".to_string();
    }
    held.iter()
        .map(|(fd, target)| format!("{fd}={target}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Tries to make a user namespace of its own (to be root again inside it).
fn unshare() -> String {
    // SAFETY: a failed unshare changes nothing; a successful one affects only this bot.
    if unsafe { libc::unshare(libc::CLONE_NEWUSER) } == 0 {
        "succeeded".to_string()
    } else {
        format!("failed ({})", std::io::Error::last_os_error())
    }
}

/// Tries to leave the CPUs it was given for all of them (to take CPU from other games),
/// then says the CPUs it may run on.
fn affinity() -> String {
    // SAFETY: cpu_set_t is a plain bit array; the calls write only into the sets given.
    unsafe {
        let mut all: libc::cpu_set_t = std::mem::zeroed();
        for cpu in 0..libc::CPU_SETSIZE as usize {
            libc::CPU_SET(cpu, &mut all);
        }
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let tried = if libc::sched_setaffinity(0, size, &all) == 0 {
            "succeeded".to_string()
        } else {
            format!("failed ({})", std::io::Error::last_os_error())
        };
        let mut now: libc::cpu_set_t = std::mem::zeroed();
        libc::sched_getaffinity(0, size, &mut now);
        let cpus: Vec<String> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &now))
            .map(|c| c.to_string())
            .collect();
        format!("{tried}; cpus {}", cpus.join(","))
    }
}
