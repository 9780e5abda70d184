//! The poll's tests: a batch with the same mail twice, a mail pbem
//! panics on, a mailbox that cannot be read, a notice whose template
//! fails.

use super::*;
use crate::mailbox::Maildir;
use crate::transport::{self, MaildirSink};
use std::fs;
use std::sync::Mutex;

#[derive(Default)]
struct Sink(Mutex<Vec<Vec<u8>>>);

impl Transport for Sink {
    fn send(&self, _: &lettre::address::Envelope, raw: &[u8]) -> Result<(), transport::SendError> {
        self.0.lock().unwrap().push(raw.to_vec());
        Ok(())
    }
}

/// pbem's identity at `address`, with the default clock policy.
fn identity(address: &str) -> Identity {
    Identity::at(address)
}

/// A data folder in `dir/data` and what a [`Poller`] over it needs,
/// its replies taken by a [`Sink`].
struct Fixture {
    dir: tempfile::TempDir,
    store: Store,
    identity: Identity,
    templates: Templates,
    sink: Sink,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        Fixture {
            dir,
            store,
            identity: identity("pbem@localhost"),
            templates: Templates::new(None),
            sink: Sink::default(),
        }
    }

    fn poller(&self) -> Poller<'_> {
        Poller {
            store: &self.store,
            identity: &self.identity,
            templates: &self.templates,
            transport: &self.sink,
            limits: Default::default(),
            history: None,
        }
    }
}

/// The key the poll gives the raw mail `raw`.
fn key_of(raw: &[u8]) -> String {
    let m = inbound::parse(raw).unwrap();
    mail_key(raw, m.from.as_deref(), m.message_id.as_deref())
}

#[test]
fn the_same_mail_twice_in_one_batch_is_handled_once() {
    let fx = Fixture::new();
    let (store, sink, poller) = (&fx.store, &fx.sink, fx.poller());
    let mut inbox = Maildir::open(fx.dir.path().join("inbox")).unwrap();
    let raw = b"From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\n\
                Message-ID: <twice@example.org>\r\n\r\nhelp\r\n";
    inbox.deliver("1.a", raw).unwrap();
    inbox.deliver("2.b", raw).unwrap();
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    let r = poller.poll(&mut inbox, now, false).unwrap();
    assert_eq!((r.handled, r.skipped, r.errors.len()), (1, 1, 0), "{r:?}");
    assert_eq!(sink.0.lock().unwrap().len(), 1, "one reply");
    assert!(inbox.pending().unwrap().is_empty(), "both copies done");
    let all = store.processed().unwrap().all().unwrap();
    assert_eq!(all, HashSet::from([key_of(raw)]));
}

/// "One mail must not stop a poll even if a library panics
/// on it": the mail stays in its mailbox, the error names it, the
/// other mails are answered and the outbox sent; once the fault is
/// gone the next poll answers the mail, once.
#[test]
fn a_mail_pbem_panics_on_is_left_and_the_poll_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("data")).unwrap();
    let identity = identity("pbem@example.net");
    let templates = Templates::new(None);
    let sent = dir.path().join("sent");
    let transport = MaildirSink::new(sent.clone());
    let mut inbox = Maildir::open(dir.path().join("inbox")).unwrap();
    let mut keys = std::collections::HashMap::new();
    for (name, who) in [("1.a", "ann"), ("2.b", "bob"), ("3.c", "cid")] {
        let raw = format!(
            "From: {who}@example.org\r\nTo: pbem@example.net\r\nSubject: hi\r\n\
             Message-ID: <{who}@example.org>\r\n\r\nhelp\r\n"
        );
        inbox.deliver(name, raw.as_bytes()).unwrap();
        keys.insert(who, key_of(raw.as_bytes()));
    }
    let poller = Poller {
        store: &store,
        identity: &identity,
        templates: &templates,
        transport: &transport,
        limits: Default::default(),
        history: None,
    };
    // The double: the adjudicator, with a library bug on Bob's mail.
    let buggy = |adj: &Adjudicator<'_>, m: &inbound::Inbound| {
        if m.from.as_deref() == Some("bob@example.org") {
            let v: Vec<u8> = Vec::new();
            let i = m.body.len();
            return Ok(Handled {
                fate: crate::adjudicate::Fate::Unreadable(v[i].to_string()),
                ..Handled::default()
            });
        }
        adj.handle(m)
    };
    let now = DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
        .unwrap()
        .to_utc();
    let answered = |who: &str| {
        fs::read_dir(sent.join(format!("{who}@example.org/new")))
            .map(|d| d.count())
            .unwrap_or(0)
    };

    let r = poller.poll_with(&mut inbox, now, false, &buggy).unwrap();
    assert_eq!(r.handled, 2, "{r:?}");
    assert_eq!(r.errors.len(), 1, "{r:?}");
    assert!(
        r.errors[0].starts_with("new/2.b: pbem failed on this mail (index out of bounds")
            && r.errors[0].ends_with("left in the mailbox, the other mails go on"),
        "{}",
        r.errors[0]
    );
    assert_eq!(r.sent, 2, "the outbox was sent");
    assert_eq!(
        (answered("ann"), answered("bob"), answered("cid")),
        (1, 0, 1)
    );
    assert!(dir.path().join("inbox/new/2.b").exists(), "left in new/");
    let p = store.processed().unwrap().all().unwrap();
    assert!(
        p.contains(&keys["ann"]) && p.contains(&keys["cid"]) && !p.contains(&keys["bob"]),
        "{p:?}"
    );
    assert_eq!(fs::read_dir(store.outbox_staging()).unwrap().count(), 0);

    let r = poller.poll(&mut inbox, now, false).unwrap();
    assert_eq!((r.handled, r.skipped, r.errors.len()), (1, 0, 0), "{r:?}");
    assert_eq!(
        (answered("ann"), answered("bob"), answered("cid")),
        (1, 1, 1)
    );
    assert!(!dir.path().join("inbox/new/2.b").exists());
}

/// A mailbox that cannot list its mails.
struct Unreachable;

impl Source for Unreachable {
    fn pending(&mut self) -> std::io::Result<Vec<InboxMail>> {
        Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "the server closed the connection",
        ))
    }
    fn done(&mut self, _: &InboxMail) -> std::io::Result<()> {
        unreachable!("no mail was listed")
    }
}

#[test]
fn a_mailbox_that_cannot_be_read_fails_the_poll_with_its_cause() {
    let fx = Fixture::new();
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    let e = fx.poller().poll(&mut Unreachable, now, false).unwrap_err();
    let PollError::Mailbox { source } = &e else {
        panic!("not a mailbox error: {e:?}");
    };
    assert_eq!(source.kind(), std::io::ErrorKind::ConnectionReset);
    assert!(
        e.to_string()
            .starts_with("cannot read the mailbox: the server closed the connection;"),
        "{e}"
    );
    assert!(!e.is_busy() && !e.is_unwritable());
}

/// A notice of the reply limits whose template (the admin's) does not
/// render: the mail that tripped the limit is left in its mailbox, the
/// error naming the template and the cure; the mail before it is
/// answered.
#[test]
fn a_broken_notice_template_leaves_the_mail_and_names_the_template() {
    let fx = Fixture::new();
    let own = fx.dir.path().join("templates");
    fs::create_dir(&own).unwrap();
    fs::write(
        own.join("paused.txt"),
        "Subject: paused\n\n{{ nothing | no_such_filter }}\n",
    )
    .unwrap();
    let templates = Templates::new(Some(own));
    let poller = Poller {
        templates: &templates,
        limits: Limits {
            replies_per_hour: 1,
            ..Limits::default()
        },
        ..fx.poller()
    };
    let mut inbox = Maildir::open(fx.dir.path().join("inbox")).unwrap();
    for n in 1..=2 {
        let raw = format!(
            "From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\n\
             Message-ID: <help.{n}@example.org>\r\n\r\nhelp\r\n"
        );
        inbox.deliver(&format!("{n}.x"), raw.as_bytes()).unwrap();
    }
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    let r = poller.poll(&mut inbox, now, false).unwrap();
    assert_eq!((r.handled, r.errors.len()), (1, 1), "{r:?}");
    let e = &r.errors[0];
    assert!(
        e.starts_with("new/2.x (")
            && e.contains("template paused.txt: ")
            && e.contains("mend it in the `templates` folder")
            && e.ends_with("; left in the mailbox"),
        "{e}"
    );
    assert!(fx.dir.path().join("inbox/new/2.x").exists(), "left in new/");
    assert_eq!(fx.sink.0.lock().unwrap().len(), 1, "the first is answered");
}

/// A transport that may be used from another thread, noting each mail's
/// recipient and the thread it was sent from.
#[derive(Default)]
struct Threaded(Mutex<Vec<(Option<String>, String)>>);

impl Transport for Threaded {
    fn send(&self, env: &lettre::address::Envelope, _: &[u8]) -> Result<(), transport::SendError> {
        let thread = std::thread::current().name().map(str::to_string);
        let to = env.to().iter().map(ToString::to_string).collect();
        self.0.lock().unwrap().push((thread, to));
        Ok(())
    }

    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        Some(self)
    }
}

#[test]
fn a_poll_of_many_batches_sends_each_batch_while_it_handles_the_next() {
    let fx = Fixture::new();
    let threaded = Threaded::default();
    let poller = Poller {
        transport: &threaded,
        ..fx.poller()
    };
    let mut inbox = Maildir::open(fx.dir.path().join("inbox")).unwrap();
    let mails = 2 * BATCH + 40;
    for i in 0..mails {
        let raw = format!(
            "From: p{i}@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\n\
             Message-ID: <m{i}@example.org>\r\n\r\nhelp\r\n"
        );
        inbox.deliver(&format!("{i:04}.m"), raw.as_bytes()).unwrap();
    }
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    let r = poller.poll(&mut inbox, now, false).unwrap();
    assert_eq!((r.handled, r.errors.len()), (mails, 0), "{r:?}");
    assert_eq!(
        (r.sent, r.unsent, r.send_errors.len()),
        (mails, 0, 0),
        "{r:?}"
    );
    let sent = threaded.0.lock().unwrap();
    // Each mail's reply once, whichever thread sent it.
    let mut to: Vec<&String> = sent.iter().map(|(_, to)| to).collect();
    to.sort();
    to.dedup();
    assert_eq!((sent.len(), to.len()), (mails, mails), "one reply a mail");
    // The first two batches were released before the last was handled:
    // the sending thread took them.
    let early = sent
        .iter()
        .filter(|(t, _)| t.as_deref() == Some("pbem-send"))
        .count();
    assert!(early >= BATCH, "{early} replies sent during the poll");
    assert!(
        fs::read_dir(fx.store.outbox_ready())
            .unwrap()
            .next()
            .is_none(),
        "nothing left queued"
    );
}
