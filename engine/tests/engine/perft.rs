//! One driver for the perft tables of all eight games
//! (docs/src/contributing.md, "Rules tested from data"):
//! `tests/perft/<slug>.txt` lists positions and the number of leaf nodes at
//! each depth. A position is the start with a first side, optionally followed
//! by moves in any accepted notation:
//!
//! ```text
//! position first=black
//! position first=red moves 58-50 2-10
//! 1 40
//! 2 1600
//! ```
//!
//! Depths marked `slow` run only in release builds or with `PBEM_DEEP=1`
//! (scripts/test sets it).

use crate::support::perft_table;
use pbem_engine::game::{self, Game};

/// Whether the `slow` depths run.
fn deep() -> bool {
    !cfg!(debug_assertions) || std::env::var("PBEM_DEEP").as_deref() == Ok("1")
}

fn check<G: Game>() {
    let mut checked = 0;
    for position in perft_table::<G>() {
        for c in position.counts.iter().filter(|c| !c.slow || deep()) {
            assert_eq!(
                game::perft(&position.pos, c.depth),
                c.nodes,
                "{}: perft({})",
                c.at,
                c.depth
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "{}: at least three depths per game", G::RULES);
}

pbem_engine::game_tests!(_, G => check::<G>());
