//! Bitboards for the two boards: a `u64` for Mad Rooks' 8x8, a `u128` for
//! Mad Bishops' 10x10 (bit `i` is the 0-based square `i`), and the rays
//! along the four directions of each game, computed at compile time.

use crate::geom::{Dir, Sq};
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const ZERO: Self;
    /// The set holding square `i` alone; empty when `i` is beyond the word
    /// (so a stray square never panics).
    fn bit(i: usize) -> Self;
    /// The lowest square; only for a non-empty set.
    fn lowest(self) -> usize;
    /// The highest square; only for a non-empty set.
    fn highest(self) -> usize;
    /// The number of squares.
    fn count(self) -> u32;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;

    #[inline]
    fn has(self, s: Sq) -> bool {
        self & Self::bit(s.index()) != Self::ZERO
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// The squares, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline]
            fn bit(i: usize) -> $t {
                (1 as $t).checked_shl(i as u32).unwrap_or(0)
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
        }
    };
}
bits!(u64);
bits!(u128);

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: Bits> Iterator for Squares<B> {
    type Item = Sq;
    #[inline]
    fn next(&mut self) -> Option<Sq> {
        if self.0.is_empty() {
            return None;
        }
        let s = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(Sq(s as u8))
    }
}

/// For each of `dirs` and each square of a `width` x `height` board (at
/// most 100 squares), the squares from it (exclusive) to the edge.
pub(super) const fn rays(width: i8, height: i8, dirs: [Dir; 4]) -> [[u128; 100]; 4] {
    let mut table = [[0u128; 100]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < (width as usize) * (height as usize) {
            let (mut r, mut c) = ((s as i8) / width, (s as i8) % width);
            let mut ray = 0u128;
            loop {
                r += dirs[d].dr;
                c += dirs[d].dc;
                if r < 0 || c < 0 || r >= height || c >= width {
                    break;
                }
                ray |= 1u128 << (r as u32 * width as u32 + c as u32);
            }
            table[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    table
}

/// [`rays`] of an 8x8 board in `u64`s.
pub(super) const fn narrow(wide: [[u128; 100]; 4]) -> [[u64; 64]; 4] {
    let mut table = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 64 {
            table[d][s] = wide[d][s] as u64;
            s += 1;
        }
        d += 1;
    }
    table
}
