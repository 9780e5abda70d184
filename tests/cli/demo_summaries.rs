//! `pbem demo`'s one line per mail: whole sentences of the mail's first
//! paragraph, never a line cut where the mail's text wraps.

use std::process::Command;

/// The summaries `pbem demo --full` printed, each with the first
/// paragraph of its mail (the `| ` lines after it), unwrapped, and that
/// paragraph's first line.
fn summaries(game: &str) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["demo", "--full", "--game", game, "--dir"])
        .arg(dir.path().join("demo"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}");
    let mut found: Vec<(String, Vec<String>, bool)> = Vec::new();
    for l in out.lines() {
        if let Some((_, s)) = l
            .split_once("pbem -> ")
            .and_then(|(_, r)| r.split_once(": "))
        {
            found.push((s.to_string(), Vec::new(), true));
        } else if let (Some(body), Some(last)) = (l.strip_prefix("      | "), found.last_mut()) {
            if body.trim().is_empty() {
                last.2 = false;
            } else if last.2 {
                last.1.push(body.trim().to_string());
            }
        }
    }
    found
        .into_iter()
        .map(|(s, p, _)| (s, p.join(" "), p.first().cloned().unwrap_or_default()))
        .collect()
}

#[test]
fn demo_summaries_end_at_a_sentence_end() {
    for game in ["dragons-teeth", "embed"] {
        let all = summaries(game);
        assert!(all.len() > 10, "{game}: {all:?}");
        for (summary, para, _) in &all {
            assert!(summary.ends_with(['.', '!', '?']), "{game}: {summary:?}");
            assert!(
                para.starts_with(summary.as_str()),
                "{game}: {summary:?} of {para:?}"
            );
            let next = para[summary.len()..].chars().next();
            assert!(next.is_none_or(char::is_whitespace), "{game}: {summary:?}");
        }
        // The case at stake is there: mails whose first line, as wrapped,
        // stops mid-sentence.
        assert!(
            all.iter()
                .any(|(_, _, line)| !line.ends_with(['.', '!', '?'])),
            "{game}: {all:?}"
        );
    }
}
