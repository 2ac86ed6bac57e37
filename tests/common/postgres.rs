//! A PostgreSQL server for the tests: Debian's `postgresql` package (installed by
//! `.ci/run` when missing), one cluster per test binary in a temp directory, started on
//! first use on a free port, and stopped and removed when the test binary exits (at exit;
//! its parent-death signal if the binary is killed; a later run removes what a killed one
//! left). Each test asks for a database of its own.

#![allow(dead_code)]

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The running cluster (tests reach it by TCP on loopback).
struct Cluster {
    port: u16,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
/// The cluster's directory and its server's pid, for the exit handler.
static DIR: OnceLock<PathBuf> = OnceLock::new();
static SERVER: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// At the test binary's exit: the server stopped (immediate shutdown) and its directory
/// removed.
extern "C" fn stop_at_exit() {
    let pid = SERVER.load(std::sync::atomic::Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: a signal to the server this process started.
        unsafe { libc::kill(pid, libc::SIGQUIT) };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::path::Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    if let Some(dir) = DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes the clusters of test binaries no longer running (killed before their exit).
fn remove_stale() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("zebra-pg-"))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The directory of PostgreSQL's programs (the newest version installed).
fn bin_dir() -> Result<PathBuf, String> {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| {
            "PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does)"
                .to_string()
        })?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists())
        .collect();
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    found
        .pop()
        .ok_or_else(|| "no initdb under /usr/lib/postgresql/*/bin".to_string())
}

/// The user the cluster runs as: PostgreSQL refuses root, so root runs it as `postgres`.
fn run_as() -> Option<(u32, u32)> {
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        return None;
    }
    let out = Command::new("id").args(["-u", "postgres"]).output().ok()?;
    let uid = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    let out = Command::new("id").args(["-g", "postgres"]).output().ok()?;
    let gid = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    Some((uid, gid))
}

fn as_user(cmd: &mut Command, user: Option<(u32, u32)>, die_with_parent: bool) {
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if let Some((uid, gid)) = user {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(gid) != 0
                    || libc::setuid(uid) != 0
                {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // After the change of user (which clears it): the server goes with the tests.
            if die_with_parent {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGQUIT);
            }
            Ok(())
        });
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn start() -> Result<Cluster, String> {
    let bin = bin_dir()?;
    remove_stale();
    let dir = std::env::temp_dir().join(format!("zebra-pg-{}", std::process::id()));
    let _ = DIR.set(dir.clone());
    // SAFETY: registers a handler with no preconditions, once per test binary.
    unsafe { libc::atexit(stop_at_exit) };
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let user = run_as();
    if let Some((uid, gid)) = user {
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid))
            .map_err(|e| format!("chown {}: {e}", dir.display()))?;
    }
    let data = dir.join("data");
    let mut initdb = Command::new(bin.join("initdb"));
    initdb
        .args(["-A", "trust", "-U", "zebra", "--no-sync", "-D"])
        .arg(&data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    as_user(&mut initdb, user, false);
    let out = initdb.output().map_err(|e| format!("initdb: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let port = free_port();
    let log = std::fs::File::create(dir.join("server.log")).map_err(|e| e.to_string())?;
    // Started by a thread that lives as long as the test binary: the parent-death signal
    // follows the thread that forked.
    let (tx, rx) = std::sync::mpsc::channel();
    let socket_dir = dir.clone();
    std::thread::spawn(move || {
        let mut server = Command::new(bin.join("postgres"));
        server
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-k"])
            .arg(&socket_dir)
            .args([
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "fsync=off",
                "-c",
                "max_connections=200",
            ])
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log);
        as_user(&mut server, user, true);
        match server.spawn() {
            Ok(mut child) => {
                SERVER.store(child.id() as i32, std::sync::atomic::Ordering::SeqCst);
                let _ = tx.send(Ok(()));
                let _ = child.wait();
            }
            Err(e) => {
                let _ = tx.send(Err(format!("postgres: {e}")));
            }
        }
        loop {
            std::thread::park();
        }
    });
    rx.recv().map_err(|e| e.to_string())??;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match postgres::Client::connect(&url_of(port, "postgres"), postgres::NoTls) {
            Ok(_) => return Ok(Cluster { port }),
            Err(e) if Instant::now() > deadline => {
                let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
                return Err(format!("PostgreSQL did not start: {e}\n{log}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

fn url_of(port: u16, database: &str) -> String {
    format!("postgres://zebra@127.0.0.1:{port}/{database}")
}

/// The URL of a new, empty database named after `name` (made unique in this run).
pub fn database(name: &str) -> String {
    let cluster = CLUSTER
        .get_or_init(start)
        .as_ref()
        .unwrap_or_else(|e| panic!("{e}"));
    let database: String = format!("t_{name}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let mut admin = postgres::Client::connect(&url_of(cluster.port, "postgres"), postgres::NoTls)
        .expect("connect to the test cluster");
    for sql in [
        format!("DROP DATABASE IF EXISTS {database}"),
        format!("CREATE DATABASE {database}"),
    ] {
        admin.batch_execute(&sql).expect("create a test database");
    }
    url_of(cluster.port, &database)
}
