//! Formations (C5–C13): what a side may field, its default, and the board two formations
//! make.

use crate::rules::Side;

use super::action::Formation;
use super::board::{piece, Board, Role, Sq};
use super::error::FormationError;

/// The king's square of `side` (C7): the goal square of its own colour.
pub fn king_square(side: Side) -> Sq {
    match side {
        Side::White => Sq::at(3, 0).expect("d1"),
        Side::Black => Sq::at(3, 7).expect("d8"),
    }
}

/// The square of `side`'s king's pawn (C8).
pub fn kings_pawn_square(side: Side) -> Sq {
    king_square(side)
        .offset(0, side.forward())
        .expect("in front of the king")
}

/// The default formation of `side` (C12).
pub fn default_for(side: Side) -> Formation {
    let white = [
        ("c1", Role::Rook),
        ("d1", Role::King),
        ("e1", Role::Queen),
        ("f1", Role::Rook),
        ("b2", Role::Bishop),
        ("c2", Role::Pawn),
        ("d2", Role::Pawn),
        ("e2", Role::Pawn),
        ("f2", Role::Pawn),
        ("c3", Role::Knight),
        ("f3", Role::Knight),
    ];
    let placed = white
        .iter()
        .map(|&(s, r)| {
            let sq: Sq = s.parse().expect("a square");
            let sq = match side {
                Side::White => sq,
                Side::Black => Sq::at(sq.file(), 7 - sq.rank()).expect("mirrored"),
            };
            (sq, r)
        })
        .collect();
    Formation::new(placed, Role::Bishop)
}

/// Checks `formation` for `side`; `substitute` says whether the side may field its bench
/// piece in place of a pawn (C13).
pub fn check(formation: &Formation, side: Side, substitute: bool) -> Result<(), FormationError> {
    let placed = formation.placed();
    if placed.len() != 11 {
        return Err(FormationError::Count(placed.len()));
    }
    for pair in placed.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(FormationError::Twice(pair[0].0.to_string()));
        }
    }
    for &(sq, role) in placed {
        if sq.rank_of(side) > 2 {
            return Err(FormationError::Rank(sq.to_string()));
        }
        if role == Role::Pawn && sq.rank_of(side) == 0 {
            return Err(FormationError::PawnRank(sq.to_string()));
        }
    }
    let king = king_square(side);
    if placed.iter().filter(|&&(_, r)| r == Role::King).count() != 1
        || !placed.contains(&(king, Role::King))
    {
        return Err(FormationError::King(king.to_string()));
    }
    let pawn = kings_pawn_square(side);
    if !placed.contains(&(pawn, Role::Pawn)) {
        return Err(FormationError::KingsPawn(pawn.to_string()));
    }
    if formation.bench == Role::King {
        return Err(FormationError::Army(
            "the king cannot sit on the bench".to_string(),
        ));
    }
    // The field and the bench together never exceed the army (C5, C6).
    for role in Role::ALL {
        let n = placed.iter().filter(|&&(_, r)| r == role).count()
            + usize::from(formation.bench == role);
        if n > usize::from(role.army_count()) {
            return Err(FormationError::Army(format!(
                "{n} {}s, an army has {}",
                role_name(role),
                role.army_count()
            )));
        }
    }
    let pawns = placed.iter().filter(|&&(_, r)| r == Role::Pawn).count();
    match pawns {
        4.. => Ok(()),
        3 if formation.bench == Role::Pawn => {
            if !substitute {
                return Err(FormationError::Substitute(
                    "only the side that scored the last goal may use it, in the next formation".to_string(),
                ));
            }
            // The substitute is the field piece beyond the six of a formation with four
            // pawns: any non-pawn; a formation with three pawns and a pawn on the bench used it.
            Ok(())
        }
        n => Err(FormationError::Army(format!(
            "{n} pawns on the field: four are mandatory (C6), or three when the substitute replaces one (C13)"
        ))),
    }
}

pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// The board two formations make.
pub fn board_of(white: &Formation, black: &Formation) -> Board {
    let mut board = Board::default();
    for (side, f) in [(Side::White, white), (Side::Black, black)] {
        for &(sq, role) in f.placed() {
            board.set(sq, Some(piece(side, role)));
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Formation {
        match text.parse().unwrap() {
            super::super::Action::Formation(f) => f,
            _ => panic!("not a formation"),
        }
    }

    #[test]
    fn the_defaults_are_valid_and_mirror_each_other() {
        for side in Side::ALL {
            check(&default_for(side), side, false).unwrap();
        }
        assert_eq!(
            default_for(Side::White).to_string(),
            "[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Nf3]/B"
        );
        assert_eq!(
            default_for(Side::Black).to_string(),
            "[Nc6,Nf6,Bb7,Pc7,Pd7,Pe7,Pf7,Rc8,Kd8,Qe8,Rf8]/B"
        );
    }

    #[test]
    fn each_formation_rule_refuses_with_its_ruling() {
        let w = Side::White;
        for (text, says) in [
            ("[Rc1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Ke3,Nf3]/B", "C7"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Nd2,Pe2,Pf2,Pc3,Nf3]/B", "C8"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Nf4]/B", "C9"),
            ("[Pa1,Rc1,Kd1,Qe1,Rf1,Bb2,Pd2,Pe2,Pf2,Nc3,Nf3]/B", "C9"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3]/B", "11"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Pd2,Pe2,Pf2,Nc3,Rf3]/B", "rooks"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Bc2,Pd2,Pe2,Pf2,Nc3,Nf3]/P", "C13"),
            ("[Rc1,Kd1,Qe1,Rf1,Bb2,Bc2,Pd2,Pe2,Nf2,Nc3,Nf3]/B", "bishops"),
        ] {
            let err = check(&f(text), w, false).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
        // The scorer may field its substitute for a pawn, not for the king's pawn.
        let sub = f("[Rc1,Kd1,Qe1,Rf1,Bb2,Bc2,Pd2,Pe2,Pf2,Nc3,Nf3]/P");
        check(&sub, w, true).unwrap();
        let err = check(
            &f("[Rc1,Kd1,Qe1,Rf1,Bb2,Pc2,Bd2,Pe2,Pf2,Nc3,Nf3]/P"),
            w,
            true,
        )
        .unwrap_err();
        assert!(err.to_string().contains("C8"), "{err}");
    }
}
