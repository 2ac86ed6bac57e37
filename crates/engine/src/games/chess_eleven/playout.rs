//! Chess Eleven through the engine's generic traits: the rule set the referee drives, a
//! seeded random player (random legal formations included), random games for the demo
//! and the benchmark, and perft from a position text.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{Clock, GameResult, Rules, Side};

use super::action::{Action, Formation};
use super::board::{Role, Sq};
use super::error::{ChessElevenError, NotationError};
use super::formation::{self, king_square, kings_pawn_square};
use super::game::{DecisionKind, Game, Phase, Settings};
use super::perft::{divide, perft};
use super::position::{Event, Position};

/// The `RulesVersion` of Chess Eleven records: the rules text the rulings follow.
pub(crate) const RULES_VERSION: &str = "2024";

impl crate::rules::ruleset::RuleSet for Game {
    type Action = Action;
    type Event = Event;
    type Error = ChessElevenError;
    type NotationError = NotationError;
    type DecisionKind = DecisionKind;
    type Settings = Settings;

    const RULES: Rules = Rules::ChessEleven;
    const VERSION: &'static str = RULES_VERSION;

    fn new_game(settings: &Settings) -> Game {
        Game::new(*settings)
    }
    fn to_decide(&self) -> Option<(Side, DecisionKind)> {
        self.decision()
    }
    fn legal(&self) -> Vec<Action> {
        Game::legal(self)
    }
    fn play(&mut self, action: &Action) -> Result<Vec<Event>, ChessElevenError> {
        Game::play(self, action)
    }
    /// The reaction clock is the one-decision clock: at a formation it plays the default
    /// formation (C48). The game clock is the half clock (C41).
    fn clock_expired(&mut self, clock: Clock) -> Result<Vec<Event>, ChessElevenError> {
        match (clock, self.decision()) {
            (Clock::Reaction, Some((side, DecisionKind::Formation))) => {
                self.play(&Action::Formation(formation::default_for(side)))
            }
            (Clock::Game, _) => self.half_clock_expired(),
            _ => Err(ChessElevenError::Illegal {
                action: format!("!{}", clock.code()),
                why: "only a formation's clock or the half clock runs out without losing"
                    .to_string(),
            }),
        }
    }
    fn result(&self) -> Option<GameResult> {
        Game::result(self)
    }
    fn points(&self, side: Side) -> u16 {
        self.score()[side.index()]
    }
}

/// A seeded random player: every legal action equally likely, and a random legal formation.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// An action for the decision due, or `None` when the game is over.
    pub fn choose(&mut self, game: &Game) -> Option<Action> {
        let (side, kind) = game.decision()?;
        if kind == DecisionKind::Formation {
            let substitute =
                matches!(game.phase(), Phase::Forming(f) if f.substitute == Some(side));
            return Some(Action::Formation(self.formation(side, substitute)));
        }
        game.legal().choose(&mut self.rng).cloned()
    }

    /// A random legal formation of `side` (with the substitute on the field, sometimes,
    /// when `substitute`).
    pub fn formation(&mut self, side: Side, substitute: bool) -> Formation {
        loop {
            if let Some(f) = self.try_formation(side, substitute) {
                if formation::check(&f, side, substitute).is_ok() {
                    return f;
                }
            }
        }
    }

    fn try_formation(&mut self, side: Side, substitute: bool) -> Option<Formation> {
        let mut placed = vec![
            (king_square(side), Role::King),
            (kings_pawn_square(side), Role::Pawn),
        ];
        let mut pool = vec![
            Role::Queen,
            Role::Rook,
            Role::Rook,
            Role::Bishop,
            Role::Bishop,
            Role::Knight,
            Role::Knight,
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
            Role::Pawn,
        ];
        pool.shuffle(&mut self.rng);
        let mut bench = pool[6];
        let mut roles: Vec<Role> = vec![Role::Pawn; 3];
        roles.extend_from_slice(&pool[..6]);
        if substitute && bench != Role::Pawn && self.rng.gen_bool(0.5) {
            roles[0] = bench;
            bench = Role::Pawn;
        }
        for role in roles {
            let free: Vec<Sq> = Sq::all()
                .filter(|s| {
                    let r = s.rank_of(side);
                    r <= 2
                        && (role != Role::Pawn || r >= 1)
                        && !placed.iter().any(|&(p, _)| p == *s)
                })
                .collect();
            placed.push((*free.choose(&mut self.rng)?, role));
        }
        Some(Formation::new(placed, bench))
    }
}

/// Random games start with formations; a game has halves of `plays` goes each.
impl crate::playout::Playout for Game {
    fn settings_of(plays: u16) -> Settings {
        Settings {
            halves: super::game::Halves::Goes(plays.max(1)),
            ..Settings::default()
        }
    }

    fn play_random(mut self, seed: u64, mut visit: impl FnMut(&Game, &Action)) -> Game {
        let mut player = RandomPlayer::new(seed);
        while let Some(action) = player.choose(&self) {
            visit(&self, &action);
            self.play(&action)
                .expect("the random player picks legal actions");
        }
        self
    }

    fn ends_block(event: &Event) -> bool {
        matches!(
            event,
            Event::GoEnded { .. }
                | Event::Corner { .. }
                | Event::RoundOver { .. }
                | Event::GameOver { .. }
        )
    }
}

/// The benchmark's game is the random game itself; move generation over every position of
/// 50 random games.
impl crate::playout::Benched for Game {
    const ACTIONS: &'static str = "actions";
    // Halves of the default 40 goes: `--plays-per-quarter` is Football Chess's.
    const QUARTERS: bool = false;
    type Position = Position;
    type List = Vec<Action>;

    fn bench_game(_settings: &Settings, seed: u64) -> u64 {
        use crate::playout::Playout;
        let mut actions = 0;
        let settings = Settings {
            seed,
            ..Settings::default()
        };
        Game::new(settings).play_random(seed, |_, _| actions += 1);
        actions
    }

    fn movegen_positions(seed: u64) -> Vec<Position> {
        use crate::playout::Playout;
        let mut positions = Vec::new();
        for i in 0..50 {
            Game::new(Settings::default()).play_random(seed.wrapping_add(i), |game, _| {
                if let Some(p) = game.position() {
                    positions.push(p.clone());
                }
            });
        }
        positions
    }

    fn list_legal(position: &Position, list: &mut Vec<Action>) -> usize {
        *list = position.legal();
        list.len()
    }
}

/// The kick-off after both default formations, the position perft counts from by default.
pub const KICK_OFF: &str = "2rkqr2/1bpppp2/2n2n2/8/8/2N2N2/1BPPPP2/2RKQR2 w spot - - 0-0 1.0 0";

/// Perft counts decisions from a position in play (C54); the built-in position is the
/// kick-off after the default formations.
impl crate::perft::Perft for Game {
    const MAX_DEPTH: u32 = 6;
    const DEFAULT_POSITION: Option<&'static str> = Some("kickoff");

    fn names() -> Vec<&'static str> {
        vec!["kickoff"]
    }

    fn named(name: &str) -> Option<Game> {
        (name == "kickoff").then(|| {
            Game::from_position(
                Settings::default(),
                KICK_OFF.parse().expect("the kick-off reads"),
            )
        })
    }

    fn from_text(text: &str) -> Result<Game, String> {
        let pos: Position = text
            .trim()
            .parse()
            .map_err(|e: ChessElevenError| e.to_string())?;
        Ok(Game::from_position(Settings::default(), pos))
    }

    fn perft(&self, depth: u32) -> u64 {
        self.position().map_or(0, |p| perft(p, depth))
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.position().map_or_else(Vec::new, |p| divide(p, depth))
    }
}
