//! The rules a player reads, where the server shows them: no help text
//! and no visible string names a rules file the repository does not hold, and
//! no line of the rules reads as a mail command. The rules texts
//! themselves are checked against the engine by the engine's tests
//! (`engine/tests/engine/rules_docs.rs`).

use pbem::rules::Rules;
use std::path::PathBuf;

/// Every file a user sees: the templates of mails, the rules texts, and
/// every string in the sources outside comments and tests.
#[test]
fn no_user_visible_text_names_rules_md() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    let mut seen = 0;
    let mut walk = vec![
        root.join("src"),
        root.join("templates"),
        root.join("engine/src"),
    ];
    while let Some(dir) = walk.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            seen += 1;
            let rust = path.extension().is_some_and(|e| e == "rs");
            // A source file's tests may name that file freely.
            let body = if rust {
                text.split("#[cfg(test)]").next().unwrap_or_default()
            } else {
                &text
            };
            for (n, line) in body.lines().enumerate() {
                let code = if rust {
                    let t = line.trim_start();
                    if t.starts_with("//") {
                        continue;
                    }
                    // A comment after code on the same line.
                    line.split(" // ").next().unwrap_or_default()
                } else {
                    line
                };
                if code.contains("RULES.md") {
                    offenders.push(format!("{}:{}: {line}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(seen > 50, "the walk found only {seen} files");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// `pbem --help` and every subcommand's help, the texts a user reads
/// before anything else.
#[test]
fn no_help_names_rules_md() {
    let subs = [
        "validate", "moves", "show", "rules", "check", "poll", "daemon", "new", "init",
    ];
    for args in std::iter::once(vec!["--help"]).chain(subs.iter().map(|s| vec![*s, "--help"])) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(&args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.trim().is_empty(), "{args:?} printed nothing");
        assert!(!text.contains("RULES.md"), "{args:?}: {text}");
    }
}

/// The `rules GAME` mail quotes the rules whole: no line of them may read
/// as a command when a player's reply quotes it, or pbem
/// would have to mark the line and the player would read `- ` before it.
#[test]
fn no_line_of_the_rules_reads_as_a_command() {
    let mut commands = Vec::new();
    for rules in Rules::ALL {
        for line in rules.rules_text().lines() {
            if pbem::mail::command::reads_as_command(line) {
                commands.push(format!("{rules}: {line:?}"));
            }
        }
    }
    assert!(commands.is_empty(), "{}", commands.join("\n"));
}
