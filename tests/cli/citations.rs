//! The repository stands on its own: every file a comment or a document
//! names is in it, every link of the book, the README and
//! ARCHITECTURE.md resolves (files and `#anchors`; web links are not
//! fetched), no citation points at a document the repository does not
//! hold or at a tracker's number, and the book's settings page is what
//! `pbem init` writes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Folders that hold no project text: builds, fuzzing's own output.
const SKIPPED: &[&str] = &[
    "target",
    ".git",
    "fuzz/target",
    "fuzz/corpus",
    "fuzz/artifacts",
    "node_modules",
];

/// The project's text files: code, documents, scripts, templates.
fn text_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = rel(&path);
            if SKIPPED.iter().any(|s| rel == *s) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            let script = rel.starts_with("scripts/") && ext.is_empty();
            if script || ["rs", "md", "toml", "txt", "html", "sh"].contains(&ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The lines of `path` that are prose: comments in code, every line of
/// a document.
fn prose_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let code = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("rs" | "toml" | "sh")
    ) || rel(path).starts_with("scripts/");
    text.lines()
        .enumerate()
        .filter_map(|(n, line)| {
            if !code {
                return Some((n + 1, line.to_string()));
            }
            let at = line.find("//").or_else(|| line.find("# "))?;
            Some((n + 1, line[at..].to_string()))
        })
        .collect()
}

/// The word "issue" followed by a number (a space, `s`, `_`, `-` or `#`
/// between): a tracker's number.
fn names_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.match_indices("issue").any(|(at, _)| {
        let rest = lower[at + 5..].trim_start_matches('s');
        let rest = rest.strip_prefix([' ', '_', '-', '#']).unwrap_or(rest);
        rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

#[test]
fn no_citation_names_a_missing_document_or_a_trackers_number() {
    // Spelt in pieces so that this file does not name them itself.
    let missing: Vec<String> = ["RULES", "RECORD", "STYLE"]
        .iter()
        .map(|n| format!("{n}.md"))
        .chain([format!("../{}", "shared")])
        .collect();
    let mut offenders = Vec::new();
    for path in text_files() {
        let name = rel(&path);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            // The rules test looks for that name in what players see.
            let checked_for = name == "tests/cli/rules_docs.rs" && line.contains("(\"RULES");
            if !checked_for && missing.iter().any(|m| line.contains(m.as_str())) {
                offenders.push(format!("{name}:{}: {line}", n + 1));
            }
            // A number may wrap onto the next line of a comment.
            let next = lines.get(n + 1).map_or("", |l| {
                l.trim_start()
                    .trim_start_matches(['/', '!', '#', '*'])
                    .trim_start()
            });
            if names_an_issue(&format!("{line} {next}")) {
                offenders.push(format!("{name}:{}: {line}", n + 1));
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// The file paths a line names: tokens under the project's top folders,
/// or ending in `.md`; placeholders (`<game>`, `*`) are not paths.
fn named_paths(line: &str) -> Vec<String> {
    const TOPS: &[&str] = &[
        "docs/",
        "src/",
        "tests/",
        "engine/",
        "league/",
        "templates/",
        "scripts/",
        "benches/",
    ];
    line.split(|c: char| c.is_whitespace() || "`'\"()[],;|".contains(c))
        .map(|t| t.trim_end_matches([':', '.', ')']))
        .filter(|t| {
            TOPS.iter().any(|top| t.starts_with(top)) || (t.len() > 3 && t.ends_with(".md"))
        })
        .filter(|t| !t.contains(['<', '>', '*', '{', '}', '$', '=', '%']) && !t.contains("::"))
        .filter(|t| t.contains('.') && !t.contains("://"))
        .map(str::to_string)
        .collect()
}

/// Whether `name`, named in `from`, is a file: from the root, from the
/// naming file's folder, or from its crate's root.
fn exists(from: &Path, name: &str) -> bool {
    let name = name.split('#').next().unwrap_or(name);
    let name = name.split(':').next().unwrap_or(name);
    let dir = from.parent().unwrap();
    let krate = ["engine", "league", "fuzz"]
        .iter()
        .map(|c| root().join(c))
        .find(|c| from.starts_with(c));
    root().join(name).exists()
        || dir.join(name).exists()
        || krate.is_some_and(|k| k.join(name).exists())
}

#[test]
fn every_file_a_comment_or_document_names_exists() {
    let mut offenders = Vec::new();
    for path in text_files() {
        let name = rel(&path);
        if name.starts_with("tests/data/") || name.starts_with("tests/badmail/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (n, line) in prose_lines(&path, &text) {
            for p in named_paths(&line) {
                if !exists(&path, &p) {
                    offenders.push(format!("{name}:{n}: {p}"));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

/// The markdown documents whose links must resolve.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    docs.extend(
        text_files()
            .into_iter()
            .filter(|p| rel(p).starts_with("docs/src/") && rel(p).ends_with(".md")),
    );
    docs
}

/// The anchor a heading gets (mdBook's and GitHub's rule): lower case,
/// letters, digits, `-` and `_` kept, spaces become `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file, its included files' headings too.
fn anchors(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if let Some(inc) = include_of(line) {
            out.extend(anchors(&path.parent().unwrap().join(inc)));
        } else if !fenced && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

fn include_of(line: &str) -> Option<&str> {
    let inner = line
        .trim()
        .strip_prefix("{{#include ")?
        .strip_suffix("}}")?;
    Some(inner.split(':').next().unwrap_or(inner).trim())
}

/// The targets of a document's links and includes, outside code.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(inc) = include_of(line) {
            out.push((n + 1, inc.to_string()));
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            let end = tail.find(')').unwrap_or(tail.len());
            out.push((n + 1, tail[..end].to_string()));
            rest = &tail[end..];
        }
    }
    out
}

#[test]
fn every_link_of_the_book_readme_and_architecture_resolves() {
    let mut offenders = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (n, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, frag) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            let bad = if !dest.exists() {
                Some("no such file")
            } else if !frag.is_empty() && !anchors(&dest).contains(frag) {
                Some("no such heading")
            } else {
                None
            };
            if let Some(why) = bad {
                offenders.push(format!("{}:{n}: {target}: {why}", rel(&doc)));
            }
        }
    }
    assert!(checked > 50, "only {checked} links found");
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
}

#[test]
fn every_book_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    for page in documents() {
        let name = rel(&page);
        if let Some(page) = name.strip_prefix("docs/src/")
            && page != "SUMMARY.md"
        {
            assert!(listed.contains(page), "docs/src/SUMMARY.md lists no {page}");
        }
    }
}

#[test]
fn the_books_settings_page_is_what_pbem_init_writes() {
    let page = std::fs::read_to_string(root().join("docs/src/admin/settings.md")).unwrap();
    assert!(
        page.contains(&format!("```toml\n{}```", pbem::config::INIT)),
        "docs/src/admin/settings.md: the settings differ from `pbem init`'s"
    );
}
