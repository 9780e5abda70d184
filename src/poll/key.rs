//! The key that makes a mail "the same mail" across runs. Mail path: between parse and
//! command, the poll's first look at a parsed mail: a mail whose key is
//! committed in `processed/` is not handled again.
//!
//! Crash safety: the key is a pure function of the mail's bytes (its
//! sender, Message-ID and body), so a mail found again after a crash, or
//! delivered twice, has the key it had.

use crate::store::strong_hash;

/// The key that makes a mail "the same mail" across runs: `mail:` and
/// 128 bits of a SHA-256 over who sent it (as written in From, lower
/// case), its Message-ID exactly as written, and its body.
/// A Message-ID alone is no key: anyone can send a mail with the one a
/// player will use next (pbem's own mails carry them in References), and a
/// key burned by a stranger would make the player's mail vanish. A mail
/// delivered twice is the same mail (the same sender, id and body, with
/// other Received lines); a stranger's mail is another mail unless it
/// carries the player's very body. Without a Message-ID or a From, or
/// unparsed, the whole mail is hashed. The prefix keeps a mail's key apart
/// from pbem's own (`digest:`, `damaged:`, `new:`, `move:`).
pub fn mail_key(raw: &[u8], from: Option<&str>, message_id: Option<&str>) -> String {
    let hash = match (from, message_id) {
        (Some(from), Some(id)) => strong_hash(&[
            b"pbem mail key 1",
            from.to_lowercase().as_bytes(),
            id.as_bytes(),
            &body_of(raw),
        ]),
        _ => strong_hash(&[b"pbem mail key 1", &lf(raw)]),
    };
    format!("mail:{hash}")
}

/// What follows a raw mail's header (all of it when there is no blank
/// line), as [`lf`] makes it.
fn body_of(raw: &[u8]) -> Vec<u8> {
    // The first line that is empty (or only a CR) ends the header.
    let mut at = 0;
    for line in raw.split_inclusive(|b| *b == b'\n') {
        at += line.len();
        if matches!(line, b"\n" | b"\r\n") {
            return lf(&raw[at..]);
        }
    }
    lf(raw)
}

/// `raw` as the ways of mail leave it alike: a mail stored with CRLF and
/// the same mail fetched by IMAP with LF and a blank line added at the end
/// are one mail. Line ends are LF, spaces and tabs at their ends dropped,
/// and blank lines at the end.
fn lf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    for line in raw.split(|b| *b == b'\n') {
        let end = line
            .iter()
            .rposition(|b| !matches!(b, b'\r' | b' ' | b'\t'))
            .map_or(0, |i| i + 1);
        out.extend_from_slice(&line[..end]);
        out.push(b'\n');
    }
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    out
}
