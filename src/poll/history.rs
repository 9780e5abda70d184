//! The poll's side of the records' git history ([`crate::history`]):
//! a commit after each batch, after the clocks of a poll without mail,
//! after an admin's command, and a catch-up at each recovery. Whatever
//! git does is logged, never passed on: the history is tried again at
//! the next call, and a move never waits for it.

use super::Poller;
use chrono::{DateTime, Utc};

impl Poller<'_> {
    /// Commits what the records hold that the history does not yet
    /// (`catch_up`: at a recovery, when a failed push is tried again too).
    pub(super) fn record_history(&self, now: DateTime<Utc>, catch_up: bool) {
        let Some(history) = self.history else {
            return;
        };
        let line = crate::logging::line;
        match history.record(now, catch_up) {
            Ok(done) => {
                if let Some((id, lines)) = &done.commit {
                    let event = if catch_up {
                        "git-caught-up"
                    } else {
                        "git-commit"
                    };
                    log::info!(
                        "{}",
                        line(event, &[("commit", id), ("lines", &lines.len())])
                    );
                }
                if let Some(Err(e)) = &done.pushed {
                    log::warn!("{}", line("git-push-failed", &[("error", e)]));
                }
            }
            Err(e) => log::warn!("{}", line("git-failed", &[("error", &e)])),
        }
    }
}
