//! The naive move list and end check of M.A.D., written straight from the
//! rule text, against the engine on random games and by perft.

use super::*;
use crate::support::{naive_perft_is_perft, naive_perft_matches_table};

// ------------------------------------------------ the naive implementation

/// A board as the naive rules see it: +n black checkers, -n red.
type Board = [i32; 64];

fn board_of(p: &Mad) -> Board {
    let mut b = [0; 64];
    for (i, v) in b.iter_mut().enumerate() {
        *v = match p.stack(Sq(i as u8)) {
            None => 0,
            Some((Side::A, h)) => h as i32,
            Some((Side::B, h)) => -(h as i32),
        };
    }
    b
}

fn rc(s: usize) -> (i32, i32) {
    ((s / 8) as i32, (s % 8) as i32)
}

/// Every legal move by brute force over every (from, to, k), straight from
/// engine/src/games/mad/mad.md, with its canonical text and the board after it.
fn naive_moves(b: &Board, black: bool) -> BTreeMap<String, Board> {
    let sgn = if black { 1 } else { -1 };
    let mut out = BTreeMap::new();
    for a in 0..64 {
        let h = b[a] * sgn;
        if h <= 0 {
            continue;
        }
        let (ra, ca) = rc(a);
        for t in 0..64 {
            let (rt, ct) = rc(t);
            let (dr, dc) = (rt - ra, ct - ca);
            let dist = dr.abs().max(dc.abs());
            let in_line = dr == 0 || dc == 0 || dr.abs() == dc.abs();
            let there = b[t] * sgn;
            // Simple moves: k of the stack to an adjacent square.
            if dist == 1 {
                for k in 1..=h {
                    if there > 0 && there + k > 4 {
                        continue;
                    }
                    let mut nb = *b;
                    nb[a] -= k * sgn;
                    if there >= 0 {
                        nb[t] += k * sgn;
                    } else {
                        let e = -there;
                        nb[t] = if k > e { (k - e) * sgn } else { -(e - k) * sgn };
                    }
                    let sep = if there < 0 { "x" } else { "-" };
                    let count = if k < h {
                        format!(":{k}")
                    } else {
                        String::new()
                    };
                    out.insert(format!("{}{sep}{}{count}", a + 1, t + 1), nb);
                }
            }
            // Lunges of k = dist squares, 2 <= k <= h - 1.
            if in_line && dist >= 2 && dist < h {
                let (sr, sc) = (dr.signum(), dc.signum());
                let path: Vec<usize> = (1..=dist)
                    .map(|j| ((ra + sr * j) * 8 + ca + sc * j) as usize)
                    .collect();
                let ok = path.iter().enumerate().all(|(j, &s)| {
                    let v = b[s] * sgn;
                    if j + 1 < path.len() { v == 0 } else { v <= 0 }
                });
                if !ok {
                    continue;
                }
                let mut nb = *b;
                nb[a] -= dist * sgn;
                for &s in &path {
                    if nb[s] == 0 {
                        nb[s] = sgn;
                    } else {
                        // One lunging checker against one defender.
                        nb[s] += sgn;
                    }
                }
                let sep = if there < 0 { "x" } else { "-" };
                out.insert(format!("L{}{sep}{}", a + 1, t + 1), nb);
            }
        }
    }
    out
}

/// The end after `mover` moved to `b` (engine/src/games/mad/mad.md, "Winning"
/// and its ruling).
fn naive_end(b: &Board, mover_black: bool) -> Option<Outcome> {
    let goal = if mover_black { 56..64 } else { 0..8 };
    let sgn = if mover_black { 1 } else { -1 };
    if b[goal].iter().any(|v| v * sgn > 0) {
        return Some(Outcome::Win(if mover_black { B } else { R }));
    }
    let black: i32 = b.iter().filter(|v| **v > 0).sum();
    let red: i32 = -b.iter().filter(|v| **v < 0).sum::<i32>();
    match (black, red) {
        (0, 0) => Some(Outcome::Draw),
        (0, _) => Some(Outcome::Win(R)),
        (_, 0) => Some(Outcome::Win(B)),
        _ => None,
    }
}

/// A position of the naive perft: the board, whether black moves, and
/// whether the move to it ended the game (the naive move list does not
/// look).
struct Node {
    board: Board,
    black: bool,
    over: bool,
}

fn node_of(p: &Mad) -> Node {
    Node {
        board: board_of(p),
        black: p.turn() == B,
        over: false,
    }
}

/// The positions one naive move on; none once the game is over.
fn naive_children(n: &Node) -> Vec<Node> {
    if n.over {
        return Vec::new();
    }
    naive_moves(&n.board, n.black)
        .into_values()
        .map(|board| Node {
            over: naive_end(&board, n.black).is_some(),
            board,
            black: !n.black,
        })
        .collect()
}

/// Checks the engine against the naive rules in `p`: the legal moves,
/// their count, and for every move the board, the checkers and the end.
fn agrees_with_naive(p: &Mad, ctx: &str) {
    let black = p.turn() == B;
    let naive = naive_moves(&board_of(p), black);
    let listed = game::listed_moves(p);
    let engine: BTreeSet<String> = listed.iter().map(|(_, n)| n.canonical(G)).collect();
    let expected: BTreeSet<String> = naive.keys().cloned().collect();
    assert_eq!(engine, expected, "{ctx}");
    assert_eq!(p.count_moves(), naive.len(), "{ctx}");
    for (mv, n) in &listed {
        let mut q = p.clone();
        q.play_unchecked(*mv);
        let text = n.canonical(G);
        let nb = &naive[&text];
        assert_eq!(&board_of(&q), nb, "{text}, {ctx}");
        assert_eq!(
            game::outcome(&q).map(|e| e.outcome),
            naive_end(nb, black),
            "{text}, {ctx}"
        );
        let (cb, cr) = (q.checkers(B) as i32, q.checkers(R) as i32);
        assert_eq!(
            cb,
            nb.iter().filter(|v| **v > 0).sum::<i32>(),
            "{text}, {ctx}"
        );
        assert_eq!(
            cr,
            -nb.iter().filter(|v| **v < 0).sum::<i32>(),
            "{text}, {ctx}"
        );
    }
}

#[test]
fn generator_agrees_with_the_naive_rules_on_random_games() {
    let mut positions = 0;
    for seed in 0..30 {
        for first in Side::BOTH {
            let (_, played) = game::random_game::<Mad>(first, seed, 300);
            let mut p = Mad::start(first);
            for m in played {
                agrees_with_naive(&p, &format!("seed {seed}, {first:?} first"));
                positions += 1;
                p.play_unchecked(m);
            }
            assert_eq!(moves(&p).is_empty(), game::outcome(&p).is_some());
        }
    }
    assert!(positions > 1000, "{positions}");
}

#[test]
fn endings_agree_with_the_naive_rules_on_random_games_from_sparse_positions() {
    // Random games from the start rarely end by elimination; from these
    // thin positions every ending of engine/src/games/mad/mad.md (Win and its
    // ruling) comes up, and each is checked against the naive rules.
    let starts = [
        ". . . . . . . .
         . . . . . . . .
         . . . B2 . . . .
         . . . B1 R2 . . .
         . . . . R1 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . B3 . . R3 . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B1 R1 . . .
         . . . R1 B1 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . B3 R1 . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
        ". . . . . . . .
         . . . . . . . .
         . . . . . . . .
         . . . R3 . . . .
         . . . B1 . . . .
         . . . . . . . .
         . . . . . . . .
         . . . . . . . .",
    ];
    let mut ends = BTreeMap::new();
    let mut rng = fastrand::Rng::with_seed(4);
    for (i, rows) in starts.iter().enumerate() {
        for first in Side::BOTH {
            for game_no in 0..60 {
                let mut p = pos(rows, first);
                let ctx = format!("start {i}, {first:?} first, game {game_no}");
                let mut v = Vec::new();
                for _ in 0..200 {
                    v.clear();
                    p.legal_moves(&mut v);
                    if game::outcome(&p).is_some() {
                        assert!(v.is_empty(), "{ctx}");
                        break;
                    }
                    agrees_with_naive(&p, &ctx);
                    p.play_unchecked(v[rng.usize(..v.len())]);
                }
                let end = match game::outcome(&p) {
                    None => "unfinished".to_string(),
                    Some(e) if e.reason.contains("home row") => format!("{:?} by entry", e.outcome),
                    Some(e) => format!("{:?} by elimination", e.outcome),
                };
                *ends.entry(end).or_insert(0) += 1;
            }
        }
    }
    println!("{ends:?}");
    for kind in [
        "Win(A) by entry",
        "Win(B) by entry",
        "Win(A) by elimination",
        "Win(B) by elimination",
        "Draw by elimination",
    ] {
        assert!(
            ends.get(kind).copied().unwrap_or(0) > 0,
            "{kind} never came up: {ends:?}"
        );
    }
}

#[test]
fn perft_agrees_with_the_naive_rules() {
    for first in Side::BOTH {
        let p = Mad::start(first);
        let ctx = format!("{first:?} first");
        naive_perft_is_perft(&p, &node_of(&p), 1..=2, &naive_children, &ctx);
    }
    for seed in [1, 2, 3, 4] {
        let (p, _) = game::random_game::<Mad>(R, seed, 12);
        if game::outcome(&p).is_some() {
            continue;
        }
        let ctx = format!("seed {seed}");
        naive_perft_is_perft(&p, &node_of(&p), 2..=2, &naive_children, &ctx);
    }
}

/// The naive perft of the table's positions to depth 3 (slow in a debug
/// build): `PBEM_DEEP=1 cargo test -p pbem-engine -- --include-ignored`.
#[test]
#[ignore = "slow: the naive cross-check, run by scripts/test"]
fn perft_table_agrees_with_the_naive_rules() {
    naive_perft_matches_table::<Mad, _>(1..=3, node_of, &naive_children);
}
