//! `zebra perft`: legal action sequences counted from a position to a depth (Boyer's
//! Football: whole turns), in total or below each first action (`--divide`).

use super::args::PerftArgs;
use super::common::rules_flag;
use super::failure::Failure;
use crate::rules::perft::{self, perft};
use crate::rules::{Game, Rules};

/// Checks the position and depth, counts, prints.
pub(super) fn run(args: PerftArgs) -> Result<(), Failure> {
    let PerftArgs {
        rules,
        position,
        diagram,
        depth,
        divide,
    } = args;
    if rules_flag(&rules)? == Rules::BoyerFootball {
        return boyer_perft(position.as_deref(), diagram.is_some(), depth, divide);
    }
    let game = match (position, diagram) {
        (Some(name), _) => perft::position(&name).ok_or_else(|| {
            let names: Vec<&str> = perft::POSITIONS.iter().map(|(n, _)| *n).collect();
            Failure::Usage(format!(
                "unknown position '{name}'; known: {}",
                names.join(", ")
            ))
        })?,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Failure::Run(format!("cannot read {}: {e}", path.display())))?;
            Game::from_diagram(&text)
                .map_err(|e| Failure::Run(format!("{}: {e}", path.display())))?
        }
        (None, None) => {
            return Err(Failure::Usage(
                "give --position NAME or --diagram FILE".into(),
            ))
        }
    };
    if depth > 6 {
        return Err(Failure::Usage(format!(
            "--depth {depth} is too deep; use 6 or less"
        )));
    }
    if divide {
        print_divide(perft::divide(&game, depth));
    } else {
        out!("{}", perft(&game, depth));
    }
    Ok(())
}

/// `zebra perft --rules boyer-football`: whole turns from a FEN (default the start).
fn boyer_perft(fen: Option<&str>, diagram: bool, depth: u32, divide: bool) -> Result<(), Failure> {
    use crate::rules::boyer;
    if diagram {
        return Err(Failure::Usage(
            "--diagram is for football-chess; give a Boyer position as --position FEN".into(),
        ));
    }
    let pos = match fen {
        None => boyer::Position::start(),
        Some(text) => text
            .parse::<boyer::Position>()
            .map_err(|e| Failure::Usage(format!("--position: {e}")))?,
    };
    if !pos.at_turn_start() {
        return Err(Failure::Usage(
            "--position: perft counts whole turns; give a position between turns".into(),
        ));
    }
    if depth > 5 {
        return Err(Failure::Usage(format!(
            "--depth {depth} is too deep; use 5 or less"
        )));
    }
    if divide {
        print_divide(boyer::divide(&pos, depth));
    } else {
        out!("{}", boyer::perft(&pos, depth));
    }
    Ok(())
}

/// `perft --divide`: each first action with its count, then the total on the last line.
fn print_divide<A: std::fmt::Display>(split: Vec<(A, u64)>) {
    let mut total = 0;
    for (action, n) in split {
        out!("{action} {n}");
        total += n;
    }
    out!("total {total}");
}
