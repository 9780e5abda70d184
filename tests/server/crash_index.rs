//! The indexes of the records and clocks (`DATA/index/`) under a poll
//! killed at every durable step (`PBEM_CRASH_AT=N`, see
//! `pbem::store::crashpoint`), the kill between a record's or a clock's
//! rename and the append of its summary among them: right after each
//! kill, before a poll mends anything, `pbem games` lists what the records
//! say (what `pbem games --rebuild` reads from them) and the clocks' index
//! gives each clock as its file has it; after the next poll, `pbem games`
//! lists what the poll never killed left.

use crate::common;

use common::club::Club;
use common::sweep::{MAX_POINTS, poll, poll_ok};
use pbem::config::Config;
use pbem::record;
use pbem::store::GameClock;
use pbem::store::Store;
use pbem::store::index::{ClockSummary, GameSummary, Refresh, Summary};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// `pbem games ARGS --json` in the pbem of `dir`: its lines, and whether
/// it exited 0.
fn listed(dir: &Path, args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("games")
        .args(args)
        .args(["--json", "--config"])
        .arg(dir.join("pbem.toml"))
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

/// Two games with clocks, and mail for the poll to sweep: a move in one,
/// a resignation in the other.
fn prepared() -> Club {
    let mut club = Club::numbered(4);
    for (id, clock, a, b) in [("bz-one", "3d", 0, 1), ("bz-two", "5d", 2, 3)] {
        let black = format!("black=p{a}@example.org");
        let red = format!("red=p{b}@example.org");
        let args = [
            "new",
            "boom-and-zoom",
            "--id",
            id,
            "--clock",
            clock,
            "--first",
            "red",
        ];
        let players = ["--player", black.as_str(), "--player", red.as_str()];
        club.run(&[&args[..], &players[..]].concat());
    }
    let seat = |club: &Club, id: &str| {
        let first = club.first_mover(id);
        club.players
            .iter()
            .position(|p| p.address == first)
            .unwrap()
    };
    let rec = club.record("bz-one");
    let r = record::replay::<pbem_engine::games::boom_and_zoom::BoomAndZoom>(&rec).unwrap();
    let (mv, _) = pbem_engine::game::listed_moves(r.position())[0].clone();
    let text = pbem_engine::game::canonical(r.position(), mv);
    let who = seat(&club, "bz-one");
    club.players[who]
        .reply(&club.inbox, "[pbem bz-one]", &format!("{text}\n"))
        .unwrap();
    let who = seat(&club, "bz-two");
    club.players[who]
        .reply(&club.inbox, "[pbem bz-two]", "resign\n")
        .unwrap();
    club
}

/// Checks the indexes of the pbem in `dir` against its files, as a
/// killed poll left them: how many files they did not vouch for.
fn indexes_hold(dir: &Path, what: &str) -> usize {
    let config = Config::load(&dir.join("pbem.toml")).unwrap();
    let store = Store::open(&config.data).unwrap();
    let read = |folder: &str, id: &str| {
        std::fs::read_to_string(config.data.join(format!("{folder}/{id}.toml"))).unwrap()
    };
    // Held: what reads the indexes cannot mend them, and says how many
    // of the files they vouched for.
    let lock = store.lock(false).unwrap();
    let clocks = store
        .summaries::<ClockSummary>(Refresh::Stale, &mut |_, _| {})
        .unwrap();
    let on_disk: Vec<(String, ClockSummary)> = store
        .clock_ids()
        .unwrap()
        .into_iter()
        .map(|id| {
            let clock: GameClock = toml::from_str(&read("clocks", &id)).unwrap();
            (id, ClockSummary::Clock(clock))
        })
        .collect();
    assert_eq!(clocks.items, on_disk, "{what}: the clocks");
    let games = store
        .summaries::<GameSummary>(Refresh::Stale, &mut |_, _| {})
        .unwrap();
    let records: Vec<(String, GameSummary)> = store
        .game_ids()
        .unwrap()
        .into_iter()
        .map(|id| {
            let s = GameSummary::of_found(&id, Ok(read("games", &id)));
            (id, s)
        })
        .collect();
    assert_eq!(games.items, records, "{what}: the games");
    assert!(
        games.problems.is_empty() && clocks.problems.is_empty(),
        "{what}"
    );
    drop(lock);
    // And `pbem games`, which mends them, as it reads the records.
    let (from_index, ok) = listed(dir, &[]);
    let (from_records, rebuilt) = listed(dir, &["--rebuild"]);
    assert_eq!(from_index, from_records, "{what}: pbem games");
    assert!(ok && rebuilt, "{what}: {from_index}");
    games.read + clocks.read
}

#[test]
fn a_poll_killed_between_a_file_and_its_summary_leaves_no_index_that_disagrees() {
    let _shared = common::lock::shared();
    let start = Instant::now();
    let mut club = prepared();
    club.minute += 1;
    let (from, now) = (club.pbem.dir.path(), club.now());
    let reference = tempfile::tempdir().unwrap();
    common::copy_tree(from, reference.path());
    poll_ok(reference.path(), &now, "the poll never killed");
    let (want, _) = listed(reference.path(), &[]);
    assert!(
        want.contains("\"moves\":1") && want.contains("\"over\""),
        "{want}"
    );
    let mut stale = 0;
    for n in 1..MAX_POINTS {
        let run = tempfile::tempdir().unwrap();
        common::copy_tree(from, run.path());
        // A copy's files are new ones: the indexes made again for them.
        listed(run.path(), &["--rebuild"]);
        assert_eq!(indexes_hold(run.path(), "before the poll"), 0);
        let out = poll(run.path(), &now, Some(n));
        let what = format!("killed at step {n}");
        if indexes_hold(run.path(), &what) > 0 {
            stale += 1;
        }
        if out.status.signal().is_none() {
            assert!(out.status.success(), "{what}: ran through and failed");
            assert!(stale > 0, "no kill fell between a file and its summary");
            eprintln!(
                "index crash sweep: {} kill points, {stale} with summaries to read again ({:.1}s)",
                n - 1,
                start.elapsed().as_secs_f64()
            );
            return;
        }
        poll_ok(
            run.path(),
            &now,
            &format!("the poll after a kill at step {n}"),
        );
        let (got, _) = listed(run.path(), &[]);
        assert_eq!(got, want, "{what}, then polled");
    }
    panic!("the poll never ran through");
}
