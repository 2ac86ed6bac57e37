//! The field in a terminal: the same [`Frame`] the page draws, as text.
//!
//! On a terminal: chess glyphs and colours (end zones blue and red, the turf green, files a
//! and h darker, the line of scrimmage and the line to gain marked in the margin). Anywhere
//! else (a pipe, a file, `NO_COLOR`): plain ASCII, diagram letters (uppercase White), so
//! that logs stay readable and diffable.
//!
//! Each square is three characters: a pile's size (or a space), the piece (or `.`), and the
//! ball (`*` or `●` on its square; a pass in flight marks its target `x` or `◦`).

use std::fmt::Write;

use super::feed::{AnyFrame, BallView, BoyerFrame, Frame};

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
}

fn glyph(c: char) -> char {
    let white = c.is_ascii_uppercase();
    let i = "KQRBNP".find(c.to_ascii_uppercase()).unwrap_or(5);
    let (w, b) = ("♔♕♖♗♘♙", "♚♛♜♝♞♟");
    let set = if white { w } else { b };
    set.chars().nth(i).unwrap_or('?')
}

/// One square's three characters, on background `bg` (an ANSI colour) when colours are on,
/// in the colour of the side of `piece` (upper case White).
fn cell(out: &mut String, bg: Option<&str>, piece: Option<char>, text: [char; 3]) {
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

/// A frame of either game as text.
pub fn frame_text(frame: &AnyFrame, style: TermStyle) -> String {
    match frame {
        AnyFrame::Field(f) => board_text(f, style),
        AnyFrame::Board(b) => boyer_board_text(b, style),
    }
}

/// Boyer's Football's 9x9 board as text, rank 9 on top: a square is a piece (or `.`) and
/// the ball's mark; the goal squares e9 and e1 are coloured (or marked `[ ]` in plain
/// text when empty).
pub fn boyer_board_text(frame: &BoyerFrame, style: TermStyle) -> String {
    let mut out = String::new();
    let ball_mark = if style.unicode { '●' } else { '*' };
    for rank in (1..=9u8).rev() {
        let _ = write!(out, "{rank} ");
        for (fi, file) in "abcdefghi".chars().enumerate() {
            let name = format!("{file}{rank}");
            let piece = frame
                .pieces
                .iter()
                .find(|(sq, _)| *sq == name)
                .and_then(|(_, p)| p.chars().next());
            let goal = fi == 4 && (rank == 1 || rank == 9);
            let mid = match piece {
                Some(c) if style.unicode => glyph(c),
                Some(c) => c,
                None if name == frame.ball => ball_mark,
                None => '.',
            };
            let (left, right) = if goal && !style.color {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            let bg = style.color.then(|| match (goal, (fi + rank as usize) % 2) {
                (true, _) if rank == 9 => "41",
                (true, _) => "44",
                (false, 0) => "42;2",
                _ => "42",
            });
            cell(&mut out, bg, piece, [left, mid, right]);
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h  i\n");
    let _ = writeln!(
        out,
        "{}  goals {}-{}",
        frame.situation, frame.score[0], frame.score[1]
    );
    out
}

/// The field of `frame` as lines of text, rank 8 on top, with file letters under it.
pub fn board_text(frame: &Frame, style: TermStyle) -> String {
    let mut out = String::new();
    let (ball_sq, ball_mark) = match &frame.ball {
        BallView::Carried { square }
        | BallView::Loose { square }
        | BallView::Contested { square }
        | BallView::Spotted { square } => (square.clone(), if style.unicode { '●' } else { '*' }),
        BallView::InFlight { to, .. } => (to.clone(), if style.unicode { '◦' } else { 'x' }),
    };
    let white_up = frame.offense == crate::rules::Side::White;
    let spot_rank: u8 = frame.spot[1..].parse().unwrap_or(0);
    for rank in (1..=8u8).rev() {
        let _ = write!(out, "{rank} ");
        for (fi, file) in "abcdefgh".chars().enumerate() {
            let name = format!("{file}{rank}");
            let stack = frame
                .pieces
                .iter()
                .find(|(sq, _)| *sq == name)
                .map(|(_, s)| s.as_str())
                .unwrap_or("");
            let top = stack.chars().last();
            let left = if stack.len() > 1 {
                char::from_digit(stack.len() as u32 % 10, 10).unwrap_or('+')
            } else {
                ' '
            };
            let mid = match top {
                Some(c) if style.unicode => glyph(c),
                Some(c) => c,
                None => '.',
            };
            let right = if name == ball_sq { ball_mark } else { ' ' };
            let bg = style.color.then_some(match (rank, fi) {
                (1, _) => "44",
                (8, _) => "41",
                (_, 0 | 7) => "42;2",
                _ => "42",
            });
            cell(&mut out, bg, top, [left, mid, right]);
        }
        // The margin names the lines the offense faces.
        let mut notes = Vec::new();
        if rank == spot_rank {
            notes.push(if white_up {
                "line of scrimmage (faces up)"
            } else {
                "line of scrimmage (faces down)"
            });
        }
        if rank == frame.to_gain && !frame.goal_to_go {
            notes.push("line to gain");
        }
        if !notes.is_empty() {
            let _ = write!(out, "  < {}", notes.join(", "));
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    let _ = writeln!(
        out,
        "{}  score {}-{}",
        frame.situation, frame.score[0], frame.score[1]
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Settings};

    #[test]
    fn a_boyer_board_in_plain_text_shows_pieces_ball_and_goals() {
        use crate::rules::boyer;
        let frame = super::super::feed::BoyerFrame::of(&boyer::Game::new(boyer::Position::start()));
        let text = boyer_board_text(&frame, TermStyle::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        // Rank 9: Black's pieces and its goal square e9 empty; rank 5: the ball on e5.
        assert_eq!(lines[0], "9  r  n  b  q [.] k  n  b  r ");
        assert_eq!(lines[4], "5  .  .  .  .  *  .  .  .  . ");
        assert_eq!(lines[8], "1  R  N  B  Q [.] K  N  B  R ");
        assert_eq!(lines[9], "   a  b  c  d  e  f  g  h  i");
        assert_eq!(lines[10], "turn 1, white to move  goals 0-0");
    }

    #[test]
    fn plain_text_names_pieces_ball_and_lines() {
        let mut game = Game::new(Settings::plays(4));
        game.apply(&"[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse().unwrap())
            .unwrap();
        let text = board_text(&Frame::of(&game), TermStyle::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10, "{text}");
        // Rank 5: the snapper on the ball spot, the line of scrimmage in the margin.
        assert!(lines[3].starts_with("5  .  .  .  P  P* .  R  . "), "{text}");
        assert!(lines[3].contains("line of scrimmage"), "{text}");
        assert!(lines[1].contains("line to gain"), "{text}");
        assert!(!text.contains('\x1b'));
        let fancy = board_text(
            &Frame::of(&game),
            TermStyle {
                unicode: true,
                color: true,
            },
        );
        assert!(fancy.contains('♙') && fancy.contains("\x1b[44"));
    }
}
