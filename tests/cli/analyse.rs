//! `pbem analyse`: every move the analysis names (the best and the one
//! played) is one `pbem moves` lists there, on every move of the eight
//! example games; the marks follow the losses; the same analysis with
//! the same --nodes and --seed; a bad record or bad arguments are
//! refused with the reason.

use pbem::rules::Rules;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn pbem(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap()
}

fn analysed(file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["analyse", file, "--json", "--quiet"];
    args.extend(extra);
    let out = pbem(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The legal moves after `ply` moves of `file`, as `pbem moves` lists them.
fn moves_at(file: &str, ply: usize) -> BTreeSet<String> {
    let out = pbem(&["moves", file, "--ply", &ply.to_string()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn every_move_the_analysis_names_is_one_pbem_moves_lists_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rules in Rules::ALL {
        let file = root.join(rules.example_path(false));
        let file = file.to_str().unwrap();
        let a = analysed(file, &["--nodes", "400"]);
        let plies = a["plies"].as_array().unwrap();
        assert_eq!(a["moves"].as_u64(), Some(plies.len() as u64), "{rules}");
        assert!(plies.len() >= 20, "{rules}: the whole game");
        for (i, p) in plies.iter().enumerate() {
            let legal = moves_at(file, i);
            for key in ["best", "played"] {
                let mv = p[key].as_str().unwrap();
                assert!(
                    legal.contains(mv),
                    "{rules}, move {}: {key} {mv} not in {legal:?}",
                    i + 1
                );
            }
            let lost = p["lost"].as_i64().unwrap();
            let mark = p["mark"].as_str();
            let want = match lost {
                l if l >= 300 => Some("??"),
                l if l >= 150 => Some("?"),
                l if l >= 60 => Some("?!"),
                _ => None,
            };
            assert_eq!(mark, want, "{rules}, move {}: {p}", i + 1);
            if p["best"] == p["played"] {
                assert_eq!(lost, 0, "{p}");
            }
        }
    }
}

#[test]
fn the_same_nodes_and_seed_give_the_same_analysis() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(Rules::Embed.example_path(false));
    let file = file.to_str().unwrap();
    let args = ["--nodes", "2000", "--seed", "7"];
    let (mut one, mut two) = (analysed(file, &args), analysed(file, &args));
    for a in [&mut one, &mut two] {
        a.as_object_mut().unwrap().remove("seconds");
    }
    assert_eq!(one, two);
    assert_eq!(one["seed"], 7);
    assert_eq!(one["think"]["nodes"], 2000);
    // Each side's tally counts its moves and marks.
    let sides = one["sides"].as_object().unwrap();
    let moves: u64 = sides.values().map(|s| s["moves"].as_u64().unwrap()).sum();
    assert_eq!(moves, one["moves"].as_u64().unwrap());
    let marked = one["plies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["mark"] == "??")
        .count();
    let blunders: u64 = sides
        .values()
        .map(|s| s["blunders"].as_u64().unwrap())
        .sum();
    assert_eq!(blunders, marked as u64);
}

#[test]
fn the_text_names_each_move_and_each_sides_marks() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(Rules::Mad.example_path(true));
    let out = pbem(&["analyse", file.to_str().unwrap(), "--nodes", "300"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("M.A.D. "), "{text}");
    assert!(lines.next().unwrap().contains("played"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("black: ") && l.contains("lost a move on average")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("red: ")), "{text}");
}

#[test]
fn a_bad_record_or_bad_arguments_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    let text = Rules::Embed
        .info()
        .example
        .replacen("2.", "2. red 99-98 ", 1);
    std::fs::write(&bad, text).unwrap();
    let out = pbem(&["analyse", bad.to_str().unwrap(), "--nodes", "10"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.toml"),
        "{out:?}"
    );
    let out = pbem(&["analyse", bad.to_str().unwrap(), "--nodes", "many"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("many"),
        "{out:?}"
    );
    let out = pbem(&["analyse", "/no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("/no/such/file.toml"),
        "{out:?}"
    );
}
