//! Football Chess behind the seam: its records (plays as blocks, the quarter length and
//! the start situation as tags) and, in the referee, its three clocks.

use crate::record::{notes, tags, RecordError, Recorded, Tags};
use crate::rules::{Event, Game, GameResult, Settings, Side};

pub use referee::request;

impl Recorded for Game {
    const RULINGS: &'static str = crate::rules::RULINGS_EDITION;

    fn settings_tags(settings: &Settings, tags: &mut Tags) {
        tags.set(tags::QUARTER_LENGTH, tags::quarter_length_value(*settings));
    }

    fn from_tags(tags: &Tags) -> Result<Game, RecordError> {
        let settings = tags::settings_from(tags)?;
        Ok(match tags::situation_from(tags)? {
            Some(s) => Game::from_situation(settings, &s),
            None => Game::new(settings),
        })
    }

    fn header(&self) -> Option<String> {
        notes::play_header(self)
    }

    fn notable(event: &Event) -> bool {
        notes::is_notable(event)
    }

    fn whereabouts(&self) -> String {
        notes::situation(self)
    }

    fn starts_play(event: &Event) -> bool {
        matches!(event, Event::Snap { .. } | Event::SnapFumbled { .. })
    }

    /// The team ahead on score wins; an equal score is a draw. The score is the one measure
    /// of a game in progress that the rules themselves keep, and the one a game that ran to
    /// its end would be decided by (R16); field position or possession would be a judgement
    /// the rules never make.
    fn adjudicate(&self) -> GameResult {
        match self.score(Side::White).cmp(&self.score(Side::Black)) {
            std::cmp::Ordering::Greater => GameResult::Win(Side::White),
            std::cmp::Ordering::Less => GameResult::Win(Side::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }
}

mod referee {
    //! The referee's side: the three clocks of rule 6 and the messages of PROTOCOL.md.

    use std::time::Duration;

    use crate::games::football_chess::wire::{
        penalty, ClockMsg, ClocksMsg, FootballChessWire, RequestExtra, StateMsg, TimeControlMsg,
        ToBot,
    };
    use crate::record::GameRecord;
    use crate::rules::{Clock, Event, Game, Side};
    use crate::seam::{
        envelope, Asked, Budget, Clocks, GameSetup, Miss, Missed, Parts, QuarterMode, Refereed,
        RefusedExpiry, Start, TimeControl, TimeControlError,
    };

    impl Refereed for Game {
        type Clocks = Clocks;
        type Budget = Budget;
        // Plays per quarter: the game is a count of plays, its record reproducible.
        const DEFAULT_CLOCK: &'static str = "plays=10,play=5s,reaction=1s";
        const SITUATIONS: bool = true;
        const TIME_ODDS: bool = true;

        type TimeControl = TimeControl;

        /// A drive's start situation (protocol/SITUATIONS.md).
        type Start = crate::rules::Situation;

        fn parse_start(text: &str) -> Result<crate::rules::Situation, String> {
            text.parse()
                .map_err(|e: crate::rules::SituationError| e.to_string())
        }

        fn parse_clock(text: &str) -> Result<TimeControl, TimeControlError> {
            TimeControl::parse(text)
        }

        fn set_up(setup: &GameSetup) -> (Game, GameRecord, Clocks) {
            let tc = *Self::time_control(setup);
            let settings = tc.settings();
            let mut record = GameRecord::new(settings);
            let situation = Self::start_of(setup);
            if let Some(situation) = situation {
                record.set_situation(situation);
            }
            record.tags.set("TimeControl", tc.to_string());
            let game = match situation {
                Some(s) => Game::from_situation(settings, s),
                None => Game::new(settings),
            };
            let clocks = Clocks::starting(tc, setup.odds, situation);
            (game, record, clocks)
        }

        fn late_tags(setup: &GameSetup, record: &mut GameRecord) {
            let tc = *Self::time_control(setup);
            for (side, odds) in Side::ALL.into_iter().zip(setup.odds) {
                if !odds.is_none() {
                    let tag = match side {
                        Side::White => "WhiteTimeControl",
                        Side::Black => "BlackTimeControl",
                    };
                    record.tags.set(tag, odds.apply_to(tc).to_string());
                }
            }
        }

        // Quarters counted in plays make a game reproducible.
        fn reproducible(setup: &GameSetup) -> bool {
            matches!(Self::time_control(setup).quarter, QuarterMode::Plays(_))
        }

        fn grace(setup: &GameSetup) -> Duration {
            Self::time_control(setup).grace
        }

        /// The time control's own bound ([`TimeControl::wall_bound`], GAME.md), for the
        /// slower of each clock when the sides have time odds: a bound for either side
        /// bounds the game.
        fn wall_bound(setup: &GameSetup) -> Duration {
            let tc = *Self::time_control(setup);
            let [w, b] = setup.odds.map(|odds| odds.apply_to(tc));
            TimeControl {
                play: w.play.max(b.play),
                reaction: w.reaction.max(b.reaction),
                ..tc
            }
            .wall_bound()
        }

        type Wire = FootballChessWire;

        fn start(
            &self,
            setup: &GameSetup,
            clocks: &Clocks,
            side: Side,
        ) -> Start<FootballChessWire> {
            // A bot with time odds is told its own clocks.
            let tc = clocks.sides[side.index()];
            Start {
                time_control: TimeControlMsg {
                    quarter_ms: match tc.quarter {
                        QuarterMode::Timed(q) => Some(q.as_millis() as u64),
                        QuarterMode::Plays(_) => None,
                    },
                    plays_per_quarter: match tc.quarter {
                        QuarterMode::Plays(n) => Some(n),
                        QuarterMode::Timed(_) => None,
                    },
                    play_ms: tc.play.as_millis() as u64,
                    reaction_ms: tc.reaction.as_millis() as u64,
                    grace_ms: tc.grace.as_millis() as u64,
                },
                situation: Self::start_of(setup).map(|s| s.to_string()),
            }
        }

        fn opens_play(&self) -> bool {
            self.decision()
                .is_some_and(|d| d.kind == crate::rules::DecisionKind::Formation)
        }

        fn budget(&self, clocks: &Clocks) -> Budget {
            clocks.budget(self)
        }

        fn limit(budget: &Budget) -> Duration {
            budget.limit
        }

        fn asked(
            &self,
            clocks: &Clocks,
            budget: &Budget,
            parts: Parts,
        ) -> Asked<FootballChessWire> {
            asked(self, clocks, budget, parts)
        }

        fn told(events: &[Event]) -> Vec<Event> {
            events.to_vec()
        }

        fn clock_note(clocks: &Clocks, budget: &Budget, elapsed: Duration) -> Option<u64> {
            clocks.game_left.map(|g| {
                let mut spent = Duration::ZERO;
                if budget.game_clock {
                    spent += elapsed;
                }
                if budget.tick {
                    spent += clocks.tick();
                }
                g.saturating_sub(spent).as_millis() as u64
            })
        }

        fn miss(
            &mut self,
            clocks: &mut Clocks,
            budget: &Budget,
            miss: Miss,
        ) -> Result<Missed<Event>, RefusedExpiry> {
            let clock = match (miss, budget.expires) {
                // The game clock is not the decision's own: an illegal pre-snap reply is a
                // delay of game.
                (Miss::BadReply, Clock::Game) => Clock::Play,
                (_, c) => c,
            };
            if clock == Clock::Game {
                // Reported here, so not again when the decision's time is charged.
                clocks.game_left = clocks.game_left.map(|_| Duration::ZERO);
            }
            expire(self, clock).map(|events| Missed::Consequence { clock, events })
        }

        fn charge(
            &mut self,
            clocks: &mut Clocks,
            budget: &Budget,
            elapsed: Duration,
            events: &[Event],
        ) -> Result<(Vec<Event>, Option<Clock>), RefusedExpiry> {
            // Dead-ball fouls: before the snap every enforcement is one (R70's runoff).
            let fouls = if budget.pre_snap {
                events
                    .iter()
                    .filter(|e| matches!(e, Event::PenaltyEnforced(_)))
                    .count() as u32
            } else {
                0
            };
            // A decision that ended the quarter leaves the next quarter's clock untouched.
            let same_quarter = self.quarter() == budget.quarter && !self.is_over();
            if clocks.charge(budget, elapsed, fouls) && same_quarter {
                expire(self, Clock::Game).map(|events| (events, Some(Clock::Game)))
            } else {
                Ok((Vec::new(), None))
            }
        }

        /// New plays restart the play clock; new quarters the game clock.
        fn follow(&self, clocks: &mut Clocks, events: &[Event]) {
            for e in events {
                match e {
                    Event::PeriodEnd { .. } => clocks.new_quarter(self.offense()),
                    Event::NextPlay { .. } => clocks.new_play(self.offense()),
                    _ => {}
                }
            }
        }

        fn end_reason(&self) -> String {
            "four quarters played".to_string()
        }
    }

    /// A clock's consequence, applied; the engine refusing it is the referee's fault.
    fn expire(game: &mut Game, clock: Clock) -> Result<Vec<Event>, RefusedExpiry> {
        game.expire(clock)
            .map(|events| events.to_vec())
            .map_err(|e| RefusedExpiry {
                clock,
                reason: e.to_string(),
            })
    }

    /// The request for the decision `game` asks for now, exactly as a bot receives it.
    pub fn request(game: &Game, id: u64, clocks: &Clocks, budget: &Budget) -> ToBot {
        let side = game.decision().expect("a decision is pending").side;
        envelope::request(game, id, side, clocks, budget, envelope::Carry::whole())
    }

    /// What the request for the decision `game` asks for now says of the game.
    fn asked(
        game: &Game,
        clocks: &Clocks,
        budget: &Budget,
        parts: Parts,
    ) -> Asked<FootballChessWire> {
        let decision = game.decision().expect("a decision is pending");
        let legal = parts.legal.then(|| match decision.kind {
            crate::rules::DecisionKind::Formation => None,
            _ => Some(game.legal_action_list()),
        });
        let ms = |d: Duration| Some(d.as_millis() as u64);
        let clocks_msg = ClocksMsg {
            game: clocks.game_left.map(|g| ClockMsg {
                owner: "both".to_string(),
                remaining_ms: ms(g),
                running: budget.game_clock,
            }),
            play: ClockMsg {
                owner: game.offense().to_string(),
                remaining_ms: ms(clocks.play_left),
                running: budget.play_clock,
            },
            reaction: ClockMsg {
                owner: decision.side.to_string(),
                remaining_ms: ms(clocks.reaction_for(decision.side)),
                running: budget.expires == Clock::Reaction,
            },
        };
        Asked {
            decision: decision.kind,
            state: parts.state.then(|| StateMsg::of(game)),
            clocks: clocks_msg,
            legal,
            extra: RequestExtra {
                penalty_options: penalty::preview(game),
            },
        }
    }
}

mod check {
    //! `check-bot`'s side: a position for every kind of decision, and the flag a legal
    //! formation would draw.

    use std::time::Duration;

    use crate::rules::playout::RandomPlayer;
    use crate::rules::{
        Action, ActionList, Decision, DecisionKind, FormationCheck, Game, Settings, Side,
    };
    use crate::seam::Checked;

    impl Checked for Game {
        // Short games with the clocks of a real one.
        const GAME_CLOCK: &'static str = "plays=4,play=5s,reaction=1s";
        const SMOKE_CLOCK: &'static str = "plays=4,play=5s,reaction=1s";

        fn question_clock(decision: Duration) -> String {
            let ms = decision.as_millis();
            format!("plays=4,play={ms}ms,reaction={ms}ms")
        }

        /// From seeded random games, so that every kind really occurs.
        fn scenarios(side: Side) -> Vec<(String, Game)> {
            let wanted: Vec<DecisionKind> = DecisionKind::ALL
                .into_iter()
                .filter(|k| match (side, k) {
                    // Who meets what: the offense forms first and moves in motion; the
                    // defense reacts.
                    (Side::Black, DecisionKind::MotionOrSnap)
                    | (Side::White, DecisionKind::Reaction) => false,
                    _ => true,
                })
                .collect();
            let mut found: Vec<(DecisionKind, Game)> = Vec::new();
            let mut list = ActionList::new();
            for seed in 1..200u64 {
                let mut game = Game::new(Settings::plays(4));
                let mut player = RandomPlayer::new(seed);
                let mut steps = 0;
                while let Some(Decision { side: s, kind }) = game.decision() {
                    if s == side && wanted.contains(&kind) && !found.iter().any(|(k, _)| *k == kind)
                    {
                        found.push((kind, game.clone()));
                    }
                    let Some(action) = player.choose(&game, &mut list) else {
                        break;
                    };
                    if game.apply(&action).is_err() || steps > 5000 {
                        break;
                    }
                    steps += 1;
                }
                if found.len() == wanted.len() {
                    break;
                }
            }
            found.sort_by_key(|(k, _)| DecisionKind::ALL.iter().position(|x| x == k));
            found
                .into_iter()
                .map(|(kind, game)| (format!("{} decision", kind.code()), game))
                .collect()
        }

        fn advice(&self, action: &Action) -> Option<String> {
            match action {
                Action::Formation(f) => match self.validate_formation(f) {
                    Err(FormationCheck::Fault(fault)) => Some(format!(
                        "formation '{action}' is legal but draws a flag: {fault}"
                    )),
                    _ => None,
                },
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::record::Recorded;
    use crate::rules::{Game, GameResult, Side};
    use crate::seam::{cap, GameClock, GameSetup, TimeControl, TimeOdds};

    fn at_score(score: &str) -> Game {
        Game::from_diagram(&format!(
            "offense: white\nphase: motion\nspot: e5\nscore: {score}\n8 . . . . . . . .\n7 . . . . . . . .\n6 . . p p p p . .\n5 . . . P P . . .\n4 . . . . K . . .\n3 . . . . Q . . .\n2 . . . . . . . .\n1 . . . . . . . .\n"
        ))
        .unwrap()
    }

    #[test]
    fn a_capped_game_goes_to_the_team_ahead_on_score_and_a_tie_is_a_draw() {
        assert_eq!(at_score("14-7").adjudicate(), GameResult::Win(Side::White));
        assert_eq!(at_score("3-10").adjudicate(), GameResult::Win(Side::Black));
        assert_eq!(at_score("7-7").adjudicate(), GameResult::Draw);
        assert_eq!(at_score("0-0").adjudicate(), GameResult::Draw);
    }

    #[test]
    fn the_default_cap_is_twice_the_time_controls_wall_bound_plus_a_minute() {
        let tc = TimeControl::parse("quarter=60s,play=5s,reaction=1s").unwrap();
        let cfg = GameSetup {
            clock: GameClock::new::<Game>(tc),
            ..GameSetup::default()
        };
        let bound = tc.wall_bound();
        assert_eq!(
            cfg.game_time_cap(),
            Some(bound * 2 + Duration::from_secs(60))
        );
        assert_eq!(cfg.game_time_cap(), Some(cap::with_margin(bound)));
        // The default clock, plays=10,play=5s,reaction=1s,grace=100ms: 17,017.6 s of
        // decisions at most (4 quarters of 19 plays, 197 formation rounds and 2,811
        // reaction decisions, clock.rs), so a cap of 34,095.2 s.
        let default = GameSetup::default_clock(crate::rules::Rules::FootballChess);
        let tc = TimeControl::parse(default).unwrap();
        assert_eq!(tc.wall_bound(), Duration::from_millis(17_017_600));
        let cfg_default = GameSetup::of(crate::rules::Rules::FootballChess);
        assert_eq!(cfg_default.clock, GameClock::new::<Game>(tc));
        assert_eq!(
            cfg_default.game_time_cap(),
            Some(Duration::from_millis(34_095_200))
        );
        // Time odds: the slower of each clock bounds the game.
        let odds = GameSetup {
            odds: [
                TimeOdds::parse("play=9s").unwrap(),
                TimeOdds::parse("reaction=3s").unwrap(),
            ],
            ..cfg.clone()
        };
        let slower = TimeControl::parse("quarter=60s,play=9s,reaction=3s").unwrap();
        assert_eq!(
            odds.game_time_cap(),
            Some(cap::with_margin(slower.wall_bound()))
        );
        // Set by hand, or off.
        let set = GameSetup {
            max_game_time: "25m".parse().unwrap(),
            ..cfg.clone()
        };
        assert_eq!(set.game_time_cap(), Some(Duration::from_secs(1500)));
        let off = GameSetup {
            max_game_time: "none".parse().unwrap(),
            ..cfg
        };
        assert_eq!(off.game_time_cap(), None);
    }
}
