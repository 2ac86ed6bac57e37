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

use thiserror::Error;

use super::board::MAX_PILE;
use super::game::{line_to_gain, Ball, Game, Phase, PlayState, QuarterLength, Settings, Throw};
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

impl Game {
    /// Builds a game from a diagram (see the module docs), for tests, perft and tools.
    pub fn from_diagram(text: &str) -> Result<Game, DiagramError> {
        let mut game = Game::new(Settings::timed());
        let mut keys: Vec<(usize, String, String)> = Vec::new();
        let mut rows_seen = [false; 8];
        let mut carried = None;
        let mut loose = None;
        let mut contested = None;
        let mut ball_markers = 0;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some((k, v)) = line.split_once(':') {
                keys.push((n, k.trim().to_string(), v.trim().to_string()));
                continue;
            }
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
            if rows_seen[rank as usize - 1] {
                return Err(err(n, format!("rank {rank} given twice")));
            }
            rows_seen[rank as usize - 1] = true;
            let tokens: Vec<&str> = tokens.collect();
            if tokens.len() != 8 {
                return Err(err(
                    n,
                    format!("rank {rank} has {} squares, expected 8", tokens.len()),
                ));
            }
            for (file, tok) in tokens.iter().enumerate() {
                let sq = Square((rank - 1) * 8 + file as u8);
                let put = |c: char, board: &mut super::board::Board, stack: bool| {
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
                        loose = Some(sq);
                        ball_markers += 1;
                    }
                    [c] => put(*c, &mut game.board, false)?,
                    [c, '*'] => {
                        put(*c, &mut game.board, false)?;
                        carried = Some(sq);
                        ball_markers += 1;
                    }
                    [c, 'o'] => {
                        put(*c, &mut game.board, false)?;
                        contested = Some(sq);
                        ball_markers += 1;
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
                        if game.board.pile_square().is_some() {
                            return Err(err(n, "only one pile: the one ball is in it"));
                        }
                        ball_markers += 1;
                        for c in inner {
                            put(*c, &mut game.board, true)?;
                        }
                        contested = Some(sq);
                    }
                    _ => return Err(err(n, format!("'{tok}' is not a square token"))),
                }
                if ball_markers > 1 {
                    return Err(err(n, format!("more than one ball (a second one on {sq})")));
                }
            }
        }
        for side in Side::ALL {
            for role in Role::ALL {
                if game.board.count(side, role) > role.sideline_count() {
                    return Err(err(
                        0,
                        format!("{side} has more {role}s than its sideline holds"),
                    ));
                }
            }
        }

        let mut phase_name = "action".to_string();
        let mut turn = None;
        let mut spot = None;
        let mut to_gain = None;
        let mut throw = None;
        let mut throw_stage_offense = false;
        let mut possession = None;
        let mut clock = None;
        let mut flags = (false, false, false);
        let mut thrown = false;
        let mut last_push = None;
        let mut turns = 0;
        let mut moved = Bitboard::EMPTY;
        for (n, k, v) in &keys {
            let n = *n;
            let bad = || err(n, format!("bad value '{v}' for '{k}'"));
            let side = || v.parse::<Side>().map_err(|_| bad());
            let square = || v.parse::<Square>().map_err(|_| bad());
            let flag = || yes_no(v).ok_or_else(bad);
            match k.as_str() {
                "offense" => game.offense = side()?,
                "phase" => phase_name = v.clone(),
                "turn" => turn = Some(side()?),
                "possession" => possession = Some(side()?),
                "down" => {
                    game.down = v
                        .parse()
                        .ok()
                        .filter(|d| (1..=4).contains(d))
                        .ok_or_else(bad)?;
                }
                "spot" => spot = Some(square()?),
                "to-gain" => {
                    let r: u8 = v
                        .parse()
                        .ok()
                        .filter(|r| (1..=8).contains(r))
                        .ok_or_else(bad)?;
                    to_gain = Some(Rank(r - 1));
                }
                "quarter" => {
                    game.quarter = v
                        .parse()
                        .ok()
                        .filter(|q| (1..=4).contains(q))
                        .ok_or_else(bad)?;
                }
                "score" => {
                    let (w, b) = pair(v).ok_or_else(bad)?;
                    game.score = [w, b];
                }
                "timeouts" => {
                    let (w, b) = pair(v).filter(|&(w, b)| w <= 3 && b <= 3).ok_or_else(bad)?;
                    game.timeouts = [w as u8, b as u8];
                }
                "plays" => game.plays = v.parse().map_err(|_| bad())?,
                "fouls-in-row" => {
                    let (w, b) = pair(v)
                        .filter(|&(w, b)| w < 256 && b < 256)
                        .ok_or_else(bad)?;
                    game.fouls_in_row = [w as u8, b as u8];
                }
                "untimed" => game.untimed = yes_no(v).ok_or_else(bad)?,
                "last-foul" => {
                    game.extend_period = match v.as_str() {
                        "defense" => true,
                        "none" => false,
                        _ => return Err(bad()),
                    }
                }
                "quarter-length" => {
                    game.settings.quarter = match v.as_str() {
                        "timed" => QuarterLength::Timed,
                        _ => {
                            QuarterLength::Plays(v.parse().ok().filter(|&p| p > 0).ok_or_else(bad)?)
                        }
                    }
                }
                "clock" => {
                    clock = Some(match v.as_str() {
                        "running" => true,
                        "stopped" => false,
                        _ => return Err(bad()),
                    })
                }
                "forward-pass" => flags.0 = flag()?,
                "crossed" => flags.1 = flag()?,
                "changed" => flags.2 = flag()?,
                "thrown" => thrown = flag()?,
                "turns" => turns = v.parse().ok().filter(|&t| t < 64).ok_or_else(bad)?,
                "last-push" => {
                    let parts: Vec<&str> = v.split_whitespace().collect();
                    let [a, b, side] = parts[..] else {
                        return Err(bad());
                    };
                    last_push = Some((
                        a.parse().map_err(|_| bad())?,
                        b.parse().map_err(|_| bad())?,
                        side.parse().map_err(|_| bad())?,
                    ));
                }
                "moved" => {
                    for s in v.split_whitespace() {
                        moved.insert(s.parse().map_err(|_| bad())?);
                    }
                }
                "throw" => {
                    let (a, b) = v.split_once('^').ok_or_else(bad)?;
                    let from: Square = a.parse().map_err(|_| bad())?;
                    let to: Square = b.parse().map_err(|_| bad())?;
                    throw = Some((from, to));
                }
                "throw-stage" => {
                    throw_stage_offense = match v.as_str() {
                        "defense" => false,
                        "offense" => true,
                        _ => return Err(bad()),
                    }
                }
                _ => return Err(err(n, format!("unknown key '{k}'"))),
            }
        }
        if let Some(r) = rows_seen.iter().position(|s| !s) {
            return Err(err(0, format!("rank {} is missing", r + 1)));
        }
        let offense = game.offense;
        let turn = turn.unwrap_or(match phase_name.as_str() {
            "reaction" => offense.other(),
            _ => offense,
        });
        let ball_square = carried.or(loose).or(contested);
        let pre_snap = matches!(phase_name.as_str(), "formation" | "motion" | "reaction");
        let spot = match (spot, ball_square) {
            (Some(s), _) => s,
            (None, Some(b)) if !pre_snap => b,
            _ => return Err(err(0, "give the ball spot with 'spot: <square>'")),
        };
        if spot.rank().is_end_zone() {
            return Err(err(0, format!("the ball spot {spot} is in an end zone")));
        }
        game.spot = spot;
        game.to_gain = to_gain.unwrap_or_else(|| line_to_gain(offense, spot));
        game.play = PlayState {
            moved,
            turns,
            possession: possession.unwrap_or(offense),
            changed: flags.2,
            forward_pass: flags.0,
            thrown: thrown || flags.0 || throw.is_some(),
            crossed: flags.1,
            last_push,
            fouls: Default::default(),
            after_change: 0,
            unheld: 0,
        };
        game.clock_running = clock.unwrap_or(!pre_snap);
        game.phase = match phase_name.as_str() {
            "formation" => Phase::Formation(turn),
            "motion" => Phase::Motion,
            "reaction" => Phase::Reaction,
            "action" => Phase::Action(turn),
            "contention" => Phase::Contention(turn),
            other => return Err(err(0, format!("unknown phase '{other}'"))),
        };
        let decider = match game.phase {
            Phase::Motion => offense,
            Phase::Reaction => offense.other(),
            _ => turn,
        };
        if decider != turn {
            return Err(err(
                0,
                format!("in the {phase_name} phase {decider} decides, not {turn}"),
            ));
        }
        if let QuarterLength::Plays(n) = game.settings.quarter {
            // Only an untimed down (R62) is played after the quarter's plays ran out.
            if game.plays >= n && !game.untimed {
                return Err(err(
                    0,
                    format!("{} plays already played in a quarter of {n}", game.plays),
                ));
            }
        }
        game.ball = match (game.phase, carried, loose, contested, throw) {
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
                let thrower = match possession {
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
                    defense_done: throw_stage_offense && !direct,
                })
            }
            (Phase::Contention(_), None, None, Some(c), None) => Ball::Contested(c),
            _ => {
                return Err(err(
                    0,
                    format!("the ball markers do not fit the phase '{phase_name}'"),
                ))
            }
        };
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
