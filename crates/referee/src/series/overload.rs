//! What a series does about a machine too busy to run its bots on time.
//!
//! Clocks are wall time, so a bot that is not scheduled loses time it never had: with more
//! bots running than CPUs, timeouts (and the games they decide) can be the machine's
//! fault. A CI gate must not flip because the runner was busy. Two defences, both pure
//! here and wired in by the runner:
//!
//! - [`overload_warning`]: said once when the series starts, if the games at once run more
//!   bots than there are CPUs.
//! - `--replay-suspect` ([`ReplaySuspect`], [`replay_decision`]): a game in which either bot
//!   had a suspect timeout (one during which it used less than half the wall time in CPU)
//!   is voided and played again, same seed and sides, up to a cap of attempts; the attempt
//!   at the cap counts whatever happens, so that a machine that stays overloaded still
//!   finishes the series (and the summary says how many games that was).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::conduct::GameConduct;

/// Bots in one game.
pub(crate) const BOTS_PER_GAME: usize = 2;

/// The attempts a game gets at most with `--replay-suspect` (the first one included).
pub(crate) const DEFAULT_MAX_ATTEMPTS: u32 = 3;

/// The warning for `concurrency` games at once on `cpus` CPUs, if they run more bots than
/// there are CPUs (each bot may want a whole CPU while it thinks; the referee's own work is
/// small and not counted).
pub(crate) fn overload_warning(concurrency: usize, cpus: usize) -> Option<String> {
    let bots = concurrency.saturating_mul(BOTS_PER_GAME);
    if bots <= cpus {
        return None;
    }
    Some(format!(
        "{concurrency} game{} at once run{} {bots} bots on {cpus} CPU{}; timeouts may be the machine's fault (see --replay-suspect)",
        plural(concurrency),
        if concurrency == 1 { "s" } else { "" },
        plural(cpus),
    ))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `--replay-suspect`, as saved in `series.json` (a resumed series keeps it, and its cap).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplaySuspect {
    /// Attempts per game at most, the first one included; the last one counts.
    pub max_attempts: u32,
    /// Where voided attempts are kept (never in the series' PGN, which holds exactly the
    /// counted games): `DIR/voided.pgn`.
    pub voided_pgn: PathBuf,
}

/// What becomes of a finished attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayDecision {
    /// It counts.
    Count,
    /// It counts although a suspect timeout may have decided it: it was the last attempt
    /// allowed.
    CountStillSuspect,
    /// It is voided and the game is played again.
    Void,
}

/// Whether a game may have been decided by the machine rather than the bots: either bot
/// had at least one suspect timeout in it.
pub(crate) fn is_suspect(game: &[GameConduct; 2]) -> bool {
    game.iter().any(|side| side.suspect_timeouts > 0)
}

/// The fate of attempt `attempt` (from 1) of a game, with `max_attempts` the cap of
/// `--replay-suspect` (`None`: off, every attempt counts).
pub(crate) fn replay_decision(
    game: &[GameConduct; 2],
    attempt: u32,
    max_attempts: Option<u32>,
) -> ReplayDecision {
    if !is_suspect(game) {
        return ReplayDecision::Count;
    }
    match max_attempts {
        Some(max) if attempt < max => ReplayDecision::Void,
        Some(_) => ReplayDecision::CountStillSuspect,
        None => ReplayDecision::Count,
    }
}

/// The books of `--replay-suspect` over a series (counted again from the records on
/// resume: voided attempts from `voided.pgn`, suspect games from the series' PGN).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Replays {
    /// Whether `--replay-suspect` is on.
    pub enabled: bool,
    /// Attempts per game at most (1 when off).
    pub max_attempts: u32,
    /// Attempts voided for a suspect timeout.
    pub voided: u64,
    /// Games played again at least once.
    pub games_replayed: u64,
    /// Counted games with a suspect timeout: with `--replay-suspect`, the games whose last
    /// allowed attempt still had one; without it, every suspect game.
    pub counted_suspect: u64,
    #[serde(skip)]
    replayed: BTreeSet<u32>,
}

impl Replays {
    pub fn new(policy: Option<&ReplaySuspect>) -> Replays {
        Replays {
            enabled: policy.is_some(),
            max_attempts: policy.map_or(1, |p| p.max_attempts),
            ..Replays::default()
        }
    }

    /// One voided attempt of game `game`.
    pub fn void(&mut self, game: u32) {
        self.voided += 1;
        if self.replayed.insert(game) {
            self.games_replayed += 1;
        }
    }

    /// One counted game.
    pub fn count(&mut self, game: &[GameConduct; 2]) {
        if is_suspect(game) {
            self.counted_suspect += 1;
        }
    }

    /// A line for people, or nothing when there is nothing to say.
    pub fn text(&self) -> Option<String> {
        if self.enabled {
            let mut line = format!(
                "replays: {} game{} played again for suspect timeouts ({} attempt{} voided, at most {} per game)",
                self.games_replayed,
                plural(self.games_replayed as usize),
                self.voided,
                plural(self.voided as usize),
                self.max_attempts
            );
            if self.counted_suspect > 0 {
                line.push_str(&format!(
                    "; {} game{} still had one at the last attempt and counted anyway",
                    self.counted_suspect,
                    plural(self.counted_suspect as usize)
                ));
            }
            Some(line)
        } else if self.counted_suspect > 0 {
            Some(format!(
                "{} game{} had suspect timeouts (the bot was not computing: blocked, or the machine too busy); --replay-suspect plays such games again",
                self.counted_suspect,
                plural(self.counted_suspect as usize)
            ))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_bots_than_cpus_is_a_warning() {
        assert_eq!(
            overload_warning(8, 2).as_deref(),
            Some("8 games at once run 16 bots on 2 CPUs; timeouts may be the machine's fault (see --replay-suspect)")
        );
        assert_eq!(
            overload_warning(1, 1).as_deref(),
            Some("1 game at once runs 2 bots on 1 CPU; timeouts may be the machine's fault (see --replay-suspect)")
        );
        assert_eq!(overload_warning(1, 2), None);
        assert_eq!(overload_warning(2, 4), None);
        assert!(overload_warning(3, 4).is_some());
        assert!(overload_warning(usize::MAX, 64).is_some());
    }

    fn game(white_suspect: u32, black_suspect: u32) -> [GameConduct; 2] {
        let side = |suspect| GameConduct {
            timeouts: suspect + 1,
            suspect_timeouts: suspect,
            illegal: 0,
            verdict: None,
        };
        [side(white_suspect), side(black_suspect)]
    }

    #[test]
    fn a_suspect_game_is_replayed_up_to_the_cap() {
        use ReplayDecision::*;
        let cap = Some(3);
        // Timeouts that are not suspect are the bot's own: the game counts.
        assert_eq!(replay_decision(&game(0, 0), 1, cap), Count);
        for suspect in [game(1, 0), game(0, 2)] {
            assert_eq!(replay_decision(&suspect, 1, cap), Void);
            assert_eq!(replay_decision(&suspect, 2, cap), Void);
            assert_eq!(replay_decision(&suspect, 3, cap), CountStillSuspect);
            // Without --replay-suspect every game counts at once.
            assert_eq!(replay_decision(&suspect, 1, None), Count);
        }
        assert_eq!(replay_decision(&game(1, 1), 1, Some(1)), CountStillSuspect);
    }

    #[test]
    fn the_replay_books_count_games_once() {
        let policy = ReplaySuspect {
            max_attempts: 3,
            voided_pgn: PathBuf::from("voided.pgn"),
        };
        let mut r = Replays::new(Some(&policy));
        r.void(7);
        r.void(7);
        r.void(8);
        r.count(&game(1, 0));
        r.count(&game(0, 0));
        assert_eq!((r.voided, r.games_replayed, r.counted_suspect), (3, 2, 1));
        let text = r.text().unwrap();
        assert!(text.contains("2 games played again"), "{text}");
        assert!(text.contains("3 attempts voided"), "{text}");
        assert!(text.contains("1 game still had one"), "{text}");
        let off = Replays::new(None);
        assert_eq!(off.max_attempts, 1);
        assert_eq!(off.text(), None);
    }
}
