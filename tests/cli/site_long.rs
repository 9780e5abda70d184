//! `pbem site` on a game of fifty thousand moves: its pages (200 moves
//! each) stay under a megabyte, and the build's memory stays bounded (it
//! draws one page at a time, never the whole game's boards at once). The
//! peak is read from the build's own `/proc/PID/status` (`VmHWM`, the
//! high-water mark of its resident memory) until it exits.

use crate::common;
use pbem::game::{self, Game, PerSide, Side};
use pbem::record::{Entry, MoveLine, Record};
use pbem::rules::Rules;
use pbem_engine::games::embed::Embed;
use std::path::Path;
use std::process::Command;

const PLIES: usize = 50_000;

/// `plies` moves of Embed that never end the game: seeded random legal
/// moves, none that ends it, quiet ones (no capture) where there are.
fn endless(plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut pos = Embed::start(Side::A);
    let (mut out, mut moves) = (Vec::new(), Vec::new());
    while out.len() < plies {
        moves.clear();
        pos.legal_moves(&mut moves);
        rng.shuffle(&mut moves);
        let goes_on = |m: &&_| {
            let mut next = pos.clone();
            next.play_unchecked(**m);
            game::outcome(&next).is_none()
        };
        let quiet = |m: &&_| !game::canonical(&pos, **m).contains('x');
        let m = *moves
            .iter()
            .filter(goes_on)
            .find(quiet)
            .or_else(|| moves.iter().find(goes_on))
            .expect("a move that does not end the game");
        out.push(game::canonical(&pos, m));
        pos.play_unchecked(m);
    }
    out
}

/// Writes game `id`, `plies` moves long, into the data folder `data`.
fn write_long_game(data: &Path, id: &str, plies: usize) {
    let start = chrono::DateTime::parse_from_rfc3339("2026-03-01T00:00:00+00:00").unwrap();
    let lines = endless(plies)
        .into_iter()
        .enumerate()
        .map(|(i, m)| MoveLine {
            line: 0,
            number: Some(i as u32 + 1),
            side: None,
            entry: Entry::Move(m),
            time: Some(start + chrono::Duration::minutes(i as i64)),
            message_id: None,
        })
        .collect();
    let rec = Record {
        file: format!("{id}.toml"),
        format: Some(1),
        rules: Rules::Embed,
        id: Some(id.into()),
        created: Some(start),
        first: Some(Side::A),
        result: Some((pbem::record::Verdict::Unfinished, 0)),
        players: PerSide::new(
            Some("Ann <ann@example.org>".into()),
            Some("Bob <bob@example.org>".into()),
        ),
        match_info: Default::default(),
        lines,
    };
    let store = pbem::store::Store::open(data).unwrap();
    store
        .write_game(id, &pbem::record::write::to_string(&rec))
        .unwrap();
}

/// The largest `VmHWM` (kB) of `/proc/PID/status` while `cmd` runs, and
/// whether it succeeded.
fn peak_kb(cmd: &mut Command) -> (u64, bool) {
    let mut child = cmd.spawn().unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        let hwm = std::fs::read_to_string(&status)
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .unwrap_or(0);
        peak = peak.max(hwm);
        if let Some(done) = child.try_wait().unwrap() {
            return (peak, done.success());
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_game_of_50000_moves_makes_pages_under_a_megabyte_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("demo");
    common::pbem_ok(&["demo", "--dir", setup.to_str().unwrap(), "--game", "mad"]);
    write_long_game(&setup.join("data"), "em-long", PLIES);
    let www = dir.path().join("www");
    let (peak, ok) = peak_kb(
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["site", www.to_str().unwrap(), "--quiet", "--config"])
            .arg(setup.join("pbem.toml"))
            .env_remove("PBEM_CONFIG"),
    );
    assert!(ok, "pbem site failed");
    eprintln!("pbem site of a {PLIES}-move game: peak resident memory {peak} kB");
    // Drawn whole, the game took 650 MB; a page at a time, about 30.
    assert!(peak > 0 && peak < 150_000, "peak {peak} kB");
    let pages: Vec<_> = common::files(&www.join("games"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("em-long"))
        .collect();
    assert_eq!(pages.len(), PLIES / 200, "{pages:?}");
    for f in common::files(&www) {
        let size = std::fs::metadata(&f).unwrap().len();
        assert!(size < 1_000_000, "{}: {size} bytes", f.display());
    }
    let last = std::fs::read_to_string(www.join("games/em-long_250.html")).unwrap();
    assert!(
        last.contains(&format!("after {PLIES} moves")),
        "the last page"
    );
    assert!(last.contains(&format!("<g id=\"p{PLIES}\" class=\"ply\">")));
}
