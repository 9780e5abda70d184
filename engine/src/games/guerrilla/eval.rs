//! The bot's evaluation of a Guerrilla Checkers position,
//! for the guerrilla ([`Side::A`]): COIN pieces removed count most (the
//! guerrilla wins by removing all six,
//! engine/src/games/guerrilla/guerrilla-checkers.md); a COIN piece with more of
//! its four corners closed (a stone, or the board's edge) is nearer to removal;
//! stones on the board count (COIN wins when none is left), and the supply
//! running low counts against the guerrilla.

use super::{Guerrilla, bits};
use crate::bot::eval::Evaluate;
use crate::geom::{Geometry, Sq};

/// A COIN piece on the board, against the guerrilla.
const COIN: i32 = 400;
/// A stone on the board.
const STONE: i32 = 18;
/// Per COIN piece, times the square of its closed corners.
const CORNER: i32 = 12;

impl Evaluate for Guerrilla {
    fn evaluate(&self) -> i32 {
        let g = Geometry::EIGHT;
        let mut v = STONE * self.stones.count_ones() as i32;
        for s in bits(self.coin) {
            let closed = g
                .corners(Sq(s))
                .iter()
                .filter(|c| c.is_none_or(|p| self.stones & (1 << p.0) != 0))
                .count() as i32;
            v += CORNER * closed * closed - COIN;
        }
        // Fewer stones in hand than COIN needs to be boxed in: running out.
        let pieces = self.coin.count_ones() as i32;
        let supply = i32::from(self.supply);
        if supply < pieces * 6 {
            v -= 10 * (pieces * 6 - supply);
        }
        v
    }
}
