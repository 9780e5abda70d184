//! The pack: all the replies of one batch in one file ("Fast at
//! every size"). Mail path: the outbox's on-disk format, written when a
//! batch is staged ([`super::stage`]) and read by the flush
//! ([`super::flush`]).
//!
//! A poll used to write each reply as its own file and the flush removed
//! it once sent: two files made and two freed per move mail, and on ext4
//! without a journal each file made costs more the more were freed in the
//! last seconds (the inode allocator skips recently freed inodes one by
//! one). Now the replies of a batch stay in memory until its commit and
//! are written together, as `outbox/staging/<name>/replies`, which moves
//! with its folder into `outbox/ready/`; the flush notes each reply it has
//! sent in the folder's `sent` file ([`SENT`]) and removes the folder when
//! all are.
//!
//! The format, version 2: a header line, then for each reply a line with
//! its name (`<mail index>.<reply number>`), its length in bytes and its
//! envelope (the sender, then each recipient), the bytes, and a line
//! feed:
//!
//! ```text
//! pbem-pack 2\n
//! 0000.000 1834 pbem@example.net alice@example.org\n
//! <1834 bytes: the mail as sent, CRLF line ends>\n
//! 0000.001 1790 pbem@example.net bob@example.org\n
//! ...
//! ```
//!
//! The envelope is kept because it was known when the mail was built
//! ([`crate::mail::outbound::Built`]): the flush sends it as it is,
//! instead of parsing the mail's headers again. An address is written
//! with `%XX` for each byte outside `!`..`~` and for `%`, `<` and `>`; a
//! mail without an envelope sender has `<>`. Version 1 had no envelope
//! (`0000.000 1834`); a pack of that version, left by an older pbem, is
//! still read, and its envelopes come from the mails' headers.
//!
//! Self-delimiting and binary-safe: nothing in a mail is read as
//! structure. [`decode`] never panics: a truncated or garbled pack gives
//! the entries before the damage and a [`PackError`] with its byte offset.

use lettre::Address;
use lettre::address::Envelope;
use std::collections::HashSet;
use std::fmt;
use std::fs;
use std::io;
use std::path::Path;

/// The pack's file name in a batch folder.
pub const FILE: &str = "replies";

/// The file in a batch folder of `ready/` that lists the entries sent,
/// one name a line, appended after each send.
pub const SENT: &str = "sent";

/// The first line of a pack of this version.
const HEADER: &[u8] = b"pbem-pack 2\n";

/// The first line of a version-1 pack: entries without envelopes.
const HEADER_1: &[u8] = b"pbem-pack 1\n";

/// What every version's header starts with.
const MAGIC: &[u8] = b"pbem-pack ";

/// An entry line is short: a name, a length and two addresses of at
/// most 254 bytes each (RFC 5321), every byte at worst `%XX`. Longer
/// means garbage.
const MAX_LINE: usize = 1600;

/// An entry's name: mail `idx` of its batch, reply `n` of that mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id {
    pub idx: usize,
    pub n: usize,
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}.{:03}", self.idx, self.n)
    }
}

impl Id {
    /// `<idx>.<n>`, both decimal; `None` for anything else.
    pub fn parse(s: &str) -> Option<Id> {
        let (idx, n) = s.split_once('.')?;
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(idx) || !digits(n) {
            return None;
        }
        Some(Id {
            idx: idx.parse().ok()?,
            n: n.parse().ok()?,
        })
    }
}

/// One reply of a pack: a whole mail, as the transport takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: Id,
    /// What it is sent under. `None` only from a version-1 pack, which
    /// did not keep it: then the mail's headers say.
    pub envelope: Option<Envelope>,
    pub raw: Vec<u8>,
}

/// Where and why a pack stops reading.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("damaged pack at byte {offset}: {what}")]
pub struct PackError {
    pub offset: usize,
    pub what: String,
}

/// The bytes of a pack holding `entries`, in order.
pub fn encode(entries: &[Entry]) -> Vec<u8> {
    let size: usize = entries.iter().map(|e| e.raw.len() + 80).sum();
    let mut out = Vec::with_capacity(HEADER.len() + size);
    out.extend_from_slice(HEADER);
    for e in entries {
        out.extend_from_slice(entry_line(e).as_bytes());
        out.extend_from_slice(&e.raw);
        out.push(b'\n');
    }
    out
}

/// An entry's line, its line feed included.
fn entry_line(e: &Entry) -> String {
    let mut line = format!("{} {}", e.id, e.raw.len());
    if let Some(env) = &e.envelope {
        line.push(' ');
        match env.from() {
            Some(from) => escape(from.as_ref(), &mut line),
            None => line.push_str("<>"),
        }
        for to in env.to() {
            line.push(' ');
            escape(to.as_ref(), &mut line);
        }
    }
    line.push('\n');
    line
}

/// `address` onto `out`, every byte outside `!`..`~` and `%`, `<`, `>`
/// as `%XX`: an address never holds a space or a line feed in the pack.
fn escape(address: &str, out: &mut String) {
    for b in address.bytes() {
        if (b'!'..=b'~').contains(&b) && !matches!(b, b'%' | b'<' | b'>') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// The address [`escape`] wrote, if it is one.
fn unescape(word: &str) -> Option<Address> {
    let mut bytes = Vec::with_capacity(word.len());
    let mut rest = word.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()?.parse().ok()
}

/// An entry line's words after the name and length: the envelope, if
/// this version has one (`Err`: it does not read). An entry without
/// one is sent under the envelope its headers give.
fn envelope(words: &[&str], with: bool) -> Result<Option<Envelope>, ()> {
    let Some((from, to)) = words.split_first() else {
        return Ok(None);
    };
    if !with {
        return Err(());
    }
    let from = match *from {
        "<>" => None,
        a => Some(unescape(a).ok_or(())?),
    };
    let to = to
        .iter()
        .map(|a| unescape(a).ok_or(()))
        .collect::<Result<Vec<_>, ()>>()?;
    Envelope::new(from, to).map(Some).map_err(|_| ())
}

/// The entries of a pack, in order, and what stopped the reading early
/// if anything did: the entries before the damage are whole and
/// returned all the same.
pub fn decode(bytes: &[u8]) -> (Vec<Entry>, Option<PackError>) {
    let mut entries = Vec::new();
    let damage = |offset: usize, what: String| Some(PackError { offset, what });
    let with_envelopes = bytes.starts_with(HEADER);
    if !with_envelopes && !bytes.starts_with(HEADER_1) {
        let what = if bytes.starts_with(MAGIC) {
            let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            format!(
                "`{}`: not a version this pbem reads (1 or 2); made by a newer pbem?",
                String::from_utf8_lossy(&line[..line.len().min(64)])
            )
        } else {
            "no `pbem-pack 2` header".into()
        };
        return (entries, damage(0, what));
    }
    // Both versions' headers are as long.
    let mut at = HEADER.len();
    while at < bytes.len() {
        let rest = &bytes[at..];
        let Some(end) = rest.iter().take(MAX_LINE).position(|&b| b == b'\n') else {
            let what = if rest.len() < MAX_LINE {
                "truncated in an entry's line"
            } else {
                "an entry's line without its end"
            };
            return (entries, damage(at, what.into()));
        };
        let line = String::from_utf8_lossy(&rest[..end]);
        let words: Vec<&str> = line.split(' ').collect();
        let parsed = match words.as_slice() {
            [name, len, more @ ..] => {
                let len = (!len.is_empty() && len.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| len.parse::<usize>().ok())
                    .flatten();
                Id::parse(name)
                    .zip(len)
                    .zip(envelope(more, with_envelopes).ok())
            }
            _ => None,
        };
        let Some(((id, len), envelope)) = parsed else {
            let form = if with_envelopes {
                "<idx>.<n> <length> <from> <to>"
            } else {
                "<idx>.<n> <length>"
            };
            return (entries, damage(at, format!("`{line}` is not `{form}`")));
        };
        let body = at + end + 1;
        let left = bytes.len() - body;
        if left < len.saturating_add(1) {
            let what = format!("truncated: entry {id} says {len} bytes, {left} left");
            return (entries, damage(at, what));
        }
        if bytes[body + len] != b'\n' {
            let what = format!("entry {id} ({len} bytes) is not followed by a line feed");
            return (entries, damage(body + len, what));
        }
        entries.push(Entry {
            id,
            envelope,
            raw: bytes[body..body + len].to_vec(),
        });
        at = body + len + 1;
    }
    (entries, None)
}

/// The entries a batch folder's [`SENT`] file lists (none without it). A
/// last line without its line feed, torn by a crash, does not count: that
/// reply is sent again, as a crash between a send and its note resends
/// it.
pub fn sent(folder: &Path) -> io::Result<HashSet<Id>> {
    let text = match fs::read(folder.join(SENT)) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e),
    };
    let whole = text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(&text[..0], |end| &text[..end]);
    Ok(String::from_utf8_lossy(whole)
        .lines()
        .filter_map(Id::parse)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(idx: usize, n: usize, raw: &[u8]) -> Entry {
        Entry {
            id: Id { idx, n },
            envelope: None,
            raw: raw.to_vec(),
        }
    }

    fn envelope(from: Option<&str>, to: &[&str]) -> Option<Envelope> {
        let to = to.iter().map(|a| a.parse().unwrap()).collect();
        Some(Envelope::new(from.map(|a| a.parse().unwrap()), to).unwrap())
    }

    fn sent_to(idx: usize, raw: &[u8], to: &str) -> Entry {
        Entry {
            envelope: envelope(Some("pbem@example.net"), &[to]),
            ..entry(idx, 0, raw)
        }
    }

    fn sample() -> Vec<Entry> {
        let binary: Vec<u8> = (0..=255u8).chain([b'\n', 0, b'\r']).collect();
        vec![
            entry(0, 0, b"From: a@x\r\nTo: b@y\r\n\r\nhello\r\n"),
            entry(0, 1, b""),
            entry(1, 0, &binary),
            // A mail holding what looks like pack structure.
            entry(7, 2, b"pbem-pack 1\n0000.000 5\nhello\n0001.000 999999\n"),
            entry(127, 3, b"\n\n\r\n"),
            entry(10_000, 999, b"x"),
            sent_to(10_001, b"To: alice\r\n\r\nhi\r\n", "alice@example.org"),
            Entry {
                envelope: envelope(None, &["a%b@example.org", "x.y+z@example.org"]),
                ..entry(10_002, 0, b"bounce\r\n")
            },
        ]
    }

    #[test]
    fn a_pack_round_trips_binary_crlf_pack_text_and_envelopes() {
        let entries = sample();
        let bytes = encode(&entries);
        assert!(bytes.starts_with(b"pbem-pack 2\n0000.000 "));
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("\n10001.000 17 pbem@example.net alice@example.org\n"));
        assert!(text.contains("\n10002.000 8 <> a%25b@example.org x.y+z@example.org\n"));
        assert_eq!(decode(&bytes), (entries, None));
        assert_eq!(decode(b"pbem-pack 2\n"), (vec![], None));
        assert_eq!(encode(&[]), b"pbem-pack 2\n");
    }

    #[test]
    fn an_address_with_any_byte_round_trips_on_one_line() {
        for a in [
            "zo\u{eb}@example.org",
            "\"a b\"@example.org",
            "o'hara@example.org",
        ] {
            let Ok(address) = a.parse::<Address>() else {
                continue; // not an address to lettre: never in a pack
            };
            let mut line = String::new();
            escape(address.as_ref(), &mut line);
            assert!(line.bytes().all(|b| b.is_ascii_graphic()), "{line}");
            assert_eq!(unescape(&line), Some(address), "{a}");
        }
        for bad in [
            "%",
            "%4",
            "%zz@example.org",
            "%FF@example.org",
            "no-at-sign",
        ] {
            assert_eq!(unescape(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_version_1_pack_left_by_an_older_pbem_still_reads_without_envelopes() {
        let v1 = b"pbem-pack 1\n0000.000 5\nhello\n0000.001 2\nhi\n";
        let (got, err) = decode(v1);
        assert_eq!(err, None);
        assert_eq!(got, vec![entry(0, 0, b"hello"), entry(0, 1, b"hi")]);
        // Version 1 has no envelopes: words after the length are damage.
        let (got, err) = decode(b"pbem-pack 1\n0000.000 5 a@x b@y\nhello\n");
        assert!(got.is_empty());
        assert!(err.unwrap().what.contains("is not `<idx>.<n> <length>`"));
    }

    #[test]
    fn a_truncated_pack_gives_the_whole_entries_and_an_error() {
        let entries = sample();
        let bytes = encode(&entries);
        // Cut at every byte: never a panic, always the entries before the
        // cut, and the error at the first one missing.
        let mut ends = vec![HEADER.len()];
        let mut at = HEADER.len();
        for e in &entries {
            at += entry_line(e).len() + e.raw.len() + 1;
            ends.push(at);
        }
        for cut in 0..bytes.len() {
            let (got, err) = decode(&bytes[..cut]);
            let whole = ends.iter().filter(|&&end| end <= cut).count();
            if cut < HEADER.len() {
                assert_eq!((got.len(), err.unwrap().offset), (0, 0));
                continue;
            }
            assert_eq!(got, entries[..whole - 1], "cut at {cut}");
            if ends.contains(&cut) {
                assert_eq!(err, None, "cut at {cut}, between entries");
                continue;
            }
            let err = err.unwrap_or_else(|| panic!("cut at {cut}: no error"));
            assert_eq!(err.offset, ends[whole - 1], "cut at {cut}: {err}");
        }
    }

    #[test]
    fn a_garbled_pack_is_an_error_naming_the_byte() {
        let two = encode(&[entry(0, 0, b"abc"), entry(1, 0, b"de")]);
        let second = HEADER.len() + "0000.000 3\nabc\n".len();
        let with = |tail: &[u8]| [&two[..second], tail].concat();
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (b"From: x\r\n\r\n".to_vec(), 0, "no `pbem-pack 2` header"),
            (b"pbem-pack 3\n".to_vec(), 0, "`pbem-pack 3`: not a version"),
            (
                with(b"0001.000 two\nde\n"),
                second,
                "`0001.000 two` is not `<idx>.<n> <length> <from> <to>`",
            ),
            (with(b"0001.000 2 a@x\nde\n"), second, "is not `<idx>.<n>"),
            (
                with(b"0001.000 2 a@x %ZZ@y\nde\n"),
                second,
                "is not `<idx>.<n>",
            ),
            (
                with(b"0001.000 2 a@x b@y \nde\n"),
                second,
                "is not `<idx>.<n>",
            ),
            (with(b"x.0 2\nde\n"), second, "is not `<idx>.<n>"),
            (with(b"0001.000 -2\nde\n"), second, "is not `<idx>.<n>"),
            (
                with(b"0001.000 1\nde\n"),
                second + "0001.000 1\n".len() + 1,
                "entry 0001.000 (1 bytes) is not followed by a line feed",
            ),
            (
                with(b"0001.000 99999999999999999999999\nde\n"),
                second,
                "is not `<idx>.<n>",
            ),
            (
                with(b"0001.000 18446744073709551615\nde\n"),
                second,
                "truncated: entry 0001.000 says 18446744073709551615 bytes, 3 left",
            ),
            (
                with(&[b'7'; 2000]),
                second,
                "an entry's line without its end",
            ),
        ];
        for (bytes, offset, what) in cases {
            let (got, err) = decode(&bytes);
            let err = err.unwrap_or_else(|| panic!("no error for {bytes:?}"));
            assert_eq!(err.offset, offset, "{err}");
            assert!(err.what.contains(what), "{err}");
            assert_eq!(got.len(), usize::from(offset >= second), "{err}");
        }
    }

    #[test]
    fn a_torn_last_line_of_sent_does_not_count() {
        let dir = tempfile::tempdir().unwrap();
        assert!(sent(dir.path()).unwrap().is_empty());
        fs::write(dir.path().join(SENT), "0000.000\n0001.002\n0002.0").unwrap();
        let got = sent(dir.path()).unwrap();
        assert_eq!(
            got,
            HashSet::from([Id { idx: 0, n: 0 }, Id { idx: 1, n: 2 }])
        );
    }
}
