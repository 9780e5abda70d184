//! Legal moves of Embed (engine/src/games/embed/embed.md, "Moving").

use super::{DRONE, Embed, Move};
use crate::game::Side;
use crate::geom::Sq;

pub(super) use crate::geom::RAYS_8X8 as TABLES;

/// Calls `f` for every legal move of the side to move: queen lines through
/// empty squares; a boss stops before any piece; a drone may end on an
/// enemy drone, never on a boss or its own drone. Nothing passes over a
/// piece ("No Skipping").
#[inline]
pub(super) fn each(pos: &Embed, mut f: impl FnMut(Move)) {
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
