//! How the analysis's marks were chosen (docs/src/players/analysis.md):
//! games of each of the eight games played by the bot at its weakest
//! level (a ninth of the analysis's budget, another seed) against
//! itself, and by a player that picks a legal move at random, every move
//! of them analysed at the whole budget, and the losses of the two kinds
//! of moves printed as percentiles, with the share each threshold marks.
//! A threshold should mark few of the bot's moves and many of the random
//! ones.
//!
//! `cargo run --release --example analysis_marks [-- GAMES_PER_GAME PLIES NODES]`
//! (default 4 games of each game of at most 60 moves, the bot and the
//! analysis at 20,000 positions a move; the same figures every run).

use pbem::game;
use pbem::rules::Rules;
use pbem_engine::bot::analyse::{self, BLUNDER, INACCURACY, MISTAKE};
use pbem_engine::bot::{Budget, Evaluate, Level, Limits, choose};

/// A game from the start, each side playing the bot (`bot`) or at random;
/// its moves.
fn play<G: Evaluate>(bot: bool, plies: usize, limits: &Limits, seed: u64) -> (G, Vec<G::Move>) {
    let first = game::first_sides::<G>()[0];
    let start = G::start(first);
    let mut pos = start.clone();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while moves.len() < plies && game::outcome(&pos).is_none() {
        legal.clear();
        pos.legal_moves(&mut legal);
        let weakest = Limits {
            level: Level::MIN,
            ..*limits
        };
        let mv = if bot {
            choose(&pos, &weakest, seed + moves.len() as u64).map(|c| c.mv)
        } else {
            (!legal.is_empty()).then(|| legal[rng.usize(..legal.len())])
        };
        let Some(mv) = mv else { break };
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    (start, moves)
}

fn losses<G: Evaluate>(games: u64, plies: usize, limits: &Limits) -> [Vec<i32>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    for (k, bot) in [true, false].into_iter().enumerate() {
        for g in 0..games {
            let (start, moves) = play::<G>(bot, plies, limits, g + 1);
            let a = analyse::analyse_line(&start, &moves, limits, 0, &mut |_, _| {});
            out[k].extend(a.plies.iter().map(|p| p.drop));
        }
    }
    out
}

fn share(drops: &[i32], at: i32) -> f64 {
    drops.iter().filter(|&&d| d >= at).count() as f64 * 100.0 / drops.len().max(1) as f64
}

fn percentile(sorted: &[i32], p: usize) -> i32 {
    sorted
        .get((sorted.len().max(1) - 1) * p / 100)
        .copied()
        .unwrap_or(0)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(4);
    let plies = args.get(1).copied().unwrap_or(60) as usize;
    let nodes = args.get(2).copied().unwrap_or(20_000);
    let limits = Limits {
        think: Budget::Nodes(nodes),
        level: Level::MAX,
    };
    println!(
        "{games} games of each game, at most {plies} moves, {nodes} positions a move; \
         losses in hundredths of a piece"
    );
    println!(
        "{:<20} {:<7} {:>6} {:>5} {:>5} {:>5} {:>5}   {:>6} {:>6} {:>6}",
        "game", "player", "moves", "p50", "p75", "p90", "p95", "≥ino", "≥mis", "≥blu"
    );
    let mut all = [Vec::new(), Vec::new()];
    for rules in Rules::ALL {
        let found = pbem::with_game!(rules, G => losses::<G>(games, plies, &limits));
        for (k, drops) in found.into_iter().enumerate() {
            row(rules.slug(), k, &drops);
            all[k].extend(drops);
        }
    }
    for (k, drops) in all.into_iter().enumerate() {
        row("all eight", k, &drops);
    }
}

fn row(game: &str, k: usize, drops: &[i32]) {
    let mut sorted = drops.to_vec();
    sorted.sort_unstable();
    println!(
        "{:<20} {:<7} {:>6} {:>5} {:>5} {:>5} {:>5}   {:>5.1}% {:>5.1}% {:>5.1}%",
        game,
        ["bot", "random"][k],
        drops.len(),
        percentile(&sorted, 50),
        percentile(&sorted, 75),
        percentile(&sorted, 90),
        percentile(&sorted, 95),
        share(drops, INACCURACY),
        share(drops, MISTAKE),
        share(drops, BLUNDER),
    );
}
