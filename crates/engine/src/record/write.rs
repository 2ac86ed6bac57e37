//! Record to text: tag pairs, a blank line, the movetext, the result, a blank line.
//!
//! The writer replays every entry through a fresh game of the record's Variant, both to add the comments a
//! human reads (play headers, notable events) and to refuse a record it could not read
//! back as the same game: an entry the engine rejects is an error, never a silent line.

use std::fmt::Write as _;

use super::error::{quote, RecordError};
use super::tags::{self, is_tag_name};
use super::time::{format_clk, format_emt};
use super::{Entry, GameRecord, Recorded};
use crate::rules::GameResult;

/// Movetext lines wrap before this column.
pub const WIDTH: usize = 100;

/// Continuation lines of a play are indented, so each play reads as one block.
const INDENT: &str = "  ";

/// Writes one game. The text ends with a blank line, so that games written one after the
/// other make a valid multi-game file.
///
/// Missing roster tags are written with PGN's "unknown" values; a missing Result is the
/// engine's result when the replayed game is over, else `*`. Errors: no or a bad
/// QuarterLength (the writer cannot replay), a bad Result, a tag the reader could not read
/// back (a name other than letters, digits and `_`, a control character in a value), or an
/// entry the engine rejects.
pub fn write_game(rec: &GameRecord) -> Result<String, RecordError> {
    crate::with_rules!(rec.rules()?, R => write_as::<R>(rec))
}

/// [`write_game`] for a record of rule set `R`.
fn write_as<R: Recorded>(rec: &GameRecord) -> Result<String, RecordError> {
    let mut game = R::from_tags(&rec.tags)?;
    let mut text = Wrap::default();
    for (index, entry) in rec.entries.iter().enumerate() {
        if let Some(header) = game.header() {
            text.block();
            text.token(&format!("{{{header}}}"));
        }
        let events = entry
            .apply_to(&mut game)
            .map_err(|error| RecordError::Replay {
                index,
                entry: entry.to_string(),
                error,
            })?;
        text.token(&entry.to_string());
        if let Entry::Action {
            emt_ms,
            clk_ms,
            cpu_ms,
            ..
        } = entry
        {
            if let Some(times) = time_comment(*emt_ms, *clk_ms, *cpu_ms) {
                text.token(&times);
            }
        }
        for event in events.iter().filter(|e| R::notable(e)) {
            text.token(&format!("{{{event}}}"));
        }
    }

    let mut tags = rec.tags.clone();
    tags.fill_roster(tags::result_token(game.result()));
    // Validates the Result tag, which becomes the game's last token.
    let result = tags::result_token(result_of(&tags)?);
    text.token(result);

    let mut out = String::new();
    for (name, value) in tags.iter() {
        if !is_tag_name(name) {
            return Err(RecordError::BadTagName(quote(name)));
        }
        // The reader reads a tag pair from one line.
        if value.chars().any(char::is_control) {
            return Err(RecordError::BadTagValue {
                name: name.to_string(),
                value: quote(value),
                expected: "one line of text without control characters",
            });
        }
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    out.push('\n');
    out.push_str(&text.out);
    out.push_str("\n\n");
    Ok(out)
}

fn result_of(tags: &tags::Tags) -> Result<Option<GameResult>, RecordError> {
    let value = tags.get(tags::RESULT).unwrap_or("*");
    tags::parse_result(value).ok_or_else(|| RecordError::BadTagValue {
        name: tags::RESULT.to_string(),
        value: quote(value),
        expected: "1-0, 0-1, 1/2-1/2 or *",
    })
}

/// `\` and `"` escaped with a backslash, as PGN does.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '\\' || c == '"' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// `{[%emt 0.532] [%clk 0:09:58] [%cpu 0.511]}`, or as much of it as is known.
fn time_comment(emt_ms: Option<u64>, clk_ms: Option<u64>, cpu_ms: Option<u64>) -> Option<String> {
    let parts: Vec<String> = [
        emt_ms.map(|ms| format!("[%emt {}]", format_emt(ms))),
        clk_ms.map(|ms| format!("[%clk {}]", format_clk(ms))),
        cpu_ms.map(|ms| format!("[%cpu {}]", format_emt(ms))),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| format!("{{{}}}", parts.join(" ")))
}

/// Movetext laid out in blocks (one per play) of lines wrapped before [`WIDTH`]. A token is
/// never split, so a token longer than a line gets a line of its own.
#[derive(Default)]
struct Wrap {
    out: String,
    /// Characters on the current line.
    column: usize,
}

impl Wrap {
    /// Starts a new block on a fresh line (nothing to do at the very start).
    fn block(&mut self) {
        if !self.out.is_empty() {
            self.out.push('\n');
            self.column = 0;
        }
    }

    fn token(&mut self, token: &str) {
        let len = token.chars().count();
        if self.column > 0 && self.column + 1 + len > WIDTH {
            self.out.push('\n');
            self.out.push_str(INDENT);
            self.column = INDENT.len();
        } else if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(token);
        self.column += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_backslash_and_quote() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
    }

    #[test]
    fn time_comment_forms() {
        assert_eq!(time_comment(None, None, None), None);
        assert_eq!(
            time_comment(Some(532), None, None).unwrap(),
            "{[%emt 0.532]}"
        );
        assert_eq!(
            time_comment(Some(1), Some(598_000), None).unwrap(),
            "{[%emt 0.001] [%clk 0:09:58]}"
        );
        assert_eq!(
            time_comment(Some(1_200), Some(4_000), Some(15)).unwrap(),
            "{[%emt 1.200] [%clk 0:00:04] [%cpu 0.015]}"
        );
    }

    #[test]
    fn wrap_breaks_before_the_width_and_indents() {
        let mut w = Wrap::default();
        w.block();
        for _ in 0..30 {
            w.token("e4e5");
        }
        w.block();
        w.token("x");
        for line in w.out.lines() {
            assert!(line.len() <= WIDTH, "{line}");
        }
        assert!(w.out.lines().nth(1).unwrap().starts_with("  e4e5"));
        assert!(w.out.ends_with("\nx"));
    }
}
