//! Chess Eleven behind the seam: its records (a block per go and per pair of formations,
//! its settings and seed as tags, shots with their drawn outcome), its clock in the
//! referee, and check-bot's positions.

use crate::record::{tags, RecordError, Recorded, Tags};
use crate::rules::GameResult;

use super::action::Action;
use super::error::ChessElevenError;
use super::game::{Game, Halves, Phase, Settings};
use super::position::Event;

/// The tags of a game's settings.
pub const HALVES: &str = "Halves";
pub const GOAL_TARGET: &str = "GoalTarget";
pub const GO_CAP: &str = "GoCap";
/// The start position of a game that did not start from formations (C53 text), with
/// `SetUp "1"` as PGN marks a game set up from a position.
pub const POSITION: &str = "Position";

impl Recorded for Game {
    const RULINGS: &'static str = super::RULINGS_EDITION;

    fn settings_tags(settings: &Settings, tags: &mut Tags) {
        tags.set(
            HALVES,
            match settings.halves {
                Halves::None => "none".to_string(),
                Halves::Timed => "timed".to_string(),
                Halves::Goes(n) => format!("{n} goes"),
            },
        );
        if let Some(g) = settings.goals {
            tags.set(GOAL_TARGET, g.to_string());
        }
        if settings.halves == Halves::None {
            tags.set(GO_CAP, settings.cap.to_string());
        }
        tags.set(tags::SEED, settings.seed.to_string());
    }

    fn from_tags(tags: &Tags) -> Result<Game, RecordError> {
        let bad = |name: &str, value: &str, expected: &'static str| RecordError::BadTagValue {
            name: name.to_string(),
            value: crate::record::error_quote(value),
            expected,
        };
        let halves = match tags.get(HALVES) {
            None => Halves::Goes(40),
            Some("none") => Halves::None,
            Some("timed") => Halves::Timed,
            Some(v) => Halves::Goes(
                v.strip_suffix(" goes")
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or_else(|| bad(HALVES, v, "none, timed or N goes"))?,
            ),
        };
        let number = |name: &str| -> Result<Option<u64>, RecordError> {
            tags.get(name)
                .map(|v| v.parse::<u64>().map_err(|_| bad(name, v, "a number")))
                .transpose()
        };
        let goals = number(GOAL_TARGET)?
            .map(|g| {
                u16::try_from(g)
                    .map_err(|_| bad(GOAL_TARGET, &g.to_string(), "a number up to 1000"))
            })
            .transpose()?;
        let cap = number(GO_CAP)?
            .map(|g| {
                u16::try_from(g).map_err(|_| bad(GO_CAP, &g.to_string(), "a number up to 1000"))
            })
            .transpose()?
            .unwrap_or(200);
        let seed = number(tags::SEED)?.unwrap_or(0);
        let settings = Settings {
            halves,
            goals,
            cap,
            seed,
        };
        Ok(match tags.get(POSITION) {
            None => Game::new(settings),
            Some(text) => Game::from_position(
                settings,
                text.parse()
                    .map_err(|e: ChessElevenError| RecordError::BadStart {
                        name: POSITION,
                        value: crate::record::error_quote(text),
                        error: e.to_string(),
                    })?,
            ),
        })
    }

    fn header(&self) -> Option<String> {
        match self.phase() {
            Phase::Forming(f)
                if self
                    .decision()
                    .is_some_and(|(s, _)| s == crate::rules::Side::White) =>
            {
                Some(format!(
                    "formations, half {}, {} to kick off",
                    f.half, f.kick_off
                ))
            }
            Phase::Play(p) if p.progress().at_start() => Some(format!(
                "half {}, go {}, {}{}",
                p.half(),
                p.goes() + 1,
                p.side(),
                if p.progress().corner { ", corner" } else { "" }
            )),
            _ => None,
        }
    }

    fn notable(event: &Event) -> bool {
        matches!(
            event,
            Event::Shot { .. }
                | Event::Corner { .. }
                | Event::GoalKick { .. }
                | Event::RoundOver { .. }
                | Event::HalfTime
                | Event::GameOver { .. }
        )
    }

    fn whereabouts(&self) -> String {
        match self.phase() {
            Phase::Play(p) => p.to_string(),
            Phase::Forming(f) => format!(
                "formations of half {}, {}-{}",
                f.half, f.score[0], f.score[1]
            ),
            Phase::Over { score } => format!("the game is over, {}-{}", score[0], score[1]),
        }
    }

    fn starts_play(event: &Event) -> bool {
        matches!(event, Event::KickOff { .. })
    }

    /// By the tally, as at the end (C45).
    fn adjudicate(&self) -> GameResult {
        self.standing()
    }

    /// A shot at an occupied goal square is written with its drawn outcome (C52).
    fn as_recorded(action: &Action, events: &[Event]) -> String {
        let drawn = events.iter().find_map(|e| match e {
            Event::Shot {
                outcome,
                drawn: true,
                ..
            } => Some(*outcome),
            _ => None,
        });
        match (action, drawn) {
            (Action::Shot { from, to, .. }, Some(o)) => Action::Shot {
                from: *from,
                to: *to,
                outcome: Some(o),
            }
            .to_string(),
            _ => action.to_string(),
        }
    }
}

mod referee {
    //! The referee's side: the half clock, the decision and formation limits (C41, C48,
    //! C49), and the messages of its wire module.

    use std::time::Duration;

    use crate::games::chess_eleven::clock::{Budget, Clocks, ElevenClock, HalfClock};
    use crate::games::chess_eleven::formation;
    use crate::games::chess_eleven::game::{DecisionKind, Game, Phase};
    use crate::games::chess_eleven::position::Event;
    use crate::games::chess_eleven::wire::{
        ChessElevenWire, ElevenClockMsg, ElevenClocksMsg, ElevenEvent, ElevenState,
    };
    use crate::games::chess_eleven::{Action, ChessElevenError, Position};
    use crate::protocol::NoExtra;
    use crate::record::GameRecord;
    use crate::rules::{Clock, Side};
    use crate::seam::{
        Asked, GameSetup, Miss, Missed, Parts, Refereed, RefusedExpiry, Start, TimeControlError,
    };

    /// At most this many rounds are counted in the wall-time bound of timed halves (each
    /// round's two formations), whose goes the half clocks bound but whose rounds they do
    /// not.
    const TIMED_ROUNDS: u32 = 200;

    impl Refereed for Game {
        type Clocks = Clocks;
        type Budget = Budget;
        const DEFAULT_CLOCK: &'static str = "turns=40,move=5s,formation=20s";

        type TimeControl = ElevenClock;

        /// A position in play (C53 text): the game starts from it instead of formations.
        type Start = Position;

        /// A position whose round is already over (the side to go is mated or stalemated)
        /// is no start: the game would begin with a decision nobody can take.
        fn parse_start(text: &str) -> Result<Position, String> {
            let position: Position = text.parse().map_err(|e: ChessElevenError| e.to_string())?;
            match position.round_end() {
                None => Ok(position),
                Some(end) => Err(format!(
                    "the round is already over in this position ({end}): start from a position a go can be at"
                )),
            }
        }

        fn parse_clock(text: &str) -> Result<ElevenClock, TimeControlError> {
            text.parse()
        }

        fn set_up(setup: &GameSetup) -> (Game, GameRecord, Clocks) {
            let clock = *Self::time_control(setup);
            let settings = clock.settings(setup.seed);
            let mut record = GameRecord::of::<Game>(&settings);
            record.tags.set("TimeControl", clock.to_string());
            let game = match Self::start_of(setup) {
                Some(position) => {
                    record.tags.set(crate::record::tags::SET_UP, "1");
                    record.tags.set(super::POSITION, position.to_string());
                    Game::from_position(settings, position.clone())
                }
                None => Game::new(settings),
            };
            (game, record, Clocks::starting(clock))
        }

        /// Counted halves, or none: the record holds no times.
        fn reproducible(setup: &GameSetup) -> bool {
            !matches!(Self::time_control(setup).halves, HalfClock::Timed(_))
        }

        fn grace(setup: &GameSetup) -> Duration {
            Self::time_control(setup).grace
        }

        /// Every go's decisions (a move, a pass, a shot or `end`, and a corner go's three:
        /// six at most) at the decision limit, every round's two formations, and a grace
        /// margin for each decision and each ask again after a bad reply. Rounds: at most
        /// one per go, plus half time; with timed halves the half clocks bound the goes'
        /// time and [`TIMED_ROUNDS`] rounds are counted.
        fn wall_bound(setup: &GameSetup) -> Duration {
            let c = *Self::time_control(setup);
            let asks_again = setup.max_illegal.saturating_mul(2);
            let grace_each = c.grace;
            let goes = match c.halves {
                HalfClock::Timed(half) => {
                    let rounds = TIMED_ROUNDS;
                    return half
                        .saturating_mul(2)
                        .saturating_add((c.formation + grace_each).saturating_mul(2 * rounds))
                        .saturating_add((c.decision + grace_each).saturating_mul(asks_again));
                }
                HalfClock::Goes(n) => 2 * u32::from(n),
                HalfClock::None => u32::from(c.cap),
            };
            let decisions = goes.saturating_mul(6).saturating_add(asks_again);
            let rounds = goes.saturating_add(2);
            (c.decision + grace_each)
                .saturating_mul(decisions)
                .saturating_add((c.formation + grace_each).saturating_mul(2 * rounds))
        }

        type Wire = ChessElevenWire;

        fn start(
            &self,
            setup: &GameSetup,
            _clocks: &Clocks,
            _side: Side,
        ) -> Start<ChessElevenWire> {
            Start {
                time_control: ElevenClockMsg::of(Self::time_control(setup)),
                situation: Self::start_of(setup).map(|p| p.to_string()),
            }
        }

        fn opens_play(&self) -> bool {
            matches!(self.decision(), Some((_, DecisionKind::Formation)))
        }

        fn budget(&self, clocks: &Clocks) -> Budget {
            let (side, kind) = self.decision().expect("a decision is pending");
            if kind == DecisionKind::Formation {
                return Budget::formation(side, clocks);
            }
            let own = clocks.clock.decision;
            match clocks.half_left {
                Some(left) if left < own => Budget {
                    side,
                    limit: left,
                    formation: false,
                    half_ends: true,
                },
                _ => Budget {
                    side,
                    limit: own,
                    formation: false,
                    half_ends: false,
                },
            }
        }

        /// White's formation is due first and Black's second; a request for a formation
        /// says nothing of the other (C11), so both are asked at once.
        fn sealed(&self, clocks: &Clocks) -> Option<(Side, Budget)> {
            (self.decision() == Some((Side::White, DecisionKind::Formation)))
                .then(|| (Side::Black, Budget::formation(Side::Black, clocks)))
        }

        fn limit(budget: &Budget) -> Duration {
            budget.limit
        }

        fn asked(&self, clocks: &Clocks, budget: &Budget, parts: Parts) -> Asked<ChessElevenWire> {
            let (_, kind) = self.decision().expect("a decision is pending");
            Asked {
                decision: kind.code().to_string(),
                state: parts.state.then(|| ElevenState::of(self, budget.side)),
                clocks: ElevenClocksMsg::of(clocks),
                legal: parts.legal.then(|| {
                    (kind != DecisionKind::Formation)
                        .then(|| self.legal().iter().map(|a| a.to_string()).collect())
                }),
                extra: NoExtra {},
            }
        }

        fn told(events: &[Event]) -> Vec<ElevenEvent> {
            events.iter().map(ElevenEvent::from).collect()
        }

        fn clock_note(clocks: &Clocks, budget: &Budget, elapsed: Duration) -> Option<u64> {
            let left = clocks.half_left?;
            let spent = if budget.formation {
                Duration::ZERO
            } else {
                elapsed
            };
            Some(left.saturating_sub(spent).as_millis() as u64)
        }

        /// A formation not given in time is the default (C48); the half clock running out
        /// ends the half (C41); any other decision not taken in time loses (C49). A bad
        /// reply changes nothing: the side is asked again.
        fn miss(
            &mut self,
            clocks: &mut Clocks,
            budget: &Budget,
            miss: Miss,
        ) -> Result<Missed<Event>, RefusedExpiry> {
            match miss {
                Miss::BadReply => Ok(Missed::AskAgain),
                Miss::Timeout if budget.formation => {
                    let events = self
                        .play(&Action::Formation(formation::default_for(budget.side)))
                        .map_err(|e| RefusedExpiry {
                            clock: Clock::Reaction,
                            reason: e.to_string(),
                        })?;
                    Ok(Missed::Consequence {
                        clock: Clock::Reaction,
                        events,
                    })
                }
                Miss::Timeout if budget.half_ends => {
                    clocks.half_left = Some(Duration::ZERO);
                    let events = self.half_clock_expired().map_err(|e| RefusedExpiry {
                        clock: Clock::Game,
                        reason: e.to_string(),
                    })?;
                    Ok(Missed::Consequence {
                        clock: Clock::Game,
                        events,
                    })
                }
                Miss::Timeout => Ok(Missed::LosesOnTime),
            }
        }

        fn charge(
            &mut self,
            clocks: &mut Clocks,
            budget: &Budget,
            elapsed: Duration,
            _events: &[Event],
        ) -> Result<(Vec<Event>, Option<Clock>), RefusedExpiry> {
            if budget.formation {
                return Ok((Vec::new(), None));
            }
            let Some(left) = clocks.half_left else {
                return Ok((Vec::new(), None));
            };
            let left = left.saturating_sub(elapsed);
            clocks.half_left = Some(left);
            // The half ends when its clock is out and the game is still in that half.
            if left.is_zero() && matches!(self.phase(), Phase::Play(_) | Phase::Forming(_)) {
                let events = self.half_clock_expired().map_err(|e| RefusedExpiry {
                    clock: Clock::Game,
                    reason: e.to_string(),
                })?;
                return Ok((events, Some(Clock::Game)));
            }
            Ok((Vec::new(), None))
        }

        /// Half time winds the half clock back up.
        fn follow(&self, clocks: &mut Clocks, events: &[Event]) {
            if events.iter().any(|e| matches!(e, Event::HalfTime)) {
                if let HalfClock::Timed(d) = clocks.clock.halves {
                    clocks.half_left = Some(d);
                }
            }
        }

        fn end_reason(&self) -> String {
            let [w, b] = self.score();
            match self.settings().goals {
                Some(n) if w >= n || b >= n => format!("goal target {n} reached, {w}-{b}"),
                _ => format!("full time, {w}-{b}"),
            }
        }
    }
}

mod check {
    //! `check-bot`'s side: a formation, a kick-off, a go with the ball, the rest of a go
    //! (pass, shot or end), a defending go, from seeded random games.

    use std::time::Duration;

    use crate::games::chess_eleven::game::{DecisionKind, Game, Phase, Settings};
    use crate::games::chess_eleven::playout::RandomPlayer;
    use crate::games::chess_eleven::position::Ball;
    use crate::rules::Side;
    use crate::seam::Checked;

    /// The moments check-bot asks about.
    const MOMENTS: [&str; 5] = [
        "formation decision",
        "go decision at a kick-off",
        "go decision with the ball",
        "go decision without the ball",
        "continue decision (pass, shot or end)",
    ];

    fn moment(game: &Game, side: Side) -> Option<usize> {
        let (s, kind) = game.decision()?;
        if s != side {
            return None;
        }
        match (kind, game.phase()) {
            (DecisionKind::Formation, _) => Some(0),
            (DecisionKind::Go, Phase::Play(p)) if p.ball() == Ball::Spot => Some(1),
            (DecisionKind::Go, Phase::Play(p)) if p.carrier_of(side).is_some() => Some(2),
            (DecisionKind::Go, Phase::Play(p)) if p.carrier_of(side.other()).is_some() => Some(3),
            (DecisionKind::Continue, _) => Some(4),
            _ => None,
        }
    }

    impl Checked for Game {
        const GAME_CLOCK: &'static str = "turns=20,move=1s,formation=5s";
        const SMOKE_CLOCK: &'static str = "turns=4,move=1s,formation=2s";

        fn question_clock(decision: Duration) -> String {
            let ms = decision.as_millis();
            format!("turns=20,move={ms}ms,formation={ms}ms")
        }

        fn scenarios(side: Side) -> Vec<(String, Game)> {
            let mut found: Vec<Option<Game>> = vec![None; MOMENTS.len()];
            for seed in 1..200u64 {
                let mut player = RandomPlayer::new(seed);
                let mut game = Game::new(Settings {
                    seed,
                    ..Settings::default()
                });
                while let Some(action) = player.choose(&game) {
                    if let Some(m) = moment(&game, side) {
                        found[m].get_or_insert_with(|| game.clone());
                    }
                    if game.play(&action).is_err() {
                        break;
                    }
                }
                if found.iter().all(Option::is_some) {
                    break;
                }
            }
            found
                .into_iter()
                .zip(MOMENTS)
                .filter_map(|(g, m)| Some((m.to_string(), g?)))
                .collect()
        }
    }
}
