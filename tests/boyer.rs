//! Boyer's Football: seeded random games that must end with the invariants kept, FENs
//! refused with their reason, and the engine's own consistency. Its perft counts (whole
//! turns from positions that exercise the start, the corner exception, reverse kicks, two
//! knights at the ball and a ball on the goal rank, checked against the reference
//! implementation) are pinned in `tests/data/perft/boyer-football.txt` and checked by
//! `tests/perft.rs` with every game's.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use zebra::games::boyer::rules::{Game, Position, Sq, SubMove, BLACK_GOAL, TURN_LIMIT, WHITE_GOAL};

/// A refused FEN says why in one line.
#[test]
fn a_bad_fen_is_refused_with_its_reason() {
    for (fen, why) in [
        ("rnbq1knbr/9/9/9/9/9/9/9/RNBQ1KNBR w 0", "no ball"),
        ("rnbq1knbr/9/9/9/4a4/9/9/9/RNBQKKNBR w 0", "goal square"),
        ("rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR x 0", "side to move"),
        ("4k4/9/9/9/4a4/9/9/9/9 w 0", "goal square"),
        ("1k7/9/9/9/4a4/9/9/9/9 w 0", "white has no piece"),
        ("rnbq1knbr/9/9/9/4a4/9/9/9 w 0", "8 ranks"),
        ("qq7/9/9/9/4a4/9/9/9/K8 w 0", "more Queens"),
        (
            "rnbq1knbr/9/9/9/4a4/9/9/9/RNBQ1KNBR w",
            "side to move and the turns",
        ),
    ] {
        let err = fen.parse::<Position>().unwrap_err().to_string();
        assert!(err.contains(why), "{fen}: {err}");
        assert!(!err.contains('\n'), "{err}");
    }
}

/// 3000 seeded random games from the start: every game ends (by a goal or a draw ruling)
/// within the turn limit; after every sub-move there is one ball, on a square of its own,
/// no piece stands on a goal square, and no piece kicks twice in one turn.
#[test]
fn random_games_end_and_keep_the_invariants() {
    let mut goals = 0;
    for seed in 0..3000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(Position::start());
        let mut kickers: Vec<Sq> = Vec::new();
        let mut subs = 0u32;
        while game.outcome().is_none() {
            let legal = game.legal();
            let sub = *legal
                .choose(&mut rng)
                .expect("a game in progress has a sub-move");
            let turn = game.position().turns();
            game.apply(sub)
                .unwrap_or_else(|e| panic!("seed {seed}: {sub}: {e}"));
            if let SubMove::Kick { by, .. } = sub {
                assert!(
                    !kickers.contains(&by),
                    "seed {seed}: {by} kicked twice in one turn"
                );
                kickers.push(by);
            }
            if game.position().turns() != turn {
                kickers.clear();
            }
            let pos = game.position();
            // The FEN writes the ball as `a` on the square it holds alone.
            let fen = pos.to_string();
            let board = fen.split(' ').next().unwrap();
            assert_eq!(board.matches('a').count(), 1, "seed {seed}: {fen}");
            assert!(pos.piece_at(pos.ball()).is_none(), "seed {seed}: {fen}");
            for goal in [WHITE_GOAL, BLACK_GOAL] {
                assert!(
                    pos.piece_at(goal).is_none(),
                    "seed {seed}: a piece on {goal}: {pos}"
                );
            }
            subs += 1;
            assert!(
                subs < 100 * TURN_LIMIT,
                "seed {seed}: the game does not end"
            );
        }
        assert!(game.position().turns() <= TURN_LIMIT, "seed {seed}");
        goals += u32::from(game.outcome().and_then(|o| o.winner()).is_some());
    }
    assert!(goals > 0, "random games score sometimes ({goals} of 3000)");
}
