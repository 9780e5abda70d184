//! Legal moves of Dragons Teeth (RULES.md 2: Move, Moving off).

use super::{DragonsTeeth, G, Move};
use crate::game::Side;
use crate::geom::{ALL, Dir, Sq};

/// Squares along every ray and around every square, computed once: move
/// generation reads them instead of stepping row and column.
pub(super) struct Tables {
    /// `ray[s][d][..ray_len[s][d]]`: the squares from `s` (exclusive) in
    /// direction `ALL[d]` to the edge, nearest first.
    ray: [[[u8; 7]; 8]; 64],
    ray_len: [[u8; 8]; 64],
    /// `neighbours[s][..neighbour_count[s]]`: the board squares adjacent to
    /// `s` (8 neighbours, diagonals included), in increasing order.
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

/// The mover's attack on `target` from `from` (RULES.md 2, Move): its own
/// strength plus the strengths of all the mover's OTHER teeth adjacent to
/// the target before the move. The mover never assists itself, even when
/// it starts next to the target.
#[inline]
pub(super) fn attack(pos: &DragonsTeeth, from: Sq, target: Sq, sign: i8) -> i8 {
    let own = pos.board[from.index() & 63] * sign;
    let mut total = own;
    for &n in TABLES.neighbours(target) {
        let v = pos.board[n as usize] * sign;
        if v > 0 && n != from.0 {
            total += v;
        }
    }
    total
}

/// How one forward line from a square ends (RULES.md 2, Moving off).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Exit {
    /// Empty squares all the way: the tooth may leave this way.
    Open,
    /// A tooth stands on this square of the line.
    Blocked(Sq),
    /// The line runs off a side edge before the last row.
    SideEdge,
}

/// The forward line from `from` with column step `dc` (-1, 0, 1): every
/// square up to and including the last row must be on the board and
/// empty; the step off the far edge (the far corner included) follows. A
/// tooth already on the last row leaves in any of the three directions.
#[inline]
pub(super) fn exit(pos: &DragonsTeeth, from: Sq, side: Side, dc: i8) -> Exit {
    let (last_row, forward) = DragonsTeeth::last_row(side);
    let steps = G.row(from).abs_diff(last_row);
    let mut at = from;
    for _ in 0..steps {
        match G.step(at, Dir::new(forward, dc)) {
            None => return Exit::SideEdge,
            Some(n) if pos.board[n.index()] != 0 => return Exit::Blocked(n),
            Some(n) => at = n,
        }
    }
    Exit::Open
}

/// Whether the tooth on `from` may move off (one move, however many lines
/// lead off).
#[inline]
pub(super) fn can_leave(pos: &DragonsTeeth, from: Sq, side: Side) -> bool {
    [0, -1, 1]
        .into_iter()
        .any(|dc| exit(pos, from, side, dc) == Exit::Open)
}

/// Calls `f` for every legal move of the side to move.
#[inline]
fn each(pos: &DragonsTeeth, mut f: impl FnMut(Move)) {
    let me = pos.turn;
    let sign: i8 = if me == Side::A { 1 } else { -1 };
    for i in 0..64u8 {
        if pos.board[i as usize] * sign <= 0 {
            continue;
        }
        let from = Sq(i);
        for d in 0..8 {
            for &t in TABLES.ray(from, d) {
                let to = Sq(t);
                let v = pos.board[t as usize] * sign;
                if v == 0 {
                    f(Move::Step { from, to });
                    continue;
                }
                // Nothing passes through any tooth; an enemy tooth may be
                // eliminated when the attack reaches its strength.
                if v < 0 && attack(pos, from, to, sign) >= -v {
                    f(Move::Eliminate { from, to });
                }
                break;
            }
        }
        if can_leave(pos, from, me) {
            f(Move::Off { from });
        }
    }
}

pub(super) fn generate(pos: &DragonsTeeth, out: &mut Vec<Move>) {
    each(pos, |m| out.push(m));
}

pub(super) fn count(pos: &DragonsTeeth) -> usize {
    let mut n = 0;
    each(pos, |_| n += 1);
    n
}
