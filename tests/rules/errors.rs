//! Tests: bad input. Every wrong call returns a typed error naming the problem and leaves
//! the game unchanged.

use zebra::rules::{
    Action, ActionError, Clock, Formation, FormationError, FoulKind, Game, NotationError, Role,
    Settings, Side,
};

use super::support::{game, play, rejected, snap_and_run_out, sq, BLACK_DEFENSE, WHITE_OFFENSE};

fn expire_rejected(g: &mut Game, clock: Clock) -> ActionError {
    let before = g.clone();
    let err = g.expire(clock).expect_err(&format!("{clock} was accepted"));
    assert_eq!(*g, before, "{clock} was rejected but changed the game");
    err
}

fn not_now(a: &str, expected: &str) -> ActionError {
    ActionError::NotNow {
        action: a.to_string(),
        expected: expected.to_string(),
    }
}

fn in_motion() -> Game {
    let mut g = Game::new(Settings::timed());
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE]);
    g
}

/// White to move in the action phase, with pieces placed to provoke every move error.
fn action_position() -> Game {
    game(
        r#"
offense: white
phase: action
spot: e5
8 . . . n . . . .
7 . . . P . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . P K* . . .
3 . p . . . . p .
2 . B . . . . p .
1 N . . . . . R .
"#,
    )
}

// ---- the wrong phase ----

#[test]
fn errors_an_action_in_the_wrong_phase_is_not_now() {
    let mut g = Game::new(Settings::timed());
    assert_eq!(
        rejected(&mut g, "snap"),
        not_now("snap", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "e4e5"),
        not_now("e4e5", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "c3>b3"),
        not_now("c3>b3", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "@N>c3"),
        not_now("@N>c3", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "pass"),
        not_now("pass", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "decline"),
        not_now("decline", "white must decide on a formation")
    );
    assert_eq!(
        rejected(&mut g, "accept:holding"),
        not_now("accept:holding", "white must decide on a formation")
    );

    let mut g = in_motion();
    assert_eq!(
        rejected(&mut g, WHITE_OFFENSE),
        not_now(
            "[Nc3,Ke3,Qe4,Bf4,Pd5,Pe5,Rg5]",
            "white must decide on a motion"
        )
    );
    assert_eq!(
        rejected(&mut g, "e4e6"),
        not_now("e4e6", "white must decide on a motion")
    );
    assert_eq!(
        rejected(&mut g, "e4^e7"),
        not_now("e4^e7", "white must decide on a motion")
    );
    assert_eq!(
        rejected(&mut g, "pass"),
        not_now("pass", "white must decide on a motion")
    );

    play(&mut g, &["c3>b3"]);
    assert_eq!(
        rejected(&mut g, "snap"),
        not_now("snap", "black must decide on a reaction")
    );

    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "d4>d3"),
        not_now("d4>d3", "white must decide on a move")
    );
    assert_eq!(
        rejected(&mut g, "snap"),
        not_now("snap", "white must decide on a move")
    );
    assert_eq!(
        rejected(&mut g, "d4>@"),
        not_now("d4>@", "white must decide on a move")
    );
    assert_eq!(
        rejected(&mut g, "decline"),
        not_now("decline", "white must decide on a move")
    );
}

#[test]
fn errors_not_now_names_the_action_and_who_must_decide() {
    let mut g = Game::new(Settings::timed());
    let msg = rejected(&mut g, "snap").to_string();
    assert!(msg.contains("'snap'"), "{msg}");
    assert!(msg.contains("white must decide on a formation"), "{msg}");
}

#[test]
fn errors_nothing_after_the_game_is_over() {
    let mut g = game(
        r#"
offense: white
phase: formation
spot: e5
quarter: 4
quarter-length: 1
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    // One snapped play ends the last one-play quarter (a dead-ball foul would not, R44).
    snap_and_run_out(&mut g);
    assert!(g.is_over());
    assert_eq!(rejected(&mut g, WHITE_OFFENSE), ActionError::GameOver);
    assert_eq!(rejected(&mut g, "pass"), ActionError::GameOver);
    assert_eq!(
        expire_rejected(&mut g, Clock::Reaction),
        ActionError::GameOver
    );
}

// ---- the wrong side, a missing piece ----

#[test]
fn errors_moving_the_other_teams_piece_names_its_owner() {
    let mut g = in_motion();
    assert_eq!(
        rejected(&mut g, "c7>a6"),
        ActionError::NotYours {
            square: sq("c7"),
            owner: Side::Black
        }
    );
    assert_eq!(
        rejected(&mut g, "c7>@"),
        ActionError::NotYours {
            square: sq("c7"),
            owner: Side::Black
        }
    );
    play(&mut g, &["c3>b3"]);
    assert_eq!(
        rejected(&mut g, "b3>a3"),
        ActionError::NotYours {
            square: sq("b3"),
            owner: Side::White
        }
    );
    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "d8c6"),
        ActionError::NotYours {
            square: sq("d8"),
            owner: Side::Black
        }
    );
}

#[test]
fn errors_a_piece_that_is_not_there() {
    let mut g = in_motion();
    assert_eq!(rejected(&mut g, "a2>a1"), ActionError::NoPiece(sq("a2")));
    assert_eq!(rejected(&mut g, "a2>@"), ActionError::NoPiece(sq("a2")));
    let mut g = action_position();
    assert_eq!(rejected(&mut g, "h5h6"), ActionError::NoPiece(sq("h5")));
    assert_eq!(rejected(&mut g, "h5^h8"), ActionError::NoPiece(sq("h5")));
}

// ---- formations ----

#[test]
fn errors_an_unplaceable_formation() {
    let mut g = Game::new(Settings::timed());
    assert_eq!(
        rejected(&mut g, "[Pd5,Pe5,Qe4,Qe3,Nc3,Bf4,Rg5]"),
        ActionError::Formation(FormationError::NotOnSideline {
            role: Role::Queen,
            count: 2,
            max: 1
        })
    );
    play(&mut g, &[WHITE_OFFENSE]);
    assert_eq!(
        rejected(&mut g, "[Rb8,Qd8,Nc7,Bf7,Rg7,Pd6,Pg5]"),
        ActionError::Formation(FormationError::SquareTaken(sq("g5")))
    );
    let msg = ActionError::Formation(FormationError::SquareTaken(sq("g5"))).to_string();
    assert!(msg.contains("g5"), "{msg}");
}

// ---- motion and reaction ----

#[test]
fn errors_motion_rules() {
    let mut g = in_motion();
    assert_eq!(
        rejected(&mut g, "e5>e4"),
        ActionError::SnapperMoved(sq("e5"))
    );
    assert_eq!(
        rejected(&mut g, "c3>d5"),
        ActionError::SquareTaken(sq("d5"))
    );
    assert_eq!(
        rejected(&mut g, "@N>d5"),
        ActionError::SquareTaken(sq("d5"))
    );
    assert_eq!(
        rejected(&mut g, "@K>a1"),
        ActionError::NotOnSideline(Role::King)
    );
    play(&mut g, &["c3>b3"]);
    assert_eq!(
        rejected(&mut g, "c7>d8"),
        ActionError::SquareTaken(sq("d8"))
    );
    assert_eq!(
        rejected(&mut g, "@Q>a6"),
        ActionError::NotOnSideline(Role::Queen)
    );
    play(&mut g, &["pass"]);
    assert_eq!(
        rejected(&mut g, "b3>c3"),
        ActionError::AlreadyMoved(sq("b3"))
    );
    let msg = ActionError::SnapperMoved(sq("e5")).to_string();
    assert!(msg.contains("e5") && msg.contains("R4"), "{msg}");
}

// ---- the action phase ----

#[test]
fn errors_moves_a_piece_cannot_make() {
    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "d4d6"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d6")
        }
    );
    assert_eq!(
        rejected(&mut g, "d4d3"),
        ActionError::Unreachable {
            role: Role::Pawn,
            from: sq("d4"),
            to: sq("d3")
        }
    );
    assert_eq!(
        rejected(&mut g, "e4e6"),
        ActionError::Unreachable {
            role: Role::King,
            from: sq("e4"),
            to: sq("e6")
        }
    );
    assert_eq!(
        rejected(&mut g, "b2b4"),
        ActionError::Unreachable {
            role: Role::Bishop,
            from: sq("b2"),
            to: sq("b4")
        }
    );
    assert_eq!(
        rejected(&mut g, "a1a3"),
        ActionError::Unreachable {
            role: Role::Knight,
            from: sq("a1"),
            to: sq("a3")
        }
    );
}

#[test]
fn errors_blocked_paths_and_impossible_pushes() {
    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "b2e5"),
        ActionError::Blocked {
            from: sq("b2"),
            to: sq("e5"),
            at: sq("d4")
        }
    );
    assert_eq!(
        rejected(&mut g, "d7d8"),
        ActionError::PushOffBoard { at: sq("d8") }
    );
    assert_eq!(
        rejected(&mut g, "g1g2"),
        ActionError::PushBlocked {
            at: sq("g2"),
            dest: sq("g3")
        }
    );
    assert_eq!(
        rejected(&mut g, "d4c5"),
        ActionError::PawnDiagonal { to: sq("c5") }
    );
}

#[test]
fn errors_an_ambiguous_knight_route() {
    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "a1b3"),
        ActionError::AmbiguousRoute {
            from: sq("a1"),
            to: sq("b3")
        }
    );
    // Naming the route is accepted.
    let ev = play(&mut g, &["a1b3/r"]);
    assert!(
        ev.contains(&zebra::rules::Event::Pushed {
            from: sq("b3"),
            to: sq("b4")
        }),
        "{ev:?}"
    );
}

#[test]
fn errors_throws() {
    let mut g = action_position();
    assert_eq!(rejected(&mut g, "d4^d6"), ActionError::NotCarrier(sq("d4")));
    assert_eq!(rejected(&mut g, "d8^d1"), ActionError::NotCarrier(sq("d8")));
    let mut g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . R* . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "e4^f5"),
        ActionError::ThrowDirection {
            role: Role::Rook,
            from: sq("e4"),
            to: sq("f5")
        }
    );
    assert_eq!(
        rejected(&mut g, "e4^e4"),
        ActionError::ThrowDirection {
            role: Role::Rook,
            from: sq("e4"),
            to: sq("e4")
        }
    );
}

#[test]
fn errors_pass_when_a_move_exists_and_r48_pass_when_none_does() {
    let mut g = action_position();
    assert_eq!(rejected(&mut g, "pass"), ActionError::PassNotAllowed);
    // Black's only piece is a pawn on d2 facing a white piece on d1: no move, no throw.
    let mut g = game(
        r#"
offense: white
phase: action
turn: black
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . K* . . .
3 . . . . . . . .
2 . . . p . . . .
1 . . . R . . . .
"#,
    );
    assert_eq!(g.legal_action_list(), vec![Action::Pass]);
    let ev = play(&mut g, &["pass"]);
    assert_eq!(ev[0], zebra::rules::Event::Passed { side: Side::Black });
}

#[test]
fn errors_contention_allows_only_moves_onto_the_ball() {
    let mut g = game(
        r#"
offense: white
phase: contention
turn: black
spot: e5
8 . . . n . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . n . .
3 . . . . Po . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(rejected(&mut g, "d8c6"), ActionError::NotOntoPile(sq("e3")));
    assert_eq!(
        rejected(&mut g, "e3^e8"),
        not_now("e3^e8", "black must decide on a contention")
    );
    assert_eq!(
        rejected(&mut g, "timeout"),
        not_now("timeout", "black must decide on a contention")
    );
}

// ---- timeouts, penalties, clocks ----

#[test]
fn errors_timeouts() {
    let mut g = game(
        r#"
offense: white
phase: formation
spot: e5
timeouts: 0-2
clock: running
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    assert_eq!(
        rejected(&mut g, "timeout"),
        ActionError::NoTimeouts(Side::White)
    );
    play(&mut g, &[WHITE_OFFENSE, "timeout"]);
    assert_eq!(g.timeouts(Side::Black), 1);
    // White forms again; Black calls its last one, then has none.
    play(&mut g, &[WHITE_OFFENSE, "timeout", WHITE_OFFENSE]);
    assert_eq!(
        rejected(&mut g, "timeout"),
        ActionError::NoTimeouts(Side::Black)
    );
    let mut g = action_position();
    assert_eq!(
        rejected(&mut g, "timeout"),
        not_now("timeout", "white must decide on a move")
    );
}

#[test]
fn errors_accepting_a_foul_that_was_not_flagged() {
    let mut g = game(
        r#"
offense: white
phase: action
spot: e5
8 . . . . . . . .
7 . . . . . . . .
6 . . . p . . . .
5 . . . R . . . .
4 . . Q* . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
"#,
    );
    play(&mut g, &["d5d6", "d7d6", "c4a4"]);
    assert_eq!(
        rejected(&mut g, "accept:offsides"),
        ActionError::NoSuchFoul(FoulKind::Offsides)
    );
    assert_eq!(
        rejected(&mut g, "accept:illegal-contact"),
        ActionError::NoSuchFoul(FoulKind::IllegalContact)
    );
    assert_eq!(
        rejected(&mut g, "e4e5"),
        not_now("e4e5", "white must decide on a penalty")
    );
    let msg = ActionError::NoSuchFoul(FoulKind::Offsides).to_string();
    assert!(msg.contains("offsides"), "{msg}");
}

#[test]
fn errors_expiring_a_clock_that_is_not_running() {
    let mut g = Game::new(Settings::timed());
    assert_eq!(
        expire_rejected(&mut g, Clock::Reaction),
        ActionError::ClockNotRunning {
            clock: "reaction-clock".into(),
            expected: "white must decide on a formation".into()
        }
    );
    let mut g = action_position();
    assert_eq!(
        expire_rejected(&mut g, Clock::Play),
        ActionError::ClockNotRunning {
            clock: "play-clock".into(),
            expected: "white must decide on a move".into()
        }
    );
    let mut g = Game::new(Settings::plays(5));
    play(&mut g, &[WHITE_OFFENSE, BLACK_DEFENSE, "snap"]);
    assert_eq!(
        expire_rejected(&mut g, Clock::Game),
        ActionError::ClockNotRunning {
            clock: "game-clock".into(),
            expected: "white must decide on a move".into()
        }
    );
}

// ---- notation ----

#[test]
fn errors_malformed_notation_is_a_typed_notation_error() {
    let cases: &[(&str, NotationError)] = &[
        ("", NotationError::Malformed("".into())),
        ("e2e", NotationError::Malformed("e2e".into())),
        ("e2e4e6", NotationError::Malformed("e2e4e6".into())),
        ("snapp", NotationError::Malformed("snapp".into())),
        ("[Pe4", NotationError::Malformed("[Pe4".into())),
        ("e4z9", NotationError::BadSquare("z9".into())),
        ("z9e4", NotationError::BadSquare("z9".into())),
        ("Snap", NotationError::Malformed("Snap".into())),
        ("e4>z9", NotationError::BadSquare("z9".into())),
        ("e4^", NotationError::BadSquare("".into())),
        ("i1>@", NotationError::BadSquare("i1".into())),
        ("@X>c3", NotationError::BadRole("X".into())),
        ("@n>c3", NotationError::BadRole("n".into())),
        ("@NN>c3", NotationError::BadRole("NN".into())),
        ("[Xe4]", NotationError::BadRole("Xe4".into())),
        ("[pe4]", NotationError::BadRole("pe4".into())),
        ("[Pe9]", NotationError::BadSquare("e9".into())),
        ("b1c3/x", NotationError::BadRoute("b1c3/x".into())),
        ("accept:roughing", NotationError::BadFoul("roughing".into())),
        ("[Pe4,Pe4]", NotationError::SquareTwice(sq("e4"))),
        (
            "[Pa1,Pb1,Pc1,Pd1,Pe1,Pf1,Pg1,Ph1,Na2,Nb2,Bc2,Bd2,Re2,Rf2,Qg2,Kh2,Pa3]",
            NotationError::TooManyPieces,
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<Action>().as_ref(), Err(expected), "'{text}'");
    }
    assert_eq!(
        "shot-clock".parse::<Clock>(),
        Err(NotationError::Malformed("shot-clock".into()))
    );
    assert_eq!(
        "Pe4".parse::<Formation>(),
        Err(NotationError::Malformed("Pe4".into()))
    );
}

#[test]
fn errors_notation_errors_name_the_offending_text() {
    let msg = "e4z9".parse::<Action>().unwrap_err().to_string();
    assert!(msg.contains("z9"), "{msg}");
    let msg = "accept:roughing".parse::<Action>().unwrap_err().to_string();
    assert!(msg.contains("roughing"), "{msg}");
    let msg = "[Pe4,Pe4]".parse::<Action>().unwrap_err().to_string();
    assert!(msg.contains("e4"), "{msg}");
}

#[test]
fn errors_canonical_notation_round_trips() {
    for text in [
        "[Nc3,Ke3,Qe4,Bf4,Pd5,Pe5,Rg5]",
        "[]",
        "e4>c4",
        "@N>c3",
        "c3>@",
        "snap",
        "d4d6",
        "b1c3/r",
        "b1c3/f",
        "e3^e7",
        "pass",
        "timeout",
        "accept:holding",
        "accept:pass-interference",
        "decline",
    ] {
        let a: Action = text.parse().unwrap_or_else(|e| panic!("'{text}': {e}"));
        assert_eq!(a.to_string(), text);
    }
    for kind in FoulKind::ALL {
        let text = format!("accept:{}", kind.code());
        assert_eq!(text.parse::<Action>(), Ok(Action::Accept(kind)));
    }
    for clock in [Clock::Play, Clock::Reaction, Clock::Game] {
        assert_eq!(clock.to_string().parse::<Clock>(), Ok(clock));
    }
}
