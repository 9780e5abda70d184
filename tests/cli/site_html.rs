//! The web archive's pages validate as HTML: every kind of
//! page (index, game and a game's next page, lists by game and by
//! player, rules, tournament, ratings) checked by the W3C's Nu HTML
//! checker (`vnu.jar`, which `scripts/test` installs and names in
//! `PBEM_VNU_JAR`).

use crate::common;
use std::path::PathBuf;
use std::process::Command;

/// The checker `PBEM_VNU_JAR` names; panics when it is missing: the test
/// asking for it was run on purpose.
fn vnu() -> PathBuf {
    match std::env::var_os("PBEM_VNU_JAR").map(PathBuf::from) {
        Some(j) if j.is_file() => j,
        j => panic!(
            "the HTML checker is missing (PBEM_VNU_JAR is {j:?}): run scripts/test, \
             which installs vnu.jar and sets PBEM_VNU_JAR"
        ),
    }
}

#[test]
#[ignore = "needs the Nu HTML checker (PBEM_VNU_JAR, installed by scripts/test)"]
fn every_kind_of_page_is_valid_html() {
    let jar = vnu();
    let dir = tempfile::tempdir().unwrap();
    let setup = dir.path().join("demo");
    common::pbem_ok(&["demo", "--dir", setup.to_str().unwrap(), "--game", "mad"]);
    let config = setup.join("pbem.toml");
    let config = config.to_str().unwrap();
    common::new_cup(config);
    let www = dir.path().join("www");
    common::pbem_ok(&["site", www.to_str().unwrap(), "--config", config]);
    let pages: Vec<PathBuf> = common::files(&www)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    for kind in [
        "games/",
        // The demo's game is longer than a page: its second page.
        "_2.html",
        "by-game/",
        "players/",
        "rules/",
        "tournaments/",
        "ratings/",
        "index",
    ] {
        assert!(
            pages.iter().any(|p| p.to_string_lossy().contains(kind)),
            "a page of {kind}"
        );
    }
    // A finished game's pages with the bot's analysis: its graph (SVG in
    // the page) and the marks of the moves.
    let analysed = common::analyse_finished(&setup.join("data"), 500);
    assert!(!analysed.is_empty(), "a finished game");
    common::pbem_ok(&["site", www.to_str().unwrap(), "--config", config]);
    assert!(
        pages.iter().any(|p| std::fs::read_to_string(p)
            .unwrap()
            .contains("<figure class=\"graph\">")),
        "a page with the analysis"
    );
    let (ok, said) = check(&jar, &pages);
    assert!(
        ok && said.contains("No errors found"),
        "{} pages: {said}",
        pages.len()
    );
    // The checker finds what is wrong: a page with a stray tag fails.
    let bad = dir.path().join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><html lang=\"en\"><head><title>x</title></head><body><p></div></body></html>",
    )
    .unwrap();
    let (ok, said) = check(&jar, &[bad]);
    assert!(!ok && said.contains("Error: Stray end tag"), "{said}");
}

/// Runs the checker on `pages`: whether it found no error, and what it
/// said.
fn check(jar: &std::path::Path, pages: &[PathBuf]) -> (bool, String) {
    let out = Command::new("java")
        .arg("-jar")
        .arg(jar)
        .args(["--errors-only", "--format", "text"])
        .args(pages)
        .output()
        .expect("java runs vnu.jar (scripts/test installs Java)");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}
