//! Legal moves of Toroidal Checkers
//! (engine/src/games/toroidal/toroidal-checkers.md: Move, Jump, and where the
//! jumped piece goes).
//!
//! Jumps are compulsory, so the generator first looks for any jump; if
//! there is one, the legal moves are every prefix of every jump chain
//! (engine/src/games/toroidal/toroidal-checkers.md, "Ruling: chains"), found by
//! a depth-first search that makes each jump on a scratch board (moving the
//! jumped piece at once) and takes it back. Otherwise they are the steps.

use super::{
    BEYOND, Chain, MAX_CHAIN, Move, NEIGHBOUR, Toroidal, Undo, apply_jump, directions, undo_jump,
};
use crate::game::Side;
use crate::geom::Sq;

/// The side to move's sign on the board (+1 black, -1 white).
fn sign(side: Side) -> i8 {
    match side {
        Side::A => 1,
        Side::B => -1,
    }
}

/// Whether the piece on `s` (of the side with `sign`) can jump now: an
/// adjacent enemy piece in one of its directions, the square beyond empty.
#[inline]
fn can_jump(board: &[i8; 64], s: usize, dirs: &[usize], sign: i8) -> bool {
    dirs.iter()
        .any(|&d| board[NEIGHBOUR[s][d] as usize] * sign < 0 && board[BEYOND[s][d] as usize] == 0)
}

/// The side's pieces and the directions each moves in.
#[inline]
fn pieces(pos: &Toroidal) -> impl Iterator<Item = (usize, &'static [usize])> + '_ {
    let me = pos.turn;
    let sign = sign(me);
    pos.board.iter().enumerate().filter_map(move |(s, &v)| {
        let v = v * sign;
        (v > 0).then(|| (s, directions(me, v > 1)))
    })
}

/// Whether the side to move has a jump anywhere (then it must jump).
pub(super) fn any_jump(pos: &Toroidal) -> bool {
    let sign = sign(pos.turn);
    pieces(pos).any(|(s, dirs)| can_jump(&pos.board, s, dirs, sign))
}

/// The depth-first search over jump chains of one side.
struct Chains<F: FnMut(Chain)> {
    board: [i8; 64],
    sign: i8,
    /// `trail[k]`: the jumper's square after `k` jumps of the current
    /// chain (`trail[0]` the start).
    trail: [u8; MAX_CHAIN + 1],
    /// `undos[k]`: what jump `k + 1` changed.
    undos: [Undo; MAX_CHAIN],
    emit: F,
}

impl<F: FnMut(Chain)> Chains<F> {
    fn new(pos: &Toroidal, emit: F) -> Self {
        Chains {
            board: pos.board,
            sign: sign(pos.turn),
            trail: [0; MAX_CHAIN + 1],
            undos: [Undo::default(); MAX_CHAIN],
            emit,
        }
    }

    /// Every chain from the piece on `from`.
    fn search_from(&mut self, from: usize, dirs: &'static [usize]) {
        self.trail[0] = from as u8;
        self.extend(Chain::new(Sq(from as u8)), from as u8, dirs, 0);
    }

    /// Emits every one-jump extension of `chain` (whose jumper stands on
    /// `at` after `depth` jumps) and searches on from each.
    fn extend(&mut self, chain: Chain, at: u8, dirs: &'static [usize], depth: usize) {
        for &d in dirs {
            let over = NEIGHBOUR[at as usize][d] as usize;
            let to = BEYOND[at as usize][d];
            if self.board[over] * self.sign >= 0 || self.board[to as usize] != 0 {
                continue;
            }
            let u = apply_jump(&mut self.board, at, d);
            self.undos[depth] = u;
            self.trail[depth + 1] = to;
            // The termination guard (module docs): a jump that brings back
            // a state of this chain is not made.
            if !self.repeats(depth + 1) {
                let next = chain.push(d);
                (self.emit)(next);
                if depth + 1 < MAX_CHAIN {
                    self.extend(next, to, dirs, depth + 1);
                }
            }
            undo_jump(&mut self.board, &u);
        }
    }

    /// Whether the state after `k` jumps (jumper square and board) equals
    /// the state after some `i < k` jumps of the same chain. The jumper
    /// square is compared first; only when it matches is the earlier board
    /// rebuilt (by taking back jumps on a copy) and compared.
    fn repeats(&self, k: usize) -> bool {
        let at = self.trail[k];
        if !self.trail[..k].contains(&at) {
            return false;
        }
        let mut earlier = self.board;
        for i in (0..k).rev() {
            undo_jump(&mut earlier, &self.undos[i]);
            if self.trail[i] == at && earlier == self.board {
                return true;
            }
        }
        false
    }
}

/// Calls `f` for every legal move of the side to move.
#[inline]
pub(super) fn each(pos: &Toroidal, mut f: impl FnMut(Move)) {
    if any_jump(pos) {
        let mut search = Chains::new(pos, |c| f(Move::Jump(c)));
        for (s, dirs) in pieces(pos) {
            search.search_from(s, dirs);
        }
        return;
    }
    for (s, dirs) in pieces(pos) {
        for &d in dirs {
            let to = NEIGHBOUR[s][d];
            if pos.board[to as usize] == 0 {
                f(Move::Step {
                    from: Sq(s as u8),
                    to: Sq(to),
                });
            }
        }
    }
}

/// The one-jump moves of the side to move, for "a capture is compulsory:
/// 22x31 or 22x15".
pub(super) fn first_jumps(pos: &Toroidal) -> Vec<(Sq, Sq)> {
    let sign = sign(pos.turn);
    let mut out = Vec::new();
    for (s, dirs) in pieces(pos) {
        for &d in dirs {
            if pos.board[NEIGHBOUR[s][d] as usize] * sign < 0
                && pos.board[BEYOND[s][d] as usize] == 0
            {
                out.push((Sq(s as u8), Sq(BEYOND[s][d])));
            }
        }
    }
    out.sort_unstable();
    out
}
