//! The list of hot code that the linker places first
//! (`linker/hot-code.ld`, passed by `build.rs`, remade by
//! `scripts/hot-code`): every line a pattern the linker reads as meant,
//! and the list still naming functions the source has. A list gone stale
//! links all the same, only slower to start: this test says when to
//! remake it.

use super::layout::{code_only, functions, root, rust_files};
use std::collections::BTreeSet;
use std::fs;

/// The path of a symbol mangled the legacy way (`_ZN4pbem4main`, its hash
/// cut off): `["pbem", "main"]`; `None` when the text is not one.
fn path_of(mangled: &str) -> Option<Vec<&str>> {
    let mut rest = mangled.strip_prefix("_ZN")?;
    let mut path = Vec::new();
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let len: usize = rest[..digits].parse().ok()?;
        let ident = rest.get(digits..digits + len)?;
        let legal = |c: char| c.is_ascii_alphanumeric() || "_$.".contains(c);
        if len == 0 || !ident.chars().all(legal) {
            return None;
        }
        path.push(ident);
        rest = &rest[digits + len..];
    }
    (!path.is_empty()).then_some(path)
}

#[test]
fn the_hot_code_list_is_well_formed_and_names_functions_the_source_has() {
    let file = root().join("linker/hot-code.ld");
    let text = fs::read_to_string(&file).expect("linker/hot-code.ld (scripts/hot-code makes it)");
    assert!(
        text.trim_end().ends_with("INSERT AFTER .eh_frame;"),
        "linker/hot-code.ld must end with `INSERT AFTER .eh_frame;`: without it \
         the linker takes the file for the whole layout of the program"
    );
    // The functions with a body in pbem's code (not in its comments).
    let ours: BTreeSet<String> = ["src", "engine/src", "league/src"]
        .iter()
        .flat_map(|dir| rust_files(&root().join(dir)))
        .flat_map(|p| functions(&code_only(&fs::read_to_string(p).unwrap_or_default())))
        .map(|(_, name, _)| name)
        .collect();
    let mut seen = BTreeSet::new();
    let (mut checked, mut missing) = (0, Vec::new());
    for (n, line) in text.lines().enumerate() {
        let Some(pattern) = line.trim().strip_prefix("*(.text.") else {
            continue;
        };
        let mangled = pattern.strip_suffix("17h*)").unwrap_or_else(|| {
            panic!(
                "linker/hot-code.ld line {}: {line:?} does not end in `17h*)` \
                 (the hash a symbol ends with, left to the pattern)",
                n + 1
            )
        });
        let path = path_of(mangled).unwrap_or_else(|| {
            panic!(
                "linker/hot-code.ld line {}: {mangled:?} is no mangled Rust path",
                n + 1
            )
        });
        assert!(
            seen.insert(mangled),
            "linker/hot-code.ld line {}: {mangled:?} twice",
            n + 1
        );
        let last = path[path.len() - 1];
        let own = ["pbem", "pbem_engine", "pbem_league"].contains(&path[0]);
        if own && !last.starts_with('_') && !last.contains('$') {
            checked += 1;
            if !ours.contains(last) {
                missing.push(path.join("::"));
            }
        }
    }
    assert!(
        checked >= 100,
        "linker/hot-code.ld names only {checked} of pbem's own functions: \
         rerun scripts/hot-code"
    );
    assert!(
        missing.len() * 10 <= checked,
        "{} of the {checked} pbem functions named in linker/hot-code.ld are no \
         longer in the source (such as {:?}): rerun scripts/hot-code",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
}

#[test]
fn a_mangled_path_is_read_by_its_lengths() {
    assert_eq!(path_of("_ZN4pbem4main"), Some(vec!["pbem", "main"]));
    assert_eq!(
        path_of("_ZN4core3ptr85drop_in_place$LT$x$GT$"),
        None,
        "a length past the end"
    );
    assert_eq!(path_of("_ZN4pbem"), Some(vec!["pbem"]));
    assert_eq!(path_of("_ZN4pb"), None);
    assert_eq!(path_of("_ZN0"), None);
    assert_eq!(path_of("ZN4pbem"), None);
    assert_eq!(path_of("_ZN4pb(m"), None);
}
