//! The Guerrilla Checkers board for a plain-text email: COIN pieces in the
//! squares, stones on the grid crossings (the `corner` callback of
//! [`crate::diagram::grid`]).
//!
//! The board is never turned: neither side has a home edge, and point
//! names read the same for both players.

use super::{G, Guerrilla};
use crate::diagram::{Cell, grid, status_line, wrap};
use crate::game::View;
use crate::notation::Notation;

pub(super) fn diagram(pos: &Guerrilla, view: &View) -> String {
    // What the last move touched: stones just placed, squares a COIN
    // piece moved through, points whose stones it just captured.
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
    placed &= pos.stones;
    captured &= !pos.stones;
    let board = grid(
        G,
        false,
        |s| Cell {
            piece: if pos.coin(s) {
                "C".into()
            } else {
                String::new()
            },
            fill: None,
            marked: marked.contains(&s),
        },
        |r, c| {
            if !(1..=7).contains(&r) || !(1..=7).contains(&c) {
                return '+';
            }
            let bit = 1u64 << ((r - 1) * 7 + (c - 1));
            if placed & bit != 0 {
                '@'
            } else if pos.stones & bit != 0 {
                'O'
            } else if captured & bit != 0 {
                'x'
            } else {
                '+'
            }
        },
    );
    let on_board = pos.stones.count_ones();
    let mut out = status_line(pos, view);
    out.push_str(&format!(
        "Guerrilla: {} stone{} in supply, {on_board} on the board. COIN: {} piece{} left.\n\n",
        pos.supply,
        if pos.supply == 1 { "" } else { "s" },
        pos.coin.count_ones(),
        if pos.coin.count_ones() == 1 { "" } else { "s" }
    ));
    out.push_str(&board);
    out.push_str("\nO = guerrilla stone on a grid point, + = empty point, C = COIN piece.\n");
    out.push_str(&wrap(crate::diagram::NUMBERS, 72));
    if placed != 0 {
        out.push_str("@ marks the stones just placed.\n");
    }
    if !marked.is_empty() {
        out.push_str(if captured != 0 {
            "[ ] marks the last move, x the stones it captured.\n"
        } else {
            "[ ] marks the last move.\n"
        });
    }
    let legend = "A point is named by the squares at its upper-left and lower-right: the point below-right of square 27 is 27/36. Guerrilla: 27/36,28/37 (first stone, then second). COIN: 27-36, captures 27x36x45.";
    out.push_str(&wrap(legend, 72));
    out
}
