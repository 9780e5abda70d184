//! M.A.D. rules (engine/src/games/mad/mad.md), each pinned by a position written as
//! a diagram or a move list, and a naive implementation written straight
//! from the rule text (moves, their effect and the end of the game),
//! compared with the engine on every position of many random games.

use crate::support::{moves, play, refuse, sq};
use pbem_engine::game::{self, Game, Outcome, Side, View};
use pbem_engine::games::mad::{Mad, Move};
use pbem_engine::geom::{Geometry, Sq};
use pbem_engine::notation;
use pbem_engine::play;
use std::collections::{BTreeMap, BTreeSet, HashSet};

mod naive;
mod written;

const G: Geometry = Geometry::EIGHT;

fn pos(rows: &str, turn: Side) -> Mad {
    Mad::from_diagram(rows, turn).unwrap()
}

fn stack(p: &Mad, n: u8) -> Option<(Side, u8)> {
    p.stack(sq(n))
}

/// The canonical text `text` resolves to.
fn resolved(p: &Mad, text: &str) -> String {
    let m = play::parse_move(p, text).unwrap_or_else(|e| panic!("{e}"));
    game::canonical(p, m)
}

const B: Side = Side::A;
const R: Side = Side::B;

// ---------------------------------------------------------------- setup

#[test]
fn setup_stacks_of_four_on_9_to_16_and_49_to_56_either_side_first() {
    // engine/src/games/mad/mad.md, "Setup": black on 9..16, red on 49..56;
    // first side named at game creation.
    for first in Side::BOTH {
        let p = Mad::start(first);
        assert_eq!(p.turn(), first);
        for n in 1..=64u8 {
            let expected = match n {
                9..=16 => Some((B, 4)),
                49..=56 => Some((R, 4)),
                _ => None,
            };
            assert_eq!(stack(&p, n), expected, "square {n}");
        }
        assert_eq!((p.checkers(B), p.checkers(R)), (32, 32));
        assert!(game::outcome(&p).is_none());
    }
    assert_eq!(game::first_sides::<Mad>(), vec![B, R]);
    // Red moving first moves red stacks.
    let p = Mad::start(R);
    assert!(moves(&p).iter().all(|m| {
        let from: u8 = m
            .trim_start_matches('L')
            .split(['-', 'x'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        (49..=56).contains(&from)
    }));
}

// ---------------------------------------------------------- simple moves

#[test]
fn a_simple_move_takes_any_number_of_a_stack_to_any_of_8_neighbours() {
    // engine/src/games/mad/mad.md, "Simple moves": k checkers, 1 <= k <= the
    // stack, to one adjacent square.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    for to in [19, 20, 21, 27, 29, 35, 36, 37] {
        assert!(
            m.contains(&format!("28-{to}")),
            "whole stack to {to}: {m:?}"
        );
        assert!(m.contains(&format!("28-{to}:1")), "{m:?}");
        assert!(m.contains(&format!("28-{to}:2")), "{m:?}");
        assert!(
            !m.contains(&format!("28-{to}:3")),
            ":3 is the whole stack: {m:?}"
        );
    }
    let simple = m.iter().filter(|s| !s.starts_with('L')).count();
    assert_eq!(simple, 8 * 3);
    let mut q = p.clone();
    play(&mut q, "28-20:2");
    assert_eq!(stack(&q, 28), Some((B, 1)));
    assert_eq!(stack(&q, 20), Some((B, 2)));
    assert_eq!(q.turn(), R);
    let mut q = p.clone();
    play(&mut q, "28-37");
    assert_eq!(stack(&q, 28), None);
    assert_eq!(stack(&q, 37), Some((B, 3)));
}

#[test]
fn a_corner_stack_has_three_neighbours() {
    let p = pos(
        "B2 . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1",
        B,
    );
    assert_eq!(
        moves(&p),
        ["1-2", "1-2:1", "1-9", "1-9:1", "1-10", "1-10:1"]
            .map(String::from)
            .into()
    );
}

#[test]
fn a_friendly_stack_may_grow_to_four_and_no_more() {
    // engine/src/games/mad/mad.md, "Simple moves": the resulting friendly stack may not
    // exceed 4.
    let p = pos(
        ". . . . . . . .
         . . . B4 B3 B1 . .
         . . . . . B2 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    assert!(m.contains("12-13:1"), "3 + 1 = 4 is allowed: {m:?}");
    assert!(!m.contains("12-13:2"), "3 + 2 = 5 is not: {m:?}");
    assert!(!m.contains("12-13"), "{m:?}");
    assert!(m.contains("14-13"), "the single checker on 14 joins: {m:?}");
    assert!(!m.contains("13-12:1"), "12 is full: {m:?}");
    assert!(m.contains("13-14"), "3 + 1: {m:?}");
    assert!(!m.contains("13-22"), "3 + 2: {m:?}");
    assert!(m.contains("13-22:2"), "{m:?}");
    let mut q = p.clone();
    play(&mut q, "12-13:1");
    assert_eq!(stack(&q, 13), Some((B, 4)));
    assert_eq!(stack(&q, 12), Some((B, 3)));
    // The refusal gives the facts.
    let e = refuse(&p, "12-13:2");
    assert!(
        e.contains("13 holds 3 black checkers; 2 more would make 5, the limit is 4"),
        "{e}"
    );
    assert!(e.contains("12-13:1"), "{e}");
    let e = refuse(&p, "13-12:1");
    assert!(
        e.contains("12 holds 4 black checkers; 1 more would make 5"),
        "{e}"
    );
    assert!(e.contains("12 is full"), "{e}");
    let e = refuse(&p, "13-22");
    assert!(
        e.contains("22 holds 2 black checkers; 3 more would make 5"),
        "{e}"
    );
    assert!(e.contains("at most 2 more fit, like 13-22:2"), "{e}");
}

#[test]
fn attacks_eliminate_equal_numbers_of_both_sides() {
    // engine/src/games/mad/mad.md, "Simple moves": min(k, e) of each side eliminated; k-e
    // survivors occupy the square, otherwise the defenders keep e-k.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B4 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1",
        B,
    );
    let m = moves(&p);
    for k in ["20x21", "20x21:1", "20x21:2", "20x21:3"] {
        assert!(m.contains(k), "{k}: {m:?}");
    }
    // k > e: 3 against 2, one black survivor occupies 21.
    let mut q = p.clone();
    play(&mut q, "20x21:3");
    assert_eq!(stack(&q, 21), Some((B, 1)));
    assert_eq!(stack(&q, 20), Some((B, 1)));
    assert_eq!((q.checkers(B), q.checkers(R)), (2, 1));
    // k < e: 1 against 2, the defenders keep one.
    let mut q = p.clone();
    play(&mut q, "20x21:1");
    assert_eq!(stack(&q, 21), Some((R, 1)));
    assert_eq!(stack(&q, 20), Some((B, 3)));
    assert_eq!((q.checkers(B), q.checkers(R)), (3, 2));
    // k == e: the square is left empty.
    let mut q = p.clone();
    play(&mut q, "20x21:2");
    assert_eq!(stack(&q, 21), None);
    assert_eq!(stack(&q, 20), Some((B, 2)));
    // The whole stack: 4 against 2, two survivors; the limit of 4 counts
    // friendly checkers only.
    let mut q = p.clone();
    play(&mut q, "20x21");
    assert_eq!(stack(&q, 21), Some((B, 2)));
    assert_eq!(stack(&q, 20), None);
}

#[test]
fn the_friendly_limit_ignores_the_enemy_checkers_on_a_square() {
    // rules text: "the stacking limit of the two sides' Checkers is
    // calculated without reference to the other side's Checkers".
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B4 R4 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1",
        B,
    );
    assert!(moves(&p).contains("20x21"));
    let mut q = p.clone();
    play(&mut q, "20x21");
    assert_eq!((stack(&q, 20), stack(&q, 21)), (None, None));
    assert_eq!((q.checkers(B), q.checkers(R)), (0, 1));
}

// ---------------------------------------------------------------- lunges

#[test]
fn a_lunge_strings_checkers_out_one_per_square_and_leaves_a_base() {
    // engine/src/games/mad/mad.md, "Lunges": from n >= 2, k with 2 <= k <= n-1
    // checkers, one onto each of the next k squares.
    let p = pos(
        ". . . . . . . .
         . . . B4 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1",
        B,
    );
    let m = moves(&p);
    let lunges: BTreeSet<&str> = m
        .iter()
        .filter(|s| s.starts_with('L'))
        .map(|s| s.as_str())
        .collect();
    // Up: only one square before the edge, so none. Down 2 and 3, both
    // down-diagonals 2 and 3, sideways: left 2 and 3 (11, 10, 9), right 2
    // and 3.
    assert_eq!(
        lunges,
        [
            "L12-10", "L12-9", "L12-14", "L12-15", "L12-28", "L12-36", "L12-26", "L12-33",
            "L12-30", "L12-39"
        ]
        .into()
    );
    let mut q = p.clone();
    play(&mut q, "L12-36");
    assert_eq!(stack(&q, 12), Some((B, 1)), "one checker stays behind");
    for n in [20, 28, 36] {
        assert_eq!(stack(&q, n), Some((B, 1)), "square {n}");
    }
    assert_eq!(q.checkers(B), 4);
    let mut q = p.clone();
    play(&mut q, "L12-26");
    assert_eq!(stack(&q, 12), Some((B, 2)));
    assert_eq!(stack(&q, 19), Some((B, 1)));
    assert_eq!(stack(&q, 26), Some((B, 1)));
}

#[test]
fn a_lunge_needs_a_checker_left_behind() {
    // engine/src/games/mad/mad.md, "Lunges": at least one checker stays behind;
    // a stack of 2 cannot lunge (its only lunge, of length 1, is a simple
    // move), a stack of 3 lunges 2 squares at most.
    let p = pos(
        ". . . . . . . .
         . B2 . . . . B3 .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1",
        B,
    );
    let m = moves(&p);
    assert!(!m.iter().any(|s| s.starts_with("L10")), "{m:?}");
    assert!(m.contains("L15-31"));
    assert!(!m.iter().any(|s| s.starts_with("L15-39")), "{m:?}");
    let e = refuse(&p, "L15-39");
    assert!(
        e.contains("a lunge leaves at least one checker behind"),
        "{e}"
    );
    assert!(
        e.contains("15 holds 3 black checkers, and a lunge to 39 needs 3 of them, leaving nothing"),
        "{e}"
    );
    assert!(e.contains("at most 2 squares"), "{e}");
    let e = refuse(&p, "L10-26");
    assert!(e.contains("leaving nothing"), "{e}");
    let e = refuse(&p, "L15-47");
    assert!(e.contains("leaving nothing"), "{e}");
}

#[test]
fn a_lunge_of_length_one_is_the_one_checker_simple_move() {
    // engine/src/games/mad/mad.md, "Lunges": "A lunge of length 1 is the same
    // as a one-checker simple move and is written as one."
    let p = pos(
        ". . . . . . . .
         . . . B4 . . . .
         . . . . R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B1
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    assert!(!m.contains("L12-20"), "{m:?}");
    assert!(m.contains("12-20:1"));
    assert_eq!(resolved(&p, "L12-20"), "12-20:1");
    assert_eq!(resolved(&p, "L12-20:1"), "12-20:1");
    assert_eq!(resolved(&p, "L12x21"), "12x21:1");
    // A single checker cannot lunge at all, but the simple move is named.
    let e = refuse(&p, "L56-48");
    assert!(
        e.contains(
            "56 holds a single black checker, and a lunge leaves at least one checker behind"
        ),
        "{e}"
    );
    assert!(e.contains("like 56-48"), "{e}");
}

#[test]
fn a_lunge_stays_on_the_board() {
    // engine/src/games/mad/mad.md, "Lunges": all k squares must be on the board.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B4 . . . . . . R1
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    // Down and down-right: one square (57, 58) before the edge, left: none,
    // so no lunge those ways.
    let lunges: BTreeSet<&str> = m
        .iter()
        .filter(|s| s.starts_with('L'))
        .map(|s| s.as_str())
        .collect();
    assert_eq!(
        lunges,
        ["L49-33", "L49-25", "L49-35", "L49-28", "L49-51", "L49-52"].into()
    );
}

#[test]
fn friendly_checkers_block_a_lunge_enemies_block_all_but_the_last_square() {
    // engine/src/games/mad/mad.md, "Lunges": the k squares hold no friendly
    // checker; all but the last are empty.
    let p = pos(
        ". . . . . . . .
         . B1 . B4 . . . .
         . . . B1 . R1 . .
         . . . . . . . .
         . . . . . R2 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    // Down the column: 20 is friendly, nothing lunges through or into it.
    assert!(
        !m.iter()
            .any(|s| s.starts_with("L12-28") || s.starts_with("L12-36")),
        "{m:?}"
    );
    let e = refuse(&p, "L12-28");
    assert!(
        e.contains("the lunge is blocked at 20, which holds 1 black checker"),
        "{e}"
    );
    assert!(
        e.contains("never enters or passes a square with your own checkers"),
        "{e}"
    );
    // Left: the last square 10 is friendly, nothing lunges into it.
    assert!(!m.contains("L12-10") && !m.contains("L12-9"), "{m:?}");
    let e = refuse(&p, "L12-10");
    assert!(
        e.contains("the lunge is blocked at 10, which holds 1 black checker"),
        "{e}"
    );
    // Down-right: 21 is empty, 30 empty, 39 empty: both lunges.
    assert!(m.contains("L12-30") && m.contains("L12-39"), "{m:?}");
    // Right: open (the red checker on 22 is on no line from 12).
    assert!(m.contains("L12-14") && m.contains("L12-15"), "{m:?}");
    // Enemy on the last square: an attack, L12x..; enemy before the last
    // square blocks.
    let q = pos(
        ". . . . . . . .
         . . . B4 . . . .
         . . . . R3 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    let m = moves(&q);
    assert!(
        !m.iter()
            .any(|s| s.starts_with("L12-30") || s.starts_with("L12x30")),
        "{m:?}"
    );
    let e = refuse(&q, "L12-30");
    assert!(
        e.contains("the lunge is blocked at 21 by 3 red checkers"),
        "{e}"
    );
    assert!(
        e.contains("only the last square of a lunge may hold enemy checkers"),
        "{e}"
    );
    assert!(
        m.contains("12x21:1"),
        "the single-checker attack is a simple move"
    );
}

#[test]
fn a_lunge_into_enemies_eliminates_the_lunging_checker_and_one_defender() {
    // engine/src/games/mad/mad.md, "Lunges": if the last square holds enemy checkers, the
    // lunging checker and one defender are eliminated.
    let p = pos(
        ". . . . . . . .
         . . . B4 . . . .
         . . . . . . . .
         . . . R3 . . . .
         . . . . . . R1 .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    let m = moves(&p);
    assert!(m.contains("L12x28"), "{m:?}");
    assert!(
        !m.contains("L12-28")
            && !m
                .iter()
                .any(|s| s.starts_with("L12-36") || s.starts_with("L12x36")),
        "{m:?}"
    );
    assert!(m.contains("L12x39"), "{m:?}");
    let mut q = p.clone();
    play(&mut q, "L12x28");
    assert_eq!(stack(&q, 12), Some((B, 2)));
    assert_eq!(stack(&q, 20), Some((B, 1)));
    assert_eq!(
        stack(&q, 28),
        Some((R, 2)),
        "the defender stack shrinks by one"
    );
    assert_eq!((q.checkers(B), q.checkers(R)), (3, 3));
    // Down to nothing: the single defender on 39 goes, the square is empty.
    let mut q = p.clone();
    play(&mut q, "L12x39");
    assert_eq!(stack(&q, 12), Some((B, 1)));
    assert_eq!(stack(&q, 21), Some((B, 1)));
    assert_eq!(stack(&q, 30), Some((B, 1)));
    assert_eq!(stack(&q, 39), None);
    assert_eq!((q.checkers(B), q.checkers(R)), (3, 3));
    // Written with `-` it is accepted as the only match.
    assert_eq!(resolved(&p, "L12-39"), "L12x39");
}

// ------------------------------------------------------------- the end

#[test]
fn the_mover_wins_with_a_checker_on_the_enemy_home_row() {
    // engine/src/games/mad/mad.md, "Winning": after a move, the mover wins when
    // any of its checkers stands on the opponent's home row.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . R1 . . . . .
         . . . B3 . . . .
         . . . . . . . .",
        B,
    );
    let mut q = p.clone();
    play(&mut q, "52-60:1");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(B));
    assert!(
        end.reason
            .contains("black reached red's home row 57-64 on 60"),
        "{}",
        end.reason
    );
    assert!(moves(&q).is_empty());
    assert_eq!(q.count_moves(), 0);
    // Red, aiming at 1..8, wins the same way.
    let r = pos(
        ". . . . . . . .
         . R2 . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . B1 .
         . . . . . . . .",
        R,
    );
    let mut q = r.clone();
    play(&mut q, "10-1");
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(R));
    // Moving onto one's own home row wins nothing.
    let mut q = p.clone();
    play(&mut q, "52-51:1");
    play(&mut q, "43-44");
    assert!(game::outcome(&q).is_none());
    let s = pos(
        ". . . . . . . .
         . B2 . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . R1 .
         . . . . . . . .",
        B,
    );
    let mut q = s.clone();
    play(&mut q, "10-1");
    assert!(game::outcome(&q).is_none(), "1..8 is black's own home row");
}

#[test]
fn a_lunge_or_surviving_attackers_on_the_home_row_win_defenders_do_not() {
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R1 . .
         . . . . . B4 . .
         . . . . . . . .
         . . . . . . . .
         . . . R2 . . . .",
        B,
    );
    // A lunge's last checker lands on 62.
    let mut q = p.clone();
    play(&mut q, "L38-62");
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(B));
    // A lunge into 62 held by one red checker: both go, nothing of black
    // stands on the home row, no win.
    let p2 = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R1 . .
         . . . . . B4 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R1 . .",
        B,
    );
    let mut q = p2.clone();
    play(&mut q, "L38x62");
    assert!(game::outcome(&q).is_none(), "{:?}", game::outcome(&q));
    assert_eq!(stack(&q, 62), None);
    // An attack on the home row whose attackers all die: no win.
    let p3 = pos(
        "B1 . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R1 . .
         . . . . . . . .
         . . . . . . . .
         . . . B2 . . . .
         . . . R2 R3 . . .",
        B,
    );
    let mut q = p3.clone();
    play(&mut q, "52x60");
    assert!(game::outcome(&q).is_none(), "2 against 2 leaves 60 empty");
    let mut q = p3.clone();
    play(&mut q, "52x61");
    assert!(game::outcome(&q).is_none(), "2 against 3: red keeps 61");
    assert_eq!(stack(&q, 61), Some((R, 1)));
    // Survivors that occupy the square win.
    let p4 = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . R1 . .
         . . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . R2 . . . .",
        B,
    );
    let mut q = p4.clone();
    play(&mut q, "52x60");
    assert_eq!(stack(&q, 60), Some((B, 1)));
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(B));
}

#[test]
fn both_sides_without_checkers_is_a_draw() {
    // engine/src/games/mad/mad.md, "Ruling: no checkers left": if both sides
    // then have no checkers, draw.
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B2 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        R,
    );
    play(&mut p, "29x28");
    let end = game::outcome(&p).unwrap();
    assert_eq!(end.outcome, Outcome::Draw);
    assert!(
        end.reason
            .contains("both sides have lost all their checkers"),
        "{}",
        end.reason
    );
    assert!(moves(&p).is_empty());
}

#[test]
fn a_side_without_checkers_loses_whoever_moved() {
    // engine/src/games/mad/mad.md, "Ruling: no checkers left": if exactly one
    // side has none, the other side wins. The mover wins by destroying the last
    // enemy checkers...
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B3 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    let mut q = p.clone();
    play(&mut q, "28x29");
    let end = game::outcome(&q).unwrap();
    assert_eq!(end.outcome, Outcome::Win(B));
    assert!(
        end.reason.contains("red has no checkers left"),
        "{}",
        end.reason
    );
    // ...even when a checker of its own is left behind and none survives.
    let mut q = p.clone();
    play(&mut q, "28x29:2");
    assert_eq!(stack(&q, 28), Some((B, 1)));
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(B));
    // ...and loses by throwing its last checkers away.
    let mut r = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B1 R2 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        B,
    );
    play(&mut r, "28x29");
    let end = game::outcome(&r).unwrap();
    assert_eq!(end.outcome, Outcome::Win(R), "the mover has nothing left");
    assert!(
        end.reason.contains("black has no checkers left"),
        "{}",
        end.reason
    );
    assert!(moves(&r).is_empty());
    // A finished game refuses moves.
    assert!(refuse(&r, "29-30").contains("the game is over"));
}

#[test]
fn from_diagram_refuses_a_position_after_the_end() {
    let e = Mad::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . R1
         . . B1 . . . . .",
        B,
    )
    .unwrap_err();
    assert!(
        matches!(e, pbem_engine::diagram::DiagramError::Over { .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("would be over"), "{e}");
}

// ------------------------------------------------------------- notation
