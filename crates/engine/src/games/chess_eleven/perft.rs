//! Perft of Chess Eleven (C54): nodes of the decision tree at a depth, a shot at an occupied
//! goal square counted once per outcome, a restart ending the tree.

use super::action::Action;
use super::position::Position;

/// The positions an action leads to: one, or one per outcome of a drawn shot; `None` for a
/// restart (no children).
pub fn children(pos: &Position, action: &Action) -> Vec<Option<Position>> {
    let actions: Vec<Action> = match *action {
        Action::Shot { from, to, .. } => pos
            .shot_outcomes(to)
            .iter()
            .map(|&o| Action::Shot {
                from,
                to,
                outcome: (pos.board().get(to).is_some()).then_some(o),
            })
            .collect(),
        _ => vec![action.clone()],
    };
    actions
        .iter()
        .map(|a| {
            let mut next = pos.clone();
            let applied = next.apply_unchecked(a);
            applied.end.is_none().then_some(next)
        })
        .collect()
}

/// Nodes at `depth` below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for action in pos.legal() {
        for child in children(pos, &action) {
            nodes += match child {
                Some(p) => perft(&p, depth - 1),
                None => u64::from(depth == 1),
            };
        }
    }
    nodes
}

/// Nodes at `depth` per action (a drawn shot per outcome, `d5*d8=save`), sorted by text.
pub fn divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for action in pos.legal() {
        let drawn = matches!(action, Action::Shot { to, .. } if pos.board().get(to).is_some());
        for (i, child) in children(pos, &action).into_iter().enumerate() {
            let name = match action {
                Action::Shot { from, to, .. } if drawn => Action::Shot {
                    from,
                    to,
                    outcome: Some(pos.shot_outcomes(to)[i]),
                }
                .to_string(),
                _ => action.to_string(),
            };
            let n = match child {
                Some(p) => perft(&p, depth - 1),
                None => u64::from(depth == 1),
            };
            out.push((name, n));
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const KICK_OFF: &str =
        "2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 w spot - - 0-0 1.0 0";

    #[test]
    fn kick_off_counts() {
        let pos: Position = KICK_OFF.parse().unwrap();
        assert_eq!(pos.to_string(), KICK_OFF);
        // The six moves onto the circle (C15), then what each leads to (C54).
        assert_eq!([1, 2, 3].map(|d| perft(&pos, d)), [6, 55, 1450]);
        let split = divide(&pos, 2);
        let names: Vec<&str> = split.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(names, ["c3d5", "c3e4", "d2d4", "e2e4", "f3d4", "f3e5"]);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 55);
    }
}
