//! `zebra verify FILE [--rules NAME]`: every game of a record file replayed through the
//! engine, one verdict a game, then the file's.

use std::path::Path;

use super::args::VerifyArgs;
use super::common::rules_flag;
use super::failure::Failure;
use crate::record::{GameReader, GameRecord};
use crate::rules::Rules;

/// Every game replayed as the game its Variant tag names; with `--rules`, a game of
/// another game is bad usage (exit 2).
pub(super) fn run(args: VerifyArgs) -> Result<(), Failure> {
    let expected = args.rules.as_deref().map(rules_flag).transpose()?;
    verify(&args.file, expected)
}

/// What the games read so far came to.
#[derive(Default)]
struct Tally {
    games: usize,
    /// Games that diverge from the rules.
    bad: usize,
    /// Games of another edition of the rulings, refused unreplayed.
    other: usize,
    /// The games the unverified records are of: each is judged by its own rulings edition.
    other_games: Vec<Rules>,
}

/// Replays every game of a record file through the engine: one line per game (its verdict)
/// and one for the damage that ends a file which cannot be read to its end.
fn verify(path: &Path, expected: Option<Rules>) -> Result<(), Failure> {
    let cannot =
        |e: &dyn std::fmt::Display| Failure::Run(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| cannot(&e))?;
    // Opening a directory succeeds; reading it would be reported as a damaged line 1.
    if file.metadata().map_err(|e| cannot(&e))?.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    // Game by game, each verdict printed as soon as its game is read: a damaged tail still
    // leaves a verdict for every game before it, and memory holds one game at a time.
    let mut tally = Tally::default();
    let mut damage = None;
    for item in GameReader::new(std::io::BufReader::new(file)) {
        let rec = match item {
            Ok(rec) => rec,
            Err(e) => {
                out!("game {}: {e}", tally.games + 1);
                damage = Some(match e.line() {
                    Some(line) => format!("cannot be read from line {line} on"),
                    None => "cannot be read".to_string(),
                });
                break;
            }
        };
        tally.games += 1;
        if let (Some(expected), Ok(found)) = (expected, rec.rules()) {
            if found != expected {
                return Err(Failure::Usage(format!(
                    "{}: game {} is a {found} record, not {expected}; verify it without --rules or with --rules {found}",
                    path.display(),
                    tally.games
                )));
            }
        }
        tally.judge(&rec);
    }
    tally.verdict(path, damage)
}

impl Tally {
    /// Replays one game and prints its verdict.
    fn judge(&mut self, rec: &GameRecord) {
        // "game 3 (greedy vs random)": the players as the record names them (a record
        // that names neither, or gives PGN's unknown "?" for both, is "game 3").
        let named = |tag: &str| rec.tags.get(tag).filter(|v| !v.is_empty() && *v != "?");
        let (white, black) = (
            named(crate::record::tags::WHITE),
            named(crate::record::tags::BLACK),
        );
        let games = match (white, black) {
            (None, None) => self.games.to_string(),
            (w, b) => format!(
                "{} ({} vs {})",
                self.games,
                w.unwrap_or("?"),
                b.unwrap_or("?")
            ),
        };
        match crate::record::verify_any(rec) {
            Ok(v) => out!(
                "game {games}: ok, {} ({}, {} actions, {} clock expiries)",
                v.result.map_or("*", |r| r.pgn()),
                v.termination,
                v.actions,
                v.expiries
            ),
            Err(d) if d.is_other_edition() => {
                self.other += 1;
                let game = rec.rules().unwrap_or_default();
                if !self.other_games.contains(&game) {
                    self.other_games.push(game);
                }
                out!("game {games}: {d} (verify it with the zebra release that wrote it)");
            }
            Err(d) => {
                self.bad += 1;
                out!("game {games}: {d}");
            }
        }
    }

    /// What the games of another edition get, after "N of M games" or "N".
    fn unverified(&self) -> String {
        let judged: Vec<String> = self
            .other_games
            .iter()
            .map(|&g| {
                let edition = crate::with_rules!(g, R => <R as crate::record::Recorded>::RULINGS);
                if self.other_games.len() == 1 && g == Rules::FootballChess {
                    format!("edition {edition}")
                } else {
                    format!("{g} edition {edition}")
                }
            })
            .collect();
        format!(
            "{} not verified: played under another rulings edition (this zebra judges {} only)",
            if self.other == 1 { "was" } else { "were" },
            judged.join(", ")
        )
    }

    /// The file's verdict: every game verified, or what went wrong (exit code 1).
    fn verdict(&self, path: &Path, damage: Option<String>) -> Result<(), Failure> {
        let (games, bad, other) = (self.games, self.bad, self.other);
        let unverified = self.unverified();
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
}
