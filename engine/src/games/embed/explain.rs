//! Why an Embed move is not legal, in words a player can act on.

use super::facts::Section::{Capturing, Moving, Notation as Written, Setup, Winning};
use super::{Embed, G, Piece};
use crate::game::{Explanation, Game, Side, join_list};
use crate::games::{Form, refuse_lacking};
use crate::geom::{ALL, Sq};
use crate::notation::Notation;

/// "red's boss", "a black drone".
fn describe(p: Piece) -> String {
    let name = |s: Side| Embed::INFO.side_name(s);
    match p {
        Piece::Boss(s) => format!("{}'s boss", name(s)),
        Piece::Drone(s) => format!("a {} drone", name(s)),
    }
}

pub(super) fn explain(pos: &Embed, n: &Notation) -> Explanation {
    let rules = Embed::INFO;
    let me = pos.turn;
    let mine = rules.side_name(me);
    let lacking = |form| {
        match form {
        Form::Lunge => Some(Written.says(
            "there are no lunges in Embed (that is M.A.D.); a piece moves like a queen, like 37-29",
        )),
        Form::Count(_) => Some(Written.says("every Embed piece moves whole; leave out the `:` count")),
        Form::Off => Some(Winning.says("pieces never leave the board in Embed; your boss wins by entering the enemy's home row instead")),
        Form::Chain => Some(Moving.says("a turn is one move of one piece, and a capture ends it; write a single move like 37-29 or 37x29")),
        Form::Stones => None,
    }
    };
    let p = match refuse_lacking(rules, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let own = || {
        format!(
            "{mine}'s boss is on {}; {mine} drones: {}",
            pos.boss(me),
            join_list(pos.drones_of(me))
        )
    };
    let Some(piece) = pos.piece(p.from) else {
        return Setup.says(format!("{} holds no {mine} piece ({})", p.from, own()));
    };
    if piece.side() != me {
        return Setup.says(format!(
            "{} holds {}, and it is {mine}'s turn ({})",
            p.from,
            describe(piece),
            own()
        ));
    }
    let Some(&to) = p.to.first() else {
        return Written.says(format!(
            "a move needs a square to go to, like {}-29",
            p.from
        ));
    };
    along_the_line(pos, piece, p.from, to)
}

/// Why the mover's `piece` on `from` cannot move or capture to `to`: the
/// line, what blocks it, what stands on `to`.
fn along_the_line(pos: &Embed, piece: Piece, from: Sq, to: Sq) -> Explanation {
    let me = pos.turn;
    let Some((dir, dist)) = G.line_between(from, to, &ALL) else {
        return Moving.says(if from == to {
            format!("a piece must leave {}: a move goes somewhere", from)
        } else {
            format!(
                "{} and {} are not in a straight line (row, column or diagonal); pieces move like a chess queen",
                from, to
            )
        });
    };
    if let Some(block) = G
        .ray(from, dir)
        .take(dist as usize - 1)
        .find(|s| pos.piece(*s).is_some())
    {
        return Moving.says(format!(
            "the line from {} to {} is blocked at {block} ({}): no piece moves over another",
            from,
            to,
            describe(pos.piece(block).unwrap_or(Piece::Drone(me)))
        ));
    }
    let Some(target) = pos.piece(to) else {
        return Capturing.says(format!(
            "{to} is empty: there is nothing to capture there; write {}-{to}",
            from
        ));
    };
    match (piece, target) {
        (Piece::Boss(_), _) => Capturing.says(format!(
            "a boss only enters empty squares, and {to} holds {}",
            describe(target)
        )),
        (Piece::Drone(_), Piece::Boss(_)) => Capturing.says(format!(
            "no drone enters a square holding a boss, and {to} holds {}",
            describe(target)
        )),
        (Piece::Drone(_), Piece::Drone(s)) if s == me => Capturing.says(format!(
            "{to} holds your own drone; a drone captures only enemy drones"
        )),
        (Piece::Drone(_), Piece::Drone(_)) => Written.says(format!(
            "{} can capture the drone on {to}: write {}x{to}",
            from, from
        )),
    }
}
