//! M.A.D. (Mutually Assured Destruction, Ty Bomba), engine/src/games/mad/mad.md;
//! rules/new-millennium-checkers.txt, "Rules for Game IV M.A.D.".
//!
//! Stacks of up to four checkers make simple moves to an adjacent square
//! (attacking enemy checkers there one for one) or lunge, strung out one
//! checker per square along a line. The first side to set a checker on the
//! enemy home row wins.

mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{Geometry, Sq};
use crate::notation::{Notation, Path};

const G: Geometry = Geometry::EIGHT;

/// No friendly stack may be higher than this (engine/src/games/mad/mad.md,
/// "Simple moves").
pub const STACK_LIMIT: u8 = 4;

/// A M.A.D. position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mad {
    /// Stack heights: positive black ([`Side::A`]), negative red.
    board: [i8; 64],
    turn: Side,
    /// Checkers each side has on the board.
    checkers: [u8; 2],
}

/// A M.A.D. move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `12-20`, `12-20:2`, `12x20`, `12x20:3`: `k` checkers of the stack on
    /// `from` go to the adjacent square `to`.
    Simple { from: Sq, to: Sq, k: u8 },
    /// `L12-28`, `L12x28`: `k` (2 or 3) checkers leave `from` along a line,
    /// one onto each of the next `k` squares; `to` is the last of them.
    Lunge { from: Sq, to: Sq, k: u8 },
}

impl Move {
    /// The squares a lunge puts a checker on, nearest first (a simple
    /// move: its destination).
    pub fn squares(self) -> impl Iterator<Item = Sq> {
        let (from, to, k, lunge) = match self {
            Move::Simple { from, to, k } => (from, to, k, false),
            Move::Lunge { from, to, k } => (from, to, k, true),
        };
        let n = if lunge { k.max(1) } else { 1 };
        let step = (to.0 as i16 - from.0 as i16) / n as i16;
        (1..=n as i16).map(move |j| Sq((from.0 as i16 + step * j) as u8))
    }
}

/// The goal row of `side` (0-based): black aims at row 8 (57-64), red at
/// row 1 (1-8) (engine/src/games/mad/mad.md, "Setup").
pub(crate) const fn goal_row(side: Side) -> u8 {
    match side {
        Side::A => 7,
        Side::B => 0,
    }
}

/// "57-64" for black, "1-8" for red.
pub(crate) fn goal_name(side: Side) -> &'static str {
    match side {
        Side::A => "57-64",
        Side::B => "1-8",
    }
}

impl Mad {
    /// The stack on `s`: its owner and height.
    pub fn stack(&self, s: Sq) -> Option<(Side, u8)> {
        let v = self.board.get(s.index()).copied().unwrap_or(0);
        match v {
            0 => None,
            v if v > 0 => Some((Side::A, v as u8)),
            v => Some((Side::B, v.unsigned_abs())),
        }
    }

    /// Checkers `side` has on the board.
    pub fn checkers(&self, side: Side) -> u8 {
        self.checkers[side.index()]
    }

    /// The squares of `side`'s stacks with their heights.
    pub(crate) fn stacks_of(&self, side: Side) -> Vec<(Sq, u8)> {
        (0..64)
            .map(Sq)
            .filter_map(|s| match self.stack(s) {
                Some((o, h)) if o == side => Some((s, h)),
                _ => None,
            })
            .collect()
    }

    /// The first square of `side`'s goal row holding one of its checkers.
    fn on_goal_row(&self, side: Side) -> Option<Sq> {
        let sign = sign(side);
        let row = goal_row(side);
        (0..G.width)
            .map(|c| G.at(row, c))
            .find(|s| self.board[s.index()] * sign > 0)
    }

    /// A position from a diagram (for tests): 8 rows of 8 cells, `.` empty,
    /// `B1`..`B4` black stacks, `R1`..`R4` red ones; `turn` moves next.
    ///
    /// # Errors
    /// A bad cell, a wrong number of cells, or a position the rules cannot
    /// reach: the side to move already stands on its goal row (it would
    /// have won with its previous move).
    pub fn from_diagram(rows: &str, turn: Side) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, 64)?;
        let mut pos = Mad {
            board: [0; 64],
            turn,
            checkers: [0; 2],
        };
        for (i, c) in cells.iter().enumerate() {
            let v = crate::diagram::sized_cell(c, "height", STACK_LIMIT, i)?;
            pos.board[i] = v;
            if v > 0 {
                pos.checkers[0] += v as u8;
            } else {
                pos.checkers[1] += v.unsigned_abs();
            }
        }
        if let Some(s) = pos.on_goal_row(turn) {
            return Err(crate::diagram::DiagramError::Over {
                side: Self::INFO.side_name(turn),
                square: s.to_string(),
            });
        }
        Ok(pos)
    }
}

/// +1 for black, -1 for red: `board[s] * sign(side)` is positive on the
/// side's own stacks.
#[inline]
pub(crate) const fn sign(side: Side) -> i8 {
    match side {
        Side::A => 1,
        Side::B => -1,
    }
}

impl Game for Mad {
    type Move = Move;
    const RULES: Rules = Rules::Mad;
    const INFO: &'static RulesInfo = &facts::INFO;

    fn start(first: Side) -> Self {
        // engine/src/games/mad/mad.md, "Setup": black stacks of 4 on 9..16, red
        // on 49..56.
        let mut board = [0i8; 64];
        for i in 8..16 {
            board[i] = 4;
            board[i + 40] = -4;
        }
        Mad {
            board,
            turn: first,
            checkers: [32; 2],
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
        let me = self.turn;
        let sign = sign(me);
        let (from, k) = match mv {
            Move::Simple { from, k, .. } | Move::Lunge { from, k, .. } => (from, k),
        };
        // Only legal moves come here; the checks keep anything else from
        // panicking (the position is then unspecified).
        if from.index() >= 64 || k == 0 || self.board[from.index()] * sign < k as i8 {
            return;
        }
        self.board[from.index()] -= sign * k as i8;
        match mv {
            Move::Simple { to, .. } => {
                let Some(t) = self.board.get_mut(to.index()) else {
                    return;
                };
                let enemy = (-(*t as i16) * sign as i16).clamp(0, 255) as u8;
                if enemy == 0 {
                    // Empty or friendly: the checkers join the square.
                    *t = t.saturating_add(sign * k as i8);
                } else {
                    // engine/src/games/mad/mad.md, "Simple moves": min(k, e) of
                    // each side are eliminated; k-e survivors occupy the
                    // square, or the defenders keep e-k (k == e leaves it
                    // empty).
                    let lost = k.min(enemy);
                    let c = &mut self.checkers;
                    c[me.index()] = c[me.index()].saturating_sub(lost);
                    c[me.other().index()] = c[me.other().index()].saturating_sub(lost);
                    *t = sign * (k as i8 - enemy as i8);
                }
            }
            Move::Lunge { .. } => {
                for s in mv.squares() {
                    let Some(t) = self.board.get_mut(s.index()) else {
                        return;
                    };
                    if *t == 0 {
                        *t = sign;
                    } else {
                        // engine/src/games/mad/mad.md, "Lunges": on the last
                        // square the lunging checker and one defender are
                        // eliminated.
                        *t = t.saturating_add(sign);
                        self.checkers[0] = self.checkers[0].saturating_sub(1);
                        self.checkers[1] = self.checkers[1].saturating_sub(1);
                    }
                }
            }
        }
        self.turn = me.other();
    }

    fn decided(&self) -> Option<End> {
        let mover = self.turn.other();
        let name = |s: Side| Self::INFO.side_name(s);
        // engine/src/games/mad/mad.md, "Winning": after a move, the mover wins
        // when any of its checkers stands on the opponent's home row.
        if let Some(s) = self.on_goal_row(mover) {
            return Some(End::win(
                mover,
                format!(
                    "{} reached {}'s home row {} on {s}",
                    name(mover),
                    name(mover.other()),
                    goal_name(mover)
                ),
            ));
        }
        // engine/src/games/mad/mad.md, "Ruling: no checkers left": both sides
        // without checkers draw; a side without checkers loses.
        match (self.checkers[0], self.checkers[1]) {
            (0, 0) => Some(End::draw("both sides have lost all their checkers")),
            (0, _) => Some(End::win(
                Side::B,
                format!("{} has no checkers left", name(Side::A)),
            )),
            (_, 0) => Some(End::win(
                Side::A,
                format!("{} has no checkers left", name(Side::B)),
            )),
            _ => None,
        }
    }

    fn notation(&self, mv: Move) -> Notation {
        let enemy_on = |s: Sq| matches!(self.stack(s), Some((o, _)) if o != self.turn);
        match mv {
            Move::Simple { from, to, k } => {
                let whole = self.stack(from).map_or(0, |(_, h)| h);
                Notation::Path(Path {
                    lunge: false,
                    from,
                    to: vec![to],
                    off: false,
                    capture: enemy_on(to),
                    // engine/src/games/mad/mad.md, "Notation": `:k` only for
                    // part of a stack.
                    count: (k < whole).then_some(k),
                })
            }
            Move::Lunge { from, to, .. } => Notation::Path(Path {
                lunge: true,
                from,
                to: vec![to],
                off: false,
                capture: enemy_on(to),
                count: None,
            }),
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Simple { from, .. } | Move::Lunge { from, .. } => Some(from),
        }
    }

    fn explain(&self, n: &Notation) -> crate::game::Explanation {
        explain::explain(self, n)
    }

    fn normalize(&self, n: Notation) -> Notation {
        explain::normalize(self, n)
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
