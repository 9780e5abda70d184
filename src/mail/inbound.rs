//! A received mail, parsed with mail-parser (which never panics) into what
//! pbem needs: who sent it, which game it is about, and the cleaned text.

use super::text;
use mail_parser::{HeaderValue, MessageParser};

/// The header pbem stamps on its own mail; mail carrying it is dropped
/// (never answer our own mail, never loop).
pub const LOOP_HEADER: &str = "X-Pbem-Loop";

/// A parsed mail.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Inbound {
    /// The sender's address, lower case; `None` when there is none usable.
    pub from: Option<String>,
    /// The sender's display name, if any.
    pub from_name: Option<String>,
    /// Every recipient address (To, Cc, Delivered-To, X-Original-To), lower
    /// case: where a plus-address (`pbem+<id>.<token>@host`) is found.
    pub recipients: Vec<String>,
    pub subject: String,
    /// `<id@host>`, with brackets.
    pub message_id: Option<String>,
    /// In-Reply-To and References, with brackets, nearest first.
    pub thread: Vec<String>,
    /// The whole text: text/plain preferred, else the HTML part turned
    /// into text; normalised, quotes and all.
    pub text: String,
    /// The text the sender wrote: [`Inbound::text`] with quotes and
    /// signature removed ([`Inbound::strip_known`] removes pbem's own
    /// lines too).
    pub body: String,
    /// Why this mail must not be answered (RFC 3834), if it must not.
    pub automated: Option<String>,
    /// Raw `Authentication-Results` headers (trusted only when configured).
    pub authentication_results: Vec<String>,
}

/// Why a mail could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unreadable mail: {}", self.0)
    }
}

impl std::error::Error for Unreadable {}

fn bracket(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

fn ids(v: &HeaderValue) -> Vec<String> {
    match v {
        HeaderValue::Text(t) => vec![bracket(t)],
        HeaderValue::TextList(l) => l.iter().map(|t| bracket(t)).collect(),
        _ => Vec::new(),
    }
}

/// Parses raw mail bytes.
///
/// # Errors
/// [`Unreadable`] when the bytes are not a mail at all (no headers).
pub fn parse(raw: &[u8]) -> Result<Inbound, Unreadable> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| Unreadable("no mail headers found".into()))?;
    if msg.headers().is_empty() {
        return Err(Unreadable("no mail headers found".into()));
    }
    let (from, from_name) = sender(&msg);
    let recipients = recipients(&msg);
    let body = whole_text(&msg);
    let sender: Vec<&str> = from.iter().chain(&from_name).map(String::as_str).collect();
    let body_read = text::strip_reply(&body, &sender, &|_| false);
    // A copy of pbem's mail at the left edge is a bounce, unless the mail
    // is a person's reply that copied it in unindented (mailx's `~f`): it
    // came to a game's reply address, or holds a command of its own.
    let replied = || {
        recipients
            .iter()
            .any(|r| r.split('@').next().is_some_and(|l| l.contains('+')))
            || !super::command::parse(&body_read).commands.is_empty()
    };
    let automated =
        automated(&msg, from.as_deref()).or_else(|| quotes_our_mail(raw).filter(|_| !replied()));
    let authentication_results = msg
        .header_values("Authentication-Results")
        .filter_map(|v| v.as_text().map(str::to_string))
        .collect();
    Ok(Inbound {
        from,
        from_name,
        recipients,
        subject: msg.subject().unwrap_or("").trim().to_string(),
        message_id: msg.message_id().map(bracket),
        thread: thread(&msg),
        body: body_read,
        text: body,
        automated,
        authentication_results,
    })
}

/// The sender's address pbem can answer and their display name.
fn sender(msg: &mail_parser::Message) -> (Option<String>, Option<String>) {
    // Two From headers: which is the sender is anyone's guess, and a
    // forger's first choice: no usable From, the mail dropped.
    let one_from = msg.header_values("From").count() <= 1;
    let first = msg.from().and_then(|a| a.first()).filter(|_| one_from);
    // An address pbem can write back to: one lettre reads (a
    // sender `../../x@example.org` was answered with a reply that could
    // not be built, and so was never sent).
    let from = first
        .and_then(|a| a.address())
        .map(|a| a.trim().to_lowercase())
        .filter(|a| a.contains('@') && !a.chars().any(|c| c.is_whitespace() || c.is_control()))
        .filter(|a| a.parse::<lettre::message::Mailbox>().is_ok());
    let from_name = first
        .and_then(|a| a.name())
        .map(|n| n.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|n| !n.trim().is_empty());
    (from, from_name)
}

/// Every recipient address, lower case: To and Cc, then the delivery
/// headers that name the address the mail came to.
fn recipients(msg: &mail_parser::Message) -> Vec<String> {
    let mut recipients: Vec<String> = Vec::new();
    for a in msg.to().into_iter().chain(msg.cc()) {
        recipients.extend(
            a.iter()
                .filter_map(|x| x.address())
                .map(|s| s.to_lowercase()),
        );
    }
    for h in ["Delivered-To", "X-Original-To", "Envelope-To"] {
        for v in msg.header_values(h) {
            if let Some(t) = v.as_text() {
                recipients.push(t.trim().trim_matches(['<', '>']).to_lowercase());
            }
        }
    }
    recipients
}

/// In-Reply-To, then References from the nearest, each once.
fn thread(msg: &mail_parser::Message) -> Vec<String> {
    let mut thread = ids(msg.in_reply_to());
    for r in ids(msg.references()).into_iter().rev() {
        if !thread.contains(&r) {
            thread.push(r);
        }
    }
    thread
}

/// The mail's text, normalised: its text part, else its HTML part turned
/// into text.
fn whole_text(msg: &mail_parser::Message) -> String {
    // A blank text part beside HTML (some phone clients send one) does
    // not hide the HTML.
    match msg.body_text(0).filter(|t| {
        msg.text_body_count() > 0
            && !is_html_only(msg)
            && (!t.trim().is_empty() || msg.html_body_count() == 0)
    }) {
        Some(t) => text::normalize(&t),
        None => match msg.body_html(0) {
            Some(h) => text::normalize(&text::html_to_text(&h)),
            None => String::new(),
        },
    }
}

impl Inbound {
    /// Removes from [`Inbound::body`] what pbem itself wrote, however it
    /// is quoted: `known` says whether pbem lately sent this player a line
    /// (pbem's own words are inert; see
    /// [`text::strip_quotes_with`]).
    ///
    /// A mail made of nothing but lines pbem sent, each quoted or
    /// known, is an answer to pbem's own mail by its content (an
    /// autoresponder that quotes what it answers, with its loop headers
    /// stripped on the way): it is marked [`Inbound::automated`], never
    /// answered (a slow loop). One unquoted line pbem did not
    /// send (a player's `thanks`, an attribution) makes it a person's
    /// reply, answered like any other.
    pub fn strip_known(&mut self, known: &dyn Fn(&str) -> bool) {
        let sender: Vec<&str> = self
            .from
            .iter()
            .chain(&self.from_name)
            .map(String::as_str)
            .collect();
        self.body = text::strip_reply(&self.text, &sender, known);
        let content = |l: &str| {
            l.trim_start_matches(|c: char| c == '>' || c == '|' || c.is_whitespace())
                .trim_end()
                .to_string()
        };
        let lines: Vec<&str> = self.text.lines().filter(|l| !l.trim().is_empty()).collect();
        if self.automated.is_none()
            && self.body.trim().is_empty()
            && lines.iter().any(|l| known(&content(l)))
            && lines
                .iter()
                .all(|l| l.starts_with(['>', '|', '\t', ' ']) || known(&content(l)))
        {
            self.automated =
                Some("an answer to pbem's own mail, with nothing of its own".to_string());
        }
    }
}

/// mail-parser offers an HTML-only mail's converted text as its text body;
/// we convert HTML ourselves (quotes stripped first).
fn is_html_only(msg: &mail_parser::Message) -> bool {
    msg.html_body_count() > 0 && msg.text_bodies().all(|p| p.is_text_html())
}

/// RFC 3834 section 2 and common practice: automated mail is never
/// answered.
fn automated(msg: &mail_parser::Message, from: Option<&str>) -> Option<String> {
    if msg.header(LOOP_HEADER).is_some() {
        return Some(format!(
            "it carries pbem's own {LOOP_HEADER} header (a loop)"
        ));
    }
    if let Some(v) = msg.header("Auto-Submitted").and_then(|v| v.as_text())
        && !v.trim().eq_ignore_ascii_case("no")
    {
        return Some(format!("Auto-Submitted: {}", v.trim()));
    }
    if let Some(v) = msg.header("Precedence").and_then(|v| v.as_text()) {
        let v = v.trim().to_lowercase();
        if matches!(v.as_str(), "bulk" | "junk" | "list") {
            return Some(format!("Precedence: {v}"));
        }
    }
    for (name, _) in msg.headers_raw() {
        if name.len() > 5
            && name
                .get(..5)
                .is_some_and(|p| p.eq_ignore_ascii_case("list-"))
        {
            return Some(format!("mailing-list mail ({name})"));
        }
        if name.eq_ignore_ascii_case("X-Autoreply") || name.eq_ignore_ascii_case("X-Autorespond") {
            return Some(format!("an autoresponder ({name})"));
        }
    }
    if let Some(rp) = msg.header_raw("Return-Path")
        && rp.trim().trim_matches(['<', '>']).trim().is_empty()
    {
        return Some("empty Return-Path (a bounce)".into());
    }
    if let Some(f) = from {
        let local = f.split('@').next().unwrap_or("");
        if local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster") {
            return Some(format!("sent by {f} (a bounce)"));
        }
    }
    // Delivery reports and read receipts (RFC 6522 multipart/report:
    // RFC 3464 bounces, RFC 8098 receipts) are machines talking
    // (an Outlook read receipt was once answered "no command").
    if let Some(ct) = mail_parser::MimeHeaders::content_type(msg.root_part())
        && ct.ctype().eq_ignore_ascii_case("multipart")
        && ct
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    {
        let kind = ct.attribute("report-type").unwrap_or("report");
        return Some(format!("a {kind} report (multipart/report)"));
    }
    None
}

/// A mail that carries pbem's own mail, headers and all, in its body: a
/// bounce by a mail system that marks its bounces in no way (no RFC 3834
/// header, no multipart/report, not from MAILER-DAEMON) but sends back
/// the mail it could not deliver, or a mail forwarded whole,
/// or an attached `message/rfc822`. Only a copy
/// at the left edge counts: headers indented or marked as a quote are
/// what a player quoted (bsd-mailx's `~m` quotes the whole mail, headers
/// and all, behind a TAB), and a quote is never a bounce. The caller
/// also lets a copy at the left edge pass in a person's reply.
fn quotes_our_mail(raw: &[u8]) -> Option<String> {
    let lf = memchr::memmem::find(raw, b"\n\n");
    let crlf = memchr::memmem::find(raw, b"\r\n\r\n");
    let body_start = lf.into_iter().chain(crlf).min()?;
    let needle = LOOP_HEADER.as_bytes();
    let body = &raw[body_start..];
    // At the very start of a line: right after a line feed.
    let found = memchr::memchr_iter(b'\n', body).any(|i| {
        body[i + 1..].get(..=needle.len()).is_some_and(|w| {
            w[..needle.len()].eq_ignore_ascii_case(needle) && w[needle.len()] == b':'
        })
    });
    found.then(|| {
        format!(
            "it carries a mail pbem sent, with its {LOOP_HEADER} header (a bounce or a forward; answering could loop)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: &str = "From: Bob Example <Bob@Example.org>\r\nTo: pbem+bz-7k2q.s3cr3t@example.net\r\nSubject: Re: [pbem bz-7k2q] Boom & Zoom: your move\r\nMessage-ID: <abc@example.org>\r\nIn-Reply-To: <pbem.1@example.net>\r\nReferences: <pbem.0@example.net> <pbem.1@example.net>\r\n\r\n#3 22-15\r\n\r\nOn Tue, Alice wrote:\r\n> board\r\n";

    #[test]
    fn reads_a_plain_reply() {
        let m = parse(PLAIN.as_bytes()).unwrap();
        assert_eq!(m.from.as_deref(), Some("bob@example.org"));
        assert_eq!(m.from_name.as_deref(), Some("Bob Example"));
        assert_eq!(m.recipients, ["pbem+bz-7k2q.s3cr3t@example.net"]);
        assert_eq!(m.message_id.as_deref(), Some("<abc@example.org>"));
        assert_eq!(m.thread, ["<pbem.1@example.net>", "<pbem.0@example.net>"]);
        assert_eq!(m.body.trim(), "#3 22-15");
        assert_eq!(m.automated, None);
    }

    #[test]
    fn spots_automated_mail() {
        let auto = PLAIN.replace("Subject:", "Auto-Submitted: auto-replied\r\nSubject:");
        assert!(
            parse(auto.as_bytes())
                .unwrap()
                .automated
                .unwrap()
                .contains("auto-replied")
        );
        let list = PLAIN.replace("Subject:", "List-Id: <games.example.org>\r\nSubject:");
        assert!(parse(list.as_bytes()).unwrap().automated.is_some());
        let bounce = PLAIN.replace(
            "From: Bob Example <Bob@Example.org>",
            "From: MAILER-DAEMON@example.org",
        );
        assert!(parse(bounce.as_bytes()).unwrap().automated.is_some());
        let ours = PLAIN.replace("Subject:", "X-Pbem-Loop: example.net\r\nSubject:");
        assert!(
            parse(ours.as_bytes())
                .unwrap()
                .automated
                .unwrap()
                .contains("loop")
        );
        let receipt = PLAIN.replace(
            "Subject:",
            "Content-Type: multipart/report; report-type=disposition-notification; boundary=b\r\nSubject:",
        );
        assert!(
            parse(receipt.as_bytes())
                .unwrap()
                .automated
                .unwrap()
                .contains("disposition-notification")
        );
        let no = PLAIN.replace("Subject:", "Auto-Submitted: no\r\nSubject:");
        assert_eq!(parse(no.as_bytes()).unwrap().automated, None);
    }

    #[test]
    fn a_bounce_that_sends_our_mail_back_is_automated() {
        let ours = "From: pbem <pbem@example.net>\r\nTo: bob@example.org\r\nSubject: [pbem bz-1] Boom & Zoom: black played 6-13\r\nX-Pbem-Loop: example.net\r\n\r\n1. black 6-13\r\n";
        let quoted: String = ours.lines().map(|l| format!("{l}\r\n")).collect();
        let bounce = format!(
            "From: Mail System <bounces@mx.example.org>\r\nTo: pbem@example.net\r\nSubject: failure notice\r\n\r\nI could not deliver your mail to bob@example.org.\r\n\r\n--- the mail ---\r\n{quoted}"
        );
        let why = parse(bounce.as_bytes()).unwrap().automated;
        assert!(
            why.as_deref().is_some_and(|w| w.contains("a bounce")),
            "{why:?}"
        );
        // The words in a sentence are not the header.
        let chat = PLAIN.replace("#3 22-15", "what is X-Pbem-Loop: for?");
        assert_eq!(parse(chat.as_bytes()).unwrap().automated, None);
    }

    /// A reply that quotes pbem's whole mail, headers and all, indented
    /// or marked (bsd-mailx and GNU mailutils `~m`: a TAB) is a player's
    /// reply, not a bounce: their move above the quote stands.
    #[test]
    fn a_copy_of_our_mail_in_a_reply_is_no_bounce() {
        let ours = "From: pbem <pbem@example.net>\r\nTo: bob@example.org\r\nSubject: [pbem bz-1] Boom & Zoom\r\nDate: Fri, 20 Nov 2026 10:00:00 +0000\r\nX-Pbem-Loop: example.net\r\n\r\nAlice played 6-13 (move 1). It is your move: move #2.\r\n";
        // mailx's `~f`: the copy unindented, the move above or below it.
        for (to, body) in [
            (
                "pbem+bz-1.bobkey@example.net",
                format!("{ours}\r\nthanks\r\n"),
            ),
            ("pbem@example.net", format!("#2 61-34\r\n\r\n{ours}")),
            ("pbem@example.net", format!("{ours}\r\n#2 61-34\r\n")),
        ] {
            let reply = format!(
                "From: Bob <bob@example.org>\r\nTo: {to}\r\nSubject: Re: game\r\n\r\n{body}"
            );
            let m = parse(reply.as_bytes()).unwrap();
            assert_eq!(m.automated, None, "{body}");
        }
        // The same copy from a mail system, with no command: a bounce.
        let bounce = format!(
            "From: Mail <noreply@mx.example.org>\r\nTo: pbem@example.net\r\nSubject: failure\r\n\r\nNot delivered.\r\n\r\n{ours}"
        );
        assert!(parse(bounce.as_bytes()).unwrap().automated.is_some());
    }

    #[test]
    fn a_quote_of_our_whole_mail_is_no_bounce() {
        let ours = "From: pbem <pbem@example.net>\r\nTo: bob@example.org\r\nSubject: [pbem bz-1] Boom & Zoom: Alice vs Bob\r\nX-Pbem-Loop: example.net\r\nMIME-Version: 1.0\r\n\r\nAlice played 6-13 (move 1). It is your move: move #2.\r\n\r\n+----+----+----+\r\n| B3 | B3 |[ 6]|  1-8\r\n\r\n--\r\nTo play, reply to this mail with your move on a line of its own, as in\r\n`#2 22-15`. Other commands, each on a line of its own: `board`, `moves`\r\n(or `moves SQUARE`), `draw`, `resign`, `help`.\r\n";
        for wrap in ["\t", "> ", "    ", ">\t"] {
            let quoted: String = ours.lines().map(|l| format!("{wrap}{l}\r\n")).collect();
            let reply = PLAIN.replace(
                "#3 22-15\r\n\r\nOn Tue, Alice wrote:\r\n> board\r\n",
                &format!("#2 61-34\r\n\r\n{quoted}"),
            );
            let m = parse(reply.as_bytes()).unwrap();
            assert_eq!(m.automated, None, "{wrap:?}");
            let read = crate::mail::command::parse(&m.body);
            assert!(read.errors.is_empty(), "{wrap:?}: {:?}", read.errors);
            assert_eq!(read.commands.len(), 1, "{wrap:?}: {:?}", read.commands);
            assert!(m.body.contains("#2 61-34"), "{wrap:?}: {}", m.body);
        }
    }

    #[test]
    fn html_only_mail_loses_its_quote() {
        let html = "From: a@example.org\r\nSubject: x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>22&ndash;15</div><blockquote>1-2</blockquote>";
        let m = parse(html.as_bytes()).unwrap();
        assert_eq!(m.body.trim(), "22–15");
    }

    #[test]
    fn a_blank_text_part_does_not_hide_the_html() {
        let mail = "From: a@example.org\r\nSubject: x\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<div>22-15</div>\r\n--b--\r\n";
        assert_eq!(parse(mail.as_bytes()).unwrap().body.trim(), "22-15");
    }

    #[test]
    fn a_sender_pbem_cannot_write_to_has_no_from() {
        for from in [
            "../../x@example.org",
            ".hidden@example.org",
            "\"../../x\"@example.org",
            "a..b@example.org",
            "x@../../etc",
            "@example.org",
        ] {
            let mail = PLAIN.replace("Bob Example <Bob@Example.org>", from);
            assert_eq!(parse(mail.as_bytes()).unwrap().from, None, "{from}");
        }
        // `/` is an atext character: a valid address (its Maildir folder
        // is made safe by the transport).
        let mail = PLAIN.replace("Bob Example <Bob@Example.org>", "a/b@example.org");
        assert_eq!(
            parse(mail.as_bytes()).unwrap().from.as_deref(),
            Some("a/b@example.org")
        );
    }

    #[test]
    fn a_mail_with_two_froms_has_no_usable_from() {
        let two = PLAIN.replace("Subject:", "From: Evil <evil@example.com>\r\nSubject:");
        assert_eq!(parse(two.as_bytes()).unwrap().from, None);
        assert!(parse(PLAIN.as_bytes()).unwrap().from.is_some());
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(parse(b"").is_err());
        let _ = parse(b"\xff\xfe\x00garbage");
    }
}
