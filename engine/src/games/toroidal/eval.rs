//! The bot's evaluation of a Toroidal Checkers position: a
//! side with no piece in heaven loses
//! (engine/src/games/toroidal/toroidal-checkers.md, "Winning and drawing"), so
//! pieces in heaven count besides all pieces, kings count more (they move both
//! ways and a jumped piece that lands on a man makes one), and being down to
//! one or two pieces in heaven is a danger.

use super::Toroidal;
use crate::bot::eval::{Evaluate, signed};
use crate::game::Side;

const MAN: i32 = 100;
const KING: i32 = 160;
const HEAVEN: i32 = 25;

impl Evaluate for Toroidal {
    fn evaluate(&self) -> i32 {
        let mut v = 0;
        for &p in &self.board {
            if p != 0 {
                let side = if p > 0 { Side::A } else { Side::B };
                v += signed(side, if p.abs() >= 2 { KING } else { MAN });
            }
        }
        for side in Side::BOTH {
            let h = i32::from(self.heaven[side.index()]);
            let danger = match h {
                0 | 1 => 150,
                2 => 60,
                _ => 0,
            };
            v += signed(side, HEAVEN * h - danger);
        }
        v
    }
}
