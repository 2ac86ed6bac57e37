//! The game state sent with every request, complete enough for a stateless bot.
//!
//! It carries both a structured view (pieces, ball, downs, score, flags) and the engine's
//! text diagram (protocol/RULES.md, "Diagrams"), which a bot on the engine's library can
//! load with `Game::from_diagram`.

use serde::{Deserialize, Serialize};

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
