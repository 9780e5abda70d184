//! The web archive at scale: `pbem site` over a data folder of
//! many games, timed in process (the library's `site::build`, as the
//! command and the daemon call it).
//!
//! The data folder: N games (default 10,000) of all eight games, each
//! played with random legal moves to a length of its own (from a few
//! moves to a hundred and fifty; some end, some are still in play),
//! written through the [`Store`] (record and secrets) with a time on every
//! line, between a pool of players (about twenty games each), a tenth in
//! series. Not measured.
//!
//! Then three builds, each printed with the pages written, the pages
//! left, the bytes on disk and the seconds:
//!
//! - **full**: into an empty folder;
//! - **again**: nothing changed;
//! - **one move**: one legal move appended to one game in play.
//!
//! `cargo bench --bench site` (release); `-- --games N` for another size,
//! `-- --quick` for 1,000 games; `PBEM_BENCH_DIR` a folder to work in
//! (default: a temporary folder under `target/`); `PBEM_BENCH_KEEP=1`
//! keeps that folder (its `data/` and the site in `www/`), to look at the
//! pages in a browser: its path is printed.

use pbem::game::{self, Game, PerSide, Side};
use pbem::record::{self, Entry, MoveLine, Record};
use pbem::rules::Rules;
use pbem::site::{self, Built, Options};
use pbem::store::{Secrets, Store};
use std::path::Path;
use std::time::Instant;

/// The longest game the bench plays, in plies.
const LONGEST: usize = 150;

fn main() {
    let mut games = 10_000;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => games = 1_000,
            "--games" => {
                games = args
                    .next()
                    .and_then(|n| n.replace('_', "").parse().ok())
                    .expect("--games N: a number of games");
            }
            // What cargo passes to every bench.
            _ => {}
        }
    }
    let base = std::env::var_os("PBEM_BENCH_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
        Into::into,
    );
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let data = tmp.path().join("data");
    let www = tmp.path().join("www");
    let store = Store::open(&data).unwrap();

    let t = Instant::now();
    // One sync of the file system for them all.
    let batch = store.batch().unwrap();
    let lines = folder(&batch, games);
    batch.sync().unwrap();
    println!(
        "site bench: {games} games ({} plies in all) written in {:.1} s, {} cores",
        lines.iter().map(|l| l.plies).sum::<usize>(),
        t.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    println!(
        "{:<10} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "build", "games", "remade", "written", "MB", "seconds", "user", "system"
    );
    run("full", &store, &www);
    run("again", &store, &www);
    let one = lines
        .iter()
        .find(|l| !l.over && l.plies > 20)
        .expect("a game in play");
    one_more_move(&store, one);
    run("one move", &store, &www);
    limit(&www, &tmp.path().join("limit"));
    if std::env::var_os("PBEM_BENCH_KEEP").is_some() {
        println!("kept: {}", tmp.keep().display());
    }
}

/// The file system's own cost of the full build's files: as many files
/// of the same sizes, each written to a temporary file and renamed, as
/// the site writes its pages, and nothing else.
fn limit(www: &Path, to: &Path) {
    let mut sizes = Vec::new();
    files(www, &mut sizes);
    std::fs::create_dir_all(to).unwrap();
    let most = sizes.iter().copied().max().unwrap_or(0);
    let text = vec![b'x'; most as usize];
    let (cpu, t) = (cpu_time(), Instant::now());
    for (i, &n) in sizes.iter().enumerate() {
        let tmp = to.join(format!(".{i}.tmp"));
        std::fs::write(&tmp, &text[..n as usize]).unwrap();
        std::fs::rename(&tmp, to.join(format!("{i}.html"))).unwrap();
    }
    let secs = t.elapsed().as_secs_f64();
    let now = cpu_time();
    println!(
        "{:<10} {:>7} {:>8} {:>8} {:>8.1} {secs:>8.3} {:>8.2} {:>8.2}   (the files alone: write and rename)",
        "limit",
        "",
        "",
        sizes.len(),
        sizes.iter().sum::<u64>() as f64 / 1e6,
        now.0 - cpu.0,
        now.1 - cpu.1,
    );
}

/// The sizes of the files under `dir`.
fn files(dir: &Path, sizes: &mut Vec<u64>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let meta = e.metadata().unwrap();
        if meta.is_dir() {
            files(&e.path(), sizes);
        } else {
            sizes.push(meta.len());
        }
    }
}

/// This process's user and system CPU time so far, in seconds (fields
/// 14 and 15 of `/proc/self/stat`, counted after the command's name).
fn cpu_time() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let tick = rustix::param::clock_ticks_per_second() as f64;
    let at = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
            / tick
    };
    (at(11), at(12))
}

/// One build of the site, timed and printed.
fn run(what: &str, store: &Store, www: &Path) -> Built {
    let (cpu, t) = (cpu_time(), Instant::now());
    let built = site::build(store, www, &Options::default(), &mut |_, _| {}).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let now = cpu_time();
    assert!(built.skipped.is_empty(), "{:?}", built.skipped);
    println!(
        "{what:<10} {:>7} {:>8} {:>8} {:>8.1} {secs:>8.3} {:>8.2} {:>8.2}",
        built.games,
        built.remade,
        built.written,
        bytes(www) as f64 / 1e6,
        now.0 - cpu.0,
        now.1 - cpu.1,
    );
    built
}

/// The bytes of the files under `dir`.
fn bytes(dir: &Path) -> u64 {
    let mut sizes = Vec::new();
    files(dir, &mut sizes);
    sizes.iter().sum()
}

/// A game of the folder: enough to play it on.
struct Line {
    id: String,
    rules: Rules,
    seed: u64,
    plies: usize,
    over: bool,
}

/// Writes `n` games into `store`.
fn folder(store: &Store, n: usize) -> Vec<Line> {
    let players = (n / 10).max(8);
    let mut rng = fastrand::Rng::with_seed(17);
    let start = chrono::DateTime::parse_from_rfc3339("2026-01-01T00:00:00+00:00").unwrap();
    (0..n)
        .map(|g| {
            let rules = Rules::ALL[g % Rules::ALL.len()];
            let id = format!("g{g:06}");
            let seed = rng.u64(..);
            let plies = rng.usize(2..=LONGEST);
            let a = rng.usize(..players);
            let b = (a + 1 + rng.usize(..players - 1)) % players;
            let created = start + chrono::Duration::minutes(g as i64 * 30);
            let mut rec = Record {
                file: format!("{id}.toml"),
                format: Some(1),
                rules,
                id: Some(id.clone()),
                created: Some(created),
                first: Some(rules.fixed_first().unwrap_or(Side::A)),
                result: None,
                players: PerSide::new(Some(player(a)), Some(player(b))),
                match_info: Default::default(),
                lines: Vec::new(),
            };
            if g % 10 == 0 {
                rec.match_info.series = Some(format!("s{:05}", g / 30));
                rec.match_info.game = Some(1 + (g / 10 % 3) as u32);
                rec.match_info.of = Some(3);
            }
            let over = play(&mut rec, seed, plies);
            let secrets = Secrets {
                tokens: PerSide::new(Some(format!("ka{g}")), Some(format!("kb{g}"))),
                players: PerSide::new(Some(address(a)), Some(address(b))),
            };
            store.write_secrets(&id, rules, &secrets).unwrap();
            store
                .write_game(&id, &record::write::to_string(&rec))
                .unwrap();
            Line {
                plies: rec.lines.len(),
                id,
                rules,
                seed,
                over,
            }
        })
        .collect()
}

fn address(n: usize) -> String {
    format!("player{n}@example.org")
}

fn player(n: usize) -> String {
    format!("Player {n} <{}>", address(n))
}

/// Plays `rec` to `plies` random legal moves (fewer when the game ends
/// first), a line a minute from its creation; sets its result; whether
/// it ended. The same seed plays the same moves, whatever `plies`.
fn play(rec: &mut Record, seed: u64, plies: usize) -> bool {
    let moves = pbem::with_game!(rec.rules, G => random_line::<G>(seed, plies));
    let first = rec.first.unwrap_or(Side::A);
    let t0 = rec.created.unwrap();
    rec.lines = moves
        .into_iter()
        .enumerate()
        .map(|(i, m)| MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: Some(if i % 2 == 0 { first } else { first.other() }),
            entry: Entry::Move(m),
            time: Some(t0 + chrono::Duration::minutes(i as i64 + 1)),
            message_id: None,
        })
        .collect();
    let result = pbem::with_game!(rec.rules, G => record::replay::<G>(rec).unwrap().result());
    rec.result = Some((result, 0));
    result.is_over()
}

/// Random legal moves from the start, at most `plies`, up to the game's end.
fn random_line<G: Game>(seed: u64, plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pos = G::start(G::RULES.fixed_first().unwrap_or(Side::A));
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < plies && game::outcome(&pos).is_none() {
        moves.clear();
        pos.legal_moves(&mut moves);
        let m = moves[rng.usize(..moves.len())];
        out.push(game::canonical(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

/// Appends one legal move to the game `line`, as a move mail would.
fn one_more_move(store: &Store, line: &Line) {
    let text = store.read_game(&line.id).unwrap().unwrap();
    let mut rec = Record::parse(&format!("{}.toml", line.id), &text).unwrap();
    assert_eq!(rec.rules, line.rules);
    play(&mut rec, line.seed, line.plies + 1);
    assert_eq!(rec.lines.len(), line.plies + 1, "one more move");
    // Played now: the game comes first on the index.
    if let Some(last) = rec.lines.last_mut() {
        last.time = Some(pbem::clock::now().fixed_offset());
    }
    store
        .write_game(&line.id, &record::write::to_string(&rec))
        .unwrap();
}
