//! Football Chess as a viewer draws it: the field [`Frame`], each entry's [`Step`] (arrow,
//! pushes, events), the field as text for a terminal, and what the human seat offers and
//! judges.
//!
//! A frame holds the pieces on the field (piles bottom first), the ball and its state, the
//! down, distance, spot, score, quarter, timeouts and clocks, the flags of the play, and
//! the sidelines. As text, each square is three characters: a pile's size (or a space),
//! the piece (or `.`), and the ball (`*` or `●` on its square; a pass in flight marks its
//! target `x` or `◦`); on a terminal the end zones are blue and red, the turf green, files
//! a and h darker, and the margin names the line of scrimmage and the line to gain.

use std::fmt::Write;

use serde::Serialize;

use super::{caption, Action, Ball, Event, FormationCheck, Game, KnightRoute, Side, Square};
use crate::record::{notes, Entry, ReplayError};
use crate::view::terminal::{cell, TermStyle};
use crate::view::{Arrow, Step, Verdict, Viewed};

/// The ball as drawn.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum BallView {
    Spotted {
        square: String,
    },
    Carried {
        square: String,
    },
    Loose {
        square: String,
    },
    Contested {
        square: String,
    },
    InFlight {
        from: String,
        to: String,
        forward: bool,
    },
}

/// One position of the field.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Occupied squares: square name and the pieces there, bottom first, as diagram letters
    /// (uppercase White, lowercase Black).
    pub pieces: Vec<(String, String)>,
    pub ball: BallView,
    pub offense: Side,
    pub down: u8,
    /// The ball spot of the down; its rank is the line of scrimmage.
    pub spot: String,
    /// The line to gain (rank number).
    pub to_gain: u8,
    pub goal_to_go: bool,
    pub yards_to_go: u8,
    pub quarter: u8,
    /// White's and Black's points.
    pub score: [u16; 2],
    pub timeouts: [u8; 2],
    /// `formation`, `motion`, `reaction`, `action`, `contention`, `penalty`, `over`.
    pub phase: &'static str,
    pub to_move: Option<Side>,
    pub clock_running: bool,
    /// The flags of the play not yet enforced, in words.
    pub flags: Vec<String>,
    /// Pieces on each sideline by role, in the order P N B R Q K: White's, then Black's.
    pub sidelines: [[u8; 6]; 2],
    /// The play header of the current (or next) play.
    pub situation: String,
}

impl Frame {
    /// The position a viewer shows after the last decision: the field as the play ended
    /// when that decision ended one (the tackle, the score, the foul), else the field now.
    pub fn of(game: &Game) -> Frame {
        let ended = game.field_at_play_end();
        let (board, ball) = ended.map_or((game.board(), game.ball()), |e| (&e.board, e.ball));
        let (offense, down, spot, to_gain, quarter) = ended.map_or(
            (
                game.offense(),
                game.down(),
                game.spot(),
                game.line_to_gain(),
                game.quarter(),
            ),
            |e| (e.offense, e.down, e.spot, e.to_gain, e.quarter),
        );
        let goal_to_go = to_gain == offense.goal();
        let yards_to_go = offense.gain(spot.rank(), to_gain).unsigned_abs() * 5;
        let pieces = board
            .occupied()
            .map(|sq| {
                let stack: String = board.stack_at(sq).iter().map(|p| p.char()).collect();
                (sq.name().to_string(), stack)
            })
            .collect();
        let ball = match ball {
            Ball::Spotted(s) => BallView::Spotted {
                square: s.name().to_string(),
            },
            Ball::Carried(s) => BallView::Carried {
                square: s.name().to_string(),
            },
            Ball::Loose(s) => BallView::Loose {
                square: s.name().to_string(),
            },
            Ball::Contested(s) => BallView::Contested {
                square: s.name().to_string(),
            },
            Ball::InFlight(t) => BallView::InFlight {
                from: t.from.name().to_string(),
                to: t.to.name().to_string(),
                forward: t.forward,
            },
        };
        let phase = super::wire::state::phase_name(game.phase());
        Frame {
            pieces,
            ball,
            offense,
            down,
            spot: spot.name().to_string(),
            to_gain: to_gain.number(),
            goal_to_go,
            yards_to_go,
            quarter,
            score: [game.score(Side::White), game.score(Side::Black)],
            timeouts: [game.timeouts(Side::White), game.timeouts(Side::Black)],
            phase,
            to_move: game.to_move(),
            clock_running: game.clock_running(),
            flags: game.flags().iter().map(|f| f.to_string()).collect(),
            sidelines: [board.sideline(Side::White), board.sideline(Side::Black)],
            situation: notes::situation_text(
                quarter,
                offense,
                down,
                (!goal_to_go).then_some(yards_to_go),
                spot,
            ),
        }
    }

    /// The field as lines of text, rank 8 on top, with file letters under it.
    pub fn text(&self, style: TermStyle) -> String {
        let mut out = String::new();
        let (ball_sq, ball_mark) = match &self.ball {
            BallView::Carried { square }
            | BallView::Loose { square }
            | BallView::Contested { square }
            | BallView::Spotted { square } => (square.clone(), style.ball()),
            BallView::InFlight { to, .. } => (to.clone(), if style.unicode { '◦' } else { 'x' }),
        };
        let white_up = self.offense == Side::White;
        let spot_rank: u8 = self.spot[1..].parse().unwrap_or(0);
        for rank in (1..=8u8).rev() {
            let _ = write!(out, "{rank} ");
            for (fi, file) in "abcdefgh".chars().enumerate() {
                let name = format!("{file}{rank}");
                let stack = self
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
                let mid = top.map_or('.', |c| style.piece(c));
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
            let mut margin = Vec::new();
            if rank == spot_rank {
                margin.push(if white_up {
                    "line of scrimmage (faces up)"
                } else {
                    "line of scrimmage (faces down)"
                });
            }
            if rank == self.to_gain && !self.goal_to_go {
                margin.push("line to gain");
            }
            if !margin.is_empty() {
                let _ = write!(out, "  < {}", margin.join(", "));
            }
            out.push('\n');
        }
        out.push_str("   a  b  c  d  e  f  g  h\n");
        let _ = writeln!(
            out,
            "{}  score {}-{}",
            self.situation, self.score[0], self.score[1]
        );
        out
    }
}

/// The corner of a knight's route: the end of its first leg.
fn knight_corner(from: Square, to: Square, route: KnightRoute) -> String {
    let (file, rank) = match route {
        // The first leg runs along the file: the rank changes first.
        KnightRoute::FileFirst => (from.file(), to.rank()),
        KnightRoute::RankFirst => (to.file(), from.rank()),
    };
    Square::new(file, rank).name().to_string()
}

/// The squares of an action: a move (with a knight's corner), a throw, a shift.
pub fn arrow_of(action: &Action) -> Option<Arrow> {
    let arrow = |from: Square, to: Square, corner, kind| {
        Some(Arrow {
            from: from.name().to_string(),
            to: to.name().to_string(),
            corner,
            kind,
        })
    };
    match *action {
        Action::Move { from, to, route } => {
            arrow(from, to, route.map(|r| knight_corner(from, to, r)), "move")
        }
        Action::Throw { from, to } => arrow(from, to, None, "throw"),
        Action::Motion { from, to } => arrow(from, to, None, "shift"),
        _ => None,
    }
}

/// Whether an event is told in a step's words: the record's notable events and the
/// contact of the play.
fn told(event: &Event) -> bool {
    notes::is_notable(event)
        || matches!(
            event,
            Event::Pushed { .. }
                | Event::Tackle { .. }
                | Event::Truck { .. }
                | Event::Handoff { .. }
                | Event::Snap { .. }
        )
}

impl Viewed for Game {
    type Frame = Frame;

    fn frame(&self) -> Frame {
        Frame::of(self)
    }

    fn step(&mut self, entry: &Entry) -> Result<Step, ReplayError> {
        let header = notes::play_header(self);
        let side = match entry {
            Entry::Action { .. } => self.to_move(),
            Entry::Expiry { .. } => None,
        };
        let (action, expired) = match entry {
            Entry::Action { action, .. } => (action.parse::<Action>().ok(), None),
            Entry::Expiry { clock } => (None, Some(*clock)),
        };
        let before = self.board().clone();
        let events = entry.apply_to(self)?;
        let caption =
            caption::caption(action.as_ref(), expired, &|sq| before.piece_at(sq), &events);
        let (arrow, emt_ms, clk_ms, kind) = match entry {
            Entry::Action {
                action,
                emt_ms,
                clk_ms,
                ..
            } => (Self::arrow(action), *emt_ms, *clk_ms, "action"),
            Entry::Expiry { .. } => (None, None, None, "expiry"),
        };
        let pushes = events
            .iter()
            .filter_map(|e| match e {
                Event::Pushed { from, to } => {
                    Some([from.name().to_string(), to.name().to_string()])
                }
                _ => None,
            })
            .collect();
        let notable = events.iter().any(|e| {
            matches!(
                e,
                Event::PlayOver { .. } | Event::Flag(_) | Event::PenaltyEnforced(_)
            )
        });
        Ok(Step {
            token: entry.to_string(),
            side,
            kind,
            header,
            emt_ms,
            clk_ms,
            from: None,
            to: None,
            corner: None,
            arrow: None,
            pushes,
            events: events
                .iter()
                .filter(|e| told(e))
                .map(|e| e.to_string())
                .collect(),
            caption,
            notable,
            play_end: self.field_at_play_end().is_some(),
            frame: Frame::of(self).into(),
        }
        .with_arrow(arrow))
    }

    fn arrow(action: &str) -> Option<Arrow> {
        arrow_of(&action.parse::<Action>().ok()?)
    }

    fn board_text(frame: &Frame, style: TermStyle) -> String {
        frame.text(style)
    }

    /// Ten plays a quarter, a minute a play, half a minute a reaction.
    const HUMAN_CLOCK: &'static str = "plays=10,play=60s,reaction=30s";

    /// For a formation: a legal one, chosen by the seed.
    fn suggestion(&self, side: Side, decision: &str, seed: u64) -> Option<String> {
        (decision == "formation").then(|| crate::botkit::formation(self, side, seed).to_string())
    }

    /// A formation is judged against the formation rules (a fault is legal and draws a
    /// flag); any other action is applied to a copy of the game, with its pre-snap foul.
    fn judge_draft(&self, draft: &str) -> Option<Verdict> {
        let action = match draft.parse::<Action>() {
            Ok(a) => a,
            Err(e) => return Some(Verdict::illegal(e)),
        };
        Some(match action {
            Action::Formation(f) => match self.validate_formation(&f) {
                Ok(()) => Verdict::legal(None),
                Err(FormationCheck::Fault(fault)) => Verdict::legal(Some(fault.to_string())),
                Err(e) => Verdict::illegal(e),
            },
            action => {
                let foul = self.presnap_foul(&action);
                match self.clone().apply(&action) {
                    Ok(_) => Verdict::legal(foul.map(|f| f.to_string())),
                    Err(e) => Verdict::illegal(e),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Settings;

    #[test]
    fn plain_text_names_pieces_ball_and_lines() {
        let mut game = Game::new(Settings::plays(4));
        game.apply(&"[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse().unwrap())
            .unwrap();
        let text = Frame::of(&game).text(TermStyle::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10, "{text}");
        // Rank 5: the snapper on the ball spot, the line of scrimmage in the margin.
        assert!(lines[3].starts_with("5  .  .  .  P  P* .  R  . "), "{text}");
        assert!(lines[3].contains("line of scrimmage"), "{text}");
        assert!(lines[1].contains("line to gain"), "{text}");
        assert!(!text.contains('\x1b'));
        let fancy = Frame::of(&game).text(TermStyle {
            unicode: true,
            color: true,
        });
        assert!(fancy.contains('♙') && fancy.contains("\x1b[44"));
    }

    #[test]
    fn moves_throws_and_shifts_have_arrows_and_a_snap_has_none() {
        let arrow = |text: &str| <Game as Viewed>::arrow(text);
        let kinds = ["e4e6", "d4^f6", "c4>c3"].map(|t| arrow(t).map(|a| a.kind));
        assert_eq!(kinds, [Some("move"), Some("throw"), Some("shift")]);
        let knight = arrow("b1c3/f").expect("a knight move has an arrow");
        assert_eq!((knight.from.as_str(), knight.to.as_str()), ("b1", "c3"));
        assert!(knight.corner.is_some(), "{knight:?}");
        assert_eq!(arrow("snap"), None);
        assert_eq!(arrow("not an action"), None);
    }
}
