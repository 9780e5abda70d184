//! Legal moves of Guerrilla Checkers
//! (engine/src/games/guerrilla/guerrilla-checkers.md: Guerrilla turn, COIN
//! turn), on bitboards: stones over the 49 interior points (`r * 7 + c`), COIN
//! pieces over the 64 squares.

use super::{Guerrilla, Move, bits};
use crate::game::Side;
use crate::geom::{Point, Sq};

/// The four diagonal steps of a COIN piece as (row, column) steps; a
/// [`Move::Coin`] stores indices into this table.
pub(super) const DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// No square: a step off the board.
pub(super) const OFF: u8 = 64;

/// All 49 interior points.
pub(super) const ALL_POINTS: u64 = (1 << 49) - 1;

/// The square one diagonal step from a square, or [`OFF`].
pub(super) static STEP: [[u8; 4]; 64] = build_steps().0;
/// The interior point a diagonal step crosses: the corner the two squares
/// share (always interior when both squares are on the board).
pub(super) static CROSS: [[u8; 4]; 64] = build_steps().1;
/// The interior corner points of each square (the outer-edge corners are
/// left out: they count as surrounding,
/// engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's turn").
pub(super) static SQ_CORNERS: [u64; 64] = build_corners();
/// The four squares around each interior point.
pub(super) static PT_SQUARES: [u64; 49] = build_point_squares();
/// The points one grid step from each point horizontally or vertically.
pub(super) static PT_NEIGH: [u64; 49] = build_point_neighbours();

const fn build_steps() -> ([[u8; 4]; 64], [[u8; 4]; 64]) {
    let mut step = [[OFF; 4]; 64];
    let mut cross = [[0u8; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let (r, c) = ((s / 8) as i8, (s % 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = DIRS[d];
            let (nr, nc) = (r + dr, c + dc);
            if nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                step[s][d] = (nr * 8 + nc) as u8;
                // Grid crossing (row line, column line) shared by both
                // squares: the larger row and column; interior lines are
                // 1..=7, points 0-based.
                let gr = if nr > r { nr } else { r };
                let gc = if nc > c { nc } else { c };
                cross[s][d] = ((gr - 1) * 7 + (gc - 1)) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    (step, cross)
}

const fn build_corners() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (r, c) = (s / 8, s % 8);
        let mut k = 0;
        while k < 4 {
            let (gr, gc) = (r + k / 2, c + k % 2);
            if gr >= 1 && gr <= 7 && gc >= 1 && gc <= 7 {
                t[s] |= 1 << ((gr - 1) * 7 + (gc - 1));
            }
            k += 1;
        }
        s += 1;
    }
    t
}

const fn build_point_squares() -> [u64; 49] {
    let mut t = [0u64; 49];
    let mut p = 0;
    while p < 49 {
        let (r, c) = (p / 7, p % 7);
        t[p] = 1 << (r * 8 + c)
            | 1 << (r * 8 + c + 1)
            | 1 << ((r + 1) * 8 + c)
            | 1 << ((r + 1) * 8 + c + 1);
        p += 1;
    }
    t
}

const fn build_point_neighbours() -> [u64; 49] {
    let mut t = [0u64; 49];
    let mut p = 0;
    while p < 49 {
        let (r, c) = (p / 7, p % 7);
        if r > 0 {
            t[p] |= 1 << (p - 7);
        }
        if r < 6 {
            t[p] |= 1 << (p + 7);
        }
        if c > 0 {
            t[p] |= 1 << (p - 1);
        }
        if c < 6 {
            t[p] |= 1 << (p + 1);
        }
        p += 1;
    }
    t
}

/// The points next to any point of `b`.
pub(super) fn neighbours(b: u64) -> u64 {
    bits(b).fold(0, |n, p| n | PT_NEIGH[p as usize])
}

/// The COIN pieces that a stone just placed on `p` surrounds: pieces on the
/// four squares around `p` whose interior corners all hold stones
/// (`stones` includes `p`).
#[inline]
pub(super) fn surrounded_by(p: u8, stones: u64, coin: u64) -> u64 {
    let mut out = 0;
    for s in bits(PT_SQUARES[p as usize] & coin) {
        if SQ_CORNERS[s as usize] & !stones == 0 {
            out |= 1 << s;
        }
    }
    out
}

/// The points where the guerrilla's first stone may go, before the
/// second-stone test: next to a stone on the board, or anywhere on the
/// very first turn (engine/src/games/guerrilla/guerrilla-checkers.md, "The
/// guerrilla's turn").
pub(super) fn first_candidates(pos: &Guerrilla) -> u64 {
    let empty = ALL_POINTS & !pos.stones;
    if pos.stones == 0 {
        empty
    } else {
        neighbours(pos.stones) & empty
    }
}

/// What a first stone on `f` allows: `None` when it removes the last COIN
/// piece (the guerrilla wins at once and places no second stone), else
/// the free points for the second stone (none when the supply cannot pay
/// for it).
pub(super) fn seconds_after(pos: &Guerrilla, f: u8) -> Option<u64> {
    let s1 = pos.stones | 1 << f;
    if pos.coin & !surrounded_by(f, s1, pos.coin) == 0 {
        return None;
    }
    if pos.supply < 2 {
        return Some(0);
    }
    Some(PT_NEIGH[f as usize] & !s1)
}

fn guerrilla(pos: &Guerrilla, out: &mut Vec<Move>) {
    for f in bits(first_candidates(pos)) {
        let first = Point(f);
        match seconds_after(pos, f) {
            // engine/src/games/guerrilla/guerrilla-checkers.md, "Rulings": the
            // last COIN piece removed by the first stone ends the game; no pair
            // starts with that stone.
            None => out.push(Move::Stones {
                first,
                second: None,
            }),
            // A first stone with no free point beside it is no move.
            Some(seconds) => {
                for s in bits(seconds) {
                    out.push(Move::Stones {
                        first,
                        second: Some(Point(s)),
                    });
                }
            }
        }
    }
}

fn count_guerrilla(pos: &Guerrilla) -> usize {
    bits(first_candidates(pos))
        .map(|f| match seconds_after(pos, f) {
            None => 1,
            Some(seconds) => seconds.count_ones() as usize,
        })
        .sum()
}

/// A capture chain in progress: where the piece started, its steps so far.
struct Chain {
    from: Sq,
    steps: u8,
    dirs: u128,
}

/// Extends a chain from `at` by every capture (a stone on the crossed
/// point, an empty landing square); a chain that cannot go on is a move
/// (engine/src/games/guerrilla/guerrilla-checkers.md, "COIN's turn": "once a
/// piece has captured it must go on").
fn extend(chain: &mut Chain, at: usize, stones: u64, occupied: u64, out: &mut Vec<Move>) {
    let mut went_on = false;
    for d in 0..4 {
        let to = STEP[at][d];
        if to == OFF || occupied & (1 << to) != 0 {
            continue;
        }
        let p = CROSS[at][d];
        if stones & (1 << p) == 0 {
            continue;
        }
        went_on = true;
        chain.dirs |= (d as u128) << (2 * chain.steps);
        chain.steps += 1;
        extend(chain, to as usize, stones & !(1 << p), occupied, out);
        chain.steps -= 1;
        chain.dirs &= !(3u128 << (2 * chain.steps));
    }
    if !went_on {
        out.push(Move::Coin {
            from: chain.from,
            steps: chain.steps,
            dirs: chain.dirs,
            capture: true,
        });
    }
}

fn count_chains(at: usize, stones: u64, occupied: u64) -> usize {
    let mut n = 0;
    for d in 0..4 {
        let to = STEP[at][d];
        if to == OFF || occupied & (1 << to) != 0 {
            continue;
        }
        let p = CROSS[at][d];
        if stones & (1 << p) != 0 {
            n += count_chains(to as usize, stones & !(1 << p), occupied);
        }
    }
    n.max(1)
}

fn coin(pos: &Guerrilla, out: &mut Vec<Move>) {
    for s in bits(pos.coin) {
        let at = s as usize;
        // The start square is empty once the piece has left it.
        let occupied = pos.coin & !(1 << s);
        for d in 0..4 {
            let to = STEP[at][d];
            if to == OFF || occupied & (1 << to) != 0 {
                continue;
            }
            let p = CROSS[at][d];
            if pos.stones & (1 << p) == 0 {
                // A quiet step never crosses a stone.
                out.push(Move::Coin {
                    from: Sq(s),
                    steps: 1,
                    dirs: d as u128,
                    capture: false,
                });
            } else {
                let mut chain = Chain {
                    from: Sq(s),
                    steps: 1,
                    dirs: d as u128,
                };
                extend(
                    &mut chain,
                    to as usize,
                    pos.stones & !(1 << p),
                    occupied,
                    out,
                );
            }
        }
    }
}

fn count_coin(pos: &Guerrilla) -> usize {
    let mut n = 0;
    for s in bits(pos.coin) {
        let at = s as usize;
        let occupied = pos.coin & !(1 << s);
        for d in 0..4 {
            let to = STEP[at][d];
            if to == OFF || occupied & (1 << to) != 0 {
                continue;
            }
            let p = CROSS[at][d];
            if pos.stones & (1 << p) == 0 {
                n += 1;
            } else {
                n += count_chains(to as usize, pos.stones & !(1 << p), occupied);
            }
        }
    }
    n
}

pub(super) fn generate(pos: &Guerrilla, out: &mut Vec<Move>) {
    match pos.turn {
        Side::A => guerrilla(pos, out),
        Side::B => coin(pos, out),
    }
}

pub(super) fn count(pos: &Guerrilla) -> usize {
    match pos.turn {
        Side::A => count_guerrilla(pos),
        Side::B => count_coin(pos),
    }
}
