//! `zebra demo`: one whole game between two seeded random players inside the engine (no
//! bot processes), printed a line per play (Boyer's Football: per turn), for any game
//! (`zebra_engine::playout::demo`).

use super::args::DemoArgs;
use super::common::rules_flag;
use super::failure::Failure;

/// Checks the flags and plays the game.
pub(super) fn run(args: DemoArgs) -> Result<(), Failure> {
    let rules = rules_flag(&args.rules)?;
    if args.plays_per_quarter == 0 {
        return Err(Failure::Usage(
            "--plays-per-quarter must be at least 1".into(),
        ));
    }
    let quiet = args.quiet;
    crate::with_rules!(rules, G => crate::playout::demo::<G>(args.seed, args.plays_per_quarter, |line| {
        if !quiet || line.starts_with("result ") {
            out!("{line}");
        }
    }));
    Ok(())
}
