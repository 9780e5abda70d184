//! The text of a mail pbem writes: its header block and its two parts
//! (the words and the HTML, `multipart/alternative`), written straight
//! into one buffer.
//!
//! The headers are encoded and folded as lettre's builder encodes them
//! (the same `email-encoding` writer, the same choice of the words that
//! need RFC 2047), and the tests hold the two to the same bytes. The
//! builder kept every header as three strings, parsed its own From back,
//! and copied each part's body three times on the way out: for a reply,
//! a third of a poll's instructions went to building its mail.

use email_encoding::headers::writer::EmailWriter;
use lettre::message::Mailbox;
use lettre::message::header::ContentTransferEncoding;
use std::fmt::Write;

/// A part's body, as it goes under its headers.
pub struct PartBody {
    pub encoding: ContentTransferEncoding,
    /// Encoded, its lines ending in CRLF.
    pub bytes: Vec<u8>,
}

/// The header block being written.
pub struct Headers {
    out: String,
}

impl Headers {
    pub fn with_capacity(n: usize) -> Headers {
        Headers {
            out: String::with_capacity(n),
        }
    }

    /// `name: value`, with the words that are not plain ASCII encoded
    /// (RFC 2047) and the line folded where it grows long.
    pub fn text(&mut self, name: &str, value: &str) {
        self.encoded(name, |w| encode_words(w, value));
    }

    /// `name: value` as it is: for values pbem made of ASCII alone
    /// (a date, a version, an encoding's name).
    pub fn plain(&mut self, name: &str, value: &str) {
        self.out.push_str(name);
        self.out.push_str(": ");
        self.out.push_str(value);
        self.out.push_str("\r\n");
    }

    /// `name: "Display Name" <address>`, the name quoted or encoded as
    /// it needs.
    pub fn mailbox(&mut self, name: &str, mailbox: &Mailbox) {
        self.encoded(name, |w| encode_mailbox(w, mailbox));
    }

    /// `name: ` and what `write` writes through a folding writer that
    /// knows where the line stands.
    fn encoded(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut EmailWriter<'_>) -> std::fmt::Result,
    ) {
        self.out.push_str(name);
        self.out.push_str(": ");
        {
            let mut w = EmailWriter::new(&mut self.out, name.len() + 2, 0, false);
            // Written into a `String`, which never fails.
            let _ = write(&mut w);
        }
        self.out.push_str("\r\n");
    }

    /// The whole mail: these headers, then the parts under `boundary`.
    pub fn alternative(mut self, boundary: &str, parts: [(&str, PartBody); 2]) -> Vec<u8> {
        let kind = format!("multipart/alternative; boundary=\"{boundary}\"");
        self.text("Content-Type", &kind);
        self.out.push_str("\r\n");
        let size: usize = parts.iter().map(|(_, b)| b.bytes.len() + 200).sum();
        let mut out = self.out.into_bytes();
        out.reserve(size + 2 * boundary.len() + 8);
        for (content_type, body) in parts {
            let mut headers = Headers::with_capacity(100);
            headers.text("Content-Type", content_type);
            headers.plain("Content-Transfer-Encoding", encoding_name(body.encoding));
            out.extend_from_slice(b"--");
            out.extend_from_slice(boundary.as_bytes());
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(headers.out.as_bytes());
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(&body.bytes);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"--");
        out.extend_from_slice(boundary.as_bytes());
        out.extend_from_slice(b"--\r\n");
        out
    }
}

/// The words of `value`, each as it is when it is printable ASCII (and
/// folded before it when the line grows long), runs of the others
/// encoded together as RFC 2047 words.
fn encode_words(w: &mut EmailWriter<'_>, value: &str) -> std::fmt::Result {
    let mut pending = String::new();
    for word in words(value) {
        if word.bytes().all(allowed) {
            flush(w, &mut pending)?;
            w.folding().write_str(word)?;
        } else {
            pending.push_str(word);
        }
    }
    flush(w, &mut pending)
}

/// `value.split_inclusive(' ')`, the spaces found in one search.
fn words(value: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let ends = memchr::memchr_iter(b' ', value.as_bytes())
        .map(|at| at + 1)
        .chain([value.len()]);
    ends.filter_map(move |end| {
        // A space is never part of a longer character.
        let word = (end > start).then(|| &value[start..end]);
        start = end;
        word
    })
}

/// The words waiting to be encoded, encoded, the spaces after them kept
/// as spaces.
fn flush(w: &mut EmailWriter<'_>, pending: &mut String) -> std::fmt::Result {
    if pending.is_empty() {
        return Ok(());
    }
    let words = pending.trim_end_matches(' ');
    email_encoding::headers::rfc2047::encode(words, w)?;
    for _ in 0..pending.len() - words.len() {
        w.space();
    }
    pending.clear();
    Ok(())
}

/// A byte that may stand in a header as it is: not NUL, CR or LF, and
/// ASCII.
const fn allowed(c: u8) -> bool {
    matches!(c, 1..=9 | 11 | 12 | 14..=127)
}

fn encode_mailbox(w: &mut EmailWriter<'_>, mailbox: &Mailbox) -> std::fmt::Result {
    if let Some(name) = &mailbox.name {
        email_encoding::headers::quoted_string::encode(name, w)?;
        w.space();
        w.write_char('<')?;
    }
    w.write_str(mailbox.email.as_ref())?;
    if mailbox.name.is_some() {
        w.write_char('>')?;
    }
    Ok(())
}

fn encoding_name(e: ContentTransferEncoding) -> &'static str {
    match e {
        ContentTransferEncoding::SevenBit => "7bit",
        ContentTransferEncoding::QuotedPrintable => "quoted-printable",
        ContentTransferEncoding::Base64 => "base64",
        ContentTransferEncoding::EightBit => "8bit",
        ContentTransferEncoding::Binary => "binary",
    }
}

/// A date as a mail's `Date` header has it (RFC 5322, in UTC:
/// `Thu, 03 Dec 2026 07:45:00 +0000`).
pub fn date(t: chrono::DateTime<chrono::Utc>) -> String {
    use chrono::{Datelike, Timelike};
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    use crate::store::ids::push_digits;
    let two = |s: &mut String, n: u32| push_digits(s, n, 2);
    let mut s = String::with_capacity(31);
    s.push_str(DAYS[t.weekday().num_days_from_monday() as usize]);
    s.push_str(", ");
    two(&mut s, t.day());
    s.push(' ');
    s.push_str(MONTHS[t.month0() as usize]);
    s.push(' ');
    let year = u32::try_from(t.year()).unwrap_or(0);
    push_digits(&mut s, year, 4);
    s.push(' ');
    two(&mut s, t.hour());
    s.push(':');
    two(&mut s, t.minute());
    s.push(':');
    two(&mut s, t.second());
    s.push_str(" +0000");
    s
}

/// A fresh boundary between the parts: 40 letters and digits from the
/// OS's random source, so that no text a stranger put in a mail (a name,
/// a quoted line) can hold it and open a part of its own.
pub fn boundary() -> String {
    const ALPHANUMERIC: &[u8; 62] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut bytes = [0u8; 40];
    crate::store::ids::fill_random(&mut bytes);
    bytes
        .iter()
        .map(|&b| char::from(ALPHANUMERIC[usize::from(b) % ALPHANUMERIC.len()]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words are those of `split_inclusive(' ')`, over random texts
    /// of spaces, letters and longer characters.
    #[test]
    fn the_words_are_those_of_split_inclusive() {
        let alphabet = ['a', ' ', 'é', '名', '\t'];
        let mut rng = fastrand::Rng::with_seed(19);
        for n in 0..20_000 {
            let t: String = (0..n % 14)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            let want: Vec<&str> = t.split_inclusive(' ').collect();
            assert_eq!(words(&t).collect::<Vec<_>>(), want, "{t:?}");
        }
    }

    /// Boundaries are 40 letters and digits, and differ.
    #[test]
    fn boundaries_are_fresh() {
        let made: std::collections::HashSet<String> = (0..1_000).map(|_| boundary()).collect();
        assert_eq!(made.len(), 1_000);
        assert!(
            made.iter()
                .all(|b| b.len() == 40 && b.bytes().all(|c| c.is_ascii_alphanumeric()))
        );
    }

    /// The date is the one chrono's formatting gives, over random times
    /// from 1970 to 2100.
    #[test]
    fn the_date_is_rfc_5322s() {
        let mut rng = fastrand::Rng::with_seed(23);
        for _ in 0..20_000 {
            let t = chrono::DateTime::from_timestamp(rng.i64(0..4_102_444_800), 0).unwrap();
            let want = t.format("%a, %d %b %Y %H:%M:%S +0000").to_string();
            assert_eq!(date(t), want);
        }
    }
}
