//! The git history of the records (issue 17): with `[git]` in pbem.toml
//! the games folder is a git repository, each batch a commit by pbem
//! listing each game's new lines, pushed to a bare repository on this
//! machine; no key ever in it; a push that fails holds up nothing and is
//! made later; polls killed at random moments leave no record change out
//! of the history.

use crate::common;
use crate::crash::{kill_polls, kills};

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

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// `git ARGS` in `dir`: its output (it must succeed).
fn git(dir: &Path, args: &[&str]) -> String {
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
fn table(git: &str) -> Club {
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

fn games_dir(t: &Club) -> std::path::PathBuf {
    t.pbem.config.data.join("games")
}

/// The subjects of the history, oldest first.
fn subjects(games: &Path) -> Vec<String> {
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

/// Polls killed at random moments (issue 17: "the crash test extended to
/// git commits"), then one run to the end: the history holds every
/// change of every record: HEAD's tree is the records on disk, and each
/// line of each record is listed once in the messages, in order.
#[test]
fn killed_polls_leave_no_record_change_out_of_the_history() {
    let _shared = common::lock::shared();
    let kills = kills();
    let n_games = (kills / 8).max(4);
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    std::fs::write(&config_path, format!("{}\n[git]\n", pbem::config::INIT)).unwrap();
    let config = pbem::config::Config::load(&config_path).unwrap();
    let store = pbem::store::Store::open(&config.data).unwrap();
    let identity = Identity {
        address: config.address.clone(),
        name: "pbem".into(),
        trusted_authserv: None,
        admin: None,
        clocks: Default::default(),
    };
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let load: Workload = workload::build(
        &store,
        &identity,
        n_games,
        None,
        &|g| [format!("p{g}a@example.org"), format!("p{g}b@example.org")],
        true,
    );
    for m in &load.mails {
        inbox.deliver(&m.name, &m.raw).unwrap();
    }
    let (interrupted, _) = kill_polls(&config_path, kills);
    let last = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll", "--config"])
        .arg(&config_path)
        .output()
        .unwrap();
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    load.check_records(&store);

    let games = config.data.join("games");
    assert_eq!(git(&games, &["status", "--porcelain"]), "", "all committed");
    let bodies = git(&games, &["log", "--reverse", "--format=%b"]);
    let mut listed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in bodies.lines().filter(|l| !l.is_empty()) {
        let (id, _) = l.split_once(": ").unwrap();
        listed
            .entry(id.to_string())
            .or_default()
            .push(l.to_string());
    }
    let commits = git(&games, &["rev-list", "--count", "HEAD"]);
    for g in &load.games {
        let text = store.read_game(&g.id).unwrap().unwrap();
        assert_eq!(git(&games, &["show", &format!("HEAD:{}.toml", g.id)]), text);
        let rec = Record::parse(&g.id, &text).unwrap();
        let mut want = vec![listed[&g.id][0].clone()];
        assert!(want[0].contains("new game"), "{want:?}");
        want.extend(record_lines(&g.id, &rec));
        let result = rec.result.as_ref().map(|(r, _)| r.as_str()).unwrap_or("*");
        let got: Vec<String> = listed[&g.id]
            .iter()
            .filter(|l| !l.contains("result = "))
            .cloned()
            .collect();
        assert_eq!(got, want, "{}: each line once, in order", g.id);
        let results = listed[&g.id]
            .iter()
            .filter(|l| l.contains("result = "))
            .count();
        assert_eq!(results, usize::from(result != "*"), "{}: its result", g.id);
    }
    eprintln!(
        "crash test (git): {interrupted} polls killed mid-way, {n_games} games, {} commits",
        commits.trim()
    );
    assert!(
        interrupted >= kills.min(20),
        "kills must land mid-poll ({interrupted})"
    );
    no_key_in(&config.data, &games);
    let leftovers = common::temp_files(&config.data);
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}
