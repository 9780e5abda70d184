//! Why a Dragons Teeth move is not legal, in words a player can act on.

use super::facts::Section::{Eliminating, Moving, MovingOff, Notation as Written, Setup, Teeth};
use super::movegen::{Exit, TABLES, attack, exit};
use super::{DragonsTeeth, G, kind};
use crate::game::{Explanation, Game, Side, join_list};
use crate::games::{Form, refuse_lacking};
use crate::geom::{ALL, Sq};
use crate::notation::Notation;

pub(super) fn explain(pos: &DragonsTeeth, n: &Notation) -> Explanation {
    let rules = DragonsTeeth::INFO;
    let me = pos.turn;
    let mine = rules.side_name(me);
    let lacking = |form| {
        match form {
        Form::Lunge => Some(Written.says(
            "there are no lunges in Dragons Teeth (that is M.A.D.); a tooth moves like 17-33",
        )),
        Form::Count(_) => Some(
            Teeth.says("a tooth always moves whole and never splits; leave out the `:` count"),
        ),
        Form::Chain => Some(Moving.says("a turn is one move of one tooth, ending where it eliminates; write a single move like 17-33 or 33x41")),
        Form::Stones | Form::Off => None,
    }
    };
    let p = match refuse_lacking(rules, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let own = || format!("{mine} teeth: {}", join_list(pos.teeth_of(me)));
    let (owner, s) = match pos.tooth(p.from) {
        None => return Setup.says(format!("{} holds no {mine} tooth ({})", p.from, own())),
        Some(t) => t,
    };
    if owner != me {
        return Setup.says(format!(
            "{} holds a {} tooth, and it is {mine}'s turn ({})",
            p.from,
            rules.side_name(owner),
            own()
        ));
    }
    if p.off {
        return MovingOff.says(explain_off(pos, p.from));
    }
    let Some(&to) = p.to.first() else {
        return Written.says(format!(
            "a move needs a square to go to, like {}-33 or {}-off",
            p.from, p.from
        ));
    };
    let Some((dir, dist)) = G.line_between(p.from, to, &ALL) else {
        return Moving.says(if p.from == to {
            format!("a tooth must leave {}: a move goes somewhere", p.from)
        } else {
            format!(
                "{} and {} are not in a straight line (row, column or diagonal)",
                p.from, to
            )
        });
    };
    if let Some(block) = G
        .ray(p.from, dir)
        .take(dist as usize - 1)
        .find(|s| pos.tooth(*s).is_some())
    {
        return Moving.says(format!(
            "the line from {} to {} is blocked at {block}: no tooth moves through another tooth, friend or enemy",
            p.from, to
        ));
    }
    match pos.tooth(to) {
        Some((o, t)) if o == me => Eliminating.says(format!(
            "{to} holds your own {} tooth; a tooth eliminates only enemy teeth",
            kind(t)
        )),
        Some((_, t)) => Eliminating.says(weak_attack(pos, p.from, s, to, t)),
        None => Eliminating.says(format!(
            "{to} is empty: there is nothing to eliminate there; write {}-{to}",
            p.from
        )),
    }
}

/// engine/src/games/dragons_teeth/dragons-teeth.md, "Moving": the attack
/// (mover and adjacent friends, never the mover itself) is below the
/// target's strength. Gives the sum.
fn weak_attack(pos: &DragonsTeeth, from: Sq, s: u8, to: Sq, t: u8) -> String {
    let sign: i8 = if pos.turn == Side::A { 1 } else { -1 };
    let total = attack(pos, from, to, sign);
    let assists: Vec<String> = TABLES
        .neighbours(to)
        .iter()
        .filter(|&&n| n != from.0 && pos.board[n as usize] * sign > 0)
        .map(|&n| format!("assist from {} ({})", n + 1, pos.board[n as usize] * sign))
        .collect();
    let sum = if assists.is_empty() {
        format!("{} tooth {s}, no assistants", kind(s))
    } else {
        format!("{} {s} + {} = {total}", kind(s), assists.join(" + "))
    };
    let mut msg = format!(
        "the {} tooth on {from} cannot eliminate the {} tooth on {to}: attack {total} ({sum}) is less than the {} tooth's strength {t}",
        kind(s),
        kind(t),
        kind(t)
    );
    if TABLES.neighbours(to).contains(&from.0) {
        msg.push_str("; the moving tooth never assists itself");
    }
    msg
}

/// engine/src/games/dragons_teeth/dragons-teeth.md, "Moving off": every forward
/// line from `from` is closed; say where each one is blocked.
fn explain_off(pos: &DragonsTeeth, from: Sq) -> String {
    let me = pos.turn;
    let mine = DragonsTeeth::INFO.side_name(me);
    let (edge, ahead) = match me {
        Side::A => ("bottom", "down"),
        Side::B => ("top", "up"),
    };
    let lines = [(0, "straight"), (-1, "left"), (1, "right")].map(|(dc, name)| {
        let line = if dc == 0 {
            format!("straight {ahead}")
        } else {
            format!("{ahead}-{name}")
        };
        match exit(pos, from, me, dc) {
            Exit::Blocked(b) => format!("{line} is blocked at {b}"),
            Exit::SideEdge => format!("{line} runs off the {name} edge"),
            Exit::Open => format!("{line} is open"),
        }
    });
    let [straight, left, right] = lines;
    format!(
        "{mine} teeth leave only through the {edge} edge, along a straight or diagonally forward line of empty squares, and from {from} {straight}, {left} and {right}"
    )
}
