//! Helpers shared by the rule tests: positions from diagrams, actions from notation.

#![allow(dead_code)]

use zebra::rules::{
    Action, ActionError, Clock, Event, File, Foul, FoulKind, Game, PlayEnd, Rank, Side, Square,
};

/// A legal White offense formation around e5, and a legal Black defense against it.
pub const WHITE_OFFENSE: &str = "[Pd5,Pe5,Qe4,Ke3,Nc3,Bf4,Rg5]";
pub const BLACK_DEFENSE: &str = "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pe6]";

/// The rows of an empty field, for diagrams before the formations.
pub const EMPTY_BOARD: &str = "8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
";

/// An action-phase diagram: extra keys, then the board rows.
pub fn action_phase(keys: &str, rows: &str) -> Game {
    game(&format!("phase: action\n{keys}\n{rows}"))
}

pub fn foul(side: Side, kind: FoulKind, spot: &str) -> Foul {
    Foul {
        side,
        kind,
        spot: sq(spot),
    }
}

/// The referee reports that `clock` ran out; panics if the game refuses it.
pub fn expire(g: &mut Game, clock: Clock) -> Vec<Event> {
    g.expire(clock)
        .unwrap_or_else(|e| panic!("{clock} rejected: {e}"))
        .to_vec()
}

/// Offense, down, ball spot and line to gain (rank number), with the diagram on failure.
pub fn assert_series(g: &Game, offense: Side, down: u8, spot: &str, to_gain: u8) {
    assert_eq!(
        (g.offense(), g.down(), g.spot(), g.line_to_gain().number()),
        (offense, down, sq(spot), to_gain),
        "\n{}",
        g.to_diagram()
    );
}

/// Applies an action that must be rejected; checks that the game is unchanged.
pub fn rejected(g: &mut Game, a: &str) -> ActionError {
    let before = g.clone();
    match g.apply(&action(a)) {
        Ok(ev) => panic!("'{a}' was accepted: {ev:?}"),
        Err(e) => {
            assert_eq!(*g, before, "the rejected action '{a}' changed the game");
            e
        }
    }
}

/// The legal moves of the piece on `from`, in notation, sorted.
pub fn moves_from(g: &Game, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = g
        .legal_action_list()
        .iter()
        .filter(|a| matches!(a, Action::Move { from: f, .. } if *f == from))
        .map(|a| a.to_string())
        .collect();
    v.sort();
    v
}

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

/// One snapped play that stands, for tests that need a play counted: from the offense's
/// formation decision, the offense lines six pawns up on the line of scrimmage (the snapper
/// on the ball) with a rook behind the snapper, the defense seven pawns on the rank beyond;
/// the snap goes to the rook, which runs out of bounds on file a. The play ends one rank
/// behind the line, spotted on file b, and uses a down. Returns every event.
///
/// Not for a White line of scrimmage on rank 2 or a Black one on rank 7: the rook would
/// stand in its own end zone and the run would be a safety.
pub fn snap_and_run_out(game: &mut Game) -> Vec<Event> {
    let offense = game.offense();
    let spot = game.spot();
    let line = spot.rank();
    let behind = line
        .offset(-offense.forward())
        .expect("a rank behind the line");
    let beyond = line
        .offset(offense.forward())
        .expect("a rank beyond the line");
    let files = || (0..8).filter_map(File::new);
    let on =
        |role: char, file: File, rank: Rank| format!("{role}{}", Square::new(file, rank).name());
    let mut mine: Vec<String> = vec![on('P', spot.file(), line), on('R', spot.file(), behind)];
    mine.extend(
        files()
            .filter(|&f| f != spot.file())
            .take(5)
            .map(|f| on('P', f, line)),
    );
    let theirs: Vec<String> = files().take(7).map(|f| on('P', f, beyond)).collect();
    let run = format!(
        "{}{}",
        Square::new(spot.file(), behind).name(),
        Square::new(File::new(0).unwrap(), behind).name()
    );
    let actions = [
        format!("[{}]", mine.join(",")),
        format!("[{}]", theirs.join(",")),
        "snap".to_string(),
        run,
    ];
    let actions: Vec<&str> = actions.iter().map(String::as_str).collect();
    let ev = play(game, &actions);
    assert!(
        ev.contains(&Event::PlayOver {
            end: PlayEnd::OutOfBounds
        }),
        "{ev:?}"
    );
    ev
}

/// Black holds on d7: with extra diagram `keys`, White's rook on d5 pushes the d6 pawn and
/// the pawn pushes it back (a defensive holding flag, R39); White's queen carries the ball
/// on g4 and moves next.
pub fn black_holds_on_d7(keys: &str) -> Game {
    let mut g = action_phase(
        &format!("offense: white\nspot: e5\n{keys}"),
        r#"
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . . . . . Q* .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["d5d6", "d7d6"]);
    g
}
