//! `zebra bench`: seeded random playouts on one core, measured in whole games and applied
//! actions per second, for any game (each game says how it is played fast and where it lists
//! its actions: `playout::Benched`, in its folder); and the referee, a series, the daemon
//! and a flooding bot measured as processes.
//!
//! - [`serve`]: `zebra bench serve`, the daemon measured against `zebra match`

pub mod serve;

use std::time::Instant;

use serde::Serialize;

use crate::playout::Benched;
use crate::rules::Game;
use crate::series::game::thread_cpu;

/// What an engine benchmark run measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// The game played.
    pub rules: &'static str,
    pub games: u64,
    /// Actions applied (Boyer's Football: sub-moves).
    pub actions: u64,
    pub seconds: f64,
    pub games_per_second: f64,
    pub actions_per_second: f64,
    pub seed: u64,
    /// Plays per quarter, in a game with quarters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays_per_quarter: Option<u16>,
    /// Bytes of one game value: a search's copy of a position is this one memcpy (or, for
    /// a game holding its history on the heap, this plus that copy).
    pub copy_bytes: u64,
    /// Nanoseconds to copy a game, over the positions of the first games played.
    pub copy_ns: f64,
}

impl BenchReport {
    /// The report as a line of text, in the game's words for its actions.
    pub fn text<G: Benched>(&self) -> String {
        format!(
            "{}: {} games, {} {actions} in {:.3} s: {:.0} games/s, {:.0} {actions}/s (seed {}{}, one core); a copy of a game: {} bytes, {:.0} ns",
            self.rules,
            self.games,
            self.actions,
            self.seconds,
            self.games_per_second,
            self.actions_per_second,
            self.seed,
            self.plays_per_quarter
                .map(|n| format!(", {n} plays per quarter"))
                .unwrap_or_default(),
            self.copy_bytes,
            self.copy_ns,
            actions = G::ACTIONS,
        )
    }
}

/// Plays `games` random games of `G` from consecutive seeds and times them.
pub fn run<G: Benched>(games: u64, seed: u64, plays_per_quarter: u16) -> BenchReport {
    let settings = G::settings_of(plays_per_quarter);
    let mut actions = 0u64;
    let start = Instant::now();
    for i in 0..games {
        actions += G::bench_game(&settings, seed.wrapping_add(i));
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    BenchReport {
        rules: G::NAME,
        games,
        actions,
        seconds,
        games_per_second: games as f64 / seconds,
        actions_per_second: actions as f64 / seconds,
        seed,
        plays_per_quarter: G::QUARTERS.then_some(plays_per_quarter),
        copy_bytes: std::mem::size_of::<G>() as u64,
        copy_ns: copy_cost::<G>(seed, plays_per_quarter),
    }
}

/// Nanoseconds per copy of a game, averaged over every position of a few random games
/// copied many times over (a search copies a position for each action it tries).
fn copy_cost<G: Benched>(seed: u64, plays_per_quarter: u16) -> f64 {
    let settings = G::settings_of(plays_per_quarter);
    let mut positions = Vec::new();
    for i in 0..4 {
        G::new_game(&settings)
            .play_random(seed.wrapping_add(i), |game, _| positions.push(game.clone()));
    }
    const ROUNDS: u32 = 50;
    let mut copy = G::new_game(&settings);
    let start = Instant::now();
    for _ in 0..ROUNDS {
        for p in &positions {
            copy.clone_from(std::hint::black_box(p));
            std::hint::black_box(&copy);
        }
    }
    let copies = (positions.len() as u64 * u64::from(ROUNDS)).max(1);
    start.elapsed().as_secs_f64() * 1e9 / copies as f64
}

/// What the move-generation micro-benchmark measured.
#[derive(Clone, Debug, Serialize)]
pub struct MovegenReport {
    /// The game.
    pub rules: &'static str,
    pub positions: u64,
    pub generations: u64,
    pub actions_listed: u64,
    pub seconds: f64,
    pub generations_per_second: f64,
    pub actions_listed_per_second: f64,
}

impl MovegenReport {
    /// The report as a line of text, in the game's words for its actions.
    pub fn text<G: Benched>(&self, rounds: u32) -> String {
        format!(
            "{}: {} positions x {rounds} rounds: {:.0} generations/s, {:.0} listed {}/s (one core)",
            self.rules,
            self.positions,
            self.generations_per_second,
            self.actions_listed_per_second,
            G::ACTIONS
        )
    }
}

/// Legal-action generation alone: the game's positions from seeded random games
/// ([`Benched::movegen_positions`]), each listed `rounds` times.
pub fn movegen<G: Benched>(seed: u64, rounds: u32) -> MovegenReport {
    let positions = G::movegen_positions(seed);
    let mut list = G::List::default();
    let mut listed = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for p in &positions {
            listed += G::list_legal(p, &mut list) as u64;
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let generations = positions.len() as u64 * rounds as u64;
    MovegenReport {
        rules: G::NAME,
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
    /// Where `zebra match --affinity auto` (the default) runs a game.
    Shared,
    /// No pinning: the kernel decides (`--affinity none`).
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
    /// The same figures over the sandboxed games played with `--freeze-idle` (one game in
    /// three), and without (another): the difference is what stopping and waking the idle
    /// bot costs. Each kind plays games of two lengths in turn, so that its cost splits
    /// into per decision and per game (the `steady_*` and `per_game_*` figures).
    pub freeze_on: FreezeFigures,
    pub freeze_off: FreezeFigures,
    /// The same figures over the games whose bots ran with `--sandbox none` (the third
    /// kind; freeze-idle off): against `freeze_off`, what the sandbox costs per decision
    /// and per game.
    pub sandbox_none: FreezeFigures,
    /// The instant bot speaking protocol version 1 (every request whole; the three kinds
    /// above speak version 2): sandboxed with freeze-idle on, as users run it...
    pub protocol1_freeze_on: FreezeFigures,
    /// ...and with `--sandbox none` (freeze-idle off).
    pub protocol1_sandbox_none: FreezeFigures,
    /// One freeze and one thaw of a live bot, in process (what `--freeze-idle` adds per
    /// decision), in microseconds.
    pub freeze_pair_us: f64,
    /// How: `cgroup` (freezer) or `signal` (SIGSTOP/SIGCONT of the group).
    pub freeze_by: String,
    /// Spawn to `ready` of the instant bot, median over interleaved starts, in
    /// milliseconds: with `--sandbox none` and with this machine's sandbox.
    pub start_none_ms: f64,
    pub start_sandboxed_ms: f64,
    /// The sandbox level the sandboxed starts got.
    pub sandbox: String,
}

/// Per-decision figures of one kind of the referee benchmark's games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FreezeFigures {
    pub decisions: u64,
    /// Times a bot was stopped (each one also woken once), per decision.
    pub freezes_per_decision: f64,
    /// Over whole games: the starts and stops of the bots included.
    pub referee_cpu_us_per_decision: f64,
    pub decision_round_trip_us: f64,
    /// The same split in two (see [`Split`]): what one more decision costs, the starts and
    /// stops left out...
    pub steady_round_trip_us: f64,
    pub steady_referee_cpu_us: f64,
    /// ...and what a game costs besides its decisions (both bots started, stopped, their
    /// sandboxes made and removed), in milliseconds.
    pub per_game_ms: f64,
    pub per_game_referee_cpu_ms: f64,
    /// The bytes Zebra wrote to the bots, per decision.
    pub bytes_per_decision: f64,
}

/// Totals of one kind and length of the referee benchmark's games.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u64,
    decisions: u64,
    cpu: std::time::Duration,
    wall: std::time::Duration,
}

/// A cost split into a part per game and a part per decision, from games of two lengths:
/// with the per-game averages (d_s, w_s) of short games and (d_l, w_l) of long ones,
/// `per_decision = (w_l - w_s) / (d_l - d_s)` and `per_game = w_s - per_decision * d_s`.
/// Pure, so that it is tested with given figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub per_decision: f64,
    pub per_game: f64,
}

impl Split {
    /// `short` and `long`: (games, decisions, total) of each length; `None` when the two
    /// lengths do not differ in decisions per game.
    pub fn of(short: (u64, u64, f64), long: (u64, u64, f64)) -> Option<Split> {
        let avg = |(games, decisions, total): (u64, u64, f64)| {
            let g = games.max(1) as f64;
            (decisions as f64 / g, total / g)
        };
        let ((d_s, w_s), (d_l, w_l)) = (avg(short), avg(long));
        if (d_l - d_s).abs() < 1.0 {
            return None;
        }
        let per_decision = (w_l - w_s) / (d_l - d_s);
        Some(Split {
            per_decision,
            per_game: w_s - per_decision * d_s,
        })
    }
}

pub use crate::series::placement::allowed_cpus;

/// All CPUs' busy time so far, in clock ticks: the first line of `/proc/stat` (user nice
/// system idle iowait irq softirq steal) less idle and iowait; 0 where it cannot be read.
pub(crate) fn machine_busy_ticks() -> u64 {
    let Some(line) = std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| s.lines().next().map(String::from))
    else {
        return 0;
    };
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    v.iter().take(8).sum::<u64>().saturating_sub(idle)
}

/// Clock ticks per second (of `/proc`'s CPU times).
pub(crate) fn ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64
}

/// CPU time this process has used so far (user + system, all threads).
pub(crate) fn own_cpu() -> std::time::Duration {
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
    use crate::referee::{GameClock, GameConfig, GameSetup};
    use crate::rules::Rules;
    let allowed = allowed_cpus();
    // By default where `zebra match` puts a game (`--affinity auto`): referee and bots on
    // one CPU.
    let layout = layout.unwrap_or(Layout::Shared);
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
    let mut bot1 = bot.clone();
    bot1.args
        .extend(["--protocol".to_string(), "1".to_string()]);
    let cfg = GameConfig {
        game: GameSetup {
            clock: GameClock::read(Rules::FootballChess, "plays=10,play=10s,reaction=10s")
                .expect("a valid time control"),
            ..GameSetup::default()
        },
        ..GameConfig::default()
    };
    // Two lengths of game (quarters of 4 and of 16 plays, in turn), so that what a game
    // costs besides its decisions (the bots' starts and stops) splits from what a decision
    // costs ([`Split`]).
    let lengths = [
        "plays=4,play=10s,reaction=10s",
        "plays=16,play=10s,reaction=10s",
    ]
    .map(|tc| GameClock::read(Rules::FootballChess, tc).expect("a valid time control"));
    let mut pipe = PipeBaseline::start(&bot_cpus)
        .map_err(|e| format!("cannot run the pipe baseline with cat: {e}"))?;
    let mut decisions = 0u64;
    let mut bot_side_us = 0u64;
    let mut cpu = std::time::Duration::ZERO;
    let mut wall = std::time::Duration::ZERO;
    // [sandboxed with freeze-idle off, on, --sandbox none; protocol 1 sandboxed with
    // freeze-idle on, --sandbox none]: decisions, CPU, wall. Games take the kinds in turn,
    // so the machine's drift spreads over all of them alike.
    const KINDS: u32 = 5;
    let mut halves = [(0u64, std::time::Duration::ZERO, std::time::Duration::ZERO); 5];
    let mut tallies = [[Tally::default(); 2]; 5];
    let mut bytes = [0u64; 5];
    let mut freezes = 0u64;
    // Game `i`: its settings, its bot, its kind and its length.
    let setup = |i: u32| {
        let mut cfg = cfg.clone();
        cfg.game.seed = seed + i as u64;
        let kind = (i % KINDS) as usize;
        let length = ((i / KINDS) % 2) as usize;
        cfg.game.clock = lengths[length].clone();
        cfg.sandbox.freeze_idle = kind == 1 || kind == 3;
        if kind == 2 || kind == 4 {
            cfg.sandbox.mode = crate::sandbox::Mode::None;
        }
        let player = if kind >= 3 { &bot1 } else { bot };
        (cfg, player, kind, length)
    };
    // As `zebra match` does where a CPU is spare: the next game's bots staged (set up, held
    // before their exec) while this game plays, on the CPUs neither the referee nor the bots
    // are pinned to (none with --layout free, where nothing is pinned).
    let spare: Vec<usize> = allowed
        .iter()
        .copied()
        .filter(|c| !referee_cpus.contains(c) && !bot_cpus.contains(c))
        .collect();
    let staging = layout != Layout::Free && !spare.is_empty() && crate::sandbox::staging();
    let stager = staging.then(|| Stager::start(&spare));
    // The next game's staged bots, with what staging them cost: this process's CPU on the
    // staging thread, and the wall time the game played before waited for it to end.
    type Ready = (
        [Option<crate::bot::Staged>; 2],
        std::time::Duration,
        std::time::Duration,
    );
    let none = || -> Ready {
        (
            [None, None],
            std::time::Duration::ZERO,
            std::time::Duration::ZERO,
        )
    };
    let mut ready_next = none();
    let total = games.max(2 * KINDS);
    for i in 0..total {
        let (cfg, player, kind, length) = setup(i);
        let (this_game, staged_cpu, staged_wait) = std::mem::replace(&mut ready_next, none());
        let staging_next = match &stager {
            Some(stager) if i + 1 < total => {
                let (next, next_player, _, _) = setup(i + 1);
                Some(stager.stage(next_player.clone(), next))
            }
            _ => None,
        };
        let (cpu0, start) = (own_cpu(), Instant::now());
        // A task of the runtime, as `zebra match` plays a game (see `series::game::play`).
        let player = player.clone();
        let config = cfg.clone();
        let report = tokio::spawn(async move {
            crate::referee::play_game_staged(&player, &player, this_game, &config, |_| {}).await
        })
        .await
        .map_err(|e| format!("benchmark game {i} failed: {e}"))?;
        let game_wall = start.elapsed() + staged_wait;
        let mut game_cpu = own_cpu() - cpu0 + staged_cpu;
        if let Some(reply) = staging_next {
            let waited = Instant::now();
            if let Ok((staged, cpu)) = reply.await {
                // Counted to the game it was for, not this one.
                game_cpu = game_cpu.saturating_sub(cpu);
                ready_next = (staged, cpu, waited.elapsed());
            }
        }
        wall += game_wall;
        cpu += game_cpu;
        if report.termination != crate::record::Termination::Normal {
            return Err(format!(
                "benchmark game {i} did not finish normally: {}",
                report.reason
            ));
        }
        let n = report.bots.iter().map(|b| b.decisions as u64).sum::<u64>();
        decisions += n;
        bot_side_us += report.bots.iter().map(|b| b.think_us).sum::<u64>();
        if kind == 1 {
            freezes += report.bots.iter().map(|b| b.freezes as u64).sum::<u64>();
        }
        bytes[kind] += report.bots.iter().map(|b| b.bytes_sent).sum::<u64>();
        let half = &mut halves[kind];
        half.0 += n;
        half.1 += game_cpu;
        half.2 += game_wall;
        let t = &mut tallies[kind][length];
        t.games += 1;
        t.decisions += n;
        t.cpu += game_cpu;
        t.wall += game_wall;
        pipe.run(2_000)
            .map_err(|e| format!("the pipe baseline with cat failed: {e}"))?;
    }
    let seconds = wall.as_secs_f64().max(1e-9);
    let per_decision = |total: f64| total / decisions.max(1) as f64;
    let request_build_us = request_build(seed, cfg.game.clock.get::<Game>());
    let figures = |kind: usize, f: u64| {
        let (n, cpu, wall) = halves[kind];
        let [short, long] = tallies[kind];
        let split = |pick: fn(&Tally) -> std::time::Duration| {
            let part = |t: &Tally| (t.games, t.decisions, pick(t).as_secs_f64() * 1e6);
            Split::of(part(&short), part(&long)).unwrap_or(Split {
                per_decision: f64::NAN,
                per_game: f64::NAN,
            })
        };
        let (wall_split, cpu_split) = (split(|t| t.wall), split(|t| t.cpu));
        FreezeFigures {
            decisions: n,
            freezes_per_decision: f as f64 / n.max(1) as f64,
            referee_cpu_us_per_decision: cpu.as_secs_f64() * 1e6 / n.max(1) as f64,
            decision_round_trip_us: wall.as_secs_f64() * 1e6 / n.max(1) as f64,
            steady_round_trip_us: wall_split.per_decision,
            steady_referee_cpu_us: cpu_split.per_decision,
            per_game_ms: wall_split.per_game / 1e3,
            per_game_referee_cpu_ms: cpu_split.per_game / 1e3,
            bytes_per_decision: bytes[kind] as f64 / n.max(1) as f64,
        }
    };
    let (freeze_pair_us, freeze_by) = freeze_pair(bot).await?;
    let (start_none_ms, start_sandboxed_ms) = start_times(bot, 15).await?;
    Ok(RefereeReport {
        layout,
        referee_cpus,
        bot_cpus,
        games: games.max(2 * KINDS),
        decisions,
        seconds,
        decisions_per_second: decisions as f64 / seconds,
        referee_cpu_us_per_decision: per_decision(cpu.as_secs_f64() * 1e6),
        decision_round_trip_us: per_decision(seconds * 1e6),
        bot_side_us_per_decision: per_decision(bot_side_us as f64),
        request_build_us,
        pipe_round_trip_us: pipe.wall_us(),
        pipe_cpu_us_per_round_trip: pipe.cpu_us(),
        freeze_off: figures(0, 0),
        freeze_on: figures(1, freezes),
        sandbox_none: figures(2, 0),
        protocol1_freeze_on: figures(3, 0),
        protocol1_sandbox_none: figures(4, 0),
        freeze_pair_us,
        freeze_by,
        start_none_ms,
        start_sandboxed_ms,
        sandbox: crate::sandbox::level().describe(crate::sandbox::Mode::Auto, false),
    })
}

/// The thread that stages `zebra bench referee`'s next game, pinned to the spare CPUs for
/// the whole run: a bot dies with the thread that launched it (its parent-death signal), so
/// the thread lives until the last game has ended.
struct Stager {
    orders: Option<std::sync::mpsc::Sender<StageOrder>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A game's bot and settings to stage, and where the staged bots (and the staging thread's
/// CPU time for them) go.
type StageOrder = (
    crate::bot::BotSpec,
    crate::referee::GameConfig,
    tokio::sync::oneshot::Sender<([Option<crate::bot::Staged>; 2], std::time::Duration)>,
);

impl Stager {
    fn start(spare: &[usize]) -> Stager {
        let (orders, taken) = std::sync::mpsc::channel::<StageOrder>();
        let runtime = tokio::runtime::Handle::current();
        let spare = spare.to_vec();
        let thread = std::thread::spawn(move || {
            let _runtime = runtime.enter();
            let _ = crate::bot::process::pin_current_thread(&spare);
            while let Ok((spec, cfg, reply)) = taken.recv() {
                let cpu0 = thread_cpu();
                let staged = [(); 2].map(|()| {
                    crate::bot::BotProcess::stage(&spec, cfg.max_line, cfg.sandbox, &spare)
                        .ok()
                        .flatten()
                });
                let _ = reply.send((staged, thread_cpu() - cpu0));
            }
        });
        Stager {
            orders: Some(orders),
            thread: Some(thread),
        }
    }

    /// Stages two copies of `spec` for a game played with `cfg`.
    fn stage(
        &self,
        spec: crate::bot::BotSpec,
        cfg: crate::referee::GameConfig,
    ) -> tokio::sync::oneshot::Receiver<([Option<crate::bot::Staged>; 2], std::time::Duration)>
    {
        let (reply, staged) = tokio::sync::oneshot::channel();
        if let Some(orders) = &self.orders {
            let _ = orders.send((spec, cfg, reply));
        }
        staged
    }
}

impl Drop for Stager {
    fn drop(&mut self) {
        self.orders.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts `bot` under `policy` and completes the handshake; returns the time from spawn
/// to `ready`, and the bot, still running.
async fn start_once(
    bot: &crate::bot::BotSpec,
    policy: crate::sandbox::Policy,
) -> Result<(std::time::Duration, crate::bot::BotProcess), String> {
    let patience = std::time::Duration::from_secs(10);
    let start = Instant::now();
    let mut proc =
        crate::bot::BotProcess::spawn(bot, 64 * 1024, policy).map_err(|e| e.to_string())?;
    let shake = crate::referee::handshake::greet(&mut proc, 64 * 1024, patience).await;
    if let Err(failed) = shake.result {
        let exit = proc.shutdown(std::time::Duration::from_secs(1)).await;
        let refusal = failed.judge(patience, &exit);
        return Err(format!("bot '{}' {}", bot.name, refusal.line(None)));
    }
    Ok((start.elapsed(), proc))
}

/// Median spawn-to-ready times without and with the sandbox, `n` of each, interleaved.
async fn start_times(bot: &crate::bot::BotSpec, n: usize) -> Result<(f64, f64), String> {
    use crate::sandbox::{Mode, Policy};
    let mut none = Vec::new();
    let mut boxed = Vec::new();
    for _ in 0..n {
        for (mode, out) in [(Mode::None, &mut none), (Mode::Auto, &mut boxed)] {
            let policy = Policy {
                mode,
                freeze_idle: false,
            };
            let (took, proc) = start_once(bot, policy).await?;
            out.push(took.as_secs_f64() * 1e3);
            proc.send(crate::protocol::to_line(
                &crate::protocol::ToBot::<crate::protocol::AnyGame>::Quit,
            ));
            proc.shutdown(std::time::Duration::from_secs(1)).await;
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    Ok((median(&mut none), median(&mut boxed)))
}

/// One freeze and one thaw of a live sandboxed bot, timed over many rounds.
async fn freeze_pair(bot: &crate::bot::BotSpec) -> Result<(f64, String), String> {
    let policy = crate::sandbox::Policy {
        mode: crate::sandbox::Mode::Auto,
        freeze_idle: true,
    };
    let (_, mut proc) = start_once(bot, policy).await?;
    let rounds = 5_000;
    let start = Instant::now();
    for _ in 0..rounds {
        proc.set_frozen(true);
        proc.set_frozen(false);
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / rounds as f64;
    let by = if proc.freezes_by_cgroup() {
        "cgroup"
    } else {
        "signal"
    };
    proc.send(crate::protocol::to_line(
        &crate::protocol::ToBot::<crate::protocol::AnyGame>::Quit,
    ));
    proc.shutdown(std::time::Duration::from_secs(1)).await;
    Ok((us, by.to_string()))
}

/// Microseconds to build and serialize the request of one decision, over every decision of
/// 20 seeded random games (the positions are collected first, so only the request is timed).
fn request_build(seed: u64, tc: &crate::referee::TimeControl) -> f64 {
    use crate::games::football_chess::request;
    use crate::referee::Clocks;
    let mut positions = Vec::new();
    for i in 0..20 {
        crate::rules::playout::play_random_game(
            Game::new(tc.settings()),
            seed.wrapping_add(i),
            |game, _| positions.push(game.clone()),
        );
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
        let mut child = crate::sandbox::launch::ordinary(|| cmd.spawn())?;
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
    /// One run per concurrency level; with a watching browser, `repeat` plain and as many
    /// watched runs per level, alternated.
    pub runs: Vec<SeriesRun>,
    /// With a watching browser: what watching cost each level.
    pub watch_cost: Vec<WatchCost>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeriesRun {
    pub concurrency: usize,
    /// A browser followed the series live.
    pub watched: bool,
    pub seconds: f64,
    pub games_per_second: f64,
    pub decisions_per_second: f64,
    /// Where the CPU time went (throughput scatters too much on a busy machine for a gap
    /// of a few percent to show reliably; CPU seconds say what watching took).
    pub cpu: RunCpu,
}

/// CPU seconds spent during one run, read from /proc.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RunCpu {
    /// Zebra's viewer thread (the live feeds, made and sent).
    pub viewer_seconds: f64,
    /// Every process of the browser.
    pub browser_seconds: f64,
    /// All the machine's cores, busy (everything: games, bots, viewer, browser).
    pub machine_busy_seconds: f64,
    /// Viewer and browser as a share of the machine's busy time.
    pub watching_percent: f64,
}

/// From a `/proc/.../stat` line: utime + stime in clock ticks, the process group, and the
/// command name (fields 14, 15, 5 and 2; counted from the last `)`, since the name, in
/// parentheses, may hold spaces and parentheses of its own).
fn stat_times(stat: &str) -> Option<(u64, u32, String)> {
    let (head, rest) = stat.rsplit_once(')')?;
    let name = head.split_once('(')?.1.to_string();
    let f: Vec<&str> = rest.split_whitespace().collect();
    let cpu = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some((cpu, f.get(2)?.parse().ok()?, name))
}

/// CPU clock ticks so far: of the viewer thread, the browser's processes, the machine.
#[derive(Clone, Copy, Default)]
struct Ticks {
    viewer: u64,
    browser: u64,
    machine_busy: u64,
}

impl Ticks {
    fn now(browser_group: Option<u32>) -> Ticks {
        let read = |path: std::path::PathBuf| std::fs::read_to_string(path).ok();
        let mut ticks = Ticks::default();
        if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
            for task in tasks.flatten() {
                if let Some((cpu, _, name)) =
                    read(task.path().join("stat")).and_then(|s| stat_times(&s))
                {
                    if name == "viewer" {
                        ticks.viewer += cpu;
                    }
                }
            }
        }
        if let Ok(procs) = std::fs::read_dir("/proc") {
            for proc in procs.flatten() {
                if let Some((cpu, group, _)) =
                    read(proc.path().join("stat")).and_then(|s| stat_times(&s))
                {
                    if Some(group) == browser_group {
                        ticks.browser += cpu;
                    }
                }
            }
        }
        ticks.machine_busy = machine_busy_ticks();
        ticks
    }

    /// What was spent since `earlier`, in seconds.
    fn since(self, earlier: Ticks) -> RunCpu {
        let hz = ticks_per_second();
        let secs = |a: u64, b: u64| a.saturating_sub(b) as f64 / hz;
        let viewer_seconds = secs(self.viewer, earlier.viewer);
        let browser_seconds = secs(self.browser, earlier.browser);
        let machine_busy_seconds = secs(self.machine_busy, earlier.machine_busy);
        RunCpu {
            viewer_seconds,
            browser_seconds,
            machine_busy_seconds,
            watching_percent: 100.0 * (viewer_seconds + browser_seconds)
                / machine_busy_seconds.max(1e-9),
        }
    }
}

/// The median watched run's games per second against the median plain run's.
#[derive(Clone, Debug, Serialize)]
pub struct WatchCost {
    pub concurrency: usize,
    pub cost_percent: f64,
}

/// A headless browser following a series through the live viewer, for the benchmark (or,
/// with `none` for the browser, the viewer served with nobody watching: what the hub costs
/// the games' threads alone).
struct Spectating {
    hub: std::sync::Arc<crate::web::Hub>,
    server: Option<crate::web::server::Background>,
    browser: Option<std::process::Child>,
    profile: std::path::PathBuf,
}

impl Spectating {
    /// Serves the live viewer and opens it in `browser`, then waits (up to 30 s) until the
    /// page follows the run's feed, and (up to 10 s) until the browser is idle.
    async fn start(browser: &str) -> Result<Spectating, String> {
        use std::os::unix::process::CommandExt;
        let hub = crate::web::Hub::new("benchmark");
        let listener = crate::web::server::bind(None).map_err(|e| e.to_string())?;
        let server = crate::web::server::Background::start(
            listener,
            crate::web::live::router(hub.clone()),
            Vec::new(),
        )
        .map_err(|e| format!("cannot serve the viewer: {e}"))?;
        // One browser at a time: its profile is removed when it is stopped.
        let profile =
            std::env::temp_dir().join(format!("zebra-bench-browser-{}", std::process::id()));
        let addr = server.addr;
        let mut spectating = Spectating {
            hub,
            server: Some(server),
            browser: None,
            profile,
        };
        if browser == "none" {
            return Ok(spectating);
        }
        let child = crate::sandbox::launch::ordinary(|| {
            std::process::Command::new(browser)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--remote-debugging-port=0",
                    "--window-size=1400,900",
                ])
                .arg(format!("--user-data-dir={}", spectating.profile.display()))
                .arg(format!("http://{addr}/"))
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .process_group(0)
                .spawn()
        })
        .map_err(|e| format!("cannot start {browser}: {e}"))?;
        let group = child.id();
        spectating.browser = Some(child);
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        while spectating.hub.feeds() == 0 {
            if Instant::now() > deadline {
                return Err("the browser did not open the viewer within 30 s".to_string());
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // Then until its start-up work is over (it goes on for a second or more after the
        // page connects): two quarter seconds in a row of at most one clock tick of CPU
        // (usually 10 ms), or 10 s.
        let settle = Instant::now() + std::time::Duration::from_secs(10);
        let (mut quiet, mut before) = (0, Ticks::now(Some(group)).browser);
        while quiet < 2 && Instant::now() < settle {
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            let now = Ticks::now(Some(group)).browser;
            quiet = if now.saturating_sub(before) <= 1 {
                quiet + 1
            } else {
                0
            };
            before = now;
        }
        Ok(spectating)
    }

    /// The browser's process group, if there is a browser.
    fn group(&self) -> Option<u32> {
        self.browser.as_ref().map(|b| b.id())
    }
}

impl Drop for Spectating {
    fn drop(&mut self) {
        if let Some(browser) = &mut self.browser {
            // SAFETY: signals the browser's own process group (it was started in one).
            unsafe { libc::killpg(browser.id() as i32, libc::SIGKILL) };
            let _ = browser.wait();
        }
        if let Some(server) = self.server.take() {
            server.stop();
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Plays the same series of `games` games between two instant bots at each concurrency
/// level, through the whole series machinery (fsynced PGN, events, statistics), and times
/// each run. The series' files go to a temporary directory, removed afterwards.
pub async fn series(
    bot: &crate::bot::BotSpec,
    games: u32,
    seed: u64,
    levels: &[usize],
    watch_with: Option<&str>,
    repeat: u32,
    affinity: crate::series::placement::Affinity,
) -> Result<SeriesReport, String> {
    use crate::series::{config::SERIES_FILE_VERSION, schedule::Format, BotEntry, SeriesConfig};
    let rounds = (games / 2).max(1);
    let mut runs = Vec::new();
    // Plain and watched runs alternate, `repeat` times each, so that drift hits both alike;
    // the medians are compared (this machine's runs scatter by 10% and more).
    let plan: Vec<(usize, bool)> = levels
        .iter()
        .flat_map(|&c| match watch_with {
            Some(_) => [(c, false), (c, true)].repeat(repeat as usize),
            None => vec![(c, false)],
        })
        .collect();
    for (concurrency, watched) in plan {
        let spectating = match (watched, watch_with) {
            (true, Some(browser)) => Some(Spectating::start(browser).await?),
            _ => None,
        };
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
            strict: false,
        };
        let config = SeriesConfig {
            version: SERIES_FILE_VERSION,
            format: Format::RoundRobin,
            bots: vec![entry("first"), entry("second")],
            rules: crate::rules::Rules::FootballChess,
            rounds,
            seed,
            tc: "plays=10,play=10s,reaction=10s".to_string(),
            max_game_time: None,
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
            // The opening drive: figures stay comparable with those before books.
            situations: None,
            shard: None,
            zebra: None,
        };
        // Every run is measured (a plain run's machine time is the baseline for a watched
        // one's).
        let browser_group = spectating.as_ref().and_then(|s| s.group());
        let ticks = Ticks::now(browser_group);
        let start = Instant::now();
        let outcome = crate::series::run(
            &config,
            Vec::new(),
            Vec::new(),
            crate::series::RunOptions {
                spectator: spectating
                    .as_ref()
                    .map(|s| s.hub.clone() as std::sync::Arc<dyn crate::referee::Spectator>),
                concurrency,
                progress: crate::series::progress::Progress::quiet(),
                // Instant bots: the overload warning would only be noise here.
                cpus: None,
                // Placed as `zebra match` places them.
                affinity: crate::series::placement::place(
                    affinity,
                    &allowed_cpus(),
                    concurrency,
                    crate::series::placement::sequential(config.sandbox.policy()),
                )
                .places,
            },
        )
        .await
        .map_err(|e| e.to_string())?;
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        let cpu = Ticks::now(browser_group).since(ticks);
        if outcome.standings.finished != u64::from(rounds * 2) {
            return Err(format!(
                "the benchmark series ended after {} of {} games",
                outcome.standings.finished,
                rounds * 2
            ));
        }
        drop(spectating);
        // Decisions: the entries of the records (read after the clock stopped).
        let decisions: u64 = std::fs::read_to_string(dir.join("games.pgn"))
            .ok()
            .and_then(|text| crate::record::read_games(&text).ok())
            .map_or(0, |games| {
                games.iter().map(|g| g.entries.len() as u64).sum()
            });
        let _ = std::fs::remove_dir_all(&dir);
        runs.push(SeriesRun {
            concurrency,
            watched,
            seconds,
            games_per_second: f64::from(rounds * 2) / seconds,
            decisions_per_second: decisions as f64 / seconds,
            cpu,
        });
    }
    let median = |c: usize, w: bool| {
        let mut v: Vec<f64> = runs
            .iter()
            .filter(|r| r.concurrency == c && r.watched == w)
            .map(|r| r.games_per_second)
            .collect();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let watch_cost = levels
        .iter()
        .filter_map(|&c| {
            let (plain, watched) = (median(c, false)?, median(c, true)?);
            Some(WatchCost {
                concurrency: c,
                cost_percent: 100.0 * (plain - watched) / plain,
            })
        })
        .collect();
    Ok(SeriesReport {
        games: rounds * 2,
        runs,
        watch_cost,
    })
}

/// What the flood benchmark measured: this process's peak memory before and after games
/// against bots that write as fast as they can.
#[derive(Clone, Debug, Serialize)]
pub struct FloodReport {
    /// Peak resident memory (VmHWM) before the games, in KiB.
    pub peak_rss_before_kib: u64,
    /// Peak resident memory after them, in KiB.
    pub peak_rss_after_kib: u64,
    /// The bound the book gives (docs/src/operators/sandbox-caveats.md) for this many games at once, in KiB.
    pub bound_kib: u64,
    pub games_at_once: usize,
    /// How each game ended (the flooding bot's verdict and the reason).
    pub endings: Vec<String>,
    pub seconds: f64,
}

/// Zebra's memory bound: this much for Zebra itself...
pub const RSS_BASE_KIB: u64 = 64 * 1024;
/// ...and this much per game running at once (two bots' queues, lines, stderr).
pub const RSS_PER_GAME_KIB: u64 = 8 * 1024;

/// This process's peak resident memory so far, in KiB (`VmHWM`).
pub fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Plays, all at once, games against floods: stdout junk before `ready`, `log` lines after
/// `ready` while the opponent thinks for seconds, a 64 MiB line without a newline, and
/// 64 MiB of stderr. `test_bot` is `zebra-test-bot`.
pub async fn flood(test_bot: &crate::bot::BotSpec) -> Result<FloodReport, String> {
    use crate::referee::{GameClock, GameConfig, GameSetup, Referee};
    use crate::rules::Rules;
    let with = |args: &[&str]| {
        let mut b = test_bot.clone();
        b.args = args.iter().map(|a| a.to_string()).collect();
        b
    };
    let cfg = GameConfig {
        game: GameSetup {
            clock: GameClock::read(Rules::FootballChess, "plays=1,play=5s,reaction=5s")
                .expect("a valid time control"),
            ..GameSetup::default()
        },
        handshake: std::time::Duration::from_secs(5),
        ..GameConfig::default()
    };
    let games = [
        (with(&["--flood-stdout", "start"]), with(&[])),
        (
            with(&["--sleep-ms", "1500"]),
            with(&["--flood-stdout", "ready"]),
        ),
        (with(&["--long-line", "67108864"]), with(&[])),
        (with(&["--stderr-flood", "64"]), with(&[])),
    ];
    let before = peak_rss_kib();
    let start = Instant::now();
    let play = |k: usize| Referee::play(&games[k].0, &games[k].1, &cfg, |_, _, _| {});
    let (a, b, c, d) = tokio::join!(play(0), play(1), play(2), play(3));
    let reports = [a, b, c, d];
    let endings = reports
        .iter()
        .map(|r| {
            let verdicts: Vec<&str> = r
                .bots
                .iter()
                .filter_map(|b| b.verdict.map(|v| v.code()))
                .collect();
            format!("{} ({}): {}", r.termination, verdicts.join(","), r.reason)
        })
        .collect();
    Ok(FloodReport {
        peak_rss_before_kib: before,
        peak_rss_after_kib: peak_rss_kib(),
        bound_kib: RSS_BASE_KIB + RSS_PER_GAME_KIB * games.len() as u64,
        games_at_once: games.len(),
        endings,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::stat_times;

    #[test]
    fn a_stat_line_gives_cpu_group_and_name_whatever_the_name_holds() {
        let line = "4242 (Web Content (x) 1) S 1 777 777 0 -1 4194560 100 0 0 0 \
                    150 25 0 0 20 0 12 0 3000 0 0";
        assert_eq!(
            stat_times(line),
            Some((175, 777, "Web Content (x) 1".to_string()))
        );
        assert_eq!(stat_times("4242 (viewer) S 1 9"), None);
        assert_eq!(stat_times("no parentheses"), None);
    }
}

#[cfg(test)]
mod split_tests {
    use super::Split;

    /// Games of 400 and 1,600 decisions costing 10 ms each besides 20 us a decision.
    #[test]
    fn a_cost_splits_into_its_game_and_decision_parts() {
        let short = (3, 1_200, 3.0 * (10_000.0 + 400.0 * 20.0));
        let long = (2, 3_200, 2.0 * (10_000.0 + 1_600.0 * 20.0));
        let split = Split::of(short, long).unwrap();
        assert!((split.per_decision - 20.0).abs() < 1e-9, "{split:?}");
        assert!((split.per_game - 10_000.0).abs() < 1e-6, "{split:?}");
        // Lengths that do not differ cannot split.
        assert_eq!(Split::of((1, 500, 1.0), (2, 1_000, 2.0)), None);
    }
}
