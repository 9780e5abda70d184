//! The Maildir transport: one Maildir per recipient under a folder, the
//! embedded default, where "sent" mail can be read with any mail client
//! or `cat`. Mail path: the last stage, `outbox -> transport`.
//!
//! Crash safety: a mail is delivered under a name made from its bytes, and
//! a delivery found already (in `new/`, or in `cur/` where a reader moved
//! it) is not made again, so a flush cut short before it noted a mail sent
//! does not deliver it twice.

use super::{SendError, Transport};
use crate::mailbox::Maildir;
use lettre::address::Envelope;
use std::path::{Path, PathBuf};

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
/// (a reply came twice once the client had read the first).
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
/// after every header of a CRLF file, s-nail cannot read one).
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
/// (`/tmp/x@example.org` is a valid address) and must not name a path,
/// so `%` and `/` are written `%25` and
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::envelope_of;
    use lettre::Address;
    use std::fs;

    /// A reply to `to`, numbered `n` in an `X-N` header.
    fn reply(to: &str, n: &str) -> Vec<u8> {
        format!("From: pbem@example.net\r\nTo: {to}\r\nX-N: {n}\r\nSubject: x\r\n\r\nx\r\n")
            .into_bytes()
    }

    #[test]
    fn maildir_delivery_writes_lf_line_ends() {
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
        // has moved it to cur/ and flagged it.
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
    fn a_recipient_folder_never_leaves_the_sent_folder() {
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
