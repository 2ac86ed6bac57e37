//! `zebra bench`: the benchmarks (see `crate::bench`), each printed as a line of text or
//! one JSON object.

use super::common::print_report;
use super::failure::Failure;
use crate::cli::BenchTarget;

/// `zebra bench engine|movegen --rules boyer-football`.
pub(super) fn boyer_bench(
    target: BenchTarget,
    games: u64,
    seed: u64,
    rounds: u32,
    json: bool,
) -> Result<(), Failure> {
    match target {
        BenchTarget::Engine => {
            let r = crate::bench::boyer_run(games, seed);
            let text = format!(
                "boyer-football: {} games, {} turns, {} sub-moves in {:.3} s: {:.0} games/s, {:.0} sub-moves/s (seed {}, one core)",
                r.games, r.turns, r.sub_moves, r.seconds, r.games_per_second, r.sub_moves_per_second, r.seed
            );
            print_report(json, &r, &text);
            Ok(())
        }
        BenchTarget::Movegen => {
            if rounds == 0 {
                return Err(Failure::Usage("--rounds must be at least 1".into()));
            }
            let r = crate::bench::boyer_movegen(seed, rounds);
            let text = format!(
                "boyer-football: {} positions x {rounds} rounds: {:.0} generations/s, {:.0} listed sub-moves/s (one core)",
                r.positions, r.generations_per_second, r.actions_listed_per_second
            );
            print_report(json, &r, &text);
            Ok(())
        }
        other => Err(Failure::Usage(format!(
            "bench {}: measures Football Chess games; --rules boyer-football benchmarks engine and movegen",
            clap::ValueEnum::to_possible_value(&other).map_or("?".to_string(), |v| v.get_name().to_string())
        ))),
    }
}
