//! The Boom & Zoom board for a plain-text email.

use super::{BoomAndZoom, G};
use crate::board::Words;
use crate::game::{Game, Side, View};

/// The legend's note on the rules.
const NOTE: &str = "Black zooms off the edge beyond 57-64, red beyond 1-8.";

/// The board as data: towers of a side and a number.
pub(super) fn board(pos: &BoomAndZoom, view: &View) -> crate::board::Board {
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    let mut board = crate::diagram::counted_board(G, view, &marked, "tower", |s| pos.tower(s));
    board.notes = vec![NOTE.into()];
    board
}

/// The caption and the score above the board, the legend below.
pub(super) fn words(pos: &BoomAndZoom, view: &View) -> Words {
    let rules = BoomAndZoom::INFO;
    let mut above = crate::diagram::status_line(pos, view);
    above.push_str(&format!(
        "Checkers zoomed off: {} {}, {} {}\n\n",
        rules.side_name(Side::A),
        pos.score(Side::A),
        rules.side_name(Side::B),
        pos.score(Side::B)
    ));
    let below = crate::diagram::wrap(
        &format!(
            "\nB3 = black tower of 3 checkers, R2 = red tower of 2. {}{} {NOTE}",
            crate::diagram::NUMBERS,
            crate::diagram::last_move_legend(view)
        ),
        72,
    );
    Words { above, below }
}
