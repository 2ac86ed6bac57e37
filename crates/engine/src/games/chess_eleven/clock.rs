//! Chess Eleven's clock (C41–C50): halves on a half clock or counted in goes, a goal
//! target, a cap, and the limits of one decision (a formation's, every other's).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::games::football_chess::clock::{fmt_duration, parse_duration};
use crate::rules::Side;
use crate::seam::chess_clock::nonzero;
use crate::seam::TimeControlError;

use super::game::{Halves, Settings};

/// The halves as the clock names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfClock {
    /// No halves (a goal target and a cap end the game).
    None,
    /// Halves of this much deciding time each (C41).
    Timed(Duration),
    /// Halves of this many goes each (C42).
    Goes(u16),
}

/// The clock of a game, as `--tc` text names it (C50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElevenClock {
    pub halves: HalfClock,
    pub goals: Option<u16>,
    pub cap: u16,
    /// The limit of every decision but a formation.
    pub decision: Duration,
    /// The limit of a formation.
    pub formation: Duration,
    pub grace: Duration,
}

impl Default for ElevenClock {
    fn default() -> ElevenClock {
        ElevenClock {
            halves: HalfClock::Goes(40),
            goals: None,
            cap: 200,
            decision: Duration::from_secs(5),
            formation: Duration::from_secs(20),
            grace: Duration::from_millis(100),
        }
    }
}

impl ElevenClock {
    /// The game's settings under this clock, with its seed.
    pub fn settings(&self, seed: u64) -> Settings {
        Settings {
            halves: match self.halves {
                HalfClock::None => Halves::None,
                HalfClock::Timed(_) => Halves::Timed,
                HalfClock::Goes(n) => Halves::Goes(n),
            },
            goals: self.goals,
            cap: self.cap,
            seed,
        }
    }
}

fn bad(text: impl Into<String>) -> TimeControlError {
    TimeControlError::Game(text.into())
}

impl FromStr for ElevenClock {
    type Err = TimeControlError;
    fn from_str(text: &str) -> Result<ElevenClock, TimeControlError> {
        let mut clock = ElevenClock::default();
        let (mut half, mut turns, mut cap) = (None, None, None);
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let (key, value) = item.split_once('=').ok_or_else(|| {
                bad(format!(
                    "unknown Chess Eleven clock item '{}': use key=value with keys half, turns, goals, cap, move, formation, grace",
                    item.chars().take(40).collect::<String>()
                ))
            })?;
            let key = key.trim();
            if seen.contains(&key) {
                return Err(TimeControlError::Duplicate(key.to_string()));
            }
            seen.push(key);
            let count = |what: &str| -> Result<u16, TimeControlError> {
                value
                    .trim()
                    .parse::<u16>()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| {
                        bad(format!(
                            "{what}: '{}' is not a count from 1 to 1000",
                            value.trim()
                        ))
                    })
            };
            match key {
                "half" => half = Some(nonzero(parse_duration(value)?, "half")?),
                "turns" => turns = Some(count("turns")?),
                "goals" => clock.goals = Some(count("goals")?),
                "cap" => cap = Some(count("cap")?),
                "move" => clock.decision = nonzero(parse_duration(value)?, "move")?,
                "formation" => clock.formation = nonzero(parse_duration(value)?, "formation")?,
                "grace" => clock.grace = parse_duration(value)?,
                _ => {
                    return Err(bad(format!(
                        "unknown Chess Eleven clock item '{}': use key=value with keys half, turns, goals, cap, move, formation, grace",
                        item.chars().take(40).collect::<String>()
                    )))
                }
            }
        }
        clock.halves = match (half, turns) {
            (Some(_), Some(_)) => {
                return Err(bad("give either half=DURATION or turns=N, not both"))
            }
            (Some(d), None) => HalfClock::Timed(d),
            (None, Some(n)) => HalfClock::Goes(n),
            // A goal target alone: the correspondence form (C43, C44).
            (None, None) if clock.goals.is_some() => HalfClock::None,
            (None, None) => clock.halves,
        };
        if let Some(c) = cap {
            if clock.halves != HalfClock::None {
                return Err(bad(
                    "cap=N applies only to a game without halves (goals=N alone)",
                ));
            }
            clock.cap = c;
        }
        Ok(clock)
    }
}

/// The canonical form, which `from_str` reads back.
impl fmt::Display for ElevenClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.halves {
            HalfClock::Timed(d) => write!(f, "half={},", fmt_duration(d))?,
            HalfClock::Goes(n) => write!(f, "turns={n},")?,
            HalfClock::None => {}
        }
        if let Some(g) = self.goals {
            write!(f, "goals={g},")?;
        }
        if self.halves == HalfClock::None {
            write!(f, "cap={},", self.cap)?;
        }
        write!(
            f,
            "move={},formation={},grace={}",
            fmt_duration(self.decision),
            fmt_duration(self.formation),
            fmt_duration(self.grace)
        )
    }
}

/// The clocks during a game: what is left of the half clock (timed halves only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub clock: ElevenClock,
    pub half_left: Option<Duration>,
}

impl Clocks {
    pub fn starting(clock: ElevenClock) -> Clocks {
        Clocks {
            clock,
            half_left: match clock.halves {
                HalfClock::Timed(d) => Some(d),
                _ => None,
            },
        }
    }
}

/// What binds one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub side: Side,
    pub limit: Duration,
    /// A formation (its own clock; the half clock stands still).
    pub formation: bool,
    /// The half clock runs out before the decision's own limit.
    pub half_ends: bool,
}

impl Budget {
    /// `side`'s formation: the formation clock, the half clock standing still.
    pub fn formation(side: Side, clocks: &Clocks) -> Budget {
        Budget {
            side,
            limit: clocks.clock.formation,
            formation: true,
            half_ends: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_and_read_back() {
        for text in [
            "turns=40,move=5s,formation=20s,grace=100ms",
            "half=300s,move=10s,formation=20s,grace=100ms",
            "goals=2,cap=200,move=86400s,formation=20s,grace=100ms",
            "turns=10,goals=3,move=1s,formation=2s,grace=50ms",
        ] {
            let clock: ElevenClock = text.parse().unwrap();
            assert_eq!(clock.to_string(), text);
        }
        let c: ElevenClock = "goals=2,move=1d".parse().unwrap();
        assert_eq!(c.halves, HalfClock::None);
        assert_eq!(c.decision, Duration::from_secs(86_400));
    }

    #[test]
    fn bad_clocks_say_what_is_wrong() {
        for (text, says) in [
            ("half=5m,turns=3", "either"),
            ("turns=3,cap=10", "cap"),
            ("turns=0", "1 to 1000"),
            ("move=0s", "longer than zero"),
            ("plays=10", "unknown Chess Eleven clock item"),
            ("rapid", "unknown Chess Eleven clock item"),
            ("goals=2,goals=3", "twice"),
        ] {
            let err = text.parse::<ElevenClock>().unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}
