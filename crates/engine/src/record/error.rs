//! Why a record cannot be read or written.
//!
//! Reading errors name the line (1-based) and the offending text; writing errors name the
//! tag or the entry (0-based index). Disagreements between a readable record and the
//! engine are not errors but divergences: see [`super::verify()`].
//!
//! Every piece of input an error quotes (a token, a line, a tag value) goes through
//! [`quote`]: a damaged or hostile file may hold a token of many megabytes or escape bytes,
//! and an error is one line a person reads on a terminal.

use thiserror::Error;

/// Characters kept of a piece of input quoted in an error: enough to recognise it, short
/// enough to keep the error on one line.
pub const QUOTE_MAX: usize = 80;

/// Characters kept of an explanation that itself quotes input (the notation parser's
/// reason for an unknown token repeats the token).
const REASON_MAX: usize = 200;

/// `text` as an error quotes it: control characters escaped, cut to [`QUOTE_MAX`]
/// characters with an ellipsis.
pub(crate) fn quote(text: &str) -> String {
    crate::text::clean(text, QUOTE_MAX)
}

/// An explanation that quotes input, as [`quote`] with a longer cut.
pub(crate) fn quote_reason(text: &str) -> String {
    crate::text::clean(text, REASON_MAX)
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    // ---- reading ----
    #[error("line {line}: bad tag line '{text}' (expected [Name \"value\"])")]
    BadTagLine { line: usize, text: String },
    #[error("line {line}: tag {name} given twice")]
    DuplicateTag { line: usize, name: String },
    #[error("line {line}: unknown token '{token}': {reason}")]
    UnknownToken {
        line: usize,
        token: String,
        reason: String,
    },
    #[error("line {line}: unterminated comment (a '{{' without its '}}')")]
    UnterminatedComment { line: usize },
    #[error("line {line}: missing result token (1-0, 0-1, 1/2-1/2 or *) before {before}")]
    MissingResult { line: usize, before: &'static str },
    #[error("line {line}: result token {token} differs from the Result tag \"{tag}\"")]
    ResultMismatch {
        line: usize,
        token: String,
        tag: String,
    },
    #[error("line {line}: text after the result token: '{text}'")]
    AfterResult { line: usize, text: String },
    #[error("line {line}: bad command '[%{command}' in a comment (expected [%emt 1.250] or [%clk 0:09:58])")]
    BadCommand { line: usize, command: String },
    #[error(
        "line {line}: [%{command}] follows no action (times belong to the action before them)"
    )]
    TimeWithoutAction { line: usize, command: String },
    #[error("line {line}: longer than {max} bytes (a record's lines are short: the file is damaged or not a record)")]
    LineTooLong { line: usize, max: usize },
    #[error("line {line}: comment opened here runs past {max} bytes (a '{{' without its '}}'?)")]
    CommentTooLong { line: usize, max: usize },
    #[error("line {line}: not UTF-8 (byte {column} of the line)")]
    NotUtf8 { line: usize, column: usize },
    #[error("line {line}: cannot read: {error}")]
    Io { line: usize, error: String },

    // ---- tags, and writing ----
    #[error("the record has no {0} tag")]
    MissingTag(&'static str),
    #[error("tag {name} has a bad value \"{value}\" (expected {expected})")]
    BadTagValue {
        name: String,
        value: String,
        expected: &'static str,
    },
    #[error("bad tag name '{0}' (letters, digits and _ only)")]
    BadTagName(String),
    #[error("tag Situation \"{value}\": {error}")]
    BadSituation {
        value: String,
        error: crate::rules::SituationError,
    },
    #[error("entry {index} ({entry}) does not replay: {error}")]
    Replay {
        index: usize,
        entry: String,
        error: super::ReplayError,
    },
    /// A start-position tag (Boyer's `FEN`, Chess Eleven's `Position`) the game cannot read.
    #[error("tag {name} \"{value}\": {error}")]
    BadStart {
        name: &'static str,
        value: String,
        error: String,
    },
}

impl RecordError {
    /// The line a reading error names.
    pub fn line(&self) -> Option<usize> {
        use RecordError::*;
        match *self {
            BadTagLine { line, .. }
            | DuplicateTag { line, .. }
            | UnknownToken { line, .. }
            | UnterminatedComment { line }
            | MissingResult { line, .. }
            | ResultMismatch { line, .. }
            | AfterResult { line, .. }
            | BadCommand { line, .. }
            | TimeWithoutAction { line, .. }
            | LineTooLong { line, .. }
            | CommentTooLong { line, .. }
            | NotUtf8 { line, .. }
            | Io { line, .. } => Some(line),
            MissingTag(_)
            | BadTagValue { .. }
            | BadTagName(_)
            | BadSituation { .. }
            | BadStart { .. }
            | Replay { .. } => None,
        }
    }
}

/// A record played under another edition of the rulings (protocol/RULES.md) than the one
/// the engine plays: the engine does not judge it, since replaying it under rulings it was
/// not played by could only report a false divergence.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("played under rulings edition {found}; this zebra judges edition {judged} only")]
pub struct OtherEdition {
    /// The record's edition as shown: `1` for a record without the Rulings tag, the tag's
    /// value otherwise (quoted and escaped unless it is a short plain word).
    pub found: String,
    /// The edition of its game's rulings this Zebra plays.
    pub judged: String,
}

impl OtherEdition {
    /// The edition of a Rulings tag value (`None`: no tag, edition 1).
    pub(crate) fn new(value: Option<&str>, judged: &str) -> OtherEdition {
        let found = match value {
            None => super::tags::RULINGS_UNTAGGED.to_string(),
            Some(v)
                if !v.is_empty()
                    && v.len() <= 16
                    && v.chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c)) =>
            {
                v.to_string()
            }
            Some(v) => format!("\"{}\"", quote(v)),
        };
        OtherEdition {
            found,
            judged: judged.to_string(),
        }
    }
}
