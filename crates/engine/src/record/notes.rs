//! The comments a human reads in a record: the header of every play, and the notable events
//! an entry caused. The reader skips them; the writer derives them by replay, so they can
//! never disagree with the moves.

use crate::rules::{Event, Game, Phase};

/// The header of the play about to be set up, like `Q1 white ball, 1st & 10 at e5`, or
/// `None` when the game is not at the start of a play.
///
/// A play starts whenever the offense must place its formation: at the kickoff of a
/// drive, after every play and dead-ball foul, and after a timeout (which resets both
/// formations).
pub(crate) fn play_header(game: &Game) -> Option<String> {
    (game.phase() == Phase::Formation(game.offense())).then(|| situation(game))
}

/// Quarter, offense, down and distance, and spot of the current (or next) play.
pub fn situation(game: &Game) -> String {
    situation_text(
        game.quarter(),
        game.offense(),
        game.down(),
        (!game.is_goal_to_go()).then(|| game.yards_to_go()),
        game.spot(),
    )
}

/// The play header's words: `Q1 white ball, 2nd & 10 at e5` (`None` yards: goal to go).
pub(crate) fn situation_text(
    quarter: u8,
    offense: crate::rules::Side,
    down: u8,
    yards: Option<u8>,
    spot: crate::rules::Square,
) -> String {
    let down = match down {
        1 => "1st".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        n => format!("{n}th"),
    };
    let to_go = yards.map_or("goal".to_string(), |y| y.to_string());
    format!("Q{quarter} {offense} ball, {down} & {to_go} at {spot}")
}

/// Whether an event is worth a comment: what changes the ball, the score, the downs or the
/// clock. Moves, pushes and shifts are left out (the action says them), and so are the
/// events the next header repeats (the next play) or that only echo another (a formation
/// ready, the clock stopping, an incomplete pass after "play over: incomplete").
pub(crate) fn is_notable(event: &Event) -> bool {
    use Event::*;
    match event {
        SnapFumbled { .. }
        | Caught { .. }
        | Intercepted { .. }
        | Batted { .. }
        | Fumble { .. }
        | Recovered { .. }
        | PossessionChanged { .. }
        | Touchdown { .. }
        | Safety { .. }
        | Flag(_)
        | PenaltyEnforced(_)
        | PenaltyDeclined { .. }
        | OffsettingPenalties
        | ScoreAwarded { .. }
        | UntimedDown
        | TimeoutCharged { .. }
        | PlayOver { .. }
        | FirstDown { .. }
        | TurnoverOnDowns { .. }
        | Timeout { .. }
        | MissedTurn { .. }
        | FormationLocked { .. }
        | PeriodEnd { .. }
        | GameOver { .. } => true,
        FormationSet { .. }
        | Shifted { .. }
        | Substituted { .. }
        | Snap { .. }
        | Moved { .. }
        | Pushed { .. }
        | Handoff { .. }
        | Tackle { .. }
        | Truck { .. }
        | Thrown { .. }
        | Incomplete
        | Contested { .. }
        | OutOfBounds { .. }
        | NextPlay { .. }
        | ClockStopped
        | Passed { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action, Settings};

    #[test]
    fn header_at_the_kickoff_and_not_mid_setup() {
        let mut game = Game::new(Settings::plays(1));
        assert_eq!(
            play_header(&game).as_deref(),
            Some("Q1 white ball, 1st & 10 at e5")
        );
        let white: Action = "[Pd5,Pe5,Ke4,Qe3,Nc4,Bf4,Rg5]".parse().unwrap();
        game.apply(&white).unwrap();
        assert_eq!(play_header(&game), None);
        assert_eq!(situation(&game), "Q1 white ball, 1st & 10 at e5");
    }
}
