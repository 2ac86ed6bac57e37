//! One game of a series, from its fixture to its counted outcome: the single path by which
//! both front ends play games, `zebra match` ([`super::runner`]) and `zebra serve`
//! (`server::worker`). Everything that makes a series game what it is lives here once: the
//! bots' limits and time odds, the referee's settings, the thread the game runs on, and the
//! tags the series adds to its record (pair, game, attempt, each side's conduct).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use crate::bot::BotSpec;
use crate::referee::{GameConfig, GameReport, GameSetup, Spectator, TimeOdds};
use crate::rules::Side;

use super::conduct::GameConduct;
use super::config::SeriesConfig;
use super::schedule::Fixture;
use super::standings::GameOutcome;

/// The bots of a series as they play: each one's start-up spec with its limits and its time
/// odds, worked out once per series.
#[derive(Clone, Debug)]
pub struct Entrants {
    specs: Vec<BotSpec>,
    odds: Vec<TimeOdds>,
    /// Bots that are always contained strictly (`strict = true`).
    strict: Vec<bool>,
    /// The game and its clock, as every game of the series plays them.
    base: GameConfig,
    /// The book's situations and how pairs take them (none: the opening drive).
    situations: Vec<zebra_engine::seam::GameStart>,
    order: super::book::SituationOrder,
    seed: u64,
}

impl Entrants {
    /// From a validated series (limits and odds were checked when it was set up; a value
    /// that no longer parses falls back to the default rather than stopping the series).
    pub fn of(config: &SeriesConfig) -> Entrants {
        Entrants {
            specs: config
                .bots
                .iter()
                .map(|b| {
                    let limits = bot_sandbox(config, b)
                        .limits_for(&b.limits)
                        .unwrap_or_else(|_| crate::sandbox::Limits::default());
                    b.spec_with(limits)
                })
                .collect(),
            strict: config.bots.iter().map(|b| b.strict).collect(),
            odds: config
                .bots
                .iter()
                .map(|b| b.odds().unwrap_or_default())
                .collect(),
            base: config.game_config(),
            situations: config
                .situations
                .as_ref()
                .and_then(|b| b.parsed(config.rules).ok())
                .unwrap_or_default(),
            order: config
                .situations
                .as_ref()
                .map_or(super::book::SituationOrder::Sequential, |b| b.order),
            seed: config.seed,
        }
    }

    /// The start pair `round` of an encounter plays, if the series has a book.
    pub fn situation(&self, round: u32) -> Option<zebra_engine::seam::GameStart> {
        if self.situations.is_empty() {
            return None;
        }
        let k = super::book::pick(self.order, self.situations.len(), round, self.seed);
        Some(self.situations[k].clone())
    }

    /// Game `fixture` of `config`, attempt `attempt` (1 for the first).
    pub fn game(&self, config: &SeriesConfig, fixture: Fixture, attempt: u32) -> SeriesGame {
        SeriesGame {
            fixture,
            attempt,
            white: self.specs[fixture.white].clone(),
            black: self.specs[fixture.black].clone(),
            cpu: None,
            config: GameConfig {
                game: GameSetup {
                    seed: fixture.seed,
                    max_illegal: config.max_illegal,
                    odds: [self.odds[fixture.white], self.odds[fixture.black]],
                    start: self.situation(fixture.round),
                    ..self.base.game.clone()
                },
                event: config.event.clone(),
                round: fixture.round.to_string(),
                transcript: config
                    .log_dir
                    .as_ref()
                    .map(|dir| log_path(dir, fixture.game, attempt)),
                keep_logs: if config.log_failures {
                    crate::referee::KeepLogs::Failures
                } else {
                    crate::referee::KeepLogs::Always
                },
                sandbox: {
                    // A strict bot makes its whole game strict (both bots share the jail's
                    // machinery; the other keeps its own limits).
                    let mut policy = config.sandbox.policy();
                    if self.strict[fixture.white] || self.strict[fixture.black] {
                        policy.mode = crate::sandbox::Mode::Strict;
                    }
                    policy
                },
                ..self.base.clone()
            },
        }
    }
}

/// The containment a bot plays under: the series', at the strict level for a strict bot.
pub(crate) fn bot_sandbox(
    config: &SeriesConfig,
    bot: &super::BotEntry,
) -> crate::sandbox::Settings {
    let mut settings = config.sandbox.clone();
    if bot.strict {
        settings.mode = crate::sandbox::Mode::Strict;
    }
    settings
}

/// A game ready to be played: which one, its two bots and the referee's settings.
#[derive(Clone, Debug)]
pub struct SeriesGame {
    pub fixture: Fixture,
    /// 1 for the first attempt at this game, more for a replay.
    pub attempt: u32,
    pub white: BotSpec,
    pub black: BotSpec,
    /// The CPU the game's thread (its referee) is pinned to, if any (`--affinity`).
    pub cpu: Option<usize>,
    pub config: GameConfig,
}

impl SeriesGame {
    /// Stages both bots on the CPUs `on` (see [`Stage`]): White's, then Black's; a bot that
    /// cannot be staged, or whose setup failed (its game says why as it starts it), is
    /// `None` and starts with its game.
    fn stage(&self, on: &[usize]) -> [Option<crate::bot::Staged>; 2] {
        [&self.white, &self.black].map(|spec| {
            crate::bot::BotProcess::stage(spec, self.config.max_line, self.config.sandbox, on)
                .unwrap_or_else(|e| {
                    tracing::debug!("{e}: it starts with its game");
                    None
                })
        })
    }

    /// Pins the game where `place` says (`--affinity`, see [`super::placement`]).
    /// With [`Place::Game`](super::placement::Place::Game) the bots go where the game's
    /// thread goes once it has claimed its CPU (see [`play`]).
    pub fn place(&mut self, place: super::placement::Place) {
        use super::placement::Place;
        match place {
            Place::Game(cpu) => self.cpu = Some(cpu),
            Place::Bots([white, black]) => {
                self.cpu = None;
                self.white.cpus = Some(vec![white]);
                self.black.cpus = Some(vec![black]);
            }
        }
    }
}

/// A game as the series counts it: its report (the record carries the series' tags), each
/// side's conduct and the outcome the standings fold in.
#[derive(Debug)]
pub struct PlayedGame {
    pub fixture: Fixture,
    pub attempt: u32,
    pub report: GameReport,
    /// White's, then Black's.
    pub conduct: [GameConduct; 2],
    pub outcome: GameOutcome,
    pub duration: Duration,
}

/// A game staged ahead of its slot: on its thread, before it starts, its bots are set up on
/// a spare CPU (claimed as a game's CPU is while they are set up, so that no game of this
/// machine's Zebras runs there meanwhile), walled and waiting before their programs' exec
/// ([`BotProcess::stage`](crate::bot::BotProcess::stage)); `release` then gives the game its
/// place and lets it start, the bots released onto its CPU. Their walls, the most of a walled
/// start, are then built while the previous game of the slot still plays.
pub struct Stage {
    /// The CPUs no game slot uses.
    pub on: Vec<usize>,
    /// The game's place once a slot is free (`None`: unpinned); dropped, it goes unplayed.
    pub release: tokio::sync::oneshot::Receiver<Option<super::placement::Place>>,
}

/// Plays `game` on a new thread with its own single-threaded runtime (a game's reader,
/// writer and referee then never wake each other across threads, which on a virtual
/// machine costs more than the referee's own work), staged first with `stage`. `None` if
/// the game was cancelled or never released (its bots are killed as the referee or the
/// staged bots are dropped) or its thread failed: it is not recorded, so it is played
/// again.
pub async fn play(
    game: SeriesGame,
    cancel: CancellationToken,
    spectator: Option<Arc<dyn Spectator>>,
    stage: Option<Stage>,
) -> Option<PlayedGame> {
    let (fixture, attempt) = (game.fixture, game.attempt);
    let number = fixture.game;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("game-{number}"))
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    tracing::error!("cannot start a game's runtime: {e}");
                    return;
                }
            };
            let mut game = game;
            let mut staged = [None, None];
            if let Some(stage) = stage {
                let anywhere = super::placement::allowed_cpus();
                let released = runtime.block_on(async {
                    // Set up where no game plays, on its own CPU, then wait.
                    let spare = stage
                        .on
                        .first()
                        .and_then(|&first| super::placement::claim(first, &stage.on));
                    if let Some(spare) = &spare {
                        // This thread's own work for it too: off the CPUs of the games
                        // that play.
                        if crate::bot::process::pin_current_thread(&[spare.cpu]).is_ok() {
                            staged = game.stage(&[spare.cpu]);
                        }
                    }
                    // The bots wait walled, using no CPU: the spare one is free again (for
                    // another Zebra's game, say) while this game waits for its slot.
                    drop(spare);
                    tokio::select! {
                        place = stage.release => place.ok(),
                        _ = cancel.cancelled() => None,
                    }
                });
                // Off the spare CPU: anywhere, until the game's place pins it.
                if !anywhere.is_empty() {
                    let _ = crate::bot::process::pin_current_thread(&anywhere);
                }
                match released {
                    Some(place) => {
                        if let Some(place) = place {
                            game.place(place);
                        }
                    }
                    None => {
                        drop(staged);
                        GAME_THREADS_CPU_NS
                            .fetch_add(thread_cpu().as_nanos() as u64, Ordering::Relaxed);
                        let _ = tx.send(None);
                        return;
                    }
                }
            }
            let SeriesGame {
                fixture: _,
                attempt: _,
                mut white,
                mut black,
                cpu,
                config,
            } = game;
            // Held until the game ends (released before the result is sent, so that the
            // slot's next game finds its CPU free): no other game of this machine's Zebras
            // is pinned to its CPU meanwhile.
            let claim = cpu.and_then(|preferred| {
                let claim = super::placement::claim(preferred, &super::placement::allowed_cpus())
                    .filter(|c| {
                        crate::bot::process::pin_current_thread(&[c.cpu])
                            .map_err(|e| {
                                tracing::warn!("cannot pin game {number} to CPU {}: {e}", c.cpu)
                            })
                            .is_ok()
                    });
                // The game's bots go where its referee goes: its wake-ups stay on one CPU.
                white.cpus = claim.as_ref().map(|c| vec![c.cpu]);
                black.cpus = claim.as_ref().map(|c| vec![c.cpu]);
                claim
            });
            // Played as a task of the runtime, not as the future `block_on` polls: a bot's
            // reply then wakes the game within the runtime's own poll of its pipes, where
            // waking `block_on`'s future would first write to the runtime's wake-up file and
            // poll again (two system calls more at every decision).
            let played = runtime.block_on(async move {
                let start = Instant::now();
                let game = tokio::spawn(async move {
                    tokio::select! {
                        report = crate::referee::play_game_staged(&white, &black, staged, &config, |record| {
                            if let Some(s) = &spectator {
                                s.follow(number, record);
                            }
                        }) => Some(report),
                        _ = cancel.cancelled() => None,
                    }
                })
                .await;
                // A game that panicked is not recorded (played again), as before.
                game.ok().flatten().map(|report| (report, start.elapsed()))
            });
            drop(runtime);
            drop(claim);
            GAME_THREADS_CPU_NS.fetch_add(thread_cpu().as_nanos() as u64, Ordering::Relaxed);
            let _ = tx.send(played);
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start a game thread: {e}");
        return None;
    }
    let (report, duration) = rx.await.ok().flatten()?;
    Some(counted(fixture, attempt, report, duration))
}

/// The CPU time (user and system, in ns) of this process's game threads, added as each
/// ends: `zebra bench serve` splits Zebra's own CPU per game with it into the games' own
/// work (referee, bots' start and wall, transcript, live feed) and the rest (the runner's or
/// the daemon's: store, books, records, HTTP).
static GAME_THREADS_CPU_NS: AtomicU64 = AtomicU64::new(0);

/// The CPU time the game threads of this process that have ended used in all.
pub fn game_threads_cpu() -> Duration {
    Duration::from_nanos(GAME_THREADS_CPU_NS.load(Ordering::Relaxed))
}

/// The calling thread's CPU time so far (user and system).
pub fn thread_cpu() -> Duration {
    // SAFETY: getrusage only writes into the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// What the series makes of a finished game: its tags, conduct and outcome.
fn counted(
    fixture: Fixture,
    attempt: u32,
    mut report: GameReport,
    duration: Duration,
) -> PlayedGame {
    let tags = &mut report.record.tags;
    tags.set("Pair", fixture.pair.to_string());
    tags.set("Game", fixture.game.to_string());
    if attempt > 1 {
        tags.set("Attempt", attempt.to_string());
    }
    let conduct = [
        GameConduct::of(&report.bots[0]),
        GameConduct::of(&report.bots[1]),
    ];
    for (side, c) in Side::ALL.into_iter().zip(&conduct) {
        c.write_tags(side, &mut report.record.tags);
    }
    let outcome =
        GameOutcome::of(&fixture, report.result, report.termination).with_conduct(conduct.clone());
    PlayedGame {
        fixture,
        attempt,
        report,
        conduct,
        outcome,
        duration,
    }
}

/// `DIR/game-0007.log`; the bots' stderr goes next to it (`game-0007.white.stderr`). A
/// game played again by `--replay-suspect` (or voided by the daemon) keeps each attempt's
/// logs apart: `game-0007-attempt2.log`.
pub fn log_path(dir: &std::path::Path, game: u32, attempt: u32) -> std::path::PathBuf {
    if attempt > 1 {
        dir.join(format!("game-{game:04}-attempt{attempt}.log"))
    } else {
        dir.join(format!("game-{game:04}.log"))
    }
}
