//! The naive move list and end check of Embed, written straight from the
//! rule text, against the engine on random games and by perft.

use super::*;

/// +1 black drone, +2 black boss, -1 red drone, -2 red boss, 0 empty.
fn cell(p: &Embed, r: i32, c: i32) -> i32 {
    match p.piece(sq(((r - 1) * 8 + c) as u8)) {
        Some(Piece::Drone(Side::A)) => 1,
        Some(Piece::Boss(Side::A)) => 2,
        Some(Piece::Drone(Side::B)) => -1,
        Some(Piece::Boss(Side::B)) => -2,
        None => 0,
    }
}

fn naive_embedded(p: &Embed, owner: i32) -> bool {
    for r in 1..=8 {
        for c in 1..=8 {
            if cell(p, r, c) != 2 * owner {
                continue;
            }
            let mut all = true;
            for nr in r - 1..=r + 1 {
                for nc in c - 1..=c + 1 {
                    let inside = (1..=8).contains(&nr) && (1..=8).contains(&nc);
                    if inside && (nr, nc) != (r, c) && cell(p, nr, nc) * owner >= 0 {
                        all = false;
                    }
                }
            }
            return all;
        }
    }
    panic!("no boss");
}

/// The winner by the order ruling, the side not to move being the mover.
fn naive_decided(p: &Embed) -> Option<i32> {
    let mover = if p.turn() == Side::A { -1 } else { 1 };
    let entry_row = if mover == 1 { 8 } else { 1 };
    if (1..=8).any(|c| cell(p, entry_row, c) == 2 * mover) {
        return Some(mover);
    }
    if naive_embedded(p, -mover) {
        return Some(mover);
    }
    if naive_embedded(p, mover) {
        return Some(-mover);
    }
    None
}

fn naive_moves(p: &Embed) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if naive_decided(p).is_some() {
        return out;
    }
    let me = if p.turn() == Side::A { 1 } else { -1 };
    for r1 in 1..=8 {
        for c1 in 1..=8 {
            let piece = cell(p, r1, c1) * me;
            if piece <= 0 {
                continue;
            }
            for r2 in 1..=8 {
                for c2 in 1..=8 {
                    let (dr, dc) = (r2 - r1, c2 - c1);
                    if (dr, dc) == (0, 0) || !(dr == 0 || dc == 0 || dr.abs() == dc.abs()) {
                        continue;
                    }
                    let len = dr.abs().max(dc.abs());
                    let clear =
                        (1..len).all(|k| cell(p, r1 + dr.signum() * k, c1 + dc.signum() * k) == 0);
                    if !clear {
                        continue;
                    }
                    let target = cell(p, r2, c2) * me;
                    let (a, b) = ((r1 - 1) * 8 + c1, (r2 - 1) * 8 + c2);
                    if target == 0 {
                        out.insert(format!("{a}-{b}"));
                    } else if piece == 1 && target == -1 {
                        out.insert(format!("{a}x{b}"));
                    }
                }
            }
        }
    }
    out
}

fn check_game(first: Side, seed: u64) -> (usize, bool) {
    let (_, played) = game::random_game::<Embed>(first, seed, 1000);
    let mut p = Embed::start(first);
    let mut n = 0;
    for m in played {
        assert_eq!(moves(&p), naive_moves(&p), "seed {seed}");
        n += 1;
        p.play_unchecked(m);
    }
    assert_eq!(moves(&p), naive_moves(&p), "seed {seed}");
    let engine = winner(&p).map(|s| if s == Side::A { 1 } else { -1 });
    let naive = naive_decided(&p).or_else(|| {
        // No legal move loses (generic).
        naive_moves(&p)
            .is_empty()
            .then_some(if p.turn() == Side::A { -1 } else { 1 })
    });
    assert_eq!(engine, naive, "seed {seed}");
    let embedded = game::outcome(&p).is_some_and(|e| e.reason.contains("embedded"));
    (n, embedded)
}

#[test]
fn generator_agrees_with_the_naive_rules_on_random_games() {
    let mut positions = 0;
    let mut embeddings = 0;
    // Seeds 0..30, and seeds whose random game ends by embedding.
    let seeds = (0..30).chain([13, 74, 122, 362, 585, 620, 814, 930, 1218, 1522, 1540, 1970]);
    for seed in seeds {
        for first in Side::BOTH {
            let (n, embedded) = check_game(first, seed);
            positions += n;
            embeddings += embedded as usize;
        }
    }
    assert!(positions > 5000, "{positions}");
    assert!(embeddings >= 5, "{embeddings}");
}

#[test]
fn perft_table_numbers_agree_with_the_naive_rules() {
    crate::support::naive_perft_agrees::<Embed>(54, &|p| {
        crate::support::after_each(p, &naive_moves(p))
    });
}
