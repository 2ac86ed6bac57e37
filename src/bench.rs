//! `zebra bench`: seeded random playouts on one core, measured in whole games and applied
//! actions per second. Each step generates the legal actions, picks one and applies it.

use std::time::Instant;

use serde::Serialize;

use crate::rules::playout::RandomPlayer;
use crate::rules::{ActionList, Game, Phase, Settings};

/// What a benchmark run measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub games: u64,
    pub actions: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    pub actions_per_second: f64,
    pub seed: u64,
    pub plays_per_quarter: u16,
}

/// Plays `games` random games from consecutive seeds and times them.
pub fn run(games: u64, seed: u64, plays_per_quarter: u16) -> BenchReport {
    let mut list = ActionList::new();
    let mut actions = 0u64;
    let start = Instant::now();
    for i in 0..games {
        let mut game = Game::new(Settings::plays(plays_per_quarter));
        let mut player = RandomPlayer::new(seed.wrapping_add(i));
        while let Some(action) = player.choose(&game, &mut list) {
            if game.apply(&action).is_err() {
                // A random player only picks legal actions; stop the game rather than spin.
                break;
            }
            actions += 1;
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    BenchReport {
        games,
        actions,
        seconds,
        games_per_second: games as f64 / seconds,
        actions_per_second: actions as f64 / seconds,
        seed,
        plays_per_quarter,
    }
}

/// What the move-generation micro-benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct MovegenReport {
    pub positions: u64,
    pub generations: u64,
    pub actions_listed: u64,
    pub seconds: f64,
    pub generations_per_second: f64,
    pub actions_listed_per_second: f64,
}

/// Legal-action generation alone: positions of the action phase collected from seeded
/// random games, each generated `rounds` times.
pub fn movegen(seed: u64, rounds: u32) -> MovegenReport {
    let mut positions = Vec::new();
    let mut list = ActionList::new();
    for i in 0..50 {
        let mut game = Game::new(Settings::plays(4));
        let mut player = RandomPlayer::new(seed.wrapping_add(i));
        while let Some(action) = player.choose(&game, &mut list) {
            if matches!(game.phase(), Phase::Action(_)) {
                positions.push(game.clone());
            }
            if game.apply(&action).is_err() {
                break;
            }
        }
    }
    let mut listed = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for game in &positions {
            game.legal_actions(&mut list);
            listed += list.len() as u64;
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let generations = positions.len() as u64 * rounds as u64;
    MovegenReport {
        positions: positions.len() as u64,
        generations,
        actions_listed: listed,
        seconds,
        generations_per_second: generations as f64 / seconds,
        actions_listed_per_second: listed as f64 / seconds,
    }
}

/// Where the referee benchmark runs its processes. On a virtual machine, waking a process
/// on another CPU costs far more than on the same one, so where the kernel happens to put
/// the bots and the baseline's `cat` decides the figures; pinning makes runs comparable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// The referee on one CPU, the bots and `cat` on another: every wake-up crosses CPUs,
    /// as it does for bots that think (they need a core of their own).
    Split,
    /// Everything on one CPU: no cross-CPU wake-ups; the two sides' work runs in turn.
    Shared,
    /// No pinning: the kernel decides (it tends to put `cat` next to its writer).
    Free,
}

/// What the referee benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct RefereeReport {
    pub layout: Layout,
    /// The CPUs of the referee, and of the bots and `cat` (empty: not pinned).
    pub referee_cpus: Vec<usize>,
    pub bot_cpus: Vec<usize>,
    pub games: u32,
    pub decisions: u64,
    pub seconds: f64,
    pub decisions_per_second: f64,
    /// The referee process's own CPU time (all its threads, not the bots') per decision.
    pub referee_cpu_us_per_decision: f64,
    /// Wall time per decision, end to end: request built, sent, answered, judged, events out.
    pub decision_round_trip_us: f64,
    /// The part of the round trip from a request's flush to its reply's newline: the bot's
    /// wake-up, its reading and answering, and the pipe back. The rest is the referee's.
    pub bot_side_us_per_decision: f64,
    /// Building and serializing one request, in process (no pipes), averaged over the
    /// decisions of 20 seeded random games: the part of the referee's work that grows with
    /// the request's size.
    pub request_build_us: f64,
    /// The bare baseline: one short line to a child process (`cat`) and back.
    pub pipe_round_trip_us: f64,
    /// The baseline's own CPU time per round trip: what one write and one read of a line
    /// cost the writing process (on a virtual machine, mostly waking the other side).
    pub pipe_cpu_us_per_round_trip: f64,
}

/// The CPUs this process may run on, in order.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: sched_getaffinity writes into the set we pass, of the size we pass.
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

/// CPU time this process has used so far (user + system, all threads).
fn own_cpu() -> std::time::Duration {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| std::time::Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Plays `games` play-count games between two copies of an instant bot and measures the
/// referee. The bare pipe baseline runs in slices between the games (2,000 round trips
/// after each), so that both figures see the same machine: on a shared virtual machine the
/// cost of waking a process swings by 3x within a minute.
pub async fn referee(
    bot: &crate::bot::BotSpec,
    games: u32,
    seed: u64,
    layout: Option<Layout>,
) -> Result<RefereeReport, String> {
    use crate::referee::{GameConfig, Referee, TimeControl};
    let allowed = allowed_cpus();
    let layout = layout.unwrap_or(if allowed.len() >= 2 {
        Layout::Split
    } else {
        Layout::Shared
    });
    let (referee_cpus, bot_cpus) = match (layout, allowed.as_slice()) {
        (Layout::Free, _) => (Vec::new(), Vec::new()),
        (Layout::Shared, [first, ..]) => (vec![*first], vec![*first]),
        (Layout::Split, [first, second, ..]) => (vec![*first], vec![*second]),
        (Layout::Split, _) => {
            return Err("--layout split needs two CPUs; use --layout shared".to_string())
        }
        (Layout::Shared, []) => return Err("no CPU is available to this process".to_string()),
    };
    if !referee_cpus.is_empty() {
        crate::bot::process::pin_current_thread(&referee_cpus)
            .map_err(|e| format!("cannot pin the referee to CPU {referee_cpus:?}: {e}"))?;
    }
    let mut bot = bot.clone();
    bot.cpus = (!bot_cpus.is_empty()).then(|| bot_cpus.clone());
    let bot = &bot;
    let cfg = GameConfig {
        tc: TimeControl::parse("plays=10,play=10s,reaction=10s").expect("a valid time control"),
        ..GameConfig::default()
    };
    let mut pipe = PipeBaseline::start(&bot_cpus)
        .map_err(|e| format!("cannot run the pipe baseline with cat: {e}"))?;
    let mut decisions = 0u64;
    let mut bot_side_us = 0u64;
    let mut cpu = std::time::Duration::ZERO;
    let mut wall = std::time::Duration::ZERO;
    for i in 0..games.max(1) {
        let cfg = GameConfig {
            seed: seed + i as u64,
            ..cfg.clone()
        };
        let cpu0 = own_cpu();
        let start = Instant::now();
        let report = Referee::play(bot, bot, &cfg, |_, _| {}).await;
        wall += start.elapsed();
        cpu += own_cpu() - cpu0;
        if report.termination != crate::record::Termination::Normal {
            return Err(format!(
                "benchmark game {i} did not finish normally: {}",
                report.reason
            ));
        }
        decisions += report.bots.iter().map(|b| b.decisions as u64).sum::<u64>();
        bot_side_us += report.bots.iter().map(|b| b.think_us).sum::<u64>();
        pipe.run(2_000)
            .map_err(|e| format!("the pipe baseline with cat failed: {e}"))?;
    }
    let seconds = wall.as_secs_f64().max(1e-9);
    let per_decision = |total: f64| total / decisions.max(1) as f64;
    let request_build_us = request_build(seed, &cfg.tc);
    Ok(RefereeReport {
        layout,
        referee_cpus,
        bot_cpus,
        games: games.max(1),
        decisions,
        seconds,
        decisions_per_second: decisions as f64 / seconds,
        referee_cpu_us_per_decision: per_decision(cpu.as_secs_f64() * 1e6),
        decision_round_trip_us: per_decision(seconds * 1e6),
        bot_side_us_per_decision: per_decision(bot_side_us as f64),
        request_build_us,
        pipe_round_trip_us: pipe.wall_us(),
        pipe_cpu_us_per_round_trip: pipe.cpu_us(),
    })
}

/// Microseconds to build and serialize the request of one decision, over every decision of
/// 20 seeded random games (the positions are collected first, so only the request is timed).
fn request_build(seed: u64, tc: &crate::referee::TimeControl) -> f64 {
    use crate::referee::{request, Clocks};
    let mut positions = Vec::new();
    for i in 0..20 {
        crate::rules::playout::play_random_game(Game::new(tc.settings()), seed + i, |g, _| {
            positions.push(g.clone());
        });
    }
    let clocks = Clocks::new(*tc);
    let mut bytes = 0usize;
    let start = Instant::now();
    for (id, game) in positions.iter().enumerate() {
        let budget = clocks.budget(game);
        let line = crate::protocol::to_line(&request(game, id as u64, &clocks, &budget));
        bytes += line.len();
    }
    let elapsed = start.elapsed();
    std::hint::black_box(bytes);
    elapsed.as_secs_f64() * 1e6 / positions.len().max(1) as f64
}

/// A short line sent through `cat` over two pipes and read back: the cheapest round trip
/// two processes on this machine can make.
struct PipeBaseline {
    child: std::process::Child,
    to: std::process::ChildStdin,
    from: std::io::BufReader<std::process::ChildStdout>,
    rounds: u64,
    wall: std::time::Duration,
    cpu: std::time::Duration,
}

impl PipeBaseline {
    /// Starts `cat`, on `cpus` when given.
    fn start(cpus: &[usize]) -> std::io::Result<PipeBaseline> {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let mut cmd = Command::new("cat");
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        if !cpus.is_empty() {
            let set = crate::bot::process::cpu_set(cpus);
            // SAFETY: sched_setaffinity is async-signal-safe; the set was built before fork.
            unsafe {
                cmd.pre_exec(move || {
                    if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn()?;
        let to = child.stdin.take().expect("piped");
        let from = std::io::BufReader::new(child.stdout.take().expect("piped"));
        Ok(PipeBaseline {
            child,
            to,
            from,
            rounds: 0,
            wall: std::time::Duration::ZERO,
            cpu: std::time::Duration::ZERO,
        })
    }

    fn run(&mut self, rounds: u32) -> std::io::Result<()> {
        use std::io::{BufRead, Write};
        let line = b"{\"type\":\"ping\",\"id\":1}\n";
        let mut back = String::new();
        let cpu0 = own_cpu();
        let start = Instant::now();
        for _ in 0..rounds {
            self.to.write_all(line)?;
            self.to.flush()?;
            back.clear();
            if self.from.read_line(&mut back)? == 0 {
                return Err(std::io::Error::other("cat exited"));
            }
        }
        self.wall += start.elapsed();
        self.cpu += own_cpu() - cpu0;
        self.rounds += rounds as u64;
        Ok(())
    }

    fn wall_us(&self) -> f64 {
        self.wall.as_secs_f64() * 1e6 / self.rounds.max(1) as f64
    }

    fn cpu_us(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.rounds.max(1) as f64
    }
}

impl Drop for PipeBaseline {
    fn drop(&mut self) {
        // Closing our end of its stdin ends `cat`; kill it anyway so it is always reaped.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the series benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct SeriesReport {
    /// Games per run.
    pub games: u32,
    /// One run per concurrency level.
    pub runs: Vec<SeriesRun>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeriesRun {
    pub concurrency: usize,
    pub seconds: f64,
    pub games_per_second: f64,
}

/// Plays the same series of `games` games between two instant bots at each concurrency
/// level, through the whole series machinery (fsynced PGN, events, statistics), and times
/// each run. The series' files go to a temporary directory, removed afterwards.
pub async fn series(
    bot: &crate::bot::BotSpec,
    games: u32,
    seed: u64,
    levels: &[usize],
) -> Result<SeriesReport, String> {
    use crate::series::{config::SERIES_FILE_VERSION, schedule::Format, BotEntry, SeriesConfig};
    let rounds = (games / 2).max(1);
    let mut runs = Vec::new();
    for &concurrency in levels {
        let dir = std::env::temp_dir().join(format!(
            "zebra-bench-series-{}-{concurrency}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let entry = |name: &str| BotEntry {
            name: name.to_string(),
            command: bot.program.display().to_string(),
            args: bot.args.clone(),
            dir: None,
            env: Default::default(),
            options: Default::default(),
            time: None,
            limits: Default::default(),
        };
        let config = SeriesConfig {
            version: SERIES_FILE_VERSION,
            format: Format::RoundRobin,
            bots: vec![entry("first"), entry("second")],
            rounds,
            seed,
            tc: "plays=10,play=10s,reaction=10s".to_string(),
            max_illegal: 3,
            sprt: None,
            pgn: dir.join("games.pgn"),
            pgn_start: 0,
            events: Some(dir.join("events.jsonl")),
            log_dir: None,
            log_failures: false,
            event: "Zebra benchmark".to_string(),
            sandbox: Default::default(),
            replay_suspect: None,
        };
        let start = Instant::now();
        let outcome = crate::series::run(
            &config,
            Vec::new(),
            Vec::new(),
            crate::series::RunOptions {
                concurrency,
                progress: crate::series::progress::Progress::quiet(),
                // Instant bots: the overload warning would only be noise here.
                cpus: None,
            },
        )
        .await
        .map_err(|e| e.to_string())?;
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let _ = std::fs::remove_dir_all(&dir);
        if outcome.standings.finished != u64::from(rounds * 2) {
            return Err(format!(
                "the benchmark series ended after {} of {} games",
                outcome.standings.finished,
                rounds * 2
            ));
        }
        runs.push(SeriesRun {
            concurrency,
            seconds,
            games_per_second: f64::from(rounds * 2) / seconds,
        });
    }
    Ok(SeriesReport {
        games: rounds * 2,
        runs,
    })
}
