//! Building the mails pbem sends: multipart/alternative with the plain
//! text and the same text in HTML `<pre>` (so clients with proportional
//! fonts show the board straight), threaded with Message-ID, In-Reply-To
//! and References, stamped `Auto-Submitted: auto-replied` and with pbem's
//! loop header (RFC 3834).

use super::inbound::LOOP_HEADER;
use crate::adjudicate::{Identity, Reply};
use chrono::{DateTime, Utc};
use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};

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

/// HTML-escapes text for a `<pre>` block.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The mail for `reply`, answering the mail `in_reply_to` (whose thread is
/// `references`), with `message_id` and the time `now`.
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
) -> Result<Vec<u8>, BuildError> {
    let err = |m: String| BuildError {
        to: reply.to.clone(),
        message: m,
    };
    let from: Mailbox = format!("{} <{}>", identity.name, identity.address)
        .parse()
        .map_err(|e| err(format!("pbem's own address: {e}")))?;
    let to: Mailbox = reply.to.parse().map_err(|e| err(format!("{e}")))?;
    let mut b = Message::builder()
        .from(from)
        .to(to)
        .subject(reply.rendered.subject.clone())
        .date(now.into())
        .message_id(Some(message_id.to_string()))
        .header(AutoSubmitted)
        .header(Loop(identity.domain().to_string()));
    if let Some(rt) = &reply.reply_to {
        let rt: Mailbox = format!("{} <{rt}>", identity.name)
            .parse()
            .map_err(|e| err(format!("reply address: {e}")))?;
        b = b.reply_to(rt);
    }
    if let Some(irt) = in_reply_to {
        b = b.in_reply_to(irt.to_string());
        let mut refs: Vec<String> = references.iter().rev().cloned().collect();
        if !refs.iter().any(|r| r == irt) {
            refs.push(irt.to_string());
        }
        // The oldest first (RFC 5322 section 3.6.4), at most a few dozen.
        let start = refs.len().saturating_sub(20);
        b = b.references(refs[start..].join(" "));
    }
    let text = &reply.rendered.text;
    let html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n<pre style=\"font-family: monospace; font-size: 13px; line-height: 1.25\">{}</pre>\n</body></html>\n",
        escape_html(text)
    );
    let msg = b
        .multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(text.clone()),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(html),
                ),
        )
        .map_err(|e| err(e.to_string()))?;
    Ok(msg.formatted())
}
