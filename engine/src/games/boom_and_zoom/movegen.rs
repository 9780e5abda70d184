//! Legal moves of Boom & Zoom (engine/src/games/boom_and_zoom/boom-and-zoom.md:
//! Zoom, Boom, Zooming off).

use super::{BoomAndZoom, G, Move};
use crate::game::Side;
use crate::geom::{ALL, Dir, Sq};

/// Calls `f` for every legal move of the side to move.
#[inline]
pub(super) fn each(pos: &BoomAndZoom, mut f: impl FnMut(Move)) {
    let me = pos.turn;
    let sign: i8 = if me == Side::A { 1 } else { -1 };
    let (last_row, forward) = BoomAndZoom::last_row(me);
    for i in 0..64u8 {
        let v = pos.board[i as usize] * sign;
        if v <= 0 {
            continue;
        }
        let from = Sq(i);
        let h = v as u8;
        for d in ALL {
            for to in G.ray(from, d).take(h as usize) {
                let t = pos.board[to.index()] * sign;
                if t == 0 {
                    f(Move::Zoom { from, to });
                } else {
                    if t < 0 {
                        f(Move::Boom { from, target: to });
                    }
                    break;
                }
            }
        }
        if can_leave(pos, from, h, last_row, forward) {
            f(Move::Off { from });
        }
    }
}

/// engine/src/games/boom_and_zoom/boom-and-zoom.md, "Zooming off": the tower
/// reaches the last row in at most h-1 steps through empty squares along a
/// straight or diagonally forward line that stays on the board, then steps off
/// (the far corner included).
pub(super) fn can_leave(pos: &BoomAndZoom, from: Sq, h: u8, last_row: u8, forward: i8) -> bool {
    let steps = G.row(from).abs_diff(last_row);
    if steps + 1 > h {
        return false;
    }
    [-1, 0, 1].into_iter().any(|dc| {
        let mut at = from;
        for _ in 0..steps {
            match G.step(at, Dir::new(forward, dc)) {
                Some(n) if pos.board[n.index()] == 0 => at = n,
                _ => return false,
            }
        }
        true
    })
}
