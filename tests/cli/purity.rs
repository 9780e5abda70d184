//! The adjudicator decides; the poll does the I/O. No file under
//! `src/adjudicate/` may name the store, the file system, the clock, the
//! environment or a source of randomness: it reads through its `Facts`
//! port, takes the poll's time and draws keys and ids from the `Draw` it
//! is given, and hands its changes back as effects.
//!
//! Read from the code as text, comments and string literals blanked, a
//! name counting only as a whole word (`SecretsFile::` is not `File::`).

use std::fs;
use std::path::{Path, PathBuf};

/// What the adjudicator must not name.
const FORBIDDEN: &[&str] = &[
    "Store",
    "std::fs",
    "File::",
    "Utc::now",
    "SystemTime",
    "Instant::now",
    "getrandom",
    "rand::",
    "new_token",
    "new_game_id",
    "std::env",
];

/// `src` with comments, string and character literals blanked (newlines
/// kept, so line numbers stay).
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < b.len() {
        let rest = |k: usize| b.get(i + k).copied();
        if b[i] == '/' && rest(1) == Some('/') {
            while i < b.len() && b[i] != '\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if b[i] == '/' && rest(1) == Some('*') {
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                blank(&mut out, b[i]);
                i += 1;
            }
            out.push_str("  ");
            i += 2;
        } else if b[i] == 'r' && matches!(rest(1), Some('"') | Some('#')) && !word_before(&b, i) {
            // A raw string: r"..." or r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|c| **c == '#').count();
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            let start = i + 2 + hashes;
            let body: String = b[start.min(b.len())..].iter().collect();
            let end = body
                .find(&close)
                .map_or(b.len(), |e| start + body[..e].chars().count());
            for c in &b[i..(end + close.len()).min(b.len())] {
                blank(&mut out, *c);
            }
            i = end + close.len();
        } else if b[i] == '"' {
            blank(&mut out, b[i]);
            i += 1;
            while i < b.len() && b[i] != '"' {
                let step = if b[i] == '\\' { 2 } else { 1 };
                for c in &b[i..(i + step).min(b.len())] {
                    blank(&mut out, *c);
                }
                i += step;
            }
            out.push(' ');
            i += 1;
        } else if b[i] == '\'' && (rest(2) == Some('\'') || rest(1) == Some('\\')) {
            // A character literal ('x', '\n'), not a lifetime.
            let end = (i + 1..b.len())
                .find(|&j| b[j] == '\'' && j > i + 1)
                .unwrap_or(b.len());
            for c in &b[i..(end + 1).min(b.len())] {
                blank(&mut out, *c);
            }
            i = end + 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn word_before(b: &[char], i: usize) -> bool {
    i > 0 && is_word(b[i - 1])
}

/// Each forbidden name `code` holds as a whole word, with its line.
fn violations(code: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for name in FORBIDDEN {
            let whole = line.match_indices(name).any(|(at, _)| {
                let before = line[..at].chars().next_back().is_some_and(is_word);
                let after = line[at + name.len()..].chars().next().is_some_and(is_word);
                // A name ending in `::` ends its word itself.
                !before && (name.ends_with("::") || !after)
            });
            if whole {
                found.push((n + 1, *name));
            }
        }
    }
    found
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn the_adjudicator_names_no_store_file_clock_environment_or_randomness() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/adjudicate");
    let files = rust_files(&dir);
    assert!(
        files.len() > 10,
        "src/adjudicate holds {} files",
        files.len()
    );
    let mut bad = Vec::new();
    for f in &files {
        let code = code_only(&fs::read_to_string(f).unwrap());
        for (line, name) in violations(&code) {
            bad.push(format!("{}:{line}: names `{name}`", f.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "the adjudicator does I/O:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_purity_check_finds_each_forbidden_name_planted_in_code() {
    let planted = [
        "fn f(s: &Store) {}",
        "use crate::store::{self, Store};",
        "let t = std::fs::read_to_string(p);",
        "let f = File::open(p)?;",
        "let now = Utc::now();",
        "let t = SystemTime::now();",
        "let t = Instant::now();",
        "getrandom::fill(&mut b)?;",
        "let x = rand::random::<u64>();",
        "let k = store::new_token()?;",
        "let id = store::new_game_id(\"bz\")?;",
        "let v = std::env::var(\"X\");",
    ];
    for p in planted {
        let code = code_only(p);
        assert!(!violations(&code).is_empty(), "not caught: {p}");
    }
    assert_eq!(planted.len(), FORBIDDEN.len() + 1);
}

#[test]
fn the_purity_check_passes_over_comments_strings_and_longer_names() {
    let clean = [
        "/// Store failures: the mail stays unprocessed.",
        "// std::fs is the poll's",
        "let s = \"Utc::now\";",
        "let r = r#\"File::open\"#;",
        "let f = SecretsFile::new(&s, rules);",
        "fn f(e: StoreError) -> AdjudicateError { e.into() }",
        "let c = 'S'; fn g<'a>(x: &'a str) {}",
        "let operand = 1; brand::x();",
    ];
    for c in clean {
        let code = code_only(c);
        assert_eq!(violations(&code), vec![], "flagged: {c}");
    }
}
