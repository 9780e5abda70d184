//! The bot's evaluation of a Dragons Teeth position: the race
//! to 6 strength points moved off
//! (engine/src/games/dragons_teeth/dragons-teeth.md, "End of the game") counts
//! most, then the teeth on the board by strength, more the nearer they stand to
//! the edge they leave by.

use super::{DragonsTeeth, WINNING_SCORE};
use crate::bot::eval::{Evaluate, signed};
use crate::game::Side;

/// A strength point moved off.
const OFF: i32 = 120;
/// A strength point on the board, before its progress.
const ON_BOARD: i32 = 40;
/// Per strength point, per row nearer its edge.
const PROGRESS: i32 = 5;

impl Evaluate for DragonsTeeth {
    fn evaluate(&self) -> i32 {
        let near = |s: u8| if s + 3 >= WINNING_SCORE { 60 } else { 0 };
        let mut v = OFF * (i32::from(self.off[0]) - i32::from(self.off[1])) + near(self.off[0])
            - near(self.off[1]);
        for (i, &t) in self.board.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let side = if t > 0 { Side::A } else { Side::B };
            let s = i32::from(t.unsigned_abs());
            let row = (i / 8) as i32;
            let progress = match side {
                Side::A => row,
                Side::B => 7 - row,
            };
            v += signed(side, s * (ON_BOARD + PROGRESS * progress));
        }
        v
    }
}
