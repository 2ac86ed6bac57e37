//! `zebra-search-bot`: alpha-beta search over the action phase, the house opponent.
//!
//! Method. A play is won or lost in the action phase: turns alternate, each a move or a
//! throw, until the carrier is downed, scores or the ball changes hands. The bot searches
//! that phase with alpha-beta minimax by iterative deepening (depth 1, 2, ... up to the
//! `depth` option), from the game its request's `diagram` describes. A line ends where the
//! play ends (a formation, a flag to decide, the game over) or at the depth limit, and is
//! valued by the sparring bot's evaluation (bots/sparring_bot.rs): the score, what the play
//! as it stands is worth to the series (down, distance, a turnover, a safety, a touchdown,
//! each penalty option applied to a copy), and the threats the team to move has at once (an
//! open lane into the end zone, a receiver there nobody covers, a defender that can land on
//! the carrier). Each iteration searches the root actions best-first by the previous
//! iteration's values, and inner nodes try their children best-first by that evaluation,
//! so cut-offs come early. The sparring bot looks two turns ahead (its action, the best
//! reply); at the default depth 3 this bot also sees its own answer to the reply, which is
//! where tackles, handoffs and interceptions are decided.
//!
//! Repetition. The evaluation is flat where nothing can be won within the horizon (a
//! carrier safe behind blockers that cannot yet get through, a defense with everything
//! covered), and a flat search settles its ties the same way every turn: the bot used to
//! move one piece back and forth until the 64-turn whistle (R13) ended the play, also with
//! the ball on the last play of a tied game. So the bot remembers the positions its own
//! moves made in the current play, and a root action that makes one of them again costs a
//! little for each time it did ([`REPEAT`]): among moves of nearly equal value a new
//! position wins, which changes what the next search sees and lets pieces find a way
//! through. A clear difference in value still decides.
//!
//! Outside the action phase (formations, motion, reaction, penalty choices) it plays the
//! sparring bot's football: formations shaped by the opponent, motion judged by the first
//! move after the snap, the penalty option worth most. Those decisions have no sequence of
//! turns to search.
//!
//! Time. Every action-phase turn is bounded by the reaction clock (R17). A search visits
//! at most `nodes` positions and stops at `think` percent of the request's `deadline_ms`
//! (less a few milliseconds for the reply to travel), whichever comes first, and answers
//! the best action of the deepest iteration it finished (depth 1 takes well under a
//! millisecond). If even that was cut short it answers the first legal action: never
//! nothing, never an illegal action.
//!
//! Determinism. Ties go to the action listed first, and only a finished iteration counts,
//! so a search ended by its node budget gives the same answer for the same request, the
//! same earlier requests of the play (the positions it remembers) and the same options on
//! any machine; only the clock can end it differently, which at the defaults
//! ([`DEFAULTS`]) happens on this project's machine only when other work loads it (two
//! runs of the same 100-game match then differ in a few games). With `threads` above 1
//! the root's actions are shared among threads, each with an equal part of the nodes and
//! its own bounds: the same value is found, and a tie may go to another action of equal
//! value.
//!
//! Options (declared in `ready`, set per game in `game_start`, or by flags): `depth`
//! (1–8, default 3), `nodes` (1,000–100,000,000, default 80,000), `think` (percent of the
//! deadline, 5–90, default 60), `threads` (1–8, default 1). Flags: `--name NAME` (default
//! `search`), `--depth`, `--nodes`, `--think`, `--threads`, and `--trace` (each search's
//! depth, nodes and time on stderr).

use std::time::{Duration, Instant};

use clap::Parser;

use zebra_engine::botkit::{self, Bot, BotInfo, GameStart, Request};
use zebra_engine::games::football_chess::wire::ToBot;
use zebra_engine::protocol::{OptionDecl, OptionKind};
use zebra_engine::rules::{
    Action, ActionList, Ball, Board, DecisionKind, Event, Game, Side, Square,
};

#[path = "sparring_bot.rs"]
#[allow(dead_code)]
pub mod sparring;

#[derive(Parser)]
#[command(
    name = "zebra-search-bot",
    about = "A Football Chess bot that searches the action phase (alpha-beta)"
)]
struct Args {
    /// The name sent in `ready`.
    #[arg(long, default_value = "search")]
    name: String,
    /// Deepest iteration, in turns (1-8).
    #[arg(long, default_value_t = DEFAULTS.depth, value_parser = clap::value_parser!(u8).range(1..=8))]
    depth: u8,
    /// Nodes one decision's search may visit (1000-100000000).
    #[arg(long, default_value_t = DEFAULTS.nodes, value_parser = clap::value_parser!(u64).range(1000..=100_000_000))]
    nodes: u64,
    /// Percent of each request's deadline the search may use (5-90).
    #[arg(long, default_value_t = DEFAULTS.think, value_parser = clap::value_parser!(u8).range(5..=90))]
    think: u8,
    /// Threads sharing the root's actions (1-8).
    #[arg(long, default_value_t = DEFAULTS.threads, value_parser = clap::value_parser!(u8).range(1..=8))]
    threads: u8,
    /// Print each search's depth, nodes and time to stderr.
    #[arg(long)]
    trace: bool,
}

/// Milliseconds kept back from every deadline for the reply to reach the referee.
const REPLY_MARGIN_MS: u64 = 3;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 64;
/// What a holding flag is assumed to cost at the root (diagrams do not keep the last push,
/// so the engine cannot flag it there: see [`SearchBot::observe`]).
const HOLDING: i64 = 150;
/// What a root action costs for each time this play already reached, after one of the
/// bot's own moves, the position it leads to (see the module documentation, "Repetition").
/// A tenth of a point, about two and a half chasers near the carrier: enough to part moves
/// the evaluation values alike, too little to give up anything it can tell apart. It grows
/// with each repetition, so even a cycle of slightly better moves ends.
const REPEAT: i64 = 10;

/// The settings of one search, from the options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub depth: u8,
    pub nodes: u64,
    pub think: u8,
    pub threads: u8,
}

/// The defaults: depth 3 (the bot's action, the reply, its answer to that) finishes within
/// 80,000 nodes in all but the widest positions (there depth 2 answers), and 80,000 nodes
/// take about 20 ms on this project's machine, inside 60% of a 50 ms reaction clock: at
/// those clocks the budget, not the clock, ends a search, so the bot is deterministic.
pub const DEFAULTS: Settings = Settings {
    depth: 3,
    nodes: 80_000,
    think: 60,
    threads: 1,
};

pub struct SearchBot {
    name: String,
    defaults: Settings,
    settings: Settings,
    /// The pre-snap and penalty decisions are the sparring bot's.
    sparring: sparring::SparringBot,
    /// Print each search's depth, nodes and time to stderr.
    trace: bool,
    /// The opponent's last push (pusher's square, where our piece went): pushing it back is
    /// holding (R39).
    last_push: Option<(Square, Square)>,
    /// The positions (pieces and ball) the bot's own moves made in the current play.
    made: Vec<(Board, Ball)>,
    /// The play turn of the bot's last action-phase decision: a decision at the same or an
    /// earlier turn belongs to a new play, and `made` starts over.
    last_turn: Option<u8>,
}

/// One thread's search: the side it plays for, when to stop, and whether it had to.
struct Searcher {
    me: Side,
    stop_at: Instant,
    /// Nodes this search may visit: the deterministic limit.
    node_limit: u64,
    nodes: u64,
    cut_short: bool,
}

impl Searcher {
    fn new(me: Side, stop_at: Instant, node_limit: u64) -> Searcher {
        Searcher {
            me,
            stop_at,
            node_limit,
            nodes: 0,
            cut_short: false,
        }
    }

    fn out_of_time(&mut self) -> bool {
        if !self.cut_short
            && (self.nodes > self.node_limit
                || (self.nodes % CLOCK_EVERY == 0 && Instant::now() >= self.stop_at))
        {
            self.cut_short = true;
        }
        self.cut_short
    }

    /// The minimax value of `game` for `me`, `depth` more turns deep, within the window
    /// (`alpha`, `beta`); meaningless once `cut_short`.
    fn value(&mut self, game: &Game, depth: u8, mut alpha: i64, mut beta: i64) -> i64 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let Some(decision) = game.decision() else {
            return sparring::evaluate(game, self.me);
        };
        if depth == 0 || !in_play(decision.kind) {
            return sparring::evaluate(game, self.me);
        }
        let maximize = decision.side == self.me;
        let children = self.ordered_children(game, maximize, depth > 1);
        if children.is_empty() {
            return sparring::evaluate(game, self.me);
        }
        let mut best = if maximize { i64::MIN } else { i64::MAX };
        for (_, child) in &children {
            let v = self.value(child, depth - 1, alpha, beta);
            if self.cut_short {
                return 0;
            }
            if maximize {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Every legal action applied, best first for the side to move by the static
    /// evaluation when `sort` (worth it only above the last ply).
    fn ordered_children(&self, game: &Game, maximize: bool, sort: bool) -> Vec<(i64, Game)> {
        let mut list = ActionList::new();
        game.legal_actions(&mut list);
        let mut children: Vec<(i64, Game)> = Vec::with_capacity(list.len());
        for action in &list {
            let mut child = game.clone();
            if child.apply(action).is_ok() {
                let v = if sort {
                    sparring::evaluate(&child, self.me)
                } else {
                    0
                };
                children.push((v, child));
            }
        }
        if sort {
            // Stable: equal values keep the listed order.
            if maximize {
                children.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
            } else {
                children.sort_by_key(|&(v, _)| v);
            }
        }
        children
    }
}

/// Decisions searched: the turns of the action phase and contention for the ball.
fn in_play(kind: DecisionKind) -> bool {
    matches!(kind, DecisionKind::Move | DecisionKind::Contention)
}

/// One root action: its index in the request's list, the game after it, its malus and the
/// value the last finished iteration gave it.
struct RootAction {
    index: usize,
    after: Game,
    malus: i64,
    value: i64,
}

/// Searches the root actions `roots` (best first) `depth` turns deep with one window;
/// the values, or `None` when the time ran out first.
fn search_share(
    me: Side,
    stop_at: Instant,
    node_limit: u64,
    roots: &[&RootAction],
    depth: u8,
) -> (Option<Vec<i64>>, u64) {
    let mut searcher = Searcher::new(me, stop_at, node_limit);
    let mut alpha = i64::MIN;
    let mut values = Vec::with_capacity(roots.len());
    for root in roots {
        let v = searcher.value(&root.after, depth - 1, alpha, i64::MAX) - root.malus;
        if searcher.cut_short {
            return (None, searcher.nodes);
        }
        // A move that does not beat the best so far was searched against its value: what
        // came back is a bound (at most the best), so it ranks below the best, never in a
        // tie with it that the listed order would settle.
        if v > alpha {
            alpha = v;
            values.push(v);
        } else {
            values.push(v.min(alpha - 1));
        }
    }
    (Some(values), searcher.nodes)
}

impl SearchBot {
    pub fn new(name: &str, defaults: Settings, trace: bool) -> SearchBot {
        SearchBot {
            trace,
            name: name.to_string(),
            defaults,
            settings: defaults,
            sparring: sparring::SparringBot::new(name),
            last_push: None,
            made: Vec::new(),
            last_turn: None,
        }
    }

    /// How often this play's own moves already made the position of `after`.
    fn repeats(&self, after: &Game) -> i64 {
        let board = after.board();
        let ball = after.ball();
        self.made
            .iter()
            .filter(|(b, l)| *l == ball && b == board)
            .count() as i64
    }

    /// Notes the decision about to be made at `game`'s play turn: a new play forgets the
    /// positions of the last one.
    fn start_decision(&mut self, game: &Game) {
        let turn = game.play_turns();
        if self.last_turn.is_some_and(|t| turn <= t) {
            self.made.clear();
        }
        self.last_turn = Some(turn);
    }

    /// Remembers the position the answer `text` makes from `game`.
    fn remember(&mut self, game: &Game, text: &str) {
        let Ok(action) = text.parse::<Action>() else {
            return;
        };
        let mut after = game.clone();
        if after.apply(&action).is_ok() {
            self.made.push((after.board().clone(), after.ball()));
        }
    }

    /// The best legal action by iterative deepening, as text from `legal`.
    fn search(&self, game: &Game, me: Side, legal: &[String], deadline_ms: u64) -> Option<String> {
        let started = Instant::now();
        let budget = (deadline_ms * u64::from(self.settings.think) / 100)
            .saturating_sub(REPLY_MARGIN_MS)
            .max(1);
        let stop_at = started + Duration::from_millis(budget);
        let mut roots: Vec<RootAction> = Vec::new();
        for (index, text) in legal.iter().enumerate() {
            let Ok(action) = text.parse::<Action>() else {
                continue;
            };
            let mut after = game.clone();
            if after.apply(&action).is_err() {
                continue;
            }
            let holding = match (action, self.last_push) {
                (Action::Move { from, to, .. }, Some((pusher, pushed))) => {
                    from == pushed && to == pusher
                }
                _ => false,
            };
            let malus = if holding { HOLDING } else { 0 } + REPEAT * self.repeats(&after);
            roots.push(RootAction {
                index,
                value: 0,
                after,
                malus,
            });
        }
        if roots.is_empty() {
            return None;
        }
        let mut finished = 0;
        let mut nodes_left = self.settings.nodes;
        for depth in 1..=self.settings.depth {
            let Some(values) = self.iterate(me, stop_at, &mut nodes_left, &roots, depth) else {
                break;
            };
            for (root, v) in roots.iter_mut().zip(values) {
                root.value = v;
            }
            // Best first for the next iteration; equal values keep the listed order.
            roots.sort_by_key(|r| (std::cmp::Reverse(r.value), r.index));
            finished = depth;
            if roots.len() == 1 {
                break;
            }
        }
        if self.trace {
            eprintln!(
                "search: {} actions, depth {finished} of {}, {} nodes, {} ms",
                roots.len(),
                self.settings.depth,
                self.settings.nodes - nodes_left,
                started.elapsed().as_millis()
            );
        }
        if finished == 0 {
            return legal.first().cloned();
        }
        Some(legal[roots[0].index].clone())
    }

    /// One iteration over every root action (in their current order), on `threads`
    /// threads, visiting at most `nodes_left` nodes (less what it visits); `None` when the
    /// nodes or the time ran out before it finished.
    fn iterate(
        &self,
        me: Side,
        stop_at: Instant,
        nodes_left: &mut u64,
        roots: &[RootAction],
        depth: u8,
    ) -> Option<Vec<i64>> {
        let threads = usize::from(self.settings.threads).clamp(1, roots.len());
        if threads == 1 {
            let all: Vec<&RootAction> = roots.iter().collect();
            let (values, nodes) = search_share(me, stop_at, *nodes_left, &all, depth);
            *nodes_left = nodes_left.saturating_sub(nodes);
            return values;
        }
        // Each thread gets an equal part of the nodes left: what one share visits does not
        // depend on how fast another runs.
        let part = *nodes_left / threads as u64;
        // Thread t takes roots t, t + threads, ...: each share keeps the best-first order.
        let shares: Vec<Vec<&RootAction>> = (0..threads)
            .map(|t| roots.iter().skip(t).step_by(threads).collect())
            .collect();
        let results: Vec<(Option<Vec<i64>>, u64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = shares
                .iter()
                .map(|share| scope.spawn(move || search_share(me, stop_at, part, share, depth)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or((None, part)))
                .collect()
        });
        let used: u64 = results.iter().map(|(_, nodes)| nodes).sum();
        *nodes_left = nodes_left.saturating_sub(used);
        let mut values = vec![0; roots.len()];
        for (t, (result, _)) in results.into_iter().enumerate() {
            for (k, v) in result?.into_iter().enumerate() {
                values[t + k * threads] = v;
            }
        }
        Some(values)
    }
}

/// An integer option from `game_start`, if set and within `range` (else the default holds).
fn option_in(start: &GameStart, name: &str, range: std::ops::RangeInclusive<u64>) -> Option<u64> {
    start
        .options
        .get(name)?
        .as_u64()
        .filter(|v| range.contains(v))
}

fn int_option(name: &str, default: u64, min: i64, max: i64) -> OptionDecl {
    OptionDecl {
        name: name.to_string(),
        kind: OptionKind::Int,
        default: default.into(),
        min: Some(min),
        max: Some(max),
        choices: Vec::new(),
    }
}

impl Bot for SearchBot {
    fn info(&self) -> BotInfo {
        BotInfo {
            name: self.name.clone(),
            author: "zebra".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            options: vec![
                int_option("depth", self.defaults.depth.into(), 1, 8),
                int_option("nodes", self.defaults.nodes, 1000, 100_000_000),
                int_option("think", self.defaults.think.into(), 5, 90),
                int_option("threads", self.defaults.threads.into(), 1, 8),
            ],
        }
    }

    fn game_start(&mut self, start: &GameStart) {
        let small =
            |name, range, default: u8| option_in(start, name, range).map_or(default, |v| v as u8);
        self.settings = Settings {
            depth: small("depth", 1..=8, self.defaults.depth),
            nodes: option_in(start, "nodes", 1000..=100_000_000).unwrap_or(self.defaults.nodes),
            think: small("think", 5..=90, self.defaults.think),
            threads: small("threads", 1..=8, self.defaults.threads),
        };
        self.last_push = None;
        self.made.clear();
        self.last_turn = None;
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

    fn decide(&mut self, req: &Request) -> String {
        if !in_play(req.decision) {
            return self.sparring.decide(req);
        }
        let Some(game) = req.game() else {
            return botkit::fallback(req);
        };
        self.start_decision(&game);
        let answer = self
            .search(&game, req.side, req.legal_list(), req.deadline_ms)
            .unwrap_or_else(|| botkit::fallback(req));
        self.remember(&game, &answer);
        answer
    }
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let mut bot = SearchBot::new(
        &args.name,
        Settings {
            depth: args.depth,
            nodes: args.nodes,
            think: args.think,
            threads: args.threads,
        },
        args.trace,
    );
    botkit::run(&mut bot)
}
