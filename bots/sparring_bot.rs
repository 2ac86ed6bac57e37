//! `zebra-sparring-bot`: a heuristic Football Chess bot that plays football, not just
//! yardage. The second baseline opponent after `zebra-greedy-bot`, and meant to beat it.
//!
//! It searches little (its own action and the opponent's best reply, on a copy of the game
//! loaded from the request's diagram) and knows a lot about the field: its evaluation reads
//! a position the way a coach would, one move ahead, without asking the engine.
//!
//! - **Threats, not just yards.** A position is judged by what the team to move can do at
//!   once: a ball carrier with an open lane into the end zone scores; a receiver standing
//!   in the end zone that no defender can reach scores on the next throw (the king throws
//!   anywhere, 4.3); a defender that can land on the carrier tackles him where he stands.
//!   The opponent gets one move to answer a threat, so one open threat is worth half a
//!   touchdown and two are worth a touchdown. Greedy only scores yardage and averages
//!   passes in flight, so it throws hopeless bombs and leaves lanes open.
//! - **Passes judged by who can reach the ball.** A direct pass is batted exactly when a
//!   defender can land on the receiver; an indirect one is intercepted when a defender can
//!   land on its target, else caught when the thrower's team can. Hence it throws only to
//!   receivers nobody covers, and it bats and intercepts whatever it can.
//! - **Formations shaped by the opponent.** The offense puts the queen right behind the
//!   snapper, so she takes the snap and can run a diagonal into the end zone at once, the
//!   second pawn on the narrow side (off her open diagonal), the king behind her (he takes
//!   the snap when she moves away, and throws anywhere) and rooks on the line for deep
//!   routes. Then it uses motion (each piece may move once, behind the line) to make the
//!   shift that most improves its first move against the defense it now sees, judged two
//!   plies deep, and snaps when no shift helps: a greedy defense never reacts to motion.
//!   The defense forms second and so sees the offense: it starts from a shell (knights
//!   whose jump lands on the snap receiver, both rooks on the goal line so every end-zone
//!   square is one rook move away, the queen in the middle, pawns at the snapper) and
//!   moves pieces one at a time while that lowers the offense's best first move after the
//!   snap. It reacts to motion the same way.
//! - **The play's end valued as a series.** Where a play ends is worth what the series is
//!   worth from there: first down or not, the down, a turnover on downs (the new offense
//!   starts at its own 20, R37), a safety, a touchdown; late in a half the field matters
//!   less and the score more. Flags are valued by applying each penalty choice to a copy.
//! - **Penalties.** Each choice in `penalty_options` leads to a known state; it takes the
//!   one worth most by the same measure (score first, then the ball and the field).
//! - **Timeouts** are never called: in play-count quarters they only reset formations,
//!   and this bot forms the same way again.
//!
//! Deterministic: no randomness; ties go to the earliest action in the request's `legal`
//! order. Each decision uses at most a fifth of its `deadline_ms` (the search stops
//! widening when the budget runs out), and whatever goes wrong falls back to something
//! legal: the first legal action, or a legal engine formation.
//!
//! Flags: `--name NAME` (default `sparring`). No options are declared in `ready`.

use std::time::{Duration, Instant};

use clap::Parser;

use zebra_engine::botkit::{self, Bot, BotInfo, Request};
use zebra_engine::rules::game::drive_start;
use zebra_engine::rules::{
    Action, ActionList, Ball, Bitboard, DecisionKind, Dir, Formation, Game, GameResult, Phase,
    QuarterLength, Rank, Role, Side, Square,
};

#[derive(Parser)]
#[command(
    name = "zebra-sparring-bot",
    about = "A Football Chess bot that reads threats, covers receivers and throws to open ones"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "sparring")]
    name: String,
    /// Print each decision's best candidates and their values to stderr.
    #[arg(long)]
    trace: bool,
}

/// The sparring bot: stateless between requests (the state is the whole game).
pub struct SparringBot {
    name: String,
    /// Print each decision's candidates to stderr (`--trace`).
    pub trace: bool,
}

/// Each point of the score is worth this much; a touchdown 7 of them.
const POINT: i64 = 100;
/// A finished game: winning dwarfs any margin.
const WIN: i64 = 1_000_000;

impl SparringBot {
    pub fn new(name: &str) -> SparringBot {
        SparringBot {
            name: name.to_string(),
            trace: false,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reach: where a piece could land next move, judged from the board alone.
// ---------------------------------------------------------------------------------------

/// Whether the piece on `from` could land on `to` with its next move (a plain move, a
/// push, a tackle, a bat, a catch). Pushes that would be blocked are counted: the question
/// is coverage, and a blocked push is rare. A pawn steps diagonally only onto a piece or
/// onto the ball (R7).
fn can_land(game: &Game, from: Square, to: Square) -> bool {
    if from == to {
        return false;
    }
    let Some(piece) = game.board().piece_at(from) else {
        return false;
    };
    let occupied = game.board().occupied();
    let df = to.file().index() as i8 - from.file().index() as i8;
    let dr = to.rank().index() as i8 - from.rank().index() as i8;
    match piece.role {
        Role::King => df.abs() <= 1 && dr.abs() <= 1,
        Role::Knight => matches!((df.abs(), dr.abs()), (1, 2) | (2, 1)),
        Role::Pawn => {
            let f = piece.side.forward();
            if dr == f && df == 0 {
                return true;
            }
            if dr == f && df.abs() == 1 {
                let ball_there = match game.ball() {
                    Ball::Loose(b) | Ball::Contested(b) => b == to,
                    Ball::InFlight(t) => t.to == to,
                    _ => false,
                };
                return occupied.contains(to) || ball_there;
            }
            // The two-step from the second rank, onto a square with nobody on it (R65).
            let second = piece.side.own_end_zone().offset(f);
            if dr == 2 * f && df == 0 && Some(from.rank()) == second {
                let over = from.step(Dir::new(0, f));
                return over.is_some_and(|o| !occupied.contains(o)) && !occupied.contains(to);
            }
            false
        }
        Role::Bishop | Role::Rook | Role::Queen => {
            let straight = (df == 0) != (dr == 0);
            let diagonal = df != 0 && df.abs() == dr.abs();
            let fits = match piece.role {
                Role::Bishop => diagonal,
                Role::Rook => straight,
                _ => straight || diagonal,
            };
            if !fits {
                return false;
            }
            let u = Dir::new(df.signum(), dr.signum());
            let mut s = from.step(u);
            while let Some(sq) = s {
                if sq == to {
                    return true;
                }
                if occupied.contains(sq) {
                    return false;
                }
                s = sq.step(u);
            }
            false
        }
    }
}

/// Whether any piece of `side` could land on `to` next move.
fn side_reaches(game: &Game, side: Side, to: Square) -> bool {
    game.board()
        .side(side)
        .any(|from| from != to && can_land(game, from, to))
}

/// How many ways the team with the ball (`side`, carrier on `carrier`) can score on its
/// next move: the carrier running (or trucking) into the end zone, or a legal forward pass
/// from the carrier to a teammate standing in the end zone that no opponent can reach.
fn scoring_threats(game: &Game, side: Side, carrier: Square) -> u32 {
    let goal = side.goal();
    let board = game.board();
    let mut threats = 0;
    let mut seen = Bitboard::EMPTY;
    for file in 0..8 {
        let Some(f) = zebra_engine::rules::File::new(file) else {
            continue;
        };
        let sq = Square::new(f, goal);
        let occupant = board.piece_at(sq);
        // The carrier runs there: onto an empty square, or trucks a defender there (R49).
        if occupant.map_or(true, |p| p.side != side) && can_land(game, carrier, sq) {
            threats += 1;
            seen.insert(sq);
            continue;
        }
        // A teammate already in the end zone, open, and a pass the rules allow.
        if occupant.is_some_and(|p| p.side == side)
            && pass_allowed(game, side, carrier, sq)
            && !side_reaches(game, side.other(), sq)
        {
            threats += 1;
        }
    }
    threats
}

/// Whether the carrier on `from` may throw to `to` without drawing a flag: a direction
/// its role throws along, and for a forward pass the play's one legal forward pass still
/// unused (4.3, R34).
fn pass_allowed(game: &Game, side: Side, from: Square, to: Square) -> bool {
    let Some(piece) = game.board().piece_at(from) else {
        return false;
    };
    if !Game::can_throw(piece, from, to) {
        return false;
    }
    let forward = side.ahead(to.rank(), from.rank());
    !(forward
        && (game.forward_pass_thrown()
            || game.ball_crossed_line()
            || game.possession() != game.offense()))
}

// ---------------------------------------------------------------------------------------
// Values: what a series, a finished play and a position in play are worth.
// ---------------------------------------------------------------------------------------

fn for_me(side: Side, me: Side, v: i64) -> i64 {
    if side == me {
        v
    } else {
        -v
    }
}

/// How much the field is still worth against the score: near the end of a half a drive
/// has no time left to finish, so only points count.
fn field_weight(game: &Game) -> i64 {
    let QuarterLength::Plays(n) = game.settings().quarter else {
        return 4;
    };
    if game.quarter() % 2 == 1 {
        return 4;
    }
    let left = i64::from(n) - i64::from(game.plays_in_quarter());
    left.clamp(0, 4)
}

/// A series for `side` at `rank` on `down`, the line to gain at `to_gain`: what it is worth
/// to that side, in points times `POINT`, before the field weight. Scoring from the 20 is
/// common, so possession itself is worth a good share of a touchdown.
fn series_value(side: Side, rank: Rank, down: u8, to_gain: Rank) -> i64 {
    let advance = i64::from(side.gain(side.own_end_zone(), rank)); // 1..=6
    let short = i64::from(side.gain(rank, to_gain).max(0));
    120 + advance * 45 - i64::from(down.saturating_sub(1)) * 30 - short * 15
}

fn new_drive(side: Side) -> i64 {
    let start = drive_start(side).rank();
    let to_gain = start.offset(2 * side.forward()).unwrap_or(side.goal());
    series_value(side, start, 1, to_gain)
}

/// The series of `game`'s offense going on from `rank` after a play that did not score and
/// did not change hands: a first down, the next down, or a turnover on downs.
fn next_series(game: &Game, rank: Rank, me: Side) -> i64 {
    let offense = game.offense();
    let rank = rank.out_of_end_zones();
    let w = field_weight(game);
    let v = if offense.gain(game.line_to_gain(), rank) >= 0 {
        let to_gain = rank.offset(2 * offense.forward()).unwrap_or(offense.goal());
        series_value(offense, rank, 1, to_gain)
    } else if game.down() >= 4 {
        -new_drive(offense.other())
    } else {
        series_value(offense, rank, game.down() + 1, game.line_to_gain())
    };
    for_me(offense, me, v * w / 4)
}

/// The play ending with `holder` downed (or scoring) on `at`, for `me`, score included.
fn ended_at(game: &Game, holder: Side, at: Square, me: Side) -> i64 {
    let offense = game.offense();
    let w = field_weight(game);
    if at.rank() == holder.goal() {
        return for_me(holder, me, 7 * POINT - new_drive(holder.other()) * w / 4);
    }
    if holder != offense {
        // Gained during the play: a new drive from its own 20 wherever it ends (R37).
        return for_me(holder, me, 40 + new_drive(holder) * w / 4);
    }
    if at.rank() == offense.own_end_zone() {
        let scorer = offense.other();
        return for_me(scorer, me, 2 * POINT + new_drive(scorer) * w / 4);
    }
    next_series(game, at.rank(), me)
}

fn score_margin(game: &Game, me: Side) -> i64 {
    (i64::from(game.score(me)) - i64::from(game.score(me.other()))) * POINT
}

/// The value for `me` of any position the search reaches.
pub fn evaluate(game: &Game, me: Side) -> i64 {
    match game.phase() {
        Phase::GameOver => {
            score_margin(game, me)
                + match game.result() {
                    Some(GameResult::Win(s)) => for_me(s, me, WIN),
                    _ => 0,
                }
        }
        Phase::Formation(_) | Phase::Motion | Phase::Reaction => {
            let o = game.offense();
            let v = series_value(o, game.spot().rank(), game.down(), game.line_to_gain());
            score_margin(game, me) + for_me(o, me, v * field_weight(game) / 4)
        }
        Phase::PenaltyChoice(chooser) => {
            // The chooser takes the option best for it.
            let mut best: Option<i64> = None;
            for action in game.legal_action_list() {
                let mut g = game.clone();
                if g.apply(&action).is_err() {
                    continue;
                }
                let v = evaluate(&g, me);
                best = Some(match best {
                    None => v,
                    Some(b) if chooser == me => b.max(v),
                    Some(b) => b.min(v),
                });
            }
            best.unwrap_or_else(|| score_margin(game, me))
        }
        Phase::Action(mover) | Phase::Contention(mover) => {
            score_margin(game, me) + play_value(game, mover, me)
        }
    }
}

/// A position in play, `mover` to act: where the ball is and what each team can do to it
/// with the next move.
fn play_value(game: &Game, mover: Side, me: Side) -> i64 {
    let offense = game.offense();
    match game.ball() {
        Ball::Carried(at) | Ball::Spotted(at) => {
            carried_value(game, game.possession(), at, mover, me)
        }
        Ball::Loose(at) | Ball::Contested(at) => {
            // Whoever can land on it first is likelier to get it: the mover.
            let mine = ended_at(game, mover, at, me);
            let theirs = ended_at(game, mover.other(), at, me);
            if side_reaches(game, mover, at) || !game.board().stack_at(at).is_empty() {
                (2 * mine + theirs) / 3
            } else {
                (mine + theirs) / 2
            }
        }
        Ball::InFlight(t) => {
            let failed = |g: &Game| {
                if t.forward && t.side == offense {
                    next_series(g, g.spot().rank(), me) // incomplete: back to the spot
                } else if t.forward {
                    ended_at(g, t.side, t.to, me)
                } else {
                    (ended_at(g, t.side, t.to, me) + ended_at(g, t.side.other(), t.to, me)) / 2
                }
            };
            let caught = if t.to.rank() == t.side.goal() {
                ended_at(game, t.side, t.to, me)
            } else {
                // The receiver will have the ball with the other team to move.
                carried_value(game, t.side, t.to, t.side.other(), me)
            };
            let opponent = t.side.other();
            if mover == opponent {
                if side_reaches(game, opponent, t.to) {
                    if t.direct {
                        failed(game)
                    } else {
                        ended_at(game, opponent, t.to, me) // intercepted
                    }
                } else if t.direct || side_reaches(game, t.side, t.to) {
                    caught
                } else {
                    // Nobody of the thrower's team can get there either: it falls.
                    failed(game)
                }
            } else if side_reaches(game, t.side, t.to) {
                caught
            } else {
                failed(game)
            }
        }
    }
}

/// The ball carried by `holder` on `at`, `mover` to act.
fn carried_value(game: &Game, holder: Side, at: Square, mover: Side, me: Side) -> i64 {
    let downed = ended_at(game, holder, at, me);
    let score = ended_at(game, holder, scoring_square(holder, at), me);
    let threats = scoring_threats(game, holder, at);
    if mover == holder {
        if threats > 0 {
            return score - for_me(holder, me, 5);
        }
        // Free to move on: a little for room to run, less when defenders close in.
        let chasers = game
            .board()
            .side(holder.other())
            .filter(|&sq| sq.distance(at) <= 2)
            .count() as i64;
        return downed + for_me(holder, me, 12 - 4 * chasers);
    }
    if side_reaches(game, mover, at) {
        return downed; // tackled where he stands
    }
    match threats {
        0 => downed + for_me(holder, me, 10),
        1 => (downed + score) / 2,
        _ => (downed + 3 * score) / 4,
    }
}

/// A square on `side`'s goal line, to value a touchdown by `ended_at`.
fn scoring_square(side: Side, at: Square) -> Square {
    Square::new(at.file(), side.goal())
}

// ---------------------------------------------------------------------------------------
// Search: our action, the opponent's best reply.
// ---------------------------------------------------------------------------------------

/// The opponent's best reply to the position `game` (its decision), for `me`: the minimum
/// over its actions, cut off as soon as it falls to `floor` (a reply that refutes).
fn reply_value(game: &Game, me: Side, floor: i64, list: &mut ActionList) -> i64 {
    let Some(d) = game.decision() else {
        return evaluate(game, me);
    };
    if d.side == me || !matches!(d.kind, DecisionKind::Move | DecisionKind::Contention) {
        return evaluate(game, me);
    }
    game.legal_actions(list);
    // Contact first: tackles, bats and interceptions refute the most.
    let ball = game.ball().square();
    let mut replies: Vec<Action> = list.iter().copied().collect();
    replies.sort_by_key(|a| match a {
        Action::Move { to, .. } if *to == ball => 0,
        _ => 1,
    });
    let mut worst: Option<i64> = None;
    for r in replies {
        if r == Action::Timeout {
            continue;
        }
        let mut g = game.clone();
        if g.apply(&r).is_err() {
            continue;
        }
        let v = evaluate(&g, me);
        if worst.map_or(true, |w| v < w) {
            worst = Some(v);
            if v <= floor {
                break;
            }
        }
    }
    worst.unwrap_or_else(|| evaluate(game, me))
}

/// The best legal action for `me` by two-ply search, ties to the earliest in `legal`.
/// Every action is first valued one ply deep; then, best first, each gets the opponent's
/// best reply until the budget runs out.
fn search(
    game: &Game,
    me: Side,
    legal: &[String],
    budget: Duration,
    trace: bool,
) -> Option<String> {
    let start = Instant::now();
    let mut shallow: Vec<(i64, usize, Game)> = Vec::new();
    for (i, text) in legal.iter().enumerate() {
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
        shallow.push((evaluate(&g, me), i, g));
    }
    shallow.sort_by_key(|(v, i, _)| (-*v, *i));
    let mut list = ActionList::new();
    let mut best: Option<(i64, usize)> = None;
    for (k, (shallow_value, i, g)) in shallow.iter().enumerate() {
        if k > 0 && start.elapsed() > budget {
            break;
        }
        let floor = if trace {
            i64::MIN
        } else {
            best.map_or(i64::MIN, |(b, _)| b)
        };
        let v = reply_value(g, me, floor, &mut list);
        if trace {
            eprintln!(
                "  {:>12} one ply {shallow_value:>7} two plies {v:>7}",
                legal[*i]
            );
        }
        let better = match best {
            None => true,
            Some((b, bi)) => v > b || (v == b && *i < bi),
        };
        if better {
            best = Some((v, *i));
        }
    }
    best.map(|(_, i)| legal[i].clone())
}

/// The offense's best first move after a snap from `game` (a motion-phase position),
/// valued for `me` one ply deep: how dangerous a formation is, from either side.
fn after_snap(game: &Game, offense: Side, me: Side, list: &mut ActionList) -> i64 {
    let mut g = game.clone();
    if g.apply(&Action::Snap).is_err() {
        return evaluate(game, me);
    }
    let Some(d) = g.decision() else {
        return evaluate(&g, me);
    };
    if d.side != offense {
        return evaluate(&g, me);
    }
    g.legal_actions(list);
    let moves: Vec<Action> = list.iter().copied().collect();
    let mut best: Option<i64> = None;
    for m in moves {
        if m == Action::Timeout {
            continue;
        }
        let mut h = g.clone();
        if h.apply(&m).is_err() {
            continue;
        }
        let v = evaluate(&h, me);
        let v = if me == offense { v } else { -v };
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    let v = best.unwrap_or_else(|| evaluate(&g, me) * if me == offense { 1 } else { -1 });
    if me == offense {
        v
    } else {
        -v
    }
}

/// [`after_snap`] two plies deep for the offense's most promising first moves: each of
/// the `width` best by one ply gets the defense's best reply. What a motion is worth.
fn after_snap_deep(game: &Game, offense: Side, width: usize, list: &mut ActionList) -> i64 {
    let mut g = game.clone();
    if g.apply(&Action::Snap).is_err() {
        return evaluate(game, offense);
    }
    match g.decision() {
        Some(d) if d.side == offense && d.kind == DecisionKind::Move => {}
        _ => return evaluate(&g, offense),
    }
    g.legal_actions(list);
    let moves: Vec<Action> = list.iter().copied().collect();
    let mut firsts: Vec<(i64, Game)> = Vec::new();
    for m in moves {
        let mut h = g.clone();
        if m == Action::Timeout || h.apply(&m).is_err() {
            continue;
        }
        firsts.push((evaluate(&h, offense), h));
    }
    firsts.sort_by_key(|(v, _)| -*v);
    let mut best: Option<i64> = None;
    for (_, h) in firsts.iter().take(width) {
        let v = reply_value(h, offense, best.unwrap_or(i64::MIN), list);
        best = Some(best.map_or(v, |b| b.max(v)));
    }
    best.unwrap_or_else(|| evaluate(&g, offense))
}

// ---------------------------------------------------------------------------------------
// Formations, motion, reaction.
// ---------------------------------------------------------------------------------------

/// Places `role` on the first free square among `choices` (offsets from the ball spot:
/// files as on the board, ranks in the offense's direction), on the right side of the
/// line.
fn place(game: &Game, f: &mut Formation, role: Role, choices: &[(i8, i8)], offense_side: bool) {
    let offense = game.offense();
    let spot = game.spot();
    let fwd = offense.forward();
    let own = Bitboard::at_or_behind(offense, spot.rank());
    let taken = game.board().occupied();
    for &(df, dr) in choices {
        let Some(sq) = spot.step(Dir::new(df, dr * fwd)) else {
            continue;
        };
        if own.contains(sq) == offense_side && !taken.contains(sq) && f.role_at(sq).is_none() {
            let _ = f.place(role, sq);
            return;
        }
    }
}

/// The file direction with more room from the ball spot: +1 toward file h, -1 toward a.
/// The queen runs that way, so the second pawn stands on the other side.
fn wide_side(game: &Game) -> i8 {
    let file = game.spot().file().index() as i8;
    if 7 - file >= file {
        1
    } else {
        -1
    }
}

/// Fills `f` up to seven pieces with pieces still on the sideline, nearest the ball first.
fn fill(game: &Game, f: &mut Formation, offense_side: bool) {
    let offense = game.offense();
    let spot = game.spot();
    let own = Bitboard::at_or_behind(offense, spot.rank());
    let taken = game.board().occupied();
    let mut squares: Vec<Square> = Square::all()
        .filter(|&sq| own.contains(sq) == offense_side && !taken.contains(sq))
        .collect();
    squares.sort_by_key(|sq| (sq.distance(spot), sq.index()));
    for role in [
        Role::Pawn,
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Knight,
    ] {
        if f.len() >= 7 {
            return;
        }
        if f.count(role) >= usize::from(role.sideline_count())
            || (!offense_side && role == Role::King)
        {
            continue;
        }
        if let Some(&sq) = squares.iter().find(|&&sq| f.role_at(sq).is_none()) {
            let _ = f.place(role, sq);
        }
    }
}

/// The offense's shape: the snapper, the queen right behind it to take the snap and run
/// toward the wide side, the king behind her (the receiver once she goes in motion), the
/// second pawn on the narrow side so that it does not close her diagonal, rooks on the
/// line for deep routes and a bishop behind.
fn offense_shape(game: &Game) -> Formation {
    let w = wide_side(game);
    let mut f = Formation::empty();
    place(game, &mut f, Role::Pawn, &[(0, 0)], true);
    place(game, &mut f, Role::Queen, &[(0, -1)], true);
    place(
        game,
        &mut f,
        Role::King,
        &[(0, -2), (-w, -1), (w, -1)],
        true,
    );
    place(
        game,
        &mut f,
        Role::Pawn,
        &[(-w, 0), (-2 * w, 0), (2 * w, 0)],
        true,
    );
    place(
        game,
        &mut f,
        Role::Rook,
        &[(2 * w, 0), (3 * w, 0), (-2 * w, 0)],
        true,
    );
    place(
        game,
        &mut f,
        Role::Rook,
        &[(-2 * w, 0), (-3 * w, 0), (3 * w, 0), (-w, -1)],
        true,
    );
    place(
        game,
        &mut f,
        Role::Bishop,
        &[(w, -1), (-w, -1), (w, -2), (-w, -2)],
        true,
    );
    fill(game, &mut f, true);
    f
}

/// The defense's starting shell: knights whose jump lands on the snap receiver (they
/// tackle a runner or passer who lingers), pawns in front of the snapper, the queen in the
/// middle, and both rooks on the goal line: a deep zone where every square of the end zone
/// is one rook move away, so a pass thrown there is intercepted.
fn defense_shape(game: &Game) -> Formation {
    let offense = game.offense();
    let g = offense.gain(game.spot().rank(), offense.goal()).max(1); // ranks to our goal
    let mid = g.min(2);
    let mut f = Formation::empty();
    place(
        game,
        &mut f,
        Role::Rook,
        &[(-2, g), (-3, g), (-1, g), (0, g)],
        false,
    );
    place(
        game,
        &mut f,
        Role::Rook,
        &[(2, g), (3, g), (1, g), (0, g)],
        false,
    );
    place(
        game,
        &mut f,
        Role::Knight,
        &[(-1, 1), (-2, 1), (-1, 2)],
        false,
    );
    place(game, &mut f, Role::Knight, &[(1, 1), (2, 1), (1, 2)], false);
    place(
        game,
        &mut f,
        Role::Pawn,
        &[(0, 1), (-2, 1), (2, 1), (-3, 1), (3, 1)],
        false,
    );
    place(
        game,
        &mut f,
        Role::Queen,
        &[(0, mid), (1, mid), (-1, mid), (0, 1)],
        false,
    );
    place(
        game,
        &mut f,
        Role::Pawn,
        &[(-2, 1), (2, 1), (-3, 1), (3, 1), (0, 2)],
        false,
    );
    fill(game, &mut f, false);
    f
}

/// How good a defensive formation is for the defense: minus the offense's best first move
/// after a snap right away.
fn defense_quality(game: &Game, f: &Formation, me: Side, list: &mut ActionList) -> Option<i64> {
    if game.validate_formation(f).is_err() {
        return None;
    }
    let mut g = game.clone();
    g.apply(&Action::Formation(*f)).ok()?;
    Some(after_snap(&g, g.offense(), me, list))
}

impl SparringBot {
    fn formation(&self, game: &Game, me: Side, budget: Duration) -> Formation {
        let start = Instant::now();
        if me == game.offense() {
            let f = offense_shape(game);
            return if game.validate_formation(&f).is_ok() {
                f
            } else {
                botkit::formation(game, me, 0)
            };
        }
        let mut f = defense_shape(game);
        if game.validate_formation(&f).is_err() {
            return botkit::formation(game, me, 0);
        }
        // Local improvement: move one piece at a time to the square that most lowers the
        // offense's best first move, while the budget lasts.
        let mut list = ActionList::new();
        let Some(mut best) = defense_quality(game, &f, me, &mut list) else {
            return f;
        };
        let offense = game.offense();
        let mut region: Vec<Square> = Square::all()
            .filter(|&sq| {
                let gain = offense.gain(game.spot().rank(), sq.rank());
                gain >= 1 && !game.board().occupied().contains(sq)
            })
            .collect();
        region.sort_by_key(|sq| (sq.distance(game.spot()), sq.index()));
        'rounds: for _ in 0..3 {
            let mut improved = false;
            let pieces: Vec<(Role, Square)> = f.iter().collect();
            for (role, from) in pieces {
                for &to in &region {
                    if start.elapsed() > budget {
                        break 'rounds;
                    }
                    if f.role_at(to).is_some() {
                        continue;
                    }
                    let placements: Vec<(Role, Square)> = f
                        .iter()
                        .map(|(r, s)| if s == from { (role, to) } else { (r, s) })
                        .collect();
                    let Ok(candidate) = Formation::from_placements(placements) else {
                        continue;
                    };
                    if let Some(q) = defense_quality(game, &candidate, me, &mut list) {
                        if q > best {
                            best = q;
                            f = candidate;
                            improved = true;
                            break;
                        }
                    }
                }
            }
            if !improved {
                break;
            }
        }
        f
    }

    /// Motion: the one shift (behind the line, no flag) that most improves the offense's
    /// best first move after the snap, or the snap when none does.
    fn motion(&self, game: &Game, me: Side, legal: &[String], budget: Duration) -> String {
        let start = Instant::now();
        let spot = game.spot();
        let mut list = ActionList::new();
        // Every shift is valued one ply deep (ties to the square nearest the ball: a
        // piece near the play can still help), the best few and the snap two plies deep.
        let mut shifts: Vec<(i64, usize, Game)> = Vec::new();
        for (i, text) in legal.iter().enumerate() {
            if start.elapsed() > budget / 2 {
                break;
            }
            let Ok(action @ Action::Motion { to, .. }) = text.parse::<Action>() else {
                continue;
            };
            if game.presnap_foul(&action).is_some() || me.gain(spot.rank(), to.rank()) < -3 {
                continue;
            }
            let mut g = game.clone();
            if g.apply(&action).is_err() {
                continue;
            }
            // Assume the defense stays put; a defense that reacts gets a new look anyway.
            if g.phase() == Phase::Reaction && g.apply(&Action::Pass).is_err() {
                continue;
            }
            if g.snap_receiver().is_none() {
                continue;
            }
            let v = after_snap(&g, me, me, &mut list) - i64::from(to.distance(spot));
            shifts.push((v, i, g));
        }
        shifts.sort_by_key(|(v, i, _)| (-*v, *i));
        let snap_value = if game.snap_receiver().is_some() {
            after_snap_deep(game, me, 8, &mut list)
        } else {
            i64::MIN / 2
        };
        let mut best: Option<(i64, usize)> = None;
        for (v1, i, g) in shifts.iter().take(4) {
            if start.elapsed() > budget {
                break;
            }
            let v = after_snap_deep(g, me, 8, &mut list);
            if self.trace {
                eprintln!(
                    "  motion {:>8} {v1:>7} deep {v:>7} (snap now {snap_value})",
                    legal[*i]
                );
            }
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, *i));
            }
        }
        match best {
            // A shift must be worth something: each is a chance for the defense to adjust.
            Some((v, i)) if v > snap_value + 10 => legal[i].clone(),
            _ if legal.iter().any(|a| a == "snap") => "snap".to_string(),
            _ => first_legal(legal),
        }
    }

    /// Reaction: the one shift (beyond the line, no flag) that most lowers the offense's
    /// best first move after a snap, or pass.
    fn reaction(&self, game: &Game, me: Side, legal: &[String], budget: Duration) -> String {
        let start = Instant::now();
        let offense = game.offense();
        let mut list = ActionList::new();
        let mut after_pass = game.clone();
        let pass_value = if after_pass.apply(&Action::Pass).is_ok() {
            after_snap(&after_pass, offense, me, &mut list)
        } else {
            i64::MIN / 2
        };
        let mut best: Option<(i64, &String)> = None;
        for text in legal {
            if start.elapsed() > budget {
                break;
            }
            let Ok(action @ Action::Motion { to, .. }) = text.parse::<Action>() else {
                continue;
            };
            if game.presnap_foul(&action).is_some() || to.distance(game.spot()) > 3 {
                continue;
            }
            let mut g = game.clone();
            if g.apply(&action).is_err() {
                continue;
            }
            let v = after_snap(&g, offense, me, &mut list);
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, text));
            }
        }
        match best {
            Some((v, text)) if v > pass_value + 10 => text.clone(),
            _ if legal.iter().any(|a| a == "pass") => "pass".to_string(),
            _ => first_legal(legal),
        }
    }
}

/// The first legal action, or `pass` when the list is empty.
fn first_legal(legal: &[String]) -> String {
    legal.first().cloned().unwrap_or_else(|| "pass".to_string())
}

/// The penalty decision from `penalty_options`: the choice whose next state is worth most
/// to us (score, then ball and field). Without options, the engine's own preview is not
/// available (diagrams cannot hold a penalty choice), so decline.
fn penalty_choice(req: &Request) -> String {
    let legal = req.legal_list();
    let me = req.side;
    let Some(options) = req.penalty_options.as_ref() else {
        return if legal.iter().any(|a| a == "decline") {
            "decline".to_string()
        } else {
            botkit::fallback(req)
        };
    };
    let mut best: Option<(i64, String)> = None;
    for o in options {
        let text = o.action.to_string();
        if !legal.contains(&text) {
            continue;
        }
        let margin = (i64::from(if me == Side::White {
            o.score.white
        } else {
            o.score.black
        }) - i64::from(if me == Side::White {
            o.score.black
        } else {
            o.score.white
        })) * POINT;
        let to_gain = Rank::new(o.line_to_gain.saturating_sub(1)).unwrap_or(o.spot.rank());
        let v = margin
            + for_me(
                o.offense,
                me,
                series_value(o.offense, o.spot.rank(), o.down, to_gain),
            );
        if best.as_ref().map_or(true, |(b, _)| v > *b) {
            best = Some((v, text));
        }
    }
    best.map(|(_, t)| t)
        .unwrap_or_else(|| botkit::fallback(req))
}

impl Bot for SparringBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            name: self.name.clone(),
            author: "zebra".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            options: Vec::new(),
        }
    }

    fn decide(&mut self, req: &Request) -> String {
        if req.decision == DecisionKind::PenaltyChoice {
            return penalty_choice(req);
        }
        let Some(game) = req.game() else {
            return botkit::fallback(req);
        };
        // A fifth of the deadline: the referee measures the round trip, and the machine
        // may be busy with the opponent and other games.
        let budget = Duration::from_millis((req.deadline_ms / 5).clamp(1, 400));
        let legal = req.legal_list();
        let me = req.side;
        if self.trace {
            eprintln!("{}\n{:?} for {me}:", req.state.diagram, req.decision);
        }
        let answer = match req.decision {
            DecisionKind::Formation => {
                let f = self.formation(&game, me, budget);
                if game.validate_formation(&f).is_ok() {
                    return f.to_string();
                }
                return botkit::fallback(req);
            }
            DecisionKind::MotionOrSnap => Some(self.motion(&game, me, legal, budget)),
            DecisionKind::Reaction => Some(self.reaction(&game, me, legal, budget)),
            _ => search(&game, me, legal, budget, self.trace),
        };
        match answer {
            Some(a) if legal.contains(&a) => a,
            _ => botkit::fallback(req),
        }
    }
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut bot = SparringBot::new(&args.name);
    bot.trace = args.trace;
    botkit::run(&mut bot)
}
