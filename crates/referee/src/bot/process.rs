//! One bot process: spawned in its own process group, stdio wired to the transport tasks,
//! stderr drained into a capped buffer, and at the end quit, grace, kill, reap.

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::sandbox::{self, jail::Containment, Exit, Jail, Limits, Policy};

use super::transport::{
    read_lines, write_lines, Incoming, Outgoing, MAX_QUEUED_BYTES, QUEUE_LINES,
};

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
    /// What the bot may use (see `sandbox`).
    pub limits: Limits,
}

/// A command line split into words as a POSIX shell splits them: spaces separate words,
/// single and double quotes and backslashes keep spaces inside one (`'my bots/run.sh' -q`);
/// nothing is expanded (no variables, globs or `~`) and no shell runs. The shell-words
/// crate does the splitting (the POSIX rules, well tested), so quoting means what users
/// expect from their shell. Errors: an unclosed quote, or no word at all.
pub(crate) fn split_command(command: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(command).map_err(|_| {
        format!("the command '{command}' has a quote that is not closed: close it, or escape it with \\")
    })?;
    if words.is_empty() || words[0].is_empty() {
        return Err("the command is empty: give the program to run".to_string());
    }
    Ok(words)
}

impl BotSpec {
    /// A bot from a command line: the first word is the program, the rest its arguments,
    /// split as [`split_command`] splits them.
    pub fn from_command(name: &str, command: &str) -> Result<BotSpec, String> {
        let mut words = split_command(command)?.into_iter();
        let program = PathBuf::from(words.next().unwrap_or_default());
        Ok(BotSpec {
            name: name.to_string(),
            program,
            args: words.collect(),
            dir: None,
            env: Vec::new(),
            options: serde_json::Map::new(),
            cpus: None,
            limits: Limits::default(),
        })
    }
}

impl BotSpec {
    /// Where the program is: a bare name of a bot bundled with Zebra (`zebra-greedy-bot`)
    /// is taken from `bundled`, Zebra's own directory, as the OS would take it from PATH.
    pub fn resolve_bundled(&mut self, bundled: &Path) {
        if self.program.components().count() == 1 {
            let candidate = bundled.join(&self.program);
            if candidate.is_file() {
                self.program = candidate;
            }
        }
    }

    /// The program as an absolute path: relative to `dir` (else the working directory)
    /// when it names a path, else found on PATH.
    pub(crate) fn resolved_program(&self) -> std::io::Result<PathBuf> {
        if self.program.components().count() > 1 || self.program.is_absolute() {
            let cwd = std::env::current_dir()?;
            let base = self.dir.as_ref().map_or(cwd.clone(), |d| cwd.join(d));
            return Ok(base.join(&self.program));
        }
        let name = self.program.to_string_lossy();
        sandbox::view::find_on_path(&name).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no program '{name}' on PATH"),
            )
        })
    }

    /// Whether the program can be run: a path (relative to `dir` when it has one) or a name
    /// found on PATH, naming an executable file. Checked before anything starts, so that a
    /// typo is one line, not a forfeited game.
    pub fn check_program(&self) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let candidates: Vec<PathBuf> = if self.program.components().count() > 1 {
            vec![match &self.dir {
                Some(dir) if self.program.is_relative() => dir.join(&self.program),
                _ => self.program.clone(),
            }]
        } else {
            std::env::var_os("PATH")
                .map(|p| {
                    std::env::split_paths(&p)
                        .map(|d| d.join(&self.program))
                        .collect()
                })
                .unwrap_or_default()
        };
        let runnable = |p: &PathBuf| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        };
        if let Some(dir) = &self.dir {
            if !dir.is_dir() {
                return Err(format!(
                    "bot '{}': its directory {} does not exist",
                    self.name,
                    dir.display()
                ));
            }
        }
        if candidates.iter().any(runnable) {
            Ok(())
        } else {
            Err(format!(
                "bot '{}': cannot find the program '{}' (or it is not executable); give a path, or build it (bundled bots: cargo build --release)",
                self.name,
                self.program.display()
            ))
        }
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
    /// The exit code or signal, as the kernel reported it (`None`: not known).
    pub exit: Option<Exit>,
    /// It had to be killed after the grace period.
    pub killed: bool,
    /// The start of its stderr (at most the cap), and how many bytes were dropped.
    pub stderr: Vec<u8>,
    pub stderr_dropped: u64,
    /// The last bytes of its stderr (at most [`STDERR_TAIL`]), for crash reasons.
    pub stderr_tail: Vec<u8>,
    /// What the sandbox counted: memory kills, refused forks, stragglers.
    pub containment: Containment,
}

/// Bytes of a bot's stderr kept per game.
pub(crate) const STDERR_CAP: usize = 1024 * 1024;

/// Bytes of the end of a bot's stderr kept for its crash reason.
pub(crate) const STDERR_TAIL: usize = 4096;

/// A running bot.
pub struct BotProcess {
    pub name: String,
    child: Child,
    pgid: Option<i32>,
    /// The bot's own process (with a keeper between, not the same as `pgid`).
    bot_pid: Option<i32>,
    jail: Jail,
    /// Where the bot's init says how the bot ended (walled bots; see [`Jail::take_fate`]).
    fate: Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>>,
    /// Shut down ([`BotProcess::shutdown`]): its group is not killed again when dropped
    /// (its keeper may still be reaping the init, or be reaped already).
    ended: bool,
    frozen: bool,
    freezes: u32,
    to_bot: Option<mpsc::UnboundedSender<Outgoing>>,
    queued: Arc<AtomicUsize>,
    from_bot: mpsc::Receiver<Incoming>,
    stderr: JoinHandle<(Vec<u8>, u64, Vec<u8>)>,
    writer: JoinHandle<()>,
    reader: JoinHandle<()>,
}

/// A bot whose process is started while its wall may still be going up
/// ([`BotProcess::start`]); [`Starting::ready`] waits for it. Dropped before that, it
/// kills what was started.
pub struct Starting {
    name: String,
    program: String,
    child: Option<Child>,
    pgid: Option<i32>,
    jail: Option<Jail>,
    pending: Option<sandbox::launch::Pending>,
    max_line: usize,
}

/// A bot staged ahead of its game ([`BotProcess::stage`]): its wall is built, its program
/// not yet run. [`Staged::release`] lets it start; dropped, it is killed and its jail
/// removed, its program never run.
pub struct Staged {
    starting: Starting,
    go: std::os::fd::OwnedFd,
}

impl BotProcess {
    /// Starts the bot in a new process group with piped stdio, contained as `policy` says,
    /// and waits until it runs.
    pub fn spawn(
        spec: &BotSpec,
        max_line: usize,
        policy: Policy,
    ) -> Result<BotProcess, SpawnError> {
        Self::start(spec, max_line, policy)?.ready()
    }

    /// The first half of [`BotProcess::spawn`]: the process is started, but a walled bot
    /// launched without a fork ([`sandbox::launch`]) may still be setting up.
    pub fn start(spec: &BotSpec, max_line: usize, policy: Policy) -> Result<Starting, SpawnError> {
        let (starting, _) = Self::begin(spec, max_line, policy, None)?.expect("not staged");
        Ok(starting)
    }

    /// Sets the bot up ahead of its game, on the CPUs `on` (where no game runs): its jail
    /// and wall are built, and it waits before its program's exec until
    /// [`Staged::release`]. `Ok(None)` when this bot cannot be staged (no launcher, no wall
    /// to wait behind: it starts as usual when its game does).
    pub fn stage(
        spec: &BotSpec,
        max_line: usize,
        policy: Policy,
        on: &[usize],
    ) -> Result<Option<Staged>, SpawnError> {
        Ok(match Self::begin(spec, max_line, policy, Some(on))? {
            Some((mut starting, Some(go))) => {
                // Back once it waits walled (or its setup ended): its CPUs are free again.
                if let Some(jail) = starting.jail.as_mut() {
                    jail.await_held();
                }
                Some(Staged { starting, go })
            }
            _ => None,
        })
    }

    /// [`BotProcess::start`], or with `stage` a staged start on those CPUs (with the
    /// release's descriptor; `None` and nothing started when it cannot be staged).
    #[allow(clippy::type_complexity)]
    fn begin(
        spec: &BotSpec,
        max_line: usize,
        policy: Policy,
        stage: Option<&[usize]>,
    ) -> Result<Option<(Starting, Option<std::os::fd::OwnedFd>)>, SpawnError> {
        let spawn_error = |source| SpawnError {
            name: spec.name.clone(),
            program: spec.program.display().to_string(),
            source,
        };
        // The program by its absolute path: in its own view the bot's PATH may name
        // directories it cannot see.
        let program = spec.resolved_program().map_err(spawn_error)?;
        let identity = format!(
            "{:?}",
            (&spec.name, &program, &spec.args, &spec.dir, &spec.env)
        );
        let files = sandbox::jail::BotFiles {
            program: &program,
            args: &spec.args,
            dir: spec.dir.as_deref(),
            identity: &identity,
        };
        let jail = Jail::prepare(files, &spec.limits, policy.mode, policy.freeze_idle)
            .map_err(spawn_error)?;
        let parent = std::process::id() as libc::pid_t;
        let (cpus, hold) = match stage {
            None => (spec.cpus.as_deref(), None),
            Some(_) if !jail.can_stage() => return Ok(None),
            Some(on) => {
                let (wait, go) = sandbox::launch::hold_pipe().map_err(spawn_error)?;
                (Some(on), Some((wait, go)))
            }
        };
        // Walled, through the launcher where there is one (no copy of Zebra's memory).
        let launch = jail.launch(
            parent,
            cpus,
            &spec.env,
            hold.as_ref().map(|(wait, _)| wait.as_raw_fd()),
        );
        if hold.is_some() && launch.is_none() {
            return Ok(None);
        }
        let mut cmd = match &launch {
            Some(launch) => launch.command(&program, spec.program.as_os_str(), &spec.args),
            None => {
                let mut cmd = Command::new(&program);
                cmd.arg0(&spec.program).args(&spec.args);
                let cpus = spec.cpus.as_deref().map(cpu_set);
                // SAFETY: `tie` makes only async-signal-safe calls; the CPU set was built
                // before the fork.
                unsafe {
                    cmd.pre_exec(move || sandbox::launch::tie(parent, cpus.as_ref()));
                }
                cmd
            }
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Its own group, so that killing the group also takes its children.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        if launch.is_none() {
            for (k, v) in &spec.env {
                cmd.env(k, v);
            }
            jail.configure(&mut cmd);
        }
        let (child, pending) = sandbox::register_bot(|| {
            let child = match launch {
                Some(launch) => launch.spawn(|| cmd.spawn()).map(|(c, p)| (c, Some(p))),
                None => sandbox::launch::ordinary(|| cmd.spawn()).map(|c| (c, None)),
            };
            let pid = child
                .as_ref()
                .ok()
                .and_then(|(c, _)| c.id())
                .map(|p| p as i32);
            (child, pid)
        })
        .map_err(spawn_error)?;
        Ok(Some((
            Starting {
                name: spec.name.clone(),
                program: spec.program.display().to_string(),
                pgid: child.id().map(|id| id as i32),
                child: Some(child),
                jail: Some(jail),
                pending,
                max_line,
            },
            // The launcher has its end; ours is the release.
            hold.map(|(_, go)| go),
        )))
    }
}

impl Staged {
    /// Lets the staged bot start, pinned to `cpus` (its game's; `None`: any of Zebra's,
    /// not the spare CPU it was set up on): it execs its program now. [`Starting::ready`]
    /// then waits for that.
    pub fn release(self, cpus: Option<&[usize]>) -> Result<Starting, SpawnError> {
        let Staged { starting, go } = self;
        let anywhere;
        let cpus = match cpus {
            Some(cpus) => Some(cpus),
            None => {
                anywhere = process_cpus();
                (!anywhere.is_empty()).then_some(anywhere.as_slice())
            }
        };
        if let Err(e) = sandbox::launch::release(go, cpus) {
            // No bot reads its release: its setup failed, and its report says why.
            let mut starting = starting;
            let source = match starting.pending.take().map(sandbox::launch::Pending::wait) {
                Some(Err(why)) => why,
                // No report: the launcher or the bot was killed; say how it ended.
                _ => match starting.child.as_mut().map(Child::try_wait) {
                    Some(Ok(Some(status))) => {
                        std::io::Error::other(format!("{e}; its launcher ended: {status}"))
                    }
                    _ => e,
                },
            };
            return Err(SpawnError {
                name: starting.name.clone(),
                program: starting.program.clone(),
                source,
            });
        }
        // Its keeper (the launcher, leading its group) goes where the bot goes.
        if let (Some(pgid), Some(cpus)) = (starting.pgid, cpus) {
            let set = cpu_set(cpus);
            // SAFETY: sched_setaffinity only reads the set we pass.
            unsafe {
                libc::sched_setaffinity(pgid, std::mem::size_of::<libc::cpu_set_t>(), &set);
            }
        }
        Ok(starting)
    }
}

impl Starting {
    /// The second half of [`BotProcess::spawn`]: waits until the bot has exec'd (or its
    /// setup failed), then wires its stdio.
    pub fn ready(mut self) -> Result<BotProcess, SpawnError> {
        if let Some(pending) = self.pending.take() {
            if let Err(source) = pending.wait() {
                return Err(SpawnError {
                    name: self.name.clone(),
                    program: self.program.clone(),
                    source,
                });
            }
        }
        let (Some(mut child), Some(mut jail)) = (self.child.take(), self.jail.take()) else {
            unreachable!("taken only here");
        };
        let max_line = self.max_line;
        let pgid = self.pgid;
        let bot_pid = jail.bot_pid(pgid);
        let fate = jail.take_fate().and_then(|fd| {
            // SAFETY: fcntl on a descriptor we own.
            unsafe {
                let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
                libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
            // SAFETY: an OwnedFd stays open, the same descriptor, for as long as it lives.
            unsafe { tokio::io::unix::AsyncFd::register(fd) }.ok()
        });
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");

        let (in_tx, in_rx) = mpsc::channel(QUEUE_LINES);
        let reader = tokio::spawn(read_lines(stdout, max_line, in_tx));
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let writer = tokio::spawn(write_lines(stdin, out_rx, queued.clone()));
        // Drained continuously so a chatty bot never blocks on a full stderr pipe.
        let stderr = tokio::spawn(async move {
            let mut kept = Vec::new();
            let mut dropped = 0u64;
            let mut tail = Vec::with_capacity(2 * STDERR_TAIL);
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let room = STDERR_CAP.saturating_sub(kept.len()).min(n);
                        kept.extend_from_slice(&buf[..room]);
                        dropped += (n - room) as u64;
                        tail.extend_from_slice(&buf[n.saturating_sub(STDERR_TAIL)..n]);
                        if tail.len() > STDERR_TAIL {
                            tail.drain(..tail.len() - STDERR_TAIL);
                        }
                    }
                }
            }
            (kept, dropped, tail)
        });
        Ok(BotProcess {
            name: self.name.clone(),
            child,
            pgid,
            bot_pid,
            jail,
            fate,
            ended: false,
            frozen: false,
            freezes: 0,
            to_bot: Some(out_tx),
            queued,
            from_bot: in_rx,
            stderr,
            writer,
            reader,
        })
    }
}

impl Drop for Starting {
    fn drop(&mut self) {
        // Not made ready: whatever the launch started goes (its report said why, nobody
        // waited for it, or a staged bot was never released).
        if self.child.is_some() {
            if let Some(pgid) = self.pgid {
                // SAFETY: killpg only sends a signal.
                unsafe {
                    libc::killpg(pgid, libc::SIGKILL);
                }
                sandbox::unregister_bot(pgid);
            }
        }
    }
}

impl BotProcess {
    /// The bot's process id (also its process group id).
    pub fn pid(&self) -> Option<i32> {
        self.pgid
    }

    /// The CPU time the bot's process (all its threads, not its children) has used so far,
    /// from the kernel's accounting, in nanoseconds' resolution; `None` once it is gone.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        process_cpu_time(self.bot_pid?)
    }

    /// Stops the bot's whole process tree (`true`) or lets it run again: a bot may not
    /// compute while it is not its turn (`--freeze-idle`).
    pub fn set_frozen(&mut self, frozen: bool) {
        if self.frozen != frozen {
            self.jail.freeze(self.pgid, frozen);
            self.frozen = frozen;
            self.freezes += u32::from(frozen);
        }
    }

    /// Whether the bot is stopped now.
    pub(crate) fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// How many times the bot was stopped so far.
    pub fn freezes(&self) -> u32 {
        self.freezes
    }

    /// Whether freezing goes through a cgroup freezer (else by signals to the group).
    pub fn freezes_by_cgroup(&self) -> bool {
        self.jail.freezes_by_cgroup()
    }

    /// Forks or threads refused at the bot's process limit so far (0 without a pids
    /// cgroup).
    pub(crate) fn pids_refused(&self) -> u64 {
        self.jail.pids_refused()
    }

    /// Whether the bot runs as PID 1 of its own namespace.
    pub fn namespaced(&self) -> bool {
        self.jail.namespaced()
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
    /// No stream of lines can postpone the deadline: a line stamped after it (read late
    /// because earlier lines filled the queue) is dropped and ends the wait.
    /// [`BotProcess::recv_until`] that also returns at `alarm` (when it comes before
    /// `deadline`) with nothing read: one timer for both, where a second timer beside the
    /// first would cost every decision its own registration.
    pub(crate) async fn recv_or_alarm(
        &mut self,
        deadline: Instant,
        alarm: Option<Instant>,
    ) -> Waited {
        let until = match alarm {
            Some(at) if at < deadline => at,
            _ => {
                return self
                    .recv_until(deadline)
                    .await
                    .map_or(Waited::Deadline, Waited::Got)
            }
        };
        if Instant::now() >= until {
            return Waited::Alarm;
        }
        match tokio::time::timeout_at(until, self.from_bot.recv()).await {
            // Read before the alarm: before the deadline too.
            Ok(Some(msg)) => Waited::Got(msg),
            Ok(None) => Waited::Got(Incoming::Closed { at: Instant::now() }),
            Err(_) => Waited::Alarm,
        }
    }

    pub(crate) async fn recv_until(&mut self, deadline: Instant) -> Option<Incoming> {
        // `timeout_at` polls the receiver before the timer, so a queue that is never empty
        // would never time out: the deadline is checked by hand first.
        if Instant::now() >= deadline {
            let msg = self.from_bot.try_recv().ok()?;
            return (msg.at() <= deadline).then_some(msg);
        }
        match tokio::time::timeout_at(deadline, self.from_bot.recv()).await {
            Ok(Some(msg)) if msg.at() > deadline => None,
            Ok(Some(msg)) => Some(msg),
            // The reader is gone: it already reported Closed.
            Ok(None) => Some(Incoming::Closed { at: Instant::now() }),
            Err(_) => None,
        }
    }

    /// Whether the bot's process ends within `patience` (it is reaped then): a bot whose
    /// output closed is either exiting (a crash) or living on without it.
    pub(crate) async fn exits_within(&mut self, patience: Duration) -> bool {
        matches!(
            tokio::time::timeout(patience, self.child.wait()).await,
            Ok(Ok(_))
        )
    }

    /// Whatever the bot has already sent, without waiting.
    pub fn try_recv(&mut self) -> Option<Incoming> {
        self.from_bot.try_recv().ok()
    }

    /// Ends the bot: closes its stdin (the caller sends `quit` first), waits up to `grace`
    /// for it to exit, then kills its whole process group, and reaps it.
    pub async fn shutdown(mut self, grace: Duration) -> ExitInfo {
        // A frozen bot could not read its quit.
        self.set_frozen(false);
        // Dropping the sender lets the writer flush what is queued and close the pipe.
        self.to_bot.take();
        let _ = tokio::time::timeout(grace, &mut self.writer).await;
        // A walled bot's end is known from its init, before its keeper and namespaces are
        // gone (the janitor waits for those); else from its process's exit.
        let fate = self.fate.take();
        let child = &mut self.child;
        let exited = tokio::time::timeout(grace, async move {
            if let Some(fate) = &fate {
                tokio::select! {
                    status = child.wait() => return status.ok().map(|s| (s, false)),
                    told = told_fate(fate) => {
                        if let Some(status) = told {
                            return Some((status, true));
                        }
                    }
                }
            }
            child.wait().await.ok().map(|s| (s, false))
        })
        .await;
        let (status, killed, told) = match exited {
            Ok(Some((status, told))) => (Some(status), false, told),
            _ => (None, true, false),
        };
        if told {
            // The bot is gone; its init's end takes every process of its namespace, and the
            // keeper, reaping the init, then ends too. Not killed now (a keeper killed before
            // it reaps the init would leave the init to whoever reaps orphans): the janitor
            // waits for the keeper before it removes anything, and kills only a keeper that
            // outstays that wait.
            if let Some(pid) = self.pgid {
                self.jail.after_keeper(pid);
            }
        } else {
            // Always kill the group: the bot may be gone while its children live on.
            self.kill_group();
        }
        let status = match status {
            Some(s) => Some(s),
            None => self.child.wait().await.ok(),
        };
        self.writer.abort();
        if let Some(pid) = self.pgid {
            sandbox::unregister_bot(pid);
        }
        self.ended = true;
        let containment = self.jail.finish();
        let (stderr, stderr_dropped, stderr_tail) =
            match tokio::time::timeout(grace, &mut self.stderr).await {
                Ok(Ok(v)) => v,
                _ => {
                    self.stderr.abort();
                    (Vec::new(), 0, Vec::new())
                }
            };
        self.reader.abort();
        use std::os::unix::process::ExitStatusExt;
        ExitInfo {
            code: status.and_then(|s| s.code()),
            exit: status.and_then(|s| match (s.code(), s.signal()) {
                (Some(c), _) => Some(Exit::Code(c)),
                (None, Some(sig)) => Some(Exit::Signal(sig)),
                _ => None,
            }),
            killed,
            stderr,
            stderr_dropped,
            stderr_tail,
            containment,
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

/// The bot's wait status as its init wrote it on `fate`; `None` at the pipe's end without
/// one (the init was killed).
async fn told_fate(
    fate: &tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>,
) -> Option<std::process::ExitStatus> {
    use std::os::unix::process::ExitStatusExt;
    let mut word = [0u8; 4];
    let mut got = 0;
    loop {
        let mut ready = fate.readable().await.ok()?;
        let read = ready.try_io(|fd| {
            // SAFETY: read into the part of our buffer still to fill.
            let n = unsafe {
                libc::read(
                    fd.as_raw_fd(),
                    word[got..].as_mut_ptr().cast(),
                    word.len() - got,
                )
            };
            if n < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(n as usize)
            }
        });
        match read {
            Ok(Ok(0)) | Ok(Err(_)) => return None,
            Ok(Ok(n)) => {
                got += n;
                if got == word.len() {
                    // A staged bot's marker (a pid read that came too late): no status.
                    let raw = i32::from_ne_bytes(word);
                    return (raw != -1).then(|| std::process::ExitStatus::from_raw(raw));
                }
            }
            Err(_would_block) => continue,
        }
    }
}

/// The CPUs Zebra's process may use (its main thread's; a game's thread may be pinned).
fn process_cpus() -> Vec<usize> {
    // SAFETY: getpid cannot fail.
    cpus_of(unsafe { libc::getpid() })
}

/// The CPUs thread `tid` may run on (0: the calling one), in order; empty if the kernel does
/// not say.
pub fn cpus_of(tid: libc::pid_t) -> Vec<usize> {
    // SAFETY: sched_getaffinity writes into the set we pass, of the size we pass.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
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
pub(crate) fn process_cpu_time(pid: i32) -> Option<Duration> {
    // The process's CPU clock, made as the kernel defines it (MAKE_PROCESS_CPUCLOCK with
    // CPUCLOCK_SCHED): `clock_getcpuclockid` would first check the pid with a
    // `clock_getres`, one system call more at every decision. A pid that is gone makes
    // `clock_gettime` fail all the same.
    const CPUCLOCK_SCHED: libc::clockid_t = 2;
    let clock = (!pid << 3) | CPUCLOCK_SCHED;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes into the value we pass; a dead pid yields an error.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return None;
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// What [`BotProcess::recv_or_alarm`] came back with.
#[derive(Debug)]
pub(crate) enum Waited {
    Got(Incoming),
    Alarm,
    Deadline,
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // A game dropped mid-way (a panic, a cancelled task) still leaves no process behind
        // (the jail, dropped next, removes the bot's cgroups).
        if !self.ended {
            self.kill_group();
        }
        if let Some(pid) = self.pgid {
            sandbox::unregister_bot(pid);
        }
        self.reader.abort();
        self.writer.abort();
        self.stderr.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU clock made by hand is the process's: it reads this process's time, and a
    /// process that is gone has none.
    #[test]
    fn a_process_cpu_clock_reads_the_process_and_none_once_it_is_gone() {
        let me = std::process::id() as i32;
        let before = process_cpu_time(me).expect("this process's CPU time");
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(30) {
            x = x.wrapping_mul(31).wrapping_add(7);
        }
        std::hint::black_box(x);
        assert!(process_cpu_time(me).unwrap() > before);
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        child.wait().unwrap();
        assert_eq!(process_cpu_time(pid), None);
    }

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        let words = |c: &str| split_command(c).unwrap();
        assert_eq!(words("bot --fast  -q"), ["bot", "--fast", "-q"]);
        assert_eq!(
            words(r#"'my bots/run.sh' "a b" c\ d"#),
            ["my bots/run.sh", "a b", "c d"]
        );
        // Nothing is expanded: no shell runs.
        assert_eq!(words("bot $HOME ~ *"), ["bot", "$HOME", "~", "*"]);
        assert!(split_command("bot 'open")
            .unwrap_err()
            .contains("not closed"));
        assert!(split_command("   ").unwrap_err().contains("empty"));
        assert!(split_command("''").unwrap_err().contains("empty"));
    }
}
