//! The wall-time cap of one game (`--max-game-time`): the referee's backstop, independent
//! of the rules, so that a series or the daemon's queue can never stall behind one game.
//!
//! A game's clocks bound what its bots may think, but not always its wall time: Football
//! Chess charges its game clock only while the offense thinks, and a referee, a machine or
//! a rule can be slower than the clocks assume. So the referee also holds each game to a
//! wall-time cap counted from the game's start: when the cap is reached, even in the middle
//! of a bot's decision, it stops asking, ends both bots as at any other end, and decides
//! the result by the game's adjudication rule ([`crate::record::Recorded::adjudicate`]);
//! the record says `adjudication` and why.
//!
//! The cap is the setting [`MaxGameTime`]: a duration, `none`, or (the default) derived
//! from the game's clock: the worst-case wall time of one game under its rules and clock
//! ([`super::Refereed::wall_bound`]), doubled, plus a minute ([`with_margin`]). A game
//! that keeps to its clocks never meets the default cap; it is there for a game that
//! cannot end.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::clock::parse_duration;

/// How long one game may last in wall time, as set (`--max-game-time`, a series' or the
/// daemon's `max_game_time`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaxGameTime {
    /// Derived from the game's clock with a generous margin (`auto`): see [`with_margin`].
    #[default]
    Derived,
    /// No cap (`none`): the rules and the clocks alone end the game.
    Off,
    /// This long.
    At(Duration),
}

/// A cap that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaxGameTimeError {
    #[error("'{0}' is not a duration: write it like 25m, 90s or 1.5m, or none for no cap")]
    NotADuration(String),
    #[error("the cap must be longer than zero (none: no cap)")]
    Zero,
}

/// The default cap is the game's wall bound times this ...
pub(crate) const MARGIN_FACTOR: u32 = 2;
/// ... plus this. The bound is the rules' worst case for the bots' thinking; the margin is
/// for what it leaves out: the referee's own time between decisions, starting and
/// stopping the bots, and a busy machine (a game of instant bots spends most of its wall
/// time there), so that a game that keeps to its clocks is never cut short.
pub(crate) const MARGIN: Duration = Duration::from_secs(60);

/// The default cap of a game whose worst-case wall time is `bound`.
pub(crate) fn with_margin(bound: Duration) -> Duration {
    bound.saturating_mul(MARGIN_FACTOR).saturating_add(MARGIN)
}

impl MaxGameTime {
    /// The cap of a game whose clock gives the wall bound `bound` (computed only when it
    /// is needed); `None`: no cap.
    pub fn resolve(self, bound: impl FnOnce() -> Duration) -> Option<Duration> {
        match self {
            MaxGameTime::Derived => Some(with_margin(bound())),
            MaxGameTime::Off => None,
            MaxGameTime::At(d) => Some(d),
        }
    }
}

/// `25m`, `90s`, `1500ms`, `none` or `auto`.
impl FromStr for MaxGameTime {
    type Err = MaxGameTimeError;
    fn from_str(text: &str) -> Result<MaxGameTime, MaxGameTimeError> {
        match text.trim() {
            "none" => Ok(MaxGameTime::Off),
            "auto" => Ok(MaxGameTime::Derived),
            t => match parse_duration(t) {
                Ok(d) if d.is_zero() => Err(MaxGameTimeError::Zero),
                Ok(d) => Ok(MaxGameTime::At(d)),
                Err(_) => Err(MaxGameTimeError::NotADuration(crate::text::clean(
                    text,
                    crate::text::SHORT,
                ))),
            },
        }
    }
}

/// The canonical form, which `from_str` reads back: `auto`, `none`, or the duration in its
/// largest whole unit (`25m`, `90s`, `1500ms`).
impl fmt::Display for MaxGameTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaxGameTime::Derived => f.write_str("auto"),
            MaxGameTime::Off => f.write_str("none"),
            MaxGameTime::At(d) => f.write_str(&words(*d)),
        }
    }
}

/// A duration in its largest whole unit: `25m`, `90s`, `1500ms` (read back by
/// [`parse_duration`]).
pub fn words(d: Duration) -> String {
    let ms = d.as_millis();
    if ms > 0 && ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// The record's TerminationReason for a game stopped at `cap`: the cap, then the result
/// the adjudication gave and the score it was given on.
pub fn reason(cap: Duration, result: &str, score: [u16; 2]) -> String {
    format!(
        "wall-time cap of {} reached; adjudicated {result} at the score {}-{}",
        words(cap),
        score[0],
        score[1]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    #[test]
    fn caps_parse_and_print_back() {
        for (text, cap, shown) in [
            ("25m", MaxGameTime::At(S(1500)), "25m"),
            ("1500s", MaxGameTime::At(S(1500)), "25m"),
            ("90s", MaxGameTime::At(S(90)), "90s"),
            (
                "1.5s",
                MaxGameTime::At(Duration::from_millis(1500)),
                "1500ms",
            ),
            ("none", MaxGameTime::Off, "none"),
            ("auto", MaxGameTime::Derived, "auto"),
        ] {
            let parsed: MaxGameTime = text.parse().unwrap();
            assert_eq!(parsed, cap, "{text}");
            assert_eq!(parsed.to_string(), shown);
            assert_eq!(shown.parse::<MaxGameTime>(), Ok(cap));
        }
    }

    #[test]
    fn bad_caps_say_what_is_wrong_in_one_line() {
        for (text, want) in [
            ("25", "'25' is not a duration"),
            ("soon", "or none for no cap"),
            ("-1m", "not a duration"),
            ("0s", "longer than zero"),
        ] {
            let e = text.parse::<MaxGameTime>().unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn the_default_is_twice_the_bound_plus_a_minute() {
        assert_eq!(with_margin(S(600)), S(1260));
        assert_eq!(with_margin(Duration::ZERO), S(60));
        assert_eq!(with_margin(Duration::MAX), Duration::MAX);
        assert_eq!(MaxGameTime::Derived.resolve(|| S(100)), Some(S(260)));
        assert_eq!(MaxGameTime::At(S(5)).resolve(|| S(100)), Some(S(5)));
        assert_eq!(MaxGameTime::Off.resolve(|| S(100)), None);
    }

    #[test]
    fn the_reason_names_the_cap_and_the_adjudication() {
        assert_eq!(
            reason(S(1500), "1-0", [14, 7]),
            "wall-time cap of 25m reached; adjudicated 1-0 at the score 14-7"
        );
    }
}
