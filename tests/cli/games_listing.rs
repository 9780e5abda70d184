//! `pbem games` as an admin reads it: columns that line up whatever the
//! ids' lengths, and finished games in words ("red won", "drawn").

use pbem::config::INIT;
use pbem::store::Store;
use std::fs;
use std::process::{Command, Output};

const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "bob@example.org";

fn games(config: &std::path::Path, json: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pbem"));
    cmd.arg("games");
    if json {
        cmd.arg("--json");
    }
    cmd.arg("--config")
        .arg(config)
        .env("PBEM_NOW", "2026-11-20T10:00:00Z")
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap()
}

/// A Boom & Zoom record with these move lines and result.
fn record(id: &str, result: &str, lines: &str) -> String {
    format!(
        "rules = \"boom-and-zoom\"\nid = \"{id}\"\nfirst = \"red\"\nresult = \"{result}\"\n\n\
         [players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n[play]\nmoves = \"\"\"\n{lines}\"\"\"\n"
    )
}

#[test]
fn games_lines_up_its_columns_and_names_the_winner_whatever_the_ids_length() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    fs::write(&config, INIT).unwrap();
    let store = Store::open(dir.path().join("data")).unwrap();
    let long = format!("bz-{}", "x".repeat(37));
    assert_eq!(long.len(), 40, "the longest id the store takes");
    let won = "1. red 58-50 2026-11-19T10:00:00Z\nblack resign 2026-11-19T11:00:00Z\n";
    let drawn = "1. red 58-50 2026-11-19T10:00:00Z\nred draw offered 2026-11-19T10:00:00Z\n\
                 black draw agreed 2026-11-19T11:00:00Z\n";
    let playing = "1. red 58-50 2026-11-19T10:00:00Z\n";
    store.write_game(&long, &record(&long, "red", won)).unwrap();
    store
        .write_game("bz-dr", &record("bz-dr", "draw", drawn))
        .unwrap();
    store
        .write_game("bz-p1", &record("bz-p1", "*", playing))
        .unwrap();

    let o = games(&config, false);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // Each column starts at the same place on every line.
    for column in ["Boom & Zoom", "black: "] {
        let at: Vec<Option<usize>> = lines.iter().map(|l| l.find(column)).collect();
        assert!(at[0].is_some(), "{column:?} in {out}");
        assert!(
            at.iter().all(|a| *a == at[0]),
            "{column:?} at {at:?}:\n{out}"
        );
    }
    // The id column is the longest id and a gap: no id runs into its game.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{long}  Boom & Zoom"))),
        "{out}"
    );
    let line = |id: &str| *lines.iter().find(|l| l.starts_with(id)).unwrap();
    assert!(line(&long).ends_with("[red won (1 move)]"), "{out}");
    assert!(line("bz-dr").ends_with("[drawn (1 move)]"), "{out}");
    assert!(line("bz-p1").ends_with("[in play, 1 move]"), "{out}");

    // --json keeps the machine's values.
    let o = games(&config, true);
    let objects: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let result = |id: &str| {
        let j = objects.iter().find(|j| j["id"] == id).unwrap();
        (j["result"].clone(), j["state"].clone())
    };
    assert_eq!(result(&long), ("red".into(), "over".into()));
    assert_eq!(result("bz-dr"), ("draw".into(), "over".into()));
    assert_eq!(result("bz-p1"), ("*".into(), "in play".into()));
}

/// `pbem games` (with `args`) in the pbem whose settings are `config`:
/// its exit code, standard output and standard error.
fn games_with(config: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("games")
        .args(args)
        .arg("--config")
        .arg(config)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A pbem with games `bz-a` (in play) and `bz-b` (won by red), written
/// by pbem: the settings' path, the data folder.
fn two_games() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    fs::write(&config, INIT).unwrap();
    let data = dir.path().join("data");
    let store = Store::open(&data).unwrap();
    let playing = "1. red 58-50 2026-11-19T10:00:00Z\n";
    let won = "1. red 58-50 2026-11-19T10:00:00Z\nblack resign 2026-11-19T11:00:00Z\n";
    store
        .write_game("bz-a", &record("bz-a", "*", playing))
        .unwrap();
    store
        .write_game("bz-b", &record("bz-b", "red", won))
        .unwrap();
    (dir, config, data)
}

#[test]
fn a_record_edited_by_hand_is_listed_as_it_now_reads() {
    let (_dir, config, data) = two_games();
    let (code, out, _) = games_with(&config, &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("[in play, 1 move]"), "{out}");
    // The admin ends bz-a by hand, behind pbem's back.
    let file = data.join("games/bz-a.toml");
    let text = fs::read_to_string(&file)
        .unwrap()
        .replace("result = \"*\"", "result = \"red\"");
    let text = text.replace(
        "58-50 2026-11-19T10:00:00Z\n",
        "58-50 2026-11-19T10:00:00Z\nblack resign 2026-11-19T12:00:00Z\n",
    );
    fs::write(&file, text).unwrap();
    let (code, out, err) = games_with(&config, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let line = out.lines().find(|l| l.starts_with("bz-a")).unwrap();
    assert!(line.ends_with("[red won (1 move)]"), "{out}");
    // And then so that it no longer replays: damaged, said with its line.
    let text = fs::read_to_string(&file).unwrap().replace("58-50", "58-10");
    fs::write(&file, text).unwrap();
    let (code, out, _) = games_with(&config, &[]);
    assert_eq!(code, Some(1), "{out}");
    let line = out.lines().find(|l| l.starts_with("bz-a")).unwrap();
    assert!(
        line.contains("DAMAGED") && line.contains("bz-a.toml:"),
        "{out}"
    );
}

#[test]
fn a_damaged_index_is_said_once_and_the_games_listed_from_their_records() {
    let (_dir, config, data) = two_games();
    let (_, want, _) = games_with(&config, &["--json"]);
    let index = data.join("index/games.idx");
    assert!(index.exists(), "pbem's writes made the index");
    fs::write(&index, "\u{0}garbage\nmore garbage\n").unwrap();
    let (code, out, err) = games_with(&config, &["--json"]);
    assert_eq!((code, &out), (Some(0), &want), "{err}");
    assert!(
        err.contains("games.idx: not a pbem index") && err.contains("writes the index again"),
        "{err}"
    );
    // Written again: the next listing has nothing to say.
    let (_, out, err) = games_with(&config, &["--json"]);
    assert_eq!((out, err), (want, String::new()));
}

#[test]
fn games_rebuild_reads_every_record_again_saying_how_far_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    fs::write(&config, INIT).unwrap();
    let data = dir.path().join("data");
    let store = Store::open(&data).unwrap();
    // Enough records for the work to be long, written as an older pbem
    // did: without an index.
    for i in 0..2500 {
        let id = format!("bz-{i:04}");
        fs::write(
            data.join(format!("games/{id}.toml")),
            record(&id, "*", "1. red 58-50 2026-11-19T10:00:00Z\n"),
        )
        .unwrap();
    }
    drop(store);
    let (code, out, err) = games_with(&config, &["--rebuild"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 2500);
    assert!(err.contains("reading 2500 records"), "{err}");
    assert!(err.contains("read 2500 records"), "{err}");
    // From the index now: quiet, and the same.
    let (code, again, err) = games_with(&config, &[]);
    assert_eq!((code, again, err), (Some(0), out, String::new()));
}
