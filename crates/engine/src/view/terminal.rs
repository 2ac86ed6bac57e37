//! Boards in a terminal: what every game's text drawing shares.
//!
//! On a terminal: chess glyphs and ANSI colours. Anywhere else (a pipe, a file,
//! `NO_COLOR`): plain ASCII with diagram letters (upper case White), so that logs stay
//! readable and diffable. Each square is three characters; what they are is the game's
//! (see each game's `view.rs`).

use std::fmt::Write;

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermStyle {
    /// Chess glyphs and `●` instead of letters and `*`.
    pub unicode: bool,
    /// ANSI colours.
    pub color: bool,
}

impl TermStyle {
    pub const PLAIN: TermStyle = TermStyle {
        unicode: false,
        color: false,
    };

    /// Glyphs and colours when `stdout` is a terminal and `NO_COLOR` is not set (colours
    /// only then; glyphs whenever it is a terminal).
    pub fn for_stdout() -> TermStyle {
        use std::io::IsTerminal;
        let tty = std::io::stdout().is_terminal();
        TermStyle {
            unicode: tty,
            color: tty && std::env::var_os("NO_COLOR").is_none(),
        }
    }

    /// The ball's mark: `●` or `*`.
    pub fn ball(self) -> char {
        if self.unicode {
            '●'
        } else {
            '*'
        }
    }

    /// A piece's diagram letter (upper case White) as drawn: its chess glyph, or itself.
    pub fn piece(self, letter: char) -> char {
        if self.unicode {
            glyph(letter)
        } else {
            letter
        }
    }
}

/// The chess glyph of a diagram letter (upper case White).
fn glyph(c: char) -> char {
    let white = c.is_ascii_uppercase();
    let i = "KQRBNP".find(c.to_ascii_uppercase()).unwrap_or(5);
    let (w, b) = ("♔♕♖♗♘♙", "♚♛♜♝♞♟");
    let set = if white { w } else { b };
    set.chars().nth(i).unwrap_or('?')
}

/// One square's three characters, on background `bg` (an ANSI colour) when colours are on,
/// in the colour of the side of `piece` (upper case White).
pub fn cell(out: &mut String, bg: Option<&str>, piece: Option<char>, text: [char; 3]) {
    let [left, mid, right] = text;
    match bg {
        Some(bg) => {
            let fg = match piece {
                Some(c) if c.is_ascii_uppercase() => "97;1",
                Some(_) => "30",
                None => "37",
            };
            let _ = write!(out, "\x1b[{bg};{fg}m{left}{mid}{right}\x1b[0m");
        }
        None => {
            let _ = write!(out, "{left}{mid}{right}");
        }
    }
}

/// What one square of a square board shows.
pub struct Square {
    /// The piece's letter (upper case White), which colours the square's text.
    pub piece: Option<char>,
    /// A goal square: red on the top rank, blue on the bottom one, `[ ]` without colours.
    pub goal: bool,
    /// The three characters drawn; a goal square's spaces become `[` `]` without colours.
    pub text: [char; 3],
}

/// A board of `files` files (a, b, ...) and `ranks` ranks as lines of text, the top rank
/// first, with the file letters under it: `square(name, file index, rank)` says what the
/// square `name` (`e5`) shows. Squares alternate two greens.
pub fn square_board(
    files: u8,
    ranks: u8,
    style: TermStyle,
    mut square: impl FnMut(&str, usize, u8) -> Square,
) -> String {
    let letters: Vec<char> = (b'a'..b'a' + files).map(char::from).collect();
    let mut out = String::new();
    for rank in (1..=ranks).rev() {
        let _ = write!(out, "{rank} ");
        for (fi, file) in letters.iter().enumerate() {
            let Square { piece, goal, text } = square(&format!("{file}{rank}"), fi, rank);
            let text = match text {
                [' ', mid, ' '] if goal && !style.color => ['[', mid, ']'],
                text => text,
            };
            let bg = style.color.then(|| match (goal, (fi + rank as usize) % 2) {
                (true, _) if rank == ranks => "41",
                (true, _) => "44",
                (false, 0) => "42;2",
                _ => "42",
            });
            cell(&mut out, bg, piece, text);
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in letters {
        let _ = write!(out, " {file} ");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
