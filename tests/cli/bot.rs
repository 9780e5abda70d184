//! `pbem suggest` and `pbem match` as a user runs them: the
//! suggested move is legal (checked against `pbem moves` on the same
//! record, for every example game and for many random records of every
//! game), printed canonically; a finished game has no move (exit 3); the
//! only legal move is suggested; a node budget and a seed repeat; a match
//! prints its score.

use pbem_engine::game::{self, Game};
use pbem_engine::record;
use pbem_engine::rules::Rules;
use pbem_engine::testing::random_record;
use std::process::{Command, Output};

fn pbem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .output()
        .expect("run pbem")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `pbem suggest FILE` with a small node budget: the move, or the exit
/// code and standard error.
fn suggest(file: &str, seed: u64) -> Result<String, (i32, String)> {
    let seed = seed.to_string();
    let o = pbem(&["suggest", file, "--nodes", "400", "--seed", &seed]);
    if o.status.success() {
        Ok(text(&o).trim_end().to_string())
    } else {
        Err((
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ))
    }
}

/// The moves `pbem moves` lists at the end of `file`.
fn listed(file: &str) -> Vec<String> {
    let o = pbem(&["moves", file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    text(&o).lines().map(str::to_string).collect()
}

/// Suggests at the end of `file` and checks the answer against `pbem
/// moves`: a listed move, or exit 3 exactly when none is listed.
fn check_file(file: &str, seed: u64) {
    let moves = listed(file);
    match suggest(file, seed) {
        Ok(m) => assert!(moves.contains(&m), "{file}: {m} is not in {moves:?}"),
        Err((code, why)) => {
            assert!(moves.is_empty(), "{file}: exit {code}: {why}");
            assert_eq!(code, 3, "{file}: {why}");
            assert!(why.contains("there is no move to suggest"), "{why}");
        }
    }
}

#[test]
fn suggests_a_legal_move_in_every_example_game() {
    for rules in Rules::ALL {
        check_file(&rules.example_path(true), 1);
        check_file(&rules.example_path(false), 1);
    }
}

#[test]
fn suggests_legal_moves_in_random_records_of_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = fastrand::Rng::with_seed(18);
    for rules in Rules::ALL {
        for i in 0..12u64 {
            let seed = rng.u64(..1_000_000);
            let plies = [0, 1, 2, 3, 10, 20, 30, 40, 60, 90, 150, 500][i as usize] + rng.usize(..8);
            let rec = pbem_engine::with_game!(rules, G => {
                let first = game::first_sides::<G>()[i as usize % game::first_sides::<G>().len()];
                random_record::<G>(seed, first, plies)
            });
            let path = dir.path().join(format!("{}-{i}.toml", rules.slug()));
            std::fs::write(&path, record::write::to_string(&rec)).unwrap();
            check_file(path.to_str().unwrap(), seed);
        }
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let o = pbem(&["suggest", "engine/src/games/embed/embed.toml"]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(text(&o), "");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.trim_end(),
        "engine/src/games/embed/embed.toml: the game is over (black's boss entered 59, on red's home row \
         57-64): there is no move to suggest"
    );
    let o = pbem(&["suggest", "engine/src/games/embed/embed.toml", "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_str(&text(&o)).unwrap();
    assert_eq!(v["move"], serde_json::Value::Null);
    assert!(v["over"].as_str().unwrap().contains("boss entered 59"));
}

#[test]
fn a_bad_record_exits_1() {
    let o = pbem(&["suggest", "no-such-file.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-file.toml"));
}

/// A position with exactly one legal move, from random games of any game.
fn forced_record() -> (Rules, &'static str, String, String) {
    for rules in Rules::ALL {
        for seed in 0..300 {
            let found = pbem_engine::with_game!(rules, G => {
                let first = game::first_sides::<G>()[0];
                let (_, moves) = game::random_game::<G>(first, seed, 300);
                let mut pos = G::start(first);
                let mut list = Vec::new();
                let mut found = None;
                for m in moves {
                    if pos.count_moves() == 1 {
                        found = Some((list.join("\n"), game::canonical(&pos, m)));
                        break;
                    }
                    list.push(game::canonical(&pos, m));
                    pos.play_unchecked(m);
                }
                found.map(|(l, m)| (rules, game::side_name::<G>(first), format!("{l}\n"), m))
            });
            if let Some(f) = found {
                return f;
            }
        }
    }
    panic!("no random game of any game passed a position with one legal move");
}

#[test]
fn the_only_legal_move_is_suggested() {
    let (rules, first, list, only) = forced_record();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forced.txt");
    std::fs::write(&path, list).unwrap();
    let p = path.to_str().unwrap();
    let o = pbem(&[
        "suggest",
        p,
        "--rules",
        rules.slug(),
        "--first",
        first,
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o)).unwrap();
    assert_eq!(v["move"], only.as_str());
    assert_eq!(v["legal_moves"], 1);
    assert_eq!(v["depth"], 0);
}

#[test]
fn a_node_budget_and_a_seed_repeat() {
    let run = || {
        text(&pbem(&[
            "suggest",
            "engine/src/games/mad/mad-in-play.toml",
            "--nodes",
            "3000",
            "--seed",
            "5",
            "--json",
        ]))
    };
    let a: serde_json::Value = serde_json::from_str(&run()).unwrap();
    let b: serde_json::Value = serde_json::from_str(&run()).unwrap();
    for k in ["move", "nodes", "depth", "score"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    assert_eq!(a["nodes"], 3000);
}

#[test]
fn a_match_prints_the_score() {
    let o = pbem(&[
        "match", "mad", "--bot", "3", "--bot", "random", "--games", "2", "--nodes", "1000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&o)).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["players"][0]["player"], "bot3");
    assert_eq!(v["players"][0]["wins"], 2);
    assert_eq!(v["players"][1]["losses"], 2);
    let o = pbem(&[
        "match", "embed", "--bot", "1", "--bot", "uct", "--games", "2", "--nodes", "300",
    ]);
    let out = text(&o);
    assert!(
        out.starts_with("embed: bot1 against uct, 2 games, 300 nodes a move\n"),
        "{out}"
    );
    let o = pbem(&["match", "mad", "--bot", "3"]);
    assert_eq!(o.status.code(), Some(2));
    let o = pbem(&["match", "mad", "--bot", "4", "--bot", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"4\" is no player"));
}

#[test]
fn a_bad_level_is_a_usage_error() {
    let o = pbem(&[
        "suggest",
        "engine/src/games/mad/mad-in-play.toml",
        "--level",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("\"4\" is no bot level (the levels are 1, 2 and 3)"),
        "{err}"
    );
    let o = pbem(&[
        "suggest",
        "engine/src/games/mad/mad-in-play.toml",
        "--level",
        "1",
        "--nodes",
        "900",
    ]);
    assert!(o.status.success());
}

#[test]
fn a_game_ended_off_the_board_has_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let list = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let args = |file: &str| {
        pbem(&[
            "suggest",
            file,
            "--rules",
            "boom-and-zoom",
            "--first",
            "red",
            "--nodes",
            "500",
        ])
    };
    for (name, moves) in [
        ("resigned.txt", "58-50\nresign\n"),
        ("agreed.txt", "58-50\ndraw offered\ndraw agreed\n"),
        ("timeout.txt", "58-50\n2-10\ntimeout\n"),
    ] {
        let o = args(&list(name, moves));
        assert_eq!(o.status.code(), Some(3), "{name}");
        assert_eq!(text(&o), "", "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("there is no move to suggest"), "{name}: {err}");
    }
    // An offer not yet answered ends nothing: black is to move.
    let file = list("offered.txt", "58-50\ndraw offered\n");
    let o = args(&file);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = text(&o);
    let legal = pbem(&["moves", &file, "--rules", "boom-and-zoom", "--first", "red"]);
    assert!(text(&legal).lines().any(|l| l == m.trim_end()), "{m}");
}
