//! `zebra perft`: legal sequences counted from a position to a depth (what a step is is
//! the game's: an action of Football Chess, a whole turn of Boyer's Football), in total or
//! below each first action (`--divide`). One runner for every game (`zebra_engine::perft`).

use super::args::PerftArgs;
use super::common::rules_flag;
use super::failure::Failure;
use crate::perft::{self, Perft};

/// Checks the game, position and depth, counts, prints.
pub(super) fn run(args: PerftArgs) -> Result<(), Failure> {
    let rules = rules_flag(&args.rules)?;
    crate::with_rules!(rules, G => count::<G>(args))
}

/// The count for game `G`: the position from `--position` (a built-in name or the game's
/// position text), `--diagram FILE` (the game's position text in a file) or the game's
/// default.
fn count<G: Perft>(args: PerftArgs) -> Result<(), Failure> {
    let game: G = match (&args.position, &args.diagram) {
        (Some(text), _) => {
            perft::position(text).map_err(|e| Failure::Usage(format!("--position: {e}")))?
        }
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Run(format!("cannot read {}: {e}", path.display())))?;
            G::from_text(&text).map_err(|e| Failure::Run(format!("{}: {e}", path.display())))?
        }
        (None, None) => match G::DEFAULT_POSITION {
            Some(name) => perft::position(name).map_err(|e| Failure::Run(e.to_string()))?,
            None => {
                return Err(Failure::Usage(format!(
                    "give --position NAME ({}) or --diagram FILE",
                    G::names().join(", ")
                )))
            }
        },
    };
    let depth =
        perft::depth::<G>(args.depth).map_err(|e| Failure::Usage(format!("--depth {e}")))?;
    if args.divide {
        let mut total = 0;
        for (action, n) in game.divide(depth) {
            out!("{action} {n}");
            total += n;
        }
        out!("total {total}");
    } else {
        out!("{}", game.perft(depth));
    }
    Ok(())
}
