//! A poll's replies sent while it goes on: once a batch is committed and
//! its replies released into the outbox's `ready/`, a thread of their own
//! hands them to the transport ([`Sending::round`]) while the poll
//! handles the next batch; the poll's end sends what is left
//! ([`Sending::finish`]). The poll hands each batch it released over with
//! its replies as staged ([`Released`]), so that they are not read back
//! from the pack just written for a crash. On a machine with two cores the poll's work and
//! the transport's (a Maildir's files made and synced, an SMTP
//! conversation) then take the time of the longer, not of both.
//!
//! Only for a poll of more than one batch, and a transport that may be
//! used from another thread ([`Transport::shared`]); otherwise everything
//! goes out at the end, as one flush. One thread sends at a time: the
//! rounds on the sending thread, then the last round once it has ended.

use crate::outbox::{Released, Sending};
use crate::transport::Transport;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::{Scope, ScopedJoinHandle};

/// The most bytes of released replies that wait in memory to be handed
/// over ([`Released`]), about two batches of move mails: a batch
/// released beyond it is read back from its pack, as one released by
/// another process is, so that a transport slower than the poll does
/// not make the poll hold every reply it made.
const MAX_HANDED: usize = 4 << 20;

/// The sending thread of a poll, while there is one, and the replies
/// the poll released, handed over to be sent as they were staged.
pub(super) struct Sender<'scope> {
    /// Tells the thread that a batch was released, with its replies when
    /// they fit [`MAX_HANDED`]; dropped to end it.
    released: Option<mpsc::Sender<Option<Released>>>,
    thread: Option<ScopedJoinHandle<'scope, Sending>>,
    /// The bytes handed over to the thread and not yet taken by it.
    waiting: Arc<AtomicUsize>,
    /// Released batches kept for the poll's end: the last one, and all
    /// of them without a thread ([`Sender::keep`]).
    kept: RefCell<Vec<Released>>,
}

impl<'scope> Sender<'scope> {
    /// No thread: everything goes out at the poll's end.
    pub(super) fn none() -> Sender<'scope> {
        Sender {
            released: None,
            thread: None,
            waiting: Arc::default(),
            kept: RefCell::default(),
        }
    }

    /// A thread in `scope` that sends what is released into `ready` to
    /// `transport`, a round each time it is told
    /// ([`Sender::released`]); told several times during a round, it
    /// makes one more, which sends all of it.
    pub(super) fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        ready: PathBuf,
        transport: &'env (dyn Transport + Sync),
    ) -> Sender<'scope> {
        let (tx, rx) = mpsc::channel::<Option<Released>>();
        let waiting = Arc::new(AtomicUsize::new(0));
        let taken = waiting.clone();
        let thread = std::thread::Builder::new()
            .name("pbem-send".into())
            .spawn_scoped(scope, move || {
                let mut sending = Sending::default();
                let take = |released: Option<Released>, sending: &mut Sending| {
                    if let Some(r) = released {
                        taken.fetch_sub(r.bytes(), Ordering::Relaxed);
                        sending.hand_over(r);
                    }
                };
                while let Ok(released) = rx.recv() {
                    take(released, &mut sending);
                    while let Ok(released) = rx.try_recv() {
                        take(released, &mut sending);
                    }
                    sending.round(&ready, transport);
                }
                sending
            });
        match thread {
            Ok(thread) => Sender {
                released: Some(tx),
                thread: Some(thread),
                waiting,
                ..Sender::none()
            },
            // No thread to be had: the replies go out at the end.
            Err(_) => Sender::none(),
        }
    }

    /// A batch's replies were released into `ready/` (`released`: the
    /// batch, when one was): the thread sends them now, or the poll's
    /// end does when there is no thread.
    pub(super) fn released(&self, released: Option<Released>) {
        let Some(tx) = &self.released else {
            return self.keep(released);
        };
        let handed = released.filter(|r| {
            let bytes = r.bytes();
            let before = self.waiting.fetch_add(bytes, Ordering::Relaxed);
            let fits = before + bytes <= MAX_HANDED;
            if !fits {
                self.waiting.fetch_sub(bytes, Ordering::Relaxed);
            }
            fits
        });
        // A thread gone (it panicked) is found at the stop.
        let _ = tx.send(handed);
    }

    /// Keeps a released batch for the poll's end, within [`MAX_HANDED`]
    /// (one beyond is read back from its pack there).
    pub(super) fn keep(&self, released: Option<Released>) {
        if let Some(r) = released {
            let mut kept = self.kept.borrow_mut();
            if kept.iter().map(Released::bytes).sum::<usize>() + r.bytes() <= MAX_HANDED {
                kept.push(r);
            }
        }
    }

    /// Ends the thread once its round is done: what it sent, to finish
    /// at the poll's end, with the batches kept for it; and why it
    /// failed, if it panicked (what it sent is then not counted; the end
    /// tries the rest).
    pub(super) fn stop(self) -> (Sending, Option<String>) {
        drop(self.released);
        let (mut sending, stopped) = match self.thread.map(ScopedJoinHandle::join) {
            None => (Sending::default(), None),
            Some(Ok(sending)) => (sending, None),
            Some(Err(panic)) => (
                Sending::default(),
                Some(format!(
                    "the thread sending replies stopped: {}",
                    super::panic_message(panic.as_ref())
                )),
            ),
        };
        for released in self.kept.into_inner() {
            sending.hand_over(released);
        }
        (sending, stopped)
    }
}
