//! The three clocks of rule 6 as plain arithmetic over durations: which clocks run for a
//! decision, what limit binds it, what expires first, and what a decision's time costs.
//!
//! Nothing here reads a clock; the game loop measures and this module decides.

use std::fmt;
use std::time::Duration;

use crate::rules::{Clock, Game, Phase, QuarterLength, Settings, Side};

/// How quarters end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuarterMode {
    /// Wall time of the game clock.
    Timed(Duration),
    /// A number of plays (R18): reproducible, no game clock.
    Plays(u16),
}

/// A time control: the clocks of rule 6.1 plus the grace margin for scheduler jitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub quarter: QuarterMode,
    pub play: Duration,
    pub reaction: Duration,
    /// Extra time the referee waits past a deadline before calling it missed.
    pub grace: Duration,
}

/// A time control that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("unknown time control item '{0}': use blitz, standard, unlimited, or key=value with keys quarter, plays, play, reaction, grace")]
    UnknownItem(String),
    #[error("'{0}' is not a duration: write it like 500ms, 20s, 2m, 1.5s or 1d")]
    BadDuration(String),
    #[error("'{0}' is not a number of plays (1..=1000)")]
    BadPlays(String),
    #[error("{0} must be longer than zero")]
    Zero(&'static str),
    #[error("give either quarter=DURATION or plays=N, not both")]
    BothQuarterKinds,
    #[error("unknown time odds item '{0}': use play=DURATION and/or reaction=DURATION")]
    UnknownOdds(String),
    #[error("'{0}' is given twice: give each item once")]
    Duplicate(String),
    #[error("unknown chess clock item '{0}': use rapid, blitz, or key=value with keys bank, inc, turn, grace")]
    UnknownChessItem(String),
    #[error("give either bank=DURATION[,inc=DURATION] or turn=DURATION, not both")]
    BankAndTurn,
    /// Another game's clock refused the text, in that game's words.
    #[error("{0}")]
    Game(String),
}

const MS: fn(u64) -> Duration = Duration::from_millis;

impl TimeControl {
    /// Short, fast games (6.5).
    pub const fn blitz() -> TimeControl {
        TimeControl {
            quarter: QuarterMode::Timed(Duration::from_secs(120)),
            play: Duration::from_secs(5),
            reaction: Duration::from_secs(1),
            grace: Duration::from_millis(100),
        }
    }
    /// Balanced, football-like timing (6.5).
    pub const fn standard() -> TimeControl {
        TimeControl {
            quarter: QuarterMode::Timed(Duration::from_secs(600)),
            play: Duration::from_secs(20),
            reaction: Duration::from_secs(5),
            grace: Duration::from_millis(100),
        }
    }
    /// No game or play clock pressure; reaction clocks still keep the game moving (6.5).
    /// Quarters are 15 plays; the 5-minute play clock only guards against a hung bot.
    pub const fn unlimited() -> TimeControl {
        TimeControl {
            quarter: QuarterMode::Plays(15),
            play: Duration::from_secs(300),
            reaction: Duration::from_secs(10),
            grace: Duration::from_millis(100),
        }
    }

    /// Reads `blitz`, `standard`, `unlimited`, or `key=value` items separated by commas,
    /// optionally after a preset: `blitz,reaction=2s`, `quarter=20s,play=2s,reaction=500ms`,
    /// `plays=10,play=2s,reaction=500ms,grace=50ms`. Unset keys come from the preset
    /// (blitz when none is named).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let mut tc = TimeControl::blitz();
        let (mut quarter, mut plays) = (None, None);
        let mut seen: Vec<&str> = Vec::new();
        for (i, item) in text.split(',').map(str::trim).enumerate() {
            // A key given twice is a mistake to point out, not a silent "last one wins".
            if let Some((k, _)) = item.split_once('=') {
                if seen.contains(&k.trim()) {
                    return Err(TimeControlError::Duplicate(k.trim().to_string()));
                }
                seen.push(k.trim());
            }
            match (i, item) {
                (0, "blitz") => tc = TimeControl::blitz(),
                (0, "standard") => tc = TimeControl::standard(),
                (0, "unlimited") => tc = TimeControl::unlimited(),
                _ => {
                    let (k, v) = item
                        .split_once('=')
                        .ok_or_else(|| TimeControlError::UnknownItem(item.to_string()))?;
                    match k.trim() {
                        "quarter" => quarter = Some(positive(parse_duration(v)?, "quarter")?),
                        "plays" => {
                            let n: u16 =
                                v.trim()
                                    .parse()
                                    .ok()
                                    .filter(|n| (1..=1000).contains(n))
                                    .ok_or_else(|| TimeControlError::BadPlays(v.to_string()))?;
                            plays = Some(n);
                        }
                        "play" => tc.play = positive(parse_duration(v)?, "play")?,
                        "reaction" => tc.reaction = positive(parse_duration(v)?, "reaction")?,
                        "grace" => tc.grace = parse_duration(v)?,
                        _ => return Err(TimeControlError::UnknownItem(item.to_string())),
                    }
                }
            }
        }
        match (quarter, plays) {
            (Some(_), Some(_)) => return Err(TimeControlError::BothQuarterKinds),
            (Some(q), None) => tc.quarter = QuarterMode::Timed(q),
            (None, Some(n)) => tc.quarter = QuarterMode::Plays(n),
            (None, None) => {}
        }
        Ok(tc)
    }

    /// The engine settings this time control plays under.
    pub fn settings(&self) -> Settings {
        match self.quarter {
            QuarterMode::Timed(_) => Settings::timed(),
            QuarterMode::Plays(n) => Settings::plays(n),
        }
    }
}

fn positive(d: Duration, what: &'static str) -> Result<Duration, TimeControlError> {
    if d.is_zero() {
        Err(TimeControlError::Zero(what))
    } else {
        Ok(d)
    }
}

/// `500ms`, `20s`, `1.5s`, `2m`, `1h`, `1d`.
pub fn parse_duration(text: &str) -> Result<Duration, TimeControlError> {
    let t = text.trim();
    let bad = || TimeControlError::BadDuration(text.to_string());
    let (num, scale_ms) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3_600_000.0)
    } else if let Some(n) = t.strip_suffix('d') {
        (n, 86_400_000.0)
    } else {
        return Err(bad());
    };
    let value: f64 = num.parse().map_err(|_| bad())?;
    if !value.is_finite() || value < 0.0 || value * scale_ms > 1e12 {
        return Err(bad());
    }
    Ok(MS((value * scale_ms).round() as u64))
}

pub(crate) fn fmt_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

impl fmt::Display for TimeControl {
    /// The canonical `key=value` form, which [`TimeControl::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.quarter {
            QuarterMode::Timed(q) => write!(f, "quarter={}", fmt_duration(q))?,
            QuarterMode::Plays(n) => write!(f, "plays={n}")?,
        }
        write!(
            f,
            ",play={},reaction={},grace={}",
            fmt_duration(self.play),
            fmt_duration(self.reaction),
            fmt_duration(self.grace)
        )
    }
}

/// Time odds for one bot: its own play clock (when it has the ball) and reaction clock
/// (each of its decisions that the reaction clock bounds), in place of the time control's.
/// The game clock stays common: both teams play the same quarters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeOdds {
    pub play: Option<Duration>,
    pub reaction: Option<Duration>,
}

impl TimeOdds {
    /// Reads `play=2s,reaction=500ms` (either item may be left out).
    pub fn parse(text: &str) -> Result<TimeOdds, TimeControlError> {
        let mut odds = TimeOdds::default();
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if let Some((k, _)) = item.split_once('=') {
                if seen.contains(&k.trim()) {
                    return Err(TimeControlError::Duplicate(k.trim().to_string()));
                }
                seen.push(k.trim());
            }
            match item.split_once('=').map(|(k, v)| (k.trim(), v)) {
                Some(("play", v)) => odds.play = Some(positive(parse_duration(v)?, "play")?),
                Some(("reaction", v)) => {
                    odds.reaction = Some(positive(parse_duration(v)?, "reaction")?)
                }
                _ => return Err(TimeControlError::UnknownOdds(item.to_string())),
            }
        }
        Ok(odds)
    }

    pub fn is_none(&self) -> bool {
        self.play.is_none() && self.reaction.is_none()
    }

    /// The time control this bot plays under.
    pub fn apply_to(&self, tc: TimeControl) -> TimeControl {
        TimeControl {
            play: self.play.unwrap_or(tc.play),
            reaction: self.reaction.unwrap_or(tc.reaction),
            ..tc
        }
    }
}

impl fmt::Display for TimeOdds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = [
            self.play.map(|d| format!("play={}", fmt_duration(d))),
            self.reaction
                .map(|d| format!("reaction={}", fmt_duration(d))),
        ]
        .into_iter()
        .flatten()
        .collect();
        f.write_str(&items.join(","))
    }
}

/// What one decision may take and which clocks it spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time the bot is told it has.
    pub limit: Duration,
    /// The clock whose consequence applies if the bot does not answer in time.
    pub expires: Clock,
    /// The decision's time runs the play clock (offense before the snap).
    pub play_clock: bool,
    /// The decision's time runs the game clock (the offense thinking before the snap while
    /// the clock runs, R17).
    pub game_clock: bool,
    /// The decision is an action-phase turn: it takes one tick of the game clock, whoever
    /// takes it and however long it took (R70).
    pub tick: bool,
    /// The decision comes before the snap: every dead-ball foul it leads to takes one tick
    /// (R70's runoff).
    pub pre_snap: bool,
    /// The quarter the decision was asked in.
    pub quarter: u8,
}

/// The clocks of one game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub tc: TimeControl,
    /// Each side's clocks after its time odds (index: [`Side::index`]).
    pub sides: [TimeControl; 2],
    /// Left in this quarter (timed quarters only).
    pub game_left: Option<Duration>,
    /// Left for the offense to snap in this play.
    pub play_left: Duration,
}

impl Clocks {
    pub fn new(tc: TimeControl) -> Clocks {
        Clocks::with_odds(tc, [TimeOdds::default(); 2])
    }

    /// Clocks where each side may have its own play and reaction clocks.
    pub(crate) fn with_odds(tc: TimeControl, odds: [TimeOdds; 2]) -> Clocks {
        Clocks {
            tc,
            sides: [odds[0].apply_to(tc), odds[1].apply_to(tc)],
            game_left: match tc.quarter {
                QuarterMode::Timed(q) => Some(q),
                QuarterMode::Plays(_) => None,
            },
            // White has the first possession (R1).
            play_left: odds[0].apply_to(tc).play,
        }
    }

    /// The clocks of a game that starts from `situation` (if any): its offense's play
    /// clock, and with timed quarters its share of the quarter on the game clock.
    pub fn starting(
        tc: TimeControl,
        odds: [TimeOdds; 2],
        situation: Option<&crate::rules::Situation>,
    ) -> Clocks {
        let mut clocks = Clocks::with_odds(tc, odds);
        if let Some(s) = situation {
            if let QuarterMode::Timed(q) = tc.quarter {
                clocks.game_left = Some(s.clock_left(q));
            }
            clocks.new_play(s.offense());
        }
        clocks
    }

    /// The reaction clock of `side`'s decisions.
    pub(crate) fn reaction_for(&self, side: Side) -> Duration {
        self.sides[side.index()].reaction
    }

    /// A new play: the play clock of the team with the ball starts again (6.3).
    pub fn new_play(&mut self, offense: Side) {
        self.play_left = self.sides[offense.index()].play;
    }

    /// A new quarter: the game clock starts full.
    pub fn new_quarter(&mut self, offense: Side) {
        if let QuarterMode::Timed(q) = self.tc.quarter {
            self.game_left = Some(q);
        }
        self.new_play(offense);
    }

    /// One tick of the game clock: a fortieth of the quarter (R70); zero in play-count
    /// quarters. Exact in nanoseconds for every quarter given in whole milliseconds.
    pub fn tick(&self) -> Duration {
        match self.tc.quarter {
            QuarterMode::Timed(q) => q / TICKS_PER_QUARTER,
            QuarterMode::Plays(_) => Duration::ZERO,
        }
    }

    /// The budget of the decision the game asks for now.
    pub fn budget(&self, game: &Game) -> Budget {
        let offense_deciding = game.to_move() == Some(game.offense());
        let timed = game.settings().quarter == QuarterLength::Timed;
        let game_runs = game.clock_running() && offense_deciding && timed;
        let quarter = game.quarter();
        let pre_snap = matches!(
            game.phase(),
            Phase::Formation(_) | Phase::Motion | Phase::Reaction
        );
        match game.phase() {
            Phase::Formation(side) if side == game.offense() => self.pre_snap(game_runs, quarter),
            Phase::Motion => self.pre_snap(game_runs, quarter),
            _ => Budget {
                limit: self.reaction_for(game.to_move().unwrap_or(game.defense())),
                expires: Clock::Reaction,
                play_clock: false,
                // Edition 3: in the action phase the play runs the clock by ticks, not by
                // anyone's thinking (R17, R70).
                game_clock: false,
                tick: timed && matches!(game.phase(), Phase::Action(_) | Phase::Contention(_)),
                pre_snap,
                quarter,
            },
        }
    }

    fn pre_snap(&self, game_runs: bool, quarter: u8) -> Budget {
        // A clock already at zero (an untimed down, R62) has nothing left to run.
        let game_left = self.game_left.filter(|g| game_runs && !g.is_zero());
        let budget = |limit, expires| Budget {
            limit,
            expires,
            play_clock: true,
            game_clock: game_left.is_some(),
            tick: false,
            pre_snap: true,
            quarter,
        };
        match game_left {
            // Between plays the game clock ending first ends the quarter (6.2).
            Some(g) if g < self.play_left => budget(g, Clock::Game),
            _ => budget(self.play_left, Clock::Play),
        }
    }

    /// Spends a decision on the clocks it runs: `elapsed` on the play clock and on a game
    /// clock the decision's thinking runs, plus one tick for an action-phase turn and one for
    /// each of the `fouls` dead-ball fouls it led to (R70). Returns whether the game clock
    /// reached zero with this decision.
    pub fn charge(&mut self, budget: &Budget, elapsed: Duration, fouls: u32) -> bool {
        if budget.play_clock {
            self.play_left = self.play_left.saturating_sub(elapsed);
        }
        let mut spent = Duration::ZERO;
        if budget.game_clock {
            spent += elapsed;
        }
        spent += self.tick() * (u32::from(budget.tick) + fouls);
        match self.game_left.as_mut() {
            Some(g) if !spent.is_zero() => {
                let was = *g;
                *g = g.saturating_sub(spent);
                !was.is_zero() && g.is_zero()
            }
            _ => false,
        }
    }
}

/// The most untimed downs one period can have (R62): each needs a defensive foul enforced
/// at the end of the one before, and a defense's run of fouls ends in a conceded touchdown
/// after at most six fouls that move the ball and one more at its 1-yard line (R57, R58,
/// R71), with one offensive foul between them moving it back.
pub(crate) const MAX_UNTIMED_DOWNS: u32 = 9;
/// The most dead-ball fouls between two snaps that count no play (R44): one offensive
/// foul (its second in a row costs a down) and a defensive run as above.
pub(crate) const MAX_FREE_FOULS: u32 = 8;
/// The most offensive decisions of one formation round: the formation, seven motions
/// (each piece moves once, R4) and the snap or a timeout.
const OFFENSE_DECISIONS_PER_ROUND: u32 = 9;
/// The most defensive decisions of one formation round: the formation and seven reactions.
const DEFENSE_DECISIONS_PER_ROUND: u32 = 8;
/// Timeouts of both teams in one half (6.4).
const TIMEOUTS_PER_HALF: u32 = 6;

/// What the rules let one game last at most, whatever the bots do within their clocks:
/// GAME.md ("How long a game can last") states the formula, `tests/properties.rs` checks
/// it against hostile strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameBound {
    /// Snapped plays, untimed downs included.
    pub plays: u32,
    /// Dead-ball fouls.
    pub fouls: u32,
    /// Decisions bounded by the reaction clock: action-phase turns, contention and penalty
    /// decisions, the defense's formations and reactions.
    pub reaction_decisions: u32,
    /// Formation rounds (each ends in a snap, a dead-ball foul, a timeout or the period's
    /// end): each gives the offense at most a full play clock.
    pub rounds: u32,
    /// Wall time of the decisions: every reaction decision at its full reaction clock and
    /// every round at its full play clock, each decision plus the grace.
    pub wall: Duration,
}

impl TimeControl {
    /// The longest wall time one game can take under this time control (see [`GameBound`]);
    /// with time odds, call it on the larger clocks.
    pub(crate) fn wall_bound(&self) -> Duration {
        self.bound().wall
    }

    /// Upper bounds of one game under this time control.
    pub fn bound(&self) -> GameBound {
        let (u, f, k) = (MAX_UNTIMED_DOWNS, MAX_FREE_FOULS, TICKS_PER_QUARTER);
        // Per quarter: snapped plays, dead-ball fouls, action-phase turns, rounds.
        let (plays, fouls, turns, rounds) = match self.quarter {
            // Every snapped play, every action-phase turn and every dead-ball foul takes a
            // tick (R70): at most 40 before the clock is out; the play then in progress runs
            // on (at most 63 more turns, R13); then the untimed downs, each after at most
            // `f` fouls.
            QuarterMode::Timed(_) => (k + u, k + u * f, k + 63 + 64 * u, k + 1 + u * (f + 1)),
            // `n` plays count; between two that count at most `f` fouls that do not.
            QuarterMode::Plays(n) => {
                let plays = u32::from(n) + u;
                (plays, plays * (f + 1), 64 * plays, plays * (f + 2))
            }
        };
        // Timeouts restart a round; the period's end closes the last one.
        let rounds = rounds + TIMEOUTS_PER_HALF + 1;
        // Each play adds a penalty decision at most; each round the defense's decisions.
        let reaction_decisions = turns + plays + rounds * DEFENSE_DECISIONS_PER_ROUND;
        let per_quarter = (self.reaction + self.grace) * reaction_decisions
            + (self.play + self.grace * OFFENSE_DECISIONS_PER_ROUND) * rounds;
        GameBound {
            plays: 4 * plays,
            fouls: 4 * fouls,
            reaction_decisions: 4 * reaction_decisions,
            rounds: 4 * rounds,
            wall: per_quarter * 4,
        }
    }
}

/// The ticks of a timed quarter (R70). With bots that answer at once a quarter then holds
/// about ten plays of good play (three to four turns each), as many as the default
/// play-count quarter, and never more than 40 plays and dead-ball fouls.
pub(crate) const TICKS_PER_QUARTER: u32 = 40;

/// Whether a timeout may be the machine's fault rather than the bot's: during the wall time
/// it was given, the bot used less than half of it in CPU (it was waiting, or the machine was
/// too busy to run it). Unknown CPU time is never suspect.
pub fn suspect_timeout(cpu: Option<Duration>, wall: Duration) -> bool {
    cpu.is_some_and(|c| c * 2 < wall)
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_duplicate_time_control_key_is_refused() {
        assert_eq!(
            TimeControl::parse("plays=10,play=5s,play=2s"),
            Err(TimeControlError::Duplicate("play".to_string()))
        );
        assert_eq!(
            TimeOdds::parse("reaction=1s,reaction=2s"),
            Err(TimeControlError::Duplicate("reaction".to_string()))
        );
        assert!(TimeControl::parse("blitz,play=2s").is_ok());
    }

    #[test]
    fn a_timeout_with_cpu_under_half_the_wall_time_is_suspect() {
        let ms = Duration::from_millis;
        // A bot asleep through its 400 ms: the machine or the bot's waiting, not its thinking.
        assert!(suspect_timeout(Some(ms(3)), ms(400)));
        // A starved spinner: it wanted all 400 ms, the machine gave it 150.
        assert!(suspect_timeout(Some(ms(150)), ms(400)));
        // Computing all the way, or at least half of it: the bot's own doing.
        assert!(!suspect_timeout(Some(ms(400)), ms(400)));
        assert!(!suspect_timeout(Some(ms(200)), ms(400)));
        // Threads can use more CPU than wall time.
        assert!(!suspect_timeout(Some(ms(900)), ms(400)));
        assert!(!suspect_timeout(None, ms(400)));
    }
    use super::*;

    fn game(diagram: &str) -> Game {
        Game::from_diagram(diagram).unwrap()
    }

    const MOTION: &str = "offense: white\nphase: motion\nspot: e5\nclock: running\n8 . . . . . . . .\n7 . . . . . . . .\n6 . . p p p p . .\n5 . . . P P . . .\n4 . . . . K . . .\n3 . . . . Q . . .\n2 . . . . . . . .\n1 . . . . . . . .\n";

    #[test]
    fn time_controls_parse_and_print_back() {
        let tc = TimeControl::parse("quarter=20s,play=2s,reaction=500ms").unwrap();
        assert_eq!(tc.quarter, QuarterMode::Timed(MS(20_000)));
        assert_eq!(
            (tc.play, tc.reaction, tc.grace),
            (MS(2000), MS(500), MS(100))
        );
        assert_eq!(
            tc.to_string(),
            "quarter=20s,play=2s,reaction=500ms,grace=100ms"
        );
        assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc);
        let plays = TimeControl::parse("plays=10,play=2s,reaction=1.5s,grace=0ms").unwrap();
        assert_eq!(plays.quarter, QuarterMode::Plays(10));
        assert_eq!(plays.reaction, MS(1500));
        assert_eq!(
            TimeControl::parse("standard").unwrap(),
            TimeControl::standard()
        );
        assert_eq!(
            TimeControl::parse("blitz,reaction=2s").unwrap().reaction,
            MS(2000)
        );
        assert_eq!(
            TimeControl::parse("unlimited").unwrap().quarter,
            QuarterMode::Plays(15)
        );
        assert_eq!(parse_duration("2m").unwrap(), MS(120_000));
    }

    #[test]
    fn bad_time_controls_say_what_is_wrong() {
        for (text, want) in [
            ("fast", "unknown time control item 'fast'"),
            ("play=2", "'2' is not a duration"),
            ("play=0s", "play must be longer than zero"),
            ("plays=0", "'0' is not a number of plays"),
            ("quarter=1m,plays=3", "either quarter"),
            ("reaction=-1s", "not a duration"),
            ("colour=red", "unknown time control item"),
        ] {
            let e = TimeControl::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn rule_6_1_offense_before_the_snap_runs_the_play_clock_and_a_running_game_clock() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=60s,play=10s,reaction=1s").unwrap());
        let g = game(MOTION);
        let b = clocks.budget(&g);
        assert_eq!(
            (b.limit, b.expires, b.play_clock, b.game_clock),
            (MS(10_000), Clock::Play, true, true)
        );
        assert!(!clocks.charge(&b, MS(4000), 0));
        assert_eq!(
            (clocks.play_left, clocks.game_left),
            (MS(6000), Some(MS(56_000)))
        );
        // The next decision of the same play has what is left of the play clock.
        assert_eq!(clocks.budget(&g).limit, MS(6000));
        clocks.new_play(Side::White);
        assert_eq!(clocks.budget(&g).limit, MS(10_000));
    }

    #[test]
    fn rule_6_2_a_game_clock_shorter_than_the_play_clock_binds_and_ends_the_quarter() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=3s,play=10s,reaction=1s").unwrap());
        let b = clocks.budget(&game(MOTION));
        assert_eq!((b.limit, b.expires), (MS(3000), Clock::Game));
        assert!(
            clocks.charge(&b, MS(3500), 0),
            "the game clock reached zero"
        );
        assert_eq!(clocks.game_left, Some(Duration::ZERO));
        assert!(!clocks.charge(&b, MS(10), 0), "reported once");
    }

    #[test]
    fn rule_6_3_a_stopped_game_clock_does_not_run_before_the_snap() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=3s,play=10s,reaction=1s").unwrap());
        let g = game(&MOTION.replace("clock: running", "clock: stopped"));
        let b = clocks.budget(&g);
        assert_eq!(
            (b.limit, b.expires, b.game_clock),
            (MS(10_000), Clock::Play, false)
        );
        clocks.charge(&b, MS(5000), 0);
        assert_eq!(clocks.game_left, Some(MS(3000)));
    }

    #[test]
    fn rule_6_1_the_reaction_clock_bounds_the_defense_and_pauses_the_others() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=60s,play=10s,reaction=700ms").unwrap());
        let g = game(&MOTION.replace("phase: motion", "phase: reaction"));
        let b = clocks.budget(&g);
        assert_eq!(
            (b.limit, b.expires, b.play_clock, b.game_clock),
            (MS(700), Clock::Reaction, false, false)
        );
        clocks.charge(&b, MS(600), 0);
        assert_eq!(
            (clocks.play_left, clocks.game_left),
            (MS(10_000), Some(MS(60_000)))
        );
    }

    #[test]
    fn r17_r70_action_turns_use_the_reaction_clock_and_take_one_tick_each() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=40s,play=10s,reaction=700ms").unwrap());
        assert_eq!(clocks.tick(), MS(1000));
        let action = "offense: white\nphase: action\nspot: e5\n8 . . . . . . . .\n7 . . . . . . . .\n6 . . p . . . . .\n5 . . . P . . . .\n4 . . . . K* . . .\n3 . . . . . . . .\n2 . . . . . . . .\n1 . . . . . . . .\n";
        let white = clocks.budget(&game(action));
        assert_eq!(
            (white.limit, white.expires, white.game_clock, white.tick),
            (MS(700), Clock::Reaction, false, true)
        );
        // The turn takes one tick, whatever the offense's thinking took.
        clocks.charge(&white, MS(500), 0);
        assert_eq!(clocks.game_left, Some(MS(39_000)));
        clocks.charge(&white, MS(3), 0);
        assert_eq!(clocks.game_left, Some(MS(38_000)));
        // The defense's turn too, however long it thought.
        let black = clocks.budget(&game(
            &action.replace("phase: action", "phase: action\nturn: black"),
        ));
        assert_eq!((black.game_clock, black.tick), (false, true));
        clocks.charge(&black, MS(699), 0);
        assert_eq!(clocks.game_left, Some(MS(37_000)));
    }

    #[test]
    fn r70_a_quarter_holds_40_ticks_and_reports_its_end_once() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=250ms,play=1s,reaction=300ms").unwrap());
        assert_eq!(clocks.tick() * TICKS_PER_QUARTER, MS(250));
        let action = "offense: white\nphase: action\nspot: e5\n8 . . . . . . . .\n7 . . . . . . . .\n6 . . p . . . . .\n5 . . . P . . . .\n4 . . . . K* . . .\n3 . . . . . . . .\n2 . . . . . . . .\n1 . . . . . . . .\n";
        let b = clocks.budget(&game(action));
        let ended: Vec<bool> = (0..42).map(|_| clocks.charge(&b, MS(0), 0)).collect();
        assert_eq!(
            ended.iter().position(|&e| e),
            Some(39),
            "the 40th tick empties it"
        );
        assert_eq!(ended.iter().filter(|&&e| e).count(), 1);
    }

    #[test]
    fn r70_the_bound_of_a_game_follows_the_time_control() {
        let b = TimeControl::parse("quarter=1s,play=1s,reaction=300ms,grace=0ms")
            .unwrap()
            .bound();
        // Per quarter: 40 + 9 plays, 40 + 9 * 8 fouls, 40 + 1 + 9 * 9 + 7 rounds.
        assert_eq!((b.plays, b.fouls, b.rounds), (4 * 49, 4 * 112, 4 * 129));
        let turns = 40 + 63 + 64 * 9;
        assert_eq!(b.reaction_decisions, 4 * (turns + 49 + 129 * 8));
        assert_eq!(b.wall, MS(300) * b.reaction_decisions + MS(1000) * b.rounds);
        // The quarter's length does not change it: ticks are a share of the quarter.
        let long = TimeControl::parse("quarter=10m,play=1s,reaction=300ms,grace=0ms").unwrap();
        assert_eq!(long.bound(), b);
        // Play-count quarters: the plays, then the fouls between them.
        let p = TimeControl::parse("plays=10,play=1s,reaction=300ms")
            .unwrap()
            .bound();
        assert_eq!((p.plays, p.fouls), (4 * 19, 4 * 19 * 9));
    }

    #[test]
    fn r70_a_dead_ball_foul_takes_one_tick_and_thinking_on_a_stopped_clock_none() {
        let mut clocks =
            Clocks::new(TimeControl::parse("quarter=40s,play=10s,reaction=1s").unwrap());
        let g = game(&MOTION.replace("clock: running", "clock: stopped"));
        let b = clocks.budget(&g);
        assert!(b.pre_snap && !b.game_clock && !b.tick);
        clocks.charge(&b, MS(2000), 0);
        assert_eq!(clocks.game_left, Some(MS(40_000)));
        clocks.charge(&b, MS(2000), 1);
        assert_eq!(clocks.game_left, Some(MS(39_000)));
    }

    #[test]
    fn r18_play_count_quarters_have_no_game_clock() {
        let clocks = Clocks::new(TimeControl::parse("plays=10,play=10s,reaction=1s").unwrap());
        assert_eq!(clocks.game_left, None);
        let b = clocks.budget(&game(MOTION));
        assert_eq!((b.expires, b.game_clock), (Clock::Play, false));
        assert_eq!(
            TimeControl::parse("plays=10").unwrap().settings(),
            Settings::plays(10)
        );
    }
}
