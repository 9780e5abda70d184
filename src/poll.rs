//! One poll: every pending mail processed exactly once, then the outbox
//! sent (issue 3, "Exactly once").
//!
//! Mails are handled in batches of up to [`BATCH`]. For each mail:
//! 1. its key (Message-ID, else a hash of the bytes) already committed?
//!    then only step 5 is left;
//! 2. the adjudicator writes the game record (a temporary file, synced,
//!    renamed over the old record);
//! 3. the replies are written to `outbox/staging/<key>/`.
//!
//! Then, once for the whole batch (issue 6, "Fast at every size"):
//! 4. the file system is synced ([`Store::sync`]): every record, rename
//!    and staged reply of the batch is on disk; only then are the keys
//!    appended to `processed.log` and synced: the commit point; the
//!    staging folders are renamed into `outbox/ready/`;
//! 5. the mails are marked done in their mailbox ([`Source::done`]): a
//!    Maildir's leave `new/` (moved to `cur/`, flagged Seen), an IMAP mail
//!    is flagged `\Seen` or moved to the processed folder.
//!
//! A crash before 4 leaves the keys uncommitted: the staging folders are
//! thrown away at the next start and the mails handled again, and the
//! adjudicator sees their Message-IDs already in the records (where the
//! writes survived) and changes nothing twice. A crash in the middle of 4
//! may commit some keys of the batch and not others; each committed one
//! has its record and replies on disk already. A crash after 4 finds the
//! staging folders committed and moves them to `ready/`. So a move is
//! never lost or doubled, no reply is queued before its record is
//! durable, and each reply is queued once. One poll at a time: the data
//! folder's lock.

use crate::adjudicate::{Adjudicator, Identity};
use crate::mail::{inbound, outbound, templates::Templates};
use crate::mailbox::{Pending, Source};
use crate::store::{Store, StoreError, stable_hash};
use crate::transport::{self, Transport};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Mails handled before their keys are committed together: one file
/// system sync and one append to `processed.log` per batch instead of
/// several per mail. A crash makes the next poll handle again at most this
/// many mails (each found in its record, so nothing is applied twice).
pub const BATCH: usize = 128;

/// Numbers the batches of replies this process releases, so that they go
/// out in the order their mails were handled, also within one poll (whose
/// `now` is one instant) rather than in the order of their keys' hashes.
static RELEASED: AtomicU64 = AtomicU64::new(0);

mod digest;

use digest::Hold;

/// What a poll did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Mails handled (answered or dropped on purpose).
    pub handled: usize,
    /// Of those, mails whose command was refused or that were dropped.
    pub refused: usize,
    /// Mails already processed (found again after a crash).
    pub skipped: usize,
    /// Mails that could not be processed (left in the mailbox).
    pub errors: Vec<String>,
    pub sent: usize,
    pub send_errors: Vec<String>,
    /// One line per mail: its fate.
    pub log: Vec<String>,
}

impl Report {
    /// Whether anything failed: a mail left unprocessed or a reply unsent.
    pub fn failed(&self) -> bool {
        !self.errors.is_empty() || !self.send_errors.is_empty()
    }
}

/// Everything a poll needs.
pub struct Poller<'a> {
    pub store: &'a Store,
    pub identity: &'a Identity,
    pub templates: &'a Templates,
    pub transport: &'a dyn Transport,
}

/// The key that makes a mail "the same mail" across runs.
pub fn mail_key(raw: &[u8], message_id: Option<&str>) -> String {
    match message_id {
        Some(id) if id.len() > 2 && id.len() < 500 => id
            .chars()
            .filter(|c| !c.is_control() && *c != ' ')
            .collect(),
        _ => format!("sha:{:016x}", stable_hash(raw)),
    }
}

fn sync_dir(p: &Path) {
    if let Ok(d) = fs::File::open(p) {
        let _ = d.sync_all();
    }
}

impl Poller<'_> {
    /// Processes every pending mail of `source`, then flushes the outbox.
    /// Keeps going past a bad mail (STYLE.md habit 9).
    ///
    /// # Errors
    /// Only when the lock or the store cannot be used at all.
    pub fn poll(
        &self,
        source: &mut dyn Source,
        now: DateTime<Utc>,
        wait_for_lock: bool,
    ) -> Result<Report, StoreError> {
        let _lock = self.store.lock(wait_for_lock)?;
        let mut report = Report::default();
        self.recover(now)?;
        let mut processed = self.store.processed()?;
        let pending = source
            .pending()
            .map_err(|e| StoreError::Invalid(format!("cannot read the mailbox: {e}")))?;
        // Opened before anything of the batch is written: its sync reports
        // any write-back error since.
        let store = self.store.batch()?;
        let adj = Adjudicator {
            store: &store,
            identity: self.identity,
            templates: self.templates,
            now,
        };
        // Clocks first: a deadline that passed before this poll is a loss
        // on time, whatever mail comes in it.
        self.tick_clocks(&adj, &mut processed, now, &mut report)?;
        let mut batch = Batch::default();
        for mail in pending {
            let parsed = inbound::parse(&mail.raw);
            let key = mail_key(
                &mail.raw,
                parsed.as_ref().ok().and_then(|m| m.message_id.as_deref()),
            );
            if processed.contains(&key) {
                report.skipped += 1;
                if let Err(e) = source.done(&mail) {
                    report
                        .errors
                        .push(format!("{}: cannot mark as done: {e}", mail.name));
                }
                continue;
            }
            if batch.keys.contains(&key) {
                // The same mail twice in one batch: done with the first.
                report.skipped += 1;
                batch.twins.push(mail);
                continue;
            }
            let outcome = match &parsed {
                Err(e) => Ok((Vec::new(), format!("dropped: {e}"), true)),
                Ok(m) => adj.handle(m).map(|h| (h.replies, h.fate, h.failed)),
            };
            let (replies, fate, refused) = match outcome {
                Ok(x) => x,
                Err(e) => {
                    report
                        .errors
                        .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
                    continue;
                }
            };
            let from = parsed
                .as_ref()
                .ok()
                .and_then(|m| m.from.clone())
                .unwrap_or_else(|| "?".into());
            if batch.folders.contains(&self.staging_of(&key)) {
                // Two keys, one hash: the first one's replies must not be
                // replaced before they are committed and released.
                self.commit_batch(&store, &mut batch, source, &mut processed, &mut report, now);
            }
            let hold = Hold::News { urgent: false };
            let staging = match self.stage(&key, &replies, parsed.as_ref().ok(), now, hold) {
                Ok(dir) => dir,
                Err(e) => {
                    report
                        .errors
                        .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
                    continue;
                }
            };
            let log = crate::logging::line(
                "mail",
                &[
                    ("key", &key),
                    ("from", &from),
                    ("replies", &replies.len()),
                    ("fate", &fate),
                ],
            );
            batch.keys.insert(key.clone());
            batch.folders.extend(staging.clone());
            batch.mails.push(Staged {
                key,
                staging,
                mail,
                refused,
                log,
            });
            if batch.mails.len() >= BATCH {
                self.commit_batch(&store, &mut batch, source, &mut processed, &mut report, now);
            }
        }
        self.commit_batch(&store, &mut batch, source, &mut processed, &mut report, now);
        if let Err(e) = store.finish() {
            report.errors.push(format!("deadline index: {e}"));
        }
        if let Err(e) = self.send_digests(&mut processed, now, &mut report) {
            report.errors.push(format!("digests: {e}"));
        }
        let flushed = transport::flush(&self.store.outbox_ready(), self.transport);
        report.sent = flushed.sent;
        report.send_errors = flushed.errors;
        Ok(report)
    }

    /// Steps 4 and 5 for a batch: sync, commit the keys, release the
    /// replies, mark the mails done. On a failure before the commit the
    /// whole batch is left in the mailbox (its staged replies are thrown
    /// away at the next start).
    fn commit_batch(
        &self,
        store: &Store,
        batch: &mut Batch,
        source: &mut dyn Source,
        processed: &mut HashSet<String>,
        report: &mut Report,
        now: DateTime<Utc>,
    ) {
        let Batch { mails, twins, .. } = std::mem::take(batch);
        if mails.is_empty() {
            return;
        }
        let committed = store.sync().and_then(|()| {
            let keys: Vec<&str> = mails.iter().map(|m| m.key.as_str()).collect();
            self.store.mark_processed_all(&keys)
        });
        if let Err(e) = committed {
            for m in &mails {
                report.errors.push(format!(
                    "{} ({}): {e}; left in the mailbox",
                    m.mail.name, m.key
                ));
            }
            report.skipped -= twins.len();
            for t in &twins {
                report
                    .errors
                    .push(format!("{}: {e}; left in the mailbox", t.name));
            }
            return;
        }
        for m in &mails {
            processed.insert(m.key.clone());
            report.handled += 1;
            if m.refused {
                report.refused += 1;
            }
            report.log.push(m.log.clone());
            // Committed: a release that fails here is done by the next
            // poll's recovery.
            if let Some(staging) = &m.staging
                && let Err(e) = self.release(staging, now)
            {
                report
                    .errors
                    .push(format!("{} ({}): {e}", m.mail.name, m.key));
            }
        }
        self.sync_outbox();
        for mail in mails.iter().map(|m| &m.mail).chain(&twins) {
            if let Err(e) = source.done(mail) {
                report
                    .errors
                    .push(format!("{}: cannot mark as done: {e}", mail.name));
            }
        }
        if let Err(e) = source.flush() {
            report
                .errors
                .push(format!("the mailbox: cannot sync the done marks: {e}"));
        }
    }

    /// Sends what the game clocks owe (reminders, final notices, losses
    /// on time), each once: its mails are committed under the notice's
    /// key before the record and the clock are written, so a crash in
    /// between sends nothing twice and the next poll finishes the rest.
    /// A game whose clock fails is reported and the others go on.
    ///
    /// Only the clocks the deadline index names are read
    /// ([`Store::due_clocks`]); one that owes nothing has its marker moved
    /// on.
    ///
    /// # Errors
    /// Only when the deadline index cannot be read.
    fn tick_clocks(
        &self,
        adj: &Adjudicator<'_>,
        processed: &mut HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        let policy = &self.identity.clocks;
        let mut seen = HashSet::new();
        for (id, marker) in self.store.due_clocks(now, policy)? {
            let done = (|| -> Result<Option<crate::adjudicate::Tick>, String> {
                let due = if seen.insert(id.clone()) {
                    adj.clock_due(&id).map_err(|e| e.to_string())?
                } else {
                    None
                };
                let Some(tick) = due else {
                    // Through the batch view: the marker goes once the
                    // clock that replaced it is durable.
                    adj.store
                        .recheck_due(&id, &marker, policy)
                        .map_err(|e| e.to_string())?;
                    return Ok(None);
                };
                if !processed.contains(&tick.key) {
                    let hold = Hold::News {
                        urgent: tick.urgent,
                    };
                    self.commit_as(&tick.key, &tick.replies, None, now, hold)
                        .map_err(|e| e.to_string())?;
                    processed.insert(tick.key.clone());
                }
                if let Some(text) = &tick.record {
                    self.store
                        .write_game(&id, text)
                        .map_err(|e| e.to_string())?;
                }
                self.store
                    .write_clock(&id, &tick.clock, &self.identity.clocks)
                    .map_err(|e| e.to_string())?;
                Ok(Some(tick))
            })();
            match done {
                Ok(None) => {}
                Ok(Some(tick)) => report.log.push(crate::logging::line(
                    "clock",
                    &[
                        ("key", &tick.key),
                        ("replies", &tick.replies.len()),
                        ("fate", &tick.fate),
                    ],
                )),
                Err(e) => report.errors.push(format!("clock of {id}: {e}")),
            }
        }
        Ok(())
    }

    /// Stages the replies, commits the key, releases the replies (also
    /// used for the admin's commands, with `mail = None`).
    ///
    /// # Errors
    /// Store failures: the key is then not committed, or committed with
    /// its replies left for the next poll's recovery to release.
    pub fn commit(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_as(key, replies, mail, now, Hold::News { urgent: false })
    }

    /// [`Poller::commit`], saying which replies may wait for a digest: a
    /// batch of one.
    fn commit_as(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<(), StoreError> {
        let store = self.store.batch()?;
        let staging = self.stage(key, replies, mail, now, hold)?;
        store.sync()?;
        self.store.mark_processed(key)?;
        if let Some(staging) = staging {
            self.release(&staging, now)?;
        }
        self.sync_outbox();
        Ok(())
    }

    /// The staging folder of `key`: named by its hash.
    fn staging_of(&self, key: &str) -> PathBuf {
        let h = stable_hash(key.as_bytes());
        self.store.outbox_staging().join(format!("{h:016x}"))
    }

    /// Step 3: writes the replies of `key` to `outbox/staging/<hash>/`,
    /// unsynced: the batch's [`Store::sync`] makes them durable before the
    /// key is committed. No replies, no folder (a dropped mail).
    fn stage(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<Option<PathBuf>, StoreError> {
        if replies.is_empty() {
            return Ok(None);
        }
        let h = stable_hash(key.as_bytes());
        let staging = self.staging_of(key);
        let io = |p: &Path| {
            let p = p.display().to_string();
            move |source: std::io::Error| StoreError::Io { path: p, source }
        };
        if staging.exists() {
            fs::remove_dir_all(&staging).map_err(io(&staging))?;
        }
        fs::create_dir_all(&staging).map_err(io(&staging))?;
        let sender = mail.and_then(|m| m.from.as_deref());
        for (n, reply) in replies.iter().enumerate() {
            if let Hold::News { urgent } = hold
                && self.held(reply, sender)?
            {
                self.stage_held(&staging, n, reply, urgent, now)?;
                continue;
            }
            let game = reply.game.as_deref().unwrap_or("x");
            let message_id = format!("<pbem.{game}.{h:016x}.{n}@{}>", self.identity.domain());
            let in_reply_to = mail.and_then(|m| m.message_id.as_deref());
            let thread = mail.map(|m| m.thread.clone()).unwrap_or_default();
            let raw =
                match outbound::build(self.identity, reply, &message_id, in_reply_to, &thread, now)
                {
                    Ok(raw) => raw,
                    // A recipient that is not an address: log it, send the rest.
                    Err(e) => {
                        log::warn!(
                            "{}",
                            crate::logging::line("reply-dropped", &[("key", &key), ("error", &e)])
                        );
                        continue;
                    }
                };
            let file = staging.join(format!("{n:03}.eml"));
            fs::write(&file, &raw).map_err(io(&file))?;
        }
        let keyfile = staging.join("key");
        fs::write(&keyfile, key.as_bytes()).map_err(io(&keyfile))?;
        Ok(Some(staging))
    }

    /// Moves a committed staging folder into `ready/`, named so that
    /// batches go out in the order they were made (the poll's time, then
    /// [`RELEASED`]). The folders are synced
    /// by the caller, once for many ([`Poller::sync_outbox`]): a rename
    /// lost to a crash is done again by the next poll's recovery.
    fn release(&self, staging: &Path, now: DateTime<Utc>) -> Result<(), StoreError> {
        let name = staging.file_name().and_then(|n| n.to_str()).unwrap_or("x");
        self.release_held(staging, name)?;
        let ready = self.store.outbox_ready().join(format!(
            "{}-{:08}-{name}",
            now.format("%Y%m%dT%H%M%S%6f"),
            RELEASED.fetch_add(1, Ordering::Relaxed)
        ));
        fs::rename(staging, &ready).map_err(|source| StoreError::Io {
            path: ready.display().to_string(),
            source,
        })
    }

    /// Syncs the outbox's folders after releases.
    fn sync_outbox(&self) {
        sync_dir(&self.store.outbox_ready());
        sync_dir(&self.store.outbox_staging());
    }

    /// After a crash: committed staging folders go to `ready/`, the others
    /// are thrown away (their mails will be handled again).
    fn recover(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
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
            let key = fs::read_to_string(p.join("key")).ok();
            if key.as_ref().is_some_and(|k| processed.contains(k)) {
                self.release(&p, now)?;
            } else {
                let _ = fs::remove_dir_all(&p);
            }
        }
        self.sync_outbox();
        Ok(())
    }
}

/// The mails of a batch waiting for their commit.
#[derive(Default)]
struct Batch {
    keys: HashSet<String>,
    /// Their staging folders.
    folders: HashSet<PathBuf>,
    mails: Vec<Staged>,
    /// Mails whose key is already in the batch: marked done with it.
    twins: Vec<Pending>,
}

/// A mail handled, its replies staged.
struct Staged {
    key: String,
    /// None when it has no replies.
    staging: Option<PathBuf>,
    mail: Pending,
    refused: bool,
    /// Its fate, for the log once committed.
    log: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mailbox::Maildir;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Sink(Mutex<Vec<Vec<u8>>>);

    impl Transport for Sink {
        fn send(
            &self,
            _: &lettre::address::Envelope,
            raw: &[u8],
        ) -> Result<(), transport::SendError> {
            self.0.lock().unwrap().push(raw.to_vec());
            Ok(())
        }
    }

    #[test]
    fn issue6_the_same_mail_twice_in_one_batch_is_handled_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        let mut inbox = Maildir::open(dir.path().join("inbox")).unwrap();
        let identity = Identity {
            address: "pbem@localhost".into(),
            name: "pbem".into(),
            trusted_authserv: None,
            clocks: Default::default(),
        };
        let templates = Templates::new(None);
        let sink = Sink::default();
        let raw = b"From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\n\
                    Message-ID: <twice@example.org>\r\n\r\nhelp\r\n";
        inbox.deliver("1.a", raw).unwrap();
        inbox.deliver("2.b", raw).unwrap();
        let poller = Poller {
            store: &store,
            identity: &identity,
            templates: &templates,
            transport: &sink,
        };
        let now = "2026-11-21T10:00:00Z".parse().unwrap();
        let r = poller.poll(&mut inbox, now, false).unwrap();
        assert_eq!((r.handled, r.skipped, r.errors.len()), (1, 1, 0), "{r:?}");
        assert_eq!(sink.0.lock().unwrap().len(), 1, "one reply");
        assert!(inbox.pending().unwrap().is_empty(), "both copies done");
        let log = fs::read_to_string(dir.path().join("data/processed.log")).unwrap();
        assert_eq!(log, "<twice@example.org> .\n");
    }
}
