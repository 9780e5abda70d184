//! Building the mails pbem sends: multipart/alternative with the plain
//! text and the same words in HTML ([`crate::mail::html`]: paragraphs
//! that fit a phone, aligned blocks kept aligned), the board, when the
//! mail shows one, as an HTML table instead of ASCII
//! ([`crate::mail::board`]); threaded with Message-ID, In-Reply-To and
//! References, stamped `Auto-Submitted: auto-replied` and with pbem's
//! loop header (RFC 3834).

use super::inbound::LOOP_HEADER;
use crate::lines;
use crate::reply::{Identity, Reply};
use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};

#[derive(Clone, Debug)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-replied".into())
    }
}

#[derive(Clone, Debug)]
struct Loop(String);

impl Header for Loop {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str(LOOP_HEADER)
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Loop(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// Why a reply could not be built (a recipient that is not an address).
#[derive(Debug, thiserror::Error)]
#[error("cannot write a mail to `{to}`: {message}")]
pub struct BuildError {
    pub to: String,
    pub message: String,
}

/// The HTML part of a mail that is words only: `text` as paragraphs and
/// blocks ([`super::html::blocks`]).
pub fn text_html(text: &str) -> String {
    super::html::document(super::html::TEXT_STYLE, &super::html::blocks(text))
}

/// A mail pbem built, with the envelope it goes out under: the same
/// From and To as its headers, made from the same parsed addresses, so
/// that nothing downstream has to read the mail again to send it.
#[derive(Clone, Debug)]
pub struct Built {
    pub raw: Vec<u8>,
    pub envelope: lettre::address::Envelope,
}

/// The mail for `reply`, with `message_id` and the time `now`, threaded
/// In-Reply-To `in_reply_to` with `references` (oldest first).
///
/// # Errors
/// [`BuildError`] when an address does not parse.
pub fn build(
    identity: &Identity,
    reply: &Reply,
    message_id: &str,
    in_reply_to: Option<&str>,
    references: &[String],
    now: DateTime<Utc>,
) -> Result<Built, BuildError> {
    let heading = Heading {
        to: &reply.to,
        subject: &reply.rendered.subject,
    };
    build_headed(
        identity,
        reply,
        heading,
        message_id,
        in_reply_to,
        references,
        now,
    )
}

/// Who a mail goes to, "Name <address>" or a bare address, and under
/// what subject: a reply's own, or those its thread gives it.
#[derive(Clone, Copy, Debug)]
pub struct Heading<'a> {
    pub to: &'a str,
    pub subject: &'a str,
}

/// [`build`], the mail to `heading.to` under `heading.subject` in place
/// of the reply's own (a reply staged in a game's thread), without a
/// copy of the reply's words.
///
/// # Errors
/// [`BuildError`] when an address does not parse.
pub fn build_headed(
    identity: &Identity,
    reply: &Reply,
    heading: Heading<'_>,
    message_id: &str,
    in_reply_to: Option<&str>,
    references: &[String],
    now: DateTime<Utc>,
) -> Result<Built, BuildError> {
    let err = |m: String| BuildError {
        to: heading.to.to_string(),
        message: m,
    };
    let from = own_mailbox(&identity.name, &identity.address)
        .map_err(|e| err(format!("pbem's own address: {e}")))?;
    let to: Mailbox = heading.to.parse().map_err(|e| err(format!("{e}")))?;
    let to_address = to.email.to_string();
    let envelope = lettre::address::Envelope::new(Some(from.email.clone()), vec![to.email.clone()])
        .map_err(|e| err(e.to_string()))?;
    // The envelope made here, handed over: lettre would otherwise make
    // its own by parsing the From and To it has just been given.
    let mut b = Message::builder()
        .envelope(envelope.clone())
        .from(from)
        .to(to)
        .subject(heading.subject.to_string())
        .date(now.into())
        .message_id(Some(message_id.to_string()))
        .header(AutoSubmitted)
        .header(Loop(identity.domain().to_string()));
    if let Some(rt) = &reply.reply_to {
        let rt = own_mailbox(&identity.name, rt).map_err(|e| err(format!("reply address: {e}")))?;
        b = b.reply_to(rt);
    }
    if let Some(irt) = in_reply_to {
        b = b.in_reply_to(irt.to_string());
    }
    // Oldest first (RFC 5322 section 3.6.4); the caller keeps them short
    // and to what the recipient has seen.
    let mut refs: Vec<&str> = references.iter().map(String::as_str).collect();
    if let Some(irt) = in_reply_to
        && !refs.contains(&irt)
    {
        refs.push(irt);
    }
    if !refs.is_empty() {
        b = b.references(refs.join(" "));
    }
    let text = &reply.rendered.text;
    let made;
    let html = match &reply.rendered.html {
        Some(html) => html,
        None => {
            made = text_html(text);
            &made
        }
    };
    let msg = b
        .multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(body(text)),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(body(html)),
                ),
        )
        .map_err(|e| err(e.to_string()))?;
    let raw = msg.formatted();
    // The last word on header injection: whatever a sender put in their
    // name, subject or Message-ID, the mail has pbem's headers and no
    // others, and goes to the one address it is for.
    check_headers(&raw, &to_address).map_err(|e| err(e.to_string()))?;
    Ok(Built { raw, envelope })
}

/// `name <address>` parsed as a mailbox, for pbem's own addresses (its
/// From, and a game's Reply-To): the same as parsing the text, with the
/// name parsed once for all the mails of a thread that it heads, and
/// pbem's own address once with it. The name is parsed before the
/// address, and nothing after it changes what it reads as.
fn own_mailbox(name: &str, address: &str) -> Result<Mailbox, lettre::address::AddressError> {
    thread_local! {
        /// The last name parsed, its address, and what they parsed as.
        static OWN: std::cell::RefCell<Option<(String, String, Mailbox)>> =
            const { std::cell::RefCell::new(None) };
    }
    OWN.with_borrow_mut(|own| match own {
        Some((n, a, mailbox)) if n == name && a == address => Ok(mailbox.clone()),
        Some((n, _, mailbox)) if n == name => {
            Ok(Mailbox::new(mailbox.name.clone(), address.parse()?))
        }
        _ => {
            let mailbox: Mailbox = format!("{name} <{address}>").parse()?;
            *own = Some((name.to_string(), address.to_string(), mailbox.clone()));
            Ok(mailbox)
        }
    })
}

/// `text` as a part's body, its lines ending in CRLF. lettre ends the
/// lines of a text itself by inserting a `\r` before each `\n`, which
/// moves the rest of the text once per line, and looks at each character
/// again when they all have one; a text that is 7bit with its line ends
/// (short lines of ASCII, as most of pbem's are) is given with them
/// already, as bytes, which lettre takes as they are. Any other is left to
/// lettre whole, so that it chooses the encoding from the text as written.
fn body(text: &str) -> Body {
    if text.is_ascii() {
        let (bytes, short) = crlf_measured(text);
        if short {
            // What lettre would check before it takes the bytes as 7bit
            // (ASCII, every line short: [`crlf_measured`]), checked in
            // the pass that ends the lines.
            return Body::dangerous_pre_encoded(bytes, ContentTransferEncoding::SevenBit);
        }
    }
    Body::new(text.to_string())
}

/// `text` with a `\r` before every `\n` that has none, as bytes: copied a
/// line at a time, the lines found in one search of the text
/// ([`lines::pieces`]; `\r` and `\n` are never part of a longer
/// character).
#[cfg(test)]
fn crlf(text: &str) -> Vec<u8> {
    crlf_measured(text).0
}

/// [`crlf`], and whether its lines are all short enough for 7bit as
/// lettre measures them (`email_encoding`'s chooser, over the bytes
/// with their CRs): fewer than 76 bytes from the start to the first
/// `\n`, from each `\n` to the next, and from the last to the end.
fn crlf_measured(text: &str) -> (Vec<u8>, bool) {
    const TOO_LONG: usize = 76;
    let mut out = Vec::with_capacity(text.len() + text.len() / 32 + 2);
    let mut short = true;
    // Where the last `\n` was put (0 before the first, as lettre counts).
    let mut last = 0;
    let mut pieces = lines::pieces(text, b'\n').peekable();
    while let Some(line) = pieces.next() {
        out.extend_from_slice(line.as_bytes());
        if pieces.peek().is_some() {
            if !line.ends_with('\r') {
                out.push(b'\r');
            }
            short &= out.len() - last < TOO_LONG;
            last = out.len();
            out.push(b'\n');
        }
    }
    short &= out.len() - last < TOO_LONG;
    (out, short)
}

/// The header block of a mail pbem built, through the blank line that
/// ends it (`\r\n\r\n`): `None` when there is no such line.
pub fn header_block(raw: &[u8]) -> Option<&[u8]> {
    memchr::memmem::find(raw, b"\r\n\r\n").map(|end| &raw[..end + 4])
}

/// The headers of the mails pbem writes, each at most once.
pub const HEADERS: &[&str] = &[
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Reply-To",
    "Auto-Submitted",
    LOOP_HEADER,
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
];

/// What is wrong with the header block of a mail pbem wrote: each names
/// the line or header at fault (never expected: pbem writes the headers).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("no end of the headers")]
    NoEnd,
    #[error("a header line without CRLF")]
    NoCrlf,
    #[error("a stray CR or NUL in the headers")]
    Stray,
    #[error("a continuation line before any header")]
    EarlyContinuation,
    #[error("a header line that is no header: {0:?}")]
    NoHeader(String),
    #[error("a header pbem does not write: {0:?}")]
    Unknown(String),
    #[error("{0} twice")]
    Twice(&'static str),
    #[error("no {0} header")]
    Missing(&'static str),
    #[error("the mail does not parse")]
    Unparsed,
    #[error("To is {found:?}, not {to:?}")]
    To { found: Vec<String>, to: String },
}

/// Checks a mail pbem wrote ("Names and paths": nothing can
/// inject a header): the header block is CRLF lines, each one of
/// [`HEADERS`] (at most once) or the folded continuation of one, and the
/// mail goes to `to` alone.
///
/// # Errors
/// A [`HeaderError`] saying what is wrong.
pub fn check_headers(raw: &[u8], to: &str) -> Result<(), HeaderError> {
    let headers = header_block(raw).ok_or(HeaderError::NoEnd)?;
    // Its lines, without the blank one that ends them.
    let block = &headers[..headers.len() - 2];
    let mut seen: Vec<&str> = Vec::new();
    for line in block.split(|b| *b == b'\n') {
        if line.is_empty() {
            continue; // after the last CRLF
        }
        let Some(line) = line.strip_suffix(b"\r") else {
            return Err(HeaderError::NoCrlf);
        };
        if line.contains(&b'\r') || line.contains(&0) {
            return Err(HeaderError::Stray);
        }
        if line.starts_with(b" ") || line.starts_with(b"\t") {
            if seen.is_empty() {
                return Err(HeaderError::EarlyContinuation);
            }
            continue;
        }
        let name = line
            .iter()
            .position(|b| *b == b':')
            .and_then(|i| std::str::from_utf8(&line[..i]).ok())
            .ok_or_else(|| HeaderError::NoHeader(String::from_utf8_lossy(line).into_owned()))?;
        let Some(known) = HEADERS.iter().find(|h| h.eq_ignore_ascii_case(name)) else {
            return Err(HeaderError::Unknown(name.to_string()));
        };
        if seen.contains(known) {
            return Err(HeaderError::Twice(known));
        }
        seen.push(known);
    }
    for needed in ["From", "To", "Subject", "Date", "Message-ID"] {
        if !seen.contains(&needed) {
            return Err(HeaderError::Missing(needed));
        }
    }
    // The header block alone: the bodies (tens of KB of HTML) say nothing
    // of the recipients; and of it only To is parsed, the others skipped.
    static TO_ONLY: std::sync::LazyLock<mail_parser::MessageParser> =
        std::sync::LazyLock::new(|| {
            mail_parser::MessageParser::new()
                .header_address(mail_parser::HeaderName::To)
                .default_header_ignore()
        });
    let msg = TO_ONLY
        .parse_headers(headers)
        .ok_or(HeaderError::Unparsed)?;
    let tos: Vec<String> = msg
        .to()
        .map(|a| {
            a.iter()
                .map(|x| x.address().unwrap_or("").to_lowercase())
                .collect()
        })
        .unwrap_or_default();
    if tos != [to.to_lowercase()] {
        return Err(HeaderError::To {
            found: tos,
            to: to.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reply::Rendered;

    fn identity() -> Identity {
        Identity::at("pbem@example.net")
    }

    /// [`crlf`] puts a `\r` before exactly the `\n`s that have none, as
    /// a look at each byte and the one before it does.
    #[test]
    fn crlf_ends_every_line_with_one_cr_lf() {
        let by_bytes = |t: &str| {
            let mut out = Vec::new();
            for (i, &b) in t.as_bytes().iter().enumerate() {
                if b == b'\n' && (i == 0 || t.as_bytes()[i - 1] != b'\r') {
                    out.push(b'\r');
                }
                out.push(b);
            }
            out
        };
        let mut rng = fastrand::Rng::with_seed(7);
        let pieces = ["\n", "\r", "\r\n", "a", "é", " ", "\n\n", "—"];
        for _ in 0..5_000 {
            let text: String = (0..rng.usize(0..12))
                .map(|_| pieces[rng.usize(..pieces.len())])
                .collect();
            assert_eq!(crlf(&text), by_bytes(&text), "{text:?}");
        }
    }

    /// A body given with its line ends is the one lettre makes of the
    /// text as written: the same bytes, the same encoding, for short
    /// lines and lines at the 7bit limit, a leading or a CRLF line end,
    /// and text that is not ASCII.
    #[test]
    fn a_body_is_the_one_lettre_makes_of_the_text() {
        let texts = [
            String::new(),
            "one line".into(),
            "two\nlines\n".into(),
            "\nleading\r\nmixed\n\n".into(),
            format!("{}\nshort\n", "x".repeat(74)),
            format!("short\n{}\n", "x".repeat(73)),
            format!("{}\n", "x".repeat(75)),
            "caf\u{e9}\nboard\n".into(),
            "lone\rcr\r\r\nthen\r".into(),
            "\n\n\r\n".into(),
        ];
        // And texts of random lines about the limit's length, with and
        // without their CRs, now and then a NUL or a character that is
        // not ASCII.
        let mut rng = fastrand::Rng::with_seed(5);
        let random = (0..3_000).map(|_| {
            (0..rng.usize(0..5))
                .map(|_| {
                    let mut line = "x".repeat(rng.usize(70..80));
                    match rng.usize(0..20) {
                        0 => line.push('\0'),
                        1 => line.push('\u{e9}'),
                        _ => {}
                    }
                    line + ["\n", "\r\n", ""][rng.usize(0..3)]
                })
                .collect::<String>()
        });
        for text in texts.into_iter().chain(random) {
            let ours = body(&text);
            let theirs = Body::new(text.clone());
            assert_eq!(ours.encoding(), theirs.encoding(), "{text:?}");
            assert_eq!(ours.into_vec(), theirs.into_vec(), "{text:?}");
        }
    }

    fn reply(to: &str, subject: &str) -> Reply {
        Reply {
            kind: crate::reply::Kind::Answer,
            to: to.into(),
            rendered: Rendered {
                subject: subject.into(),
                text: "text\r\nBcc: evil@example.com\r\n".into(),
                html: None,
            },
            game: Some("bz-test1".into()),
            reply_to: Some("pbem+bz-test1.k3y@example.net".into()),
            head: None,
        }
    }

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
            .unwrap()
            .to_utc()
    }

    fn built(r: &Reply, irt: Option<&str>, refs: &[String]) -> Result<Vec<u8>, BuildError> {
        build(
            &identity(),
            r,
            "<pbem.bz-test1.1@example.net>",
            irt,
            refs,
            now(),
        )
        .map(|b| b.raw)
    }

    #[test]
    fn no_header_injection_from_names_subjects_or_ids() {
        let names = [
            "Bob\r\nBcc: evil@example.com",
            "Bob\nBcc: evil@example.com",
            "=?utf-8?q?Bob=0D=0ABcc:_evil@example.com?=",
            "\"Bob\r\n\" <x@example.com>",
        ];
        for n in names {
            let to = crate::reply::mailbox(Some(n), "bob@example.org");
            let raw = built(&reply(&to, "[pbem bz-test1] x"), None, &[]).unwrap();
            check_headers(&raw, "bob@example.org").unwrap();
        }
        for s in [
            "x\r\nBcc: evil@example.com",
            "x\nBcc: evil@example.com",
            "x\rBcc: evil@example.com",
            "=?utf-8?b?eA0KQmNjOiBldmlsQGV4YW1wbGUuY29t?=",
            &"long ".repeat(5000),
        ] {
            if let Ok(raw) = built(&reply("bob@example.org", s), None, &[]) {
                check_headers(&raw, "bob@example.org").unwrap();
            }
        }
        for id in [
            "<a@b>\r\nBcc: evil@example.com",
            "<a@b> <c@d>",
            "<\r\n>",
            "<>",
        ] {
            if let Ok(raw) = built(
                &reply("bob@example.org", "x"),
                Some(id),
                &[id.to_string(), "<x\nBcc: y@z>".to_string()],
            ) {
                check_headers(&raw, "bob@example.org").unwrap();
            }
        }
    }

    #[test]
    fn a_recipient_is_one_address_or_nothing() {
        for to in [
            "bob@example.org, evil@example.com",
            "bob@example.org\r\nBcc: evil@example.com",
            "<bob@example.org> evil@example.com",
            "bob@example.org;evil@example.com",
        ] {
            if let Ok(raw) = built(&reply(to, "x"), None, &[]) {
                let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
                let n = msg.to().map(|a| a.iter().count()).unwrap_or(0);
                assert_eq!(n, 1, "{to:?}:\n{}", String::from_utf8_lossy(&raw));
            }
        }
    }

    #[test]
    fn own_mailboxes_read_as_their_text_parses() {
        let names = [
            "pbem",
            "Play by email",
            "\"Judge, the\" pbem",
            "J\u{fc}rg",
            "",
        ];
        let addresses = [
            "pbem@example.net",
            "pbem+bz-1.k3y@example.net",
            "a.b-c+d@mail.example.org",
            "not an address",
            "@example.net",
        ];
        // Every order, so that each kept name and address meets the next.
        for name in names.iter().chain(names.iter().rev()) {
            for address in addresses.iter().chain(addresses.iter().rev()) {
                let parsed = format!("{name} <{address}>").parse::<Mailbox>();
                let own = own_mailbox(name, address);
                assert_eq!(own.is_ok(), parsed.is_ok(), "{name} <{address}>");
                if let (Ok(own), Ok(parsed)) = (own, parsed) {
                    assert_eq!(own, parsed, "{name} <{address}>");
                    assert_eq!(own.to_string(), parsed.to_string());
                }
            }
        }
    }

    #[test]
    fn check_headers_spots_an_injected_header() {
        let raw = built(&reply("bob@example.org", "x"), None, &[]).unwrap();
        check_headers(&raw, "bob@example.org").unwrap();
        let text = String::from_utf8(raw).unwrap();
        let evil = text.replacen(
            "Subject: x\r\n",
            "Subject: x\r\nBcc: evil@example.com\r\n",
            1,
        );
        let e = check_headers(evil.as_bytes(), "bob@example.org").unwrap_err();
        assert_eq!(e, HeaderError::Unknown("Bcc".into()));
        assert_eq!(e.to_string(), "a header pbem does not write: \"Bcc\"");
        let bare = text.replacen("Subject: x\r\n", "Subject: x\nX: y\r\n", 1);
        assert!(check_headers(bare.as_bytes(), "bob@example.org").is_err());
        assert!(matches!(
            check_headers(text.as_bytes(), "alice@example.org"),
            Err(HeaderError::To { .. })
        ));
        // To parsed as addresses, whatever else is skipped: a second
        // recipient in it, or a group, is no mail to bob alone.
        for to in [
            "bob@example.org, evil@example.com",
            "Bob <bob@example.org>,\r\n evil@example.com",
            "friends: bob@example.org, evil@example.com;",
        ] {
            let two = text.replacen("To: bob@example.org\r\n", &format!("To: {to}\r\n"), 1);
            assert_ne!(two, text);
            assert!(
                matches!(
                    check_headers(two.as_bytes(), "bob@example.org"),
                    Err(HeaderError::To { .. })
                ),
                "{to}"
            );
        }
    }
}
