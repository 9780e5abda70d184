//! Legal moves of Embed (RULES.md 3, Move).

use super::{DRONE, Embed, Move};
use crate::game::Side;
use crate::geom::{ALL, Sq};

/// Squares along every ray and around every square, computed once: move
/// generation and the embedding test read them instead of stepping row and
/// column.
pub(super) struct Tables {
    /// `ray[s][d][..ray_len[s][d]]`: the squares from `s` (exclusive) in
    /// direction `ALL[d]` to the edge, nearest first.
    ray: [[[u8; 7]; 8]; 64],
    ray_len: [[u8; 8]; 64],
    /// `neighbours[s][..neighbour_count[s]]`: the board squares adjacent to
    /// `s`, in increasing order: 8, 5 on an edge, 3 in a corner.
    neighbours: [[u8; 8]; 64],
    neighbour_count: [u8; 64],
}

const fn build() -> Tables {
    let mut t = Tables {
        ray: [[[0; 7]; 8]; 64],
        ray_len: [[0; 8]; 64],
        neighbours: [[0; 8]; 64],
        neighbour_count: [0; 64],
    };
    let mut s = 0;
    while s < 64 {
        let (r, c) = ((s / 8) as i8, (s % 8) as i8);
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = (ALL[d].dr, ALL[d].dc);
            let (mut rr, mut cc) = (r + dr, c + dc);
            let mut n = 0;
            while rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                t.ray[s][d][n] = (rr * 8 + cc) as u8;
                n += 1;
                rr += dr;
                cc += dc;
            }
            t.ray_len[s][d] = n as u8;
            if n > 0 {
                // ALL is ordered by square offset, so neighbours come out
                // in increasing order.
                t.neighbours[s][t.neighbour_count[s] as usize] = t.ray[s][d][0];
                t.neighbour_count[s] += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

pub(super) static TABLES: Tables = build();

impl Tables {
    #[inline]
    pub(super) fn ray(&self, s: Sq, d: usize) -> &[u8] {
        &self.ray[s.index() & 63][d][..self.ray_len[s.index() & 63][d] as usize]
    }
    #[inline]
    pub(super) fn neighbours(&self, s: Sq) -> &[u8] {
        &self.neighbours[s.index() & 63][..self.neighbour_count[s.index() & 63] as usize]
    }
}

/// Calls `f` for every legal move of the side to move: queen lines through
/// empty squares; a boss stops before any piece; a drone may end on an
/// enemy drone, never on a boss or its own drone. Nothing passes over a
/// piece ("No Skipping").
#[inline]
fn each(pos: &Embed, mut f: impl FnMut(Move)) {
    let sign: i8 = if pos.turn == Side::A { 1 } else { -1 };
    for i in 0..64u8 {
        let v = pos.board[i as usize] * sign;
        if v <= 0 {
            continue;
        }
        let from = Sq(i);
        for d in 0..8 {
            for &t in TABLES.ray(from, d) {
                let to = Sq(t);
                let target = pos.board[t as usize] * sign;
                if target == 0 {
                    f(Move::Step { from, to });
                    continue;
                }
                if v == DRONE && target == -DRONE {
                    f(Move::Capture { from, to });
                }
                break;
            }
        }
    }
}

pub(super) fn generate(pos: &Embed, out: &mut Vec<Move>) {
    each(pos, |m| out.push(m));
}

pub(super) fn count(pos: &Embed) -> usize {
    let mut n = 0;
    each(pos, |_| n += 1);
    n
}
