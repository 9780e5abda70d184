//! Move notation (engine/src/notation.rs, play::parse_move): any text, read on
//! the board of any game and resolved in a position of that game.
//!
//! Input: byte 0 picks the game, byte 1 the number of random plies played
//! from the start, byte 2 the seed; the rest is the move text. Invariants:
//! nothing panics; a parsed move's canonical form parses back to the same
//! notation; a resolved move is legal, and its canonical form resolves to
//! the same move; every legal move's canonical form resolves to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pbem::game::{self, Game};
use pbem::notation;
use pbem::rules::Rules;

fuzz_target!(|data: &[u8]| {
    let [game, plies, seed, rest @ ..] = data else {
        return;
    };
    let rules = Rules::ALL[*game as usize % Rules::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    pbem::with_game!(rules, G => check::<G>(&text, *plies as usize, *seed as u64));
});

fn check<G: Game>(text: &str, plies: usize, seed: u64) {
    let geometry = G::RULES.geometry();
    if let Ok(n) = notation::parse(text, geometry) {
        let canon = n.canonical(geometry);
        let again = notation::parse(&canon, geometry)
            .unwrap_or_else(|e| panic!("canonical `{canon}` of `{text}` does not parse: {e}"));
        assert_eq!(again, n, "`{text}` -> `{canon}`");
    }
    let firsts = game::first_sides::<G>();
    let first = firsts[seed as usize % firsts.len()];
    let (pos, _) = game::random_game::<G>(first, seed, plies);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    match pbem::play::parse_move(&pos, text) {
        Ok(m) => {
            assert!(legal.contains(&m), "`{text}` resolved to an illegal move");
            let canon = game::canonical(&pos, m);
            assert_eq!(
                pbem::play::parse_move(&pos, &canon).ok(),
                Some(m),
                "`{text}` -> `{canon}`"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    if let Some(&m) = legal.get(text.len() % legal.len().max(1)) {
        let canon = game::canonical(&pos, m);
        assert_eq!(pbem::play::parse_move(&pos, &canon).ok(), Some(m), "`{canon}`");
    }
}
