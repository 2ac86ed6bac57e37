//! A series as the daemon holds it: the request a client submits (the options of
//! `zebra match`, bots by id), checked into the very [`SeriesConfig`] and schedule
//! `zebra match` would build; and the books of a running series (standings and the SPRT
//! gate), kept in memory and folded one finished game at a time, as the match runner does.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::series::book::{Book, SituationOrder};
use crate::series::config::{BotEntry, SeriesConfig, SERIES_FILE_VERSION};
use crate::series::events::{GameRef, SeriesEvent};
use crate::series::schedule::{Format, Schedule};
use crate::series::spec::SeriesSpec;
use crate::series::standings::{GameOutcome, SprtGate, Standings};
use crate::series::stats::{SprtDecision, SprtParams};
use crate::series::{Entrants, SeriesEnd, SeriesOutcome, Summary};

use super::store::{BotRow, GameEnd, NewGame};

/// The most games one submission may queue: a series is inserted whole, in one transaction.
pub(crate) const MAX_SERIES_GAMES: u32 = 100_000;

/// How a series ended in the daemon: as `zebra match` ends one (played to its end, or the
/// SPRT decided), or cancelled, or incomplete (a game void after its attempts: the
/// statistics lack it). Stored and shown by its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Played(SeriesEnd),
    Cancelled,
    Incomplete,
}

impl Ending {
    /// The ending whose [`Ending::code`] the store keeps as a series' outcome.
    pub fn of_code(code: &str) -> Option<Ending> {
        use SeriesEnd::*;
        [Completed, H1Accepted, H0Accepted, Inconclusive, Interrupted]
            .into_iter()
            .map(Ending::Played)
            .chain([Ending::Cancelled, Ending::Incomplete])
            .find(|e| e.code() == code)
    }

    pub const fn code(self) -> &'static str {
        match self {
            Ending::Played(end) => end.code(),
            Ending::Cancelled => "cancelled",
            Ending::Incomplete => "incomplete",
        }
    }

    /// Every ending a daemon can give a series (a series is never `interrupted` there: a
    /// stopped daemon's series goes on after the restart).
    pub fn all() -> [Ending; 6] {
        [
            Ending::Played(SeriesEnd::Completed),
            Ending::Played(SeriesEnd::H1Accepted),
            Ending::Played(SeriesEnd::H0Accepted),
            Ending::Played(SeriesEnd::Inconclusive),
            Ending::Cancelled,
            Ending::Incomplete,
        ]
    }
}

/// A series as a client submits it. Unknown fields are refused: a misspelt option must
/// not silently play a different series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeriesRequest {
    /// The game played: `football-chess` (left out: the default, stored as left out, so
    /// that a series submitted before games were named reads the same) or
    /// `boyer-football`. Every bot must have passed that game's check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Registered bot ids, at least two; with `gauntlet` the first meets each other one.
    pub bots: Vec<i64>,
    /// Games per encounter (two bots: the whole match); even.
    #[serde(default = "default_games")]
    pub games: u32,
    /// `round-robin` or `gauntlet`.
    #[serde(default = "default_format")]
    pub format: String,
    /// The game's clock, as `zebra match --tc` reads it for that game (Football Chess:
    /// `plays=10,play=5s,reaction=1s`; Boyer's Football: a chess clock such as `blitz` or
    /// `bank=60s,inc=1s`); left out: the game's default. Stored in its canonical form.
    #[serde(default)]
    pub tc: Option<String>,
    /// Wall-time cap of each game, as `zebra match --max-game-time`: a duration (`25m`) or
    /// `none`; left out (or `auto`): derived from `tc`. Stored in its canonical form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_game_time: Option<String>,
    /// Seed of the first pair; pair k plays seed + k - 1.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`; two bots only.
    #[serde(default)]
    pub sprt: Option<String>,
    /// Invalid or illegal replies a bot may send before it forfeits a game.
    #[serde(default = "default_max_illegal")]
    pub max_illegal: u32,
    /// The records' Event tag (default: "Zebra serve series N").
    #[serde(default)]
    pub event: Option<String>,
    /// `builtin` (the default) or `none`, as `zebra match --situations` (the network names
    /// no files). A series stored before books has none: it plays on as it started.
    #[serde(default)]
    pub situations: Option<String>,
    /// `random` (the default) or `sequential`.
    #[serde(default)]
    pub situation_order: Option<String>,
}

fn default_games() -> u32 {
    20
}
fn default_format() -> String {
    "round-robin".to_string()
}
fn default_seed() -> u64 {
    1
}
fn default_max_illegal() -> u32 {
    3
}

/// A request that does not hold: which field, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

fn field(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// A checked request: its canonical form (what idempotency compares) and its games.
#[derive(Clone, Debug)]
pub struct Checked {
    pub request: SeriesRequest,
    /// The canonical JSON stored with the series.
    pub spec: String,
    pub games: Vec<NewGame>,
}

/// A game's name as the API takes it (`game` of a series, an upload, a leaderboard), or the
/// engine's line naming it and the games known (the same words as a series spec's `game`).
pub(crate) fn game_named(name: &str) -> Result<crate::rules::Rules, String> {
    name.parse::<crate::rules::Rules>()
        .map_err(|e| e.to_string())
}

impl SeriesRequest {
    /// The game the series plays.
    pub fn rules(&self) -> crate::rules::Rules {
        self.game
            .as_deref()
            .and_then(|g| g.parse().ok())
            .unwrap_or_default()
    }

    /// Checks every option as `zebra match` does ([`SeriesSpec::validate`]), and what only
    /// the daemon has (bot ids, its own book, the size of one submission); lists the games
    /// to queue.
    pub fn check(mut self) -> Result<Checked, FieldError> {
        if self.bots.len() < 2 {
            return Err(field("bots", "give at least two bot ids"));
        }
        let mut seen = std::collections::BTreeSet::new();
        if let Some(twice) = self.bots.iter().find(|id| !seen.insert(**id)) {
            return Err(field("bots", format!("bot {twice} is listed twice")));
        }
        if let Some(situations) = &self.situations {
            if situations != "builtin" && situations != "none" {
                return Err(field(
                    "situations",
                    "use builtin or none (a server plays only its own book)",
                ));
            }
        }
        if let Some(event) = &self.event {
            crate::bot::text::check_user_name(event).map_err(|e| field("event", e))?;
        }
        // Before the shared checks, whose advice for more bots (a gauntlet) is zebra
        // match's.
        if self.sprt.is_some() && self.bots.len() > 2 {
            return Err(field(
                "sprt",
                "the server judges an SPRT between two bots only; run a gauntlet's SPRT (one per opponent) with zebra match",
            ));
        }
        let valid = self
            .spec()
            .validate()
            .map_err(|e| field(e.field().key(), e.to_string()))?;
        // Filled in and canonical, so that the stored request says what was played and the
        // same series reads the same. Football Chess is the default: stored as left out
        // (see `game`).
        self.game = (valid.rules != crate::rules::Rules::FootballChess)
            .then(|| valid.rules.name().to_string());
        self.format = valid.format.to_string();
        self.tc = Some(valid.tc.clone());
        // `auto` is the same series as none given: stored (and compared) as none.
        self.max_game_time = valid.max_game_time_text();
        self.sprt = valid.sprt.map(|p| p.to_string());
        self.situations = Some(valid.situations.clone());
        self.situation_order = Some(valid.situation_order.to_string());
        let schedule = valid.schedule;
        if schedule.len() > MAX_SERIES_GAMES {
            return Err(field(
                "games",
                format!(
                    "{} games; one series queues at most {MAX_SERIES_GAMES}",
                    schedule.len()
                ),
            ));
        }
        let games = schedule
            .iter()
            .map(|f| NewGame {
                number: f.game,
                seed: f.seed,
                white: self.bots[f.white],
                black: self.bots[f.black],
            })
            .collect();
        let spec = serde_json::to_string(&self).expect("a request serializes");
        Ok(Checked {
            request: self,
            spec,
            games,
        })
    }

    /// The options `zebra match` shares, as given.
    pub fn spec(&self) -> SeriesSpec {
        SeriesSpec {
            game: self.game.clone(),
            format: self.format.clone(),
            bots: self.bots.len(),
            games: self.games,
            tc: self.tc.clone(),
            max_game_time: self.max_game_time.clone(),
            seed: self.seed,
            sprt: self.sprt.clone(),
            max_illegal: self.max_illegal,
            situations: self.situations.clone(),
            situation_order: self.situation_order.clone(),
        }
    }

    /// The schedule `zebra match` would play with these options.
    pub fn schedule(&self) -> Result<Schedule, crate::series::schedule::ScheduleError> {
        let format = Format::parse(&self.format).unwrap_or(Format::RoundRobin);
        Schedule::new(format, self.bots.len(), self.games / 2, self.seed)
    }

    /// The series as `zebra match` would run it: the bots' entries (from their
    /// registrations, in the request's order), the daemon's sandbox, and the failed games'
    /// logs in `log_dir`.
    pub(crate) fn series_config(
        &self,
        id: i64,
        bots: &[BotRow],
        sandbox: &crate::sandbox::Settings,
        log_dir: PathBuf,
    ) -> Result<SeriesConfig, String> {
        let entries = self
            .bots
            .iter()
            .map(|id| {
                let row = bots
                    .iter()
                    .find(|b| b.id == *id)
                    .ok_or_else(|| format!("there is no bot {id}"))?;
                let mut entry: BotEntry = serde_json::from_str(&row.spec)
                    .map_err(|e| format!("bot {id}'s registration: {e}"))?;
                entry.name = row.name.clone();
                // Time odds set Football Chess's play and reaction clocks: in another game
                // both sides have the series' clock.
                if !crate::with_rules!(self.rules(), G => <G as zebra_engine::seam::Refereed>::TIME_ODDS) {
                    entry.time = None;
                }
                Ok(entry)
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(SeriesConfig {
            version: SERIES_FILE_VERSION,
            format: Format::parse(&self.format).unwrap_or(Format::RoundRobin),
            bots: entries,
            rules: self.rules(),
            rounds: self.games / 2,
            seed: self.seed,
            tc: self.tc.clone().unwrap_or_else(|| {
                crate::referee::GameConfig::default_clock(self.rules()).to_string()
            }),
            max_game_time: self.max_game_time.clone(),
            max_illegal: self.max_illegal,
            sprt: self.sprt.as_deref().and_then(|s| SprtParams::parse(s).ok()),
            pgn: PathBuf::new(),
            pgn_start: 0,
            events: None,
            log_dir: Some(log_dir),
            log_failures: true,
            event: self
                .event
                .clone()
                .unwrap_or_else(|| format!("Zebra serve series {id}")),
            sandbox: sandbox.clone(),
            replay_suspect: None,
            shard: None,
            zebra: Some(env!("CARGO_PKG_VERSION").to_string()),
            situations: {
                let order = self
                    .situation_order
                    .as_deref()
                    .and_then(SituationOrder::parse)
                    .unwrap_or(SituationOrder::Random);
                Book::load(
                    self.rules(),
                    self.situations.as_deref().unwrap_or("none"),
                    order,
                )?
            },
        })
    }
}

/// A series' books: what `zebra match`'s runner keeps, folded from the stored games, and
/// the live hub its games report to (`/series/N/live/`: the viewer's live mode).
pub struct Books {
    pub config: SeriesConfig,
    pub entrants: Entrants,
    pub schedule: Schedule,
    pub standings: Standings,
    pub gate: Option<SprtGate>,
    pub hub: std::sync::Arc<crate::web::live::Hub>,
    /// The series' event stream, for the hub only (the store keeps the results).
    pub events: crate::series::events::EventLog,
    /// The point of the store's finishes the books reach (see [`Books::catch_up`]).
    pub(crate) seen: super::store::Finishes,
}

impl Books {
    /// The books of a series with the games it has finished so far, read one at a time
    /// by `finished` (which hands each to its argument).
    pub fn new<E>(
        config: SeriesConfig,
        finished: impl FnOnce(&mut dyn FnMut(GameEnd)) -> Result<(), E>,
    ) -> Result<Result<Books, String>, E> {
        let schedule = Schedule::new(config.format, config.bots.len(), config.rounds, config.seed)
            .map_err(|e| e.to_string());
        let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
        let schedule = match schedule {
            Ok(schedule) => schedule,
            Err(e) => return Ok(Err(e)),
        };
        let hub = crate::web::live::Hub::new(&config.event);
        let events = crate::series::events::EventLog::none().with_spectator(Some(
            hub.clone() as std::sync::Arc<dyn crate::referee::Spectator>
        ));
        let mut books = Books {
            hub,
            events,
            entrants: Entrants::of(&config),
            standings: Standings::new(config.format, &names),
            gate: config.sprt.filter(|_| names.len() == 2).map(SprtGate::new),
            schedule,
            config,
            seen: super::store::Finishes::default(),
        };
        let done = match books.fold(finished)? {
            Ok(done) => done,
            Err(e) => return Ok(Err(e)),
        };
        let started = SeriesEvent::SeriesStarted {
            bots: names,
            format: books.config.format.to_string(),
            rules: books.config.rules,
            games_planned: books.schedule.len(),
            games_done: done,
            seed: books.config.seed,
            time_control: books.config.tc.clone(),
            sprt: books.config.sprt.map(|s| s.to_string()),
            concurrency: 0,
            cpus: None,
            replay_suspect: None,
            warnings: Vec::new(),
            identity: crate::series::shard::identity(&books.config),
            shard: None,
            host: None,
        };
        books.events.emit(&started);
        if done > 0 {
            books.emit_stats();
        }
        Ok(Ok(books))
    }

    /// Counts the finished games `finished` hands over, from empty standings (and SPRT):
    /// how many, or the first that does not read.
    pub fn fold<E>(
        &mut self,
        finished: impl FnOnce(&mut dyn FnMut(GameEnd)) -> Result<(), E>,
    ) -> Result<Result<u32, String>, E> {
        let names = self.names();
        self.standings = Standings::new(self.config.format, &names);
        self.gate = self
            .config
            .sprt
            .filter(|_| names.len() == 2)
            .map(SprtGate::new);
        let mut done = 0_u32;
        let mut bad = None;
        finished(&mut |game| {
            if bad.is_some() {
                return;
            }
            match self.outcome(&game) {
                Ok(outcome) => {
                    self.add(&outcome);
                    done += 1;
                }
                Err(e) => bad = Some(e),
            }
        })?;
        Ok(bad.map_or(Ok(done), Err))
    }

    /// Folds the games of series `series` the store finished since the books last looked
    /// (this daemon's and any other's sharing the store), in the order they finished, or
    /// all of them afresh once games were taken back; whether the SPRT has decided (on one
    /// of them or before: the series is concluded on every path that sees it, so a
    /// decision folded on a page's read is not lost). A stored game that does not count
    /// (a newer Zebra's) is left out alone, logged. Called holding the store. The live page is told of each game folded but
    /// `own` (which the caller tells it of): its end and its line in the event stream.
    pub(crate) fn catch_up(
        &mut self,
        store: &super::store::Store,
        series: i64,
        own: Option<u32>,
    ) -> Result<Result<bool, String>, super::store::StoreError> {
        let now = store.finishes()?;
        if now.refolds != self.seen.refolds {
            let mut last = 0;
            let folded = self.fold(|each| {
                store.each_result_since(series, 0, |seq, g| {
                    last = seq;
                    each(g)
                })
            })?;
            // Every finish up to `now.last` was visible to the read that followed it.
            self.seen = super::store::Finishes {
                last: last.max(now.last),
                refolds: now.refolds,
            };
            return Ok(folded.map(|_| self.decided().is_some()));
        }
        if now.last <= self.seen.last {
            return Ok(Ok(false));
        }
        let (mut last, mut bad) = (self.seen.last, None);
        let mut others = Vec::new();
        store.each_result_since(series, self.seen.last, |seq, game| {
            last = seq;
            match self.outcome(&game) {
                Ok(outcome) => {
                    self.add(&outcome);
                }
                Err(e) => {
                    bad.get_or_insert(e);
                }
            }
            if Some(game.number) != own {
                others.push(game);
            }
        })?;
        self.seen.last = last.max(now.last);
        for game in &others {
            self.counted_elsewhere(store, game);
        }
        if !others.is_empty() {
            self.emit_stats();
        }
        if let Some(e) = bad {
            tracing::error!(series, "a stored game is left out of the standings: {e}");
        }
        Ok(Ok(self.decided().is_some()))
    }

    /// Tells the live page of a game another daemon counted: its line in the event stream
    /// and its end, from its stored record.
    fn counted_elsewhere(&mut self, store: &super::store::Store, game: &GameEnd) {
        use crate::referee::Spectator;
        let Some(fixture) = self.schedule.get(game.number) else {
            return;
        };
        let record = store
            .record(&game.record)
            .ok()
            .and_then(|text| crate::record::read_games(&text).ok())
            .and_then(|mut games| (games.len() == 1).then(|| games.remove(0)));
        let Some(record) = record else {
            tracing::warn!(
                game = game.number,
                "the record of a game counted elsewhere does not read"
            );
            return;
        };
        match SeriesEvent::restored(GameRef::of(&fixture, &self.names()), &record) {
            Ok(event) => {
                if let SeriesEvent::GameFinished { reason, .. } = &event {
                    self.hub.game_over(game.number, &record, reason);
                }
                self.events.emit(&event);
            }
            Err(e) => tracing::warn!(game = game.number, "a game counted elsewhere: {e}"),
        }
    }

    /// The names of the series' bots, in its order.
    pub fn names(&self) -> Vec<String> {
        self.config.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// Tells the live page the standings as they are.
    pub(crate) fn emit_stats(&mut self) {
        let mut head_to_head = self.standings.head_to_head();
        if let Some(report) = head_to_head.as_mut() {
            report.sprt = self.gate.as_ref().map(SprtGate::report);
        }
        let event = SeriesEvent::StatsUpdated {
            games_finished: self.standings.finished,
            standings: self.standings.bots.clone(),
            head_to_head,
        };
        self.events.emit(&event);
    }

    /// Tells the live page that game `game` starts.
    pub fn game_started(&mut self, fixture: &crate::series::schedule::Fixture, attempt: u32) {
        use crate::referee::Spectator;
        self.hub.announce(fixture.game);
        let event = SeriesEvent::GameStarted {
            game: GameRef::of(fixture, &self.names()),
            attempt,
        };
        self.events.emit(&event);
    }

    /// Tells the live page how a counted game ended.
    pub fn game_counted(&mut self, tally: &super::tally::Tally) {
        use crate::referee::Spectator;
        self.hub
            .game_over(tally.fixture.game, &tally.record, &tally.reason);
        self.events.emit(&tally.event);
        self.emit_stats();
    }

    /// Tells the live page the series is over (its feeds end once they have said all).
    pub fn close(&mut self, ending: Ending) {
        let event = SeriesEvent::SeriesFinished {
            outcome: ending.code().to_string(),
            games_finished: self.standings.finished,
            conduct: self.standings.conduct.clone(),
            replays: self.standings.replays.clone(),
        };
        self.events.emit(&event);
        self.hub.close();
    }

    /// A stored game as the standings count it.
    pub fn outcome(&self, game: &GameEnd) -> Result<GameOutcome, String> {
        let fixture = self
            .schedule
            .get(game.number)
            .ok_or_else(|| format!("game {} is not in the schedule", game.number))?;
        let result = crate::record::tags::parse_result(&game.result)
            .ok_or_else(|| format!("game {}: result '{}'", game.number, game.result))?;
        let termination = game
            .termination
            .parse()
            .map_err(|_| format!("game {}: termination '{}'", game.number, game.termination))?;
        let conduct = if game.conduct.is_empty() {
            Default::default()
        } else {
            serde_json::from_str(&game.conduct)
                .map_err(|e| format!("game {}: conduct: {e}", game.number))?
        };
        Ok(GameOutcome::of(&fixture, result, termination).with_conduct(conduct))
    }

    /// Folds one counted game in; the SPRT's decision if this game made it.
    pub fn add(&mut self, outcome: &GameOutcome) -> Option<SprtDecision> {
        self.standings.add(outcome);
        self.gate
            .as_mut()
            .and_then(|g| g.add(outcome))
            .map(|r| r.decision)
    }

    /// The end the SPRT decided, if it has.
    pub fn decided(&self) -> Option<SeriesEnd> {
        match self.gate.as_ref()?.decided()?.decision {
            SprtDecision::AcceptH1 => Some(SeriesEnd::H1Accepted),
            SprtDecision::AcceptH0 => Some(SeriesEnd::H0Accepted),
            SprtDecision::Continue => None,
        }
    }

    /// The end of a series with no game left to play.
    pub(crate) fn end_when_played(&self) -> SeriesEnd {
        self.decided().unwrap_or(if self.config.sprt.is_some() {
            SeriesEnd::Inconclusive
        } else {
            SeriesEnd::Completed
        })
    }

    /// The statistics as `zebra match --json` prints them (its `outcome` is replaced by the
    /// caller with the series' state).
    pub fn summary(&self) -> Summary {
        let outcome = SeriesOutcome {
            end: self.end_when_played(),
            standings: self.standings.clone(),
            planned: self.schedule.len(),
            played_now: 0,
            sprt: self.gate.iter().map(SprtGate::report).collect(),
        };
        Summary::of(&self.config, &outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> Result<Checked, FieldError> {
        serde_json::from_str::<SeriesRequest>(json).unwrap().check()
    }

    #[test]
    fn defaults_are_filled_in_so_the_same_series_reads_the_same() {
        let a = request(r#"{"bots": [1, 2]}"#).unwrap();
        let b = request(
            r#"{"bots": [1, 2], "games": 20, "format": "round-robin", "seed": 1,
                "tc": "plays=10,play=5s,reaction=1s", "max_illegal": 3}"#,
        )
        .unwrap();
        assert_eq!(a.spec, b.spec);
        assert_eq!(a.games.len(), 20);
        assert_eq!(
            (a.games[0].white, a.games[0].black, a.games[1].white),
            (1, 2, 2)
        );
        // The wall-time cap: derived when left out or `auto` (the same series), else
        // canonical, and in the series the workers play.
        let auto = request(r#"{"bots": [1, 2], "max_game_time": "auto"}"#).unwrap();
        assert_eq!(auto.spec, a.spec);
        assert!(!a.spec.contains("max_game_time"), "{}", a.spec);
        let capped = request(r#"{"bots": [1, 2], "max_game_time": "1500s"}"#).unwrap();
        assert_eq!(capped.request.max_game_time.as_deref(), Some("25m"));
        let none = request(r#"{"bots": [1, 2], "max_game_time": "none"}"#).unwrap();
        assert_eq!(none.request.max_game_time.as_deref(), Some("none"));
        let g = request(r#"{"bots": [5, 6, 7], "format": "gauntlet", "games": 4}"#).unwrap();
        assert_eq!(g.games.len(), 8);
        assert!(g.games.iter().all(|n| n.white == 5 || n.black == 5));
    }

    #[test]
    fn each_bad_option_names_its_field() {
        for (json, name) in [
            (r#"{"bots": [1]}"#, "bots"),
            (r#"{"bots": [1, 1]}"#, "bots"),
            (r#"{"bots": [1, 2], "games": 3}"#, "games"),
            (r#"{"bots": [1, 2], "games": 200002}"#, "games"),
            (r#"{"bots": [1, 2], "format": "swiss"}"#, "format"),
            (r#"{"bots": [1, 2], "tc": "fast"}"#, "tc"),
            (
                r#"{"bots": [1, 2], "max_game_time": "25"}"#,
                "max_game_time",
            ),
            (
                r#"{"bots": [1, 2], "max_game_time": "0s"}"#,
                "max_game_time",
            ),
            (r#"{"bots": [1, 2], "max_illegal": 0}"#, "max_illegal"),
            (r#"{"bots": [1, 2, 3], "sprt": "elo0=0,elo1=5"}"#, "sprt"),
            // `zebra match` judges a gauntlet's SPRT per opponent; the server does not.
            (
                r#"{"bots": [1, 2, 3], "format": "gauntlet", "sprt": "elo0=0,elo1=5"}"#,
                "sprt",
            ),
            (r#"{"bots": [1, 2], "sprt": "elo0=5"}"#, "sprt"),
        ] {
            let err = request(json).unwrap_err();
            assert_eq!(err.field, name, "{json}: {}", err.message);
        }
        assert!(serde_json::from_str::<SeriesRequest>(r#"{"bots": [1, 2], "game": 4}"#).is_err());
        for (json, name) in [
            (r#"{"bots": [1, 2], "game": "chess"}"#, "game"),
            // Football Chess's clock is not Boyer's, and Boyer's has no drives.
            (
                r#"{"bots": [1, 2], "game": "boyer-football", "tc": "plays=10"}"#,
                "tc",
            ),
            (
                r#"{"bots": [1, 2], "game": "boyer-football", "situations": "builtin"}"#,
                "situations",
            ),
        ] {
            let err = request(json).unwrap_err();
            assert_eq!(err.field, name, "{json}: {}", err.message);
        }
        let err = request(r#"{"bots": [1, 2], "game": "chess"}"#).unwrap_err();
        assert!(
            err.message.contains("football-chess, boyer-football"),
            "{}",
            err.message
        );
    }

    #[test]
    fn a_game_brings_its_own_clock_and_football_chess_reads_as_before() {
        let boyer = request(r#"{"bots": [1, 2], "game": "boyer-football"}"#).unwrap();
        assert_eq!(boyer.request.rules(), crate::rules::Rules::BoyerFootball);
        // The default clock, canonical.
        assert_eq!(
            boyer.request.tc.as_deref(),
            Some("bank=60s,inc=1s,grace=100ms")
        );
        assert_eq!(boyer.request.situations.as_deref(), Some("none"));
        let blitz =
            request(r#"{"bots": [1, 2], "game": "boyer-football", "tc": "blitz"}"#).unwrap();
        assert_eq!(
            blitz.request.tc.as_deref(),
            Some("bank=10s,inc=100ms,grace=100ms")
        );
        // Named or not, Football Chess is the same series as before games were named.
        let named = request(r#"{"bots": [1, 2], "game": "football-chess"}"#).unwrap();
        let plain = request(r#"{"bots": [1, 2]}"#).unwrap();
        assert_eq!(named.spec, plain.spec);
        assert!(!plain.spec.contains("game\""), "{}", plain.spec);
        assert!(
            boyer.spec.contains(r#""game":"boyer-football""#),
            "{}",
            boyer.spec
        );
    }
}
