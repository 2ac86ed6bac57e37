//! Fouls and what they cost (rules 7): the table of yardage, downs and spots.
//!
//! Pre-snap fouls (7.1) are dead-ball fouls enforced at once (R6). Post-snap fouls (7.2)
//! are flagged during the play and assessed after it, when the other team accepts one of
//! them or declines them all (7.3).

use std::fmt;

use super::types::{Side, Square};

/// Every foul the rules name.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum FoulKind {
    /// 7.1: an offensive motion ends beyond the line of scrimmage.
    FalseStart,
    /// 7.1, 3.2: a piece on the wrong side of the line at "ready" or after a reaction.
    Offsides,
    /// 7.1, R5: a defensive reaction ends beyond the line next to an offensive piece.
    Encroachment,
    /// 7.1: more than seven pieces in a formation.
    TooManyMen,
    /// 7.1: a formation short of pieces, of pawns, of a snapper, or (defense) with a king.
    IllegalFormation,
    /// 7.1, 6.2: the play clock ran out before the snap.
    DelayOfGame,
    /// 7.1: a piece moved to or from the sideline after "ready".
    IllegalSubstitution,
    /// 7.2: a second forward pass, one after the ball crossed the line, or one after a
    /// change of possession (R10).
    IllegalForwardPass,
    /// 7.2: pushing back the opponent that pushed you on its last turn.
    Holding,
    /// 7.2: the defense pushes an eligible receiver more than 5 yards past the line before
    /// any pass.
    IllegalContact,
    /// 7.2: pushing an opponent in position to catch a forward pass in flight.
    PassInterference,
}

impl FoulKind {
    pub const ALL: [FoulKind; 11] = [
        FoulKind::FalseStart,
        FoulKind::Offsides,
        FoulKind::Encroachment,
        FoulKind::TooManyMen,
        FoulKind::IllegalFormation,
        FoulKind::DelayOfGame,
        FoulKind::IllegalSubstitution,
        FoulKind::IllegalForwardPass,
        FoulKind::Holding,
        FoulKind::IllegalContact,
        FoulKind::PassInterference,
    ];

    /// The name used in notation and records.
    pub const fn code(self) -> &'static str {
        match self {
            FoulKind::FalseStart => "false-start",
            FoulKind::Offsides => "offsides",
            FoulKind::Encroachment => "encroachment",
            FoulKind::TooManyMen => "too-many-men",
            FoulKind::IllegalFormation => "illegal-formation",
            FoulKind::DelayOfGame => "delay-of-game",
            FoulKind::IllegalSubstitution => "illegal-substitution",
            FoulKind::IllegalForwardPass => "illegal-forward-pass",
            FoulKind::Holding => "holding",
            FoulKind::IllegalContact => "illegal-contact",
            FoulKind::PassInterference => "pass-interference",
        }
    }

    pub(crate) fn from_code(code: &str) -> Option<FoulKind> {
        FoulKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Pre-snap fouls stop play at once and cannot be declined (R6).
    pub const fn is_pre_snap(self) -> bool {
        !matches!(
            self,
            FoulKind::IllegalForwardPass
                | FoulKind::Holding
                | FoulKind::IllegalContact
                | FoulKind::PassInterference
        )
    }

    /// What enforcing this foul costs the penalized team, given whether that team had the
    /// ball at the snap.
    pub const fn enforcement(self, by_offense: bool) -> Enforcement {
        use EnforceFrom::*;
        let (ranks, from, loss_of_down, first_down) = match (self, by_offense) {
            (FoulKind::IllegalForwardPass, true) => (1, SpotOfFoul, true, false),
            // By the team that took the ball away: measured from the previous spot, so that
            // accepting it never costs the team that snapped (its spot of foul may lie behind).
            (FoulKind::IllegalForwardPass, false) => (1, PreviousSpot, false, false),
            (FoulKind::Holding, true) => (2, PreviousSpot, false, false),
            (FoulKind::Holding, false) => (2, PreviousSpot, false, true),
            (FoulKind::IllegalContact, _) => (1, PreviousSpot, false, !by_offense),
            (FoulKind::PassInterference, false) => (0, SpotOfFoul, false, true),
            (FoulKind::PassInterference, true) => (2, PreviousSpot, true, false),
            // Every pre-snap foul: 5 yards from the line of scrimmage, down replayed.
            _ => (1, PreviousSpot, false, false),
        };
        Enforcement {
            ranks,
            from,
            loss_of_down,
            first_down,
        }
    }
}

impl fmt::Display for FoulKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Where a penalty is measured from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnforceFrom {
    /// The line of scrimmage of the play.
    PreviousSpot,
    /// The square where the foul happened.
    SpotOfFoul,
}

/// The cost of a foul: yardage (1 rank = 5 yards), spot, and its effect on the downs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enforcement {
    pub ranks: u8,
    pub from: EnforceFrom,
    /// The down counts as played (offensive fouls only).
    pub loss_of_down: bool,
    /// The offense gets a new set of downs (defensive fouls only).
    pub first_down: bool,
}

/// One flag thrown: who fouled, what, where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Foul {
    /// The penalized team.
    pub side: Side,
    pub kind: FoulKind,
    pub spot: Square,
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {} at {}", self.kind, self.side, self.spot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_7_every_foul_code_round_trips() {
        for kind in FoulKind::ALL {
            assert_eq!(FoulKind::from_code(kind.code()), Some(kind));
        }
        assert_eq!(FoulKind::from_code("roughing"), None);
    }

    #[test]
    fn rule_7_1_pre_snap_fouls_cost_five_yards() {
        for kind in FoulKind::ALL.into_iter().filter(|k| k.is_pre_snap()) {
            for by_offense in [true, false] {
                let e = kind.enforcement(by_offense);
                assert_eq!(
                    (e.ranks, e.loss_of_down, e.first_down),
                    (1, false, false),
                    "{kind}"
                );
            }
        }
    }

    #[test]
    fn rule_7_2_post_snap_table() {
        let ifp = FoulKind::IllegalForwardPass.enforcement(true);
        assert_eq!(
            (ifp.ranks, ifp.loss_of_down, ifp.from),
            (1, true, EnforceFrom::SpotOfFoul)
        );
        let hold_o = FoulKind::Holding.enforcement(true);
        assert_eq!((hold_o.ranks, hold_o.first_down), (2, false));
        let hold_d = FoulKind::Holding.enforcement(false);
        assert_eq!((hold_d.ranks, hold_d.first_down), (2, true));
        let contact = FoulKind::IllegalContact.enforcement(false);
        assert_eq!((contact.ranks, contact.first_down), (1, true));
        let dpi = FoulKind::PassInterference.enforcement(false);
        assert_eq!((dpi.from, dpi.first_down), (EnforceFrom::SpotOfFoul, true));
        let opi = FoulKind::PassInterference.enforcement(true);
        assert_eq!(
            (opi.ranks, opi.loss_of_down, opi.from),
            (2, true, EnforceFrom::PreviousSpot)
        );
    }
}
