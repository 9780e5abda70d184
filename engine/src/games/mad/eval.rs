//! The bot's evaluation of a M.A.D. position: a checker on
//! the opponent's home row wins (engine/src/games/mad/mad.md, "Winning"), so
//! each checker counts, more the nearer it stands to that row (growing steeply:
//! a checker two rows away is a threat), and stacks that can still lunge count
//! a little more.

use super::{Mad, goal_row};
use crate::bot::eval::{Evaluate, signed};
use crate::game::Side;

const CHECKER: i32 = 100;
/// Times the square of the rows a checker has come.
const PROGRESS: i32 = 3;

impl Evaluate for Mad {
    fn evaluate(&self) -> i32 {
        let mut v = 0;
        for (i, &t) in self.board.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let side = if t > 0 { Side::A } else { Side::B };
            let h = i32::from(t.unsigned_abs());
            let row = (i / 8) as i32;
            let start = 7 - i32::from(goal_row(side));
            let progress = (row - start).abs();
            v += signed(
                side,
                h * (CHECKER + PROGRESS * progress * progress) + 4 * (h - 1),
            );
        }
        v
    }
}
