//! Chess Eleven's actions and their notation (C51, C52): formations, moves, passes, shots
//! and `end`. Printing and parsing round-trip exactly.

use std::fmt;
use std::str::FromStr;

use super::board::{Role, Sq};
use super::error::NotationError;

/// The eleven pieces a side fields and its bench piece (C6). The side is the decision's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Formation {
    /// The pieces on the field, in square order.
    placed: Vec<(Sq, Role)>,
    /// The piece on the bench.
    pub bench: Role,
}

impl Formation {
    /// A formation of these pieces (put in square order) and this bench piece; the rules
    /// are checked when it is played ([`super::formation::check`]).
    pub fn new(mut placed: Vec<(Sq, Role)>, bench: Role) -> Formation {
        placed.sort_by_key(|&(s, _)| s);
        Formation { placed, bench }
    }
    pub fn placed(&self) -> &[(Sq, Role)] {
        &self.placed
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, (sq, role)) in self.placed.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}{sq}", role.letter())?;
        }
        write!(f, "]/{}", self.bench.letter())
    }
}

/// How a shot at an occupied goal square ended (C26, C38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShotOutcome {
    Goal,
    /// The king in the goal took the ball.
    Save,
    /// Another piece in the goal took the ball.
    Block,
    Corner,
}

impl ShotOutcome {
    pub const fn name(self) -> &'static str {
        match self {
            ShotOutcome::Goal => "goal",
            ShotOutcome::Save => "save",
            ShotOutcome::Block => "block",
            ShotOutcome::Corner => "corner",
        }
    }
}

impl FromStr for ShotOutcome {
    type Err = ();
    fn from_str(s: &str) -> Result<ShotOutcome, ()> {
        [
            ShotOutcome::Goal,
            ShotOutcome::Save,
            ShotOutcome::Block,
            ShotOutcome::Corner,
        ]
        .into_iter()
        .find(|o| o.name() == s)
        .ok_or(())
    }
}

/// One decision of one side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Formation(Formation),
    /// A chess move, with the promotion's piece.
    Move {
        from: Sq,
        to: Sq,
        promotion: Option<Role>,
    },
    /// A pass from the carrier (or, for the corner pass, from the corner square) to an own
    /// piece.
    Pass {
        from: Sq,
        to: Sq,
    },
    /// A shot from the carrier at a goal square; its outcome once drawn (records, C52).
    Shot {
        from: Sq,
        to: Sq,
        outcome: Option<ShotOutcome>,
    },
    /// Ends the go.
    End,
}

impl Action {
    /// The action as a bot sends it: a shot without its outcome.
    pub fn as_sent(&self) -> Action {
        match *self {
            Action::Shot { from, to, .. } => Action::Shot {
                from,
                to,
                outcome: None,
            },
            ref other => other.clone(),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Formation(formation) => formation.fmt(f),
            Action::Move {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.letter().to_ascii_lowercase())?;
                }
                Ok(())
            }
            Action::Pass { from, to } => write!(f, "{from}^{to}"),
            Action::Shot { from, to, outcome } => {
                write!(f, "{from}*{to}")?;
                if let Some(o) = outcome {
                    write!(f, "={}", o.name())?;
                }
                Ok(())
            }
            Action::End => f.write_str("end"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Action, NotationError> {
        let bad = |why: &str| NotationError::new(s, why);
        if s == "end" {
            return Ok(Action::End);
        }
        if let Some(body) = s.strip_prefix('[') {
            let (list, bench) = body
                .split_once("]/")
                .ok_or_else(|| bad("a formation is [pieces]/bench, e.g. [Kd1,...]/B"))?;
            let bench = single_role(bench).ok_or_else(|| bad("the bench piece is one letter"))?;
            let mut placed = Vec::new();
            for item in list.split(',') {
                let mut chars = item.chars();
                let role = chars
                    .next()
                    .filter(char::is_ascii_uppercase)
                    .and_then(Role::from_letter)
                    .ok_or_else(|| bad("each piece is a letter KQRBNP and a square"))?;
                let sq: Sq = chars
                    .as_str()
                    .parse()
                    .map_err(|_| bad("each piece is a letter KQRBNP and a square, e.g. Kd1"))?;
                placed.push((sq, role));
            }
            let formation = Formation::new(placed, bench);
            // One spelling per formation: the pieces in square order.
            if formation.to_string() != s {
                return Err(bad("list the pieces in square order (a1, b1, ..., h8)"));
            }
            return Ok(Action::Formation(formation));
        }
        if let Some((from, rest)) = s.split_once('^') {
            return Ok(Action::Pass {
                from: from
                    .parse()
                    .map_err(|_| bad("a pass is from^to, e.g. c3^e5"))?,
                to: rest
                    .parse()
                    .map_err(|_| bad("a pass is from^to, e.g. c3^e5"))?,
            });
        }
        if let Some((from, rest)) = s.split_once('*') {
            let (to, outcome) =
                match rest.split_once('=') {
                    Some((to, o)) => (
                        to,
                        Some(o.parse().map_err(|_| {
                            bad("a shot's outcome is =goal, =save, =block or =corner")
                        })?),
                    ),
                    None => (rest, None),
                };
            return Ok(Action::Shot {
                from: from
                    .parse()
                    .map_err(|_| bad("a shot is from*to, e.g. d5*d8"))?,
                to: to
                    .parse()
                    .map_err(|_| bad("a shot is from*to, e.g. d5*d8"))?,
                outcome,
            });
        }
        let general = || {
            bad("not an action (moves d2d4, e7e8q; passes c3^e5; shots d5*d8; end; formations [..]/B)")
        };
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(general());
        }
        let (Ok(from), Ok(to)) = (s[..2].parse::<Sq>(), s[2..4].parse::<Sq>()) else {
            return Err(general());
        };
        let promotion = match s[4..].chars().next() {
            None => None,
            Some(c) if c.is_ascii_lowercase() => Some(
                Role::from_letter(c)
                    .filter(|r| Role::PROMOTIONS.contains(r))
                    .ok_or_else(|| bad("a promotion ends in q, r, b or n"))?,
            ),
            Some(_) => return Err(general()),
        };
        Ok(Action::Move {
            from,
            to,
            promotion,
        })
    }
}

fn single_role(text: &str) -> Option<Role> {
    let mut chars = text.chars();
    let c = chars.next()?;
    if chars.next().is_some() || !c.is_ascii_uppercase() {
        return None;
    }
    Role::from_letter(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in [
            "d2d4",
            "e7e8q",
            "c3^e5",
            "a8^c6",
            "d5*d8",
            "d5*d8=save",
            "e4*e8=corner",
            "end",
            "[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Nf3]/B",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn bad_tokens_say_what_was_expected() {
        for (text, says) in [
            ("e7e8k", "promotion"),
            ("z9z9", "not an action"),
            ("d5*d8=miss", "outcome"),
            ("[Kd1,Rc1]/B", "square order"),
            ("[Kd1]/BB", "bench"),
            ("pass", "not an action"),
            ("d2-d4", "not an action"),
        ] {
            let err = text.parse::<Action>().unwrap_err();
            assert!(err.to_string().contains(says), "{text}: {err}");
        }
    }
}
