//! Text that came from a bot, made safe to show and to store.
//!
//! A bot's name, version, log messages, invalid lines and stderr end up in record tags,
//! termination reasons, events and the terminal. Each of those must stay one line of
//! printable text: a record writer refuses control characters, and a raw escape byte would
//! reach a user's terminal. So every string a bot sends is passed through [`clean`] once,
//! where it enters Zebra: control and bidirectional-formatting characters become visible
//! `\u001b`-style escapes, and the length is capped with an ellipsis.

/// Characters kept of a name, version or excerpt in tags, reasons and summaries.
pub const SHORT: usize = 120;

/// Characters kept of a longer text (a log message, a stderr tail).
pub const LONG: usize = 1000;

/// `text` with every control or bidi-formatting character escaped, cut to `max` characters
/// (an ellipsis marks the cut).
pub fn clean(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max.saturating_mul(4)));
    let mut count = 0;
    for c in text.chars() {
        let width = if needs_escape(c) { 6 } else { 1 };
        if count + width > max {
            out.push('…');
            return out;
        }
        if width == 1 {
            out.push(c);
        } else {
            push_escape(&mut out, c);
        }
        count += width;
    }
    out
}

/// As [`clean`], keeping the string itself when it is already clean (the common case: no
/// allocation on the referee's hot path).
pub(crate) fn clean_owned(text: String, max: usize) -> String {
    if text.len() <= max && !text.chars().any(needs_escape) {
        return text;
    }
    clean(&text, max)
}

/// As [`clean`], borrowing `text` when it is already clean (no allocation for the lines a
/// well-behaved bot sends, which a transcript writes as they come).
pub fn clean_borrowed(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    // Printable ASCII, what a bot's JSON lines nearly always are, in one pass over the
    // bytes; anything else char by char.
    let printable = |b: &u8| (0x20..0x7f).contains(b);
    if text.len() <= max
        && (text.as_bytes().iter().all(printable) || !text.chars().any(needs_escape))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(clean(text, max))
}

/// Bytes from a bot (stderr): invalid UTF-8 becomes U+FFFD, then as [`clean`].
pub fn clean_bytes(bytes: &[u8], max: usize) -> String {
    clean(&String::from_utf8_lossy(bytes), max)
}

/// The last `lines` non-blank lines of a bot's stderr, cleaned and joined with ` | `, at most
/// `max` characters (the end is what matters: the cut drops the oldest part).
pub fn stderr_tail(bytes: &[u8], lines: usize, max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut tail: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .rev()
        .take(lines)
        .collect();
    tail.reverse();
    let joined = clean(&tail.join(" | "), usize::MAX);
    let chars = joined.chars().count();
    if chars <= max {
        return joined;
    }
    let mut out = String::from("…");
    out.extend(joined.chars().skip(chars - (max - 1)));
    out
}

/// Control characters (C0, DEL, C1), and the invisible characters that reorder or hide
/// text on a terminal (bidi embeddings, overrides and isolates, marks, the BOM).
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

fn push_escape(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let v = c as u32;
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[((v >> shift) & 0xf) as usize] as char);
    }
}

/// A name the user gives a bot (a flag or a config key): it goes into record tags and file
/// names, so it must be one short line of printable text.
pub fn check_user_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a bot name must not be empty".to_string());
    }
    if let Some(c) = name.chars().find(|&c| needs_escape(c)) {
        return Err(format!(
            "the bot name '{}' holds a control character ({}); use printable text",
            clean(name, SHORT),
            clean(&c.to_string(), 8)
        ));
    }
    if name.chars().count() > SHORT {
        return Err(format!(
            "the bot name '{}' is longer than {SHORT} characters",
            clean(name, 40)
        ));
    }
    Ok(())
}

/// An option value as typed on a command line (`NAME=VALUE`): a whole number or `true` /
/// `false` as JSON numbers and booleans, anything else as a string.
pub fn option_value(text: &str) -> serde_json::Value {
    if let Ok(n) = text.parse::<i64>() {
        serde_json::Value::from(n)
    } else if let Ok(b) = text.parse::<bool>() {
        serde_json::Value::from(b)
    } else {
        serde_json::Value::from(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible_escapes() {
        assert_eq!(
            clean("not json\u{1}\ttab\u{1b}[31m", SHORT),
            "not json\\u0001\\u0009tab\\u001b[31m"
        );
        assert_eq!(clean("a\u{7f}b\u{85}c", SHORT), "a\\u007fb\\u0085c");
        assert_eq!(clean("x\u{202e}y", SHORT), "x\\u202ey");
        assert_eq!(clean("plain ünïcode ♞", SHORT), "plain ünïcode ♞");
    }

    #[test]
    fn a_borrowed_clean_line_is_the_cleaned_line_for_every_ascii_byte_and_some_unicode() {
        let mut texts: Vec<String> = (0u8..0x80)
            .map(|b| format!("{{\"a\":{}}}", char::from(b)))
            .collect();
        texts.extend(
            [
                "\u{85}", "\u{a0}", "ü", "♞", "\u{200e}", "\u{202e}", "\u{2066}", "\u{feff}",
            ]
            .map(|c| format!("x{c}y")),
        );
        for text in &texts {
            let borrowed = clean_borrowed(text, SHORT);
            assert_eq!(borrowed, clean(text, SHORT), "{text:?}");
            let unchanged = clean(text, SHORT) == *text;
            assert_eq!(
                matches!(borrowed, std::borrow::Cow::Borrowed(_)),
                unchanged,
                "{text:?}"
            );
        }
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis_and_escapes_are_never_split() {
        assert_eq!(clean("abcdef", 4), "abcd…");
        assert_eq!(clean("abcd", 4), "abcd");
        // An escape takes 6 characters: it fits whole or not at all.
        assert_eq!(clean("ab\u{1b}", 7), "ab…");
        assert_eq!(clean("ab\u{1b}", 8), "ab\\u001b");
    }

    #[test]
    fn the_result_is_always_free_of_control_characters() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        let out = clean(&all, usize::MAX);
        assert!(!out.chars().any(needs_escape));
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(clean_bytes(b"ok\xff\xfe!", SHORT), "ok\u{fffd}\u{fffd}!");
    }

    #[test]
    fn the_stderr_tail_keeps_the_last_lines_and_cuts_at_the_front() {
        let err = b"loading\n\nstep 1\ncannot load weights: \x1b[31mmissing\x1b[0m\n";
        assert_eq!(
            stderr_tail(err, 2, 200),
            "step 1 | cannot load weights: \\u001b[31mmissing\\u001b[0m"
        );
        assert_eq!(stderr_tail(b"abcdefghij", 1, 5), "…ghij");
        assert_eq!(stderr_tail(b"", 3, 100), "");
    }

    #[test]
    fn user_names_must_be_printable_and_short() {
        assert!(check_user_name("greedy v2").is_ok());
        assert!(check_user_name("").is_err());
        assert!(check_user_name("bad\u{1b}name").is_err());
        assert!(check_user_name(&"x".repeat(121)).is_err());
    }
}
