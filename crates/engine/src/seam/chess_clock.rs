//! A chess clock, for games without clocks of their own (Boyer's Football, B36-B37): a
//! time bank per side with an increment per turn, or a fixed time per turn. The sub-moves
//! of one turn share the turn's time. Plain arithmetic, as `clock` is for Football Chess.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::clock::{fmt_duration, parse_duration, TimeControlError};
use crate::rules::Side;

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChessTimeControl {
    /// `bank=60s,inc=1s`: a bank per side, the increment added when the side's turn ends.
    Bank { bank: Duration, increment: Duration },
    /// `turn=5s`: every turn gets this much, whatever the last one used.
    PerTurn(Duration),
}

/// A chess time control and the grace margin for scheduler jitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessClock {
    pub control: ChessTimeControl,
    pub grace: Duration,
}

impl ChessClock {
    /// `bank=60s,inc=1s`: the default for bots.
    pub const fn rapid() -> ChessClock {
        ChessClock {
            control: ChessTimeControl::Bank {
                bank: Duration::from_secs(60),
                increment: Duration::from_secs(1),
            },
            grace: Duration::from_millis(100),
        }
    }
    /// `bank=10s,inc=100ms`: quick series of fast bots.
    pub const fn blitz() -> ChessClock {
        ChessClock {
            control: ChessTimeControl::Bank {
                bank: Duration::from_secs(10),
                increment: Duration::from_millis(100),
            },
            grace: Duration::from_millis(100),
        }
    }
}

impl Default for ChessClock {
    fn default() -> ChessClock {
        ChessClock::rapid()
    }
}

/// `rapid`, `blitz`, or items `bank=DURATION,inc=DURATION` / `turn=DURATION`, with an
/// optional `grace=DURATION`.
impl FromStr for ChessClock {
    type Err = TimeControlError;
    fn from_str(text: &str) -> Result<ChessClock, TimeControlError> {
        let unknown =
            |item: &str| TimeControlError::UnknownChessItem(item.trim().chars().take(40).collect());
        let mut clock = ChessClock::rapid();
        let (mut bank, mut inc, mut turn) = (None, None, None);
        let mut seen = Vec::new();
        for (k, item) in text.split(',').enumerate() {
            let item = item.trim();
            match (k, item) {
                (0, "rapid") => continue,
                (0, "blitz") => {
                    clock = ChessClock::blitz();
                    continue;
                }
                _ => {}
            }
            let (key, value) = item.split_once('=').ok_or_else(|| unknown(item))?;
            let key = key.trim();
            if seen.contains(&key) {
                return Err(TimeControlError::Duplicate(key.to_string()));
            }
            seen.push(key);
            if !matches!(key, "bank" | "inc" | "turn" | "grace") {
                return Err(unknown(item));
            }
            let d = parse_duration(value)?;
            match key {
                "bank" => bank = Some(nonzero(d, "bank")?),
                "inc" => inc = Some(d),
                "turn" => turn = Some(nonzero(d, "turn")?),
                "grace" => clock.grace = d,
                _ => return Err(unknown(item)),
            }
        }
        match (turn, bank, inc) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(TimeControlError::BankAndTurn)
            }
            (Some(t), None, None) => clock.control = ChessTimeControl::PerTurn(t),
            (None, None, None) => {}
            (None, b, i) => {
                // The items given replace the preset's (every preset is a bank).
                if let ChessTimeControl::Bank { bank, increment } = &mut clock.control {
                    *bank = b.unwrap_or(*bank);
                    *increment = i.unwrap_or(*increment);
                }
            }
        }
        Ok(clock)
    }
}

/// `d`, refused when zero: `what` names the item.
pub(crate) fn nonzero(d: Duration, what: &'static str) -> Result<Duration, TimeControlError> {
    if d.is_zero() {
        Err(TimeControlError::Zero(what))
    } else {
        Ok(d)
    }
}

/// The canonical form, which `from_str` reads back.
impl fmt::Display for ChessClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.control {
            ChessTimeControl::Bank { bank, increment } => write!(
                f,
                "bank={},inc={}",
                fmt_duration(bank),
                fmt_duration(increment)
            )?,
            ChessTimeControl::PerTurn(t) => write!(f, "turn={}", fmt_duration(t))?,
        }
        write!(f, ",grace={}", fmt_duration(self.grace))
    }
}

/// Both sides' time during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessClocks {
    pub clock: ChessClock,
    /// Time left in each side's bank, or in its current turn (index: [`Side::index`]).
    pub left: [Duration; 2],
}

impl ChessClocks {
    pub fn starting(clock: ChessClock) -> ChessClocks {
        let full = match clock.control {
            ChessTimeControl::Bank { bank, .. } => bank,
            ChessTimeControl::PerTurn(t) => t,
        };
        ChessClocks {
            clock,
            left: [full; 2],
        }
    }

    /// The limit of `side`'s next sub-move: whatever it has left.
    pub fn limit(&self, side: Side) -> Duration {
        self.left[side.index()]
    }

    /// `side` spent `elapsed` on a sub-move (a reply in the grace margin empties its time).
    pub fn charge(&mut self, side: Side, elapsed: Duration) {
        let left = &mut self.left[side.index()];
        *left = left.saturating_sub(elapsed);
    }

    /// `side`'s turn ended: the increment, or a fresh turn's time.
    pub fn turn_over(&mut self, side: Side) {
        let left = &mut self.left[side.index()];
        match self.clock.control {
            ChessTimeControl::Bank { increment, .. } => *left += increment,
            ChessTimeControl::PerTurn(t) => *left = t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn presets_items_and_round_trips() {
        assert_eq!("rapid".parse::<ChessClock>(), Ok(ChessClock::rapid()));
        assert_eq!("blitz".parse::<ChessClock>(), Ok(ChessClock::blitz()));
        let c: ChessClock = "bank=5s,inc=50ms,grace=20ms".parse().unwrap();
        assert_eq!(
            c.control,
            ChessTimeControl::Bank {
                bank: MS(5000),
                increment: MS(50)
            }
        );
        assert_eq!(c.to_string(), "bank=5s,inc=50ms,grace=20ms");
        let t: ChessClock = "turn=2s".parse().unwrap();
        assert_eq!(t.control, ChessTimeControl::PerTurn(MS(2000)));
        assert_eq!(t.to_string().parse::<ChessClock>(), Ok(t));
        let b: ChessClock = "blitz,inc=0s".parse().unwrap();
        assert_eq!(
            b.control,
            ChessTimeControl::Bank {
                bank: MS(10_000),
                increment: MS(0)
            }
        );
    }

    #[test]
    fn bad_items_are_named() {
        for (text, needle) in [
            ("plays=10", "unknown chess clock item 'plays=10'"),
            ("bank=5s,turn=1s", "either"),
            ("bank=0s", "longer than zero"),
            ("bank=5", "not a duration"),
            ("bank=5s,bank=6s", "twice"),
        ] {
            let e = text.parse::<ChessClock>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn a_bank_gains_its_increment_and_a_turn_restarts() {
        let mut c = ChessClocks::starting("bank=1s,inc=100ms".parse().unwrap());
        c.charge(Side::White, MS(300));
        c.charge(Side::White, MS(200));
        assert_eq!(c.limit(Side::White), MS(500));
        c.turn_over(Side::White);
        assert_eq!(c.limit(Side::White), MS(600));
        assert_eq!(c.limit(Side::Black), MS(1000));
        c.charge(Side::Black, MS(5000));
        assert_eq!(c.limit(Side::Black), MS(0));
        let mut t = ChessClocks::starting("turn=1s".parse().unwrap());
        t.charge(Side::Black, MS(700));
        assert_eq!(t.limit(Side::Black), MS(300));
        t.turn_over(Side::Black);
        assert_eq!(t.limit(Side::Black), MS(1000));
    }
}
