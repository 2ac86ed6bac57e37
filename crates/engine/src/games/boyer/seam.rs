//! Boyer's Football behind the seam: its records (a block per turn, a `FEN` tag for a
//! position other than the start) and, in the referee, its chess clock.

use crate::games::boyer::rules::{Event, Game, Position};
use crate::record::{tags, RecordError, Recorded, Tags};
use crate::rules::GameResult;

/// The tag holding a set-up start position (with `SetUp "1"`), as PGN's own.
pub const FEN: &str = "FEN";

/// The edition of protocol/BOYER.md that records carry (tag `Rulings`).
pub const RULINGS_EDITION: &str = "1";

impl Recorded for Game {
    const RULINGS: &'static str = RULINGS_EDITION;

    fn settings_tags(start: &Position, tags: &mut Tags) {
        if *start != Position::start() {
            tags.set(tags::SET_UP, "1");
            tags.set(FEN, start.to_string());
        }
    }

    fn from_tags(tags: &Tags) -> Result<Game, RecordError> {
        let start = match tags.get(FEN) {
            None => Position::start(),
            Some(text) => text
                .parse::<Position>()
                .map_err(|e| RecordError::BadStart {
                    name: FEN,
                    value: crate::record::error_quote(text),
                    error: e.to_string(),
                })?,
        };
        Ok(Game::new(start))
    }

    fn header(&self) -> Option<String> {
        let pos = self.position();
        (self.outcome().is_none() && pos.at_turn_start())
            .then(|| format!("turn {}, {}", pos.turns() + 1, pos.turn()))
    }

    fn notable(event: &Event) -> bool {
        matches!(event, Event::GameOver { .. })
    }

    fn whereabouts(&self) -> String {
        self.position().to_string()
    }

    /// A draw. The game is won only by a goal, which ends it at once (B29-B31), so a game
    /// still going has no winner; the rules' own end for a game without a goal is a draw
    /// (B33-B35), and a capped game is ended the same way. (The ball's position would be a
    /// judgement the rules never make: a ball near a goal can still be kicked back.)
    fn adjudicate(&self) -> GameResult {
        GameResult::Draw
    }
}

mod referee {
    //! The referee's side: a chess clock (B36-B38) and the messages of its wire module.

    use std::time::Duration;

    use crate::games::boyer::rules::{BoyerError, Event, Game, Position, TURN_LIMIT};
    use crate::games::boyer::wire::{BoyerEvent, BoyerState, BoyerWire, ChessClockMsg, SideClocks};
    use crate::protocol::NoExtra;
    use crate::record::GameRecord;
    use crate::rules::{Clock, Side};
    use crate::seam::chess_clock::{ChessClock, ChessClocks, ChessTimeControl};
    use crate::seam::{
        Asked, GameSetup, Miss, Missed, Parts, Refereed, RefusedExpiry, Start, TimeControlError,
    };

    /// The most sub-moves one turn can hold: a piece move (B12), one kick by each of a
    /// side's 8 pieces (B15), and a `pass` (B14).
    pub(crate) const SUB_MOVES_PER_TURN: u32 = 10;

    /// The side deciding and the time it has.
    #[derive(Clone, Copy, Debug)]
    pub struct Turn {
        side: Side,
        limit: Duration,
    }

    impl Refereed for Game {
        type Clocks = ChessClocks;
        type Budget = Turn;
        const DEFAULT_CLOCK: &'static str = "rapid";

        type TimeControl = ChessClock;

        /// A position in the reference's FEN (as the record's `FEN` tag).
        type Start = Position;

        fn parse_start(text: &str) -> Result<Position, String> {
            text.parse().map_err(|e: BoyerError| e.to_string())
        }

        fn parse_clock(text: &str) -> Result<ChessClock, TimeControlError> {
            text.parse()
        }

        fn set_up(setup: &GameSetup) -> (Game, GameRecord, ChessClocks) {
            let start = Self::start_of(setup)
                .cloned()
                .unwrap_or_else(Position::start);
            let mut record = GameRecord::of::<Game>(&start);
            let clock = *Self::time_control(setup);
            record.tags.set("TimeControl", clock.to_string());
            (Game::new(start), record, ChessClocks::starting(clock))
        }

        /// A Boyer record holds no times (thinking times are in the transcript), so the
        /// same seed and deterministic bots give the same bytes whatever the clock.
        fn reproducible(_setup: &GameSetup) -> bool {
            true
        }

        fn grace(setup: &GameSetup) -> Duration {
            Self::time_control(setup).grace
        }

        /// A game lasts at most [`TURN_LIMIT`] turns (B34). With a bank, both banks and
        /// every increment; with a time per turn, that time each turn; and either way one
        /// grace margin for every sub-move asked (each may overrun its time by the grace
        /// before it counts as missed): [`SUB_MOVES_PER_TURN`] a turn, and the asks again
        /// after bad replies below the forfeit limit (B38), for both sides.
        fn wall_bound(setup: &GameSetup) -> Duration {
            let c = *Self::time_control(setup);
            let asks = TURN_LIMIT
                .saturating_mul(SUB_MOVES_PER_TURN)
                .saturating_add(setup.max_illegal.saturating_mul(2));
            let thinking = match c.control {
                ChessTimeControl::Bank { bank, increment } => bank
                    .saturating_mul(2)
                    .saturating_add(increment.saturating_mul(TURN_LIMIT)),
                ChessTimeControl::PerTurn(turn) => turn.saturating_mul(TURN_LIMIT),
            };
            thinking.saturating_add(c.grace.saturating_mul(asks))
        }

        type Wire = BoyerWire;

        fn start(&self, setup: &GameSetup, _clocks: &ChessClocks, _side: Side) -> Start<BoyerWire> {
            let ms = |d: Duration| Some(d.as_millis() as u64);
            let c = *Self::time_control(setup);
            let (bank_ms, increment_ms, turn_ms) = match c.control {
                ChessTimeControl::Bank { bank, increment } => (ms(bank), ms(increment), None),
                ChessTimeControl::PerTurn(t) => (None, None, ms(t)),
            };
            Start {
                time_control: ChessClockMsg {
                    bank_ms,
                    increment_ms,
                    turn_ms,
                    grace_ms: c.grace.as_millis() as u64,
                },
                situation: Self::start_of(setup).map(|p| p.to_string()),
            }
        }

        fn budget(&self, clocks: &ChessClocks) -> Turn {
            let side = self.position().turn();
            Turn {
                side,
                limit: clocks.limit(side),
            }
        }

        fn limit(budget: &Turn) -> Duration {
            budget.limit
        }

        fn asked(&self, clocks: &ChessClocks, _budget: &Turn, parts: Parts) -> Asked<BoyerWire> {
            let ms = |side: Side| clocks.limit(side).as_millis() as u64;
            Asked {
                decision: "sub_move".to_string(),
                state: parts.state.then(|| BoyerState::of(self.position())),
                clocks: SideClocks {
                    white_ms: ms(Side::White),
                    black_ms: ms(Side::Black),
                },
                legal: parts
                    .legal
                    .then(|| self.legal().iter().map(|s| s.to_string()).collect()),
                extra: NoExtra {},
            }
        }

        fn told(events: &[Event]) -> Vec<BoyerEvent> {
            events.iter().map(BoyerEvent::from).collect()
        }

        fn clock_note(_: &ChessClocks, _: &Turn, _: Duration) -> Option<u64> {
            None
        }

        /// A timeout loses (B37); a bad reply below the limit changes nothing and the side
        /// is asked again on its running clock (B38).
        fn miss(
            &mut self,
            clocks: &mut ChessClocks,
            budget: &Turn,
            miss: Miss,
        ) -> Result<Missed<Event>, RefusedExpiry> {
            Ok(match miss {
                Miss::Timeout => {
                    clocks.charge(budget.side, budget.limit);
                    Missed::LosesOnTime
                }
                Miss::BadReply => Missed::AskAgain,
            })
        }

        fn charge(
            &mut self,
            clocks: &mut ChessClocks,
            budget: &Turn,
            elapsed: Duration,
            _events: &[Event],
        ) -> Result<(Vec<Event>, Option<Clock>), RefusedExpiry> {
            clocks.charge(budget.side, elapsed);
            Ok((Vec::new(), None))
        }

        fn follow(&self, clocks: &mut ChessClocks, events: &[Event]) {
            for e in events {
                if let Event::TurnOver { next } = e {
                    clocks.turn_over(next.other());
                }
            }
        }

        fn end_reason(&self) -> String {
            match self.outcome() {
                Some(outcome) => outcome.to_string(),
                None => "the game is not over".to_string(),
            }
        }
    }
}

mod check {
    //! `check-bot`'s side: the three moments of a turn a bot meets (its start, after the
    //! piece move, after a kick), from seeded random games.

    use std::time::Duration;

    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::games::boyer::rules::{Game, Position, SubMove};
    use crate::rules::Side;
    use crate::seam::Checked;

    /// Where in its turn a side decides.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Moment {
        TurnStart,
        AfterMove,
        AfterKick,
    }

    impl Moment {
        const ALL: [Moment; 3] = [Moment::TurnStart, Moment::AfterMove, Moment::AfterKick];

        fn of(pos: &Position) -> Moment {
            if pos.at_turn_start() {
                Moment::TurnStart
            } else if pos.kicked().is_empty() {
                Moment::AfterMove
            } else {
                Moment::AfterKick
            }
        }

        fn words(self) -> &'static str {
            match self {
                Moment::TurnStart => "sub_move decision at the start of a turn",
                Moment::AfterMove => "sub_move decision after the piece move",
                Moment::AfterKick => "sub_move decision after a kick",
            }
        }
    }

    impl Checked for Game {
        // Quick games: a bot that thinks needs little of it.
        const GAME_CLOCK: &'static str = "bank=30s,inc=1s";
        /// A second a turn: the bot's whole game is bounded, as Football Chess's four plays.
        const SMOKE_CLOCK: &'static str = "turn=1s";

        fn question_clock(decision: Duration) -> String {
            format!("turn={}ms", decision.as_millis())
        }

        fn scenarios(side: Side) -> Vec<(String, Game)> {
            let mut found: Vec<(Moment, Game)> = Vec::new();
            for seed in 1..200u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut game = Game::new(Position::start());
                for _ in 0..2000 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let pos = game.position();
                    let moment = Moment::of(pos);
                    if pos.turn() == side && !found.iter().any(|(m, _)| *m == moment) {
                        found.push((moment, game.clone()));
                    }
                    // Kicks first where there are some, so that every moment comes soon.
                    let legal = game.legal();
                    let kicks: Vec<SubMove> = legal
                        .iter()
                        .copied()
                        .filter(|s| matches!(s, SubMove::Kick { .. }))
                        .collect();
                    let pool = if kicks.is_empty() || seed % 2 == 0 {
                        &legal
                    } else {
                        &kicks
                    };
                    let Some(&sub) = pool.choose(&mut rng) else {
                        break;
                    };
                    if game.play(sub).is_err() {
                        break;
                    }
                }
                if found.len() == Moment::ALL.len() {
                    break;
                }
            }
            found.sort_by_key(|(m, _)| Moment::ALL.iter().position(|x| x == m));
            found
                .into_iter()
                .map(|(m, game)| (m.words().to_string(), game))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::games::boyer::rules::{Game, Position};
    use crate::record::Recorded;
    use crate::rules::{GameResult, Rules};
    use crate::seam::GameSetup;

    #[test]
    fn a_capped_game_is_a_draw_wherever_the_ball_is() {
        assert_eq!(Game::new(Position::start()).adjudicate(), GameResult::Draw);
        // The ball a step from a goal: still no goal, still a draw.
        let near: Position = "rnbq1knbr/9/9/9/9/9/9/4a4/RNBQ1KNBR w 12".parse().unwrap();
        assert_eq!(Game::new(near).adjudicate(), GameResult::Draw);
    }

    /// 400 turns, 10 sub-moves a turn and 2 x 3 asks again, each with its grace margin.
    #[test]
    fn the_default_cap_comes_from_the_chess_clock_and_the_turn_limit() {
        let cap = |clock: &str| {
            let mut cfg = GameSetup::of(Rules::BoyerFootball);
            cfg.read_clock(clock).unwrap();
            cfg.game_time_cap().unwrap()
        };
        let ms = Duration::from_millis;
        // rapid: 2 x 60 s + 400 x 1 s + 4006 x 100 ms = 920.6 s; x 2 + 60 s.
        assert_eq!(cap("rapid"), ms(2 * 920_600 + 60_000));
        // 400 x 2 s + 4006 x 50 ms = 1000.3 s; x 2 + 60 s.
        assert_eq!(cap("turn=2s,grace=50ms"), ms(2 * 1_000_300 + 60_000));
    }
}
