//! The Dragons Teeth board for a plain-text email.

use super::{DragonsTeeth, G, WINNING_SCORE};
use crate::board::Words;
use crate::diagram::{last_move_legend, status_line, wrap};
use crate::game::{Game, Side, View};

/// The legend's note on the rules.
const NOTE: &str = "Black moves off the edge beyond 57-64, red beyond 1-8.";

/// The board as data: tooths of a side and a number.
pub(super) fn board(pos: &DragonsTeeth, view: &View) -> crate::board::Board {
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    let mut board = crate::diagram::counted_board(G, view, &marked, "tooth", |s| pos.tooth(s));
    board.notes = vec![NOTE.into()];
    board
}

/// The caption and the score above the board, the legend below.
pub(super) fn words(pos: &DragonsTeeth, view: &View) -> Words {
    let rules = DragonsTeeth::INFO;
    let mut above = status_line(pos, view);
    above.push_str(&format!(
        "Strength moved off: {} {}, {} {} ({WINNING_SCORE} wins).\n\n",
        rules.side_name(Side::A),
        pos.score(Side::A),
        rules.side_name(Side::B),
        pos.score(Side::B)
    ));
    let below = wrap(
        &format!(
            "\nB3, B2, B1 = black large, medium, small tooth (strength 3, 2, 1); R3, R2, R1 = red ones. {}{} {NOTE}",
            crate::diagram::NUMBERS,
            last_move_legend(view)
        ),
        72,
    );
    Words { above, below }
}
