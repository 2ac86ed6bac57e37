//! `zebra verify FILE [--rules NAME]`: every game of a record file replayed through the
//! engine, one verdict a game, then the file's.

use std::path::Path;

use super::failure::Failure;
use crate::record::GameReader;
use crate::rules::Rules;

/// `zebra verify FILE [--rules NAME]`: every game replayed as the game its Variant tag
/// names; with `--rules`, a game of another game is bad usage (exit 2).
pub(super) fn verify(path: &Path, expected: Option<Rules>) -> Result<(), Failure> {
    let cannot =
        |e: &dyn std::fmt::Display| Failure::Run(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| cannot(&e))?;
    // Opening a directory succeeds; reading it would be reported as a damaged line 1.
    if file.metadata().map_err(|e| cannot(&e))?.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    // Game by game, each verdict printed as soon as its game is read: a damaged tail still
    // leaves a verdict for every game before it, and memory holds one game at a time.
    // `bad`: games that diverge; `other`: games of another edition of the rulings, refused
    // unreplayed.
    let (mut games, mut bad, mut other) = (0, 0, 0);
    // The games the unverified records are of: each is judged by its own rulings edition.
    let mut other_games: Vec<Rules> = Vec::new();
    let mut damage = None;
    for item in GameReader::new(std::io::BufReader::new(file)) {
        let rec = match item {
            Ok(rec) => rec,
            Err(e) => {
                out!("game {}: {e}", games + 1);
                damage = Some(match e.line() {
                    Some(line) => format!("cannot be read from line {line} on"),
                    None => "cannot be read".to_string(),
                });
                break;
            }
        };
        games += 1;
        if let (Some(expected), Ok(found)) = (expected, rec.rules()) {
            if found != expected {
                return Err(Failure::Usage(format!(
                    "{}: game {games} is a {found} record, not {expected}; verify it without --rules or with --rules {found}",
                    path.display()
                )));
            }
        }
        match crate::record::verify_any(&rec) {
            Ok(v) => out!(
                "game {games}: ok, {} ({}, {} actions, {} clock expiries)",
                v.result.map_or("*", |r| r.pgn()),
                v.termination,
                v.actions,
                v.expiries
            ),
            Err(d) if d.is_other_edition() => {
                other += 1;
                let game = rec.rules().unwrap_or_default();
                if !other_games.contains(&game) {
                    other_games.push(game);
                }
                out!("game {games}: {d} (verify it with the zebra release that wrote it)");
            }
            Err(d) => {
                bad += 1;
                out!("game {games}: {d}");
            }
        }
    }
    // What the games of another edition get, after "N of M games" or "N".
    let judged: Vec<String> = other_games
        .iter()
        .map(|&g| {
            let edition = crate::with_rules!(g, R => <R as crate::record::Recorded>::RULINGS);
            if other_games.len() == 1 && g == Rules::FootballChess {
                format!("edition {edition}")
            } else {
                format!("{g} edition {edition}")
            }
        })
        .collect();
    let unverified = format!(
        "{} not verified: played under another rulings edition (this zebra judges {} only)",
        if other == 1 { "was" } else { "were" },
        judged.join(", ")
    );
    let before = match (games, bad, other) {
        (0, _, _) => "no complete game before it".to_string(),
        (n, 0, 0) => format!("the {n} game(s) before it verified"),
        (n, b, 0) => format!("{b} of the {n} game(s) before it diverge from the rules"),
        (n, 0, o) => format!("{o} of the {n} game(s) before it {unverified}"),
        (n, b, o) => {
            format!("{b} of the {n} game(s) before it diverge from the rules; {o} {unverified}")
        }
    };
    match damage {
        Some(damage) => Err(Failure::Run(format!(
            "{}: {damage}; {before}",
            path.display()
        ))),
        None if games == 0 => Err(Failure::Run(format!(
            "{}: no game (the file is empty, or holds only blank lines and comments)",
            path.display()
        ))),
        None if bad == 0 && other == 0 => {
            out!("{games} games verified");
            Ok(())
        }
        None if other == 0 => Err(Failure::Run(format!(
            "{bad} of {games} games diverge from the rules"
        ))),
        None if bad == 0 => Err(Failure::Run(format!(
            "{other} of {games} games {unverified}"
        ))),
        None => Err(Failure::Run(format!(
            "{bad} of {games} games diverge from the rules; {other} {unverified}"
        ))),
    }
}
