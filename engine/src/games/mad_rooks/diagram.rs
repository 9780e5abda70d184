//! The Mad Rooks and Mad Bishops boards for a plain-text email.
//!
//! Neither game has a home side (both start symmetric and nobody moves
//! "forward"), so the board is always drawn in the standard orientation,
//! square 1 at the top left, whoever's seat it is drawn for.

use super::{MadPosition, Variant};
use crate::diagram::{Cell, grid, last_move_legend, plain_corner, status_line, wrap};
use crate::game::{Side, View};

pub(super) fn diagram<V: Variant>(pos: &MadPosition<V>, view: &View) -> String {
    let rules = V::INFO;
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    let board = grid(
        V::GEOMETRY,
        false,
        |s| Cell {
            piece: match pos.checker(s) {
                Some(Side::A) => "R".to_string(),
                Some(Side::B) => "B".to_string(),
                None => String::new(),
            },
            fill: None,
            marked: marked.contains(&s),
        },
        plain_corner,
    );
    let mut out = status_line(pos, view);
    out.push_str(&format!(
        "Checkers on the board: {} {}, {} {}\n\n",
        rules.side_name(Side::A),
        pos.count(Side::A),
        rules.side_name(Side::B),
        pos.count(Side::B)
    ));
    out.push_str(&board);
    out.push_str(&wrap(
        &format!(
            "\nR = red checker, B = blue checker. {}",
            crate::diagram::NUMBERS
        ),
        72,
    ));
    let last = last_move_legend(view);
    if !last.is_empty() {
        out.push_str(&wrap(last.trim(), 72));
    }
    out
}
