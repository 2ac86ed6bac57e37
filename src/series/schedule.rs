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

/// Every game of the series: `rounds` pairs per encounter. Round by round, every encounter
/// plays one pair before any plays its next, so a series stopped early (by the SPRT or the
/// user) is balanced between encounters.
pub fn fixtures(format: Format, bots: usize, rounds: u32, seed: u64) -> Vec<Fixture> {
    let encounters = encounters(format, bots);
    let mut out = Vec::with_capacity(encounters.len() * rounds as usize * 2);
    let mut pair = 0u32;
    for round in 1..=rounds {
        for &(a, b) in &encounters {
            pair += 1;
            let seed = seed.wrapping_add(u64::from(round - 1));
            for (leg, (white, black)) in [(1u8, (a, b)), (2u8, (b, a))] {
                out.push(Fixture {
                    game: out.len() as u32 + 1,
                    pair,
                    round,
                    leg,
                    white,
                    black,
                    seed,
                });
            }
        }
    }
    out
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
    fn formats_read_back() {
        for f in [Format::RoundRobin, Format::Gauntlet] {
            assert_eq!(Format::parse(f.code()), Some(f));
        }
        assert_eq!(Format::parse("swiss"), None);
    }
}
