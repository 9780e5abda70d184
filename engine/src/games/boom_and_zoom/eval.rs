//! The bot's evaluation of a Boom & Zoom position: the score
//! decides the game (engine/src/games/boom_and_zoom/boom-and-zoom.md, "End of
//! the game"), so a checker zoomed off is worth most; a checker on the board is
//! worth what it may still score, more the nearer its tower stands to the edge
//! it leaves by, and a tall tower is worth more than its checkers (it moves and
//! fires further).

use super::BoomAndZoom;
use crate::bot::eval::{Evaluate, signed};
use crate::game::Side;

/// A checker zoomed off: points that decide the game.
const OFF: i32 = 100;
/// A checker on the board, before its progress.
const ON_BOARD: i32 = 35;
/// Per checker, per row nearer its edge.
const PROGRESS: i32 = 4;

impl Evaluate for BoomAndZoom {
    fn evaluate(&self) -> i32 {
        let mut v = OFF * (i32::from(self.off[0]) - i32::from(self.off[1]));
        for (i, &t) in self.board.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let side = if t > 0 { Side::A } else { Side::B };
            let h = i32::from(t.unsigned_abs());
            let row = (i / 8) as i32;
            let progress = match side {
                Side::A => row,
                Side::B => 7 - row,
            };
            v += signed(side, h * (ON_BOARD + PROGRESS * progress) + 5 * (h - 1));
        }
        v
    }
}
