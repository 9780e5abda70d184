//! Legal moves of Mad Rooks and Mad Bishops
//! (engine/src/games/mad_rooks/mad-rooks.md: Kill, Engage), on bitboards.
//!
//! Being in line is symmetric: a square sees an enemy checker along a line
//! with only empty squares between exactly when that checker sees the
//! square. So the squares from which a checker would be in position to
//! kill are the squares the enemy checkers see ([`enemy_sight`]), and a
//! checker is in position to kill when it sees an enemy itself.

use super::{Bits, MadPosition, Move, Variant};
use crate::geom::Sq;

/// The squares `s` sees along its lines with occupancy `occ`: the empty
/// squares up to the first checker in each direction, and that checker.
#[inline]
pub(super) fn sight<V: Variant>(s: usize, occ: V::Bits) -> V::Bits {
    let mut seen = V::Bits::ZERO;
    for d in 0..4 {
        let ray = V::ray(d, s);
        let blockers = ray & occ;
        seen |= if blockers.is_empty() {
            ray
        } else {
            // V::DIRS: the first two directions increase the square index,
            // so their nearest blocker is the lowest one.
            let nearest = if d < 2 {
                blockers.lowest()
            } else {
                blockers.highest()
            };
            ray ^ V::ray(d, nearest)
        };
    }
    seen
}

/// The squares from which a checker of the side to move would be in
/// position to kill: those that see an enemy checker along a line with
/// only empty squares between, judged on the board as it is, the moving
/// checker still on its origin (engine/src/games/mad_rooks/mad-rooks.md,
/// "Ruling: judging an engage").
#[inline]
fn enemy_sight<V: Variant>(enemies: V::Bits, occ: V::Bits) -> V::Bits {
    let mut seen = V::Bits::ZERO;
    for e in enemies.squares() {
        seen |= sight::<V>(e.index(), occ);
    }
    seen
}

/// Calls `per_checker(from, kills, engages)` for every checker of the side
/// to move with the squares it may kill on and the squares it may engage
/// to (at most one of the two sets is non-empty).
#[inline]
fn each_checker<V: Variant>(
    pos: &MadPosition<V>,
    mut per_checker: impl FnMut(Sq, V::Bits, V::Bits),
) {
    let me = pos.turn.index();
    let mine = pos.checkers[me];
    let theirs = pos.checkers[1 - me];
    let occ = mine | theirs;
    // Computed when a checker first needs it: most checkers can kill in a
    // crowded opening.
    let mut engage_squares: Option<V::Bits> = None;
    for from in mine.squares() {
        let seen = sight::<V>(from.index(), occ);
        let kills = seen & theirs;
        if !kills.is_empty() {
            // engine/src/games/mad_rooks/mad-rooks.md, "Killing": a checker in
            // position to kill may only kill, any enemy it sees.
            per_checker(from, kills, V::Bits::ZERO);
        } else {
            // engine/src/games/mad_rooks/mad-rooks.md, "Engaging": slide
            // through empty squares to an empty square that sees an enemy.
            let targets =
                *engage_squares.get_or_insert_with(|| enemy_sight::<V>(theirs, occ) & !occ);
            per_checker(from, V::Bits::ZERO, seen & targets);
        }
    }
}

pub(super) fn each_move<V: Variant>(pos: &MadPosition<V>, mut visit: impl FnMut(Move)) {
    each_checker(pos, |from, kills, engages| {
        kills
            .squares()
            .for_each(|to| visit(Move::Kill { from, to }));
        engages
            .squares()
            .for_each(|to| visit(Move::Engage { from, to }));
    });
}

pub(super) fn count<V: Variant>(pos: &MadPosition<V>) -> usize {
    let mut n = 0;
    each_checker(pos, |_, kills, engages| {
        n += (kills.count() + engages.count()) as usize;
    });
    n
}
