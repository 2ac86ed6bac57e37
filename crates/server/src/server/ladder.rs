//! Ladder mode: while `[ladder]` is configured, the daemon keeps games between its active
//! bots queued, one pair at a time (same seed, sides swapped), so that a competition runs by
//! itself and the leaderboard fills. Each pair is a two-game series owned by `ladder`, so it
//! is queued, played, counted, shown and rated exactly as any submitted series. Each game of
//! `[ladder] games` is a ladder of its own: its pairs are drawn from the bots admitted to
//! that game, rated on that game's leaderboard, and up to `games_at_once` of its games are
//! queued or running at once. A bot's earlier versions retire from a game's ladder once a
//! newer version plays that game.
//!
//! Pairing (a heuristic, written down here and in the book, docs/src/organisers/ladder.md): the active bot with the
//! fewest games (counting those queued) plays the active bot that costs least, where the cost
//! is the rating gap in Elo, plus 50 per pair the two have already played or have queued,
//! plus 5 per game the opponent has over it. Few games first, then close ratings, and no
//! pair repeated while another is as good.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::rules::Rules;

use super::config::Ladder;
use super::series::SeriesRequest;
use super::store::{BotState, StoreError};
use super::Daemon;

/// The owner of ladder series.
pub(crate) const OWNER: &str = "ladder";

/// A bot as the pairing sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub id: i64,
    /// Games finished and queued.
    pub games: u64,
    pub elo: f64,
}

/// The next pair, or `None` with fewer than two bots. `met(a, b)` is the number of pairs
/// the two have played or have queued.
pub(crate) fn next_pair(bots: &[Entrant], met: impl Fn(i64, i64) -> u64) -> Option<(i64, i64)> {
    let first = bots.iter().min_by_key(|b| (b.games, b.id))?;
    let cost = |b: &Entrant| {
        (first.elo - b.elo).abs()
            + 50.0 * met(first.id, b.id) as f64
            + 5.0 * b.games.saturating_sub(first.games) as f64
    };
    let second = bots
        .iter()
        .filter(|b| b.id != first.id)
        .min_by(|x, y| cost(x).total_cmp(&cost(y)).then(x.id.cmp(&y.id)))?;
    Some((first.id, second.id))
}

/// Keeps the ladder's games queued until the daemon stops.
pub async fn run(daemon: Arc<Daemon>) {
    let Some(ladder) = daemon.settings.ladder.clone() else {
        return;
    };
    while !daemon.stopping.is_cancelled() {
        let woken = daemon.wake.notified();
        // On a shared store one daemon schedules (another takes over if it dies).
        let lead = daemon.db(|s| s.lead(super::store::Role::Ladder)).await;
        for (game, tc) in ladder
            .games
            .iter()
            .filter(|_| lead.as_ref().is_ok_and(|l| *l))
        {
            match schedule(&daemon, &ladder, *game, tc).await {
                Ok(0) => {}
                Ok(_) => daemon.wake.notify_waiters(),
                Err(e) => tracing::error!("ladder of {game}: {e}"),
            }
        }
        tokio::select! {
            _ = woken => {}
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = daemon.stopping.cancelled() => {}
        }
    }
}

/// Queues pairs of `game` until the ladder's `games_at_once` games of it are queued or
/// running; returns the pairs queued.
async fn schedule(
    daemon: &Arc<Daemon>,
    ladder: &Ladder,
    game: Rules,
    tc: &str,
) -> Result<usize, StoreError> {
    let games_at_once = ladder.games_at_once;
    let pool = super::api::pool(daemon).await.map_err(|e| StoreError::Io {
        what: "read the games for",
        path: "the ladder".into(),
        source: std::io::Error::other(format!("{e:?}")),
    })?;
    let pool = pool.game(game);
    let tc = tc.to_string();
    let max_game_time = ladder.max_game_time.clone();
    daemon
        .db(move |s| {
            // The bots admitted to this game.
            let admitted: std::collections::HashSet<i64> = s
                .all_bot_games()?
                .into_iter()
                .filter(|g| g.game == game.name() && g.state == BotState::Active)
                .map(|g| g.bot)
                .collect();
            let bots = s.bots()?;
            let playing =
                |b: &super::store::BotRow| b.state == BotState::Active && admitted.contains(&b.id);
            // A version retires from this game's ladder once a newer version of its family
            // plays this game (a newer one entered in other games only does not retire it).
            let active: Vec<i64> = bots
                .iter()
                .filter(|b| {
                    playing(b)
                        && !bots
                            .iter()
                            .any(|n| n.family == b.family && n.version > b.version && playing(n))
                })
                .map(|b| b.id)
                .collect();
            if active.len() < 2 {
                return Ok(0);
            }
            // Ratings over every finished game, as the leaderboard has them.
            let index: HashMap<i64, usize> =
                active.iter().enumerate().map(|(i, id)| (*id, i)).collect();
            let rated =
                crate::series::rating::fit_meetings(active.len(), pool.meetings_among(&index));
            let mut games: HashMap<i64, u64> = HashMap::new();
            let mut met: HashMap<(i64, i64), u64> = HashMap::new();
            let pair = |a: i64, b: i64| (a.min(b), a.max(b));
            for (&(a, b), &(played, _)) in &pool.meetings {
                *games.entry(a).or_default() += played;
                *games.entry(b).or_default() += played;
                // Two games make a pair.
                *met.entry(pair(a, b)).or_default() += played.div_ceil(2);
            }
            // The ladder's pairs still queued or running count as played.
            let mut open = 0usize;
            for row in s.running_series()? {
                if row.owner != OWNER || row.game != game.name() {
                    continue;
                }
                let p = s.progress(row.id)?;
                open += (p.queued + p.leased) as usize;
                if let Ok(r) = serde_json::from_str::<SeriesRequest>(&row.spec) {
                    if let [a, b] = r.bots[..] {
                        *games.entry(a).or_default() += 2;
                        *games.entry(b).or_default() += 2;
                        *met.entry(pair(a, b)).or_default() += 1;
                    }
                }
            }
            let mut queued = 0;
            // Seeds count the ladder's series of every game: each pair has its own.
            let mut seed = s.count_series(OWNER)? + 1;
            while open < games_at_once {
                let entrants: Vec<Entrant> = active
                    .iter()
                    .zip(&rated)
                    .map(|(id, r)| Entrant {
                        id: *id,
                        games: games.get(id).copied().unwrap_or(0),
                        elo: r.elo,
                    })
                    .collect();
                let Some((a, b)) =
                    next_pair(&entrants, |a, b| met.get(&pair(a, b)).copied().unwrap_or(0))
                else {
                    break;
                };
                let request = SeriesRequest {
                    game: Some(game.name().to_string()),
                    bots: vec![a, b],
                    games: 2,
                    format: "round-robin".to_string(),
                    tc: Some(tc.clone()),
                    max_game_time: max_game_time.clone(),
                    seed,
                    sprt: None,
                    max_illegal: 3,
                    event: Some("Zebra ladder".to_string()),
                    // Football Chess: the built-in book, shuffled by the pair's own seed
                    // (each ladder pair starts from its own situation); other games start
                    // from their start.
                    situations: None,
                    situation_order: None,
                };
                let checked = request.check().map_err(|e| StoreError::Io {
                    what: "schedule",
                    path: "a ladder pair".into(),
                    source: std::io::Error::other(e.message),
                })?;
                s.submit_game(
                    None,
                    &checked.spec,
                    game,
                    OWNER,
                    &checked.games,
                    super::now_ms(),
                )?;
                *games.entry(a).or_default() += 2;
                *games.entry(b).or_default() += 2;
                *met.entry(pair(a, b)).or_default() += 1;
                open += 2;
                seed += 1;
                queued += 1;
            }
            Ok(queued)
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(id: i64, games: u64, elo: f64) -> Entrant {
        Entrant { id, games, elo }
    }

    #[test]
    fn the_bot_with_fewest_games_meets_the_closest_rating() {
        let bots = [
            bot(1, 10, 0.0),
            bot(2, 2, 100.0),
            bot(3, 10, 120.0),
            bot(4, 10, 400.0),
        ];
        assert_eq!(next_pair(&bots, |_, _| 0), Some((2, 3)));
        assert_eq!(next_pair(&bots[..1], |_, _| 0), None);
    }

    #[test]
    fn pairs_already_played_and_busy_opponents_cost_more() {
        let bots = [bot(1, 0, 0.0), bot(2, 0, 10.0), bot(3, 0, 40.0)];
        // 1 and 2 met twice: 3 (30 Elo further) is cheaper than 100 for the repeat.
        let met = |a: i64, b: i64| u64::from((a.min(b), a.max(b)) == (1, 2)) * 2;
        assert_eq!(next_pair(&bots, met), Some((1, 3)));
        // An opponent with 20 more games costs 100: the farther, idle bot is taken.
        let bots = [bot(1, 0, 0.0), bot(2, 20, 10.0), bot(3, 0, 60.0)];
        assert_eq!(next_pair(&bots, |_, _| 0), Some((1, 3)));
    }
}
