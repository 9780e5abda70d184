//! Names and paths: game ids, mail keys, addresses and template
//! names can never name a file outside the data folder nor inject a
//! header. The whole mail path is tried with hostile mail in
//! tests/mail/badmail.rs; here each gate is tried on its own.

use minijinja::Value;
use pbem::mail::outbound;
use pbem::mail::templates::{DEFAULTS, Templates};
use pbem::poll::mail_key;
use pbem::reply::{Identity, Reply, mailbox};
use pbem::rules::Rules;
use pbem::store::{Challenge, Secrets, Store, valid_id};
use pbem::transport::folder_name;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Ids that try to leave the folder, or are just not ids.
const HOSTILE_IDS: &[&str] = &[
    "",
    ".",
    "..",
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "a/b",
    "a\\b",
    "..\\..\\x",
    "bz-test1/../bz-test1",
    "bz-test1\0",
    "bz\0test1",
    "bz-test1\n",
    "bz-test1 ",
    " bz-test1",
    "-rf",
    "BZ-TEST1",
    "bz_test1",
    "bz.test1",
    "bz-test1.toml",
    "%2e%2e",
    "．．",
    "bz‐test1",
    "a",
    "x123456789x123456789x123456789x123456789x",
    "~",
    "~root",
    "$HOME",
    "*",
    "bz-test1;rm",
];

/// Every file under `dir`, with its contents.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn hostile_ids_name_no_file() {
    let _shared = crate::common::lock::shared();
    for id in HOSTILE_IDS {
        assert!(!valid_id(id), "{id:?} passed as a game id");
    }
    for id in ["bz-test1", "bz-7k2q", "mad-00000", "0a", "a-b-c-d"] {
        assert!(valid_id(id), "{id}");
    }
    let top = tempfile::tempdir().unwrap();
    let store = Store::open(top.path().join("a/b/data")).unwrap();
    let before = tree(top.path());
    let challenge = Challenge {
        rules: "mad".parse().unwrap(),
        challenger: "a@example.org".into(),
        opponent: "b@example.org".into(),
        challenger_side: pbem::game::Side::A,
        first: pbem::game::Side::A,
        created: "2026-11-20T10:00:00Z".parse().unwrap(),
        clock: None,
        source: None,
        series: None,
        rated: true,
        after: None,
    };
    for id in HOSTILE_IDS {
        assert!(store.game_path(id).is_err(), "{id:?}");
        assert!(store.read_game(id).is_err(), "{id:?}");
        assert!(store.write_game(id, "x").is_err(), "{id:?}");
        assert!(store.secrets(id, Rules::BoomAndZoom).is_err(), "{id:?}");
        assert!(
            store
                .write_secrets(id, Rules::BoomAndZoom, &Secrets::default())
                .is_err(),
            "{id:?}"
        );
        assert!(store.challenge(id).is_err(), "{id:?}");
        assert!(store.write_challenge(id, &challenge).is_err(), "{id:?}");
        assert!(store.remove_challenge(id).is_err(), "{id:?}");
    }
    assert_eq!(tree(top.path()), before, "a hostile id wrote a file");
    // Files that are not named by an id are not games.
    for name in [
        "Evil Name.toml",
        "..toml",
        ".hidden.toml",
        "a.b.toml",
        "x.txt",
    ] {
        fs::write(store.root().join("games").join(name), "rules = \"mad\"").unwrap();
        fs::write(store.root().join("challenges").join(name), "x").unwrap();
    }
    store.write_game("bz-ok1", "rules = \"mad\"").unwrap();
    assert_eq!(store.game_ids().unwrap(), ["bz-ok1"]);
    assert!(store.challenge_ids().unwrap().is_empty());
}

#[test]
fn a_mail_key_is_one_line_of_the_processed_keys() {
    let _shared = crate::common::lock::shared();
    let top = tempfile::tempdir().unwrap();
    let store = Store::open(top.path()).unwrap();
    let mut keys = std::collections::HashSet::new();
    // Keys as the poll makes them: never a line break, whatever the
    // Message-ID or the sender holds, and a long id is no trouble.
    let long = format!("<{}@x>", "i".repeat(10_000));
    for id in [
        "<a@b>\n<victim@x> .",
        "<a\r\nb@c>",
        "<a\0b@c>",
        "<a b c@d>",
        "<\u{2028}@x>",
        &long,
    ] {
        let key = mail_key(b"raw", Some("a\n b@c"), Some(id));
        assert!(key.starts_with("mail:") && key.len() == 37, "{key:?}");
        assert!(!key.chars().any(|c| c.is_control() || c == ' '), "{key:?}");
        store.mark_processed(&key).unwrap();
        keys.insert(key);
    }
    assert_eq!(keys.len(), 6, "six ids, six keys");
    // And a key made elsewhere is refused, not written as two lines.
    for key in ["<a@b> .\n<victim@x>", "x\ry", "", "\0"] {
        assert!(store.mark_processed(key).is_err(), "{key:?}");
    }
    assert_eq!(store.processed().unwrap().all().unwrap(), keys);
}

/// item 8: a mail's key is its sender, its Message-ID as
/// written and its body; the id alone, or the id with its spaces taken
/// out, is not.
#[test]
fn a_mail_key_is_sender_id_and_body() {
    let _shared = crate::common::lock::shared();
    let mail = |from: &str, id: &str, body: &str| {
        format!("From: {from}\r\nMessage-ID: {id}\r\nReceived: by relay\r\n\r\n{body}\r\n")
    };
    let key = |from: &str, id: &str, body: &str| {
        mail_key(mail(from, id, body).as_bytes(), Some(from), Some(id))
    };
    let bob = key("bob@example.org", "<m1@x>", "#1 58-50");
    // The same mail come again by another way is the same mail.
    let again = mail("bob@example.org", "<m1@x>", "#1 58-50").replace(
        "Received: by relay",
        "Received: by another relay\r\nX-Spam: no",
    );
    assert_eq!(
        mail_key(again.as_bytes(), Some("Bob@Example.org"), Some("<m1@x>")),
        bob
    );
    let piped = mail("bob@example.org", "<m1@x>", "#1 58-50").replace("\r\n", "\n");
    assert_eq!(
        mail_key(piped.as_bytes(), Some("bob@example.org"), Some("<m1@x>")),
        bob,
        "LF or CRLF, one mail"
    );
    let fetched = format!("Return-Path: <bob@example.org>\n{piped} \n\n");
    assert_eq!(
        mail_key(fetched.as_bytes(), Some("bob@example.org"), Some("<m1@x>")),
        bob,
        "a blank line more at the end, as IMAP gives it: one mail"
    );
    for (other, what) in [
        (
            key("mallory@example.org", "<m1@x>", "#1 58-50"),
            "another sender",
        ),
        (key("bob@example.org", "<m1@x>", "help"), "another body"),
        (
            key("bob@example.org", "<m 1@x>", "#1 58-50"),
            "a space in the id",
        ),
        (
            key("bob@example.org", "<m1@X>", "#1 58-50"),
            "the id in other case",
        ),
    ] {
        assert_ne!(other, bob, "{what} is another mail");
    }
    // Without a Message-ID, the whole mail is the key.
    let raw = mail("bob@example.org", "<m1@x>", "x");
    assert_ne!(mail_key(raw.as_bytes(), Some("bob@example.org"), None), bob);
    assert_eq!(
        mail_key(raw.as_bytes(), None, None),
        mail_key(raw.as_bytes(), Some("bob@example.org"), None)
    );
}

#[test]
fn a_recipient_folder_is_one_plain_path_component() {
    let _shared = crate::common::lock::shared();
    for a in [
        "/etc/passwd@example.org",
        "../../x@example.org",
        "a/../../b@example.org",
        "./x@example.org",
        ".@example.org",
        "..@example.org",
        "a\\b@example.org",
        "a\0b@example.org",
        "a\nb@example.org",
        "%2e%2e%2f@example.org",
        "Bob@Example.ORG",
    ] {
        let f = folder_name(a);
        assert!(!f.is_empty(), "{a:?}");
        assert!(!f.contains(['/', '\\', '\0', '\n']), "{a:?} -> {f:?}");
        assert!(!f.starts_with('.'), "{a:?} -> {f:?}");
        assert_eq!(Path::new(&f).components().count(), 1, "{a:?} -> {f:?}");
    }
    // Distinct addresses keep distinct folders.
    assert_ne!(folder_name("a/b@x.org"), folder_name("a%2fb@x.org"));
    assert_eq!(folder_name("Bob@Example.ORG"), "bob@example.org");
}

#[test]
fn template_names_reach_only_the_templates() {
    let _shared = crate::common::lock::shared();
    let t = Templates::with_strictness(None, false);
    for name in [
        "../../../../etc/passwd",
        "/etc/passwd",
        "info/../info",
        "info.txt",
        "",
        "subject:info",
    ] {
        assert!(t.render(name, Value::from(())).is_err(), "{name:?}");
    }
    // A custom template cannot include a file: only pbem's templates are
    // loaded, by name, and there is no loader behind them.
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "SECRET").unwrap();
    for (name, body) in [
        (
            "info.txt",
            format!("Subject: x\n\n{{% include \"{}\" %}}\n", secret.display()),
        ),
        (
            "help.txt",
            "Subject: x\n\n{% include \"../secret.txt\" %}\n".to_string(),
        ),
        (
            "board.txt",
            "Subject: {% include \"secret.txt\" %}\n\nx\n".to_string(),
        ),
    ] {
        fs::write(dir.path().join(name), body).unwrap();
    }
    // A file named like a path is never read.
    fs::write(dir.path().join("..info.txt"), "Subject: SECRET\n\nSECRET\n").unwrap();
    let t = Templates::new(Some(dir.path().to_path_buf()));
    for name in ["info", "help", "board"] {
        match t.render(name, Value::from(())) {
            Ok(r) => assert!(
                !r.text.contains("SECRET") && !r.subject.contains("SECRET"),
                "{name}: {r:?}"
            ),
            Err(e) => assert!(!e.to_string().contains("SECRET"), "{e}"),
        }
    }
    assert!(t.render("..info", Value::from(())).is_err());
}

/// Whatever the values a template is given, the mail pbem builds has its
/// headers only: every default template, every value hostile.
#[test]
fn no_value_injects_a_header() {
    let _shared = crate::common::lock::shared();
    let t = Templates::with_strictness(None, false);
    let identity = Identity::at("pbem@example.net");
    let evil = [
        "x\r\nBcc: evil@example.com",
        "x\nBcc: evil@example.com\n\nbody",
        "x\rBcc: evil@example.com",
        "=?utf-8?q?x=0D=0ABcc:_evil@example.com?=",
        "x\0y",
        "\u{2028}Bcc: evil@example.com",
        "\u{85}Bcc: evil@example.com",
    ];
    let keys = [
        "id",
        "game",
        "what",
        "title",
        "text",
        "challenger",
        "opponent",
        "mover",
        "move",
        "result",
        "reason",
        "command",
        "subject",
        "message_id",
        "players",
        "your_side",
        "first",
        "board",
        "legal",
        "from",
        "skipped",
        "record",
        "author",
        "summary",
        "notation",
        "turn",
        "example",
    ];
    for value in evil {
        let ctx: Value = keys
            .iter()
            .map(|k| (Value::from(*k), Value::from(value)))
            .collect();
        for (file, _) in DEFAULTS {
            let Some(name) = file.strip_suffix(".txt").filter(|n| !n.starts_with('_')) else {
                continue;
            };
            let rendered = t.render(name, ctx.clone()).unwrap();
            for to in [
                "bob@example.org".to_string(),
                mailbox(Some(value), "bob@example.org"),
            ] {
                let reply = Reply {
                    kind: pbem::reply::Kind::Answer,
                    to,
                    rendered: rendered.clone(),
                    game: Some("bz-test1".into()),
                    reply_to: Some(identity.reply_to("bz-test1", "k3y")),
                    head: None,
                };
                let raw = outbound::build(
                    &identity,
                    &reply,
                    "<pbem.bz-test1.1@example.net>",
                    Some("<a@example.org>"),
                    &["<a@example.org>".to_string()],
                    chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
                        .unwrap()
                        .to_utc(),
                )
                .unwrap_or_else(|e| panic!("{name} with {value:?}: {e}"))
                .raw;
                outbound::check_headers(&raw, "bob@example.org")
                    .unwrap_or_else(|e| panic!("{name} with {value:?}: {e}"));
            }
        }
    }
}
