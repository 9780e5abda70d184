//! The git history of the records: with `[git]` in pbem.toml
//! the games folder is a git repository, each batch a commit by pbem
//! listing each game's new lines, pushed to a bare repository on this
//! machine; no key ever in it; a push that fails holds up nothing and is
//! made later; polls killed at random moments leave no record change out
//! of the history.

use crate::common;
use crate::crash::kills;

use common::club::Club;
use common::pbem_setup::{PBEM, Pbem};
use common::workload::{self, Workload};
use pbem::demo::{Player, example_moves};
use pbem::mailbox::Maildir;
use pbem::record::{Entry, Record};
use pbem::reply::Identity;
use pbem::rules::Rules;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

pub(super) const ALICE: &str = "alice@example.org";
pub(super) const BOB: &str = "bob@example.org";

/// `git ARGS` in `dir`: its output (it must succeed).
pub(super) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("these tests need git: install it (apt-get install git)");
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Alice and Bob at a pbem whose settings end with `git` (a `[git]` table).
pub(super) fn table(git: &str) -> Club {
    let pbem = Pbem::with_settings(|s| format!("{s}\n{git}\n"));
    let inbox = Maildir::open(pbem.config.inbox.maildir.as_ref().unwrap()).unwrap();
    let sent = pbem.sent_folder();
    Club {
        players: vec![
            Player::new("Alice", ALICE, &sent),
            Player::new("Bob", BOB, &sent),
        ],
        pbem,
        inbox,
        minute: 0,
    }
}

pub(super) fn games_dir(t: &Club) -> std::path::PathBuf {
    t.pbem.config.data.join("games")
}

/// The subjects of the history, oldest first.
pub(super) fn subjects(games: &Path) -> Vec<String> {
    git(games, &["log", "--reverse", "--format=%s"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// `id: 12. red 22-15` for each line of the record of `id`.
fn record_lines(id: &str, rec: &Record) -> Vec<String> {
    rec.lines
        .iter()
        .map(|l| {
            let entry = match &l.entry {
                Entry::Move(m) => m.clone(),
                Entry::Event(e) => e.as_str().to_string(),
            };
            let side = rec.rules.side_name(l.side.unwrap());
            match l.number {
                Some(n) => format!("{id}: {n}. {side} {entry}"),
                None => format!("{id}: {side} {entry}"),
            }
        })
        .collect()
}

/// Every key of every game and challenge in the data folder: none may be
/// in any commit of `repo`.
fn no_key_in(data: &Path, repo: &Path) {
    let everything = git(repo, &["log", "-p", "--all", "--format=%H %an %s%n%b"]);
    let mut keys = 0;
    for f in common::files(&data.join("secrets")) {
        let secrets: toml::Table = toml::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let tokens = secrets.get("tokens").and_then(|t| t.as_table()).unwrap();
        for v in tokens.values() {
            if let Some(key) = v.as_str() {
                assert!(key.len() >= 8, "a key worth looking for: {key}");
                keys += 1;
                assert!(!everything.contains(key), "a key in the history: {key}");
            }
        }
    }
    assert!(keys > 0, "the data folder has keys to look for");
    let names = git(repo, &["log", "--all", "--name-only", "--format="]);
    for name in names.lines().filter(|l| !l.is_empty()) {
        assert!(
            name == ".gitignore" || name.ends_with(".toml") && !name.contains('/'),
            "only records: {name}"
        );
    }
}

#[test]
fn a_game_by_mail_is_a_commit_a_batch_and_reads_as_the_game() {
    let _shared = common::lock::shared();
    let mut t = table("[git]\nremote = \"history.git\"");
    let bare = t.pbem.dir.path().join("history.git");
    git(t.pbem.dir.path(), &["init", "-q", "--bare", "history.git"]);
    let games = games_dir(&t);
    // Files pbem does not write there stay out of the history.
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("notes.txt"), "the admin's notes").unwrap();

    let rules = Rules::BoomAndZoom;
    t.send(0, &format!("challenge {} {BOB} first\n", rules.slug()));
    t.poll();
    let id = t.last_game(1);
    let log = t.say(1, &id, "accept");
    assert!(log.contains("git-commit"), "{log}");
    let mut expected = vec![
        ".gitignore: only the game records are kept here".to_string(),
        format!("{id}: new game, Alice vs Bob"),
    ];
    // The challenge made no record: no commit but the .gitignore's
    // (made at the first poll, with nothing else).
    assert_eq!(subjects(&games), expected);

    let moves: Vec<String> = example_moves(rules).into_iter().take(6).collect();
    for (ply, mv) in moves.iter().enumerate() {
        let log = t.say(ply % 2, &id, mv);
        assert!(log.contains("git-commit"), "{log}");
        let side = ["black", "red"][ply % 2];
        expected.push(format!("{id}: {}. {side} {mv}", ply + 1));
        assert_eq!(subjects(&games), expected, "one commit a batch");
        // Pushed after each one.
        assert_eq!(
            git(&bare, &["rev-parse", "main"]),
            git(&games, &["rev-parse", "HEAD"])
        );
    }
    t.say(0, &id, "resign");
    let last = git(
        &games,
        &["log", "-1", "--format=%an <%ae>|%cn <%ce>|%aI|%B"],
    );
    assert_eq!(
        last.trim_end(),
        format!(
            "pbem <{PBEM}>|pbem <{PBEM}>|{}|{id}: black resign (and 1 more)\n\n\
             {id}: black resign\n{id}: result = \"red\"",
            t.now()
        )
    );

    // `git log -p` of the record reads as the game: its lines added one
    // commit after the other, in order, never taken back.
    let rec = t.record(&id);
    let patch = git(
        &games,
        &[
            "log",
            "-p",
            "--reverse",
            "--format=",
            "--",
            &format!("{id}.toml"),
        ],
    );
    let on_disk = t.pbem.record(&id);
    let move_list: Vec<&str> = on_disk
        .split("moves = \"\"\"\n")
        .nth(1)
        .and_then(|rest| rest.split("\"\"\"").next())
        .unwrap()
        .lines()
        .collect();
    assert_eq!(move_list.len(), rec.lines.len());
    let changed = |sign: char| -> Vec<&str> {
        patch
            .lines()
            .filter(|l| l.starts_with(sign) && !l.starts_with(&sign.to_string().repeat(3)))
            .map(|l| &l[1..])
            .filter(|l| move_list.contains(l))
            .collect()
    };
    assert_eq!(changed('+'), move_list, "each line added once, in order");
    assert!(
        changed('-').is_empty(),
        "no line of the move list taken back"
    );

    // HEAD is the disk; nothing else of the folder, no key anywhere.
    assert_eq!(git(&games, &["status", "--porcelain"]), "");
    assert_eq!(git(&games, &["show", &format!("HEAD:{id}.toml")]), on_disk);
    no_key_in(&t.pbem.config.data, &games);
    no_key_in(&t.pbem.config.data, &bare);
    assert_eq!(
        git(&games, &["ls-tree", "--name-only", "HEAD"]),
        format!(".gitignore\n{id}.toml\n")
    );
}

#[test]
fn admin_commands_are_commits_too() {
    let _shared = common::lock::shared();
    let mut t = table("[git]\nauthor_name = \"The Judge\"\nauthor_email = \"judge@example.org\"");
    let games = games_dir(&t);
    let out = t.run(&[
        "new",
        "boom-and-zoom",
        "--black",
        ALICE,
        "--red",
        BOB,
        "--first",
        "black",
        "--id",
        "bz-adm",
    ]);
    assert!(out.contains("started bz-adm"), "{out}");
    let out = t.run(&["move", "bz-adm", "6-13"]);
    assert!(!out.contains("error"), "{out}");
    assert_eq!(
        subjects(&games),
        [
            ".gitignore: only the game records are kept here",
            "bz-adm: new game, alice@example.org vs bob@example.org",
            "bz-adm: 1. black 6-13"
        ]
    );
    let who = git(&games, &["log", "--format=%an <%ae>"]);
    assert!(
        who.lines().all(|l| l == "The Judge <judge@example.org>"),
        "{who}"
    );
    no_key_in(&t.pbem.config.data, &games);
}

#[test]
fn a_push_that_fails_holds_up_nothing_and_is_made_later() {
    let _shared = common::lock::shared();
    let mut t = table("[git]\nremote = \"gone/history.git\"\nbranch = \"records\"");
    let games = games_dir(&t);
    t.send(0, &format!("challenge boom-and-zoom {BOB} first\n"));
    t.poll();
    let id = t.last_game(1);
    let log = t.say(1, &id, "accept");
    // The remote is missing: the game begins all the same, the commit is
    // made, the failure logged.
    assert!(log.contains("git-push-failed"), "{log}");
    assert!(!log.contains("exited"), "the poll succeeds: {log}");
    assert!(t.last_about(0, "begins").contains("begins"));
    let log = t.say(0, &id, "6-13");
    assert!(
        log.contains("git-push-failed") && t.record(&id).lines.len() == 1,
        "{log}"
    );
    // The remote comes: the next poll pushes what waited, though nothing
    // changed.
    let gone = t.pbem.dir.path().join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    git(&gone, &["init", "-q", "--bare", "history.git"]);
    let log = t.poll();
    assert!(!log.contains("git-push-failed"), "{log}");
    assert_eq!(
        git(&gone.join("history.git"), &["rev-parse", "records"]),
        git(&games, &["rev-parse", "HEAD"])
    );
    assert_eq!(
        subjects(&games).last().unwrap(),
        &format!("{id}: 1. black 6-13")
    );
}

#[test]
fn settings_that_cannot_work_are_refused_by_name() {
    let _shared = common::lock::shared();
    for (git_table, says) in [
        ("[git]\nbranch = \"a b\"", "[git] branch = \"a b\""),
        ("[git]\nremote = \"--upload-pack=x\"", "[git] remote"),
        ("[git]\nauthor_email = \"nobody\"", "[git] author_email"),
        ("[git]\nremot = \"x\"", "unknown field `remot`"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pbem.toml");
        std::fs::write(&p, format!("{}\n{git_table}\n", pbem::config::INIT)).unwrap();
        let e = pbem::config::Config::load(&p).unwrap_err().to_string();
        assert!(e.contains(says), "{git_table}: {e}");
    }
}

/// Polls killed at random moments ("the crash test extended to
/// git commits"), then one run to the end: the history holds every
/// change of every record: HEAD's tree is the records on disk, and each
/// line of each record is listed once in the messages, in order. The
/// moves come a ply at a time, each ply's poll killed at random points of
/// a whole poll (its batch, its commit, its push) until one finishes, so
/// that kills land between a batch and its commit too.
#[test]
fn killed_polls_leave_no_record_change_out_of_the_history() {
    let _shared = common::lock::shared();
    let kills = kills();
    let n_games = 6;
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    git(dir.path(), &["init", "-q", "--bare", "history.git"]);
    let settings = format!("{}\n[git]\nremote = \"history.git\"\n", pbem::config::INIT);
    std::fs::write(&config_path, settings).unwrap();
    let config = pbem::config::Config::load(&config_path).unwrap();
    let store = pbem::store::Store::open(&config.data).unwrap();
    let identity = Identity::at(config.address.clone());
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let load: Workload = workload::build(
        &store,
        &identity,
        n_games,
        // About two kills a ply; the long run plays the games out.
        Some((kills / 2).max(20)),
        &|g| [format!("p{g}a@example.org"), format!("p{g}b@example.org")],
        false,
    );
    let games = config.data.join("games");
    let plies = load.mails.iter().map(|m| m.ply).max().unwrap();
    let mut k = KilledPolls {
        left: kills,
        rng: fastrand::Rng::with_seed(20261125),
        typical: std::time::Duration::from_millis(30),
        interrupted: 0,
        uncommitted: 0,
    };
    for ply in 1..=plies {
        for m in load.mails.iter().filter(|m| m.ply == ply) {
            inbox.deliver(&m.name, &m.raw).unwrap();
        }
        k.poll_until_done(&config_path, &games);
    }
    load.check_records(&store);

    let ids: Vec<String> = load.games.iter().map(|g| g.id.clone()).collect();
    every_change_in_the_history(&games, &ids);
    let commits = git(&games, &["rev-list", "--count", "HEAD"]);
    eprintln!(
        "crash test (git): {} polls killed mid-way, {} of them between a batch and its \
         commit; {n_games} games, {plies} plies, {} commits",
        k.interrupted,
        k.uncommitted,
        commits.trim()
    );
    assert!(k.interrupted >= kills.min(20), "kills must land mid-poll");
    // (How many kills land between a batch and its commit is left to
    // chance; `what_a_poll_left_out_of_the_history_the_next_one_commits`
    // makes that case every time.)
    // Pushed whole, as the last poll left it.
    let bare = dir.path().join("history.git");
    assert_eq!(
        git(&bare, &["rev-parse", "main"]),
        git(&games, &["rev-parse", "HEAD"])
    );
    no_key_in(&config.data, &games);
    let leftovers = common::temp_files(&config.data);
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

/// The history of the records in `games` after a crash test: all
/// committed (HEAD's tree is the records on disk), and each line of each
/// record of `ids` listed once, in order, after its game's `new game`
/// line (its result once, when it has one).
pub(super) fn every_change_in_the_history(games: &Path, ids: &[String]) {
    assert_eq!(git(games, &["status", "--porcelain"]), "", "all committed");
    let bodies = git(games, &["log", "--reverse", "--format=%b"]);
    let mut listed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in bodies.lines().filter(|l| !l.is_empty()) {
        let (id, _) = l.split_once(": ").unwrap();
        listed
            .entry(id.to_string())
            .or_default()
            .push(l.to_string());
    }
    for id in ids {
        let text = std::fs::read_to_string(games.join(format!("{id}.toml"))).unwrap();
        assert_eq!(git(games, &["show", &format!("HEAD:{id}.toml")]), text);
        let rec = Record::parse(id, &text).unwrap();
        let mut want = vec![listed[id][0].clone()];
        assert!(want[0].contains("new game"), "{want:?}");
        want.extend(record_lines(id, &rec));
        let got: Vec<String> = listed[id]
            .iter()
            .filter(|l| !l.contains("result = "))
            .cloned()
            .collect();
        assert_eq!(got, want, "{id}: each line once, in order");
        let results = listed[id]
            .iter()
            .filter(|l| l.contains("result = "))
            .count();
        let over = rec.verdict().is_over();
        assert_eq!(results, usize::from(over), "{id}: its result");
    }
}

/// The kills of [`killed_polls_leave_no_record_change_out_of_the_history`].
struct KilledPolls {
    left: usize,
    rng: fastrand::Rng,
    /// How long a poll that is not killed takes.
    typical: std::time::Duration,
    interrupted: usize,
    /// Kills that left a record changed and not committed.
    uncommitted: usize,
}

impl KilledPolls {
    /// Runs `pbem poll` until one finishes, while kills are left killing
    /// it (SIGKILL) at a random point of 1.5 times a typical poll.
    fn poll_until_done(&mut self, config_path: &Path, games: &Path) {
        loop {
            let started = std::time::Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
                .args(["poll", "--quiet", "--wait", "--config"])
                .arg(config_path)
                .env_remove("PBEM_CONFIG")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            if self.left > 0 {
                let max = self.typical.as_micros() as u64 * 3 / 2;
                std::thread::sleep(std::time::Duration::from_micros(self.rng.u64(0..max)));
                if child.try_wait().unwrap().is_none() {
                    let _ = child.kill();
                    let _ = child.wait();
                    self.left -= 1;
                    self.interrupted += 1;
                    let status = Command::new("git")
                        .arg("-C")
                        .arg(games)
                        .args(["status", "--porcelain", "--", "*.toml"])
                        .output()
                        .unwrap();
                    // (A kill in the first `git init` leaves no repository yet.)
                    if status.status.success() && !status.stdout.is_empty() {
                        self.uncommitted += 1;
                    }
                    continue;
                }
            }
            let status = child.wait().unwrap();
            assert!(status.success(), "the poll after the kills: {status}");
            self.typical = (self.typical * 3 + started.elapsed()) / 4;
            return;
        }
    }
}

/// A poll whose git cannot run (as if pbem died between its batch and
/// the commit): the move is played and answered all the same, and the
/// next poll commits it, its message read from the record.
#[test]
fn what_a_poll_left_out_of_the_history_the_next_one_commits() {
    let _shared = common::lock::shared();
    let mut t = table("[git]");
    let games = games_dir(&t);
    t.send(0, &format!("challenge boom-and-zoom {BOB} first\n"));
    t.poll();
    let id = t.last_game(1);
    t.say(1, &id, "accept");
    let before = subjects(&games);

    t.players[0]
        .reply(&t.inbox, &format!("[pbem {id}]"), "6-13")
        .unwrap();
    t.minute += 1;
    let no_git = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll", "--config"])
        .arg(&t.pbem.config_path)
        .env("PBEM_NOW", t.now())
        .env("PATH", no_git.path())
        .env_remove("PBEM_CONFIG")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the poll goes on: {log}");
    assert!(
        log.contains("git-failed") && log.contains("install git"),
        "{log}"
    );
    assert_eq!(t.record(&id).lines.len(), 1, "the move is played");
    assert_eq!(subjects(&games), before, "not in the history yet");
    assert_eq!(
        git(&games, &["status", "--porcelain"]),
        format!(" M {id}.toml\n")
    );

    let log = t.poll();
    assert!(log.contains("git-caught-up"), "{log}");
    let mut after = before.clone();
    after.push(format!("{id}: 1. black 6-13"));
    assert_eq!(subjects(&games), after);
    assert_eq!(git(&games, &["status", "--porcelain"]), "");
}

/// A loss on time, which a poll finds with no mail in it, is a commit of
/// its own.
#[test]
fn a_loss_on_time_is_committed_by_the_poll_that_finds_it() {
    let _shared = common::lock::shared();
    let mut t = table("[git]");
    let games = games_dir(&t);
    let out = t.run(&[
        "new",
        "boom-and-zoom",
        "--black",
        ALICE,
        "--red",
        BOB,
        "--first",
        "black",
        "--clock",
        "1d",
        "--id",
        "bz-clk",
    ]);
    assert!(out.contains("started bz-clk"), "{out}");
    t.minute += 3 * 24 * 60;
    let log = t.poll();
    assert!(log.contains("git-commit"), "{log}");
    let last = git(&games, &["log", "-1", "--format=%aI|%B"]);
    assert!(
        last.starts_with(&format!("{}|bz-clk: black timeout (and 1 more)\n", t.now())),
        "{last}"
    );
    assert!(last.contains("bz-clk: result = \"red\""), "{last}");
    assert_eq!(git(&games, &["status", "--porcelain"]), "");
}
