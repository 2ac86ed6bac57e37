//! Every bot's books over every finished game, and, per game (Football Chess, Boyer's
//! Football: each has its own leaderboard), each bot's books and the per-pair sums the
//! leaderboard's ratings are fitted from. They are read from the store once, at the first request that
//! needs them, and then kept up to date by the workers as each game is stored: a read
//! never scans the games table, and the memory they take grows with the bots and the
//! pairs that met, not with the games stored.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::store::{Finishes, Store, StoreError};
use crate::rules::Rules;
use crate::series::rating::Meeting;

/// One bot's books over every finished game: what an organiser reads to see who is broken.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BotBooks {
    pub games: u64,
    pub points: f64,
    pub timeouts: u64,
    pub illegal: u64,
    /// Games it ended early, per verdict code.
    pub verdicts: BTreeMap<String, u64>,
}

/// The books of every game, and of all games together.
#[derive(Clone, Debug, Default)]
pub struct Books {
    /// Over every game: each bot's books (the bots' list shows them).
    pub all: Table,
    /// Per game.
    pub by_game: HashMap<Rules, Table>,
}

impl Books {
    /// Folds every finished game of the store in, one row at a time.
    pub fn read(store: &Store) -> Result<Books, StoreError> {
        Ok(Self::read_since(store, 0)?.0)
    }

    /// Folds the finished games numbered after finish `after`; the books and the last
    /// finish folded (`after` if none).
    fn read_since(store: &Store, after: i64) -> Result<(Books, i64), StoreError> {
        let mut books = Books::default();
        let last = books.fold_since(store, after)?;
        Ok((books, last))
    }

    /// Folds in the finished games numbered after finish `after`; the last finish folded.
    fn fold_since(&mut self, store: &Store, after: i64) -> Result<i64, StoreError> {
        let mut last = after;
        store.each_finished_since(after, |seq, game, white, black, result, conduct| {
            self.count(game, white, black, result, conduct);
            last = seq;
        })?;
        Ok(last)
    }

    /// Counts one finished game of the game named `game` (a name this Zebra does not know
    /// counts in the total only).
    pub fn count(&mut self, game: &str, white: i64, black: i64, result: &str, conduct: &str) {
        self.all.count(white, black, result, conduct);
        if let Ok(rules) = game.parse::<Rules>() {
            self.by_game
                .entry(rules)
                .or_default()
                .count(white, black, result, conduct);
        }
    }

    /// The books of one game (empty if none of its games has finished).
    pub fn game(&self, rules: Rules) -> Table {
        self.by_game.get(&rules).cloned().unwrap_or_default()
    }
}

/// The books of every bot and the sums of every pair's games (of one game, or of all).
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub bots: HashMap<i64, BotBooks>,
    /// Per pair (lower id, higher id): games and the lower id's points.
    pub meetings: HashMap<(i64, i64), (u64, f64)>,
    /// Finished games with a result.
    pub games: u64,
}

impl Table {
    /// Counts one finished game: White's and Black's bot ids, its result as stored and
    /// its conduct JSON. A game without a result (`*`) counts for nothing.
    pub fn count(&mut self, white: i64, black: i64, result: &str, conduct: &str) {
        let Some(Some(r)) = crate::record::tags::parse_result(result) else {
            return;
        };
        let white_points = match r {
            crate::rules::GameResult::Win(crate::rules::Side::White) => 1.0,
            crate::rules::GameResult::Win(crate::rules::Side::Black) => 0.0,
            crate::rules::GameResult::Draw => 0.5,
        };
        self.games += 1;
        let (pair, first_points) = if white <= black {
            ((white, black), white_points)
        } else {
            ((black, white), 1.0 - white_points)
        };
        let meeting = self.meetings.entry(pair).or_default();
        meeting.0 += 1;
        meeting.1 += first_points;
        let sides: [crate::series::conduct::GameConduct; 2] =
            serde_json::from_str(conduct).unwrap_or_default();
        for ((bot, points), c) in [(white, white_points), (black, 1.0 - white_points)]
            .into_iter()
            .zip(sides)
        {
            let b = self.bots.entry(bot).or_default();
            b.games += 1;
            b.points += points;
            b.timeouts += u64::from(c.timeouts);
            b.illegal += u64::from(c.illegal);
            if let Some(v) = c.verdict {
                *b.verdicts.entry(v).or_default() += 1;
            }
        }
    }

    /// The meetings between the bots of `index` (bot id → position), for
    /// `rating::fit_meetings`.
    pub(crate) fn meetings_among<'a>(
        &'a self,
        index: &'a HashMap<i64, usize>,
    ) -> impl Iterator<Item = Meeting> + 'a {
        self.meetings
            .iter()
            .filter_map(|(&(a, b), &(games, points))| {
                Some(Meeting {
                    first: *index.get(&a)?,
                    second: *index.get(&b)?,
                    games,
                    points,
                })
            })
    }
}

/// The daemon's books, once read, and the point of the store's finishes they reach.
///
/// Every read and catch-up happens while the caller holds the store: the books fold
/// exactly the finishes numbered after the last they folded (whichever daemon stored
/// them: several daemons may share a PostgreSQL store), so none is missed or counted
/// twice; after games were taken back (an exclusion, on any daemon) they are read afresh.
#[derive(Debug, Default)]
pub struct Pool {
    books: Mutex<Option<(Arc<Books>, Finishes)>>,
}

impl Pool {
    /// The books, if they have been read (as far as this daemon last looked).
    pub fn current(&self) -> Option<Arc<Books>> {
        self.lock().as_ref().map(|(b, _)| Arc::clone(b))
    }

    /// The books up to the store's last finish, read from `store` (which the caller holds)
    /// if they have not been, else brought up to date.
    pub fn read(&self, store: &Store) -> Result<Arc<Books>, StoreError> {
        let now = store.finishes()?;
        let mut books = self.lock();
        if let Some((b, seen)) = books.as_mut() {
            if seen.refolds == now.refolds {
                if seen.last < now.last {
                    // Readers holding the last books keep them; the next reader gets these.
                    seen.last = Arc::make_mut(b).fold_since(store, seen.last)?;
                }
                return Ok(Arc::clone(b));
            }
        }
        let (read, last) = Books::read_since(store, 0)?;
        let read = Arc::new(read);
        *books = Some((
            Arc::clone(&read),
            Finishes {
                last,
                refolds: now.refolds,
            },
        ));
        Ok(read)
    }

    /// Counts the games stored since the books were last brought up to date (the one the
    /// caller has just stored among them), still holding the store. Nothing to do while
    /// the books are unread: their first read will find them.
    pub fn catch_up(&self, store: &Store) -> Result<(), StoreError> {
        if self.lock().is_some() {
            self.read(store)?;
        }
        Ok(())
    }

    /// Forgets the books (games counted before were taken back): the next read folds the
    /// store again. Called holding the store, as [`Pool::count`] is.
    pub fn forget(&self) {
        *self.lock() = None;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(Arc<Books>, Finishes)>> {
        self.books.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conduct(verdict: Option<&str>) -> String {
        let black = crate::series::conduct::GameConduct {
            verdict: verdict.map(str::to_string),
            ..Default::default()
        };
        serde_json::to_string(&[crate::series::conduct::GameConduct::default(), black]).unwrap()
    }

    #[test]
    fn games_fold_into_one_sum_per_pair_whatever_the_colours() {
        let mut books = Table::default();
        books.count(1, 2, "1-0", &conduct(None));
        books.count(2, 1, "1-0", &conduct(None));
        books.count(2, 1, "1/2-1/2", &conduct(None));
        books.count(3, 1, "1-0", &conduct(Some("crashed")));
        books.count(3, 1, "*", &conduct(None));
        assert_eq!(books.games, 4);
        assert_eq!(books.meetings.len(), 2);
        // Bot 1 against 2: a win, a loss, a draw.
        assert_eq!(books.meetings[&(1, 2)], (3, 1.5));
        // Bot 1 lost as Black to 3 (and the unfinished game is not counted).
        assert_eq!(books.meetings[&(1, 3)], (1, 0.0));
        assert_eq!(books.bots[&1].games, 4);
        assert_eq!(books.bots[&1].points, 1.5);
        assert_eq!(books.bots[&1].verdicts["crashed"], 1);
        assert!(books.bots[&3].verdicts.is_empty());
    }

    #[test]
    fn each_game_has_its_own_table_and_the_total_counts_them_all() {
        let mut books = Books::default();
        books.count("football-chess", 1, 2, "1-0", "[]");
        books.count("boyer-football", 1, 2, "0-1", "[]");
        books.count("boyer-football", 2, 3, "1-0", "[]");
        assert_eq!(books.all.games, 3);
        assert_eq!(books.game(Rules::FootballChess).games, 1);
        let boyer = books.game(Rules::BoyerFootball);
        assert_eq!(boyer.games, 2);
        assert_eq!(boyer.meetings[&(1, 2)], (1, 0.0));
        assert!(!books.game(Rules::FootballChess).bots.contains_key(&3));
    }
}
