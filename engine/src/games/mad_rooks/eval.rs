//! The bot's evaluation of a Mad Rooks or Mad Bishops position: the game is won by killing every enemy checker
//! (engine/src/games/mad_rooks/mad-rooks.md), so the count of checkers is all;
//! the search sees the kills.

use super::{MadPosition, Variant};
use crate::bot::eval::Evaluate;
use crate::game::Side;

const CHECKER: i32 = 100;

impl<V: Variant> Evaluate for MadPosition<V> {
    fn evaluate(&self) -> i32 {
        CHECKER * (self.count(Side::A) as i32 - self.count(Side::B) as i32)
    }
}
