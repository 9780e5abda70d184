//! Helpers the test groups share: moves listed, played and refused by
//! their text, squares by number, and the drivers every game's tests run
//! (the explanation of any move, perft of a naive move generator).

use pbem_engine::game::{self, Game, Side};
use pbem_engine::geom::Sq;
use pbem_engine::notation::{Notation, Path};
use pbem_engine::play;
use std::collections::BTreeSet;

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

/// Perft of a naive move generator (`children`) agrees with the game's
/// own: one ply from both starts (`start_moves` moves), two plies from
/// both starts and from every position of the game's perft table given
/// by its moves (`position first=black moves 22-18 ...` in
/// `tests/perft/<slug>.txt`).
pub fn naive_perft_agrees<T: Game>(start_moves: u64, children: &impl Fn(&T) -> Vec<T>) {
    for first in Side::BOTH {
        let p = T::start(first);
        assert_eq!(naive_perft(&p, 1, children), start_moves);
        assert_eq!(naive_perft(&p, 2, children), game::perft(&p, 2));
    }
    let path = format!(
        "{}/tests/perft/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        T::RULES.slug()
    );
    let table = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = 0;
    for line in table
        .lines()
        .filter(|l| l.starts_with("position") && l.contains(" moves "))
    {
        let mut words = line.split_whitespace().skip(1);
        let first = match words.next() {
            Some("first=black") => Side::A,
            _ => Side::B,
        };
        let mut p = T::start(first);
        for m in words.skip(1) {
            play(&mut p, m);
        }
        assert_eq!(naive_perft(&p, 2, children), game::perft(&p, 2), "{line}");
        lines += 1;
    }
    assert!(lines >= 2, "{path}: no positions given by moves");
}
