//! Legal moves of M.A.D. (engine/src/games/mad/mad.md: Simple move, Lunge).

use super::{G, Mad, Move, STACK_LIMIT, sign};
use crate::geom::{ALL, Sq};

/// No square: off the board.
const NONE: u8 = u8::MAX;

/// `RAYS[s][d]`: the next three squares from `s` in direction `ALL[d]`,
/// [`NONE`] past the edge. A simple move uses the first, a lunge of k the
/// first k.
static RAYS: [[[u8; 3]; 8]; 64] = rays();

const fn rays() -> [[[u8; 3]; 8]; 64] {
    let mut t = [[[NONE; 3]; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut r, mut c) = ((s / 8) as i8, (s % 8) as i8);
            let mut j = 0;
            while j < 3 {
                r += ALL[d].dr;
                c += ALL[d].dc;
                if r < 0 || c < 0 || r >= G.height as i8 || c >= G.width as i8 {
                    break;
                }
                t[s][d][j] = (r * 8 + c) as u8;
                j += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// What the generator found: all simple moves of 1..=`max_k` checkers
/// from one square to a neighbour (max_k >= 1), or one lunge.
enum Found {
    Simple { from: Sq, to: Sq, max_k: u8 },
    Lunge(Move),
}

/// Calls `f` for every legal move of the side to move.
#[inline(always)]
fn each(pos: &Mad, mut f: impl FnMut(Found)) {
    let sign = sign(pos.turn);
    for i in 0..64u8 {
        let n = pos.board[i as usize] * sign;
        if n <= 0 {
            continue;
        }
        let from = Sq(i);
        let n = n as u8;
        for ray in &RAYS[i as usize] {
            let first = ray[0];
            if first == NONE {
                continue;
            }
            let t = pos.board[first as usize] * sign;
            // Simple move: into an empty or enemy square any number of the
            // stack; into a friendly stack only up to the limit of 4.
            let max_k = if t <= 0 {
                n
            } else {
                n.min(STACK_LIMIT.saturating_sub(t as u8))
            };
            if max_k > 0 {
                f(Found::Simple {
                    from,
                    to: Sq(first),
                    max_k,
                });
            }
            // Lunge of k = 2..=n-1 (k = 1 is the one-checker simple move):
            // the first k-1 squares empty, the k-th empty or enemy, all on
            // the board.
            if t != 0 {
                continue;
            }
            for (j, &s) in ray.iter().enumerate().take(n as usize - 1).skip(1) {
                if s == NONE {
                    break;
                }
                let t = pos.board[s as usize] * sign;
                if t > 0 {
                    break;
                }
                f(Found::Lunge(Move::Lunge {
                    from,
                    to: Sq(s),
                    k: j as u8 + 1,
                }));
                if t < 0 {
                    break;
                }
            }
        }
    }
}

pub(super) fn each_move(pos: &Mad, mut visit: impl FnMut(Move)) {
    each(pos, |found| match found {
        Found::Simple { from, to, max_k } => {
            (1..=max_k).for_each(|k| visit(Move::Simple { from, to, k }));
        }
        Found::Lunge(m) => visit(m),
    });
}

pub(super) fn count(pos: &Mad) -> usize {
    let mut n = 0usize;
    each(pos, |found| match found {
        Found::Simple { max_k, .. } => n += max_k as usize,
        Found::Lunge(_) => n += 1,
    });
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Side};

    #[test]
    fn rays_are_the_geometry_rays() {
        for s in 0..64u8 {
            for (d, dir) in ALL.iter().enumerate() {
                let want: Vec<u8> = G.ray(Sq(s), *dir).take(3).map(|q| q.0).collect();
                let got: Vec<u8> = RAYS[s as usize][d]
                    .iter()
                    .copied()
                    .filter(|&q| q != NONE)
                    .collect();
                assert_eq!(got, want, "square {} direction {dir:?}", s + 1);
            }
        }
    }

    #[test]
    fn count_matches_generate() {
        for first in Side::BOTH {
            for seed in 0..10 {
                let (_, played) = crate::game::random_game::<Mad>(first, seed, 100);
                let mut p = Mad::start(first);
                for m in played {
                    let mut v = Vec::new();
                    each_move(&p, |m| v.push(m));
                    assert_eq!(v.len(), count(&p));
                    p.play_unchecked(m);
                }
            }
        }
    }
}
