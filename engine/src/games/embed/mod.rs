//! Embed (Ty Bomba), engine/src/games/embed/embed.md;
//! rules/new-millennium-checkers.txt, "Rules for Game III Embed".
//!
//! 23 drones and a boss a side, every piece moving like a chess queen.
//! Drones capture enemy drones; bosses never capture and are never
//! captured. A boss wins by entering the enemy's home row, and a side wins
//! by surrounding ("fully embedding") the enemy boss with its pieces.

mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{Geometry, Sq};
use crate::notation::Notation;
use movegen::TABLES;

const G: Geometry = Geometry::EIGHT;

/// Board codes (times +1 for black, -1 for red).
const DRONE: i8 = 1;
const BOSS: i8 = 2;

/// An Embed position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Embed {
    /// `DRONE` or `BOSS`, positive black ([`Side::A`]), negative red; 0 empty.
    board: [i8; 64],
    /// Where each side's boss stands (bosses are never captured).
    boss: [Sq; 2],
    turn: Side,
}

/// An Embed move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `37-29`: a drone or boss moves through empty squares to an empty one.
    Step { from: Sq, to: Sq },
    /// `37x29`: a drone moves onto an enemy drone and removes it.
    Capture { from: Sq, to: Sq },
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    Drone(Side),
    Boss(Side),
}

impl Piece {
    pub fn side(self) -> Side {
        match self {
            Piece::Drone(s) | Piece::Boss(s) => s,
        }
    }
}

impl Embed {
    /// The piece on `s`.
    pub fn piece(&self, s: Sq) -> Option<Piece> {
        match self.board.get(s.index()).copied().unwrap_or(0) {
            DRONE => Some(Piece::Drone(Side::A)),
            BOSS => Some(Piece::Boss(Side::A)),
            -1 => Some(Piece::Drone(Side::B)),
            -2 => Some(Piece::Boss(Side::B)),
            _ => None,
        }
    }
    /// The square of `side`'s boss.
    pub fn boss(&self, side: Side) -> Sq {
        self.boss[side.index()]
    }
    /// The home row `side`'s boss must enter to win
    /// (engine/src/games/embed/embed.md, Win by entry): black 57..64 (row 8),
    /// red 1..8 (row 1); 0-based row.
    pub fn entry_row(side: Side) -> u8 {
        match side {
            Side::A => G.height - 1,
            Side::B => 0,
        }
    }
    fn sign(side: Side) -> i8 {
        match side {
            Side::A => 1,
            Side::B => -1,
        }
    }
    /// The board squares around `side`'s boss (8, 5 on an edge, 3 in a
    /// corner), and how many of them hold the opponent's pieces.
    pub fn embedding(&self, side: Side) -> (usize, usize) {
        let around = TABLES.neighbours(self.boss(side));
        let enemy = -Self::sign(side);
        let held = around
            .iter()
            .filter(|&&n| self.board[n as usize] * enemy > 0)
            .count();
        (held, around.len())
    }
    /// engine/src/games/embed/embed.md, "Winning": every board square around the boss is
    /// occupied by its opponent's pieces (drones and/or boss); the edge and
    /// corner ruling makes that 5 or 3 squares there.
    pub fn fully_embedded(&self, side: Side) -> bool {
        let (held, around) = self.embedding(side);
        held == around
    }
    fn drones_of(&self, side: Side) -> Vec<Sq> {
        (0..64)
            .map(Sq)
            .filter(|&s| self.piece(s) == Some(Piece::Drone(side)))
            .collect()
    }
    /// A position from a diagram (for tests): 8 rows of 8 cells, `.` empty,
    /// `B` and `R` black and red drones, `*B*` and `*R*` their bosses
    /// (exactly one of each). Moves are checked as if `turn.other()` made
    /// the last one.
    ///
    /// # Errors
    /// A [`DiagramError`](crate::diagram::DiagramError) naming the bad cell, a wrong number of cells or bosses.
    pub fn from_diagram(rows: &str, turn: Side) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, 64)?;
        let mut board = [0i8; 64];
        let mut bosses: [Vec<Sq>; 2] = [Vec::new(), Vec::new()];
        for (i, c) in cells.iter().enumerate() {
            board[i] = match *c {
                "." => 0,
                "B" => DRONE,
                "R" => -DRONE,
                "*B*" => {
                    bosses[0].push(Sq(i as u8));
                    BOSS
                }
                "*R*" => {
                    bosses[1].push(Sq(i as u8));
                    -BOSS
                }
                c => {
                    return Err(crate::diagram::DiagramError::Cell {
                        cell: c.to_string(),
                        square: i + 1,
                    });
                }
            };
        }
        let boss = |v: &Vec<Sq>, side: &'static str| match v.as_slice() {
            [s] => Ok(*s),
            _ => Err(crate::diagram::DiagramError::Bosses {
                side,
                found: v.len(),
            }),
        };
        Ok(Embed {
            board,
            boss: [boss(&bosses[0], "black")?, boss(&bosses[1], "red")?],
            turn,
        })
    }
}

impl Game for Embed {
    type Move = Move;
    const RULES: Rules = Rules::Embed;
    const INFO: &'static RulesInfo = &facts::INFO;

    fn start(first: Side) -> Self {
        // engine/src/games/embed/embed.md, "Ruling: the setup": black drones on
        // 1..24 except 20, red drones on 41..64 except 45; red's boss on 20,
        // black's on 45.
        let mut board = [0i8; 64];
        for i in 0..24 {
            board[i] = DRONE;
            board[40 + i] = -DRONE;
        }
        let (black_boss, red_boss) = (Sq::from_number(45), Sq::from_number(20));
        board[black_boss.index()] = BOSS;
        board[red_boss.index()] = -BOSS;
        Embed {
            board,
            boss: [black_boss, red_boss],
            turn: first,
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn each_move(&self, visit: impl FnMut(Move)) {
        movegen::each(self, visit);
    }

    fn play_unchecked(&mut self, mv: Move) {
        let (Move::Step { from, to } | Move::Capture { from, to }) = mv;
        if from.index() < 64 && to.index() < 64 {
            let v = self.board[from.index()];
            // A captured drone is simply replaced.
            self.board[to.index()] = v;
            self.board[from.index()] = 0;
            if v.abs() == BOSS {
                let side = if v > 0 { Side::A } else { Side::B };
                self.boss[side.index()] = to;
            }
        }
        self.turn = self.turn.other();
    }

    fn decided(&self) -> Option<End> {
        // engine/src/games/embed/embed.md, "Ruling: the order of the checks":
        // after each move, in this order: the mover wins by entry; else the
        // mover wins if the opponent's boss is fully embedded; else the mover
        // loses if the mover's own boss is fully embedded. The mover is the
        // side not to move.
        let mover = self.turn.other();
        let opponent = self.turn;
        let name = |s: Side| Self::INFO.side_name(s);
        let at = self.boss(mover);
        if G.row(at) == Self::entry_row(mover) {
            let row = if mover == Side::A { "57-64" } else { "1-8" };
            return Some(End::win(
                mover,
                format!(
                    "{}'s boss entered {at}, on {}'s home row {row}",
                    name(mover),
                    name(opponent)
                ),
            ));
        }
        if self.fully_embedded(opponent) {
            return Some(End::win(
                mover,
                format!(
                    "{}'s boss on {} is fully embedded by {} pieces",
                    name(opponent),
                    self.boss(opponent),
                    name(mover)
                ),
            ));
        }
        if self.fully_embedded(mover) {
            return Some(End::win(
                opponent,
                format!(
                    "{}'s own move left its boss on {at} fully embedded by {} pieces",
                    name(mover),
                    name(opponent)
                ),
            ));
        }
        None
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Step { from, to } => Notation::step(from, to, false),
            Move::Capture { from, to } => Notation::step(from, to, true),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Step { from, .. } | Move::Capture { from, .. } => Some(from),
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
