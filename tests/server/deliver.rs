//! pbem at the edges of the mail system, run as the real binary: mail
//! piped in by an MTA (`pbem deliver` "Sources" and "Exactly
//! once") and mail handed to a sendmail binary. The sendmail here is a small shell script the test
//! writes, standing in for /usr/sbin/sendmail: it records how pbem called
//! it and can be told to fail.

use crate::common;

use pbem::config::INIT;
use pbem::mailbox::Maildir;
use pbem::record::Record;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const NOW: &str = "2026-11-20T10:00:00Z";
const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "bob@example.org";
/// sendmail's exit status for a temporary failure: the MTA keeps the mail
/// and pipes it again later.
const EX_TEMPFAIL: i32 = 75;

struct Site {
    dir: tempfile::TempDir,
    config: PathBuf,
}

impl Site {
    /// The embedded default: Maildir in, one Maildir per recipient out.
    fn new() -> Site {
        Site::with_settings(INIT)
    }

    fn with_settings(settings: &str) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("pbem.toml");
        fs::write(&config, settings).unwrap();
        Site { dir, config }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs `pbem ARGS --config pbem.toml` at `now`, with `stdin` piped in.
    fn run(&self, now: &str, args: &[&str], stdin: &[u8]) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(args)
            .arg("--config")
            .arg(&self.config)
            .env("PBEM_NOW", now)
            .env_remove("PBEM_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // pbem may exit before reading it all (a missing config): the
        // exit status is the answer, as it is for an MTA.
        let _ = child.stdin.take().unwrap().write_all(stdin);
        child.wait_with_output().unwrap()
    }

    fn deliver(&self, now: &str, mail: &[u8]) -> Output {
        self.run(now, &["deliver"], mail)
    }

    fn record(&self, id: &str) -> Record {
        let text = fs::read_to_string(self.path(&format!("data/games/{id}.toml"))).unwrap();
        Record::parse(&format!("{id}.toml"), &text).unwrap()
    }

    /// Starts Boom & Zoom `id`: Alice black, Bob red, red first.
    fn new_bz(&self, id: &str) {
        let o = self.run(
            NOW,
            &[
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
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }

    fn key(&self, id: &str, side: &str) -> String {
        let store = pbem::store::Store::open(self.path("data")).unwrap();
        let text = store.read_game(id).unwrap().unwrap();
        let rules = Record::parse(id, &text).unwrap().rules;
        let side = rules.side_named(side).unwrap();
        store.secrets(id, rules).unwrap().tokens[side]
            .clone()
            .unwrap()
    }

    /// Raw mails the Maildir transport delivered to `address`.
    fn mails_to(&self, address: &str) -> Vec<Vec<u8>> {
        let Ok(entries) = fs::read_dir(self.path("mail/sent").join(address).join("new")) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        files.iter().map(|f| fs::read(f).unwrap()).collect()
    }

    /// The data folder's files (not the lock), for "nothing changed".
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
        walk(&self.path("data"), &self.path("data"), &mut out);
        out.sort();
        out
    }

    /// The batches waiting in the outbox, and the mails in each.
    fn outbox(&self) -> Vec<usize> {
        pbem::outbox::queued_by_batch(&self.path("data/outbox/ready"))
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A player's mail to pbem, as an MTA would pipe it.
fn mail(from: &str, to: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "Return-Path: <{addr}>\r\nFrom: {from}\r\nTo: {to}\r\nSubject: {subject}\r\n\
         Message-ID: {message_id}\r\nDate: Fri, 20 Nov 2026 10:30:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        addr = pbem::reply::address_of(from)
    )
    .into_bytes()
}

/// Bob's move `#1 58-50`, sent to the reply address that carries his key.
fn bobs_move(site: &Site, id: &str, message_id: &str) -> Vec<u8> {
    mail(
        "Bob <bob@example.org>",
        &format!("pbem+{id}.{}@localhost", site.key(id, "red")),
        message_id,
        &format!("Re: [pbem {id}] Boom & Zoom: the game begins"),
        "#1 58-50",
    )
}

fn parse(raw: &[u8]) -> mail_parser::Message<'_> {
    mail_parser::MessageParser::default().parse(raw).unwrap()
}

/// The subject and the first line (what happened: the subject is the
/// game's, the same in every mail of it).
fn subject(raw: &[u8]) -> String {
    let m = parse(raw);
    format!(
        "{} | {}",
        m.subject().unwrap_or(""),
        m.body_text(0)
            .unwrap_or_default()
            .lines()
            .next()
            .unwrap_or("")
    )
}

#[test]
fn deliver_processes_a_piped_move_exactly_once() {
    let _shared = crate::common::lock::shared();
    let site = Site::new();
    site.new_bz("bz-del1");
    let id = "<move1@example.org>";
    let raw = bobs_move(&site, "bz-del1", id);
    let key = common::mail_key(&raw);

    let o = site.deliver("2026-11-20T10:30:00Z", &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rec = site.record("bz-del1");
    assert_eq!(rec.moves(), ["58-50"]);
    assert_eq!(rec.lines[0].message_id.as_deref(), Some(id));
    for who in ["alice@example.org", BOB] {
        let got = site.mails_to(who);
        assert_eq!(got.len(), 2, "{who}: the start and the move");
        assert!(
            got.iter().any(|m| subject(m).contains("58-50")),
            "{who} hears of 58-50"
        );
    }
    let committed = common::committed_keys(&site.path("data"));
    assert_eq!(committed.iter().filter(|k| **k == key).count(), 1);
    // deliver reads standard input only: the Maildir inbox is not used.
    let inbox = Maildir::open(site.path("mail/inbox")).unwrap();
    assert_eq!(fs::read_dir(inbox.root().join("cur")).unwrap().count(), 0);
    assert_eq!(site.outbox(), Vec::<usize>::new());

    // The MTA pipes the same mail again (it did not see the exit status):
    // nothing is done twice, even an hour later.
    let before = site.snapshot();
    let o = site.deliver("2026-11-20T11:30:00Z", &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.snapshot(), before);
    assert_eq!(site.mails_to("alice@example.org").len(), 2);
    assert_eq!(site.mails_to(BOB).len(), 2);

    // The same move re-sent as a new mail (a new Message-ID) is stale:
    // refused, and only Bob is told.
    let again = bobs_move(&site, "bz-del1", "<move1-again@example.org>");
    let o = site.deliver("2026-11-20T11:35:00Z", &again);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("bz-del1").moves(), ["58-50"]);
    assert_eq!(site.mails_to("alice@example.org").len(), 2);
    let to_bob = site.mails_to(BOB);
    assert_eq!(to_bob.len(), 3);
    let refusal = to_bob
        .iter()
        .find(|m| parse(m).in_reply_to().as_text() == Some("move1-again@example.org"))
        .expect("Bob's refusal answers his mail");
    let text = parse(refusal).body_text(0).unwrap().to_string();
    assert!(text.contains("#1"), "{text}");
}

#[test]
fn deliver_exits_75_when_it_cannot_work_now_and_the_retry_succeeds() {
    let _shared = crate::common::lock::shared();
    let site = Site::new();
    site.new_bz("bz-del1");
    let raw = bobs_move(&site, "bz-del1", "<move1@example.org>");
    let tempfail = |what: &str, message: &str| {
        let o = site.deliver(NOW, &raw);
        assert_eq!(o.status.code(), Some(EX_TEMPFAIL), "{what}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("ERROR deliver-failed exit=75 "),
            "{what}: {err}"
        );
        assert!(err.contains(message), "{what}: `{message}` not in {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(site.mails_to(BOB).len(), 1, "{what}: nothing sent");
    };

    // No settings file.
    fs::rename(&site.config, site.path("pbem.toml.away")).unwrap();
    tempfail("no config", "pbem.toml: No such file or directory");
    // Settings that do not parse.
    fs::write(&site.config, "address = \"pbem@localhost\"\n[inbox\n").unwrap();
    tempfail("bad TOML", "pbem.toml: line 2");
    fs::rename(site.path("pbem.toml.away"), &site.config).unwrap();

    // The data folder cannot be written (here: a file is in its way).
    fs::rename(site.path("data"), site.path("data.away")).unwrap();
    fs::write(site.path("data"), "not a folder").unwrap();
    tempfail("data is a file", "data/games: Not a directory");
    fs::remove_file(site.path("data")).unwrap();
    fs::rename(site.path("data.away"), site.path("data")).unwrap();
    assert!(site.record("bz-del1").moves().is_empty());

    // The MTA tries again once things are fixed: the move is made.
    let o = site.deliver(NOW, &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("bz-del1").moves(), ["58-50"]);
    assert_eq!(site.mails_to(BOB).len(), 2);
}

/// item 8: a stranger who sends any mail with the Message-ID a
/// player will use next, even one forged as from the player, does not
/// spoil the player's move; and the skipped copy of a mail is logged.
#[test]
fn a_strangers_mail_with_a_players_next_message_id_spoils_nothing() {
    let _shared = crate::common::lock::shared();
    let site = Site::new();
    site.new_bz("bz-del1");
    let id = "<move1@example.org>";
    // Two strangers' mails first: one of their own, one with Bob's name
    // in From and another body (it has no key: it moves nothing).
    for (from, body) in [
        ("Mallory <mallory@example.org>", "help"),
        ("Bob <bob@example.org>", "#1 58-49"),
    ] {
        let raw = mail(from, "pbem@localhost", id, "hi", body);
        let o = site.deliver(NOW, &raw);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert!(site.record("bz-del1").moves().is_empty());
    // Then Bob's move, with the same id: played, and Alice told.
    let raw = bobs_move(&site, "bz-del1", id);
    let o = site.deliver(NOW, &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("bz-del1").moves(), ["58-50"]);
    assert_eq!(
        site.mails_to("alice@example.org").len(),
        2,
        "Alice hears of it"
    );
    // The very same mail again is skipped, and the log says so.
    let o = site.deliver(NOW, &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let key = common::mail_key(&raw);
    assert!(
        stderr(&o).contains("skipped-processed") && stderr(&o).contains(&key),
        "{}",
        stderr(&o)
    );
    assert_eq!(site.record("bz-del1").moves(), ["58-50"]);
}

#[test]
fn deliver_failing_after_the_record_is_written_retries_without_doubling() {
    let _shared = crate::common::lock::shared();
    let site = Site::new();
    site.new_bz("bz-del1");
    let id = "<move1@example.org>";
    let raw = bobs_move(&site, "bz-del1", id);
    let key = common::mail_key(&raw);
    // The key cannot be committed (its journal is a link into a folder
    // that does not exist: it reads as empty, but cannot be written, as a
    // full disk would stop the append): the record and the replies are
    // written and synced, the mail is not committed.
    let blocked = site.path("data/processed").join(format!(
        "recent-{:x}.log",
        pbem::store::stable_hash(key.as_bytes()) >> 60
    ));
    fs::create_dir_all(blocked.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(site.path("no-such-folder/keys"), &blocked).unwrap();
    let o = site.deliver(NOW, &raw);
    assert_eq!(o.status.code(), Some(EX_TEMPFAIL), "{}", stderr(&o));
    assert!(stderr(&o).contains("left in the mailbox"), "{}", stderr(&o));
    assert_eq!(site.record("bz-del1").moves(), ["58-50"]);
    assert_eq!(site.mails_to(BOB).len(), 1, "no news sent yet");
    let committed = common::committed_keys(&site.path("data"));
    assert!(!committed.iter().any(|k| **k == key), "{committed:?}");

    // The MTA's retry finds the move in the record: it is not played
    // again, and the news goes out once.
    fs::remove_file(&blocked).unwrap();
    let o = site.deliver("2026-11-20T10:05:00Z", &raw);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rec = site.record("bz-del1");
    assert_eq!(rec.moves(), ["58-50"]);
    assert_eq!(rec.lines.len(), 1);
    for who in ["alice@example.org", BOB] {
        let got = site.mails_to(who);
        assert_eq!(got.len(), 2, "{who}");
        assert_eq!(
            got.iter().filter(|m| subject(m).contains("58-50")).count(),
            1
        );
    }
}

#[test]
fn deliver_drops_what_can_never_be_processed() {
    let _shared = crate::common::lock::shared();
    let site = Site::new();
    site.new_bz("bz-del1");
    let mut binary: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    binary.extend_from_slice(b"\r\n\r\n\xff\xfe");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("text, no headers", b"garbage garbage\n".to_vec()),
        ("binary", binary),
        (
            "no From",
            b"To: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <nofrom@x>\r\n\r\nhelp\r\n".to_vec(),
        ),
        (
            "a bounce",
            b"From: MAILER-DAEMON@example.org\r\nTo: pbem@localhost\r\nSubject: Undelivered Mail\r\n\
              Auto-Submitted: auto-replied\r\nMessage-ID: <bounce@x>\r\n\r\n#1 58-50\r\n"
                .to_vec(),
        ),
    ];
    for (what, raw) in &cases {
        let before = site.snapshot();
        let o = site.deliver(NOW, raw);
        let err = stderr(&o);
        // Retrying could never help: the MTA must not keep it.
        assert_eq!(o.status.code(), Some(0), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(err.contains("dropped"), "{what}: {err}");
        assert!(site.record("bz-del1").moves().is_empty(), "{what}");
        assert_eq!(site.mails_to(BOB).len(), 1, "{what}: no mail sent");
        assert_eq!(site.mails_to("alice@example.org").len(), 1);
        // Only the processed keys change: one more committed key.
        let after = site.snapshot();
        let changed: Vec<&String> = after
            .iter()
            .filter(|f| !before.contains(f))
            .map(|f| &f.0)
            .collect();
        assert!(
            changed.len() == 1 && changed[0].starts_with("processed/"),
            "{what}: {changed:?}"
        );
    }
    assert_eq!(
        fs::read_dir(site.path("mail/sent")).unwrap().count(),
        2,
        "nobody else was written to"
    );
}

/// Writes the stand-in sendmail into the site's folder and returns the
/// settings that use it.
fn fake_sendmail(dir: &Path) -> String {
    let script = dir.join("fake-sendmail");
    fs::create_dir_all(dir.join("calls")).unwrap();
    fs::write(
        &script,
        r#"#!/bin/sh
# A stand-in for sendmail: records each call (arguments, standard input,
# exit status) in calls/NNN/, and fails for the recipients listed in the
# file `fail` (`*`: all of them).
here=$(dirname "$0")
n=$(ls "$here/calls" | wc -l)
call="$here/calls/$(printf %03d "$n")"
mkdir "$call"
printf '%s\n' "$@" > "$call/args"
cat > "$call/stdin"
for arg in "$@"; do last=$arg; done
if [ -f "$here/fail" ] && grep -qxF -e "$last" -e '*' "$here/fail"; then
    echo "fake sendmail: cannot reach $last" >&2
    echo 1 > "$call/status"
    exit 1
fi
echo 0 > "$call/status"
"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let maildir = "transport = \"maildir\"\nfolder = \"mail/sent\"\n";
    assert!(INIT.contains(maildir), "INIT changed");
    INIT.replace(
        maildir,
        &format!(
            "transport = \"sendmail\"\ncommand = \"{}\"\n",
            script.display()
        ),
    )
}

/// One call of the fake sendmail.
#[derive(Debug)]
struct Call {
    args: Vec<String>,
    stdin: Vec<u8>,
    ok: bool,
}

impl Call {
    fn to(&self) -> &str {
        self.args.last().unwrap()
    }
}

fn calls(site: &Site) -> Vec<Call> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(site.path("calls"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.iter()
        .map(|d| Call {
            args: fs::read_to_string(d.join("args"))
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect(),
            stdin: fs::read(d.join("stdin")).unwrap(),
            ok: fs::read_to_string(d.join("status")).unwrap().trim() == "0",
        })
        .collect()
}

fn sendmail_site() -> Site {
    let dir = tempfile::tempdir().unwrap();
    let settings = fake_sendmail(dir.path());
    let config = dir.path().join("pbem.toml");
    fs::write(&config, settings).unwrap();
    Site { dir, config }
}

/// Puts a mail into pbem's Maildir inbox, for `pbem poll`.
fn to_inbox(site: &Site, name: &str, raw: &[u8]) {
    Maildir::open(site.path("mail/inbox"))
        .unwrap()
        .deliver(name, raw)
        .unwrap();
}

#[test]
fn sendmail_gets_the_envelope_and_the_whole_message() {
    let _shared = crate::common::lock::shared();
    let site = sendmail_site();
    site.new_bz("bz-sm1");
    let started = calls(&site);
    assert_eq!(started.len(), 2, "{started:?}");
    assert!(started.iter().all(|c| c.ok));
    let mut to: Vec<&str> = started.iter().map(Call::to).collect();
    to.sort();
    assert_eq!(to, ["alice@example.org", BOB]);

    to_inbox(
        &site,
        "1.bob",
        &bobs_move(&site, "bz-sm1", "<move1@example.org>"),
    );
    let o = site.run("2026-11-20T10:30:00Z", &["poll"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.record("bz-sm1").moves(), ["58-50"]);
    let news = &calls(&site)[2..];
    assert_eq!(news.len(), 2, "{news:?}");
    let keys = [
        ("alice@example.org", site.key("bz-sm1", "black")),
        (BOB, site.key("bz-sm1", "red")),
    ];
    for (address, key) in keys {
        let call = news.iter().find(|c| c.to() == address).unwrap();
        assert!(call.ok);
        // The envelope: -i (a line "." does not end the mail), the sender
        // for bounces, and exactly one recipient after "--".
        assert_eq!(
            call.args,
            ["-i", "-f", "pbem@localhost", "--", address],
            "{address}"
        );
        // The whole message, headers and both parts, to its last boundary.
        let m = parse(&call.stdin);
        assert_eq!(
            m.from().and_then(|a| a.first()).and_then(|a| a.address()),
            Some("pbem@localhost")
        );
        assert_eq!(
            m.to().and_then(|a| a.first()).and_then(|a| a.address()),
            Some(address)
        );
        assert!(
            m.subject()
                .unwrap()
                .starts_with("[pbem bz-sm1] Boom & Zoom:")
                && subject(&call.stdin).contains("58-50"),
            "{:?}",
            m.subject()
        );
        // The mover's mail answers theirs; the other player's follows the
        // last mail pbem sent them in the game.
        if address == BOB {
            assert_eq!(m.in_reply_to().as_text(), Some("move1@example.org"));
        }
        assert_eq!(
            m.reply_to()
                .and_then(|a| a.first())
                .and_then(|a| a.address()),
            Some(format!("pbem+bz-sm1.{key}@localhost").as_str())
        );
        assert!(
            m.message_id()
                .is_some_and(|id| id.starts_with("pbem.bz-sm1."))
        );
        assert_eq!(
            m.header_raw("Auto-Submitted").map(str::trim),
            Some("auto-replied")
        );
        let text = m.body_text(0).unwrap();
        assert!(text.contains("Last move: 58-50"), "{text}");
        let html = m.body_html(0).unwrap();
        // The board as a table, the last move's squares marked in it.
        assert!(html.contains("<table") && html.contains("title=\"58, last move\""));
        let raw = String::from_utf8_lossy(&call.stdin);
        let boundary = raw
            .split("boundary=\"")
            .nth(1)
            .and_then(|b| b.split('"').next())
            .unwrap();
        assert!(
            raw.trim_end().ends_with(&format!("--{boundary}--")),
            "the message is whole:\n{raw}"
        );
    }
    assert_eq!(site.outbox(), Vec::<usize>::new(), "nothing left to send");
}

#[test]
fn a_failing_sendmail_keeps_the_replies_for_the_next_poll_which_sends_each_once() {
    let _shared = crate::common::lock::shared();
    let site = sendmail_site();
    site.new_bz("bz-sm1");
    assert_eq!(calls(&site).len(), 2);
    let fail = site.path("fail");

    // Sendmail fails for everyone: the move is made (the mail is done),
    // both replies wait in the outbox, and the poll says so.
    fs::write(&fail, "*\n").unwrap();
    to_inbox(
        &site,
        "1.bob",
        &bobs_move(&site, "bz-sm1", "<move1@example.org>"),
    );
    let o = site.run("2026-11-20T10:30:00Z", &["poll"], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("WARN  not-sent error="), "{err}");
    assert!(err.contains("fake sendmail: cannot reach"), "{err}");
    assert_eq!(site.record("bz-sm1").moves(), ["58-50"]);
    assert!(site.path("mail/inbox/cur/1.bob:2,S").exists());
    assert_eq!(site.outbox(), [2]);
    let tried = calls(&site);
    assert_eq!(tried.len(), 4);
    assert!(tried[2..].iter().all(|c| !c.ok));

    // Now only Bob's address fails; meanwhile a stranger asks for help,
    // and that reply goes out at once.
    fs::write(&fail, format!("{BOB}\n")).unwrap();
    to_inbox(
        &site,
        "2.carol",
        &mail(
            "carol@example.org",
            "pbem@localhost",
            "<help1@example.org>",
            "help",
            "help",
        ),
    );
    let o = site.run("2026-11-20T11:00:00Z", &["poll"], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // Left: Bob's news alone, in its batch; Carol's batch is gone whole.
    assert_eq!(site.outbox(), [1]);
    let ready = fs::read_dir(site.path("data/outbox/ready"))
        .unwrap()
        .count();
    assert_eq!(ready, 1, "sent batches leave nothing behind");

    // Sendmail works again: Bob's news goes out, once; then nothing more.
    fs::remove_file(&fail).unwrap();
    let o = site.run("2026-11-20T11:30:00Z", &["poll"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(site.outbox(), Vec::<usize>::new());
    let o = site.run("2026-11-20T12:00:00Z", &["poll"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let all = calls(&site);
    let delivered = |to: &str| -> Vec<String> {
        all.iter()
            .filter(|c| c.ok && c.to() == to)
            .map(|c| subject(&c.stdin))
            .collect()
    };
    let news = |to: &str| delivered(to).iter().filter(|s| s.contains("58-50")).count();
    assert_eq!(news("alice@example.org"), 1, "{all:#?}");
    assert_eq!(news(BOB), 1, "{all:#?}");
    assert_eq!(delivered("carol@example.org").len(), 1);
    assert_eq!(delivered(BOB).len(), 2, "the start and the news");
    // What was retried is the mail that failed, not a new one.
    let ids = |to: &str| -> Vec<String> {
        all.iter()
            .filter(|c| c.to() == to && subject(&c.stdin).contains("58-50"))
            .map(|c| parse(&c.stdin).message_id().unwrap().to_string())
            .collect()
    };
    let bob_ids = ids(BOB);
    assert_eq!(bob_ids.len(), 3, "tried at 10:30, 11:00, sent at 11:30");
    assert!(bob_ids.iter().all(|i| *i == bob_ids[0]), "{bob_ids:?}");
}
