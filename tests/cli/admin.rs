//! The admin's commands run as the real binary ("Commands": "the
//! admin has the same powers from the CLI"): `pbem new` starts a game and
//! mails both players their keys, `pbem games` lists what is in the data
//! folder, `pbem move` plays for the side to move and tells both players.
//! Every test works in a fresh data folder made from `pbem init`'s
//! settings (Maildir in, Maildirs out) with the clock pinned.

use crate::common;

use pbem::config::{Config, INIT};
use pbem::demo::Player;
use pbem::game::Side;
use pbem::mailbox::Maildir;
use pbem::record::Record;
use pbem::rules::Rules;
use pbem::store::{Challenge, Store};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod moves;

mod cut_short;

const NOW: &str = "2026-11-20T10:00:00Z";
const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "bob@example.org";

/// A pbem installation in a temporary folder.
struct Site {
    dir: tempfile::TempDir,
    config: PathBuf,
}

impl Site {
    fn new() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("pbem.toml");
        fs::write(&config, INIT).unwrap();
        Site { dir, config }
    }

    /// Runs `pbem ARGS --config pbem.toml` with the clock at `now`.
    fn run_at(&self, now: &str, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(args)
            .arg("--config")
            .arg(&self.config)
            .env("PBEM_NOW", now)
            .env_remove("PBEM_CONFIG")
            .output()
            .unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_at(NOW, args)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn store(&self) -> Store {
        Store::open(self.data()).unwrap()
    }

    fn record_text(&self, id: &str) -> String {
        fs::read_to_string(self.data().join(format!("games/{id}.toml"))).unwrap()
    }

    fn record(&self, id: &str) -> Record {
        Record::parse(&format!("{id}.toml"), &self.record_text(id)).unwrap()
    }

    /// The keys of Boom & Zoom game `id`, by the names of their sides
    /// (as the mails name them).
    fn keys(&self, id: &str) -> BTreeMap<String, String> {
        let rules = Rules::BoomAndZoom;
        let secrets = self.store().secrets(id, rules).unwrap();
        secrets
            .tokens
            .map(|_, t| t.expect("a key for each side"))
            .into_named(rules.info().sides)
    }

    /// The raw mails the Maildir transport delivered to `address`, sorted
    /// by file name.
    fn mails_to(&self, address: &str) -> Vec<String> {
        let dir = self.dir.path().join("mail/sent").join(address).join("new");
        let Ok(entries) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        files
            .iter()
            .map(|f| String::from_utf8(fs::read(f).unwrap()).unwrap())
            .collect()
    }

    fn sent_count(&self) -> usize {
        let Ok(dirs) = fs::read_dir(self.dir.path().join("mail/sent")) else {
            return 0;
        };
        dirs.map(|d| fs::read_dir(d.unwrap().path().join("new")).unwrap().count())
            .sum()
    }

    fn player(&self, name: &str, address: &str) -> Player {
        Player::new(name, address, &self.dir.path().join("mail/sent"))
    }

    fn inbox(&self) -> Maildir {
        let config = Config::load(&self.config).unwrap();
        Maildir::open(config.inbox.maildir.unwrap()).unwrap()
    }

    /// Everything in the data folder that a refused command must leave
    /// alone: records, keys, challenges, the processed log, the outbox.
    fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
        fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
            for e in fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(root, &p, out);
                } else if !p.ends_with("pbem.lock") {
                    let name = p.strip_prefix(root).unwrap().display().to_string();
                    out.push((name, fs::read(&p).unwrap()));
                }
            }
        }
        let mut out = Vec::new();
        if self.data().exists() {
            walk(&self.data(), &self.data(), &mut out);
        }
        out.sort();
        out
    }

    /// Starts Boom & Zoom `id` between Alice (black) and Bob (red), red
    /// first.
    fn new_bz(&self, id: &str) {
        let o = self.run_new_bz(id, &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }

    /// `pbem new` of [`Site::new_bz`], with `extra` arguments.
    fn run_new_bz(&self, id: &str, extra: &[&str]) -> Output {
        let mut args = vec![
            "new",
            "boom-and-zoom",
            "--black",
            ALICE,
            "--red",
            BOB,
            "--first",
            "red",
            "--id",
            id,
        ];
        args.extend_from_slice(extra);
        self.run(&args)
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The value of a header in a raw mail (unfolded, first occurrence).
fn header(raw: &str, name: &str) -> Option<String> {
    let raw = raw.replace("\r\n", "\n");
    let head = raw.split("\n\n").next().unwrap_or(&raw);
    let unfolded = head.replace("\n ", " ").replace("\n\t", " ");
    unfolded.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// The record `pbem new` wrote for bz-adm1: the full form, valid, with
/// the players and no moves.
fn check_new_record(site: &Site) {
    let path = site.data().join("games/bz-adm1.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("validate")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), format!("{}: ok (0 moves, *)\n", path.display()));
    let rec = site.record("bz-adm1");
    assert_eq!(rec.rules, pbem::rules::Rules::BoomAndZoom);
    assert_eq!(rec.id.as_deref(), Some("bz-adm1"));
    assert_eq!(rec.first, Some(pbem::game::Side::B), "red moves first");
    assert_eq!(
        rec.result.map(|(v, _)| v),
        Some(pbem::record::Verdict::Unfinished)
    );
    assert_eq!(rec.players[Side::A].as_deref(), Some(ALICE), "black");
    assert_eq!(rec.players[Side::B].as_deref(), Some(BOB), "red");
    assert_eq!(
        rec.created.map(|c| c.to_rfc3339()),
        Some("2026-11-20T10:00:00+00:00".into())
    );
    assert!(rec.lines.is_empty());
}

#[test]
fn new_writes_a_valid_record_private_keys_and_mails_each_player_their_key() {
    let site = Site::new();
    site.new_bz("bz-adm1");

    check_new_record(&site);

    // The keys: one per side, different, readable by pbem's user only,
    // and nowhere in the record (which is meant to be published).
    let keys = site.keys("bz-adm1");
    assert_eq!(
        keys.keys().collect::<Vec<_>>(),
        ["black", "red"],
        "{keys:?}"
    );
    let (black, red) = (&keys["black"], &keys["red"]);
    assert_ne!(black, red);
    for k in [black, red] {
        assert_eq!(k.len(), 12, "{k}");
        assert!(!site.record_text("bz-adm1").contains(k.as_str()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(site.data().join("secrets/bz-adm1.toml"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "secrets mode {mode:o}");
    }

    // One mail each: the board, their side, and a Reply-To with their own
    // key -- never the opponent's.
    let to_alice = site.mails_to("alice@example.org");
    let to_bob = site.mails_to("bob@example.org");
    assert_eq!((to_alice.len(), to_bob.len()), (1, 1));
    for (raw, side, mine, theirs, to) in [
        (
            &to_alice[0],
            "black",
            black,
            red,
            (Some("Alice Example"), Some("alice@example.org")),
        ),
        (&to_bob[0], "red", red, black, (None, Some(BOB))),
    ] {
        // One subject for the whole game; what happened is the
        // first line.
        assert!(
            header(raw, "Subject").is_some_and(
                |s| s.starts_with("[pbem bz-adm1] Boom & Zoom: ") && s.contains(" vs ")
            ),
            "{raw}"
        );
        assert!(raw.contains("The game begins: you play"), "{raw}");
        let parsed = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        let to_header = parsed.to().and_then(|a| a.first()).unwrap();
        assert_eq!((to_header.name(), to_header.address()), to);
        assert_eq!(
            header(raw, "Reply-To"),
            Some(format!("pbem <pbem+bz-adm1.{mine}@localhost>"))
        );
        assert!(!raw.contains(theirs.as_str()), "{side} sees no other key");
        assert!(raw.contains(&format!("you play {side}, and")), "{raw}");
        assert!(raw.contains("| R3 | R3 |") && raw.contains("| B3 | B3 |"));
    }
    assert!(
        to_bob[0].contains("you move first: move #1."),
        "{}",
        to_bob[0]
    );
    assert!(!to_alice[0].contains("you move first"));

    // The start is committed like a mail: nothing waits in the outbox.
    assert_eq!(common::committed_keys(&site.data()), ["new:bz-adm1"]);
    assert_eq!(
        fs::read_dir(site.data().join("outbox/ready"))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn new_makes_up_an_id_when_none_is_given() {
    let site = Site::new();
    let o = site.run(&[
        "new",
        "mad-rooks",
        "--red",
        "alice@example.org",
        "--blue",
        BOB,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ids = site.store().game_ids().unwrap();
    assert_eq!(ids.len(), 1, "{ids:?}");
    let id = &ids[0];
    assert!(
        stdout(&o).starts_with(&format!("started {id}: Mad Rooks (")),
        "{}",
        stdout(&o)
    );
    // Mad Rooks: red always moves first, so no --first is needed.
    assert_eq!(site.record(id).first_side(), pbem::game::Side::A);
    assert_eq!(site.sent_count(), 2);
}

#[test]
fn new_refuses_bad_arguments_with_exit_2_and_changes_nothing() {
    let site = Site::new();
    let before = site.snapshot();
    let bz = |rest: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["boom-and-zoom", "--black", ALICE];
        v.extend_from_slice(rest);
        v
    };
    let red_first = ["--red", BOB, "--first", "red"];
    let with_id = |id: &'static str| bz(&[&red_first[..], &["--id", id]].concat());
    #[rustfmt::skip]
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (bz(&["--red", BOB, "--white", "c@example.org", "--first", "red"]),
            "pbem new: Boom & Zoom has no side \"white\"; its sides are black and red"),
        (bz(&["--red", "bob at example.org", "--first", "red"]),
            "pbem new: --red bob at example.org: not a mail address"),
        (bz(&["--red", "Bob <bob@>", "--first", "red"]),
            "pbem new: --red Bob <bob@>: not a mail address"),
        // Valid, but pbem cannot write them into a To header.
        (bz(&["--red", "\"a b\"@example.org", "--first", "red"]),
            "pbem new: --red \"a b\"@example.org: pbem cannot write to it: the part before the @"),
        (bz(&["--red", "a@[127.0.0.1]", "--first", "red"]),
            "pbem new: --red a@[127.0.0.1]: pbem cannot write to it: `[127.0.0.1]` is an address literal"),
        (bz(&["--first", "red"]),
            "pbem new: who plays red? add --player red=EMAIL"),
        (bz(&["--red", BOB]),
            "pbem new: in Boom & Zoom the players choose who moves first: add --first black or --first red"),
        (bz(&["--red", BOB, "--first", "white"]),
            "pbem new: --first white: not a side of Boom & Zoom"),
        // Mad Rooks has a fixed first side: naming the other is refused.
        (vec!["mad-rooks", "--red", ALICE, "--blue", BOB, "--first", "blue"],
            "pbem new: in Mad Rooks red moves first (see `pbem rules mad-rooks`, section Setup)"),
        (with_id("../x"),
            "pbem new: --id ../x: use lower-case letters, digits and dashes (2-40)"),
        (with_id("games/x"),
            "pbem new: --id games/x: use lower-case letters, digits and dashes (2-40)"),
        (with_id("BZ-1"),
            "pbem new: --id BZ-1: use lower-case letters, digits and dashes (2-40)"),
        (vec!["chess", "--black", ALICE, "--red", BOB],
            "chess"),
    ];
    for (args, message) in &cases {
        let mut all = vec!["new"];
        all.extend_from_slice(args);
        let o = site.run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(message),
            "{args:?}: expected `{message}` in\n{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        assert_eq!(site.snapshot(), before, "{args:?} changed the data folder");
        assert_eq!(site.sent_count(), 0, "{args:?} sent mail");
    }
    // Refused before anything is opened: not even the data folder exists.
    assert!(!site.data().exists());
    assert!(!site.dir.path().join("x.toml").exists());
}

#[test]
fn new_accepts_the_fixed_first_side_named_again() {
    let site = Site::new();
    let o = site.run(&[
        "new",
        "mad-rooks",
        "--red",
        ALICE,
        "--blue",
        BOB,
        "--first",
        "Red",
        "--id",
        "mr-1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("mr-1").first_side(), pbem::game::Side::A);
}

#[test]
fn new_never_replaces_a_game_or_a_challenge() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    let o = site.run(&["move", "bz-adm1", "58-50"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let store = site.store();
    store
        .write_challenge(
            "bz-chal1",
            &Challenge {
                rules: "boom-and-zoom".parse().unwrap(),
                challenger: ALICE.into(),
                opponent: BOB.into(),
                challenger_side: pbem::game::Side::A,
                first: pbem::game::Side::A,
                created: "2026-11-19T08:00:00Z".parse().unwrap(),
                clock: None,
                source: None,
                series: None,
                rated: true,
                after: None,
            },
        )
        .unwrap();
    let before = site.snapshot();
    let mails = site.sent_count();
    for id in ["bz-adm1", "bz-chal1"] {
        let o = site.run(&[
            "new",
            "embed",
            "--black",
            "carol@example.org",
            "--red",
            "dave@example.org",
            "--first",
            "black",
            "--id",
            id,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(
            stderr(&o),
            format!("pbem new: a game {id} exists already; choose another --id\n")
        );
        assert_eq!(site.snapshot(), before, "{id} was touched");
        assert_eq!(site.sent_count(), mails);
    }
    assert_eq!(site.record("bz-adm1").moves(), ["58-50"]);
}

#[test]
fn the_keys_mailed_by_new_let_the_players_move_and_nothing_else_does() {
    let site = Site::new();
    site.new_bz("bz-adm1");
    let inbox = site.inbox();
    let mut alice = site.player("Alice", "alice@example.org");
    let mut bob = site.player("Bob", "bob@example.org");
    assert_eq!(alice.check().len(), 1);
    assert_eq!(bob.check().len(), 1);
    let poll = |now: &str| {
        let o = site.run_at(now, &["poll"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };

    // Bob (red, first) answers the start mail: its Reply-To has his key.
    bob.reply(&inbox, "[pbem bz-adm1]", "#1 58-50").unwrap();
    poll("2026-11-20T11:00:00Z");
    let rec = site.record("bz-adm1");
    assert_eq!(rec.moves(), ["58-50"]);
    assert_eq!(
        rec.lines[0].message_id.as_deref(),
        Some("<1.bob@example.org>")
    );
    let (a, b) = (alice.check(), bob.check());
    assert_eq!((a.len(), b.len()), (1, 1));
    assert!(
        a[0].text.lines().next().unwrap_or("").contains("58-50"),
        "{}",
        a[0].text
    );

    // A mail from Alice's address without her key moves nothing.
    alice
        .send(
            &inbox,
            "pbem@localhost",
            "[pbem bz-adm1] my move",
            "#2 1-9",
            None,
        )
        .unwrap();
    poll("2026-11-20T12:00:00Z");
    assert_eq!(site.record("bz-adm1").moves(), ["58-50"]);
    let a = alice.check();
    assert_eq!(a.len(), 1, "Alice is told");
    assert!(bob.check().is_empty(), "Bob hears of no move");

    // Her reply to pbem's mail carries her key: it moves.
    alice.reply(&inbox, "58-50", "#2 1-9").unwrap();
    poll("2026-11-20T13:00:00Z");
    assert_eq!(site.record("bz-adm1").moves(), ["58-50", "1-9"]);
    assert_eq!(bob.check().len(), 1);
}

/// bz-adm1 with a move, em-adm2 without, bz-done resigned, and the
/// challenge mr-chal waiting for erin@.
fn four_games_and_a_challenge(site: &Site) {
    site.new_bz("bz-adm1");
    assert_eq!(
        site.run(&["move", "bz-adm1", "58-50"]).status.code(),
        Some(0)
    );
    let o = site.run(&[
        "new",
        "embed",
        "--black",
        "carol@example.org",
        "--red",
        "dave@example.org",
        "--first",
        "black",
        "--id",
        "em-adm2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let store = site.store();
    // A finished game: black resigned after red's first move.
    store
        .write_game(
            "bz-done",
            &format!(
                "rules = \"boom-and-zoom\"\nid = \"bz-done\"\nfirst = \"red\"\nresult = \"red\"\n\n\
                 [players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n[play]\nmoves = \"\"\"\n\
                 1. red 58-50 2026-11-19T10:00:00Z\nblack resign 2026-11-19T11:00:00Z\n\"\"\"\n"
            ),
        )
        .unwrap();
    store
        .write_challenge(
            "mr-chal",
            &Challenge {
                rules: "mad-rooks".parse().unwrap(),
                challenger: ALICE.into(),
                opponent: "erin@example.org".into(),
                challenger_side: pbem::game::Side::A,
                first: pbem::game::Side::A,
                created: "2026-11-19T08:00:00Z".parse().unwrap(),
                clock: None,
                source: None,
                series: None,
                rated: true,
                after: None,
            },
        )
        .unwrap();
}

/// `pbem games --json`: one object per line, games and the challenge
/// alike.
fn check_games_json(site: &Site) {
    let o = site.run(&["games", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let objects: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(objects.len(), 4, "{}", stdout(&o));
    let ids: Vec<&str> = objects.iter().map(|j| j["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["bz-adm1", "bz-done", "em-adm2", "mr-chal"]);
    let bz = &objects[0];
    assert_eq!(bz["kind"], "game");
    assert_eq!(bz["rules"], "boom-and-zoom");
    assert_eq!(bz["result"], "*");
    assert_eq!(bz["moves"], 1);
    assert_eq!(bz["state"], "in play");
    assert_eq!(bz["first"], "red");
    assert_eq!(bz["players"]["black"], ALICE);
    assert_eq!(bz["players"]["red"], BOB);
    assert_eq!(objects[1]["result"], "red");
    assert_eq!(objects[1]["moves"], 1);
    assert_eq!(objects[1]["state"], "over");
    let ch = &objects[3];
    assert_eq!(ch["kind"], "challenge");
    assert_eq!(ch["rules"], "mad-rooks");
    assert_eq!(ch["challenger"], ALICE);
    assert_eq!(ch["opponent"], "erin@example.org");
    assert_eq!(ch["state"], "not answered");
}

#[test]
fn games_lists_games_in_play_finished_games_and_challenges() {
    let site = Site::new();
    // A new data folder: nothing to list, and that is fine.
    let o = site.run(&["games"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    let o = site.run(&["games", "--json"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));

    four_games_and_a_challenge(&site);

    let o = site.run(&["games"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let fields = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(fields(lines[0])[0], "bz-adm1");
    assert!(lines[0].contains("Boom & Zoom"), "{out}");
    assert!(
        lines[0].contains("black: Alice Example, red: bob  "),
        "{out}"
    );
    assert!(lines[0].ends_with("[in play, 1 move]"), "{out}");
    assert_eq!(fields(lines[1])[0], "bz-done");
    assert!(lines[1].ends_with("[red won (1 move)]"), "{out}");
    assert_eq!(fields(lines[2])[0], "em-adm2");
    assert!(lines[2].contains("Embed"), "{out}");
    assert!(lines[2].ends_with("[in play, 0 moves]"), "{out}");
    assert_eq!(fields(lines[3])[0], "mr-chal");
    assert!(
        lines[3].contains("Mad Rooks")
            && lines[3].contains("challenge from Alice Example to erin, not answered"),
        "{out}"
    );

    check_games_json(&site);

    // A damaged record is listed as such, and the exit status says so.
    fs::write(site.data().join("games/zz-bad.toml"), "rules = \"chess\"\n").unwrap();
    let o = site.run(&["games"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 5, "{out}");
    let bad = out.lines().find(|l| l.starts_with("zz-bad")).unwrap();
    assert!(bad.contains("DAMAGED"), "{out}");
    let o = site.run(&["games", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let bad = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|j| j["id"] == "zz-bad")
        .unwrap();
    assert_eq!(bad["kind"], "game");
    assert!(
        bad["error"].as_str().unwrap().contains("zz-bad.toml"),
        "{bad}"
    );
}
