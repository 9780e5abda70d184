//! Toroidal "heaven and hell" Checkers, after Tobias D. Robison's 1984
//! post: engine/src/games/toroidal/toroidal-checkers.md; rules/toroidal-checkers.txt.
//!
//! Checkers on an 8x8 torus: every edge wraps, so every square has four
//! diagonal neighbours. Dark squares are heaven, light squares hell. A
//! jumped piece is not removed: it slides an odd number of squares along
//! its row to the jumper's left (and so changes realm), merges with a man
//! of its colour into a king, or leaves the game. A side with no piece in
//! heaven loses.
//!
//! # Chains and termination
//!
//! Every prefix of a jump chain is its own legal move
//! (engine/src/games/toroidal/toroidal-checkers.md, "Jumps" ruling), and pieces
//! are rarely removed, so one might fear that a chain could come back to an
//! identical state and run for ever. The rules are silent, so the generator has
//! two guards:
//!
//! - a jump that would bring back a state already seen in the same chain
//!   (the same jumper square and the same board, the state before the
//!   first jump included) is not made: it is neither listed nor extended.
//!   Such a jump only repeats a position that an earlier prefix already
//!   reaches;
//! - a chain has at most [`MAX_CHAIN`] jumps: the last one is listed but
//!   not extended.
//!
//! In fact neither guard can ever act. A diagonal step keeps a square's
//! colour, so the jumper stays in its realm and jumps only pieces of its
//! realm; each jumped piece moves an odd number of squares along its row,
//! into the other realm, or leaves the game. Nothing enters the jumper's
//! realm during the chain, so every jump leaves one enemy piece fewer
//! there: a chain has at most as many jumps as the enemy has pieces in
//! the jumper's realm (12 in a game, 31 in any made-up position), and no
//! state can come back. The guards stay as cheap insurance; the tests
//! check on random games that they never act
//! (engine/tests/engine/games/toroidal_checkers/naive.rs,
//! `chains_are_short_and_never_repeat`).

mod diagram;
mod eval;
mod explain;
pub mod facts;
mod movegen;

use crate::descriptor::{Rules, RulesInfo};
use crate::game::{End, Game, Side, View};
use crate::geom::{DIAGONAL, Geometry, Sq};
use crate::notation::{Notation, Path};

const G: Geometry = Geometry::EIGHT;

/// The longest jump chain: its last jump is listed but not extended (the
/// termination guard of the module docs, which can never act: a chain has
/// at most 31 jumps). The rules set no limit.
pub const MAX_CHAIN: usize = 32;

/// Consecutive moves without a jump that draw the game
/// (engine/src/games/toroidal/toroidal-checkers.md, Draw ruling: 20 by each
/// side).
pub const QUIET_LIMIT: u8 = 40;

/// Board codes: the sign is the side (positive black, [`Side::A`];
/// negative white), the size the kind.
const MAN: i8 = 1;
const KING: i8 = 2;

/// `NEIGHBOUR[s][d]`: the square one diagonal step from `s` in direction
/// `DIAGONAL[d]`, on the torus.
const NEIGHBOUR: [[u8; 4]; 64] = diagonal_table(1);
/// `BEYOND[s][d]`: two diagonal steps from `s`, where a jump lands.
const BEYOND: [[u8; 4]; 64] = diagonal_table(2);

const fn diagonal_table(dist: i8) -> [[u8; 4]; 64] {
    let mut t = [[0u8; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 4 {
            let r = ((s / 8) as i8 + DIAGONAL[d].dr * dist).rem_euclid(8);
            let c = ((s % 8) as i8 + DIAGONAL[d].dc * dist).rem_euclid(8);
            t[s][d] = (r * 8 + c) as u8;
            d += 1;
        }
        s += 1;
    }
    t
}

/// The directions (indices into [`DIAGONAL`]) a piece of `side` moves
/// and jumps in: men forward only (black down, white up), kings all four
/// (engine/src/games/toroidal/toroidal-checkers.md, "Steps" and "Jumps").
const fn directions(side: Side, king: bool) -> &'static [usize] {
    match (side, king) {
        (_, true) => &[0, 1, 2, 3],
        (Side::A, false) => &[2, 3],
        (Side::B, false) => &[0, 1],
    }
}

/// `RELOCATE[side][s]`: where a piece jumped on `s` by `side` may go, in
/// order: 1, 3, 5 and 7 squares along its row to the jumper's left,
/// wrapping. Black faces down the board, so its left is towards higher
/// columns; white's is towards lower columns
/// (engine/src/games/toroidal/toroidal-checkers.md, "Where the jumped piece
/// goes").
const RELOCATE: [[[u8; 4]; 64]; 2] = relocate_table();

const fn relocate_table() -> [[[u8; 4]; 64]; 2] {
    let mut t = [[[0u8; 4]; 64]; 2];
    let mut s = 0;
    while s < 64 {
        let (row, col) = (s / 8, s % 8);
        let mut i = 0;
        while i < 4 {
            let k = 2 * i + 1;
            t[0][s][i] = (row * 8 + (col + k) % 8) as u8;
            t[1][s][i] = (row * 8 + (col + 8 - k) % 8) as u8;
            i += 1;
        }
        s += 1;
    }
    t
}

/// A piece: its side and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: Side,
    pub king: bool,
}

impl Piece {
    fn from_code(v: i8) -> Option<Piece> {
        match v {
            0 => None,
            v => Some(Piece {
                side: if v > 0 { Side::A } else { Side::B },
                king: v.abs() >= KING,
            }),
        }
    }
}

/// A Toroidal Checkers position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Toroidal {
    /// Piece codes: 0 empty, +1 black man, +2 black king, -1 white man,
    /// -2 white king.
    board: [i8; 64],
    turn: Side,
    /// Consecutive moves without a jump, from the first move of the game
    /// (engine/src/games/toroidal/toroidal-checkers.md, "Ruling: the forty-move draw").
    quiet: u8,
    /// Pieces each side has in heaven (on dark squares); kept up to date
    /// by play, a function of `board`.
    heaven: [u8; 2],
}

/// A Toroidal Checkers move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// `22-29`: one diagonal step onto an empty square.
    Step { from: Sq, to: Sq },
    /// `22x36x50`: one or more jumps by the same piece.
    Jump(Chain),
}

/// A jump chain: the starting square and the direction of each jump (two
/// bits each, the first jump in the lowest bits), at most [`MAX_CHAIN`] of
/// them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Chain {
    from: Sq,
    len: u8,
    dirs: u64,
}

impl Chain {
    fn new(from: Sq) -> Chain {
        Chain {
            from,
            len: 0,
            dirs: 0,
        }
    }
    /// This chain with one more jump in direction `DIAGONAL[d]`.
    #[inline]
    fn push(self, d: usize) -> Chain {
        let i = self.len as u32 % MAX_CHAIN as u32;
        Chain {
            from: self.from,
            len: self.len + 1,
            dirs: self.dirs | ((d as u64 & 3) << (2 * i)),
        }
    }
    /// The square the jumping piece starts from.
    pub fn from(self) -> Sq {
        self.from
    }
    /// The number of jumps.
    pub fn len(self) -> usize {
        (self.len as usize).min(MAX_CHAIN)
    }
    /// Always false: a chain has at least one jump.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// The directions of the jumps, indices into [`DIAGONAL`].
    fn directions(self) -> impl Iterator<Item = usize> {
        (0..self.len()).map(move |i| ((self.dirs >> (2 * i)) & 3) as usize)
    }
    /// The landing squares, in order.
    pub fn landings(self) -> impl Iterator<Item = Sq> {
        let mut at = self.from.0 & 63;
        self.directions().map(move |d| {
            at = BEYOND[at as usize][d];
            Sq(at)
        })
    }
}

/// What one jump changed, to take it back.
#[derive(Clone, Copy, Debug, Default)]
struct Undo {
    from: u8,
    to: u8,
    over: u8,
    over_code: i8,
    /// Where the jumped piece went; [`GONE`] when it left the game.
    dest: u8,
    dest_code: i8,
}

/// [`Undo::dest`] of a piece that left the game.
const GONE: u8 = u8::MAX;

/// Makes the jump of the piece on `from` in direction `DIAGONAL[d]`: the
/// jumper lands beyond, and the jumped piece moves at once along its row
/// to the jumping side's left (engine/src/games/toroidal/toroidal-checkers.md,
/// "Where a jumped piece goes", and the ruling that each jumped piece moves as
/// it is jumped). The caller has checked that the jump is legal.
#[inline]
fn apply_jump(board: &mut [i8; 64], from: u8, d: usize) -> Undo {
    let from = from & 63;
    let d = d & 3;
    let over = NEIGHBOUR[from as usize][d];
    let to = BEYOND[from as usize][d];
    let jumper = board[from as usize];
    board[from as usize] = 0;
    board[to as usize] = jumper;
    let v = board[over as usize];
    board[over as usize] = 0;
    let mut undo = Undo {
        from,
        to,
        over,
        over_code: v,
        dest: GONE,
        dest_code: 0,
    };
    let jumper_side = if jumper > 0 { 0 } else { 1 };
    for s in RELOCATE[jumper_side][over as usize] {
        let t = board[s as usize];
        // The first square that is empty or holds a man of the jumped
        // piece's colour; a jumped king only lands on an empty square
        // (engine/src/games/toroidal/toroidal-checkers.md, "Rulings"). Landing
        // on a man makes a king.
        if t == 0 || (t == v && v.abs() == MAN) {
            undo.dest = s;
            undo.dest_code = t;
            board[s as usize] = if t == 0 { v } else { v.signum() * KING };
            break;
        }
    }
    undo
}

/// Takes back [`apply_jump`].
#[inline]
fn undo_jump(board: &mut [i8; 64], u: &Undo) {
    if u.dest != GONE {
        board[u.dest as usize] = u.dest_code;
    }
    board[u.over as usize] = u.over_code;
    board[u.from as usize] = board[u.to as usize];
    board[u.to as usize] = 0;
}

impl Toroidal {
    /// The piece on `s`, if any.
    pub fn piece(&self, s: Sq) -> Option<Piece> {
        Piece::from_code(self.board[s.index() & 63])
    }
    /// Consecutive moves without a jump so far; the game is drawn at
    /// [`QUIET_LIMIT`] (engine/src/games/toroidal/toroidal-checkers.md,
    /// "Ruling: the forty-move draw").
    pub fn quiet_moves(&self) -> u8 {
        self.quiet
    }
    /// How many pieces `side` has in heaven (on dark squares).
    pub fn in_heaven(&self, side: Side) -> u8 {
        self.heaven[side.index()]
    }
    /// The squares of `side`'s pieces, in order.
    pub fn squares_of(&self, side: Side) -> Vec<Sq> {
        (0..64)
            .map(Sq)
            .filter(|&s| matches!(self.piece(s), Some(p) if p.side == side))
            .collect()
    }
    fn count_heaven(board: &[i8; 64]) -> [u8; 2] {
        let mut h = [0u8; 2];
        for (i, &v) in board.iter().enumerate() {
            if v != 0 && G.is_dark(Sq(i as u8)) {
                h[if v > 0 { 0 } else { 1 }] += 1;
            }
        }
        h
    }
    /// A position from a diagram, for tests: 8 rows of 8 cells separated
    /// by white space, row 1 (squares 1-8) first; `.` empty, `b` a black
    /// man, `B` a black king, `w` a white man, `W` a white king. `quiet`
    /// is the number of moves played without a jump (0 to 40).
    ///
    /// # Errors
    /// A [`DiagramError`](crate::diagram::DiagramError) naming the bad cell or count.
    pub fn from_diagram(
        rows: &str,
        turn: Side,
        quiet: u8,
    ) -> Result<Self, crate::diagram::DiagramError> {
        let cells = crate::diagram::picture_cells(rows, 64)?;
        if quiet > QUIET_LIMIT {
            return Err(crate::diagram::DiagramError::Quiet {
                quiet,
                max: QUIET_LIMIT,
            });
        }
        let mut board = [0i8; 64];
        for (i, c) in cells.iter().enumerate() {
            board[i] = match *c {
                "." => 0,
                "b" => MAN,
                "B" => KING,
                "w" => -MAN,
                "W" => -KING,
                c => {
                    return Err(crate::diagram::DiagramError::Cell {
                        cell: c.to_string(),
                        square: i + 1,
                    });
                }
            };
        }
        Ok(Toroidal {
            board,
            turn,
            quiet,
            heaven: Self::count_heaven(&board),
        })
    }
}

impl Game for Toroidal {
    type Move = Move;
    const RULES: Rules = Rules::ToroidalCheckers;
    const INFO: &'static RulesInfo = &facts::INFO;

    /// engine/src/games/toroidal/toroidal-checkers.md, "Setup": black men on
    /// the dark squares of rows 1-3, white men on those of rows 6-8; black
    /// moves first whatever `first` says.
    fn start(_first: Side) -> Self {
        let mut board = [0i8; 64];
        for s in 0..64u8 {
            if G.is_dark(Sq(s)) {
                match G.row(Sq(s)) {
                    0..=2 => board[s as usize] = MAN,
                    5..=7 => board[s as usize] = -MAN,
                    _ => {}
                }
            }
        }
        Toroidal {
            board,
            turn: Side::A,
            quiet: 0,
            heaven: [12, 12],
        }
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn each_move(&self, visit: impl FnMut(Move)) {
        movegen::each(self, visit);
    }

    fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Step { from, to } => {
                let (from, to) = (from.index() & 63, to.index() & 63);
                self.board[to] = self.board[from];
                self.board[from] = 0;
                // engine/src/games/toroidal/toroidal-checkers.md, "Ruling: the
                // forty-move draw": the count runs from the first move of the
                // game.
                self.quiet = self.quiet.saturating_add(1);
            }
            Move::Jump(chain) => {
                let mut at = chain.from.0 & 63;
                for d in chain.directions() {
                    let u = apply_jump(&mut self.board, at, d);
                    let side = if u.over_code > 0 { 0 } else { 1 };
                    if G.is_dark(Sq(u.over)) {
                        self.heaven[side] = self.heaven[side].saturating_sub(1);
                    }
                    // A merged pair is one piece: only a piece landing on
                    // an empty square adds to its realm's count.
                    if u.dest != GONE && u.dest_code == 0 && G.is_dark(Sq(u.dest)) {
                        self.heaven[side] += 1;
                    }
                    at = u.to;
                }
                // A whole chain is one move, and it restarts the count.
                self.quiet = 0;
            }
        }
        self.turn = self.turn.other();
    }

    /// engine/src/games/toroidal/toroidal-checkers.md: first the heaven loss,
    /// then the 40-move draw (the order of the brief); "no legal move" is added
    /// by `game::outcome`.
    fn decided(&self) -> Option<End> {
        let name = |s: Side| Self::INFO.side_name(s);
        let to_move = self.turn;
        let mover = to_move.other();
        // engine/src/games/toroidal/toroidal-checkers.md, "Winning and
        // drawing": a player with no piece in heaven loses. The side to move is
        // checked first: after a move from the start only it can have lost its
        // last piece in heaven, since a side's own move never takes its pieces
        // out of heaven. (Both at once happen only in made-up positions; the
        // mover wins then.)
        for loser in [to_move, mover] {
            if self.heaven[loser.index()] == 0 {
                return Some(End::win(
                    loser.other(),
                    format!("{} has no piece left in heaven", name(loser)),
                ));
            }
        }
        if self.quiet >= QUIET_LIMIT {
            return Some(End::draw(format!(
                "{QUIET_LIMIT} moves in a row without a jump"
            )));
        }
        None
    }

    fn notation(&self, mv: Move) -> Notation {
        match mv {
            Move::Step { from, to } => Notation::step(from, to, false),
            Move::Jump(chain) => {
                Notation::Path(Path::chain(chain.from, chain.landings().collect()))
            }
        }
    }

    fn origin(&self, mv: Move) -> Option<Sq> {
        match mv {
            Move::Step { from, .. } => Some(from),
            Move::Jump(chain) => Some(chain.from),
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
