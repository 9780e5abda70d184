//! Legal moves of Dragons Teeth
//! (engine/src/games/dragons_teeth/dragons-teeth.md: Move, Moving off).

use super::{DragonsTeeth, G, Move};
use crate::game::Side;
use crate::geom::{Dir, Sq};

pub(super) use crate::geom::RAYS_8X8 as TABLES;

/// The mover's attack on `target` from `from`
/// (engine/src/games/dragons_teeth/dragons-teeth.md, "Moving"): its own
/// strength plus the strengths of all the mover's OTHER teeth adjacent to the
/// target before the move. The mover never assists itself, even when it starts
/// next to the target.
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

/// How one forward line from a square ends
/// (engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off").
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
pub(super) fn each(pos: &DragonsTeeth, mut f: impl FnMut(Move)) {
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
