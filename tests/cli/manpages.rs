//! `pbem manpage --dir DIR`: every page another page names is written.

use std::collections::BTreeSet;
use std::process::Command;

/// The `pbem...(1)` names a page refers to (roff writes `-` as `\-`).
fn references(page: &str) -> BTreeSet<String> {
    let text = page.replace("\\-", "-");
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("(1)") {
        let before = &text[..at];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .map_or(0, |i| i + 1);
        let name = &before[start..];
        if name == "pbem" || name.starts_with("pbem-") {
            found.insert(name.to_string());
        }
    }
    found
}

#[test]
fn manpage_writes_a_page_for_every_page_a_page_names_nested_ones_too() {
    let dir = tempfile::tempdir().unwrap();
    let man = dir.path().join("man1");
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["manpage", "--dir"])
        .arg(&man)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut pages = BTreeSet::new();
    let mut named = BTreeSet::new();
    for entry in std::fs::read_dir(&man).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for r in references(&text) {
            named.insert((r, name.clone()));
        }
        pages.insert(name);
    }
    // A nested command's page, and its parent's, are there.
    for page in [
        "pbem",
        "pbem-tournament",
        "pbem-tournament-new",
        "pbem-tournament-show",
    ] {
        assert!(pages.contains(page), "no {page}.1 in {pages:?}");
    }
    assert!(
        named.len() > pages.len(),
        "the pages name each other: {named:?}"
    );
    let missing: Vec<_> = named.iter().filter(|(r, _)| !pages.contains(r)).collect();
    assert!(
        missing.is_empty(),
        "named, with no page (name, in): {missing:?}"
    );
    // The synopsis reads as the command is typed.
    let new = std::fs::read_to_string(man.join("pbem-tournament-new.1")).unwrap();
    assert!(new.contains("\\fBpbem tournament new\\fR"), "{new}");
}
