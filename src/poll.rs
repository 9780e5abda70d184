//! One poll: every pending mail processed exactly once, then the outbox
//! sent (issue 3, "Exactly once").
//!
//! For each mail, in this order:
//! 1. its key (Message-ID, else a hash of the bytes) already committed?
//!    then only step 5 is left;
//! 2. the adjudicator writes the game record (atomically, synced);
//! 3. the replies are written to `outbox/staging/<key>/` (synced);
//! 4. the key is appended to `processed.log` and synced: the commit point;
//!    the staging folder is renamed into `outbox/ready/`;
//! 5. the mail is marked done in its mailbox ([`Source::done`]): a Maildir's
//!    leaves `new/` (moved to `cur/`, flagged Seen), an IMAP mail is flagged
//!    `\Seen` or moved to the processed folder.
//!
//! Between 2 and 3 the reply limits ([`limit`]) take out the replies that
//! a storming sender may not have yet, and write their counts: counted
//! before staged, so a crash in between counts them twice, never zero
//! times.
//!
//! A crash before 4 leaves the key uncommitted: the staging folder is
//! thrown away at the next start and the mail handled again, and the
//! adjudicator sees its Message-ID already in the record and changes
//! nothing twice. A crash after 4 finds the staging folder committed and
//! moves it to `ready/`. So a move is never lost or doubled, and each reply
//! is queued once. One poll at a time: the data folder's lock.

use crate::adjudicate::{Adjudicator, Handled, Identity};
use crate::mail::{inbound, outbound, templates::Templates};
use crate::mailbox::Source;
use crate::store::{Store, StoreError, stable_hash};
use crate::transport::{self, Transport};
use chrono::{DateTime, Utc};
use std::fs;
use std::io::Write;
use std::path::Path;

mod digest;
pub mod limit;

use digest::Hold;
pub use limit::{Limits, Tally};

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
    /// Replies held back by the reply limits (a notice counts as one).
    pub limited: usize,
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
    /// The reply limits against storms and loops.
    pub limits: Limits,
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
        let adj = Adjudicator {
            store: self.store,
            identity: self.identity,
            templates: self.templates,
            now,
        };
        // Clocks first: a deadline that passed before this poll is a loss
        // on time, whatever mail comes in it.
        self.tick_clocks(&adj, &mut processed, now, &mut report)?;
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
            let outcome = match &parsed {
                Err(e) => Ok(Handled {
                    fate: format!("dropped: {e}"),
                    failed: true,
                    ..Handled::default()
                }),
                Ok(m) => adj.handle(m).map_err(|e| e.to_string()),
            }
            .and_then(|mut h| {
                let limited = self
                    .limit(&key, parsed.as_ref().ok(), &mut h, &processed, now)
                    .map_err(|e| e.to_string())?;
                Ok((h, limited))
            });
            let (
                Handled {
                    replies,
                    fate,
                    failed: refused,
                    ..
                },
                limited,
            ) = match outcome {
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
            if let Err(e) = self.commit(&key, &replies, parsed.as_ref().ok(), now) {
                report
                    .errors
                    .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
                continue;
            }
            processed.insert(key.clone());
            report.handled += 1;
            if refused {
                report.refused += 1;
            }
            report.log.push(crate::logging::line(
                "mail",
                &[
                    ("key", &key),
                    ("from", &from),
                    ("replies", &replies.len()),
                    ("fate", &fate),
                ],
            ));
            for (to, held, until, notice) in &limited.held {
                report.limited += held;
                report.log.push(crate::logging::line(
                    "rate-limited",
                    &[
                        ("key", &key),
                        ("to", to),
                        ("held", held),
                        ("until", &until.format("%Y-%m-%dT%H:%M:%SZ")),
                        ("notice", &if *notice { "sent" } else { "no" }),
                    ],
                ));
            }
            if let Err(e) = source.done(&mail) {
                report
                    .errors
                    .push(format!("{}: cannot mark as done: {e}", mail.name));
            }
        }
        if let Err(e) = self.send_digests(&mut processed, now, &mut report) {
            report.errors.push(format!("digests: {e}"));
        }
        let flushed = transport::flush(&self.store.outbox_ready(), self.transport);
        report.sent = flushed.sent;
        report.send_errors = flushed.errors;
        Ok(report)
    }

    /// Sends what the game clocks owe (reminders, final notices, losses
    /// on time), each once: its mails are committed under the notice's
    /// key before the record and the clock are written, so a crash in
    /// between sends nothing twice and the next poll finishes the rest.
    /// A game whose clock fails is reported and the others go on.
    ///
    /// # Errors
    /// Only when the list of clocks cannot be read.
    fn tick_clocks(
        &self,
        adj: &Adjudicator<'_>,
        processed: &mut std::collections::HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        for id in self.store.clock_ids()? {
            let done = (|| -> Result<Option<crate::adjudicate::Tick>, String> {
                let Some(tick) = adj.clock_due(&id).map_err(|e| e.to_string())? else {
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
                    .write_clock(&id, &tick.clock)
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
    pub fn commit(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_as(key, replies, mail, now, Hold::News { urgent: false })
    }

    /// [`Poller::commit`], saying which replies may wait for a digest.
    fn commit_as(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<(), StoreError> {
        let h = stable_hash(key.as_bytes());
        let staging = self.store.outbox_staging().join(format!("{h:016x}"));
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
            let mut f = fs::File::create(&file).map_err(io(&file))?;
            f.write_all(&raw).map_err(io(&file))?;
            f.sync_all().map_err(io(&file))?;
        }
        let keyfile = staging.join("key");
        let mut f = fs::File::create(&keyfile).map_err(io(&keyfile))?;
        f.write_all(key.as_bytes()).map_err(io(&keyfile))?;
        f.sync_all().map_err(io(&keyfile))?;
        sync_dir(&staging);
        self.store.mark_processed(key)?;
        self.release(&staging, now)
    }

    /// Moves a committed staging folder into `ready/`, named so that
    /// batches go out in the order they were made.
    fn release(&self, staging: &Path, now: DateTime<Utc>) -> Result<(), StoreError> {
        let name = staging.file_name().and_then(|n| n.to_str()).unwrap_or("x");
        self.release_held(staging, name)?;
        let ready = self
            .store
            .outbox_ready()
            .join(format!("{}-{name}", now.format("%Y%m%dT%H%M%S%6f")));
        fs::rename(staging, &ready).map_err(|source| StoreError::Io {
            path: ready.display().to_string(),
            source,
        })?;
        sync_dir(&self.store.outbox_ready());
        sync_dir(&self.store.outbox_staging());
        Ok(())
    }

    /// After a crash: committed staging folders go to `ready/`, the others
    /// are thrown away (their mails will be handled again).
    fn recover(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.store.remove_stale_temps();
        let processed = self.store.processed()?;
        let dir = self.store.outbox_staging();
        let Ok(entries) = fs::read_dir(&dir) else {
            return Ok(());
        };
        for e in entries.filter_map(|e| e.ok()) {
            let p = e.path();
            let key = fs::read_to_string(p.join("key")).ok();
            if key.as_ref().is_some_and(|k| processed.contains(k)) {
                self.release(&p, now)?;
            } else {
                let _ = fs::remove_dir_all(&p);
            }
        }
        Ok(())
    }
}
