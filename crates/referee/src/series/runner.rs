//! Plays the games of a series, several at once, and keeps the books.
//!
//! One coordinator (this module's [`run`], a `Coordinator`) starts up to `concurrency` games, each a
//! [`Referee`] with its own two bot processes, on a thread of its own with a single-threaded
//! runtime: a game's reader, writer and referee never wake each other across threads (which
//! on a virtual machine costs more than the referee's own work), and a busy game never
//! delays the reader that timestamps another game's replies. When a game ends, the coordinator first
//! puts its record on disk (appended, fsynced), then folds it into the standings, emits
//! the events and shows the progress, and only then starts the next game: nothing is
//! reported that a crash could still lose. A crash between a record's write and its
//! `game_finished` line loses only the line, which the next resume writes back from the
//! record before anything else (see `open_events`).
//!
//! With `--replay-suspect`, a game in which a bot had a suspect timeout is, before the cap of
//! attempts, appended to `voided.pgn` instead of the series' PGN, counted nowhere, and put
//! back at the front of the queue with the same seed and sides (see [`super::overload`]).
//! The series' PGN thus holds exactly the counted games, and the SPRT still judges whole
//! pairs in schedule order.
//!
//! Stopping: the SPRT crossing a bound, or a first Ctrl-C, stops new games and lets the
//! running ones finish (they are recorded and counted). A second Ctrl-C, or SIGTERM, stops
//! at once: the running games are dropped, which kills their bots' process groups.

use std::path::PathBuf;

use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::referee::GameReport;
use crate::rules::GameResult;

use super::config::SeriesConfig;
use super::disk::{self, DiskError, PgnFile};
use super::events::{self, EventLog, GameRef, PerSide, SeriesEvent, Warning, WarningCode};
use super::game::{Entrants, PlayedGame};
use super::overload::{overload_warning, replay_decision, ReplayDecision};
use super::progress::Progress;
use super::schedule::{Fixture, Schedule};
use super::standings::{GameOutcome, SprtGate, SprtGates, Standings};
use super::stats::{Report, SprtDecision, SprtReport};

/// How a series ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeriesEnd {
    /// Every scheduled game was played (no SPRT).
    Completed,
    /// The SPRT accepted H1 (the first bot is stronger by at least elo1).
    H1Accepted,
    /// The SPRT accepted H0 (it is not stronger than elo0).
    H0Accepted,
    /// Every scheduled game was played and the SPRT crossed no bound.
    Inconclusive,
    /// The user stopped the series; `--resume` continues it.
    Interrupted,
}

impl SeriesEnd {
    pub const fn code(self) -> &'static str {
        match self {
            SeriesEnd::Completed => "completed",
            SeriesEnd::H1Accepted => "h1-accepted",
            SeriesEnd::H0Accepted => "h0-accepted",
            SeriesEnd::Inconclusive => "inconclusive",
            SeriesEnd::Interrupted => "interrupted",
        }
    }
}

/// How to run a series (none of it changes which games are played).
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub concurrency: usize,
    pub progress: Progress,
    /// The CPUs this process may use, to warn when the games at once run more bots than
    /// that; `None`: do not check (a benchmark).
    pub cpus: Option<usize>,
    /// `--affinity`: where each game slot runs (see [`super::placement`]); `None`: nothing
    /// pinned.
    pub affinity: Option<Vec<super::placement::Place>>,
    /// `--watch`: the live viewer, told every game as it is played and every event.
    pub spectator: Option<std::sync::Arc<dyn crate::referee::Spectator>>,
}

/// The end of a series and its books.
pub struct SeriesOutcome {
    pub end: SeriesEnd,
    pub standings: Standings,
    pub planned: u32,
    /// Games played and counted in this run (not the ones found on disk, nor voided
    /// attempts).
    pub played_now: u32,
    /// Each encounter's SPRT as decided (or as it stands), judged over its whole pairs in
    /// schedule order, in the order of `standings.encounters` (empty without `--sprt`).
    pub sprt: Vec<SprtReport>,
}

/// What the coordinator keeps of a finished game task.
struct Finished {
    /// The CPU slot the game ran on (`--affinity`), to be freed.
    slot: Option<usize>,
    played: PlayedGame,
}

/// Plays the scheduled games of `config` that `done` (read from disk) does not hold;
/// `voided` are the attempts `--replay-suspect` voided before (read from `voided.pgn`).
pub async fn run(
    config: &SeriesConfig,
    done: Vec<GameOutcome>,
    voided: Vec<GameOutcome>,
    options: RunOptions,
) -> Result<SeriesOutcome, DiskError> {
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let schedule = Schedule::of(config)?;
    let mut series = Coordinator::start(config, &schedule, names, done, voided, options)?;
    loop {
        series.dispatch();
        if series.running.is_empty() {
            break;
        }
        match series.wait().await {
            Wait::Finished(finished) => series.take(*finished).await?,
            Wait::Again => continue,
            Wait::Stop => break,
        }
    }
    Ok(series.finish())
}

/// What waiting on the running games gave.
enum Wait {
    /// A game ended (boxed: a played game is large beside the other variants).
    Finished(Box<Finished>),
    /// Nothing to record (a first Ctrl-C, a game abandoned or whose task failed).
    Again,
    /// Stop now: every game is done with, or abandoned.
    Stop,
}

/// One run of a series: its schedule, games, books and stop signals, held together so that
/// each step of [`run`] is a method of its own.
struct Coordinator<'a> {
    config: &'a SeriesConfig,
    options: RunOptions,
    names: Vec<String>,
    planned: u32,
    max_attempts: Option<u32>,
    standings: Standings,
    gates: Option<SprtGates>,
    /// Games of encounters whose SPRT had decided, left unplayed in this run.
    skipped: u64,
    /// The games still to play: taken from the schedule as they start, never listed whole
    /// (a series may be billions of games long).
    fresh: std::iter::Peekable<Box<dyn Iterator<Item = (Fixture, u32)> + 'a>>,
    /// Voided attempts, played before any new game (after the game staged already, if one
    /// is).
    again: std::collections::VecDeque<(Fixture, u32)>,
    entrants: Entrants,
    pgn: PgnFile,
    voided_pgn: Option<PgnFile>,
    events: EventLog,
    progress: Progress,
    stopping: bool,
    interrupted: bool,
    played_now: u32,
    /// Each ends in its finished game, or nothing (abandoned, failed to start); the staged
    /// game's task among them.
    running: JoinSet<Option<PlayedGame>>,
    /// Stops every game thread at once (a second Ctrl-C, SIGTERM).
    cancel: CancellationToken,
    /// One stream per signal for the whole series, so that no Ctrl-C falls between two
    /// waits.
    int: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
    /// The CPU slots not in use by a running game (`--affinity`).
    free_slots: Vec<usize>,
    /// The CPU slot of each running game's task.
    task_slots: std::collections::HashMap<tokio::task::Id, usize>,
    /// The next game, staged: its bots set up on a spare CPU while the running games play,
    /// released when a slot frees (see [`super::game::Stage`]).
    staged: Option<StagedGame>,
    /// The CPUs no game slot is pinned to, where a staged game's bots are set up; empty:
    /// no game is staged.
    spare: Vec<usize>,
}

/// The game staged ahead of a free slot.
struct StagedGame {
    task: tokio::task::Id,
    fixture: Fixture,
    attempt: u32,
    /// Sends the game its place and lets it start; dropped, the game goes unplayed (its
    /// staged bots are killed, a resume plays it).
    go: tokio::sync::oneshot::Sender<Option<super::placement::Place>>,
}

impl<'a> Coordinator<'a> {
    /// Reads the books on disk into the standings, opens the files, says the series
    /// started (and where a resumed one stands), and watches for signals.
    fn start(
        config: &'a SeriesConfig,
        schedule: &'a Schedule,
        names: Vec<String>,
        done: Vec<GameOutcome>,
        voided: Vec<GameOutcome>,
        options: RunOptions,
    ) -> Result<Self, DiskError> {
        let planned = schedule.len();
        let replay = config.replay_suspect.as_ref();
        let max_attempts = replay.map(|r| r.max_attempts);
        let mut standings = Standings::new(config.format, &names).replaying(replay);
        // Attempts voided so far, per game: a resumed series continues counting them, so the
        // cap holds across a stop and resume.
        let mut attempts_voided: std::collections::BTreeMap<u32, u32> = Default::default();
        for g in &voided {
            standings.add_voided(g);
            *attempts_voided.entry(g.game).or_default() += 1;
        }
        let done_numbers: std::collections::BTreeSet<u32> = done.iter().map(|g| g.game).collect();
        // A shard plays its whole block: the SPRT is judged over the merged series.
        let encounters: Vec<(usize, usize)> =
            standings.encounters.iter().map(|e| (e.a, e.b)).collect();
        let mut gates = config
            .sprt
            .filter(|_| config.shard.is_none())
            .map(|params| SprtGates::new(params, &encounters));
        for g in &done {
            standings.add(g);
            if let Some(gates) = gates.as_mut() {
                gates.add(g);
            }
        }
        // Records on disk are games of the schedule, each once (see `disk::load_finished`).
        let left = planned.saturating_sub(done_numbers.len() as u32) as usize;
        let games_done = done_numbers.len() as u32;
        let fresh: Box<dyn Iterator<Item = (Fixture, u32)> + 'a> = Box::new(
            schedule
                .iter()
                .filter(move |f| !done_numbers.contains(&f.game))
                .map(move |f| (f, attempts_voided.get(&f.game).map_or(1, |n| n + 1))),
        );

        let entrants = Entrants::of(config);
        let pgn = PgnFile::open(&config.pgn)?;
        let mut events = match &config.events {
            Some(path) => open_events(path, config, schedule, &names, &done)?,
            None => EventLog::none(),
        }
        .with_spectator(options.spectator.clone());
        let voided_pgn = match replay {
            Some(r) => Some(PgnFile::open(&r.voided_pgn)?),
            None => None,
        };
        if let Some(dir) = &config.log_dir {
            std::fs::create_dir_all(dir).map_err(|source| DiskError::Io {
                what: "create the log directory",
                path: dir.clone(),
                source,
            })?;
        }
        let progress = options.progress.clone();
        progress.start(planned as u64, standings.finished);
        // Games at once, as many as there are games left to play.
        let at_once = options.concurrency.max(1).min(left);
        let warnings: Vec<Warning> = options
            .cpus
            .and_then(|cpus| overload_warning(at_once, cpus))
            .map(|message| Warning {
                code: WarningCode::Overload,
                message,
            })
            .into_iter()
            .collect();
        for w in &warnings {
            progress.note(&format!("warning: {}", w.message));
        }
        events.emit(&SeriesEvent::SeriesStarted {
            bots: names.clone(),
            format: config.format.to_string(),
            rules: config.rules,
            games_planned: planned,
            games_done,
            seed: config.seed,
            time_control: config.tc.clone(),
            sprt: config.sprt.map(|s| s.to_string()),
            concurrency: options.concurrency,
            cpus: options.cpus,
            replay_suspect: max_attempts,
            warnings,
            identity: super::shard::identity(config),
            shard: config.shard,
            host: super::shard::host_name(),
        });

        // A resumed series starts from the books on disk: say where it stands.
        if !done.is_empty() {
            events.emit(&SeriesEvent::StatsUpdated {
                games_finished: standings.finished,
                standings: standings.bots.clone(),
                head_to_head: head_to_head(&standings, gates.as_ref()),
            });
        }
        // Encounters already decided before this run (resumed after their SPRT stopped
        // them).
        for line in decisions_taken(gates.as_ref(), &names) {
            events.emit(&line);
        }
        let decided = gates.as_ref().is_some_and(SprtGates::all_decided);
        let int = watch(tokio::signal::unix::SignalKind::interrupt())?;
        let term = watch(tokio::signal::unix::SignalKind::terminate())?;
        let free_slots = match &options.affinity {
            Some(slots) => (0..slots.len()).rev().collect(),
            None => Vec::new(),
        };
        let spare = spare_cpus(
            options.affinity.as_deref(),
            &super::placement::allowed_cpus(),
        );
        Ok(Coordinator {
            config,
            names,
            planned,
            max_attempts,
            standings,
            gates,
            skipped: 0,
            fresh: fresh.peekable(),
            again: Default::default(),
            entrants,
            pgn,
            voided_pgn,
            events,
            progress,
            stopping: decided,
            interrupted: false,
            played_now: 0,
            running: JoinSet::new(),
            cancel: CancellationToken::new(),
            int,
            term,
            free_slots,
            task_slots: std::collections::HashMap::new(),
            staged: None,
            spare,
            options,
        })
    }

    /// Starts games, the staged one first, then a voided attempt before any new one, until
    /// `concurrency` run, the schedule is done, or the series is stopping; then stages the
    /// next game where there is a spare CPU.
    fn dispatch(&mut self) {
        if self.stopping {
            // Unplayed: its bots go, a resume plays it.
            self.drop_staged();
        }
        let concurrency = self.options.concurrency.max(1);
        while !self.stopping && self.playing() < concurrency {
            if let Some(staged) = self.staged.take() {
                if self.decided(&staged.fixture) {
                    // Its encounter's SPRT decided while it waited: unplayed (dropped, its
                    // bots go).
                    self.skipped += 1;
                    continue;
                }
                if staged.go.is_closed() {
                    // Its task ended before it could start (a thread that failed): the
                    // game is played as a new one.
                    self.again.push_front((staged.fixture, staged.attempt));
                    continue;
                }
                let slot = self.free_slots.pop();
                let place = slot.zip(self.options.affinity.as_ref()).map(|(s, p)| p[s]);
                if let Some(s) = slot {
                    self.task_slots.insert(staged.task, s);
                }
                self.started(&staged.fixture, staged.attempt);
                if staged.go.send(place).is_err() {
                    // Gone meanwhile: joined as unplayed (its slot freed), played again.
                    self.again.push_front((staged.fixture, staged.attempt));
                }
                continue;
            }
            let Some((fixture, attempt)) = self.next_game() else {
                break;
            };
            let mut game = self.entrants.game(self.config, fixture, attempt);
            let slot = self.free_slots.pop();
            if let (Some(s), Some(slots)) = (slot, &self.options.affinity) {
                game.place(slots[s]);
            }
            self.started(&fixture, attempt);
            let task = self.spawn(game, None);
            if let Some(slot) = slot {
                self.task_slots.insert(task, slot);
            }
        }
        if self.stopping || self.staged.is_some() || self.spare.is_empty() {
            return;
        }
        if let Some((fixture, attempt)) = self.next_game() {
            let game = self.entrants.game(self.config, fixture, attempt);
            let (go, release) = tokio::sync::oneshot::channel();
            let stage = super::game::Stage {
                on: self.spare.clone(),
                release,
            };
            let task = self.spawn(game, Some(stage));
            self.staged = Some(StagedGame {
                task,
                fixture,
                attempt,
                go,
            });
        }
    }

    /// The next game to play: a voided attempt first, then the schedule's next; never one
    /// of an encounter whose SPRT has decided (counted as skipped).
    fn next_game(&mut self) -> Option<(Fixture, u32)> {
        loop {
            let next = self.again.pop_front().or_else(|| self.fresh.next())?;
            if !self.decided(&next.0) {
                return Some(next);
            }
            self.skipped += 1;
        }
    }

    /// Whether the SPRT of `fixture`'s encounter has decided.
    fn decided(&self, fixture: &Fixture) -> bool {
        self.gates
            .as_ref()
            .is_some_and(|g| g.is_decided(fixture.encounter()))
    }

    /// Drops the staged game unplayed (its bots go): a resume plays it, unless its
    /// encounter's SPRT has decided (then it is skipped, as it would be at its release).
    fn drop_staged(&mut self) {
        if let Some(staged) = self.staged.take() {
            if self.decided(&staged.fixture) {
                self.skipped += 1;
            }
        }
    }

    /// Games playing now (the staged one waits).
    fn playing(&self) -> usize {
        self.running.len() - usize::from(self.staged.is_some())
    }

    /// Says a game starts: the browser told opens its feed, then the event.
    fn started(&mut self, fixture: &Fixture, attempt: u32) {
        if let Some(s) = &self.options.spectator {
            s.announce(fixture.game);
        }
        self.events.emit(&SeriesEvent::GameStarted {
            game: GameRef::of(fixture, &self.names),
            attempt,
        });
    }

    /// Runs `game` as a task of its own (staged first with `stage`).
    fn spawn(
        &mut self,
        game: super::game::SeriesGame,
        stage: Option<super::game::Stage>,
    ) -> tokio::task::Id {
        let token = self.cancel.child_token();
        let spectator = self.options.spectator.clone();
        self.running
            .spawn(async move { super::game::play(game, token, spectator, stage).await })
            .id()
    }

    /// A task that ended without a game: its CPU slot is free again, and were it the
    /// staged game, that game is played later (unless the series is stopping).
    fn unplayed(&mut self, task: tokio::task::Id) {
        self.free_slots.extend(self.task_slots.remove(&task));
        if self.staged.as_ref().is_some_and(|s| s.task == task) {
            let staged = self.staged.take().expect("just seen");
            if !self.stopping {
                self.again.push_front((staged.fixture, staged.attempt));
            } else if self.decided(&staged.fixture) {
                // Not owed by a resume either: its encounter has decided.
                self.skipped += 1;
            }
        }
    }

    /// Waits for a running game to end, or a signal: a first Ctrl-C stops new games, a
    /// second one or SIGTERM abandons the running ones.
    async fn wait(&mut self) -> Wait {
        let finished = tokio::select! {
            joined = self.running.join_next_with_id() => joined,
            _ = self.int.recv() => {
                if self.stopping && self.interrupted {
                    self.progress.note("stopping now: the running games are abandoned");
                    self.abandon().await;
                    return Wait::Stop;
                }
                self.interrupted = true;
                self.stopping = true;
                self.progress.note(&format!(
                    "stopping after the {} running game(s); Ctrl-C again to stop at once",
                    self.playing()
                ));
                return Wait::Again;
            }
            _ = self.term.recv() => {
                self.progress.note("terminated: the running games are abandoned");
                self.abandon().await;
                return Wait::Stop;
            }
        };
        match finished {
            None => Wait::Stop,
            Some(Ok((id, Some(played)))) => Wait::Finished(Box::new(Finished {
                slot: self.task_slots.remove(&id),
                played,
            })),
            Some(Ok((id, None))) => {
                // Abandoned, or failed to start.
                self.unplayed(id);
                Wait::Again
            }
            Some(Err(e)) => {
                // Its game is not recorded.
                tracing::error!("a game task failed: {e}");
                self.unplayed(e.id());
                Wait::Again
            }
        }
    }

    /// Drops every running game, which kills their bots' process groups.
    async fn abandon(&mut self) {
        self.drop_staged();
        self.cancel.cancel();
        while self.running.join_next().await.is_some() {}
    }

    /// Records a finished game (voided, or counted) and frees its CPU slot.
    async fn take(&mut self, finished: Finished) -> Result<(), DiskError> {
        let Finished { slot, played } = finished;
        self.free_slots.extend(slot);
        if let (ReplayDecision::Void, Some(max)) = (
            replay_decision(&played.conduct, played.attempt, self.max_attempts),
            self.max_attempts,
        ) {
            if self.voided_pgn.is_some() {
                return self.void(played, max).await;
            }
        }
        self.count(played).await
    }

    /// A voided attempt (`--replay-suspect`): kept in `voided.pgn`, counted nowhere, played
    /// again.
    async fn void(&mut self, played: PlayedGame, max: u32) -> Result<(), DiskError> {
        let PlayedGame {
            fixture,
            attempt,
            report,
            outcome,
            duration,
            ..
        } = played;
        let file = self.voided_pgn.as_mut().expect("checked by take");
        // On disk first too: a resumed series counts this attempt against the cap.
        file.append(&report.record).await?;
        if let Some(s) = &self.options.spectator {
            s.game_over(fixture.game, &report.record, &report.reason);
        }
        self.standings.add_voided(&outcome);
        self.events.emit(&voided_event(
            &fixture,
            attempt,
            max,
            &report,
            &self.names,
            duration,
        ));
        self.progress
            .voided(&fixture, attempt, max, &report, &self.names);
        // Played again next, or after the game staged already (its pair is waited for by
        // the SPRT); unless the series is stopping, in which case a resume plays it.
        if !self.stopping {
            self.again.push_front((fixture, attempt + 1));
        }
        Ok(())
    }

    /// A counted game: on disk, then in the standings, the events and the progress.
    async fn count(&mut self, played: PlayedGame) -> Result<(), DiskError> {
        let PlayedGame {
            fixture,
            attempt,
            report,
            outcome,
            duration,
            ..
        } = played;
        // On disk before anything is said about it.
        self.pgn.append(&report.record).await?;
        if let Some(s) = &self.options.spectator {
            s.game_over(fixture.game, &report.record, &report.reason);
        }
        self.played_now += 1;
        self.standings.add(&outcome);
        self.events.emit(&finished_event(
            &fixture,
            attempt,
            &report,
            &self.names,
            duration,
        ));
        let newly_decided = self.gates.as_mut().and_then(|g| g.add(&outcome));
        let head_to_head = head_to_head(&self.standings, self.gates.as_ref());
        self.events.emit(&SeriesEvent::StatsUpdated {
            games_finished: self.standings.finished,
            standings: self.standings.bots.clone(),
            head_to_head: head_to_head.clone(),
        });
        self.progress.game(
            &fixture,
            &report,
            &self.names,
            &self.standings,
            head_to_head.as_ref(),
        );
        if let Some((encounter, report)) = newly_decided {
            self.sprt_decided(encounter, report);
        }
        Ok(())
    }

    /// The SPRT crossed a bound with the last game: no new games, the running ones finish.
    /// `encounter`'s SPRT crossed a bound with the last game: no new games of it; once every
    /// encounter's has, no new games at all, and the running ones finish.
    fn sprt_decided(&mut self, encounter: (usize, usize), report: SprtReport) {
        let Some(gates) = self.gates.as_ref() else {
            return;
        };
        let games = gates.get(encounter).map_or(0, SprtGate::games);
        let (a, b) = encounter;
        let several = self.standings.encounters.len() > 1;
        let all = gates.all_decided();
        // A stop asked for (Ctrl-C) stands whatever is decided.
        self.stopping |= all;
        self.events.emit(&SeriesEvent::SprtDecision {
            games_finished: games,
            sprt: report,
            bots: several.then(|| [self.names[a].clone(), self.names[b].clone()]),
        });
        let decision = match report.decision {
            SprtDecision::AcceptH1 => "H1 accepted",
            _ => "H0 accepted",
        };
        let of = if several {
            format!(" for {} vs {}", self.names[a], self.names[b])
        } else {
            String::new()
        };
        let then = if all {
            "finishing the running games"
        } else {
            "no new games of this encounter"
        };
        self.progress.note(&format!(
            "SPRT: {decision}{of} after {games} games (whole pairs in schedule order); {then}"
        ));
    }

    /// How the series ended, said last.
    fn finish(mut self) -> SeriesOutcome {
        let decided = self.gates.as_ref().is_some_and(SprtGates::all_decided);
        // Every game played, or skipped because its encounter's SPRT had decided (none
        // taken and then abandoned). Not looked at once everything has decided: the rest
        // of a long schedule would be walked for nothing.
        let all_played = decided
            || (self.next_game().is_none()
                && self.standings.finished + self.skipped >= u64::from(self.planned));
        let end = match &self.gates {
            _ if !all_played => SeriesEnd::Interrupted,
            Some(gates) => match gates.verdict() {
                SprtDecision::AcceptH1 => SeriesEnd::H1Accepted,
                SprtDecision::AcceptH0 => SeriesEnd::H0Accepted,
                SprtDecision::Continue => SeriesEnd::Inconclusive,
            },
            // A shard plays its whole block; the SPRT is judged when the shards merge.
            None if self.config.sprt.is_some() => SeriesEnd::Inconclusive,
            None => SeriesEnd::Completed,
        };
        self.progress.finish();
        self.events.emit(&SeriesEvent::SeriesFinished {
            outcome: end.code().to_string(),
            games_finished: self.standings.finished,
            conduct: self.standings.conduct.clone(),
            replays: self.standings.replays.clone(),
        });
        SeriesOutcome {
            end,
            standings: self.standings,
            planned: self.planned,
            played_now: self.played_now,
            sprt: self
                .gates
                .iter()
                .flat_map(SprtGates::iter)
                .map(|(_, g)| g.report())
                .collect(),
        }
    }
}

fn watch(kind: tokio::signal::unix::SignalKind) -> Result<tokio::signal::unix::Signal, DiskError> {
    tokio::signal::unix::signal(kind).map_err(|source| DiskError::Io {
        what: "watch for signals in",
        path: PathBuf::from("this process"),
        source,
    })
}

/// Opens the series' event stream at `path`, first making it follow the records on disk
/// (they are the truth): its torn last line is cut ([`events::mend`]), and every game of
/// `done` whose `game_finished` line a crash lost (between its record's write and the
/// line's) gets that line back, rebuilt from its record ([`SeriesEvent::restored`]), in the
/// records' order, before anything of this run is said (the live viewer, told from
/// `series_started` on, is not told these). Never twice: the next resume finds the line.
/// No `stats_updated` follows them: the one after `series_started` says where the series
/// stands.
fn open_events(
    path: &std::path::Path,
    config: &SeriesConfig,
    schedule: &Schedule,
    names: &[String],
    done: &[GameOutcome],
) -> Result<EventLog, DiskError> {
    let failed = |source| DiskError::Io {
        what: "open the event stream",
        path: path.to_path_buf(),
        source,
    };
    let logged = events::mend(path).map_err(failed)?;
    let mut log = EventLog::open(path).map_err(failed)?;
    let Some(logged) = logged else {
        return Ok(log);
    };
    // The records are read again only when a line is missing (seldom: a crash at the wrong
    // moment).
    if done.iter().all(|g| logged.contains(&(g.game, g.seed))) {
        return Ok(log);
    }
    let mut seen = std::collections::BTreeSet::new();
    for (record, game) in disk::recorded_games(&config.pgn, config.pgn_start, schedule, names)? {
        if logged.contains(&(game.game, game.seed)) || !seen.insert(game.game) {
            continue;
        }
        let Some(fixture) = schedule.get(game.game) else {
            continue;
        };
        match SeriesEvent::restored(GameRef::of(&fixture, names), &record) {
            Ok(event) => log.emit(&event),
            // The stream is not the series: a record that does not replay (`zebra verify`
            // says why) leaves its line lost, and the series goes on.
            Err(why) => tracing::warn!(
                "{}: cannot restore the game_finished line of game {}: {why}",
                path.display(),
                game.game
            ),
        }
    }
    Ok(log)
}

/// A `sprt_decision` line for each encounter whose SPRT has decided, in schedule order
/// (naming the encounter when there are several).
pub(super) fn decisions_taken(gates: Option<&SprtGates>, names: &[String]) -> Vec<SeriesEvent> {
    let several = gates.is_some_and(|g| g.iter().count() > 1);
    gates
        .iter()
        .flat_map(|g| g.iter())
        .filter_map(|((a, b), gate)| {
            Some(SeriesEvent::SprtDecision {
                games_finished: gate.games(),
                sprt: gate.decided()?,
                bots: several.then(|| [names[a].clone(), names[b].clone()]),
            })
        })
        .collect()
}

/// The head-to-head statistics of a two-bot series, with the SPRT as the gate judges it
/// (whole pairs in schedule order), not over every game finished so far.
pub(super) fn head_to_head(standings: &Standings, gates: Option<&SprtGates>) -> Option<Report> {
    let mut report = standings.head_to_head()?;
    report.sprt = gates.and_then(SprtGates::only).map(SprtGate::report);
    Some(report)
}

fn finished_event(
    fixture: &Fixture,
    attempt: u32,
    report: &GameReport,
    names: &[String],
    duration: std::time::Duration,
) -> SeriesEvent {
    SeriesEvent::finished(GameRef::of(fixture, names), attempt, report, duration)
}

fn voided_event(
    fixture: &Fixture,
    attempt: u32,
    max_attempts: u32,
    report: &GameReport,
    names: &[String],
    duration: std::time::Duration,
) -> SeriesEvent {
    let [w, b] = &report.bots;
    SeriesEvent::GameVoided {
        game: GameRef::of(fixture, names),
        attempt,
        max_attempts,
        result: report.result.map_or("*", GameResult::pgn).to_string(),
        termination: report.termination.code().to_string(),
        timeouts: PerSide {
            white: w.timeouts,
            black: b.timeouts,
        },
        suspect_timeouts: PerSide {
            white: w.suspect_timeouts,
            black: b.suspect_timeouts,
        },
        duration_ms: duration.as_millis() as u64,
    }
}

/// The CPUs of `allowed` that no game slot of `places` is pinned to: where a staged game's
/// bots are set up without taking CPU from a game that plays. None when games are not
/// pinned one to a CPU (nothing is then known to be spare), or staging is turned off.
fn spare_cpus(places: Option<&[super::placement::Place]>, allowed: &[usize]) -> Vec<usize> {
    use super::placement::Place;
    let Some(places) = places else {
        return Vec::new();
    };
    if !crate::sandbox::staging() {
        return Vec::new();
    }
    let mut taken = Vec::new();
    for place in places {
        match place {
            Place::Game(cpu) => taken.push(*cpu),
            Place::Bots(_) => return Vec::new(),
        }
    }
    allowed
        .iter()
        .copied()
        .filter(|c| !taken.contains(c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::placement::Place;
    use super::*;

    #[test]
    fn a_spare_cpu_is_one_no_game_slot_is_pinned_to() {
        let allowed = [0, 1, 2, 3];
        assert_eq!(spare_cpus(Some(&[Place::Game(0)]), &allowed), vec![1, 2, 3]);
        assert_eq!(
            spare_cpus(Some(&[Place::Game(2), Place::Game(0)]), &allowed),
            vec![1, 3]
        );
        // Every CPU a game's: nothing is staged.
        assert!(spare_cpus(Some(&[Place::Game(0), Place::Game(1)]), &[0, 1]).is_empty());
        // Games not pinned one to a CPU: nothing is known to be spare.
        assert!(spare_cpus(None, &allowed).is_empty());
        assert!(spare_cpus(Some(&[Place::Bots([0, 1])]), &allowed).is_empty());
    }
}
