//! `zebra perft`: legal action sequences counted from a position to a depth (Boyer's
//! Football: whole turns), in total or below each first action (`--divide`).

use super::failure::Failure;

/// `zebra perft --rules boyer-football`: whole turns from a FEN (default the start).
pub(super) fn boyer_perft(
    fen: Option<&str>,
    diagram: bool,
    depth: u32,
    divide: bool,
) -> Result<(), Failure> {
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
pub(super) fn print_divide<A: std::fmt::Display>(split: Vec<(A, u64)>) {
    let mut total = 0;
    for (action, n) in split {
        out!("{action} {n}");
        total += n;
    }
    out!("total {total}");
}
