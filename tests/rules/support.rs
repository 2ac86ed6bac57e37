//! Helpers shared by the rule tests: positions from diagrams, actions from notation.

#![allow(dead_code)]

use zebra::rules::{Action, Event, Game, Square};

/// A game from a diagram; panics with the diagram error (tests only).
pub fn game(diagram: &str) -> Game {
    Game::from_diagram(diagram).unwrap_or_else(|e| panic!("bad test diagram: {e}"))
}

pub fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

pub fn action(s: &str) -> Action {
    s.parse()
        .unwrap_or_else(|e| panic!("bad test notation '{s}': {e}"))
}

/// Applies actions in notation, one after the other, and returns every event.
pub fn play(game: &mut Game, actions: &[&str]) -> Vec<Event> {
    let mut out = Vec::new();
    for a in actions {
        let events = game
            .apply(&action(a))
            .unwrap_or_else(|e| panic!("'{a}' rejected: {e}\n{}", game.to_diagram()));
        out.extend(events);
    }
    out
}

/// Whether the legal actions include this one (in notation).
pub fn is_legal(game: &Game, a: &str) -> bool {
    game.legal_action_list().contains(&action(a))
}
