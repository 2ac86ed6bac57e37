//! `zebra bench serve`: the daemon against `zebra match` on the same machine in the same run.
//!
//! - Throughput: the same queue of games between two instant bots, played by
//!   `zebra match`'s runner and by the daemon (in this process, over its own store and
//!   HTTP server) at the same concurrency, alternated `repeat` times; medians compared,
//!   and each daemon run with the match run just before it (the median of those ratios).
//!   The daemon's rate is the series' games over the time from its submission to the
//!   last game's stored finish (`finished_ms`), so that how often a client looks does
//!   not move it; meanwhile a client watches as a dashboard would ([`WATCH_EVERY`]).
//!   Beside each rate, the CPU time a game took over the same span: Zebra's own (this
//!   process's threads, where both the match's runner and the daemon run) and all CPUs'
//!   busy time (the bots and the kernel's work for them included). Both CPUs are busy
//!   with games, so the busy time per game is what the pace is made of, and its ratio
//!   says how much of a gap in games per second is work and how much is waiting; this
//!   shared machine's pace drifts by 10-25% within minutes, the CPU per game less.
//! - PostgreSQL (`--postgres URL`): the daemon's run again on a PostgreSQL store (a
//!   database made for each run on that server and dropped after), alternated with the
//!   SQLite runs: what the shared store costs a game.
//! - Remote workers: the same games played by a daemon that plays nothing itself and two
//!   `zebra worker` processes on this machine (each half the concurrency), over HTTP on
//!   127.0.0.1: what leasing, reporting and checking each record costs a game.
//! - API latency under load: one more daemon run in which a client asks for the series'
//!   status and then the leaderboard over HTTP on 127.0.0.1, one request at a time, and
//!   pauses [`LOAD_EVERY`] before the next two; p50 and p99, and the games per second under
//!   that load.
//! - Submission: one series of 10,000 games posted over HTTP, timed to its answer.
//! - Restart: the daemon started again on that data directory with the 10,000-game queue,
//!   timed from the call to its first answered `/healthz`.
//! - Memory: a `zebra serve` process over a store of 1,000 finished games and one of
//!   100,000, each asked every read route; its peak resident set should not grow with
//!   the store.
//!
//! Everything goes to a temporary directory, removed afterwards (each run's data directory
//! is kept until then: a daemon never deletes its records, and deleting a run's hundreds
//! of them just before the next run made every file the next one created cost the file
//! system a search past the inodes just freed, on this project's journal-less ext4 VM);
//! all traffic stays on 127.0.0.1 and is bounded in count and time.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::server::config::{Overrides, ServeSettings};
use crate::server::store::{BotState, Database, Store};

/// What `zebra bench serve` measured.
#[derive(Clone, Debug, Serialize)]
pub struct ServeBench {
    pub games: u32,
    pub concurrency: usize,
    /// Games per second of each run, alternated: `zebra match`'s and the daemon's.
    pub match_runs: Vec<f64>,
    pub daemon_runs: Vec<f64>,
    /// The daemon's median as a percentage of `zebra match`'s.
    pub daemon_percent: f64,
    /// The median of each repetition's daemon run as a percentage of the `zebra match` run
    /// just before it: steadier than the ratio of medians when the machine's pace drifts
    /// between repetitions.
    pub daemon_paired_percent: f64,
    /// The mean of those per-repetition percentages and its standard error (the standard
    /// deviation over the square root of the repetitions; 0 with fewer than two): whether
    /// a target is met on average, beyond this machine's drift.
    pub daemon_paired_mean: (f64, f64),
    /// Zebra's own CPU time per game (ms) in each of those runs: `zebra match`'s and the
    /// daemon's (this process's threads over the run's span).
    pub match_own_cpu_ms: Vec<f64>,
    pub daemon_own_cpu_ms: Vec<f64>,
    /// Of which the game threads' (the referee, the bots' start and wall, the transcript,
    /// the live feed): the rest is the runner's or the daemon's own work.
    pub match_game_threads_cpu_ms: Vec<f64>,
    pub daemon_game_threads_cpu_ms: Vec<f64>,
    /// All CPUs' busy time per game (ms) in each of those runs, and `zebra match`'s
    /// median as a percentage of the daemon's: the daemon's pace if CPU time alone made it.
    pub match_busy_ms: Vec<f64>,
    pub daemon_busy_ms: Vec<f64>,
    pub busy_percent: f64,
    /// Games per second of the daemon's runs under the read load, and their median as a
    /// percentage of `zebra match`'s.
    pub loaded_runs: Vec<f64>,
    pub loaded_percent: f64,
    /// Games per second of the runs with two remote workers, and their median as a
    /// percentage of `zebra match`'s.
    pub remote_runs: Vec<f64>,
    pub remote_percent: f64,
    /// Games per second of the daemon's runs on PostgreSQL (empty without `--postgres`),
    /// their median as a percentage of the SQLite runs' and of `zebra match`'s.
    pub postgres_runs: Vec<f64>,
    pub postgres_percent_of_sqlite: f64,
    pub postgres_percent: f64,
    /// Read requests answered while games ran under the read load, and their latency in
    /// milliseconds.
    pub reads: usize,
    pub read_p50_ms: f64,
    pub read_p99_ms: f64,
    pub read_max_ms: f64,
    /// One 10,000-game series submitted over HTTP, in seconds.
    pub submit_10k_seconds: f64,
    /// From starting the daemon on a 10,000-game queue to its first answer, in seconds.
    pub restart_seconds: f64,
    /// A `zebra serve` process's peak memory after it answered every read over a store of
    /// this many finished games: the small store first, then the large.
    pub stored: Vec<StoredMemory>,
}

/// The memory of a daemon serving reads over a store of finished games.
#[derive(Clone, Debug, Serialize)]
pub struct StoredMemory {
    pub games: u32,
    /// Peak resident set (VmHWM) of the `zebra serve` process, in KiB.
    pub peak_kib: u64,
}

/// Store sizes the memory measure compares: bounded means the same figure for both.
const STORED: [u32; 2] = [1_000, 100_000];

/// The time control of the benchmark's games: the match benchmark's.
const TC: &str = "plays=10,play=10s,reaction=10s";
/// The seed of the match side's series, and of the daemon's: both play the same games.
const MATCH_SEED: u64 = 1;
/// Reads per run at most (the load test is bounded whatever the machine's speed).
const MAX_READS: usize = 20_000;
/// How long the client of the throughput runs pauses between two rounds of reads (the
/// series' status, then the leaderboard): a dashboard that refreshes four times a second (the daemon's own index
/// page refreshes every 2 s; its live feeds look again every 250 ms).
pub const WATCH_EVERY: Duration = Duration::from_millis(250);
/// The pause between two rounds of reads of the load run: some 200 requests a second on
/// this project's machine, far more than people watching.
pub const LOAD_EVERY: Duration = Duration::from_millis(5);

/// Runs the benchmark; `bot` is the instant bot, `bundled` Zebra's directory.
pub async fn run(
    bot: &crate::bot::BotSpec,
    bundled: &Path,
    games: u32,
    concurrency: usize,
    repeat: u32,
    postgres: Option<&str>,
) -> Result<ServeBench, String> {
    if let Some(url) = postgres {
        Database::parse(url).map_err(|e| e.replace("--database", "--postgres"))?;
    }
    let root = std::env::temp_dir().join(format!("zebra-bench-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let result = measure(bot, bundled, games, concurrency, repeat, postgres, &root).await;
    let _ = std::fs::remove_dir_all(&root);
    result
}

async fn measure(
    bot: &crate::bot::BotSpec,
    bundled: &Path,
    games: u32,
    concurrency: usize,
    repeat: u32,
    postgres: Option<&str>,
    root: &Path,
) -> Result<ServeBench, String> {
    let games = games.max(2) / 2 * 2;
    let mut match_runs = Vec::new();
    let mut daemon_runs = Vec::new();
    let (mut match_cpu, mut daemon_cpu) = (Vec::new(), Vec::new());
    let mut loaded_runs = Vec::new();
    let mut remote_runs = Vec::new();
    let mut postgres_runs = Vec::new();
    let mut latencies = Vec::new();
    for k in 0..repeat {
        let spent = Spent::start();
        let m = crate::bench::series(
            bot,
            games,
            MATCH_SEED,
            &[concurrency],
            None,
            1,
            crate::series::placement::Affinity::Auto,
        )
        .await?;
        match_runs.push(m.runs[0].games_per_second);
        match_cpu.push(spent.per_game(games));
        // The daemon watched as people would, then under the read load.
        for (name, every) in [("run", WATCH_EVERY), ("loaded", LOAD_EVERY)] {
            let data = root.join(format!("{name}-{k}"));
            let (rate, mut reads, cpu) = daemon_run(
                bot,
                bundled,
                &data,
                &Database::Sqlite,
                games,
                concurrency,
                every,
            )
            .await?;
            if name == "loaded" {
                loaded_runs.push(rate);
                latencies.append(&mut reads);
            } else {
                daemon_runs.push(rate);
                daemon_cpu.push(cpu);
            }
        }
        if let Some(url) = postgres {
            let data = root.join(format!("postgres-{k}"));
            let name = format!("zebra_bench_{}_{k}", std::process::id());
            let database = blocking({
                let (url, name) = (url.to_string(), name.clone());
                move || fresh_database(&url, &name)
            })
            .await?;
            let run = daemon_run(
                bot,
                bundled,
                &data,
                &database,
                games,
                concurrency,
                WATCH_EVERY,
            )
            .await;
            let dropped = blocking({
                let (url, name) = (url.to_string(), name.clone());
                move || drop_database(&url, &name)
            })
            .await;
            postgres_runs.push(run?.0);
            dropped?;
        }
        let data = root.join(format!("remote-{k}"));
        remote_runs.push(remote_run(bot, bundled, &data, games, concurrency).await?);
    }
    let (submit_10k_seconds, restart_seconds) =
        submit_and_restart(bot, bundled, &root.join("queue"), concurrency).await?;
    let mut stored = Vec::new();
    for games in STORED {
        let data = root.join(format!("stored-{games}"));
        let peak_kib = blocking({
            let bot = bot.clone();
            move || stored_memory(&bot, &data, games)
        })
        .await?;
        stored.push(StoredMemory { games, peak_kib });
    }
    latencies.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    let paired: Vec<f64> = daemon_runs
        .iter()
        .zip(&match_runs)
        .map(|(d, m)| 100.0 * d / m.max(1e-9))
        .collect();
    let own = |runs: &[PerGame]| runs.iter().map(|r| r.own).collect::<Vec<_>>();
    let threads = |runs: &[PerGame]| runs.iter().map(|r| r.games).collect::<Vec<_>>();
    let busy = |runs: &[PerGame]| runs.iter().map(|r| r.busy).collect::<Vec<_>>();
    Ok(ServeBench {
        games,
        concurrency,
        daemon_percent: 100.0 * median(&daemon_runs) / median(&match_runs).max(1e-9),
        daemon_paired_percent: median(&paired),
        daemon_paired_mean: mean_and_error(&paired),
        match_own_cpu_ms: own(&match_cpu),
        daemon_own_cpu_ms: own(&daemon_cpu),
        match_game_threads_cpu_ms: threads(&match_cpu),
        daemon_game_threads_cpu_ms: threads(&daemon_cpu),
        busy_percent: 100.0 * median(&busy(&match_cpu)) / median(&busy(&daemon_cpu)).max(1e-9),
        match_busy_ms: busy(&match_cpu),
        daemon_busy_ms: busy(&daemon_cpu),
        loaded_percent: 100.0 * median(&loaded_runs) / median(&match_runs).max(1e-9),
        loaded_runs,
        remote_percent: 100.0 * median(&remote_runs) / median(&match_runs).max(1e-9),
        postgres_percent_of_sqlite: 100.0 * median(&postgres_runs) / median(&daemon_runs).max(1e-9),
        postgres_percent: 100.0 * median(&postgres_runs) / median(&match_runs).max(1e-9),
        postgres_runs,
        match_runs,
        daemon_runs,
        remote_runs,
        reads: latencies.len(),
        read_p50_ms: pick(0.50),
        read_p99_ms: pick(0.99),
        read_max_ms: latencies.last().copied().unwrap_or(0.0),
        submit_10k_seconds,
        restart_seconds,
        stored,
    })
}

/// Bots of the memory measure's store: every pair of them has met.
const STORED_BOTS: [&str; 4] = ["first", "second", "third", "fourth"];

/// Fills a store with `games` finished games among four bots (queued as series through
/// the daemon's own checks, then marked finished in one statement: playing them would
/// take hours and measure nothing more), starts `zebra serve` on it as a child process,
/// asks every read route, and returns the process's peak resident set in KiB.
fn stored_memory(bot: &crate::bot::BotSpec, data: &Path, games: u32) -> Result<u64, String> {
    let token = prepare(bot, data, &Database::Sqlite, &STORED_BOTS)?;
    {
        let mut store = Store::open(data).map_err(|e| e.to_string())?;
        let pairs: Vec<(i64, i64)> = (1..=4_i64)
            .flat_map(|a| (a + 1..=4).map(move |b| (a, b)))
            .collect();
        let per_pair = (games / pairs.len() as u32).max(2) / 2 * 2;
        let mut queued = 0;
        for (k, (a, b)) in pairs.iter().enumerate() {
            let last = k + 1 == pairs.len();
            let n = if last { games - queued } else { per_pair };
            let request: crate::server::series::SeriesRequest = serde_json::from_value(
                serde_json::json!({"bots": [a, b], "games": n, "tc": TC, "seed": k + 1}),
            )
            .map_err(|e| e.to_string())?;
            let checked = request.check().map_err(|e| format!("{e:?}"))?;
            store
                .submit(
                    None,
                    &checked.spec,
                    "bench",
                    &checked.games,
                    crate::server::now_ms(),
                )
                .map_err(|e| e.to_string())?;
            queued += n;
        }
    }
    let record = Store::open(data)
        .map_err(|e| e.to_string())?
        .keep_record("[Event \"bench\"]\n")
        .map_err(|e| e.to_string())?;
    let conduct = serde_json::to_string(&[
        crate::series::conduct::GameConduct::default(),
        crate::series::conduct::GameConduct::default(),
    ])
    .map_err(|e| e.to_string())?;
    let db = rusqlite::Connection::open(data.join(crate::server::store::DB_FILE))
        .map_err(|e| e.to_string())?;
    db.execute(
        "UPDATE games SET state = 'finished', attempts = 1, termination = ?3, \
         result = CASE id % 3 WHEN 0 THEN '1-0' WHEN 1 THEN '0-1' ELSE '1/2-1/2' END, \
         conduct = ?1, record = ?2, fin_seq = id",
        rusqlite::params![
            conduct,
            record,
            crate::record::tags::Termination::Normal.code()
        ],
    )
    .and_then(|_| {
        db.execute(
            "UPDATE series SET state = 'finished', outcome = 'completed'",
            [],
        )
    })
    .map_err(|e| e.to_string())?;
    drop(db);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = crate::sandbox::launch::ordinary(|| {
        std::process::Command::new(exe)
            .arg("serve")
            .arg("--data")
            .arg(data)
            .args(["--listen", "127.0.0.1:0"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
    })
    .map_err(|e| format!("starting zebra serve: {e}"))?;
    let measured = read_all_routes(&mut child, &token);
    // SIGTERM: the daemon's clean exit; then reaped whatever happened.
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let _ = child.wait();
    measured
}

/// Waits for the child daemon's address, asks each read route three times, and reads its
/// peak resident set.
fn read_all_routes(child: &mut std::process::Child, token: &str) -> Result<u64, String> {
    use std::io::BufRead;
    // The address is on its log (stderr), after the start's own lines; the rest of the log
    // is drained so that the daemon never blocks on a full pipe.
    let stderr = child.stderr.take().ok_or("zebra serve has no stderr")?;
    let mut log = std::io::BufReader::new(stderr);
    let mut said = Vec::new();
    let addr: SocketAddr = loop {
        let mut line = String::new();
        if log.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err(format!("zebra serve ended: {}", said.join("")));
        }
        if let Some(addr) = line
            .split("listening on http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|a| a.parse().ok())
        {
            break addr;
        }
        said.push(line);
    };
    std::thread::spawn(move || std::io::copy(&mut log, &mut std::io::sink()));
    let mut paths = vec![
        "/api/v1/leaderboard".to_string(),
        "/api/v1/bots".to_string(),
        "/api/v1/series?limit=100".to_string(),
        "/api/v1/series/6/games?limit=100".to_string(),
        "/".to_string(),
    ];
    paths.extend((1..=6).map(|id| format!("/api/v1/series/{id}")));
    for _ in 0..3 {
        for path in &paths {
            let (status, body) = http(addr, "GET", path, Some(token), b"")?;
            if status != 200 {
                return Err(format!("{path}: {status} {body}"));
            }
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .map_err(|e| e.to_string())?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| "no VmHWM in /proc/PID/status".to_string())
}

/// Makes database `name` on the server of `url`; the daemon's database setting for it.
fn fresh_database(url: &str, name: &str) -> Result<Database, String> {
    crate::server::sql::make_database(url, name)
        .map(Database::Postgres)
        .map_err(|e| format!("--postgres {}: {e}", Database::redacted(url)))
}

fn drop_database(url: &str, name: &str) -> Result<(), String> {
    crate::server::sql::drop_database(url, name)
        .map_err(|e| format!("--postgres {}: {e}", Database::redacted(url)))
}

/// The mean of `v` and its standard error (0 with fewer than two values).
fn mean_and_error(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, 0.0);
    }
    let variance = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// A data directory with the instant bot registered under each of `names` (active: the
/// benchmark skips the check) and a submit token.
fn prepare(
    bot: &crate::bot::BotSpec,
    data: &Path,
    database: &Database,
    names: &[&str],
) -> Result<String, String> {
    let mut store = Store::open_on(data, database).map_err(|e| e.to_string())?;
    for &name in names {
        let entry = crate::series::BotEntry {
            name: name.to_string(),
            command: bot.program.display().to_string(),
            args: bot.args.clone(),
            dir: None,
            env: Default::default(),
            options: Default::default(),
            time: None,
            limits: Default::default(),
            strict: false,
        };
        let spec = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
        let id = store
            .add_bot(name, &spec, "admin", crate::server::now_ms())
            .map_err(|e| e.to_string())?;
        store
            .set_bot_state(id, BotState::Active, None)
            .map_err(|e| e.to_string())?;
    }
    crate::server::admin::create_token(&mut store, "submit", "bench")
}

fn settings(data: &Path, database: &Database, concurrency: usize) -> Result<ServeSettings, String> {
    ServeSettings::load(
        None,
        &Overrides {
            data: Some(data.to_path_buf()),
            database: match database {
                Database::Sqlite => None,
                Database::Postgres(url) => Some(url.clone()),
            },
            listen: Some("127.0.0.1:0".to_string()),
            concurrency: Some(concurrency),
            ..Overrides::default()
        },
    )
}

/// A daemon running in this process until `stop` is cancelled.
struct Running {
    addr: SocketAddr,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<Result<(), crate::server::ServeError>>,
    started: Instant,
    ready: Instant,
}

async fn start(
    data: &Path,
    database: &Database,
    bundled: &Path,
    concurrency: usize,
) -> Result<Running, String> {
    let settings = settings(data, database, concurrency)?;
    let stop = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let started = Instant::now();
    let task = tokio::spawn(crate::server::serve(
        settings,
        bundled.to_path_buf(),
        move |addr| {
            let _ = tx.send(addr);
        },
        stop.clone(),
    ));
    let addr = match rx.await {
        Ok(addr) => addr,
        Err(_) => {
            return Err(match task.await {
                Ok(Err(e)) => e.to_string(),
                _ => "the daemon did not start".to_string(),
            })
        }
    };
    // Ready: the API answers.
    let (status, _) = blocking(move || http(addr, "GET", "/healthz", None, b"")).await?;
    if status != 200 {
        return Err(format!("/healthz answered {status}"));
    }
    Ok(Running {
        addr,
        stop,
        task,
        started,
        ready: Instant::now(),
    })
}

impl Running {
    async fn stop(self) -> Result<(), String> {
        self.stop.cancel();
        match self.task.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// One daemon run: a series of `games` submitted, played to its end while a client reads
/// with `every` between its requests; the games per second (see [`finish_rate`]) and the
/// reads' latencies.
async fn daemon_run(
    bot: &crate::bot::BotSpec,
    bundled: &Path,
    data: &Path,
    database: &Database,
    games: u32,
    concurrency: usize,
    every: Duration,
) -> Result<(f64, Vec<f64>, PerGame), String> {
    // Off the async threads: a PostgreSQL connection blocks on its own runtime.
    let token = blocking({
        let (bot, data, database) = (bot.clone(), data.to_path_buf(), database.clone());
        move || prepare(&bot, &data, &database, &STORED_BOTS[..2])
    })
    .await?;
    let daemon = start(data, database, bundled, concurrency).await?;
    let addr = daemon.addr;
    // The opening drive and the seed the match side plays: the same games.
    let body = serde_json::json!({"bots": [1, 2], "games": games, "tc": TC, "situations": "none", "seed": MATCH_SEED})
        .to_string();
    let t = token.clone();
    let spent = Spent::start();
    let submitted = crate::server::now_ms();
    let (status, answer) =
        blocking(move || http(addr, "POST", "/api/v1/series", Some(&t), body.as_bytes())).await?;
    if status != 201 {
        return Err(format!(
            "submitting the benchmark series: {status} {answer}"
        ));
    }
    let reads = blocking(move || read_until_done(addr, &token, every)).await?;
    let cpu = spent.per_game(games);
    daemon.stop().await?;
    let rate = blocking({
        let (data, database) = (data.to_path_buf(), database.clone());
        move || finish_rate(&data, &database, games, submitted)
    })
    .await?;
    Ok((rate, reads, cpu))
}

/// CPU time from a start: this process's own, its game threads', and all CPUs' busy time.
struct Spent {
    own: Duration,
    games: Duration,
    busy: u64,
}

/// CPU time per game over a run, in ms.
#[derive(Clone, Copy)]
struct PerGame {
    /// This process's (Zebra's own).
    own: f64,
    /// Of which its game threads' (counted as each ends).
    games: f64,
    /// All CPUs' busy time.
    busy: f64,
}

impl Spent {
    fn start() -> Spent {
        Spent {
            own: crate::bench::own_cpu(),
            games: crate::series::game::game_threads_cpu(),
            busy: crate::bench::machine_busy_ticks(),
        }
    }

    /// Since the start, per game of `games`.
    fn per_game(&self, games: u32) -> PerGame {
        let per = |secs: f64| 1e3 * secs / f64::from(games.max(1));
        let own = crate::bench::own_cpu().saturating_sub(self.own);
        let threads = crate::series::game::game_threads_cpu().saturating_sub(self.games);
        let busy = crate::bench::machine_busy_ticks().saturating_sub(self.busy) as f64
            / crate::bench::ticks_per_second();
        PerGame {
            own: per(own.as_secs_f64()),
            games: per(threads.as_secs_f64()),
            busy: per(busy),
        }
    }
}

/// The benchmark series' games per second: `games` over the time from `submitted` (ms
/// since the epoch, taken before the series was posted) to its last game's stored finish.
fn finish_rate(
    data: &Path,
    database: &Database,
    games: u32,
    submitted: i64,
) -> Result<f64, String> {
    let store = Store::open_on(data, database).map_err(|e| e.to_string())?;
    let last = store
        .last_finish_ms(1)
        .map_err(|e| e.to_string())?
        .ok_or("the benchmark series has no finished game")?;
    let seconds = (last - submitted).max(1) as f64 / 1e3;
    Ok(f64::from(games) / seconds)
}

/// The reader: series 1's status and the leaderboard in turn, one request at a time with
/// `every` between two rounds, until the series ends (or the bound on time is reached);
/// the reads' latencies (ms, the first [`MAX_READS`]). Both the daemon's runs and the
/// remote workers' carry such a reader, so that their figures compare.
fn read_until_done(
    addr: std::net::SocketAddr,
    token: &str,
    every: Duration,
) -> Result<Vec<f64>, String> {
    let mut reads = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        for path in ["/api/v1/series/1", "/api/v1/leaderboard"] {
            let t0 = Instant::now();
            let (status, body) = http(addr, "GET", path, Some(token), b"")?;
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            if status != 200 {
                return Err(format!("{path}: {status} {body}"));
            }
            if reads.len() < MAX_READS {
                reads.push(ms);
            }
            if path.ends_with("/1") && body.contains("\"state\":\"finished\"") {
                return Ok(reads);
            }
        }
        if Instant::now() > deadline {
            return Err("the benchmark series did not end within 10 minutes".to_string());
        }
        std::thread::sleep(every);
    }
}

/// One run with remote workers: the daemon (concurrency 0, in this process) and two
/// `zebra worker` processes of this binary, each playing `concurrency / 2` games at once
/// (at least 1); the series' games per second, from its submission to its end, under the
/// same reader as the daemon's own run.
async fn remote_run(
    bot: &crate::bot::BotSpec,
    bundled: &Path,
    data: &Path,
    games: u32,
    concurrency: usize,
) -> Result<f64, String> {
    let token = prepare(bot, data, &Database::Sqlite, &STORED_BOTS[..2])?;
    let worker_token = {
        let mut store = Store::open(data).map_err(|e| e.to_string())?;
        crate::server::admin::create_token(&mut store, "worker", "bench")?
    };
    let token_file = data.join("worker.token");
    std::fs::write(&token_file, &worker_token).map_err(|e| e.to_string())?;
    let daemon = start(data, &Database::Sqlite, bundled, 0).await?;
    let addr = daemon.addr;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find zebra itself: {e}"))?;
    let each = (concurrency / 2).max(1).to_string();
    let mut workers = Vec::new();
    for k in 0..2 {
        let child = crate::sandbox::launch::ordinary(|| {
            std::process::Command::new(&exe)
                .args(["worker", "--server", &format!("http://{addr}")])
                .arg("--token-file")
                .arg(&token_file)
                .args(["--same-programs", "--concurrency", &each, "--name"])
                .arg(format!("bench-{k}"))
                .arg("--cache")
                .arg(data.join(format!("cache-{k}")))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
        })
        .map_err(|e| format!("cannot start a zebra worker: {e}"))?;
        workers.push(child);
    }
    let body = serde_json::json!({"bots": [1, 2], "games": games, "tc": TC, "situations": "none", "seed": MATCH_SEED})
        .to_string();
    let submitted = crate::server::now_ms();
    let played = blocking(move || {
        let (status, answer) = http(
            addr,
            "POST",
            "/api/v1/series",
            Some(&token),
            body.as_bytes(),
        )?;
        if status != 201 {
            return Err(format!(
                "submitting the benchmark series: {status} {answer}"
            ));
        }
        read_until_done(addr, &token, WATCH_EVERY).map(|_| ())
    })
    .await;
    for mut child in workers {
        // SAFETY: SIGTERM to a child this function started and has not reaped.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let _ = child.wait();
    }
    daemon.stop().await?;
    played?;
    blocking({
        let data = data.to_path_buf();
        move || finish_rate(&data, &Database::Sqlite, games, submitted)
    })
    .await
}

/// Posts a 10,000-game series (timed), stops the daemon, starts it again on that queue
/// (timed to its first answer).
async fn submit_and_restart(
    bot: &crate::bot::BotSpec,
    bundled: &Path,
    data: &Path,
    concurrency: usize,
) -> Result<(f64, f64), String> {
    let token = prepare(bot, data, &Database::Sqlite, &STORED_BOTS[..2])?;
    let daemon = start(data, &Database::Sqlite, bundled, concurrency).await?;
    let addr = daemon.addr;
    let body = serde_json::json!({"bots": [1, 2], "games": 10_000, "tc": TC}).to_string();
    let t0 = Instant::now();
    let (status, answer) = blocking(move || {
        http(
            addr,
            "POST",
            "/api/v1/series",
            Some(&token),
            body.as_bytes(),
        )
    })
    .await?;
    let submit = t0.elapsed().as_secs_f64();
    if status != 201 {
        return Err(format!("submitting 10,000 games: {status} {answer}"));
    }
    daemon.stop().await?;
    let again = start(data, &Database::Sqlite, bundled, concurrency).await?;
    let restart = again.ready.duration_since(again.started).as_secs_f64();
    again.stop().await?;
    Ok((submit, restart))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| e.to_string())?
}

/// One HTTP/1.1 exchange on a new connection: (status, body).
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &[u8],
) -> Result<(u16, String), String> {
    let mut stream = std::net::TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body))
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(|e| e.to_string())?;
    let raw = String::from_utf8_lossy(&raw);
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no HTTP status in: {head}"))?;
    Ok((status, body.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_of_the_runs_comes_with_its_standard_error() {
        let (mean, error) = mean_and_error(&[96.0, 98.0, 100.0, 102.0]);
        assert!((mean - 99.0).abs() < 1e-9);
        // Sample standard deviation sqrt(20/3), over sqrt(4).
        assert!((error - (20.0_f64 / 3.0).sqrt() / 2.0).abs() < 1e-9);
        assert_eq!(mean_and_error(&[97.0]), (97.0, 0.0));
        assert_eq!(mean_and_error(&[]), (0.0, 0.0));
    }
}
