//! Sending what is in the outbox: over SMTP (lettre; STARTTLS, TLS, or
//! plain on loopback; with AUTH), through a sendmail binary, or into local
//! Maildirs (the embedded default: one Maildir per recipient).
//!
//! Replies wait in `DATA/outbox/ready/` until the transport has taken
//! them; a failure leaves them there for the next poll (issue 3, "Outbox
//! and transports"), unless the server refused the reply for good: then
//! it moves to `DATA/outbox/dead/` and the admin is told once ([`dead`],
//! issue 13). What a failure means is its [`SendErrorKind`], which each
//! transport reads from what it knows best: the SMTP step a refusal
//! answers ([`smtp::kind`]), sendmail's exit status
//! ([`sendmail::exit_kind`]). Each batch of a poll is one folder in
//! `ready/`, sent oldest first:
//!
//! ```text
//! ready/<time>-<seq>-<name>/replies   the batch's replies, one pack (pack)
//! ready/<time>-<seq>-<name>/sent      the entries sent, one name a line
//! ready/<time>-<seq>-<name>/keys      the batch's mails (bookkeeping)
//! ```
//!
//! [`flush`] sends a pack's entries in order, appends each one's name to
//! `sent` once the transport has taken it, skips those already there, and
//! removes the folder when all are sent (issue 6: no file made or removed
//! per reply). Folders queued by an older pbem, a `<idx>.<n>.eml` file per
//! reply, are sent too, each file removed once sent. [`queued`] counts
//! what waits.

use crate::mailbox::Maildir;
use lettre::Address;
use lettre::address::Envelope;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub mod dead;
pub mod pack;
pub mod sendmail;
pub mod smtp;

/// How pbem sends mail (`[send]` in pbem.toml).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "transport", rename_all = "lowercase", deny_unknown_fields)]
pub enum SendConfig {
    /// Into `<folder>/<recipient address>/new/`: nothing leaves the machine.
    Maildir { folder: PathBuf },
    /// Over SMTP.
    Smtp {
        host: String,
        #[serde(default = "default_port")]
        port: u16,
        /// `starttls` (default), `tls`, or `none` (loopback only).
        #[serde(default = "default_security")]
        security: String,
        #[serde(default)]
        user: Option<String>,
        /// A file holding the password (kept out of pbem.toml).
        #[serde(default)]
        password_file: Option<PathBuf>,
        /// Extra CA certificate (PEM) to trust, for a private server.
        #[serde(default)]
        ca_file: Option<PathBuf>,
    },
    /// Through a sendmail-compatible binary.
    Sendmail {
        #[serde(default = "default_sendmail")]
        command: PathBuf,
    },
}

fn default_port() -> u16 {
    587
}
fn default_security() -> String {
    "starttls".into()
}
fn default_sendmail() -> PathBuf {
    "/usr/sbin/sendmail".into()
}

/// What a failed send means for the mail and for the mails after it
/// (issue 13, item 13: a reply the server refused stayed queued for ever
/// and failed every poll).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendErrorKind {
    /// The server refused this one mail (SMTP: a 5xx answer to `RCPT TO`
    /// or to the message; sendmail: `EX_NOUSER`, `EX_DATAERR`): trying
    /// again will not mend it. The flush moves it to the dead letters
    /// ([`dead`]) and goes on with the others.
    Permanent,
    /// This mail could not go now (SMTP 4xx, sendmail `EX_TEMPFAIL`): it
    /// stays queued for the next flush, which goes on with the others.
    Transient,
    /// The transport itself failed, not this one mail: no connection, TLS,
    /// a time-out, a refused login or sender, a setting that cannot work,
    /// a sendmail that cannot run. The mails after it would fail the same
    /// way, so a flush stops there and keeps them all for later.
    Down,
}

/// A failed send, with its [`SendErrorKind`].
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    pub message: String,
    pub kind: SendErrorKind,
}

impl SendError {
    /// The server refused this one mail for good.
    pub fn permanent(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Permanent, message)
    }

    /// This mail could not go now (a server away, a full disk).
    pub fn transient(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Transient, message)
    }

    /// The transport cannot be used: a bad setting, no server, a refused
    /// login. Never a reason to give a mail up.
    pub fn down(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Down, message)
    }

    pub fn new(kind: SendErrorKind, message: impl Into<String>) -> SendError {
        SendError {
            message: message.into(),
            kind,
        }
    }

    pub fn is_permanent(&self) -> bool {
        self.kind == SendErrorKind::Permanent
    }

    pub fn is_transient(&self) -> bool {
        self.kind == SendErrorKind::Transient
    }

    pub fn is_down(&self) -> bool {
        self.kind == SendErrorKind::Down
    }
}

/// Something that takes mail.
pub trait Transport {
    /// Sends one raw mail to the envelope's recipients.
    ///
    /// # Errors
    /// [`SendError`], of the kind that says what to do with this mail and
    /// the ones after it.
    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError>;

    /// The flush is over: let go of what is held between mails (an SMTP
    /// connection). The next send starts afresh.
    fn finish(&self) {}
}

/// Builds the transport for `config`.
///
/// # Errors
/// A configuration that cannot work (unknown security, unreadable password
/// or CA file), as [`SendErrorKind::Down`].
pub fn from_config(config: &SendConfig) -> Result<Box<dyn Transport>, SendError> {
    Ok(match config {
        SendConfig::Maildir { folder } => Box::new(MaildirSink {
            folder: folder.clone(),
        }),
        SendConfig::Sendmail { command } => Box::new(sendmail::Sendmail {
            command: command.clone(),
        }),
        SendConfig::Smtp { .. } => Box::new(smtp::Smtp::new(config)?),
    })
}

/// Tries the transport without sending anything (`pbem check`): for SMTP
/// connect, EHLO, STARTTLS or TLS, and AUTH, as a flush does; for
/// sendmail, that the command is there and executable; for Maildirs, that
/// the folder is writable. Returns what worked, in words.
///
/// # Errors
/// What failed, with the setting to look at.
pub fn check(config: &SendConfig) -> Result<String, SendError> {
    let fail = |m: String| SendError::down(m);
    match config {
        SendConfig::Smtp {
            host,
            port,
            security,
            user,
            ..
        } => {
            let what = format!(
                "smtp {host}:{port} ({security}{})",
                user.as_ref()
                    .map(|u| format!(", AUTH as {u}"))
                    .unwrap_or_default()
            );
            smtp::Smtp::new(config)
                .and_then(|t| t.probe())
                .map(|()| {
                    format!(
                        "{what}: connect, EHLO{}{} work",
                        if security == "none" { "" } else { ", TLS" },
                        if user.is_some() { ", AUTH" } else { "" }
                    )
                })
                .map_err(|e| {
                    fail(format!(
                        "{what}: {e} (check send.host, send.port, send.security{})",
                        if user.is_some() {
                            ", send.user and send.password_file"
                        } else {
                            ""
                        }
                    ))
                })
        }
        SendConfig::Sendmail { command } => {
            use std::os::unix::fs::PermissionsExt;
            match fs::metadata(command) {
                Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => {
                    Ok(format!("sendmail {} is there", command.display()))
                }
                Ok(_) => Err(fail(format!(
                    "sendmail {} is not an executable file (check send.command)",
                    command.display()
                ))),
                Err(e) => Err(fail(format!(
                    "sendmail {}: {e} (install an MTA, or set send.command)",
                    command.display()
                ))),
            }
        }
        SendConfig::Maildir { folder } => {
            let probe = folder.join(format!(".pbem-check.{}", std::process::id()));
            fs::create_dir_all(folder)
                .and_then(|()| fs::write(&probe, b"x"))
                .and_then(|()| fs::remove_file(&probe))
                .map(|()| format!("Maildirs under {} (writable)", folder.display()))
                .map_err(|e| {
                    fail(format!(
                        "{}: {e} (check send.folder, and that pbem's user may write there)",
                        folder.display()
                    ))
                })
        }
    }
}

/// One Maildir per recipient under a folder: the embedded default, where
/// "sent" mail can be read with any mail client or `cat`.
pub struct MaildirSink {
    pub folder: PathBuf,
}

impl Transport for MaildirSink {
    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        let io =
            |e: std::io::Error| SendError::transient(format!("{}: {e}", self.folder.display()));
        for to in envelope.to() {
            let dir = self.folder.join(folder_name(to.as_ref()));
            let md = Maildir::open(&dir).map_err(io)?;
            let name = format!("{:016x}.pbem", crate::store::stable_hash(raw));
            if !delivered(md.root(), &name) {
                md.deliver(&name, &lf_lines(raw)).map_err(io)?;
            }
        }
        Ok(())
    }
}

/// Whether the mail named `name` is in the Maildir at `root` already: in
/// `new/`, or in `cur/` where a reader moved it (`name:2,S`). A flush cut
/// short after the delivery but before it noted the mail sent delivers it
/// again at the next flush, and must find it wherever the reader put it
/// (issue 13: a reply came twice once the client had read the first).
fn delivered(root: &Path, name: &str) -> bool {
    if root.join("new").join(name).exists() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(root.join("cur")) else {
        return false;
    };
    entries.flatten().any(|e| {
        let n = e.file_name();
        let n = n.to_string_lossy();
        n == name
            || n.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// A mail with LF line ends, as Maildir readers expect (mutt shows `^M`
/// after every header of a CRLF file, s-nail cannot read one; issue 12).
/// SMTP and sendmail get the CRLF mail as built.
pub fn lf_lines(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\r' && raw.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

/// The folder of one recipient under [`MaildirSink::folder`]: the address
/// in lower case, as one plain path component. An address may hold `/`
/// (`/tmp/x@example.org` is a valid address) and must not name a path
/// (issue 5, "Names and paths"), so `%` and `/` are written `%25` and
/// `%2f`, and a leading `.` `%2e`.
pub fn folder_name(address: &str) -> String {
    let mut out = String::with_capacity(address.len());
    for (i, c) in address.to_lowercase().chars().enumerate() {
        match c {
            '%' => out.push_str("%25"),
            '/' | '\\' => out.push_str(if c == '/' { "%2f" } else { "%5c" }),
            '.' if i == 0 => out.push_str("%2e"),
            c if c.is_control() => out.push_str(&format!("%{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The envelope of a queued mail: From and To from its headers.
///
/// # Errors
/// When the mail has no usable sender or recipient.
pub fn envelope_of(raw: &[u8]) -> Result<Envelope, SendError> {
    let bad = |m: &str| SendError::permanent(format!("queued mail: {m}"));
    // The headers are enough: decoding the body is most of a parse.
    let headers = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(raw, |end| &raw[..end + 4]);
    let msg = mail_parser::MessageParser::default()
        .parse(headers)
        .ok_or_else(|| bad("not a mail"))?;
    let addr = |a: Option<&mail_parser::Address>| -> Option<Address> {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .and_then(|s| s.parse().ok())
    };
    let from = addr(msg.from()).ok_or_else(|| bad("no From"))?;
    let to = addr(msg.to()).ok_or_else(|| bad("no To"))?;
    Envelope::new(Some(from), vec![to]).map_err(|e| bad(&e.to_string()))
}

/// What one flush of the outbox did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    pub sent: usize,
    /// Mails that failed and stay queued (transient failures, the one
    /// that found the transport down, damaged packs).
    pub failed: usize,
    /// Mails not tried because the transport was down (issue 5, "SMTP
    /// outage"): they stay queued for the next flush.
    pub waiting: usize,
    /// Mails the server refused for good, moved to the dead letters
    /// ([`dead`]; issue 13): no longer queued, and not in `errors`.
    pub dead: usize,
    /// Why each failed mail failed.
    pub errors: Vec<String>,
}

/// One reply waiting in a batch folder of `ready/`.
enum Queued {
    /// An entry of the folder's pack.
    Packed(pack::Entry),
    /// A file `<idx>.<n>.eml`, as pbem queued replies before issue 6.
    File(PathBuf),
}

/// What a batch folder of `ready/` still holds to send.
struct Batch {
    dir: PathBuf,
    /// In the order they go out.
    replies: Vec<Queued>,
    /// Why (part of) the pack cannot be read, with the file and byte.
    damage: Option<String>,
}

impl Batch {
    /// Reads a batch folder: its pack's entries not yet listed in its
    /// [`pack::SENT`] file, then its `.eml` files (a folder holds one or
    /// the other; `None`: the folder cannot be read at all).
    fn read(dir: PathBuf) -> Option<Batch> {
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        files.sort();
        let mut batch = Batch {
            replies: Vec::new(),
            damage: None,
            dir,
        };
        let file = batch.dir.join(pack::FILE);
        match fs::read(&file) {
            Ok(bytes) => {
                let (entries, damage) = pack::decode(&bytes);
                batch.damage = damage.map(|d| {
                    format!(
                        "{}: {d}; the entries before it are sent, the rest stays there for \
                         the admin",
                        file.display()
                    )
                });
                match pack::sent(&batch.dir) {
                    Ok(sent) => batch.replies.extend(
                        entries
                            .into_iter()
                            .filter(|e| !sent.contains(&e.id))
                            .map(Queued::Packed),
                    ),
                    Err(e) => {
                        // Sending all again would double them: wait.
                        let sent = batch.dir.join(pack::SENT);
                        batch.damage = Some(format!("{}: {e}", sent.display()));
                        return Some(batch);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => batch.damage = Some(format!("{}: {e}", file.display())),
        }
        batch.replies.extend(files.into_iter().map(Queued::File));
        Some(batch)
    }

    /// Sends one reply; once sent, notes it (an entry: appended to the
    /// folder's `sent`, opened with the first; a file: removed). No
    /// fsync: a crash between a send and its note sends that reply again
    /// (each reply keeps its Message-ID, so a client can tell), which no
    /// order of the two steps avoids.
    ///
    /// A reply the server refuses for good is put in the dead letters of
    /// `dead_dir` before it is noted (issue 13); one found there already
    /// (a crash came between the two) is only noted.
    fn send(
        &self,
        reply: &Queued,
        transport: &dyn Transport,
        sent: &mut Option<fs::File>,
        dead_dir: &Path,
        buried: &HashSet<String>,
    ) -> Result<Outcome, Failure> {
        let (label, entry, raw) = match reply {
            Queued::Packed(e) => (
                format!("{}: {}", self.dir.join(pack::FILE).display(), e.id),
                e.id.to_string(),
                Cow::Borrowed(&e.raw),
            ),
            Queued::File(f) => {
                let raw = fs::read(f).map_err(|e| Failure {
                    message: format!("{}: {e}", f.display()),
                    down: false,
                })?;
                let stem = f.file_stem().unwrap_or_default().to_string_lossy();
                (f.display().to_string(), stem.into_owned(), Cow::Owned(raw))
            }
        };
        let name = dead::name_for(&self.dir, &entry);
        if buried.contains(&name) {
            self.note_sent(reply, sent);
            return Ok(Outcome::Buried);
        }
        let error = match envelope_of(&raw).and_then(|env| transport.send(&env, &raw)) {
            Ok(()) => {
                self.note_sent(reply, sent);
                return Ok(Outcome::Sent);
            }
            Err(e) => e,
        };
        if !error.is_permanent() {
            return Err(Failure {
                message: format!("{label}: {error}"),
                down: error.is_down(),
            });
        }
        let note = dead::Note::of(&raw, &error.message, &label, crate::clock::now());
        match dead::bury(dead_dir, &name, &raw, &note) {
            Ok(mail) => {
                log::warn!(
                    "{}",
                    crate::logging::line(
                        "dead-letter",
                        &[
                            ("to", &note.to),
                            ("error", &note.error),
                            ("mail", &mail.display()),
                            ("queued", &label),
                        ]
                    )
                );
                self.note_sent(reply, sent);
                Ok(Outcome::Dead)
            }
            // Kept queued: it is refused again next time, and buried then.
            Err(e) => Err(Failure {
                message: format!(
                    "{label}: {error}; it stays queued: it could not be moved to {}: {e}",
                    dead_dir.display()
                ),
                down: false,
            }),
        }
    }

    /// Notes a reply gone (sent or buried): an entry appended to the
    /// folder's `sent`, a file removed.
    fn note_sent(&self, reply: &Queued, sent: &mut Option<fs::File>) {
        match reply {
            Queued::Packed(e) => {
                let p = self.dir.join(pack::SENT);
                let noted = match sent {
                    Some(f) => Ok(f),
                    None => fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(&p)
                        .map(|f| sent.insert(f)),
                }
                .and_then(|f| f.write_all(format!("{}\n", e.id).as_bytes()));
                if let Err(err) = noted {
                    log::warn!(
                        "{}",
                        crate::logging::line(
                            "sent-unnoted",
                            &[("file", &p.display()), ("entry", &e.id), ("error", &err)]
                        )
                    );
                }
            }
            Queued::File(f) => {
                let _ = fs::remove_file(f);
            }
        }
    }

    /// Removes a batch folder all sent: the pack first, so that a crash
    /// half-way leaves no pack whose `sent` is gone (which would send it
    /// all again).
    fn remove(&self) {
        for name in [pack::FILE, pack::SENT, "keys", "key"] {
            let _ = fs::remove_file(self.dir.join(name));
        }
        let _ = fs::remove_dir(&self.dir); // only when empty
    }
}

/// What became of one queued reply.
enum Outcome {
    Sent,
    /// Refused for good, and put in the dead letters.
    Dead,
    /// In the dead letters already (a crash before it was noted).
    Buried,
}

/// A failed send of one queued reply: what to report, and whether the
/// transport itself is down ([`SendErrorKind::Down`]).
struct Failure {
    message: String,
    down: bool,
}

/// The batch folders of `ready`, oldest first.
fn batches(ready: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(ready) else {
        return Vec::new();
    };
    let mut batches: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    batches.sort();
    batches
}

/// How many replies wait in each batch folder of `ready` (oldest first):
/// the entries of its pack not yet sent and its `.eml` files.
pub fn queued_by_batch(ready: &Path) -> Vec<usize> {
    batches(ready)
        .into_iter()
        .filter_map(Batch::read)
        .map(|b| b.replies.len())
        .collect()
}

/// How many replies wait in `ready` to be sent ([`queued_by_batch`],
/// summed).
pub fn queued(ready: &Path) -> usize {
    queued_by_batch(ready).iter().sum()
}

/// Sends everything in `ready` (oldest batch first, each in order); what
/// is sent is noted (an entry of a pack) or removed (a `.eml` file), and a
/// batch folder all sent is removed; what fails stays for the next time.
/// When the transport itself is down (the server does not answer), the
/// flush stops at the first failure instead of waiting for each queued
/// mail's own time-out. A reply the server refuses for good
/// ([`SendErrorKind::Permanent`]) is moved to the dead letters beside
/// `ready` ([`dead::folder_of`]), logged at warn level, and counted in
/// [`Flushed::dead`], not as a failure (issue 13). A damaged pack counts
/// as one failure, every flush, until the admin removes it.
pub fn flush(ready: &Path, transport: &dyn Transport) -> Flushed {
    let dead_dir = dead::folder_of(ready);
    let buried = dead::buried(&dead_dir);
    let mut out = Flushed::default();
    // Set at the first failure of the transport itself (not by counting
    // the mails left: it may fail on the last mail of a batch).
    let mut down = false;
    for dir in batches(ready) {
        let Some(batch) = Batch::read(dir) else {
            continue;
        };
        if let Some(d) = &batch.damage {
            out.failed += 1;
            out.errors.push(d.clone());
        }
        if down {
            out.waiting += batch.replies.len();
            continue;
        }
        let failed_before = out.failed;
        let mut sent = None;
        let mut replies = batch.replies.iter();
        while let Some(reply) = replies.next() {
            let error = match batch.send(reply, transport, &mut sent, &dead_dir, &buried) {
                Ok(Outcome::Sent) => {
                    out.sent += 1;
                    continue;
                }
                Ok(Outcome::Dead) => {
                    out.dead += 1;
                    continue;
                }
                Ok(Outcome::Buried) => continue,
                Err(e) => e,
            };
            out.failed += 1;
            out.errors.push(error.message);
            if error.down {
                down = true;
                out.waiting += replies.len();
                break;
            }
        }
        drop(sent);
        if out.failed == failed_before && batch.damage.is_none() {
            batch.remove();
        }
    }
    if out.waiting > 0 {
        out.errors.push(format!(
            "{} more queued mails not tried while the transport is down; they wait in {}",
            out.waiting,
            ready.display()
        ));
    }
    transport.finish();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary data folder's `outbox/ready/`, made (its dead letters
    /// go beside it).
    fn outbox() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let ready = dir.path().join("outbox/ready");
        fs::create_dir_all(&ready).unwrap();
        (dir, ready)
    }

    /// A transport whose server is away, counting the tries.
    struct Away(std::cell::Cell<usize>);

    impl Transport for Away {
        fn send(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
            self.0.set(self.0.get() + 1);
            Err(SendError::down("connection refused"))
        }
    }

    #[test]
    fn issue5_a_flush_stops_at_a_transport_that_is_down_and_keeps_everything() {
        let (_tmp, dir) = outbox();
        let mail = b"From: pbem@example.net\r\nTo: bob@example.org\r\nSubject: x\r\n\r\nx\r\n";
        for b in 0..3 {
            let batch = dir.join(format!("batch{b}"));
            fs::create_dir_all(&batch).unwrap();
            for m in 0..2 {
                fs::write(batch.join(format!("{m:03}.eml")), mail).unwrap();
            }
            fs::write(batch.join("key"), "k").unwrap();
        }
        let away = Away(Default::default());
        let f = flush(&dir, &away);
        assert_eq!(away.0.get(), 1, "one try, not one time-out per mail");
        assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 5), "{f:?}");
        assert!(f.errors.last().unwrap().contains("5 more queued mails"));
        let kept: usize = (0..3)
            .map(|b| fs::read_dir(dir.join(format!("batch{b}"))).unwrap().count())
            .sum();
        assert_eq!(kept, 9, "every mail and key still queued");
        let sink_dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink {
            folder: sink_dir.path().to_path_buf(),
        };
        let f = flush(&dir, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (6, 0, 0), "{f:?}");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "outbox empty");
    }

    /// A transport that takes every mail but those to `refused`, which it
    /// refuses with the error of that kind (and, after `down_after` mails,
    /// none: the server went away).
    #[derive(Default)]
    struct Sink {
        got: std::cell::RefCell<Vec<Vec<u8>>>,
        refused: Option<(&'static str, SendErrorKind)>,
        down_after: Option<usize>,
        tries: std::cell::Cell<usize>,
    }

    impl Transport for Sink {
        fn send(&self, env: &Envelope, raw: &[u8]) -> Result<(), SendError> {
            self.tries.set(self.tries.get() + 1);
            if self.down_after == Some(self.got.borrow().len()) {
                return Err(SendError::down("connection refused"));
            }
            if let Some((r, kind)) = self.refused
                && env.to()[0].to_string() == r
            {
                let code = if kind == SendErrorKind::Permanent {
                    550
                } else {
                    450
                };
                return Err(SendError::new(kind, format!("{code} no such user {r}")));
            }
            self.got.borrow_mut().push(raw.to_vec());
            Ok(())
        }
    }

    impl Sink {
        /// The `X-N` header of each mail taken, in order.
        fn taken(&self) -> Vec<String> {
            self.got
                .borrow()
                .iter()
                .map(|m| {
                    let m = String::from_utf8_lossy(m);
                    m.split("X-N: ")
                        .nth(1)
                        .unwrap()
                        .split('\r')
                        .next()
                        .unwrap()
                        .into()
                })
                .collect()
        }
    }

    /// A reply to `to`, numbered `n` in an `X-N` header.
    fn reply(to: &str, n: &str) -> Vec<u8> {
        format!("From: pbem@example.net\r\nTo: {to}\r\nX-N: {n}\r\nSubject: x\r\n\r\nx\r\n")
            .into_bytes()
    }

    /// A batch folder in `ready` as pbem makes it: a pack and `keys`.
    fn packed(ready: &Path, name: &str, replies: &[(usize, usize, &str, &str)]) -> PathBuf {
        let dir = ready.join(name);
        fs::create_dir_all(&dir).unwrap();
        let entries: Vec<pack::Entry> = replies
            .iter()
            .map(|&(idx, n, to, tag)| pack::Entry {
                id: pack::Id { idx, n },
                raw: reply(to, tag),
            })
            .collect();
        fs::write(dir.join(pack::FILE), pack::encode(&entries)).unwrap();
        fs::write(dir.join("keys"), "0 <a@x>\n1 <b@x>\n").unwrap();
        dir
    }

    #[test]
    fn issue6_a_flush_resumes_a_pack_after_the_replies_it_sent() {
        let (_tmp, ready) = outbox();
        let r = ready.as_path();
        let a = "a@example.org";
        let dir = packed(r, "b1", &[(0, 0, a, "1"), (0, 1, a, "2"), (1, 0, a, "3")]);
        // A flush before sent the first two, then died; the second's
        // note was torn.
        fs::write(dir.join(pack::SENT), "0000.000\n0000.0").unwrap();
        assert_eq!(queued(r), 2);
        let sink = Sink::default();
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (2, 0, 0), "{f:?}");
        assert_eq!(sink.taken(), ["2", "3"]);
        assert_eq!(
            fs::read_dir(r).unwrap().count(),
            0,
            "the sent batch is gone"
        );
        assert_eq!(queued(r), 0);
    }

    #[test]
    fn issue6_a_pack_keeps_what_failed_and_notes_what_went_out() {
        let (_tmp, ready) = outbox();
        let r = ready.as_path();
        let (a, b) = ("a@example.org", "b@example.org");
        packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2"), (1, 0, a, "3")]);
        packed(r, "b2", &[(0, 0, a, "4"), (0, 1, a, "5")]);
        packed(r, "b3", &[(0, 0, b, "6")]);
        assert_eq!(queued_by_batch(r), [3, 2, 1]);

        // Bob's address is refused for now; the server goes away after 3
        // mails.
        let sink = Sink {
            refused: Some((b, SendErrorKind::Transient)),
            down_after: Some(3),
            ..Sink::default()
        };
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (3, 2, 1), "{f:?}");
        assert_eq!(sink.taken(), ["1", "3", "4"]);
        assert!(f.errors[0].ends_with("b1/replies: 0000.001: 450 no such user b@example.org"));
        assert!(f.errors[1].ends_with("b2/replies: 0000.001: connection refused"));
        assert!(f.errors[2].starts_with("1 more queued mails not tried"));
        assert_eq!(
            fs::read_to_string(r.join("b1").join(pack::SENT)).unwrap(),
            "0000.000\n0001.000\n"
        );
        assert_eq!(queued_by_batch(r), [1, 1, 1]);

        // Back: each waiting reply once, nothing sent twice.
        let sink = Sink::default();
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (3, 0, 0), "{f:?}");
        assert_eq!(sink.taken(), ["2", "5", "6"]);
        assert_eq!(fs::read_dir(r).unwrap().count(), 0, "outbox empty");
    }

    #[test]
    fn issue6_a_damaged_pack_sends_what_reads_and_says_where_it_stops() {
        let (_tmp, ready) = outbox();
        let r = ready.as_path();
        let a = "a@example.org";
        let dir = packed(r, "b1", &[(0, 0, a, "1"), (1, 0, a, "2")]);
        let file = dir.join(pack::FILE);
        let bytes = fs::read(&file).unwrap();
        fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
        packed(r, "b2", &[(0, 0, a, "3")]);
        assert_eq!(queued_by_batch(r), [1, 1]);
        let sink = Sink::default();
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (2, 1, 0), "{f:?}");
        assert_eq!(sink.taken(), ["1", "3"]);
        let offset = pack::decode(&bytes).0[0].raw.len() + "pbem-pack 1\n0000.000 00\n\n".len();
        assert!(
            f.errors[0].contains(&format!(
                "b1/replies: damaged pack at byte {offset}: truncated: entry 0001.000 says"
            )),
            "{:?}",
            f.errors
        );
        // Kept for the admin, reported again, nothing sent twice.
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 0), "{f:?}");
        assert!(dir.exists());
        assert_eq!(queued(r), 0);
    }

    #[test]
    fn issue6_a_queue_of_eml_files_from_before_the_pack_still_goes_out() {
        let (_tmp, ready) = outbox();
        let r = ready.as_path();
        let a = "a@example.org";
        // The old layout: `<idx>.<n>.eml` files and `keys` (or `key`).
        let old = r.join("20261121T100000000000-00000000-00000000000000ab");
        fs::create_dir_all(&old).unwrap();
        fs::write(old.join("0000.000.eml"), reply(a, "1")).unwrap();
        fs::write(old.join("0001.000.eml"), reply(a, "2")).unwrap();
        fs::write(old.join("keys"), "0 <a@x>\n1 <b@x>\n").unwrap();
        packed(
            r,
            "20261121T100001000000-00000001-00000000000000cd",
            &[(0, 0, a, "3")],
        );
        assert_eq!(queued_by_batch(r), [2, 1]);
        let sink = Sink::default();
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting), (3, 0, 0), "{f:?}");
        assert_eq!(sink.taken(), ["1", "2", "3"]);
        assert_eq!(fs::read_dir(r).unwrap().count(), 0, "outbox empty");
    }

    #[test]
    fn issue13_a_refused_reply_goes_to_the_dead_letters_and_the_flush_goes_on() {
        let (tmp, ready) = outbox();
        let r = ready.as_path();
        let (a, b) = ("a@example.org", "b@example.org");
        packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2"), (1, 0, a, "3")]);
        packed(r, "b2", &[(0, 0, b, "4")]);
        let sink = Sink {
            refused: Some((b, SendErrorKind::Permanent)),
            ..Sink::default()
        };
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.waiting, f.dead), (2, 0, 0, 2), "{f:?}");
        assert!(f.errors.is_empty(), "not an error of the poll: {f:?}");
        assert_eq!(sink.taken(), ["1", "3"]);
        assert_eq!(fs::read_dir(r).unwrap().count(), 0, "nothing queued");
        let dead_dir = tmp.path().join("outbox/dead");
        assert_eq!(dead::folder_of(r), dead_dir);
        let mut files: Vec<String> = fs::read_dir(&dead_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            [
                "b1.0000.001.eml",
                "b1.0000.001.txt",
                "b2.0000.000.eml",
                "b2.0000.000.txt"
            ]
        );
        assert_eq!(
            fs::read(dead_dir.join("b1.0000.001.eml")).unwrap(),
            reply(b, "2")
        );
        let note = fs::read_to_string(dead_dir.join("b1.0000.001.txt")).unwrap();
        let note = dead::Note::parse("note", &note).unwrap();
        assert_eq!(note.to, b);
        assert_eq!(note.subject, "x");
        assert!(
            note.error.ends_with("550 no such user b@example.org"),
            "{note:?}"
        );
        assert!(note.queued.ends_with("b1/replies: 0000.001"), "{note:?}");
        // Told about, once each; the next flush has nothing to do.
        assert_eq!(dead::untold(&dead_dir).0.len(), 2);
        let f = flush(r, &sink);
        assert_eq!(f, Flushed::default());
        assert_eq!(sink.tries.get(), 4);
    }

    #[test]
    fn issue13_a_reply_buried_before_a_crash_is_neither_sent_nor_buried_again() {
        let (tmp, ready) = outbox();
        let r = ready.as_path();
        let (a, b) = ("a@example.org", "b@example.org");
        packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2")]);
        // The last flush buried Bob's reply, then died before noting it.
        let dead_dir = tmp.path().join("outbox/dead");
        let raw = reply(b, "2");
        let note = dead::Note::of(&raw, "550 no", "b1/replies: 0000.001", crate::clock::now());
        dead::bury(&dead_dir, "b1.0000.001", &raw, &note).unwrap();
        let sink = Sink::default();
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.dead), (1, 0, 0), "{f:?}");
        assert_eq!(sink.taken(), ["1"], "Bob's reply is not sent");
        assert_eq!(fs::read_dir(r).unwrap().count(), 0);
        assert_eq!(
            fs::read_dir(&dead_dir).unwrap().count(),
            2,
            "one dead letter"
        );
        // A mail file of before issue 6, refused, and one that has no To.
        let old = r.join("20261121T100000000000-00000000-00000000000000ab");
        fs::create_dir_all(&old).unwrap();
        fs::write(old.join("0000.000.eml"), reply(b, "3")).unwrap();
        fs::write(old.join("0001.000.eml"), b"From: pbem@example.net\r\n\r\nx").unwrap();
        let sink = Sink {
            refused: Some((b, SendErrorKind::Permanent)),
            ..Sink::default()
        };
        let f = flush(r, &sink);
        assert_eq!((f.sent, f.failed, f.dead), (0, 0, 2), "{f:?}");
        assert!(!old.join("0000.000.eml").exists());
        let (letters, _) = dead::untold(&dead_dir);
        let names: Vec<&str> = letters.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "20261121T100000000000-00000000-00000000000000ab.0000.000",
                "20261121T100000000000-00000000-00000000000000ab.0001.000",
                "b1.0000.001",
            ]
        );
        assert_eq!(letters[1].note.to, "?");
        assert!(letters[1].note.error.contains("queued mail: no To"));
    }

    #[test]
    fn issue13_a_refusal_that_is_not_the_mails_keeps_it_queued() {
        let (tmp, ready) = outbox();
        let r = ready.as_path();
        let b = "b@example.org";
        packed(r, "b1", &[(0, 0, b, "1"), (0, 1, b, "2")]);
        // As a wrong password is: Down, whatever its SMTP code.
        struct Refused;
        impl Transport for Refused {
            fn send(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
                Err(SendError::down(
                    "SMTP AUTH: permanent error (535): 5.7.8 authentication failed",
                ))
            }
        }
        let f = flush(r, &Refused);
        assert_eq!((f.sent, f.failed, f.waiting, f.dead), (0, 1, 1, 0), "{f:?}");
        assert_eq!(queued(r), 2);
        assert!(!tmp.path().join("outbox/dead").exists());
    }

    #[test]
    fn issue12_maildir_delivery_writes_lf_line_ends() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink {
            folder: dir.path().to_path_buf(),
        };
        let raw = reply("bob@example.org", "1");
        assert!(raw.windows(2).any(|w| w == b"\r\n"));
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        let new = dir.path().join("bob@example.org/new");
        let files: Vec<_> = std::fs::read_dir(&new).unwrap().flatten().collect();
        assert_eq!(files.len(), 1);
        let written = std::fs::read(files[0].path()).unwrap();
        assert!(
            !written.contains(&b'\r'),
            "{}",
            String::from_utf8_lossy(&written)
        );
        assert_eq!(written, lf_lines(&raw));
        // The same mail again is not delivered twice, even once a reader
        // has moved it to cur/ and flagged it (issue 13).
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        assert_eq!(std::fs::read_dir(&new).unwrap().count(), 1);
        let cur = dir.path().join("bob@example.org/cur");
        let read = cur.join(format!("{}:2,S", files[0].file_name().to_string_lossy()));
        std::fs::rename(files[0].path(), &read).unwrap();
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
        assert_eq!(std::fs::read_dir(&cur).unwrap().count(), 1);
        assert_eq!(lf_lines(b"a\r\nb\rc\n\r\n"), b"a\nb\rc\n\n");
    }

    #[test]
    fn issue5_a_recipient_folder_never_leaves_the_sent_folder() {
        let outside = tempfile::tempdir().unwrap();
        let sent = tempfile::tempdir().unwrap();
        let sink = MaildirSink {
            folder: sent.path().to_path_buf(),
        };
        // Valid addresses, all: `/` is an atext character (RFC 5322 3.2.3).
        let abs = format!("{}/x@example.org", outside.path().display());
        for a in [abs.as_str(), "a/b@example.org", "Bob@Example.org"] {
            let to: Address = a.parse().unwrap();
            let env = Envelope::new(Some("pbem@example.net".parse().unwrap()), vec![to]).unwrap();
            sink.send(&env, b"Subject: x\r\n\r\nx\r\n").unwrap();
        }
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        let mut names: Vec<String> = fs::read_dir(sent.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names.contains(&"a%2fb@example.org".to_string()));
        assert!(names.contains(&"bob@example.org".to_string()));
        assert!(
            names
                .iter()
                .all(|n| !n.contains('/') && !n.starts_with('.'))
        );
        assert_eq!(folder_name(".x@y"), "%2ex@y");
        assert_eq!(folder_name("a%2fb@y"), "a%252fb@y");
    }
}
