//! Helpers the test groups share: moves listed, played and refused by
//! their text, squares by number, and the drivers every game's tests run
//! (the explanation of any move, perft of a naive move generator against
//! the game's own and its perft table, which [`perft_table`] reads).

use pbem_engine::game::{self, Game, Side};
use pbem_engine::geom::Sq;
use pbem_engine::notation::{Notation, Path};
use pbem_engine::play;
use std::collections::BTreeSet;
use std::ops::RangeInclusive;

/// The legal moves of `p`, canonical.
pub fn moves<T: Game>(p: &T) -> BTreeSet<String> {
    game::listed_moves(p)
        .into_iter()
        .map(|(m, _)| game::canonical(p, m))
        .collect()
}

/// The legal moves of `p` from the square numbered `from`, canonical.
pub fn moves_from<T: Game>(p: &T, from: u16) -> BTreeSet<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.split(['-', 'x']).next() == Some(&from.to_string()))
        .collect()
}

/// A set of moves written out, to compare with [`moves`].
pub fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Plays the move written `text`, which must be legal.
pub fn play<T: Game>(p: &mut T, text: &str) {
    let m = play::parse_move(p, text).unwrap_or_else(|e| panic!("{e}"));
    p.play_unchecked(m);
}

/// The refusal of the move written `text`, which must be refused.
pub fn refuse<T: Game>(p: &T, text: &str) -> String {
    play::parse_move(p, text)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

/// The square numbered `n` (from 1).
pub fn sq(n: u8) -> Sq {
    Sq::from_number(n)
}

/// Every (from, to) pair of an 8x8 board with either mark, moves off, and
/// forms no parser produces (no destination, off with a destination,
/// counts, chains), on the start and along a random game: the game's
/// explanation never panics and always says something.
pub fn explain_always_says_something<T: Game>() {
    let (_, played) = game::random_game::<T>(Side::A, 7, 60);
    let mut p = T::start(Side::A);
    for (ply, m) in played.into_iter().enumerate() {
        for a in (0..64u8).filter(|_| ply % 10 == 0) {
            let mut forms = vec![Notation::off(Sq(a))];
            for to in [vec![], vec![Sq(a)], vec![Sq(63 - a), Sq(a)]] {
                forms.push(Notation::Path(Path {
                    lunge: a % 7 == 0,
                    from: Sq(a),
                    to,
                    off: a % 2 == 0,
                    capture: a % 3 == 0,
                    count: (a % 5 == 0).then_some(2),
                }));
            }
            for b in 0..64u8 {
                forms.push(Notation::step(Sq(a), Sq(b), a % 2 == 1));
            }
            for n in forms {
                assert!(!p.explain(&n).text.trim().is_empty(), "{n:?}");
            }
        }
        p.play_unchecked(m);
    }
}

/// Perft of a naive move generator: the leaves `depth` moves below `n`,
/// where `children` lists the positions one move on.
pub fn naive_perft<N>(n: &N, depth: u32, children: &impl Fn(&N) -> Vec<N>) -> u64 {
    if depth == 0 {
        return 1;
    }
    children(n)
        .iter()
        .map(|c| naive_perft(c, depth - 1, children))
        .sum()
}

/// The positions one move on from `p`, by the moves written `texts`
/// (a naive move list), each of which must be legal.
pub fn after_each<T: Game>(p: &T, texts: &BTreeSet<String>) -> Vec<T> {
    texts
        .iter()
        .map(|text| {
            let mut q = p.clone();
            play(&mut q, text);
            q
        })
        .collect()
}

/// The perft of the naive model `naive` of `p` (by `children`) is the
/// game's own at every depth of `depths`; `ctx` names the position.
pub fn naive_perft_is_perft<T: Game, N>(
    p: &T,
    naive: &N,
    depths: RangeInclusive<u32>,
    children: &impl Fn(&N) -> Vec<N>,
    ctx: &str,
) {
    for depth in depths {
        assert_eq!(
            naive_perft(naive, depth, children),
            game::perft(p, depth),
            "{ctx}: depth {depth}"
        );
    }
}

/// Perft of a naive move generator (`children`) agrees with the game's
/// own: one ply from both starts (`start_moves` moves), two plies from
/// both starts and from every position of the game's perft table given
/// by its moves (`position first=black moves 22-18 ...` in
/// `tests/perft/<slug>.txt`).
pub fn naive_perft_agrees<T: Game>(start_moves: u64, children: &impl Fn(&T) -> Vec<T>) {
    for first in Side::BOTH {
        let p = T::start(first);
        assert_eq!(naive_perft(&p, 1, children), start_moves);
        naive_perft_is_perft(&p, &p, 2..=2, children, &format!("{first:?} first"));
    }
    let mut lines = 0;
    for t in perft_table::<T>().iter().filter(|t| t.by_moves) {
        naive_perft_is_perft(&t.pos, &t.pos, 2..=2, children, &t.at);
        lines += 1;
    }
    assert!(lines >= 2, "{}: no positions given by moves", T::RULES);
}

/// The perft of the naive model (`of` makes it, `children` moves in it)
/// of every position of the game's perft table is the table's count, at
/// every depth of `depths` the table gives.
pub fn naive_perft_matches_table<T: Game, N>(
    depths: RangeInclusive<u32>,
    of: impl Fn(&T) -> N,
    children: &impl Fn(&N) -> Vec<N>,
) {
    let mut checked = 0;
    for t in perft_table::<T>() {
        let naive = of(&t.pos);
        for c in t.counts.iter().filter(|c| depths.contains(&c.depth)) {
            assert_eq!(naive_perft(&naive, c.depth, children), c.nodes, "{}", c.at);
            checked += 1;
        }
    }
    assert!(checked > 0, "{}: no depths in {depths:?}", T::RULES);
}

/// One position of a game's perft table, as [`perft_table`] reads it: a
/// start, or a start and moves, with the leaf counts below it.
pub struct TablePosition<T> {
    /// `file:line` of its `position` line.
    pub at: String,
    /// Given by moves from a start (`position first=red moves 58-50 2-10`).
    pub by_moves: bool,
    pub pos: T,
    pub counts: Vec<Count>,
}

/// A line `DEPTH NODES [slow]` of a perft table.
pub struct Count {
    /// `file:line`.
    pub at: String,
    pub depth: u32,
    pub nodes: u64,
    /// Marked `slow`: for release builds and `PBEM_DEEP=1` only.
    pub slow: bool,
}

/// The perft table of `T`, `tests/perft/<slug>.txt` (its format: the
/// docs of `perft.rs`), each line read with its number; a line it cannot
/// read panics with `file:line`.
pub fn perft_table<T: Game>() -> Vec<TablePosition<T>> {
    let file = format!(
        "{}/tests/perft/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        T::RULES.slug()
    );
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("perft table {file}: {e}"));
    let mut table: Vec<TablePosition<T>> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{file}:{}", i + 1);
        let mut words = line.split_whitespace();
        let head = words.next().unwrap();
        if head == "position" {
            let first = words
                .next()
                .and_then(|w| w.strip_prefix("first="))
                .unwrap_or_else(|| panic!("{at}: position needs first=SIDE"));
            let side = T::RULES
                .side_named(first)
                .unwrap_or_else(|| panic!("{at}: unknown side {first}"));
            let mut pos = T::start(side);
            let by_moves = words.next() == Some("moves");
            if by_moves {
                for w in words {
                    let m = play::parse_move(&pos, w).unwrap_or_else(|e| panic!("{at}: {e}"));
                    pos.play_unchecked(m);
                }
            }
            table.push(TablePosition {
                at,
                by_moves,
                pos,
                counts: Vec::new(),
            });
            continue;
        }
        let depth: u32 = head
            .parse()
            .unwrap_or_else(|_| panic!("{at}: bad depth {head}"));
        let nodes: u64 = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{at}: bad node count"));
        let slow = words.next() == Some("slow");
        let position = table
            .last_mut()
            .unwrap_or_else(|| panic!("{at}: depth before position"));
        position.counts.push(Count {
            at,
            depth,
            nodes,
            slow,
        });
    }
    table
}
