//! Guerrilla Checkers (Brian Train), engine/src/games/guerrilla/guerrilla-checkers.md;
//! rules/guerrilla-checkers.txt.
//!
//! The guerrilla ([`Side::A`], moves first) places two stones a turn on the
//! 49 interior grid points and removes a COIN piece by surrounding its
//! square; COIN ([`Side::B`]) steps its six pieces diagonally and captures
//! stones by stepping over the points they stand on, in chains.
//!
//! Stones are a bitboard over the interior points, in the order of
//! [`crate::geom::Point`] (row by row, 7 a row); COIN pieces a bitboard
//! over the 64 squares.

mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{Geometry, Point, Sq};
use crate::notation::{Notation, Path};

const G: Geometry = Geometry::EIGHT;

/// Stones in the guerrilla's supply at the start
/// (engine/src/games/guerrilla/guerrilla-checkers.md, "Setup").
pub const SUPPLY: u8 = 66;

/// COIN's starting squares (engine/src/games/guerrilla/guerrilla-checkers.md,
/// "Setup"), 1-based.
const COIN_START: [u8; 6] = [20, 27, 29, 36, 38, 45];

/// A Guerrilla Checkers position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guerrilla {
    /// Guerrilla stones, bit `p` for `Point(p)` (49 interior points).
    stones: u64,
    /// COIN pieces, bit `s` for `Sq(s)`.
    coin: u64,
    /// Stones left in the guerrilla's supply.
    supply: u8,
    turn: Side,
}

/// A Guerrilla Checkers move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// The guerrilla's stones, in placement order: `27/36,28/37`; a lone
    /// first stone (`second: None`) only when it removes the last COIN
    /// piece (engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's turn").
    Stones { first: Point, second: Option<Point> },
    /// A COIN move: a quiet step (`capture: false`, one step) or a
    /// finished capture chain. Step `i` goes in direction
    /// `(dirs >> 2i) & 3`, an index into `movegen::DIRS`.
    Coin {
        from: Sq,
        steps: u8,
        dirs: u128,
        capture: bool,
    },
}

impl Move {
    /// The squares a COIN move lands on, in order (empty for stones).
    fn landings(self) -> Vec<Sq> {
        match self {
            Move::Stones { .. } => Vec::new(),
            Move::Coin {
                from, steps, dirs, ..
            } => {
                let mut at = from;
                (0..steps)
                    .map(|i| {
                        let d = ((dirs >> (2 * i)) & 3) as usize;
                        at = Sq(movegen::STEP[at.index()][d]);
                        at
                    })
                    .collect()
            }
        }
    }
}

impl Guerrilla {
    /// Whether a guerrilla stone stands on `p`.
    pub fn stone(&self, p: Point) -> bool {
        p.0 < 49 && (self.stones >> p.0) & 1 == 1
    }
    /// Whether a COIN piece stands on `s`.
    pub fn coin(&self, s: Sq) -> bool {
        s.0 < 64 && (self.coin >> s.0) & 1 == 1
    }
    /// Stones left in the guerrilla's supply.
    pub fn supply(&self) -> u8 {
        self.supply
    }
    /// The guerrilla's stones on the board, in point order.
    pub fn stone_points(&self) -> Vec<Point> {
        bits(self.stones).map(Point).collect()
    }
    /// The squares holding COIN pieces, in order.
    pub fn coin_squares(&self) -> Vec<Sq> {
        bits(self.coin).map(Sq).collect()
    }

    /// A position from a diagram, for tests: 15 rows alternating between
    /// 8 squares (`.` empty, `C` a COIN piece) and the 7 interior points
    /// between two rows of squares (`+` empty, `O` a stone):
    ///
    /// ```text
    /// . . . . . . . .
    ///  + + + + + + +
    /// . . . C . C . .
    ///  + + O O + + +
    /// ...
    /// ```
    ///
    /// `supply` is the guerrilla's supply (0..=66). With no stone on the
    /// board, 66 stones in the supply means the guerrilla has not moved yet
    /// (the start); fewer means COIN has captured every stone (COIN won).
    ///
    /// # Errors
    /// A [`DiagramError`](crate::diagram::DiagramError) naming the first malformed row or cell.
    pub fn from_diagram(
        rows: &str,
        turn: Side,
        supply: u8,
    ) -> Result<Self, crate::diagram::DiagramError> {
        let lines: Vec<Vec<&str>> = rows
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|cells| !cells.is_empty())
            .collect();
        if lines.len() != 15 {
            return Err(crate::diagram::DiagramError::RowCount {
                expected: 15,
                what: "8 of squares, 7 of points between",
                found: lines.len(),
            });
        }
        if supply > SUPPLY {
            return Err(crate::diagram::DiagramError::Supply {
                supply,
                max: SUPPLY,
            });
        }
        let mut pos = Guerrilla {
            stones: 0,
            coin: 0,
            supply,
            turn,
        };
        for (i, cells) in lines.iter().enumerate() {
            let row = (i / 2) as u8;
            if i % 2 == 0 {
                if cells.len() != 8 {
                    return Err(crate::diagram::DiagramError::RowLength {
                        row: format!("square row {}", row + 1),
                        expected: 8,
                        what: "cells",
                        found: cells.len(),
                    });
                }
                for (c, cell) in cells.iter().enumerate() {
                    match *cell {
                        "." => {}
                        "C" => pos.coin |= 1 << G.at(row, c as u8).0,
                        other => {
                            return Err(crate::diagram::DiagramError::Mark {
                                what: "square",
                                cell: other.to_string(),
                                marks: ". or C",
                            });
                        }
                    }
                }
            } else {
                if cells.len() != 7 {
                    return Err(crate::diagram::DiagramError::RowLength {
                        row: format!("point row below square row {}", row + 1),
                        expected: 7,
                        what: "points",
                        found: cells.len(),
                    });
                }
                for (c, cell) in cells.iter().enumerate() {
                    match *cell {
                        "+" => {}
                        "O" => pos.stones |= 1 << (row as usize * 7 + c),
                        other => {
                            return Err(crate::diagram::DiagramError::Mark {
                                what: "point",
                                cell: other.to_string(),
                                marks: "+ or O",
                            });
                        }
                    }
                }
            }
        }
        Ok(pos)
    }

    /// Places a stone on `p` and removes every COIN piece it surrounds
    /// (engine/src/games/guerrilla/guerrilla-checkers.md, "The guerrilla's
    /// turn": "after each stone").
    fn place(&mut self, p: Point) {
        self.stones |= 1 << p.0;
        self.coin &= !movegen::surrounded_by(p.0, self.stones, self.coin);
        self.supply = self.supply.saturating_sub(1);
    }
}

/// The indices of the set bits of `b`, lowest first.
pub(crate) fn bits(mut b: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(i)
        }
    })
}

impl Game for Guerrilla {
    type Move = Move;
    const RULES: Rules = Rules::GuerrillaCheckers;
    const INFO: &'static RulesInfo = &facts::INFO;

    /// engine/src/games/guerrilla/guerrilla-checkers.md, "Setup": the guerrilla
    /// moves first whatever `first` says.
    fn start(_first: Side) -> Self {
        Guerrilla {
            stones: 0,
            coin: COIN_START.iter().fold(0, |b, &n| b | 1 << (n - 1)),
            supply: SUPPLY,
            turn: Side::A,
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn each_move(&self, visit: impl FnMut(Move)) {
        let mut moves = Vec::new();
        movegen::generate(self, &mut moves);
        moves.into_iter().for_each(visit);
    }

    /// Writes the list directly: the generators of both sides build
    /// their moves in a list as they search.
    fn generate(&self, out: &mut Vec<Move>) {
        movegen::generate(self, out);
    }

    fn count_generated(&self) -> usize {
        movegen::count(self)
    }

    fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Stones { first, second } => {
                if first.0 < 49 {
                    self.place(first);
                }
                if let Some(p) = second.filter(|p| p.0 < 49) {
                    self.place(p);
                }
            }
            Move::Coin {
                from, steps, dirs, ..
            } => {
                let mut at = from.index().min(63);
                self.coin &= !(1 << at);
                for i in 0..steps.min(64) {
                    let d = ((dirs >> (2 * i)) & 3) as usize;
                    let to = movegen::STEP[at][d];
                    if to >= 64 {
                        break;
                    }
                    // The crossed point's stone, if any, is captured.
                    self.stones &= !(1 << movegen::CROSS[at][d]);
                    at = to as usize;
                }
                self.coin |= 1 << at;
            }
        }
        self.turn = self.turn.other();
    }

    /// engine/src/games/guerrilla/guerrilla-checkers.md, "Winning": the side
    /// that has removed all enemy pieces at the end of its turn wins; the
    /// guerrilla loses with an empty supply at the start of its turn (Guerrilla
    /// turn ruling).
    fn decided(&self) -> Option<End> {
        if self.coin == 0 {
            return Some(End::win(Side::A, "no COIN piece is left on the board"));
        }
        if self.stones == 0 && self.supply < SUPPLY {
            return Some(End::win(Side::B, "no guerrilla stone is left on the board"));
        }
        if self.turn == Side::A && self.supply == 0 {
            return Some(End::win(
                Side::B,
                "the guerrilla's supply of stones is empty",
            ));
        }
        None
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Stones { first, second } => {
                Notation::Stones(std::iter::once(first).chain(second).collect())
            }
            Move::Coin { from, capture, .. } => Notation::Path(Path {
                lunge: false,
                from,
                to: mv.landings(),
                off: false,
                capture,
                count: None,
            }),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Stones { .. } => None,
            Move::Coin { from, .. } => Some(from),
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
