//! The poll's side of the records' git history ([`crate::history`]): a
//! commit once a poll's replies are sent, one after an admin's command,
//! and a catch-up at each recovery; and the push, never made with the
//! data folder's lock held. Whatever git does is logged, never passed
//! on: the history is tried again at the next call, and a move or a
//! reply never waits for it.

use super::Poller;
use crate::history::{History, HistoryError, Pushed, git::Limit};
use chrono::{DateTime, Utc};
use std::time::Duration;

/// The longest a command that ends when its work is done (`pbem poll`,
/// `pbem deliver`) spends on a push, once its replies are sent and the
/// lock let go: its exit (and cron's next run, or the mail server's
/// delivery) waits for it. A push cut short is made by the next one, or by
/// the daemon, which gives it the whole `[git] push_seconds`.
pub const ONE_SHOT_PUSH: Duration = Duration::from_secs(10);

impl Poller<'_> {
    /// Commits what the records hold that the history does not yet
    /// (`catch_up`: at a recovery, what a poll cut short left). Call with
    /// the data folder's lock held, after the replies are sent.
    pub fn record_history(&self, now: DateTime<Utc>, catch_up: bool) {
        let Some(history) = self.history else {
            return;
        };
        let line = crate::logging::line;
        match history.record(now) {
            Ok(Some((id, lines))) => {
                let event = if catch_up {
                    "git-caught-up"
                } else {
                    "git-commit"
                };
                log::info!(
                    "{}",
                    line(event, &[("commit", &id), ("lines", &lines.len())])
                );
            }
            Ok(None) => {}
            Err(e) => log::warn!("{}", line("git-failed", &[("error", &e)])),
        }
    }
}

/// Logs how a push went; `retry`: when the daemon tries a failed one
/// again (else the next poll does).
pub fn log_pushed(pushed: &Result<Pushed, HistoryError>, retry: Option<Duration>) {
    let line = crate::logging::line;
    match pushed {
        Ok(Pushed::Sent(id)) => log::info!("{}", line("git-pushed", &[("commit", id)])),
        Ok(Pushed::Busy) => log::info!(
            "{}",
            line(
                "git-push-busy",
                &[("why", &"another pbem pushes this history now")]
            )
        ),
        Ok(Pushed::Nothing) => {}
        Err(e) => match retry {
            Some(d) => log::warn!(
                "{}",
                line(
                    "git-push-failed",
                    &[("error", e), ("retry_s", &d.as_secs())]
                )
            ),
            None => log::warn!("{}", line("git-push-failed", &[("error", e)])),
        },
    }
}

/// The push of a command that ends when its work is done (`pbem poll`):
/// at most [`ONE_SHOT_PUSH`] (or `push_seconds`, when shorter). Call
/// without the data folder's lock.
pub fn push_once(history: &History) {
    if history.has_remote() {
        let limit = Limit {
            time: history.push_time().min(ONE_SHOT_PUSH),
            stop: None,
        };
        log_pushed(&history.push(limit), None);
    }
}
