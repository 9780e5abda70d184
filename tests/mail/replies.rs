//! Real replies to pbem's mail, run through the real `pbem poll`: does pbem
//! read the player's command and nothing of its own mail quoted below or
//! above it?
//!
//! Every case is Alice's reply to the news mail pbem sent her when Bob
//! played: the setup has pbem itself process Bob's move mail (game
//! `bz-test1`, fixed keys, clock pinned), so the mail she replies to is
//! byte for byte what pbem sent, with the same Message-ID and Reply-To
//! `pbem+bz-test1.alicekey2345@example.net`, and pbem has it in its data
//! folder. Then the reply goes into the inbox and `pbem poll` runs again.
//!
//! - `tests/replies/real/<client>-<variant>.eml`: captured from real mail
//!   clients (mutt, neomutt, s-nail, alpine, bsd-mailx, GNU mailutils,
//!   nmh, aerc and Emacs driven in tmux; Thunderbird, Claws Mail,
//!   Sylpheed, Balsa and Evolution under Xvfb with xdotool) by
//!   `scripts/client-replies`, which redoes the whole capture from nothing
//!   (packages, pbem's mail, every client) in one command: run it again
//!   whenever pbem's wording changes.
//! - `tests/replies/shapes/<client>-<lang>-<shape>.eml`: replies written in
//!   the shapes of clients that cannot run here (Gmail, Outlook, Apple Mail,
//!   Yahoo, ... in many languages), after the public reply-parser test
//!   suites; made by `tests/replies/shapes/make-shapes.py` from pbem's
//!   mail (`scripts/client-replies --shapes-only` remakes them), some
//!   quoting a wording pbem no longer sends (`X-Reply-Wording`).
//!
//! Every case runs twice: as it is, and with pbem's memory of the lines it
//! sent (`DATA/sent/`) removed before the reply is polled.
//!
//! Each fixture starts with driver headers, stripped before delivery:
//! `X-Reply-Expect:` `move 13-21` (Alice's move is played, once, and the
//! news goes to both players, nothing else), `board` (only the board goes
//! to Alice, the record is unchanged) or `chatter` (no command: the record
//! is unchanged and at most the "no command" answer goes out);
//! `X-Reply-Note:` what the case is; and, in the `*-old-*` shapes,
//! `X-Reply-Wording:` the earlier wording of pbem's mail the reply quotes
//! (a game outlives its templates: a player answers a mail worded before
//! they last changed).
//!
//! Each case runs twice: as is, and with pbem's memory of the lines it
//! sent (`DATA/sent/`) deleted before the reply is polled. Both must hold:
//! the memory is a second line of defence, the reply's shape the first.
//!
//! ```text
//! cargo test --test mail replies::                          every case
//! REPLY_CASE=gmail cargo test --test mail replies::         names containing "gmail"
//! PBEM_REPLIES_PREPARE=DIR cargo test --test mail replies::prepare_only
//!     writes Alice's Maildir (pbem's mail to her, in new/) to DIR and
//!     nothing else (what scripts/client-replies gives the clients)
//! ```

use crate::common::pbem_setup;

use pbem_setup::{ALICE_KEY, BOB_KEY, BOB_REPLY_TO, Pbem, Sent, bz_record, copy_maildir};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// When Bob's move mail is polled (step 1).
const BOB_NOW: &str = "2026-11-19T11:33:00Z";
/// When Alice's reply is polled (step 2).
const NOW: &str = "2026-11-20T10:00:00Z";

/// Black's first move; red (Bob) to play move #2.
const OPENING: &str = "1. black 6-13  2026-11-19T09:17:00Z <bz1.1@example.org>\n";

/// Bob's move mail: `61-34`, a reply to pbem's news of Alice's move 1.
fn bob_mail() -> String {
    format!(
        "Return-Path: <bob@example.org>\n\
         From: Bob Example <bob@example.org>\n\
         To: pbem <{BOB_REPLY_TO}>\n\
         Subject: Re: [pbem bz-test1] Boom & Zoom: black played 6-13\n\
         Date: Thu, 19 Nov 2026 12:32:40 +0100\n\
         Message-ID: <bz1.2@example.org>\n\
         MIME-Version: 1.0\n\
         Content-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 7bit\n\
         \n\
         61-34\n"
    )
}

/// Step 1: a pbem that has just processed Bob's move; pbem's mail to Alice.
fn after_bobs_move() -> (Pbem, Sent) {
    let mut p = Pbem::new();
    p.write_game(
        "bz-test1",
        &bz_record("bz-test1", "*", OPENING),
        [ALICE_KEY, BOB_KEY],
    );
    p.deliver(bob_mail().as_bytes());
    let log = p.poll(BOB_NOW);
    let sent = p.sent();
    assert!(
        p.record("bz-test1").contains("61-34") && sent.len() == 2,
        "setup: Bob's move 61-34 was not played as expected\n{log}\n{:?}",
        sent.iter().map(Sent::subject).collect::<Vec<_>>()
    );
    let alice = sent
        .iter()
        .find(|s| s.to == "alice@example.org")
        .expect("setup: pbem sent Alice the news")
        .clone();
    (p, alice)
}

/// What a fixture says must happen.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    Move(String),
    Board,
    Chatter,
}

struct Case {
    name: String,
    expect: Expect,
    mail: Vec<u8>,
}

fn read_case(path: &Path) -> Result<Case, String> {
    let raw = fs::read(path).map_err(|e| e.to_string())?;
    let mut expect = None;
    let mut mail = Vec::with_capacity(raw.len());
    let mut in_header = true;
    let mut skipping = false;
    for line in raw.split_inclusive(|b| *b == b'\n') {
        if in_header {
            if line == b"\n" || line == b"\r\n" {
                in_header = false;
            } else if line.starts_with(b" ") || line.starts_with(b"\t") {
                if skipping {
                    continue;
                }
            } else {
                let text = String::from_utf8_lossy(line);
                let lower = text.to_ascii_lowercase();
                skipping = lower.starts_with("x-reply-");
                if lower.starts_with("x-reply-expect:") {
                    let v = text["x-reply-expect:".len()..].trim().to_string();
                    let mut w = v.split_whitespace();
                    expect = Some(match (w.next(), w.next()) {
                        (Some("move"), Some(m)) => Expect::Move(m.to_string()),
                        (Some("board"), None) => Expect::Board,
                        (Some("chatter"), None) => Expect::Chatter,
                        _ => return Err(format!("bad X-Reply-Expect `{v}`")),
                    });
                }
                if skipping {
                    continue;
                }
            }
        }
        mail.extend_from_slice(line);
    }
    Ok(Case {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        expect: expect.ok_or("no X-Reply-Expect header")?,
        mail,
    })
}

/// The moves of the record's move list (the lines between the `"""`).
fn move_lines(record: &str) -> Vec<String> {
    record
        .split("\"\"\"")
        .nth(1)
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The `fate="..."` of the poll log's mail line(s).
fn fates(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.split_once("fate=\"").map(|(_, f)| f))
        .map(|f| f.strip_suffix('"').unwrap_or(f).to_string())
        .collect()
}

/// The `refused=N` of the poll log's summary line.
fn refused(log: &str) -> Option<u32> {
    log.lines()
        .filter(|l| l.contains(" poll handled="))
        .find_map(|l| l.split("refused=").nth(1))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// What one case's poll did, for the checks of each [`Expect`].
struct Polled {
    before_record: String,
    after_record: String,
    sent: Vec<Sent>,
    fates: Vec<String>,
    refused: Option<u32>,
    /// "to: headline" of each mail sent, for the messages.
    subjects: Vec<String>,
}

impl Polled {
    /// The move `m` was played and told to both players, and nothing else.
    fn check_move(&self, m: &str, wrong: &mut Vec<String>) {
        let Polled {
            before_record,
            after_record,
            sent,
            fates,
            refused,
            subjects,
            ..
        } = self;
        let before = move_lines(before_record);
        let after = move_lines(after_record);
        let new: Vec<&String> = after.iter().skip(before.len()).collect();
        if after.get(..before.len()) != Some(&before[..]) {
            wrong.push("the moves already played changed".to_string());
        }
        let played = |l: &&String| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.get(1) == Some(&"black") && w.get(2) == Some(&m)
        };
        if new.len() != 1 || !new.iter().all(played) {
            wrong.push(format!(
                "expected the one new record line `3. black {m} ...`, got {new:?}"
            ));
        }
        if *refused != Some(0) {
            wrong.push(format!("the poll refused something (refused={refused:?})"));
        }
        if *fates != [format!("bz-test1: black played {m}")] {
            wrong.push(format!(
                "expected the fate `bz-test1: black played {m}`, got {fates:?}"
            ));
        }
        let news_of_move = |to: &str| {
            sent.iter()
                .any(|s| s.to == to && s.headline().starts_with(&format!("Black played {m} ")))
        };
        if sent.len() != 2 || !news_of_move("alice@example.org") || !news_of_move("bob@example.org")
        {
            wrong.push(format!(
                "expected exactly the news of {m} to Alice and to Bob, got {subjects:?}"
            ));
        }
    }

    /// Alice got the board, and nothing else happened.
    fn check_board(&self, wrong: &mut Vec<String>) {
        let Polled {
            before_record,
            after_record,
            sent,
            fates,
            refused,
            subjects,
            ..
        } = self;
        if after_record != before_record {
            wrong.push("the record changed".into());
        }
        if *refused != Some(0) {
            wrong.push(format!("the poll refused something (refused={refused:?})"));
        }
        if *fates != ["bz-test1: black asked for board"] {
            wrong.push(format!(
                "expected the fate `bz-test1: black asked for board`, got {fates:?}"
            ));
        }
        if sent.len() != 1
            || sent[0].to != "alice@example.org"
            || !sent[0].headline().starts_with("The board, as you asked")
        {
            wrong.push(format!(
                "expected exactly one mail, the board to Alice, got {subjects:?}"
            ));
        }
    }

    /// No command: nothing happened, at most the "no command" answer.
    fn check_chatter(&self, wrong: &mut Vec<String>) {
        let Polled {
            before_record,
            after_record,
            sent,
            fates,
            subjects,
            ..
        } = self;
        if after_record != before_record {
            wrong.push("the record changed".into());
        }
        let no_command = "refused from alice@example.org: no command";
        if !(fates.is_empty() || *fates == [no_command]) {
            wrong.push(format!(
                "expected no command (at most the fate `{no_command}`), got {fates:?}"
            ));
        }
        let ok = sent.is_empty()
            || (sent.len() == 1
                && sent[0].to == "alice@example.org"
                && sent[0].headline().starts_with("Your mail was not accepted"));
        if !ok {
            wrong.push(format!(
                "expected nothing sent or only the \"no command\" answer, got {subjects:?}"
            ));
        }
    }
}

/// Whether pbem still remembers the lines it sent when the reply comes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Memory {
    /// As a poll has it: the lines of the news mail known.
    Kept,
    /// `DATA/sent/` deleted before the reply is polled: the reply must be
    /// read right from its shape alone (a mail older than the memory
    /// keeps, a data folder restored from a backup).
    Forgotten,
}

/// Runs one case; `Err` says all that went wrong.
fn run_case(case: &Case, memory: Memory) -> Result<(), String> {
    let (mut p, news) = after_bobs_move();
    if memory == Memory::Forgotten {
        let sent = p.config.data.join("sent");
        fs::remove_dir_all(&sent).unwrap_or_else(|e| panic!("{}: {e}", sent.display()));
    }
    let before_record = p.record("bz-test1");
    let before_sent = p.sent();
    p.deliver(&case.mail);
    let log = p.poll(NOW);
    let after_record = p.record("bz-test1");
    let sent = p.sent_since(&before_sent);
    let polled = Polled {
        subjects: sent
            .iter()
            .map(|s| format!("{}: {}", s.to, s.headline()))
            .collect(),
        before_record,
        after_record,
        sent,
        fates: fates(&log),
        refused: refused(&log),
    };
    let sent = &polled.sent;

    let mut wrong = Vec::new();
    match &case.expect {
        Expect::Move(m) => polled.check_move(m, &mut wrong),
        Expect::Board => polled.check_board(&mut wrong),
        Expect::Chatter => polled.check_chatter(&mut wrong),
    }
    // Always: no line of pbem's quoted mail ran as a command. The checks
    // above catch it; name the lines for the reader.
    let quoted = quoted_lines_named(&news.text(), &log, sent);
    if !quoted.is_empty() {
        wrong.push(format!(
            "lines of pbem's own mail that pbem read back as commands: {quoted:?}"
        ));
    }
    if wrong.is_empty() {
        return Ok(());
    }
    let mut o = String::new();
    let forgot = match memory {
        Memory::Kept => "",
        Memory::Forgotten => ", pbem's memory of its sent lines removed",
    };
    let _ = writeln!(o, "{} (expected {:?}{forgot}):", case.name, case.expect);
    for w in &wrong {
        let _ = writeln!(o, "  - {w}");
    }
    let _ = writeln!(o, "  poll log:");
    for l in log.lines() {
        let _ = writeln!(o, "    {l}");
    }
    let _ = writeln!(o, "  sent {} mail(s):", sent.len());
    for s in sent {
        let _ = writeln!(o, "    to {}: {}", s.to, s.subject());
        for l in s.text().lines().take(4) {
            let _ = writeln!(o, "      | {l}");
        }
    }
    Err(o)
}

/// The lines of pbem's mail (that parse as a command or an attempt at
/// one) which the poll's log or answers name: pbem read them back.
fn quoted_lines_named(news: &str, log: &str, sent: &[Sent]) -> Vec<String> {
    let answers: String = sent.iter().map(Sent::text).collect::<Vec<_>>().join("\n");
    let mut out = Vec::new();
    for line in news.lines() {
        let l = line.trim().trim_end_matches(['.', '!']).trim();
        if l.is_empty() || !matches!(pbem::mail::command::parse_line(l), Ok(Some(_)) | Err(_)) {
            continue;
        }
        let shown = l.chars().take(40).collect::<String>();
        if log.contains(&shown) || answers.contains(&format!("`{shown}")) {
            out.push(line.to_string());
        }
    }
    out
}

fn fixture_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/replies")
        .join(sub)
}

fn fixtures(sub: &str) -> Vec<PathBuf> {
    let only = std::env::var("REPLY_CASE").ok();
    let mut paths: Vec<PathBuf> = fs::read_dir(fixture_dir(sub))
        .unwrap_or_else(|e| panic!("{}: {e}", fixture_dir(sub).display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .filter(|p| {
            only.as_ref().is_none_or(|o| {
                p.file_stem()
                    .unwrap()
                    .to_string_lossy()
                    .contains(o.as_str())
            })
        })
        .collect();
    paths.sort();
    paths
}

/// Runs every fixture of `tests/replies/<sub>/`; one failure lists them all.
fn run_all(sub: &str, min: usize) {
    let paths = fixtures(sub);
    if std::env::var_os("REPLY_CASE").is_none() {
        assert!(
            paths.len() >= min,
            "only {} fixtures in tests/replies/{sub}/ (expected at least {min}); \
             scripts/client-replies makes them",
            paths.len()
        );
    }
    let mut failures = Vec::new();
    let mut by_expect = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for path in &paths {
        let case = match read_case(path) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let kind = match &case.expect {
            Expect::Move(_) => "move",
            Expect::Board => "board",
            Expect::Chatter => "chatter",
        };
        for memory in [Memory::Kept, Memory::Forgotten] {
            let e = by_expect.entry(format!("{kind} ({memory:?})")).or_default();
            e.0 += 1;
            if let Err(f) = run_case(&case, memory) {
                e.1 += 1;
                failures.push(f);
            }
        }
    }
    let names: Vec<String> = failures
        .iter()
        .map(|f| f.lines().next().unwrap_or("").to_string())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} runs of the replies in tests/replies/{sub}/ went wrong, each reply run with \
         pbem's memory of its sent lines kept and removed (per kind: {}):\n{}\n\n{}",
        failures.len(),
        2 * paths.len(),
        by_expect
            .iter()
            .map(|(k, (n, f))| format!("{k} {f} of {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        names.join("\n"),
        failures.join("\n")
    );
}

/// Replies captured from mail clients run on this machine.
#[test]
fn real_client_replies() {
    let _shared = crate::common::lock::shared();
    run_all("real", 20);
}

/// Replies in the shapes of clients and languages that cannot run here.
#[test]
fn client_shaped_replies() {
    let _shared = crate::common::lock::shared();
    run_all("shapes", 60);
}

/// The fixtures quote the mail pbem sends today (its first line, which
/// names Bob's move, and the Reply-To they answer), but for those that
/// quote an earlier wording on purpose (`X-Reply-Wording`) or nothing
/// (`X-Reply-Quote: none`). When this
/// fails, pbem's wording changed: re-capture with `scripts/client-replies`.
#[test]
fn fixtures_quote_pbems_mail() {
    let _shared = crate::common::lock::shared();
    let (_p, news) = after_bobs_move();
    let text = news.text();
    let first = text.lines().next().unwrap_or("").to_string();
    let mut stale = Vec::new();
    for sub in ["real", "shapes"] {
        for path in fixtures(sub) {
            let raw = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
            // An earlier wording on purpose, or a reply that quotes
            // nothing (mailx's plain `r`).
            if raw
                .lines()
                .any(|l| l.starts_with("X-Reply-Wording:") || l.starts_with("X-Reply-Quote: none"))
            {
                continue;
            }
            // The quote may be encoded (base64, quoted-printable): decode.
            let decoded = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .map(|m| {
                    let mut s = String::new();
                    for i in 0..m.text_body_count().max(m.html_body_count()) {
                        s.push_str(&m.body_text(i).unwrap_or_default());
                        s.push_str(&m.body_html(i).unwrap_or_default());
                    }
                    s
                })
                .unwrap_or_default();
            let probe = first.split(" It is").next().unwrap_or(&first);
            if !decoded.contains(probe) && !raw.contains(probe) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "these fixtures do not quote pbem's mail of today (first line `{first}`); \
         re-capture with scripts/client-replies:\n{}",
        stale.join("\n")
    );
}

/// `PBEM_REPLIES_PREPARE=DIR`: writes Alice's Maildir after step 1 (pbem's
/// news mail to her in DIR/new/) for the mail clients of
/// scripts/client-replies, and the mail's text to DIR.txt; without the
/// variable it only checks that the setup runs.
#[test]
fn prepare_only() {
    let _shared = crate::common::lock::shared();
    let (p, news) = after_bobs_move();
    if let Some(dir) = std::env::var_os("PBEM_REPLIES_PREPARE") {
        let dir = PathBuf::from(dir);
        // LF line endings, as a delivery agent stores mail in a Maildir
        // (pbem's sink keeps the CRLF of the wire; s-nail chokes on it).
        copy_maildir(&p.sent_folder().join("alice@example.org"), &dir);
        for f in fs::read_dir(dir.join("new"))
            .unwrap()
            .filter_map(Result::ok)
        {
            let raw = fs::read(f.path()).unwrap();
            fs::write(
                f.path(),
                String::from_utf8_lossy(&raw).replace("\r\n", "\n"),
            )
            .unwrap();
        }
        let mut txt = dir.clone().into_os_string();
        txt.push(".txt");
        fs::write(&txt, news.text()).unwrap();
        let mut eml = dir.into_os_string();
        eml.push(".eml");
        fs::write(
            &eml,
            String::from_utf8_lossy(&news.raw).replace("\r\n", "\n"),
        )
        .unwrap();
    }
}
