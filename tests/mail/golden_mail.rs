//! Golden tests of the whole mail path: every `tests/data/mail/<case>.eml`
//! goes into the inbox of a fresh pbem whose data folder holds a known
//! starting state, `pbem poll` runs once with the clock pinned, and what
//! comes out -- the poll's log, the changes to the data folder and every
//! mail sent -- must match `tests/data/mail/<case>.expected`. Each case runs
//! twice, as stored (LF) and with CRLF line endings; both runs must give
//! the same output.
//!
//! The `.eml` files start with driver headers that are stripped before
//! delivery: `X-Golden-Setup: started challenge` (the starting state, see
//! [`setup`]; `trust-dmarc` makes pbem trust `Authentication-Results` from
//! `mx.example.net`) and `X-Golden-Note: ...` (what the case is about).
//!
//! ```text
//! cargo test --test mail golden_mail::                       check every case
//! GOLDEN_CASE=gmail cargo test --test mail golden_mail::     only names containing "gmail"
//! PBEM_BLESS=1 cargo test --test mail golden_mail::          (re)write the .expected files
//! ```
//!
//! On a mismatch the output is written beside the case as `<case>.failed`
//! (`<case>.crlf.failed` for the CRLF run) and the test fails with a short
//! diff; `diff tests/data/mail/<case>.expected tests/data/mail/<case>.failed` shows
//! it all.

use pbem::config::{Config, INIT};
use pbem::game::PerSide;
use pbem::mailbox::Maildir;
use pbem::record::{self, Record};
use pbem::rules::Rules;
use pbem::store::{Challenge, Secrets, SecretsFile, Store};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The pinned clock of every poll.
const NOW: &str = "2026-11-20T10:00:00Z";
/// pbem's address in the cases.
const PBEM: &str = "pbem@example.net";

const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "Bob Example <bob@example.org>";
/// The keys of game bz-test1 (black: Alice, red: Bob).
const ALICE_KEY: &str = "alicekey2345";
const BOB_KEY: &str = "bobkey234567";
/// The keys of the pending challenge bz-chal1.
const ALICE_CHAL_KEY: &str = "alicechal234";
const BOB_CHAL_KEY: &str = "bobchal23456";
/// The keys of the finished game bz-done1.
const ALICE_DONE_KEY: &str = "alicedone234";
const BOB_DONE_KEY: &str = "bobdone23456";

/// A boom-and-zoom record between Alice (black, first) and Bob (red).
fn bz_record(id: &str, result: &str, lines: &str) -> String {
    format!(
        "format = 1\nrules = \"boom-and-zoom\"\nid = \"{id}\"\ncreated = 2026-11-19T08:00:00Z\n\
         first = \"black\"\nresult = \"{result}\"\n\n[players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n\
         [play]\nmoves = \"\"\"\n{lines}\"\"\"\n"
    )
}

/// Two moves played; black (Alice) to play move #3.
const STARTED: &str = "\
1. black 6-13  2026-11-19T09:17:00Z <bz1.1@example.org>
2. red   61-34 2026-11-19T11:33:00Z <bz1.2@example.org>
";

fn write_game(store: &Store, id: &str, text: &str, keys: [&str; 2]) {
    // Written in the writer's full form, so a poll's change shows alone.
    let rec = Record::parse(&format!("{id}.toml"), text).expect("setup record parses");
    // A setup that does not replay is the driver's bug, not pbem's.
    pbem::cli::validate_record(&rec).expect("setup record replays");
    store
        .write_game(id, &record::write::to_string(&rec))
        .unwrap();
    let s = Secrets {
        tokens: PerSide::new(Some(keys[0].into()), Some(keys[1].into())),
        ..Secrets::default()
    };
    store.write_secrets(id, rec.rules, &s).unwrap();
}

/// Applies one named starting state to the data folder.
fn setup(store: &Store, name: &str) {
    let game = |result: &str, lines: &str| bz_record("bz-test1", result, lines);
    match name {
        // Nothing: a new pbem.
        "none" => {}
        // bz-test1 in play, black (Alice) to play move #3.
        "started" => write_game(store, "bz-test1", &game("*", STARTED), [ALICE_KEY, BOB_KEY]),
        // As "started", and red (Bob) offered a draw with his move 2.
        "draw-offered" => write_game(
            store,
            "bz-test1",
            &game(
                "*",
                &format!("{STARTED}red draw offered 2026-11-19T11:33:00Z <bz1.2@example.org>\n"),
            ),
            [ALICE_KEY, BOB_KEY],
        ),
        // As "started", and red (Bob) asked to take back his move 2.
        "takeback-asked" => write_game(
            store,
            "bz-test1",
            &game(
                "*",
                &format!("{STARTED}red takeback asked 2026-11-19T11:40:00Z <bz1.3@example.org>\n"),
            ),
            [ALICE_KEY, BOB_KEY],
        ),
        // bz-test1 over: black (Alice) resigned after move 2.
        "over" => write_game(
            store,
            "bz-test1",
            &game(
                "red",
                &format!("{STARTED}black resign 2026-11-19T12:00:00Z <bz1.3@example.org>\n"),
            ),
            [ALICE_KEY, BOB_KEY],
        ),
        // bz-done1, an older game Bob won (for `games`).
        "done" => write_game(
            store,
            "bz-done1",
            &bz_record(
                "bz-done1",
                "red",
                "1. black 6-13 2026-11-01T09:00:00Z <bz0.1@example.org>\n\
                 black resign 2026-11-01T10:00:00Z <bz0.2@example.org>\n",
            ),
            [ALICE_DONE_KEY, BOB_DONE_KEY],
        ),
        // bz-chal1: Alice challenged Bob to boom-and-zoom; she plays black,
        // black moves first; Bob has not answered yet.
        "challenge" => {
            store
                .write_challenge(
                    "bz-chal1",
                    &Challenge {
                        rules: pbem::rules::Rules::BoomAndZoom,
                        challenger: ALICE.into(),
                        opponent: "bob@example.org".into(),
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
            let s = Secrets {
                tokens: PerSide::new(Some(ALICE_CHAL_KEY.into()), Some(BOB_CHAL_KEY.into())),
                ..Secrets::default()
            };
            store
                .write_secrets("bz-chal1", Rules::BoomAndZoom, &s)
                .unwrap();
        }
        other => panic!("unknown X-Golden-Setup `{other}`"),
    }
}

/// The keys the setups use: they stay visible in the output (so it shows
/// who got which key); any other key was made by the poll and is random.
const KNOWN_KEYS: &[&str] = &[
    ALICE_KEY,
    BOB_KEY,
    ALICE_CHAL_KEY,
    BOB_CHAL_KEY,
    ALICE_DONE_KEY,
    BOB_DONE_KEY,
];

/// A case file split into its driver headers and the mail itself.
struct Case {
    name: String,
    setups: Vec<String>,
    mail: Vec<u8>,
}

fn read_case(path: &Path) -> Case {
    let raw = fs::read(path).unwrap();
    assert!(
        !raw.contains(&b'\r'),
        "{}: store cases with LF line endings (the driver makes the CRLF run)",
        path.display()
    );
    let mut setups = Vec::new();
    let mut mail = Vec::with_capacity(raw.len());
    let mut in_header = true;
    let mut skipping = false;
    for line in raw.split_inclusive(|b| *b == b'\n') {
        if in_header {
            if line == b"\n" {
                in_header = false;
            } else if line.starts_with(b" ") || line.starts_with(b"\t") {
                if skipping {
                    continue; // a folded driver header
                }
            } else {
                let lower = String::from_utf8_lossy(line).to_ascii_lowercase();
                skipping = lower.starts_with("x-golden-");
                if let Some(v) = lower.strip_prefix("x-golden-setup:") {
                    setups.extend(v.split_whitespace().map(str::to_string));
                }
                if skipping {
                    continue;
                }
            }
        }
        mail.extend_from_slice(line);
    }
    if setups.is_empty() {
        setups.push("none".into());
    }
    Case {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        setups,
        mail,
    }
}

/// The data folder's lasting state: records, challenges, keys.
fn snapshot(data: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for sub in ["games", "challenges", "secrets"] {
        let Ok(entries) = fs::read_dir(data.join(sub)) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            out.insert(
                format!("{sub}/{name}"),
                fs::read_to_string(e.path()).unwrap(),
            );
        }
    }
    out
}

/// Runs one case on `mail` and renders everything that came out.
fn run(case: &Case, mail: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("pbem.toml");
    let mut settings = INIT.replace("pbem@localhost", PBEM);
    // `trust-dmarc`: the admin's MTA `mx.example.net` checks DMARC.
    if case.setups.iter().any(|s| s == "trust-dmarc") {
        settings = settings.replace(
            "# trusted_authserv = \"mx.example.org\"",
            "trusted_authserv = \"mx.example.net\"",
        );
        assert!(settings.contains("\ntrusted_authserv"), "INIT changed");
    }
    fs::write(&config_path, settings).unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    for s in case.setups.iter().filter(|s| *s != "trust-dmarc") {
        setup(&store, s);
    }
    let before = snapshot(&config.data);
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let mail_name = "1763632800.M1P1.golden";
    inbox.deliver(mail_name, mail).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll", "--config"])
        .arg(&config_path)
        .env("PBEM_NOW", NOW)
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();

    let after = snapshot(&config.data);
    let new_ids = NewIds::of(&before, &after);
    let keys = name_keys(&after, &new_ids);

    let mut o = String::new();
    let _ = writeln!(
        o,
        "# golden case {} (setup: {}), polled at {NOW}",
        case.name,
        case.setups.join(" ")
    );
    let _ = writeln!(
        o,
        "\n== pbem poll: exit {}",
        out.status.code().unwrap_or(-1)
    );
    for l in String::from_utf8_lossy(&out.stdout)
        .lines()
        .chain(String::from_utf8_lossy(&out.stderr).lines())
    {
        let _ = writeln!(o, "{l}");
    }

    render_inbox(&mut o, &config, &store, mail_name);

    render_data_folder(&mut o, &before, &after, &new_ids);

    let sent = sent_mails(&config.data.parent().unwrap().join("mail/sent"));
    let _ = writeln!(o, "\n== {} mail(s) sent", sent.len());
    let n = sent.len();
    for (i, (to, raw)) in sent.iter().enumerate() {
        let _ = writeln!(o, "\n== mail {} of {n}, to {to}", i + 1);
        o.push_str(&render_mail(raw));
    }

    let tmp = dir.path().display().to_string();
    new_ids.apply(&keys.apply(&o.replace(&tmp, "$TMP")))
}

/// The inbox after the poll: the mail done or not, and any replies left
/// waiting in the outbox.
fn render_inbox(o: &mut String, config: &Config, store: &Store, mail_name: &str) {
    let _ = writeln!(o, "\n== inbox");
    let new_left = config
        .inbox
        .maildir
        .as_ref()
        .unwrap()
        .join("new")
        .join(mail_name)
        .exists();
    let seen = config
        .inbox
        .maildir
        .as_ref()
        .unwrap()
        .join("cur")
        .join(format!("{mail_name}:2,S"))
        .exists();
    let _ = writeln!(
        o,
        "{}",
        match (new_left, seen) {
            (false, true) => "the mail is done: moved to cur/, flagged Seen",
            (true, _) => "the mail is still in new/: not processed",
            _ => "the mail is gone from new/ but not in cur/ as Seen",
        }
    );
    let waiting = fs::read_dir(store.outbox_ready())
        .map(|d| d.count())
        .unwrap_or(0);
    if waiting > 0 {
        let _ = writeln!(o, "outbox: {waiting} batch(es) waiting, not sent");
    }
}

/// The data folder after the poll: every record still reads, and what
/// changed, in the order of the names shown.
fn render_data_folder(
    o: &mut String,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
    new_ids: &NewIds,
) {
    let _ = writeln!(o, "\n== data folder");
    // Whatever pbem stores must read back: every record after
    // the poll reads and replays, or the output says which does not.
    for (p, text) in after {
        if let Some(name) = p.strip_prefix("games/")
            && name.ends_with(".toml")
        {
            let checked = Record::parse(name, text)
                .map_err(|e| e.to_string())
                .and_then(|rec| pbem::cli::validate_record(&rec).map_err(|e| e.to_string()));
            if let Err(e) = checked {
                let _ = writeln!(o, "A RECORD NO LONGER READS: {e}");
            }
        }
    }
    let mut changed = false;
    // In the order of the names shown (a new id's random name would
    // order the files by chance).
    let mut paths: Vec<&String> = before.keys().chain(after.keys()).collect();
    paths.sort_by_key(|p| new_ids.apply(p));
    paths.dedup();
    for p in paths {
        match (before.get(p), after.get(p)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                changed = true;
                let _ = writeln!(o, "changed {p}:");
                o.push_str(&unified(a, b, 2));
            }
            (None, Some(b)) => {
                changed = true;
                let _ = writeln!(o, "new {p}:");
                for l in b.lines() {
                    let _ = writeln!(o, "+{l}");
                }
            }
            (Some(_), None) => {
                changed = true;
                let _ = writeln!(o, "removed {p}");
            }
            (None, None) => {}
        }
    }
    if !changed {
        let _ = writeln!(o, "unchanged");
    }
}

/// The keys of the data folder `after`, numbered in a fixed order.
fn name_keys(after: &BTreeMap<String, String>, new_ids: &NewIds) -> Keys {
    let mut keys = Keys::default();
    // Number the new keys in a fixed order: by file as shown (a new id's
    // random name would order them by chance), then side.
    let mut files: Vec<(&String, &String)> = after.iter().collect();
    files.sort_by_key(|(p, _)| new_ids.apply(p));
    for (path, text) in files {
        if path.starts_with("secrets/")
            && let Ok(s) = toml::from_str::<SecretsFile>(text)
        {
            for t in s.keys() {
                keys.name(t);
            }
        }
    }
    keys
}

/// Ids made during the poll are random: named `bz-NEWID1`,
/// `bz-NEWID2`... in the order of the commands that made them (their
/// challenges' `source`).
struct NewIds(Vec<(String, String)>);

impl NewIds {
    fn of(before: &BTreeMap<String, String>, after: &BTreeMap<String, String>) -> NewIds {
        let mut made: Vec<(String, String)> = after
            .iter()
            .filter(|(p, _)| !before.contains_key(*p))
            .filter_map(|(p, text)| {
                let id = p.strip_prefix("challenges/")?.strip_suffix(".toml")?;
                let c: Challenge = toml::from_str(text).ok()?;
                Some((c.source.unwrap_or_default(), id.to_string()))
            })
            .collect();
        made.sort();
        NewIds(
            made.into_iter()
                .enumerate()
                .map(|(n, (_, id))| {
                    let prefix = id.split('-').next().unwrap_or("").to_string();
                    (id, format!("{prefix}-NEWID{}", n + 1))
                })
                .collect(),
        )
    }
    fn apply(&self, text: &str) -> String {
        let mut t = text.to_string();
        for (id, name) in &self.0 {
            t = t.replace(id.as_str(), name);
        }
        t
    }
}

/// Random keys made during the poll, named KEY-1, KEY-2... in order.
#[derive(Default)]
struct Keys(Vec<String>);

impl Keys {
    fn name(&mut self, key: &str) {
        if !KNOWN_KEYS.contains(&key) && !self.0.iter().any(|k| k == key) {
            self.0.push(key.to_string());
        }
    }
    fn apply(&self, text: &str) -> String {
        let mut t = text.to_string();
        for (i, k) in self.0.iter().enumerate() {
            t = t.replace(k.as_str(), &format!("KEY-{}", i + 1));
        }
        t
    }
}

/// Every mail the maildir transport delivered: (recipient folder, raw),
/// in the order pbem made them (the last part of their Message-ID).
fn sent_mails(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(dirs) = fs::read_dir(folder) else {
        return out;
    };
    for d in dirs.filter_map(Result::ok) {
        let to = d.file_name().to_string_lossy().into_owned();
        for f in fs::read_dir(d.path().join("new"))
            .unwrap()
            .filter_map(Result::ok)
        {
            out.push((to.clone(), fs::read(f.path()).unwrap()));
        }
    }
    let order = |raw: &[u8]| -> (u64, String) {
        let m = mail_parser::MessageParser::default().parse(raw).unwrap();
        let id = m.message_id().unwrap_or("").to_string();
        let n = id
            .split('@')
            .next()
            .and_then(|l| l.rsplit('.').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX);
        (n, id)
    };
    out.sort_by_key(|(to, raw)| (order(raw), to.clone()));
    out
}

/// A sent mail for reading: its headers as sent (MIME boundary replaced),
/// the decoded text part, and a check that the HTML part is that same text.
fn render_mail(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
    let (head, _) = text.split_once("\n\n").unwrap_or((&text, ""));
    let boundary = head
        .split("boundary=\"")
        .nth(1)
        .and_then(|b| b.split('"').next())
        .unwrap_or("")
        .to_string();
    let mut o = String::new();
    let head = if boundary.is_empty() {
        head.to_string()
    } else {
        head.replace(&boundary, "BOUNDARY")
    };
    for l in head.lines() {
        let _ = writeln!(o, "{l}");
    }
    let msg = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("pbem's mail parses");
    // Encoded words (a non-ASCII name or subject), decoded for the reader.
    for (name, value) in [
        (
            "To",
            msg.to()
                .and_then(|a| a.first())
                .map(|a| format!("{} <{}>", a.name().unwrap_or(""), a.address().unwrap_or(""))),
        ),
        ("Subject", msg.subject().map(str::to_string)),
    ] {
        let raw_line = head
            .lines()
            .find(|l| l.starts_with(&format!("{name}:")))
            .unwrap_or("");
        if raw_line.contains("=?")
            && let Some(v) = value
        {
            let _ = writeln!(o, "(decoded {name}: {v})");
        }
    }
    let part_headers = |ct: &str| -> String {
        // The part's Content-Type and Content-Transfer-Encoding, as sent.
        text.split(&format!("--{boundary}"))
            .find(|p| p.trim_start().starts_with(&format!("Content-Type: {ct}")))
            .map(|p| {
                p.trim_start()
                    .split("\n\n")
                    .next()
                    .unwrap_or("")
                    .lines()
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_else(|| "(no such part)".into())
    };
    let plain = msg
        .body_text(0)
        .map(|t| t.replace("\r\n", "\n"))
        .unwrap_or_default();
    let _ = writeln!(o, "\n-- part: {}", part_headers("text/plain"));
    o.push_str(&plain);
    if !plain.ends_with('\n') {
        o.push_str("\n(no newline at the end)\n");
    }
    let html = msg
        .body_html(0)
        .map(|t| t.replace("\r\n", "\n"))
        .unwrap_or_default();
    let expected_html = pbem::mail::outbound::text_html(&plain);
    let _ = writeln!(o, "-- part: {}", part_headers("text/html"));
    if html == expected_html {
        let _ = writeln!(o, "(the text above, as HTML paragraphs and blocks)");
    } else {
        o.push_str(&board_table_summed_up(&html));
    }
    o
}

/// The HTML part with its board table (drawn and checked by
/// tests/mail/html_board.rs and tests/mail/phone.rs) summed up: the
/// titles of the squares and crossings that hold or mark something; the
/// style block left out.
fn board_table_summed_up(html: &str) -> String {
    let (Some(start), Some(end)) = (html.find("<table"), html.find("</table>\n")) else {
        return html.to_string();
    };
    let head = match (html.find("<style>"), html.find("</style>")) {
        (Some(a), Some(b)) if b < start => {
            format!("{}(style){}", &html[..a + "<style>".len()], &html[b..start])
        }
        _ => html[..start].to_string(),
    };
    let titles: Vec<&str> = html[start..end]
        .split("title=\"")
        .skip(1)
        .filter_map(|t| t.split('"').next())
        .collect();
    let mut sum = format!(
        "(the board as an HTML table; its {} titled cells hold or mark something:)\n",
        titles.len(),
    );
    for t in &titles {
        let _ = writeln!(sum, "  {t}");
    }
    format!("{head}{sum}{}", &html[end + "</table>\n".len()..])
}

/// A unified diff of two texts by lines, with `context` lines around each
/// change (no hunk headers: the texts are short).
fn unified(a: &str, b: &str, context: usize) -> String {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(('+', b[j]));
            j += 1;
        } else {
            ops.push(('-', a[i]));
            i += 1;
        }
    }
    let near = |k: usize| {
        let lo = k.saturating_sub(context);
        let hi = (k + context + 1).min(ops.len());
        ops[lo..hi].iter().any(|(c, _)| *c != ' ')
    };
    let mut out = String::new();
    let mut gap = false;
    for (k, (c, l)) in ops.iter().enumerate() {
        if *c != ' ' || near(k) {
            if gap {
                out.push_str("...\n");
                gap = false;
            }
            let _ = writeln!(out, "{c}{l}");
        } else {
            gap = true;
        }
    }
    out
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail")
}

#[test]
fn golden_mail() {
    let _shared = crate::common::lock::shared();
    let bless = std::env::var_os("PBEM_BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let only = std::env::var("GOLDEN_CASE").ok();
    let mut paths: Vec<PathBuf> = fs::read_dir(cases_dir())
        .unwrap()
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
    assert!(!paths.is_empty(), "no cases in {}", cases_dir().display());
    let mut failures = Vec::new();
    if only.is_none() {
        // An expected output whose case was renamed or removed.
        for e in fs::read_dir(cases_dir()).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "expected") && !p.with_extension("eml").exists() {
                failures.push(format!("{}: no .eml beside it", p.display()));
            }
        }
    }
    for path in &paths {
        let case = read_case(path);
        let lf = run(&case, &case.mail);
        let crlf_mail: Vec<u8> = case
            .mail
            .split_inclusive(|b| *b == b'\n')
            .flat_map(|l| match l.strip_suffix(b"\n") {
                Some(l) => [l, b"\r\n"].concat(),
                None => l.to_vec(),
            })
            .collect();
        let crlf = run(&case, &crlf_mail);
        let expected_path = path.with_extension("expected");
        let failed_path = path.with_extension("failed");
        let crlf_failed_path = path.with_extension("crlf.failed");
        let _ = fs::remove_file(&failed_path);
        let _ = fs::remove_file(&crlf_failed_path);
        if bless {
            fs::write(&expected_path, &lf).unwrap();
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if lf != expected {
            fs::write(&failed_path, &lf).unwrap();
            failures.push(format!(
                "{}: output differs from {} (see {}):\n{}",
                case.name,
                expected_path.display(),
                failed_path.display(),
                short(&unified(&expected, &lf, 1))
            ));
        }
        if crlf != lf {
            fs::write(&crlf_failed_path, &crlf).unwrap();
            failures.push(format!(
                "{}: the CRLF run differs from the LF run (see {}):\n{}",
                case.name,
                crlf_failed_path.display(),
                short(&unified(&lf, &crlf, 1))
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden mail case(s) failed{}:\n\n{}",
        failures.len(),
        paths.len(),
        if bless {
            ""
        } else {
            " (PBEM_BLESS=1 rewrites the .expected files)"
        },
        failures.join("\n")
    );
}

/// The first lines of a diff.
fn short(diff: &str) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    let mut s = lines
        .iter()
        .take(30)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    if lines.len() > 30 {
        let _ = write!(s, "\n... ({} more lines)", lines.len() - 30);
    }
    s
}
