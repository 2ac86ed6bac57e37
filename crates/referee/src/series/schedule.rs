//! Which games a series plays, in which order: pure, so that a resumed series computes the
//! very same list and can tell which of its games are missing.
//!
//! Every encounter (two bots) is played in pairs: the two games of a pair have the same
//! seed, and the bots swap sides between them (White takes the first possession, so the
//! swap also swaps who receives first). Pair `k` of every encounter uses the seed
//! `seed + k - 1`, so all encounters of a tournament meet the same sequence of seeds, the
//! way chess match runners give every pairing the same openings.

use std::fmt;

/// How the bots meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every bot against every other (two bots: a head-to-head match).
    RoundRobin,
    /// The first bot against each of the others; the others do not meet.
    Gauntlet,
}

impl Format {
    pub const fn code(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "round-robin" | "roundrobin" | "rr" => Some(Format::RoundRobin),
            "gauntlet" => Some(Format::Gauntlet),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One game of the series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fixture {
    /// The game's number in the series, from 1: its place in the schedule.
    pub game: u32,
    /// The pair's number in the series, from 1; both games of a pair share it.
    pub pair: u32,
    /// The round: the pair's number within its encounter, from 1.
    pub round: u32,
    /// 1 for the first game of the pair, 2 for the return game with sides swapped.
    pub leg: u8,
    /// Indices into the series' bots.
    pub white: usize,
    pub black: usize,
    pub seed: u64,
}

impl Fixture {
    /// The encounter's bots, lower index first (the "A" of its statistics).
    pub fn encounter(&self) -> (usize, usize) {
        (self.white.min(self.black), self.white.max(self.black))
    }
}

/// The encounters of a format over `bots` bots, in schedule order.
pub fn encounters(format: Format, bots: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..bots)
            .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..bots).map(|b| (0, b)).collect(),
    }
}

/// The most games a series can schedule: games are numbered by a `u32` (the `Game` tag).
pub(crate) const MAX_GAMES: u64 = u32::MAX as u64;

/// Every game of the series: `rounds` pairs per encounter. Round by round, every encounter
/// plays one pair before any plays its next, so a series stopped early (by the SPRT or the
/// user) is balanced between encounters.
///
/// Computed on demand, game by game, never as a whole list: a series of four billion games
/// costs no more memory than one of four.
#[derive(Clone, Debug)]
pub struct Schedule {
    encounters: Vec<(usize, usize)>,
    seed: u64,
    len: u32,
    /// The games this run plays, first and last (inclusive; first > last: none): every
    /// game, or a shard's block ([`Schedule::within`]).
    window: (u32, u32),
}

/// The most bots a series can have: a round robin of this many is half a million
/// encounters, each with its own books in memory.
pub(crate) const MAX_BOTS: usize = 1000;

/// A schedule too big to play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("{encounters} encounter(s) of {rounds} pair(s) make {games} games; a series holds at most {MAX_GAMES} (games are numbered from 1 to {MAX_GAMES}): play fewer games or fewer bots")]
    TooManyGames {
        encounters: u64,
        rounds: u32,
        games: u128,
    },
    #[error("{0} bots: a series has at most {MAX_BOTS}")]
    TooManyBots(usize),
}

impl Schedule {
    /// The schedule of `bots` bots meeting in `format`, `rounds` pairs per encounter; refused
    /// when its games would not fit their numbers.
    pub fn new(
        format: Format,
        bots: usize,
        rounds: u32,
        seed: u64,
    ) -> Result<Schedule, ScheduleError> {
        if bots > MAX_BOTS {
            return Err(ScheduleError::TooManyBots(bots));
        }
        let count = encounter_count(format, bots);
        let games = u128::from(count) * u128::from(rounds) * 2;
        if games > u128::from(MAX_GAMES) {
            return Err(ScheduleError::TooManyGames {
                encounters: count,
                rounds,
                games,
            });
        }
        // At most half a million encounters (`MAX_BOTS`).
        let encounters = encounters(format, bots);
        Ok(Schedule {
            encounters,
            seed,
            len: games as u32,
            window: (1, games as u32),
        })
    }

    /// The schedule of the series `config` describes: its shard's games when it is one.
    pub fn of(config: &super::config::SeriesConfig) -> Result<Schedule, ScheduleError> {
        let whole = Schedule::new(config.format, config.bots.len(), config.rounds, config.seed)?;
        Ok(match config.shard {
            Some(shard) => whole.within(shard),
            None => whole,
        })
    }

    /// Only the games of `shard` (whole pairs; numbers, seeds and sides as in the whole).
    pub fn within(mut self, shard: super::shard::Shard) -> Schedule {
        self.window = shard.games(self.len);
        self
    }

    /// The number of games this run plays (a shard's, or all).
    pub fn len(&self) -> u32 {
        let (first, last) = self.window;
        (last + 1).saturating_sub(first)
    }

    /// The number of games of the whole series, every shard's.
    pub fn total(&self) -> u32 {
        self.len
    }

    /// The numbers of the first and last game this run plays (first > last: none).
    pub fn window(&self) -> (u32, u32) {
        self.window
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game number `game` (from 1), if this run plays it.
    pub fn get(&self, game: u32) -> Option<Fixture> {
        if game < self.window.0 || game > self.window.1 {
            return None;
        }
        let index = game - 1;
        let pair_index = index / 2;
        let per_round = self.encounters.len() as u32;
        let round = pair_index / per_round + 1;
        let (a, b) = self.encounters[(pair_index % per_round) as usize];
        let (white, black) = if index % 2 == 0 { (a, b) } else { (b, a) };
        Some(Fixture {
            game,
            pair: pair_index + 1,
            round,
            leg: (index % 2) as u8 + 1,
            white,
            black,
            seed: self.seed.wrapping_add(u64::from(round - 1)),
        })
    }

    /// Every game in schedule order, computed as it is taken.
    pub fn iter(&self) -> impl Iterator<Item = Fixture> + '_ {
        (self.window.0..=self.window.1).filter_map(|game| self.get(game))
    }
}

/// How many encounters a format makes of `bots` bots, without listing them.
fn encounter_count(format: Format, bots: usize) -> u64 {
    let n = bots as u64;
    match format {
        Format::RoundRobin => n * n.saturating_sub(1) / 2,
        Format::Gauntlet => n.saturating_sub(1),
    }
}

/// Every game of a small series as a list (tests and tools; a series uses [`Schedule`]).
pub fn fixtures(format: Format, bots: usize, rounds: u32, seed: u64) -> Vec<Fixture> {
    Schedule::new(format, bots, rounds, seed)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_to_head_pairs_share_a_seed_and_swap_sides() {
        let f = fixtures(Format::RoundRobin, 2, 3, 100);
        assert_eq!(f.len(), 6);
        for pair in f.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
            assert_eq!((pair[0].leg, pair[1].leg), (1, 2));
        }
        let seeds: Vec<u64> = f.iter().map(|g| g.seed).collect();
        assert_eq!(seeds, [100, 100, 101, 101, 102, 102]);
        let numbers: Vec<u32> = f.iter().map(|g| g.game).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn round_robin_meets_every_encounter_once_per_round() {
        let f = fixtures(Format::RoundRobin, 4, 2, 0);
        assert_eq!(encounters(Format::RoundRobin, 4).len(), 6);
        assert_eq!(f.len(), 6 * 2 * 2);
        // The first round holds one pair of every encounter, all on seed 0.
        let first: Vec<(usize, usize)> = f[..12].iter().map(|g| g.encounter()).collect();
        for e in encounters(Format::RoundRobin, 4) {
            assert_eq!(first.iter().filter(|x| **x == e).count(), 2);
        }
        assert!(f[..12].iter().all(|g| g.seed == 0 && g.round == 1));
        assert!(f[12..].iter().all(|g| g.seed == 1 && g.round == 2));
    }

    #[test]
    fn gauntlet_plays_only_the_first_bot() {
        let f = fixtures(Format::Gauntlet, 4, 1, 7);
        assert_eq!(encounters(Format::Gauntlet, 4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(f.len(), 6);
        assert!(f.iter().all(|g| g.white == 0 || g.black == 0));
    }

    #[test]
    fn the_schedule_computes_each_game_on_demand_and_refuses_more_than_it_can_number() {
        // Two bots, four billion games: nothing is listed, any game is computed at once.
        let huge = Schedule::new(Format::RoundRobin, 2, 2_000_000_000, 9).unwrap();
        assert_eq!(huge.len(), 4_000_000_000);
        let last = huge.get(4_000_000_000).unwrap();
        assert_eq!(
            (last.pair, last.round, last.leg),
            (2_000_000_000, 2_000_000_000, 2)
        );
        assert_eq!(last.seed, 9 + 1_999_999_999);
        assert_eq!(huge.get(4_000_000_001), None);
        assert_eq!(huge.get(0), None);
        assert_eq!(huge.iter().take(3).count(), 3);
        // Three bots make three encounters: twelve billion games do not fit a game number.
        let err = Schedule::new(Format::RoundRobin, 3, 2_000_000_000, 0).unwrap_err();
        assert!(
            matches!(
                err,
                ScheduleError::TooManyGames {
                    games: 12_000_000_000,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            Schedule::new(Format::RoundRobin, 100_000, 1, 0).unwrap_err(),
            ScheduleError::TooManyBots(100_000)
        );
        // No encounter, no game (a lone bot is refused before a schedule is made).
        assert!(Schedule::new(Format::Gauntlet, 1, 5, 0).unwrap().is_empty());
        // The same games as listing them round by round.
        let s = Schedule::new(Format::RoundRobin, 4, 3, 5).unwrap();
        let mut listed = Vec::new();
        for round in 1..=3u32 {
            for (a, b) in encounters(Format::RoundRobin, 4) {
                for (leg, (white, black)) in [(1u8, (a, b)), (2u8, (b, a))] {
                    listed.push(Fixture {
                        game: listed.len() as u32 + 1,
                        pair: listed.len() as u32 / 2 + 1,
                        round,
                        leg,
                        white,
                        black,
                        seed: 5 + u64::from(round - 1),
                    });
                }
            }
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), listed);
    }

    #[test]
    fn formats_read_back() {
        for f in [Format::RoundRobin, Format::Gauntlet] {
            assert_eq!(Format::parse(f.code()), Some(f));
        }
        assert_eq!(Format::parse("swiss"), None);
    }
}
