//! Recovery after a crash: what a poll or an admin's command left in
//! `outbox/staging/` finished or thrown away. Mail path: the outbox, run
//! before anything else by every poll and every admin's command, with the
//! data folder's lock held.
//!
//! Crash safety: a staging folder's `keys` ([`super::KEYS`]) lists its
//! mails; one without it was never sealed, so none of its mails was
//! committed. The replies of committed mails go to `ready/`, the others
//! are thrown away (their mails will be handled again). A folder of an
//! admin's command is committed when its record is on disk ([`Made`]):
//! its key is then committed too, as by a command that ran to the end.

use super::{KEYS, Outbox};
use crate::store::{Made, Processed, StoreError};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

impl Outbox<'_> {
    /// After a crash: the replies of committed mails go to `ready/`, the
    /// others are thrown away (their mails will be handled again); stale
    /// temporary files of the store go. Run with the lock held, before
    /// anything else: by every poll and every admin's command.
    ///
    /// # Errors
    /// Store failures: the rest is then done by the next recovery.
    pub fn recover(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.store.remove_stale_temps();
        let dir = self.store.outbox_staging();
        let Ok(entries) = fs::read_dir(&dir) else {
            return Ok(());
        };
        let found: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        if found.is_empty() {
            return Ok(());
        }
        let processed = self.store.processed()?;
        for p in found {
            self.recover_folder(&p, &processed, now)?;
        }
        Ok(())
    }

    /// One staging folder `p`: released with the replies of its committed
    /// mails, or, none committed, thrown away.
    fn recover_folder(
        &self,
        p: &Path,
        processed: &Processed,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        // An admin's command: committed when its record is on disk
        // ([`Made`]).
        let made = Made::read(p);
        let made_on_disk = match &made {
            Some(m) => self.store.made(m)?,
            None => false,
        };
        let mut keep = HashSet::new();
        let listed = fs::read_to_string(p.join(KEYS)).unwrap_or_default();
        let mut keys = Vec::new();
        for (i, key) in listed.lines().filter_map(|l| l.split_once(' ')) {
            let done = processed.contains(key)?;
            if (made_on_disk || done)
                && let Ok(i) = i.parse::<usize>()
            {
                keep.insert(i);
                if !done {
                    keys.push(key);
                }
            }
        }
        if !keys.is_empty() {
            // Its key committed, as by a command that ran to the end:
            // the release drops `made`.
            self.store.mark_processed_all(&keys)?;
        }
        if keep.is_empty() {
            if let Some(m) = &made {
                self.store.unmake(m)?;
            }
            let _ = fs::remove_dir_all(p);
        } else {
            // Not untried: its replies may have gone out before the crash.
            self.release(p, Some(&keep), now)?;
        }
        Ok(())
    }
}
