//! Statistics of a head-to-head series between two bots, A and B.
//!
//! A series is played in pairs: both games of a pair use the same seed, and
//! the bots swap sides between them. That cancels most of the luck of the
//! opening position, so besides the usual win/draw/loss counts we also keep
//! the *pentanomial* counts: how many pairs ended with A scoring 0, ½, 1, 1½
//! or 2 points.
//!
//! From those counts this module derives what a series summary shows: the
//! score, the draw ratio, the Elo difference with a 95% confidence interval
//! (per game and per pair), the likelihood of superiority, and a sequential
//! probability ratio test (SPRT) that says when the series has seen enough.
//!
//! **Everything is from bot A's point of view**: a positive Elo difference,
//! a likelihood of superiority above one half and an accepted H1 all mean
//! that A is the stronger bot. Use [`Score::flip`] to look from B's side.
//!
//! The code is pure arithmetic on counts: no I/O, no randomness and no
//! panics, and a [`Report`] never holds NaN or an infinity, because it is
//! written out as JSON, which has neither.
//!
//! Formulas used, each cited where it is implemented:
//! - the logistic Elo model, expected score 1 / (1 + 10^(−D/400)) for an
//!   Elo difference D (the logistic form of Arpad Elo's rating system, as
//!   in *The Rating of Chessplayers, Past and Present*, used by most
//!   rating lists);
//! - a normal-approximation confidence interval on the mean score (see
//!   "Elo intervals" below);
//! - the likelihood of superiority as the normal approximation of the sign
//!   test on decisive games;
//! - Michel Van den Bergh's normal approximation of the generalized SPRT
//!   log-likelihood ratio, from his notes on the GSPRT for engine testing,
//!   over pair or game scores;
//! - Abraham Wald's stopping bounds (*Sequential Tests of Statistical
//!   Hypotheses*, Annals of Mathematical Statistics, 1945);
//! - a series for the error function from Abramowitz & Stegun, *Handbook of
//!   Mathematical Functions*, formula 7.1.6.
//!
//! ## Elo intervals
//!
//! [`Report::elo`] and [`Report::elo_pentanomial`] use the normal
//! approximation on the mean score, m ± [`Z_95`] · √(v / N), with v the
//! per-sample variance (per game, or per pair for the pentanomial estimate,
//! which is what makes the pair estimate account for the correlation of the
//! two games of a pair), and convert both ends with [`elo_from_score`].
//!
//! At the edges: a mean score of exactly 0 or 1 has an infinite Elo
//! difference, so the whole estimate is `None`. Otherwise an interval end
//! can still fall at or beyond 0 or 1 (nine wins and one loss:
//! 0.9 ± 0.186). So every end is kept at least ε from the edge, with ε half
//! the finest score step the data can show: a step is 1/(2N) for N games
//! (one draw) and 1/(4N) for N pairs, so ε = 1/(4N) per game and 1/(8N)
//! per pair. That keeps every end finite and strictly beyond the point
//! estimate (which is at least a whole step from the edge), and lets it
//! move outward as the series grows, instead of printing a fixed sentinel
//! that looks like a measurement.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The two-sided 95% quantile of the standard normal distribution,
/// Φ⁻¹(0.975). Written to full double precision rather than the usual
/// 1.96 so that intervals agree with statistics packages to the last digit.
pub(crate) const Z_95: f64 = 1.959_963_984_540_054;

/// The type I and type II error rates an SPRT uses when the settings do not
/// name them: 5% each, the customary choice for engine testing.
pub(crate) const DEFAULT_ERROR_RATE: f64 = 0.05;

/// How much made-up data the SPRT adds before estimating the mean and the
/// variance of the scores: the weight of one sample, spread evenly over
/// the outcome buckets (1/5 of a pair per pentanomial bucket, 1/3 of a game
/// per trinomial bucket).
///
/// Why: the GSPRT approximation divides by the sample variance, which is
/// zero when every sample is the same (A won every pair). Some pseudo-count
/// is needed to keep the ratio finite. A *tiny* one (say 10⁻³ per bucket)
/// makes the variance tiny as well, and then a single won pair already
/// "proves" `elo1 = 10` (LLR 3.8 against a bound of 2.94): between equal
/// bots that seldom draw, H1 would be accepted a quarter of the time after
/// two games. One sample's worth makes a perfect run count
/// about as much as the exact likelihood ratio says it should (for
/// `elo0 = 0, elo1 = 10` a first won pair gives an LLR of 0.0279, where
/// the exact generalized likelihood ratio, N · ln(s1/s0), gives 0.0284),
/// still lets a long perfect run cross the bound (13 won pairs in a row
/// for that test), and its effect on real data fades like 1/N. It is
/// added always, not only when a bucket is empty, so that the LLR does not
/// jump when the last empty bucket fills.
pub(crate) const SPRT_PRIOR_SAMPLES: f64 = 1.0;

/// The result of one game for bot A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// A won.
    Win,
    /// Neither bot won.
    Draw,
    /// A lost (B won).
    Loss,
}

impl Score {
    /// A's points for the game: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// The same game from B's point of view, so that a result recorded for
    /// the bot that moved first can be turned into A's result.
    pub(crate) fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    /// Points in halves, so that pair totals can be bucketed with exact
    /// integer arithmetic instead of comparing floats.
    fn half_points(self) -> u8 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }
}

/// Counts over a series, from bot A's point of view.
///
/// The game counts and the pair counts are kept independently: a series
/// cut short can have a game whose partner was never played, and that game
/// belongs in W/D/L but in no pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// Pairs by A's total points in the pair: index 0 = 0 points (LL),
    /// 1 = 0.5 (LD), 2 = 1 (WL or DD), 3 = 1.5 (WD), 4 = 2 (WW).
    pub pentanomial: [u64; 5],
}

impl Tally {
    /// Counts one game in W/D/L, and nowhere else: pairs are counted by
    /// [`Tally::add_pair`] once both of their games are known.
    ///
    /// Counts saturate at `u64::MAX` instead of overflowing, so that no
    /// input can make this panic.
    pub(crate) fn add_game(&mut self, s: Score) {
        let count = match s {
            Score::Win => &mut self.wins,
            Score::Draw => &mut self.draws,
            Score::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// Counts one complete pair in its pentanomial bucket, and nowhere else:
    /// the caller also adds each of the two games with [`Tally::add_game`]
    /// (usually as each game ends, before its partner is over).
    ///
    /// The order of the two games does not matter; both are A's results.
    pub(crate) fn add_pair(&mut self, first: Score, second: Score) {
        let bucket = usize::from(first.half_points() + second.half_points());
        let count = &mut self.pentanomial[bucket];
        *count = count.saturating_add(1);
    }

    /// This tally and `other` counted as one (saturating).
    pub fn plus(&self, other: &Tally) -> Tally {
        let mut sum = *self;
        sum.wins = sum.wins.saturating_add(other.wins);
        sum.draws = sum.draws.saturating_add(other.draws);
        sum.losses = sum.losses.saturating_add(other.losses);
        for (mine, theirs) in sum.pentanomial.iter_mut().zip(other.pentanomial) {
            *mine = mine.saturating_add(theirs);
        }
        sum
    }

    /// Games counted, over all results.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pentanomial
            .iter()
            .fold(0u64, |sum, &count| sum.saturating_add(count))
    }

    /// A's points: one per win and one half per draw.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Everything a summary shows; `sprt` is evaluated when given.
    ///
    /// Choices:
    /// - the SPRT runs over the pentanomial counts as soon as there is one
    ///   complete pair, because pairs share a seed and their two games are
    ///   correlated; treating them as independent games would misjudge the
    ///   variance. Without any pair (a series of single games) it runs over
    ///   W/D/L instead;
    /// - with no samples at all the LLR is 0 and the decision is
    ///   [`SprtDecision::Continue`];
    /// - settings that [`SprtParams::validate`] rejects (possible only by
    ///   building or deserializing the struct directly, since
    ///   [`SprtParams::parse`] validates) give `sprt: None` rather than
    ///   infinite bounds or a NaN LLR in the report.
    pub fn report(&self, sprt: Option<&SprtParams>) -> Report {
        let games = self.games();
        let points = self.points();
        let trinomial = self.trinomial_counts();
        let pentanomial = self.pentanomial_counts();

        let (score, draw_ratio) = if games == 0 {
            (None, None)
        } else {
            let n = games as f64;
            (Some(points / n), Some(self.draws as f64 / n))
        };

        let elo = Moments::of(&trinomial, &TRINOMIAL_SCORES, 0.0)
            .and_then(|m| elo_estimate(m.mean, m.variance, m.samples, 4.0));
        let elo_pentanomial = Moments::of(&pentanomial, &PENTANOMIAL_SCORES, 0.0)
            .and_then(|m| elo_estimate(m.mean, m.variance, m.samples, 8.0));

        let sprt = sprt
            .filter(|params| params.validate().is_ok())
            .map(|params| {
                let llr = if self.pairs() > 0 {
                    llr_pentanomial(&self.pentanomial, params.elo0, params.elo1)
                } else {
                    llr_trinomial(self.wins, self.draws, self.losses, params.elo0, params.elo1)
                };
                // Cannot happen with validated settings; kept so that the
                // report's promise of no NaN holds even then.
                let llr = if llr.is_nan() { 0.0 } else { llr };
                SprtReport::new(*params, llr)
            });

        Report {
            games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            points,
            score,
            draw_ratio,
            elo,
            elo_pentanomial,
            los: los(self.wins, self.losses),
            pentanomial: self.pentanomial,
            sprt,
        }
    }

    /// W/D/L as weights in the order of [`TRINOMIAL_SCORES`].
    fn trinomial_counts(&self) -> [f64; 3] {
        [self.losses as f64, self.draws as f64, self.wins as f64]
    }

    /// Pair counts as weights in the order of [`PENTANOMIAL_SCORES`].
    fn pentanomial_counts(&self) -> [f64; 5] {
        self.pentanomial.map(|count| count as f64)
    }
}

/// An Elo difference (A − B) with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
}

/// Everything a series summary shows, ready to print or to write as JSON.
///
/// Quantities that do not exist for the data (a score without games, an
/// Elo difference for a perfect score) are `None`, never NaN or infinite.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Games counted.
    pub games: u64,
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
    /// A's points.
    pub points: f64,
    /// A's points per game; `None` with no games.
    pub score: Option<f64>,
    /// The share of games drawn; `None` with no games.
    pub draw_ratio: Option<f64>,
    /// Trinomial (per game) Elo difference A − B with a 95% interval;
    /// `None` with no games, and `None` when A won or lost every game (the
    /// logistic model puts that at ±infinity). See the module documentation
    /// ("Elo intervals") for how interval ends beyond a perfect score are
    /// clamped.
    pub elo: Option<EloEstimate>,
    /// The same from the pentanomial pair counts, whose variance accounts
    /// for the two games of a pair being correlated; `None` without complete
    /// pairs, or when every pair was won (lost) outright.
    pub elo_pentanomial: Option<EloEstimate>,
    /// Likelihood of superiority of A, from wins and losses; `None` when
    /// there is no decisive game.
    pub los: Option<f64>,
    /// The pentanomial pair counts, as in [`Tally::pentanomial`].
    pub pentanomial: [u64; 5],
    /// The SPRT state, when settings were given (and valid).
    pub sprt: Option<SprtReport>,
}

/// The settings of a sequential probability ratio test: which two Elo
/// differences to decide between, and with what error rates.
///
/// H0 says A is `elo0` stronger than B, H1 says `elo1` stronger; the test
/// stops when the data favour one of them strongly enough. `alpha` is the
/// chance of accepting H1 when H0 is true, `beta` the chance of accepting
/// H0 when H1 is true.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtParams {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative hypothesis; above `elo0`.
    pub elo1: f64,
    /// The type I error rate, in (0, 0.5).
    pub alpha: f64,
    /// The type II error rate, in (0, 0.5).
    pub beta: f64,
}

impl SprtParams {
    /// Checked construction: the same rules as [`SprtParams::parse`].
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtParams, SprtParamsError> {
        let params = SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        };
        params.validate()?;
        Ok(params)
    }

    /// Checks the settings: every value finite, `alpha` and `beta` strictly
    /// between 0 and 0.5, and `elo1 > elo0`.
    ///
    /// Why 0.5: an error rate of one half or more means a coin flip would
    /// do as well, and 0 would put a bound at infinity so that the test
    /// could never stop on that side.
    pub fn validate(&self) -> Result<(), SprtParamsError> {
        for (key, value) in [
            ("elo0", self.elo0),
            ("elo1", self.elo1),
            ("alpha", self.alpha),
            ("beta", self.beta),
        ] {
            if !value.is_finite() {
                return Err(SprtParamsError::NonFinite {
                    key,
                    value: value.to_string(),
                });
            }
        }
        for (key, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtParamsError::ErrorRateOutOfRange { key, value });
            }
        }
        if self.elo1 <= self.elo0 {
            return Err(SprtParamsError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        Ok(())
    }

    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05`: comma-separated
    /// `key=value` items in any order, with spaces allowed around keys and
    /// values and empty items ignored (so a trailing comma is harmless).
    /// `elo0` and `elo1` are required; `alpha` and `beta` default to
    /// [`DEFAULT_ERROR_RATE`]. Keys are matched without regard to case.
    /// Each key may appear once, since a repeated key is more likely a
    /// typo than a wish for the last value to win.
    pub fn parse(text: &str) -> Result<SprtParams, SprtParamsError> {
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SprtParamsError::NotKeyValue {
                    item: item.to_string(),
                });
            };
            let key = key.trim();
            let value = value.trim();
            let index = PARAM_KEYS
                .iter()
                .position(|known| known.eq_ignore_ascii_case(key))
                .ok_or_else(|| SprtParamsError::UnknownKey {
                    key: key.to_string(),
                })?;
            let name = PARAM_KEYS[index];
            if values[index].is_some() {
                return Err(SprtParamsError::DuplicateKey { key: name });
            }
            let number: f64 = value.parse().map_err(|_| SprtParamsError::NotANumber {
                key: name,
                value: value.to_string(),
            })?;
            if !number.is_finite() {
                return Err(SprtParamsError::NonFinite {
                    key: name,
                    value: value.to_string(),
                });
            }
            values[index] = Some(number);
        }
        let [elo0, elo1, alpha, beta] = values;
        let elo0 = elo0.ok_or(SprtParamsError::Missing { key: "elo0" })?;
        let elo1 = elo1.ok_or(SprtParamsError::Missing { key: "elo1" })?;
        SprtParams::new(
            elo0,
            elo1,
            alpha.unwrap_or(DEFAULT_ERROR_RATE),
            beta.unwrap_or(DEFAULT_ERROR_RATE),
        )
    }

    /// Wald's lower stopping bound, ln(β / (1 − α)): an LLR at or below it
    /// accepts H0. (A. Wald, *Sequential Tests of Statistical Hypotheses*,
    /// 1945; the bounds keep the error rates at most about α and β.)
    pub(crate) fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper stopping bound, ln((1 − β) / α): an LLR at or above it
    /// accepts H1.
    pub(crate) fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// The keys [`SprtParams::parse`] knows, in the order of its value slots.
const PARAM_KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];

/// Prints the canonical form that [`SprtParams::parse`] reads back to the
/// same values (Rust prints the shortest decimal that round-trips a float).
impl fmt::Display for SprtParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// Same as [`SprtParams::parse`], so that the settings can be a
/// command-line value parsed with `str::parse`.
impl FromStr for SprtParams {
    type Err = SprtParamsError;

    fn from_str(text: &str) -> Result<SprtParams, SprtParamsError> {
        SprtParams::parse(text)
    }
}

/// Why SPRT settings were refused. Each message names the problem and says
/// what to write instead, since it is shown to the person who typed them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtParamsError {
    /// An item without `=`.
    #[error("`{item}` is not a key=value item; write the SPRT settings like elo0=0,elo1=5,alpha=0.05,beta=0.05")]
    NotKeyValue {
        /// The item as written.
        item: String,
    },
    /// A key other than elo0, elo1, alpha, beta.
    #[error(
        "unknown SPRT key `{key}`; the keys are elo0, elo1, alpha and beta, as in elo0=0,elo1=5"
    )]
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// The same key twice.
    #[error("{key} is given more than once; give each of elo0, elo1, alpha and beta at most once")]
    DuplicateKey {
        /// The repeated key.
        key: &'static str,
    },
    /// A value that does not read as a number.
    #[error(
        "{key} must be a number, got `{value}`; write a decimal such as {key}=5 or {key}=0.05"
    )]
    NotANumber {
        /// The key whose value is wrong.
        key: &'static str,
        /// The value as written.
        value: String,
    },
    /// A value that is infinite or NaN.
    #[error(
        "{key} must be a finite number, got {value}; write a decimal such as {key}=5 or {key}=0.05"
    )]
    NonFinite {
        /// The key whose value is wrong.
        key: &'static str,
        /// The value as written (or printed, when built with
        /// [`SprtParams::new`]).
        value: String,
    },
    /// elo0 or elo1 not given.
    #[error("{key} is required; write the SPRT settings like elo0=0,elo1=5 (alpha and beta default to 0.05)")]
    Missing {
        /// The missing key.
        key: &'static str,
    },
    /// elo1 not above elo0.
    #[error(
        "elo1 must be greater than elo0, got elo0={elo0} and elo1={elo1}; write e.g. elo0=0,elo1=5"
    )]
    EloOrder {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
    },
    /// alpha or beta outside (0, 0.5).
    #[error("{key} must be between 0 and 0.5 (exclusive), got {value}; write e.g. {key}=0.05")]
    ErrorRateOutOfRange {
        /// `alpha` or `beta`.
        key: &'static str,
        /// The given value.
        value: f64,
    },
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// The LLR reached the lower bound: A is not `elo1` stronger (H0).
    AcceptH0,
    /// The LLR reached the upper bound: A is at least about `elo1`
    /// stronger (H1).
    AcceptH1,
    /// Neither bound reached yet: keep playing.
    Continue,
}

/// The state of an SPRT over a series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    /// The settings tested.
    pub params: SprtParams,
    /// The log-likelihood ratio of H1 against H0 so far.
    pub llr: f64,
    /// Wald's lower bound, [`SprtParams::lower_bound`].
    pub lower: f64,
    /// Wald's upper bound, [`SprtParams::upper_bound`].
    pub upper: f64,
    /// What the LLR says given the bounds.
    pub decision: SprtDecision,
}

impl SprtReport {
    /// Places `llr` against the bounds of `params`. Reaching a bound counts
    /// as crossing it (`>=` and `<=`), as in Wald's formulation.
    pub fn new(params: SprtParams, llr: f64) -> SprtReport {
        let lower = params.lower_bound();
        let upper = params.upper_bound();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtReport {
            params,
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// Per-sample scores of the pentanomial buckets: A's pair points / 2.
const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Per-sample scores of the trinomial buckets, in the order loss, draw, win.
const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Log-likelihood ratio of H1 (elo = `elo1`) against H0 (elo = `elo0`) over
/// the pentanomial pair counts, in the logistic Elo model.
///
/// Each pair is one sample, scored A's pair points / 2, i.e.
/// 0, ¼, ½, ¾ or 1 for buckets 0 to 4. With N pairs, sample mean m and
/// sample variance v, and s0 = [`score_from_elo`]`(elo0)`,
/// s1 = [`score_from_elo`]`(elo1)`, Michel Van den Bergh's approximation of
/// the generalized SPRT log-likelihood ratio (from his notes on the GSPRT
/// for engine testing) is
///
/// LLR ≈ N · (s1 − s0) · (2m − s0 − s1) / (2v),
///
/// which is the LLR of two normal distributions with means s0 and s1 and
/// the observed variance. Before m and v are estimated,
/// [`SPRT_PRIOR_SAMPLES`] of pseudo-count is spread over the five buckets
/// (see there why); N stays the real number of pairs. Zero pairs give 0.
///
/// Never infinite or NaN for finite Elo arguments; NaN arguments give NaN.
pub(crate) fn llr_pentanomial(penta: &[u64; 5], elo0: f64, elo1: f64) -> f64 {
    gsprt_llr(
        &penta.map(|count| count as f64),
        &PENTANOMIAL_SCORES,
        elo0,
        elo1,
    )
}

/// The same as [`llr_pentanomial`] over W/D/L (trinomial), for series
/// without pairs: each game is a sample scored 1, ½ or 0.
pub(crate) fn llr_trinomial(wins: u64, draws: u64, losses: u64, elo0: f64, elo1: f64) -> f64 {
    gsprt_llr(
        &[losses as f64, draws as f64, wins as f64],
        &TRINOMIAL_SCORES,
        elo0,
        elo1,
    )
}

/// The GSPRT approximation shared by both LLR functions: `counts[i]`
/// samples score `scores[i]`.
fn gsprt_llr(counts: &[f64], scores: &[f64], elo0: f64, elo1: f64) -> f64 {
    let samples: f64 = counts.iter().sum();
    if samples <= 0.0 {
        return 0.0;
    }
    let prior = SPRT_PRIOR_SAMPLES / counts.len() as f64;
    let Some(moments) = Moments::of(counts, scores, prior) else {
        return 0.0;
    };
    // The prior puts weight on every bucket, so the variance is positive;
    // the guard only keeps a pathological rounding from dividing by zero.
    if moments.variance <= 0.0 {
        return 0.0;
    }
    let s0 = score_from_elo(elo0);
    let s1 = score_from_elo(elo1);
    samples * (s1 - s0) * (2.0 * moments.mean - s0 - s1) / (2.0 * moments.variance)
}

/// Weighted mean and variance of per-sample scores.
struct Moments {
    /// The real number of samples (without any pseudo-count).
    samples: f64,
    /// The mean score.
    mean: f64,
    /// The population variance of the score (divided by the weight, not
    /// the weight − 1: the estimators this feeds are defined that way, and
    /// it keeps one sample from dividing by zero).
    variance: f64,
}

impl Moments {
    /// Mean and variance of `scores` weighted by `counts`, each count raised
    /// by `prior` first. `None` when there is no weight at all.
    ///
    /// Two passes (mean first, then squared deviations) rather than
    /// E(x²) − m², which can cancel to a small negative number.
    fn of(counts: &[f64], scores: &[f64], prior: f64) -> Option<Moments> {
        let samples: f64 = counts.iter().sum();
        let weight = samples + prior * counts.len() as f64;
        if weight <= 0.0 || !weight.is_finite() {
            return None;
        }
        let weighted = || {
            counts
                .iter()
                .map(move |&c| c + prior)
                .zip(scores.iter().copied())
        };
        let mean = weighted().map(|(c, x)| c * x).sum::<f64>() / weight;
        let variance = weighted()
            .map(|(c, x)| c * (x - mean) * (x - mean))
            .sum::<f64>()
            / weight;
        Some(Moments {
            samples,
            mean,
            variance,
        })
    }
}

/// The Elo estimate and interval from a mean score, its per-sample
/// variance and sample count; `steps_per_sample` is 4 per game, 8 per
/// pair (see "Elo intervals" in the module documentation).
fn elo_estimate(
    mean: f64,
    variance: f64,
    samples: f64,
    steps_per_sample: f64,
) -> Option<EloEstimate> {
    if samples <= 0.0 || !(mean > 0.0 && mean < 1.0) {
        return None;
    }
    let elo = elo_from_score(mean);
    if !elo.is_finite() {
        return None;
    }
    let half_width = Z_95 * (variance.max(0.0) / samples).sqrt();
    let edge = 1.0 / (steps_per_sample * samples);
    let clamp = |score: f64| score.clamp(edge, 1.0 - edge);
    let finite_or = |value: f64, fallback: f64| if value.is_finite() { value } else { fallback };
    let lower = finite_or(elo_from_score(clamp(mean - half_width)), elo).min(elo);
    let upper = finite_or(elo_from_score(clamp(mean + half_width)), elo).max(elo);
    Some(EloEstimate { elo, lower, upper })
}

/// The Elo difference that makes `score` the expected score, in the
/// logistic Elo model: −400 · log₁₀(1/score − 1).
///
/// Gives −∞ at 0, +∞ at 1 and NaN outside [0, 1]; [`Tally::report`] never
/// passes such values on.
pub(crate) fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of the side `elo` points stronger, in the logistic
/// Elo model: 1 / (1 + 10^(−elo/400)). Lies in [0, 1] for every input but
/// NaN (±∞ give exactly 1 and 0).
pub(crate) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Likelihood of superiority: the probability that A is the stronger bot,
/// from the decisive games only, as the normal approximation of the sign
/// test: 0.5 · (1 + erf((w − l) / √(2 (w + l)))).
///
/// Draws are left out because under the hypothesis of equal strength they
/// carry no information about who is stronger. `None` without decisive
/// games, where the formula would divide zero by zero.
pub fn los(wins: u64, losses: u64) -> Option<f64> {
    if wins == 0 && losses == 0 {
        return None;
    }
    let w = wins as f64;
    let l = losses as f64;
    Some(0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
}

/// The error function, erf(x) = 2/√π ∫₀ˣ e^(−t²) dt (std has none).
///
/// For |x| < 6 it sums the series of Abramowitz & Stegun, *Handbook of
/// Mathematical Functions*, formula 7.1.6:
///
/// erf(x) = 2/√π · e^(−x²) · Σₙ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)),
///
/// chosen because all its terms share the sign of x, so nothing cancels
/// and the sum is accurate to a few units in the last place (well past the
/// 10⁻⁷ a likelihood of superiority needs), at the cost of up to a hundred
/// or so terms near |x| = 6. Beyond that, 1 − erf(6) ≈ 2·10⁻¹⁷ is below
/// half an ulp of 1, so ±1 is the correctly rounded answer. NaN gives NaN.
pub(crate) fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() >= 6.0 {
        return x.signum();
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    // The terms grow while 2x² > 2n + 1 and then shrink faster than
    // geometrically; 400 terms is far beyond what |x| < 6 needs.
    for _ in 0..400 {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
        if term.abs() <= sum.abs() * f64::EPSILON * 0.25 {
            break;
        }
    }
    // Rounding can land a hair outside [−1, 1] near |x| = 6; the true
    // value never is.
    (std::f64::consts::FRAC_2_SQRT_PI * (-x2).exp() * sum).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts |actual − expected| ≤ tolerance, with a readable message.
    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "expected {expected} ± {tolerance}, got {actual}"
        );
    }

    fn tally(wins: u64, draws: u64, losses: u64, pentanomial: [u64; 5]) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            pentanomial,
        }
    }

    fn params(elo0: f64, elo1: f64) -> SprtParams {
        SprtParams::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    /// No NaN and no infinity anywhere in a report.
    fn assert_all_finite(report: &Report) {
        let mut values = vec![report.points];
        values.extend(report.score);
        values.extend(report.draw_ratio);
        values.extend(report.los);
        for estimate in [report.elo, report.elo_pentanomial].into_iter().flatten() {
            values.extend([estimate.elo, estimate.lower, estimate.upper]);
            assert!(estimate.lower <= estimate.elo && estimate.elo <= estimate.upper);
        }
        if let Some(sprt) = report.sprt {
            values.extend([sprt.llr, sprt.lower, sprt.upper]);
        }
        for value in values {
            assert!(value.is_finite(), "{value} in {report:?}");
        }
    }

    #[test]
    fn score_points_and_flip() {
        assert_eq!(Score::Win.points(), 1.0);
        assert_eq!(Score::Draw.points(), 0.5);
        assert_eq!(Score::Loss.points(), 0.0);
        assert_eq!(Score::Win.flip(), Score::Loss);
        assert_eq!(Score::Draw.flip(), Score::Draw);
        assert_eq!(Score::Loss.flip(), Score::Win);
        for s in [Score::Win, Score::Draw, Score::Loss] {
            assert_eq!(s.flip().flip(), s);
            assert_eq!(s.points() + s.flip().points(), 1.0);
        }
    }

    #[test]
    fn elo_and_score_conversions() {
        // 1/0.75 − 1 = 1/3; −400 · log10(1/3) = 400 · 0.47712125472 = 190.848501888.
        close(elo_from_score(0.75), 190.848_501_888, 1e-8);
        close(elo_from_score(0.25), -190.848_501_888, 1e-8);
        // 10^0 = 1, so 1 / (1 + 1) = 0.5.
        assert_eq!(score_from_elo(0.0), 0.5);
        close(elo_from_score(0.5), 0.0, 1e-12);
        // 10^(−190.848501888/400) = 10^(−0.47712125472) = 1/3; 1 / (4/3) = 0.75.
        close(score_from_elo(190.848_501_888), 0.75, 1e-11);
        for elo in [-800.0, -123.4, -1.0, 0.5, 35.0, 400.0, 1000.0] {
            close(elo_from_score(score_from_elo(elo)), elo, 1e-9);
        }
        assert_eq!(score_from_elo(f64::INFINITY), 1.0);
        assert_eq!(score_from_elo(f64::NEG_INFINITY), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Values from Abramowitz & Stegun, table 7.1 (to 10 places).
        close(erf(0.0), 0.0, 1e-15);
        close(erf(0.1), 0.112_462_916_0, 1e-10);
        close(erf(0.5), 0.520_499_877_8, 1e-10);
        close(erf(1.0), 0.842_700_792_9, 1e-10);
        close(erf(2.0), 0.995_322_265_0, 1e-10);
        close(erf(3.0), 0.999_977_909_5, 1e-10);
        close(erf(-1.0), -0.842_700_792_9, 1e-10);
        // 1 − erfc(4) = 1 − 1.541725790e−8.
        close(erf(4.0), 0.999_999_984_582_742_1, 1e-15);
        assert_eq!(erf(6.0), 1.0);
        assert_eq!(erf(-50.0), -1.0);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert!(erf(f64::NAN).is_nan());
        // Odd, within [−1, 1] and monotone on a sweep (up to the ~2e−15
        // rounding noise of the sum near ±1).
        let mut previous = -1.0;
        for i in -700..=700 {
            let x = f64::from(i) / 100.0;
            let y = erf(x);
            assert!((-1.0..=1.0).contains(&y));
            assert!(y >= previous - 1e-14, "erf not monotone at {x}");
            assert_eq!(y, -erf(-x));
            previous = y;
        }
    }

    #[test]
    fn los_values() {
        // w = l: erf(0) = 0, so 0.5 · (1 + 0) = 0.5.
        assert_eq!(los(10, 10), Some(0.5));
        // (20 − 10) / √(2 · 30) = 10 / 7.745966692 = 1.290994449;
        // erf(1.290994449) = 0.932110845 (table: erf(1.29) = 0.931899,
        // erf(1.30) = 0.934008, interpolated 0.931899 + 0.0994 · 0.002109);
        // 0.5 · (1 + 0.932110845) = 0.966055423.
        close(los(20, 10).unwrap(), 0.966_055_423, 1e-8);
        // Mirror: 0.5 · (1 − 0.932110845) = 0.033944577.
        close(los(10, 20).unwrap(), 0.033_944_577, 1e-8);
        assert_eq!(los(0, 0), None);
        // One win, no loss: 1/√2 = 0.707106781; erf = 0.682689492; LOS = 0.841344746.
        close(los(1, 0).unwrap(), 0.841_344_746, 1e-8);
        assert_eq!(los(u64::MAX, 0), Some(1.0));
        assert_eq!(los(0, 5_000_000), Some(0.0));
    }

    #[test]
    fn wald_bounds() {
        let p = params(0.0, 5.0);
        // ln(0.05 / 0.95) = ln(1/19) = −2.944438979; the upper is ln(0.95 / 0.05) = ln 19.
        close(p.lower_bound(), -2.944_438_979, 1e-9);
        close(p.upper_bound(), 2.944_438_979, 1e-9);
        let q = SprtParams::new(0.0, 5.0, 0.1, 0.2).unwrap();
        // ln(0.2 / 0.9) = −1.504077397; ln(0.8 / 0.1) = ln 8 = 2.079441542.
        close(q.lower_bound(), -1.504_077_397, 1e-9);
        close(q.upper_bound(), 2.079_441_542, 1e-9);
    }

    #[test]
    fn tally_bookkeeping() {
        let mut t = Tally::default();
        for (first, second) in [
            (Score::Win, Score::Win),
            (Score::Win, Score::Loss),
            (Score::Draw, Score::Draw),
            (Score::Loss, Score::Draw),
            (Score::Draw, Score::Win),
            (Score::Loss, Score::Loss),
        ] {
            t.add_game(first);
            t.add_game(second);
            t.add_pair(first, second);
        }
        // A game whose partner never finished: W/D/L only.
        t.add_game(Score::Win);
        assert_eq!((t.wins, t.draws, t.losses), (5, 4, 4));
        // Pair points: LL 0 → [0]; LD ½ → [1]; WL 1, DD 1 → [2]; DW 1½ → [3]; WW 2 → [4].
        assert_eq!(t.pentanomial, [1, 1, 2, 1, 1]);
        assert_eq!(t.games(), 13);
        assert_eq!(t.pairs(), 6);
        // 5 wins + 4 draws / 2 = 7 points.
        assert_eq!(t.points(), 7.0);

        let mut order = Tally::default();
        order.add_pair(Score::Loss, Score::Win);
        order.add_pair(Score::Win, Score::Loss);
        assert_eq!(order.pentanomial, [0, 0, 2, 0, 0]);
        assert_eq!(order.games(), 0, "add_pair must not count games");

        let mut full = tally(u64::MAX, 0, 0, [u64::MAX, 1, 0, 0, 0]);
        full.add_game(Score::Win);
        full.add_pair(Score::Loss, Score::Loss);
        assert_eq!(full.wins, u64::MAX);
        assert_eq!(full.games(), u64::MAX);
        assert_eq!(full.pairs(), u64::MAX);
    }

    #[test]
    fn empty_report() {
        let t = Tally::default();
        let r = t.report(None);
        assert_eq!(r.games, 0);
        assert_eq!((r.wins, r.draws, r.losses), (0, 0, 0));
        assert_eq!(r.points, 0.0);
        assert_eq!(r.score, None);
        assert_eq!(r.draw_ratio, None);
        assert_eq!(r.elo, None);
        assert_eq!(r.elo_pentanomial, None);
        assert_eq!(r.los, None);
        assert_eq!(r.pentanomial, [0; 5]);
        assert_eq!(r.sprt, None);

        let with_sprt = t.report(Some(&params(0.0, 5.0)));
        let sprt = with_sprt.sprt.unwrap();
        assert_eq!(sprt.llr, 0.0);
        assert_eq!(sprt.decision, SprtDecision::Continue);
        assert_all_finite(&with_sprt);
        assert_eq!(llr_pentanomial(&[0; 5], 0.0, 5.0), 0.0);
        assert_eq!(llr_trinomial(0, 0, 0, 0.0, 5.0), 0.0);
    }

    #[test]
    fn balanced_trinomial_elo_is_zero_with_symmetric_interval() {
        let r = tally(30, 40, 30, [0; 5]).report(None);
        // Points 30 + 40/2 = 50 of 100: score 0.5, draw ratio 0.4, Elo 0.
        assert_eq!(r.score, Some(0.5));
        assert_eq!(r.draw_ratio, Some(0.4));
        // v = (30 · 0.5² + 40 · 0² + 30 · 0.5²) / 100 = 15 / 100 = 0.15;
        // half width = 1.959964 · √(0.15 / 100) = 1.959964 · 0.0387298335 = 0.0759090787;
        // upper = −400 · log10(1/0.5759090787 − 1) = −400 · log10(0.7363851986)
        //       = −400 · (−0.1328949495) = 53.1579798; lower = −53.1579798.
        let e = r.elo.unwrap();
        close(e.elo, 0.0, 1e-9);
        close(e.upper, 53.157_979_8, 1e-6);
        close(e.lower, -53.157_979_8, 1e-6);
        close(e.upper, -e.lower, 1e-9);
        // No pairs counted.
        assert_eq!(r.elo_pentanomial, None);
        assert_eq!(r.los, Some(0.5));
    }

    #[test]
    fn winning_trinomial_elo_and_interval() {
        let r = tally(60, 20, 20, [0; 5]).report(None);
        // Points 60 + 20/2 = 70 of 100: score 0.7.
        close(r.score.unwrap(), 0.7, 1e-15);
        // Elo = −400 · log10(1/0.7 − 1) = 400 · log10(7/3) = 400 · 0.3679767853 = 147.1907141.
        // v = (60 · 0.3² + 20 · 0.2² + 20 · 0.7²) / 100 = (5.4 + 0.8 + 9.8) / 100 = 0.16;
        // half width = 1.959964 · √(0.16 / 100) = 1.959964 · 0.04 = 0.0783985594;
        // lower score 0.6216014406: 400 · log10(0.6216014406 / 0.3783985594)
        //   = 400 · log10(1.6427161922) = 400 · 0.2155625380 = 86.2250152;
        // upper score 0.7783985594: 400 · log10(0.7783985594 / 0.2216014406)
        //   = 400 · log10(3.5126060427) = 400 · 0.5456294441 = 218.2517776.
        let e = r.elo.unwrap();
        close(e.elo, 147.190_714_1, 1e-6);
        close(e.lower, 86.225_015_2, 1e-6);
        close(e.upper, 218.251_777_6, 1e-6);
        // (60 − 20) / √(2 · 80) = 40 / 12.6491106 = 3.1622777; erf(3.1622777) = 1 − erfc,
        // erfc(3.1622777) = 7.7442e−6 (table: erfc(3.1) = 1.1649e−5, erfc(3.2) = 6.0258e−6),
        // so LOS = 0.5 · (2 − 7.7442e−6) = 0.99999613.
        close(r.los.unwrap(), 0.999_996_13, 1e-8);
        assert_all_finite(&r);
    }

    #[test]
    fn pentanomial_example_by_hand() {
        // 15 pairs: 1 LL, 2 LD, 4 WL/DD, 5 WD, 3 WW.
        let penta = [1, 2, 4, 5, 3];
        let t = tally(0, 0, 0, penta);

        // Elo from the raw pair scores x = 0, ¼, ½, ¾, 1:
        // Σx = 2·0.25 + 4·0.5 + 5·0.75 + 3·1 = 0.5 + 2 + 3.75 + 3 = 9.25; m = 9.25/15 = 0.6166667;
        // Σx² = 2·0.0625 + 4·0.25 + 5·0.5625 + 3·1 = 0.125 + 1 + 2.8125 + 3 = 6.9375;
        // v = 6.9375/15 − m² = 0.4625 − 0.3802778 = 0.0822222;
        // half width = 1.959964 · √(0.0822222/15) = 1.959964 · 0.0740370 = 0.1451099;
        // Elo = 400 · log10(0.6166667/0.3833333) = 400 · log10(1.6086957) = 400 · 0.2064739 = 82.58956;
        // lower score 0.4715568 → 400 · log10(0.8923508) = 400 · (−0.0494644) = −19.78575;
        // upper score 0.7617766 → 400 · log10(3.1977400) = 400 · 0.5048431 = 201.93726.
        let e = t.report(None).elo_pentanomial.unwrap();
        close(e.elo, 82.589_56, 1e-4);
        close(e.lower, -19.785_75, 1e-4);
        close(e.upper, 201.937_26, 1e-4);

        // LLR: the prior adds 0.2 to each bucket → [1.2, 2.2, 4.2, 5.2, 3.2], weight 16;
        // m = (0.25·2.2 + 0.5·4.2 + 0.75·5.2 + 3.2)/16 = (0.55 + 2.1 + 3.9 + 3.2)/16 = 9.75/16 = 0.609375;
        // E[x²] = (0.0625·2.2 + 0.25·4.2 + 0.5625·5.2 + 3.2)/16 = 7.3125/16 = 0.45703125;
        // v = 0.45703125 − 0.609375² = 0.45703125 − 0.371337890625 = 0.085693359375;
        // s0 = 0.5; s1 = 1/(1 + 10^(−5/400)) = 1/(1 + 0.9716279516) = 0.5071950817;
        // LLR = 15 · (0.0071950817) · (1.21875 − 0.5 − 0.5071950817) / (2 · 0.085693359375)
        //     = 15 · 0.0071950817 · 0.2115549183 / 0.17138671875
        //     = 0.0228323238 / 0.17138671875 = 0.1332211.
        close(llr_pentanomial(&penta, 0.0, 5.0), 0.133_221_1, 1e-6);
        let sprt = t.report(Some(&params(0.0, 5.0))).sprt.unwrap();
        close(sprt.llr, 0.133_221_1, 1e-6);
        assert_eq!(sprt.decision, SprtDecision::Continue);
    }

    #[test]
    fn report_uses_pairs_when_there_are_any() {
        let p = params(0.0, 5.0);
        // Games that do not form a pair yet: trinomial LLR.
        let games_only = tally(3, 1, 1, [0; 5]);
        assert_eq!(
            games_only.report(Some(&p)).sprt.unwrap().llr,
            llr_trinomial(3, 1, 1, 0.0, 5.0)
        );
        // With one complete pair the pentanomial counts decide.
        let with_pair = tally(3, 1, 1, [0, 0, 0, 1, 0]);
        assert_eq!(
            with_pair.report(Some(&p)).sprt.unwrap().llr,
            llr_pentanomial(&[0, 0, 0, 1, 0], 0.0, 5.0)
        );
    }

    #[test]
    fn all_wins_accepts_h1_and_all_losses_accepts_h0() {
        let p = params(0.0, 10.0);
        // 20 pairs all WW. With the prior: buckets [0.2, 0.2, 0.2, 0.2, 20.2], weight 21;
        // m = (0.2 · (0 + 0.25 + 0.5 + 0.75) + 20.2)/21 = 20.5/21 = 0.9761905;
        // v = (0.2 · (0.9761905² + 0.7261905² + 0.4761905² + 0.2261905²) + 20.2 · 0.0238095²)/21
        //   = (0.2 · 1.7582200 + 0.0114512)/21 = 0.3630952/21 = 0.0172902;
        // s1 = 1/(1 + 10^(−10/400)) = 0.5143872;
        // LLR = 20 · 0.0143872 · (1.9523810 − 1.0143872) / (2 · 0.0172902)
        //     = 20 · 0.0143872 · 0.9379938 / 0.0345805 = 7.805 ≥ 2.944 → H1.
        let wins = tally(40, 0, 0, [0, 0, 0, 0, 20]);
        let sprt = wins.report(Some(&p)).sprt.unwrap();
        close(sprt.llr, 7.805, 1e-3);
        assert_eq!(sprt.decision, SprtDecision::AcceptH1);
        assert_all_finite(&wins.report(Some(&p)));

        // One won pair must not decide anything: m = 1.5/2 = 0.75 over weight 2,
        // v = (0.2 · (0.75² + 0.5² + 0.25² + 0² + 0.25²) + 1 · 0.25²)/2 = (0.1875 + 0.0625)/2 = 0.125,
        // LLR = 1 · 0.0143872 · (1.5 − 1.0143872) / 0.25 = 0.0279464.
        close(
            llr_pentanomial(&[0, 0, 0, 0, 1], 0.0, 10.0),
            0.027_946_4,
            1e-6,
        );

        // 20 pairs all LL: mirror image, m = 0.5/21 = 0.0238095, same v;
        // LLR = 20 · 0.0143872 · (0.0476190 − 1.0143872) / 0.0345805 = −8.044 ≤ −2.944 → H0.
        let losses = tally(0, 0, 40, [20, 0, 0, 0, 0]);
        let sprt = losses.report(Some(&p)).sprt.unwrap();
        close(sprt.llr, -8.044, 1e-3);
        assert_eq!(sprt.decision, SprtDecision::AcceptH0);

        // Trinomial, 40 single games all won: buckets [1/3, 1/3, 40 1/3], weight 41;
        // m = (1/6 + 40 1/3)/41 = 40.5/41 = 0.9878049; E[x²] = (1/12 + 40 1/3)/41 = 0.9857724;
        // v = 0.9857724 − 0.9757287 = 0.0100437;
        // LLR = 40 · 0.0143872 · (1.9756098 − 1.0143872) / 0.0200874 = 27.62 → H1.
        let single_wins = tally(40, 0, 0, [0; 5]);
        let sprt = single_wins.report(Some(&p)).sprt.unwrap();
        close(sprt.llr, 27.62, 1e-2);
        assert_eq!(sprt.decision, SprtDecision::AcceptH1);
        let single_losses = tally(0, 0, 40, [0; 5]);
        assert_eq!(
            single_losses.report(Some(&p)).sprt.unwrap().decision,
            SprtDecision::AcceptH0
        );

        // Perfect scores have no finite Elo: None, never infinity.
        let r = wins.report(None);
        assert_eq!(r.elo, None);
        assert_eq!(r.elo_pentanomial, None);
        // (40 − 0)/√80 = 4.4721360; erf = 1 − 2.54e−10; LOS = 1 − 1.27e−10.
        close(r.los.unwrap(), 1.0, 1e-9);
        assert_eq!(losses.report(None).elo, None);
    }

    #[test]
    fn balanced_series_continues_then_accepts_h0() {
        let p = params(0.0, 10.0);
        // 30/40/30: m stays 0.5 (the prior is symmetric), so 2m − s0 − s1 = −(s1 − s0) = −0.0143872;
        // v = ((30 + 1/3) · 0.25 · 2)/(100 + 1) = 15.1666667/101 = 0.1501650;
        // LLR = −100 · 0.0143872² / (2 · 0.1501650) = −0.0206992/0.3003300 = −0.0689 → Continue.
        let small = tally(30, 40, 30, [0; 5]).report(Some(&p)).sprt.unwrap();
        close(small.llr, -0.068_92, 1e-4);
        assert_eq!(small.decision, SprtDecision::Continue);
        // 3000/2000/3000: v = (3000 1/3 · 0.25 · 2)/8001 = 0.1874974;
        // LLR = −8000 · 0.000206992 / 0.3749948 = −4.416 ≤ −2.944 → AcceptH0.
        let large = tally(3000, 2000, 3000, [0; 5])
            .report(Some(&p))
            .sprt
            .unwrap();
        close(large.llr, -4.416, 1e-3);
        assert_eq!(large.decision, SprtDecision::AcceptH0);
    }

    #[test]
    fn perfect_interval_end_is_clamped_not_infinite() {
        // 9 wins, 1 loss: m = 0.9, v = 0.9 · 0.1 = 0.09, half width = 1.959964 · √0.009 = 0.1859385,
        // so the upper score 1.0859 is past 1. It is clamped to 1 − 1/(4 · 10) = 0.975:
        // 400 · log10(0.975/0.025) = 400 · log10(39) = 400 · 1.5910646 = 636.4258.
        // Lower: 0.9 − 0.1859385 = 0.7140615 → 400 · log10(0.7140615/0.2859385)
        //   = 400 · log10(2.4972554) = 400 · 0.3974630 = 158.9852.
        // Point: 400 · log10(9) = 381.6970.
        let r = tally(9, 0, 1, [0; 5]).report(None);
        let e = r.elo.unwrap();
        close(e.elo, 381.697_0, 1e-3);
        close(e.upper, 636.425_8, 1e-3);
        close(e.lower, 158.985_2, 1e-3);
        // Mirror image.
        let e = tally(1, 0, 9, [0; 5]).report(None).elo.unwrap();
        close(e.lower, -636.425_8, 1e-3);
        // Pentanomial: 3 WW and 1 WD: m = (3 + 0.75)/4 = 0.9375; the clamp is 1 − 1/32.
        let e = tally(0, 0, 0, [0, 0, 0, 1, 3])
            .report(None)
            .elo_pentanomial
            .unwrap();
        close(e.upper, elo_from_score(1.0 - 1.0 / 32.0), 1e-9);
        assert!(e.upper > e.elo);
    }

    #[test]
    fn all_draws_gives_a_zero_width_interval() {
        // Every game a draw: m = 0.5, v = 0, so the interval is [0, 0], and
        // the SPRT still has a finite LLR thanks to the prior.
        let r = tally(0, 50, 0, [0, 0, 25, 0, 0]).report(Some(&params(0.0, 5.0)));
        assert_eq!(
            r.elo,
            Some(EloEstimate {
                elo: 0.0,
                lower: 0.0,
                upper: 0.0
            })
        );
        assert_eq!(r.los, None);
        assert_eq!(r.draw_ratio, Some(1.0));
        assert_all_finite(&r);
    }

    #[test]
    fn huge_counts_stay_finite() {
        let p = params(-3.0, 2.0);
        for t in [
            tally(
                5_000_000,
                3_000_000,
                4_999_000,
                [1_000_000, 2_000_000, 3_000_000, 2_000_000, 1_000_000],
            ),
            tally(u64::MAX, 0, 0, [0, 0, 0, 0, u64::MAX]),
            tally(u64::MAX, u64::MAX, u64::MAX, [u64::MAX; 5]),
            tally(0, 0, u64::MAX, [u64::MAX, 0, 0, 0, 0]),
            tally(1, 0, u64::MAX, [0, 0, 1, 0, 0]),
            tally(u64::MAX - 1, 1, 0, [0, 0, 0, 1, u64::MAX / 2]),
        ] {
            let r = t.report(Some(&p));
            assert_all_finite(&r);
            assert!(r.sprt.is_some());
        }
    }

    #[test]
    fn invalid_params_in_report_give_no_sprt() {
        let bad = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.0,
            beta: 0.05,
        };
        let r = tally(10, 0, 0, [0; 5]).report(Some(&bad));
        assert_eq!(r.sprt, None);
        assert_all_finite(&r);
    }

    #[test]
    fn parse_good_inputs() {
        let p = SprtParams::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
        assert_eq!(p, params(0.0, 5.0));
        // Any order, spaces, case, trailing comma.
        let p = SprtParams::parse(" beta = 0.1, ELO1=2.5 ,alpha=0.01,elo0=-1.5,").unwrap();
        assert_eq!(
            p,
            SprtParams {
                elo0: -1.5,
                elo1: 2.5,
                alpha: 0.01,
                beta: 0.1
            }
        );
        // Defaults for alpha and beta.
        let p = SprtParams::parse("elo1=10,elo0=0").unwrap();
        assert_eq!((p.alpha, p.beta), (0.05, 0.05));
        let p = SprtParams::parse("elo0=0,elo1=1e1,beta=0.2").unwrap();
        assert_eq!((p.elo1, p.alpha, p.beta), (10.0, 0.05, 0.2));
        assert_eq!(
            "elo0=0,elo1=5".parse::<SprtParams>().unwrap(),
            params(0.0, 5.0)
        );
    }

    #[test]
    fn parse_errors() {
        use SprtParamsError as E;
        let err = |text: &str| SprtParams::parse(text).unwrap_err();

        assert_eq!(
            err("elo0=0,elo1"),
            E::NotKeyValue {
                item: "elo1".into()
            }
        );
        assert_eq!(
            err("elo0=0,elo1=5,gamma=1"),
            E::UnknownKey {
                key: "gamma".into()
            }
        );
        assert_eq!(err("elo0=0,elo0=1,elo1=5"), E::DuplicateKey { key: "elo0" });
        assert_eq!(
            err("elo0=0,elo1=five"),
            E::NotANumber {
                key: "elo1",
                value: "five".into()
            }
        );
        assert_eq!(
            err("elo0=0,elo1="),
            E::NotANumber {
                key: "elo1",
                value: String::new()
            }
        );
        assert_eq!(
            err("elo0=-inf,elo1=5"),
            E::NonFinite {
                key: "elo0",
                value: "-inf".into()
            }
        );
        assert!(matches!(
            err("elo0=0,elo1=NaN"),
            E::NonFinite { key: "elo1", .. }
        ));
        assert_eq!(err(""), E::Missing { key: "elo0" });
        assert_eq!(err("elo0=0"), E::Missing { key: "elo1" });
        assert_eq!(err("elo1=5"), E::Missing { key: "elo0" });
        assert_eq!(
            err("elo0=5,elo1=5"),
            E::EloOrder {
                elo0: 5.0,
                elo1: 5.0
            }
        );
        assert_eq!(
            err("elo0=5,elo1=0"),
            E::EloOrder {
                elo0: 5.0,
                elo1: 0.0
            }
        );
        assert_eq!(
            err("elo0=0,elo1=5,alpha=0.7"),
            E::ErrorRateOutOfRange {
                key: "alpha",
                value: 0.7
            }
        );
        assert_eq!(
            err("elo0=0,elo1=5,beta=0"),
            E::ErrorRateOutOfRange {
                key: "beta",
                value: 0.0
            }
        );
        assert_eq!(
            err("elo0=0,elo1=5,beta=0.5"),
            E::ErrorRateOutOfRange {
                key: "beta",
                value: 0.5
            }
        );
        assert!(matches!(
            SprtParams::new(0.0, f64::INFINITY, 0.05, 0.05),
            Err(E::NonFinite { key: "elo1", .. })
        ));

        // The messages name the problem and what to write instead.
        assert_eq!(
            err("elo0=0,elo1=5,alpha=0.7").to_string(),
            "alpha must be between 0 and 0.5 (exclusive), got 0.7; write e.g. alpha=0.05"
        );
        assert_eq!(
            err("elo0=0").to_string(),
            "elo1 is required; write the SPRT settings like elo0=0,elo1=5 (alpha and beta default to 0.05)"
        );
        assert_eq!(
            err("elo0=3,elo1=1").to_string(),
            "elo1 must be greater than elo0, got elo0=3 and elo1=1; write e.g. elo0=0,elo1=5"
        );
        assert!(err("x=1")
            .to_string()
            .contains("the keys are elo0, elo1, alpha and beta"));
        assert!(err("elo0=abc").to_string().contains("got `abc`"));
    }

    #[test]
    fn display_round_trips() {
        for p in [
            params(0.0, 5.0),
            SprtParams::new(-1.5, 2.25, 0.01, 0.2).unwrap(),
            SprtParams::new(-0.1, 1.0 / 3.0, 0.049_999_999_999, 1e-9).unwrap(),
        ] {
            let text = p.to_string();
            assert_eq!(SprtParams::parse(&text).unwrap(), p, "{text}");
        }
        assert_eq!(
            params(0.0, 5.0).to_string(),
            "elo0=0,elo1=5,alpha=0.05,beta=0.05"
        );
    }

    #[test]
    fn sprt_decision_at_the_bounds() {
        let p = params(0.0, 5.0);
        let upper = p.upper_bound();
        let lower = p.lower_bound();
        assert_eq!(SprtReport::new(p, upper).decision, SprtDecision::AcceptH1);
        assert_eq!(SprtReport::new(p, lower).decision, SprtDecision::AcceptH0);
        assert_eq!(SprtReport::new(p, 0.0).decision, SprtDecision::Continue);
        assert_eq!(
            SprtReport::new(p, upper - 1e-9).decision,
            SprtDecision::Continue
        );
        let r = SprtReport::new(p, 1.0);
        assert_eq!((r.lower, r.upper), (lower, upper));
    }
}
