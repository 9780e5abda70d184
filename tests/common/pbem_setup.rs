//! A pbem of its own for a test: a data folder with game `bz-test1`
//! (Boom & Zoom, Alice black, Bob red, fixed keys), a Maildir inbox, the
//! Maildir sink for what pbem sends, and the real `pbem poll` run with the
//! clock pinned, as tests/mail/golden_mail.rs does it. Used by
//! tests/mail/replies.rs and tests/mail/quoting.rs.
#![allow(dead_code)]

use pbem::config::{Config, INIT};
use pbem::game::PerSide;
use pbem::mailbox::Maildir;
use pbem::record::{self, Record};
use pbem::store::{Secrets, Store};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// pbem's address.
pub const PBEM: &str = "pbem@example.net";
pub const ALICE: &str = "Alice Example <alice@example.org>";
pub const BOB: &str = "Bob Example <bob@example.org>";
/// The keys of game bz-test1 (black: Alice, red: Bob).
pub const ALICE_KEY: &str = "alicekey2345";
pub const BOB_KEY: &str = "bobkey234567";
/// Where Alice's replies go: pbem's Reply-To in its mails to her.
pub const ALICE_REPLY_TO: &str = "pbem+bz-test1.alicekey2345@example.net";
pub const BOB_REPLY_TO: &str = "pbem+bz-test1.bobkey234567@example.net";

/// A boom-and-zoom record between Alice (black, first) and Bob (red).
pub fn bz_record(id: &str, result: &str, lines: &str) -> String {
    format!(
        "format = 1\nrules = \"boom-and-zoom\"\nid = \"{id}\"\ncreated = 2026-11-19T08:00:00Z\n\
         first = \"black\"\nresult = \"{result}\"\n\n[players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n\
         [play]\nmoves = \"\"\"\n{lines}\"\"\"\n"
    )
}

/// One mail pbem sent.
#[derive(Clone, Debug)]
pub struct Sent {
    /// The recipient's folder name (the address).
    pub to: String,
    pub path: PathBuf,
    pub raw: Vec<u8>,
}

impl Sent {
    pub fn subject(&self) -> String {
        mail_parser::MessageParser::default()
            .parse(&self.raw)
            .and_then(|m| m.subject().map(str::to_string))
            .unwrap_or_default()
    }
    /// The first line of the text: what happened (a game's mails share
    /// one subject).
    pub fn headline(&self) -> String {
        self.text().lines().next().unwrap_or("").to_string()
    }
    /// The text/plain part, LF line endings.
    pub fn text(&self) -> String {
        text_of(&self.raw)
    }
    pub fn message_id(&self) -> String {
        mail_parser::MessageParser::default()
            .parse(&self.raw)
            .and_then(|m| m.message_id().map(str::to_string))
            .unwrap_or_default()
    }
}

/// The text/plain part of a mail, LF line endings.
pub fn text_of(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.replace("\r\n", "\n")))
        .unwrap_or_default()
}

/// A fresh pbem: config, data folder, inbox, sink.
pub struct Pbem {
    pub dir: tempfile::TempDir,
    pub config_path: PathBuf,
    pub config: Config,
    pub store: Store,
    delivered: usize,
}

impl Pbem {
    pub fn new() -> Pbem {
        Pbem::with_settings(|s| s)
    }

    /// With the settings (INIT, pbem's address set) changed by `edit`.
    pub fn with_settings(edit: impl FnOnce(String) -> String) -> Pbem {
        let dir = tempfile::tempdir().unwrap();
        let config_path = dir.path().join("pbem.toml");
        fs::write(&config_path, edit(INIT.replace("pbem@localhost", PBEM))).unwrap();
        let config = Config::load(&config_path).unwrap();
        let store = Store::open(&config.data).unwrap();
        Pbem {
            dir,
            config_path,
            config,
            store,
            delivered: 0,
        }
    }

    /// Writes game `id` from record text and its two keys (black, red).
    pub fn write_game(&self, id: &str, text: &str, keys: [&str; 2]) {
        let rec = Record::parse(&format!("{id}.toml"), text).expect("setup record parses");
        pbem::cli::validate_record(&rec).expect("setup record replays");
        self.store
            .write_game(id, &record::write::to_string(&rec))
            .unwrap();
        let s = Secrets {
            tokens: PerSide::new(Some(keys[0].into()), Some(keys[1].into())),
            ..Secrets::default()
        };
        self.store.write_secrets(id, rec.rules, &s).unwrap();
    }

    /// The record of game `id` as stored.
    pub fn record(&self, id: &str) -> String {
        fs::read_to_string(self.config.data.join("games").join(format!("{id}.toml")))
            .unwrap_or_default()
    }

    /// Puts a mail into the inbox.
    pub fn deliver(&mut self, mail: &[u8]) {
        let inbox = Maildir::open(self.config.inbox.maildir.as_ref().unwrap()).unwrap();
        self.delivered += 1;
        inbox
            .deliver(&format!("1763632800.M{}P1.replies", self.delivered), mail)
            .unwrap();
    }

    /// Runs `pbem poll` once at `now`; the log (stdout and stderr).
    pub fn poll(&self, now: &str) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["poll", "--config"])
            .arg(&self.config_path)
            .env("PBEM_NOW", now)
            .env_remove("PBEM_CONFIG")
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        if !out.status.success() {
            log.push_str(&format!("(pbem poll exited {})\n", out.status));
        }
        log
    }

    /// Runs another pbem command with the config, at `now`.
    pub fn run(&self, args: &[&str], now: &str) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(args)
            .arg("--config")
            .arg(&self.config_path)
            .env("PBEM_NOW", now)
            .env_remove("PBEM_CONFIG")
            .output()
            .unwrap();
        let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        log
    }

    /// The sink: one Maildir per recipient under mail/sent/.
    pub fn sent_folder(&self) -> PathBuf {
        self.dir.path().join("mail/sent")
    }

    /// Every mail sent so far, in the order pbem made them.
    pub fn sent(&self) -> Vec<Sent> {
        sent_mails(&self.sent_folder())
    }

    /// The mails sent since `before` (a list from [`Pbem::sent`]).
    pub fn sent_since(&self, before: &[Sent]) -> Vec<Sent> {
        let old: BTreeSet<&PathBuf> = before.iter().map(|s| &s.path).collect();
        self.sent()
            .into_iter()
            .filter(|s| !old.contains(&s.path))
            .collect()
    }
}

impl Default for Pbem {
    fn default() -> Self {
        Pbem::new()
    }
}

/// Every mail the maildir transport delivered under `folder`, in the order
/// pbem made them (the last part of their Message-ID, then the recipient).
pub fn sent_mails(folder: &Path) -> Vec<Sent> {
    let mut out = Vec::new();
    let Ok(dirs) = fs::read_dir(folder) else {
        return out;
    };
    for d in dirs.filter_map(Result::ok) {
        let to = d.file_name().to_string_lossy().into_owned();
        for sub in ["new", "cur"] {
            let Ok(files) = fs::read_dir(d.path().join(sub)) else {
                continue;
            };
            for f in files.filter_map(Result::ok) {
                out.push(Sent {
                    to: to.clone(),
                    path: f.path(),
                    raw: fs::read(f.path()).unwrap(),
                });
            }
        }
    }
    let order = |s: &Sent| -> (u64, String, String) {
        let id = s.message_id();
        let n = id
            .split('@')
            .next()
            .and_then(|l| l.rsplit('.').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX);
        (n, id, s.to.clone())
    };
    out.sort_by_key(order);
    out
}

/// Copies a Maildir (its new/, cur/ and tmp/) to `to`.
pub fn copy_maildir(from: &Path, to: &Path) {
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(to.join(sub)).unwrap();
        if let Ok(files) = fs::read_dir(from.join(sub)) {
            for f in files.filter_map(Result::ok) {
                fs::copy(f.path(), to.join(sub).join(f.file_name())).unwrap();
            }
        }
    }
}
