//! `zebra-test-bot`: a bot that misbehaves on command, for the referee's tests.
//!
//! Without flags it behaves: it answers `hello`, `ping`, and every request with the first
//! legal action (or a legal formation from the engine), and exits on `quit` or the end of
//! stdin. Each flag below makes one misbehaviour really happen at the process level; they
//! combine. "Requests answered" counts requests, whatever was sent for them.
//!
//! | flag | what the process does |
//! |---|---|
//! | `--crash-after N` | exits with code 3 once N requests are answered (0: right after `ready`) |
//! | `--sleep-ms N` | sleeps N ms before each reply to a request |
//! | `--sleep-after N` | ... but only for requests after the first N |
//! | `--sleep-on-defense-ms N` | sleeps N ms before each reply to a request in which it is the defense (Football Chess) |
//! | `--busy-ms N` | computes (spins on the CPU) N ms before each reply to a request, after the first `--sleep-after` |
//! | `--garbage` | replies to requests with a line that is not JSON |
//! | `--chatty` | prints a line of debug text to stdout before each (valid) reply, as a bot author's forgotten print does |
//! | `--non-utf8` | replies with a JSON-shaped line holding bytes that are not UTF-8 |
//! | `--long-line BYTES` | replies with one line of exactly BYTES bytes (then `\n`): a valid action padded with a `pad` field when BYTES allows |
//! | `--no-flush` | writes everything (also `ready`) into a 64 KiB buffer that is never flushed |
//! | `--ignore-quit` | ignores `quit` and the end of stdin: sleeps forever |
//! | `--ignore-sigterm` | ignores SIGTERM (only SIGKILL ends it) |
//! | `--fork` | starts `sleep 1000` (holding the bot's stdout and stderr) and prints `child-pid N` (its pid as the bot's own /proc shows it) to stderr |
//! | `--fork-setsid` | double-forks a `sleep 3601` into a session of its own (it leaves the bot's process group) and prints `child-pid N` |
//! | `--flood-stdout WHEN` | writes to stdout as fast as it can: `start`: short lines of junk, instead of `ready`; `ready`: `log` messages from a thread after `ready`, while still answering |
//! | `--control-chars` | puts control characters and escape sequences in its name, author, version, a `log` line and its replies' action text |
//! | `--memory-mb MB` | allocates and touches MB MiB at its first request, and keeps them |
//! | `--spin` | a thread spins on the CPU from `ready` on, also while the opponent thinks; at `quit` it prints its whole CPU time as `cpu-ms N` to stderr |
//! | `--connect ADDR` | at its first request, tries a TCP connection to ADDR and prints `network: connected` or `network: failed (...)` to stderr |
//! | `--write-mb MB` | at its first request, writes an MB MiB file into `$TMPDIR` and prints `file: written` or `file: failed (...)` |
//! | `--ignore-sigxfsz` | ignores SIGXFSZ, and exits with code 1 when `--write-mb` fails, as a runtime that turns EFBIG into an exception does |
//! | `--report-cpus` | prints the CPUs it may run on as `cpus: 0,1` to stderr at start |
//! | `--report-netns` | prints its network namespace's cookie (a number the kernel never gives another namespace) as `netns: cookie 4096` to stderr at start (`netns: net:[4026532301]`, its inode, on kernels before 5.14) |
//! | `--threads N` | at its first request, starts N threads that sleep, and prints how many started as `threads: K` |
//! | `--no-ready` | never answers `hello` |
//! | `--banner` | prints a banner line and two blank lines at start, before `ready` |
//! | `--wrong-id` | before each real reply, sends a reply with an id never requested (id + 1000) |
//! | `--stale-id` | before each real reply, sends a reply with the previous request's id (id - 1 for the first) |
//! | `--double-reply` | sends each reply twice |
//! | `--illegal` | replies with a well-formed but illegal action: a move from an empty square |
//! | `--illegal-first N` | ... only to its first N requests, then behaves |
//! | `--stderr-flood MB` | writes MB MiB to stderr at start, before `ready` |
//! | `--close-stdout-after N` | closes stdout once N requests are answered, keeps running until `quit` |
//! | `--name NAME` | the name in `ready` (default `test`) |
//! | `--attack LIST` | at its first request, attacks (comma-separated, see `test_bot_attacks.rs`): `processes` (counts what /proc shows), `pipes` (writes junk and a forged result into every other process's descriptors), `cgroups` (moves itself into every cgroup), `freeze` (freezes every cgroup), `signal` (SIGSTOP to every pid up to 32,768 and the `--target`s), `ptrace` (attaches to every visible process and the targets), `fill-disk` (small files in $TMPDIR until refused), `ids` (its uid, capabilities, no_new_privs, seccomp), `unshare` (a user namespace of its own), `affinity` (tries to run on every CPU; says the CPUs it may use), `fds` (the descriptors it holds beyond stdio); one line `attack NAME: ...` each on stderr |
//! | `--target PID` | a host process the `signal` and `ptrace` attacks also aim at (repeatable) |
//! | `--read PATH` | at its first request, reads PATH: `read PATH: ok N bytes` or `... failed (why)` (repeatable) |
//! | `--write PATH` | at its first request, creates PATH: `write PATH: ok` or `... failed (why)` (repeatable) |
//! | `--wait-for PATH` | at its first request (after `--write`), waits up to 30 s for PATH to exist: `wait-for PATH: found` or `... not found` |
//!
//! The extra replies of `--wrong-id` and `--stale-id` carry an illegal action, so a
//! referee that took one would show it (status `illegal`).
//!
//! It plays Boyer's Football too (`game_start.rules` `boyer-football`): the first legal
//! sub-move, and for an illegal one a piece move that is not in the request's legal list;
//! and Chess Eleven: the default formation or the first legal action, and `a1a1` for an
//! illegal one.

use std::io::{self, BufRead, BufWriter, StdoutLock, Write};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

use clap::Parser;

use zebra_engine::botkit::{self, Request};
use zebra_engine::games::boyer::wire::BoyerToBot;
use zebra_engine::games::chess_eleven::wire::ElevenToBot;
use zebra_engine::games::football_chess::wire::ToBot;
use zebra_engine::protocol::{FromBot, Want};
use zebra_engine::rules::Square;

#[path = "test_bot_attacks.rs"]
mod attacks;

#[derive(Parser, Debug, Default)]
#[command(name = "zebra-test-bot", about = "A bot that misbehaves on command")]
struct Args {
    /// Exit with code 3 once N requests are answered.
    #[arg(long, value_name = "N")]
    crash_after: Option<u64>,
    /// Sleep this long before each reply to a request.
    #[arg(long, value_name = "MS")]
    sleep_ms: Option<u64>,
    /// Spin on the CPU this long before each reply to a request.
    #[arg(long, value_name = "MS")]
    busy_ms: Option<u64>,
    /// Sleep (or spin) only for requests after the first N.
    #[arg(long, value_name = "N", default_value_t = 0)]
    sleep_after: u64,
    /// Sleep this long before each reply to a request in which it is the defense (the team
    /// that did not snap): a defense that sits at the edge of its reaction clock.
    #[arg(long, value_name = "MS")]
    sleep_on_defense_ms: Option<u64>,
    /// Reply with a line that is not JSON.
    #[arg(long)]
    garbage: bool,
    /// Print a line of debug text to stdout before each (valid) reply.
    #[arg(long)]
    chatty: bool,
    /// Reply with a line that is not UTF-8.
    #[arg(long)]
    non_utf8: bool,
    /// Reply with one line of exactly this many bytes.
    #[arg(long, value_name = "BYTES")]
    long_line: Option<usize>,
    /// Never flush stdout (a 64 KiB buffer).
    #[arg(long)]
    no_flush: bool,
    /// Ignore `quit` and the end of stdin; sleep forever.
    #[arg(long)]
    ignore_quit: bool,
    /// Ignore SIGTERM.
    #[arg(long)]
    ignore_sigterm: bool,
    /// Start a child process (`sleep 1000`) and print `child-pid N` to stderr.
    #[arg(long)]
    fork: bool,
    /// Never answer `hello`.
    #[arg(long)]
    no_ready: bool,
    /// Print a banner and blank lines before `ready`.
    #[arg(long)]
    banner: bool,
    /// Also send a reply with an id never requested.
    #[arg(long)]
    wrong_id: bool,
    /// Also send a reply with the previous request's id.
    #[arg(long)]
    stale_id: bool,
    /// Send every reply twice.
    #[arg(long)]
    double_reply: bool,
    /// Reply with a well-formed but illegal action.
    #[arg(long)]
    illegal: bool,
    /// Reply with an illegal action to the first N requests only.
    #[arg(long, value_name = "N")]
    illegal_first: Option<u64>,
    /// Speak protocol version 2 when offered, asking every request to carry the state and
    /// the legal list (so that it answers as in version 1).
    #[arg(long)]
    protocol2: bool,
    /// Write this many MiB to stderr at start.
    #[arg(long, value_name = "MB")]
    stderr_flood: Option<u64>,
    /// Close stdout once N requests are answered, and keep running.
    #[arg(long, value_name = "N")]
    close_stdout_after: Option<u64>,
    /// The name sent in `ready`.
    #[arg(long, default_value = "test")]
    name: String,
    /// Double-fork a `sleep 3601` into a new session.
    #[arg(long)]
    fork_setsid: bool,
    /// Flood stdout with short lines: `start` or `ready`.
    #[arg(long, value_name = "WHEN")]
    flood_stdout: Option<String>,
    /// Control characters in every string sent.
    #[arg(long)]
    control_chars: bool,
    /// Allocate and touch this many MiB at the first request.
    #[arg(long, value_name = "MB")]
    memory_mb: Option<usize>,
    /// Spin on the CPU in a thread from `ready` on.
    #[arg(long)]
    spin: bool,
    /// Try a TCP connection to this address at the first request.
    #[arg(long, value_name = "ADDR")]
    connect: Option<String>,
    /// Write a file of this many MiB into $TMPDIR at the first request.
    #[arg(long, value_name = "MB")]
    write_mb: Option<u64>,
    /// Print the CPUs this process may run on.
    #[arg(long)]
    report_cpus: bool,
    /// Print this process's network namespace.
    #[arg(long)]
    report_netns: bool,
    /// Start this many sleeping threads at the first request.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Ignore SIGXFSZ; exit with code 1 when the --write-mb file cannot be written.
    #[arg(long)]
    ignore_sigxfsz: bool,
    /// Attacks at the first request, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    attack: Vec<String>,
    /// A host process the signal and ptrace attacks also aim at.
    #[arg(long, value_name = "PID")]
    target: Vec<i32>,
    /// Read this file at the first request.
    #[arg(long, value_name = "PATH")]
    read: Vec<String>,
    /// Create this file at the first request.
    #[arg(long, value_name = "PATH")]
    write: Vec<String>,
    /// At the first request (after `--write`), wait up to 30 s for this file to exist.
    #[arg(long, value_name = "PATH")]
    wait_for: Option<String>,
}

/// Something nasty for every string: an escape sequence, a bell, a tab, a bidi override.
const NASTY: &str = "\u{1b}[31mred\u{7}\t\u{202e}kcab\u{1}";

/// Writes `line` to stdout forever, unbuffered.
fn flood_stdout(line: &[u8]) -> ! {
    let chunk = line.repeat(64 * 1024 / line.len());
    loop {
        // SAFETY: writing our own buffer to our own stdout.
        if unsafe { libc::write(1, chunk.as_ptr().cast(), chunk.len()) } < 0 {
            sleep_forever();
        }
    }
}

/// A child that reports its own pid as seen from /proc (which is the host's: Zebra's
/// machine's view, also inside a PID namespace) on descriptor 3, then becomes `sleep`.
fn sleeper_script(seconds: u32) -> String {
    format!("read -r pid rest < /proc/self/stat; echo \"child-pid $pid\" >&3; exec sleep {seconds} 3>&-")
}

/// Runs `sh -c script` with descriptor 3 a pipe back to us, waits for the line the
/// sleeper writes there and prints it to stderr: when this returns, the sleeper runs.
fn start_sleeper(script: &str, stdout: Stdio) {
    use std::io::BufRead;
    use std::os::fd::FromRawFd;
    use std::os::unix::process::CommandExt;
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors that we own from here on.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        eprintln!("test-bot: cannot make a pipe");
        return;
    }
    let (read, write) = (fds[0], fds[1]);
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(stdout);
    // SAFETY: dup2 is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(write, 3) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = cmd.spawn();
    // SAFETY: our copy of the write end; the sleeper holds its own.
    unsafe {
        libc::close(write);
    }
    let mut child = match started {
        Ok(c) => c,
        Err(e) => {
            eprintln!("test-bot: cannot start a child: {e}");
            return;
        }
    };
    // SAFETY: the read end is ours alone.
    let mut reader = io::BufReader::new(unsafe { std::fs::File::from_raw_fd(read) });
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    eprint!("{line}");
    // `sh -c '(... &)'` returns at once; a direct sleeper is left running.
    let _ = child.try_wait();
}

/// The CPU time of this whole process (all threads) so far.
fn own_cpu_ms() -> u64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe {
        libc::getrusage(libc::RUSAGE_SELF, &mut ru);
    }
    let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
    ms(ru.ru_utime) + ms(ru.ru_stime)
}

/// The first request's extra misbehaviours.
fn first_request_extras(args: &Args, hoard: &mut Vec<Vec<u8>>) {
    if let Some(mb) = args.memory_mb {
        for _ in 0..mb {
            let mut block = vec![0u8; 1024 * 1024];
            for i in (0..block.len()).step_by(4096) {
                block[i] = 1;
            }
            hoard.push(block);
        }
        eprintln!("memory: {mb} MiB touched");
    }
    if let Some(addr) = &args.connect {
        match std::net::TcpStream::connect_timeout(
            &addr.parse().expect("--connect takes IP:PORT"),
            Duration::from_secs(2),
        ) {
            Ok(_) => eprintln!("network: connected"),
            Err(e) => eprintln!("network: failed ({e})"),
        }
    }
    if let Some(mb) = args.write_mb {
        let path = std::env::temp_dir().join("test-bot-big-file");
        let chunk = vec![7u8; 1024 * 1024];
        let result = std::fs::File::create(&path).and_then(|mut f| {
            for _ in 0..mb {
                f.write_all(&chunk)?;
            }
            f.sync_all()
        });
        match result {
            Ok(()) => eprintln!("file: written"),
            Err(e) => {
                eprintln!("file: failed ({e})");
                if args.ignore_sigxfsz {
                    std::process::exit(1);
                }
            }
        }
    }
    for path in &args.read {
        attacks::read(path);
    }
    for path in &args.write {
        attacks::write(path);
    }
    if let Some(path) = &args.wait_for {
        let until = std::time::Instant::now() + Duration::from_secs(30);
        let found = loop {
            if std::path::Path::new(path).exists() {
                break true;
            }
            if std::time::Instant::now() >= until {
                break false;
            }
            sleep(Duration::from_millis(5));
        };
        eprintln!(
            "wait-for {path}: {}",
            if found { "found" } else { "not found" }
        );
    }
    for name in &args.attack {
        attacks::run(name, &args.target);
    }
    if let Some(n) = args.threads {
        let started = (0..n)
            .filter(|_| {
                std::thread::Builder::new()
                    .spawn(|| sleep_forever())
                    .is_ok()
            })
            .count();
        eprintln!("threads: {started}");
    }
}

/// What the process does once `answered` requests (or the handshake, 0) are answered.
fn after_answer(args: &Args, answered: u64, out: &mut Out) {
    if args.close_stdout_after == Some(answered) {
        out.close();
    }
    if args.crash_after == Some(answered) {
        eprintln!("test-bot: loading the weights");
        if args.control_chars {
            eprintln!("test-bot: {NASTY} crashing on purpose");
        }
        eprintln!("test-bot: cannot load weights: crashing on purpose");
        std::process::exit(3);
    }
}

/// The requests answered so far, and what the first one made the process keep.
#[derive(Default)]
struct Answered {
    count: u64,
    last_id: Option<u64>,
    hoard: Vec<Vec<u8>>,
}

/// One request of either game: its id, a legal reply and a well-formed illegal one.
struct Asked {
    id: u64,
    ok: String,
    illegal: String,
}

/// Answers one request as the flags shape the reply.
fn answer(args: &Args, asked: Asked, out: &mut Out, answered: &mut Answered) {
    let Asked { id, ok, illegal } = asked;
    if answered.count == 0 {
        first_request_extras(args, &mut answered.hoard);
    }
    if let Some(ms) = args.sleep_ms {
        if answered.count >= args.sleep_after {
            sleep(Duration::from_millis(ms));
        }
    }
    if let Some(ms) = args.busy_ms {
        if answered.count >= args.sleep_after {
            let until = std::time::Instant::now() + Duration::from_millis(ms);
            let mut x = 0u64;
            while std::time::Instant::now() < until {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
        }
    }
    let illegal_now = args.illegal || args.illegal_first.is_some_and(|n| answered.count < n);
    let action = if illegal_now { &illegal } else { &ok };
    let bad = |bad_id: u64| {
        line(&FromBot::Action {
            id: bad_id,
            action: illegal.clone(),
            want: Vec::new(),
        })
    };
    if args.wrong_id {
        out.send(&bad(id.wrapping_add(1000)));
    }
    if args.stale_id {
        out.send(&bad(answered.last_id.unwrap_or(id.wrapping_sub(1))));
    }
    let reply = reply_bytes(args, id, action);
    out.send(&reply);
    if args.double_reply {
        out.send(&reply);
    }
    answered.last_id = Some(id);
    answered.count += 1;
    after_answer(args, answered.count, out);
}

/// A piece move of Boyer's Football that is not among the legal sub-moves.
fn illegal_sub_move(legal: &[String]) -> String {
    let squares = || (b'a'..=b'i').flat_map(|f| (1..=9).map(move |r| format!("{}{r}", f as char)));
    squares()
        .flat_map(|from| squares().map(move |to| format!("{from}{to}")))
        .find(|m| !legal.contains(m))
        .unwrap_or_else(|| "a1a1".to_string())
}

/// Where replies go: stdout flushed per line, a buffer never flushed, or nowhere.
enum Out {
    Flushing(StdoutLock<'static>),
    Buffered(BufWriter<StdoutLock<'static>>),
    Closed,
}

impl Out {
    fn send(&mut self, bytes: &[u8]) {
        let result = match self {
            Out::Flushing(w) => w.write_all(bytes).and_then(|_| w.flush()),
            Out::Buffered(w) => w.write_all(bytes),
            Out::Closed => Ok(()),
        };
        if let Err(e) = result {
            eprintln!("test-bot: cannot write to stdout: {e}");
        }
    }

    fn close(&mut self) {
        if let Out::Flushing(w) = self {
            let _ = w.flush();
        }
        // SAFETY: closing our own stdout descriptor; nothing writes to it afterwards.
        unsafe {
            libc::close(1);
        }
        *self = Out::Closed;
    }
}

fn line(msg: &FromBot) -> Vec<u8> {
    let mut v = serde_json::to_vec(msg).unwrap_or_default();
    v.push(b'\n');
    v
}

fn sleep_forever() -> ! {
    loop {
        sleep(Duration::from_secs(3600));
    }
}

/// A move from an empty square to another: well-formed, never legal.
fn illegal_action(req: &Request) -> String {
    let taken: Vec<Square> = req.state.pieces.iter().map(|p| p.square).collect();
    let mut empty = Square::all().filter(|s| !taken.contains(s));
    match (empty.next(), empty.next()) {
        (Some(a), Some(b)) => format!("{a}{b}"),
        _ => "a1a2".to_string(),
    }
}

/// The reply line for one request, as the flags shape it.
fn reply_bytes(args: &Args, id: u64, action: &str) -> Vec<u8> {
    if args.garbage {
        return b"this is not JSON {{{\n".to_vec();
    }
    if args.chatty {
        let mut v = format!("thinking about request {id}...\n").into_bytes();
        v.extend(line(&FromBot::Action {
            id,
            action: action.to_string(),
            want: Vec::new(),
        }));
        return v;
    }
    if args.non_utf8 {
        let mut v = format!(r#"{{"type":"action","id":{id},"action":""#).into_bytes();
        v.extend_from_slice(b"\xff\xfe\xc3(");
        v.extend_from_slice(b"\"}\n");
        return v;
    }
    if let Some(n) = args.long_line {
        let head = format!(r#"{{"type":"action","id":{id},"action":"{action}","pad":""#);
        let mut v = head.into_bytes();
        if v.len() + 2 <= n {
            v.resize(n - 2, b'x');
            v.extend_from_slice(b"\"}");
        } else {
            v = vec![b'x'; n];
        }
        v.push(b'\n');
        return v;
    }
    line(&FromBot::Action {
        id,
        action: action.to_string(),
        want: Vec::new(),
    })
}

fn main() {
    let args = Args::parse();
    let stdout = io::stdout().lock();
    let mut out = if args.no_flush {
        Out::Buffered(BufWriter::with_capacity(64 * 1024, stdout))
    } else {
        Out::Flushing(stdout)
    };
    if args.ignore_sigterm {
        // SAFETY: installing SIG_IGN for SIGTERM has no preconditions.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
        }
    }
    if args.ignore_sigxfsz {
        // SAFETY: installing SIG_IGN for SIGXFSZ has no preconditions.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
    }
    if let Some(mb) = args.stderr_flood {
        let chunk = "flood ".repeat(1024 * 1024 / 6 / 16) + "\n";
        let mut stderr = io::stderr().lock();
        let mut left = mb * 1024 * 1024;
        while left > 0 {
            let n = (chunk.len() as u64).min(left) as usize;
            if stderr.write_all(&chunk.as_bytes()[..n]).is_err() {
                break;
            }
            left -= n as u64;
        }
    }
    if args.report_cpus {
        let cpus: Vec<String> = allowed_cpus().iter().map(|c| c.to_string()).collect();
        eprintln!("cpus: {}", cpus.join(","));
    }
    if args.report_netns {
        match netns_cookie() {
            Some(cookie) => eprintln!("netns: cookie {cookie}"),
            None => match std::fs::read_link("/proc/self/ns/net") {
                Ok(link) => eprintln!("netns: {}", link.display()),
                Err(e) => eprintln!("netns: unknown ({e})"),
            },
        }
    }
    if args.fork {
        start_sleeper(&sleeper_script(1000), Stdio::inherit());
    }
    if args.fork_setsid {
        // `( ... & )`: the subshell exits at once, so the sleeper is a grandchild whose
        // parent is gone; `setsid` puts it in a session (and process group) of its own.
        let script = format!("(setsid sh -c '{}' &)", sleeper_script(3601));
        start_sleeper(&script, Stdio::null());
    }
    if args.flood_stdout.as_deref() == Some("start") {
        flood_stdout(b"x\n");
    }
    if args.banner {
        out.send(b"Zebra test bot 1.0 -- misbehaving since today\n\n\n");
    }

    let mut answered = Answered::default();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                if args.ignore_quit {
                    sleep_forever();
                }
                std::process::exit(0);
            }
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim().trim_start_matches('\u{feff}');
        if text.is_empty() {
            continue;
        }
        let msg = match serde_json::from_str::<ToBot>(text) {
            Ok(m) => m,
            // Boyer's Football's own messages: only its requests need an answer.
            Err(e) => match serde_json::from_str::<BoyerToBot>(text) {
                Ok(BoyerToBot::Request { id, legal, .. }) => {
                    let legal = legal.unwrap_or_default();
                    let ok = legal.first().cloned().unwrap_or_else(|| "pass".to_string());
                    let asked = Asked {
                        id,
                        ok,
                        illegal: illegal_sub_move(&legal),
                    };
                    answer(&args, asked, &mut out, &mut answered);
                    continue;
                }
                Ok(_) => continue,
                // Chess Eleven's requests: the default formation or the first legal action.
                Err(_) => match serde_json::from_str::<ElevenToBot>(text) {
                    Ok(ElevenToBot::Request {
                        id,
                        decision,
                        side,
                        legal,
                        ..
                    }) => {
                        let ok = match legal
                            .as_ref()
                            .and_then(|l| l.as_ref())
                            .and_then(|l| l.first())
                        {
                            _ if decision == "formation" => {
                                zebra_engine::games::chess_eleven::formation::default_for(side)
                                    .to_string()
                            }
                            Some(first) => first.clone(),
                            None => "end".to_string(),
                        };
                        let asked = Asked {
                            id,
                            ok,
                            // A move from a square onto itself is never legal.
                            illegal: "a1a1".to_string(),
                        };
                        answer(&args, asked, &mut out, &mut answered);
                        continue;
                    }
                    Ok(_) => continue,
                    Err(_) => {
                        eprintln!("test-bot: skipped a line ({e})");
                        continue;
                    }
                },
            },
        };
        match &msg {
            ToBot::Hello { versions, .. } => {
                if args.no_ready {
                    continue;
                }
                let nasty = |s: &str| {
                    if args.control_chars {
                        format!("{s}{}", NASTY)
                    } else {
                        s.to_string()
                    }
                };
                let two = args.protocol2 && versions.contains(&2);
                out.send(&line(&FromBot::Ready {
                    version: if two { 2 } else { 1 },
                    name: nasty(&args.name),
                    author: nasty("zebra"),
                    bot_version: nasty(env!("CARGO_PKG_VERSION")),
                    capabilities: Vec::new(),
                    options: Vec::new(),
                    wants: if two {
                        vec![Want::State, Want::Legal]
                    } else {
                        Vec::new()
                    },
                }));
                if args.control_chars {
                    out.send(&line(&FromBot::Log {
                        message: nasty("log"),
                    }));
                }
                if args.flood_stdout.as_deref() == Some("ready") {
                    std::thread::spawn(|| flood_stdout(b"{\"type\":\"log\",\"message\":\"x\"}\n"));
                }
                if args.spin {
                    std::thread::spawn(|| {
                        let mut x = 0u64;
                        loop {
                            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                        }
                    });
                }
                after_answer(&args, answered.count, &mut out);
            }
            ToBot::Ping { id } => out.send(&line(&FromBot::Pong { id: *id })),
            ToBot::Quit => {
                if args.spin {
                    eprintln!("cpu-ms {}", own_cpu_ms());
                }
                if args.ignore_quit {
                    sleep_forever();
                }
                std::process::exit(0);
            }
            ToBot::Request { .. } => {
                let Some(req) = Request::from_message(&msg) else {
                    continue;
                };
                if let Some(ms) = args.sleep_on_defense_ms {
                    if req.side != req.state.offense {
                        sleep(Duration::from_millis(ms));
                    }
                }
                let asked = Asked {
                    id: req.id,
                    ok: if args.control_chars {
                        format!("a1{}", NASTY)
                    } else {
                        botkit::fallback(&req)
                    },
                    illegal: illegal_action(&req),
                };
                answer(&args, asked, &mut out, &mut answered);
            }
            _ => {}
        }
    }
}

/// The CPUs this process may run on (its affinity mask), as the kernel reports it. Asked of
/// the kernel here rather than through the zebra library: like every bundled bot, the test
/// bot links the engine crate alone, which keeps it small enough to upload in the daemon's
/// tests.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity writes into the set passed, of the size passed.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// This process's network namespace cookie (`SO_NETNS_COOKIE`, Linux 5.14): unlike the
/// namespace's inode number, never the same for two namespaces.
fn netns_cookie() -> Option<u64> {
    const SO_NETNS_COOKIE: libc::c_int = 71;
    // SAFETY: a socket of our own, read into a u64 of the size given, then closed.
    unsafe {
        let s = libc::socket(libc::AF_UNIX, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if s < 0 {
            return None;
        }
        let mut cookie = 0u64;
        let mut len = std::mem::size_of::<u64>() as libc::socklen_t;
        let r = libc::getsockopt(
            s,
            libc::SOL_SOCKET,
            SO_NETNS_COOKIE,
            (&mut cookie as *mut u64).cast(),
            &mut len,
        );
        libc::close(s);
        (r == 0).then_some(cookie)
    }
}
