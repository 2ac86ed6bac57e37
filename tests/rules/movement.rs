//! Tests: rule 4.1 (movement, pushing, tackle and truck, knight routes) with rulings R7–R9,
//! R12, R26, R27 and R48.
//!
//! Most of them are cases of `tests/data/rules/movement.txt` (a position, the actions played
//! on it, and the events, errors, legal actions or diagram each gave; read by
//! `cases::movement_cases_file`, each named after the test it was). What stays here is not
//! a table: a truck's pile holding the ball (a diagram does not show it), a route that
//! decides nothing giving the same game, and the route's notation.

use zebra::rules::{Action, Ball, Event, KnightRoute, NotationError, Phase, Piece, Side};

use crate::support::{action, game, is_legal, play, sq};

fn piece(c: char) -> Option<Piece> {
    Piece::from_char(c)
}

// ---- tackle and truck (4.1, R27) ----

/// A second forward pass (flagged), caught on e5: the play then ends on a flag, so the field
/// stays as it was while Black decides on the penalty. (Its twin, the tackle, is a case of
/// movement.txt.)
const FLAGGED_CATCH: &str = r#"
offense: white
spot: e4
forward-pass: yes
8 . . . . . . . .
7 . . . . . . . .
6 . . . . p . . .
5 . . . . R . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . p . . . .
1 . . . . . . . .
"#;

#[test]
fn r27_truck_leaves_both_pieces_on_the_square_trucker_on_top() {
    let mut g = game(FLAGGED_CATCH);
    let ev = play(&mut g, &["e4^e5", "d2d1", "e5e6"]);
    assert!(ev.contains(&Event::Truck { at: sq("e6") }));
    assert_eq!(g.phase(), Phase::PenaltyChoice(Side::Black));
    assert_eq!(
        g.board().stack_at(sq("e6")).to_vec(),
        vec![piece('p').unwrap(), piece('R').unwrap()]
    );
    assert_eq!(g.ball(), Ball::Carried(sq("e6")));
}

// ---- knight route selection (4.1, R26) ----

#[test]
fn r26_knight_route_is_listed_without_suffix_when_it_decides_nothing() {
    let mut g = game(
        r#"
offense: white
spot: g2
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . P* .
1 . N . . . . . .
"#,
    );
    assert!(is_legal(&g, "b1c3"));
    assert!(!is_legal(&g, "b1c3/f"));
    assert!(!is_legal(&g, "b1c3/r"));
    // A route where it does not matter is accepted, with the same effect.
    let mut plain = g.clone();
    let ev = play(&mut g, &["b1c3/r"]);
    assert_eq!(ev, play(&mut plain, &["b1c3"]));
    assert_eq!(g, plain);
}

#[test]
fn r26_route_notation_round_trips() {
    assert_eq!(
        action("b1c3/f"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: Some(KnightRoute::FileFirst)
        }
    );
    assert_eq!(
        action("b1c3/r"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: Some(KnightRoute::RankFirst)
        }
    );
    assert_eq!(
        action("b1c3"),
        Action::Move {
            from: sq("b1"),
            to: sq("c3"),
            route: None
        }
    );
    for s in ["b1c3/f", "b1c3/r", "b1c3"] {
        assert_eq!(action(s).to_string(), s);
    }
}

#[test]
fn r26_unknown_route_letter_is_a_notation_error() {
    assert_eq!(
        "b1c3/x".parse::<Action>(),
        Err(NotationError::BadRoute("b1c3/x".to_string()))
    );
    assert_eq!(
        "b1c3/".parse::<Action>(),
        Err(NotationError::BadRoute("b1c3/".to_string()))
    );
}

// ---- out of bounds (R12) ----

// ---- pass only without a move (R48) ----
