//! Perft for every game: the number of distinct legal sequences of a given length from a
//! position, the runner behind `zebra perft`, and the one data-file format that pins the
//! counts of every game (`tests/data/perft/<game>.txt`).
//!
//! Other implementations of a game compare these counts with ours: any difference points
//! at a rule the two read differently. What one step of the count is belongs to the game
//! ([`Perft`]): an action of Football Chess (formations are not enumerated), a whole turn
//! of Boyer's Football, as its reference implementation counts.
//!
//! The data file: one `depth count position` line per case, `position` being the rest of
//! the line, a built-in position's name or the game's one-line position text (Boyer's
//! FEN; Football Chess's diagrams take lines, so its cases name built-in positions); `#` starts a comment line. [`check_file`] compares every case with the engine;
//! [`regenerate_file`] rewrites the counts in place, keeping every other line.

use std::fmt;

use crate::rules::ruleset::RuleSet;

/// What a game counts in perft, and where it counts from.
pub trait Perft: RuleSet + Sized {
    /// The deepest depth `zebra perft` accepts (deeper takes hours).
    const MAX_DEPTH: u32;
    /// The position `zebra perft` counts from when none is given, if the game has one.
    const DEFAULT_POSITION: Option<&'static str>;

    /// The names of the game's built-in positions.
    fn names() -> Vec<&'static str>;
    /// The built-in position `name`, or `None`.
    fn named(name: &str) -> Option<Self>;
    /// A position from the game's position text (Football Chess: a diagram; Boyer's
    /// Football: a FEN), or the problem in words.
    fn from_text(text: &str) -> Result<Self, String>;
    /// Counts the legal sequences of `depth` steps.
    fn perft(&self, depth: u32) -> u64;
    /// The count below each legal action now, in notation.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
}

/// Why a perft position or depth is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// Neither a built-in name nor a position of the game.
    #[error("'{text}' is not a built-in position ({known}) nor a position: {why}")]
    Position {
        text: String,
        known: String,
        why: String,
    },
    /// Deeper than the game allows (the caller names the depth's flag or field before it).
    #[error("{depth} is too deep; use {max} or less")]
    TooDeep { depth: u32, max: u32 },
}

/// The position `text` names: a built-in name first, else the game's position text.
pub fn position<G: Perft>(text: &str) -> Result<G, PerftError> {
    if let Some(game) = G::named(text.trim()) {
        return Ok(game);
    }
    G::from_text(text).map_err(|why| PerftError::Position {
        text: crate::text::clean(text.trim(), 60),
        known: G::names().join(", "),
        why,
    })
}

/// Refuses a depth deeper than the game allows.
pub fn depth<G: Perft>(depth: u32) -> Result<u32, PerftError> {
    if depth > G::MAX_DEPTH {
        return Err(PerftError::TooDeep {
            depth,
            max: G::MAX_DEPTH,
        });
    }
    Ok(depth)
}

/// One case of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// 1-based line number.
    pub line: usize,
    pub depth: u32,
    pub count: u64,
    pub position: String,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.depth, self.count, self.position)
    }
}

/// A line of a data file that is not `depth count position`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: expected 'depth count position', got '{text}'")]
pub struct BadLine {
    pub line: usize,
    pub text: String,
}

/// The cases of a data file's text, or its first bad line.
pub fn read_cases(text: &str) -> Result<Vec<Case>, BadLine> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        let bad = || BadLine {
            line: i + 1,
            text: raw.to_string(),
        };
        let mut words = raw.trim().splitn(3, ' ');
        let (Some(depth), Some(count), Some(position)) = (words.next(), words.next(), words.next())
        else {
            return Err(bad());
        };
        let (Ok(depth), Ok(count)) = (depth.parse(), count.parse()) else {
            return Err(bad());
        };
        cases.push(Case {
            line: i + 1,
            depth,
            count,
            position: position.trim().to_string(),
        });
    }
    Ok(cases)
}

/// Every case of a data file whose count the engine does not reproduce, in words; an
/// unreadable line or position is one of them.
pub fn check_file<G: Perft>(text: &str) -> Vec<String> {
    let cases = match read_cases(text) {
        Ok(cases) => cases,
        Err(e) => return vec![e.to_string()],
    };
    let mut wrong = Vec::new();
    if cases.is_empty() {
        wrong.push("no cases".to_string());
    }
    for case in cases {
        match position::<G>(&case.position) {
            Err(e) => wrong.push(format!("line {}: {e}", case.line)),
            Ok(game) => {
                let got = game.perft(case.depth);
                if got != case.count {
                    wrong.push(format!(
                        "line {}: {} depth {}: pinned {}, now {got}",
                        case.line, case.position, case.depth, case.count
                    ));
                }
            }
        }
    }
    wrong
}

/// The data file with every count recomputed by the engine; comments, blank lines and the
/// order kept. `Err` names a line that cannot be counted.
pub fn regenerate_file<G: Perft>(text: &str) -> Result<String, String> {
    let cases = read_cases(text).map_err(|e| e.to_string())?;
    let mut cases = cases.into_iter().peekable();
    let mut out = String::new();
    for (i, raw) in text.lines().enumerate() {
        match cases.peek() {
            Some(case) if case.line == i + 1 => {
                let game = position::<G>(&case.position)
                    .map_err(|e| format!("line {}: {e}", case.line))?;
                let fresh = Case {
                    count: game.perft(case.depth),
                    ..case.clone()
                };
                out.push_str(&fresh.to_string());
                cases.next();
            }
            _ => out.push_str(raw),
        }
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::boyer::rules::Game as Boyer;
    use crate::games::football_chess::Game;

    #[test]
    fn a_case_reads_and_writes_back_as_it_was() {
        let text = "# comment\n\n2 7815 rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0\n1 82 shotgun\n";
        let cases = read_cases(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].line, 3);
        assert_eq!(cases[0].position, "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0");
        assert_eq!(cases[1].to_string(), "1 82 shotgun");
        assert_eq!(
            read_cases("1 x shotgun").unwrap_err().to_string(),
            "line 1: expected 'depth count position', got '1 x shotgun'"
        );
        assert!(read_cases("3 12").is_err());
    }

    #[test]
    fn checking_names_the_wrong_line_and_regenerating_fixes_only_counts() {
        let text = "# Boyer\n1 87 start\n1 88 start\n";
        let wrong = check_file::<Boyer>(text);
        assert_eq!(wrong, ["line 2: start depth 1: pinned 87, now 88"]);
        assert_eq!(
            regenerate_file::<Boyer>(text).unwrap(),
            "# Boyer\n1 88 start\n1 88 start\n"
        );
        assert!(check_file::<Boyer>("").contains(&"no cases".to_string()));
    }

    #[test]
    fn a_position_is_a_name_or_the_games_text_and_a_depth_has_a_ceiling() {
        assert!(position::<Game>("shotgun").is_ok());
        let e = position::<Game>("nowhere").err().unwrap().to_string();
        assert!(
            e.starts_with("'nowhere' is not a built-in position (shotgun, "),
            "{e}"
        );
        assert!(position::<Boyer>("rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0").is_ok());
        assert!(position::<Boyer>("start").is_ok());
        assert!(position::<Boyer>("rnbq1knbr/9/9 w 0").is_err());
        assert_eq!(depth::<Game>(6), Ok(6));
        assert_eq!(
            depth::<Boyer>(6).unwrap_err().to_string(),
            "6 is too deep; use 5 or less"
        );
    }
}
