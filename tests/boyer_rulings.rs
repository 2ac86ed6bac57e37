//! One test per ruling of protocol/BOYER.md that the engine (`zebra::games::boyer::rules`) decides,
//! each named after its ruling (`b07_...`, zero-padded so that they sort in ruling order).
//! Every test starts from a FEN diagram, says in a comment what the ruling asks, and checks
//! the exact sub-moves offered and refused, the result or the error text.
//!
//! Rulings that the engine does not decide are tested elsewhere:
//! - B7 (every refereed game starts from B6, no shuffled setups): tests/cli.rs,
//!   `boyer_games_are_played_recorded_reproducibly_and_verified` (no FEN tag in a refereed
//!   game's record; the first request's state is the start position).
//! - B36 (a chess clock; the sub-moves of a turn share its time; the increment is per
//!   turn): crates/engine/src/seam/chess_clock.rs, unit tests `a_bank_gains_its_increment_and_a_turn_restarts`
//!   and `presets_items_and_round_trips`.
//! - B37 (time forfeit) and B38 (a bad reply is refused and asked again, up to the limit):
//!   tests/cli.rs, `boyer_asks_again_after_a_bad_reply_and_a_timeout_loses_on_time`; the
//!   problems a bad reply raises also in `check_bot_for_boyer_asks_every_moment_of_a_turn_and_names_problems`.
//!   The same test plays a bot whose every reply is illegal to its forfeit at the limit.
//! - B42, as far as the protocol and the records go (one decision per sub-move, a turn's
//!   sub-moves in order in the record): tests/cli.rs,
//!   `check_bot_for_boyer_asks_every_moment_of_a_turn_and_names_problems` and
//!   `boyer_games_are_played_recorded_reproducibly_and_verified`. The engine's share (one
//!   sub-move played and reported at a time) is `b42_...` below.
//!
//! B43 describes the site's notation for comparison only; the test for it checks that the
//! engine's parser does not take that notation.

use zebra::games::boyer::rules::{
    BoyerError, Event, Game, Kind, Outcome, Piece, Position, Sq, SubMove, BLACK_GOAL, TURN_LIMIT,
    WHITE_GOAL,
};
use zebra::rules::{GameResult, Side};

// ---------------------------------------------------------------------------------------
// Helpers

fn pos(fen: &str) -> Position {
    fen.parse()
        .unwrap_or_else(|e| panic!("test diagram '{fen}' does not parse: {e}"))
}

fn sq(text: &str) -> Sq {
    text.parse().unwrap()
}

fn sub(text: &str) -> SubMove {
    text.parse()
        .unwrap_or_else(|e| panic!("'{text}' is not notation: {e}"))
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The legal sub-moves of `p` as text, sorted.
fn texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn legal(fen: &str) -> Vec<String> {
    texts(&pos(fen))
}

/// Where the piece on `by` may kick the ball now, sorted.
fn kicks_by(p: &Position, by: &str) -> Vec<String> {
    let by = sq(by);
    let mut v: Vec<String> = p
        .legal()
        .into_iter()
        .filter_map(|m| match m {
            SubMove::Kick { by: b, to } if b == by => Some(to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Where the piece on `from` may move now, sorted.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let mut v: Vec<String> = p
        .legal()
        .into_iter()
        .filter_map(|m| match m {
            SubMove::Move { from: f, to } if f == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn kicks(p: &Position) -> Vec<SubMove> {
    p.legal()
        .into_iter()
        .filter(|m| matches!(m, SubMove::Kick { .. }))
        .collect()
}

fn piece_moves(p: &Position) -> Vec<SubMove> {
    p.legal()
        .into_iter()
        .filter(|m| matches!(m, SubMove::Move { .. }))
        .collect()
}

fn assert_has(list: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(list.iter().any(|s| s == w), "{w} missing from {list:?}");
    }
}

fn assert_lacks(list: &[String], unwanted: &[&str]) {
    for u in unwanted {
        assert!(!list.iter().any(|s| s == u), "{u} wrongly in {list:?}");
    }
}

fn play(p: &mut Position, subs: &[&str]) {
    for text in subs {
        p.apply(sub(text))
            .unwrap_or_else(|e| panic!("{text} in {p}: {e}"));
    }
}

fn play_game(g: &mut Game, subs: &[&str]) {
    for text in subs {
        g.apply(sub(text))
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", g.position()));
    }
}

/// The placement field of a position's FEN (pieces and ball only).
fn placement(p: &Position) -> String {
    p.to_string()
        .split(' ')
        .next()
        .expect("a FEN has a placement")
        .to_string()
}

fn piece(side: Side, kind: Kind) -> Option<Piece> {
    Some(Piece { side, kind })
}

/// How many of `which` stand on the board.
fn count_pieces(p: &Position, which: Piece) -> usize {
    (0..9)
        .flat_map(|file| (0..9).filter_map(move |rank| Sq::at(file, rank)))
        .filter(|&at| p.piece_at(at) == Some(which))
        .count()
}

// ---------------------------------------------------------------------------------------
// Board and pieces

#[test]
fn b01_nine_by_nine_board_white_first_goals_in_the_middle_of_the_back_ranks() {
    // Files a to i, ranks 1 to 9; nothing outside.
    assert_eq!(Sq::at(0, 0).map(|s| s.to_string()), Some("a1".to_string()));
    assert_eq!(Sq::at(8, 8).map(|s| s.to_string()), Some("i9".to_string()));
    assert_eq!(Sq::at(9, 0), None);
    assert_eq!(Sq::at(0, 9), None);
    for bad in ["j1", "a0", "e10", "i0", ""] {
        assert!(bad.parse::<Sq>().is_err(), "{bad}");
    }
    // North is toward rank 9.
    assert_eq!(sq("e5").offset(0, 1), Some(sq("e6")));
    // White attacks e9, Black attacks e1: the middle of the other side's back rank.
    assert_eq!(WHITE_GOAL, sq("e9"));
    assert_eq!(BLACK_GOAL, sq("e1"));
    // White moves first, and only White's pieces (rank 1) move in the first turn.
    let start = Position::start();
    assert_eq!(start.turn(), Side::White);
    for m in start.legal() {
        match m {
            SubMove::Move { from, .. } => assert_eq!(from.rank(), 0, "{m}"),
            other => panic!("the first turn starts with a piece move, not {other}"),
        }
    }
}

#[test]
fn b02_nothing_is_captured_and_the_king_is_an_ordinary_piece() {
    // White: Kf1 Ra1 Ri1. Black: qf8 kg3 na5. Ball i9.
    let p = pos("8a/5q3/9/9/n8/9/6k2/9/R4K2R w 2");
    // The rook stops in front of the black knight: no capture.
    assert_eq!(
        moves_from(&p, "a1"),
        sorted(&["a2", "a3", "a4", "b1", "c1", "d1"])
    );
    assert_lacks(&moves_from(&p, "a1"), &["a5"]);
    // No check: the king may step onto the queen's file and next to the black king.
    // No castling: no two-square king move. e1 is a goal (B4).
    assert_eq!(moves_from(&p, "f1"), sorted(&["e2", "f2", "g1", "g2"]));
    assert_lacks(&moves_from(&p, "f1"), &["h1", "d1", "e1"]);
    // Eight pieces a side at the start, none of them a pawn.
    let start = Position::start();
    for side in [Side::White, Side::Black] {
        let kinds = [
            Kind::King,
            Kind::Queen,
            Kind::Rook,
            Kind::Bishop,
            Kind::Knight,
        ];
        let count = kinds.map(|kind| count_pieces(&start, Piece { side, kind }));
        assert_eq!(count, [1, 1, 2, 2, 2], "{side:?}");
    }
    // A pawn is not a piece of this game.
    let err = "k8/9/9/9/4a4/9/9/P8/K8 w 0"
        .parse::<Position>()
        .unwrap_err()
        .to_string();
    assert!(err.contains("'P' is not a piece"), "{err}");
}

#[test]
fn b03_the_ball_fills_its_square_and_knights_jump_it() {
    // White: Ra4 Nb3 Nd3 Bb2. Black: ki9. Ball d4.
    let p = pos("8k/9/9/9/9/R2a5/1N1N5/1B7/9 w 2");
    // Sliders stop in front of the ball and never go past it.
    assert_eq!(
        moves_from(&p, "a4"),
        sorted(&["a5", "a6", "a7", "a8", "a9", "a3", "a2", "a1", "b4", "c4"])
    );
    assert_lacks(&moves_from(&p, "a4"), &["d4", "e4"]);
    assert_has(&moves_from(&p, "b2"), &["c3"]);
    assert_lacks(&moves_from(&p, "b2"), &["d4", "e5"]);
    // No piece lands on the ball, not even a knight.
    assert_lacks(&moves_from(&p, "b3"), &["d4"]);
    // A knight jumps the ball as it jumps anything: d3 to c5 and e5 pass over d4.
    assert_has(&moves_from(&p, "d3"), &["c5", "e5"]);
}

#[test]
fn b04_no_piece_stops_on_a_goal_square_but_a_slider_crosses_one() {
    // White: Ra1 Nc2 Kd2 Qe4. Black: ka9. Ball i9.
    let p = pos("k7a/9/9/9/9/4Q4/9/2NK5/R8 w 2");
    // The rook runs along rank 1 over e1 and stops anywhere beyond, never on e1.
    assert_has(&moves_from(&p, "a1"), &["d1", "f1", "g1", "h1", "i1"]);
    assert_lacks(&moves_from(&p, "a1"), &["e1"]);
    // Queen down the e-file, king beside the goal, knight a jump away: none ends on e1.
    assert_eq!(
        moves_from(&p, "d2"),
        sorted(&["c1", "c3", "d1", "d3", "e2", "e3"])
    );
    assert_has(&moves_from(&p, "e4"), &["e3", "e2"]);
    assert_lacks(&moves_from(&p, "e4"), &["e1"]);
    assert_has(&moves_from(&p, "c2"), &["e3"]);
    assert_lacks(&moves_from(&p, "c2"), &["e1"]);
    for m in p.legal() {
        if let SubMove::Move { to, .. } = m {
            assert!(to != WHITE_GOAL && to != BLACK_GOAL, "{m}");
        }
    }
}

#[test]
fn b05_a_blocked_corner_bishop_jumps_its_neighbour() {
    // White: Ba1 Nb2 Bi9. Black: rh8 kg7. Ball e5.
    let p = pos("8B/7r1/6k2/9/4a4/9/9/1N7/B8 w 2");
    // a1's only neighbour b2 is taken and c3 is free: the jump is its one move.
    assert_eq!(moves_from(&p, "a1"), sorted(&["c3"]));
    // i9's neighbour h8 is taken but so is g7: no jump, no move at all.
    assert_eq!(moves_from(&p, "i9"), Vec::<String>::new());

    // Only a corner bishop jumps: a5 with b6 and b4 taken stays stuck.
    // White: Ba5 Nb6 Nb4. Black: ki9. Ball e5.
    let edge = pos("8k/9/9/1N7/B3a4/1N7/9/9/9 w 2");
    assert_eq!(moves_from(&edge, "a5"), Vec::<String>::new());

    // The ball fills b2 as a piece would (B3), so the bishop jumps it too.
    let ball = pos("8k/9/9/9/9/9/9/1a7/B8 w 2");
    assert_eq!(moves_from(&ball, "a1"), sorted(&["c3"]));
}

// ---------------------------------------------------------------------------------------
// Start position and FEN

#[test]
fn b06_the_start_position() {
    let start = Position::start();
    assert_eq!(start, pos("rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w 0"));
    // Files a-d and f-i of each back rank, e1 and e9 left for the goals.
    let row = [
        ("a", Some(Kind::Rook)),
        ("b", Some(Kind::Knight)),
        ("c", Some(Kind::Bishop)),
        ("d", Some(Kind::Queen)),
        ("e", None),
        ("f", Some(Kind::King)),
        ("g", Some(Kind::Knight)),
        ("h", Some(Kind::Bishop)),
        ("i", Some(Kind::Rook)),
    ];
    for (file, kind) in row {
        for (rank, side) in [("1", Side::White), ("9", Side::Black)] {
            let at = sq(&format!("{file}{rank}"));
            assert_eq!(
                start.piece_at(at),
                kind.map(|kind| Piece { side, kind }),
                "{at}"
            );
        }
    }
    // Ranks 2 to 8 are empty but for the ball on e5.
    for file in 0..9 {
        for rank in 1..8 {
            assert_eq!(start.piece_at(Sq::at(file, rank).unwrap()), None);
        }
    }
    assert_eq!(start.ball(), sq("e5"));
    assert_eq!(start.turn(), Side::White);
    assert_eq!(start.turns(), 0);
    assert!(start.at_turn_start());
}

#[test]
fn b08_fen_fields_and_no_memory_inside_a_turn() {
    // Ranks 9 to 1, upper case White, `a` the ball, digits for empty runs, side, count.
    let fen = "r7R/4k4/2n6/6Q2/4a4/9/3N5/1b7/5K1B1 b 37";
    let p = pos(fen);
    assert_eq!(p.piece_at(sq("a9")), piece(Side::Black, Kind::Rook));
    assert_eq!(p.piece_at(sq("i9")), piece(Side::White, Kind::Rook));
    assert_eq!(p.piece_at(sq("e8")), piece(Side::Black, Kind::King));
    assert_eq!(p.piece_at(sq("c7")), piece(Side::Black, Kind::Knight));
    assert_eq!(p.piece_at(sq("g6")), piece(Side::White, Kind::Queen));
    assert_eq!(p.piece_at(sq("d3")), piece(Side::White, Kind::Knight));
    assert_eq!(p.piece_at(sq("b2")), piece(Side::Black, Kind::Bishop));
    assert_eq!(p.piece_at(sq("f1")), piece(Side::White, Kind::King));
    assert_eq!(p.piece_at(sq("h1")), piece(Side::White, Kind::Bishop));
    assert_eq!(p.piece_at(sq("e5")), None, "the ball is not a piece");
    assert_eq!(p.ball(), sq("e5"));
    assert_eq!(p.turn(), Side::Black);
    assert_eq!(p.turns(), 37);
    assert_eq!(p.to_string(), fen);

    // Mid-turn, the FEN shows the board only: reading it back gives a fresh turn, where
    // the queen that has moved may move again and the one that has kicked may kick again.
    let mut q = Position::start();
    play(&mut q, &["d1d5"]);
    assert!(piece_moves(&q).is_empty());
    assert_eq!(q.to_string(), "rnbq1knbr/9/9/9/3Qa4/9/9/9/RNB2KNBR w 0");
    let back = pos(&q.to_string());
    assert!(back.at_turn_start());
    assert_eq!(back.made(), 0);
    assert!(back.kicked().is_empty());
    assert_has(&texts(&back), &["d5d6", "a1a2", "Kd5>c5"]);
    play(&mut q, &["Kd5>c5"]);
    assert_eq!(texts(&q), sorted(&["pass"]));
    assert_eq!(q.to_string(), "rnbq1knbr/9/9/9/2aQ5/9/9/9/RNB2KNBR w 0");
    let back = pos(&q.to_string());
    assert!(back.kicked().is_empty());
    assert_has(&kicks_by(&back, "d5"), &["b5", "e5"]);
}

/// B8 gives the digits for runs of empty squares as 1 to 9, so `0` is no run at all.
#[test]
fn b08_zero_is_not_a_run_of_empty_squares() {
    let fen = "rnbq1knbr/9/9/9/4a04/9/9/9/RNBQ1KNBR w 0";
    assert!(fen.parse::<Position>().is_err(), "{fen} was accepted");
}

#[test]
fn b09_a_refused_fen_says_why_on_one_line() {
    // One ball, a piece a side, none on a goal, no more of a kind than a side starts with,
    // and well-formed fields; anything else is refused with its reason.
    for (fen, why) in [
        (
            "rnbq1knbr/9/9/9/3aa4/9/9/9/RNBQ1KNBR w 0",
            "more than one ball",
        ),
        ("k8/9/9/9/9/9/9/9/K8 w 0", "no ball"),
        ("9/9/9/9/4a4/9/9/9/K8 w 0", "black has no piece"),
        (
            "4K4/9/9/9/4a4/9/9/9/k8 w 0",
            "a piece on the goal square e9",
        ),
        ("k8/9/9/9/4a4/9/9/9/K2Q4K w 0", "more Kings"),
        ("k8/9/9/9/4a4/9/9/9/QQ7 w 0", "more Queens"),
        ("k8/9/9/9/4a4/9/9/9/RRR6 w 0", "more Rooks"),
        ("bbb6/9/9/9/4a4/9/9/9/K8 w 0", "more Bishops"),
        ("k8/9/9/9/4a4/9/9/9/NNN6 w 0", "more Knights"),
        (
            "k8/9/9/9/4a4/9/9/9/K9 w 0",
            "rank 1 holds 10 squares, not 9",
        ),
        (
            "k8/9/9/9/4a4/9/9/9/9K w 0",
            "rank 1 holds more than 9 squares",
        ),
        ("k8/9/9/9/4a4/9/9/9/K7 w 0", "rank 1 holds 8 squares, not 9"),
        ("k8/9/9/9/4a4/9/9/9/9/K8 w 0", "10 ranks; the board has 9"),
        (
            "k8/9/9/9/4a4/9/9/9/K8 - 0",
            "'-' is not a side to move (w or b)",
        ),
        ("k8/9/9/9/4a4/9/9/9/K8 w x", "'x' is not a number of turns"),
        (
            "k8/9/9/9/4a4/9/9/9/K8 w -1",
            "'-1' is not a number of turns",
        ),
        (
            "k8/9/9/9/4a4/9/9/9/K8 w 0 -",
            "the side to move and the turns played",
        ),
        ("", "the side to move and the turns played"),
    ] {
        let err = fen.parse::<Position>().unwrap_err();
        assert!(matches!(err, BoyerError::Fen(_)), "{fen}: {err:?}");
        let text = err.to_string();
        assert!(text.contains(why), "{fen}: {text}");
        assert!(!text.contains('\n'), "{fen}: {text}");
    }
}

/// The reason quotes the text it refuses; the ruling wants one line even when the text
/// itself spans two.
#[test]
fn b09_the_reason_stays_on_one_line_for_a_text_with_a_line_break() {
    let err = "k8/9/9/9/4a4/9/9/9/K8\nx 0"
        .parse::<Position>()
        .unwrap_err()
        .to_string();
    assert!(!err.contains('\n'), "{err:?}");
}

// ---------------------------------------------------------------------------------------
// A turn

#[test]
fn b10_a_turn_is_at_most_one_piece_move_first_then_kicks() {
    // White: Ra4 Kf5. Black: ka9. Ball e4.
    let mut p = pos("k8/9/9/9/5K3/R3a4/9/9/9 w 4");
    play(&mut p, &["a4d4"]);
    // Still White's turn, and now only kicks and pass: a second piece move is refused.
    assert_eq!(p.turn(), Side::White);
    assert!(piece_moves(&p).is_empty());
    assert_has(
        &texts(&p),
        &["Kd4>f4", "Kd4>a4", "Kf5>d3", "Kf5>g6", "pass"],
    );
    assert_eq!(p.apply(sub("f5f6")), Err(BoyerError::Illegal(sub("f5f6"))));
    play(&mut p, &["Kf5>d3"]);
    // Nor after a kick.
    assert_eq!(p.turn(), Side::White);
    assert_eq!(p.apply(sub("f5f6")), Err(BoyerError::Illegal(sub("f5f6"))));
    assert_eq!(
        texts(&p),
        sorted(&["Kd4>d2", "Kd4>d1", "Kd4>d5", "Kd4>d6", "Kd4>d7", "Kd4>d8", "Kd4>d9", "pass"])
    );
    // The ball ends away from every white piece: the turn is over.
    play(&mut p, &["Kd4>d2"]);
    assert_eq!(p.turn(), Side::Black);
    assert_eq!(p.turns(), 5);
}

#[test]
fn b11_a_piece_move_is_optional_only_when_a_piece_touches_the_ball() {
    // White: Rd4 (beside the ball) Na1. Black: ki9. Ball e4.
    let touching = legal("8k/9/9/9/9/3Ra4/9/9/N8 w 2");
    assert_has(&touching, &["a1b3", "d4d5", "Kd4>f4", "pass"]);

    // White: Rc3 (two squares off) Na1. Black: kf5 beside the ball. Ball e4.
    // A black piece at the ball does not help White: White must move a piece.
    let p = pos("9/9/9/9/5k3/4a4/2R6/9/N8 w 2");
    assert!(!p.legal().is_empty());
    assert_eq!(piece_moves(&p).len(), p.legal().len(), "{:?}", texts(&p));
    assert_lacks(&texts(&p), &["pass"]);
    assert_has(&texts(&p), &["c3d3", "a1b3"]);
}

#[test]
fn b12_no_piece_moves_after_the_first_sub_move_and_a_kick_may_come_first() {
    // White: Rd4 Kg5. Black: ka9. Ball e4.
    let mut p = pos("k8/9/9/9/6K2/3Ra4/9/9/9 w 4");
    // The turn may open with a kick.
    assert_has(&texts(&p), &["Kd4>f4", "d4d5", "g5g6"]);
    play(&mut p, &["Kd4>f4"]);
    // The king touches the ball now; only its kicks and pass remain, no piece move.
    assert_eq!(p.turn(), Side::White);
    assert_eq!(texts(&p), sorted(&["Kg5>e3", "Kg5>h6", "pass"]));
    for m in ["d4d5", "g5g6"] {
        assert_eq!(p.apply(sub(m)), Err(BoyerError::Illegal(sub(m))));
    }
}

#[test]
fn b13_pass_ends_the_turn_whenever_a_piece_touches_the_ball() {
    // White: Bd4 (beside the ball but unable to kick it) Na1. Black: ki9. Ball e4.
    let mut p = pos("8k/9/9/9/9/3Ba4/9/9/N8 w 2");
    assert_has(&texts(&p), &["pass"]);
    let before = placement(&p);
    play(&mut p, &["pass"]);
    assert_eq!(p.turn(), Side::Black);
    assert_eq!(p.turns(), 3);
    assert_eq!(placement(&p), before);

    // No white piece at the ball: no pass.
    let mut far = pos("9/9/9/9/5k3/4a4/2R6/9/N8 w 2");
    assert_lacks(&texts(&far), &["pass"]);
    assert_eq!(
        far.apply(SubMove::Pass),
        Err(BoyerError::Illegal(SubMove::Pass))
    );
}

#[test]
fn b14_the_turn_goes_on_only_while_a_piece_touches_the_ball() {
    // White: Qd4 Ra5. Black: ki9. Ball e4.
    let fen = "8k/9/9/9/R8/3Qa4/9/9/9 w 2";

    // The queen steps away from the ball: nobody touches it, the turn ends.
    let mut p = pos(fen);
    play(&mut p, &["d4d2"]);
    assert_eq!((p.turn(), p.turns()), (Side::Black, 3));

    // The rook steps next to the ball: the turn goes on.
    let mut p = pos(fen);
    play(&mut p, &["a5d5"]);
    assert_eq!((p.turn(), p.made()), (Side::White, 1));
    assert_has(&texts(&p), &["Kd4>f4", "pass"]);

    // A kick that leaves the ball alone ends the turn.
    let mut p = pos(fen);
    play(&mut p, &["Kd4>g4"]);
    assert_eq!((p.turn(), p.turns()), (Side::Black, 3));

    // A kick that leaves the ball beside its kicker does not, but the kicker is spent:
    // pass is all that is left.
    let mut p = pos(fen);
    play(&mut p, &["Kd4>c4"]);
    assert_eq!(p.turn(), Side::White);
    assert_eq!(texts(&p), sorted(&["pass"]));
}

#[test]
fn b15_each_piece_kicks_at_most_once_a_turn() {
    // White: Rd4 Qb5. Black: ki9. Ball e4.
    let mut p = pos("8k/9/9/9/1Q7/3Ra4/9/9/9 w 2");
    // The rook sends the ball over itself to c4, where it and the queen touch it.
    play(&mut p, &["Kd4>c4"]);
    assert_eq!(
        texts(&p),
        sorted(&["Kb5>d3", "Kb5>e2", "Kb5>f1", "Kb5>a6", "pass"])
    );
    // The queen puts it back beside the rook, which has kicked already.
    play(&mut p, &["Kb5>d3"]);
    assert_eq!(p.turn(), Side::White);
    assert_eq!(texts(&p), sorted(&["pass"]));
    assert_eq!(
        p.apply(sub("Kd4>d2")),
        Err(BoyerError::Illegal(sub("Kd4>d2")))
    );
    assert_eq!(p.kicked(), vec![sq("d4"), sq("b5")]);
    // In White's next turn the rook may kick again.
    play(&mut p, &["pass", "i9h9"]);
    assert_eq!(p.turn(), Side::White);
    assert_has(&kicks_by(&p, "d4"), &["d2", "d1", "d5"]);
}

#[test]
fn b16_only_a_piece_of_the_side_beside_the_ball_kicks_and_it_stays_put() {
    // White: Rd4 Rg6 (two squares off). Black: rf4 (beside the ball) ki9. Ball e4.
    let mut p = pos("8k/9/9/6R2/9/3Rar3/9/9/9 w 2");
    // Forward is blocked by the black rook, which does not kick for White.
    assert_eq!(
        kicks(&p)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["Kd4>c4", "Kd4>b4", "Kd4>a4"]
    );
    for m in ["Kf4>g4", "Kg6>e5"] {
        assert!(p.apply(sub(m)).is_err(), "{m}");
    }
    play(&mut p, &["Kd4>b4"]);
    assert_eq!(p.ball(), sq("b4"));
    assert_eq!(p.piece_at(sq("d4")), piece(Side::White, Kind::Rook));
    assert_eq!(p.piece_at(sq("e4")), None);
}

// ---------------------------------------------------------------------------------------
// Kicks per piece

#[test]
fn b17_a_knight_kicks_a_knight_step_and_never_next_to_itself() {
    // White: Nd4 (west of the ball) Ka1. Black: be5 rf5 ng5. Ball e4.
    let p = pos("9/9/9/9/4brn2/3Na4/9/9/K8 w 2");
    // c5 and c3 touch the knight; g5 is taken; f6 is fine although e5 and f5 are full.
    assert_eq!(kicks_by(&p, "d4"), sorted(&["d2", "d6", "f2", "f6", "g3"]));
    assert_lacks(&kicks_by(&p, "d4"), &["c3", "c5", "g5"]);

    // Diagonally: knight d3, ball e4; c3 and d2 touch the knight.
    let p = pos("8k/9/9/9/9/4a4/3N5/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "d3"),
        sorted(&["c5", "d6", "f6", "g5", "g3", "f2"])
    );
}

#[test]
fn b18_with_the_ball_in_a_corner_a_knight_may_kick_it_next_to_itself() {
    // The text's diagram (its "g1" read as i1): ball i1, knight h2, bishop h1.
    let mut p = pos("3q1k1br/r7R/2n2n3/3Q5/6b2/9/9/7N1/RNB2K1Ba w 2");
    // Both knight steps from i1 touch h2; the corner lets both count.
    assert_eq!(kicks_by(&p, "h2"), sorted(&["g2", "h3"]));
    // The bishop is beside the ball orthogonally and has no kick (B19).
    assert!(kicks_by(&p, "h1").is_empty());
    assert_eq!(kicks(&p).len(), 2);
    play(&mut p, &["Kh2>h3"]);
    assert_eq!(p.ball(), sq("h3"));

    // One square off the corner the exception is gone: ball i2, knight h3.
    // White: Nh3 Ka1. Black: ka9.
    let p = pos("k8/9/9/9/9/9/7N1/8a/K8 w 2");
    assert_eq!(kicks_by(&p, "h3"), sorted(&["g1"]));
    assert_lacks(&kicks_by(&p, "h3"), &["h4", "g3"]);
}

#[test]
fn b19_rooks_kick_straight_bishops_diagonally_queens_and_kings_both() {
    // One white piece beside the ball on e4, west (d4) or north-west (d5).
    let west = |letter: char| pos(&format!("k8/9/9/9/9/3{letter}a4/9/9/9 w 2"));
    let north_west = |letter: char| pos(&format!("k8/9/9/9/3{letter}5/4a4/9/9/9 w 2"));
    let straight = sorted(&["a4", "b4", "c4", "f4", "g4", "h4", "i4"]);
    let diagonal = sorted(&["a8", "b7", "c6", "f3", "g2", "h1"]);

    assert_eq!(kicks_by(&west('R'), "d4"), straight);
    assert!(kicks_by(&north_west('R'), "d5").is_empty());
    assert!(kicks_by(&west('B'), "d4").is_empty());
    assert_eq!(kicks_by(&north_west('B'), "d5"), diagonal);
    assert_eq!(kicks_by(&west('Q'), "d4"), straight);
    assert_eq!(kicks_by(&north_west('Q'), "d5"), diagonal);
    assert_eq!(kicks_by(&west('K'), "d4"), sorted(&["c4", "f4"]));
    assert_eq!(kicks_by(&north_west('K'), "d5"), sorted(&["c6", "f3"]));

    // The ruling's example as it arises in play: the bishop moves to d4, beside the ball
    // but unable to kick it, so the turn goes on with nothing but pass.
    let mut p = pos("k8/9/9/9/9/4a4/2B6/9/9 w 2");
    play(&mut p, &["c3d4"]);
    assert_eq!(p.turn(), Side::White);
    assert_eq!(texts(&p), sorted(&["pass"]));
}

#[test]
fn b20_a_sliders_kick_stops_anywhere_short_of_the_first_obstacle() {
    // White: Rd4. Black: nh4 ki9. Ball e4: forward to f4 or g4, not onto h4 or past it.
    let p = pos("8k/9/9/9/9/3Ra2n1/9/9/9 w 2");
    assert_eq!(kicks_by(&p, "d4"), sorted(&["f4", "g4", "c4", "b4", "a4"]));
    assert_lacks(&kicks_by(&p, "d4"), &["h4", "i4"]);

    // The first square taken: no forward kick at all (the reverse one stays, B22).
    let p = pos("8k/9/9/9/9/3Ran3/9/9/9 w 2");
    assert_eq!(kicks_by(&p, "d4"), sorted(&["c4", "b4", "a4"]));

    // A bishop south-west of the ball: up the diagonal to the edge.
    let p = pos("8k/9/9/9/9/4a4/3B5/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "d3"),
        sorted(&["f5", "g6", "h7", "i8", "c2", "b1"])
    );

    // At the edge there is no room forward.
    let p = pos("k8/9/9/9/9/7Ra/9/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "h4"),
        sorted(&["g4", "f4", "e4", "d4", "c4", "b4", "a4"])
    );
}

#[test]
fn b21_a_king_kicks_one_square_ahead_or_one_behind_itself() {
    // White: Kd3 (south-west of the ball). Black: ki9. Ball e4.
    let p = pos("8k/9/9/9/9/4a4/3K5/9/9 w 2");
    assert_eq!(kicks_by(&p, "d3"), sorted(&["f5", "c2"]));
    assert_lacks(&kicks_by(&p, "d3"), &["g6", "b1"]);

    // f5 taken: only behind.
    let p = pos("8k/9/9/9/5n3/4a4/3K5/9/9 w 2");
    assert_eq!(kicks_by(&p, "d3"), sorted(&["c2"]));

    // Both taken: no kick, though the king may still end the turn.
    let p = pos("8k/9/9/9/5n3/4a4/3K5/2b6/9 w 2");
    assert!(kicks_by(&p, "d3").is_empty());
    assert_has(&texts(&p), &["pass"]);
}

#[test]
fn b22_the_reverse_kick_jumps_the_kicker_and_may_run_on() {
    // White: Rd4. Black: ki9. Ball e4, rank 4 empty.
    let p = pos("8k/9/9/9/9/3Ra4/9/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "d4"),
        sorted(&["f4", "g4", "h4", "i4", "c4", "b4", "a4"])
    );

    // The square behind the rook taken: no reverse kick, though b4 and a4 are free.
    let p = pos("8k/9/9/9/9/2nRa4/9/9/9 w 2");
    assert_eq!(kicks_by(&p, "d4"), sorted(&["f4", "g4", "h4", "i4"]));

    // The reverse run stops before an obstacle.
    let p = pos("8k/9/9/9/9/n2Ra4/9/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "d4"),
        sorted(&["f4", "g4", "h4", "i4", "c4", "b4"])
    );

    // A knight has no reverse kick.
    let p = pos("8k/9/9/9/9/3Na4/9/9/9 w 2");
    assert_eq!(
        kicks_by(&p, "d4"),
        sorted(&["d2", "d6", "f2", "f6", "g3", "g5"])
    );

    // The start-position example: queen d5 west of the ball.
    let mut p = Position::start();
    play(&mut p, &["d1d5"]);
    assert_eq!(
        kicks_by(&p, "d5"),
        sorted(&["f5", "g5", "h5", "i5", "c5", "b5", "a5"])
    );
    let mut back = p.clone();
    play(&mut back, &["Kd5>c5"]);
    assert_eq!(back.turn(), Side::White);
    assert_eq!(texts(&back), sorted(&["pass"]));
    play(&mut p, &["Kd5>f5"]);
    assert_eq!(p.turn(), Side::Black);
}

#[test]
fn b23_a_ball_kicked_onto_a_goal_square_is_in_the_goal() {
    // Black: bc3. White: Ka9. Ball d2. The diagonal ends in e1 at the edge: no further.
    let mut p = pos("K8/9/9/9/9/9/2b6/3a5/9 b 3");
    assert_eq!(kicks_by(&p, "c3"), sorted(&["e1", "b4", "a5"]));
    play(&mut p, &["Kc3>e1"]);
    assert_eq!(p.ball(), BLACK_GOAL);
    assert_eq!(p.winner(), Some(Side::Black));
}

#[test]
fn b24_no_goal_from_a_non_knight_kick_in_either_sides_first_turn() {
    // Black: re3. White: Ka1. Ball e2, e-file empty. Count 1 is Black's first turn.
    let first = pos("9/9/9/9/9/9/4r4/4a4/K8 b 1");
    assert_eq!(
        kicks_by(&first, "e3"),
        sorted(&["e4", "e5", "e6", "e7", "e8"])
    );
    assert_lacks(&kicks_by(&first, "e3"), &["e1", "e9"]);
    // From count 2 on, both goals are open (e9 is an own goal for Black, B29).
    let later = pos("9/9/9/9/9/9/4r4/4a4/K8 b 2");
    assert_eq!(
        kicks_by(&later, "e3"),
        sorted(&["e1", "e4", "e5", "e6", "e7", "e8", "e9"])
    );

    // A knight scores in the first turn all the same. Black: nc4. White: Ka9. Ball d3.
    let mut p = pos("K8/9/9/9/9/2n6/3a5/9/9 b 1");
    assert_eq!(
        kicks_by(&p, "c4"),
        sorted(&["e1", "c1", "b2", "f2", "f4", "e5"])
    );
    play(&mut p, &["Kc4>e1"]);
    assert_eq!(p.winner(), Some(Side::Black));
}

#[test]
fn b25_along_the_goal_rank_the_ball_may_cross_the_goal_but_not_stop_in_it() {
    // The ruling's example. White: Rb9. Black: ka1. Ball c9, rank 9 otherwise empty.
    let p = pos("1Ra6/9/9/9/9/9/9/9/k8 w 2");
    assert_eq!(
        kicks_by(&p, "b9"),
        sorted(&["d9", "f9", "g9", "h9", "i9", "a9"])
    );
    assert_lacks(&kicks_by(&p, "b9"), &["e9"]);

    // The goal is the forward run's first square: that run offers nothing, the reverse
    // kick runs on. White: Rc9. Black: ka1. Ball d9.
    let p = pos("2Ra5/9/9/9/9/9/9/9/k8 w 2");
    assert_eq!(kicks_by(&p, "c9"), sorted(&["b9", "a9"]));

    // The reverse kick's first square (behind the rook) is e9: no reverse kick at all.
    // White: Rd9. Black: ka1. Ball c9.
    let p = pos("2aR5/9/9/9/9/9/9/9/k8 w 2");
    assert_eq!(kicks_by(&p, "d9"), sorted(&["b9", "a9"]));

    // The same on rank 1 for Black. Black: rg1. White: Ka9. Ball f1: forward the first
    // square is e1 (nothing that way), reverse h1 i1.
    let p = pos("K8/9/9/9/9/9/9/9/5ar2 b 4");
    assert_eq!(kicks_by(&p, "g1"), sorted(&["h1", "i1"]));
}

/// From a ball on e9 (or e1) a straight kick may not stop anywhere on the e-file: a rook
/// beside it on the file cannot kick it at all, while a diagonal kick is free.
#[test]
fn b25_no_straight_kick_takes_a_ball_off_a_goal_square_along_the_e_file() {
    // Black: bc7 re8. White: Ka1. Ball d8.
    let mut p = pos("9/3ar4/2b6/9/9/9/9/9/K8 b 2");
    play(&mut p, &["Kc7>e9"]);
    // The ball is in e9 and the rook on e8 still touches it, but has no kick.
    assert_eq!(p.turn(), Side::Black);
    assert!(kicks_by(&p, "e8").is_empty());
    // Ending the turn there scores for White (B29: e9 is White's goal).
    play(&mut p, &["pass"]);
    assert_eq!(p.winner(), Some(Side::White));
}

// ---------------------------------------------------------------------------------------
// Duplicate kicks

#[test]
fn b26_a_target_two_knights_share_goes_to_the_first_in_scan_order() {
    // White: Ne5 (north of the ball) Nf3 (south-east). Black: ki9. Ball e4.
    // North is scanned first, though f3 comes first in board order.
    let mut p = pos("8k/9/9/9/4N4/4a4/5N3/9/9 w 2");
    // e5 keeps all its targets (d6 and f6 touch it).
    assert_eq!(
        kicks_by(&p, "e5"),
        sorted(&["c3", "c5", "d2", "f2", "g3", "g5"])
    );
    // f3 could reach c3 c5 d2 g5 as well, but those are e5's; d6 and f6 are its own.
    assert_eq!(kicks_by(&p, "f3"), sorted(&["d6", "f6"]));
    assert_eq!(
        p.apply(sub("Kf3>c3")),
        Err(BoyerError::Illegal(sub("Kf3>c3")))
    );
    play(&mut p, &["Ke5>c3"]);
    assert_eq!(p.ball(), sq("c3"));
}

#[test]
fn b27_a_shared_target_stays_lost_after_its_knight_has_kicked() {
    // The ruling's example played out: White Nd4 Ne3 Rb5 Re6, Black ki9, ball e4.
    let mut p = pos("8k/9/9/4R4/1R7/3Na4/4N4/9/9 w 2");
    assert_eq!(kicks_by(&p, "d4"), sorted(&["d2", "f2"]));
    // e3 kicks, and two rook kicks bring the ball back to e4 in the same turn.
    play(&mut p, &["Ke3>c5", "Kb5>e5", "Ke6>e4"]);
    assert_eq!(p.ball(), sq("e4"));
    assert_eq!(p.turn(), Side::White);
    // e3 has kicked, and d4 still gets only what it got before.
    assert_eq!(texts(&p), sorted(&["Kd4>d2", "Kd4>f2", "pass"]));
    for m in ["Kd4>g5", "Kd4>d6", "Ke3>g5"] {
        assert_eq!(p.apply(sub(m)), Err(BoyerError::Illegal(sub(m))));
    }
}

#[test]
fn b28_only_the_credited_knight_may_name_a_shared_kick() {
    // White: Nd4 Ne3. Black: ka9. Ball e4.
    let fen = "k8/9/9/9/9/3Na4/4N4/9/9 w 2";
    let mut p = pos(fen);
    let before = p.clone();
    let err = p.apply(sub("Kd4>g5")).unwrap_err();
    assert_eq!(err.to_string(), "Kd4>g5 is not a legal sub-move here");
    assert_eq!(p, before);
    play(&mut p, &["Ke3>g5"]);

    // Rebuilt mid-turn, as a bot sees it: one sub-move made, e3 has kicked, ball on e4.
    let mid = pos(fen).with_progress(1, &[sq("e3")]).unwrap();
    for m in ["Ke3>g5", "Kd4>g5"] {
        assert!(!mid.legal().contains(&sub(m)), "{m}");
    }
    assert_eq!(texts(&mid), sorted(&["Kd4>d2", "Kd4>f2", "pass"]));
}

// ---------------------------------------------------------------------------------------
// Goals

#[test]
fn b29_a_goal_counts_for_the_side_it_belongs_to_whoever_kicked_it() {
    // Black kicks backwards into e9: White scores. Black: re3. White: Ka1. Ball e2.
    let mut g = Game::new(pos("9/9/9/9/9/9/4r4/4a4/K8 b 2"));
    let events = g.play(sub("Ke3>e9")).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Goal(Side::White)));
    assert_eq!(
        events.last(),
        Some(&Event::GameOver {
            outcome: Outcome::Goal(Side::White)
        })
    );
    assert_eq!(g.result(), Some(GameResult::Win(Side::White)));
    assert_eq!((g.goals(Side::White), g.goals(Side::Black)), (1, 0));

    // White kicks into e1: Black scores. White: Re3. Black: ka9. Ball e2.
    let mut g = Game::new(pos("k8/9/9/9/9/9/4R4/4a4/9 w 2"));
    play_game(&mut g, &["Ke3>e1"]);
    assert_eq!(g.outcome(), Some(Outcome::Goal(Side::Black)));
    assert_eq!(g.result(), Some(GameResult::Win(Side::Black)));
}

#[test]
fn b30_a_goal_is_judged_only_when_the_turn_changes() {
    // Black: kd2 re3. White: Ka9. Ball e2. The rook kicks into e1; the king touches it.
    let fen = "K8/9/9/9/9/9/4r4/3ka4/9 b 3";
    let mut g = Game::new(pos(fen));
    play_game(&mut g, &["Ke3>e1"]);
    assert_eq!(g.position().ball(), BLACK_GOAL);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.position().winner(), None);
    assert_eq!(texts(g.position()), sorted(&["Kd2>c3", "pass"]));

    // Out again before the turn ends: no goal.
    let mut out = g.clone();
    play_game(&mut out, &["Kd2>c3", "pass"]);
    assert_eq!(out.outcome(), None);
    assert_eq!(out.position().turn(), Side::White);

    // Left in: the goal counts when Black passes.
    play_game(&mut g, &["pass"]);
    assert_eq!(g.outcome(), Some(Outcome::Goal(Side::Black)));
}

#[test]
fn b31_a_goal_comes_before_the_draw_rules() {
    // Black: re3. White: Ka9. Ball e2. Count 399: this turn is the 400th (B34).
    let fen = "K8/9/9/9/9/9/4r4/4a4/9 b 399";
    let mut g = Game::new(pos(fen));
    play_game(&mut g, &["Ke3>e1"]);
    assert_eq!(g.position().turns(), TURN_LIMIT);
    assert_eq!(g.outcome(), Some(Outcome::Goal(Side::Black)));
    // The same turn without a goal is the turn-limit draw.
    let mut g = Game::new(pos(fen));
    play_game(&mut g, &["Ke3>e4", "pass"]);
    assert_eq!(g.outcome(), Some(Outcome::TurnLimit));
    // (A goal cannot meet a third repetition: the second time a ball stood in a goal at
    // the end of a turn would already have ended the game.)
}

// ---------------------------------------------------------------------------------------
// Null turns

#[test]
fn b32_a_turn_may_be_nothing_but_pass() {
    // White: Qd4. Black: kf5. Ball e4: both touch it.
    let mut g = Game::new(pos("9/9/9/9/5k3/3Qa4/9/9/9 w 6"));
    let events = g.play(SubMove::Pass).unwrap();
    assert_eq!(
        events,
        [
            Event::Played {
                side: Side::White,
                sub: SubMove::Pass
            },
            Event::TurnOver { next: Side::Black }
        ]
    );
    assert_eq!(g.position().to_string(), "9/9/9/9/5k3/3Qa4/9/9/9 b 7");
    play_game(&mut g, &["pass"]);
    assert_eq!(g.position().to_string(), "9/9/9/9/5k3/3Qa4/9/9/9 w 8");
    assert_eq!(g.outcome(), None);
}

// ---------------------------------------------------------------------------------------
// Repetition and the move cap

#[test]
fn b33_the_third_occurrence_of_a_position_is_a_draw() {
    // White: Qd4. Black: kf5. Ball e4. Both sides pass back and forth; the counts differ
    // every time and do not matter.
    let mut g = Game::new(pos("9/9/9/9/5k3/3Qa4/9/9/9 w 10"));
    // White to move twice, Black to move once: the side to move keeps them apart.
    play_game(&mut g, &["pass", "pass"]);
    assert_eq!(g.outcome(), None);
    // Black to move a second time.
    play_game(&mut g, &["pass"]);
    assert_eq!(g.outcome(), None);
    // White to move a third time: drawn at once.
    play_game(&mut g, &["pass"]);
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert!(g.legal().is_empty());
    assert_eq!(g.apply(SubMove::Pass), Err(BoyerError::GameOver));
}

#[test]
fn b33_a_position_inside_a_turn_is_not_counted() {
    // White: Qf5 Bc2. Black: kd5. Ball e4. White kicks the ball to d3 and back to e4 in
    // each of its turns, so mid-turn the board is the one the turn started from.
    let mut g = Game::new(pos("9/9/9/9/3k1Q3/4a4/9/2B6/9 w 2"));
    let board = placement(g.position());
    play_game(&mut g, &["Kf5>d3", "Kc2>e4"]);
    assert_eq!(placement(g.position()), board);
    play_game(&mut g, &["pass", "pass"]);
    // Between turns this is the second time; were the mid-turn board counted as well, it
    // would be the third and the game over already.
    assert_eq!(g.outcome(), None);
    play_game(&mut g, &["Kf5>d3", "Kc2>e4"]);
    assert_eq!(g.outcome(), None);
    play_game(&mut g, &["pass"]);
    assert_eq!(g.outcome(), None);
    play_game(&mut g, &["pass"]);
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
}

#[test]
fn b34_four_hundred_turns_without_a_goal_are_a_draw() {
    assert_eq!(TURN_LIMIT, 400);
    // White: Ka1. Black: ki9. Ball e5. Four distinct turns from count 396.
    let mut g = Game::new(pos("8k/9/9/9/4a4/9/9/9/K8 w 396"));
    play_game(&mut g, &["a1b1", "i9h9", "b1c1"]);
    assert_eq!(g.position().turns(), 399);
    assert_eq!(g.outcome(), None);
    play_game(&mut g, &["h9g9"]);
    assert_eq!(g.outcome(), Some(Outcome::TurnLimit));
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert!(g.legal().is_empty());
}

// ---------------------------------------------------------------------------------------
// A side with no move

#[test]
fn b35_a_side_without_a_sub_move_has_its_turn_passed() {
    // White: Na1, both its squares taken. Black: kb3 nc2. Ball i5, nobody near it.
    let mut g = Game::new(pos("9/9/9/9/8a/9/1k7/2n6/N8 w 398"));
    assert!(g.position().legal().is_empty());
    assert_eq!(g.legal(), vec![SubMove::Pass]);
    assert_eq!(g.apply(sub("a1b3")), Err(BoyerError::Illegal(sub("a1b3"))));
    play_game(&mut g, &["pass"]);
    // The game goes on, and the passed turn is a completed turn.
    assert_eq!(g.outcome(), None);
    assert_eq!(g.position().to_string(), "9/9/9/9/8a/9/1k7/2n6/N8 b 399");
    play_game(&mut g, &["c2e3"]);
    assert_eq!(g.outcome(), Some(Outcome::TurnLimit));
    // (Neither side able to move needs every piece of both sides walled in, far from the
    // ball; nine pieces a side cannot do that, so that draw is not set up here.)
}

// ---------------------------------------------------------------------------------------
// Notation

#[test]
fn b39_a_piece_move_is_its_two_squares() {
    assert_eq!(
        sub("d1d5"),
        SubMove::Move {
            from: sq("d1"),
            to: sq("d5")
        }
    );
    // Every piece move of the start position reads back as itself.
    for m in Position::start().legal() {
        let text = m.to_string();
        assert_eq!(text.len(), 4, "{text}");
        assert_eq!(sub(&text), m);
    }
    // The corner bishop's jump is written the same way.
    let mut p = pos("8B/7r1/6k2/9/4a4/9/9/1N7/B8 w 2");
    play(&mut p, &["a1c3"]);
    assert_eq!(p.piece_at(sq("c3")), piece(Side::White, Kind::Bishop));
    for bad in ["d1-d5", "Qd1d5", "D1D5", "d1d", "d1d55"] {
        assert!(bad.parse::<SubMove>().is_err(), "{bad}");
    }
}

#[test]
fn b40_a_kick_is_k_the_kickers_square_and_the_target() {
    assert_eq!(
        sub("Kd5>c5"),
        SubMove::Kick {
            by: sq("d5"),
            to: sq("c5")
        }
    );
    // K whatever kicks: the text diagram has a knight kicking; every kick reads back.
    let p = pos("3q1k1br/r7R/2n2n3/3Q5/6b2/9/9/7N1/RNB2K1Ba w 2");
    let mut q = Position::start();
    play(&mut q, &["d1d5"]);
    for k in kicks(&p).into_iter().chain(kicks(&q)) {
        let text = k.to_string();
        assert!(text.starts_with('K') && text.contains('>'), "{text}");
        assert_eq!(sub(&text), k);
    }
    for (bad, why) in [
        ("Qd5>c5", "is not a sub-move"),
        ("kd5>c5", "is not a sub-move"),
        ("Kd5-c5", "a kick is K, the kicker's square, >, the target"),
        ("Kd5>j5", "'j5' is not a square"),
        ("K>c5", "'' is not a square"),
    ] {
        let err = bad.parse::<SubMove>().unwrap_err();
        assert!(matches!(err, BoyerError::Notation(_)), "{bad}");
        assert!(err.to_string().contains(why), "{bad}: {err}");
    }
}

#[test]
fn b41_ending_a_turn_is_pass() {
    assert_eq!(sub("pass"), SubMove::Pass);
    assert_eq!(SubMove::Pass.to_string(), "pass");
    for bad in ["Pass", "PASS", "pass ", "pas", "end"] {
        assert!(bad.parse::<SubMove>().is_err(), "{bad}");
    }
}

#[test]
fn b42_each_sub_move_is_played_and_reported_on_its_own() {
    // The turn `d1d5 Kd5>c5 pass` takes three calls; only the last hands the turn over.
    let mut g = Game::new(Position::start());
    let record = "d1d5 Kd5>c5 pass";
    let mut played = Vec::new();
    for text in record.split(' ') {
        let events = g.play(sub(text)).unwrap();
        assert_eq!(
            events[0],
            Event::Played {
                side: Side::White,
                sub: sub(text)
            }
        );
        played.push(events);
    }
    assert_eq!(played[0].len(), 1);
    assert_eq!(played[1].len(), 1);
    assert_eq!(played[2][1], Event::TurnOver { next: Side::Black });
    // The turn's sub-moves, in order, give back the record's text.
    let again: Vec<String> = played
        .iter()
        .map(|events| match events[0] {
            Event::Played { sub, .. } => sub.to_string(),
            ref other => panic!("{other}"),
        })
        .collect();
    assert_eq!(again.join(" "), record);
}

#[test]
fn b43_the_sites_own_notation_is_not_read() {
    // Piece letter and target, a bare kick target, comma-joined turns, a goal mark.
    for site in ["Qd5", "c5", "Qd5,c5", "d1d5,Kd5>c5", "Kd5>c5#", "e9#"] {
        assert!(site.parse::<SubMove>().is_err(), "{site}");
    }
}
