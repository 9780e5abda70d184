//! The Mad Rooks and Mad Bishops boards for a plain-text email.
//!
//! Neither game has a home side (both start symmetric and nobody moves
//! "forward"), so the board is always drawn in the standard orientation,
//! square 1 at the top left, whoever's seat it is drawn for.

use super::{MadPosition, Variant};
use crate::board::Words;
use crate::board::{Board, Colour, Kind, Piece, Shade, Square};
use crate::diagram::{last_move_legend, status_line, wrap};
use crate::game::{Side, View};

/// The board as data: red and blue checkers, never turned.
pub(super) fn board<V: Variant>(pos: &MadPosition<V>, view: &View) -> Board {
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    Board::new(V::GEOMETRY, false, |s| Square {
        piece: pos.checker(s).map(|side| {
            let (colour, letter, name) = match side {
                Side::A => (Colour::Red, "R", "red checker"),
                Side::B => (Colour::Blue, "B", "blue checker"),
            };
            Piece {
                side,
                colour,
                kind: Kind::Single,
                label: "".into(),
                ascii: letter.into(),
                name: name.into(),
            }
        }),
        shade: Shade::of(V::GEOMETRY, s),
        marked: marked.contains(&s),
    })
}

/// The caption and the counts above the board, the legend below.
pub(super) fn words<V: Variant>(pos: &MadPosition<V>, view: &View) -> Words {
    let rules = V::INFO;
    let mut above = status_line(pos, view);
    above.push_str(&format!(
        "Checkers on the board: {} {}, {} {}\n\n",
        rules.side_name(Side::A),
        pos.count(Side::A),
        rules.side_name(Side::B),
        pos.count(Side::B)
    ));
    let mut below = wrap(
        &format!(
            "\nR = red checker, B = blue checker. {}",
            crate::diagram::NUMBERS
        ),
        72,
    );
    let last = last_move_legend(view);
    if !last.is_empty() {
        below.push_str(&wrap(last.trim(), 72));
    }
    Words { above, below }
}
