//! Boom & Zoom rulings (engine/src/games/boom_and_zoom/boom-and-zoom.md), each
//! pinned by a position written as a diagram, and a naive legality check
//! written straight from the rule text, compared with the move generator on
//! random positions and by perft.

use crate::support::{after_each, moves, naive_perft_is_perft, perft_table, play, refuse};
use pbem_engine::game::{self, Game, Outcome, Side};
use pbem_engine::games::boom_and_zoom::BoomAndZoom;
use pbem_engine::geom::Sq;
use pbem_engine::play;
use std::collections::BTreeSet;

fn pos(rows: &str, turn: Side) -> BoomAndZoom {
    BoomAndZoom::from_diagram(rows, turn, [0, 0]).unwrap()
}

#[test]
fn boom_takes_the_top_checker_and_a_single_checker_is_removed() {
    // engine/src/games/boom_and_zoom/boom-and-zoom.md, "Ruling: a single
    // checker": a target of height 1 is removed.
    let mut p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . R1 . . . .
         . . . . . R2 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . B1",
        Side::A,
    );
    play(&mut p, "20x28");
    assert_eq!(p.tower(Sq::from_number(28)), None);
    assert_eq!(
        p.tower(Sq::from_number(20)),
        Some((Side::A, 3)),
        "booming does not move"
    );
    play(&mut p, "38-47");
    play(&mut p, "20x47");
    assert_eq!(
        p.tower(Sq::from_number(47)),
        Some((Side::B, 1)),
        "R2 loses its top checker"
    );
}

#[test]
fn boom_range_and_line_of_fire() {
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B2 . . . .
         . . . . . . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . B1 . . . .
         . . . . R1 . . .",
        Side::A,
    );
    let m = moves(&p);
    assert!(m.contains("20x36"), "a 2-high tower fires 2 squares: {m:?}");
    assert!(
        m.contains("52x61"),
        "a single checker fires at an adjacent tower"
    );
    let e = refuse(&p, "20x44");
    assert!(e.contains("at most 2"), "{e}");
    let e = refuse(&p, "20x52");
    assert!(e.contains("at most 2"), "{e}");
}

#[test]
fn nothing_zooms_or_fires_through_a_tower() {
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
    );
    let e = refuse(&p, "20-36");
    assert!(e.contains("blocked at 28"), "{e}");
    let e = refuse(&p, "20x44");
    assert!(e.contains("blocked at 28"), "{e}");
    assert!(e.contains("legal moves from 20"), "{e}");
}

#[test]
fn a_diagonal_may_leave_through_the_far_corner() {
    // engine/src/games/boom_and_zoom/boom-and-zoom.md, "Ruling: the far
    // corner": red 22 -> 15 -> 8 -> off is allowed.
    let p = pos(
        ". . . . . . . .
         . . . . . . . B1
         . . . . . R3 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::B,
    );
    assert!(moves(&p).contains("22-off"));
    // Only through the top edge: red has no way off elsewhere.
    let mut q = p.clone();
    play(&mut q, "22-off");
    assert_eq!(q.score(Side::B), 3);
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(Side::B));
}

#[test]
fn the_step_off_the_board_counts_as_a_square() {
    // engine/src/games/boom_and_zoom/boom-and-zoom.md, "Zooming off": reach the
    // last row in at most h-1 steps.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B2 . . . . . . B3
         . . . . . . . .
         . . . . R1 . . .",
        Side::A,
    );
    let m = moves(&p);
    assert!(!m.contains("41-off"), "2 high, 2 rows to go: {m:?}");
    assert!(m.contains("48-off"), "3 high, 2 rows to go: {m:?}");
    let e = refuse(&p, "41-off");
    assert!(e.contains("at most 2"), "{e}");
}

#[test]
fn no_leaving_through_a_side_edge_or_sideways_along_the_last_row() {
    // engine/src/games/boom_and_zoom/boom-and-zoom.md: a line that would leave
    // through a side edge, or a sideways move along the last row, is not a way
    // off.
    let p = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         R1 . . . . . . B2
         . . . . . . R1 R1",
        Side::A,
    );
    let m = moves(&p);
    assert!(!m.contains("56-off"), "{m:?}");
    let e = refuse(&p, "56-off");
    assert!(e.contains("blocked"), "{e}");
    // Red leaves only through the top edge, never the bottom.
    let q = pos(
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         B1 . . R3 . . . .",
        Side::B,
    );
    assert!(!moves(&q).contains("60-off"));
}

#[test]
fn play_stops_the_instant_a_side_has_no_tower_and_scores_decide() {
    // engine/src/games/boom_and_zoom/boom-and-zoom.md, "End of the game":
    // towers left on the board score nothing.
    let mut p = BoomAndZoom::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
        [2, 2],
    )
    .unwrap();
    play(&mut p, "20x28");
    let end = game::outcome(&p).unwrap();
    assert_eq!(
        end.outcome,
        Outcome::Draw,
        "2 all, black's tower scores nothing"
    );
    assert!(moves(&p).is_empty());
    let mut q = BoomAndZoom::from_diagram(
        ". . . . . . . .
         . . . . . . . .
         . . . B3 . . . .
         . . . R1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        Side::A,
        [0, 1],
    )
    .unwrap();
    play(&mut q, "20x28");
    assert_eq!(game::outcome(&q).unwrap().outcome, Outcome::Win(Side::B));
}

/// The legal moves by brute force over every (from, to) pair, straight
/// from the rule text, sharing no code with the generator.
fn naive_moves(p: &BoomAndZoom) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if game::outcome(p).is_some() {
        return out;
    }
    let me = p.turn();
    let rc = |s: u8| ((s / 8) as i32, (s % 8) as i32);
    for a in 0..64u8 {
        let Some((owner, h)) = p.tower(Sq(a)) else {
            continue;
        };
        if owner != me {
            continue;
        }
        let (ra, ca) = rc(a);
        for b in 0..64u8 {
            let (rb, cb) = rc(b);
            let (dr, dc) = (rb - ra, cb - ca);
            if a == b || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
                continue;
            }
            let dist = dr.abs().max(dc.abs());
            if dist > h as i32 {
                continue;
            }
            let clear = (1..dist).all(|k| {
                let s = ((ra + dr.signum() * k) * 8 + ca + dc.signum() * k) as u8;
                p.tower(Sq(s)).is_none()
            });
            if !clear {
                continue;
            }
            match p.tower(Sq(b)) {
                None => {
                    out.insert(format!("{}-{}", a + 1, b + 1));
                }
                Some((o, _)) if o != me => {
                    out.insert(format!("{}x{}", a + 1, b + 1));
                }
                _ => {}
            }
        }
        // Off: black beyond row 8, red beyond row 1.
        let (target, fwd) = if me == Side::A { (7, 1) } else { (0, -1) };
        let steps = (target - ra).abs();
        if steps < h as i32 {
            let ok = (-1..=1).any(|dc| {
                (1..=steps).all(|k| {
                    let (r, c) = (ra + fwd * k, ca + dc * k);
                    (0..8).contains(&c) && p.tower(Sq((r * 8 + c) as u8)).is_none()
                })
            });
            if ok {
                out.insert(format!("{}-off", a + 1));
            }
        }
    }
    out
}

#[test]
fn generator_agrees_with_the_naive_rules_on_random_games() {
    let mut positions = 0;
    for seed in 0..40 {
        for first in Side::BOTH {
            let (_, played) = game::random_game::<BoomAndZoom>(first, seed, 300);
            let mut p = BoomAndZoom::start(first);
            for m in played {
                assert_eq!(moves(&p), naive_moves(&p), "seed {seed}");
                positions += 1;
                p.play_unchecked(m);
            }
            assert_eq!(moves(&p), naive_moves(&p));
        }
    }
    assert!(positions > 1000);
}

#[test]
fn records_name_the_rule_and_the_facts() {
    let p = BoomAndZoom::start(Side::A);
    let e = refuse(&p, "22-13");
    assert_eq!(
        e,
        "22-13 is not a legal move for black: 22 holds no black tower (black towers: 1, 2, 3, 4, 5, 6, 7, 8) (see `pbem rules boom-and-zoom`, section Setup)"
    );
    let e = refuse(&p, "57-49");
    assert!(
        e.contains("holds a red tower, and it is black's turn"),
        "{e}"
    );
    let e = refuse(&p, "1-20");
    assert!(e.contains("not in a straight line"), "{e}");
    // A boom written at an empty square is the zoom when that is the only
    // match (docs/src/rules/common.md, "Canonical notation"); an unreachable
    // one explains.
    assert_eq!(
        game::canonical(&p, play::parse_move(&p, "1x9").unwrap()),
        "1-9"
    );
    let e = refuse(&p, "1x33");
    assert!(
        e.contains("a 3-high tower zooms and booms at most 3 squares; 1 to 33 is 4"),
        "{e}"
    );
}

#[test]
fn perft_table_numbers_agree_with_the_naive_rules() {
    // Both starts and the table's position given by moves, two plies.
    let children = |p: &BoomAndZoom| after_each(p, &naive_moves(p));
    for first in Side::BOTH {
        let p = BoomAndZoom::start(first);
        naive_perft_is_perft(&p, &p, 1..=2, &children, &format!("{first:?} first"));
    }
    let table = perft_table::<BoomAndZoom>();
    let mut by_moves = table.iter().filter(|t| t.by_moves).peekable();
    assert!(by_moves.peek().is_some());
    for t in by_moves {
        naive_perft_is_perft(&t.pos, &t.pos, 1..=2, &children, &t.at);
    }
}
