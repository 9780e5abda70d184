//! Mad Rooks and Mad Bishops (Mark Steere),
//! engine/src/games/mad_rooks/mad-rooks.md and
//! engine/src/games/mad_rooks/mad-bishops.md; rules/mad-rooks.txt and
//! rules/mad-bishops.txt.
//!
//! The two games have the same rules on different lines: a checker kills
//! an enemy in line with it (only empty squares between) by taking its
//! square, and a checker that cannot kill slides through empty squares to
//! a square from which it could. Mad Rooks plays along rows and columns on
//! an 8x8 board, Mad Bishops along diagonals on a 10x10 board. The rules
//! are written once, in [`MadPosition`], generic over a [`Variant`] that
//! gives the board and the directions; [`MadRooks`] and [`MadBishops`] are
//! its two instances.

mod bits;
mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

pub use bits::Bits;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{DIAGONAL, Dir, Geometry, ORTHOGONAL, Sq};
use crate::notation::Notation;
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;

/// Mad Rooks (engine/src/games/mad_rooks/mad-rooks.md): 8x8, rows and columns.
pub type MadRooks = MadPosition<Rooks>;
/// Mad Bishops (engine/src/games/mad_rooks/mad-bishops.md): 10x10, diagonals.
pub type MadBishops = MadPosition<Bishops>;

mod sealed {
    pub trait Sealed {}
}

/// What tells Mad Rooks and Mad Bishops apart: the board, the lines a
/// checker moves and kills along, and the setup. Implemented only by
/// [`Rooks`] and [`Bishops`].
pub trait Variant:
    sealed::Sealed + Copy + Debug + Eq + Hash + Default + Send + Sync + 'static
{
    /// A set of squares of this board.
    type Bits: Bits;
    const RULES: Rules;
    /// The variant's facts (`facts.rs`).
    const INFO: &'static RulesInfo;
    const GEOMETRY: Geometry = Self::INFO.geometry;
    /// The four directions of the lines; the first two increase the square
    /// index, the last two decrease it (the movegen relies on this order).
    const DIRS: [Dir; 4];
    /// The lines in words, for messages: "row or column", "diagonal".
    const LINES: &'static str;
    /// The same in the plural: "rows and columns", "diagonals".
    const LINES_PLURAL: &'static str;
    /// Every square of the board.
    const BOARD: Self::Bits;
    /// The squares beyond `s` (a square of the board) in direction
    /// `DIRS[d]`, up to the edge.
    fn ray(d: usize, s: usize) -> Self::Bits;
    /// The owner of square `s` in the setup.
    fn start_owner(s: Sq) -> Option<Side>;
}

/// Mad Rooks' lines: rows and columns of an 8x8 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rooks;

/// Mad Bishops' lines: the diagonals of a 10x10 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bishops;

const ROOK_DIRS: [Dir; 4] = [ORTHOGONAL[2], ORTHOGONAL[3], ORTHOGONAL[1], ORTHOGONAL[0]];
const BISHOP_DIRS: [Dir; 4] = [DIAGONAL[2], DIAGONAL[3], DIAGONAL[1], DIAGONAL[0]];
static ROOK_RAYS: [[u64; 64]; 4] = bits::narrow(bits::rays(8, 8, ROOK_DIRS));
static BISHOP_RAYS: [[u128; 100]; 4] = bits::rays(10, 10, BISHOP_DIRS);

impl sealed::Sealed for Rooks {}
impl Variant for Rooks {
    type Bits = u64;
    const RULES: Rules = Rules::MadRooks;
    const INFO: &'static RulesInfo = &facts::MAD_ROOKS;
    // East, south, west, north.
    const DIRS: [Dir; 4] = ROOK_DIRS;
    const LINES: &'static str = "row or column";
    const LINES_PLURAL: &'static str = "rows and columns";
    const BOARD: u64 = !0;
    #[inline]
    fn ray(d: usize, s: usize) -> u64 {
        ROOK_RAYS[d][s]
    }
    fn start_owner(s: Sq) -> Option<Side> {
        // engine/src/games/mad_rooks/mad-rooks.md, "Ruling: the setup": all 64
        // squares filled, blue where row + column is even (square 1 is blue),
        // red on the others.
        let g = Self::GEOMETRY;
        Some(if (g.row(s) + g.col(s)) % 2 == 0 {
            Side::B
        } else {
            Side::A
        })
    }
}

impl sealed::Sealed for Bishops {}
impl Variant for Bishops {
    type Bits = u128;
    const RULES: Rules = Rules::MadBishops;
    const INFO: &'static RulesInfo = &facts::MAD_BISHOPS;
    // South-west, south-east, north-east, north-west.
    const DIRS: [Dir; 4] = BISHOP_DIRS;
    const LINES: &'static str = "diagonal";
    const LINES_PLURAL: &'static str = "diagonals";
    const BOARD: u128 = (1 << 100) - 1;
    #[inline]
    fn ray(d: usize, s: usize) -> u128 {
        BISHOP_RAYS[d][s]
    }
    fn start_owner(s: Sq) -> Option<Side> {
        // engine/src/games/mad_rooks/mad-bishops.md, "Ruling: the setup": the
        // 50 squares where row + column is odd are filled; blue on rows 1, 3,
        // 5, 7, 9, red on rows 2, 4, 6, 8, 10 (rows 1-based here, 0-based in
        // the geometry: the parity of the sum is the same, the row's is not).
        let g = Self::GEOMETRY;
        if (g.row(s) + g.col(s)) % 2 == 0 {
            None
        } else if (g.row(s) + 1) % 2 == 1 {
            Some(Side::B)
        } else {
            Some(Side::A)
        }
    }
}

/// A position of Mad Rooks or Mad Bishops. [`Side::A`] is red, who moves
/// first; [`Side::B`] is blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MadPosition<V: Variant> {
    /// Each side's checkers, indexed by [`Side::index`].
    checkers: [V::Bits; 2],
    turn: Side,
    variant: PhantomData<V>,
}

/// A move of Mad Rooks or Mad Bishops.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `18x22`: the enemy checker on `to` is removed and the killer takes
    /// its square.
    Kill { from: Sq, to: Sq },
    /// `18-42`: a checker that cannot kill slides to a square from which
    /// it can.
    Engage { from: Sq, to: Sq },
}

impl<V: Variant> MadPosition<V> {
    /// The owner of the checker on `s`, if any (squares off the board are
    /// empty).
    pub fn checker(&self, s: Sq) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|side| self.checkers[side.index()].has(s))
    }
    /// The squares of `side`'s checkers, in increasing order.
    pub fn checkers(&self, side: Side) -> Vec<Sq> {
        self.checkers[side.index()].squares().collect()
    }
    /// How many checkers `side` has on the board.
    pub fn count(&self, side: Side) -> u32 {
        self.checkers[side.index()].count()
    }
    fn occupied(&self) -> V::Bits {
        self.checkers[0] | self.checkers[1]
    }

    /// A position from a diagram, for tests: the board's rows top to bottom
    /// (8 of 8 cells for Mad Rooks, 10 of 10 for Mad Bishops), cells
    /// separated by white space: `.` empty, `R` a red checker, `B` a blue
    /// one.
    ///
    /// # Errors
    /// A [`DiagramError`](crate::diagram::DiagramError) naming the bad cell or the wrong number of cells.
    pub fn from_diagram(rows: &str, turn: Side) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, V::GEOMETRY.squares() as usize)?;
        let mut checkers = [V::Bits::ZERO; 2];
        for (i, c) in cells.iter().enumerate() {
            match *c {
                "." => {}
                "R" => checkers[Side::A.index()] |= V::Bits::bit(i),
                "B" => checkers[Side::B.index()] |= V::Bits::bit(i),
                c => {
                    return Err(crate::diagram::DiagramError::Cell {
                        cell: c.to_string(),
                        square: i + 1,
                    });
                }
            }
        }
        Ok(MadPosition {
            checkers,
            turn,
            variant: PhantomData,
        })
    }
}

impl<V: Variant> Game for MadPosition<V> {
    type Move = Move;
    const RULES: Rules = V::RULES;
    const INFO: &'static RulesInfo = V::INFO;

    /// The setup of engine/src/games/mad_rooks/mad-rooks.md or 6. Red moves
    /// first in both games ("The two players, Red and Blue, take turns ...,
    /// starting with Red"), so `first` is ignored.
    fn start(_first: Side) -> Self {
        let mut checkers = [V::Bits::ZERO; 2];
        for s in 0..V::GEOMETRY.squares() {
            if let Some(side) = V::start_owner(Sq(s)) {
                checkers[side.index()] |= V::Bits::bit(s as usize);
            }
        }
        MadPosition {
            checkers,
            turn: Side::A,
            variant: PhantomData,
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn each_move(&self, visit: impl FnMut(Move)) {
        movegen::each_move(self, visit);
    }

    fn count_generated(&self) -> usize {
        movegen::count(self)
    }

    fn play_unchecked(&mut self, mv: Move) {
        let me = self.turn.index();
        let (from, to) = match mv {
            Move::Kill { from, to } | Move::Engage { from, to } => (from, to),
        };
        let (from, to) = (V::Bits::bit(from.index()), V::Bits::bit(to.index()));
        // engine/src/games/mad_rooks/mad-rooks.md, "Killing": the enemy is
        // removed and the killer takes its square. An engage lands on an empty
        // square, so clearing the enemy's bit there changes nothing.
        self.checkers[me] = (self.checkers[me] & !from) | to;
        self.checkers[1 - me] &= !to;
        self.turn = self.turn.other();
    }

    fn decided(&self) -> Option<End> {
        // engine/src/games/mad_rooks/mad-rooks.md, "Winning": kill all enemy
        // checkers (checked after every move; Common ground). The side to move
        // is the one that can have lost its last checker, so it is looked at
        // first.
        let loser = [self.turn, self.turn.other()]
            .into_iter()
            .find(|s| self.checkers[s.index()].is_empty())?;
        let name = |s: Side| V::INFO.side_name(s);
        Some(End::win(
            loser.other(),
            format!(
                "{} killed every {} checker",
                name(loser.other()),
                name(loser)
            ),
        ))
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Kill { from, to } => Notation::step(from, to, true),
            Move::Engage { from, to } => Notation::step(from, to, false),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Kill { from, .. } | Move::Engage { from, .. } => Some(from),
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
