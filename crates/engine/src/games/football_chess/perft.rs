//! Perft: the number of distinct legal action sequences of a given length from a position.
//!
//! Other implementations of the rules compare these counts with ours: any difference
//! points at a rule the two read differently. Formation decisions are not enumerable, so a
//! line that reaches a formation (the play is over) or the end of the game before the
//! depth is reached contributes nothing, as a checkmate does in chess perft.

use super::game::Game;
use super::play::ActionList;

/// Counts the legal action sequences of exactly `depth` actions from `game`.
pub fn perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = ActionList::new();
    game.legal_actions(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for action in &list {
        let mut next = game.clone();
        next.apply(action).expect("every generated action is legal");
        total += perft(&next, depth - 1);
    }
    total
}

/// The perft count below each legal action (for finding where two implementations differ).
pub fn divide(game: &Game, depth: u32) -> Vec<(String, u64)> {
    let mut list = ActionList::new();
    game.legal_actions(&mut list);
    list.iter()
        .map(|action| {
            let mut next = game.clone();
            next.apply(action).expect("every generated action is legal");
            (action.to_string(), perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}

/// Named positions for perft, as diagrams (see [`super::diagram`]).
pub const POSITIONS: &[(&str, &str)] = &[
    (
        "shotgun",
        // White's first play after the snap: the king took the snap two squares back.
        "offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . p p p n . .
5 . . b P P r . .
4 . . . . . . . .
3 . . N . K* . . .
2 . . . . . . . .
1 . . . . . . . .
",
    ),
    (
        "scramble",
        // Midfield, Black's turn, a queen carrying for White past a crowd.
        "offense: white
phase: action
turn: black
spot: d4
crossed: yes
turns: 5
8 . . . . . . . .
7 . . . . . . . .
6 . . p . . b . .
5 . n . Q* p . . .
4 . . P . P . . .
3 . . . B . . . .
2 . . . . . . . .
1 . . . . . . . .
",
    ),
    (
        "motion",
        // Before the snap: a legal I-formation against a legal defense.
        "offense: white
phase: motion
spot: e5
clock: running
8 . . . . . . . .
7 . . . . . . . .
6 . . p p p p . .
5 . . . P P . . .
4 . . . . K . . .
3 . . . . Q . . .
2 . . . . . . . .
1 . . . . . . . .
",
    ),
];

/// Looks up a named position.
pub fn position(name: &str) -> Option<Game> {
    POSITIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| Game::from_diagram(d).expect("the built-in perft positions are valid"))
}

impl crate::perft::Perft for Game {
    const MAX_DEPTH: u32 = 6;
    /// None: a position is chosen on purpose (`--position NAME` or `--diagram FILE`).
    const DEFAULT_POSITION: Option<&'static str> = None;

    fn names() -> Vec<&'static str> {
        POSITIONS.iter().map(|(n, _)| *n).collect()
    }

    fn named(name: &str) -> Option<Game> {
        position(name)
    }

    /// A diagram, given as lines (a text of one line is a mistyped name, not a diagram).
    fn from_text(text: &str) -> Result<Game, String> {
        if !text.contains('\n') {
            return Err(
                "a Football Chess position is a diagram of several lines (in a file)".into(),
            );
        }
        Game::from_diagram(text).map_err(|e| e.to_string())
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(self, depth)
    }
}
