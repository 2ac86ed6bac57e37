//! Every decision a team makes, and the text notation the records use for it.
//!
//! | action | notation | when |
//! |---|---|---|
//! | formation | `[Kd3,Pd4,Pe4,...]` | setup (3.2) |
//! | motion / reaction | `d3>c3` | pre-snap (3.3) |
//! | piece from the sideline | `@N>c3` | pre-snap: illegal substitution (7.1) |
//! | piece to the sideline | `c3>@` | pre-snap: illegal substitution (7.1) |
//! | snap | `snap` | motion (3.4) |
//! | move | `d4d6`, knight with route `b1c3/f` or `b1c3/r` | action phase (4.1) |
//! | throw | `d4^d7` | action phase (4.3) |
//! | pass the turn | `pass` | no reaction; not contesting; no legal move |
//! | timeout | `timeout` | pre-snap (6.4) |
//! | accept / decline a penalty | `accept:holding`, `decline` | after the play (7.3) |
//!
//! Printing then parsing gives the same action, and parsing then printing gives the same
//! text for every canonical string.

use std::fmt;
use std::str::FromStr;

use super::error::NotationError;
use super::penalty::FoulKind;
use super::types::{Dir, Role, Square};

/// Which of the two L-shaped routes a knight takes (rules 4.1, "Knight Route Selection").
///
/// The route decides the squares the knight passes over (a friendly ball carrier there hands
/// the ball off) and the direction of its last step (which way a push goes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KnightRoute {
    /// The first leg runs along the file (vertically), the last step along the rank.
    FileFirst,
    /// The first leg runs along the rank (horizontally), the last step along the file.
    RankFirst,
}

impl KnightRoute {
    pub const BOTH: [KnightRoute; 2] = [KnightRoute::FileFirst, KnightRoute::RankFirst];

    /// The squares passed over and the direction of the last step for a knight jump `d`.
    pub(crate) fn path(self, from: Square, d: Dir) -> ([Option<Square>; 2], Dir) {
        let (sf, sr) = (d.df.signum(), d.dr.signum());
        let along_file = Dir::new(0, sr);
        let along_rank = Dir::new(sf, 0);
        // The long leg is two steps, the short leg one.
        let (first, first_len, last) = match self {
            KnightRoute::FileFirst => (along_file, d.dr.unsigned_abs(), along_rank),
            KnightRoute::RankFirst => (along_rank, d.df.unsigned_abs(), along_file),
        };
        let a = from.step(first);
        let b = if first_len == 2 {
            a.and_then(|s| s.step(first))
        } else {
            a.and_then(|s| s.step(last))
        };
        ([a, b], last)
    }

    fn letter(self) -> char {
        match self {
            KnightRoute::FileFirst => 'f',
            KnightRoute::RankFirst => 'r',
        }
    }
}

/// A team's placement for one play: which pieces go where (rules 3.2).
///
/// Squares are distinct and at most 16 pieces are placed (a whole sideline). Whether the
/// formation is legal for the play (count, pawns, snapper, side of the line) is the game's
/// judgement: see [`crate::rules::Game::validate_formation`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Formation {
    squares: u64,
    /// Three bits of role per placed piece, in ascending square order.
    roles: u64,
}

/// Most pieces one formation can name: a whole sideline.
pub(crate) const MAX_FORMATION: usize = 16;

impl Formation {
    pub const fn empty() -> Formation {
        Formation {
            squares: 0,
            roles: 0,
        }
    }

    /// Builds a formation from placements; a square named twice or more than 16 pieces is an error.
    pub fn from_placements(
        placements: impl IntoIterator<Item = (Role, Square)>,
    ) -> Result<Formation, NotationError> {
        let mut f = Formation::empty();
        for (role, sq) in placements {
            f.place(role, sq)?;
        }
        Ok(f)
    }

    /// Adds one piece.
    pub fn place(&mut self, role: Role, sq: Square) -> Result<(), NotationError> {
        if self.squares & sq.bit() != 0 {
            return Err(NotationError::SquareTwice(sq));
        }
        if self.len() >= MAX_FORMATION {
            return Err(NotationError::TooManyPieces);
        }
        let idx = (self.squares & (sq.bit() - 1)).count_ones();
        let low_mask = (1u64 << (3 * idx)) - 1;
        let low = self.roles & low_mask;
        let high = (self.roles & !low_mask) << 3;
        self.roles = low | ((role.index() as u64) << (3 * idx)) | high;
        self.squares |= sq.bit();
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.squares.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.squares == 0
    }

    /// The placements in ascending square order.
    pub fn iter(&self) -> impl Iterator<Item = (Role, Square)> + '_ {
        let roles = self.roles;
        let mut squares = self.squares;
        let mut i = 0;
        std::iter::from_fn(move || {
            if squares == 0 {
                return None;
            }
            let sq = Square(squares.trailing_zeros() as u8);
            squares &= squares - 1;
            let role = Role::ALL[((roles >> (3 * i)) & 7) as usize];
            i += 1;
            Some((role, sq))
        })
    }

    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.iter().find(|&(_, s)| s == sq).map(|(r, _)| r)
    }

    pub fn count(&self, role: Role) -> usize {
        self.iter().filter(|&(r, _)| r == role).count()
    }
}

impl fmt::Debug for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Formation {
    /// Writes `[Pd5,...]` (see [`Action::write_notation`]).
    pub(crate) fn write_notation<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        out.write_char('[')?;
        for (i, (role, sq)) in self.iter().enumerate() {
            if i > 0 {
                out.write_char(',')?;
            }
            out.write_char(role.letter())?;
            out.write_str(sq.name())?;
        }
        out.write_char(']')
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_notation(f)
    }
}

impl FromStr for Formation {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Formation, NotationError> {
        let inner = s
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(|| NotationError::Malformed(s.to_string()))?;
        let mut f = Formation::empty();
        if inner.is_empty() {
            return Ok(f);
        }
        for item in inner.split(',') {
            let mut chars = item.chars();
            let role = chars
                .next()
                .filter(char::is_ascii_uppercase)
                .and_then(Role::from_letter)
                .ok_or_else(|| NotationError::BadRole(item.to_string()))?;
            let sq = Square::from_str(chars.as_str())?;
            f.place(role, sq)?;
        }
        Ok(f)
    }
}

/// One decision of one team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the pieces for the play and declare "ready" (3.2).
    Formation(Formation),
    /// Pre-snap shift of one piece on the field to an empty square: the offense's motion or
    /// the defense's reaction (3.3).
    Motion { from: Square, to: Square },
    /// Bring a piece from the sideline onto the field after "ready": illegal substitution (7.1).
    Enter { role: Role, to: Square },
    /// Take a piece off to the sideline after "ready": illegal substitution (7.1).
    Exit { from: Square },
    /// Snap the ball (3.4).
    Snap,
    /// Move a piece in the action phase (4.1); a knight names its route when it matters.
    Move {
        from: Square,
        to: Square,
        route: Option<KnightRoute>,
    },
    /// Throw the ball from the carrier's square (4.3).
    Throw { from: Square, to: Square },
    /// Let the turn go: no reaction, no contest, or no legal move at all.
    Pass,
    /// Call a timeout (6.4).
    Timeout,
    /// Accept the opponent's foul of this kind (7.3).
    Accept(FoulKind),
    /// Decline every foul of the play (7.3).
    Decline,
}

impl Action {
    /// Writes the action's notation with plain string pieces: no format machinery, since the
    /// referee writes hundreds of actions into every request.
    pub(crate) fn write_notation<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        match *self {
            Action::Formation(ref formation) => formation.write_notation(out),
            Action::Motion { from, to } => {
                out.write_str(from.name())?;
                out.write_char('>')?;
                out.write_str(to.name())
            }
            Action::Enter { role, to } => {
                out.write_char('@')?;
                out.write_char(role.letter())?;
                out.write_char('>')?;
                out.write_str(to.name())
            }
            Action::Exit { from } => {
                out.write_str(from.name())?;
                out.write_str(">@")
            }
            Action::Snap => out.write_str("snap"),
            Action::Move { from, to, route } => {
                out.write_str(from.name())?;
                out.write_str(to.name())?;
                if let Some(r) = route {
                    out.write_char('/')?;
                    out.write_char(r.letter())?;
                }
                Ok(())
            }
            Action::Throw { from, to } => {
                out.write_str(from.name())?;
                out.write_char('^')?;
                out.write_str(to.name())
            }
            Action::Pass => out.write_str("pass"),
            Action::Timeout => out.write_str("timeout"),
            Action::Accept(kind) => {
                out.write_str("accept:")?;
                out.write_str(kind.code())
            }
            Action::Decline => out.write_str("decline"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_notation(f)
    }
}

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Action, NotationError> {
        let malformed = || NotationError::Malformed(s.to_string());
        match s {
            "snap" => return Ok(Action::Snap),
            "pass" => return Ok(Action::Pass),
            "timeout" => return Ok(Action::Timeout),
            "decline" => return Ok(Action::Decline),
            _ => {}
        }
        if s.starts_with('[') {
            return Ok(Action::Formation(s.parse()?));
        }
        if let Some(code) = s.strip_prefix("accept:") {
            let kind = FoulKind::from_code(code)
                .ok_or_else(|| NotationError::BadFoul(code.to_string()))?;
            return Ok(Action::Accept(kind));
        }
        if let Some((a, b)) = s.split_once('>') {
            if let Some(letter) = a.strip_prefix('@') {
                let mut chars = letter.chars();
                let role = match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_uppercase() => Role::from_letter(c),
                    _ => None,
                }
                .ok_or_else(|| NotationError::BadRole(letter.to_string()))?;
                return Ok(Action::Enter {
                    role,
                    to: Square::from_str(b)?,
                });
            }
            let from = Square::from_str(a)?;
            if b == "@" {
                return Ok(Action::Exit { from });
            }
            return Ok(Action::Motion {
                from,
                to: Square::from_str(b)?,
            });
        }
        if let Some((a, b)) = s.split_once('^') {
            return Ok(Action::Throw {
                from: Square::from_str(a)?,
                to: Square::from_str(b)?,
            });
        }
        let (squares, route) = match s.split_once('/') {
            Some((sq, "f")) => (sq, Some(KnightRoute::FileFirst)),
            Some((sq, "r")) => (sq, Some(KnightRoute::RankFirst)),
            Some(_) => return Err(NotationError::BadRoute(s.to_string())),
            None => (s, None),
        };
        if squares.len() != 4
            || !squares.is_ascii()
            || !squares.starts_with(|c: char| c.is_ascii_lowercase())
        {
            return Err(malformed());
        }
        Ok(Action::Move {
            from: Square::from_str(&squares[..2])?,
            to: Square::from_str(&squares[2..])?,
            route,
        })
    }
}

/// Actions travel as their notation (`"e4e5"`, `"[Pd5,...]"`), written into a buffer on the
/// stack (the longest notation, a 16-piece formation, takes 65 bytes): no heap string and
/// no format machinery per action.
impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = arrayvec::ArrayString::<96>::new();
        match self.write_notation(&mut buf) {
            Ok(()) => s.serialize_str(&buf),
            Err(_) => s.collect_str(self),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A clock the referee reports as expired (rules 6.2); the engine applies the consequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    /// The offense did not snap in time: delay of game.
    Play,
    /// The deciding team (the defense, or per R17 either team in the action phase) ran out
    /// of time for one decision.
    Reaction,
    /// The quarter's time is up.
    Game,
}

impl Clock {
    pub const fn code(self) -> &'static str {
        match self {
            Clock::Play => "play-clock",
            Clock::Reaction => "reaction-clock",
            Clock::Game => "game-clock",
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Clock {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Clock, NotationError> {
        match s {
            "play-clock" => Ok(Clock::Play),
            "reaction-clock" => Ok(Clock::Reaction),
            "game-clock" => Ok(Clock::Game),
            _ => Err(NotationError::Malformed(s.to_string())),
        }
    }
}
