//! Building the mails pbem sends: multipart/alternative with the plain
//! text and the same words in HTML ([`crate::mail::html`]: paragraphs
//! that fit a phone, aligned blocks kept aligned), the board, when the
//! mail shows one, as an HTML table instead of ASCII
//! ([`crate::mail::board`]); threaded with Message-ID, In-Reply-To and
//! References, stamped `Auto-Submitted: auto-replied` and with pbem's
//! loop header (RFC 3834).

use super::inbound::LOOP_HEADER;
use super::mime;
use crate::reply::{Identity, Reply};
use chrono::{DateTime, Utc};
use lettre::message::header::ContentTransferEncoding;
use lettre::message::{Body, Mailbox};

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
    let raw = write(
        identity,
        Written {
            from: &from,
            to: &to,
            subject: heading.subject,
            reply_to: reply.reply_to.as_deref(),
            message_id,
            in_reply_to,
            references,
            now,
        },
        (&reply.rendered.text, reply.rendered.html.as_deref()),
        &mime::boundary(),
    )
    .map_err(err)?;
    // The last word on header injection: whatever a sender put in their
    // name, subject or Message-ID, the mail has pbem's headers and no
    // others, and goes to the one address it is for.
    check_headers(&raw, &to_address).map_err(|e| err(e.to_string()))?;
    Ok(Built { raw, envelope })
}

/// What heads a mail, parsed and checked.
#[derive(Clone, Copy)]
struct Written<'a> {
    from: &'a Mailbox,
    to: &'a Mailbox,
    subject: &'a str,
    reply_to: Option<&'a str>,
    message_id: &'a str,
    in_reply_to: Option<&'a str>,
    references: &'a [String],
    now: DateTime<Utc>,
}

impl Written<'_> {
    /// The References header's value, `None` when it has none: the
    /// Message-IDs given, oldest first (RFC 5322 section 3.6.4; the
    /// caller keeps them short and to what the recipient has seen), and
    /// the In-Reply-To last when they do not hold it.
    fn references_value(&self) -> Option<String> {
        let mut refs: Vec<&str> = self.references.iter().map(String::as_str).collect();
        if let Some(irt) = self.in_reply_to
            && !refs.contains(&irt)
        {
            refs.push(irt);
        }
        (!refs.is_empty()).then(|| refs.join(" "))
    }
}

/// The mail's text: its headers in the order lettre's builder wrote
/// them, then the words and the HTML (`text_html` of the words when
/// there is none) as two parts under `boundary`.
fn write(
    identity: &Identity,
    w: Written<'_>,
    (text, html): (&str, Option<&str>),
    boundary: &str,
) -> Result<Vec<u8>, String> {
    let mut h = mime::Headers::with_capacity(1024);
    h.mailbox("From", w.from);
    h.mailbox("To", w.to);
    h.text("Subject", w.subject);
    h.plain("Date", &mime::date(w.now));
    h.text("Message-ID", w.message_id);
    h.text("Auto-Submitted", "auto-replied");
    h.text(LOOP_HEADER, identity.domain());
    if let Some(rt) = w.reply_to {
        let rt = own_mailbox(&identity.name, rt).map_err(|e| format!("reply address: {e}"))?;
        h.mailbox("Reply-To", &rt);
    }
    if let Some(irt) = w.in_reply_to {
        h.text("In-Reply-To", irt);
    }
    if let Some(refs) = w.references_value() {
        h.text("References", &refs);
    }
    h.plain("MIME-Version", "1.0");
    let made;
    let html = match html {
        Some(html) => html,
        None => {
            made = text_html(text);
            &made
        }
    };
    Ok(h.alternative(
        boundary,
        [
            ("text/plain; charset=utf-8", body(text)),
            ("text/html; charset=utf-8", body(html)),
        ],
    ))
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
fn body(text: &str) -> mime::PartBody {
    if text.is_ascii() {
        let (bytes, short) = crlf_measured(text);
        if short {
            // What lettre would check before it takes the bytes as 7bit
            // (ASCII, every line short: [`crlf_measured`]), checked in
            // the pass that ends the lines.
            return mime::PartBody {
                encoding: ContentTransferEncoding::SevenBit,
                bytes,
            };
        }
    }
    let body = Body::new(text.to_string());
    mime::PartBody {
        encoding: body.encoding(),
        bytes: body.into_vec(),
    }
}

/// `text` with a `\r` before every `\n` that has none, as bytes: copied a
/// line at a time, the line ends found in one search of the text (`\r`
/// and `\n` are never part of a longer character).
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
    let bytes = text.as_bytes();
    // Where the line under way starts.
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        out.extend_from_slice(&bytes[start..end]);
        if end == start || bytes[end - 1] != b'\r' {
            out.push(b'\r');
        }
        short &= out.len() - last < TOO_LONG;
        last = out.len();
        out.push(b'\n');
        start = end + 1;
    }
    out.extend_from_slice(&bytes[start..]);
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
    // Where the To field's lines start and end in the block (its folded
    // lines with it).
    let mut to_field = 0..0;
    let mut at = 0;
    for line in block.split(|b| *b == b'\n') {
        let start = at;
        at += line.len() + 1;
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
            if seen.last() == Some(&"To") {
                to_field.end = at;
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
        if *known == "To" {
            to_field = start..at;
        }
        seen.push(known);
    }
    for needed in ["From", "To", "Subject", "Date", "Message-ID"] {
        if !seen.contains(&needed) {
            return Err(HeaderError::Missing(needed));
        }
    }
    // The To field alone, as the lines above found it (each line of the
    // block a known field or a continuation, To once): the bodies (tens
    // of KB of HTML) and the other fields say nothing of the recipients.
    let mut to_block = Vec::with_capacity(to_field.len() + 2);
    to_block.extend_from_slice(block.get(to_field).unwrap_or_default());
    to_block.extend_from_slice(b"\r\n");
    static TO_ONLY: std::sync::LazyLock<mail_parser::MessageParser> =
        std::sync::LazyLock::new(|| {
            mail_parser::MessageParser::new()
                .header_address(mail_parser::HeaderName::To)
                .default_header_ignore()
        });
    let msg = TO_ONLY
        .parse_headers(&to_block[..])
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
mod tests;
