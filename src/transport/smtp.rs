//! SMTP (RFC 5321), one step of the session at a time, so that each
//! refusal is known by the step it answers.
//!
//! lettre's `SmtpTransport` says whether an answer was 4xx or 5xx but not
//! to what: a wrong password (535 to `AUTH`) and an unknown recipient (550
//! to `RCPT TO`) look alike, and only the second is about the mail. So the
//! session is driven here on lettre's `SmtpConnection`: connect (TLS from
//! the start, or STARTTLS), `AUTH`, then per mail `MAIL FROM`, `RCPT TO`,
//! `DATA` and the message. [`kind`] turns the step and the answer into a
//! [`SendErrorKind`]; only a refusal of the recipient or of the message
//! gives a mail up. One connection serves the mails of a flush
//! ([`Transport::finish`] ends it); after a refusal, `RSET` makes it ready
//! for the next mail.

use super::{SendConfig, SendError, SendErrorKind, Transport};
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, Tls, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use std::fmt;
use std::fs;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How long pbem waits for the server at each step (lettre's default).
const TIMEOUT: Duration = Duration::from_secs(60);

/// The step of an SMTP session a failure answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The connection, the greeting, EHLO (and TLS from the start).
    Connect,
    Starttls,
    Auth,
    /// `MAIL FROM`: pbem's own address.
    Sender,
    /// `RCPT TO`: this mail's recipient.
    Recipient,
    /// `DATA` and the message itself.
    Message,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Connect => "connect",
            Step::Starttls => "STARTTLS",
            Step::Auth => "AUTH",
            Step::Sender => "MAIL FROM",
            Step::Recipient => "RCPT TO",
            Step::Message => "DATA",
        })
    }
}

/// What a failure at `step` means, from the reply `code` (none: no reply
/// at all, as with a lost connection, TLS, a time-out or a reply that
/// does not parse) and its text, which may start with an enhanced status
/// code (RFC 3463).
///
/// - no reply, `421` (the server is closing, RFC 5321 section 3.8), or
///   any refusal before `RCPT TO` (the connection, STARTTLS, `AUTH`, pbem's
///   own sender address): [`SendErrorKind::Down`]. Every mail would meet
///   it; it is the settings' or the server's, never one mail's, so no
///   mail is given up over it (a wrong password is `535` to `AUTH`).
/// - 4xx to `RCPT TO` or to the message: [`SendErrorKind::Transient`].
/// - 5xx to `RCPT TO` or to the message: [`SendErrorKind::Permanent`] when
///   it is about this mail: the address (`X.1.x`: 5.1.1 no such user), the
///   mailbox (`X.2.x`), the content (`X.6.x`), the size (5.3.4), no route
///   to the recipient's domain (5.4.4), a policy refusal (5.7.1, 5.7.2,
///   `X.0.x`), or a plain code without an enhanced one. Down when the
///   answer is about pbem's right to send: the protocol (`X.5.x`, 500,
///   502, 503, 504), the server (`X.3.x`, `X.4.x`, 521), login and
///   security (other `X.7.x`, 530, 534, 535, 538, RFC 4954 section 6), or
///   relaying denied (the text names "relay": pbem did not log in, and
///   no mail to another domain would go).
pub fn kind(step: Step, code: Option<u16>, text: &str) -> SendErrorKind {
    use SendErrorKind::{Down, Permanent, Transient};
    let Some(code) = code else {
        return Down;
    };
    if code == 421 || !matches!(step, Step::Recipient | Step::Message) {
        return Down;
    }
    if code < 500 {
        return Transient;
    }
    let relay = text.to_ascii_lowercase().contains("relay");
    let about_the_mail = match enhanced(text) {
        Some((1 | 2 | 6, _)) | Some((3, 4)) | Some((4, 4)) => true,
        Some((0, _)) | Some((7, 1 | 2)) => !relay,
        Some(_) => false,
        None => !relay && !matches!(code, 500 | 502 | 503 | 504 | 521 | 530 | 534 | 535 | 538),
    };
    if about_the_mail { Permanent } else { Down }
}

/// The subject and detail of the enhanced status code (RFC 3463
/// section 2) a reply's text starts with: `5.1.1 <x>: ...` gives (1, 1).
fn enhanced(text: &str) -> Option<(u16, u16)> {
    let word = text.split_whitespace().next()?;
    let mut parts = word.split('.');
    let number = |p: Option<&str>, max: usize| {
        p.filter(|p| !p.is_empty() && p.len() <= max && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u16>().ok())
    };
    let class = number(parts.next(), 1)?;
    let subject = number(parts.next(), 3)?;
    let detail = number(parts.next(), 3)?;
    (matches!(class, 2 | 4 | 5) && parts.next().is_none()).then_some((subject, detail))
}

/// The SMTP transport: the settings, and the connection kept between the
/// mails of one flush.
pub(super) struct Smtp {
    host: String,
    port: u16,
    tls: Tls,
    credentials: Option<Credentials>,
    hello: ClientId,
    conn: Mutex<Option<SmtpConnection>>,
}

/// A failed step: where, the reply code if there was one, and lettre's
/// words.
struct Failed {
    step: Step,
    code: Option<u16>,
    error: SendError,
}

/// `e`, lettre's failure at `step`, with its kind.
fn failed(step: Step, e: &lettre::transport::smtp::Error) -> Failed {
    let code = e.status().map(u16::from);
    // The reply's text (lettre keeps it as the error's source).
    let text = std::error::Error::source(e)
        .map(ToString::to_string)
        .unwrap_or_default();
    Failed {
        step,
        code,
        error: SendError::new(kind(step, code, &text), format!("SMTP {step}: {e}")),
    }
}

impl Smtp {
    /// The transport for `[send] transport = "smtp"`.
    ///
    /// # Errors
    /// A setting that cannot work (unknown security, unreadable password
    /// or CA file): [`SendErrorKind::Down`].
    pub(super) fn new(config: &SendConfig) -> Result<Smtp, SendError> {
        let SendConfig::Smtp {
            host,
            port,
            security,
            user,
            password_file,
            ca_file,
        } = config
        else {
            return Err(SendError::down("not an SMTP transport"));
        };
        let fail = |m: String| SendError::down(m);
        let mut params = TlsParameters::builder(host.clone());
        if let Some(ca) = ca_file {
            let pem = fs::read(ca).map_err(|e| fail(format!("ca_file {}: {e}", ca.display())))?;
            let cert = Certificate::from_pem(&pem)
                .map_err(|e| fail(format!("ca_file {}: {e}", ca.display())))?;
            params = params.add_root_certificate(cert);
        }
        let params = params
            .build()
            .map_err(|e| fail(format!("TLS for {host}: {e}")))?;
        let tls = match security.as_str() {
            "starttls" => Tls::Required(params),
            "tls" => Tls::Wrapper(params),
            "none" => Tls::None,
            other => {
                return Err(fail(format!(
                    "security = \"{other}\": use \"starttls\", \"tls\" or \"none\""
                )));
            }
        };
        let credentials = match (user, password_file) {
            (Some(user), Some(p)) => {
                let password = fs::read_to_string(p)
                    .map_err(|e| fail(format!("password_file {}: {e}", p.display())))?
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                Some(Credentials::new(user.clone(), password))
            }
            (Some(_), None) => return Err(fail("smtp `user` needs a `password_file`".into())),
            (None, _) => None,
        };
        Ok(Smtp {
            host: host.clone(),
            port: *port,
            tls,
            credentials,
            hello: ClientId::default(),
            conn: Mutex::new(None),
        })
    }

    /// A new session, ready for `MAIL FROM`: connected (TLS from the
    /// start, or STARTTLS), greeted, logged in.
    fn connect(&self) -> Result<SmtpConnection, Failed> {
        let wrapper = match &self.tls {
            Tls::Wrapper(p) => Some(p),
            _ => None,
        };
        let mut conn = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(TIMEOUT),
            &self.hello,
            wrapper,
            None,
        )
        .map_err(|e| failed(Step::Connect, &e))?;
        if let Tls::Required(p) = &self.tls {
            conn.starttls(p, &self.hello)
                .map_err(|e| failed(Step::Starttls, &e))?;
        }
        if let Some(c) = &self.credentials {
            conn.auth(DEFAULT_MECHANISMS, c)
                .map_err(|e| failed(Step::Auth, &e))?;
        }
        Ok(conn)
    }

    /// Connects, logs in and says goodbye, sending nothing (`pbem check`).
    ///
    /// # Errors
    /// The step that failed and the server's answer.
    pub(super) fn probe(&self) -> Result<(), SendError> {
        let mut conn = self.connect().map_err(|f| f.error)?;
        let alive = conn.test_connected();
        let _ = conn.quit();
        if alive {
            Ok(())
        } else {
            Err(SendError::down("the server closed the connection"))
        }
    }
}

/// One mail over `conn`: `MAIL FROM`, `RCPT TO` for each recipient,
/// `DATA`, the message. Like lettre, it asks for SMTPUTF8 or 8BITMIME
/// where the addresses or the mail need them.
fn transaction(conn: &mut SmtpConnection, env: &Envelope, raw: &[u8]) -> Result<(), Failed> {
    let lacks = |what: &str| Failed {
        step: Step::Sender,
        code: None,
        // This mail cannot go through this server; another one might.
        error: SendError::permanent(format!(
            "SMTP: the mail needs {what}, which the server does not offer"
        )),
    };
    let mut options = Vec::new();
    let non_ascii = env
        .to()
        .iter()
        .chain(env.from())
        .any(|a| !AsRef::<str>::as_ref(a).is_ascii());
    if non_ascii {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(lacks("SMTPUTF8 (an address is not ASCII)"));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !raw.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(lacks("8BITMIME"));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    conn.command(Mail::new(env.from().cloned(), options))
        .map_err(|e| failed(Step::Sender, &e))?;
    for to in env.to() {
        conn.command(Rcpt::new(to.clone(), vec![])).map_err(|e| {
            let mut f = failed(Step::Recipient, &e);
            f.error.message = format!("SMTP RCPT TO <{to}>: {e}");
            f
        })?;
    }
    conn.command(Data).map_err(|e| failed(Step::Message, &e))?;
    conn.message(raw).map_err(|e| failed(Step::Message, &e))?;
    Ok(())
}

impl Transport for Smtp {
    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        Some(self)
    }

    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        let mut held = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        let mut fresh = false;
        loop {
            let conn = match held.as_mut() {
                Some(c) => c,
                None => {
                    fresh = true;
                    held.insert(self.connect().map_err(|f| f.error)?)
                }
            };
            let Err(f) = transaction(conn, envelope, raw) else {
                return Ok(());
            };
            // A connection kept from the last mail that went stale (the
            // server's idle time-out): once more on a new one. Nothing of
            // this mail was taken: it failed at the first command.
            if !fresh && f.step == Step::Sender && f.code.is_none() {
                if let Some(mut c) = held.take() {
                    c.abort();
                }
                continue;
            }
            // After a refusal the server answered, RSET readies the
            // session for the next mail; otherwise it is ended.
            let keep = f.code.is_some()
                && f.error.kind != SendErrorKind::Down
                && !conn.has_broken()
                && conn.command(Rset).is_ok();
            if !keep && let Some(mut c) = held.take() {
                c.abort();
            }
            return Err(f.error);
        }
    }

    fn finish(&self) {
        let mut held = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(mut c) = held.take() {
            let _ = c.quit();
        }
    }
}

impl Drop for Smtp {
    /// A session still open (mails sent outside a flush) ends with QUIT.
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SendErrorKind::{Down, Permanent, Transient};

    /// Real answers (Postfix, Exim, Sendmail, Gmail, Microsoft) at the step
    /// they come, and what they mean for the mail.
    const CASES: &[(Step, Option<u16>, &str, SendErrorKind)] = &[
        // No answer at all.
        (
            Step::Connect,
            None,
            "Connection refused (os error 111)",
            Down,
        ),
        (Step::Recipient, None, "incomplete response", Down),
        (Step::Message, None, "timed out", Down),
        // Before RCPT TO: the session's, every mail would meet it.
        (Step::Connect, Some(554), "5.3.2 no SMTP service here", Down),
        (Step::Starttls, Some(454), "4.7.0 TLS not available", Down),
        (
            Step::Auth,
            Some(535),
            "5.7.8 Error: authentication failed",
            Down,
        ),
        (
            Step::Auth,
            Some(454),
            "4.7.0 Temporary authentication failure",
            Down,
        ),
        (
            Step::Sender,
            Some(553),
            "5.7.1 <pbem@x>: Sender address rejected: not owned by user",
            Down,
        ),
        (
            Step::Sender,
            Some(530),
            "5.7.0 Authentication required",
            Down,
        ),
        (
            Step::Sender,
            Some(550),
            "5.4.5 Daily user sending quota exceeded",
            Down,
        ),
        (
            Step::Sender,
            Some(451),
            "4.3.0 Temporary lookup failure",
            Down,
        ),
        // The server is closing, whenever it says so.
        (Step::Recipient, Some(421), "4.4.2 Timeout exceeded", Down),
        // 4xx to the recipient or the message: later.
        (
            Step::Recipient,
            Some(450),
            "4.2.0 <bob@x>: Recipient address rejected: Greylisted",
            Transient,
        ),
        (
            Step::Recipient,
            Some(452),
            "4.5.3 Too many recipients",
            Transient,
        ),
        (
            Step::Message,
            Some(451),
            "4.7.1 Please try again later",
            Transient,
        ),
        // 5xx about this mail: given up.
        (
            Step::Recipient,
            Some(550),
            "5.1.1 <nobody@x>: Recipient address rejected: User unknown in virtual mailbox table",
            Permanent,
        ),
        (
            Step::Recipient,
            Some(550),
            "5.1.1 <nobody@x>: Recipient address rejected: User unknown in relay recipient table",
            Permanent,
        ),
        (
            Step::Recipient,
            Some(501),
            "5.1.3 Bad recipient address syntax",
            Permanent,
        ),
        (Step::Recipient, Some(552), "5.2.2 Mailbox full", Permanent),
        (
            Step::Recipient,
            Some(554),
            "5.7.1 <bob@x>: Recipient address rejected: Access denied",
            Permanent,
        ),
        (Step::Recipient, Some(550), "Unrouteable address", Permanent),
        (
            Step::Recipient,
            Some(550),
            "5.4.4 Unable to route",
            Permanent,
        ),
        (
            Step::Recipient,
            Some(556),
            "5.1.10 Recipient address has null MX",
            Permanent,
        ),
        (
            Step::Message,
            Some(554),
            "5.7.1 Message rejected as spam",
            Permanent,
        ),
        (
            Step::Message,
            Some(552),
            "5.3.4 Message size exceeds fixed limit",
            Permanent,
        ),
        (
            Step::Message,
            Some(550),
            "5.6.0 Message content rejected",
            Permanent,
        ),
        (Step::Message, Some(554), "Transaction failed", Permanent),
        // 5xx about pbem's right to send: not the mail's fault.
        (
            Step::Recipient,
            Some(554),
            "5.7.1 <bob@elsewhere>: Relay access denied",
            Down,
        ),
        (Step::Recipient, Some(550), "relay not permitted", Down),
        (
            Step::Recipient,
            Some(530),
            "5.7.0 Authentication required",
            Down,
        ),
        (
            Step::Recipient,
            Some(550),
            "5.7.13 User account disabled",
            Down,
        ),
        (
            Step::Recipient,
            Some(535),
            "Authentication credentials invalid",
            Down,
        ),
        (
            Step::Recipient,
            Some(503),
            "5.5.1 Error: need MAIL command",
            Down,
        ),
        (Step::Recipient, Some(502), "Command not implemented", Down),
        (
            Step::Message,
            Some(554),
            "5.3.2 System not accepting network messages",
            Down,
        ),
        (
            Step::Message,
            Some(550),
            "5.4.5 Daily user sending quota exceeded",
            Down,
        ),
    ];

    #[test]
    fn only_a_refusal_of_the_recipient_or_the_message_gives_a_mail_up() {
        for &(step, code, text, want) in CASES {
            assert_eq!(kind(step, code, text), want, "{step} {code:?} {text}");
        }
    }

    #[test]
    fn enhanced_status_codes_are_read_from_the_first_word() {
        assert_eq!(enhanced("5.1.1 <x@y>: no"), Some((1, 1)));
        assert_eq!(enhanced("4.7.26 x"), Some((7, 26)));
        assert_eq!(enhanced("2.0.0 Ok"), Some((0, 0)));
        for text in [
            "",
            "5.1 x",
            "5.1.1.1 x",
            "3.1.1 x",
            "5.1.1234 x",
            "x 5.1.1",
            "5..1 x",
            "55.1.1",
        ] {
            assert_eq!(enhanced(text), None, "{text:?}");
        }
    }
}
