//! One refereed game: two bot processes, the protocol, the clocks, and the policy for
//! everything a bot can do wrong.
//!
//! - `cap`: the wall-time cap of one game (`--max-game-time`) and its default
//! - `check`: `zebra check-bot`, the compliance check for bot authors
//! - `clock`: the clocks of rule 6 as pure arithmetic
//! - `chess_clock`: a chess clock, for games without clocks of their own
//! - `handshake`: `hello` and `ready`, judged the same for a game, a preflight, `check-bot`
//!   and `zebra bench`
//! - `preflight`: each bot started once before play, its option values checked
//! - `reply`: what one line from a bot means while its request is pending (pure)
//! - `sealed`: both sides asked at once for a sealed pair of decisions
//! - `transcript`: the optional per-game log of every line sent and received
//!
//! The referee runs any game through [`Refereed`] (implemented per game in
//! `crate::games`): the game's clocks, its messages and what a missed decision costs are
//! the game's; the loop, the bots and the policy are the referee's.
//!
//! The policy, in one place: a reply that is not a legal action (bad JSON, a line over the
//! limit, an illegal action) is counted, and after `max_illegal` such replies the game is
//! forfeited; below that it costs what the game says a missed decision costs (Football
//! Chess: the consequence of the decision's clock; Boyer's Football: nothing, the bot is
//! asked again on its running clock). A crash or closed pipe forfeits the game. Nothing a
//! bot does stops the referee or leaves a process behind. A game that reaches its wall-time
//! cap (`cap`) is stopped, even in the middle of a decision, and adjudicated.

pub mod check;
pub mod handshake;
pub mod preflight;
pub mod reply;
mod sealed;
pub mod transcript;

use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use crate::bot::{BotProcess, BotSpec, ExitInfo, Incoming, Staged};
use crate::protocol::{self, Payloads, ReplyStatus, ScoreMsg, ToBot, Wants};
use crate::record::{GameRecord, Termination};
use crate::rules::{Event, Game, GameResult, Rules, Side};
use crate::sandbox::{Exit, Policy, Verdict};
use reply::Heard;
use zebra_engine::seam::envelope;

/// Someone following games as they are played (the live viewer of `--watch`): told each
/// game's record after every decision, when it ends, and the lines of a series' event
/// stream. Called from the threads that play the games, so it must be quick: it takes what
/// it needs and returns (a slow spectator would slow the game).
pub trait Spectator: Send + Sync {
    /// Game `number` is about to start (its bots are being started).
    fn announce(&self, number: u32);
    /// A line of the series' event stream (protocol/schemas/series-event.json), no newline.
    fn series_event(&self, line: &str);
    /// Game `number` as it stands: its record so far (tags, and every entry).
    fn follow(&self, number: u32, record: &GameRecord);
    /// Game `number` ended as `record` says (it is on disk, if it goes anywhere); `reason`
    /// says why in words.
    fn game_over(&self, number: u32, record: &GameRecord, reason: &str);
}

impl std::fmt::Debug for dyn Spectator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spectator")
    }
}

// The seam and the clocks are pure and live in the engine, next to the games that
// implement them; the referee's paths to them stay as they were.
pub use transcript::KeepLogs;
use transcript::Transcript;
pub use zebra_engine::seam::{
    cap, chess_clock, clock, Budget, Clocks, GameClock, GameSetup, GameStart, MaxGameTime,
    MaxGameTimeError, Miss, Missed, QuarterMode, Refereed, RefusedExpiry, TimeControl,
    TimeControlError, TimeOdds,
};

/// Everything about one game that is not the bots: what decides the game ([`GameSetup`],
/// shared with the engine) and how the referee runs it.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The game, its clock, seed and start.
    pub game: GameSetup,
    pub max_line: usize,
    pub handshake: Duration,
    /// How long a bot has to exit after `quit` before its process group is killed.
    pub quit_grace: Duration,
    /// PGN tags.
    pub event: String,
    pub site: String,
    pub round: String,
    /// Where to write the protocol transcript, if anywhere.
    pub transcript: Option<PathBuf>,
    /// Whether the transcript and the bots' stderr are kept for every game or only for
    /// one that went wrong.
    pub keep_logs: KeepLogs,
    /// The transcript and the bots' stderr files are created 0600 (and a missing directory
    /// 0700), whatever the umask: the daemon's, whose logs are for their bots' owners
    /// alone (`zebra match` leaves the user's umask to decide).
    pub private_logs: bool,
    /// How the bots are contained (`--sandbox`, `--freeze-idle`).
    pub sandbox: Policy,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            game: GameSetup::default(),
            max_line: 64 * 1024,
            handshake: Duration::from_secs(10),
            quit_grace: Duration::from_secs(1),
            event: "Zebra game".to_string(),
            site: "?".to_string(),
            round: "1".to_string(),
            transcript: None,
            keep_logs: KeepLogs::Always,
            private_logs: false,
            sandbox: Policy::default(),
        }
    }
}

impl GameConfig {
    /// Reads `text` as a clock of the game played and sets it; the clock
    /// in its canonical form, which reads back the same.
    pub fn read_clock(&mut self, text: &str) -> Result<String, TimeControlError> {
        self.game.read_clock(text)
    }

    /// The clock a game of `rules` gets when none is named.
    pub fn default_clock(rules: Rules) -> &'static str {
        GameSetup::default_clock(rules)
    }

    /// The wall-time cap of a game under these settings (`None`: no cap).
    pub fn game_time_cap(&self) -> Option<Duration> {
        self.game.game_time_cap()
    }
}

/// What a bot said about itself in `ready`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotInfo {
    pub name: String,
    pub author: String,
    pub version: String,
}

/// How one bot behaved in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotReport {
    pub name: String,
    pub info: Option<BotInfo>,
    pub decisions: u32,
    pub illegal: u32,
    pub timeouts: u32,
    /// Replies discarded: late, duplicate or with a wrong id.
    pub discarded: u32,
    /// Lines before `ready` that were not `ready` (a banner, blank lines are not counted).
    pub noise: u32,
    /// Total time from each request's flush to its reply, in microseconds.
    pub think_us: u64,
    /// Total CPU time the bot's process spent on its decisions (kernel accounting), in
    /// microseconds.
    pub cpu_us: u64,
    /// Timeouts during which the bot used less than half the wall time in CPU: the bot was
    /// waiting, or the machine was too busy to run it. Worth a look before blaming the bot.
    pub suspect_timeouts: u32,
    pub exit: Option<ExitInfo>,
    /// Why this bot ended the game early, if it did.
    pub verdict: Option<Verdict>,
    /// How many times it was stopped while its opponent had the turn (`--freeze-idle`).
    pub freezes: u32,
    /// The bytes Zebra wrote to it (every line and its newline).
    pub bytes_sent: u64,
}

/// The outcome of one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub record: GameRecord,
    pub result: Option<GameResult>,
    pub termination: Termination,
    pub reason: String,
    pub score: [u16; 2],
    pub bots: [BotReport; 2],
}

/// What became of one request.
enum Reply<A> {
    Action { action: A, elapsed: Duration },
    Invalid { why: String, elapsed: Duration },
    Timeout { elapsed: Duration },
    Gone { why: String },
    Flood,
    Limit(Verdict),
}

/// What the wait for a reply does after one thing read ([`Referee::hear`]).
enum Next<A> {
    /// Keeps waiting for the reply.
    Wait,
    /// Ends with this reply.
    Reply(Reply<A>),
    /// The bot's output closed: whether it exited tells a crash from a closed output.
    Closed,
}

/// How long a decision runs before the other bot is stopped (`--freeze-idle`).
pub const FREEZE_AFTER: Duration = Duration::from_millis(2);

/// Lines a bot may send between two of its requests, its reply included (`log` lines, a
/// `pong`, stale replies): beyond this it is flooding.
pub(crate) const FLOOD_LINES: u32 = 256;
/// Bytes a bot may send between two of its requests, its reply included.
pub(crate) const FLOOD_BYTES: u64 = 256 * 1024;

/// What a bot has written since its last request (or since it started), against the
/// flood limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutputBudget {
    lines: u32,
    bytes: u64,
}

impl OutputBudget {
    /// Counts one thing read; `true` once the bot is over a limit.
    pub fn take(&mut self, incoming: &Incoming) -> bool {
        let bytes = match incoming {
            Incoming::Line { text, .. } => text.len() as u64 + 1,
            // Its bytes were dropped as they streamed in (no memory held); the line itself
            // is judged as an invalid reply.
            Incoming::TooLong { .. } | Incoming::NotUtf8 { .. } => 1,
            Incoming::Closed { .. } => return false,
        };
        self.lines += 1;
        self.bytes += bytes;
        self.lines > FLOOD_LINES || self.bytes > FLOOD_BYTES
    }

    /// A new request: a new allowance.
    pub fn reset(&mut self) {
        *self = OutputBudget::default();
    }
}

struct Seat {
    side: Side,
    spec: BotSpec,
    /// Set up ahead of the game ([`play_game_staged`]), to be released when it starts.
    staged: Option<Staged>,
    bot: Option<BotProcess>,
    report: BotReport,
    output: OutputBudget,
    /// The id of the last request this bot answered in time: a reply to it again is a
    /// duplicate, not a late reply.
    answered: Option<u64>,
    /// How its requests are written (its protocol version).
    speaks: Speaks,
}

/// How a bot's requests are written. Version 1: each carries the whole state and the legal
/// list, and every `result` and `event` is sent. Version 2: each carries the record's
/// entries since the bot's previous request; the state and the legal list on its first
/// request, on the first of each play, and when it asks; `event` messages and the `result`
/// of a reply applied as sent when it asked for them in `ready`.
#[derive(Clone, Copy, Debug, Default)]
struct Speaks {
    /// Version 2.
    changes: bool,
    /// What every request carries, and which messages it gets (version 1: everything).
    wants: Wants,
    /// What its next request carries besides (asked in its last `action`).
    next: Wants,
    /// The record's entries it has been told of; `None` before its first request.
    told: Option<usize>,
}

/// Runs one game; see the module docs for the policy.
pub struct Referee<'a, R: Refereed> {
    cfg: &'a GameConfig,
    game: R,
    clocks: R::Clocks,
    record: GameRecord,
    seats: [Seat; 2],
    next_id: u64,
    transcript: Option<Transcript>,
    start: Instant,
    /// Lines posted for each bot, sent with its next message.
    outbox: [String; 2],
    /// The CPU time the bot spent on the last request, when the kernel could tell.
    last_cpu: Option<Duration>,
    /// The second side of an open sealed pair and the record's length when the pair
    /// opened: the entries from there on (the first side's sealed decision) are not in
    /// that side's `since` until its own decision is in.
    withheld: Option<(Side, usize)>,
}

/// The end of a game before the engine's end: who is to blame (if anyone: not for an
/// adjudication at the wall-time cap) and why.
struct Forfeit {
    termination: Termination,
    loser: Option<Side>,
    reason: String,
    /// What the loser did; `None` when it is only known once its process is reaped (it
    /// exited or closed its output: a crash, a limit, or a closed pipe).
    verdict: Option<Verdict>,
}

impl Referee<'_, Game> {
    /// Plays one game of Football Chess between `white` and `black`; `watch` sees the
    /// game, the events and the record so far once both bots are ready (no events yet),
    /// then after every decision (a viewer follows the game from the record's entries).
    pub async fn play(
        white: &BotSpec,
        black: &BotSpec,
        cfg: &GameConfig,
        watch: impl FnMut(&Game, &[Event], &GameRecord),
    ) -> GameReport {
        Referee::<Game>::play_as(white, black, [None, None], cfg, watch).await
    }
}

/// A game of `R` as it starts, with its record's tags: the engine's, then the referee's
/// (event, site, date, round, players, seed, sandbox), then the engine's late ones.
fn opening<R: Refereed>(
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
) -> (R, GameRecord, R::Clocks) {
    let reproducible = R::reproducible(&cfg.game);
    let (game, mut record, clocks) = R::set_up(&cfg.game);
    for (k, v) in [
        ("Event", cfg.event.clone()),
        ("Site", cfg.site.clone()),
        (
            "Date",
            if reproducible {
                "????.??.??".to_string()
            } else {
                today()
            },
        ),
        ("Round", cfg.round.clone()),
        ("White", white.name.clone()),
        ("Black", black.name.clone()),
        ("Seed", cfg.game.seed.to_string()),
        (
            "Sandbox",
            sandbox_tag(cfg.sandbox, white.limits.network || black.limits.network),
        ),
    ] {
        record.tags.set(k, v);
    }
    R::late_tags(&cfg.game, &mut record);
    (game, record, clocks)
}

/// The tags a game's record starts with, as [`play_game`] would write them for these bots
/// and settings: what a record reported by a remote worker is checked against. The date
/// and the sandbox (the day and the machine the game was played on) and the end (result,
/// termination: the game's, written when it ends) are left out.
pub fn opening_tags(white: &BotSpec, black: &BotSpec, cfg: &GameConfig) -> crate::record::Tags {
    let mut tags =
        crate::with_rules!(cfg.game.rules(), R => opening::<R>(white, black, cfg).1.tags);
    for later in [
        "Date",
        "Sandbox",
        "Result",
        "Termination",
        "TerminationReason",
    ] {
        tags.remove(later);
    }
    tags
}

/// Plays one game of the game `cfg.rules` names; `watch` sees the record so far once both
/// bots are ready, then after every decision.
pub async fn play_game(
    white: &BotSpec,
    black: &BotSpec,
    cfg: &GameConfig,
    watch: impl FnMut(&GameRecord),
) -> GameReport {
    play_game_staged(white, black, [None, None], cfg, watch).await
}

/// [`play_game`] with White's and Black's bots staged ahead where they were
/// ([`BotProcess::stage`]): released when the game starts, the others started then.
pub async fn play_game_staged(
    white: &BotSpec,
    black: &BotSpec,
    staged: [Option<Staged>; 2],
    cfg: &GameConfig,
    mut watch: impl FnMut(&GameRecord),
) -> GameReport {
    crate::with_rules!(cfg.game.rules(), R => {
        Referee::<R>::play_as(white, black, staged, cfg, |_: &R, _: &[<R as crate::rules::ruleset::RuleSet>::Event], rec: &GameRecord| watch(rec)).await
    })
}

impl<'a, R: Refereed> Referee<'a, R> {
    /// Plays one game of `R` between `white` and `black`; see [`Referee::play`].
    pub(crate) async fn play_as(
        white: &BotSpec,
        black: &BotSpec,
        staged: [Option<Staged>; 2],
        cfg: &'a GameConfig,
        watch: impl FnMut(&R, &[R::Event], &GameRecord),
    ) -> GameReport {
        let (game, record, clocks) = opening::<R>(white, black, cfg);
        let [white_staged, black_staged] = staged;
        let seat = |side, spec: &BotSpec, staged: Option<Staged>| Seat {
            side,
            spec: spec.clone(),
            staged,
            bot: None,
            report: BotReport {
                name: spec.name.clone(),
                ..BotReport::default()
            },
            output: OutputBudget::default(),
            answered: None,
            speaks: Speaks {
                wants: Wants::ALL,
                ..Speaks::default()
            },
        };
        let transcript = cfg.transcript.as_ref().and_then(|p| {
            match Transcript::create(p, cfg.keep_logs, cfg.private_logs) {
                Ok(t) => Some(t),
                Err(e) => {
                    tracing::warn!("cannot write the transcript {}: {e}", p.display());
                    None
                }
            }
        });
        let mut referee = Referee {
            cfg,
            game,
            clocks,
            record,
            seats: [
                seat(Side::White, white, white_staged),
                seat(Side::Black, black, black_staged),
            ],
            next_id: 1,
            transcript,
            start: Instant::now(),
            outbox: [String::new(), String::new()],
            last_cpu: None,
            withheld: None,
        };
        let forfeit = referee.run(watch).await;
        referee.finish(forfeit).await
    }

    async fn run(
        &mut self,
        mut watch: impl FnMut(&R, &[R::Event], &GameRecord),
    ) -> Option<Forfeit> {
        if let Some(f) = self.start_bots().await {
            return Some(f);
        }
        watch(&self.game, &[], &self.record);
        // The wall-time cap, from the game's start (a cap too far to reach is none).
        let cap = self
            .cfg
            .game_time_cap()
            .and_then(|c| Some((c, self.start.checked_add(c)?)));
        // A reply to the second of two sealed decisions, asked with the first: applied
        // when the game comes to it (its side is due next, the first one settled).
        let mut pending: Option<sealed::Pending<R>> = None;
        while let Some((side, _kind)) = self.game.to_decide() {
            if let Some((cap, at)) = cap {
                if Instant::now() >= at {
                    return Some(self.capped(cap));
                }
            }
            let (id, budget, reply) = match pending.take() {
                Some(p) if p.side == side => {
                    self.last_cpu = p.cpu;
                    (p.id, p.budget, p.reply)
                }
                kept => {
                    // Both sides of a sealed pair are asked once; a first side asked again
                    // (a bad reply) is asked alone.
                    let sealed = match kept {
                        None => self.game.sealed(&self.clocks),
                        Some(_) => None,
                    };
                    pending = kept;
                    let budget = self.game.budget(&self.clocks);
                    let id = self.next_id;
                    self.next_id += 1;
                    // The wait for a reply ends at the cap, however long the bot's own
                    // limit: the request is abandoned (its bot is ended with the game, in
                    // `finish`).
                    let reply = match sealed {
                        None => match within(cap, self.ask(side, id, &budget)).await {
                            Ok(reply) => reply,
                            Err(cap) => return Some(self.capped(cap)),
                        },
                        Some((second, later_budget)) => {
                            self.withheld = Some((second, self.record.entries.len()));
                            let later_id = self.next_id;
                            self.next_id += 1;
                            let both = self
                                .ask_both((side, id, &budget), (second, later_id, &later_budget));
                            let [(reply, cpu), (later, later_cpu)] = match within(cap, both).await {
                                Ok(replies) => replies,
                                Err(cap) => return Some(self.capped(cap)),
                            };
                            pending = Some(sealed::Pending {
                                side: second,
                                id: later_id,
                                budget: later_budget,
                                reply: later,
                                cpu: later_cpu,
                            });
                            self.last_cpu = cpu;
                            reply
                        }
                    };
                    (id, budget, reply)
                }
            };
            if let Err(f) = self.settle(side, id, &budget, reply, &mut watch) {
                return Some(f);
            }
        }
        None
    }

    /// Applies what became of request `id` to `side` (bound by `budget`): the action, or
    /// what a bad reply or a timeout costs; records it, tells the bot its result and both
    /// bots the events, and shows `watch`. `Err`: the game ends here.
    fn settle(
        &mut self,
        side: Side,
        id: u64,
        budget: &R::Budget,
        reply: Reply<R::Action>,
        watch: &mut impl FnMut(&R, &[R::Event], &GameRecord),
    ) -> Result<(), Forfeit> {
        let (events, status, applied, reason, elapsed) = match reply {
            Reply::Gone { why } => {
                return Err(Forfeit {
                    termination: Termination::Abandoned,
                    loser: Some(side),
                    reason: format!("{side} {why}"),
                    verdict: None,
                })
            }
            Reply::Flood => return Err(flood(side)),
            Reply::Limit(verdict) => {
                return Err(Forfeit {
                    termination: Termination::Abandoned,
                    loser: Some(side),
                    reason: format!("{side} {verdict}"),
                    verdict: Some(verdict),
                })
            }
            Reply::Action { action, elapsed } => match self.game.play(&action) {
                Ok(events) => {
                    let action = R::as_recorded(&action, &events);
                    // Times only where the game is not reproducible (see `play_as`):
                    // play-count records stay byte-identical from run to run.
                    if R::reproducible(&self.cfg.game) {
                        self.record.push_action(&action, None, None);
                    } else {
                        self.record.push_timed_action(
                            &action,
                            Some(elapsed.as_millis() as u64),
                            R::clock_note(&self.clocks, budget, elapsed),
                            self.last_cpu.map(|c| c.as_millis() as u64),
                        );
                    }
                    (
                        events,
                        ReplyStatus::Ok,
                        Some(action.to_string()),
                        None,
                        elapsed,
                    )
                }
                Err(e) => {
                    let why = format!("illegal action '{action}': {e}");
                    let (events, applied, why) = self.illegal(side, why, budget)?;
                    (events, ReplyStatus::Illegal, applied, Some(why), elapsed)
                }
            },
            Reply::Invalid { why, elapsed } => {
                let (events, applied, why) = self.illegal(side, why, budget)?;
                (events, ReplyStatus::Illegal, applied, Some(why), elapsed)
            }
            Reply::Timeout { elapsed } => {
                let cpu = self.last_cpu;
                let report = &mut self.seat(side).report;
                report.timeouts += 1;
                // CPU far below wall time: the bot was not computing (blocked, or
                // starved by a busy machine), so the timeout may not be its own doing.
                let suspect = clock::suspect_timeout(cpu, elapsed);
                if suspect {
                    report.suspect_timeouts += 1;
                }
                tracing::info!(
                    "{side} timed out after {} ms (CPU {}){}",
                    elapsed.as_millis(),
                    cpu.map_or("unknown".to_string(), |c| format!("{} ms", c.as_millis())),
                    if suspect { ", suspect" } else { "" }
                );
                let (events, applied) = self.missed(side, budget, Miss::Timeout)?;
                (events, ReplyStatus::Timeout, applied, None, elapsed)
            }
        };
        let cpu_us = self.last_cpu.map_or(0, |c| c.as_micros() as u64);
        let seat = self.seat(side);
        let report = &mut seat.report;
        report.decisions += 1;
        report.think_us += elapsed.as_micros() as u64;
        report.cpu_us += cpu_us;
        // A bot whose reply was not applied as sent (a timeout, a bad reply) may have lost
        // its game, or asked in vain: its next request carries everything.
        if status != ReplyStatus::Ok {
            seat.speaks.next = seat.speaks.next.or(Wants {
                state: true,
                legal: true,
                ..Wants::default()
            });
        }
        // Version 2 learns of a reply applied as sent from its next request's `since`.
        if status != ReplyStatus::Ok || seat.speaks.wants.results {
            self.post(
                side,
                &ToBot::<R::Wire>::Result {
                    id,
                    status,
                    elapsed_ms: elapsed.as_millis() as u64,
                    cpu_ms: self.last_cpu.map(|c| c.as_millis() as u64),
                    applied,
                    reason,
                },
            );
        }
        let mut all_events = events;
        match self
            .game
            .charge(&mut self.clocks, budget, elapsed, &all_events)
        {
            Ok((more, expired)) => {
                if let Some(clock) = expired {
                    self.record.push_expiry(clock);
                }
                all_events.extend(more);
            }
            Err(refused) => return Err(internal(refused)),
        }
        self.game.follow(&mut self.clocks, &all_events);
        if self.seats.iter().any(|s| s.speaks.wants.events) {
            let line = protocol::to_line(&envelope::events::<R>(&all_events));
            for side in Side::ALL {
                if self.seats[side.index()].speaks.wants.events {
                    self.post_line(side, &line);
                }
            }
        }
        watch(&self.game, &all_events, &self.record);
        Ok(())
    }

    fn seat(&mut self, side: Side) -> &mut Seat {
        &mut self.seats[side.index()]
    }

    /// The end of a game that reached its wall-time cap `cap`: adjudicated as it stands.
    fn capped(&self, cap: Duration) -> Forfeit {
        let score = [self.game.points(Side::White), self.game.points(Side::Black)];
        let result = self.game.adjudicate();
        tracing::info!(
            "the game reached its wall-time cap; adjudicated {}",
            result.pgn()
        );
        Forfeit {
            termination: Termination::Adjudication,
            loser: None,
            reason: cap::reason(cap, result.pgn(), score),
            verdict: None,
        }
    }

    /// Spawns both bots and completes both handshakes, then sends `game_start`.
    async fn start_bots(&mut self) -> Option<Forfeit> {
        let not_started = |side: Side, e: crate::bot::SpawnError| Forfeit {
            termination: Termination::Abandoned,
            loser: Some(side),
            reason: e.to_string(),
            verdict: Some(Verdict::NotStarted),
        };
        // Both started (a staged one released) before either is waited for.
        let mut starting = Vec::with_capacity(2);
        for seat in &mut self.seats {
            let started = match seat.staged.take() {
                Some(staged) => staged.release(seat.spec.cpus.as_deref()),
                None => BotProcess::start(&seat.spec, self.cfg.max_line, self.cfg.sandbox),
            };
            match started {
                Ok(s) => starting.push(s),
                Err(e) => return Some(not_started(seat.side, e)),
            }
        }
        for (seat, s) in self.seats.iter_mut().zip(starting) {
            match s.ready() {
                Ok(bot) => seat.bot = Some(bot),
                Err(e) => return Some(not_started(seat.side, e)),
            }
        }
        self.broadcast(&handshake::hello(self.cfg.max_line, self.cfg.handshake));
        // One deadline for both: both were sent `hello` at once.
        let since = Instant::now();
        for side in Side::ALL {
            if let Err((why, verdict)) = self.handshake(side, since).await {
                // Silence or a crash abandons the game; breaking the protocol (a flood, a
                // version never offered) is an infraction, as it is after `ready`.
                let termination = match verdict {
                    Some(Verdict::OutputFlood | Verdict::Illegal) => Termination::RulesInfraction,
                    _ => Termination::Abandoned,
                };
                return Some(Forfeit {
                    termination,
                    loser: Some(side),
                    reason: format!("{side} {why}"),
                    verdict,
                });
            }
        }
        // Both are ready; from now on each computes only on its own turn. Nobody is frozen
        // yet: the side not asked first is, as at every decision, once the first request
        // has been out FREEZE_AFTER (a freeze and a thaw cost the kernel more than a quick
        // game's whole start).
        for side in Side::ALL {
            let opponent = self.seats[side.other().index()].report.name.clone();
            let options = self.seats[side.index()].spec.options.clone();
            let version = if self.seats[side.index()].speaks.changes {
                2
            } else {
                1
            };
            let start = envelope::game_start(
                &self.game,
                &self.cfg.game,
                &self.clocks,
                side,
                opponent,
                options,
                version,
            );
            self.send(side, &start);
        }
        None
    }

    /// Waits for `ready` (see [`handshake::await_ready`]); lines before it that are not
    /// `ready` are ignored and counted.
    async fn handshake(
        &mut self,
        side: Side,
        since: Instant,
    ) -> Result<(), (String, Option<Verdict>)> {
        // Out of its seat while it is awaited, so that each line read can go to the
        // transcript (`log_in` borrows the whole referee) as it comes.
        let mut bot = self.seats[side.index()].bot.take().expect("spawned");
        let patience = self.cfg.handshake;
        let shake = handshake::await_ready(&mut bot, since, patience, |incoming| {
            self.log_in(side, incoming)
        })
        .await;
        let seat = &mut self.seats[side.index()];
        seat.bot = Some(bot);
        seat.report.noise += shake.noise;
        match shake.result {
            Ok(ready) => {
                seat.speaks.changes = ready.version >= 2;
                seat.speaks.wants = ready.wants;
                let version = ready.info.version.clone();
                seat.report.info = Some(ready.info);
                if !version.is_empty() {
                    let tag = format!("{}Version", capitalized(side));
                    self.record.tags.set(tag, version);
                }
                Ok(())
            }
            // A bot gone is named once it is reaped (`finish`), by how it ended.
            Err(failed) => Err((
                match failed {
                    handshake::Failed::Timeout => format!("{} (handshake)", failed.why(patience)),
                    _ => failed.why(patience),
                },
                failed.verdict(),
            )),
        }
    }

    /// Sends the request for the current decision and waits for the answer.
    async fn ask(&mut self, side: Side, id: u64, budget: &R::Budget) -> Reply<R::Action> {
        let cpu = |r: &Self| r.seats[side.index()].bot.as_ref()?.cpu_time();
        let before = cpu(self);
        let reply = self.ask_bot(side, id, budget).await;
        self.last_cpu = before.zip(cpu(self)).map(|(a, b)| b.saturating_sub(a));
        reply
    }

    async fn ask_bot(&mut self, side: Side, id: u64, budget: &R::Budget) -> Reply<R::Action> {
        let reply = self.ask_awake(side, id, budget).await;
        self.within_limits(side, reply)
    }

    /// `reply`, unless `side` tried to start more processes than its limit while deciding:
    /// that is what ends its game.
    fn within_limits(&self, side: Side, reply: Reply<R::Action>) -> Reply<R::Action> {
        if matches!(reply, Reply::Action { .. } | Reply::Invalid { .. }) {
            let seat = &self.seats[side.index()];
            if seat.bot.as_ref().is_some_and(|b| b.pids_refused() > 0) {
                return Reply::Limit(Verdict::ProcessLimit);
            }
        }
        reply
    }

    /// Wakes the bot (if frozen), sends the request and reads until its reply.
    async fn ask_awake(&mut self, side: Side, id: u64, budget: &R::Budget) -> Reply<R::Action> {
        let sent_at = match self.put(side, id, budget).await {
            Ok(at) => at,
            Err(reply) => return reply,
        };
        let deadline = sent_at + R::limit(budget) + R::grace(&self.cfg.game);
        // Only the side asked may compute. The other side is stopped once this decision has
        // taken FREEZE_AFTER: stopping and waking a process costs the kernel some 10 us, more
        // than a fast bot's whole decision, so a quick exchange costs no freezing at all,
        // and a bot computing on its opponent's time gets at most FREEZE_AFTER of it.
        let mut freeze_at = self.cfg.sandbox.freeze_idle.then(|| sent_at + FREEZE_AFTER);
        loop {
            let [white, black] = &mut self.seats;
            let (me, other) = match side {
                Side::White => (white, black),
                Side::Black => (black, white),
            };
            let bot = me.bot.as_mut().expect("spawned");
            let pending = freeze_at.filter(|_| other.bot.as_ref().is_some_and(|b| !b.is_frozen()));
            let incoming = match bot.recv_or_alarm(deadline, pending).await {
                crate::bot::process::Waited::Got(incoming) => incoming,
                crate::bot::process::Waited::Alarm => {
                    if let Some(o) = other.bot.as_mut() {
                        o.set_frozen(true);
                    }
                    freeze_at = None;
                    continue;
                }
                crate::bot::process::Waited::Deadline => return self.timed_out(budget),
            };
            match self.hear(side, id, sent_at, &incoming) {
                Next::Wait => {}
                Next::Reply(reply) => return reply,
                Next::Closed => return self.closed(side).await,
            }
        }
    }

    /// Wakes the bot (if frozen) and sends it request `id`: the instant the request was
    /// written, or the reply already due (it is gone, or not reading).
    async fn put(
        &mut self,
        side: Side,
        id: u64,
        budget: &R::Budget,
    ) -> Result<Instant, Reply<R::Action>> {
        let flushed = self.queue(side, id, budget)?;
        self.flushed(flushed, budget).await
    }

    /// Wakes the bot (if frozen) and queues request `id` for it: what tells when it was
    /// written, or the reply already due (the bot cannot take it).
    fn queue(
        &mut self,
        side: Side,
        id: u64,
        budget: &R::Budget,
    ) -> Result<tokio::sync::oneshot::Receiver<Instant>, Reply<R::Action>> {
        let carry = self.carry(side);
        let request = protocol::to_line(&envelope::request(
            &self.game,
            id,
            side,
            &self.clocks,
            budget,
            carry,
        ));
        let seat = &mut self.seats[side.index()];
        seat.output.reset();
        if let Some(bot) = seat.bot.as_mut() {
            bot.set_frozen(false);
        }
        self.send_line(side, request).ok_or_else(|| Reply::Gone {
            why: "exited, or stopped reading its input".to_string(),
        })
    }

    /// What the request due now to `side` carries (see [`Speaks`]); the bot is then told of
    /// every entry of the record so far.
    fn carry(&mut self, side: Side) -> envelope::Carry {
        let opens_play = self.game.opens_play();
        let entries = self.record.entries.len();
        let speaks = &mut self.seats[side.index()].speaks;
        if !speaks.changes {
            return envelope::Carry::whole();
        }
        // The second side of a sealed pair is not told the first side's decision before
        // its own is in (asked again after a bad reply, say): both settled, the pair has
        // added two entries.
        let upto = match self.withheld {
            Some((s, at)) if s == side && entries < at + 2 => at.min(entries),
            _ => entries,
        };
        let wants = speaks.wants.or(std::mem::take(&mut speaks.next));
        let told = speaks.told.replace(upto);
        let since = self.record.entries[told.unwrap_or(0).min(upto)..upto]
            .iter()
            .map(|e| e.to_string())
            .collect();
        // The first request of the game and of each play carries everything, so that a
        // bot that keeps no game of its own can always start (and its `want` carry on).
        let fresh = told.is_none() || opens_play;
        envelope::Carry {
            since: Some(since),
            state: wants.state || fresh,
            legal: wants.legal || fresh,
        }
    }

    /// The instant a queued request was written, or the reply already due: the bot closed
    /// its input, or did not read it within the request's limit and grace.
    async fn flushed(
        &self,
        flushed: tokio::sync::oneshot::Receiver<Instant>,
        budget: &R::Budget,
    ) -> Result<Instant, Reply<R::Action>> {
        let patience = R::limit(budget) + R::grace(&self.cfg.game);
        match tokio::time::timeout(patience, flushed).await {
            Ok(Ok(at)) => Ok(at),
            Ok(Err(_)) => Err(Reply::Gone {
                why: "exited, or closed its input".to_string(),
            }),
            // The line could not even be written: the bot is not reading.
            Err(_) => Err(self.timed_out(budget)),
        }
    }

    /// No reply to a request bound by `budget` within its limit and grace.
    fn timed_out(&self, budget: &R::Budget) -> Reply<R::Action> {
        Reply::Timeout {
            elapsed: R::limit(budget) + R::grace(&self.cfg.game),
        }
    }

    /// The reply of a bot whose output closed: a crashing bot's output closes as it exits;
    /// one that lives on has closed its output on purpose.
    async fn closed(&mut self, side: Side) -> Reply<R::Action> {
        let bot = self.seats[side.index()].bot.as_mut().expect("spawned");
        if bot.exits_within(Duration::from_millis(500)).await {
            return Reply::Gone {
                why: "exited, or closed its output".to_string(),
            };
        }
        Reply::Limit(Verdict::ClosedOutput)
    }

    /// One thing read from `side` while request `id` (flushed at `sent_at`) is pending:
    /// written to the transcript, counted against the flood limits, classified
    /// ([`reply::classify`]), and its bookkeeping done (the request answered, a stale
    /// reply counted and answered, a log line logged).
    fn hear(
        &mut self,
        side: Side,
        id: u64,
        sent_at: Instant,
        incoming: &Incoming,
    ) -> Next<R::Action> {
        self.log_in(side, incoming);
        let seat = &mut self.seats[side.index()];
        if seat.output.take(incoming) {
            return Next::Reply(Reply::Flood);
        }
        let elapsed = incoming.at().saturating_duration_since(sent_at);
        match reply::classify(incoming, id, seat.answered, self.cfg.max_line) {
            Heard::Closed => Next::Closed,
            Heard::Action(action, want) => {
                seat.answered = Some(id);
                seat.speaks.next = want;
                Next::Reply(Reply::Action { action, elapsed })
            }
            Heard::NotAnAction(why) => {
                seat.answered = Some(id);
                Next::Reply(Reply::Invalid { why, elapsed })
            }
            Heard::Invalid(why) => Next::Reply(Reply::Invalid { why, elapsed }),
            Heard::Stale {
                id: got,
                status,
                reason,
                tell,
            } => {
                seat.report.discarded += 1;
                tracing::info!("{side} replied to request {got} while {id} was pending: discarded");
                if tell {
                    self.post(
                        side,
                        &ToBot::<R::Wire>::Result {
                            id: got,
                            status,
                            elapsed_ms: 0,
                            cpu_ms: None,
                            applied: None,
                            reason: Some(reason),
                        },
                    );
                }
                Next::Wait
            }
            Heard::Log(message) => {
                tracing::debug!("{side} log: {}", abbreviate(&message));
                Next::Wait
            }
            Heard::Ignored => Next::Wait,
        }
    }

    /// An invalid or illegal reply: counted, and either forfeits the game or costs what the
    /// game says a missed decision costs.
    #[allow(clippy::type_complexity)]
    fn illegal(
        &mut self,
        side: Side,
        why: String,
        budget: &R::Budget,
    ) -> Result<(Vec<R::Event>, Option<String>, String), Forfeit> {
        let seat = self.seat(side);
        seat.report.illegal += 1;
        let count = seat.report.illegal;
        tracing::info!("{side} {why}");
        if count >= self.cfg.game.max_illegal {
            return Err(Forfeit {
                termination: Termination::RulesInfraction,
                loser: Some(side),
                reason: format!("{side} sent {count} invalid or illegal replies; the last: {why}"),
                verdict: Some(Verdict::Illegal),
            });
        }
        let (events, applied) = self.missed(side, budget, Miss::BadReply)?;
        Ok((events, applied, why))
    }

    /// Applies what a missed decision costs and records it; what the bot is told was
    /// applied instead (`None`: nothing, it is asked again).
    fn missed(
        &mut self,
        side: Side,
        budget: &R::Budget,
        miss: Miss,
    ) -> Result<(Vec<R::Event>, Option<String>), Forfeit> {
        match self.game.miss(&mut self.clocks, budget, miss) {
            Ok(Missed::Consequence { clock, events }) => {
                self.record.push_expiry(clock);
                Ok((events, Some(format!("!{}", clock.code()))))
            }
            Ok(Missed::AskAgain) => Ok((Vec::new(), None)),
            Ok(Missed::LosesOnTime) => Err(Forfeit {
                termination: Termination::TimeForfeit,
                loser: Some(side),
                reason: format!(
                    "{side} lost on time: no reply within its {} ms",
                    R::limit(budget).as_millis()
                ),
                verdict: Some(Verdict::Timeout),
            }),
            Err(refused) => Err(internal(refused)),
        }
    }

    /// Sends a message to one bot now, after whatever was posted for it; `None` if the bot
    /// cannot take it.
    fn send<W: Payloads>(
        &mut self,
        side: Side,
        msg: &ToBot<W>,
    ) -> Option<tokio::sync::oneshot::Receiver<Instant>> {
        self.send_line(side, protocol::to_line(msg))
    }

    /// [`Referee::send`] of a line already serialized.
    fn send_line(
        &mut self,
        side: Side,
        line: String,
    ) -> Option<tokio::sync::oneshot::Receiver<Instant>> {
        self.log_out(side, &line);
        let outbox = &mut self.outbox[side.index()];
        // The posted lines and this one leave in one write (the writer adds the last '\n').
        let batch = if outbox.is_empty() {
            line
        } else {
            outbox.push_str(&line);
            std::mem::take(outbox)
        };
        let seat = &mut self.seats[side.index()];
        seat.report.bytes_sent += batch.len() as u64 + 1;
        seat.bot.as_ref()?.send(batch)
    }

    /// Posts a message for one bot: it leaves with the next message sent to that bot. A bot
    /// learns a result and the events at the latest with its next request, and every
    /// decision costs one write (one wake-up of one bot), not three.
    fn post<W: Payloads>(&mut self, side: Side, msg: &ToBot<W>) {
        let line = protocol::to_line(msg);
        self.post_line(side, &line);
    }

    fn post_line(&mut self, side: Side, line: &str) {
        self.log_out(side, line);
        let outbox = &mut self.outbox[side.index()];
        outbox.push_str(line);
        outbox.push('\n');
    }

    /// Sends one message to both bots now, serialized once.
    fn broadcast<W: Payloads>(&mut self, msg: &ToBot<W>) {
        for side in Side::ALL {
            let _ = self.send(side, msg);
        }
    }

    fn log_out(&mut self, side: Side, line: &str) {
        if let Some(t) = self.transcript.as_mut() {
            t.sent(self.start.elapsed(), side, line);
        }
    }

    fn log_in(&mut self, side: Side, incoming: &Incoming) {
        let at = incoming.at().saturating_duration_since(self.start);
        if let Some(t) = self.transcript.as_mut() {
            t.received(at, side, incoming);
        }
    }

    /// Records the end, tells the bots, and ends their processes.
    async fn finish(mut self, forfeit: Option<Forfeit>) -> GameReport {
        let (termination, result, mut reason, loser, verdict) = match forfeit {
            None => (
                Termination::Normal,
                self.game.result(),
                self.game.end_reason(),
                None,
                None,
            ),
            // No one's fault: the result is the game's adjudication as it stands.
            Some(f) if f.termination == Termination::Adjudication => (
                f.termination,
                Some(self.game.adjudicate()),
                f.reason,
                None,
                None,
            ),
            Some(f) => (
                f.termination,
                f.loser.map(|l| GameResult::Win(l.other())),
                f.reason,
                f.loser,
                f.verdict,
            ),
        };
        let score = [self.game.points(Side::White), self.game.points(Side::Black)];
        let end = ToBot::<R::Wire>::GameEnd {
            result: result.map_or("*", |r| r.pgn()).to_string(),
            score: ScoreMsg {
                white: score[0],
                black: score[1],
            },
            termination: termination.code().to_string(),
            reason: reason.clone(),
        };
        self.broadcast(&end);
        self.broadcast(&ToBot::<R::Wire>::Quit);
        let grace = self.cfg.quit_grace;
        for seat in &mut self.seats {
            seat.report.freezes = seat.bot.as_ref().map_or(0, |b| b.freezes());
        }
        let [white, black] = &mut self.seats;
        let (w, b) = tokio::join!(
            shutdown(white.bot.take(), grace),
            shutdown(black.bot.take(), grace)
        );
        white.report.exit = w;
        black.report.exit = b;
        // Only now, with the loser's process reaped, is it known why it went away.
        if let Some(side) = loser {
            let seat = if side == Side::White {
                &mut *white
            } else {
                &mut *black
            };
            let v = verdict.unwrap_or_else(|| verdict_of_exit(seat.report.exit.as_ref()));
            seat.report.verdict = Some(v);
            if verdict.is_none() {
                reason = format!("{side} {v}");
            }
            if let Some(exit) = &seat.report.exit {
                let tail = crate::bot::text::stderr_tail(&exit.stderr_tail, 3, 200);
                if !tail.is_empty() && !matches!(v, Verdict::Illegal | Verdict::OutputFlood) {
                    reason.push_str(&format!("; its stderr ends: {tail}"));
                }
            }
        }
        self.record.finish(&self.game, termination, result);
        for seat in [&*white, &*black] {
            if seat.report.suspect_timeouts > 0 {
                let tag = format!("{}SuspectTimeouts", capitalized(seat.side));
                let value = seat.report.suspect_timeouts.to_string();
                self.record.tags.set(tag, value);
            }
            if let Some(v) = seat.report.verdict {
                self.record
                    .tags
                    .set(format!("{}Verdict", capitalized(seat.side)), v.code());
            }
        }
        if termination != Termination::Normal {
            self.record.tags.set("TerminationReason", reason.clone());
        }
        // A game went wrong if it ended early or a bot's reply was not taken.
        let went_wrong = termination != Termination::Normal
            || [&*white, &*black]
                .iter()
                .any(|s| s.report.timeouts + s.report.illegal + s.report.discarded > 0);
        let kept = self.transcript.take().map(|t| t.finish(went_wrong));
        // Next to the transcript: each bot's stderr, as much as was kept (capped).
        if let (Some(path), Some(true)) = (&self.cfg.transcript, kept) {
            for seat in [&*white, &*black] {
                if let Some(exit) = &seat.report.exit {
                    let file = path.with_extension(format!("{}.stderr", seat.side));
                    let mut text = exit.stderr.clone();
                    if exit.stderr_dropped > 0 {
                        text.extend_from_slice(
                            format!("\n[zebra: {} more bytes dropped]\n", exit.stderr_dropped)
                                .as_bytes(),
                        );
                    }
                    if let Err(e) = transcript::write_log(&file, &text, self.cfg.private_logs) {
                        tracing::warn!("cannot write {}: {e}", file.display());
                    }
                }
            }
        }
        let [white, black] = self.seats;
        GameReport {
            record: self.record,
            result,
            termination,
            reason,
            score,
            bots: [white.report, black.report],
        }
    }
}

/// `fut`'s output, or the game's wall-time cap if it comes first.
async fn within<T>(
    cap: Option<(Duration, Instant)>,
    fut: impl std::future::Future<Output = T>,
) -> Result<T, Duration> {
    match cap {
        Some((cap, at)) => tokio::time::timeout_at(at, fut).await.map_err(|_| cap),
        None => Ok(fut.await),
    }
}

async fn shutdown(bot: Option<BotProcess>, grace: Duration) -> Option<ExitInfo> {
    Some(bot?.shutdown(grace).await)
}

/// The `Sandbox` tag: the containment level the bots of this game got.
pub(crate) fn sandbox_tag(policy: Policy, network: bool) -> String {
    let mut text = crate::sandbox::level().describe(policy.mode, network);
    if policy.freeze_idle {
        text.push_str("; freeze-idle");
    }
    text
}

/// The end of a game the engine refused to go on with: the referee's own fault, no side's.
fn internal(refused: RefusedExpiry) -> Forfeit {
    Forfeit {
        termination: Termination::Unterminated,
        loser: None,
        reason: format!("internal error: {refused}"),
        verdict: None,
    }
}

/// A bot's forfeit for flooding its output.
fn flood(side: Side) -> Forfeit {
    Forfeit {
        termination: Termination::RulesInfraction,
        loser: Some(side),
        reason: format!("{side} {}", flood_why()),
        verdict: Some(Verdict::OutputFlood),
    }
}

fn flood_why() -> String {
    format!(
        "flooded its output: over {FLOOD_LINES} lines or {} KiB between two requests",
        FLOOD_BYTES / 1024
    )
}

/// Why a bot's process went away, from how it ended and what its sandbox counted: the
/// kernel's memory kill, a refused fork, the CPU or file-size rlimit's signal, a process
/// that had to be killed because it lived on without its output, or a plain crash.
/// (A bot that catches SIGXCPU is killed by the hard limit two seconds later; that SIGKILL
/// cannot be told from any other, so it reads as a crash with signal 9.)
pub(crate) fn verdict_of_exit(exit: Option<&ExitInfo>) -> Verdict {
    let Some(info) = exit else {
        return Verdict::Crashed(Exit::Code(-1));
    };
    let c = info.containment;
    if c.oom_kills > 0 {
        return Verdict::MemoryLimit;
    }
    if c.pids_refused > 0 && !info.killed {
        return Verdict::ProcessLimit;
    }
    match info.exit {
        Some(Exit::Signal(libc::SIGXCPU)) => Verdict::CpuLimit,
        Some(Exit::Signal(libc::SIGXFSZ)) => Verdict::FileSizeLimit,
        _ if info.killed => Verdict::ClosedOutput,
        Some(exit) => Verdict::Crashed(exit),
        None => Verdict::Crashed(Exit::Code(-1)),
    }
}

/// `White` or `Black`, for tag names.
fn capitalized(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A bot's raw line (or anything made of one, like a parse error quoting it), cleaned and
/// cut for logs and reasons.
fn abbreviate(text: &str) -> String {
    crate::bot::text::clean(text, crate::bot::text::SHORT)
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = crate::record::time::civil_date(secs);
    format!("{y:04}.{m:02}.{d:02}")
}
