//! The Toroidal Checkers board for a plain-text email: heaven squares
//! shaded, men and kings of both sides, the count towards the 40-move
//! draw, and a reminder that the board wraps.

use super::{G, QUIET_LIMIT, Toroidal};
use crate::board::Words;
use crate::board::{Board, Colour, HEAVEN_FILL as HEAVEN, Kind, Piece, Shade, Square};
use crate::diagram::{status_line, wrap};
use crate::game::{Side, View};

/// The board as data: men and kings (crowned, `K`), heaven shaded.
pub(super) fn board(pos: &Toroidal, view: &View) -> Board {
    let marked = view.last.as_ref().map(|n| n.squares()).unwrap_or_default();
    // Black starts at the top, so black's seat turns the board (View::seat).
    let mut board = Board::new(G, view.seat == Some(Side::A), |s| Square {
        piece: pos.piece(s).map(|p| {
            let (colour, ascii, name) = match (p.side, p.king) {
                (Side::A, false) => (Colour::Black, "b", "black man"),
                (Side::A, true) => (Colour::Black, "BB", "black king"),
                (Side::B, false) => (Colour::White, "w", "white man"),
                (Side::B, true) => (Colour::White, "WW", "white king"),
            };
            Piece {
                side: p.side,
                colour,
                kind: if p.king { Kind::Crowned } else { Kind::Single },
                label: if p.king { "K" } else { "" }.into(),
                ascii: ascii.into(),
                name: name.into(),
            }
        }),
        shade: if G.is_dark(s) {
            Shade::Heaven
        } else {
            Shade::Light
        },
        marked: marked.contains(&s),
    });
    board.notes = vec![note(board.flip)];
    board
}

/// The legend's note on the rules: which way the men move, in the board
/// turned (`flip`) or not, and how the board wraps.
fn note(flip: bool) -> String {
    let ways = if flip {
        "Black men move towards higher numbers (up the page in this view), white men towards lower ones (down the page)."
    } else {
        "Black men move down the board, white men up."
    };
    format!(
        "{ways} The board wraps: row 1-8 touches row 57-64, and column 1 touches column 8 (the diagonal neighbours of 57 are 2, 8, 50 and 56). A side with no piece in heaven loses."
    )
}

/// The caption and the counts above the board, the legend below.
pub(super) fn words(pos: &Toroidal, view: &View) -> Words {
    let flip = view.seat == Some(Side::A);
    let count = |side: Side| {
        let all = pos.squares_of(side).len();
        let heaven = pos.in_heaven(side) as usize;
        (heaven, all.saturating_sub(heaven))
    };
    let (bh, bl) = count(Side::A);
    let (wh, wl) = count(Side::B);
    let mut above = status_line(pos, view);
    above.push_str(&format!(
        "In heaven: black {bh}, white {wh}. In hell: black {bl}, white {wl}.\n"
    ));
    above.push_str(&format!(
        "Count of moves without a jump: {} of {QUIET_LIMIT} (drawn at {QUIET_LIMIT}).\n\n",
        pos.quiet_moves()
    ));
    let mut legend = format!(
        "\n{HEAVEN}{HEAVEN} = heaven (dark squares), blank = hell. b = black man, BB = black king, w = white man, WW = white king. {numbers}\n",
        numbers = crate::diagram::NUMBERS
    );
    if let Some(last) = &view.last {
        // On a line of its own, so that wrapping never splits "[ ]".
        legend.push_str(&format!(
            "[ ] marks the last move, {}.\n",
            last.canonical(G)
        ));
    }
    legend.push_str(&note(flip));
    Words {
        above,
        below: wrap(&legend, 72),
    }
}
