//! The history against a real `git` in a temporary folder.

use super::*;
use std::process::Command;

fn history(dir: &Path, remote: Option<&Path>) -> History {
    let config = GitConfig {
        remote: remote.map(|r| r.display().to_string()),
        ..GitConfig::default()
    };
    History::new(&config, dir.to_path_buf(), "pbem", "Judge@Example.org").unwrap()
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("these tests need git: install it (apt-get install git)");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

const RECORD: &str = "format = 1\nrules = \"boom-and-zoom\"\nid = \"bz-1\"\nfirst = \"black\"\n\
    result = \"*\"\n\n[players]\nblack = \"Alice <alice@example.org>\"\n\
    red = \"Bob <bob@example.org>\"\n\n[play]\nmoves = \"\"\"\n\"\"\"\n";

fn with_move(text: &str, line: &str) -> String {
    text.replace("\"\"\"\n\"\"\"", &format!("\"\"\"\n{line}\n\"\"\""))
}

#[test]
fn each_call_commits_what_changed_and_only_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path();
    let h = history(games, None);
    let t0 = DateTime::parse_from_rfc3339("2026-11-25T06:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    // No record yet: a repository, its .gitignore committed.
    let (_, lines) = h.record(t0).unwrap().unwrap();
    assert_eq!(lines, [".gitignore: only the game records are kept here"]);
    assert_eq!(
        std::fs::read_to_string(games.join(".gitignore")).unwrap(),
        GITIGNORE
    );

    std::fs::write(games.join("bz-1.toml"), RECORD).unwrap();
    std::fs::write(games.join("notes.txt"), "secret").unwrap();
    std::fs::create_dir(games.join("sub")).unwrap();
    std::fs::write(games.join("sub/x.toml"), "secret").unwrap();
    let (_, lines) = h.record(t0).unwrap().unwrap();
    assert_eq!(lines, ["bz-1: new game, Alice vs Bob"]);
    let one = with_move(
        RECORD,
        "1.   black  6-13  2026-11-25T06:01:00Z  <m.1@example.org>",
    );
    std::fs::write(games.join("bz-1.toml"), &one).unwrap();
    // A file someone staged by hand stays out too.
    std::fs::write(games.join("staged.txt"), "by hand").unwrap();
    git(games, &["add", "-f", "staged.txt"]);
    let t1 = t0 + chrono::Duration::minutes(5);
    let (id, lines) = h.record(t1).unwrap().unwrap();
    assert_eq!(lines, ["bz-1: 1. black 6-13"]);
    assert_eq!(git(games, &["rev-parse", "HEAD"]).trim(), id);
    assert!(h.record(t1).unwrap().is_none(), "nothing new");

    let log = git(games, &["log", "--format=%an <%ae> %cn <%ce> %at %ct|%s"]);
    let stamp = |t: DateTime<Utc>| t.timestamp();
    assert_eq!(
        log.lines().collect::<Vec<_>>(),
        [
            format!(
                "pbem <judge@example.org> pbem <judge@example.org> {0} {0}|bz-1: 1. black 6-13",
                stamp(t1)
            ),
            format!(
                "pbem <judge@example.org> pbem <judge@example.org> {0} {0}|bz-1: new game, \
                 Alice vs Bob",
                stamp(t0)
            ),
            format!(
                "pbem <judge@example.org> pbem <judge@example.org> {0} {0}|.gitignore: only \
                 the game records are kept here",
                stamp(t0)
            ),
        ]
    );
    let files = git(games, &["ls-tree", "-r", "--name-only", "HEAD"]);
    assert_eq!(
        files.lines().collect::<Vec<_>>(),
        [".gitignore", "bz-1.toml"]
    );
}

#[test]
fn a_repository_left_half_way_is_taken_up() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path();
    let h = history(games, None);
    let now = DateTime::parse_from_rfc3339("2026-11-25T06:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    std::fs::write(games.join("bz-1.toml"), RECORD).unwrap();
    h.record(now).unwrap();
    // A git killed after its add, leaving its lock: an old lock is taken
    // as dead, the staged change committed with its message.
    let one = with_move(RECORD, "1.   black  6-13");
    std::fs::write(games.join("bz-1.toml"), &one).unwrap();
    git(games, &["add", "bz-1.toml"]);
    let lock = games.join(".git/index.lock");
    std::fs::write(&lock, "").unwrap();
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let (_, lines) = h.record(now).unwrap().unwrap();
    assert_eq!(lines, ["bz-1: 1. black 6-13"]);
    // A recent lock is waited for, then reported: tried again later.
    std::fs::write(&lock, "").unwrap();
    let e = h.record(now).unwrap_err();
    assert!(matches!(e, HistoryError::Busy(_)), "{e}");
    std::fs::remove_file(&lock).unwrap();
    assert!(h.record(now).unwrap().is_none());
}

#[test]
fn pushes_follow_the_commits_and_catch_up() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let bare = dir.path().join("history.git");
    let h = history(&games, Some(&bare));
    let now = DateTime::parse_from_rfc3339("2026-11-25T06:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let limit = git::Limit::local();
    assert_eq!(h.push(limit).unwrap(), Pushed::Nothing, "no repository yet");
    std::fs::write(games.join("bz-1.toml"), RECORD).unwrap();
    // No remote yet: the commit is made, the push fails.
    let (id, _) = h.record(now).unwrap().unwrap();
    assert!(matches!(h.push(limit), Err(HistoryError::Failed(..))));
    // The remote appears: the next push sends what waited.
    git(dir.path(), &["init", "-q", "--bare", "history.git"]);
    assert!(h.record(now).unwrap().is_none(), "no new commit");
    assert_eq!(h.push(limit).unwrap(), Pushed::Sent(id));
    assert_eq!(
        git(&bare, &["rev-parse", "main"]),
        git(&games, &["rev-parse", "HEAD"])
    );
    // Pushed already: not again.
    assert_eq!(h.push(limit).unwrap(), Pushed::Nothing);
}

#[test]
fn one_push_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    git(dir.path(), &["init", "-q", "--bare", "history.git"]);
    let h = history(&games, Some(&dir.path().join("history.git")));
    let now = DateTime::parse_from_rfc3339("2026-11-25T06:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    std::fs::write(games.join("bz-1.toml"), RECORD).unwrap();
    let (id, _) = h.record(now).unwrap().unwrap();
    // Another push holds the repository's push lock: this one waits for
    // its next try, and makes it once the lock is let go.
    let other = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(games.join(".git/pbem-push.lock"))
        .unwrap();
    other.lock().unwrap();
    assert_eq!(h.push(git::Limit::local()).unwrap(), Pushed::Busy);
    drop(other);
    assert_eq!(h.push(git::Limit::local()).unwrap(), Pushed::Sent(id));
}

/// Waits (at most 10 s: a killed process takes a moment to go) until no
/// process's command line holds `mark`; those left.
fn left_running(mark: &str) -> Vec<String> {
    let start = std::time::Instant::now();
    loop {
        let left = processes_with(mark);
        if left.is_empty() || start.elapsed() > std::time::Duration::from_secs(10) {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The processes whose command line holds `mark`.
fn processes_with(mark: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(mark) {
                found.push(format!("{}: {cmd}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// `git -c alias.x=!SCRIPT x` in `dir`, at most `time`: a git that runs
/// `script` through the shell, as git runs its helpers.
fn git_running(
    dir: &Path,
    script: &str,
    time: std::time::Duration,
) -> Result<String, HistoryError> {
    let alias = format!("alias.pbem-test=!{script}");
    let g = git::Git {
        dir: dir.to_path_buf(),
    };
    let limit = git::Limit { time, stop: None };
    g.run(&["-c", &alias, "pbem-test"], None, &[], limit)
        .map(|o| String::from_utf8_lossy(&o).into_owned())
}

#[test]
fn a_helper_left_holding_the_output_neither_stalls_nor_outlives_git() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    // git ends at once; the helper it left behind keeps its output open.
    let out = git_running(
        dir.path(),
        "sleep 41.25 & echo done",
        std::time::Duration::from_secs(60),
    )
    .unwrap();
    assert_eq!(out.trim(), "done");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "read without waiting for the helper: {:?}",
        start.elapsed()
    );
    assert_eq!(left_running("sleep 41.25"), Vec::<String>::new());
}

#[test]
fn a_git_past_its_time_is_killed_with_all_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let e = git_running(
        dir.path(),
        "sleep 42.5 & sleep 42.75",
        std::time::Duration::from_secs(1),
    )
    .unwrap_err();
    assert!(matches!(e, HistoryError::TimedOut(_, 1)), "{e}");
    assert!(e.to_string().contains("push_seconds"), "{e}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "stopped at its time: {:?}",
        start.elapsed()
    );
    assert_eq!(left_running("sleep 42."), Vec::<String>::new());
}

#[test]
fn no_git_is_said_plainly() {
    let e = HistoryError::NoGit("No such file or directory".into()).to_string();
    assert!(e.contains("install git"), "{e}");
}
