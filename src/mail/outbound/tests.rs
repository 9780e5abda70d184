use super::*;
use crate::reply::Rendered;

fn identity() -> Identity {
    Identity::at("pbem@example.net")
}

// The mail as lettre's builder wrote it, before pbem wrote its own:
// the reference the writer is held to.
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{MultiPart, MultiPartKind, SinglePart};

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

fn lettre_wrote(
    identity: &Identity,
    w: &Written<'_>,
    text: &str,
    html: &str,
    boundary: &str,
) -> Vec<u8> {
    let mut b = lettre::Message::builder()
        .from(w.from.clone())
        .to(w.to.clone())
        .subject(w.subject.to_string())
        .date(w.now.into())
        .message_id(Some(w.message_id.to_string()))
        .header(AutoSubmitted)
        .header(Loop(identity.domain().to_string()));
    if let Some(rt) = w.reply_to {
        b = b.reply_to(own_mailbox(&identity.name, rt).unwrap());
    }
    if let Some(irt) = w.in_reply_to {
        b = b.in_reply_to(irt.to_string());
    }
    if let Some(refs) = w.references_value() {
        b = b.references(refs);
    }
    let part = |t: ContentType, body: &str| {
        SinglePart::builder()
            .header(t)
            .body(Body::new(body.to_string()))
    };
    b.multipart(
        MultiPart::builder()
            .kind(MultiPartKind::Alternative)
            .boundary(boundary)
            .singlepart(part(ContentType::TEXT_PLAIN, text))
            .singlepart(part(ContentType::TEXT_HTML, html)),
    )
    .unwrap()
    .formatted()
}

/// pbem's own writer writes the bytes lettre's builder wrote, over
/// random names, subjects, ids and bodies: quotes, backslashes,
/// brackets, accents, other scripts, emoji, long words and long
/// lines, lines of every length around the 76 a 7bit line may have.
#[test]
fn the_mail_is_the_one_lettre_wrote() {
    let mut rng = fastrand::Rng::with_seed(17);
    let pieces = [
        "a",
        "Zed",
        " ",
        " ",
        "\"",
        "\\",
        "<",
        ">",
        "@",
        ",",
        ";",
        ":",
        "(",
        "é",
        "Ł",
        "名人",
        "🎲",
        "=?",
        "?=",
        "_",
        "-",
        ".",
        "\t",
        "averyveryverylongwordwithoutanybreakatallinit",
    ];
    let words = |rng: &mut fastrand::Rng, n: usize| -> String {
        (0..rng.usize(..n))
            .map(|_| pieces[rng.usize(..pieces.len())])
            .collect()
    };
    let identity = identity();
    for round in 0..3_000 {
        let name = words(&mut rng, 12);
        let to_name = words(&mut rng, 12);
        let from = Mailbox::new(
            (!name.trim().is_empty()).then(|| name.clone()),
            "pbem@example.net".parse().unwrap(),
        );
        let to = Mailbox::new(
            (round % 3 != 0).then(|| to_name.clone()),
            "Player.One+x@example.org".parse().unwrap(),
        );
        let subject = words(&mut rng, 30);
        let ids: Vec<String> = (0..rng.usize(..9))
            .map(|i| format!("<pbem.g{i}.{}@example.net>", rng.u32(..)))
            .collect();
        let irt = ids.last().filter(|_| rng.bool()).cloned();
        let mut text = String::new();
        for _ in 0..rng.usize(..12) {
            let n = rng.usize(..120);
            let ascii: String = (0..n).map(|_| rng.alphanumeric()).collect();
            let line = if rng.u8(..4) == 0 {
                words(&mut rng, 20)
            } else {
                ascii
            };
            text.push_str(&line);
            text.push_str(["\n", "\r\n"][rng.usize(..2)]);
        }
        let html = format!("<p>{}</p>\n", text.replace('\n', "<br>\n"));
        let w = Written {
            from: &from,
            to: &to,
            subject: &subject,
            reply_to: rng.bool().then_some("pbem+g.k3y@example.net"),
            message_id: "<pbem.g.1@example.net>",
            in_reply_to: irt.as_deref(),
            references: &ids,
            now: DateTime::from_timestamp(rng.i64(0..4_102_444_800), rng.u32(..1_000_000_000))
                .unwrap(),
        };
        let boundary = mime::boundary();
        let ours = write(&identity, w, (&text, Some(&html)), &boundary).unwrap();
        let theirs = lettre_wrote(&identity, &w, &text, &html, &boundary);
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs),
            "{name:?} {to_name:?} {subject:?}"
        );
    }
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
        assert_eq!(ours.encoding, theirs.encoding(), "{text:?}");
        assert_eq!(ours.bytes, theirs.into_vec(), "{text:?}");
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
    // Folded over lines, To is read whole: bob alone is bob alone.
    let folded = text.replacen(
        "To: bob@example.org\r\n",
        "To: \"Bob\r\n B.\" <bob@example.org>\r\n",
        1,
    );
    assert_ne!(folded, text);
    check_headers(folded.as_bytes(), "bob@example.org").unwrap();
}
