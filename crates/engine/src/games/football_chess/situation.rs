//! Start situations: a between-plays state a game can start from instead of the opening
//! drive (White on its own 20, first and ten, 0-0, a full first quarter).
//!
//! A situation names what a football coach would: the quarter and how much of it is left,
//! the score, the team with the ball, the ball spot, the down and the distance, and each
//! team's timeouts. Its text is one line of `key=value` fields, every field present and in
//! this order (`protocol/SITUATIONS.md`):
//!
//! ```text
//! quarter=4 left=10% score=14-17 offense=white spot=e3 down=3 distance=10 timeouts=1-2
//! ```
//!
//! `left` is a percentage of the quarter, so one book serves every time control: with timed
//! quarters the game clock starts at that share of the quarter; with a number of plays per
//! quarter, at that share of the plays (rounded up, at least one). `distance` is in yards (a
//! multiple of 5: one rank is 5 yards) or `goal` when the line to gain is the goal line.
//! [`Situation::new`] refuses a situation that cannot occur, naming the rule it breaks.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::game::TIMEOUTS_PER_HALF;
use super::types::{Rank, Side, Square};

/// A between-plays game state to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    quarter: u8,
    left_percent: u8,
    score: [u16; 2],
    offense: Side,
    spot: Square,
    down: u8,
    to_gain: Rank,
    timeouts: [u8; 2],
}

/// Quarters in a game (rules 6; a tie after four is a draw, R16).
pub const QUARTERS: u8 = 4;

/// Why a situation is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SituationError {
    #[error("field {field}: {problem}")]
    Field {
        field: &'static str,
        problem: String,
    },
    #[error("{0}")]
    Impossible(String),
}

fn field(field: &'static str, problem: impl Into<String>) -> SituationError {
    SituationError::Field {
        field,
        problem: problem.into(),
    }
}

/// The fields of a situation's text, in their order.
pub(crate) const FIELDS: [&str; 8] = [
    "quarter", "left", "score", "offense", "spot", "down", "distance", "timeouts",
];

impl Situation {
    /// A situation, if it can occur: quarter 1–4; 1–100% of it left; the spot in the field
    /// of play, not in an end zone nor on a sideline file (the ball is spotted on files b–g,
    /// R12); down 1–4; the line to gain ahead of the spot and at most the goal line; at most
    /// three timeouts a team (R46: three per half).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        quarter: u8,
        left_percent: u8,
        score: [u16; 2],
        offense: Side,
        spot: Square,
        down: u8,
        to_gain: Rank,
        timeouts: [u8; 2],
    ) -> Result<Situation, SituationError> {
        if !(1..=QUARTERS).contains(&quarter) {
            return Err(field(
                "quarter",
                format!("{quarter}: a game has quarters 1 to {QUARTERS}"),
            ));
        }
        if !(1..=100).contains(&left_percent) {
            return Err(field(
                "left",
                format!("{left_percent}%: give 1% to 100% of the quarter"),
            ));
        }
        check_spot(spot)?;
        if !(1..=4).contains(&down) {
            return Err(field(
                "down",
                format!("{down}: an offense has four downs (rules 5.1)"),
            ));
        }
        if !offense.ahead(to_gain, spot.rank()) {
            return Err(field(
                "distance",
                "the line to gain must be ahead of the spot (R38)",
            ));
        }
        if offense.ahead(to_gain, offense.goal()) {
            return Err(field(
                "distance",
                "the line to gain is past the goal line: write distance=goal (R38)",
            ));
        }
        if timeouts.iter().any(|&t| t > TIMEOUTS_PER_HALF) {
            return Err(field(
                "timeouts",
                format!("a team has at most {TIMEOUTS_PER_HALF} timeouts a half (R46)"),
            ));
        }
        Ok(Situation {
            quarter,
            left_percent,
            score,
            offense,
            spot,
            down,
            to_gain,
            timeouts,
        })
    }

    pub fn quarter(&self) -> u8 {
        self.quarter
    }
    /// The share of the quarter left, in percent (100: the quarter starts).
    pub fn left_percent(&self) -> u8 {
        self.left_percent
    }
    /// White's and Black's points.
    pub fn score(&self) -> [u16; 2] {
        self.score
    }
    pub fn offense(&self) -> Side {
        self.offense
    }
    pub fn spot(&self) -> Square {
        self.spot
    }
    pub fn down(&self) -> u8 {
        self.down
    }
    pub fn line_to_gain(&self) -> Rank {
        self.to_gain
    }
    /// White's and Black's timeouts left in the half.
    pub fn timeouts(&self) -> [u8; 2] {
        self.timeouts
    }
    pub fn is_goal_to_go(&self) -> bool {
        self.to_gain == self.offense.goal()
    }
    /// Yards to the line to gain (5 a rank).
    pub fn distance_yards(&self) -> u8 {
        self.offense
            .gain(self.spot.rank(), self.to_gain)
            .unsigned_abs()
            * 5
    }

    /// Plays already run in the quarter when it has `per_quarter` plays: what is left is
    /// `left` of them, rounded up, at least one.
    pub(crate) fn plays_run(&self, per_quarter: u16) -> u16 {
        let left = (u32::from(per_quarter) * u32::from(self.left_percent)).div_ceil(100);
        per_quarter - (left.max(1) as u16).min(per_quarter)
    }

    /// The game clock left in a quarter of `quarter` (timed quarters).
    pub(crate) fn clock_left(&self, quarter: std::time::Duration) -> std::time::Duration {
        quarter * u32::from(self.left_percent) / 100
    }
}

impl fmt::Display for Situation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "quarter={} left={}% score={}-{} offense={} spot={} down={} distance=",
            self.quarter,
            self.left_percent,
            self.score[0],
            self.score[1],
            self.offense,
            self.spot,
            self.down,
        )?;
        if self.is_goal_to_go() {
            f.write_str("goal")?;
        } else {
            write!(f, "{}", self.distance_yards())?;
        }
        write!(f, " timeouts={}-{}", self.timeouts[0], self.timeouts[1])
    }
}

/// A ball spot in the field of play.
fn check_spot(spot: Square) -> Result<(), SituationError> {
    if spot.rank().is_end_zone() {
        return Err(field(
            "spot",
            format!("{spot} is in an end zone: the ball is spotted on ranks 2 to 7 (rules 2.1)"),
        ));
    }
    if spot.file().is_sideline() {
        return Err(field(
            "spot",
            format!("{spot} is on a sideline file: the ball is spotted on files b to g (R12)"),
        ));
    }
    Ok(())
}

/// Two numbers `a-b` (a score, timeouts).
fn pair<T: FromStr>(name: &'static str, text: &str) -> Result<[T; 2], SituationError> {
    let bad = || {
        field(
            name,
            format!("'{text}': write two numbers, White's first: 7-3"),
        )
    };
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    Ok([a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?])
}

impl FromStr for Situation {
    type Err = SituationError;

    fn from_str(text: &str) -> Result<Situation, SituationError> {
        let mut values = [""; 8];
        let words: Vec<&str> = text.split_whitespace().collect();
        for (k, name) in FIELDS.iter().enumerate() {
            let Some(word) = words.get(k) else {
                return Err(field(
                    name,
                    "missing: a situation has eight fields in order",
                ));
            };
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| field(name, format!("'{word}': write {name}=VALUE")))?;
            if key != *name {
                return Err(field(
                    name,
                    format!(
                        "found '{key}' where {name} belongs (the fields go in order: {})",
                        FIELDS.join(" ")
                    ),
                ));
            }
            values[k] = value;
        }
        if let Some(extra) = words.get(FIELDS.len()) {
            return Err(SituationError::Impossible(format!(
                "'{extra}' after the eight fields"
            )));
        }
        let number = |k: usize| -> Result<u8, SituationError> {
            values[k]
                .parse()
                .map_err(|_| field(FIELDS[k], format!("'{}': write a number", values[k])))
        };
        let quarter = number(0)?;
        let left = values[1]
            .strip_suffix('%')
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| field("left", format!("'{}': write a percentage: 25%", values[1])))?;
        let score = pair("score", values[2])?;
        let offense: Side = values[3]
            .parse()
            .map_err(|_| field("offense", format!("'{}': write white or black", values[3])))?;
        let spot: Square = values[4].parse().map_err(|_| {
            field(
                "spot",
                format!("'{}': write a square such as e4", values[4]),
            )
        })?;
        check_spot(spot)?;
        let down = number(5)?;
        let to_gain = if values[6] == "goal" {
            offense.goal()
        } else {
            let yards: u8 = values[6].parse().map_err(|_| {
                field(
                    "distance",
                    format!("'{}': write yards (10) or goal", values[6]),
                )
            })?;
            if yards == 0 || yards % 5 != 0 {
                return Err(field(
                    "distance",
                    format!("{yards} yards: a distance is a multiple of 5 yards, one rank each"),
                ));
            }
            let ranks = (yards / 5) as i8;
            let to_gain = i8::try_from(spot.rank().index())
                .ok()
                .map(|r| r + ranks * offense.forward())
                .and_then(|r| u8::try_from(r).ok())
                .and_then(Rank::new)
                .filter(|r| !offense.ahead(*r, offense.goal()))
                .ok_or_else(|| {
                    field(
                        "distance",
                        format!(
                            "{yards} yards from {spot} is past the goal line: write distance=goal"
                        ),
                    )
                })?;
            if to_gain == offense.goal() {
                return Err(field(
                    "distance",
                    format!(
                        "{yards} yards from {spot} reach the goal line: write distance=goal (R38)"
                    ),
                ));
            }
            to_gain
        };
        let timeouts = pair("timeouts", values[7])?;
        Situation::new(quarter, left, score, offense, spot, down, to_gain, timeouts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Situation, SituationError> {
        text.parse()
    }

    #[test]
    fn text_round_trips() {
        for text in [
            "quarter=1 left=100% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3",
            "quarter=4 left=10% score=14-17 offense=black spot=d6 down=3 distance=15 timeouts=0-2",
            "quarter=2 left=1% score=3-0 offense=white spot=g7 down=4 distance=goal timeouts=1-1",
            "quarter=3 left=50% score=21-20 offense=black spot=b7 down=2 distance=5 timeouts=2-3",
        ] {
            let s = parse(text).unwrap();
            assert_eq!(s.to_string(), text);
        }
    }

    #[test]
    fn every_field_names_its_problem() {
        let base =
            "quarter=1 left=100% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3";
        let with = |k: &str, v: &str| {
            base.split(' ')
                .map(|w| {
                    if w.starts_with(&format!("{k}=")) {
                        format!("{k}={v}")
                    } else {
                        w.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let cases = [
            ("quarter", "5", "quarters 1 to 4"),
            ("quarter", "x", "write a number"),
            ("left", "0%", "1% to 100%"),
            ("left", "50", "percentage"),
            ("score", "7", "two numbers"),
            ("offense", "red", "white or black"),
            ("spot", "e8", "end zone"),
            ("spot", "e1", "end zone"),
            ("spot", "a4", "sideline"),
            ("spot", "z9", "square"),
            ("down", "5", "four downs"),
            ("distance", "7", "multiple of 5"),
            ("distance", "0", "multiple of 5"),
            ("distance", "15", "reach the goal line"),
            ("distance", "25", "past the goal line"),
            ("timeouts", "4-3", "at most 3"),
        ];
        for (k, v, needle) in cases {
            let err = parse(&with(k, v)).unwrap_err();
            let text = err.to_string();
            assert!(text.starts_with(&format!("field {k}:")), "{k}={v}: {text}");
            assert!(text.contains(needle), "{k}={v}: {text}");
        }
        let err = parse("quarter=1 left=100%").unwrap_err().to_string();
        assert!(err.contains("field score: missing"), "{err}");
        let err = parse(&base.replace("down=1 distance=10", "distance=10 down=1"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("found 'distance' where down belongs"), "{err}");
        let err = parse(&format!("{base} extra")).unwrap_err().to_string();
        assert!(err.contains("'extra' after"), "{err}");
        // Black gains downwards: 10 yards from d5 is rank 3, not past the goal.
        let black = parse(
            "quarter=1 left=100% score=0-0 offense=black spot=d5 down=1 distance=10 timeouts=3-3",
        )
        .unwrap();
        assert_eq!(black.line_to_gain().number(), 3);
    }

    #[test]
    fn a_game_from_a_situation_stands_where_it_says_and_plays_to_an_end() {
        use crate::rules::{Game, Phase, Settings};
        let s = parse("quarter=4 left=25% score=14-17 offense=black spot=d3 down=3 distance=goal timeouts=1-2").unwrap();
        let game = Game::from_situation(Settings::plays(8), &s);
        assert_eq!(game.quarter(), 4);
        assert_eq!((game.score(Side::White), game.score(Side::Black)), (14, 17));
        assert_eq!(
            (game.offense(), game.down(), game.spot()),
            (Side::Black, 3, s.spot())
        );
        assert!(game.is_goal_to_go() && game.yards_to_go() == 10);
        assert_eq!(game.plays_in_quarter(), 6);
        assert_eq!(game.phase(), Phase::Formation(Side::Black));
        assert!(!game.clock_running());
        // Its diagram says the same, and the game plays to an end from there.
        let diagram = game.to_diagram();
        assert!(diagram.contains("timeouts: 1-2"), "{diagram}");
        let ended = crate::rules::playout::play_random_game(game, 3, |_, _| {});
        assert!(ended.is_over());
    }

    #[test]
    fn plays_and_clock_follow_the_share_left() {
        let s = parse(
            "quarter=2 left=25% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3",
        )
        .unwrap();
        assert_eq!(s.plays_run(8), 6);
        assert_eq!(s.plays_run(10), 7, "2.5 plays left round up to 3");
        let last = parse(
            "quarter=2 left=1% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3",
        )
        .unwrap();
        assert_eq!(last.plays_run(4), 3, "at least one play left");
        assert_eq!(
            s.clock_left(std::time::Duration::from_secs(120)),
            std::time::Duration::from_secs(30)
        );
    }
}
