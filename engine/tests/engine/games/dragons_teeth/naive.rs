//! The naive move list and end check of Dragons Teeth, written straight
//! from the rule text, against the engine on random games and by perft.

use super::*;

#[derive(Clone)]
struct Naive {
    /// strength > 0 black, < 0 red, by 1-based (row, column).
    cell: [[i32; 9]; 9],
    me: i32,
}

fn naive_of(p: &DragonsTeeth) -> Naive {
    let mut cell = [[0; 9]; 9];
    for (r, row) in cell.iter_mut().enumerate().skip(1) {
        for (c, v) in row.iter_mut().enumerate().skip(1) {
            let n = ((r - 1) * 8 + c) as u8;
            *v = match p.tooth(sq(n)) {
                Some((Side::A, s)) => s as i32,
                Some((Side::B, s)) => -(s as i32),
                None => 0,
            };
        }
    }
    Naive {
        cell,
        me: if p.turn() == Side::A { 1 } else { -1 },
    }
}

fn on_board(r: i32, c: i32) -> bool {
    (1..=8).contains(&r) && (1..=8).contains(&c)
}

fn name(r: i32, c: i32) -> i32 {
    (r - 1) * 8 + c
}

fn naive_moves(p: &DragonsTeeth) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if game::outcome(p).is_some() {
        return out;
    }
    let n = naive_of(p);
    let me = n.me;
    let at = |r: i32, c: i32| n.cell[r as usize][c as usize] * me;
    for r1 in 1..=8 {
        for c1 in 1..=8 {
            if at(r1, c1) <= 0 {
                continue;
            }
            for r2 in 1..=8 {
                for c2 in 1..=8 {
                    let (dr, dc) = (r2 - r1, c2 - c1);
                    if (dr, dc) == (0, 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
                        continue;
                    }
                    let len = dr.abs().max(dc.abs());
                    let between_empty =
                        (1..len).all(|k| at(r1 + dr.signum() * k, c1 + dc.signum() * k) == 0);
                    if !between_empty {
                        continue;
                    }
                    let target = at(r2, c2);
                    if target == 0 {
                        out.insert(format!("{}-{}", name(r1, c1), name(r2, c2)));
                    } else if target < 0 {
                        let mut attack = at(r1, c1);
                        for ar in r2 - 1..=r2 + 1 {
                            for ac in c2 - 1..=c2 + 1 {
                                let is_target = (ar, ac) == (r2, c2);
                                let is_mover = (ar, ac) == (r1, c1);
                                if on_board(ar, ac) && !is_target && !is_mover && at(ar, ac) > 0 {
                                    attack += at(ar, ac);
                                }
                            }
                        }
                        if attack >= -target {
                            out.insert(format!("{}x{}", name(r1, c1), name(r2, c2)));
                        }
                    }
                }
            }
            // Off: walk forward (black down, red up) in one of three
            // directions; every square to the last row inclusive on the
            // board and empty.
            let (fwd, last) = if me == 1 { (1, 8) } else { (-1, 1) };
            let leaves = r1 == last
                || [-1, 0, 1].iter().any(|&dc| {
                    (1..=(last - r1).abs()).all(|k| {
                        let (r, c) = (r1 + fwd * k, c1 + dc * k);
                        on_board(r, c) && at(r, c) == 0
                    })
                });
            if leaves {
                out.insert(format!("{}-off", name(r1, c1)));
            }
        }
    }
    out
}

#[test]
fn generator_agrees_with_the_naive_rules_on_random_games() {
    let mut positions = 0;
    let mut captures = 0;
    let mut offs = 0;
    for seed in 0..40 {
        for first in Side::BOTH {
            let (_, played) = game::random_game::<DragonsTeeth>(first, seed, 400);
            let mut p = DragonsTeeth::start(first);
            for m in played {
                let naive = naive_moves(&p);
                assert_eq!(
                    moves(&p),
                    naive,
                    "seed {seed}\n{}",
                    p.diagram(&View::default())
                );
                captures += naive.iter().filter(|m| m.contains('x')).count();
                offs += naive.iter().filter(|m| m.ends_with("off")).count();
                positions += 1;
                p.play_unchecked(m);
            }
            assert_eq!(moves(&p), naive_moves(&p));
        }
    }
    assert!(positions > 1000, "{positions}");
    assert!(captures > 1000 && offs > 100, "{captures} {offs}");
}

#[test]
fn perft_table_numbers_agree_with_the_naive_rules() {
    crate::support::naive_perft_agrees::<DragonsTeeth>(60, &|p| {
        crate::support::after_each(p, &naive_moves(p))
    });
}
