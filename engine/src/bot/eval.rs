//! What the search needs from a game beyond [`Game`]: a static
//! evaluation. Each game implements [`Evaluate`] in its own folder
//! (`games/<game>/eval.rs`: "a game's facts in its own folder"); the
//! search ([`crate::bot`]) is written once against it.

use crate::game::{Game, Side};

/// A won game, as the search scores it from the winner's side; a win
/// `ply` moves away scores `WIN - ply`, so the bot wins as soon as it can
/// and loses as late as it can. Every evaluation stays far below it.
pub const WIN: i32 = 1_000_000;

/// The largest score an evaluation may give (in either direction).
pub const EVAL_LIMIT: i32 = WIN / 10;

/// A game's static evaluation, for the search.
pub trait Evaluate: Game {
    /// How good the position is for [`Side::A`] (negative: for
    /// [`Side::B`]), in hundredths of a typical piece, bounded by
    /// [`EVAL_LIMIT`]. Called on positions that are not decided.
    fn evaluate(&self) -> i32;

    /// How good the position is for `side`.
    fn evaluate_for(&self, side: Side) -> i32 {
        let v = self.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        match side {
            Side::A => v,
            Side::B => -v,
        }
    }
}

/// `+v` for side A's things and `-v` for side B's: the sign of a board
/// value in the games that store side A positive.
#[inline]
pub fn signed(side: Side, v: i32) -> i32 {
    match side {
        Side::A => v,
        Side::B => -v,
    }
}
