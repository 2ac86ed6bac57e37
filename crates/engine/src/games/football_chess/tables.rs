//! Tables for move generation, computed at compile time: the squares along each line from
//! each square, nearest first (as lists and as sets), single steps and knight jumps as
//! sets, and the squares a knight's two routes pass over. The generator walks these
//! instead of stepping square by square with bounds checks; the tally
//! ([`crate::rules::tally`]) counts with the sets.

use super::types::{Dir, Square};

/// The squares from one square to the edge of the board in one direction, nearest first.
#[derive(Clone, Copy)]
pub(crate) struct Ray {
    squares: [Square; 7],
    len: u8,
}

impl Ray {
    pub(crate) fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

/// `RAYS[square][d]`: the ray from `square` in the direction `Dir::ALL[d]`.
pub(crate) static RAYS: [[Ray; 8]; 64] = rays();

/// `KNIGHT_OVER[square][k]`: the squares either route of the knight jump `Dir::KNIGHT[k]`
/// from `square` passes over (a friendly ball carrier there is handed the ball, R8).
pub(crate) static KNIGHT_OVER: [[u64; 8]; 64] = knight_over();

/// `RAY_BITS[square][d]`: the squares of `RAYS[square][d]` as a set.
pub(crate) static RAY_BITS: [[u64; 8]; 64] = ray_bits();

/// `STEP_BITS[square][d]`: the square one step away in `Dir::ALL[d]` as a set (empty off
/// the board).
pub(crate) static STEP_BITS: [[u64; 8]; 64] = steps(Dir::ALL);

/// `KNIGHT_BITS[square][k]`: the square the knight jump `Dir::KNIGHT[k]` lands on as a set
/// (empty off the board).
pub(crate) static KNIGHT_BITS: [[u64; 8]; 64] = steps(Dir::KNIGHT);

pub(crate) const fn ray_bits() -> [[u64; 8]; 64] {
    let rays = rays();
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = &rays[sq][d];
            let mut i = 0;
            while i < ray.len as usize {
                out[sq][d] |= ray.squares[i].bit();
                i += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    out
}

const fn steps(dirs: [Dir; 8]) -> [[u64; 8]; 64] {
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            if let Some(s) = Square(sq as u8).step(dirs[d]) {
                out[sq][d] = s.bit();
            }
            d += 1;
        }
        sq += 1;
    }
    out
}

const fn rays() -> [[Ray; 8]; 64] {
    let mut out = [[Ray {
        squares: [Square(0); 7],
        len: 0,
    }; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let mut ray = Ray {
                squares: [Square(0); 7],
                len: 0,
            };
            let mut at = Square(sq as u8).step(Dir::ALL[d]);
            while let Some(s) = at {
                ray.squares[ray.len as usize] = s;
                ray.len += 1;
                at = s.step(Dir::ALL[d]);
            }
            out[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    out
}

const fn knight_over() -> [[u64; 8]; 64] {
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 8 {
            let d = Dir::KNIGHT[k];
            let (sf, sr) = (d.df.signum(), d.dr.signum());
            // Both routes' squares: the long leg's two steps along one line, then one along
            // the other, in either order.
            let from = Square(sq as u8);
            let legs = [
                [Dir::new(0, sr), Dir::new(sf, 0)],
                [Dir::new(sf, 0), Dir::new(0, sr)],
            ];
            let mut bits = 0u64;
            let mut r = 0;
            while r < 2 {
                let (first, other) = (legs[r][0], legs[r][1]);
                let first_len = if first.df == 0 {
                    d.dr.unsigned_abs()
                } else {
                    d.df.unsigned_abs()
                };
                if let Some(a) = from.step(first) {
                    bits |= a.bit();
                    let b = if first_len == 2 {
                        a.step(first)
                    } else {
                        a.step(other)
                    };
                    if let Some(b) = b {
                        bits |= b.bit();
                    }
                }
                r += 1;
            }
            out[sq][k] = bits;
            k += 1;
        }
        sq += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::action::KnightRoute;

    #[test]
    fn rays_walk_to_the_edge_nearest_first() {
        for from in Square::all() {
            for (d, &dir) in Dir::ALL.iter().enumerate() {
                let mut expected = Vec::new();
                let mut at = from.step(dir);
                while let Some(s) = at {
                    expected.push(s);
                    at = s.step(dir);
                }
                assert_eq!(
                    RAYS[from.index()][d].squares(),
                    &expected[..],
                    "{from} {dir:?}"
                );
            }
        }
    }

    #[test]
    fn bit_tables_are_the_rays_and_steps_as_sets() {
        for from in Square::all() {
            for d in 0..8 {
                let ray: u64 = RAYS[from.index()][d]
                    .squares()
                    .iter()
                    .map(|s| s.bit())
                    .sum();
                assert_eq!(RAY_BITS[from.index()][d], ray, "{from} {d}");
                let step = from.step(Dir::ALL[d]).map_or(0, |s| s.bit());
                assert_eq!(STEP_BITS[from.index()][d], step, "{from} {d}");
                let jump = from.step(Dir::KNIGHT[d]).map_or(0, |s| s.bit());
                assert_eq!(KNIGHT_BITS[from.index()][d], jump, "{from} {d}");
            }
        }
    }

    #[test]
    fn knight_over_is_both_routes_squares() {
        for from in Square::all() {
            for (k, &d) in Dir::KNIGHT.iter().enumerate() {
                let mut expected = 0u64;
                for route in [KnightRoute::FileFirst, KnightRoute::RankFirst] {
                    for s in route.path(from, d).0.into_iter().flatten() {
                        expected |= s.bit();
                    }
                }
                assert_eq!(KNIGHT_OVER[from.index()][k], expected, "{from} {d:?}");
            }
        }
    }
}
