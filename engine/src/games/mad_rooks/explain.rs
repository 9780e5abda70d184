//! Why a Mad Rooks or Mad Bishops move is not legal, in words a player can
//! act on: the rule it breaks and the squares behind it.

use super::facts::Section::{Board, Engaging, Killing, Notation as Written, Setup};
use super::movegen::sight;
use super::{Bits, MadPosition, Variant};
use crate::game::{Explanation, Game, join_list};
use crate::games::{Form, refuse_lacking};
use crate::geom::Sq;
use crate::notation::Notation;

pub(super) fn explain<V: Variant>(pos: &MadPosition<V>, n: &Notation) -> Explanation {
    let rules = V::INFO;
    let g = V::GEOMETRY;
    let game = rules.name;
    let forms = rules.notation;
    let me = pos.turn();
    let mine = rules.side_name(me);
    let theirs = rules.side_name(me.other());
    let lacking = |form| {
        Some(match form {
            Form::Stones => Written.says(format!(
                "{game} moves are written with square numbers: {forms}"
            )),
            Form::Lunge => Written.says(format!(
                "there are no lunges in {game} (that is M.A.D.); {forms}"
            )),
            Form::Count(k) => Written.says(format!(
                "a checker always moves alone in {game}; leave out the `:{k}`"
            )),
            Form::Off => Board.says(format!("checkers never leave the board in {game}; {forms}")),
            Form::Chain => Written.says(format!(
                "a turn is one kill or one engage, never a chain; {forms}"
            )),
        })
    };
    let p = match refuse_lacking(rules, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let to = match p.to.as_slice() {
        [to] => *to,
        [] => return Written.says(format!("a move needs the square to move to; {forms}")),
        _ => {
            return Written.says(format!(
                "a turn is one kill or one engage, never a chain; {forms}"
            ));
        }
    };
    let from = p.from;
    if let Some(s) = [from, to]
        .into_iter()
        .find(|s| !g.contains_number(s.number() as u32))
    {
        return Board.says(format!("there is no square {s} on this board"));
    }
    let own = || format!("{mine} checkers: {}", join_list(pos.checkers(me)));
    match pos.checker(from) {
        None => return Setup.says(format!("{from} is empty ({})", own())),
        Some(o) if o != me => {
            return Setup.says(format!(
                "{from} holds a {theirs} checker, and it is {mine}'s turn ({})",
                own()
            ));
        }
        Some(_) => {}
    }
    if from == to {
        return Engaging.says(format!(
            "a checker must leave {from}: a move goes to another square"
        ));
    }
    explain_line(pos, from, to, p.capture)
}

/// Why a move from a checker of the side to move to another square is not
/// legal: the line between them, what blocks it, what the checker could
/// kill.
fn explain_line<V: Variant>(pos: &MadPosition<V>, from: Sq, to: Sq, capture: bool) -> Explanation {
    let g = V::GEOMETRY;
    let me = pos.turn();
    let mine = V::INFO.side_name(me);
    let theirs = V::INFO.side_name(me.other());
    let Some((dir, dist)) = g.line_between(from, to, &V::DIRS) else {
        return Killing.says(format!(
            "{from} and {to} are not on the same {}: checkers move and kill only along {}",
            V::LINES,
            V::LINES_PLURAL
        ));
    };
    let block = g
        .ray(from, dir)
        .take(dist as usize - 1)
        .find(|s| pos.checker(*s).is_some());
    let enemies = pos.checkers[me.other().index()];
    let occ = pos.occupied();
    let kills: Vec<_> = (sight::<V>(from.index(), occ) & enemies)
        .squares()
        .collect();
    match pos.checker(to) {
        Some(o) if o == me => Killing.says(format!(
            "{to} holds a {mine} checker of your own; a checker kills only {theirs} checkers"
        )),
        Some(_) => match block {
            Some(b) => Killing.says(format!(
                "the line from {from} to {to} is blocked at {b}: a checker kills only an enemy with nothing but empty squares between"
            )),
            None => Written.says(format!("{from} can kill {to}: write {from}x{to}")),
        },
        None => {
            let nothing = if capture {
                format!("{to} is empty, so there is nothing to kill there; ")
            } else {
                String::new()
            };
            let (section, why) = if let Some(b) = block {
                (Engaging, format!(
                    "the slide from {from} to {to} is blocked at {b}: a checker slides only through empty squares"
                ))
            } else if !kills.is_empty() {
                // engine/src/games/mad_rooks/mad-rooks.md, "Killing": a checker
                // in position to kill may only kill.
                let verb = if kills.len() == 1 { "is" } else { "are" };
                (Killing, format!(
                    "{from} can kill ({} {verb} in line), so it may only kill",
                    join_and(&kills)
                ))
            } else if (sight::<V>(to.index(), occ) & enemies).is_empty() {
                // engine/src/games/mad_rooks/mad-rooks.md, "Engaging": the
                // slide must end where the checker could kill.
                (Engaging, format!(
                    "from {to} no {theirs} checker is in line (along a {} with only empty squares between), so {from}-{to} does not engage; a checker that cannot kill may only slide to a square from which it could kill",
                    V::LINES
                ))
            } else {
                (Written, format!("{from}-{to} engages: write it with `-`"))
            };
            section.says(format!("{nothing}{why}"))
        }
    }
}

/// "17", "17 and 22", "10, 17 and 22".
fn join_and<T: std::fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(|i| i.to_string()).collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
