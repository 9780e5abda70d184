//! Dragons Teeth (Ty Bomba), engine/src/games/dragons_teeth/dragons-teeth.md;
//! rules/new-millennium-checkers.txt, "Rules for Game II Dragons Teeth".
//!
//! Teeth of strength 1 (small), 2 (medium) and 3 (large) move any distance
//! in a straight line through empty squares. A tooth may end its move on an
//! enemy tooth and eliminate it when its attack (its own strength plus that
//! of its friends next to the target) is at least the target's strength.
//! Teeth leave through the far edge and score their strength; the first
//! side to score 6 wins.

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

/// Strength points a side must move off to win
/// (engine/src/games/dragons_teeth/dragons-teeth.md, "End of the game").
pub const WINNING_SCORE: u8 = 6;

/// A Dragons Teeth position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DragonsTeeth {
    /// Tooth strengths: positive black ([`Side::A`]), negative red; 0 empty.
    board: [i8; 64],
    turn: Side,
    /// Strength points each side has moved off the board (the score).
    off: [u8; 2],
}

/// A Dragons Teeth move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `17-33`: the tooth moves through empty squares to an empty square.
    Step { from: Sq, to: Sq },
    /// `33x41`: the tooth ends its move on an enemy tooth and eliminates it.
    Eliminate { from: Sq, to: Sq },
    /// `49-off`: the tooth leaves through the far edge and scores.
    Off { from: Sq },
}

/// The name of a tooth of strength `s`
/// (engine/src/games/dragons_teeth/dragons-teeth.md: small 1, medium 2, large
/// 3).
fn kind(s: u8) -> &'static str {
    match s {
        1 => "small",
        2 => "medium",
        _ => "large",
    }
}

impl DragonsTeeth {
    /// The tooth on `s`: its owner and strength.
    pub fn tooth(&self, s: Sq) -> Option<(Side, u8)> {
        match self.board.get(s.index()).copied().unwrap_or(0) {
            0 => None,
            v if v > 0 => Some((Side::A, v as u8)),
            v => Some((Side::B, v.unsigned_abs())),
        }
    }
    /// Strength points `side` has moved off.
    pub fn score(&self, side: Side) -> u8 {
        self.off[side.index()]
    }
    /// The row a side moves off beyond (black the bottom row 8, red the top
    /// row 1), 0-based, and the row step towards it.
    fn last_row(side: Side) -> (u8, i8) {
        match side {
            Side::A => (G.height - 1, 1),
            Side::B => (0, -1),
        }
    }
    fn teeth_of(&self, side: Side) -> Vec<Sq> {
        (0..64)
            .map(Sq)
            .filter(|&s| matches!(self.tooth(s), Some((o, _)) if o == side))
            .collect()
    }
    /// A position from a diagram (for tests): 8 rows of 8 cells, `.` empty,
    /// `B1`..`B3` black teeth of that strength (small, medium, large),
    /// `R1`..`R3` red ones; `off` is the strength each side has moved off.
    ///
    /// # Errors
    /// A [`DiagramError`](crate::diagram::DiagramError) naming the bad cell, a wrong number of cells, or a score
    /// that would already have ended the game for both sides.
    pub fn from_diagram(
        rows: &str,
        turn: Side,
        off: [u8; 2],
    ) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, 64)?;
        if off.iter().all(|&o| o >= WINNING_SCORE) {
            return Err(crate::diagram::DiagramError::BothOff(WINNING_SCORE));
        }
        let mut pos = DragonsTeeth {
            board: [0; 64],
            turn,
            off,
        };
        for (i, c) in cells.iter().enumerate() {
            pos.board[i] = crate::diagram::sized_cell(c, "strength", 3, i)?;
        }
        Ok(pos)
    }
}

impl Game for DragonsTeeth {
    type Move = Move;
    const RULES: Rules = Rules::DragonsTeeth;
    const INFO: &'static RulesInfo = &facts::INFO;

    fn start(first: Side) -> Self {
        // engine/src/games/dragons_teeth/dragons-teeth.md, "Ruling: the setup":
        // black large teeth on 1..8, medium on 9..16, small on 17..24; red
        // small on 41..48, medium on 49..56, large on 57..64. Rows 4 and 5
        // start empty.
        let mut board = [0i8; 64];
        for c in 0..8 {
            board[c] = 3;
            board[8 + c] = 2;
            board[16 + c] = 1;
            board[40 + c] = -1;
            board[48 + c] = -2;
            board[56 + c] = -3;
        }
        DragonsTeeth {
            board,
            turn: first,
            off: [0; 2],
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
            Move::Step { from, to } | Move::Eliminate { from, to } => {
                if from.index() < 64 && to.index() < 64 {
                    // The eliminated tooth (if any) is simply replaced.
                    self.board[to.index()] = self.board[from.index()];
                    self.board[from.index()] = 0;
                }
            }
            Move::Off { from } => {
                if let Some(v) = self.board.get_mut(from.index()) {
                    // engine/src/games/dragons_teeth/dragons-teeth.md, "Moving
                    // off": a tooth that leaves scores its strength.
                    self.off[me.index()] = self.off[me.index()].saturating_add(v.unsigned_abs());
                    *v = 0;
                }
            }
        }
        self.turn = me.other();
    }

    fn decided(&self) -> Option<End> {
        // engine/src/games/dragons_teeth/dragons-teeth.md, "End of the game":
        // the first side to have moved off 6 or more strength points wins. Only
        // the mover's score changes, so at most one side can have reached 6;
        // the last mover is checked first.
        let last = self.turn.other();
        let winner = [last, self.turn]
            .into_iter()
            .find(|s| self.off[s.index()] >= WINNING_SCORE)?;
        let name = |s: Side| Self::INFO.side_name(s);
        Some(End::win(
            winner,
            format!(
                "{} moved off {} strength points and {} {}; {WINNING_SCORE} or more wins",
                name(winner),
                self.off[winner.index()],
                name(winner.other()),
                self.off[winner.other().index()]
            ),
        ))
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Step { from, to } => Notation::step(from, to, false),
            Move::Eliminate { from, to } => Notation::step(from, to, true),
            Move::Off { from } => Notation::off(from),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Step { from, .. } | Move::Eliminate { from, .. } | Move::Off { from } => {
                Some(from)
            }
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
