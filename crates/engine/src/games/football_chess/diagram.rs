//! Positions as readable text: a few `key: value` lines, then the board from rank 8 down.
//!
//! ```text
//! offense: white
//! phase: action
//! turn: black
//! down: 2
//! spot: e5
//! 8 . . . . . . . .
//! 7 . . . . . . . .
//! 6 . . p p p . . .
//! 5 . . . P K* . . .
//! 4 . . . . . . . .
//! 3 . . . . . . . .
//! 2 . . . . . . . .
//! 1 . . . . . . . .
//! ```
//!
//! Squares: `.` empty, a piece letter (uppercase White, lowercase Black), `K*` the ball
//! carrier, `.o` a loose ball, `Po` one piece on the loose ball (contention), `(Pp)` a
//! pile on the loose ball, bottom first. Keys and their defaults: `offense` (white),
//! `phase` (formation, motion, reaction, action, contention; default action), `turn` (who
//! decides; default the offense), `down` (1), `spot` (the ball spot: required before the
//! snap, else the ball's square), `to-gain` (rank; default 10 yards ahead), `quarter` (1),
//! `score` (0-0), `timeouts` (3-3), `plays` (plays this quarter, 0), `fouls-in-row` (the
//! fouls enforced against White and Black in a row, R58; 0-0), `untimed` (an untimed down,
//! R62; no), `last-foul` (`defense` when the last enforcement was a defensive foul and no
//! snap followed, so a period ending now owes an untimed down, R62; none), `quarter-length`
//! (`timed` or a number of plays; timed), `clock` (running or stopped; running after the
//! snap), `possession` (the offense; during a pass in flight, the throwing team),
//! `forward-pass`, `thrown` (any pass this play), `crossed`, `changed` (yes/no),
//! `turns` (0), `last-push` (`e4 e5 white`: the pusher's square, the pushed piece's square
//! and the pushing side of the last turn's push, for holding), `moved` (squares that went
//! in motion), `throw` (`d4^d7`, a pass in
//! flight) and `throw-stage` (`defense` or `offense`: whose turn to reach an indirect
//! pass). [`Game::to_diagram`] prints every key, and parsing it gives the same diagram back
//! for every phase but two it cannot describe: a pending penalty choice (the flags and the
//! finished play are not in diagrams) and a finished game. A game clock that ran out during
//! the play is not kept either.

use std::fmt::Write;
use std::ops::RangeBounds;

use thiserror::Error;

use super::board::{Board, MAX_PILE};
use super::game::{
    line_to_gain, Ball, Game, Phase, PlayState, QuarterLength, Settings, Throw, MAX_PLAY_TURNS,
};
use super::types::{Bitboard, Piece, Rank, Role, Side, Square};

/// A diagram that does not describe a position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{}{message}", line.map(|l| format!("diagram line {l}: ")).unwrap_or_else(|| "diagram: ".to_string()))]
pub struct DiagramError {
    /// The 1-based line at fault, when one line is.
    pub line: Option<usize>,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> DiagramError {
    DiagramError {
        line: (line > 0).then_some(line),
        message: message.into(),
    }
}

fn yes_no(s: &str) -> Option<bool> {
    match s {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

fn pair(s: &str) -> Option<(u16, u16)> {
    let (a, b) = s.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// How a header key's value is applied to the game being read, or `None` when the value is
/// bad (the caller names the key and the value).
type Apply = fn(&str, &mut Game, &mut Header) -> Option<()>;

/// The header keys, in the order [`Game::to_diagram`] prints them: one line per key, so a
/// new key is one line here (and one in the writer). Left unformatted: rustfmt would break
/// the longer entries over three lines and the table would no longer read as one.
#[rustfmt::skip]
const KEYS: &[(&str, Apply)] = &[
    ("offense",        |v, g, _| set(&mut g.offense, v.parse().ok())),
    ("phase",          |v, _, h| set(&mut h.phase, Some(v.to_string()))),
    ("turn",           |v, _, h| set(&mut h.turn, v.parse().ok().map(Some))),
    ("down",           |v, g, _| set(&mut g.down, number(v, 1..=4))),
    ("spot",           |v, _, h| set(&mut h.spot, v.parse().ok().map(Some))),
    ("to-gain",        |v, _, h| set(&mut h.to_gain, rank(v).map(Some))),
    ("quarter",        |v, g, _| set(&mut g.quarter, number(v, 1..=4))),
    ("score",          |v, g, _| set(&mut g.score, pair(v).map(|(w, b)| [w, b]))),
    ("timeouts",       |v, g, _| set(&mut g.timeouts, small_pair(v, 3))),
    ("plays",          |v, g, _| set(&mut g.plays, v.parse().ok())),
    ("fouls-in-row",   |v, g, _| set(&mut g.fouls_in_row, small_pair(v, 255))),
    ("untimed",        |v, g, _| set(&mut g.untimed, yes_no(v))),
    ("last-foul",      |v, g, _| set(&mut g.extend_period, word(v, LAST_FOUL))),
    ("quarter-length", |v, g, _| set(&mut g.settings.quarter, quarter_length(v))),
    ("clock",          |v, _, h| set(&mut h.clock, word(v, CLOCK).map(Some))),
    ("possession",     |v, _, h| set(&mut h.possession, v.parse().ok().map(Some))),
    ("forward-pass",   |v, _, h| set(&mut h.forward_pass, yes_no(v))),
    ("crossed",        |v, _, h| set(&mut h.crossed, yes_no(v))),
    ("changed",        |v, _, h| set(&mut h.changed, yes_no(v))),
    ("thrown",         |v, _, h| set(&mut h.thrown, yes_no(v))),
    ("turns",          |v, _, h| set(&mut h.turns, number(v, ..MAX_PLAY_TURNS))),
    ("last-push",      |v, _, h| set(&mut h.last_push, last_push(v).map(Some))),
    ("moved",          |v, _, h| add_moved(v, &mut h.moved)),
    ("throw",          |v, _, h| set(&mut h.throw, throw(v).map(Some))),
    ("throw-stage",    |v, _, h| set(&mut h.throw_stage_offense, word(v, THROW_STAGE))),
];

/// The words of the keys that take one of a few, and what each means.
const LAST_FOUL: &[(&str, bool)] = &[("defense", true), ("none", false)];
const CLOCK: &[(&str, bool)] = &[("running", true), ("stopped", false)];
/// `offense`: the defense has had its turn to reach an indirect pass.
const THROW_STAGE: &[(&str, bool)] = &[("defense", false), ("offense", true)];

/// What the header says that is settled against the board and the phase only once every
/// key is read (the keys come in any order, and most have defaults that depend on others).
struct Header {
    phase: String,
    turn: Option<Side>,
    spot: Option<Square>,
    to_gain: Option<Rank>,
    possession: Option<Side>,
    clock: Option<bool>,
    forward_pass: bool,
    crossed: bool,
    changed: bool,
    thrown: bool,
    turns: u8,
    last_push: Option<(Square, Square, Side)>,
    moved: Bitboard,
    throw: Option<(Square, Square)>,
    throw_stage_offense: bool,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            phase: "action".to_string(),
            turn: None,
            spot: None,
            to_gain: None,
            possession: None,
            clock: None,
            forward_pass: false,
            crossed: false,
            changed: false,
            thrown: false,
            turns: 0,
            last_push: None,
            moved: Bitboard::EMPTY,
            throw: None,
            throw_stage_offense: false,
        }
    }
}

/// Where the board rows put the ball: one of the three, at most.
#[derive(Default)]
struct BallMarkers {
    carried: Option<Square>,
    loose: Option<Square>,
    contested: Option<Square>,
    count: usize,
}

/// The lines of a diagram once read: the board is placed, the keys wait to be applied.
struct Lines<'a> {
    /// Line number, key and value.
    keys: Vec<(usize, &'a str, &'a str)>,
    ranks_given: [bool; 8],
    ball: BallMarkers,
}

fn set<T>(slot: &mut T, value: Option<T>) -> Option<()> {
    *slot = value?;
    Some(())
}

fn number<T: std::str::FromStr + PartialOrd>(v: &str, range: impl RangeBounds<T>) -> Option<T> {
    v.parse().ok().filter(|n| range.contains(n))
}

fn rank(v: &str) -> Option<Rank> {
    number(v, 1..=8u8).map(|r| Rank(r - 1))
}

fn word<T: Copy>(v: &str, words: &[(&str, T)]) -> Option<T> {
    words.iter().find(|(w, _)| *w == v).map(|&(_, t)| t)
}

/// A pair of counts that each fit in `max`.
fn small_pair(v: &str, max: u16) -> Option<[u8; 2]> {
    pair(v)
        .filter(|&(w, b)| w <= max && b <= max)
        .map(|(w, b)| [w as u8, b as u8])
}

fn quarter_length(v: &str) -> Option<QuarterLength> {
    match v {
        "timed" => Some(QuarterLength::Timed),
        _ => number(v, 1..).map(QuarterLength::Plays),
    }
}

fn last_push(v: &str) -> Option<(Square, Square, Side)> {
    let parts: Vec<&str> = v.split_whitespace().collect();
    let [a, b, side] = parts[..] else {
        return None;
    };
    Some((a.parse().ok()?, b.parse().ok()?, side.parse().ok()?))
}

/// Adds to what an earlier `moved` line gave: the key may be split over lines.
fn add_moved(v: &str, moved: &mut Bitboard) -> Option<()> {
    for s in v.split_whitespace() {
        moved.insert(s.parse().ok()?);
    }
    Some(())
}

fn throw(v: &str) -> Option<(Square, Square)> {
    let (a, b) = v.split_once('^')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Sorts the lines into header keys and board rows, placing the rows on `board` as they
/// come: a bad row is reported before any bad key, wherever it stands.
fn read_lines<'a>(text: &'a str, board: &mut Board) -> Result<Lines<'a>, DiagramError> {
    let mut lines = Lines {
        keys: Vec::new(),
        ranks_given: [false; 8],
        ball: BallMarkers::default(),
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((k, v)) = line.split_once(':') {
            lines.keys.push((n, k.trim(), v.trim()));
            continue;
        }
        read_row(n, line, board, &mut lines)?;
    }
    Ok(lines)
}

/// One board row (`5 . . . P K* . . .`), line `n`.
fn read_row(
    n: usize,
    line: &str,
    board: &mut Board,
    lines: &mut Lines,
) -> Result<(), DiagramError> {
    let mut tokens = line.split_whitespace();
    let rank = tokens
        .next()
        .and_then(|t| t.parse::<u8>().ok())
        .filter(|r| (1..=8).contains(r))
        .ok_or_else(|| {
            err(
                n,
                format!("expected 'key: value' or a board row, got '{line}'"),
            )
        })?;
    if lines.ranks_given[rank as usize - 1] {
        return Err(err(n, format!("rank {rank} given twice")));
    }
    lines.ranks_given[rank as usize - 1] = true;
    let tokens: Vec<&str> = tokens.collect();
    if tokens.len() != 8 {
        return Err(err(
            n,
            format!("rank {rank} has {} squares, expected 8", tokens.len()),
        ));
    }
    let ball = &mut lines.ball;
    for (file, tok) in tokens.iter().enumerate() {
        let sq = Square((rank - 1) * 8 + file as u8);
        let put = |c: char, board: &mut Board, stack: bool| {
            let p = Piece::from_char(c)
                .ok_or_else(|| err(n, format!("'{c}' is not a piece on {sq}")))?;
            if stack {
                board.stack(sq, p);
            } else {
                board.put(sq, p);
            }
            Ok::<(), DiagramError>(())
        };
        let chars: Vec<char> = tok.chars().collect();
        match chars.as_slice() {
            ['.'] => {}
            ['.', 'o'] => {
                ball.loose = Some(sq);
                ball.count += 1;
            }
            [c] => put(*c, board, false)?,
            [c, '*'] => {
                put(*c, board, false)?;
                ball.carried = Some(sq);
                ball.count += 1;
            }
            [c, 'o'] => {
                put(*c, board, false)?;
                ball.contested = Some(sq);
                ball.count += 1;
            }
            ['(', inner @ .., ')'] if inner.len() >= 2 => {
                if inner.len() > MAX_PILE {
                    return Err(err(
                        n,
                        format!(
                            "the pile on {sq} has {} pieces; at most {MAX_PILE} fit",
                            inner.len()
                        ),
                    ));
                }
                if board.pile_square().is_some() {
                    return Err(err(n, "only one pile: the one ball is in it"));
                }
                ball.count += 1;
                for c in inner {
                    put(*c, board, true)?;
                }
                ball.contested = Some(sq);
            }
            _ => return Err(err(n, format!("'{tok}' is not a square token"))),
        }
        if ball.count > 1 {
            return Err(err(n, format!("more than one ball (a second one on {sq})")));
        }
    }
    Ok(())
}

fn check_sidelines(board: &Board) -> Result<(), DiagramError> {
    for side in Side::ALL {
        for role in Role::ALL {
            if board.count(side, role) > role.sideline_count() {
                return Err(err(
                    0,
                    format!("{side} has more {role}s than its sideline holds"),
                ));
            }
        }
    }
    Ok(())
}

/// Applies the keys in the order given (a repeated key's last value counts), setting on
/// `game` what needs nothing else and returning the rest.
fn apply_keys(keys: &[(usize, &str, &str)], game: &mut Game) -> Result<Header, DiagramError> {
    let mut header = Header::default();
    for &(n, k, v) in keys {
        let (_, apply) = KEYS
            .iter()
            .find(|(name, _)| *name == k)
            .ok_or_else(|| err(n, format!("unknown key '{k}'")))?;
        apply(v, game, &mut header).ok_or_else(|| err(n, format!("bad value '{v}' for '{k}'")))?;
    }
    Ok(header)
}

/// Settles the spot, line to gain, play, clock and phase from the header and its
/// defaults; returns who decides.
fn settle(game: &mut Game, header: &Header, ball: &BallMarkers) -> Result<Side, DiagramError> {
    let offense = game.offense;
    let phase_name = header.phase.as_str();
    let turn = header.turn.unwrap_or(match phase_name {
        "reaction" => offense.other(),
        _ => offense,
    });
    let ball_square = ball.carried.or(ball.loose).or(ball.contested);
    let pre_snap = matches!(phase_name, "formation" | "motion" | "reaction");
    let spot = match (header.spot, ball_square) {
        (Some(s), _) => s,
        (None, Some(b)) if !pre_snap => b,
        _ => return Err(err(0, "give the ball spot with 'spot: <square>'")),
    };
    if spot.rank().is_end_zone() {
        return Err(err(0, format!("the ball spot {spot} is in an end zone")));
    }
    game.spot = spot;
    game.to_gain = header
        .to_gain
        .unwrap_or_else(|| line_to_gain(offense, spot));
    game.play = PlayState {
        moved: header.moved,
        turns: header.turns,
        possession: header.possession.unwrap_or(offense),
        changed: header.changed,
        forward_pass: header.forward_pass,
        thrown: header.thrown || header.forward_pass || header.throw.is_some(),
        crossed: header.crossed,
        last_push: header.last_push,
        fouls: Default::default(),
        after_change: 0,
        unheld: 0,
    };
    game.clock_running = header.clock.unwrap_or(!pre_snap);
    game.phase = match phase_name {
        "formation" => Phase::Formation(turn),
        "motion" => Phase::Motion,
        "reaction" => Phase::Reaction,
        "action" => Phase::Action(turn),
        "contention" => Phase::Contention(turn),
        other => return Err(err(0, format!("unknown phase '{other}'"))),
    };
    Ok(turn)
}

/// The side the header says decides must be the one the phase gives the decision to.
fn check_turn(game: &Game, turn: Side, phase_name: &str) -> Result<(), DiagramError> {
    let decider = match game.phase {
        Phase::Motion => game.offense,
        Phase::Reaction => game.offense.other(),
        _ => turn,
    };
    if decider != turn {
        return Err(err(
            0,
            format!("in the {phase_name} phase {decider} decides, not {turn}"),
        ));
    }
    Ok(())
}

fn check_plays(game: &Game) -> Result<(), DiagramError> {
    if let QuarterLength::Plays(n) = game.settings.quarter {
        // Only an untimed down (R62) is played after the quarter's plays ran out.
        if game.plays >= n && !game.untimed {
            return Err(err(
                0,
                format!("{} plays already played in a quarter of {n}", game.plays),
            ));
        }
    }
    Ok(())
}

/// The ball, from the markers on the board (or the `throw` key) checked against the phase;
/// a carrier or a thrower also settles who has possession.
fn place_ball(game: &mut Game, header: &Header, ball: &BallMarkers) -> Result<Ball, DiagramError> {
    let offense = game.offense;
    let spot = game.spot;
    let (carried, loose, contested) = (ball.carried, ball.loose, ball.contested);
    Ok(
        match (game.phase, carried, loose, contested, header.throw) {
            (Phase::Formation(_) | Phase::Motion | Phase::Reaction, None, None, None, None) => {
                if game.phase != Phase::Formation(offense)
                    && game.board.piece_at(spot) != Some(Piece::new(offense, Role::Pawn))
                {
                    return Err(err(
                        0,
                        format!("no {offense} pawn on the ball at {spot} to snap it"),
                    ));
                }
                Ball::Spotted(spot)
            }
            (Phase::Action(_), Some(c), None, None, None) => {
                let holder = game.board.piece_at(c).expect("placed").side;
                game.play.possession = holder;
                game.play.changed |= holder != offense;
                Ball::Carried(c)
            }
            (Phase::Action(_), None, Some(l), None, None) => Ball::Loose(l),
            (Phase::Action(_), None, None, None, Some((from, to))) => {
                // The thrower may have been pushed off its square since: the throwing team
                // is the possession key, else the piece on the square thrown from.
                let thrower = match header.possession {
                    Some(side) => side,
                    None => {
                        game.board
                            .piece_at(from)
                            .ok_or_else(|| {
                                err(0, format!("no thrower on {from}; give 'possession'"))
                            })?
                            .side
                    }
                };
                let direct = game.board.side(thrower).contains(to);
                if game.board.side(thrower.other()).contains(to) {
                    return Err(err(0, "a pass onto an opponent is already intercepted"));
                }
                game.play.possession = thrower;
                Ball::InFlight(Throw {
                    from,
                    to,
                    side: thrower,
                    forward: thrower.ahead(to.rank(), from.rank()),
                    direct,
                    defense_done: header.throw_stage_offense && !direct,
                })
            }
            (Phase::Contention(_), None, None, Some(c), None) => Ball::Contested(c),
            _ => {
                return Err(err(
                    0,
                    format!("the ball markers do not fit the phase '{}'", header.phase),
                ))
            }
        },
    )
}

impl Game {
    /// Builds a game from a diagram (see the module docs), for tests, perft and tools.
    pub fn from_diagram(text: &str) -> Result<Game, DiagramError> {
        let mut game = Game::new(Settings::timed());
        let lines = read_lines(text, &mut game.board)?;
        check_sidelines(&game.board)?;
        let header = apply_keys(&lines.keys, &mut game)?;
        if let Some(r) = lines.ranks_given.iter().position(|given| !given) {
            return Err(err(0, format!("rank {} is missing", r + 1)));
        }
        let turn = settle(&mut game, &header, &lines.ball)?;
        check_turn(&game, turn, &header.phase)?;
        check_plays(&game)?;
        game.ball = place_ball(&mut game, &header, &lines.ball)?;
        Ok(game)
    }
    /// The game as a diagram that [`Game::from_diagram`] reads back.
    pub fn to_diagram(&self) -> String {
        // Headers take ~300 bytes and the board 150-250: one allocation for the whole.
        let mut s = String::with_capacity(640);
        let yn = |b: bool| if b { "yes" } else { "no" };
        let (phase, turn) = match self.phase {
            Phase::Formation(t) => ("formation", t),
            Phase::Motion => ("motion", self.offense),
            Phase::Reaction => ("reaction", self.defense()),
            Phase::Action(t) => ("action", t),
            Phase::Contention(t) => ("contention", t),
            Phase::PenaltyChoice(t) => ("penalty", t),
            Phase::GameOver => ("over", self.offense),
        };
        let _ = writeln!(s, "offense: {}", self.offense);
        let _ = writeln!(s, "phase: {phase}");
        let _ = writeln!(s, "turn: {turn}");
        let _ = writeln!(s, "down: {}", self.down);
        let _ = writeln!(s, "spot: {}", self.spot);
        let _ = writeln!(s, "to-gain: {}", self.to_gain);
        let _ = writeln!(s, "quarter: {}", self.quarter);
        let _ = writeln!(s, "score: {}-{}", self.score[0], self.score[1]);
        let _ = writeln!(s, "timeouts: {}-{}", self.timeouts[0], self.timeouts[1]);
        let _ = writeln!(s, "plays: {}", self.plays);
        if self.fouls_in_row != [0, 0] {
            let [w, b] = self.fouls_in_row;
            let _ = writeln!(s, "fouls-in-row: {w}-{b}");
        }
        if self.untimed {
            s.push_str(
                "untimed: yes
",
            );
        }
        if self.extend_period {
            s.push_str("last-foul: defense\n");
        }
        match self.settings.quarter {
            QuarterLength::Timed => s.push_str("quarter-length: timed\n"),
            QuarterLength::Plays(n) => {
                let _ = writeln!(s, "quarter-length: {n}");
            }
        }
        let _ = writeln!(
            s,
            "clock: {}",
            if self.clock_running {
                "running"
            } else {
                "stopped"
            }
        );
        let _ = writeln!(s, "possession: {}", self.play.possession);
        let _ = writeln!(s, "forward-pass: {}", yn(self.play.forward_pass));
        let _ = writeln!(s, "crossed: {}", yn(self.play.crossed));
        let _ = writeln!(s, "changed: {}", yn(self.play.changed));
        let _ = writeln!(s, "thrown: {}", yn(self.play.thrown));
        let _ = writeln!(s, "turns: {}", self.play.turns);
        if let Some((a, b, side)) = self.play.last_push {
            let _ = writeln!(s, "last-push: {a} {b} {side}");
        }
        if !self.play.moved.is_empty() {
            let moved: Vec<String> = self.play.moved.map(|q| q.to_string()).collect();
            let _ = writeln!(s, "moved: {}", moved.join(" "));
        }
        if let Ball::InFlight(t) = self.ball {
            let _ = writeln!(s, "throw: {}^{}", t.from, t.to);
            let _ = writeln!(
                s,
                "throw-stage: {}",
                if t.defense_done { "offense" } else { "defense" }
            );
        }
        for rank in (0..8u8).rev() {
            let _ = write!(s, "{}", rank + 1);
            for file in 0..8u8 {
                let sq = Square(rank * 8 + file);
                let stack = self.board.stack_at(sq);
                s.push(' ');
                match (stack.len(), self.ball) {
                    (0, Ball::Loose(b)) if b == sq => s.push_str(".o"),
                    (0, _) => s.push('.'),
                    (1, Ball::Carried(b)) if b == sq => {
                        s.push(stack[0].char());
                        s.push('*');
                    }
                    (1, Ball::Contested(b)) if b == sq => {
                        s.push(stack[0].char());
                        s.push('o');
                    }
                    (1, _) => s.push(stack[0].char()),
                    (_, _) => {
                        s.push('(');
                        s.extend(stack.iter().map(|p| p.char()));
                        s.push(')');
                    }
                }
            }
            s.push('\n');
        }
        s
    }
}
