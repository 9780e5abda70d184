//! Transports: what takes a finished mail and sends it. The last stage of
//! the mail path (`source -> parse -> command -> adjudicate -> compose ->
//! outbox -> transport`): the outbox ([`crate::outbox`]) hands each queued
//! mail to a [`Transport`], one per file: over SMTP ([`smtp`]: lettre;
//! STARTTLS, TLS, or plain on loopback; with AUTH), through a sendmail
//! binary ([`sendmail`]), or into local Maildirs ([`maildir`], the
//! embedded default: one Maildir per recipient). [`config`] reads
//! `[send]` into one of them ([`from_config`]) and tries it ([`check`]).
//!
//! What a failure means is its [`SendErrorKind`], which each transport
//! reads from what it knows best: the SMTP step a refusal answers
//! ([`smtp::kind`]), sendmail's exit status ([`sendmail::exit_kind`]). The
//! outbox acts on it: a mail refused for good becomes a dead
//! letter, one that cannot go now waits, and a transport that is down
//! stops the flush.
//!
//! Crash safety: a transport keeps no state of its own between mails but
//! an open connection; whether a mail went is noted by the outbox once
//! [`Transport::send`] returns. A crash in between sends that mail again
//! (with its Message-ID, so a client can tell).

use lettre::Address;
use lettre::address::Envelope;

pub mod config;
pub mod maildir;
pub mod sendmail;
pub mod smtp;

pub use config::{SendConfig, check, from_config};
pub use maildir::{MaildirSink, folder_name, lf_lines};

/// What a failed send means for the mail and for the mails after it
/// (item 13: a reply the server refused stayed queued for ever
/// and failed every poll).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendErrorKind {
    /// The server refused this one mail (SMTP: a 5xx answer to `RCPT TO`
    /// or to the message; sendmail: `EX_NOUSER`, `EX_DATAERR`): trying
    /// again will not mend it. The flush moves it to the dead letters
    /// ([`dead`]) and goes on with the others.
    Permanent,
    /// This mail could not go now (SMTP 4xx, sendmail `EX_TEMPFAIL`): it
    /// stays queued for the next flush, which goes on with the others.
    Transient,
    /// The transport itself failed, not this one mail: no connection, TLS,
    /// a time-out, a refused login or sender, a setting that cannot work,
    /// a sendmail that cannot run. The mails after it would fail the same
    /// way, so a flush stops there and keeps them all for later.
    Down,
}

/// A failed send, with its [`SendErrorKind`].
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    pub message: String,
    pub kind: SendErrorKind,
}

impl SendError {
    /// The server refused this one mail for good.
    pub fn permanent(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Permanent, message)
    }

    /// This mail could not go now (a server away, a full disk).
    pub fn transient(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Transient, message)
    }

    /// The transport cannot be used: a bad setting, no server, a refused
    /// login. Never a reason to give a mail up.
    pub fn down(message: impl Into<String>) -> SendError {
        SendError::new(SendErrorKind::Down, message)
    }

    pub fn new(kind: SendErrorKind, message: impl Into<String>) -> SendError {
        SendError {
            message: message.into(),
            kind,
        }
    }

    pub fn is_permanent(&self) -> bool {
        self.kind == SendErrorKind::Permanent
    }

    pub fn is_transient(&self) -> bool {
        self.kind == SendErrorKind::Transient
    }

    pub fn is_down(&self) -> bool {
        self.kind == SendErrorKind::Down
    }
}

/// Something that takes mail.
pub trait Transport {
    /// Sends one raw mail to the envelope's recipients.
    ///
    /// # Errors
    /// [`SendError`], of the kind that says what to do with this mail and
    /// the ones after it.
    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError>;

    /// [`Transport::send`] for a mail that no transport can have had
    /// before: its batch was released by this process and is flushed for
    /// the first time ([`crate::outbox::queue`]), so no crash came
    /// between an earlier delivery and its note. A transport that looks
    /// for such a delivery before it delivers (a Maildir) need not look.
    ///
    /// # Errors
    /// As [`Transport::send`].
    fn send_first(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        self.send(envelope, raw)
    }

    /// The flush is over: let go of what is held between mails (an SMTP
    /// connection). The next send starts afresh.
    fn finish(&self) {}

    /// Asks the transport to hold the deliveries of the sends that follow
    /// until [`Transport::settle`]; true when it does. A Maildir writes
    /// each mail at once and makes them durable all together at the
    /// settle: one round of syncs for a batch of replies instead of two
    /// waits for the disk per mail. The flush notes a held mail sent only
    /// once it is settled.
    fn hold(&self) -> bool {
        false
    }

    /// Finishes the deliveries held since [`Transport::hold`], and holds
    /// no more.
    ///
    /// # Errors
    /// A delivery could not be finished: none of the held mails may be
    /// taken as sent (a Maildir finds those it did deliver when they are
    /// sent again, and does not deliver them twice).
    fn settle(&self) -> Result<(), SendError> {
        Ok(())
    }

    /// This transport, when it may be used from another thread: a poll
    /// of more than one batch then sends each batch's replies from a
    /// thread of their own while it handles the next batch
    /// ([`crate::outbox::Sending`]), one thread sending at a time.
    /// `None` (the default): the replies go out at the poll's end.
    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        None
    }
}

/// The envelope of a queued mail: From and To from its headers.
///
/// # Errors
/// When the mail has no usable sender or recipient.
pub fn envelope_of(raw: &[u8]) -> Result<Envelope, SendError> {
    let bad = |m: &str| SendError::permanent(format!("queued mail: {m}"));
    // The headers are enough: decoding the body is most of a parse.
    let headers = crate::mail::outbound::header_block(raw).unwrap_or(raw);
    let msg = mail_parser::MessageParser::default()
        .parse(headers)
        .ok_or_else(|| bad("not a mail"))?;
    let addr = |a: Option<&mail_parser::Address>| -> Option<Address> {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .and_then(|s| s.parse().ok())
    };
    let from = addr(msg.from()).ok_or_else(|| bad("no From"))?;
    let to = addr(msg.to()).ok_or_else(|| bad("no To"))?;
    Envelope::new(Some(from), vec![to]).map_err(|e| bad(&e.to_string()))
}
