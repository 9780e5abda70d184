//! The ready queue's tests: flushes over packs, with transports that
//! fail in each way.

use super::*;
use crate::transport::{MaildirSink, SendError, SendErrorKind};
use lettre::address::Envelope;

/// A temporary data folder's `outbox/ready/`, made (its dead letters
/// go beside it).
fn outbox() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ready = dir.path().join("outbox/ready");
    fs::create_dir_all(&ready).unwrap();
    (dir, ready)
}

/// A transport whose server is away, counting the tries.
struct Away(std::cell::Cell<usize>);

impl Transport for Away {
    fn send(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
        self.0.set(self.0.get() + 1);
        Err(SendError::down("connection refused"))
    }
}

#[test]
fn a_flush_stops_at_a_transport_that_is_down_and_keeps_everything() {
    let (_tmp, dir) = outbox();
    let bob = "bob@example.org";
    for b in 0..3 {
        packed(
            &dir,
            &format!("batch{b}"),
            &[(0, 0, bob, "1"), (1, 0, bob, "2")],
        );
    }
    let away = Away(Default::default());
    let f = flush(&dir, &away);
    assert_eq!(away.0.get(), 1, "one try, not one time-out per mail");
    assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 5), "{f:?}");
    assert!(f.errors.last().unwrap().contains("5 more queued mails"));
    let kept: usize = (0..3)
        .map(|b| fs::read_dir(dir.join(format!("batch{b}"))).unwrap().count())
        .sum();
    assert_eq!(kept, 6, "every pack and its keys still queued");
    assert_eq!(queued(&dir), 6, "every mail still queued");
    let sink_dir = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(sink_dir.path());
    let f = flush(&dir, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (6, 0, 0), "{f:?}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "outbox empty");
}

/// A transport that takes every mail but those to `refused`, which it
/// refuses with the error of that kind (and, after `down_after` mails,
/// none: the server went away).
#[derive(Default)]
struct Sink {
    got: std::cell::RefCell<Vec<Vec<u8>>>,
    refused: Option<(&'static str, SendErrorKind)>,
    down_after: Option<usize>,
    tries: std::cell::Cell<usize>,
}

impl Transport for Sink {
    fn send(&self, env: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        self.tries.set(self.tries.get() + 1);
        if self.down_after == Some(self.got.borrow().len()) {
            return Err(SendError::down("connection refused"));
        }
        if let Some((r, kind)) = self.refused
            && env.to()[0].to_string() == r
        {
            let code = if kind == SendErrorKind::Permanent {
                550
            } else {
                450
            };
            return Err(SendError::new(kind, format!("{code} no such user {r}")));
        }
        self.got.borrow_mut().push(raw.to_vec());
        Ok(())
    }
}

impl Sink {
    /// The `X-N` header of each mail taken, in order.
    fn taken(&self) -> Vec<String> {
        self.got
            .borrow()
            .iter()
            .map(|m| {
                let m = String::from_utf8_lossy(m);
                m.split("X-N: ")
                    .nth(1)
                    .unwrap()
                    .split('\r')
                    .next()
                    .unwrap()
                    .into()
            })
            .collect()
    }
}

/// A reply to `to`, numbered `n` in an `X-N` header.
fn reply(to: &str, n: &str) -> Vec<u8> {
    format!("From: pbem@example.net\r\nTo: {to}\r\nX-N: {n}\r\nSubject: x\r\n\r\nx\r\n")
        .into_bytes()
}

/// A batch folder in `ready` as pbem makes it: a pack and `keys`.
fn packed(ready: &Path, name: &str, replies: &[(usize, usize, &str, &str)]) -> PathBuf {
    let dir = ready.join(name);
    fs::create_dir_all(&dir).unwrap();
    let entries: Vec<pack::Entry> = replies
        .iter()
        .map(|&(idx, n, to, tag)| {
            let raw = reply(to, tag);
            pack::Entry {
                id: pack::Id { idx, n },
                envelope: envelope_of(&raw).ok(),
                raw,
            }
        })
        .collect();
    fs::write(dir.join(pack::FILE), pack::encode(&entries)).unwrap();
    fs::write(dir.join("keys"), "0 <a@x>\n1 <b@x>\n").unwrap();
    dir
}

#[test]
fn a_flush_resumes_a_pack_after_the_replies_it_sent() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let a = "a@example.org";
    let dir = packed(r, "b1", &[(0, 0, a, "1"), (0, 1, a, "2"), (1, 0, a, "3")]);
    // A flush before sent the first two, then died; the second's
    // note was torn.
    fs::write(dir.join(pack::SENT), "0000.000\n0000.0").unwrap();
    assert_eq!(queued(r), 2);
    let sink = Sink::default();
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (2, 0, 0), "{f:?}");
    assert_eq!(sink.taken(), ["2", "3"]);
    assert_eq!(
        fs::read_dir(r).unwrap().count(),
        0,
        "the sent batch is gone"
    );
    assert_eq!(queued(r), 0);
}

#[test]
fn a_pack_keeps_what_failed_and_notes_what_went_out() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let (a, b) = ("a@example.org", "b@example.org");
    packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2"), (1, 0, a, "3")]);
    packed(r, "b2", &[(0, 0, a, "4"), (0, 1, a, "5")]);
    packed(r, "b3", &[(0, 0, b, "6")]);
    assert_eq!(queued_by_batch(r), [3, 2, 1]);

    // Bob's address is refused for now; the server goes away after 3
    // mails.
    let sink = Sink {
        refused: Some((b, SendErrorKind::Transient)),
        down_after: Some(3),
        ..Sink::default()
    };
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (3, 2, 1), "{f:?}");
    assert_eq!(sink.taken(), ["1", "3", "4"]);
    assert!(f.errors[0].ends_with("b1/replies: 0000.001: 450 no such user b@example.org"));
    assert!(f.errors[1].ends_with("b2/replies: 0000.001: connection refused"));
    assert!(f.errors[2].starts_with("1 more queued mails not tried"));
    assert_eq!(
        fs::read_to_string(r.join("b1").join(pack::SENT)).unwrap(),
        "0000.000\n0001.000\n"
    );
    assert_eq!(queued_by_batch(r), [1, 1, 1]);

    // Back: each waiting reply once, nothing sent twice.
    let sink = Sink::default();
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (3, 0, 0), "{f:?}");
    assert_eq!(sink.taken(), ["2", "5", "6"]);
    assert_eq!(fs::read_dir(r).unwrap().count(), 0, "outbox empty");
}

#[test]
fn packs_an_older_pbem_left_in_ready_go_out_beside_a_packed_one() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let a = "a@example.org";
    // Version 1 (no envelopes) and 2 (entries as they are), as an older
    // pbem wrote them, released before this one's packed batch.
    let (one, two) = (reply(a, "1"), reply(a, "2"));
    let v1 = [
        format!("pbem-pack 1\n0000.000 {}\n", one.len()).as_bytes(),
        &one,
        b"\n",
    ]
    .concat();
    let line = format!("0000.000 {} pbem@example.net {a}\n", two.len());
    let v2 = [b"pbem-pack 2\n", line.as_bytes(), &two, b"\n"].concat();
    for (name, bytes) in [("b1", v1), ("b2", v2)] {
        let dir = r.join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(pack::FILE), bytes).unwrap();
        fs::write(dir.join("keys"), "0 <a@x>\n").unwrap();
    }
    let dir = packed(r, "b3", &[(0, 0, a, "3")]);
    assert!(
        fs::read(dir.join(pack::FILE))
            .unwrap()
            .starts_with(b"pbem-pack 3\n")
    );
    assert_eq!(queued_by_batch(r), [1, 1, 1]);
    let sink = Sink::default();
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (3, 0, 0), "{f:?}");
    assert_eq!(sink.taken(), ["1", "2", "3"]);
    assert_eq!(fs::read_dir(r).unwrap().count(), 0, "outbox empty");
}

#[test]
fn a_damaged_pack_sends_what_reads_and_says_where_it_stops() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let a = "a@example.org";
    let dir = packed(r, "b1", &[(0, 0, a, "1"), (1, 0, a, "2")]);
    let file = dir.join(pack::FILE);
    // A chunk a reply, the second cut short.
    let (entries, _) = pack::decode(&fs::read(&file).unwrap());
    let bytes = pack::encode_in_chunks(&entries, 1);
    fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    packed(r, "b2", &[(0, 0, a, "3")]);
    assert_eq!(queued_by_batch(r), [1, 1]);
    let sink = Sink::default();
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (2, 1, 0), "{f:?}");
    assert_eq!(sink.taken(), ["1", "3"]);
    let offset = pack::encode_in_chunks(&entries[..1], 1).len();
    assert!(
        f.errors[0].contains(&format!(
            "b1/replies: damaged pack at byte {offset}: truncated: a chunk says"
        )),
        "{:?}",
        f.errors
    );
    // Kept for the admin, reported again, nothing sent twice.
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 0), "{f:?}");
    assert!(dir.exists());
    assert_eq!(queued(r), 0);
}

#[test]
fn a_refused_reply_goes_to_the_dead_letters_and_the_flush_goes_on() {
    let (tmp, ready) = outbox();
    let r = ready.as_path();
    let (a, b) = ("a@example.org", "b@example.org");
    packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2"), (1, 0, a, "3")]);
    packed(r, "b2", &[(0, 0, b, "4")]);
    let sink = Sink {
        refused: Some((b, SendErrorKind::Permanent)),
        ..Sink::default()
    };
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting, f.dead), (2, 0, 0, 2), "{f:?}");
    assert!(f.errors.is_empty(), "not an error of the poll: {f:?}");
    assert_eq!(sink.taken(), ["1", "3"]);
    assert_eq!(fs::read_dir(r).unwrap().count(), 0, "nothing queued");
    let dead_dir = tmp.path().join("outbox/dead");
    assert_eq!(dead::folder_of(r), dead_dir);
    let mut files: Vec<String> = fs::read_dir(&dead_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "b1.0000.001.eml",
            "b1.0000.001.txt",
            "b2.0000.000.eml",
            "b2.0000.000.txt"
        ]
    );
    assert_eq!(
        fs::read(dead_dir.join("b1.0000.001.eml")).unwrap(),
        reply(b, "2")
    );
    let note = fs::read_to_string(dead_dir.join("b1.0000.001.txt")).unwrap();
    let note = dead::Note::parse("note", &note).unwrap();
    assert_eq!(note.to, b);
    assert_eq!(note.subject, "x");
    assert!(
        note.error.ends_with("550 no such user b@example.org"),
        "{note:?}"
    );
    assert!(note.queued.ends_with("b1/replies: 0000.001"), "{note:?}");
    // Told about, once each; the next flush has nothing to do.
    assert_eq!(dead::untold(&dead_dir).0.len(), 2);
    let f = flush(r, &sink);
    assert_eq!(f, Flushed::default());
    assert_eq!(sink.tries.get(), 4);
}

#[test]
fn a_reply_buried_before_a_crash_is_neither_sent_nor_buried_again() {
    let (tmp, ready) = outbox();
    let r = ready.as_path();
    let (a, b) = ("a@example.org", "b@example.org");
    packed(r, "b1", &[(0, 0, a, "1"), (0, 1, b, "2")]);
    // The last flush buried Bob's reply, then died before noting it.
    let dead_dir = tmp.path().join("outbox/dead");
    let raw = reply(b, "2");
    let note = dead::Note::of(&raw, "550 no", "b1/replies: 0000.001", crate::clock::now());
    dead::bury(&dead_dir, "b1.0000.001", &raw, &note).unwrap();
    let sink = Sink::default();
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.dead), (1, 0, 0), "{f:?}");
    assert_eq!(sink.taken(), ["1"], "Bob's reply is not sent");
    assert_eq!(fs::read_dir(r).unwrap().count(), 0);
    assert_eq!(
        fs::read_dir(&dead_dir).unwrap().count(),
        2,
        "one dead letter"
    );
    // A reply refused, and one that has no To.
    let old = r.join("20261121T100000000000-00000000-00000000000000ab");
    fs::create_dir_all(&old).unwrap();
    let entries = [
        pack::Entry {
            id: pack::Id { idx: 0, n: 0 },
            envelope: None,
            raw: reply(b, "3"),
        },
        pack::Entry {
            id: pack::Id { idx: 1, n: 0 },
            envelope: None,
            raw: b"From: pbem@example.net\r\n\r\nx".to_vec(),
        },
    ];
    fs::write(old.join(pack::FILE), pack::encode(&entries)).unwrap();
    let sink = Sink {
        refused: Some((b, SendErrorKind::Permanent)),
        ..Sink::default()
    };
    let f = flush(r, &sink);
    assert_eq!((f.sent, f.failed, f.dead), (0, 0, 2), "{f:?}");
    assert!(!old.exists(), "both gone from the queue");
    let (letters, _) = dead::untold(&dead_dir);
    let names: Vec<&str> = letters.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "20261121T100000000000-00000000-00000000000000ab.0000.000",
            "20261121T100000000000-00000000-00000000000000ab.0001.000",
            "b1.0000.001",
        ]
    );
    assert_eq!(letters[1].note.to, "?");
    assert!(letters[1].note.error.contains("queued mail: no To"));
}

#[test]
fn a_refusal_that_is_not_the_mails_keeps_it_queued() {
    let (tmp, ready) = outbox();
    let r = ready.as_path();
    let b = "b@example.org";
    packed(r, "b1", &[(0, 0, b, "1"), (0, 1, b, "2")]);
    // As a wrong password is: Down, whatever its SMTP code.
    struct Refused;
    impl Transport for Refused {
        fn send(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
            Err(SendError::down(
                "SMTP AUTH: permanent error (535): 5.7.8 authentication failed",
            ))
        }
    }
    let f = flush(r, &Refused);
    assert_eq!((f.sent, f.failed, f.waiting, f.dead), (0, 1, 1, 0), "{f:?}");
    assert_eq!(queued(r), 2);
    assert!(!tmp.path().join("outbox/dead").exists());
}

/// A transport that keeps the envelopes it is given.
#[derive(Default)]
struct Envelopes(std::cell::RefCell<Vec<Envelope>>);

impl Transport for Envelopes {
    fn send(&self, env: &Envelope, _: &[u8]) -> Result<(), SendError> {
        self.0.borrow_mut().push(env.clone());
        Ok(())
    }
}

#[test]
fn a_reply_goes_out_under_the_envelope_it_was_staged_with_and_an_old_pack_under_its_headers() {
    let (_tmp, dir) = outbox();
    let staged = Envelope::new(
        Some("bounces@example.net".parse().unwrap()),
        vec!["carol@example.org".parse().unwrap()],
    )
    .unwrap();
    let entries = [
        // The headers say bob; the envelope it was built with, carol.
        pack::Entry {
            id: pack::Id { idx: 0, n: 0 },
            envelope: Some(staged.clone()),
            raw: reply("bob@example.org", "1"),
        },
        // A version-1 pack's entry: the headers give the envelope.
        pack::Entry {
            id: pack::Id { idx: 1, n: 0 },
            envelope: None,
            raw: reply("dave@example.org", "2"),
        },
    ];
    let b = dir.join("b1");
    fs::create_dir_all(&b).unwrap();
    fs::write(b.join(pack::FILE), pack::encode(&entries)).unwrap();
    let got = Envelopes::default();
    let f = flush(&dir, &got);
    assert_eq!((f.sent, f.failed), (2, 0), "{f:?}");
    let got = got.0.into_inner();
    assert_eq!(got[0], staged);
    assert_eq!(got[1].to()[0].to_string(), "dave@example.org");
    assert_eq!(got[1].from().unwrap().to_string(), "pbem@example.net");
}

#[test]
fn a_flush_in_rounds_tries_each_batch_once() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let (bob, carol) = ("bob@example.org", "carol@example.org");
    let sink = Sink {
        refused: Some(("carol@example.org", SendErrorKind::Transient)),
        ..Sink::default()
    };
    packed(r, "b0", &[(0, 0, bob, "1"), (1, 0, carol, "2")]);
    let mut sending = Sending::default();
    sending.round(r, &sink);
    assert_eq!(sink.tries.get(), 2);
    // A batch released since goes in the next round; the one that
    // failed waits for the next flush, not the next round.
    packed(r, "b1", &[(0, 0, bob, "3")]);
    sending.round(r, &sink);
    let f = sending.finish(r, &sink);
    assert_eq!(sink.tries.get(), 3, "no batch tried twice");
    assert_eq!(sink.taken(), ["1", "3"]);
    assert_eq!((f.sent, f.failed, f.waiting), (2, 1, 0), "{f:?}");
    assert_eq!(f.errors.len(), 1, "{f:?}");
    assert_eq!(queued(r), 1, "carol's reply still queued");
    assert_eq!(
        flush(r, &Sink::default()).sent,
        1,
        "and sent by the next flush"
    );
}

#[test]
fn a_flush_in_rounds_stops_at_a_transport_found_down_and_counts_the_rest() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let bob = "bob@example.org";
    packed(r, "b0", &[(0, 0, bob, "1"), (1, 0, bob, "2")]);
    let away = Away(Default::default());
    let mut sending = Sending::default();
    sending.round(r, &away);
    packed(
        r,
        "b1",
        &[(0, 0, bob, "3"), (1, 0, bob, "4"), (2, 0, bob, "5")],
    );
    sending.round(r, &away);
    let f = sending.finish(r, &away);
    assert_eq!(away.0.get(), 1, "one try in all");
    assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 4), "{f:?}");
    let told: Vec<&String> = f
        .errors
        .iter()
        .filter(|e| e.contains("more queued"))
        .collect();
    assert_eq!(told.len(), 1, "told once: {f:?}");
    assert!(told[0].contains("4 more queued mails"), "{f:?}");
    assert_eq!(queued(r), 5, "every mail still queued");
}

#[test]
fn a_flush_in_rounds_holds_deliveries_across_rounds_and_sends_each_once() {
    let (_tmp, ready) = outbox();
    let r = ready.as_path();
    let (bob, carol) = ("bob@example.org", "carol@example.org");
    let to = tempfile::tempdir().unwrap();
    let sink = MaildirSink::new(to.path());
    let new = |who: &str| {
        fs::read_dir(to.path().join(who).join("new"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    packed(r, "b0", &[(0, 0, bob, "1"), (1, 0, carol, "2")]);
    let mut sending = Sending::default();
    sending.round(r, &sink);
    assert_eq!((new(bob), new(carol)), (0, 0), "held until the settle");
    packed(r, "b1", &[(0, 0, bob, "3")]);
    // The held batch is not sent again by the next round.
    sending.round(r, &sink);
    let f = sending.finish(r, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (3, 0, 0), "{f:?}");
    assert_eq!((new(bob), new(carol)), (2, 1), "each reply once");
    assert_eq!(fs::read_dir(r).unwrap().count(), 0, "outbox empty");
}

/// A batch handed over as released ([`Released`]) goes out as it was
/// staged: its pack is not read back (garbled here, after the fact, it
/// would fail); when the transport is found down, what waits is counted
/// from the packs.
#[test]
fn a_batch_handed_over_goes_out_as_staged_without_its_pack_read_back() {
    let (_tmp, ready) = outbox();
    let bob = "bob@example.org";
    let handed = |name: &str, tags: [&str; 2]| {
        let dir = packed(&ready, name, &[(0, 0, bob, tags[0]), (1, 0, bob, tags[1])]);
        let replies = ReadyPack::read(dir.clone()).unwrap().replies;
        fs::write(dir.join(pack::FILE), b"pbem-pack 3\n12 garbled\n").unwrap();
        Released { dir, replies }
    };
    let mut sending = Sending::default();
    sending.hand_over(handed("b1", ["1", "2"]));
    let sink = Sink::default();
    let f = sending.finish(&ready, &sink);
    assert_eq!((f.sent, f.failed, f.waiting), (2, 0, 0), "{f:?}");
    let got = sink.got.borrow();
    let tags: Vec<bool> = (got.iter().zip(["X-N: 1", "X-N: 2"]))
        .map(|(raw, tag)| String::from_utf8_lossy(raw).contains(tag))
        .collect();
    assert_eq!(tags, [true, true]);
    assert!(!ready.join("b1").exists(), "all sent: the folder goes");

    // Down at the first reply, whose batch's second reply waits; the
    // next batch handed over is then read from its pack (garbled: a
    // failure, nothing more waiting), not sent.
    let mut sending = Sending::default();
    sending.hand_over(handed("b2", ["3", "4"]));
    sending.hand_over(handed("b3", ["5", "6"]));
    let f = sending.finish(&ready, &Away(Default::default()));
    assert_eq!((f.sent, f.failed, f.waiting), (0, 2, 1), "{f:?}");
    assert!(ready.join("b2").exists() && ready.join("b3").exists());
}
