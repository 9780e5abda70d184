//! Friendly forms of M.A.D. moves, and why a move is not legal, in words a
//! player can act on.

use super::facts::Section::{Lunges, Notation as Written, Setup, SimpleMoves, Winning};
use super::{G, Mad, STACK_LIMIT};
use crate::game::{Explanation, Game, Side};
use crate::games::{Form, refuse_lacking};
use crate::geom::{ALL, Dir, Sq};
use crate::notation::{Notation, Path};

/// Rewrites the equivalent forms of a move to the canonical one
/// (`engine/src/games/mad/mad.md`, "Notation"; docs/src/rules/common.md,
/// "Canonical notation": friendly variants are accepted):
///
/// - `12-20:4` from a stack of 4 is the whole stack, `12-20`;
/// - `L12-28:2` names the lunge's own length, `L12-28`;
/// - `L12-20-28`, the lunge's squares one by one, is `L12-28`;
/// - `L12-20`, a lunge of length 1, is the one-checker simple move
///   `12-20:1` (engine/src/games/mad/mad.md, "Lunges": "is written as
///   one"), when the stack on 12 has a checker to leave behind.
pub(super) fn normalize(pos: &Mad, n: Notation) -> Notation {
    let Notation::Path(mut p) = n else {
        return n;
    };
    if p.off || p.to.is_empty() {
        return Notation::Path(p);
    }
    let mine = match pos.stack(p.from) {
        Some((o, h)) if o == pos.turn => h,
        _ => 0,
    };
    if !p.lunge {
        if p.to.len() == 1 && mine > 0 && p.count == Some(mine) {
            p.count = None;
        }
        return Notation::Path(p);
    }
    if p.to.len() > 1 && successive(p.from, &p.to) {
        let last = p.to[p.to.len() - 1];
        p.to = vec![last];
    }
    if p.to.len() != 1 {
        return Notation::Path(p);
    }
    let Some((_, dist)) = G.line_between(p.from, p.to[0], &ALL) else {
        return Notation::Path(p);
    };
    if p.count == Some(dist) {
        p.count = None;
    }
    if dist == 1 && p.count.is_none() && mine >= 2 {
        p.lunge = false;
        p.count = Some(1);
    }
    Notation::Path(p)
}

/// Whether `to` are the squares one after another on a line out of
/// `from`, the first adjacent to it.
fn successive(from: Sq, to: &[Sq]) -> bool {
    let Some((d, 1)) = G.line_between(from, to[0], &ALL) else {
        return false;
    };
    to.windows(2).all(|w| G.step(w[0], d) == Some(w[1]))
}

fn checkers(n: u8) -> &'static str {
    if n == 1 { "checker" } else { "checkers" }
}

/// "9 (4), 10 (4), 17 (1)".
fn stack_list(pos: &Mad, side: Side) -> String {
    let stacks = pos.stacks_of(side);
    if stacks.is_empty() {
        return "none".into();
    }
    stacks
        .iter()
        .map(|(s, h)| format!("{s} ({h})"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn explain(pos: &Mad, n: &Notation) -> Explanation {
    let rules = Mad::INFO;
    let me = pos.turn;
    let mine = rules.side_name(me);
    // A chain is explained with the simple moves (a stack moves to one
    // neighbour).
    let lacking = |form| match form {
        Form::Off => Some(Winning.says(format!(
            "checkers never leave the board in M.A.D.; {mine} wins by reaching {}'s home row ({})",
            rules.side_name(me.other()),
            super::goal_name(me)
        ))),
        _ => None,
    };
    let p = match refuse_lacking(rules, n, lacking) {
        Ok(p) => p,
        Err(refusal) => return refusal,
    };
    let Some(&to) = p.to.first() else {
        return Written.says("a move needs a square to go to, like 12-20");
    };
    let own = || format!("{mine} stacks: {}", stack_list(pos, me));
    let h = match pos.stack(p.from) {
        None => return Setup.says(format!("{} is empty ({})", p.from, own())),
        Some((o, h)) if o != me => {
            return Setup.says(format!(
                "{} holds {h} {} {}, and it is {mine}'s turn ({})",
                p.from,
                rules.side_name(o),
                checkers(h),
                own()
            ));
        }
        Some((_, h)) => h,
    };
    if p.count == Some(0) {
        return SimpleMoves.says("at least one checker must move; leave out `:0`");
    }
    if p.lunge {
        match explain_lunge(pos, p, h) {
            (true, text) => Written.says(text),
            (false, text) => Lunges.says(text),
        }
    } else {
        match explain_simple(pos, p, h, to) {
            (true, text) => Written.says(text),
            (false, text) => SimpleMoves.says(text),
        }
    }
}

/// Why `to` is no square a simple move from `from` reaches, if it is
/// not: only the 8 neighbours are; a line of up to 3 squares is a lunge.
fn not_adjacent(pos: &Mad, from: Sq, to: Sq) -> Option<String> {
    match G.line_between(from, to, &ALL) {
        Some((_, 1)) => None,
        Some((_, dist)) if dist <= 3 => {
            let sep = if matches!(pos.stack(to), Some((o, _)) if o != pos.turn) {
                'x'
            } else {
                '-'
            };
            Some(format!(
                "{to} is not adjacent to {from}: a simple move goes to one of the 8 neighbouring squares; to put one checker on each square of the line up to {to}, lunge: L{from}{sep}{to}"
            ))
        }
        _ => Some(format!(
            "{to} is not adjacent to {from}: a simple move goes to one of the 8 neighbouring squares"
        )),
    }
}

/// Why a simple move is not legal; `true` with it when only its form was
/// wrong (the section of the rules is then Notation).
fn explain_simple(pos: &Mad, p: &Path, h: u8, to: Sq) -> (bool, String) {
    let me = pos.turn;
    let mine = Mad::INFO.side_name(me);
    let from = p.from;
    if p.to.len() > 1 {
        return (false, "a simple move goes to one adjacent square, like 12-20; to string checkers out along a line, lunge: L12-28".into());
    }
    if to == from {
        return (
            false,
            format!("the checkers must leave {from}: a move goes to an adjacent square"),
        );
    }
    if let Some(why) = not_adjacent(pos, from, to) {
        return (false, why);
    }
    let k = p.count.unwrap_or(h);
    if k > h {
        return (
            false,
            format!(
                "too many checkers: {from} holds {h} {mine} {}, and {k} were asked for",
                checkers(h)
            ),
        );
    }
    if let Some((o, t)) = pos.stack(to)
        && o == me
        && t + k > STACK_LIMIT
    {
        let room = STACK_LIMIT - t.min(STACK_LIMIT);
        let hint = match room {
            0 => format!("; {to} is full"),
            1 => format!("; only 1 more fits: {from}-{to}:1"),
            r => format!("; at most {r} more fit, like {from}-{to}:{r}"),
        };
        return (
            false,
            format!(
                "{to} holds {t} {mine} {}; {k} more would make {}, the limit is {STACK_LIMIT}{hint}",
                checkers(t),
                t + k
            ),
        );
    }
    // Everything checks out, so only the form was wrong.
    let capture = matches!(pos.stack(to), Some((o, _)) if o != me);
    let canonical = Notation::Path(Path {
        lunge: false,
        from,
        to: vec![to],
        off: false,
        capture,
        count: (k < h).then_some(k),
    });
    (
        true,
        format!(
            "this move is written {}",
            canonical.canonical(Mad::RULES.geometry())
        ),
    )
}

/// What blocks a lunge of `dist` squares from `from` along `dir`, if
/// anything: the mover's own checkers anywhere on its line, enemies
/// before its last square.
fn lunge_blocked(pos: &Mad, from: Sq, dir: Dir, dist: u8) -> Option<String> {
    let me = pos.turn;
    let mine = Mad::INFO.side_name(me);
    for (j, s) in G.ray(from, dir).take(dist as usize).enumerate() {
        match pos.stack(s) {
            Some((o, t)) if o == me => {
                return Some(format!(
                    "the lunge is blocked at {s}, which holds {t} {mine} {}: a lunge never enters or passes a square with your own checkers",
                    checkers(t)
                ));
            }
            Some((o, t)) if j + 1 < dist as usize => {
                return Some(format!(
                    "the lunge is blocked at {s} by {t} {} {}: only the last square of a lunge may hold enemy checkers",
                    Mad::INFO.side_name(o),
                    checkers(t)
                ));
            }
            _ => {}
        }
    }
    None
}

/// Why a lunge from `from` (holding `h` of the mover's checkers) to
/// `to`, `dist` squares along `dir`, is too long or too short, if it is.
fn lunge_length(pos: &Mad, from: Sq, to: Sq, h: u8) -> Option<(bool, String)> {
    let mine = Mad::INFO.side_name(pos.turn);
    let (dir, dist) = G.line_between(from, to, &ALL)?;
    if h < 2 {
        return Some((
            false,
            format!(
                "{from} holds a single {mine} checker, and a lunge leaves at least one checker behind; a simple move is written without L, like {from}-{}",
                G.step(from, dir).unwrap_or(to)
            ),
        ));
    }
    if dist == 1 {
        return Some((
            true,
            format!("a lunge of one square is the one-checker simple move: write {from}-{to}:1"),
        ));
    }
    if dist >= h {
        return Some((
            false,
            format!(
                "a lunge leaves at least one checker behind: {from} holds {h} {mine} checkers, and a lunge to {to} needs {dist} of them, leaving nothing{}",
                if h >= 3 {
                    format!("; it lunges at most {} squares", h - 1)
                } else {
                    format!(
                        "; a single checker moves with {from}-{}:1",
                        G.step(from, dir).unwrap_or(to)
                    )
                }
            ),
        ));
    }
    None
}

/// Why a lunge is not legal; `true` with it when only its form was wrong.
fn explain_lunge(pos: &Mad, p: &Path, h: u8) -> (bool, String) {
    let me = pos.turn;
    let from = p.from;
    let to = p.to[p.to.len() - 1];
    if p.to.len() > 1 {
        return (
            true,
            format!(
                "a lunge goes along one straight line and is written by its first and last squares, like L{from}-{to}"
            ),
        );
    }
    if to == from {
        return (
            false,
            format!(
                "the lunging checkers must leave {from}: write the last square of the lunge, like L12-28"
            ),
        );
    }
    let Some((dir, dist)) = G.line_between(from, to, &ALL) else {
        return (
            false,
            format!(
                "{from} and {to} are not in a straight line (row, column or diagonal): a lunge goes along one line"
            ),
        );
    };
    if let Some(k) = p.count
        && k != dist
    {
        return (
            false,
            format!(
                "a lunge puts one checker on each square of its line: L{from}-{to} moves {dist} {}, not {k}; leave out the `:` count",
                checkers(dist)
            ),
        );
    }
    if let Some(why) = lunge_length(pos, from, to, h) {
        return why;
    }
    // dist <= h - 1 <= 3 here; dist == 1 was normalized to a simple move.
    if let Some(blocked) = lunge_blocked(pos, from, dir, dist) {
        return (false, blocked);
    }
    let capture = matches!(pos.stack(to), Some((o, _)) if o != me);
    (
        true,
        format!(
            "this lunge is written L{from}{}{to}",
            if capture { 'x' } else { '-' }
        ),
    )
}
