//! Dead letters: replies the server refused for good (item 13:
//! a reply refused with a 5xx stayed in the outbox and made every later
//! poll exit 1). Mail path: the end of the outbox, where the flush
//! ([`super::flush`]) puts what the transport refused for good.
//!
//! A [`SendErrorKind::Permanent`](crate::transport::SendErrorKind::Permanent) failure
//! moves the reply out of `ready/` into the folder beside it:
//!
//! ```text
//! DATA/outbox/dead/<batch>.<idx>.<n>.eml   the mail as it was queued (CRLF)
//! DATA/outbox/dead/<batch>.<idx>.<n>.txt   the note: to, subject, time, the server's answer
//! DATA/outbox/dead/<batch>.<idx>.<n>.told  once the admin has been told
//! ```
//!
//! The name is the batch folder's and the entry's, so it is unique and the
//! same every time the entry is met. The mail and then the note are
//! written (each atomically, mode 0600 like the rest of the data folder)
//! before the flush notes the entry sent; a crash in between leaves the
//! entry queued and dead-lettered both, and the next flush, finding the
//! note, only notes it sent: nothing is sent again or buried twice.
//!
//! [`tell`] tells the admin once per dead letter, straight through the
//! transport (never through the outbox, so a notice the server refuses
//! cannot become a dead letter that asks for a notice): sent, or logged
//! where there is no admin to tell, or logged when the server refuses the
//! notice too, it is marked told; a notice that could not go now waits
//! for the next flush.

use crate::mail::outbound::{BuildError, Built};
use crate::mail::templates::TemplateError;
use crate::store::files::write_atomic_via;
use crate::transport::{SendError, SendErrorKind, Transport};
use chrono::{DateTime, SecondsFormat, Utc};
use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The mail's file: `<name>.eml`.
pub const MAIL: &str = "eml";
/// The note's file: `<name>.txt`. Its presence makes a dead letter.
pub const NOTE: &str = "txt";
/// Written once the admin has been told: `<name>.told`.
pub const TOLD: &str = "told";

/// Subjects are cut to this many characters in the note and the notice:
/// a stranger's words go no further than that to the admin.
const SUBJECT_CHARS: usize = 120;

/// The dead-letter folder of the outbox whose `ready/` folder is `ready`:
/// `<outbox>/dead`.
pub fn folder_of(ready: &Path) -> PathBuf {
    ready.parent().unwrap_or(ready).join("dead")
}

/// The dead letter's name for entry `entry` (`0000.001`) of the batch
/// folder `batch`: `<batch>.<entry>`, in
/// letters, digits, `.`, `-` and `_` alone, never starting with `.`.
pub fn name_for(batch: &Path, entry: &str) -> String {
    let batch = batch
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = format!("{batch}.{entry}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.strip_prefix('.') {
        Some(rest) => format!("_{rest}"),
        None => name,
    }
}

/// What the admin learns of a dead letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The recipient, as the mail's To header has it (`?` when it has none).
    pub to: String,
    /// The mail's subject, cut to 120 characters.
    pub subject: String,
    /// When the server refused it.
    pub at: DateTime<Utc>,
    /// The server's answer, as the transport put it.
    pub error: String,
    /// Where it waited: the pack and entry, or the file.
    pub queued: String,
}

/// A note that does not read.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}")]
pub struct NoteError {
    pub file: String,
    pub message: String,
}

/// `v` on one line: control characters (line breaks too) as spaces, at
/// most `max` characters.
fn one_line(v: &str, max: usize) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

impl Note {
    /// The note of `raw`, refused with `error` at `at` where it waited in
    /// `queued`: its To and Subject from its headers.
    pub fn of(raw: &[u8], error: &str, queued: &str, at: DateTime<Utc>) -> Note {
        let headers = crate::mail::outbound::header_block(raw).unwrap_or(raw);
        let msg = mail_parser::MessageParser::default().parse_headers(headers);
        let to = msg
            .as_ref()
            .and_then(|m| m.to())
            .and_then(|a| a.first())
            .and_then(|a| {
                let address = a.address()?;
                Some(match a.name() {
                    Some(n) if !n.is_empty() => format!("{n} <{address}>"),
                    _ => address.to_string(),
                })
            })
            .unwrap_or_else(|| "?".into());
        let subject = msg
            .as_ref()
            .and_then(|m| m.subject())
            .unwrap_or_default()
            .to_string();
        Note {
            to: one_line(&to, 320),
            subject: one_line(&subject, SUBJECT_CHARS),
            at,
            error: one_line(error, 2000),
            queued: one_line(queued, 2000),
        }
    }

    /// The note as its file holds it: `key: value` lines.
    pub fn to_text(&self) -> String {
        format!(
            "to: {}\nsubject: {}\nat: {}\nerror: {}\nqueued: {}\n",
            one_line(&self.to, 320),
            one_line(&self.subject, SUBJECT_CHARS),
            self.at.to_rfc3339_opts(SecondsFormat::Secs, true),
            one_line(&self.error, 2000),
            one_line(&self.queued, 2000),
        )
    }

    /// Reads a note's file text (`file` names it in errors). Lines it does
    /// not know are skipped.
    ///
    /// # Errors
    /// A key missing, or a time that does not read.
    pub fn parse(file: &str, text: &str) -> Result<Note, NoteError> {
        let err = |message: String| NoteError {
            file: file.to_string(),
            message,
        };
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
                .map(|v| v.trim().to_string())
                .ok_or_else(|| err(format!("no `{key}:` line")))
        };
        let at = field("at")?;
        Ok(Note {
            to: field("to")?,
            subject: field("subject")?,
            at: DateTime::parse_from_rfc3339(&at)
                .map_err(|e| err(format!("at: {at}: {e}")))?
                .with_timezone(&Utc),
            error: field("error")?,
            queued: field("queued")?,
        })
    }
}

/// The file `<name>.<ext>` of `dir`.
fn file(dir: &Path, name: &str, ext: &str) -> PathBuf {
    dir.join(format!("{name}.{ext}"))
}

/// The names of the dead letters in `dir` (those whose note is there):
/// read once per flush, so that a reply costs no look at the folder
/// (none when it does not exist: one failed open).
pub fn buried(dir: &Path) -> HashSet<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return HashSet::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let name = n.strip_suffix(&format!(".{NOTE}"))?;
            (!name.starts_with('.')).then(|| name.to_string())
        })
        .collect()
}

/// Puts `raw` into `dir` as dead letter `name`, with `note`: the mail,
/// then the note, each atomically. Returns the mail's path.
///
/// # Errors
/// When the folder or a file cannot be written: the mail then stays
/// queued.
pub fn bury(dir: &Path, name: &str, raw: &[u8], note: &Note) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let mail = file(dir, name, MAIL);
    write_atomic_via(&mail, raw, dir, false)?;
    write_atomic_via(&file(dir, name, NOTE), note.to_text(), dir, true)?;
    Ok(mail)
}

/// One dead letter of the folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letter {
    pub name: String,
    pub note: Note,
    /// The mail's file.
    pub mail: PathBuf,
}

/// The dead letters of `dir` whose admin has not been told yet, oldest
/// name first, and the notes that do not read.
pub fn untold(dir: &Path) -> (Vec<Letter>, Vec<NoteError>) {
    let mut names: Vec<String> = buried(dir)
        .into_iter()
        .filter(|name| !file(dir, name, TOLD).exists())
        .collect();
    names.sort();
    let mut letters = Vec::new();
    let mut errors = Vec::new();
    for name in names {
        let path = file(dir, &name, NOTE);
        let shown = path.display().to_string();
        match fs::read_to_string(&path)
            .map_err(|e| NoteError {
                file: shown.clone(),
                message: e.to_string(),
            })
            .and_then(|t| Note::parse(&shown, &t))
        {
            Ok(note) => letters.push(Letter {
                mail: file(dir, &name, MAIL),
                name,
                note,
            }),
            Err(e) => errors.push(e),
        }
    }
    (letters, errors)
}

/// Marks dead letter `name` told, saying how (`mailed to ...`, `logged:
/// ...`) and when.
///
/// # Errors
/// When the file cannot be written: the admin is then told again.
pub fn mark_told(dir: &Path, name: &str, how: &str, at: DateTime<Utc>) -> io::Result<()> {
    let text = format!(
        "{} {}\n",
        at.to_rfc3339_opts(SecondsFormat::Secs, true),
        one_line(how, 2000)
    );
    write_atomic_via(&file(dir, name, TOLD), text, dir, true)
}

/// What telling the admin did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Told {
    /// Notices sent.
    pub sent: usize,
    /// Dead letters marked told without a mail: no admin to tell, or a
    /// notice the server refused (logged at error level, both).
    pub logged: usize,
    /// Notices that could not go now: tried again at the next flush.
    pub waiting: usize,
    pub errors: Vec<String>,
}

/// Why the notice of a dead letter could not be made (it is tried
/// again at the next flush).
#[derive(Debug, thiserror::Error)]
pub enum NoticeError {
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// Makes the notice of a dead letter: the mail to the admin with its
/// envelope, `None` when there is no admin to mail, or why it cannot be
/// made.
pub type MakeNotice<'a> = dyn Fn(&Letter) -> Result<Option<Built>, NoticeError> + 'a;

/// Tells the admin of each dead letter of `dir` not told yet: `notice`
/// makes the notice mail (`None`: nobody to mail, the log line is the
/// notice), sent through `transport` at once. Marked told once sent or
/// logged; a notice the server refuses for good is logged and never
/// tried again (no notice of a notice); one that cannot go now waits, and
/// when the transport is down the rest wait with it.
pub fn tell(
    dir: &Path,
    transport: &dyn Transport,
    now: DateTime<Utc>,
    notice: &MakeNotice<'_>,
) -> Told {
    use crate::logging::line;
    let mut told = Told::default();
    let (letters, damaged) = untold(dir);
    for e in damaged {
        log::warn!("{}", line("dead-letter-unread", &[("error", &e)]));
    }
    let mut letters = letters.into_iter();
    while let Some(letter) = letters.next() {
        let n = &letter.note;
        let fields = |how: &dyn std::fmt::Display| {
            line(
                "dead-letter",
                &[
                    ("to", &n.to),
                    ("subject", &n.subject),
                    ("error", &n.error),
                    ("mail", &letter.mail.display()),
                    ("notice", how),
                ],
            )
        };
        let how = match notice(&letter) {
            Err(e) => {
                told.waiting += 1;
                told.errors.push(format!(
                    "the notice of dead letter {}: {e}",
                    letter.mail.display()
                ));
                continue;
            }
            Ok(None) => {
                let how = "none: no admin address in pbem.toml; this line is the notice";
                log::error!("{}", fields(&how));
                told.logged += 1;
                how.to_string()
            }
            Ok(Some(Built { raw, envelope })) => match transport.send(&envelope, &raw) {
                Ok(()) => {
                    let to = envelope.to().iter().map(ToString::to_string);
                    let how = format!("mailed to {}", to.collect::<Vec<_>>().join(", "));
                    log::info!("{}", fields(&how));
                    told.sent += 1;
                    how
                }
                Err(e) if e.kind == SendErrorKind::Permanent => {
                    let how = format!("refused too, not tried again: {e}");
                    log::error!("{}", fields(&how));
                    told.logged += 1;
                    how
                }
                Err(SendError { message, kind }) => {
                    told.waiting += 1;
                    told.errors.push(format!(
                        "the notice of dead letter {}: {message}",
                        letter.mail.display()
                    ));
                    if kind == SendErrorKind::Down {
                        told.waiting += letters.len();
                        break;
                    }
                    continue;
                }
            },
        };
        if let Err(e) = mark_told(dir, &letter.name, &how, now) {
            told.errors.push(format!(
                "{}: {e} (the admin will be told again)",
                file(dir, &letter.name, TOLD).display()
            ));
        }
    }
    transport.finish();
    told
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use std::cell::RefCell;

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
    }

    fn mail(to: &str, subject: &str) -> Vec<u8> {
        format!("From: pbem@example.net\r\nTo: {to}\r\nSubject: {subject}\r\n\r\nsecret body\r\n")
            .into_bytes()
    }

    #[test]
    fn a_note_round_trips_and_keeps_to_one_line_each() {
        let raw = mail(
            "Bob Bobson <bob@example.org>",
            &format!("[pbem bz-1] {}\r\n and more", "long ".repeat(40)),
        );
        let note = Note::of(
            &raw,
            "SMTP RCPT TO <bob@example.org>: permanent error (550): 5.1.1 no\nsuch user",
            "/d/outbox/ready/b1/replies: 0000.001",
            at(),
        );
        assert_eq!(note.to, "Bob Bobson <bob@example.org>");
        assert!(note.subject.starts_with("[pbem bz-1] long long"));
        assert_eq!(note.subject.chars().count(), 120);
        assert!(!note.error.contains('\n'));
        let text = note.to_text();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(!text.contains("secret body"));
        assert_eq!(Note::parse("n.txt", &text).unwrap(), note);
        // Without a To or a Subject.
        let bare = Note::of(b"From: x@y\r\n\r\nx", "e", "q", at());
        assert_eq!((bare.to.as_str(), bare.subject.as_str()), ("?", ""));
        assert_eq!(Note::parse("n.txt", &bare.to_text()).unwrap(), bare);
        let e = Note::parse("n.txt", "to: x\n").unwrap_err().to_string();
        assert!(e.starts_with("n.txt: no `at:` line"), "{e}");
        let e = Note::parse("n.txt", &text.replace("2026-11-21", "someday"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("at: someday"), "{e}");
    }

    #[test]
    fn names_are_one_plain_path_component() {
        assert_eq!(
            name_for(Path::new("/d/ready/20261121T1000-00000001-ab"), "0000.001"),
            "20261121T1000-00000001-ab.0000.001"
        );
        assert_eq!(name_for(Path::new("/d/ready/.x y"), "0/1"), "_x_y.0_1");
        assert_eq!(name_for(Path::new("/"), "a"), "_a");
    }

    /// A transport answering each notice from a list, noting what it got.
    struct Answers {
        answers: RefCell<Vec<Result<(), SendError>>>,
        got: RefCell<Vec<Vec<u8>>>,
    }

    impl Transport for Answers {
        fn send(&self, _: &Envelope, raw: &[u8]) -> Result<(), SendError> {
            self.got.borrow_mut().push(raw.to_vec());
            self.answers.borrow_mut().remove(0)
        }
    }

    use lettre::address::Envelope;

    fn buried(dir: &Path, names: &[&str]) {
        for n in names {
            let raw = mail(&format!("{n}@example.org"), n);
            bury(dir, n, &raw, &Note::of(&raw, "550 no", "q", at())).unwrap();
        }
    }

    fn notice(l: &Letter) -> Result<Option<Built>, NoticeError> {
        let raw = mail("Admin <admin@example.net>", &format!("dead: {}", l.note.to));
        let envelope = crate::transport::envelope_of(&raw).unwrap();
        Ok(Some(Built { raw, envelope }))
    }

    #[test]
    fn the_admin_is_told_once_and_a_refused_notice_is_not_tried_again() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        buried(d, &["a", "b", "c", "d"]);
        #[cfg(unix)]
        for f in ["a.eml", "a.txt"] {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(d.join(f)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{f}");
        }
        let t = Answers {
            answers: RefCell::new(vec![
                Ok(()),
                Err(SendError::permanent("550 admin unknown")),
                Err(SendError::transient("451 later")),
                Err(SendError::down("connection refused")),
            ]),
            got: RefCell::default(),
        };
        let told = tell(d, &t, at(), &notice);
        assert_eq!(
            (told.sent, told.logged, told.waiting),
            (1, 1, 2),
            "{told:?}"
        );
        assert_eq!(told.errors.len(), 2, "{told:?}");
        assert!(told.errors[1].contains("connection refused"), "{told:?}");
        assert!(d.join("a.told").exists() && d.join("b.told").exists());
        let why = fs::read_to_string(d.join("b.told")).unwrap();
        assert!(
            why.contains("refused too, not tried again: 550 admin unknown"),
            "{why}"
        );
        // The next flush: the two that waited, once each.
        let t = Answers {
            answers: RefCell::new(vec![Ok(()), Ok(())]),
            got: RefCell::default(),
        };
        let told = tell(d, &t, at(), &notice);
        assert_eq!(
            (told.sent, told.logged, told.waiting),
            (2, 0, 0),
            "{told:?}"
        );
        let subjects: Vec<String> = t
            .got
            .borrow()
            .iter()
            .map(|m| {
                String::from_utf8_lossy(m)
                    .lines()
                    .nth(2)
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(
            subjects,
            [
                "Subject: dead: c@example.org",
                "Subject: dead: d@example.org"
            ]
        );
        let t = Answers {
            answers: RefCell::new(vec![]),
            got: RefCell::default(),
        };
        assert_eq!(tell(d, &t, at(), &notice), Told::default());
        // No admin: logged, marked, not mailed.
        buried(d, &["e"]);
        let told = tell(d, &t, at(), &|_| Ok(None));
        assert_eq!((told.sent, told.logged), (0, 1));
        assert!(t.got.borrow().is_empty());
        assert!(d.join("e.told").exists());
        // A notice that cannot be made waits, and says why.
        buried(d, &["f"]);
        let told = tell(d, &t, at(), &|_| {
            Err(NoticeError::Build(BuildError {
                to: "admin".into(),
                message: "bad".into(),
            }))
        });
        assert_eq!(told.waiting, 1);
        assert!(told.errors[0].contains("cannot write a mail to `admin`: bad"));
        assert!(!d.join("f.told").exists());
    }
}
