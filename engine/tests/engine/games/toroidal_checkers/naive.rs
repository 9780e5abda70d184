//! The naive move list and end check of Toroidal Checkers, written straight
//! from the rule text, against the engine on random games and by perft.

use super::*;
use crate::support::{naive_perft_is_perft, perft_table};
use std::collections::BTreeMap;

#[derive(Clone, PartialEq, Eq, Debug)]
struct Naive {
    cells: Cells,
    turn: Side,
    quiet: u32,
}

#[derive(Default, Debug)]
struct Stats {
    guard_hits: usize,
    longest_chain: usize,
}

fn naive_of(p: &Toroidal) -> Naive {
    Naive {
        cells: (0..64)
            .map(|i| p.piece(Sq(i)).map(|q| (q.side, q.king)))
            .collect(),
        turn: p.turn(),
        quiet: p.quiet_moves() as u32,
    }
}

/// The square at (row, column), 0-based, on the torus.
fn at(r: i32, c: i32) -> usize {
    (r.rem_euclid(8) * 8 + c.rem_euclid(8)) as usize
}

/// Heaven: the dark squares, row + column odd with 1-based numbers.
fn heaven(i: usize) -> bool {
    (i / 8 + 1 + i % 8 + 1) % 2 == 1
}

fn has_heaven(cells: &Cells, side: Side) -> bool {
    (0..64).any(|i| heaven(i) && matches!(cells[i], Some((s, _)) if s == side))
}

/// The end after the last move: heaven loss (side to move first), then
/// the draw at 40 quiet moves; `None` if play goes on (stuck or not).
fn naive_end(n: &Naive) -> Option<Outcome> {
    for loser in [n.turn, n.turn.other()] {
        if !has_heaven(&n.cells, loser) {
            return Some(Outcome::Win(loser.other()));
        }
    }
    (n.quiet >= 40).then_some(Outcome::Draw)
}

/// Every legal move as (canonical text, resulting position).
fn naive_moves(n: &Naive, stats: &mut Stats) -> Vec<(String, Naive)> {
    if naive_end(n).is_some() {
        return Vec::new();
    }
    let me = n.turn;
    let forward = if me == Side::A { 1 } else { -1 };
    let mut jumps: Vec<(String, Cells)> = Vec::new();
    for i in 0..64 {
        let Some((s, king)) = n.cells[i] else {
            continue;
        };
        if s != me {
            continue;
        }
        let mut seen = vec![(i, n.cells.clone())];
        naive_chains(
            &n.cells,
            i,
            Jumper { king, forward, me },
            &mut seen,
            &(i + 1).to_string(),
            &mut jumps,
            stats,
        );
    }
    if !jumps.is_empty() {
        return jumps
            .into_iter()
            .map(|(t, cells)| {
                (
                    t,
                    Naive {
                        cells,
                        turn: me.other(),
                        quiet: 0,
                    },
                )
            })
            .collect();
    }
    let mut out = Vec::new();
    for i in 0..64 {
        let Some((s, king)) = n.cells[i] else {
            continue;
        };
        if s != me {
            continue;
        }
        let (r, c) = ((i / 8) as i32, (i % 8) as i32);
        for dr in [-1, 1] {
            if !king && dr != forward {
                continue;
            }
            for dc in [-1, 1] {
                let t = at(r + dr, c + dc);
                if n.cells[t].is_none() {
                    let mut cells = n.cells.clone();
                    cells[t] = cells[i].take();
                    out.push((
                        format!("{}-{}", i + 1, t + 1),
                        Naive {
                            cells,
                            turn: me.other(),
                            quiet: n.quiet + 1,
                        },
                    ));
                }
            }
        }
    }
    out
}

/// The piece that jumps: a king or not, which way is forward, whose.
#[derive(Clone, Copy)]
struct Jumper {
    king: bool,
    forward: i32,
    me: Side,
}

fn naive_chains(
    cells: &Cells,
    from: usize,
    jumper: Jumper,
    seen: &mut Vec<(usize, Cells)>,
    text: &str,
    out: &mut Vec<(String, Cells)>,
    stats: &mut Stats,
) {
    let Jumper { king, forward, me } = jumper;
    let (r, c) = ((from / 8) as i32, (from % 8) as i32);
    for dr in [-1, 1] {
        if !king && dr != forward {
            continue;
        }
        for dc in [-1, 1] {
            let over = at(r + dr, c + dc);
            let land = at(r + 2 * dr, c + 2 * dc);
            let Some((victim, victim_king)) = cells[over] else {
                continue;
            };
            if victim == me || cells[land].is_some() {
                continue;
            }
            let mut next = cells.clone();
            next[land] = next[from].take();
            next[over] = None;
            // To the jumper's left along the jumped piece's row: black
            // faces down, so its left is +column; white's is -column.
            let left = if me == Side::A { 1 } else { -1 };
            let (orow, ocol) = ((over / 8) as i32, (over % 8) as i32);
            for k in [1, 3, 5, 7] {
                let t = at(orow, ocol + left * k);
                match next[t] {
                    None => {
                        next[t] = Some((victim, victim_king));
                        break;
                    }
                    Some((s, false)) if s == victim && !victim_king => {
                        next[t] = Some((victim, true));
                        break;
                    }
                    _ => {}
                }
            }
            if seen.iter().any(|(j, b)| *j == land && *b == next) {
                stats.guard_hits += 1;
                continue;
            }
            let jumps = seen.len();
            stats.longest_chain = stats.longest_chain.max(jumps);
            let text = format!("{text}x{}", land + 1);
            out.push((text.clone(), next.clone()));
            if jumps < pbem_engine::games::toroidal::MAX_CHAIN {
                seen.push((land, next.clone()));
                naive_chains(&next, land, jumper, seen, &text, out, stats);
                seen.pop();
            }
        }
    }
}

/// The positions one naive move on.
fn naive_children(n: &Naive) -> Vec<Naive> {
    naive_moves(n, &mut Stats::default())
        .into_iter()
        .map(|(_, m)| m)
        .collect()
}

/// Compares the generator with the naive rules in `p`: the same move
/// list, the same position after each move, the same end.
fn compare(p: &Toroidal, stats: &mut Stats, ctx: &str) {
    let n = naive_of(p);
    let expected: BTreeMap<String, Naive> = naive_moves(&n, stats).into_iter().collect();
    let listed = game::listed_moves(p);
    let got: BTreeSet<String> = listed.iter().map(|(_, m)| m.canonical(G)).collect();
    let want: BTreeSet<String> = expected.keys().cloned().collect();
    assert_eq!(got, want, "{ctx}");
    assert_eq!(p.count_moves(), want.len(), "{ctx}");
    for (m, text) in &listed {
        let mut q = p.clone();
        q.play_unchecked(*m);
        let text = text.canonical(G);
        assert_eq!(&naive_of(&q), &expected[&text], "{ctx} then {text}");
        for side in Side::BOTH {
            let count = (0..64usize)
                .filter(|&i| heaven(i) && matches!(q.piece(Sq(i as u8)), Some(x) if x.side == side))
                .count();
            assert_eq!(q.in_heaven(side) as usize, count, "{ctx} then {text}");
        }
    }
    let end = game::outcome(p).map(|e| e.outcome);
    let naive = naive_end(&n).or_else(|| want.is_empty().then_some(Outcome::Win(n.turn.other())));
    assert_eq!(end, naive, "{ctx}");
}

#[test]
fn generator_agrees_with_the_naive_rules_on_random_games() {
    let mut positions = 0;
    let mut stats = Stats::default();
    for seed in 0..150 {
        let (_, played) = game::random_game::<Toroidal>(Side::A, seed, 400);
        let mut p = Toroidal::start(Side::A);
        let mut history = Vec::new();
        for m in played {
            compare(
                &p,
                &mut stats,
                &format!("seed {seed} after {}", history.join(" ")),
            );
            history.push(game::canonical(&p, m));
            positions += 1;
            p.play_unchecked(m);
        }
        compare(&p, &mut stats, &format!("seed {seed} at the end"));
    }
    assert!(positions > 5000, "{positions}");
    // The termination guards never act (module docs of the game: a chain
    // can only empty the jumper's realm of enemy pieces).
    assert_eq!(stats.guard_hits, 0);
}

#[test]
fn chains_are_short_and_never_repeat() {
    // Many random games: the repetition guard and the chain cap never act
    // (a chain has at most as many jumps as the enemy has pieces in the
    // jumper's realm, 12 at most in a game).
    let mut stats = Stats::default();
    let mut chains = 0;
    for seed in 1000..1400 {
        let (_, played) = game::random_game::<Toroidal>(Side::A, seed, 600);
        let mut p = Toroidal::start(Side::A);
        for m in played {
            naive_moves(&naive_of(&p), &mut stats);
            if game::canonical(&p, m).contains('x') {
                chains += 1;
            }
            p.play_unchecked(m);
        }
    }
    println!("{chains} jump moves played; {stats:?}");
    assert_eq!(stats.guard_hits, 0);
    assert!(stats.longest_chain <= 12, "{stats:?}");
    assert!(chains > 1000);
}

#[test]
fn perft_agrees_with_the_naive_rules() {
    let start = Toroidal::start(Side::A);
    naive_perft_is_perft(&start, &naive_of(&start), 1..=4, &naive_children, "start");
    // The two mid-game positions of tests/perft/toroidal-checkers.txt.
    let table = perft_table::<Toroidal>();
    let mid: Vec<_> = table.iter().filter(|t| t.by_moves).collect();
    assert_eq!(mid.len(), 2);
    for t in mid {
        naive_perft_is_perft(&t.pos, &naive_of(&t.pos), 1..=3, &naive_children, &t.at);
    }
}
