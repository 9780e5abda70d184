//! Engine benchmarks against their targets, printed as a table:
//!
//! - perft nodes per second per game on one core, from the start
//!   (target: 10 million);
//! - records replayed per second in process (read + replay + result check);
//! - `pbem validate` of a record of up to 200 moves as a whole process
//!   (target: under 5 ms), and `pbem moves` on the same record;
//! - beside them, what any process costs here: `/bin/true`, and pbem's
//!   own start (`pbem --version`: the loader, relocations, `main`).
//!
//! Run with `cargo bench --workspace --bench engine` (add a game slug to
//! run one game): the process rows time the `pbem` binary built beside
//! this bench (`cargo bench --workspace` builds it), and are left out,
//! with a note, when it is not there.

use pbem_engine::game::{self, Game, PerSide, Side};
use pbem_engine::play;
use pbem_engine::record::{self, Entry, MoveLine, Record};
use pbem_engine::rules::Rules;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Perft from the start, one depth deeper until a run takes this long.
const PERFT_TIME: Duration = Duration::from_millis(700);
const PROCESS_RUNS: usize = 40;

struct Row {
    game: &'static str,
    depth: u32,
    nodes: u64,
    nps: f64,
    plies: usize,
    replays_per_s: f64,
    process_ms_median: f64,
    process_ms_p90: f64,
    moves_ms_median: f64,
}

/// The `pbem` binary of the same build as this bench
/// (`target/<profile>/pbem`, beside the `deps/` folder the bench runs
/// from), if it was built.
fn pbem_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("pbem");
    bin.exists().then_some(bin)
}

/// Whole-process times of `program args...`, in ms, sorted.
fn process_times(program: &std::path::Path, args: &[&std::ffi::OsStr]) -> Vec<f64> {
    let mut times: Vec<f64> = (0..PROCESS_RUNS)
        .map(|_| {
            let t = Instant::now();
            let o = std::process::Command::new(program)
                .args(args)
                .output()
                .unwrap();
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
            ms
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times
}

/// A long game: random moves, avoiding moves that end the game while
/// others exist, up to 200 plies.
fn long_game<G: Game>(seed: u64) -> (Vec<String>, Side) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let first = G::RULES.fixed_first().unwrap_or(Side::A);
    let mut pos = G::start(first);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < 200 {
        moves.clear();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        rng.shuffle(&mut moves);
        let pick = moves
            .iter()
            .copied()
            .find(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                game::outcome(&p).is_none()
            })
            .unwrap_or(moves[0]);
        out.push(game::canonical(&pos, pick));
        pos.play_unchecked(pick);
    }
    (out, first)
}

fn record_text<G: Game>() -> (String, usize) {
    let (moves, first) = (0..8)
        .map(long_game::<G>)
        .max_by_key(|(m, _)| m.len())
        .unwrap();
    let t0 = chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z").unwrap();
    let mut pos = G::start(first);
    let mut lines = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let mv = play::parse_move(&pos, m).unwrap();
        lines.push(MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: Some(pos.turn()),
            entry: Entry::Move(m.clone()),
            time: Some(t0 + chrono::Duration::minutes(i as i64 * 41)),
            message_id: Some(format!("<bench{i}@mail.example.org>")),
        });
        pos.play_unchecked(mv);
    }
    let result = record::Verdict::of(game::outcome(&pos).map(|e| e.outcome));
    let rec = Record {
        file: "bench.toml".into(),
        format: Some(1),
        rules: G::RULES,
        id: Some("bench".into()),
        created: Some(t0),
        first: Some(first),
        result: Some((result, 0)),
        players: PerSide::default(),
        match_info: Default::default(),
        lines,
    };
    (record::write::to_string(&rec), moves.len())
}

fn bench_game<G: Game>(pbem: Option<&std::path::Path>) -> Row {
    let start = G::start(G::RULES.fixed_first().unwrap_or(Side::A));
    let (mut depth, mut nodes, mut elapsed) = (1, 0, Duration::ZERO);
    while elapsed < PERFT_TIME && depth < 12 {
        depth += 1;
        let t = Instant::now();
        nodes = game::perft(&start, depth);
        elapsed = t.elapsed();
    }
    let nps = nodes as f64 / elapsed.as_secs_f64();

    let (text, plies) = record_text::<G>();
    let t = Instant::now();
    let mut replays = 0u32;
    while t.elapsed() < Duration::from_millis(500) {
        let rec = Record::parse("bench.toml", &text).unwrap();
        let r = record::replay::<G>(&rec).unwrap();
        assert_eq!(r.moves.len(), plies);
        replays += 1;
    }
    let replays_per_s = replays as f64 / t.elapsed().as_secs_f64();

    let file = std::env::temp_dir().join(format!("pbem-bench-{}.toml", std::process::id()));
    std::fs::write(&file, &text).unwrap();
    let (times, moves) = match pbem {
        Some(pbem) => (
            process_times(pbem, &["validate".as_ref(), file.as_os_str()]),
            process_times(pbem, &["moves".as_ref(), file.as_os_str()]),
        ),
        None => (vec![f64::NAN], vec![f64::NAN]),
    };
    let _ = std::fs::remove_file(&file);
    Row {
        game: G::RULES.slug(),
        depth,
        nodes,
        nps,
        plies,
        replays_per_s,
        process_ms_median: times[times.len() / 2],
        process_ms_p90: times[times.len() * 9 / 10],
        moves_ms_median: moves[moves.len() / 2],
    }
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    // Warmed up first: the first runs of a program pay for its pages.
    let pbem = pbem_binary();
    let truth = std::path::Path::new("/bin/true");
    process_times(truth, &[]);
    let floor = process_times(truth, &[]);
    match &pbem {
        Some(pbem) => {
            process_times(pbem, &["--version".as_ref()]);
            let start = process_times(pbem, &["--version".as_ref()]);
            println!(
                "a process here: `/bin/true` {:.2} ms p50; pbem's start (`pbem --version`) {:.2} ms p50",
                floor[floor.len() / 2],
                start[start.len() / 2]
            );
        }
        None => println!(
            "no pbem binary beside this bench (run `cargo bench --workspace`): no process times"
        ),
    }
    println!(
        "{:<20} {:>5} {:>13} {:>10} {:>6} {:>10} {:>20} {:>9}",
        "game",
        "depth",
        "perft nodes",
        "Mnodes/s",
        "plies",
        "replays/s",
        "validate ms p50/p90",
        "moves ms"
    );
    let mut misses = Vec::new();
    for rules in Rules::ALL {
        if !filter.is_empty() && !filter.iter().any(|f| f == rules.slug()) {
            continue;
        }
        let row = pbem_engine::with_game!(rules, G => bench_game::<G>(pbem.as_deref()));
        println!(
            "{:<20} {:>5} {:>13} {:>10.1} {:>6} {:>10.0} {:>13.2} / {:>4.2} {:>9.2}",
            row.game,
            row.depth,
            row.nodes,
            row.nps / 1e6,
            row.plies,
            row.replays_per_s,
            row.process_ms_median,
            row.process_ms_p90,
            row.moves_ms_median
        );
        if row.nps < 10e6 {
            misses.push(format!(
                "{}: perft {:.1} Mnodes/s < 10",
                row.game,
                row.nps / 1e6
            ));
        }
        if row.process_ms_median >= 5.0 {
            misses.push(format!(
                "{}: validate {:.2} ms >= 5",
                row.game, row.process_ms_median
            ));
        }
        if row.moves_ms_median >= 5.0 {
            misses.push(format!(
                "{}: moves {:.2} ms >= 5",
                row.game, row.moves_ms_median
            ));
        }
    }
    println!(
        "\ntargets: perft >= 10 Mnodes/s per game; `pbem validate` and `pbem moves` of a 200-move record < 5 ms"
    );
    if misses.is_empty() {
        println!("all targets met");
    } else {
        for m in misses {
            println!("MISSED {m}");
        }
    }
}
