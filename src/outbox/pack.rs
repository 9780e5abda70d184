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
//! The entries: for each reply a line with its name (`<mail
//! index>.<reply number>`), its length in bytes and its envelope (the
//! sender, then each recipient), the bytes, and a line feed:
//!
//! ```text
//! 0000.000 1834 pbem@example.net alice@example.org
//! <1834 bytes: the mail as sent, CRLF line ends>
//! 0000.001 1790 pbem@example.net bob@example.org
//! ...
//! ```
//!
//! The format, version 3: a header line, then the entries in chunks of
//! about [`CHUNK`] bytes of whole entries, each packed in the LZ4 block
//! format: a line with the entries' length and the packed length, the
//! packed bytes, and a line feed:
//!
//! ```text
//! pbem-pack 3\n
//! 262211 31004\n
//! <31004 bytes: the entries above, packed>\n
//! ...
//! ```
//!
//! Packed, because the pack is written, synced and read again on the
//! poll's own path, and the replies of a batch are much alike (the same
//! style sheet, the same board drawn with a few pieces moved): the
//! replies of a batch of 128 move mails, 2.2 MB, pack into 0.26 MB in 2
//! ms, and unpack in 1 ms.
//!
//! The envelope is kept because it was known when the mail was built
//! ([`crate::mail::outbound::Built`]): the flush sends it as it is,
//! instead of parsing the mail's headers again. An address is written
//! with `%XX` for each byte outside `!`..`~` and for `%`, `<` and `>`; a
//! mail without an envelope sender has `<>`. A pack left by an older
//! pbem is still read: version 2 is the header `pbem-pack 2` and the
//! entries as they are, not packed; version 1 too, with no envelopes
//! (`0000.000 1834`): their envelopes come from the mails' headers.
//!
//! Self-delimiting and binary-safe: nothing in a mail is read as
//! structure. [`decode`] never panics: a truncated or garbled pack gives
//! the entries before the damage (the whole chunks before it, and the
//! whole entries of its chunk before it) and a [`PackError`] with the
//! byte offset of the damage, or of its chunk.

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

/// The first line of a pack of this version: the entries in packed
/// chunks.
const HEADER: &[u8] = b"pbem-pack 3\n";

/// The first line of a version-2 pack: the entries as they are.
const HEADER_2: &[u8] = b"pbem-pack 2\n";

/// The first line of a version-1 pack: entries without envelopes.
const HEADER_1: &[u8] = b"pbem-pack 1\n";

/// How many bytes of entries a chunk holds, at least (but the last): a
/// chunk ends after the entry that reaches it. LZ4 looks back 64 KB for
/// what repeats, so a chunk of four times that packs nearly as well as
/// one of the whole pack, and damage loses at most one chunk's entries.
pub const CHUNK: usize = 256 * 1024;

/// A chunk's line is short: two numbers.
const MAX_CHUNK_LINE: usize = 48;

/// The most an LZ4 block unpacks to, for each byte of it (each byte of
/// a match's length adds at most 255 bytes): a chunk's line that says
/// more is damaged, and no more is ever made room for.
const MAX_RATIO: usize = 256;

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
    encode_in_chunks(entries, CHUNK)
}

/// [`encode`] in chunks of at least `chunk` bytes of entries (but the
/// last): a chunk of `1` holds one entry.
pub fn encode_in_chunks(entries: &[Entry], chunk: usize) -> Vec<u8> {
    let size: usize = entries.iter().map(|e| e.raw.len() + 80).sum();
    let mut out = Vec::with_capacity(HEADER.len() + size / 4);
    out.extend_from_slice(HEADER);
    let mut text = Vec::with_capacity(size.min(chunk.saturating_add(64 * 1024)));
    for e in entries {
        put_entry(e, &mut text);
        if text.len() >= chunk {
            put_chunk(&text, &mut out);
            text.clear();
        }
    }
    if !text.is_empty() {
        put_chunk(&text, &mut out);
    }
    out
}

/// An entry as a pack's text holds it: its line, its bytes, a line feed.
fn put_entry(e: &Entry, out: &mut Vec<u8>) {
    out.extend_from_slice(entry_line(e).as_bytes());
    out.extend_from_slice(&e.raw);
    out.push(b'\n');
}

/// `text`, whole entries, packed onto `out` as one chunk.
fn put_chunk(text: &[u8], out: &mut Vec<u8>) {
    let packed = lz4_flex::block::compress(text);
    out.extend_from_slice(format!("{} {}\n", text.len(), packed.len()).as_bytes());
    out.extend_from_slice(&packed);
    out.push(b'\n');
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
    // Every version's header is as long.
    let at = HEADER.len();
    let damage = if bytes.starts_with(HEADER) {
        read_chunks(bytes, &mut entries).err()
    } else if bytes.starts_with(HEADER_2) || bytes.starts_with(HEADER_1) {
        let with_envelopes = bytes.starts_with(HEADER_2);
        read_entries(&bytes[at..], with_envelopes, &mut entries)
            .err()
            .map(|(offset, what)| PackError {
                offset: at + offset,
                what,
            })
    } else {
        let what = if bytes.starts_with(MAGIC) {
            let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
            format!(
                "`{}`: not a version this pbem reads (1, 2 or 3); made by a newer pbem?",
                String::from_utf8_lossy(&line[..line.len().min(64)])
            )
        } else {
            "no `pbem-pack` header".into()
        };
        Some(PackError { offset: 0, what })
    };
    (entries, damage)
}

/// The chunks of a version-3 pack, their entries onto `entries`; the
/// damage, at its chunk's offset when it is in a chunk's text.
fn read_chunks(bytes: &[u8], entries: &mut Vec<Entry>) -> Result<(), PackError> {
    let damage = |offset: usize, what: String| PackError { offset, what };
    let mut at = HEADER.len();
    // One buffer for every chunk's text, made as long as the longest: a
    // fresh one a chunk was zeroed whole each time (a chunk is 256 KB).
    let mut buffer = Vec::new();
    while at < bytes.len() {
        let rest = &bytes[at..];
        let end = line_end(rest, MAX_CHUNK_LINE, "a chunk's").map_err(|w| damage(at, w))?;
        let line = String::from_utf8_lossy(&rest[..end]);
        let Some((len, packed)) = line
            .split_once(' ')
            .and_then(|(a, b)| number(a).zip(number(b)))
        else {
            let what = format!("`{line}` is not `<length> <packed length>`");
            return Err(damage(at, what));
        };
        let body = at + end + 1;
        let left = bytes.len() - body;
        if left < packed.saturating_add(1) {
            let what = format!("truncated: a chunk says {packed} packed bytes, {left} left");
            return Err(damage(at, what));
        }
        if bytes[body + packed] != b'\n' {
            let what = format!("a chunk ({packed} packed bytes) is not followed by a line feed");
            return Err(damage(body + packed, what));
        }
        let text = (len <= packed.saturating_mul(MAX_RATIO))
            .then(|| {
                if buffer.len() < len {
                    buffer.resize(len, 0);
                }
                let out = &mut buffer[..len];
                lz4_flex::block::decompress_into(&bytes[body..body + packed], out)
                    .ok()
                    .filter(|&n| n == len)
                    .map(|_| &*out)
            })
            .flatten();
        let Some(text) = text else {
            let what = format!("a chunk of {packed} packed bytes does not unpack to {len}");
            return Err(damage(at, what));
        };
        if let Err((inner, what)) = read_entries(text, true, entries) {
            let what = format!("at byte {inner} of its chunk's {len}: {what}");
            return Err(damage(at, what));
        }
        at = body + packed + 1;
    }
    Ok(())
}

/// Where the line at the start of `rest` ends (its line feed), looked
/// for in its first `max` bytes; else why not, for `whose` line ("a
/// chunk's", "an entry's").
fn line_end(rest: &[u8], max: usize, whose: &str) -> Result<usize, String> {
    rest.iter()
        .take(max)
        .position(|&b| b == b'\n')
        .ok_or_else(|| match rest.len() < max {
            true => format!("truncated in {whose} line"),
            false => format!("{whose} line without its end"),
        })
}

/// A length: decimal digits only, and one that fits.
fn number(word: &str) -> Option<usize> {
    (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
}

/// The entries of `text` (a version-2 or version-1 pack after its header,
/// or a chunk's text) onto `entries`; the damage's offset in `text` and
/// what it is.
fn read_entries(
    text: &[u8],
    with_envelopes: bool,
    entries: &mut Vec<Entry>,
) -> Result<(), (usize, String)> {
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let end = line_end(rest, MAX_LINE, "an entry's").map_err(|w| (at, w))?;
        let line = String::from_utf8_lossy(&rest[..end]);
        let words: Vec<&str> = line.split(' ').collect();
        let parsed = match words.as_slice() {
            [name, len, more @ ..] => Id::parse(name)
                .zip(number(len))
                .zip(envelope(more, with_envelopes).ok()),
            _ => None,
        };
        let Some(((id, len), envelope)) = parsed else {
            let form = if with_envelopes {
                "<idx>.<n> <length> <from> <to>"
            } else {
                "<idx>.<n> <length>"
            };
            return Err((at, format!("`{line}` is not `{form}`")));
        };
        let body = at + end + 1;
        let left = text.len() - body;
        if left < len.saturating_add(1) {
            return Err((
                at,
                format!("truncated: entry {id} says {len} bytes, {left} left"),
            ));
        }
        if text[body + len] != b'\n' {
            let what = format!("entry {id} ({len} bytes) is not followed by a line feed");
            return Err((body + len, what));
        }
        entries.push(Entry {
            id,
            envelope,
            raw: text[body..body + len].to_vec(),
        });
        at = body + len + 1;
    }
    Ok(())
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

    /// A version-2 pack of `entries`: the entries as they are, as an
    /// older pbem wrote them (and as a chunk holds them, unpacked).
    fn plain(entries: &[Entry]) -> Vec<u8> {
        let mut out = HEADER_2.to_vec();
        for e in entries {
            put_entry(e, &mut out);
        }
        out
    }

    #[test]
    fn a_pack_round_trips_binary_crlf_pack_text_and_envelopes() {
        let entries = sample();
        let v2 = plain(&entries);
        assert!(v2.starts_with(b"pbem-pack 2\n0000.000 "));
        let text = String::from_utf8_lossy(&v2);
        assert!(text.contains("\n10001.000 17 pbem@example.net alice@example.org\n"));
        assert!(text.contains("\n10002.000 8 <> a%25b@example.org x.y+z@example.org\n"));
        assert_eq!(decode(&v2), (entries.clone(), None), "version 2");
        let bytes = encode(&entries);
        assert!(bytes.starts_with(b"pbem-pack 3\n"));
        assert_eq!(decode(&bytes), (entries.clone(), None));
        for chunk in [0, 1, 10, 100, 1000] {
            let bytes = encode_in_chunks(&entries, chunk);
            assert_eq!(decode(&bytes), (entries.clone(), None), "chunks of {chunk}");
        }
        assert_eq!(decode(b"pbem-pack 3\n"), (vec![], None));
        assert_eq!(decode(b"pbem-pack 2\n"), (vec![], None));
        assert_eq!(encode(&[]), b"pbem-pack 3\n");
    }

    #[test]
    fn a_batch_of_alike_replies_packs_small_in_chunks_of_whole_entries() {
        let mail = |i: usize| {
            let mut m = format!("To: p{i}@example.org\r\nSubject: move {i}\r\n\r\n");
            for row in 0..40 {
                m.push_str(&format!(
                    "<tr><td bgcolor=\"#f0d9b5\">{}</td></tr>\r\n",
                    row + i
                ));
            }
            m.into_bytes()
        };
        let entries: Vec<Entry> = (0..800)
            .map(|i| sent_to(i, &mail(i), "a@example.org"))
            .collect();
        let text = plain(&entries);
        let bytes = encode(&entries);
        assert!(text.len() > 3 * CHUNK, "{}", text.len());
        assert!(
            bytes.len() * 5 < text.len(),
            "{} of {}",
            bytes.len(),
            text.len()
        );
        assert_eq!(decode(&bytes), (entries.clone(), None));
        // Each chunk's text is whole entries, at least CHUNK bytes of them
        // but the last.
        let mut at = HEADER.len();
        let mut lens = Vec::new();
        while at < bytes.len() {
            let end = at + bytes[at..].iter().position(|&b| b == b'\n').unwrap();
            let line = std::str::from_utf8(&bytes[at..end]).unwrap();
            let (len, packed) = line.split_once(' ').unwrap();
            lens.push(len.parse::<usize>().unwrap());
            at = end + 1 + packed.parse::<usize>().unwrap() + 1;
        }
        assert_eq!(lens.iter().sum::<usize>(), text.len() - HEADER_2.len());
        let (last, full) = lens.split_last().unwrap();
        assert!(full.len() >= 3 && full.iter().all(|&l| (CHUNK..CHUNK + 4096).contains(&l)));
        assert!(*last <= CHUNK, "{lens:?}");
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
        let bytes = plain(&entries);
        // Cut at every byte: never a panic, always the entries before the
        // cut, and the error at the first one missing.
        let mut ends = vec![HEADER.len()];
        let mut at = HEADER.len();
        for e in &entries {
            at += entry_line(e).len() + e.raw.len() + 1;
            ends.push(at);
        }
        every_cut_keeps_what_is_whole(&bytes, &entries, &ends);
    }

    /// `bytes`, a pack of `entries` whose entries (or chunks) end at
    /// `ends` (the header's end first), cut at every byte: never a panic,
    /// always the entries that end before the cut, no error at an end,
    /// and else the error at the first end missing.
    fn every_cut_keeps_what_is_whole(bytes: &[u8], entries: &[Entry], ends: &[usize]) {
        for cut in 0..bytes.len() {
            let (got, err) = decode(&bytes[..cut]);
            if cut < HEADER.len() {
                assert_eq!((got.len(), err.unwrap().offset), (0, 0));
                continue;
            }
            let whole = ends.iter().filter(|&&end| end <= cut).count();
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
    fn a_truncated_packed_pack_gives_the_whole_chunks_and_an_error() {
        let entries = sample();
        // A chunk an entry: each chunk ends where the pack of the entries
        // before it would.
        let bytes = encode_in_chunks(&entries, 1);
        let ends: Vec<usize> = (0..=entries.len())
            .map(|k| encode_in_chunks(&entries[..k], 1).len())
            .collect();
        assert_eq!(ends[entries.len()], bytes.len());
        every_cut_keeps_what_is_whole(&bytes, &entries, &ends);
    }

    #[test]
    fn a_garbled_chunk_is_an_error_naming_its_byte() {
        let entries = [entry(0, 0, b"abc"), entry(1, 0, b"de")];
        let first = encode_in_chunks(&entries[..1], 1);
        let second = first.len();
        let with = |tail: &[u8]| [&first[..], tail].concat();
        let packed = |text: &[u8]| {
            let mut out = Vec::new();
            put_chunk(text, &mut out);
            out
        };
        // The first 5 of its packed bytes, its line saying so: the block
        // ends before its text does.
        let whole = packed(b"0001.000 2\nde\n");
        let start = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
        let cut = [b"14 5\n", &whole[start..start + 5], b"\n"].concat();
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (
                with(b"12\n"),
                second,
                "`12` is not `<length> <packed length>`",
            ),
            (with(b"1 x\n"), second, "is not `<length> <packed length>`"),
            (with(b"1 2"), second, "truncated in a chunk's line"),
            (with(&[b'7'; 100]), second, "a chunk's line without its end"),
            (
                with(b"3 5\nab"),
                second,
                "truncated: a chunk says 5 packed bytes, 2 left",
            ),
            (
                with(b"3 2\nabc"),
                second + 4 + 2,
                "is not followed by a line feed",
            ),
            (
                with(b"99999 2\nab\n"),
                second,
                "a chunk of 2 packed bytes does not unpack to 99999",
            ),
            (
                with(&cut),
                second,
                "a chunk of 5 packed bytes does not unpack to 14",
            ),
            (
                with(&[b"15", &packed(b"0001.000 2\nde\n")[2..]].concat()),
                second,
                "does not unpack to 15",
            ),
            (
                // Less room than its text needs: an error, not a panic.
                with(&[b"5 ", &packed(b"0001.000 2\nde\n")[3..]].concat()),
                second,
                "does not unpack to 5",
            ),
            (
                with(&packed(b"0001.000 3\nde\n")),
                second,
                "at byte 0 of its chunk's 14: truncated: entry 0001.000 says 3 bytes, 3 left",
            ),
            (
                with(&packed(b"0001.000 2\nde\n0002")),
                second,
                "at byte 14 of its chunk's 18: truncated in an entry's line",
            ),
            (
                with(&packed(b"0001.000 2\nde\n0002.000 1 <> x\nd\n")),
                second,
                "at byte 14 of its chunk's 32: `0002.000 1 <> x` is not",
            ),
        ];
        for (bytes, offset, what) in cases {
            let (got, err) = decode(&bytes);
            let err = err.unwrap_or_else(|| panic!("no error for {bytes:?}"));
            assert_eq!(err.offset, offset, "{err}");
            assert!(err.what.contains(what), "{err}");
            let kept = usize::from(what.contains("at byte 14"));
            assert_eq!(got, entries[..1 + kept], "{err}");
        }
    }

    #[test]
    fn a_garbled_pack_is_an_error_naming_the_byte() {
        let two = plain(&[entry(0, 0, b"abc"), entry(1, 0, b"de")]);
        let second = HEADER.len() + "0000.000 3\nabc\n".len();
        let with = |tail: &[u8]| [&two[..second], tail].concat();
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (b"From: x\r\n\r\n".to_vec(), 0, "no `pbem-pack` header"),
            (b"pbem-pack 4\n".to_vec(), 0, "`pbem-pack 4`: not a version"),
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
