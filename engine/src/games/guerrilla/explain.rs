//! Why a Guerrilla Checkers move is not legal, in words a player can act on.

use super::facts::Section::{
    Board, CoinTurn, GuerrillaTurn, Notation as Written, SecondStone, Setup, WinningStone,
};
use super::movegen::{self, CROSS, PT_NEIGH, STEP};
use super::{G, Guerrilla, Move, bits};
use crate::game::{Explanation, Game, join_list, join_or};
use crate::games::{Form, refuse_lacking};
use crate::geom::{Point, Sq};
use crate::notation::{Notation, Path};

pub(super) fn explain(pos: &Guerrilla, n: &Notation) -> Explanation {
    use crate::game::Side;
    match (pos.turn, n) {
        (Side::A, Notation::Stones(points)) => stones(pos, points),
        (Side::A, Notation::Path(_)) => GuerrillaTurn.says("it is the guerrilla's turn: the guerrilla places two stones on grid points, written like 27/36,28/37 (a point is named by the squares at its upper-left and lower-right)"),
        (Side::B, _) => {
            let off = matches!(n, Notation::Path(p) if p.off);
            match refuse_lacking(Guerrilla::INFO, n, |form| coin_lacks(form, off)) {
                Ok(p) => coin(pos, p),
                Err(refusal) => refusal,
            }
        }
    }
}

/// COIN's refusals of what its moves lack ([`refuse_lacking`]): stones
/// (the guerrilla's), lunges, leaving the board, counts. It captures in
/// chains. A move that leaves the board (`off`) is refused for that before
/// its count: no text parses to both, but a built notation may have them.
fn coin_lacks(form: Form, off: bool) -> Option<Explanation> {
    Some(match form {
        Form::Count(_) if off => return None,
        Form::Stones => CoinTurn.says("it is COIN's turn: a COIN piece steps one square diagonally, written like 27-36, or captures, like 27x36x45"),
        Form::Lunge => Written
            .says("COIN pieces do not lunge: a piece steps one square diagonally, like 27-36"),
        Form::Off => CoinTurn.says(
            "COIN pieces never leave the board: a piece steps one square diagonally, like 27-36",
        ),
        Form::Count(_) => Written.says("COIN pieces move one at a time; leave out the `:` count"),
        Form::Chain => return None,
    })
}

fn name(p: Point) -> String {
    G.point_name(p)
}

/// Grid distance between two points (steps across plus steps up/down).
fn distance(a: u8, b: u8) -> u8 {
    (a / 7).abs_diff(b / 7) + (a % 7).abs_diff(b % 7)
}

/// Up to `k` points of `set`, nearest to `p` first, by name.
fn nearest(set: u64, p: u8, k: usize) -> Vec<String> {
    let mut v: Vec<u8> = bits(set).collect();
    v.sort_by_key(|&q| (distance(p, q), q));
    v.into_iter().take(k).map(|q| name(Point(q))).collect()
}

/// The legal first stones: next to a stone (anywhere on the first turn)
/// and followed by a legal second stone, or winning at once.
fn legal_firsts(pos: &Guerrilla) -> u64 {
    bits(movegen::first_candidates(pos))
        .filter(|&f| movegen::seconds_after(pos, f) != Some(0))
        .fold(0, |b, f| b | 1 << f)
}

fn stones(pos: &Guerrilla, points: &[Point]) -> Explanation {
    if points.iter().any(|p| p.0 >= 49) {
        return Board.says("that point is not inside the board; stones stand only on the 49 grid points inside the board");
    }
    let Some(&first) = points.first() else {
        return GuerrillaTurn.says("a turn places two stones, like 27/36,28/37");
    };
    if points.len() > 2 {
        return GuerrillaTurn.says(format!(
            "a turn places exactly two stones, not {}",
            points.len()
        ));
    }
    let f = first.0;
    if pos.stone(first) {
        let free = nearest(legal_firsts(pos), f, 4);
        return GuerrillaTurn.says(format!(
            "{} is taken{}",
            name(first),
            if free.is_empty() {
                String::new()
            } else {
                format!(
                    " (free points for a first stone nearby: {})",
                    free.join(", ")
                )
            }
        ));
    }
    if pos.stones != 0 && PT_NEIGH[f as usize] & pos.stones == 0 {
        let near = nearest(pos.stones, f, 1).join("");
        let free = nearest(legal_firsts(pos), f, 4);
        return GuerrillaTurn.says(format!(
            "the first stone must touch one of your stones, one grid step across or up/down (nearest: {near}; free points next to your stones near {}: {})",
            name(first),
            free.join(", ")
        ));
    }
    match movegen::seconds_after(pos, f) {
        None => WinningStone.says(format!(
            "{0} removes the last COIN piece and wins at once, so no second stone follows: write {0} alone",
            name(first)
        )),
        Some(0) if pos.supply < 2 => WinningStone.says(format!(
            "a turn places two stones and your supply holds only {}; only a stone that removes the last COIN piece may go alone",
            pos.supply
        )),
        Some(0) => SecondStone.says(format!(
            "{} has no free point next to it for the second stone (a first stone needs a free point beside it)",
            name(first)
        )),
        Some(seconds) => second_stone(pos, points, first, seconds),
    }
}

/// Why the second stone of `points` cannot go with `first`, whose free
/// neighbours for a second stone are `seconds`.
fn second_stone(pos: &Guerrilla, points: &[Point], first: Point, seconds: u64) -> Explanation {
    let f = first.0;
    let free = join_list(bits(seconds).map(|s| name(Point(s))));
    let Some(&second) = points.get(1) else {
        return GuerrillaTurn.says(format!(
            "a turn places two stones: {0} alone does not remove the last COIN piece; add a second stone next to it, like {0},{1}",
            name(first),
            name(Point(seconds.trailing_zeros() as u8))
        ));
    };
    if second == first {
        return GuerrillaTurn.says(format!(
            "{} is named twice: a point holds one stone",
            name(first)
        ));
    }
    if pos.stone(second) {
        return GuerrillaTurn.says(format!(
            "{} is taken (free points next to {}: {free})",
            name(second),
            name(first)
        ));
    }
    if PT_NEIGH[f as usize] & 1 << second.0 == 0 {
        return GuerrillaTurn.says(format!(
            "{} is not next to {}: the second stone goes one grid step across or up/down from the first (free: {free})",
            name(second),
            name(first)
        ));
    }
    GuerrillaTurn.says("no legal move matches")
}

/// The direction index from `a` to the diagonal neighbour `b`.
fn dir_to(a: Sq, b: Sq) -> Option<usize> {
    if a.0 >= 64 || b.0 >= 64 {
        return None;
    }
    (0..4).find(|&d| STEP[a.index()][d] == b.0)
}

/// A COIN move that [`refuse_lacking`] let through, on the board.
fn coin(pos: &Guerrilla, p: &Path) -> Explanation {
    if !pos.coin(p.from) {
        return Setup.says(format!(
            "{} holds no COIN piece (COIN pieces: {})",
            p.from,
            join_list(pos.coin_squares())
        ));
    }
    let Some(&first_to) = p.to.first() else {
        return Written.says("a COIN move names the square it goes to, like 27-36");
    };
    let occupied = pos.coin & !(1 << p.from.0);
    let mut stones = pos.stones;
    let mut at = p.from;
    for (i, &to) in p.to.iter().enumerate() {
        let Some(d) = dir_to(at, to) else {
            return CoinTurn.says(if p.to.len() == 1 {
                format!(
                    "a COIN piece steps one square diagonally; {at} to {to} is not one diagonal step"
                )
            } else {
                format!(
                    "a COIN piece steps one square diagonally, capture by capture; {at} to {to} is not one diagonal step (a chain is written by its landing squares, like 27x36x45)"
                )
            });
        };
        if occupied & 1 << to.0 != 0 {
            return CoinTurn.says(format!("{to} is occupied by a COIN piece"));
        }
        let pt = CROSS[at.index()][d];
        if stones & 1 << pt == 0 {
            let crossed = name(Point(pt));
            return CoinTurn.says(if i == 0 && p.to.len() == 1 {
                format!("{at} to {to} crosses no stone ({crossed} is empty): write it {at}-{to}")
            } else if i == 0 {
                format!(
                    "{at} to {to} crosses no stone ({crossed} is empty), so it is a quiet step and ends the move; only captures go on"
                )
            } else if pos.stones & 1 << pt != 0 {
                format!(
                    "{at} to {to} crosses {crossed}, whose stone this chain has already captured: a chain goes on only by captures"
                )
            } else {
                format!(
                    "{at} to {to} crosses no stone ({crossed} is empty): a chain goes on only by captures"
                )
            });
        }
        stones &= !(1 << pt);
        at = to;
    }
    chain_goes_on(pos, p, first_to)
}

/// Every step of `p` was a capture, and the chain stopped while it could
/// go on: how it goes on.
fn chain_goes_on(pos: &Guerrilla, p: &Path, first_to: Sq) -> Explanation {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let goes_on: Vec<String> = moves
        .into_iter()
        .filter(|&m| matches!(m, Move::Coin { from, .. } if from == p.from))
        .filter_map(|m| {
            let l = m.landings();
            (l.len() > p.to.len() && l.starts_with(&p.to)).then(|| pos.notation(m).canonical(G))
        })
        .collect();
    if goes_on.is_empty() {
        return CoinTurn.says("no legal move matches");
    }
    let shown = if goes_on.len() > 6 {
        format!("{}, ... ({} ways)", goes_on[..6].join(", "), goes_on.len())
    } else {
        join_or(&goes_on)
    };
    let lead = if p.to.len() == 1 && !p.capture {
        format!(
            "{} to {first_to} crosses the stone on {}, so it captures, and ",
            p.from,
            name(Point(
                CROSS[p.from.index()][dir_to(p.from, first_to).unwrap_or(0)]
            ))
        )
    } else {
        String::new()
    };
    CoinTurn.says(format!("{lead}the capture must go on: {shown}"))
}
