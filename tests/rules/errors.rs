//! Tests: bad input. Every wrong call returns a typed error naming the problem and leaves
//! the game unchanged.
//!
//! The wrong actions and clock expiries on a position are cases of
//! `tests/data/rules/errors.txt` (each named after the test it was, read by
//! `cases::errors_cases_file`); the notation's own errors stay here.

use zebra::rules::{Action, Clock, Formation, FoulKind, NotationError};

use super::support::sq;

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
