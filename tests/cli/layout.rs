//! The house rules of the code: no module imports another that
//! imports it back, directly or through others; no source file over 800
//! lines; no function over 100 lines; no `unsafe`; the engine crate
//! depends on nothing that does I/O.
//!
//! Read from the code as text, like a reader of the `use` lines would:
//! every `crate::a::b` path (in `use` lines, groups and code) is an arrow
//! from the file that writes it to the deepest module file it names, and
//! `super::` paths likewise. A module and the modules inside it are one
//! room (a child that uses its parent's items, or a parent its child's, is
//! no circle); every other arrow counts. `cargo test --test cli layout:: --
//! --nocapture` prints the layers it found, bottom up.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 100;

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted.
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a Rust file with comments, strings and character literals
/// blanked (newlines kept, so line numbers stay).
pub(super) fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) && raw_start(b, i) {
            let mut j = i + 1;
            let mut hashes = 0;
            while b[j] == b'#' {
                hashes += 1;
                j += 1;
            }
            // b[j] == '"'
            let mut end = j + 1;
            while end < b.len() {
                if b[end] == b'"'
                    && b[end + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    end += 1 + hashes;
                    break;
                }
                end += 1;
            }
            for &x in &b[i..end.min(b.len())] {
                blank(&mut out, x);
            }
            i = end;
        } else if c == b'"' {
            blank(&mut out, c);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            if i < b.len() {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'\'' && is_char_literal(b, i) {
            let end = char_literal_end(b, i);
            for &x in &b[i..end] {
                blank(&mut out, x);
            }
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `r"` or `r#"` that starts a raw string (not the end of an identifier).
fn raw_start(b: &[u8], i: usize) -> bool {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
        return false;
    }
    let mut j = i + 1;
    while j < b.len() && b[j] == b'#' {
        j += 1;
    }
    b.get(j) == Some(&b'"')
}

/// A `'` that opens a character literal, not a lifetime or label.
fn is_char_literal(b: &[u8], i: usize) -> bool {
    match b.get(i + 1) {
        Some(b'\\') => true,
        Some(_) => {
            // 'x' (one char, maybe multi-byte): a quote follows it.
            let mut j = i + 2;
            while j < b.len() && (b[j] & 0xC0) == 0x80 {
                j += 1;
            }
            b.get(j) == Some(&b'\'')
        }
        None => false,
    }
}

fn char_literal_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    if b[j] == b'\\' {
        j += 2;
    } else {
        j += 1;
    }
    while j < b.len() && b[j] != b'\'' {
        j += 1;
    }
    (j + 1).min(b.len())
}

/// One crate's modules: the module path of each file (`["poll", "limit"]`).
struct Crate {
    name: &'static str,
    src: PathBuf,
    files: BTreeMap<Vec<String>, PathBuf>,
}

impl Crate {
    fn read(name: &'static str, src: PathBuf) -> Crate {
        let mut files = BTreeMap::new();
        for f in rust_files(&src) {
            let rel = f.strip_prefix(&src).unwrap();
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            let last = parts.pop().unwrap();
            let stem = last.trim_end_matches(".rs");
            if parts.is_empty() && (stem == "lib" || stem == "main") {
                if stem == "lib" {
                    files.insert(Vec::new(), f);
                }
                continue;
            }
            if stem != "mod" {
                parts.push(stem.to_string());
            }
            if parts.first().is_some_and(|p| p == "bin") {
                continue;
            }
            files.insert(parts, f);
        }
        Crate { name, src, files }
    }

    /// The deepest module file that `path` names.
    fn module_of(&self, path: &[String]) -> Vec<String> {
        let mut m = path.to_vec();
        while !m.is_empty() && !self.files.contains_key(&m) {
            m.pop();
        }
        m
    }

    /// The arrows from each module to the modules its code names.
    fn arrows(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut out = BTreeMap::new();
        for (module, file) in &self.files {
            let code = code_only(&fs::read_to_string(file).unwrap());
            let mut to = BTreeSet::new();
            for path in paths_in(&code) {
                let full = match path.first().map(String::as_str) {
                    Some("crate") | Some("$crate") => path[1..].to_vec(),
                    Some("super") => {
                        let mut base = module.clone();
                        let mut rest = &path[..];
                        while rest.first().is_some_and(|p| p == "super") {
                            base.pop();
                            rest = &rest[1..];
                        }
                        base.extend(rest.iter().cloned());
                        base
                    }
                    _ => continue,
                };
                let target = self.module_of(&full);
                let related = target.starts_with(module) || module.starts_with(&target);
                if !related {
                    to.insert(target);
                }
            }
            out.insert(module.clone(), to);
        }
        out
    }
}

/// Every path that starts with `crate::`, `$crate::` or `super::`, with
/// `use` groups (`crate::a::{b, c::d}`) expanded.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = ["$crate::", "crate::", "super::"]
            .iter()
            .find(|s| code[i..].starts_with(**s))
            .filter(|_| {
                i == 0
                    || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':')
            });
        match starts {
            Some(_) => {
                let (paths, end) = read_path(code, i, Vec::new());
                out.extend(paths);
                i = end.max(i + 1);
            }
            None => i += 1,
        }
    }
    out
}

/// Reads a path (with groups) at `i`, prefixed by `prefix`.
fn read_path(code: &str, mut i: usize, mut prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let b = code.as_bytes();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'{' {
            let mut all = Vec::new();
            i += 1;
            loop {
                while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
                    i += 1;
                }
                if i >= b.len() || b[i] == b'}' {
                    return (all, i + 1);
                }
                let (paths, end) = read_path(code, i, prefix.clone());
                all.extend(paths);
                if end <= i {
                    return (all, i + 1);
                }
                i = end;
            }
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
            i += 1;
        }
        if i == start {
            return (vec![prefix], i);
        }
        prefix.push(code[start..i].to_string());
        if code[i..].starts_with("::") {
            i += 2;
        } else {
            // ` as x`, `;`, `,`, `}` or the end of an expression path.
            return (vec![prefix], i);
        }
    }
}

/// The strongly connected groups of more than one module (Tarjan).
fn circles(arrows: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct T<'a> {
        arrows: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Vec<String>) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        let arrows = t.arrows;
        for w in arrows.get(v).into_iter().flatten() {
            let Some((w, _)) = arrows.get_key_value(w) else {
                continue;
            };
            if !t.index.contains_key(w) {
                visit(t, w);
                let low = t.low[v].min(t.low[w]);
                t.low.insert(v, low);
            } else if t.on.contains(w) {
                let low = t.low[v].min(t.index[w]);
                t.low.insert(v, low);
            }
        }
        if t.low[v] == t.index[v] {
            let mut group = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                t.out.push(group);
            }
        }
    }
    let mut t = T {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in arrows.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

/// The crates of the workspace: the server (`src/`), the engine and the
/// league (series, tournaments, ratings).
fn crates() -> Vec<Crate> {
    let mut out = vec![Crate::read("pbem", root().join("src"))];
    for (name, dir) in [("pbem-engine", "engine/src"), ("pbem-league", "league/src")] {
        let dir = root().join(dir);
        if dir.is_dir() {
            out.push(Crate::read(name, dir));
        }
    }
    out
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "(root)".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut found = Vec::new();
    for krate in crates() {
        let arrows = krate.arrows();
        for group in circles(&arrows) {
            let mut ties = Vec::new();
            for a in &group {
                for b in &arrows[a] {
                    if group.contains(b) {
                        ties.push(format!("{} -> {}", name(a), name(b)));
                    }
                }
            }
            found.push(format!("{}: {}", krate.name, ties.join(", ")));
        }
        // The layers, bottom up: each module after everything it imports.
        let mut placed: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        let mut left: Vec<_> = arrows.keys().cloned().collect();
        while !left.is_empty() {
            let before = left.len();
            left.retain(|m| {
                let deps: Vec<_> = arrows[m]
                    .iter()
                    .filter(|d| arrows.contains_key(*d))
                    .collect();
                if deps.iter().all(|d| placed.contains_key(*d)) {
                    let floor = deps.iter().map(|d| placed[*d] + 1).max().unwrap_or(0);
                    placed.insert(m.clone(), floor);
                    false
                } else {
                    true
                }
            });
            if left.len() == before {
                break;
            }
        }
        let mut floors: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (m, f) in &placed {
            floors.entry(*f).or_default().push(name(m));
        }
        println!("{} ({}):", krate.name, krate.src.display());
        for (f, ms) in floors {
            println!("  layer {f}: {}", ms.join(", "));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The source files the size rules hold for.
fn sources() -> Vec<PathBuf> {
    let r = root();
    [
        "src",
        "engine/src",
        "engine/tests",
        "engine/benches",
        "league/src",
        "tests",
        "benches",
    ]
    .iter()
    .flat_map(|d| rust_files(&r.join(d)))
    .collect()
}

#[test]
fn no_file_is_over_800_lines() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter_map(|f| {
            let n = fs::read_to_string(&f).unwrap().lines().count();
            (n > MAX_FILE_LINES)
                .then(|| format!("{}: {n} lines", f.strip_prefix(root()).unwrap().display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// `(line, name, lines)` of every function in `code` (comments and
/// strings blanked): from its `fn` line to the line of its closing brace.
pub(super) fn functions(code: &str) -> Vec<(usize, String, usize)> {
    let b = code.as_bytes();
    let line_at = |i: usize| code[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("fn ") {
        let s = i + at;
        i = s + 3;
        if s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_') {
            continue;
        }
        let name: String = code[s + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body opens at the first `{` before any `;` (a declaration).
        let mut j = s;
        let mut depth_paren = 0i32;
        while j < b.len() {
            match b[j] {
                b'(' | b'[' | b'<' => depth_paren += 1,
                b')' | b']' | b'>' => depth_paren -= 1,
                b';' if depth_paren <= 0 => break,
                b'{' if depth_paren <= 0 => break,
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() || b[j] != b'{' {
            continue;
        }
        let mut depth = 0;
        let mut k = j;
        while k < b.len() {
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let (first, last) = (line_at(s), line_at(k.min(b.len() - 1)));
        out.push((first, name, last - first + 1));
    }
    out
}

#[test]
fn no_function_is_over_100_lines() {
    let mut long = Vec::new();
    for f in sources() {
        let code = code_only(&fs::read_to_string(&f).unwrap());
        for (line, name, n) in functions(&code) {
            if n > MAX_FN_LINES {
                long.push(format!(
                    "{}:{line}: fn {name}: {n} lines",
                    f.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn no_unsafe_code() {
    let mut found = Vec::new();
    for f in sources() {
        let code = code_only(&fs::read_to_string(&f).unwrap());
        for (n, line) in code.lines().enumerate() {
            if line
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "unsafe")
            {
                found.push(format!(
                    "{}:{}",
                    f.strip_prefix(root()).unwrap().display(),
                    n + 1
                ));
            }
        }
    }
    assert!(found.is_empty(), "unsafe code at:\n{}", found.join("\n"));
    let lib = fs::read_to_string(root().join("src/lib.rs")).unwrap();
    assert!(
        lib.contains("#![forbid(unsafe_code)]"),
        "src/lib.rs must forbid unsafe code"
    );
}

#[test]
fn the_engine_and_the_league_depend_on_no_io_crate() {
    for krate in ["engine", "league"] {
        no_io_crate(krate);
    }
}

/// The crate in folder `krate` has no I/O crate among its dependencies
/// and takes the workspace lints.
fn no_io_crate(krate: &str) {
    let manifest = fs::read_to_string(root().join(krate).join("Cargo.toml")).unwrap();
    let deps: Vec<&str> = manifest
        .split("\n[")
        .filter(|s| s.starts_with("dependencies]"))
        .flat_map(|s| s.lines().skip(1))
        .filter_map(|l| l.split('=').next())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        !deps.is_empty(),
        "no [dependencies] read from {krate}/Cargo.toml"
    );
    let io = [
        "lettre",
        "imap",
        "rustls",
        "minijinja",
        "mail-parser",
        "libc",
        "rustix",
        "tempfile",
        "inotify",
        "signal-hook",
        "ring",
        "getrandom",
        "webpki-roots",
        "env_logger",
        "clap",
    ];
    let bad: Vec<_> = deps.iter().filter(|d| io.contains(d)).collect();
    assert!(bad.is_empty(), "{krate} depends on I/O crates: {bad:?}");
    assert!(
        manifest.contains("workspace = true") || manifest.contains("unsafe_code"),
        "{krate} must take the workspace lints (unsafe forbidden)"
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    // A circle, a long function and an unsafe block in made-up code: the
    // readers above must find each (so that a clean result means clean).
    let code = code_only(
        "use crate::{a::b, c::{d, e::f}};\nfn x() { let s = \"crate::z\"; super::y::g(); }\n",
    );
    let paths = paths_in(&code);
    assert_eq!(
        paths,
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "c", "d"],
            vec!["crate", "c", "e", "f"],
            vec!["super", "y", "g"],
        ]
        .into_iter()
        .map(|p| p.into_iter().map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>()
    );
    let mut arrows = BTreeMap::new();
    let m = |s: &str| vec![s.to_string()];
    arrows.insert(m("a"), BTreeSet::from([m("b")]));
    arrows.insert(m("b"), BTreeSet::from([m("c")]));
    arrows.insert(m("c"), BTreeSet::from([m("a")]));
    arrows.insert(m("d"), BTreeSet::from([m("a")]));
    assert_eq!(circles(&arrows), vec![vec![m("a"), m("b"), m("c")]]);
    let long = format!(
        "fn long() {{\n{}}}\nfn short() {{ }}\n",
        "    x();\n".repeat(120)
    );
    let fns = functions(&code_only(&long));
    assert_eq!(fns, vec![(1, "long".into(), 122), (123, "short".into(), 1)]);
    let text =
        "// unsafe in a comment\nlet s = \"unsafe\"; let c = '{';\nfn f<'a>(x: &'a str) { }\n";
    assert!(!code_only(text).contains("unsafe"));
    assert_eq!(functions(&code_only(text)).len(), 1);
}
