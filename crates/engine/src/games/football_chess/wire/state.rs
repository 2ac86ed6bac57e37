//! The game state sent with every request, complete enough for a stateless bot.
//!
//! It carries both a structured view (pieces, ball, downs, score, flags) and the engine's
//! text diagram (protocol/RULES.md, "Diagrams"), which a bot on the engine's library can
//! load with `Game::from_diagram`.

use serde::{Deserialize, Serialize};

use super::penalty::PenaltyOption;
use crate::rules::diagram::DiagramError;
use crate::rules::game::Outcome;
use crate::rules::{Ball, Foul, Game, Phase, PlayEnd, Role, Side, Square};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceMsg {
    pub side: Side,
    pub role: Role,
    pub square: Square,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallMsg {
    /// `spotted` (before the snap), `carried`, `loose`, `contested` or `in_flight`.
    pub state: String,
    /// Where the ball is (for a pass in flight: its target).
    pub square: Square,
    /// A pass in flight: from where, by whom, forward or not, onto a receiver or a square.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub thrown_from: Option<Square>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub thrown_by: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub forward: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub direct: Option<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerSide {
    pub white: u16,
    pub black: u16,
}

/// A push: the pusher now stands on `pusher`, the pushed piece on `pushed`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PushMsg {
    pub pusher: Square,
    pub pushed: Square,
    pub side: Side,
}

/// How the finished play ended, where, and who had the ball.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingPlayMsg {
    pub end: PlayEnd,
    pub at: Square,
    pub possession: Side,
}

/// The whole game state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateMsg {
    pub quarter: u8,
    pub score: PerSide,
    pub timeouts: PerSide,
    pub offense: Side,
    pub down: u8,
    /// The ball spot; its rank is the line of scrimmage.
    pub spot: Square,
    /// The rank (1–8) to reach for a first down.
    pub line_to_gain: u8,
    pub yards_to_go: u8,
    pub goal_to_go: bool,
    pub phase: String,
    /// The team that has, or last had, the ball in this play.
    pub possession: Side,
    pub ball: BallMsg,
    /// Every piece on the field, bottom first on a pile square.
    pub pieces: Vec<PieceMsg>,
    /// Flags of the current play, not yet enforced.
    pub flags: Vec<Foul>,
    pub forward_pass_thrown: bool,
    pub ball_crossed_line: bool,
    pub play_turns: u8,
    pub plays_in_quarter: u16,
    pub game_clock_running: bool,
    /// Squares of offensive pieces that already went in motion (they may not move again).
    pub moved_in_motion: Vec<Square>,
    /// The last turn's push, if it pushed: pushing that pusher back is holding (R39).
    #[serde(default)]
    pub last_push: Option<PushMsg>,
    /// In a penalty decision: the finished play that stands if the flags are declined.
    #[serde(default)]
    pub pending_play: Option<PendingPlayMsg>,
    /// The same position as an engine diagram.
    pub diagram: String,
}

impl StateMsg {
    pub fn of(game: &Game) -> StateMsg {
        let ball = game.ball();
        let mut msg_ball = BallMsg {
            state: match ball {
                Ball::Spotted(_) => "spotted",
                Ball::Carried(_) => "carried",
                Ball::Loose(_) => "loose",
                Ball::Contested(_) => "contested",
                Ball::InFlight(_) => "in_flight",
            }
            .to_string(),
            square: ball.square(),
            thrown_from: None,
            thrown_by: None,
            forward: None,
            direct: None,
        };
        if let Ball::InFlight(t) = ball {
            msg_ball.thrown_from = Some(t.from);
            msg_ball.thrown_by = Some(t.side);
            msg_ball.forward = Some(t.forward);
            msg_ball.direct = Some(t.direct);
        }
        let mut pieces = Vec::new();
        for sq in Square::all() {
            for p in game.board().stack_at(sq) {
                pieces.push(PieceMsg {
                    side: p.side,
                    role: p.role,
                    square: sq,
                });
            }
        }
        let per_side = |f: &dyn Fn(Side) -> u16| PerSide {
            white: f(Side::White),
            black: f(Side::Black),
        };
        StateMsg {
            quarter: game.quarter(),
            score: per_side(&|s| game.score(s)),
            timeouts: per_side(&|s| game.timeouts(s) as u16),
            offense: game.offense(),
            down: game.down(),
            spot: game.spot(),
            line_to_gain: game.line_to_gain().number(),
            yards_to_go: game.yards_to_go(),
            goal_to_go: game.is_goal_to_go(),
            phase: phase_name(game.phase()).to_string(),
            possession: game.possession(),
            ball: msg_ball,
            pieces,
            flags: game.flags().to_vec(),
            forward_pass_thrown: game.forward_pass_thrown(),
            ball_crossed_line: game.ball_crossed_line(),
            play_turns: game.play_turns(),
            plays_in_quarter: game.plays_in_quarter(),
            game_clock_running: game.clock_running(),
            moved_in_motion: game.moved_in_motion().collect(),
            last_push: game.last_push().map(|(pusher, pushed, side)| PushMsg {
                pusher,
                pushed,
                side,
            }),
            pending_play: game
                .pending_play()
                .map(|(end, at, possession)| PendingPlayMsg {
                    end,
                    at,
                    possession,
                }),
            diagram: game.to_diagram(),
        }
    }
}

/// The phase's name in the protocol and in diagrams.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Formation(_) => "formation",
        Phase::Motion => "motion",
        Phase::Reaction => "reaction",
        Phase::Action(_) => "action",
        Phase::Contention(_) => "contention",
        Phase::PenaltyChoice(_) => "penalty",
        Phase::GameOver => "over",
    }
}

/// One clock as a bot sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockMsg {
    /// Whose clock it is: `white`, `black`, or `both` for the game clock.
    pub owner: String,
    /// Time left (never negative); `null` for a clock that does not apply (unlimited).
    pub remaining_ms: Option<u64>,
    /// Whether it runs while this decision is pending.
    pub running: bool,
}

/// All three clocks for one decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClocksMsg {
    /// `null` when quarters are counted in plays.
    pub game: Option<ClockMsg>,
    pub play: ClockMsg,
    pub reaction: ClockMsg,
}

/// Why a state message does not give an engine game.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum StateError {
    /// The state's diagram does not describe a position.
    #[error(transparent)]
    Diagram(#[from] DiagramError),
    /// The structured fields of a penalty decision do not describe one (diagrams leave the
    /// flags and the finished play out, so they come from `flags` and `pending_play`).
    #[error("the penalty decision cannot be rebuilt: {0}")]
    Penalty(String),
    /// A finished game: no request carries one, and diagrams cannot describe it.
    #[error("the state is of a finished game (phase '{0}')")]
    NotInPlay(String),
}

impl StateMsg {
    /// The engine game this state describes, so that a bot on the engine's library can try
    /// actions on it: the diagram's game, and in a penalty decision also the flags and the
    /// finished play (which diagrams leave out).
    ///
    /// One fact of a penalty decision is in neither: when each flag was thrown in a play in
    /// which the ball changed hands (R59), which matters only when the play ended with the
    /// team that did not snap, or with the team that snapped and fouled.
    /// [`StateMsg::game_matching`] settles it with the request's `penalty_options`; here
    /// every such flag counts as thrown after the change in the first case (the more common
    /// one), and while the fouler held the ball in the second (the edition 2 reading).
    pub fn game(&self) -> Result<Game, StateError> {
        self.game_matching(None)
    }

    /// [`StateMsg::game`], with a penalty decision made to agree with `preview` (the
    /// request's `penalty_options`): of the ways the flags may have fallen before or after
    /// the change of possession, the first whose every choice leads where `preview` says.
    /// When none does, the state and the preview disagree: an error.
    pub fn game_matching(&self, preview: Option<&[PenaltyOption]>) -> Result<Game, StateError> {
        match self.phase.as_str() {
            "penalty" => self.penalty_game(preview),
            "over" => Err(StateError::NotInPlay(self.phase.clone())),
            _ => Ok(Game::from_diagram(&self.diagram)?),
        }
    }

    fn penalty_game(&self, preview: Option<&[PenaltyOption]>) -> Result<Game, StateError> {
        let bad = |why: String| Err(StateError::Penalty(why));
        let Some(first) = self.flags.first() else {
            return bad("no flags thrown".to_string());
        };
        let fouler = first.side;
        if let Some(f) = self.flags.iter().find(|f| f.side != fouler) {
            // Flags of both teams offset without a choice (7.3).
            return bad(format!("flags of both teams ({} and {})", fouler, f.side));
        }
        if let Some(f) = self.flags.iter().find(|f| f.kind.is_pre_snap()) {
            return bad(format!("{} is a pre-snap foul, enforced at once", f.kind));
        }
        for (i, f) in self.flags.iter().enumerate() {
            if self.flags[..i].iter().any(|g| g.kind == f.kind) {
                return bad(format!("two {} flags", f.kind));
            }
        }
        let Some(pending) = &self.pending_play else {
            return bad("no pending_play".to_string());
        };
        // The field as the play ended, read as an action phase, or a contention when a pile
        // stands on the field: the diagram's own phase line names `penalty`, which it cannot
        // read back. The ball is then set from `ball`, since a diagram draws a pile the same
        // whether the ball is contested in it or held on top of it.
        let chooser = fouler.other();
        let mut text = String::new();
        let mut turn = None;
        for line in self.diagram.lines() {
            match line.split_once(':').map(|(k, v)| (k.trim(), v.trim())) {
                Some(("phase", _)) => {}
                Some(("turn", v)) => turn = Some(v.to_string()),
                // A play whistled dead at its turn limit (R13) ends with more turns than
                // an action phase may have: set after reading.
                Some(("turns", _)) => {}
                _ => {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
        if let Some(turn) = turn.filter(|t| t != chooser.name()) {
            return bad(format!(
                "the diagram's turn is {turn}, but {chooser} decides on {fouler}'s flags"
            ));
        }
        let read = |phase: &str| Game::from_diagram(&format!("phase: {phase}\n{text}"));
        let mut game = read("action").or_else(|e| read("contention").map_err(|_| e))?;
        let at = self.ball.square;
        game.ball = match (self.ball.state.as_str(), game.ball) {
            ("in_flight", thrown @ Ball::InFlight(_)) => thrown,
            ("carried", _) => Ball::Carried(at),
            ("loose", _) => Ball::Loose(at),
            ("contested", _) => Ball::Contested(at),
            (other, _) => return bad(format!("the ball is '{other}' after the play")),
        };
        game.play.possession = self.possession;
        game.play.turns = self.play_turns;
        game.ending = Some((
            game.offense,
            game.down,
            game.spot,
            game.to_gain,
            game.quarter,
        ));
        game.phase = Phase::PenaltyChoice(chooser);
        game.pending = Some(Outcome {
            end: pending.end,
            at: pending.at,
            possession: pending.possession,
        });
        game.play.fouls = self.flags.iter().copied().collect();
        // When each flag fell matters only after a change of possession (R59), and then in
        // two cases. The play ended with the team that did not snap: a flag before the
        // change annuls the play, one after it lets the play stand; flags after the change
        // come first, in random play the more common reading. The ball came back to the
        // team that snapped and that team fouled: a flag while the other team held the ball
        // gives the ball to that team (edition 3), one while the fouler held it annuls the
        // play; flags while it held the ball come first, the edition 2 reading.
        let all = (1u8 << self.flags.len()) - 1;
        let gained = pending.possession != game.offense;
        let fouler_kept = pending.possession == fouler;
        let readings: Vec<u8> = if !game.play.changed || !(gained || fouler_kept) {
            vec![0]
        } else if gained {
            (0..=all).rev().collect()
        } else {
            (0..=all).collect()
        };
        // `mask`: the flags after the change (ended with the gaining team), or the flags
        // while the other team held the ball (ball taken back by the fouler).
        let read = |game: &mut Game, mask: u8| {
            game.play.after_change = mask;
            game.play.unheld = if gained && fouler_kept {
                !mask & all
            } else {
                mask
            };
        };
        read(&mut game, readings[0]);
        let Some(preview) = preview else {
            return Ok(game);
        };
        for mask in readings {
            read(&mut game, mask);
            if super::penalty::preview(&game).as_deref() == Some(preview) {
                return Ok(game);
            }
        }
        bad("no reading of the flags leads where penalty_options says".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::super::penalty::preview;
    use super::*;
    use crate::rules::playout::RandomPlayer;
    use crate::rules::{ActionList, DecisionKind, Settings};

    /// The game rebuilt from `game`'s state decides as `game` does: the same diagram, the
    /// same legal actions, and in a penalty decision every choice leads to the same state.
    fn rebuilds(game: &Game) -> bool {
        let state = StateMsg::of(game);
        let options = preview(game);
        let rebuilt = state
            .game_matching(options.as_deref())
            .unwrap_or_else(|e| panic!("{e}\n{}", game.to_diagram()));
        assert_eq!(rebuilt.to_diagram(), game.to_diagram());
        assert_eq!(rebuilt.decision(), game.decision());
        assert_eq!(rebuilt.legal_action_list(), game.legal_action_list());
        let penalty = game.decision().map(|d| d.kind) == Some(DecisionKind::PenaltyChoice);
        if penalty {
            for action in game.legal_action_list() {
                let (mut a, mut b) = (game.clone(), rebuilt.clone());
                assert_eq!(a.apply(&action), b.apply(&action), "{action}");
                assert_eq!(StateMsg::of(&a), StateMsg::of(&b), "{action}");
            }
        }
        penalty
    }

    #[test]
    fn every_state_of_random_games_rebuilds_its_game() {
        let mut penalties = 0;
        let mut list = ActionList::new();
        for seed in 0..40 {
            let mut player = RandomPlayer::new(seed);
            let mut game = Game::new(Settings::plays(4));
            while let Some(action) = player.choose(&game, &mut list) {
                penalties += usize::from(rebuilds(&game));
                game.apply(&action).unwrap();
            }
            assert!(matches!(
                StateMsg::of(&game).game(),
                Err(StateError::NotInPlay(_))
            ));
        }
        assert!(penalties >= 5, "only {penalties} penalty decisions");
    }

    #[test]
    fn the_penalty_example_rebuilds_to_its_own_options() {
        let request: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../../../protocol/examples/request-penalty.json"
        ))
        .unwrap();
        let state: StateMsg = serde_json::from_value(request["state"].clone()).unwrap();
        let options: Vec<PenaltyOption> =
            serde_json::from_value(request["penalty_options"].clone()).unwrap();
        let game = state.game_matching(Some(&options)).unwrap();
        assert_eq!(preview(&game), Some(options.clone()));
        assert_eq!(state.game().unwrap().decision(), game.decision());
        // A preview the state cannot produce is refused, not guessed at.
        let mut wrong = options;
        wrong[0].down = 4;
        assert!(matches!(
            state.game_matching(Some(&wrong)),
            Err(StateError::Penalty(_))
        ));
    }

    #[test]
    fn a_ball_taken_back_by_the_team_that_fouled_rebuilds_both_readings() {
        // White snapped; Black intercepted. In one play White holds while Black has the
        // ball; in the other White holds while it has the ball back. Both end with White's
        // touchdown, and accepting leads to different states (R59, edition 3): each rebuilds.
        let rows = "8 . . . . . . . .\n7 . . . . . . . .\n6 . . r . . . . .\n\
                    5 . Q R . . . r* .\n4 . . . . . . . .\n3 . . . . . . . .\n\
                    2 . . . . . . . .\n1 . . . . . . . B\n";
        for (turn, moves) in [
            ("black", &["c6c5", "c4c5", "g5^b5", "b5b8"][..]),
            (
                "black",
                &["g5^b5", "h1g2", "c6c5", "c4c5", "c6c7", "b5b8"][..],
            ),
        ] {
            let mut game = Game::from_diagram(&format!(
                "offense: white\nturn: {turn}\nspot: e5\nchanged: yes\n{rows}"
            ))
            .unwrap();
            for m in moves {
                game.apply(&m.parse().unwrap()).unwrap();
            }
            assert_eq!(
                game.decision().map(|d| d.kind),
                Some(DecisionKind::PenaltyChoice)
            );
            assert!(rebuilds(&game));
        }
    }

    #[test]
    fn a_penalty_state_without_its_flags_or_play_is_refused() {
        let request: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../../../protocol/examples/request-penalty.json"
        ))
        .unwrap();
        let state: StateMsg = serde_json::from_value(request["state"].clone()).unwrap();
        let mut no_flags = state.clone();
        no_flags.flags.clear();
        assert!(matches!(no_flags.game(), Err(StateError::Penalty(_))));
        let mut no_play = state.clone();
        no_play.pending_play = None;
        assert!(matches!(no_play.game(), Err(StateError::Penalty(_))));
        let mut both = state.clone();
        let mut other = both.flags[0];
        other.side = other.side.other();
        other.kind = crate::rules::FoulKind::Holding;
        both.flags.push(other);
        assert!(matches!(both.game(), Err(StateError::Penalty(_))));
        let mut garbled = state;
        garbled.diagram = garbled.diagram.replace("8 .", "8 x");
        assert!(matches!(garbled.game(), Err(StateError::Diagram(_))));
    }
}
