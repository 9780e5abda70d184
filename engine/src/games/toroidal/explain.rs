//! Why a Toroidal Checkers move is not legal, in words a player can act on.

use super::facts::Section::{
    Board, Chains, EndlessChains, Jumps, Notation as Written, Setup, Steps,
};
use super::{BEYOND, MAX_CHAIN, NEIGHBOUR, Piece, Toroidal, apply_jump, directions, movegen};
use crate::game::{Explanation, Game, Side, join_list, join_or};
use crate::games::{Form, refuse_lacking};
use crate::geom::Sq;
use crate::notation::Notation;

/// "a black man", "a white king".
fn describe(p: Piece) -> String {
    format!(
        "a {} {}",
        Toroidal::INFO.side_name(p.side),
        if p.king { "king" } else { "man" }
    )
}

/// Which way `side`'s men go, and the other way: ("down", "up") for black.
fn forward(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::A => ("down", "up"),
        Side::B => ("up", "down"),
    }
}

/// The squares a jump from `at` may land on, "27, 29, 43 or 45".
fn jump_squares(at: u8) -> String {
    let mut v: Vec<u16> = BEYOND[at as usize]
        .iter()
        .map(|&s| Sq(s).number())
        .collect();
    v.sort_unstable();
    join_or(&v.iter().map(|n| n.to_string()).collect::<Vec<_>>())
}

/// "a capture is compulsory: 22x31 or 22x15", when it is.
fn compulsory(pos: &Toroidal) -> Option<String> {
    if !movegen::any_jump(pos) {
        return None;
    }
    let jumps: Vec<String> = movegen::first_jumps(pos)
        .into_iter()
        .map(|(a, b)| format!("{a}x{b}"))
        .collect();
    Some(format!("a capture is compulsory: {}", join_or(&jumps)))
}

pub(super) fn explain(pos: &Toroidal, n: &Notation) -> Explanation {
    let me = pos.turn;
    let mine = Toroidal::INFO.side_name(me);
    let lacking = |form| {
        match form {
        Form::Lunge => Some(Written.says("there are no lunges in Toroidal Checkers (that is M.A.D.); write a step like 22-29 or a jump like 22x36")),
        Form::Count(_) => Some(
            Written.says("a piece always moves whole in Toroidal Checkers; leave out the `:` count"),
        ),
        Form::Off => Some(Board.says("nothing moves off the board in Toroidal Checkers: every edge wraps round to the opposite one")),
        Form::Stones | Form::Chain => None,
    }
    };
    let p = match refuse_lacking(Toroidal::INFO, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let from = p.from;
    let own = || format!("{mine} pieces: {}", join_list(pos.squares_of(me)));
    let piece = match pos.piece(from) {
        None => return Setup.says(format!("{from} is empty ({})", own())),
        Some(q) if q.side != me => {
            return Setup.says(format!(
                "{from} holds {}, and it is {mine}'s turn ({})",
                describe(q),
                own()
            ));
        }
        Some(q) => q,
    };
    let dirs = directions(me, piece.king);
    let at = (from.0 & 63) as usize;
    if let [to] = p.to[..] {
        if to == from {
            return Steps.says(format!("a move must leave {from}"));
        }
        if let Some(d) = (0..4).find(|&d| NEIGHBOUR[at][d] == to.0) {
            return explain_step(pos, from, to, dirs.contains(&d), d);
        }
        if !p.capture && !BEYOND[at].contains(&to.0) {
            let mut next: Vec<u16> = NEIGHBOUR[at].iter().map(|&s| Sq(s).number()).collect();
            next.sort_unstable();
            return Steps.says(format!(
                "{from} and {to} are not diagonal neighbours: a step goes one square diagonally, wrapping round the edges (from {from}: {})",
                join_or(&next.iter().map(|n| n.to_string()).collect::<Vec<_>>())
            ));
        }
    }
    explain_chain(pos, piece, from, &p.to, dirs)
}

/// A one-square diagonal move (written with `-` or `x`).
fn explain_step(pos: &Toroidal, from: Sq, to: Sq, forward_ok: bool, d: usize) -> Explanation {
    let me = pos.turn;
    let (fwd, back) = forward(me);
    let mut hinted = false;
    let fault = if !forward_ok {
        Some(format!(
            "men move only forward ({fwd} the board for {}): {from}-{to} goes {back}; only kings move backwards",
            Toroidal::INFO.side_name(me)
        ))
    } else if let Some(q) = pos.piece(to) {
        let mut f = format!(
            "{to} is occupied by {}: a piece steps only onto an empty square",
            describe(q)
        );
        let beyond = Sq(BEYOND[from.index() & 63][d]);
        if q.side != me && pos.piece(beyond).is_none() {
            f.push_str(&format!("; to jump it, write {from}x{beyond}"));
            hinted = true;
        }
        Some(f)
    } else {
        None
    };
    match (fault, compulsory(pos)) {
        (Some(f), Some(_)) if hinted => Steps.says(f),
        (Some(f), Some(c)) => Steps.says(format!("{f}; besides, {c}")),
        (Some(f), None) => Steps.says(f),
        (None, Some(c)) => Jumps.says(c),
        (None, None) => Written.says(format!(
            "{from}-{to} is a step and captures nothing; write it {from}-{to}"
        )),
    }
}

/// Why `t` is no jump from `here` (the `i`th of a chain): the piece's own
/// square, a neighbour (a step), or a square no jump reaches.
fn no_jump(ctx: &str, what: &str, i: usize, here: Sq, t: Sq) -> Explanation {
    let at = here.0;
    if t == here {
        return Jumps.says(format!(
            "{ctx}the {what} stands on {t}: a jump lands two squares away diagonally, on {}",
            jump_squares(at)
        ));
    }
    if NEIGHBOUR[at as usize].contains(&t.0) {
        if i == 0 {
            return Chains.says(format!(
                    "{here}-{t} would be a step, and a step ends the move: only jumps go on, and a jump lands two squares away diagonally (from {here}: {})",
                    jump_squares(at)
                ));
        }
        return Jumps.says(format!(
                "{ctx}{here} to {t} is one square: a jump lands two squares away diagonally (from {here}: {})",
                jump_squares(at)
            ));
    }
    Jumps.says(format!(
        "{ctx}{t} is not a jump from {here}: a jump goes over a diagonal neighbour to the square just beyond, wrapping round the edges (from {here}: {})",
        jump_squares(at)
    ))
}

/// A jump or a chain of jumps, written by landing squares: each jump is
/// made in turn on a scratch board (jumped pieces move at once, as in
/// play), and the first one that fails is explained.
fn explain_chain(pos: &Toroidal, piece: Piece, from: Sq, to: &[Sq], dirs: &[usize]) -> Explanation {
    let me = pos.turn;
    let (fwd, back) = forward(me);
    let mut board = pos.board;
    let mut at = from.0 & 63;
    let mut done = from.to_string();
    let mut seen: Vec<(u8, [i8; 64], String)> =
        vec![(at, board, "before the first jump".to_string())];
    let what = if piece.king { "king" } else { "man" };
    for (i, &t) in to.iter().enumerate() {
        let ctx = if i == 0 {
            String::new()
        } else {
            format!("after {done}, ")
        };
        let here = Sq(at);
        if i >= MAX_CHAIN {
            return EndlessChains.says(format!(
                "a chain has at most {MAX_CHAIN} jumps (pbem's guard against endless chains)"
            ));
        }
        let Some(d) = (0..4).find(|&d| BEYOND[at as usize][d] == t.0) else {
            return no_jump(&ctx, what, i, Sq(at), t);
        };
        if !dirs.contains(&d) {
            return Jumps.says(format!(
                "{ctx}men jump only forward ({fwd} the board for {}): {here}x{t} goes {back}; only kings jump backwards",
                Toroidal::INFO.side_name(me)
            ));
        }
        let over = Sq(NEIGHBOUR[at as usize][d]);
        match Piece::from_code(board[over.index()]) {
            None => {
                return Jumps.says(format!(
                    "{ctx}{over} is empty: there is no enemy piece to jump between {here} and {t}"
                ));
            }
            Some(q) if q.side == me => {
                return Jumps.says(format!(
                    "{ctx}{over} holds your own {}: you jump only enemy pieces",
                    if q.king { "king" } else { "man" }
                ));
            }
            Some(_) => {}
        }
        if let Some(q) = Piece::from_code(board[t.index()]) {
            return Jumps.says(format!(
                "{ctx}the square beyond {over}, {t}, is occupied by {}: a jump lands on an empty square",
                describe(q)
            ));
        }
        apply_jump(&mut board, at, d);
        let before = done.clone();
        done.push_str(&format!("x{t}"));
        if let Some((_, _, earlier)) = seen.iter().find(|(s, b, _)| *s == t.0 && *b == board) {
            return EndlessChains.says(format!(
                "{ctx}the jump {here}x{t} would bring back the very position the chain had {earlier}; a chain stops before it repeats itself (pbem's guard against endless chains; {before} is legal)",
            ));
        }
        seen.push((t.0, board, format!("after {done}")));
        at = t.0;
    }
    // Every jump is fine, so the chain is legal: only a wrong mark can
    // have kept it from matching (and resolution forgives that).
    Written.says(format!("write jumps with x: {done}"))
}
