//! Why a Boom & Zoom move is not legal, in words a player can act on.

use super::facts::Section::{Booming, Notation as Written, Setup, Zooming, ZoomingOff};
use super::{BoomAndZoom, G};
use crate::game::{Explanation, Game, join_list};
use crate::games::{Form, refuse_lacking};
use crate::geom::{ALL, Sq};
use crate::notation::Notation;

pub(super) fn explain(pos: &BoomAndZoom, n: &Notation) -> Explanation {
    let rules = BoomAndZoom::INFO;
    let me = pos.turn;
    let mine = rules.side_name(me);
    let lacking = |form| match form {
        Form::Lunge => {
            Some(Written.says(
                "there are no lunges in Boom & Zoom (that is M.A.D.); a tower zooms like 22-15",
            ))
        }
        Form::Count(_) => {
            Some(Zooming.says("a tower always moves whole in Boom & Zoom; leave out the `:` count"))
        }
        Form::Chain => Some(
            Zooming.says("a turn is one zoom or one boom; write a single move like 22-15 or 22x15"),
        ),
        Form::Stones | Form::Off => None,
    };
    let p = match refuse_lacking(rules, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let own = || format!("{mine} towers: {}", join_list(pos.towers_of(me)));
    let (owner, h) = match pos.tower(p.from) {
        None => return Setup.says(format!("{} holds no {mine} tower ({})", p.from, own())),
        Some(t) => t,
    };
    if owner != me {
        return Setup.says(format!(
            "{} holds a {} tower, and it is {mine}'s turn ({})",
            p.from,
            rules.side_name(owner),
            own()
        ));
    }
    if p.off {
        return off_the_board(pos, p.from, h);
    }
    let Some(&to) = p.to.first() else {
        return Zooming.says(format!(
            "a move from {} names the square it goes to, like {}",
            p.from,
            super::facts::INFO.examples[0]
        ));
    };
    along_the_line(pos, p.from, to, h)
}

/// Why a tower of height `h` on `from` cannot zoom off the board.
fn off_the_board(pos: &BoomAndZoom, from: Sq, h: u8) -> Explanation {
    let me = pos.turn;
    let mine = BoomAndZoom::INFO.side_name(me);
    let (last_row, forward) = BoomAndZoom::last_row(me);
    let edge = if forward > 0 { "bottom" } else { "top" };
    let steps = G.row(from).abs_diff(last_row);
    if steps + 1 > h {
        return ZoomingOff.says(format!(
            "a {h}-high tower moves at most {h} square{}; from {} it needs {} to reach the {edge} row and one more to leave the board",
            if h == 1 { "" } else { "s" },
            from,
            steps
        ));
    }
    ZoomingOff.says(format!(
        "{mine} towers leave only through the {edge} edge, in a straight or diagonally forward line of empty squares, and every such line from {from} is blocked"
    ))
}

/// Why the mover's tower of height `h` on `from` cannot zoom or boom to
/// `to`: the line, its length, what blocks it, what stands on `to`.
fn along_the_line(pos: &BoomAndZoom, from: Sq, to: Sq, h: u8) -> Explanation {
    let Some((dir, dist)) = G.line_between(from, to, &ALL) else {
        return Zooming.says(if from == to {
            format!("a tower must leave {from}: a move goes somewhere")
        } else {
            format!("{from} and {to} are not in a straight line (row, column or diagonal)")
        });
    };
    if dist > h {
        return Zooming.says(format!(
            "a {h}-high tower zooms and booms at most {h} square{}; {from} to {to} is {dist}",
            if h == 1 { "" } else { "s" },
        ));
    }
    if let Some(block) = G
        .ray(from, dir)
        .take(dist as usize - 1)
        .find(|s| pos.tower(*s).is_some())
    {
        return Zooming.says(format!(
            "the line from {from} to {to} is blocked at {block}: nothing zooms or fires through a tower"
        ));
    }
    match pos.tower(to) {
        Some((o, _)) if o == pos.turn => Booming.says(format!(
            "{to} holds your own tower; you boom only enemy towers"
        )),
        Some(_) => Written.says(format!("{from} can boom {to}: write {from}x{to}")),
        None => Booming.says(format!(
            "{to} is empty: there is nothing to boom there; write {from}-{to} to zoom"
        )),
    }
}
