//! The outbox's tests: a batch's commit torn by a crash, recovered.

use super::*;
use crate::mail::templates::Templates;
use crate::transport::{SendError, Transport};
use lettre::address::Envelope;
use std::fs;
use std::sync::Mutex;

/// Takes mail, and counts the first sends ([`Transport::send_first`]).
#[derive(Default)]
struct Sink(Mutex<Vec<Vec<u8>>>, Mutex<usize>);

impl Transport for Sink {
    fn send(&self, _: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        self.0.lock().unwrap().push(raw.to_vec());
        Ok(())
    }

    fn send_first(&self, env: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        *self.1.lock().unwrap() += 1;
        self.send(env, raw)
    }
}

/// A data folder in a temporary folder and what an [`Outbox`] over it
/// needs, its replies taken by a [`Sink`].
struct Fixture {
    _dir: tempfile::TempDir,
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
            _dir: dir,
            store,
            identity: Identity::at("pbem@localhost"),
            templates: Templates::new(None),
            sink: Sink::default(),
        }
    }

    fn outbox(&self) -> Outbox<'_> {
        Outbox {
            store: &self.store,
            identity: &self.identity,
            templates: &self.templates,
            challenges: Default::default(),
        }
    }
}

#[test]
fn after_a_torn_batch_commit_only_the_committed_replies_leave_the_pack() {
    let fx = Fixture::new();
    let (store, sink, outbox) = (&fx.store, &fx.sink, fx.outbox());
    // A sealed batch of three mails, two replies each and held news
    // for two; the crash came after the keys of the first and last.
    let mut out = Outgoing::default();
    for (idx, who) in ["a", "b", "c"].iter().enumerate() {
        for n in 0..2 {
            let raw = format!(
                "From: pbem@localhost\r\nTo: {who}{n}@example.org\r\nSubject: x\r\n\r\nx\r\n"
            );
            out.pack.push(pack::Entry {
                id: pack::Id { idx, n },
                envelope: None,
                raw: raw.into_bytes(),
            });
        }
        if idx > 0 {
            out.held
                .push((pack::Id { idx, n: 2 }, format!("{{\"{who}\": 1}}")));
        }
    }
    out.listed = vec![
        (0, "<a@x>".into()),
        (1, "<b@x>".into()),
        (2, "<c@x>".into()),
    ];
    let folder = outbox.staging_folder("<a@x>");
    outbox.write_staging(&folder, &out).unwrap();
    let names = |d: &Path| {
        let mut n: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(&folder),
        [
            "0001.002.held.json",
            "0002.002.held.json",
            "keys",
            "replies"
        ]
    );
    store.mark_processed_all(&["<a@x>", "<c@x>"]).unwrap();
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    outbox.recover(now).unwrap();
    assert!(!folder.exists());
    assert_eq!(names(&store.outbox_staging()), Vec::<String>::new());
    let ready = names(&store.outbox_ready());
    assert_eq!(ready.len(), 1);
    let released = store.outbox_ready().join(&ready[0]);
    assert_eq!(names(&released), ["keys", "replies"]);
    let (kept, damage) = pack::decode(&fs::read(released.join(pack::FILE)).unwrap());
    assert_eq!(damage, None);
    let ids: Vec<String> = kept.iter().map(|e| e.id.to_string()).collect();
    assert_eq!(ids, ["0000.000", "0000.001", "0002.000", "0002.001"]);
    let digest = names(&store.outbox_digest());
    assert_eq!(digest.len(), 1, "{digest:?}");
    assert!(digest[0].ends_with("-0002.002.held.json"), "{digest:?}");
    assert!(store.remove_stale_temps() == 0, "no temporary file left");

    assert_eq!(queued(&store.outbox_ready()), 4);
    let f = flush(&store.outbox_ready(), sink);
    assert_eq!((f.sent, f.failed), (4, 0), "{f:?}");
    assert_eq!(
        *sink.1.lock().unwrap(),
        0,
        "a recovered batch: no first sends"
    );
    let sent = sink.0.lock().unwrap();
    let to: Vec<String> = sent
        .iter()
        .map(|m| {
            let m = String::from_utf8_lossy(m);
            m.split("To: ")
                .nth(1)
                .unwrap()
                .split('@')
                .next()
                .unwrap()
                .into()
        })
        .collect();
    assert_eq!(to, ["a0", "a1", "c0", "c1"]);
    assert_eq!(fs::read_dir(store.outbox_ready()).unwrap().count(), 0);
}

/// Takes mail, noting for each whether it came as a first send
/// ([`Transport::send_first`]); refuses the very first it is given, for
/// now, when `refuse_once`.
#[derive(Default)]
struct Calls {
    firsts: Mutex<Vec<bool>>,
    refuse_once: std::sync::atomic::AtomicBool,
}

impl Calls {
    fn take(&self, first: bool) -> Result<(), SendError> {
        self.firsts.lock().unwrap().push(first);
        match self
            .refuse_once
            .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            true => Err(SendError::down("not now")),
            false => Ok(()),
        }
    }
}

impl Transport for Calls {
    fn send(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
        self.take(false)
    }

    fn send_first(&self, _: &Envelope, _: &[u8]) -> Result<(), SendError> {
        self.take(true)
    }
}

/// A batch of two replies to `who`, staged, committed and released by
/// this process.
fn released(fx: &Fixture, who: &str) {
    let outbox = fx.outbox();
    let mut out = Outgoing::default();
    for n in 0..2 {
        let raw =
            format!("From: pbem@localhost\r\nTo: {who}{n}@example.org\r\nSubject: x\r\n\r\nx\r\n");
        out.pack.push(pack::Entry {
            id: pack::Id { idx: 0, n },
            envelope: None,
            raw: raw.into_bytes(),
        });
    }
    let key = format!("<{who}@x>");
    out.listed = vec![(0, key.clone())];
    let folder = outbox.staging_folder(&key);
    outbox.write_staging(&folder, &out).unwrap();
    fx.store.mark_processed_all(&[&key]).unwrap();
    let now = "2026-11-21T10:00:00Z".parse().unwrap();
    outbox.release_committed(Some(&folder), out, now).unwrap();
}

#[test]
fn only_a_batch_this_process_released_and_never_tried_goes_out_as_first_sends() {
    // Tried once and failed: the second flush may find what the first
    // delivered.
    let fx = Fixture::new();
    released(&fx, "a");
    let calls = Calls::default();
    calls
        .refuse_once
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let f = flush(&fx.store.outbox_ready(), &calls);
    assert_eq!((f.sent, f.failed, f.waiting), (0, 1, 1), "{f:?}");
    let f = flush(&fx.store.outbox_ready(), &calls);
    assert_eq!(f.sent, 2, "{f:?}");
    assert_eq!(*calls.firsts.lock().unwrap(), [true, false, false]);

    // Counting what waits tries nothing: the flush after it still sends
    // the batch's replies as first sends.
    let fx = Fixture::new();
    released(&fx, "b");
    assert_eq!(queued(&fx.store.outbox_ready()), 2);
    let calls = Calls::default();
    assert_eq!(flush(&fx.store.outbox_ready(), &calls).sent, 2);
    assert_eq!(*calls.firsts.lock().unwrap(), [true, true]);

    // A batch released by another process (here: put in `ready/` by
    // hand, as the recovery after a crash does) is no first send.
    let fx = Fixture::new();
    released(&fx, "c");
    let ready = fx.store.outbox_ready();
    let batch = fs::read_dir(&ready)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let moved = ready.join("20000101T000000000000-00000000-moved");
    fs::rename(&batch, &moved).unwrap();
    let calls = Calls::default();
    assert_eq!(flush(&ready, &calls).sent, 2);
    assert_eq!(*calls.firsts.lock().unwrap(), [false, false]);
}
