//! `zebra-greedy-bot`: prefers yardage and scores.
//!
//! For each legal action it applies the action to a copy of the game (loaded from the
//! request's diagram) and scores the result for its own team: the score, who has the ball,
//! where the play would end, the down and the distance, flags. With `depth` 2 (the default)
//! it also assumes the opponent's best reply by the same measure; `depth` 1 is pure greedy.
//! Ties go to the first action in the request's `legal` order, so it is deterministic.
//!
//! - formation: a fixed, legal layout (offense: the snapper on the ball, the king right
//!   behind it, pawns on the line; defense: pawns across the ball, fast pieces behind them)
//! - motion: snap when a receiver is behind the snapper, else move the king (or queen)
//!   behind it
//! - reaction: pass
//! - penalty: accept the opponent's flag unless declining leaves the team better off
//!
//! Flags: `--name NAME` (default `greedy`), `--depth N` (1 or 2; the `depth` option in
//! `game_start` overrides it).

use std::time::{Duration, Instant};

use clap::Parser;

use zebra_engine::botkit::{self, Bot, BotInfo, GameStart, Request};
use zebra_engine::games::football_chess::wire::ToBot;
use zebra_engine::protocol::{OptionDecl, OptionKind};
use zebra_engine::rules::game::drive_start;
use zebra_engine::rules::penalty::EnforceFrom;
use zebra_engine::rules::{
    Action, Ball, Bitboard, DecisionKind, Dir, Event, Formation, Foul, FoulKind, Game, GameResult,
    Phase, Rank, Role, Side, Square,
};

#[derive(Parser)]
#[command(
    name = "zebra-greedy-bot",
    about = "A Football Chess bot that grabs yardage"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "greedy")]
    name: String,
    /// Plies searched: 1 (greedy) or 2 (and the opponent's best reply).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    depth: u8,
}

/// The greedy bot: a one- or two-ply search over an evaluation of field position.
pub struct GreedyBot {
    name: String,
    depth: u8,
    /// The opponent's push on the last turn (pusher's square, where our piece went), from
    /// the `event` messages: diagrams do not keep it, and pushing back is holding (R39).
    last_push: Option<(Square, Square)>,
}

/// A touchdown is worth 7 points; each point this much.
const POINT: i64 = 100;
const WIN: i64 = 1_000_000;
/// What a holding flag is assumed to cost (10 yards, or the play).
const HOLDING: i64 = 150;

impl GreedyBot {
    pub fn new(name: &str, depth: u8) -> GreedyBot {
        GreedyBot {
            name: name.to_string(),
            depth: depth.clamp(1, 3),
            last_push: None,
        }
    }

    /// The best legal action by search, in the order of `legal` on ties.
    fn search(&self, game: &Game, me: Side, legal: &[String], deadline_ms: u64) -> Option<String> {
        let start = Instant::now();
        // Use a quarter of the deadline at most: the referee measures round trips.
        let budget = Duration::from_millis(deadline_ms / 4);
        let mut deep = self.depth > 1;
        let mut best_shallow: Option<(i64, &String)> = None;
        let mut best_deep: Option<(i64, &String)> = None;
        for text in legal {
            let Ok(action) = text.parse::<Action>() else {
                continue;
            };
            if action == Action::Timeout {
                continue;
            }
            let mut g = game.clone();
            if g.apply(&action).is_err() {
                continue;
            }
            // Pushing back the piece that just pushed ours is holding: the engine cannot see
            // it from the diagram, so count it here.
            let holding = match (action, self.last_push) {
                (Action::Move { from, to, .. }, Some((pusher, pushed))) => {
                    from == pushed && to == pusher
                }
                _ => false,
            };
            let malus = if holding { HOLDING } else { 0 };
            let v = eval(&g, me) - malus;
            if best_shallow.map_or(true, |(b, _)| v > b) {
                best_shallow = Some((v, text));
            }
            if deep && start.elapsed() > budget {
                deep = false; // out of time: finish greedily
            }
            if deep {
                let v = value(&g, me, self.depth - 1) - malus;
                if best_deep.map_or(true, |(b, _)| v > b) {
                    best_deep = Some((v, text));
                }
            }
        }
        let pick = if deep { best_deep } else { best_shallow };
        pick.map(|(_, t)| t.clone())
    }

    pub fn motion(&self, game: &Game, legal: &[String]) -> String {
        if game.snap_receiver().is_some() {
            return "snap".to_string();
        }
        let me = game.offense();
        if let Some(behind) = game.spot().step(Dir::new(0, -me.forward())) {
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
            ] {
                for from in game.board().side(me) {
                    if game.board().piece_at(from).map(|p| p.role) != Some(role) {
                        continue;
                    }
                    let action = Action::Motion { from, to: behind };
                    let text = action.to_string();
                    if game.presnap_foul(&action).is_none() && legal.contains(&text) {
                        return text;
                    }
                }
            }
        }
        "snap".to_string()
    }
}

/// The bot's formation: its fixed layout, or the engine's random one should the layout
/// ever not be legal.
pub fn greedy_formation(game: &Game, side: Side) -> Formation {
    let f = layout(game, side);
    if game.validate_formation(&f).is_ok() {
        f
    } else {
        botkit::formation(game, side, 0)
    }
}

/// The fixed layout (see the module docs), placed around the ball spot: each piece takes
/// the first of its squares that is on the field, on its side of the line and free, else
/// the free square nearest the ball.
pub fn layout(game: &Game, side: Side) -> Formation {
    let offense = game.offense();
    let spot = game.spot();
    let fwd = offense.forward();
    let at = |df: i8, dr: i8| spot.step(Dir::new(df, dr * fwd));
    let own = Bitboard::at_or_behind(offense, spot.rank());
    let taken = game.board().occupied();
    let mut nearest: Vec<Square> = Square::all().collect();
    nearest.sort_by_key(|sq| (sq.distance(spot), sq.index()));
    let mut f = Formation::empty();
    let put = |f: &mut Formation, role: Role, choices: &[Option<Square>], offense_side: bool| {
        let fits = |f: &Formation, sq: Square| {
            own.contains(sq) == offense_side && !taken.contains(sq) && f.role_at(sq).is_none()
        };
        let choice = choices.iter().flatten().copied().find(|&sq| fits(f, sq));
        if let Some(sq) = choice.or_else(|| nearest.iter().copied().find(|&sq| fits(f, sq))) {
            let _ = f.place(role, sq);
        }
    };
    if side == offense {
        put(&mut f, Role::Pawn, &[at(0, 0)], true);
        put(&mut f, Role::King, &[at(0, -1)], true);
        put(&mut f, Role::Pawn, &[at(-1, 0), at(2, 0), at(-2, 0)], true);
        put(&mut f, Role::Pawn, &[at(1, 0), at(-2, 0), at(2, 0)], true);
        put(
            &mut f,
            Role::Queen,
            &[at(-1, -1), at(1, -1), at(0, -2)],
            true,
        );
        put(
            &mut f,
            Role::Bishop,
            &[at(1, -1), at(-1, -1), at(1, -2)],
            true,
        );
        put(
            &mut f,
            Role::Rook,
            &[at(-3, 0), at(3, 0), at(2, -1), at(-2, -1), at(0, -2)],
            true,
        );
    } else {
        put(&mut f, Role::Pawn, &[at(0, 1), at(-2, 1), at(2, 1)], false);
        put(&mut f, Role::Pawn, &[at(-1, 1), at(2, 1), at(-2, 1)], false);
        put(&mut f, Role::Pawn, &[at(1, 1), at(-2, 1), at(2, 1)], false);
        put(&mut f, Role::Queen, &[at(0, 2), at(-2, 1), at(2, 1)], false);
        put(
            &mut f,
            Role::Rook,
            &[at(-2, 2), at(-3, 1), at(-2, 1)],
            false,
        );
        put(&mut f, Role::Rook, &[at(2, 2), at(3, 1), at(2, 1)], false);
        put(
            &mut f,
            Role::Bishop,
            &[at(0, 3), at(-1, 2), at(1, 2), at(-3, 1), at(3, 1)],
            false,
        );
    }
    f
}

/// The decision on the opponent's flags, from the state alone (diagrams cannot describe a
/// penalty choice): accept the flag worth most unless the play as it stands is worth more.
pub fn penalty_choice(req: &Request) -> String {
    let legal = req.legal_list();
    let me = req.side;
    let st = &req.state;
    let snapped = st.offense;
    let end = st.ball.square;
    let held = st.possession;
    let accepts: Vec<(FoulKind, i64)> = st
        .flags
        .iter()
        .filter(|f| f.side != me && legal.contains(&format!("accept:{}", f.kind)))
        .map(|f| {
            let e = f.kind.enforcement(f.side == snapped);
            let ranks = if e.ranks == 0 {
                i64::from(snapped.gain(st.spot.rank(), f.spot.rank()).max(0))
            } else {
                i64::from(e.ranks)
            };
            (
                f.kind,
                ranks + i64::from(e.first_down) + i64::from(e.loss_of_down),
            )
        })
        .collect();
    let Some(&(best_kind, best)) = accepts
        .iter()
        .fold(None, |acc: Option<&(FoulKind, i64)>, x| match acc {
            Some(a) if a.1 >= x.1 => Some(a),
            _ => Some(x),
        })
    else {
        return if legal.iter().any(|a| a == "decline") {
            "decline".to_string()
        } else {
            botkit::fallback(req)
        };
    };
    let accept = format!("accept:{best_kind}");
    let other = me.other();
    // Scores and changes of possession decide by themselves.
    if held == me && (me != snapped || end.rank() == me.goal()) {
        return "decline".to_string();
    }
    if held == other && (other != snapped || end.rank() == other.goal()) {
        return accept;
    }
    // The snapping team kept the ball: compare the play's yardage with the penalty's.
    let gain = i64::from(snapped.gain(st.spot.rank(), end.rank()));
    let to_gain = Rank::new(st.line_to_gain.saturating_sub(1)).unwrap_or(end.rank());
    let reached = snapped.gain(to_gain, end.rank()) >= 0;
    let decline = if me == snapped {
        gain + i64::from(reached)
    } else if reached {
        -gain - 1
    } else if st.down == 4 {
        10 // the play as it stands is a turnover on downs
    } else {
        -gain + 1
    };
    if best >= decline {
        accept
    } else {
        "decline".to_string()
    }
}

/// The value of a position for `me`, searching `depth` more plies.
fn value(game: &Game, me: Side, depth: u8) -> i64 {
    let Some(decision) = game.decision() else {
        return eval(game, me);
    };
    if depth == 0 || decision.kind == DecisionKind::Formation {
        return eval(game, me);
    }
    let mut best: Option<i64> = None;
    let maximize = decision.side == me;
    for action in game.legal_action_list() {
        if action == Action::Timeout {
            continue;
        }
        let mut g = game.clone();
        if g.apply(&action).is_err() {
            continue;
        }
        let v = value(&g, me, depth - 1);
        best = Some(match best {
            None => v,
            Some(b) if maximize => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best.unwrap_or_else(|| eval(game, me))
}

/// Expected worth of having the ball for `side` at `rank`, on `down`, `to_gain` away.
fn drive_value(side: Side, rank: Rank, down: u8, to_gain: Rank) -> i64 {
    let pos = i64::from(side.gain(side.own_end_zone(), rank)); // 1..=6
    let short = i64::from(side.gain(rank, to_gain).max(0));
    pos * 40 - i64::from(down.saturating_sub(1)) * 15 - short * 10
}

/// A new drive for `side` at its own 20 (after a score or a change of possession).
fn new_drive(side: Side) -> i64 {
    let start = drive_start(side).rank();
    drive_value(side, start, 1, start)
}

fn for_me(side: Side, me: Side, v: i64) -> i64 {
    if side == me {
        v
    } else {
        -v
    }
}

/// The value of the offense's series going on from `rank` after a play: a first down when
/// it reached the line to gain (or `first_down`), else the next down (or the same one when
/// `replay`), a turnover after a failed fourth down.
fn series(game: &Game, rank: Rank, first_down: bool, replay: bool, me: Side) -> i64 {
    let offense = game.offense();
    let rank = rank.out_of_end_zones();
    let v = if first_down || offense.gain(game.line_to_gain(), rank) >= 0 {
        let to_gain = rank.offset(2 * offense.forward()).unwrap_or(offense.goal());
        drive_value(offense, rank, 1, to_gain) + 20
    } else if replay {
        drive_value(offense, rank, game.down(), game.line_to_gain())
    } else if game.down() == 4 {
        -(60 + new_drive(offense.other()))
    } else {
        drive_value(offense, rank, game.down() + 1, game.line_to_gain())
    };
    for_me(offense, me, v)
}

/// The value of the play ending with `holder` downed (or scoring) on `at`.
fn ended_at(game: &Game, holder: Side, at: Square, me: Side) -> i64 {
    let offense = game.offense();
    if at.rank() == holder.goal() {
        return for_me(holder, me, 7 * POINT - new_drive(holder.other()));
    }
    if holder != offense {
        return for_me(holder, me, 60 + new_drive(holder));
    }
    if at.rank() == offense.own_end_zone() {
        let scorer = offense.other();
        return for_me(scorer, me, 2 * POINT + new_drive(scorer));
    }
    series(game, at.rank(), false, false, me)
}

/// The value of the play ending now, flags aside.
fn play_value(game: &Game, me: Side) -> i64 {
    let offense = game.offense();
    match game.ball() {
        Ball::Carried(at) | Ball::Spotted(at) => {
            let holder = game
                .board()
                .stack_at(at)
                .last()
                .map(|p| p.side)
                .unwrap_or(game.possession());
            ended_at(game, holder, at, me)
        }
        Ball::Loose(at) | Ball::Contested(at) => {
            (ended_at(game, offense, at, me) + ended_at(game, offense.other(), at, me)) / 2
        }
        Ball::InFlight(t) => {
            let caught = ended_at(game, t.side, t.to, me);
            let failed = if t.forward && t.side == offense {
                series(game, game.spot().rank(), false, false, me) // incomplete
            } else if t.forward {
                for_me(t.side, me, 60 + new_drive(t.side))
            } else {
                (caught + ended_at(game, t.side.other(), t.to, me)) / 2 // loose
            };
            if t.direct {
                (3 * caught + failed) / 4
            } else {
                (caught + failed) / 2
            }
        }
    }
}

/// What enforcing `foul` would be worth (7.3, R43, R57), as the engine enforces it: the
/// yardage limited by half the distance, defensive interference at least 5 yards.
fn penalty_value(game: &Game, foul: Foul, me: Side) -> i64 {
    let offense = game.offense();
    let by_offense = foul.side == offense;
    let e = foul.kind.enforcement(by_offense);
    let toward = if by_offense {
        offense.own_end_zone()
    } else {
        offense.goal()
    };
    let rank = match e.from {
        EnforceFrom::PreviousSpot => Game::penalty_rank(game.spot().rank(), e.ranks, toward),
        EnforceFrom::SpotOfFoul => {
            let at = foul.spot.rank().out_of_end_zones();
            if by_offense {
                Game::penalty_rank(at, e.ranks, toward)
            } else {
                let least = Game::penalty_rank(game.spot().rank(), 1, toward);
                if offense.ahead(at, least) {
                    at
                } else {
                    least
                }
            }
        }
    };
    let first_down = e.first_down && !by_offense;
    let replay = !(by_offense && e.loss_of_down);
    series(game, rank, first_down, replay, me)
}

/// The play's value once its flags are dealt with: offsetting flags replay the down; else
/// the team not flagged takes the best of the play and each penalty.
fn with_flags(game: &Game, play: i64, me: Side) -> i64 {
    let flags = game.flags();
    let Some(first) = flags.first() else {
        return play;
    };
    if flags.iter().any(|f| f.side != first.side) {
        return series(game, game.spot().rank(), false, true, me);
    }
    let chooser_is_me = first.side != me;
    flags
        .iter()
        .map(|&f| penalty_value(game, f, me))
        .fold(play, |best, v| {
            if chooser_is_me {
                best.max(v)
            } else {
                best.min(v)
            }
        })
}

/// The static value of a position for `me`: the score, then where the ball stands.
pub fn eval(game: &Game, me: Side) -> i64 {
    let v = (i64::from(game.score(me)) - i64::from(game.score(me.other()))) * POINT;
    match game.phase() {
        Phase::GameOver => {
            return v + match game.result() {
                Some(GameResult::Win(s)) => for_me(s, me, WIN),
                _ => 0,
            }
        }
        Phase::Formation(_) | Phase::Motion | Phase::Reaction => {
            let o = game.offense();
            let d = drive_value(o, game.spot().rank(), game.down(), game.line_to_gain());
            return v + for_me(o, me, d);
        }
        Phase::Action(_) | Phase::Contention(_) | Phase::PenaltyChoice(_) => {}
    }
    let v = v + with_flags(game, play_value(game, me), me);
    // Pursuit: the team without the ball wants its pieces near it.
    let chaser = if game.possession() == me {
        me.other()
    } else {
        me
    };
    let target = game.ball().square();
    let near: i64 = game
        .board()
        .side(chaser)
        .map(|sq| i64::from(sq.distance(target)))
        .min()
        .unwrap_or(8);
    v + for_me(chaser, me, -2 * near)
}

impl Bot for GreedyBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            name: self.name.clone(),
            author: "zebra".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            options: vec![OptionDecl {
                name: "depth".to_string(),
                kind: OptionKind::Int,
                default: self.depth.into(),
                min: Some(1),
                max: Some(3),
                choices: Vec::new(),
            }],
        }
    }

    fn game_start(&mut self, start: &GameStart) {
        if let Some(d) = start.options.get("depth").and_then(|v| v.as_u64()) {
            self.depth = d.clamp(1, 3) as u8;
        }
    }

    /// The last push comes from the events (see `observe`).
    fn observes(&self) -> bool {
        true
    }

    fn observe(&mut self, msg: &ToBot) {
        if let ToBot::Event { events } = msg {
            self.last_push = events.iter().rev().find_map(|e| match *e {
                Event::Pushed { from, to } => Some((from, to)),
                _ => None,
            });
        }
    }

    /// Chess Eleven: the default formation; then the action whose position is worth most
    /// (see [`eleven`]).
    fn decide_eleven(&mut self, req: &botkit::ElevenRequest) -> String {
        if req.decision == "formation" {
            return req.safe();
        }
        eleven::best(req).unwrap_or_else(|| req.safe())
    }

    /// Boyer's Football: the sub-move after which the ball stands nearest the goal this
    /// side attacks (a goal at once first, an own goal never), ties to the earliest listed.
    fn decide_boyer(&mut self, req: &botkit::BoyerRequest) -> String {
        use zebra_engine::games::boyer::rules::{self as boyer, SubMove};
        let Ok(pos) = req.state.position() else {
            return req.legal.first().cloned().unwrap_or_else(|| "pass".into());
        };
        let me = pos.turn();
        let target = if me == Side::White {
            boyer::WHITE_GOAL
        } else {
            boyer::BLACK_GOAL
        };
        let score = |sub: SubMove| -> i32 {
            let mut next = pos.clone();
            if next.apply(sub).is_err() {
                return i32::MIN;
            }
            match next.winner() {
                Some(w) if w == me => return 1000,
                Some(_) => return -1000,
                None => {}
            }
            let king_steps = |a: boyer::Sq, b: boyer::Sq| {
                i32::from((a.file() - b.file()).abs().max((a.rank() - b.rank()).abs()))
            };
            let ball = next.ball();
            // The ball toward the goal first; then a piece of ours close to the ball, to
            // kick it next turn.
            let nearest = (0..9)
                .flat_map(|f| (0..9).filter_map(move |r| boyer::Sq::at(f, r)))
                .filter(|&sq| next.piece_at(sq).is_some_and(|p| p.side == me))
                .map(|sq| king_steps(sq, ball))
                .min()
                .unwrap_or(9);
            -king_steps(ball, target) * 10 - nearest
        };
        let mut best: Option<(i32, &String)> = None;
        for text in &req.legal {
            let Ok(sub) = text.parse::<SubMove>() else {
                continue;
            };
            let value = score(sub);
            if best.map_or(true, |(b, _)| value > b) {
                best = Some((value, text));
            }
        }
        best.map(|(_, t)| t.clone())
            .unwrap_or_else(|| "pass".to_string())
    }

    fn decide(&mut self, req: &Request) -> String {
        if req.decision == DecisionKind::PenaltyChoice {
            return penalty_choice(req);
        }
        let Some(game) = req.game() else {
            return botkit::fallback(req);
        };
        let legal = req.legal_list();
        let action = match req.decision {
            DecisionKind::Formation => Some(greedy_formation(&game, req.side).to_string()),
            DecisionKind::MotionOrSnap => Some(self.motion(&game, legal)),
            DecisionKind::Reaction => Some("pass".to_string()),
            _ => self.search(&game, req.side, legal, req.deadline_ms),
        };
        action.unwrap_or_else(|| botkit::fallback(req))
    }
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut bot = GreedyBot::new(&args.name, args.depth);
    botkit::run(&mut bot)
}

mod eleven {
    //! Chess Eleven, one action ahead: goals first (a mate is two), then the ball, then
    //! material, the carrier's advance toward the goal it attacks, a shot at an empty goal
    //! ready for the next decision; a go that hands over is charged with the best capture
    //! the opponent then has. A shot at a guarded goal is worth the mean of its outcomes
    //! at the odds of C38.

    use zebra_engine::botkit::ElevenRequest;
    use zebra_engine::games::chess_eleven::{Action, Position, Role, RoundEnd};
    use zebra_engine::rules::Side;

    fn value(role: Role) -> f64 {
        match role {
            Role::King => 0.0,
            Role::Queen => 9.0,
            Role::Rook => 5.0,
            Role::Bishop | Role::Knight => 3.0,
            Role::Pawn => 1.0,
        }
    }

    /// The action worth most for the side to decide, in the request's legal list.
    pub fn best(req: &ElevenRequest) -> Option<String> {
        let pos = req.position()?;
        let me = req.side;
        let mut best: Option<(f64, &String)> = None;
        for text in &req.legal {
            let Ok(action) = text.parse::<Action>() else {
                continue;
            };
            let v = worth(&pos, &action, me);
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, text));
            }
        }
        best.map(|(_, t)| t.clone())
    }

    fn worth(pos: &Position, action: &Action, me: Side) -> f64 {
        match *action {
            Action::Shot { from, to, .. } if pos.board().get(to).is_some() => {
                let outcomes = pos.shot_outcomes(to);
                let odds = [0.25, 0.5, 0.25];
                outcomes
                    .iter()
                    .zip(odds)
                    .map(|(&o, p)| {
                        p * after(
                            pos,
                            &Action::Shot {
                                from,
                                to,
                                outcome: Some(o),
                            },
                            me,
                        )
                    })
                    .sum()
            }
            _ => after(pos, action, me),
        }
    }

    fn after(pos: &Position, action: &Action, me: Side) -> f64 {
        let mut next = pos.clone();
        let Ok(applied) = next.apply(action) else {
            return f64::NEG_INFINITY;
        };
        let sign = |side: Side| if side == me { 1.0 } else { -1.0 };
        match applied.end {
            Some(RoundEnd::Goal { by }) => 1000.0 * sign(by),
            Some(RoundEnd::Checkmate { by }) => 2000.0 * sign(by),
            Some(RoundEnd::Stalemate { .. }) => -5.0,
            None => eval(&next, me),
        }
    }

    fn eval(pos: &Position, me: Side) -> f64 {
        let mut v = 0.0;
        for side in [Side::White, Side::Black] {
            let s = if side == me { 1.0 } else { -1.0 };
            for (_, role) in pos.board().squares_of(side) {
                v += s * value(role);
            }
        }
        if let Some(c) = pos.carrier_of(me) {
            v += 4.0 + 0.6 * f64::from(c.rank_of(me));
        }
        if let Some(c) = pos.carrier_of(me.other()) {
            v -= 4.0 + 0.6 * f64::from(c.rank_of(me.other()));
        }
        if pos.side() == me {
            // Still my go: a shot at an empty goal square is a goal next.
            let open = pos
                .legal()
                .iter()
                .any(|a| matches!(a, Action::Shot { to, .. } if pos.board().get(*to).is_none()));
            if open {
                v += 500.0;
            }
        } else {
            // The opponent's go: its best capture, and the ball that comes with it.
            let mut worst: f64 = 0.0;
            for a in pos.legal() {
                if let Action::Move { to, .. } = a {
                    if let Some(p) = pos.board().get(to) {
                        let ball = if pos.carrier_of(me).is_some() {
                            8.0
                        } else {
                            0.0
                        };
                        worst = worst.max(value(p.role) + ball);
                    }
                }
            }
            v -= worst;
        }
        v
    }
}
