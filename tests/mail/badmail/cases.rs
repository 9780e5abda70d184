//! The bad-mail cases (tests/mail/badmail.rs): a builder of Alice's mail
//! that a case breaks ([`M`]), helpers for the common breakages, every
//! generated case by family ([`generated`]) and the hand-written ones
//! ([`fixtures`]).

mod paths;
mod shape;
mod text;

use super::*;

/// A mail under construction: headers in order, then the body.
struct M {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl M {
    /// Alice's reply in game bz-test1, with her key: a mail that would be
    /// handled, until a case breaks it.
    fn new(name: &str) -> M {
        M {
            headers: vec![
                ("From".into(), ALICE.into()),
                (
                    "To".into(),
                    format!("pbem+bz-test1.{ALICE_KEY}@example.net"),
                ),
                (
                    "Subject".into(),
                    "Re: [pbem bz-test1] Boom & Zoom: your move".into(),
                ),
                ("Date".into(), "Fri, 20 Nov 2026 09:59:00 +0000".into()),
                ("Message-ID".into(), format!("<{name}@badmail.example.org>")),
            ],
            body: b"board\r\n".to_vec(),
        }
    }
    /// Sets a header (replacing one of the same name) .
    fn set(mut self, name: &str, value: impl Into<String>) -> M {
        let value = value.into();
        match self
            .headers
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(h) => h.1 = value,
            None => self.headers.push((name.into(), value)),
        }
        self
    }
    /// Adds a header, even one already there.
    fn add(mut self, name: &str, value: impl Into<String>) -> M {
        self.headers.push((name.into(), value.into()));
        self
    }
    fn without(mut self, name: &str) -> M {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }
    fn body(mut self, body: impl AsRef<[u8]>) -> M {
        self.body = body.as_ref().to_vec();
        self
    }
    /// A plain-text body, lines ending in CRLF.
    fn text(self, text: &str) -> M {
        let b = text.replace("\r\n", "\n").replace('\n', "\r\n");
        self.body(b)
    }
    fn html(self, html: &str) -> M {
        self.set("MIME-Version", "1.0")
            .set("Content-Type", "text/html; charset=utf-8")
            .text(html)
    }
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (n, v) in &self.headers {
            if n.is_empty() {
                out.extend_from_slice(v.as_bytes()); // a raw line
            } else {
                out.extend_from_slice(format!("{n}: {v}").as_bytes());
            }
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }
}

/// A mail's bytes with a raw header line spliced in first.
fn with_raw_first(m: M, raw: &[u8]) -> Vec<u8> {
    let mut out = raw.to_vec();
    out.extend_from_slice(&m.bytes());
    out
}

/// Seeded pseudo-random bytes (xorshift): the same garbage on every run.
fn garbage(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Base64 of `bytes`, in lines of 76 (for attachments).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + bytes.len() / 38);
    for (i, c) in bytes.chunks(3).enumerate() {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
        if i % 19 == 18 {
            out.push_str("\r\n");
        }
    }
    out
}

/// `multipart/mixed` with `text` first and an attachment of `bytes`.
fn with_attachment(m: M, text: &str, name: &str, bytes: &[u8]) -> M {
    let body = format!(
        "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b1--\r\n",
        base64(bytes)
    );
    m.set("MIME-Version", "1.0")
        .set("Content-Type", "multipart/mixed; boundary=\"b1\"")
        .body(body)
}

/// Multiparts nested `depth` deep, the text at the bottom.
fn nested(m: M, depth: usize, text: &str) -> M {
    let mut body = format!("Content-Type: text/plain\r\n\r\n{text}\r\n");
    for d in (0..depth).rev() {
        body = format!(
            "Content-Type: multipart/mixed; boundary=\"n{d}\"\r\n\r\n--n{d}\r\n{body}\r\n--n{d}--\r\n"
        );
    }
    // The outermost part's headers are the mail's.
    let (head, rest) = body.split_once("\r\n\r\n").unwrap();
    let ct = head.trim_start_matches("Content-Type: ").to_string();
    m.set("MIME-Version", "1.0")
        .set("Content-Type", ct)
        .body(rest)
}

/// `message/rfc822` nested `depth` deep.
fn forwarded(m: M, depth: usize, text: &str) -> M {
    let mut inner = format!(
        "From: x@example.org\r\nSubject: inner\r\nContent-Type: text/plain\r\n\r\n{text}\r\n"
    );
    for _ in 1..depth {
        inner = format!(
            "From: x@example.org\r\nSubject: fwd\r\nContent-Type: message/rfc822\r\n\r\n{inner}"
        );
    }
    m.set("MIME-Version", "1.0")
        .set("Content-Type", "message/rfc822")
        .body(inner)
}

/// Look-alikes of Alice's move 13-21 (and of commands): the written text,
/// and a name.
const LOOKALIKES: &[(&str, &str)] = &[
    ("fullwidth-digits", "１３-２１"),
    ("fullwidth-hyphen", "13－21"),
    ("fullwidth-all", "１３－２１"),
    ("fullwidth-capture", "１３ｘ２１"),
    ("fullwidth-move-word", "ｍｏｖｅ　１３－２１"),
    ("fullwidth-number", "＃３ 13-21"),
    ("minus-sign", "13−21"),
    ("en-dash", "13–21"),
    ("em-dash", "13—21"),
    ("hyphen-u2010", "13‐21"),
    ("nb-hyphen-u2011", "13‑21"),
    ("figure-dash-u2012", "13‒21"),
    ("small-hyphen-ufe63", "13﹣21"),
    ("horizontal-bar", "13―21"),
    ("tilde", "13~21"),
    ("cyrillic-ha", "13х21"),
    ("cyrillic-ha-upper", "13Х21"),
    ("greek-chi", "13χ21"),
    ("multiplication-sign", "13×21"),
    ("arabic-indic-digits", "١٣-٢١"),
    ("persian-digits", "۱۳-۲۱"),
    ("devanagari-digits", "१३-२१"),
    ("math-bold-digits", "𝟏𝟑-𝟐𝟏"),
    ("superscript-digits", "¹³-²¹"),
    ("circled-digits", "⑬-㉑"),
    ("roman-numerals", "XIII-XXI"),
    ("letter-l-for-one", "l3-2l"),
    ("letter-o-for-zero", "13-2O"),
    ("zero-width-space", "13\u{200B}-21"),
    ("zero-width-joiner", "1\u{200D}3-21"),
    ("soft-hyphen", "13\u{00AD}-21"),
    ("rtl-override", "\u{202E}13-21"),
    ("ltr-mark", "\u{200E}13-21\u{200E}"),
    ("bom-first", "\u{FEFF}13-21"),
    ("combining-stroke", "1\u{0335}3-21"),
    ("nbsp-around", "\u{00A0}13\u{00A0}-\u{00A0}21"),
    ("ideographic-space", "13\u{3000}-\u{3000}21"),
    ("cyrillic-o-in-off", "13-оff"),
    ("cyrillic-e-in-resign", "rеsign"),
    ("fullwidth-board", "ｂｏａｒｄ"),
    ("mixed-scripts", "1３-2١"),
];

/// A mail with MIME-Version 1.0 and Content-Type `ct`, text `body`.
fn mime_mail(name: &str, ct: &str, body: &str) -> Vec<u8> {
    M::new(name)
        .set("MIME-Version", "1.0")
        .set("Content-Type", ct)
        .text(body)
        .bytes()
}

/// A UTF-8 text mail with Content-Transfer-Encoding `enc`.
fn cte_mail(name: &str, enc: &str, body: &[u8]) -> Vec<u8> {
    M::new(name)
        .set("MIME-Version", "1.0")
        .set("Content-Type", "text/plain; charset=utf-8")
        .set("Content-Transfer-Encoding", enc)
        .body(body)
        .bytes()
}

/// A text mail declared in charset `cs`.
fn charset_mail(name: &str, cs: &str, body: &[u8]) -> Vec<u8> {
    M::new(name)
        .set("MIME-Version", "1.0")
        .set("Content-Type", format!("text/plain; charset={cs}"))
        .body(body)
        .bytes()
}

/// A mail whose only part is the HTML `h`.
fn html_mail(name: &str, h: &str) -> Vec<u8> {
    M::new(name).html(h).bytes()
}

/// Alice's mail with header `header` set to `value`.
fn inject_mail(name: &str, header: &str, value: &str) -> Vec<u8> {
    M::new(name).set(header, value).bytes()
}

/// A mail to pbem's plain address with Subject `s`.
fn subject_mail(name: &str, s: &str) -> Vec<u8> {
    M::new(name)
        .set("To", "pbem@example.net")
        .set("Subject", s)
        .bytes()
}

/// A mail to `to`, Subject "x".
fn to_mail(name: &str, to: &str) -> Vec<u8> {
    M::new(name).set("To", to).set("Subject", "x").bytes()
}

/// Alice's mail with the plain text `text`.
fn text_mail(name: &str, text: &str) -> Vec<u8> {
    M::new(name).text(text).bytes()
}

/// Where a family of cases puts each case: its name and the mail's bytes.
type Add<'a> = dyn FnMut(&str, Vec<u8>) + 'a;

/// Every generated case: a name and the mail's bytes, family by family.
pub(super) fn generated() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, raw: Vec<u8>| out.push((name.to_string(), raw));
    let families: [fn(&mut Add); 18] = [
        shape::structure_1,
        shape::structure_2,
        shape::structure_3,
        shape::mime_1,
        shape::mime_2,
        shape::size_1,
        shape::size_2,
        text::charsets_1,
        text::charsets_2,
        text::html_1,
        text::html_2,
        text::injection_1,
        text::injection_2,
        text::lookalikes,
        paths::names_and_paths_1,
        paths::names_and_paths_2,
        paths::automated,
        paths::commands,
    ];
    for family in families {
        family(&mut add);
    }
    out
}

/// The hand-written cases: `tests/badmail/*.eml`, as stored.
pub(super) fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/badmail");
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .map(|p| {
            (
                format!("file-{}", p.file_stem().unwrap().to_string_lossy()),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}
