//! The M.A.D. board for a plain-text email.

use super::{G, Mad};
use crate::board::Words;
use crate::game::{Game, Side, View};
use crate::geom::{ALL, Sq};
use crate::notation::Notation;

/// The squares the last move touched: its origin and every square it put
/// a checker on (all of a lunge's line, not only its last square).
fn touched(last: &Notation) -> Vec<Sq> {
    let mut out = last.squares();
    if let Notation::Path(p) = last
        && p.lunge
        && let Some(&to) = p.to.last()
        && let Some((d, dist)) = G.line_between(p.from, to, &ALL)
    {
        out.extend(G.ray(p.from, d).take(dist as usize));
    }
    out
}

/// The legend's note on the rules.
const NOTE: &str = "Black wins by reaching red's home row (57-64), red by reaching black's (1-8).";

/// The board as data: stacks of a side and a number.
pub(super) fn board(pos: &Mad, view: &View) -> crate::board::Board {
    let marked = view.last.as_ref().map(touched).unwrap_or_default();
    let mut board = crate::diagram::counted_board(G, view, &marked, "stack", |s| pos.stack(s));
    board.notes = vec![NOTE.into()];
    board
}

/// The caption and the counts above the board, the legend below.
pub(super) fn words(pos: &Mad, view: &View) -> Words {
    let rules = Mad::INFO;
    let mut above = crate::diagram::status_line(pos, view);
    above.push_str(&format!(
        "Checkers on the board: {} {}, {} {}\n\n",
        rules.side_name(Side::A),
        pos.checkers(Side::A),
        rules.side_name(Side::B),
        pos.checkers(Side::B)
    ));
    let below = crate::diagram::wrap(
        &format!(
            "\nB3 = black stack of 3 checkers, R1 = a single red checker. {}{} {NOTE}",
            crate::diagram::NUMBERS,
            crate::diagram::last_move_legend(view)
        ),
        72,
    );
    Words { above, below }
}
