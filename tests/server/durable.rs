//! What a poll makes durable, seen from outside: `pbem poll` (and `pbem
//! deliver`) run under `strace -f -y`, and every call that made, wrote,
//! moved, removed or synced something in the data folder is audited
//! ([`Audit`]):
//!
//! - no sync of more than pbem's own files (`syncfs`, `sync`): a sync
//!   of the file system waits for whatever other programs have yet to
//!   write;
//! - a file is synced after it is written and before it is renamed into
//!   place (a crash leaves the old file or the new one, never an empty
//!   one), and a folder a file was made in only after that file;
//! - before a removal that is part of the data (a challenge, once its
//!   game is made), every file written and every folder that gained an
//!   entry is synced (what replaces the file is durable first);
//! - before a key is appended to `processed/` (the commit point of a
//!   mail), everything written before it is synced, files and folders;
//! - when the run ends, every file written is synced, and every folder
//!   whose entries changed was synced after its last change.
//!
//! Left unsynced by design, and so passed over: the removals of what is
//! no longer needed, which a crash may bring back and whose next reader
//! knows it for stale (replaced deadline markers and empty day folders in
//! `due/`, stale temporaries in `tmp/`, sent batches in `outbox/ready/`,
//! news gathered into a digest in `outbox/digest/`), the flush's notes
//! of what it sent (`outbox/ready/*/sent`: a crash between a send and its
//! note sends that reply again, which no order of the two avoids), and
//! the lines appended to an index (each vouches for its file only while
//! the file has the stamp it gives: one lost costs a reading again), and
//! the release of a batch's folder from `outbox/staging/` to
//! `outbox/ready/` (one lost leaves the folder committed where it was, and
//! recovery releases it again).
//!
//! The tests need `strace`: they are `#[ignore = "needs strace"]`, and
//! `scripts/test` installs it and runs them with `--include-ignored`; a
//! test that runs has been asked for, so a missing strace fails it.

use crate::common;

use common::club::Club;
use pbem::demo::example_moves;
use pbem::record::Entry;
use pbem::rules::Rules;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod trace;
use trace::Call;

/// The strace binary; panics when it is missing: the test asking for it
/// was run on purpose.
fn strace() -> &'static str {
    let found = Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "the durability tests need strace, and `strace` is missing: install Debian's strace \
         (`apt-get install -y strace`, as scripts/test does)"
    );
    "strace"
}

/// Runs `pbem ARGS` of `club` at its clock under strace, `stdin` on its
/// standard input; the calls it made. The run must succeed.
fn traced(club: &Club, args: &[&str], stdin: Option<&[u8]>) -> Vec<Call> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("trace");
    let mut child = Command::new(strace())
        .args(["-f", "-y", "-qq", "-s", "0", "-e"])
        .arg(format!("trace={}", trace::CALLS))
        .arg("-o")
        .arg(&out)
        .arg(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .arg("--config")
        .arg(&club.pbem.config_path)
        .env("PBEM_NOW", club.now())
        .env_remove("PBEM_CONFIG")
        .env_remove("RUST_LOG")
        .env_remove(pbem::store::crashpoint::VAR)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    let done = child.wait_with_output().unwrap();
    assert!(
        done.status.success(),
        "pbem {args:?} under strace: {}{}",
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr)
    );
    trace::read(&std::fs::read_to_string(&out).unwrap())
}

/// Every file and folder under `dir`, at any depth.
fn tree(dir: &Path, out: &mut HashSet<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        out.insert(e.path());
        if e.file_type().unwrap().is_dir() {
            tree(&e.path(), out);
        }
    }
}

/// The changes to a folder's entries not synced yet.
#[derive(Debug, Default)]
struct Unsynced {
    /// A file or folder made in it or renamed into it.
    added: bool,
    /// One removed or renamed out of it (not one of the removals left
    /// unsynced by design).
    removed: bool,
}

/// The audit of one run's calls (see the module's comment).
struct Audit {
    data: PathBuf,
    /// The data folder's path as pbem names it (its settings' path).
    named: PathBuf,
    exists: HashSet<PathBuf>,
    /// Files written and not synced since, with the call that wrote them
    /// last.
    dirty: BTreeMap<PathBuf, usize>,
    /// Files made and not synced since: their folder's sync must wait
    /// for them.
    new: HashSet<PathBuf>,
    folders: BTreeMap<PathBuf, Unsynced>,
    faults: Vec<String>,
    /// What the run did: files written, renames, removals, keys
    /// committed, syncs.
    written: HashSet<PathBuf>,
    renames: usize,
    removals: usize,
    commits: usize,
    syncs: usize,
}

impl Audit {
    /// An audit of the data folder `data` as it is before the run.
    fn of(data: &Path) -> Audit {
        let real = data.canonicalize().unwrap();
        let mut exists = HashSet::new();
        tree(&real, &mut exists);
        Audit {
            data: real,
            named: data.to_path_buf(),
            exists,
            dirty: BTreeMap::new(),
            new: HashSet::new(),
            folders: BTreeMap::new(),
            faults: Vec::new(),
            written: HashSet::new(),
            renames: 0,
            removals: 0,
            commits: 0,
            syncs: 0,
        }
    }

    /// `p` in the data folder, by its real path; `None` outside it.
    fn inside(&self, p: &Path) -> Option<PathBuf> {
        let p = match p.strip_prefix(&self.named) {
            Ok(rest) if self.named != self.data => self.data.join(rest),
            _ => p.to_path_buf(),
        };
        p.starts_with(&self.data).then_some(p)
    }

    fn under(&self, p: &Path, folders: &[&str]) -> bool {
        folders.iter().any(|f| p.starts_with(self.data.join(f)))
    }

    /// A removal left unsynced by design (see the module's comment).
    fn unsynced_by_design(&self, removed: &Path) -> bool {
        self.under(removed, &["due", "tmp", "outbox/ready", "outbox/digest"])
    }

    /// A file left unsynced by design, its entry with it: the flush's
    /// notes of what it sent.
    fn note_of_the_flush(&self, p: &Path) -> bool {
        self.under(p, &["outbox/ready"]) && p.file_name().is_some_and(|n| n == "sent")
    }

    /// Lines appended to an index (`index/*.idx`), left unsynced by
    /// design: each vouches for its file only while the file on disk has
    /// the stamp it gives, so one a crash loses costs a reading again. An
    /// index written anew is audited as any file: synced before its
    /// rename, its folder after.
    fn appended_to_an_index(&self, p: &Path) -> bool {
        p.parent() == Some(self.data.join("index").as_path())
            && p.extension().is_some_and(|e| e == "idx")
    }

    fn changed(&mut self, folder: &Path, added: bool) {
        let u = self.folders.entry(folder.to_path_buf()).or_default();
        u.added |= added;
        u.removed |= !added;
    }

    /// What is not synced at call `at`, but for what is under `except`:
    /// a fault for each, saying what needed it.
    fn all_synced(&mut self, at: usize, what: &str, except: Option<&Path>) {
        let spared = |p: &Path| except.is_some_and(|e| p.starts_with(e));
        let files: Vec<String> = self
            .dirty
            .iter()
            .filter(|(p, _)| !spared(p) && !self.note_of_the_flush(p))
            .map(|(p, w)| format!("{} (written at call {w})", p.display()))
            .collect();
        let folders: Vec<String> = self
            .folders
            .iter()
            .filter(|(p, _)| !spared(p))
            .map(|(p, u)| format!("{} ({u:?})", p.display()))
            .collect();
        for f in files {
            self.faults
                .push(format!("call {at}, {what}: file {f} not synced"));
        }
        for f in folders {
            self.faults
                .push(format!("call {at}, {what}: folder {f} not synced"));
        }
    }

    /// Goes through the calls, then checks the end.
    fn run(mut self, calls: &[Call]) -> Audit {
        for (i, call) in calls.iter().enumerate() {
            self.call(i, call);
        }
        self.all_synced(calls.len(), "the end of the run", None);
        self
    }

    fn call(&mut self, i: usize, call: &Call) {
        match call {
            Call::Open {
                path,
                create,
                truncate,
            } => {
                let Some(p) = self.inside(path).filter(|p| !self.note_of_the_flush(p)) else {
                    return;
                };
                let made = *create && self.exists.insert(p.clone());
                if made {
                    self.changed(p.parent().unwrap(), true);
                    self.new.insert(p.clone());
                }
                if made || *truncate {
                    self.dirty.insert(p.clone(), i);
                    self.written.insert(p);
                }
            }
            Call::Write { path } => {
                let Some(p) = self
                    .inside(path)
                    .filter(|p| !self.note_of_the_flush(p) && !self.appended_to_an_index(p))
                else {
                    return;
                };
                if p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(".log"))
                    && p.parent() == Some(&self.data.join("processed"))
                {
                    self.commits += 1;
                    let processed = self.data.join("processed");
                    self.all_synced(i, "a key committed", Some(&processed));
                }
                self.dirty.insert(p.clone(), i);
                self.written.insert(p);
            }
            Call::Rename { from, to } => self.rename(i, from, to),
            Call::Made { path } => {
                let Some(p) = self.inside(path) else { return };
                self.exists.insert(p.clone());
                self.changed(p.parent().unwrap(), true);
            }
            Call::Removed { path } => self.remove(i, path),
            Call::Synced { path } => {
                let Some(p) = self.inside(path) else { return };
                self.syncs += 1;
                self.dirty.remove(&p);
                self.new.remove(&p);
                if self.folders.remove(&p).is_some() {
                    self.entries_after_data(i, &p);
                }
            }
            Call::Broad { line, .. } => self.faults.push(format!(
                "call {i}: {line}: a sync of more than pbem's own files"
            )),
        }
    }

    /// Folder `dir` synced at call `i`: a file made in it and not synced
    /// yet would have a name on disk before its data.
    fn entries_after_data(&mut self, i: usize, dir: &Path) {
        let early: Vec<String> = self
            .new
            .iter()
            .filter(|f| f.parent() == Some(dir))
            .map(|f| f.display().to_string())
            .collect();
        for f in early {
            self.faults.push(format!(
                "call {i}: {} synced before the data of {f}, made in it",
                dir.display()
            ));
        }
    }

    fn rename(&mut self, i: usize, from: &Path, to: &Path) {
        let (Some(from), Some(to)) = (self.inside(from), self.inside(to)) else {
            return;
        };
        self.renames += 1;
        let moved: Vec<PathBuf> = self
            .exists
            .iter()
            .filter(|p| p.starts_with(&from))
            .cloned()
            .collect();
        for p in moved {
            self.exists.remove(&p);
            let rest = p.strip_prefix(&from).unwrap();
            let new = match rest.as_os_str().is_empty() {
                true => to.clone(),
                false => to.join(rest),
            };
            if self.new.remove(&p) {
                self.new.insert(new.clone());
            }
            if let Some(w) = self.dirty.remove(&p) {
                self.faults.push(format!(
                    "call {i}: {} renamed to {} before its data was synced (written at call {w})",
                    p.display(),
                    new.display()
                ));
            }
            self.exists.insert(new);
        }
        // A folder moved takes its unsynced entries along.
        let inner: Vec<PathBuf> = self
            .folders
            .keys()
            .filter(|f| f.starts_with(&from))
            .cloned()
            .collect();
        for f in inner {
            let u = self.folders.remove(&f).unwrap();
            self.folders
                .insert(to.join(f.strip_prefix(&from).unwrap()), u);
        }
        if !self.a_release(&from, &to) {
            self.changed(from.parent().unwrap(), false);
            self.changed(to.parent().unwrap(), true);
        }
    }

    /// A batch's folder released, from `outbox/staging/` to
    /// `outbox/ready/`: left unsynced by design (a crash that loses it
    /// leaves the folder committed in `staging/`, which recovery releases
    /// again).
    fn a_release(&self, from: &Path, to: &Path) -> bool {
        from.parent() == Some(self.data.join("outbox/staging").as_path())
            && to.parent() == Some(self.data.join("outbox/ready").as_path())
    }

    fn remove(&mut self, i: usize, path: &Path) {
        let Some(p) = self.inside(path) else { return };
        self.exists.retain(|e| !e.starts_with(&p));
        self.dirty.retain(|d, _| !d.starts_with(&p));
        self.new.retain(|d| !d.starts_with(&p));
        self.folders.retain(|f, _| !f.starts_with(&p));
        if self.unsynced_by_design(&p) {
            return;
        }
        self.removals += 1;
        // What replaces it durable first: every file written, every
        // folder that gained an entry (earlier removals may wait).
        let waiting: Vec<PathBuf> = self
            .folders
            .iter()
            .filter(|(_, u)| !u.added)
            .map(|(f, _)| f.clone())
            .collect();
        let kept: Vec<(PathBuf, Unsynced)> = waiting
            .iter()
            .filter_map(|f| self.folders.remove_entry(f))
            .collect();
        self.all_synced(i, &format!("the removal of {}", p.display()), None);
        self.folders.extend(kept);
        self.changed(p.parent().unwrap(), false);
    }

    /// Panics with every fault found.
    fn assert_clean(&self, what: &str) {
        assert!(
            self.faults.is_empty(),
            "{what}: {} faults:\n{}",
            self.faults.len(),
            self.faults
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Starts a clock game between players `a` and `b` of `club` (`a` moves
/// first), or only challenges `b` when `accept` is off: its id.
fn challenge(club: &mut Club, a: usize, b: usize, clock: &str, accept: bool) -> String {
    let to = club.players[b].address.clone();
    club.send(a, &format!("challenge boom-and-zoom {to} first {clock}\n"));
    club.poll();
    let id = club.last_game(b);
    if accept {
        club.say(b, &id, "accept");
    }
    id
}

/// The moves in game `id`'s record.
fn moves(club: &Club, id: &str) -> usize {
    let rec = club.record(id);
    rec.lines
        .iter()
        .filter(|l| matches!(l.entry, Entry::Move(_)))
        .count()
}

#[test]
#[ignore = "needs strace"]
fn a_poll_syncs_each_file_and_folder_it_changes_and_never_the_file_system() {
    let _shared = common::lock::shared();
    strace();
    let mut club = Club::numbered(6);
    let clocked = challenge(&mut club, 0, 1, "3d", true);
    let resigned = challenge(&mut club, 2, 3, "", true);
    let waiting = challenge(&mut club, 4, 5, "", false);
    // One poll of: a move in a game with a clock, a resignation (a game
    // over), a challenge accepted (a game made, the challenge removed), a
    // new challenge, and a mail that is no mail.
    let first = &example_moves(Rules::BoomAndZoom)[0];
    let tag = |id: &str| format!("[pbem {id}]");
    let inbox = club.inbox.clone();
    club.players[0]
        .reply(&inbox, &tag(&clocked), &format!("#1 {first}"))
        .unwrap();
    club.players[2]
        .reply(&inbox, &tag(&resigned), "resign")
        .unwrap();
    club.players[5]
        .reply(&inbox, &tag(&waiting), "accept")
        .unwrap();
    club.send(1, "challenge embed p4@example.org\n");
    inbox
        .deliver("1700000999.bad.0", b"\xff\xfe no header, no body\x00\n")
        .unwrap();
    club.minute += 1;
    let audit = Audit::of(&club.pbem.config.data);
    let calls = traced(&club, &["poll"], None);
    let audit = audit.run(&calls);
    // The poll did what the audit is about.
    let store = &club.pbem.store;
    assert_eq!(moves(&club, &clocked), 1, "the move is played");
    assert!(
        club.record(&resigned)
            .result
            .is_some_and(|(r, _)| r.is_over()),
        "the game is over"
    );
    assert!(store.challenge(&waiting).unwrap().is_none());
    assert!(store.read_game(&waiting).unwrap().is_some(), "a game made");
    assert_eq!(store.challenge_ids().unwrap().len(), 1, "a new challenge");
    assert!(
        common::files(&inbox.root().join("new")).is_empty(),
        "every mail handled"
    );
    eprintln!(
        "durability audit of a poll: {} calls, {} files written, {} renames, {} removals, {} key commits, {} syncs",
        calls.len(),
        audit.written.len(),
        audit.renames,
        audit.removals,
        audit.commits,
        audit.syncs
    );
    assert!(audit.renames >= 5 && audit.removals >= 1 && audit.commits >= 1);
    audit.assert_clean("pbem poll");
}

#[test]
#[ignore = "needs strace"]
fn a_delivery_syncs_each_file_and_folder_it_changes_and_never_the_file_system() {
    let _shared = common::lock::shared();
    strace();
    let mut club = Club::numbered(2);
    let id = challenge(&mut club, 0, 1, "3d", true);
    let first = &example_moves(Rules::BoomAndZoom)[0];
    let (_, raw) = club.players[0]
        .answer(&format!("[pbem {id}]"), &format!("#1 {first}"))
        .unwrap();
    club.minute += 1;
    let audit = Audit::of(&club.pbem.config.data);
    let calls = traced(&club, &["deliver"], Some(&raw));
    let audit = audit.run(&calls);
    assert_eq!(moves(&club, &id), 1, "the move is played");
    eprintln!(
        "durability audit of a delivery: {} calls, {} files written, {} renames, {} key commits, {} syncs",
        calls.len(),
        audit.written.len(),
        audit.renames,
        audit.commits,
        audit.syncs
    );
    assert!(audit.renames >= 1 && audit.commits >= 1);
    audit.assert_clean("pbem deliver");
}
