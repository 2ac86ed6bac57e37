//! Following a game from version 2's requests: they carry what changed (the record's
//! entries since the bot's previous request), not the game, so a bot keeps its own game and
//! applies them. [`Follower`] is that game for a bot on this engine: set up from
//! `game_start` exactly as the referee sets it up, moved on by each request's `since`, and
//! able to fill in what a version-1 request would have carried (`state`, `legal`).

use crate::protocol::ToBot;
use crate::record::Entry;
use crate::seam::{Asked, GameClock, GameSetup, GameStart, Parts, Refereed};

/// A game kept in step with the referee's.
pub struct Follower<G: Refereed> {
    game: G,
    clocks: G::Clocks,
}

impl<G: Refereed> Follower<G> {
    /// The game a `game_start` announces: its clock as `tc` text, its seed, its situation.
    pub fn start(tc: &str, seed: u64, situation: Option<&str>) -> Result<Follower<G>, String> {
        let mut setup = GameSetup::of(G::RULES);
        setup.clock =
            GameClock::read(G::RULES, tc).map_err(|e| format!("the clock '{tc}': {e}"))?;
        setup.seed = seed;
        setup.start = situation
            .map(|s| GameStart::read(G::RULES, s))
            .transpose()
            .map_err(|e| format!("the situation: {e}"))?;
        let (game, _, clocks) = G::set_up(&setup);
        Ok(Follower { game, clocks })
    }

    /// Applies a request's `since`, in order; the events of each entry. On an entry that
    /// does not apply, the reason (the entries before it stay applied).
    pub fn apply(&mut self, since: &[String]) -> Result<Vec<Vec<G::Event>>, String> {
        let mut all = Vec::with_capacity(since.len());
        for token in since {
            let events = Entry::from_token(token)
                .and_then(|entry| entry.apply_to(&mut self.game))
                .map_err(|e| format!("'{token}' does not apply: {e}"))?;
            self.game.follow(&mut self.clocks, &events);
            all.push(events);
        }
        Ok(all)
    }

    /// The game as it stands.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// What a version-1 request for the decision due now would say of the game (its clocks
    /// as the follower counts them, which do not run: take the request's own).
    pub fn asked(&self) -> Option<Asked<G::Wire>> {
        self.game.to_decide()?;
        let budget = self.game.budget(&self.clocks);
        Some(self.game.asked(&self.clocks, &budget, Parts::ALL))
    }

    /// Fills in the `state` and `legal` a version-2 `request` left out; `false` when the
    /// followed game is out of step: no decision is due in it, or the request carries a
    /// state (the first of a play, or asked for) that is not the followed game's (another
    /// edition of the rules, a bug).
    pub fn fill(&self, request: &mut ToBot<G::Wire>) -> bool {
        let ToBot::Request { state, legal, .. } = request else {
            return true;
        };
        let Some(asked) = self.asked() else {
            return false;
        };
        if state.is_some() && *state != asked.state {
            return false;
        }
        if state.is_none() {
            *state = asked.state;
        }
        if legal.is_none() {
            *legal = asked.legal;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    //! The property of version 2: over seeded games of every game, with clock expiries
    //! among the actions, a bot that keeps its game from the requests' changes holds at
    //! every request exactly the state and legal list a version-1 request carries. The
    //! requests go through the wire (written as lines, read back) as a bot reads them.

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde_json::Value;

    use super::*;
    use crate::protocol::to_line;
    use crate::rules::Clock;
    use crate::seam::envelope::{self, Carry};

    /// One seeded game of `G` under `tc`: the referee's side writes version-2 requests from
    /// its record; each side's follower keeps up from them alone. Returns the decisions
    /// checked.
    fn follow_a_game<G: Refereed + Clone>(
        tc: &str,
        seed: u64,
        mut choose: impl FnMut(&G, &mut ChaCha8Rng) -> Option<G::Action>,
    ) -> usize {
        let mut setup = GameSetup::of(G::RULES);
        setup.clock = GameClock::read(G::RULES, tc).unwrap();
        setup.seed = seed;
        let (mut game, _, mut clocks) = G::set_up(&setup);
        let mut followers = [
            Follower::<G>::start(tc, seed, None).unwrap(),
            Follower::<G>::start(tc, seed, None).unwrap(),
        ];
        let mut told: [Option<usize>; 2] = [None, None];
        let mut entries: Vec<Entry> = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xf011);
        let mut checked = 0;
        for id in 1..3000u64 {
            let Some((side, _)) = game.to_decide() else {
                break;
            };
            let budget = game.budget(&clocks);
            let whole = envelope::request(&game, id, side, &clocks, &budget, Carry::whole());
            let i = side.index();
            let from = told[i].replace(entries.len());
            let carry = Carry {
                since: Some(
                    entries[from.unwrap_or(0)..]
                        .iter()
                        .map(|e| e.to_string())
                        .collect(),
                ),
                // Sometimes the state, as on the first request of a play; never the list.
                state: from.is_none() || rng.gen_bool(0.1),
                legal: false,
            };
            let line = to_line(&envelope::request(&game, id, side, &clocks, &budget, carry));
            let mut read: ToBot<G::Wire> = serde_json::from_str(&line).unwrap();
            let ToBot::Request { since, .. } = &mut read else {
                panic!("{line}")
            };
            let since = since.take().expect("version 2 carries the changes");
            followers[i]
                .apply(&since)
                .unwrap_or_else(|e| panic!("seed {seed} id {id}: {e}"));
            assert!(
                followers[i].fill(&mut read),
                "seed {seed} id {id}: no decision due"
            );
            let parts = |msg: &ToBot<G::Wire>| -> (Value, Value) {
                let ToBot::Request { state, legal, .. } = msg else {
                    panic!()
                };
                (
                    serde_json::to_value(state).unwrap(),
                    serde_json::to_value(legal).unwrap(),
                )
            };
            assert_eq!(
                parts(&read),
                parts(&whole),
                "seed {seed}, request {id}, {side}"
            );
            checked += 1;
            // The decision: now and then the decision's clock runs out instead.
            let expire = if rng.gen_bool(0.03) {
                [Clock::Play, Clock::Reaction]
                    .into_iter()
                    .find(|&c| game.clone().clock_expired(c).is_ok())
            } else {
                None
            };
            let (entry, events) = match expire {
                Some(clock) => (Entry::Expiry { clock }, game.clock_expired(clock).unwrap()),
                None => {
                    let Some(action) = choose(&game, &mut rng) else {
                        break;
                    };
                    let events = game.play(&action).unwrap();
                    (Entry::action(G::as_recorded(&action, &events)), events)
                }
            };
            game.follow(&mut clocks, &events);
            entries.push(entry);
        }
        checked
    }

    #[test]
    fn a_follower_holds_what_version_1_carries_in_football_chess() {
        use crate::games::football_chess::playout::RandomPlayer;
        use crate::rules::{ActionList, Game};
        let mut checked = 0;
        for seed in 1..=12 {
            let mut player = RandomPlayer::new(seed);
            let mut list = ActionList::new();
            checked +=
                follow_a_game::<Game>("plays=3", seed, |game, _| player.choose(game, &mut list));
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn a_follower_holds_what_version_1_carries_in_boyers_football() {
        use crate::games::boyer::rules::Game;
        use rand::seq::SliceRandom;
        let mut checked = 0;
        for seed in 1..=12 {
            checked += follow_a_game::<Game>("turn=1s", seed, |game, rng| {
                game.legal().choose(rng).copied()
            });
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_follower_holds_what_version_1_carries_in_chess_eleven() {
        use crate::games::chess_eleven::playout::RandomPlayer;
        use crate::games::chess_eleven::Game;
        let mut checked = 0;
        for seed in 1..=12 {
            let mut player = RandomPlayer::new(seed);
            checked += follow_a_game::<Game>("turns=6", seed, |game, _| player.choose(game));
        }
        assert!(checked > 200, "{checked}");
    }

    /// The wire's `Payloads` are what the followers fill: a formation's `legal` (null in
    /// Football Chess) reads back as present.
    #[test]
    fn a_null_legal_list_reads_back_as_present() {
        use crate::games::football_chess::wire::FootballChessWire;
        let line = r#"{"type":"request","id":1,"decision":"formation","side":"white","since":[],"clocks":{"game":null,"play":{"owner":"white","remaining_ms":1,"running":true},"reaction":{"owner":"black","remaining_ms":1,"running":false}},"deadline_ms":1,"legal":null}"#;
        let read: ToBot<FootballChessWire> = serde_json::from_str(line).unwrap();
        let ToBot::Request { legal, state, .. } = read else {
            panic!()
        };
        assert_eq!(legal, Some(None));
        assert_eq!(state, None);
    }
}
