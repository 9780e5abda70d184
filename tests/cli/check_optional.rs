//! `pbem check` on the optional parts: `[git]` and `[site]` get a line
//! each when pbem.toml has them, and none when it does not.

use std::path::Path;
use std::process::{Command, Output};

fn pbem(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .current_dir(dir)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap()
}

/// The line `pbem check` printed for `what`.
fn line(o: &Output, what: &str) -> Option<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(what))
        .map(str::to_string)
}

#[test]
fn check_reports_git_and_site_only_when_configured() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(pbem(d, &["init"]).status.code(), Some(0));
    let o = pbem(d, &["check"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!((line(&o, "git"), line(&o, "site")), (None, None));

    // A remote nobody answers for: check names it, and never connects.
    let remote = "ssh://pbem-check.invalid/history.git";
    let config = std::fs::read_to_string(d.join("pbem.toml")).unwrap();
    std::fs::write(
        d.join("pbem.toml"),
        format!("{config}\n[git]\nremote = \"{remote}\"\n\n[site]\ndir = \"www/archive\"\n"),
    )
    .unwrap();
    let o = pbem(d, &["check"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}");
    let git = line(&o, "git").unwrap_or_else(|| panic!("no git line: {out}"));
    assert!(git.starts_with("OK    git "), "{out}");
    assert!(git.contains("git version") && git.contains(remote), "{out}");
    assert!(git.contains("makes the repository"), "{out}");
    // The folder is not there: its nearest folder that is, is written.
    let site = line(&o, "site").unwrap_or_else(|| panic!("no site line: {out}"));
    assert!(site.starts_with("OK    site "), "{out}");
    // Nothing was made or sent.
    assert!(!d.join("data/games/.git").exists() && !d.join("www").exists());

    // A repository git reads.
    let init = Command::new("git")
        .args(["init", "-q"])
        .arg(d.join("data/games"))
        .output()
        .unwrap();
    assert!(init.status.success());
    let o = pbem(d, &["check"]);
    let git = line(&o, "git").unwrap();
    assert!(
        git.starts_with("OK ") && git.contains("a repository git reads"),
        "{git}"
    );

    // A .git that leads nowhere, and a site "folder" that is a file.
    std::fs::remove_dir_all(d.join("data/games/.git")).unwrap();
    std::fs::write(d.join("data/games/.git"), "gitdir: /nonexistent/pbem\n").unwrap();
    std::fs::create_dir(d.join("www")).unwrap();
    std::fs::write(d.join("www/archive"), "not a folder").unwrap();
    let o = pbem(d, &["check"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{out}");
    let git = line(&o, "git").unwrap();
    assert!(
        git.starts_with("FAIL  git ") && git.contains("no repository"),
        "{out}"
    );
    let site = line(&o, "site").unwrap();
    assert!(
        site.starts_with("FAIL  site ") && site.contains("not a folder"),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("FAIL")).count(),
        2,
        "{out}"
    );
}
