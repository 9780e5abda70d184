//! Waiting for mail: IMAP IDLE (RFC 2177) when the server has it, else a
//! nap, either ending early when the daemon is told to stop.

use super::*;

impl Imap {
    /// Waits up to `max` for the folder to change: IMAP IDLE (RFC 2177)
    /// when the server has it and `idle` is on, else a nap of
    /// `poll_seconds` (at most `max`). Returns early, with
    /// [`Wake::Stopped`], once `stop` is raised.
    ///
    /// # Errors
    /// A lost connection (dropped: the next call reconnects).
    pub fn wait(&mut self, max: Duration, stop: &AtomicBool) -> Result<Wake, ImapError> {
        let idle = self.config.idle && !self.idle_broken;
        if self.announced()? {
            return Ok(Wake::Changed);
        }
        let conn = self.conn()?;
        if !(idle && conn.caps.idle) {
            let nap = Duration::from_secs(self.config.poll_seconds).min(max);
            return Ok(nap_instead(stop, nap, max));
        }
        let Ok(outcome) = idle_until(conn, max, stop) else {
            self.idle_broken = true;
            self.conn = None;
            return Err(ImapError::Protocol {
                what: "IDLE",
                message: format!(
                    "the server's answer makes no sense; looking every {} s instead",
                    self.config.poll_seconds
                ),
            });
        };
        // IDLE leaves the socket without a read timeout.
        let _ = conn.socket.set_read_timeout(Some(IO_TIMEOUT));
        if stop.load(Ordering::Relaxed) {
            self.conn = None;
            return Ok(Wake::Stopped);
        }
        match outcome {
            Ok(WaitOutcome::MailboxChanged) => Ok(Wake::Changed),
            Ok(WaitOutcome::TimedOut) => Ok(Wake::TimedOut),
            Err(e) => {
                self.conn = None;
                Err(ImapError::Protocol {
                    what: "IDLE",
                    message: e.to_string(),
                })
            }
        }
    }

    /// Whether the server announced new mail (EXISTS, RECENT) since pbem
    /// last asked. Mail that came while pbem was busy was announced in the
    /// answers to its commands, and IDLE would not tell it again.
    ///
    /// # Errors
    /// A lost connection (dropped: the next call reconnects).
    fn announced(&mut self) -> Result<bool, ImapError> {
        let conn = self.conn()?;
        if let Err(e) = conn.session.noop() {
            self.conn = None;
            return Err(ImapError::protocol("NOOP")(e));
        }
        Ok(conn.session.take_all_unsolicited().any(|r| {
            matches!(
                r,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            )
        }))
    }
}

/// A nap of `nap` in place of IDLE, whose wait was up to `max`: one
/// shorter than `max` ends as a change, so that the folder is looked at
/// again.
fn nap_instead(stop: &AtomicBool, nap: Duration, max: Duration) -> Wake {
    if nap_unless(stop, nap) {
        Wake::Stopped
    } else if nap < max {
        Wake::Changed
    } else {
        Wake::TimedOut
    }
}

/// IMAP IDLE on `conn` for up to `max`; `Err` when the crate panicked on
/// an answer it could not read. IDLE blocks in a read; a watcher closes
/// the socket when `stop` is raised, which ends the read at once.
fn idle_until(
    conn: &mut Conn,
    max: Duration,
    stop: &AtomicBool,
) -> std::thread::Result<imap::error::Result<WaitOutcome>> {
    let socket = &conn.socket;
    let session = &mut conn.session;
    let over = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !over.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    let _ = socket.shutdown(Shutdown::Both);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        // The crate asserts a well-formed answer to IDLE; a server
        // that breaks it must not bring pbem down.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            session
                .idle()
                .timeout(max)
                .keepalive(false)
                .wait_while(stop_on_any)
        }));
        over.store(true, Ordering::Relaxed);
        r
    })
}

/// Sleeps `d` in short steps; true when `stop` was raised meanwhile.
pub fn nap_unless(stop: &AtomicBool, d: Duration) -> bool {
    let end = Instant::now() + d;
    while Instant::now() < end {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50).min(end - Instant::now()));
    }
    stop.load(Ordering::Relaxed)
}
