//! Boom & Zoom (Ty Bomba), engine/src/games/boom_and_zoom/boom-and-zoom.md;
//! rules/new-millennium-checkers.txt, "Rules for Game I Boom & Zoom".
//!
//! Towers of one to three checkers zoom (move) or boom (fire) along rows,
//! columns and diagonals, and zoom off the far edge to score.

mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{Geometry, Sq};
use crate::notation::Notation;

const G: Geometry = Geometry::EIGHT;

/// A Boom & Zoom position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoomAndZoom {
    /// Tower heights: positive black ([`Side::A`]), negative red.
    board: [i8; 64],
    turn: Side,
    /// Checkers each side has zoomed off the board (the score).
    off: [u8; 2],
    /// Towers each side has on the board.
    towers: [u8; 2],
}

/// A Boom & Zoom move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `22-15`: the tower moves through empty squares.
    Zoom { from: Sq, to: Sq },
    /// `22-off`: the tower leaves through the far edge and scores.
    Off { from: Sq },
    /// `22x15`: the target loses its top checker.
    Boom { from: Sq, target: Sq },
}

impl BoomAndZoom {
    /// The tower on `s`: its owner and height.
    pub fn tower(&self, s: Sq) -> Option<(Side, u8)> {
        let v = self.board[s.index()];
        match v {
            0 => None,
            v if v > 0 => Some((Side::A, v as u8)),
            v => Some((Side::B, (-v) as u8)),
        }
    }
    /// Checkers `side` has zoomed off.
    pub fn score(&self, side: Side) -> u8 {
        self.off[side.index()]
    }
    /// The row a side zooms off beyond (black the bottom row 8, red the top
    /// row 1), 0-based, and the row step towards it.
    fn last_row(side: Side) -> (u8, i8) {
        match side {
            Side::A => (G.height - 1, 1),
            Side::B => (0, -1),
        }
    }
    fn towers_of(&self, side: Side) -> Vec<Sq> {
        (0..64)
            .map(Sq)
            .filter(|&s| matches!(self.tower(s), Some((o, _)) if o == side))
            .collect()
    }
    /// A position from a diagram: 8 rows of 8 cells, `.` empty, `B1`..`B3`
    /// black towers, `R1`..`R3` red ones (for tests).
    pub fn from_diagram(
        rows: &str,
        turn: Side,
        off: [u8; 2],
    ) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, 64)?;
        let mut pos = BoomAndZoom {
            board: [0; 64],
            turn,
            off,
            towers: [0; 2],
        };
        for (i, c) in cells.iter().enumerate() {
            let v = crate::diagram::sized_cell(c, "height", 3, i)?;
            pos.board[i] = v;
            if v > 0 {
                pos.towers[0] += 1;
            } else if v < 0 {
                pos.towers[1] += 1;
            }
        }
        Ok(pos)
    }
}

impl Game for BoomAndZoom {
    type Move = Move;
    const RULES: Rules = Rules::BoomAndZoom;
    const INFO: &'static RulesInfo = &facts::INFO;

    fn start(first: Side) -> Self {
        // engine/src/games/boom_and_zoom/boom-and-zoom.md: eight towers of
        // three, black on 1..8, red on 57..64.
        let mut board = [0i8; 64];
        for i in 0..8 {
            board[i] = 3;
            board[56 + i] = -3;
        }
        BoomAndZoom {
            board,
            turn: first,
            off: [0; 2],
            towers: [8; 2],
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn each_move(&self, visit: impl FnMut(Move)) {
        movegen::each(self, visit);
    }

    fn play_unchecked(&mut self, mv: Move) {
        let me = self.turn;
        match mv {
            Move::Zoom { from, to } => {
                self.board[to.index()] = self.board[from.index()];
                self.board[from.index()] = 0;
            }
            Move::Off { from } => {
                let h = self.board[from.index()].unsigned_abs();
                self.board[from.index()] = 0;
                self.off[me.index()] += h;
                self.towers[me.index()] -= 1;
            }
            Move::Boom { target, .. } => {
                let t = &mut self.board[target.index()];
                // Remove the top checker; a single checker leaves the board
                // (engine/src/games/boom_and_zoom/boom-and-zoom.md, "Ruling: a
                // single checker").
                *t -= t.signum();
                if *t == 0 {
                    self.towers[me.other().index()] -= 1;
                }
            }
        }
        self.turn = me.other();
    }

    fn decided(&self) -> Option<End> {
        // engine/src/games/boom_and_zoom/boom-and-zoom.md, "End of the game":
        // the instant one side has no tower, play stops and the checkers zoomed
        // off decide.
        let gone = Side::BOTH
            .into_iter()
            .find(|s| self.towers[s.index()] == 0)?;
        let name = |s: Side| Self::INFO.side_name(s);
        let (a, b) = (self.off[0], self.off[1]);
        let why = format!(
            "{} has no tower left; checkers zoomed off: {} {a}, {} {b}",
            name(gone),
            name(Side::A),
            name(Side::B)
        );
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => End::win(Side::A, why),
            std::cmp::Ordering::Less => End::win(Side::B, why),
            std::cmp::Ordering::Equal => End::draw(why),
        })
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Zoom { from, to } => Notation::step(from, to, false),
            Move::Off { from } => Notation::off(from),
            Move::Boom { from, target } => Notation::step(from, target, true),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Zoom { from, .. } | Move::Off { from } | Move::Boom { from, .. } => Some(from),
        }
    }

    fn explain(&self, n: &Notation) -> crate::game::Explanation {
        explain::explain(self, n)
    }

    fn diagram(&self, view: &View) -> String {
        crate::diagram::Diagram::of(self, view).text()
    }

    fn diagram_words(&self, view: &View) -> crate::board::Words {
        diagram::words(self, view)
    }

    fn board(&self, view: &View) -> crate::board::Board {
        diagram::board(self, view)
    }
}
