//! Seeded random games of any game: what `zebra demo` shows, and what tests and
//! benchmarks play. Each game's random player lives in its folder behind [`Playout`];
//! [`demo`] turns a game into the lines a person reads: one per play (Football Chess) or
//! turn (Boyer's Football), headed as the records head them, with the notable events in
//! braces.

use crate::record::{tags, Recorded};

/// A game that seeded random players can play to its end.
pub trait Playout: Recorded {
    /// The settings of a game whose quarters last `plays` plays (a game without quarters
    /// ignores it).
    fn settings_of(plays: u16) -> Self::Settings;
    /// Plays from here to the end with the random player of `seed`, calling `visit` before
    /// every action; the game at its end.
    fn play_random(self, seed: u64, visit: impl FnMut(&Self, &Self::Action)) -> Self;
    /// Whether `event` ends a block of the demo (a play, a turn, the game). A play's header
    /// shows again after a timeout (both formations start over), but the play goes on.
    fn ends_block(event: &Self::Event) -> bool;
}

/// What `zebra bench engine|movegen` times of a game: random games played the way a search
/// plays them (no allocation per action), and the listing of legal actions alone. The
/// timing is the benchmark's; what is timed is the game's.
pub trait Benched: Playout + Clone {
    /// What the benchmark's line calls the game's actions ("actions", "sub-moves").
    const ACTIONS: &'static str = "actions";
    /// Whether the game has quarters whose length the benchmark sets (`--plays-per-quarter`).
    const QUARTERS: bool = true;
    /// A position whose legal actions the move-generation benchmark lists.
    type Position;
    /// The list they are written into, reused from one position to the next.
    type List: Default;
    /// Plays a random game from the start of `settings` to its end with the random player
    /// of `seed`, on the game's fastest path; the number of actions applied.
    fn bench_game(settings: &Self::Settings, seed: u64) -> u64;
    /// The positions the move-generation benchmark lists, from the seeded random games of
    /// seeds `seed`, `seed + 1`, ... (the same positions for the same seed).
    fn movegen_positions(seed: u64) -> Vec<Self::Position>;
    /// Lists the legal actions of `position` into `list`; how many there are.
    fn list_legal(position: &Self::Position, list: &mut Self::List) -> usize;
}

/// A seeded random game from the start, told line by line to `line`: each block of actions
/// under its header (`Q1 white ball, 1st & 10 at e5, 0-0:`, `turn 3, black, 1-0:`), the
/// notable events in braces; then the result line, `result 1-0 white 14 black 7 (seed 3)`.
pub fn demo<G: Playout>(seed: u64, plays: u16, mut line: impl FnMut(&str)) {
    let mut text = String::new();
    let mut replay = G::new_game(&G::settings_of(plays));
    let end = G::new_game(&G::settings_of(plays)).play_random(seed, |game, action| {
        if text.is_empty() {
            let header = game.header().unwrap_or_default();
            text = format!("{header}, {}:", tags::score_value(game));
        }
        text.push(' ');
        text.push_str(&action.to_string());
        let events = replay
            .play(action)
            .expect("the random player picks legal actions");
        for e in events.iter().filter(|e| G::notable(e)) {
            text.push_str(&format!(" {{{e}}}"));
        }
        if events.iter().any(G::ends_block) {
            line(&std::mem::take(&mut text));
        }
    });
    if !text.is_empty() {
        line(&text);
    }
    let result = end.result().map_or("*", |r| r.pgn());
    line(&format!(
        "result {result} white {} black {} (seed {seed})",
        end.points(crate::rules::Side::White),
        end.points(crate::rules::Side::Black)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::boyer::rules::Game as Boyer;
    use crate::games::football_chess::Game;

    fn lines<G: Playout>(seed: u64) -> Vec<String> {
        let mut out = Vec::new();
        demo::<G>(seed, 4, |l| out.push(l.to_string()));
        out
    }

    #[test]
    fn a_demo_is_headed_blocks_then_the_result_and_the_same_for_the_same_seed() {
        let fc = lines::<Game>(3);
        assert!(
            fc[0].starts_with("Q1 white ball, 1st & 10 at e5, 0-0: "),
            "{}",
            fc[0]
        );
        assert!(fc.last().unwrap().starts_with("result "), "{fc:?}");
        assert!(fc.last().unwrap().ends_with("(seed 3)"), "{fc:?}");
        assert_eq!(fc, lines::<Game>(3));
        assert_ne!(fc, lines::<Game>(4));
        let boyer = lines::<Boyer>(3);
        assert!(boyer[0].starts_with("turn 1, white, 0-0: "), "{}", boyer[0]);
        assert!(boyer[1].starts_with("turn 2, black, "), "{}", boyer[1]);
        assert!(boyer.last().unwrap().ends_with("(seed 3)"), "{boyer:?}");
    }
}
