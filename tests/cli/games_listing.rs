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
