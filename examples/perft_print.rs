//! Prints perft counts for a game: `cargo run --release --example
//! perft_print -- boom-and-zoom black 4 [moves...]`. Used to extend the
//! tables in tests/perft/ (cross-check new numbers before adding them).
use pbem::game::{self, Game};
use pbem::rules::Rules;

fn run<G: Game>(first: &str, depth: u32, moves: &[String]) {
    let side = G::RULES.side_named(first).expect("side");
    let mut p = G::start(side);
    for m in moves {
        let mv = pbem::play::parse_move(&p, m).expect("move");
        p.play_unchecked(mv);
    }
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = game::perft(&p, d);
        eprintln!("{d} {n}   ({:.2?})", t.elapsed());
        println!("{d} {n}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules: Rules = args[0].parse().expect("game");
    let depth: u32 = args[2].parse().expect("depth");
    pbem::with_game!(rules, G => run::<G>(&args[1], depth, &args[3..]));
}
