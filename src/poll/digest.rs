//! Digests ("a daily or per-poll digest option for players with
//! many games, instead of one mail per event"). A player who sent
//! `digest per-poll` or `digest daily 08:00` gets the news of their games
//! (the opponent's moves, reminders, results) gathered into one mail; the
//! answers to their own mails still come at once.
//!
//! Mail path: after the poll's mails, the news the outbox held
//! ([`crate::outbox::held`]) gathered into one mail per player and handed
//! back to the outbox like any reply. At the end of each poll
//! [`crate::timecontrol::release`] decides what goes out.
//!
//! Crash safety: a digest is committed under a key naming its items
//! before they are removed, so a crash in between sends it once.

use super::{PollError, Poller, Report};
use crate::outbox::held::{self, Held};
use crate::outbox::{Hold, sync_dir};
use crate::reply::{Reply, address_of};
use crate::store::{Processed, StoreError, io_err as io, stable_hash};
use crate::timecontrol::{self, DigestBatch, DigestMode, DigestPrefs, HeldNews};
use chrono::{DateTime, Utc};
use minijinja::context;
use std::fs;
use std::path::{Path, PathBuf};

/// A held news item: its file in the digest folder, and what it holds.
type Item = (PathBuf, Held);

impl Poller<'_> {
    /// Sends the digests that are due at `now` (and, for players who
    /// turned digests off since, what they still had waiting).
    ///
    /// # Errors
    /// The digest folder that cannot be read; a digest that cannot be
    /// rendered or committed (its items wait for the next poll).
    pub(super) fn send_digests(
        &self,
        processed: &Processed,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), PollError> {
        let dir = self.store.outbox_digest();
        let queue = held_news(&dir, report)?;
        if queue.is_empty() {
            return Ok(());
        }
        let released = timecontrol::release(queue, now, |r| match self.store.player(r) {
            Ok(p) => DigestPrefs {
                mode: p.digest,
                zone: p.zone,
            },
            Err(_) => DigestPrefs {
                mode: DigestMode::Off,
                zone: None,
            },
        });
        for batch in released.send {
            self.send_digest(&batch, processed, now, report)?;
        }
        sync_dir(&dir);
        Ok(())
    }

    /// One recipient's items released together: committed as one mail
    /// (an item alone as itself) under a key naming them, unless that key
    /// is committed already (a crash after the commit), then their files
    /// removed.
    fn send_digest(
        &self,
        batch: &DigestBatch<Item>,
        processed: &Processed,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), PollError> {
        let names: Vec<String> = batch
            .items
            .iter()
            .map(|(p, _)| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string()
            })
            .collect();
        let key = format!("digest:{:016x}", stable_hash(names.join(" ").as_bytes()));
        let count = batch.items.len();
        if !processed.contains(&key)? {
            let mut items: Vec<Held> = batch.items.iter().map(|(_, h)| h.clone()).collect();
            let reply = if items.len() == 1 {
                items.remove(0).into_reply()
            } else {
                self.digest_of(&items)?
            };
            self.commit_as(&key, &[reply], None, None, now, Hold::Never)?;
            processed.insert(&key);
        }
        for (p, _) in &batch.items {
            let _ = fs::remove_file(p);
        }
        report.log.push(crate::logging::line(
            "digest",
            &[("key", &key), ("to", &batch.recipient), ("items", &count)],
        ));
        Ok(())
    }

    /// One mail gathering `items` (news for one player).
    fn digest_of(&self, items: &[Held]) -> Result<Reply, PollError> {
        let shown: Vec<_> = items
            .iter()
            .map(|h| {
                // The per-mail footer ("reply to this mail ...") does not
                // hold in a digest; each item says where to answer.
                let text = h.text.split("\n--\n").next().unwrap_or(&h.text).trim_end();
                context! { subject => h.subject.clone(), text, game => h.game.clone(), reply_to => h.reply_to.clone() }
            })
            .collect();
        let rendered = self
            .templates
            .render("digest", context! { items => shown, count => items.len() })?;
        Ok(Reply {
            kind: crate::reply::Kind::News,
            to: items[0].to.clone(),
            rendered,
            game: None,
            reply_to: None,
            head: None,
        })
    }
}

/// The news items held in the digest folder `dir`, oldest first (by file
/// name); a file that does not read is reported and left in place.
///
/// # Errors
/// The folder that cannot be read.
fn held_news(dir: &Path, report: &mut Report) -> Result<Vec<HeldNews<Item>>, StoreError> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(held::SUFFIX))
        .collect();
    files.sort();
    let mut queue = Vec::with_capacity(files.len());
    for f in files {
        let held: Held = match fs::read_to_string(&f)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(h) => h,
            Err(e) => {
                report
                    .errors
                    .push(format!("{}: {e}; left in place", f.display()));
                continue;
            }
        };
        queue.push(HeldNews {
            recipient: address_of(&held.to),
            at: held.at,
            urgent: held.urgent,
            item: (f, held),
        });
    }
    Ok(queue)
}
