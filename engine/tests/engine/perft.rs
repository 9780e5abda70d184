//! One driver for the perft tables of all eight games (STYLE.md habit 4):
//! `tests/perft/<slug>.txt` lists positions and the number of leaf nodes
//! at each depth. A position is the start with a first side, optionally
//! followed by moves in any accepted notation:
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

use pbem_engine::game::{self, Game};
use pbem_engine::play;
use pbem_engine::rules::Rules;
use std::path::Path;

/// Whether the `slow` depths run.
fn deep() -> bool {
    !cfg!(debug_assertions) || std::env::var("PBEM_DEEP").as_deref() == Ok("1")
}

fn check_game<G: Game>(text: &str, file: &str) -> usize {
    let mut pos: Option<G> = None;
    let mut checked = 0;
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
            let side = G::RULES
                .side_named(first)
                .unwrap_or_else(|| panic!("{at}: unknown side {first}"));
            let mut p = G::start(side);
            if words.next() == Some("moves") {
                for w in words {
                    let m = play::parse_move(&p, w).unwrap_or_else(|e| panic!("{at}: {e}"));
                    p.play_unchecked(m);
                }
            }
            pos = Some(p);
            continue;
        }
        let depth: u32 = head
            .parse()
            .unwrap_or_else(|_| panic!("{at}: bad depth {head}"));
        let nodes: u64 = words
            .next()
            .and_then(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{at}: bad node count"));
        if words.next() == Some("slow") && !deep() {
            continue;
        }
        let p = pos
            .as_ref()
            .unwrap_or_else(|| panic!("{at}: depth before position"));
        assert_eq!(game::perft(p, depth), nodes, "{at}: perft({depth})");
        checked += 1;
    }
    checked
}

fn check(rules: Rules) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/perft")
        .join(format!("{}.txt", rules.slug()));
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("perft table {}: {e}", file.display()));
    let name = file.display().to_string();
    let n = pbem_engine::with_game!(rules, G => check_game::<G>(&text, &name));
    assert!(n >= 3, "{name}: at least three depths per game");
}

pbem_engine::game_tests!(rules, _G => check(rules));
