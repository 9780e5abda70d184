//! A poll's replies sent while it goes on: once a batch is committed and
//! its replies released into the outbox's `ready/`, a thread of their own
//! hands them to the transport ([`Sending::round`]) while the poll
//! handles the next batch; the poll's end sends what is left
//! ([`Sending::finish`]). On a machine with two cores the poll's work and
//! the transport's (a Maildir's files made and synced, an SMTP
//! conversation) then take the time of the longer, not of both.
//!
//! Only for a poll of more than one batch, and a transport that may be
//! used from another thread ([`Transport::shared`]); otherwise everything
//! goes out at the end, as one flush. One thread sends at a time: the
//! rounds on the sending thread, then the last round once it has ended.

use crate::outbox::Sending;
use crate::transport::Transport;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread::{Scope, ScopedJoinHandle};

/// The sending thread of a poll, while there is one.
pub(super) struct Sender<'scope> {
    /// Tells the thread that a batch was released; dropped to end it.
    released: Option<mpsc::Sender<()>>,
    thread: Option<ScopedJoinHandle<'scope, Sending>>,
}

impl<'scope> Sender<'scope> {
    /// No thread: everything goes out at the poll's end.
    pub(super) fn none() -> Sender<'scope> {
        Sender {
            released: None,
            thread: None,
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
        let (tx, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("pbem-send".into())
            .spawn_scoped(scope, move || {
                let mut sending = Sending::default();
                while rx.recv().is_ok() {
                    while rx.try_recv().is_ok() {}
                    sending.round(&ready, transport);
                }
                sending
            });
        match thread {
            Ok(thread) => Sender {
                released: Some(tx),
                thread: Some(thread),
            },
            // No thread to be had: the replies go out at the end.
            Err(_) => Sender::none(),
        }
    }

    /// A batch's replies were released into `ready/`.
    pub(super) fn released(&self) {
        if let Some(tx) = &self.released {
            // A thread gone (it panicked) is found at the stop.
            let _ = tx.send(());
        }
    }

    /// Ends the thread once its round is done: what it sent, to finish
    /// at the poll's end; and why it failed, if it panicked (what it sent
    /// is then not counted; the end tries the rest).
    pub(super) fn stop(self) -> (Sending, Option<String>) {
        drop(self.released);
        match self.thread.map(ScopedJoinHandle::join) {
            None => (Sending::default(), None),
            Some(Ok(sending)) => (sending, None),
            Some(Err(panic)) => (
                Sending::default(),
                Some(format!(
                    "the thread sending replies stopped: {}",
                    super::panic_message(panic.as_ref())
                )),
            ),
        }
    }
}
