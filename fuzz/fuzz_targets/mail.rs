//! Inbound mail as raw bytes (src/mail/inbound.rs), then the commands in
//! it (src/mail/command/), then the replies pbem would write back to the
//! sender with the mail's own words in them (src/mail/outbound.rs).
//! Invariants: nothing panics; every reply either is refused with an error
//! or has exactly the headers pbem writes (no header injection from a
//! name, an address, a subject, a command or a Message-ID), addressed to
//! the sender.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minijinja::context;
use pbem::reply::{Identity, Reply, mailbox};
use pbem::mail::command::{self, Command};
use pbem::mail::templates::Templates;
use pbem::mail::{inbound, outbound};
use std::sync::LazyLock;

// Rendered with a few sample values, as the hostile text's carriers: a
// value the sample leaves out renders as nothing, as in use.
static TEMPLATES: LazyLock<Templates> =
    LazyLock::new(|| Templates::with_strictness(None, false));

fuzz_target!(|data: &[u8]| {
    let Ok(mail) = inbound::parse(data) else {
        return;
    };
    let parsed = command::parse(&mail.body);
    let _ = command::parse(&mail.subject);
    let Some(from) = &mail.from else {
        return;
    };
    let identity = Identity::at("pbem@example.net");
    let to = mailbox(mail.from_name.as_deref(), from);
    let what = parsed
        .commands
        .first()
        .map(|c| c.to_string())
        .or_else(|| parsed.errors.first().map(|e| e.line.clone()))
        .unwrap_or_default();
    let mut rendered = vec![
        TEMPLATES.render(
            "rejected",
            context! { id => "bz-test1", game => "Boom & Zoom", what => what.clone(), command => what, reason => "fuzz" },
        ),
        TEMPLATES.render(
            "info",
            context! { id => "bz-test1", title => format!("{} {to}", mail.subject), text => mail.body.clone() },
        ),
    ];
    for c in &parsed.commands {
        if let Command::Challenge { opponent, .. } = c {
            rendered.push(TEMPLATES.render(
                "challenged",
                context! { id => "bz-test1", game => "Boom & Zoom", opponent => opponent.to_string() },
            ));
        }
    }
    let now = chrono_now();
    for r in rendered {
        let r = r.expect("the built-in templates render");
        let reply = Reply {
            kind: pbem::reply::Kind::Answer,
            to: to.clone(),
            rendered: r,
            game: Some("bz-test1".into()),
            reply_to: Some(identity.reply_to("bz-test1", "k3y")),
            head: None,
        };
        let Ok(outbound::Built { raw, envelope }) = outbound::build(
            &identity,
            &reply,
            "<pbem.bz-test1.1@example.net>",
            mail.message_id.as_deref(),
            &mail.thread,
            now,
        ) else {
            continue;
        };
        // The envelope goes to the one address the headers name.
        assert_eq!(envelope.to().len(), 1);
        assert!(envelope.to()[0].to_string().eq_ignore_ascii_case(from));
        if let Err(e) = outbound::check_headers(&raw, from) {
            panic!("{e}\n{}", String::from_utf8_lossy(&raw));
        }
    }
});

fn chrono_now() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
        .expect("a valid time")
        .to_utc()
}
