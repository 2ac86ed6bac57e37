//! Ratings fitted over all the games of a pool of bots, for a leaderboard (`zebra serve`'s
//! ladder; any set of series).
//!
//! The model is Bradley–Terry with the logistic curve of the Elo scale (Bradley and Terry,
//! 1952; the model of Ordo and BayesElo): bot i scores against bot j with expectation
//! `1 / (1 + 10^((R_j - R_i) / 400))`, a draw counting half a point for each (as Ordo
//! counts it; colours are not modelled: a series plays each pair with sides swapped). The
//! ratings are the maximum of the likelihood of every game's points, found by Newton's
//! method on the full Hessian (the log-likelihood is concave, so it converges from zero in a
//! few steps for pools of hundreds of bots).
//!
//! A bot with a perfect score (or none at all) has no finite maximum. As BayesElo does with
//! its prior of virtual draws, every bot is given one virtual draw against an anchor rated
//! 0: ratings stay finite, a bot with no games sits at the pool's level, and the prior
//! weighs as one game among the many real ones. Ratings are reported relative to the pool's
//! mean (of the bots that have played: a newcomer's unknown level would widen everyone's
//! interval), each with a 95% interval from the curvature at the maximum (the inverse of
//! the negated Hessian: the asymptotic covariance of a maximum-likelihood estimate), for
//! the rating relative to that mean.

/// One bot's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rated {
    /// Elo relative to the mean of the bots that have played.
    pub elo: f64,
    /// The 95% interval around it.
    pub lower: f64,
    pub upper: f64,
    /// Real games and points (the virtual draw is not counted here).
    pub games: u64,
    pub points: f64,
}

/// Points per Elo unit of the logistic scale: Elo = θ · 400 / ln 10.
const ELO_PER_THETA: f64 = 400.0 / std::f64::consts::LN_10;
/// Virtual games (draws) each bot plays against the 0-rated anchor.
const PRIOR_GAMES: f64 = 1.0;
/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Fits ratings for `players` bots from games `(white, black, white's points)`, points
/// being 1, ½ or 0. Games naming a bot out of range, or a bot against itself, are ignored.
pub fn fit(players: usize, games: impl IntoIterator<Item = (usize, usize, f64)>) -> Vec<Rated> {
    fit_meetings(
        players,
        games.into_iter().map(|(white, black, points)| Meeting {
            first: white,
            second: black,
            games: 1,
            points,
        }),
    )
}

/// The games two bots played against each other, summed: the model sees only these sums
/// (colours are not modelled), so a pool of any number of games fits from one per pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    pub first: usize,
    pub second: usize,
    pub games: u64,
    /// The first bot's points over those games (the second has `games - points`).
    pub points: f64,
}

/// Fits ratings for `players` bots from the sums of their meetings; the same as [`fit`]
/// over the games summed. A meeting naming a bot out of range, a bot against itself, or
/// points outside `0..=games` is ignored.
pub fn fit_meetings(players: usize, meetings: impl IntoIterator<Item = Meeting>) -> Vec<Rated> {
    let n = players;
    // Games and points between each pair (i's points against j).
    let mut count = vec![0.0_f64; n * n];
    let mut score = vec![0.0_f64; n * n];
    let mut games_of = vec![0_u64; n];
    let mut points_of = vec![0.0_f64; n];
    for Meeting {
        first: w,
        second: b,
        games,
        points: p,
    } in meetings
    {
        let c = games as f64;
        if w >= n || b >= n || w == b || !(0.0..=c).contains(&p) {
            continue;
        }
        count[w * n + b] += c;
        count[b * n + w] += c;
        score[w * n + b] += p;
        score[b * n + w] += c - p;
        games_of[w] += games;
        games_of[b] += games;
        points_of[w] += p;
        points_of[b] += c - p;
    }
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    // Gradient and negated Hessian of the log-likelihood (with the prior) at θ.
    let derivatives = |theta: &[f64]| {
        let mut grad = vec![0.0; n];
        let mut neg_hess = vec![0.0; n * n];
        for i in 0..n {
            let q = sigmoid(theta[i]);
            grad[i] += PRIOR_GAMES * (0.5 - q);
            neg_hess[i * n + i] += PRIOR_GAMES * q * (1.0 - q);
            for j in 0..n {
                let c = count[i * n + j];
                if j == i || c == 0.0 {
                    continue;
                }
                let p = sigmoid(theta[i] - theta[j]);
                grad[i] += score[i * n + j] - c * p;
                let w = c * p * (1.0 - p);
                neg_hess[i * n + i] += w;
                neg_hess[i * n + j] -= w;
            }
        }
        (grad, neg_hess)
    };
    let mut theta = vec![0.0; n];
    for _ in 0..100 {
        let (grad, neg_hess) = derivatives(&theta);
        // Newton: θ += (−H)⁻¹ g.
        let Some(step) = cholesky_solve(&neg_hess, &grad, n) else {
            break;
        };
        let largest = step.iter().fold(0.0_f64, |m, s| m.max(s.abs()));
        // Far from the maximum a full step may overshoot: cap it (it is in θ units;
        // 2 is about 350 Elo).
        let scale = if largest > 2.0 { 2.0 / largest } else { 1.0 };
        for (t, s) in theta.iter_mut().zip(&step) {
            *t += scale * s;
        }
        if largest * scale < 1e-12 {
            break;
        }
    }
    let (_, neg_hess) = derivatives(&theta);
    // The mean of the bots that have played (a newcomer's unknown level would widen every
    // interval); of all, if none has.
    let rated: Vec<bool> = if games_of.iter().any(|&g| g > 0) {
        games_of.iter().map(|&g| g > 0).collect()
    } else {
        vec![true; n]
    };
    let m = rated.iter().filter(|&&r| r).count().max(1) as f64;
    let weight = |k: usize| if rated[k] { 1.0 / m } else { 0.0 };
    let mean: f64 = (0..n).map(|k| weight(k) * theta[k]).sum();
    (0..n)
        .map(|i| {
            // Var(θ_i − mean) = eᵀ C e with e = unit_i − weights and C = (−H)⁻¹.
            let e: Vec<f64> = (0..n)
                .map(|k| f64::from(u8::from(k == i)) - weight(k))
                .collect();
            let spread = cholesky_solve(&neg_hess, &e, n)
                .map(|c| {
                    e.iter()
                        .zip(&c)
                        .map(|(a, b)| a * b)
                        .sum::<f64>()
                        .max(0.0)
                        .sqrt()
                })
                .unwrap_or(f64::INFINITY);
            let elo = (theta[i] - mean) * ELO_PER_THETA;
            let half = Z95 * spread * ELO_PER_THETA;
            Rated {
                elo,
                lower: elo - half,
                upper: elo + half,
                games: games_of[i],
                points: points_of[i],
            }
        })
        .collect()
}

/// Solves `a x = b` for a symmetric positive definite `a` (n×n, row-major) by Cholesky;
/// `None` if `a` is not positive definite.
fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if sum <= 0.0 {
                    return None;
                }
                l[i * n + i] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wins`, `draws`, `losses` of bot a (0) against bot b (1), sides alternating.
    fn games(wins: u32, draws: u32, losses: u32) -> Vec<(usize, usize, f64)> {
        let points = std::iter::repeat(1.0)
            .take(wins as usize)
            .chain(std::iter::repeat(0.5).take(draws as usize))
            .chain(std::iter::repeat(0.0).take(losses as usize));
        points
            .enumerate()
            .map(|(k, p)| {
                if k % 2 == 0 {
                    (0, 1, p)
                } else {
                    (1, 0, 1.0 - p)
                }
            })
            .collect()
    }

    #[test]
    fn two_bots_differ_by_the_elo_of_their_score_as_the_prior_fades() {
        // 75%: 400 log10(3) = 190.85 Elo apart; 10,000 games make the prior negligible.
        let r = fit(2, games(5000, 5000, 0));
        let diff = r[0].elo - r[1].elo;
        assert!((diff - 190.85).abs() < 0.5, "{diff}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9, "centred on the mean");
        assert_eq!((r[0].games, r[0].points), (10_000, 7_500.0));
        // With a hundred games the same score sits a little nearer the middle (the
        // virtual draws) and its interval is about ten times wider.
        let few = fit(2, games(50, 50, 0));
        let few_diff = few[0].elo - few[1].elo;
        assert!(few_diff < diff && few_diff > 180.0, "{few_diff}");
        let width = |r: &Rated| r.upper - r.lower;
        let ratio = width(&few[0]) / width(&r[0]);
        assert!((ratio - 10.0).abs() < 1.0, "{ratio}");
    }

    #[test]
    fn meetings_summed_fit_as_the_games_they_sum() {
        let mut all = games(30, 10, 20);
        all.extend(
            games(5, 3, 12)
                .into_iter()
                .map(|(w, b, p)| (w + 1, b + 1, p)),
        );
        let one_by_one = fit(3, all.clone());
        let mut sums: std::collections::BTreeMap<(usize, usize), (u64, f64)> = Default::default();
        for (w, b, p) in all {
            let (key, first_points) = if w < b {
                ((w, b), p)
            } else {
                ((b, w), 1.0 - p)
            };
            let e = sums.entry(key).or_default();
            e.0 += 1;
            e.1 += first_points;
        }
        let summed = fit_meetings(
            3,
            sums.into_iter()
                .map(|((first, second), (games, points))| Meeting {
                    first,
                    second,
                    games,
                    points,
                }),
        );
        assert_eq!(one_by_one, summed);
        // Impossible sums are ignored, not fitted.
        let odd = fit_meetings(
            2,
            [Meeting {
                first: 0,
                second: 1,
                games: 2,
                points: 3.0,
            }],
        );
        assert_eq!(odd[0].games, 0);
    }

    #[test]
    fn a_perfect_score_has_a_finite_rating_and_an_even_pool_sits_at_zero() {
        let r = fit(2, games(20, 0, 0));
        assert!(r[0].elo.is_finite() && r[0].elo > 100.0, "{:?}", r[0]);
        assert!(r[0].lower > r[1].upper, "20-0 separates them: {r:?}");
        let even = fit(2, games(10, 0, 10));
        assert!(even[0].elo.abs() < 1e-9 && even[1].elo.abs() < 1e-9);
        assert!(even[0].lower < 0.0 && even[0].upper > 0.0);
    }

    #[test]
    fn ratings_are_transitive_through_a_common_opponent() {
        // a beats b 75%, b beats c 75%, a and c never meet: a is about twice as far
        // above c.
        let mut all = Vec::new();
        for (hi, lo) in [(0, 1), (1, 2)] {
            all.extend(games(5000, 5000, 0).into_iter().map(|(w, _, p)| {
                if w == 0 {
                    (hi, lo, p)
                } else {
                    (lo, hi, p)
                }
            }));
        }
        let r = fit(3, all);
        let (ab, bc, ac) = (
            r[0].elo - r[1].elo,
            r[1].elo - r[2].elo,
            r[0].elo - r[2].elo,
        );
        assert!(
            (ab - 190.85).abs() < 1.0 && (bc - 190.85).abs() < 1.0,
            "{ab} {bc}"
        );
        assert!((ac - 381.7).abs() < 2.0, "{ac}");
        // The middle bot's rating is pinned from both sides: the narrowest interval.
        let width = |x: &Rated| x.upper - x.lower;
        assert!(width(&r[1]) < width(&r[0]) && width(&r[1]) < width(&r[2]));
    }

    #[test]
    fn a_bot_without_games_sits_at_the_pool_level_with_a_wide_interval() {
        let mut all = games(30, 10, 20);
        all.push((0, 7, 1.0)); // out of range: ignored
        all.push((1, 1, 1.0)); // against itself: ignored
        let r = fit(3, all);
        assert_eq!(r[2].games, 0);
        let width = |x: &Rated| x.upper - x.lower;
        assert!(width(&r[2]) > 3.0 * width(&r[0]), "{r:?}");
        assert!(r[0].elo > r[1].elo);
        // The newcomer does not widen the others' intervals.
        let pair = fit(2, games(30, 10, 20));
        assert!(
            (width(&r[0]) - width(&pair[0])).abs() < 1e-6 * width(&pair[0]),
            "{r:?} {pair:?}"
        );
        assert!(fit(0, Vec::new()).is_empty());
    }
}
