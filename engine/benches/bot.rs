//! The bot's strength and speed, printed as a table: for each
//! game, the bot (level 3) against a uniformly random player and against
//! plain UCT with random playouts on the same engine at the same think
//! time, sides alternating game by game; the bot's positions searched per
//! second and its mean think time per move. Games stop at
//! [`arena::MAX_PLIES`] moves and count as draws.
//!
//! Targets: at least 99% wins against random, at least 75% score against
//! UCT.
//!
//! ```text
//! cargo bench -p pbem-engine --bench bot                 100 games a pairing, 20 ms
//! cargo bench -p pbem-engine --bench bot -- --quick      10 games, 10 ms
//! cargo bench -p pbem-engine --bench bot -- --games 200 --think-ms 50 mad embed
//! ```
//!
//! Games are played on `--threads` threads (default 2: each game on one
//! core).

use pbem_engine::bot::arena::{self, MatchSpec, Player, Score};
use pbem_engine::bot::{Budget, Evaluate, Level};
use pbem_engine::rules::Rules;
use std::time::{Duration, Instant};

struct Options {
    games: u32,
    think: Duration,
    threads: usize,
    only: Vec<String>,
}

fn options() -> Options {
    let mut o = Options {
        games: 100,
        think: Duration::from_millis(20),
        threads: 2,
        only: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> u64 {
            let v = args.next().unwrap_or_default();
            v.parse()
                .unwrap_or_else(|_| panic!("{name} wants a number, not {v:?}"))
        };
        match a.as_str() {
            "--games" => o.games = number("--games") as u32,
            "--think-ms" => o.think = Duration::from_millis(number("--think-ms")),
            "--threads" => o.threads = number("--threads") as usize,
            "--quick" => {
                o.games = 10;
                o.think = Duration::from_millis(10);
            }
            // cargo bench passes --bench to every harness=false target.
            "--bench" => {}
            slug => o.only.push(slug.to_string()),
        }
    }
    o
}

struct Row {
    game: &'static str,
    random: Score,
    uct: Score,
    secs: f64,
}

fn pairing<G: Evaluate>(o: &Options, against: Player, seed: u64) -> Score {
    let spec = MatchSpec {
        players: [Player::Bot(Level::MAX), against],
        games: o.games,
        think: Budget::Time(o.think),
        seed,
        max_plies: arena::MAX_PLIES,
        threads: o.threads,
    };
    arena::play_match::<G>(&spec, &|_, _| {})
}

fn row<G: Evaluate>(o: &Options) -> Row {
    let t = Instant::now();
    let random = pairing::<G>(o, Player::Random, 1);
    let uct = pairing::<G>(o, Player::Uct, 2);
    Row {
        game: G::RULES.slug(),
        random,
        uct,
        secs: t.elapsed().as_secs_f64(),
    }
}

fn wdl(s: &Score) -> String {
    format!(
        "{:>3}/{:>3}/{:>3} {:>5.1}%",
        s.wins,
        s.draws,
        s.losses,
        100.0 * s.rate()
    )
}

fn main() {
    let o = options();
    println!(
        "bot (level 3) vs random and vs plain UCT: {} games a pairing, {} ms a move, {} threads; \
         games capped at {} moves count as draws",
        o.games,
        o.think.as_millis(),
        o.threads,
        arena::MAX_PLIES
    );
    println!(
        "{:<19} {:>20} {:>20} {:>7} {:>10} {:>9} {:>7}",
        "game", "vs random W/D/L", "vs UCT W/D/L", "capped", "nodes/s", "ms/move", "time s"
    );
    let mut missed = Vec::new();
    for rules in Rules::ALL {
        if !o.only.is_empty() && !o.only.iter().any(|s| s == rules.slug()) {
            continue;
        }
        let r = pbem_engine::with_game!(rules, G => row::<G>(&o));
        let bot = [r.random.spent[0], r.uct.spent[0]];
        let nodes: u64 = bot.iter().map(|s| s.nodes).sum();
        let moves: u64 = bot.iter().map(|s| s.moves).sum();
        let think: f64 = bot.iter().map(|s| s.think.as_secs_f64()).sum();
        println!(
            "{:<19} {:>20} {:>20} {:>7} {:>10.0} {:>9.1} {:>7.0}",
            r.game,
            wdl(&r.random),
            wdl(&r.uct),
            r.random.capped + r.uct.capped,
            nodes as f64 / think.max(1e-9),
            1000.0 * think / (moves.max(1) as f64),
            r.secs
        );
        if f64::from(r.random.wins) < 0.99 * f64::from(r.random.games()) || r.uct.rate() < 0.75 {
            missed.push(r.game);
        }
    }
    if missed.is_empty() {
        println!("every game meets both targets (99% against random, 75% against UCT)");
    } else {
        println!(
            "below target (99% against random, 75% against UCT): {}",
            missed.join(", ")
        );
    }
}
