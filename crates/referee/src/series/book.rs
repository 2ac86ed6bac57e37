//! Books of start situations for a series (`zebra match --situations FILE|builtin|none`).
//!
//! Deterministic bots that always start from the opening drive play the same two games
//! whatever the seed; a book gives every pair of a series its own start situation
//! ([`crate::rules::Situation`]), played once with each bot on each side, as opening books
//! do for chess match runners. Pair `k` of every encounter takes the same situation (so
//! resuming, any concurrency and sharding by pair stay exact): with `sequential` order the
//! book's `k`th line (cycling), with `random` order the `k`th of a shuffle of the book
//! seeded by the series' seed.
//!
//! A book's text is one situation per line (`protocol/SITUATIONS.md`); blank lines and
//! lines starting with `#` are ignored. The series keeps the book's lines in `series.json`,
//! so that `--resume` plays the same situations even if the file (or this Zebra's built-in
//! book) changed since.
//!
//! The built-in book (`protocol/situations/builtin.txt`) is made by [`generate_builtin`]
//! and checked against it by a test; how it spans the game is said there.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::rules::{File, Rank, Rules, Side, Situation, Square};
use zebra_engine::seam::GameStart;

/// The built-in book.
pub(crate) const BUILTIN: &str = include_str!("../../../../protocol/situations/builtin.txt");

/// How pairs take their situations from a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SituationOrder {
    /// Pair k takes the book's k-th situation (cycling).
    Sequential,
    /// Pair k takes the k-th of the book shuffled with the series' seed.
    Random,
}

impl SituationOrder {
    pub fn parse(text: &str) -> Option<SituationOrder> {
        match text {
            "sequential" => Some(SituationOrder::Sequential),
            "random" => Some(SituationOrder::Random),
            _ => None,
        }
    }
}

impl std::fmt::Display for SituationOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SituationOrder::Sequential => "sequential",
            SituationOrder::Random => "random",
        })
    }
}

/// A book line that is not a start of its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("line {line}: {error}")]
    Line { line: usize, error: String },
    #[error("the book holds no start (one per line; # starts a comment)")]
    Empty,
}

/// Every start of a book's text for the game `rules`, in order.
pub(crate) fn parse_book(rules: Rules, text: &str) -> Result<Vec<GameStart>, BookError> {
    let mut book = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        book.push(
            GameStart::read(rules, line).map_err(|error| BookError::Line { line: k + 1, error })?,
        );
    }
    if book.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(book)
}

/// The book a series plays, as `series.json` keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    /// Where it came from: `builtin` or the file as given.
    pub source: String,
    pub order: SituationOrder,
    /// Its situations, as text.
    pub situations: Vec<String>,
}

impl Book {
    /// The book `--situations` names for a series of `rules`: `none` (no book), `builtin`
    /// (Football Chess's), or a file of the game's starts.
    pub fn load(rules: Rules, spec: &str, order: SituationOrder) -> Result<Option<Book>, String> {
        let builtin =
            crate::with_rules!(rules, G => <G as zebra_engine::seam::Refereed>::SITUATIONS);
        let text = match spec {
            "none" => return Ok(None),
            "builtin" if builtin => BUILTIN.to_string(),
            "builtin" => {
                return Err(format!(
                    "--situations builtin: {}",
                    super::spec::SpecError::Situations(rules)
                ))
            }
            path => std::fs::read_to_string(path)
                .map_err(|e| format!("--situations {path}: cannot read it: {e}"))?,
        };
        let book = parse_book(rules, &text).map_err(|e| format!("--situations {spec}: {e}"))?;
        Ok(Some(Book {
            source: spec.to_string(),
            order,
            situations: book.iter().map(GameStart::to_string).collect(),
        }))
    }

    /// The starts, parsed as starts of `rules` (a series file edited by hand may hold a
    /// bad one).
    pub fn parsed(&self, rules: Rules) -> Result<Vec<GameStart>, BookError> {
        parse_book(rules, &self.situations.join("\n"))
    }
}

/// Which of `count` situations pair `round` (1-based, within its encounter) plays.
pub fn pick(order: SituationOrder, count: usize, round: u32, seed: u64) -> usize {
    let k = (round.max(1) as usize - 1) % count.max(1);
    match order {
        SituationOrder::Sequential => k,
        SituationOrder::Random => {
            let mut shuffled: Vec<usize> = (0..count).collect();
            shuffled.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b00c));
            shuffled[k]
        }
    }
}

/// The square at `file` (0-based) on the offense-relative rank `rank` (1 = its own end
/// zone, 8 = the goal).
fn square(offense: Side, file: u8, rank: u8) -> Square {
    let index = match offense {
        Side::White => rank - 1,
        Side::Black => 8 - rank,
    };
    Square::new(
        File::new(file).expect("a file"),
        Rank::new(index).expect("a rank"),
    )
}

/// A situation from offense-relative figures: `rank` 2..=7, `ranks_to_gain` ahead (the goal
/// line when it reaches it), the offense's and the defense's points.
#[allow(clippy::too_many_arguments)]
fn situation(
    quarter: u8,
    left: u8,
    offense: Side,
    file: u8,
    rank: u8,
    down: u8,
    ranks_to_gain: u8,
    points: [u16; 2],
    timeouts: [u8; 2],
) -> Situation {
    let to_gain_rank = (rank + ranks_to_gain).min(8);
    let to_gain = square(offense, file, to_gain_rank).rank();
    let (score, timeouts) = match offense {
        Side::White => (points, timeouts),
        Side::Black => ([points[1], points[0]], [timeouts[1], timeouts[0]]),
    };
    Situation::new(
        quarter,
        left,
        score,
        offense,
        square(offense, file, rank),
        down,
        to_gain,
        timeouts,
    )
    .expect("the generator makes situations that can occur")
}

/// A score reached with touchdowns (7) and safeties (2).
fn points(rng: &mut ChaCha8Rng, most_touchdowns: u16) -> u16 {
    7 * rng.gen_range(0..=most_touchdowns) + 2 * u16::from(rng.gen_bool(0.15))
}

/// The two teams' points with the offense ahead by `lead` or more (negative: behind).
/// The game part of a generated situation, drawn already: quarter, share left, offense,
/// score.
struct Drive {
    quarter: u8,
    left: u8,
    offense: Side,
    score: [u16; 2],
}

impl Drive {
    /// A situation of this drive at a random series: the spot's rank, the down and the
    /// ranks to gain from these ranges, then the spot's file (b–g) and both teams'
    /// timeouts, drawn in that order (the built-in book depends on the order).
    fn draw(
        &self,
        rng: &mut ChaCha8Rng,
        ranks: std::ops::RangeInclusive<u8>,
        downs: std::ops::RangeInclusive<u8>,
        gains: std::ops::RangeInclusive<u8>,
    ) -> Situation {
        let rank = rng.gen_range(ranks);
        let down = rng.gen_range(downs);
        let gain = rng.gen_range(gains);
        let file = rng.gen_range(1..=6_u8);
        let timeouts = [rng.gen_range(0..=3_u8), rng.gen_range(0..=3_u8)];
        situation(
            self.quarter,
            self.left,
            self.offense,
            file,
            rank,
            down,
            gain,
            self.score,
            timeouts,
        )
    }
}

fn scores_with(rng: &mut ChaCha8Rng, quarter: u8, lead: std::ops::RangeInclusive<i32>) -> [u16; 2] {
    loop {
        let most = u16::from(quarter);
        let (a, b) = (points(rng, most), points(rng, most));
        if lead.contains(&(i32::from(a) - i32::from(b))) {
            return [a, b];
        }
    }
}

/// The built-in book's text. Made by a seeded generator (ChaCha8, seed 2026) in six
/// parts, each part for both offenses:
/// 1. the field: every offense-relative rank 2–7 × every down × short (5 yards), medium
///    (10) and long (15–20) distance, goal to go where the distance reaches the goal line,
///    with a random quarter, share left, close score and timeouts;
/// 2. goal to go: ranks 6 and 7, every down, three files;
/// 3. backed up: the ball on the offense's own rank 2 (inside its 10), downs 1–3, 10 and
///    15 yards to go;
/// 4. two-minute drills: quarter 2 or 4, 3–15% left, the offense behind by 1–8 or level;
/// 5. late leads to protect: quarter 4, 5–25% left, the offense ahead by 1–10;
/// 6. anything that can occur, uniformly, to round the book up to 520.
pub fn generate_builtin() -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut out = vec![
        "# Zebra's built-in book of start situations (protocol/SITUATIONS.md).".to_string(),
        "# Made by zebra::series::book::generate_builtin (seeded; see its documentation):"
            .to_string(),
        "# the field by rank, down and distance; goal to go; backed up; two-minute drills;"
            .to_string(),
        "# late leads to protect; the rest uniform. Regenerate: ZEBRA_BLESS=1 cargo test book"
            .to_string(),
    ];
    let mut book: Vec<Situation> = Vec::new();
    let file = |rng: &mut ChaCha8Rng| rng.gen_range(1..=6_u8);
    let timeouts = |rng: &mut ChaCha8Rng| [rng.gen_range(0..=3_u8), rng.gen_range(0..=3_u8)];
    for offense in Side::ALL {
        // 1. The field.
        for rank in 2..=7_u8 {
            for down in 1..=4_u8 {
                for ranks in [1, 2, rng.gen_range(3..=4_u8)] {
                    let quarter = rng.gen_range(1..=4_u8);
                    let left = rng.gen_range(10..=100_u8);
                    let score = scores_with(&mut rng, quarter, -8..=8);
                    let f = file(&mut rng);
                    let t = timeouts(&mut rng);
                    book.push(situation(
                        quarter, left, offense, f, rank, down, ranks, score, t,
                    ));
                }
            }
        }
        // 2. Goal to go.
        for rank in 6..=7_u8 {
            for down in 1..=4_u8 {
                for f in [1, 3, 5_u8] {
                    let quarter = rng.gen_range(1..=4_u8);
                    let left = rng.gen_range(5..=100_u8);
                    let score = scores_with(&mut rng, quarter, -10..=10);
                    let t = timeouts(&mut rng);
                    book.push(situation(
                        quarter,
                        left,
                        offense,
                        f,
                        rank,
                        down,
                        8 - rank,
                        score,
                        t,
                    ));
                }
            }
        }
        // 3. Backed up at the own goal line.
        for down in 1..=3_u8 {
            for ranks in [2, 3_u8] {
                for _ in 0..3 {
                    let quarter = rng.gen_range(1..=4_u8);
                    let left = rng.gen_range(10..=100_u8);
                    let score = scores_with(&mut rng, quarter, -8..=8);
                    let f = file(&mut rng);
                    let t = timeouts(&mut rng);
                    book.push(situation(
                        quarter, left, offense, f, 2, down, ranks, score, t,
                    ));
                }
            }
        }
        // 4. Two-minute drills.
        for _ in 0..60 {
            let quarter = if rng.gen_bool(0.5) { 2 } else { 4 };
            let left = rng.gen_range(3..=15_u8);
            let score = scores_with(&mut rng, quarter, -8..=0);
            let drive = Drive {
                quarter,
                left,
                offense,
                score,
            };
            book.push(drive.draw(&mut rng, 2..=5, 1..=3, 1..=2));
        }
        // 5. Late leads to protect.
        for _ in 0..40 {
            let left = rng.gen_range(5..=25_u8);
            let score = scores_with(&mut rng, 4, 1..=10);
            let drive = Drive {
                quarter: 4,
                left,
                offense,
                score,
            };
            book.push(drive.draw(&mut rng, 2..=7, 1..=3, 1..=3));
        }
    }
    // 6. The rest, uniformly.
    while book.len() < 520 {
        let offense = if rng.gen_bool(0.5) {
            Side::White
        } else {
            Side::Black
        };
        let quarter = rng.gen_range(1..=4_u8);
        let left = rng.gen_range(1..=100_u8);
        let score = scores_with(&mut rng, quarter, -21..=21);
        let drive = Drive {
            quarter,
            left,
            offense,
            score,
        };
        book.push(drive.draw(&mut rng, 2..=7, 1..=4, 1..=4));
    }
    out.extend(book.iter().map(Situation::to_string));
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_book_is_what_its_generator_makes_and_spans_the_game() {
        let made = generate_builtin();
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../protocol/situations/builtin.txt"
        );
        if std::env::var_os("ZEBRA_BLESS").is_some() {
            std::fs::write(path, &made).unwrap();
            return;
        }
        assert_eq!(
            BUILTIN, made,
            "regenerate with ZEBRA_BLESS=1 cargo test book"
        );
        let book: Vec<Situation> = parse_book(Rules::FootballChess, BUILTIN)
            .unwrap()
            .iter()
            .map(|s| *s.get::<crate::rules::Game>())
            .collect();
        assert!(book.len() >= 500, "{}", book.len());
        let distinct: std::collections::HashSet<_> = book.iter().collect();
        assert!(distinct.len() >= 500, "{} distinct", distinct.len());
        for offense in Side::ALL {
            let mine: Vec<&Situation> = book.iter().filter(|s| s.offense() == offense).collect();
            // Every rank of the field and every down.
            for rank in 2..=7 {
                let on = |s: &&&Situation| {
                    let r = s.spot().rank().number();
                    (if offense == Side::White { r } else { 9 - r }) == rank
                };
                for down in 1..=4 {
                    assert!(
                        mine.iter().filter(on).any(|s| s.down() == down),
                        "{offense} rank {rank} down {down}"
                    );
                }
            }
            assert!(mine.iter().any(|s| s.is_goal_to_go()));
            assert!(mine
                .iter()
                .any(|s| !s.is_goal_to_go() && s.distance_yards() <= 5));
            assert!(mine
                .iter()
                .any(|s| s.distance_yards() >= 15 && !s.is_goal_to_go()));
            let late = |s: &&&Situation| s.quarter() == 4 && s.left_percent() <= 15;
            let lead = |s: &Situation| {
                let [w, b] = s.score();
                let (o, d) = if offense == Side::White {
                    (w, b)
                } else {
                    (b, w)
                };
                i32::from(o) - i32::from(d)
            };
            assert!(mine
                .iter()
                .filter(late)
                .any(|s| (-8..=0).contains(&lead(s))));
            assert!(mine.iter().filter(late).any(|s| lead(s) > 0));
        }
    }

    #[test]
    fn a_bad_line_is_named_by_its_number_and_field() {
        let text = "# a book\n\nquarter=1 left=100% score=0-0 offense=white spot=e5 down=1 distance=10 timeouts=3-3\nquarter=1 left=100% score=0-0 offense=white spot=e5 down=5 distance=10 timeouts=3-3\n";
        let err = parse_book(Rules::FootballChess, text)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("line 4: field down:"), "{err}");
        assert_eq!(
            parse_book(Rules::FootballChess, "# nothing\n\n"),
            Err(BookError::Empty)
        );
    }

    #[test]
    fn pairs_pick_the_same_situation_whatever_else_changes() {
        // Sequential cycles; random is a permutation of the book, fixed by the seed.
        assert_eq!(pick(SituationOrder::Sequential, 3, 1, 9), 0);
        assert_eq!(pick(SituationOrder::Sequential, 3, 4, 9), 0);
        let picks: std::collections::BTreeSet<usize> = (1..=10)
            .map(|r| pick(SituationOrder::Random, 10, r, 7))
            .collect();
        assert_eq!(picks.len(), 10);
        assert_eq!(
            pick(SituationOrder::Random, 10, 3, 7),
            pick(SituationOrder::Random, 10, 3, 7)
        );
        let other: Vec<usize> = (1..=10)
            .map(|r| pick(SituationOrder::Random, 10, r, 8))
            .collect();
        let this: Vec<usize> = (1..=10)
            .map(|r| pick(SituationOrder::Random, 10, r, 7))
            .collect();
        assert_ne!(this, other, "another seed shuffles otherwise");
    }
}
