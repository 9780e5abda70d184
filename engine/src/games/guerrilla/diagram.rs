//! The Guerrilla Checkers board for a plain-text email: COIN pieces in the
//! squares, stones on the grid crossings ([`crate::board::Board::points`]).
//!
//! The board is never turned: neither side has a home edge, and point
//! names read the same for both players.

use super::{G, Guerrilla};
use crate::board::Words;
use crate::board::{Board, Colour, Crossing, Kind, Piece, Shade, Square, Stone};
use crate::diagram::{status_line, wrap};
use crate::game::Side;
use crate::game::View;
use crate::geom::Point;
use crate::notation::Notation;

/// What the last move touched: the bits of the stones it placed and of
/// the points whose stones it captured, and the squares a COIN piece
/// moved through.
fn touched(pos: &Guerrilla, view: &View) -> (u64, u64, Vec<crate::geom::Sq>) {
    let mut placed = 0u64;
    let mut captured = 0u64;
    let mut marked = Vec::new();
    match &view.last {
        Some(Notation::Stones(points)) => {
            for p in points.iter().filter(|p| p.0 < 49) {
                placed |= 1 << p.0;
            }
        }
        Some(n @ Notation::Path(p)) => {
            marked = n.squares();
            if p.capture {
                let mut at = p.from;
                for &to in &p.to {
                    if let Some(pt) = G.point_between(at, to) {
                        captured |= 1 << pt.0;
                    }
                    at = to;
                }
            }
        }
        None => {}
    }
    (placed & pos.stones, captured & !pos.stones, marked)
}

/// The board as data: COIN pieces on squares, stones on the interior
/// crossings (never turned).
pub(super) fn board(pos: &Guerrilla, view: &View) -> Board {
    let (placed, captured, marked) = touched(pos, view);
    let mut board = Board::new(G, false, |s| Square {
        piece: pos.coin(s).then(|| Piece {
            side: Side::B,
            colour: Colour::White,
            kind: Kind::Single,
            label: "C".into(),
            ascii: "C".into(),
            name: "COIN piece".into(),
        }),
        shade: Shade::of(G, s),
        marked: marked.contains(&s),
    });
    let mut points = Vec::new();
    for p in 0..G.points() {
        let bit = 1u64 << p;
        let mark = if placed & bit != 0 {
            Stone::Placed
        } else if pos.stones & bit != 0 {
            Stone::Stone
        } else if captured & bit != 0 {
            Stone::Captured
        } else {
            continue;
        };
        let w = G.width - 1;
        points.push(Crossing {
            row: p / w + 1,
            col: p % w + 1,
            mark,
            name: G.point_name(Point(p)),
        });
    }
    board.points = Some(points);
    board.notes = vec![NOTE.into()];
    board
}

/// The legend's note on the notation.
const NOTE: &str = "A point is named by the squares at its upper-left and lower-right: the point below-right of square 27 is 27/36. Guerrilla: 27/36,28/37 (first stone, then second). COIN: 27-36, captures 27x36x45.";

/// The caption and the counts above the board, the legend below: what
/// the last move's marks mean, when it made some.
pub(super) fn words(pos: &Guerrilla, view: &View) -> Words {
    let (placed, captured, marked) = touched(pos, view);
    let on_board = pos.stones.count_ones();
    let mut above = status_line(pos, view);
    above.push_str(&format!(
        "Guerrilla: {} stone{} in supply, {on_board} on the board. COIN: {} piece{} left.\n\n",
        pos.supply,
        if pos.supply == 1 { "" } else { "s" },
        pos.coin.count_ones(),
        if pos.coin.count_ones() == 1 { "" } else { "s" }
    ));
    let mut below =
        String::from("\nO = guerrilla stone on a grid point, + = empty point, C = COIN piece.\n");
    below.push_str(&wrap(crate::diagram::NUMBERS, 72));
    if placed != 0 {
        below.push_str("@ marks the stones just placed.\n");
    }
    if !marked.is_empty() {
        below.push_str(if captured != 0 {
            "[ ] marks the last move, x the stones it captured.\n"
        } else {
            "[ ] marks the last move.\n"
        });
    }
    below.push_str(&wrap(NOTE, 72));
    Words { above, below }
}
