//! Kill sweeps: a `pbem poll` killed at every durable step
//! (`PBEM_CRASH_AT=N`, see `pbem::store::crashpoint`) from one prepared
//! state, each time from a fresh copy of it, the next poll run after each
//! kill, and what that leaves held against what the poll never killed
//! left. A sweep is over when a poll with `PBEM_CRASH_AT=N` runs through
//! without dying: it passed all N - 1 points.

use super::copy_tree;
use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output};

/// More kill points than any poll of these tests has: a sweep that
/// reaches it never ran through.
pub const MAX_POINTS: u64 = 400;

/// `pbem poll` on the pbem in `dir` (its `pbem.toml`) at `now`, killed at
/// its `crash_at`-th durable step when given.
pub fn poll(dir: &Path, now: &str, crash_at: Option<u64>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pbem"));
    c.args(["poll", "--config"])
        .arg(dir.join("pbem.toml"))
        .env("PBEM_NOW", now)
        .env_remove("PBEM_CONFIG")
        .env_remove("RUST_LOG")
        .env_remove(pbem::store::crashpoint::VAR);
    if let Some(n) = crash_at {
        c.env(pbem::store::crashpoint::VAR, n.to_string());
    }
    c.output().unwrap()
}

/// A poll that must run through without an error.
pub fn poll_ok(dir: &Path, now: &str, what: &str) {
    let out = poll(dir, now, None);
    assert!(
        out.status.success(),
        "{what}: pbem poll exited {}: {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Kills the poll at `now` of the pbem prepared in `from` at every
/// durable step, each from a fresh copy, and checks that the next poll
/// (and one more) leaves what the poll never killed left: `check` reads
/// (and checks on its own terms) what a poll left in a folder, `same`
/// holds one outcome against the other. How many points it swept.
pub fn sweep<T>(
    from: &Path,
    now: &str,
    name: &str,
    check: impl Fn(&Path, &str) -> T,
    same: impl Fn(&T, &T, &str),
) -> u64 {
    let reference = tempfile::tempdir().unwrap();
    copy_tree(from, reference.path());
    poll_ok(
        reference.path(),
        now,
        &format!("{name}: the poll never killed"),
    );
    let want = check(reference.path(), name);
    for n in 1..MAX_POINTS {
        let run = tempfile::tempdir().unwrap();
        copy_tree(from, run.path());
        let out = poll(run.path(), now, Some(n));
        if out.status.signal().is_none() {
            assert!(
                out.status.success(),
                "{name}: the poll through all {} points failed: {}",
                n - 1,
                String::from_utf8_lossy(&out.stderr)
            );
            let what = format!("{name}: no kill");
            same(&check(run.path(), &what), &want, &what);
            return n - 1;
        }
        assert_eq!(out.status.signal(), Some(9), "{name}: killed at {n}");
        let what = format!("{name}: the poll after a kill at step {n}");
        poll_ok(run.path(), now, &what);
        same(&check(run.path(), &what), &want, &what);
        // And no more: a poll after that changes nothing.
        let again = format!("{what}, polled again");
        poll_ok(run.path(), now, &again);
        same(&check(run.path(), &again), &want, &again);
    }
    panic!("{name}: the poll never ran through");
}

/// Every mail sent under the sink `sent`: each recipient's mails as
/// `words` reads them (say, the subject and first line), sorted.
pub fn mails(
    sent: &Path,
    words: impl Fn(&pbem::demo::Received) -> (String, String),
) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(sent) else {
        return out;
    };
    for e in entries.flatten() {
        let who = e.file_name().to_string_lossy().into_owned();
        let mut got: Vec<(String, String)> =
            super::received_by(sent, &who).iter().map(&words).collect();
        got.sort();
        out.insert(who, got);
    }
    out
}

/// What a poll left of game `id` in the pbem in `dir`, for a sweep to
/// hold against what the poll never killed left: its record, its file in
/// each of `folders` of the data folder (`None`: none), every mail sent
/// (subject and words), the keys committed.
#[derive(Debug, PartialEq)]
pub struct GameLeft {
    pub record: String,
    pub files: Vec<Option<String>>,
    pub mails: BTreeMap<String, Vec<(String, String)>>,
    pub keys: Vec<String>,
}

/// [`GameLeft`] of game `id` in the pbem in `dir`.
pub fn game_left(dir: &Path, id: &str, folders: &[&str]) -> GameLeft {
    let data = dir.join("data");
    let file = |folder: &str| std::fs::read_to_string(data.join(folder).join(format!("{id}.toml")));
    GameLeft {
        record: file("games").unwrap(),
        files: folders.iter().map(|f| file(f).ok()).collect(),
        mails: mails(&dir.join("mail/sent"), |r| {
            (
                r.subject.clone(),
                r.text.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        }),
        keys: super::committed_keys(&data),
    }
}
