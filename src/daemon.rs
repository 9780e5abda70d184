//! The daemon's event loops (`pbem daemon`): wait for mail (inotify on a
//! Maildir's `new/`, IMAP IDLE or a nap), poll through the
//! [`Server`](crate::setup::Server), sweep every 30 seconds, back off
//! after failures, stop cleanly on SIGTERM or SIGINT. The top of the mail
//! path: everything below runs once per poll.
//!
//! With a `[git] remote`, the records' history is pushed by a thread of
//! its own ([`Pusher`]), rung after each poll: a remote that is slow or
//! never answers holds up no poll, no reply and no lock; a push that
//! failed is tried again after 1, 2, 4 ... 60 seconds.

use crate::config::InboxKind;
use crate::history::{History, Pushed, git::Limit};
use crate::mailbox::imap::{Imap, Wake, nap_unless};
use crate::mailbox::{Maildir, Source};
use crate::poll::{PollError, Report};
use crate::setup::Server;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The sweep: mail that came unannounced, replies waiting in the outbox.
const SWEEP: Duration = Duration::from_secs(30);

/// The wait before reconnecting after `failures` failures in a row: 1, 2,
/// 4 ... seconds, at most 60.
pub fn backoff(failures: u32) -> Duration {
    Duration::from_secs(1u64 << failures.saturating_sub(1).min(6)).min(Duration::from_secs(60))
}

/// Runs until SIGTERM or SIGINT (a poll under way is finished first):
/// watches the configured inbox and polls when mail arrives and at every
/// sweep. `interval`: how often to look at a Maildir where inotify is not
/// available.
///
/// # Errors
/// Signals that cannot be handled, an inbox that cannot be opened.
pub fn run(server: &Server, interval: Duration) -> anyhow::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTERM, Arc::clone(&stop))?;
    signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop))?;
    let polls = Polls {
        server,
        pusher: server
            .history
            .as_ref()
            .filter(|h| h.has_remote())
            .and_then(|h| Pusher::start(h.clone())),
    };
    let watched = match server.config.inbox.kind().map_err(anyhow::Error::msg) {
        Ok(InboxKind::Maildir(m)) => {
            let m = m.to_path_buf();
            watch_maildir(&polls, &m, interval, &stop)
        }
        Ok(InboxKind::Imap(i)) => {
            let imap = Imap::new(i.clone());
            watch_imap(&polls, imap, &stop);
            Ok(())
        }
        Err(e) => Err(e),
    };
    // A push under way is cut short: the next start makes it.
    if let Some(p) = polls.pusher {
        p.stop();
    }
    watched?;
    log::info!("daemon-stop");
    Ok(())
}

/// The daemon's polls: each one, then its pusher rung.
struct Polls<'a> {
    server: &'a Server,
    pusher: Option<Pusher>,
}

impl Polls<'_> {
    fn poll(&self, source: &mut dyn Source) -> Result<Report, PollError> {
        let report = self.server.poll_unpushed(source, true);
        match (&self.pusher, &self.server.history) {
            (Some(p), _) => p.ring(),
            // No thread could be had: pushed as `pbem poll` does.
            (None, Some(h)) => crate::poll::history::push_once(h),
            (None, None) => {}
        }
        report
    }
}

/// The thread that pushes the records' history: at the daemon's start,
/// then whenever rung (after each poll, which may have committed; a
/// commit of an admin's command is found by the next poll's ring), and
/// again after a failure, 1, 2, 4 ... 60 seconds later (rings meanwhile
/// wait for that time: a broken remote is not tried at every mail). Its
/// pushes never take the data folder's lock, and one push at a time.
struct Pusher {
    bell: Arc<Bell>,
    thread: std::thread::JoinHandle<()>,
}

/// What the daemon tells its pusher.
struct Bell {
    /// A push is asked for.
    rung: Mutex<bool>,
    cond: Condvar,
    /// The daemon stops: the push under way is killed, the thread ends.
    quit: AtomicBool,
}

impl Pusher {
    /// The pusher of `history`, started; `None` (logged) when no thread
    /// can be had.
    fn start(history: History) -> Option<Pusher> {
        let bell = Arc::new(Bell {
            rung: Mutex::new(true),
            cond: Condvar::new(),
            quit: AtomicBool::new(false),
        });
        let b = Arc::clone(&bell);
        let thread = std::thread::Builder::new()
            .name("git-push".into())
            .spawn(move || push_loop(&history, &b));
        match thread {
            Ok(thread) => Some(Pusher { bell, thread }),
            Err(e) => {
                log::warn!(
                    "{}",
                    crate::logging::line("git-push-thread", &[("error", &e)])
                );
                None
            }
        }
    }

    /// Asks for a push (made at once, or when a failed one is due again).
    fn ring(&self) {
        *self
            .bell
            .rung
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = true;
        self.bell.cond.notify_one();
    }

    /// Stops the pusher, killing a push under way, and waits for it.
    fn stop(self) {
        {
            // Under the bell's lock: the pusher looks at `quit` with it
            // held, then waits; a raise between the two would be missed.
            let _rung = self
                .bell
                .rung
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.bell.quit.store(true, Ordering::Relaxed);
        }
        self.bell.cond.notify_one();
        let _ = self.thread.join();
    }
}

/// The pusher's thread: waits for a ring (or a retry's time), pushes,
/// until the daemon stops.
fn push_loop(history: &History, bell: &Bell) {
    let mut failures = 0u32;
    let mut retry_at: Option<Instant> = None;
    while wait_for_ring(bell, retry_at) {
        let limit = Limit {
            time: history.push_time(),
            stop: Some(&bell.quit),
        };
        let pushed = history.push(limit);
        let retry = match &pushed {
            Ok(Pushed::Sent(_) | Pushed::Nothing) => None,
            Ok(Pushed::Busy) | Err(_) => {
                failures = failures.saturating_add(1);
                Some(backoff(failures))
            }
        };
        if retry.is_none() {
            failures = 0;
        }
        if !bell.quit.load(Ordering::Relaxed) {
            crate::poll::history::log_pushed(&pushed, retry);
        }
        retry_at = retry.map(|d| Instant::now() + d);
    }
}

/// Waits until a push is due: at `retry_at` when a failed one waits,
/// else at the next ring. `false`: the daemon stops.
fn wait_for_ring(bell: &Bell, retry_at: Option<Instant>) -> bool {
    let mut rung = bell.rung.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if bell.quit.load(Ordering::Relaxed) {
            return false;
        }
        let now = Instant::now();
        match retry_at {
            Some(t) if now >= t => break,
            Some(t) => {
                rung = bell
                    .cond
                    .wait_timeout(rung, t - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            None if *rung => break,
            None => rung = bell.cond.wait(rung).unwrap_or_else(PoisonError::into_inner),
        }
    }
    *rung = false;
    true
}

/// inotify on `maildir/new`, if it can be had (else `None`, logged).
fn watch_new(new_dir: &Path, interval: Duration) -> Option<inotify::Inotify> {
    let w = inotify::Inotify::init().ok()?;
    if let Err(e) = w.watches().add(
        new_dir,
        inotify::WatchMask::CREATE | inotify::WatchMask::MOVED_TO,
    ) {
        log::warn!(
            "{}",
            crate::logging::line(
                "no-inotify",
                &[("error", &e), ("interval_ms", &interval.as_millis())]
            )
        );
        return None;
    }
    Some(w)
}

/// The Maildir loop: poll when mail arrives and at every sweep, until
/// `stop` is raised.
fn watch_maildir(
    polls: &Polls<'_>,
    maildir: &Path,
    interval: Duration,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let mut md = Maildir::open(maildir)?;
    log::info!(
        "{}",
        crate::logging::line("daemon-start", &[("maildir", &maildir.display())])
    );
    // inotify tells of mail arriving in new/ (delivered there, or
    // renamed in from tmp/); a sweep every 30 s catches the rest: mail
    // an IMAP server moved to cur/, replies waiting in the outbox.
    let new_dir = maildir.join("new");
    let mut watch = watch_new(&new_dir, interval);
    let mut buffer = [0u8; 4096];
    let mut last_poll: Option<std::time::Instant> = None;
    let mut last_mtime = None;
    // The bot's moves or analyses a poll left for the next (its think
    // time spent).
    let mut bots_waiting = false;
    while !stop.load(Ordering::Relaxed) {
        let arrived = match &mut watch {
            Some(w) => w
                .read_events(&mut buffer)
                .map(|ev| ev.count() > 0)
                .unwrap_or(false),
            None => {
                let m = std::fs::metadata(&new_dir).and_then(|m| m.modified()).ok();
                let changed = m != last_mtime;
                last_mtime = m;
                changed
            }
        };
        if arrived || bots_waiting || last_poll.is_none_or(|t| t.elapsed() >= SWEEP) {
            last_poll = Some(std::time::Instant::now());
            bots_waiting = false;
            match polls.poll(&mut md) {
                Ok(r) => {
                    bots_waiting = r.bot_work_waiting();
                    log_report(&r, true);
                }
                Err(e) => {
                    log::error!("{}", crate::logging::line("poll-failed", &[("error", &e)]))
                }
            }
            continue;
        }
        match &watch {
            // Until a mail arrives (answered at once, not at the next
            // look), a signal, or a look at `stop` and the sweep.
            Some(w) => {
                let sweep = last_poll.map_or(Duration::ZERO, |t| SWEEP.saturating_sub(t.elapsed()));
                wait_readable(w, sweep.min(Duration::from_millis(250)));
            }
            None => std::thread::sleep(interval),
        }
    }
    Ok(())
}

/// Waits until `fd` can be read, at most `timeout` (or until a signal).
fn wait_readable(fd: &impl std::os::fd::AsFd, timeout: Duration) {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    });
    // An error or a signal only ends the wait early.
    let _ = poll(&mut fds, Some(&timeout));
}

/// The IMAP loop: poll, then wait (IDLE or a nap); on a failure, log it
/// and wait 1, 2, 4 ... s before the next try. Never gives up, never
/// panics; returns when `stop` is raised.
fn watch_imap(polls: &Polls<'_>, mut imap: Imap, stop: &AtomicBool) {
    let what = imap.config().describe();
    log::info!(
        "{}",
        crate::logging::line("daemon-start", &[("imap", &what)])
    );
    let mut failures = 0u32;
    let retry = |failures: u32, e: &dyn std::fmt::Display| {
        let d = backoff(failures);
        log::warn!(
            "{}",
            crate::logging::line(
                "inbox-failed",
                &[
                    ("error", e),
                    ("retry_s", &d.as_secs()),
                    ("failures", &failures)
                ]
            )
        );
        nap_unless(stop, d)
    };
    while !stop.load(Ordering::Relaxed) {
        match polls.poll(&mut imap) {
            Ok(r) => {
                if failures > 0 {
                    log::info!("{}", crate::logging::line("inbox-back", &[("imap", &what)]));
                }
                failures = 0;
                log_report(&r, true);
                // The bot's work left by this poll: the next poll at once.
                if r.bot_work_waiting() {
                    continue;
                }
            }
            Err(e) => {
                failures += 1;
                if retry(failures, &e) {
                    break;
                }
                continue;
            }
        }
        match imap.wait(SWEEP, stop) {
            Ok(Wake::Stopped) => break,
            Ok(Wake::Changed | Wake::TimedOut) => {}
            Err(e) => {
                failures += 1;
                if retry(failures, &format!("IMAP connection lost: {e}")) {
                    break;
                }
            }
        }
    }
    imap.logout();
}

/// Logs a poll's report: each mail's line, the errors, and a summary
/// (at debug level when `quiet` and nothing failed: the daemon's sweeps).
pub fn log_report(r: &Report, quiet: bool) {
    use crate::logging::line;
    for l in &r.log {
        log::info!("{l}");
    }
    for e in &r.errors {
        log::error!("{}", line("not-processed", &[("error", e)]));
    }
    for e in &r.send_errors {
        log::warn!("{}", line("not-sent", &[("error", e)]));
    }
    let failed = r.errors.len();
    let mut fields: Vec<(&str, &dyn std::fmt::Display)> = vec![
        ("handled", &r.handled),
        ("refused", &r.refused),
        ("already", &r.skipped),
        ("failed", &failed),
        ("sent", &r.sent),
        ("waiting", &r.unsent),
    ];
    // Replies the reply limits held back, only when there are
    // some: the usual line stays as it was.
    if r.limited > 0 {
        fields.push(("limited", &r.limited));
    }
    let summary = line("poll", &fields);
    if r.failed() {
        log::warn!("{summary}");
    } else if quiet {
        log::debug!("{summary}");
    } else {
        log::info!("{summary}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn backoff_doubles_up_to_a_minute() {
        let secs: Vec<u64> = (1..=9).map(|n| super::backoff(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(super::backoff(u32::MAX).as_secs(), 60);
    }
}
