//! Sending through a real mail server: pbem's own SMTP transport
//! talks to Postfix on loopback (`scripts/mailstack`), which hands the mail
//! to Dovecot over LMTP, which writes it into the recipient's Maildir.
//! These tests look for the mail there. The stack: `common::mailstack`.

use crate::common;

use chrono::{TimeZone, Utc};
use common::mailstack::{Stack, nonce, stack};
use mail_parser::{MessageParser, MimeHeaders};
use pbem::config::{Config, Inbox};
use pbem::mail::inbound::{self, Inbound};
use pbem::mail::outbound;
use pbem::mailbox::Maildir;
use pbem::outbox::{self, pack};
use pbem::reply::Rendered;
use pbem::reply::{Identity, Reply};
use pbem::setup::Server;
use pbem::transport::{self, SendConfig};
use std::path::Path;
use std::time::Duration;

/// Queues `mail` alone in the batch folder `batch` of an outbox's
/// `ready/`, as pbem does: a pack of one.
fn queue_one(batch: &std::path::Path, mail: Vec<u8>) {
    std::fs::create_dir_all(batch).unwrap();
    // Its envelope as the outbox stages it: the one the mail was built with.
    let entry = pack::Entry {
        id: pack::Id { idx: 0, n: 0 },
        envelope: Some(transport::envelope_of(&mail).unwrap()),
        raw: mail,
    };
    std::fs::write(batch.join(pack::FILE), pack::encode(&[entry])).unwrap();
}
fn identity(s: &Stack) -> Identity {
    Identity::at(s.address("pbem"))
}

/// A pbem reply about game bz-1 to `to`, its subject tagged with `tag`.
fn reply_mail(s: &Stack, to: &str, tag: &str) -> Vec<u8> {
    let id = identity(s);
    let reply = Reply {
        kind: pbem::reply::Kind::Answer,
        to: format!("Bob <{to}>"),
        rendered: Rendered {
            html: None,
            subject: format!("[pbem bz-1] Alice moved 58-50 ({tag})"),
            text: format!("Alice played 58-50.\n\n  1 | <b> & ·  –\n\nYour move, Bob ({tag}).\n"),
        },
        game: Some("bz-1".into()),
        reply_to: Some(id.reply_to("bz-1", "key")),
        head: None,
    };
    outbound::build(
        &id,
        &reply,
        &format!("<pbem.bz-1.{tag}@{}>", s.domain),
        Some("<move1@example.org>"),
        &["<challenge@example.org>".to_string()],
        Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
    )
    .unwrap()
    .raw
}

fn send(config: &SendConfig, raw: &[u8]) -> Result<(), transport::SendError> {
    let t = transport::from_config(config).expect("the transport builds");
    let envelope = transport::envelope_of(raw).unwrap();
    t.send(&envelope, raw)
}

/// The Received header Postfix wrote says how the mail came in.
fn received_by_postfix(raw: &[u8]) -> String {
    let msg = MessageParser::default().parse(raw).unwrap();
    msg.headers_raw()
        .filter(|(k, v)| k.eq_ignore_ascii_case("Received") && v.contains("(Postfix)"))
        .map(|(_, v)| v.to_string())
        .next()
        .unwrap_or_default()
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn a_reply_goes_through_submission_with_starttls_and_auth_into_the_maildir() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let tag = nonce();
    let raw = reply_mail(s, &s.address("bob"), &tag);
    send(&s.submission(), &raw).expect("Postfix takes the mail");

    let got = s.wait_for_tag("bob", &tag);
    let msg = MessageParser::default().parse(&got).unwrap();
    assert_eq!(
        msg.subject(),
        Some(format!("[pbem bz-1] Alice moved 58-50 ({tag})").as_str())
    );
    let addr = |a: Option<&mail_parser::Address>| {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(str::to_string)
    };
    assert_eq!(addr(msg.from()), Some(s.address("pbem")));
    assert_eq!(addr(msg.to()), Some(s.address("bob")));
    assert_eq!(addr(msg.reply_to()), Some(s.address("pbem+bz-1.key")));
    assert_eq!(
        msg.message_id(),
        Some(format!("pbem.bz-1.{tag}@{}", s.domain).as_str())
    );
    assert_eq!(msg.in_reply_to().as_text(), Some("move1@example.org"));
    assert_eq!(
        msg.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-replied")
    );
    assert_eq!(
        msg.header_raw("Delivered-To").map(str::trim),
        Some(s.address("bob").as_str())
    );
    // multipart/alternative: the text, and the same text in HTML <pre>.
    let ct = msg.content_type().expect("a Content-Type");
    assert_eq!(
        (ct.ctype(), ct.subtype()),
        ("multipart", Some("alternative"))
    );
    assert_eq!(msg.text_body_count(), 1);
    assert_eq!(msg.html_body_count(), 1);
    let text = msg.body_text(0).unwrap();
    assert!(text.contains("  1 | <b> & ·  –"), "{text}");
    assert!(text.contains(&format!("Your move, Bob ({tag})")), "{text}");
    let html = msg.body_html(0).unwrap();
    // The columns laid out with spaces stay in a <pre>, the HTML ASCII.
    assert!(html.contains("<pre"), "{html}");
    assert!(
        html.contains("  1 | &lt;b&gt; &amp; &#183;  &#8211;"),
        "{html}"
    );
    // It came in over TLS and authenticated: ESMTPSA (RFC 3848).
    let received = received_by_postfix(&got);
    assert!(received.contains("with ESMTPSA"), "{received}");
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn tls_wrapper_mode_on_the_smtps_port() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let tag = nonce();
    let raw = reply_mail(s, &s.address("bob"), &tag);
    // By name this time: the certificate is for localhost and 127.0.0.1.
    send(&s.smtp("localhost", s.smtps_port, "tls"), &raw).expect("Postfix takes the mail");
    let got = s.wait_for_tag("bob", &tag);
    let received = received_by_postfix(&got);
    assert!(received.contains("with ESMTPSA"), "{received}");
}

/// A wrong password is refused with 535, a 5xx: the settings' fault, not
/// the mail's. The mail waits, the flush stops.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn a_wrong_password_leaves_the_mail_waiting() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("password");
    std::fs::write(&wrong, "not-the-password\n").unwrap();
    let mut config = s.submission();
    if let SendConfig::Smtp { password_file, .. } = &mut config {
        *password_file = Some(wrong);
    }
    let tag = nonce();
    let e = send(&config, &reply_mail(s, &s.address("bob"), &tag))
        .expect_err("a wrong password is refused");
    assert!(e.is_down(), "no mail is given up over it: {e}");
    assert!(
        e.message.contains("AUTH") && e.message.contains("535"),
        "{e}"
    );
    // Queued, it stays queued, and nothing becomes a dead letter.
    let ready = dir.path().join("outbox/ready");
    let batch = ready.join("20261121T100000000000-0000000000000001");
    queue_one(&batch, reply_mail(s, &s.address("bob"), &tag));
    let wrong = transport::from_config(&config).unwrap();
    let f = pbem::outbox::flush(&ready, wrong.as_ref());
    assert_eq!((f.sent, f.failed, f.dead), (0, 1, 0), "{f:?}");
    assert!(batch.join(pack::FILE).exists());
    assert_eq!(outbox::queued(&ready), 1);
    assert!(!dir.path().join("outbox/dead").exists());
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        s.mails("bob", &|m| m.subject.contains(&tag)).is_empty(),
        "nothing was delivered"
    );
}

/// Writes pbem's settings to `config`: pbem@ the stack's domain, admin
/// `admin`, a Maildir inbox, replies through submission (STARTTLS, AUTH).
fn write_smtp_settings(s: &Stack, config: &Path, admin: &str) {
    let SendConfig::Smtp {
        host,
        port,
        password_file,
        ca_file,
        ..
    } = s.submission()
    else {
        unreachable!()
    };
    std::fs::write(
        config,
        format!(
            "address = \"{}\"\nadmin = \"Ann Admin <{admin}>\"\ndata = \"data\"\n\
             [inbox]\nmaildir = \"inbox\"\n\
             [send]\ntransport = \"smtp\"\nhost = \"{host}\"\nport = {port}\n\
             security = \"starttls\"\nuser = \"{}\"\npassword_file = \"{}\"\nca_file = \"{}\"\n",
            s.address("pbem"),
            s.user,
            password_file.unwrap().display(),
            ca_file.unwrap().display(),
        ),
    )
    .unwrap();
}

/// The files of the dead letters' folder `dead`, by name: one reply as
/// it was queued (`.eml`), why (`.txt`), and that the admin was told.
fn dead_letters(dead: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dead)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    let exts: Vec<&str> = files
        .iter()
        .map(|f| f.rsplit('.').next().unwrap())
        .collect();
    assert_eq!(exts, ["eml", "told", "txt"]);
    files
}

/// A reply Postfix refuses for good (`550 5.1.1` to `RCPT TO`: the
/// stack's `refused.*` address) leaves the outbox for the dead letters,
/// the admin hears of it once, by mail, and polls exit 0 again
/// (it once stayed queued and every later poll exited 1).
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn a_reply_the_server_refuses_is_dead_lettered_and_the_admin_told_once() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let tag = nonce();
    let (alice_box, admin_box) = (format!("alice.{tag}"), format!("admin.{tag}"));
    let (alice, admin, refused) = (
        s.address(&alice_box),
        s.address(&admin_box),
        s.address(&format!("refused.{tag}")),
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pbem.toml");
    write_smtp_settings(s, &config, &admin);
    let inbox = Maildir::open(dir.path().join("inbox")).unwrap();
    // Alice challenges an address that does not exist.
    let challenge = plain_mail(
        &format!("Alice <{alice}>"),
        &s.address("pbem"),
        "a game?",
        &format!("<challenge.{tag}@example.test>"),
        &format!("challenge boom-and-zoom {refused} first\n"),
    );
    inbox.deliver("1.challenge", challenge.as_bytes()).unwrap();
    let poll = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["poll", "--config"])
            .arg(&config)
            .env("PBEM_LOG", "info")
            .output()
            .unwrap()
    };
    let o = poll();
    let log = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{log}");
    assert!(
        log.contains("WARN  dead-letter to=") && log.contains("permanent error (550): 5.1.1"),
        "{log}"
    );
    assert!(
        log.contains(&format!("INFO  dead-letter to={refused}"))
            && log.contains(&format!("notice=\"mailed to {admin}\"")),
        "{log}"
    );
    assert!(
        log.contains("poll handled=1 refused=0 already=0 failed=0 sent=2 waiting=0"),
        "the acknowledgement and the notice: {log}"
    );
    // The reply is in the dead letters, as it was queued, and told.
    let dead = dir.path().join("data/outbox/dead");
    let files = dead_letters(&dead);
    let buried = std::fs::read(dead.join(&files[0])).unwrap();
    let buried = inbound::parse(&buried).unwrap();
    let flat = buried.text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("challenges you"), "{}", buried.text);
    assert_eq!(
        std::fs::read_dir(dir.path().join("data/outbox/ready"))
            .unwrap()
            .count(),
        0,
        "nothing waits"
    );
    // The admin's notice: who, what, the server's answer; not the text.
    let notice = s.wait_for(&admin_box, "the notice", &|m| {
        m.subject.contains("could not be delivered")
    });
    let notice = inbound::parse(&notice).unwrap();
    assert_eq!(
        notice.subject,
        format!("[pbem] a reply could not be delivered to {refused}")
    );
    for says in [
        format!("To:      {refused}"),
        "(550): 5.1.1".to_string(),
        "refuses all mail".to_string(),
        dead.join(&files[0]).display().to_string(),
    ] {
        assert!(notice.text.contains(&says), "{says}: {}", notice.text);
    }
    assert!(!notice.text.contains("challenges you"), "{}", notice.text);
    // Alice heard back as usual.
    s.wait_for(&alice_box, "the acknowledgement", &|m| {
        m.text.contains("Your challenge to")
    });

    // The next poll: nothing to send, nobody told again, exit 0.
    let o = poll();
    let log = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{log}");
    assert!(!log.contains("dead-letter"), "{log}");
    assert!(log.contains("sent=0 waiting=0"), "{log}");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        s.mails(&admin_box, &|m| m
            .subject
            .contains("could not be delivered"))
            .len(),
        1,
        "one notice"
    );
}

#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn a_server_that_is_down_is_transient_and_the_outbox_keeps_the_mail() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    // A port nobody listens on.
    let closed = std::net::TcpListener::bind((s.host.as_str(), 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let ready = dir.path().join("outbox/ready");
    let batch = ready.join("20261121T100000000000-0000000000000001");
    let tag = nonce();
    // To a plus-address: Postfix hands it to pbem's Maildir.
    let to = s.address("pbem+bz-1.key");
    let mail = reply_mail(s, &to, &tag);
    queue_one(&batch, mail.clone());
    std::fs::write(batch.join(outbox::KEYS), "0 mail-key\n").unwrap();

    let down = transport::from_config(&s.smtp(&s.host, closed, "starttls")).unwrap();
    let f = pbem::outbox::flush(&ready, down.as_ref());
    assert_eq!((f.sent, f.failed), (0, 1), "{f:?}");
    assert!(batch.join(pack::FILE).exists() && batch.join(outbox::KEYS).exists());
    assert_eq!(outbox::queued(&ready), 1);
    let e = send(&s.smtp(&s.host, closed, "starttls"), &mail).unwrap_err();
    assert!(e.is_down(), "a server that is down is worth retrying: {e}");

    let up = transport::from_config(&s.submission()).unwrap();
    let f = pbem::outbox::flush(&ready, up.as_ref());
    assert_eq!((f.sent, f.failed), (1, 0), "{f:?}");
    assert!(!batch.exists(), "the sent batch is gone");
    let f = pbem::outbox::flush(&ready, up.as_ref());
    assert_eq!((f.sent, f.failed), (0, 0), "nothing left to send");

    let got = s.wait_for_tag("pbem", &tag);
    let msg = MessageParser::default().parse(&got).unwrap();
    assert_eq!(
        msg.header_raw("Delivered-To").map(str::trim),
        Some(to.as_str()),
        "the +detail survives delivery"
    );
}

/// A raw mail from `from` to `to`, written as a mail client would.
fn plain_mail(from: &str, to: &str, subject: &str, message_id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n\
         Date: Sat, 21 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         {}\r\n",
        body.replace('\n', "\r\n")
    )
}

/// A whole pbem server whose transport is SMTP: a challenge in its inbox
/// goes out to both players through Postfix; the challenged player's
/// "accept" goes to the reply address through Postfix into pbem's Maildir,
/// and from there the game begins.
#[test]
#[ignore = "needs the loopback mail stack (scripts/mailstack)"]
fn a_pbem_server_answers_a_challenge_through_postfix() {
    let _shared = crate::common::lock::shared();
    let s = stack();
    let tag = nonce();
    // Fresh players per run, so each Maildir holds only this run's mail.
    let (alice_box, bob_box) = (format!("alice.{tag}"), format!("bob.{tag}"));
    let (alice, bob) = (s.address(&alice_box), s.address(&bob_box));
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        address: s.address("pbem"),
        name: "pbem".into(),
        admin: None,
        data: dir.path().join("data"),
        templates: None,
        trusted_authserv: None,
        takebacks_per_game: pbem::reply::DEFAULT_TAKEBACKS,
        timezone: None,
        clock: Default::default(),
        limits: Default::default(),
        inbox: Inbox::maildir(dir.path().join("inbox")),
        send: s.submission(),
        bot: Default::default(),
        site: None,
        git: None,
    };
    let inbox = Maildir::open(config.inbox.maildir.as_ref().unwrap()).unwrap();
    let server = Server::new(config).unwrap();
    let challenge = plain_mail(
        &format!("Alice <{alice}>"),
        &s.address("pbem"),
        "a game?",
        &format!("<challenge.{tag}@example.test>"),
        &format!("Hi Bob!\n\nchallenge boom-and-zoom {bob} first\n"),
    );
    inbox.deliver("1.challenge", challenge.as_bytes()).unwrap();
    let r = server.poll(&mut inbox.clone(), true).unwrap();
    assert!(!r.failed(), "{r:?}");
    assert_eq!(r.sent, 2, "{r:?}");

    // What happened is each mail's text (the subject is the
    // game's, the same in every mail of it).
    let to_bob = s.wait_for(&bob_box, "the challenge", &about("challenges you"));
    s.wait_for(
        &alice_box,
        "the acknowledgement",
        &about("Your challenge to"),
    );
    let to_bob_parsed = inbound::parse(&to_bob).unwrap();
    let msg = MessageParser::default().parse(&to_bob).unwrap();
    let reply_to = msg
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .expect("the challenge has a reply address")
        .to_string();
    assert!(
        reply_to.starts_with("pbem+") && reply_to.ends_with(&format!("@{}", s.domain)),
        "{reply_to}"
    );

    // Bob answers through Postfix's plain port, like any mail from outside.
    let accept_id = format!("<accept.{tag}@example.test>");
    let accept = plain_mail(
        &format!("Bob <{bob}>"),
        &reply_to,
        &format!("Re: {}", to_bob_parsed.subject),
        &accept_id,
        "accept",
    );
    let plain = transport::from_config(&SendConfig::Smtp {
        host: s.host.clone(),
        port: s.smtp_port,
        security: "none".into(),
        user: None,
        password_file: None,
        ca_file: None,
    })
    .unwrap();
    plain
        .send(
            &transport::envelope_of(accept.as_bytes()).unwrap(),
            accept.as_bytes(),
        )
        .unwrap();
    // pbem's Maildir (where its IMAP fetch will read) holds it, addressed
    // to the plus-address.
    let arrived = s.wait_for("pbem", "Bob's accept", &|m| {
        m.message_id.as_deref() == Some(accept_id.as_str())
    });
    let parsed = inbound::parse(&arrived).unwrap();
    assert!(parsed.recipients.contains(&reply_to), "{parsed:?}");

    // Handed to the server: the game begins, and both players hear so.
    inbox.deliver("2.accept", &arrived).unwrap();
    let r = server.poll(&mut inbox.clone(), true).unwrap();
    assert!(!r.failed(), "{r:?}");
    assert_eq!(r.sent, 2, "{r:?}");
    s.wait_for(&alice_box, "the start", &about("The game begins"));
    s.wait_for(&bob_box, "the start", &about("The game begins"));
}

/// Whether a mail's text says `what`, whatever lines its words were
/// wrapped onto.
fn about(what: &'static str) -> impl Fn(&Inbound) -> bool {
    move |m: &Inbound| {
        let flat = m.text.split_whitespace().collect::<Vec<_>>().join(" ");
        flat.contains(what)
    }
}
