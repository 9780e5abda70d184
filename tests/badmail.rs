//! The bad-mail corpus (issue 5, "Hostile and broken input"): a few
//! hundred broken, hostile and absurd mails, each delivered alone to a
//! fresh pbem (a started game `bz-test1` between Alice and Bob, and a
//! challenge `bz-chal1` waiting for Bob) and read by the real `pbem poll`
//! with the clock pinned. Most cases are made by [`generated`] (so the
//! 20 MB ones need not be stored); hand-written ones are the files
//! `tests/badmail/*.eml`, delivered byte for byte.
//!
//! For every mail it checks that:
//! - pbem neither panics nor dies: exit status 0 or 1;
//! - the mail was handled: one `mail ... replies=N fate="..."` log line,
//!   with a reply or a stated reason for dropping it;
//! - every reply was delivered, has pbem's headers only (no header
//!   injection; [`pbem::mail::outbound::check_headers`]) and goes to an
//!   address the mail named or to a player;
//! - nothing was written outside the data folder and the mail folders
//!   (the cases aim at a folder beside them, and pbem runs from another);
//! - it took at most [`MAX_SECONDS`] (release build) and at most
//!   [`MAX_RSS_MB`] of memory (the child's peak RSS).
//!
//! How each case was handled is kept in `tests/badmail/EXPECTED.tsv`
//! (case, class, replies; the fate is there for reading and not
//! compared), so a change of behaviour shows in a diff:
//!
//! ```text
//! cargo test --release --test badmail -- --nocapture   run, print the times
//! BADMAIL_CASE=html cargo test --test badmail          only names containing "html"
//! PBEM_BLESS=1 cargo test --test badmail               rewrite EXPECTED.tsv
//! ```

use pbem::config::{Config, INIT};
use pbem::mailbox::Maildir;
use pbem::record::{self, Record};
use pbem::store::{Challenge, Secrets, Store};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The pinned clock of every poll.
const NOW: &str = "2026-11-20T10:00:00Z";
/// The bound on one mail's poll in a release build (a debug build gets
/// five times as long).
const MAX_SECONDS: f64 = 2.0;
/// The bound on the poll's peak memory (the largest mail pbem reads whole
/// is 25 MB, `pbem::mailbox::MAX_MAIL`; a 20 MB text peaks near 115 MB).
const MAX_RSS_MB: u64 = 256;

const ALICE: &str = "Alice Example <alice@example.org>";
const BOB: &str = "Bob Example <bob@example.org>";
const ALICE_KEY: &str = "alicekey2345";
const BOB_KEY: &str = "bobkey234567";

/// Where the path cases aim: a folder beside pbem's, replaced by the real
/// path when a case is run.
const OUTSIDE: &str = "@OUTSIDE@";

// --- the cases ------------------------------------------------------------

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

/// Every generated case: a name and the mail's bytes.
fn generated() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: &str, raw: Vec<u8>| out.push((name.to_string(), raw));
    let m = M::new;

    // Structure: not a mail, or a mail missing what it needs.
    add("empty", Vec::new());
    add("blank-lines", b"\r\n\r\n\r\n".to_vec());
    add("body-only", b"13-21\r\n".to_vec());
    add("headers-without-body", {
        let mut b = m("headers-without-body").bytes();
        b.truncate(b.len() - 2 - "board\r\n".len());
        b
    });
    add("no-from", m("no-from").without("From").bytes());
    add("from-empty", m("from-empty").set("From", "").bytes());
    add("from-no-at", m("from-no-at").set("From", "alice").bytes());
    add(
        "from-group",
        m("from-group")
            .set("From", "undisclosed-recipients:;")
            .bytes(),
    );
    add(
        "from-two-addresses",
        m("from-two-addresses")
            .set("From", "evil@example.com, alice@example.org")
            .bytes(),
    );
    add(
        "from-comment-only",
        m("from-comment-only").set("From", "(nobody)").bytes(),
    );
    add(
        "from-angle-empty",
        m("from-angle-empty").set("From", "<>").bytes(),
    );
    add("from-at-only", m("from-at-only").set("From", "@").bytes());
    add(
        "from-domain-only",
        m("from-domain-only").set("From", "@example.org").bytes(),
    );
    add(
        "from-quoted-spaces",
        m("from-quoted-spaces")
            .set("From", "\"al ice\"@example.org")
            .bytes(),
    );
    add(
        "from-unterminated-angle",
        m("from-unterminated-angle")
            .set("From", "Alice <alice@example.org")
            .bytes(),
    );
    add(
        "from-twice",
        m("from-twice").add("From", "evil@example.com").bytes(),
    );
    add(
        "header-without-colon",
        with_raw_first(m("header-without-colon"), b"This is not a header\r\n"),
    );
    add(
        "header-name-control-bytes",
        with_raw_first(m("header-name-control-bytes"), b"\x01\x02\x7f: x\r\n"),
    );
    add(
        "continuation-first",
        with_raw_first(m("continuation-first"), b" folded before any header\r\n"),
    );
    add("headers-10000", {
        let mut x = m("headers-10000");
        for i in 0..10_000 {
            x = x.add(&format!("X-Junk-{i}"), "junk");
        }
        x.bytes()
    });
    add(
        "header-1mb",
        m("header-1mb").set("X-Long", "y".repeat(1 << 20)).bytes(),
    );
    add(
        "subject-folded-10000",
        m("subject-folded-10000")
            .set(
                "Subject",
                format!("[pbem bz-test1]{}", "\r\n x".repeat(10_000)),
            )
            .bytes(),
    );
    add(
        "subject-100k",
        m("subject-100k")
            .set(
                "Subject",
                format!("[pbem bz-test1] {}", "s".repeat(100_000)),
            )
            .bytes(),
    );
    add(
        "display-name-100k",
        m("display-name-100k")
            .set(
                "From",
                format!("{} <alice@example.org>", "A".repeat(100_000)),
            )
            .bytes(),
    );
    add(
        "nul-in-headers",
        m("nul-in-headers")
            .set("Subject", "[pbem bz-test1]\0 x")
            .set("From", "Ali\0ce <alice@example.org>")
            .bytes(),
    );
    add(
        "nul-in-body",
        m("nul-in-body").body("13-21\0\r\nboard\r\n").bytes(),
    );
    add("nul-everywhere", {
        let b = m("nul-everywhere").bytes();
        b.iter().flat_map(|c| [*c, 0]).collect()
    });
    add("cr-only-line-ends", {
        let b = m("cr-only-line-ends").bytes();
        b.into_iter().filter(|c| *c != b'\n').collect()
    });
    add("lf-only-line-ends", {
        let b = m("lf-only-line-ends").bytes();
        b.into_iter().filter(|c| *c != b'\r').collect()
    });
    add(
        "mixed-line-ends",
        b"From: Alice Example <alice@example.org>\nTo: pbem+bz-test1.alicekey2345@example.net\r\nSubject: Re: [pbem bz-test1] x\rMessage-ID: <mixed-line-ends@badmail.example.org>\n\r\nboard\r\r\n".to_vec(),
    );
    for (i, len) in [1, 2, 17, 100, 1000, 4096, 65_536, 1 << 20]
        .into_iter()
        .enumerate()
    {
        add(&format!("garbage-{len}"), garbage(i as u64 + 1, len));
    }
    add("garbage-after-headers", {
        let mut b = m("garbage-after-headers").body("").bytes();
        b.extend(garbage(99, 100_000));
        b
    });
    add(
        "garbage-headers",
        [garbage(7, 2000), b"\r\n\r\nboard\r\n".to_vec()].concat(),
    );
    add("latin1-raw-headers", {
        let mut b =
            b"From: Ren\xe9 <alice@example.org>\r\nSubject: Re: [pbem bz-test1] caf\xe9\r\n"
                .to_vec();
        b.extend(
            m("latin1-raw-headers")
                .without("From")
                .without("Subject")
                .bytes(),
        );
        b
    });
    add(
        "mbox-from-line",
        with_raw_first(
            m("mbox-from-line"),
            b"From alice@example.org Fri Nov 20 09:59:00 2026\r\n",
        ),
    );
    add("two-mails-concatenated", {
        let mut b = m("two-mails-a").bytes();
        b.extend(m("two-mails-b").text("resign\r\n").bytes());
        b
    });
    add(
        "message-id-100k",
        m("message-id-100k")
            .set("Message-ID", format!("<{}@x>", "i".repeat(100_000)))
            .bytes(),
    );
    add(
        "message-id-empty",
        m("message-id-empty").set("Message-ID", "<>").bytes(),
    );
    add(
        "message-id-spaces",
        m("message-id-spaces")
            .set("Message-ID", "<a b c@example.org>")
            .bytes(),
    );
    add(
        "message-id-garbage",
        m("message-id-garbage")
            .set("Message-ID", "<<<>>>\"\\;:@@@")
            .bytes(),
    );
    add(
        "message-id-missing",
        m("message-id-missing").without("Message-ID").bytes(),
    );
    add(
        "references-10000",
        m("references-10000")
            .set(
                "References",
                (0..10_000)
                    .map(|i| format!("<r{i}@example.org>"))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .bytes(),
    );
    add(
        "in-reply-to-garbage",
        m("in-reply-to-garbage")
            .set("In-Reply-To", "<<<\0 >> ;;")
            .bytes(),
    );
    add(
        "date-garbage",
        m("date-garbage")
            .set("Date", "yesterday at teatime")
            .bytes(),
    );
    add(
        "to-10000-addresses",
        m("to-10000-addresses")
            .set(
                "To",
                (0..10_000)
                    .map(|i| format!("user{i}@example.com"))
                    .chain([format!("pbem+bz-test1.{ALICE_KEY}@example.net")])
                    .collect::<Vec<_>>()
                    .join(", "),
            )
            .bytes(),
    );

    // MIME that does not hold together.
    let mime = |name: &str, ct: &str, body: &str| {
        m(name)
            .set("MIME-Version", "1.0")
            .set("Content-Type", ct)
            .text(body)
            .bytes()
    };
    add(
        "multipart-no-boundary",
        mime(
            "multipart-no-boundary",
            "multipart/mixed",
            "--x\nboard\n--x--\n",
        ),
    );
    add(
        "multipart-empty-boundary",
        mime(
            "multipart-empty-boundary",
            "multipart/mixed; boundary=\"\"",
            "--\n\nboard\n----\n",
        ),
    );
    add(
        "multipart-never-closed",
        mime(
            "multipart-never-closed",
            "multipart/mixed; boundary=b",
            "--b\nContent-Type: text/plain\n\nboard\n",
        ),
    );
    add(
        "multipart-boundary-absent",
        mime(
            "multipart-boundary-absent",
            "multipart/alternative; boundary=nowhere",
            "board\n",
        ),
    );
    add(
        "multipart-only-attachments",
        mime(
            "multipart-only-attachments",
            "multipart/mixed; boundary=b",
            "--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--b--\n",
        ),
    );
    add("multipart-10000-parts", {
        let mut body = String::new();
        for _ in 0..10_000 {
            body.push_str("--b\nContent-Type: text/plain\n\nhi\n");
        }
        body.push_str("--b--\n");
        mime(
            "multipart-10000-parts",
            "multipart/mixed; boundary=b",
            &body,
        )
    });
    add(
        "multipart-boundary-10k",
        mime(
            "multipart-boundary-10k",
            &format!("multipart/mixed; boundary=\"{}\"", "b".repeat(10_000)),
            &format!(
                "--{0}\nContent-Type: text/plain\n\nboard\n--{0}--\n",
                "b".repeat(10_000)
            ),
        ),
    );
    for depth in [10, 100, 1000, 5000] {
        let name = format!("nested-multipart-{depth}");
        add(&name, nested(m(&name), depth, "board").bytes());
    }
    for depth in [100, 1000] {
        let name = format!("nested-rfc822-{depth}");
        add(&name, forwarded(m(&name), depth, "board").bytes());
    }
    add(
        "content-type-garbage",
        mime("content-type-garbage", ";;;==\"", "board\n"),
    );
    add(
        "content-type-text-slash",
        mime("content-type-text-slash", "text/", "board\n"),
    );
    add(
        "content-type-10000-params",
        mime(
            "content-type-10000-params",
            &format!(
                "text/plain{}",
                (0..10_000).map(|i| format!("; p{i}=v")).collect::<String>()
            ),
            "board\n",
        ),
    );
    add(
        "content-type-application",
        mime("content-type-application", "application/x-evil", "board\n"),
    );
    let cte = |name: &str, enc: &str, body: &[u8]| {
        m(name)
            .set("MIME-Version", "1.0")
            .set("Content-Type", "text/plain; charset=utf-8")
            .set("Content-Transfer-Encoding", enc)
            .body(body)
            .bytes()
    };
    add(
        "base64-garbage",
        cte("base64-garbage", "base64", b"!!!!****@@@@\r\n"),
    );
    add(
        "base64-truncated",
        cte("base64-truncated", "base64", b"Ym9hcm\r\n"),
    );
    add(
        "base64-binary",
        cte(
            "base64-binary",
            "base64",
            base64(&garbage(5, 3000)).as_bytes(),
        ),
    );
    add(
        "base64-of-nuls",
        cte("base64-of-nuls", "base64", base64(&[0u8; 5000]).as_bytes()),
    );
    add(
        "qp-garbage",
        cte(
            "qp-garbage",
            "quoted-printable",
            b"=ZZ=\r\nbo=\r\nard=\r\n=",
        ),
    );
    add(
        "qp-soft-breaks-everywhere",
        cte(
            "qp-soft-breaks-everywhere",
            "quoted-printable",
            "b=\r\n".repeat(10_000).as_bytes(),
        ),
    );
    add(
        "cte-unknown",
        cte("cte-unknown", "x-uuencode", b"board\r\n"),
    );
    add(
        "cte-7bit-with-8bit",
        cte("cte-7bit-with-8bit", "7bit", b"board \xff\xfe\r\n"),
    );
    add(
        "attachment-filename-path",
        with_attachment(
            m("attachment-filename-path"),
            "board",
            "../../../../etc/passwd",
            b"root:x:0:0",
        )
        .bytes(),
    );
    add(
        "attachment-20mb",
        with_attachment(
            m("attachment-20mb"),
            "board",
            "big.bin",
            &garbage(20, 15 << 20),
        )
        .bytes(),
    );
    add(
        "text-20mb",
        m("text-20mb")
            .body("Lots of chatter here.\r\n".repeat((20 << 20) / 23))
            .bytes(),
    );

    add(
        "text-30mb-over-the-limit",
        m("text-30mb-over-the-limit")
            .body(format!(
                "board\r\n{}",
                "Lots of chatter here.\r\n".repeat((30 << 20) / 23)
            ))
            .bytes(),
    );

    // Size and shape of the text.
    add(
        "lines-10000-chatter",
        m("lines-10000-chatter")
            .text(&"Nice weather today, isn't it?\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-moves",
        m("lines-10000-moves")
            .text(&"13-21\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-board",
        m("lines-10000-board")
            .text(&"board\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-10000-help",
        m("lines-10000-help")
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text(&"help\n".repeat(10_000))
            .bytes(),
    );
    add(
        "lines-21-board",
        m("lines-21-board").text(&"board\n".repeat(21)).bytes(),
    );
    add(
        "lines-20-board",
        m("lines-20-board").text(&"board\n".repeat(20)).bytes(),
    );
    add(
        "challenges-1000",
        m("challenges-1000")
            .set("To", "pbem@example.net")
            .set("Subject", "games")
            .text(
                &(0..1000)
                    .map(|i| format!("challenge mad victim{i}@example.com\n"))
                    .collect::<String>(),
            )
            .bytes(),
    );
    add(
        "line-1mb-chatter",
        m("line-1mb-chatter")
            .text(&format!("{}\nboard\n", "blah ".repeat(200_000)))
            .bytes(),
    );
    add(
        "line-1mb-move",
        m("line-1mb-move")
            .text(&format!("1{}\n", "-2-1".repeat(250_000)))
            .bytes(),
    );
    add(
        "line-100k-digits",
        m("line-100k-digits").text(&"1".repeat(100_000)).bytes(),
    );
    add(
        "line-10mb-no-newline",
        m("line-10mb-no-newline").body("x".repeat(10 << 20)).bytes(),
    );
    add(
        "line-long-move-command",
        m("line-long-move-command")
            .text(&format!("move {}\n", "13-21 ".repeat(1000)))
            .bytes(),
    );
    add(
        "line-long-near-miss",
        m("line-long-near-miss")
            .text(&format!("please play {} thanks\n", "13-".repeat(100_000)))
            .bytes(),
    );
    add(
        "quote-markers-100k",
        m("quote-markers-100k")
            .text(&format!("{}\n13-21\n", ">".repeat(100_000)))
            .bytes(),
    );
    add(
        "attribution-lines-10000",
        m("attribution-lines-10000")
            .text(&"On Tue, Alice wrote:\n".repeat(10_000))
            .bytes(),
    );
    add(
        "outlook-headers-10000",
        m("outlook-headers-10000")
            .text(&"From: x\nboard\n".repeat(10_000))
            .bytes(),
    );

    // Charsets: unknown, wrong, absurd.
    let charset = |name: &str, cs: &str, body: &[u8]| {
        m(name)
            .set("MIME-Version", "1.0")
            .set("Content-Type", format!("text/plain; charset={cs}"))
            .body(body)
            .bytes()
    };
    add(
        "charset-unknown",
        charset("charset-unknown", "x-klingon", b"board\r\n"),
    );
    add(
        "charset-empty",
        charset("charset-empty", "\"\"", b"board\r\n"),
    );
    add(
        "charset-10k-name",
        charset("charset-10k-name", &"u".repeat(10_000), b"board\r\n"),
    );
    add(
        "charset-path",
        charset("charset-path", "\"../../../etc/passwd\"", b"board\r\n"),
    );
    add(
        "charset-utf8-with-latin1",
        charset("charset-utf8-with-latin1", "utf-8", b"caf\xe9\r\nboard\r\n"),
    );
    add(
        "charset-latin1-with-utf8",
        charset(
            "charset-latin1-with-utf8",
            "iso-8859-1",
            "café 13–21\r\n".as_bytes(),
        ),
    );
    add(
        "charset-utf16-no-bom",
        charset(
            "charset-utf16-no-bom",
            "utf-16",
            &"board\r\n"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes())
                .collect::<Vec<_>>(),
        ),
    );
    add(
        "charset-utf16le-odd-bytes",
        charset("charset-utf16le-odd-bytes", "utf-16le", b"b\0o\0a\0r\0d"),
    );
    add(
        "charset-utf16be-move",
        charset(
            "charset-utf16be-move",
            "utf-16be",
            &"13-21\r\n"
                .encode_utf16()
                .flat_map(|u| u.to_be_bytes())
                .collect::<Vec<_>>(),
        ),
    );
    add(
        "charset-utf7",
        charset("charset-utf7", "utf-7", b"+ADEAMw--21\r\n"),
    );
    add(
        "charset-iso2022jp-garbage",
        charset(
            "charset-iso2022jp-garbage",
            "iso-2022-jp",
            b"\x1b$B\x1b(\x1b$)board\r\n",
        ),
    );
    add(
        "charset-shift-jis-invalid",
        charset(
            "charset-shift-jis-invalid",
            "shift_jis",
            b"\x81\xff\xa0\xfd13-21\r\n",
        ),
    );
    add(
        "charset-gb18030-garbage",
        charset("charset-gb18030-garbage", "gb18030", &garbage(18, 300)),
    );
    add(
        "charset-koi8r-move",
        charset("charset-koi8r-move", "koi8-r", b"13\xd821\r\n"),
    );
    add(
        "charset-windows1252-dash",
        charset("charset-windows1252-dash", "windows-1252", b"13\x9621\r\n"),
    );
    add(
        "subject-encoded-unknown-charset",
        m("subject-encoded-unknown-charset")
            .set("Subject", "=?x-klingon?q?abc?= [pbem bz-test1]")
            .bytes(),
    );
    add(
        "subject-encoded-bad-base64",
        m("subject-encoded-bad-base64")
            .set("Subject", "=?utf-8?b?!!!?= [pbem bz-test1]")
            .bytes(),
    );
    add(
        "subject-encoded-unterminated",
        m("subject-encoded-unterminated")
            .set("Subject", "[pbem bz-test1] =?utf-8?q?abc")
            .bytes(),
    );
    add(
        "from-encoded-local-part",
        m("from-encoded-local-part")
            .set("From", "=?utf-8?q?alice?=@example.org")
            .bytes(),
    );

    // HTML.
    let html = |name: &str, h: &str| m(name).html(h).bytes();
    add(
        "html-script",
        html(
            "html-script",
            "<p>board</p><script>document.write('13-21')</script>",
        ),
    );
    add(
        "html-script-unclosed",
        html("html-script-unclosed", "<p>board</p><script>13-21"),
    );
    add(
        "html-style-unclosed",
        html("html-style-unclosed", "<style>p{}<p>13-21</p>"),
    );
    add(
        "html-only-script",
        html("html-only-script", "<script>alert(1)</script>"),
    );
    add(
        "html-100k-scripts",
        html(
            "html-100k-scripts",
            &format!("{}<p>board</p>", "<script>x</script>".repeat(100_000)),
        ),
    );
    add(
        "html-100k-blockquotes",
        html(
            "html-100k-blockquotes",
            &format!(
                "<p>board</p>{}",
                "<blockquote>13-21</blockquote>".repeat(100_000)
            ),
        ),
    );
    add(
        "html-100k-open-tags",
        html(
            "html-100k-open-tags",
            &format!("{}board", "<".repeat(100_000)),
        ),
    );
    add(
        "html-deep-divs",
        html(
            "html-deep-divs",
            &format!(
                "{}board{}",
                "<div>".repeat(100_000),
                "</div>".repeat(100_000)
            ),
        ),
    );
    add(
        "html-entities-move",
        html("html-entities-move", "<p>&#49;&#51;&#x2d;&#50;&#49;</p>"),
    );
    add(
        "html-entities-garbage",
        html(
            "html-entities-garbage",
            "<p>&#xFFFFFFFF;&#0;&#55296;&#x110000;&;&#;&#x;&amp board</p>",
        ),
    );
    add(
        "html-ampersand-non-ascii",
        html("html-ampersand-non-ascii", "<p>& Zéééééé</p><p>board</p>"),
    );
    add(
        "html-comment-move",
        html("html-comment-move", "<!-- 13-21 --><p>board</p>"),
    );
    add(
        "html-javascript-links",
        html(
            "html-javascript-links",
            "<a href=\"javascript:alert(1)\" onclick=\"x()\">board</a><iframe src=\"http://example.com/\"></iframe>",
        ),
    );
    add(
        "html-tracking-image",
        html(
            "html-tracking-image",
            "<img src=\"http://tracker.example.com/pixel.gif\"><p>board</p>",
        ),
    );
    add(
        "html-10mb",
        html("html-10mb", &"<b>chatter</b> ".repeat(10 << 20 >> 4)),
    );
    add(
        "html-declared-text",
        m("html-declared-text")
            .text("<html><script>x</script><p>board</p></html>")
            .bytes(),
    );

    // Header injection in names, subjects and ids: replies must carry
    // pbem's headers only.
    let inject = |name: &str, header: &str, value: &str| m(name).set(header, value).bytes();
    add(
        "name-raw-crlf",
        inject(
            "name-raw-crlf",
            "From",
            "Alice\r\nBcc: evil@example.com <alice@example.org>",
        ),
    );
    add(
        "name-encoded-crlf-q",
        inject(
            "name-encoded-crlf-q",
            "From",
            "=?utf-8?q?Alice=0D=0ABcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-crlf-b",
        inject(
            "name-encoded-crlf-b",
            "From",
            "=?utf-8?b?QWxpY2UNCkJjYzogZXZpbEBleGFtcGxlLmNvbQ==?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-lf",
        inject(
            "name-encoded-lf",
            "From",
            "=?utf-8?q?Alice=0ABcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-cr",
        inject(
            "name-encoded-cr",
            "From",
            "=?utf-8?q?Alice=0DBcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-encoded-nul",
        inject(
            "name-encoded-nul",
            "From",
            "=?utf-8?q?Alice=00Bcc:_evil@example.com?= <alice@example.org>",
        ),
    );
    add(
        "name-with-an-address",
        inject(
            "name-with-an-address",
            "From",
            "\"Alice <evil@example.com>\" <alice@example.org>",
        ),
    );
    add(
        "name-quotes-and-backslashes",
        inject(
            "name-quotes-and-backslashes",
            "From",
            "\"A\\\"l\\\\i\\\"ce\" <alice@example.org>",
        ),
    );
    add(
        "name-bidi",
        inject(
            "name-bidi",
            "From",
            "=?utf-8?q?=E2=80=AEecilA?= <alice@example.org>",
        ),
    );
    add(
        "subject-encoded-crlf-q",
        inject(
            "subject-encoded-crlf-q",
            "Subject",
            "=?utf-8?q?x=0D=0ABcc:_evil@example.com?= [pbem bz-test1]",
        ),
    );
    add(
        "subject-encoded-crlf-b",
        inject(
            "subject-encoded-crlf-b",
            "Subject",
            "=?utf-8?b?eA0KQmNjOiBldmlsQGV4YW1wbGUuY29t?= [pbem bz-test1]",
        ),
    );
    add(
        "subject-bare-cr",
        inject(
            "subject-bare-cr",
            "Subject",
            "[pbem bz-test1] x\rBcc: evil@example.com",
        ),
    );
    add(
        "subject-bare-lf",
        inject(
            "subject-bare-lf",
            "Subject",
            "[pbem bz-test1] x\nBcc: evil@example.com",
        ),
    );
    add(
        "subject-header-lookalike",
        inject(
            "subject-header-lookalike",
            "Subject",
            "[pbem bz-test1] Bcc: evil@example.com",
        ),
    );
    add(
        "message-id-encoded-crlf",
        inject(
            "message-id-encoded-crlf",
            "Message-ID",
            "<=?utf-8?q?a=0D=0ABcc:_evil@example.com?=@example.org>",
        ),
    );
    add(
        "message-id-bare-lf",
        inject(
            "message-id-bare-lf",
            "Message-ID",
            "<a@example.org>\nBcc: evil@example.com",
        ),
    );
    add(
        "references-crlf",
        inject(
            "references-crlf",
            "References",
            "<a@example.org>\r\nBcc: evil@example.com",
        ),
    );
    add(
        "reply-to-elsewhere",
        inject("reply-to-elsewhere", "Reply-To", "evil@example.com"),
    );
    add(
        "to-encoded-crlf",
        inject(
            "to-encoded-crlf",
            "To",
            "=?utf-8?q?x=0D=0ABcc:_evil@example.com?= <pbem+bz-test1.alicekey2345@example.net>",
        ),
    );
    add(
        "challenge-opponent-list",
        m("challenge-opponent-list")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad bob@example.org,evil@example.com\n")
            .bytes(),
    );
    add(
        "challenge-opponent-angle-trick",
        m("challenge-opponent-angle-trick")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad <bob@example.org>evil@example.com\n")
            .bytes(),
    );
    add(
        "challenge-opponent-not-an-address",
        m("challenge-opponent-not-an-address")
            .set("To", "pbem@example.net")
            .set("Subject", "new game")
            .text("challenge mad bob@@@\n")
            .bytes(),
    );

    // Unicode look-alikes, in plain text and in HTML.
    for (name, text) in LOOKALIKES {
        let n = format!("lookalike-{name}");
        add(&n, m(&n).text(&format!("{text}\n")).bytes());
        let n = format!("lookalike-html-{name}");
        add(&n, m(&n).html(&format!("<div>{text}</div>")).bytes());
    }

    // Names and paths: ids, plus-addresses and addresses that name files.
    let subject = |name: &str, s: &str| {
        m(name)
            .set("To", "pbem@example.net")
            .set("Subject", s)
            .bytes()
    };
    add(
        "subject-id-dotdot",
        subject("subject-id-dotdot", "[pbem ../../etc]"),
    );
    add(
        "subject-id-outside",
        subject("subject-id-outside", "[pbem ../../../../outside/x]"),
    );
    add(
        "subject-id-absolute",
        subject("subject-id-absolute", "[pbem /etc/passwd]"),
    );
    add(
        "subject-id-slash",
        subject("subject-id-slash", "[pbem bz-test1/../bz-test1]"),
    );
    add(
        "subject-id-backslash",
        subject("subject-id-backslash", "[pbem ..\\..\\outside]"),
    );
    add(
        "subject-id-nul",
        subject("subject-id-nul", "[pbem bz-test1\0x]"),
    );
    add(
        "subject-id-encoded-path",
        subject(
            "subject-id-encoded-path",
            "=?utf-8?q?[pbem_..=2F..=2Fetc]?=",
        ),
    );
    add(
        "subject-id-percent",
        subject("subject-id-percent", "[pbem %2e%2e%2fetc]"),
    );
    add(
        "subject-id-fullwidth-dots",
        subject("subject-id-fullwidth-dots", "[pbem ．．／etc]"),
    );
    add(
        "subject-id-1000",
        subject("subject-id-1000", &format!("[pbem {}]", "a".repeat(1000))),
    );
    add("subject-id-dot", subject("subject-id-dot", "[pbem .]"));
    add(
        "subject-id-unknown",
        subject("subject-id-unknown", "[pbem zz-nope1]"),
    );
    let to = |name: &str, to: &str| m(name).set("To", to).set("Subject", "x").bytes();
    add(
        "to-plus-dotdot",
        to("to-plus-dotdot", "pbem+../../etc.k@example.net"),
    );
    add(
        "to-plus-slash",
        to(
            "to-plus-slash",
            &format!("pbem+bz-test1/../../x.{ALICE_KEY}@example.net"),
        ),
    );
    add(
        "to-plus-absolute",
        to("to-plus-absolute", "pbem+/etc/passwd.k@example.net"),
    );
    add(
        "to-plus-outside",
        to(
            "to-plus-outside",
            &format!("pbem+{OUTSIDE}/x.k@example.net"),
        ),
    );
    add(
        "to-plus-percent",
        to("to-plus-percent", "pbem+%2e%2e.k@example.net"),
    );
    add(
        "to-plus-token-path",
        to("to-plus-token-path", "pbem+bz-test1.../../../x@example.net"),
    );
    add(
        "to-plus-quoted",
        to("to-plus-quoted", "\"pbem+../../x.k\"@example.net"),
    );
    add(
        "delivered-to-path",
        m("delivered-to-path")
            .set("To", "pbem@example.net")
            .set("Subject", "x")
            .set("Delivered-To", "pbem+../../../outside.k@example.net")
            .bytes(),
    );
    add(
        "in-reply-to-path",
        m("in-reply-to-path")
            .set("To", "pbem@example.net")
            .set("Subject", "x")
            .set("In-Reply-To", "<pbem.../../outside.1@example.net>")
            .bytes(),
    );
    add(
        "from-absolute-path",
        m("from-absolute-path")
            .set("From", format!("Mallory <{OUTSIDE}/mallory@example.org>"))
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-relative-path",
        m("from-relative-path")
            .set("From", "a/b/c@example.org")
            .set("To", "pbem@example.net")
            .set("Subject", "help")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-dotdot",
        m("from-dotdot")
            .set("From", "../../outside@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-dot-first",
        m("from-dot-first")
            .set("From", ".hidden@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    add(
        "from-quoted-dotdot",
        m("from-quoted-dotdot")
            .set("From", "\"../../outside\"@example.org")
            .set("To", "pbem@example.net")
            .text("help\n")
            .bytes(),
    );
    for (name, opp) in [
        (
            "challenge-opponent-absolute",
            format!("{OUTSIDE}/victim@example.org"),
        ),
        (
            "challenge-opponent-dotdot",
            "../../outside@example.org".to_string(),
        ),
        (
            "challenge-opponent-quoted-dotdot",
            "\"../../../outside\"@example.org".to_string(),
        ),
        ("challenge-opponent-slash", "a/b@example.org".to_string()),
    ] {
        add(
            name,
            m(name)
                .set("To", "pbem@example.net")
                .set("Subject", "new game")
                .text(&format!("challenge mad {opp}\n"))
                .bytes(),
        );
    }

    // Automated mail, with bulk.
    add(
        "auto-bounce-huge",
        m("auto-bounce-huge")
            .set("From", "MAILER-DAEMON@example.org")
            .set("Content-Type", "multipart/report; report-type=delivery-status; boundary=b")
            .text(&format!(
                "--b\nContent-Type: text/plain\n\nDelivery failed.\n--b\nContent-Type: message/rfc822\n\n{}\n--b--\n",
                "Received: x\n".repeat(100_000)
            ))
            .bytes(),
    );
    add(
        "auto-submitted-nul",
        m("auto-submitted-nul")
            .set("Auto-Submitted", "auto-replied\0")
            .bytes(),
    );
    add(
        "auto-precedence-upper",
        m("auto-precedence-upper").set("Precedence", "BULK").bytes(),
    );
    add(
        "auto-list-id-1mb",
        m("auto-list-id-1mb")
            .set("List-Id", "l".repeat(1 << 20))
            .bytes(),
    );
    add(
        "auto-loop-header-forged",
        m("auto-loop-header-forged")
            .set("X-Pbem-Loop", "example.net")
            .bytes(),
    );
    add(
        "auto-empty-return-path-spaces",
        m("auto-empty-return-path-spaces")
            .set("Return-Path", "<   >")
            .bytes(),
    );
    add(
        "from-pbem-itself",
        m("from-pbem-itself")
            .set("From", "pbem@example.net")
            .bytes(),
    );
    add(
        "from-pbem-plus",
        m("from-pbem-plus")
            .set("From", "pbem+bz-test1.x@example.net")
            .bytes(),
    );

    // Commands at their limits.
    let body = |name: &str, text: &str| m(name).text(text).bytes();
    add(
        "token-10k",
        body(
            "token-10k",
            &format!("token {}\nboard\n", "k".repeat(10_000)),
        ),
    );
    add("token-spaces", body("token-spaces", "token a b c\nboard\n"));
    add(
        "move-number-overflow",
        body("move-number-overflow", "#99999999999999 13-21\n"),
    );
    add(
        "move-number-negative",
        body("move-number-negative", "#-1 13-21\n"),
    );
    add("move-number-zero", body("move-number-zero", "#0 13-21\n"));
    add(
        "moves-square-huge",
        body("moves-square-huge", "moves 99999999999999999999\n"),
    );
    add(
        "moves-square-path",
        body("moves-square-path", "moves ../../etc\n"),
    );
    add(
        "rules-long",
        body("rules-long", &format!("rules {}\n", "mad ".repeat(3000))),
    );
    add(
        "challenge-long-line",
        body(
            "challenge-long-line",
            &format!(
                "challenge mad {}\n",
                (0..1000)
                    .map(|i| format!("v{i}@example.com "))
                    .collect::<String>()
            ),
        ),
    );
    add("square-zero", body("square-zero", "0-8\n"));
    add(
        "square-huge",
        body("square-huge", "99999999999999999999-1\n"),
    );
    add(
        "chain-1000",
        body("chain-1000", &format!("13{}\n", "x22x13".repeat(30))),
    );
    add("count-huge", body("count-huge", "12-20:99999999999\n"));
    add(
        "stones-many",
        body("stones-many", &format!("{}\n", "27/36,".repeat(30))),
    );
    add(
        "only-punctuation",
        body("only-punctuation", "-x-x-x:/,;+&\n"),
    );
    out
}

/// The hand-written cases: `tests/badmail/*.eml`, as stored.
fn fixtures() -> Vec<(String, Vec<u8>)> {
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

// --- running one case -----------------------------------------------------

/// What one poll did.
struct Outcome {
    name: String,
    class: String,
    replies: usize,
    fate: String,
    seconds: f64,
    rss_mb: u64,
    problems: Vec<String>,
}

fn write_game(store: &Store) {
    let text = format!(
        "format = 1\nrules = \"boom-and-zoom\"\nid = \"bz-test1\"\ncreated = 2026-11-19T08:00:00Z\n\
         first = \"black\"\nresult = \"*\"\n\n[players]\nblack = \"{ALICE}\"\nred = \"{BOB}\"\n\n\
         [play]\nmoves = \"\"\"\n\
         1. black 6-13  2026-11-19T09:17:00Z <bz1.1@example.org>\n\
         2. red   61-34 2026-11-19T11:33:00Z <bz1.2@example.org>\n\"\"\"\n"
    );
    let rec = Record::parse("bz-test1.toml", &text).unwrap();
    store
        .write_game("bz-test1", &record::write::to_string(&rec))
        .unwrap();
    let mut s = Secrets::default();
    s.tokens.insert("black".into(), ALICE_KEY.into());
    s.tokens.insert("red".into(), BOB_KEY.into());
    store.write_secrets("bz-test1", &s).unwrap();
    store
        .write_challenge(
            "bz-chal1",
            &Challenge {
                rules: "boom-and-zoom".into(),
                challenger: ALICE.into(),
                opponent: "bob@example.org".into(),
                challenger_side: "black".into(),
                first: "black".into(),
                created: "2026-11-19T08:00:00Z".into(),
                clock: None,
                source: None,
            },
        )
        .unwrap();
    let mut s = Secrets::default();
    s.tokens.insert("black".into(), "alicechal234".into());
    s.tokens.insert("red".into(), "bobchal23456".into());
    store.write_secrets("bz-chal1", &s).unwrap();
}

/// Every file under `dir`, recursively.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Runs `pbem poll` as a child, measured: exit code (or `None` when a
/// signal ended it), seconds, peak RSS in MB. A poll that runs past a
/// minute is killed.
///
/// The peak RSS is the child's `VmHWM` in `/proc`, read every
/// millisecond while it runs: `wait4`'s `ru_maxrss` would not do, as
/// Linux counts in it the memory of the test process that spawned the
/// child (the address space `exec` replaced).
fn measured(cmd: &mut Command) -> (Option<i32>, f64, u64) {
    let start = Instant::now();
    let child = cmd.spawn().expect("pbem runs");
    let pid = child.id() as libc::pid_t;
    let (done, watch) = std::sync::mpsc::channel::<()>();
    let watcher = std::thread::spawn(move || {
        let status = format!("/proc/{pid}/status");
        let mut peak_kb = 0u64;
        loop {
            if let Some(kb) = fs::read_to_string(&status).ok().and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            }) {
                peak_kb = peak_kb.max(kb);
            }
            match watch.recv_timeout(Duration::from_millis(1)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
            if start.elapsed() > Duration::from_secs(60) {
                // SAFETY: kill(2) on our own child, not yet reaped.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        peak_kb
    });
    let mut status = 0;
    // SAFETY: waits for our own child, once; std's handle is never waited.
    let r = unsafe { libc::waitpid(pid, &mut status, 0) };
    let seconds = start.elapsed().as_secs_f64();
    let _ = done.send(());
    let peak_kb = watcher.join().unwrap();
    drop(child);
    assert_eq!(r, pid, "waitpid failed");
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, seconds, peak_kb / 1024)
}

/// The class of a fate, for EXPECTED.tsv.
fn class_of(fate: &str) -> String {
    if let Some(why) = fate.strip_prefix("dropped") {
        let kind = [
            ("unreadable mail", "unreadable"),
            ("automated mail", "automated"),
            ("no usable From", "no-from"),
            ("sent by pbem itself", "own-mail"),
            ("is not a player", "stranger"),
            ("names unknown game", "unknown-game"),
        ]
        .iter()
        .find(|(k, _)| why.contains(k))
        .map_or("other", |(_, v)| v);
        return format!("dropped:{kind}");
    }
    if fate.starts_with("refused") {
        return "refused".into();
    }
    if fate.contains(" played ") {
        return "played".into();
    }
    "answered".into()
}

fn run(name: &str, raw: &[u8]) -> Outcome {
    let top = tempfile::tempdir().unwrap();
    // pbem lives three folders down; the cases aim at `outside/`, beside
    // them, and pbem runs from `cwd/`: nothing may appear in either.
    let root = top.path().join("a/b/c/pbem");
    let cwd = top.path().join("cwd");
    let outside = top.path().join("outside");
    let logs = top.path().join("logs");
    for d in [&root, &cwd, &outside, &logs] {
        fs::create_dir_all(d).unwrap();
    }
    let config_path = root.join("pbem.toml");
    fs::write(
        &config_path,
        INIT.replace("pbem@localhost", "pbem@example.net"),
    )
    .unwrap();
    let config = Config::load(&config_path).unwrap();
    let store = Store::open(&config.data).unwrap();
    write_game(&store);
    // The path cases name the real `outside/`.
    let raw = replace_bytes(
        raw,
        OUTSIDE.as_bytes(),
        outside.to_string_lossy().as_bytes(),
    );
    let before: Vec<PathBuf> = {
        let mut v = Vec::new();
        files(top.path(), &mut v);
        v
    };
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let mail_name = "1763632800.M1P1.badmail";
    inbox.deliver(mail_name, &raw).unwrap();

    let (code, seconds, rss_mb) = measured(
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["poll", "--config"])
            .arg(&config_path)
            .current_dir(&cwd)
            .env("PBEM_NOW", NOW)
            .env("PBEM_LOG", "info")
            .env_remove("PBEM_CONFIG")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(fs::File::create(logs.join("stdout")).unwrap())
            .stderr(fs::File::create(logs.join("stderr")).unwrap()),
    );
    let stderr = fs::read_to_string(logs.join("stderr")).unwrap_or_default();
    let mut problems = Vec::new();
    match code {
        Some(0) | Some(1) => {}
        other => problems.push(format!("exit status {other:?}")),
    }
    if stderr.contains("panicked") {
        problems.push("pbem panicked".into());
    }
    // The mail's one log line.
    let mail_lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(" mail key="))
        .collect();
    let (replies, fate) = match mail_lines.as_slice() {
        [line] => (
            field(line, "replies")
                .and_then(|r| r.parse().ok())
                .unwrap_or(0),
            field(line, "fate").unwrap_or_default(),
        ),
        _ => {
            problems.push(format!(
                "{} mail log lines; stderr:\n{}",
                mail_lines.len(),
                stderr.chars().take(2000).collect::<String>()
            ));
            (0, String::new())
        }
    };
    let class = class_of(&fate);
    if replies == 0 && !class.starts_with("dropped") && problems.is_empty() {
        problems.push(format!("no reply and no reason to drop it: {fate}"));
    }
    if !config
        .inbox
        .maildir
        .as_ref()
        .unwrap()
        .join("cur")
        .join(format!("{mail_name}:2,S"))
        .exists()
    {
        problems.push("the mail is not marked done".into());
    }
    // Files: only in the data folder and the mail folders.
    let mut after = Vec::new();
    files(top.path(), &mut after);
    for p in &after {
        let ok = p.starts_with(root.join("data"))
            || p.starts_with(root.join("mail"))
            || p.starts_with(&logs)
            || before.contains(p);
        if !ok {
            problems.push(format!("a file outside the data folder: {}", p.display()));
        }
    }
    // Replies: delivered, clean headers, to an address the mail named.
    let named = String::from_utf8_lossy(&raw).to_lowercase();
    let mut sent = 0;
    let mut folders = Vec::new();
    if let Ok(dirs) = fs::read_dir(root.join("mail/sent")) {
        for d in dirs.filter_map(Result::ok) {
            folders.push(d.file_name().to_string_lossy().into_owned());
            for f in fs::read_dir(d.path().join("new"))
                .unwrap()
                .filter_map(Result::ok)
            {
                sent += 1;
                let mail = fs::read(f.path()).unwrap();
                let msg = mail_parser::MessageParser::default().parse(&mail);
                let to = msg
                    .as_ref()
                    .and_then(|m| m.to())
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_lowercase();
                // The Maildir sink writes LF line ends (issue 12); the
                // check reads the mail as it was built, with CRLF.
                let built = String::from_utf8_lossy(&mail).replace('\n', "\r\n");
                if let Err(e) = pbem::mail::outbound::check_headers(built.as_bytes(), &to) {
                    problems.push(format!("reply to {to}: {e}"));
                }
                if !named.contains(&to) && to != "alice@example.org" && to != "bob@example.org" {
                    problems.push(format!("a reply to {to}, an address the mail never named"));
                }
                if d.file_name().to_string_lossy() != pbem::transport::folder_name(&to) {
                    problems.push(format!("a reply to {to} in folder {:?}", d.file_name()));
                }
            }
        }
    }
    if sent != replies {
        problems.push(format!("{replies} replies logged, {sent} delivered"));
    }
    let limit = if cfg!(debug_assertions) {
        MAX_SECONDS * 5.0
    } else {
        MAX_SECONDS
    };
    if seconds > limit {
        problems.push(format!("took {seconds:.2} s (at most {limit} s)"));
    }
    if rss_mb > MAX_RSS_MB {
        problems.push(format!("used {rss_mb} MB (at most {MAX_RSS_MB} MB)"));
    }
    let fate = fate.replace(&outside.to_string_lossy().to_string(), OUTSIDE);
    Outcome {
        name: name.to_string(),
        class,
        replies,
        fate,
        seconds,
        rss_mb,
        problems,
    }
}

fn replace_bytes(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

/// A logfmt field's value, unquoted.
fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!(" {key}="))? + key.len() + 2;
    let rest = &line[start..];
    if let Some(q) = rest.strip_prefix('"') {
        let mut v = String::new();
        let mut chars = q.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => v.push('\n'),
                    Some(c) => v.push(c),
                    None => break,
                },
                '"' => break,
                c => v.push(c),
            }
        }
        Some(v)
    } else {
        Some(rest.split(' ').next().unwrap_or("").to_string())
    }
}

// --- the test ---------------------------------------------------------------

#[test]
fn every_bad_mail_is_answered_or_dropped_for_a_reason() {
    let filter = std::env::var("BADMAIL_CASE").ok();
    let mut cases = generated();
    cases.extend(fixtures());
    let mut names: Vec<&String> = cases.iter().map(|(n, _)| n).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "two cases share a name");
    assert!(cases.len() >= 200, "only {} cases", cases.len());
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|(n, _)| filter.as_ref().is_none_or(|f| n.contains(f.as_str())))
        .collect();

    let start = Instant::now();
    let outcomes: Vec<Outcome> = cases.iter().map(|(n, raw)| run(n, raw)).collect();
    let total = start.elapsed();

    let mut failures = String::new();
    for o in &outcomes {
        for p in &o.problems {
            let _ = writeln!(failures, "{}: {p}", o.name);
        }
    }
    // The record of how each case was handled.
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/badmail/EXPECTED.tsv");
    let mut table = String::from(
        "# How pbem handles each bad mail (tests/badmail.rs); PBEM_BLESS=1 rewrites it.\n\
         # case\tclass\treplies\tfate (for reading; not compared)\n",
    );
    for o in &outcomes {
        let fate: String = o
            .fate
            .replace(['\t', '\n'], " ")
            .chars()
            .take(160)
            .collect();
        let _ = writeln!(table, "{}\t{}\t{}\t{fate}", o.name, o.class, o.replies);
    }
    let expected: BTreeMap<String, (String, String)> = fs::read_to_string(&expected_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                f.next()?.to_string(),
                (f.next()?.to_string(), f.next()?.to_string()),
            ))
        })
        .collect();
    if std::env::var_os("PBEM_BLESS").is_some() && filter.is_none() {
        fs::write(&expected_path, &table).unwrap();
    } else {
        for o in &outcomes {
            match expected.get(&o.name) {
                Some((class, replies))
                    if *class == o.class && *replies == o.replies.to_string() => {}
                Some((class, replies)) => {
                    let _ = writeln!(
                        failures,
                        "{}: handled as {} with {} replies, EXPECTED.tsv says {class} with {replies} ({})",
                        o.name, o.class, o.replies, o.fate
                    );
                }
                None => {
                    let _ = writeln!(
                        failures,
                        "{}: not in EXPECTED.tsv (PBEM_BLESS=1 adds it): {} {} {}",
                        o.name, o.class, o.replies, o.fate
                    );
                }
            }
        }
        if filter.is_none() {
            for name in expected.keys() {
                if !outcomes.iter().any(|o| &o.name == name) {
                    let _ = writeln!(failures, "{name}: in EXPECTED.tsv but no such case");
                }
            }
        }
    }

    // The figures for the issue's closing note.
    let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &outcomes {
        *classes.entry(o.class.as_str()).or_default() += 1;
    }
    let slowest = outcomes
        .iter()
        .max_by(|a, b| a.seconds.total_cmp(&b.seconds));
    let biggest = outcomes.iter().max_by_key(|o| o.rss_mb);
    println!(
        "badmail: {} cases in {:.1} s ({} build); {classes:?}",
        outcomes.len(),
        total.as_secs_f64(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    if let (Some(s), Some(b)) = (slowest, biggest) {
        println!(
            "badmail: slowest {} {:.3} s; most memory {} {} MB",
            s.name, s.seconds, b.name, b.rss_mb
        );
    }
    let mut by_time: Vec<&Outcome> = outcomes.iter().collect();
    by_time.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    for o in by_time.iter().take(8) {
        println!("  {:<40} {:>7.3} s {:>5} MB", o.name, o.seconds, o.rss_mb);
    }
    assert!(failures.is_empty(), "bad mails mishandled:\n{failures}");
}
