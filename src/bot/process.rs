//! One bot process: spawned in its own process group, stdio wired to the transport tasks,
//! stderr drained into a capped buffer, and at the end quit, grace, kill, reap.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::transport::{read_lines, write_lines, Incoming, Outgoing, MAX_QUEUED_BYTES};

/// How to start a bot.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    /// The name used in records and logs.
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// Option values sent in `game_start`.
    pub options: serde_json::Map<String, serde_json::Value>,
    /// The CPUs the bot may run on (its children inherit them); `None`: any.
    pub cpus: Option<Vec<usize>>,
}

impl BotSpec {
    /// A bot from a command line: the first word is the program, the rest its arguments
    /// (split on whitespace; quote-free by design, use a config file for anything fancier).
    pub fn from_command(name: &str, command: &str) -> Option<BotSpec> {
        let mut words = command.split_whitespace();
        let program = PathBuf::from(words.next()?);
        Some(BotSpec {
            name: name.to_string(),
            program,
            args: words.map(str::to_string).collect(),
            dir: None,
            env: Vec::new(),
            options: serde_json::Map::new(),
            cpus: None,
        })
    }
}

/// A bot that could not be started at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot start bot '{name}' ({program}): {source}")]
pub struct SpawnError {
    pub name: String,
    pub program: String,
    #[source]
    pub source: std::io::Error,
}

/// How a bot process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitInfo {
    /// The exit code, or `None` if it was killed by a signal.
    pub code: Option<i32>,
    /// It had to be killed after the grace period.
    pub killed: bool,
    /// The start of its stderr (at most the cap), and how many bytes were dropped.
    pub stderr: Vec<u8>,
    pub stderr_dropped: u64,
}

/// Bytes of a bot's stderr kept per game.
pub const STDERR_CAP: usize = 1024 * 1024;

/// A running bot.
pub struct BotProcess {
    pub name: String,
    child: Child,
    pgid: Option<i32>,
    to_bot: Option<mpsc::UnboundedSender<Outgoing>>,
    queued: Arc<AtomicUsize>,
    from_bot: mpsc::UnboundedReceiver<Incoming>,
    stderr: JoinHandle<(Vec<u8>, u64)>,
    writer: JoinHandle<()>,
    reader: JoinHandle<()>,
}

impl BotProcess {
    /// Starts the bot in a new process group with piped stdio.
    pub fn spawn(spec: &BotSpec, max_line: usize) -> Result<BotProcess, SpawnError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Its own group, so that killing the group also takes its children.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Zebra killed outright (kill -9, a crash) cannot kill the group itself: the kernel
        // then kills the bot. Set between fork and exec; if Zebra died before the call took
        // effect, the bot's parent is already someone else and it must not start.
        let parent = std::process::id() as libc::pid_t;
        let cpus = spec.cpus.as_deref().map(cpu_set);
        // SAFETY: only async-signal-safe calls (prctl, getppid, sched_setaffinity) run in
        // the forked child; the CPU set was built before the fork.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0
                    || libc::getppid() != parent
                {
                    return Err(std::io::Error::other("the referee is gone"));
                }
                if let Some(set) = &cpus {
                    if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) != 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        for (k, v) in &spec.env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().map_err(|source| SpawnError {
            name: spec.name.clone(),
            program: spec.program.display().to_string(),
            source,
        })?;
        let pgid = child.id().map(|id| id as i32);
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");

        let (in_tx, in_rx) = mpsc::unbounded_channel();
        let reader = tokio::spawn(read_lines(stdout, max_line, in_tx));
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let writer = tokio::spawn(write_lines(stdin, out_rx, queued.clone()));
        // Drained continuously so a chatty bot never blocks on a full stderr pipe.
        let stderr = tokio::spawn(async move {
            let mut kept = Vec::new();
            let mut dropped = 0u64;
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let room = STDERR_CAP.saturating_sub(kept.len()).min(n);
                        kept.extend_from_slice(&buf[..room]);
                        dropped += (n - room) as u64;
                    }
                }
            }
            (kept, dropped)
        });
        Ok(BotProcess {
            name: spec.name.clone(),
            child,
            pgid,
            to_bot: Some(out_tx),
            queued,
            from_bot: in_rx,
            stderr,
            writer,
            reader,
        })
    }

    /// The bot's process id (also its process group id).
    pub fn pid(&self) -> Option<i32> {
        self.pgid
    }

    /// The CPU time the bot's process (all its threads, not its children) has used so far,
    /// from the kernel's accounting, in nanoseconds' resolution; `None` once it is gone.
    pub fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.pgid?)
    }

    /// Queues a line; returns a receiver for the instant it was flushed, or `None` if the
    /// bot's stdin is closed or it has stopped reading (more than the queue cap is waiting).
    pub fn send(&self, line: String) -> Option<oneshot::Receiver<Instant>> {
        let tx = self.to_bot.as_ref()?;
        let len = line.len() + 1;
        if self.queued.fetch_add(len, Ordering::Relaxed) + len > MAX_QUEUED_BYTES {
            self.queued.fetch_sub(len, Ordering::Relaxed);
            return None;
        }
        let (flushed, rx) = oneshot::channel();
        tx.send(Outgoing {
            line,
            flushed: Some(flushed),
        })
        .ok()?;
        Some(rx)
    }

    /// The next thing from the bot's stdout, or `None` if nothing came before `deadline`.
    pub async fn recv_until(&mut self, deadline: Instant) -> Option<Incoming> {
        match tokio::time::timeout_at(deadline, self.from_bot.recv()).await {
            Ok(Some(msg)) => Some(msg),
            // The reader is gone: it already reported Closed.
            Ok(None) => Some(Incoming::Closed { at: Instant::now() }),
            Err(_) => None,
        }
    }

    /// Whatever the bot has already sent, without waiting.
    pub fn try_recv(&mut self) -> Option<Incoming> {
        self.from_bot.try_recv().ok()
    }

    /// Ends the bot: closes its stdin (the caller sends `quit` first), waits up to `grace`
    /// for it to exit, then kills its whole process group, and reaps it.
    pub async fn shutdown(mut self, grace: Duration) -> ExitInfo {
        // Dropping the sender lets the writer flush what is queued and close the pipe.
        self.to_bot.take();
        let _ = tokio::time::timeout(grace, &mut self.writer).await;
        let exited = tokio::time::timeout(grace, self.child.wait()).await;
        let (status, killed) = match exited {
            Ok(Ok(status)) => (Some(status), false),
            _ => (None, true),
        };
        // Always kill the group: the bot may be gone while its children live on.
        self.kill_group();
        let status = match status {
            Some(s) => Some(s),
            None => self.child.wait().await.ok(),
        };
        self.writer.abort();
        let (stderr, stderr_dropped) = match tokio::time::timeout(grace, &mut self.stderr).await {
            Ok(Ok(v)) => v,
            _ => {
                self.stderr.abort();
                (Vec::new(), 0)
            }
        };
        self.reader.abort();
        ExitInfo {
            code: status.and_then(|s| s.code()),
            killed,
            stderr,
            stderr_dropped,
        }
    }

    fn kill_group(&self) {
        if let Some(pgid) = self.pgid {
            // SAFETY: killpg only sends a signal; a group that is already gone yields ESRCH.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

/// A CPU set holding `cpus` (numbers past the set's capacity are left out).
pub fn cpu_set(cpus: &[usize]) -> libc::cpu_set_t {
    // SAFETY: cpu_set_t is a plain bit array; CPU_SET stays within it for valid numbers.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &cpu in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(cpu, &mut set);
        }
        set
    }
}

/// Restricts the calling thread (and the threads and processes it starts afterwards) to
/// `cpus`.
pub fn pin_current_thread(cpus: &[usize]) -> std::io::Result<()> {
    let set = cpu_set(cpus);
    // SAFETY: the set is a valid cpu_set_t of the size we pass.
    if unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// CPU time (user + system) of a running process, read through its CPU-time clock.
pub fn process_cpu_time(pid: i32) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls only write into the values we pass; a dead pid yields an error.
    unsafe {
        if libc::clock_getcpuclockid(pid, &mut clock) != 0
            || libc::clock_gettime(clock, &mut ts) != 0
        {
            return None;
        }
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // A game dropped mid-way (a panic, a cancelled task) still leaves no process behind.
        self.kill_group();
        self.reader.abort();
        self.writer.abort();
        self.stderr.abort();
    }
}
