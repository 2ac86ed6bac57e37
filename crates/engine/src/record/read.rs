//! Text to records: one game or many, as the writer writes them or as a person edits them.
//!
//! The reader goes line by line. Before a game's first movetext token, a line that opens
//! with `[`, a tag name and a blank (or a quote) is a tag pair; a formation such as
//! `[Pd5,Pe5]` never has a blank or a quote after its first piece, so the two cannot be
//! confused. In the movetext, tokens are separated by blanks; `{...}` comments (which may
//! span lines) and `;` comments (to the end of the line) are skipped, except the
//! `[%emt ...]` and `[%clk ...]` commands, which fill the action before them. A result
//! token ends the game. The reader only checks the syntax: whether the game is legal is
//! [`super::verify()`]'s question.
//!
//! [`GameReader`] streams: it holds one line (at most [`MAX_LINE`] bytes) and the game
//! being read, and hands each game out as its result token is read, so a file of any size,
//! or a damaged one, costs no more memory than its longest game, and the games before the
//! damage are still read. A UTF-8 byte-order mark at the start is skipped (Windows editors
//! write one); any other byte that is not UTF-8 is an error naming its line. It also says how
//! many bytes of its input hold complete games ([`GameReader::complete_end`]), so that a file
//! whose last write was cut short can be cut back to its last complete game, whatever the
//! bytes after it are.

use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind};

use super::error::{quote, quote_reason, RecordError};
use super::tags::{self, is_tag_name};
use super::time::parse_time;
use super::{Entry, GameRecord};
use crate::rules::ruleset::RuleSet;
use crate::rules::Clock;

/// The longest line (and the longest `{...}` comment) the reader takes, in bytes. The
/// writer's lines are under a hundred characters and its comments a few thousand; the cap
/// only keeps a damaged file (one line of gigabytes) from exhausting memory.
pub const MAX_LINE: usize = 1 << 20;

/// The UTF-8 encoding of U+FEFF, the byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads every game of `text`. An empty text (or only blank lines) holds no game.
pub fn read_games(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    GameReader::new(text.as_bytes()).collect()
}

/// The games of a file, one by one, as they are read.
///
/// Each complete game comes out as `Ok` as soon as its result token is read; the first
/// problem (a syntax error, an unfinished last game, a line that is too long or not UTF-8,
/// a read error) comes out as one `Err`, after the games before it, and ends the iteration:
/// after a syntax error, where the next game begins would only be a guess.
pub struct GameReader<R> {
    input: R,
    reader: Reader,
    /// The number of the last line read (1-based).
    line: usize,
    buf: Vec<u8>,
    /// Bytes of the input consumed so far.
    consumed: u64,
    /// See [`GameReader::complete_end`].
    complete_end: u64,
    /// Games read and not yet handed out, each with the end of the line its result token
    /// ended (`None`: something followed the token on its line).
    ready: VecDeque<(GameRecord, Option<u64>)>,
    /// The problem to hand out once the games before it are out.
    problem: Option<RecordError>,
    /// The input is over (or broken): nothing more is read.
    done: bool,
}

impl<R: BufRead> GameReader<R> {
    pub fn new(input: R) -> GameReader<R> {
        GameReader {
            input,
            reader: Reader::default(),
            line: 0,
            buf: Vec::new(),
            consumed: 0,
            complete_end: 0,
            ready: VecDeque::new(),
            problem: None,
            done: false,
        }
    }

    /// How many bytes at the start of the input hold complete games only: the end of the line
    /// whose result token ended the last game handed out, counted only when nothing but
    /// blanks followed the token on that line (as the writer ends every game); 0 before the
    /// first. A game handed out together with a problem on its last line (`1-0 junk`) does
    /// not move it: where that game really ends is a guess. Whatever follows belongs to no
    /// complete game (a write cut short, zero bytes, junk).
    pub fn complete_end(&self) -> u64 {
        self.complete_end
    }

    /// Reads the next line into `buf` (without its line ending); `Ok(false)` at the end.
    fn next_line(&mut self) -> Result<bool, RecordError> {
        self.buf.clear();
        let n = self.line + 1;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(RecordError::Io {
                        line: n,
                        error: quote_reason(&e.to_string()),
                    })
                }
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, i + 1, true),
                None => (chunk.len(), chunk.len(), false),
            };
            // Checked before copying: the line in memory never exceeds the cap.
            if self.buf.len() + take > MAX_LINE {
                return Err(RecordError::LineTooLong {
                    line: n,
                    max: MAX_LINE,
                });
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.input.consume(used);
            self.consumed += used as u64;
            if end {
                break;
            }
        }
        if !any {
            return Ok(false);
        }
        self.line = n;
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(true)
    }

    /// Reads one line into the reader; `Ok(false)` at the end of the input.
    fn step(&mut self) -> Result<bool, RecordError> {
        if !self.next_line()? {
            self.reader.finish(self.line)?;
            return Ok(false);
        }
        let n = self.line;
        let mut bytes = &self.buf[..];
        if n == 1 {
            bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
        }
        let text = std::str::from_utf8(bytes).map_err(|e| RecordError::NotUtf8 {
            line: n,
            column: e.valid_up_to() + 1 + (self.buf.len() - bytes.len()),
        })?;
        self.reader.line(n, text)?;
        let end = self.consumed;
        self.ready
            .extend(self.reader.games.drain(..).map(|game| (game, Some(end))));
        Ok(true)
    }
}

impl<R: BufRead> Iterator for GameReader<R> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((game, end)) = self.ready.pop_front() {
                if let Some(end) = end {
                    self.complete_end = end;
                }
                return Some(Ok(game));
            }
            if let Some(problem) = self.problem.take() {
                return Some(Err(problem));
            }
            if self.done {
                return None;
            }
            match self.step() {
                Ok(true) => {}
                Ok(false) => self.done = true,
                Err(problem) => {
                    // A game the broken line completed ("1-0 junk") still comes out first.
                    self.ready
                        .extend(self.reader.games.drain(..).map(|game| (game, None)));
                    self.problem = Some(problem);
                    self.done = true;
                }
            }
        }
    }
}

/// A `{` comment still open at the end of a line.
struct OpenComment {
    line: usize,
    text: String,
}

#[derive(Default)]
struct Reader {
    /// Games completed and not yet taken by the [`GameReader`].
    games: Vec<GameRecord>,
    current: GameRecord,
    /// A tag or a movetext token of the current game has been seen.
    started: bool,
    /// A movetext token has been seen: tag pairs are over.
    in_movetext: bool,
    comment: Option<OpenComment>,
}

/// Whether a line is meant as a tag pair: `[`, a name, then a blank or a quote.
fn is_tag_line(line: &str) -> bool {
    let Some(after) = line.trim_start().strip_prefix('[') else {
        return false;
    };
    let name_len = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    name_len > 0 && after[name_len..].starts_with(|c: char| c.is_whitespace() || c == '"')
}

/// Parses `[Name "value"]`, with `\\` and `\"` escapes in the value.
fn parse_tag(n: usize, line: &str) -> Result<(String, String), RecordError> {
    let text = line.trim();
    let bad = || RecordError::BadTagLine {
        line: n,
        text: quote(text),
    };
    let inner = text.strip_prefix('[').ok_or_else(bad)?;
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    if !is_tag_name(name) {
        return Err(bad());
    }
    let rest = inner[name_len..].trim_start();
    let rest = rest.strip_prefix('"').ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = rest.char_indices();
    let mut close = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?.1),
            '"' => {
                close = Some(i + 1);
                break;
            }
            c => value.push(c),
        }
    }
    let after = rest[close.ok_or_else(bad)?..].trim_start();
    if after.strip_prefix(']').map(str::trim) != Some("") {
        return Err(bad());
    }
    Ok((name.to_string(), value))
}

impl Reader {
    fn line(&mut self, n: usize, line: &str) -> Result<(), RecordError> {
        if let Some(mut open) = self.comment.take() {
            open.text.push('\n');
            let Some(end) = line.find('}') else {
                // Bounded like a line: a lost '}' must not hold the rest of the file.
                if open.text.len() + line.len() > MAX_LINE {
                    return Err(RecordError::CommentTooLong {
                        line: open.line,
                        max: MAX_LINE,
                    });
                }
                open.text.push_str(line);
                self.comment = Some(open);
                return Ok(());
            };
            open.text.push_str(&line[..end]);
            self.comment_text(open.line, &open.text)?;
            return self.movetext(n, &line[end + 1..]);
        }
        if is_tag_line(line) {
            if self.in_movetext {
                return Err(RecordError::MissingResult {
                    line: n,
                    before: "the next tag pair",
                });
            }
            let (name, value) = parse_tag(n, line)?;
            if self.current.tags.get(&name).is_some() {
                return Err(RecordError::DuplicateTag {
                    line: n,
                    name: quote(&name),
                });
            }
            self.current.tags.set(name, value);
            self.started = true;
            return Ok(());
        }
        self.movetext(n, line)
    }

    /// Reads the movetext on (the rest of) line `n`.
    fn movetext(&mut self, n: usize, mut rest: &str) -> Result<(), RecordError> {
        loop {
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with(';') {
                return Ok(());
            }
            if let Some(after) = rest.strip_prefix('{') {
                match after.find('}') {
                    Some(end) => {
                        self.comment_text(n, &after[..end])?;
                        rest = &after[end + 1..];
                    }
                    None => {
                        self.comment = Some(OpenComment {
                            line: n,
                            text: after.to_string(),
                        });
                        return Ok(());
                    }
                }
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
                .unwrap_or(rest.len());
            let (token, after) = rest.split_at(end);
            rest = after;
            // Only a token starts the movetext: a comment may stand before the tags.
            self.started = true;
            self.in_movetext = true;
            if self.token(n, token)? {
                let trailing = rest.trim();
                if !trailing.is_empty() {
                    return Err(RecordError::AfterResult {
                        line: n,
                        text: quote(trailing),
                    });
                }
                return Ok(());
            }
        }
    }

    /// Takes one movetext token; `true` when it was the result and ended the game.
    fn token(&mut self, n: usize, token: &str) -> Result<bool, RecordError> {
        if let Some(result) = tags::parse_result(token) {
            match self.current.tags.get(tags::RESULT) {
                Some(tag) if tag != token => {
                    return Err(RecordError::ResultMismatch {
                        line: n,
                        token: quote(token),
                        tag: quote(tag),
                    })
                }
                Some(_) => {}
                None => self
                    .current
                    .tags
                    .set(tags::RESULT, tags::result_token(result)),
            }
            self.games.push(std::mem::take(&mut self.current));
            self.started = false;
            self.in_movetext = false;
            return Ok(true);
        }
        let unknown = |reason: String| RecordError::UnknownToken {
            line: n,
            token: quote(token),
            // The notation's reason repeats the token: quoted the same way, once.
            reason: quote_reason(&reason.replace(token, &quote(token))),
        };
        let entry = if let Some(code) = token.strip_prefix('!') {
            let clock: Clock = code.parse().map_err(|_| {
                unknown("not a clock (!play-clock, !reaction-clock, !game-clock)".to_string())
            })?;
            Entry::Expiry { clock }
        } else {
            // The token must be an action of the game the Variant tag names (an unknown
            // Variant is reported when the record is replayed).
            let rules = super::rules_of(&self.current.tags).unwrap_or_default();
            crate::with_rules!(rules, R => check_notation::<R>(token)).map_err(unknown)?;
            Entry::action(token)
        };
        self.current.entries.push(entry);
        Ok(false)
    }

    /// Applies the `[%emt]`, `[%clk]` and `[%cpu]` commands of a comment to the entry before it;
    /// other commands and all other text are for people.
    fn comment_text(&mut self, n: usize, text: &str) -> Result<(), RecordError> {
        let mut rest = text;
        while let Some(start) = rest.find("[%") {
            let body = &rest[start + 2..];
            let Some(end) = body.find(']') else {
                return Err(RecordError::BadCommand {
                    line: n,
                    command: quote(body.trim()),
                });
            };
            let command = body[..end].trim();
            rest = &body[end + 1..];
            let (name, value) = command
                .split_once(char::is_whitespace)
                .map(|(a, b)| (a, b.trim()))
                .unwrap_or((command, ""));
            if !matches!(name, "emt" | "clk" | "cpu") {
                continue;
            }
            let ms = parse_time(value).ok_or_else(|| RecordError::BadCommand {
                line: n,
                command: quote(command),
            })?;
            match self.current.entries.last_mut() {
                Some(Entry::Action {
                    emt_ms,
                    clk_ms,
                    cpu_ms,
                    ..
                }) => {
                    *(match name {
                        "emt" => emt_ms,
                        "clk" => clk_ms,
                        _ => cpu_ms,
                    }) = Some(ms);
                }
                _ => {
                    return Err(RecordError::TimeWithoutAction {
                        line: n,
                        command: name.to_string(),
                    })
                }
            }
        }
        Ok(())
    }

    /// The end of the text: a game still open is unfinished.
    fn finish(&self, last: usize) -> Result<(), RecordError> {
        if let Some(open) = &self.comment {
            return Err(RecordError::UnterminatedComment { line: open.line });
        }
        if self.started {
            return Err(RecordError::MissingResult {
                line: last,
                before: "the end of the text",
            });
        }
        Ok(())
    }
}

/// Whether `token` is an action in the notation of rule set `R`; why not otherwise.
fn check_notation<R: RuleSet>(token: &str) -> Result<(), String> {
    token
        .parse::<R::Action>()
        .map(drop)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_lines_and_formations_are_told_apart() {
        assert!(is_tag_line("[Event \"x\"]"));
        assert!(is_tag_line("  [Event\t\"x\"]"));
        assert!(is_tag_line("[Event\"x\"]"));
        assert!(is_tag_line("[Event x]"));
        assert!(!is_tag_line("[Pd5,Pe5,Ke4] [pd6] snap"));
        assert!(!is_tag_line("[Pd5] snap"));
        assert!(!is_tag_line("[] pass"));
        assert!(!is_tag_line("e4e5 [Event \"x\"]"));
    }

    #[test]
    fn complete_end_is_the_end_of_the_last_game_whose_result_ends_its_line() {
        let game = "[Event \"a\"]\n\n*\n\n";
        let ends = |text: &str| {
            let mut reader = GameReader::new(text.as_bytes());
            let mut out = Vec::new();
            while let Some(item) = reader.next() {
                out.push((item.is_ok(), reader.complete_end()));
            }
            out
        };
        let first = (game.len() - 1) as u64;
        assert_eq!(ends(game), [(true, first)]);
        let two = format!("{game}{game}");
        let second = (2 * game.len() - 1) as u64;
        assert_eq!(ends(&two), [(true, first), (true, second)]);
        // Junk after the last game: the error comes after it, and the end stays.
        let junk = format!("{game}\0\0\0");
        assert_eq!(ends(&junk), [(true, first), (false, first)]);
        // Junk on the result's own line: the game comes out, but it is not complete.
        assert_eq!(ends("[Event \"a\"]\n\n* junk\n"), [(true, 0), (false, 0)]);
        assert_eq!(ends(""), []);
    }

    #[test]
    fn parse_tag_unescapes_and_rejects_junk() {
        assert_eq!(
            parse_tag(1, r#"[White "a \"b\" \\c"]"#).unwrap(),
            ("White".to_string(), r#"a "b" \c"#.to_string())
        );
        assert_eq!(
            parse_tag(1, r#"[Site "]"]  "#).unwrap(),
            ("Site".to_string(), "]".to_string())
        );
        for bad in [
            r#"[Event x]"#,
            r#"[Event "x"] y"#,
            r#"[Event "x""#,
            r#"[Event "x]"#,
            r#"[Event "x\"]"#,
            r#"[Event "x" "y"]"#,
        ] {
            match parse_tag(7, bad) {
                Err(RecordError::BadTagLine { line: 7, .. }) => {}
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
