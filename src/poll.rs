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
//!
//! A poll goes on past a bad mail (issue 5): a mail pbem cannot process
//! now, even one a library panics on, is reported with its name and left
//! in its mailbox, and the other mails are processed and the outbox sent.
//! A game whose record does not read or replay is refused, and the admin
//! and its players are told once ([`Poller::damage_met`]). Only when the
//! data folder cannot be written at all (disk full, read-only) does the
//! poll stop early: the mails wait in the mailbox for the next one.

use crate::adjudicate::{AdjudicateError, Adjudicator, Damage, Handled, Identity};
use crate::mail::{inbound, outbound, templates::Templates};
use crate::mailbox::{Pending, Source};
use crate::store::{Store, StoreError, stable_hash};
use crate::transport::{self, Transport};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
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
    /// Replies still in the outbox after the flush (failed, or not tried
    /// while the transport is down).
    pub unsent: usize,
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

/// The step that handles one parsed mail.
type Handler = dyn Fn(&Adjudicator<'_>, &inbound::Inbound) -> Result<Handled, AdjudicateError>;

/// What the poll does after a mail.
enum Flow {
    Next,
    /// The data folder cannot be written: the other mails wait.
    Stop,
}

/// The message a panic carried, for the report.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
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
        self.poll_with(source, now, wait_for_lock, &|adj, mail| adj.handle(mail))
    }

    /// [`Poller::poll`], with the step that handles one parsed mail given
    /// (the adjudicator's, or a test's double).
    fn poll_with(
        &self,
        source: &mut dyn Source,
        now: DateTime<Utc>,
        wait_for_lock: bool,
        handle: &Handler,
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
        let total = pending.len();
        for (i, mail) in pending.iter().enumerate() {
            // A library that panics on one mail must not stop the poll
            // (issue 5): the mail stays in its mailbox, the others go on.
            let step = panic::catch_unwind(AssertUnwindSafe(|| {
                self.one_mail(&adj, source, mail, &mut processed, now, &mut report, handle)
            }));
            match step {
                Ok(Flow::Next) => {}
                Ok(Flow::Stop) => {
                    let left = total - i - 1;
                    if left > 0 {
                        report.errors.push(format!(
                            "{left} more mail{} left in the mailbox for the next poll: the data \
                             folder cannot be written",
                            if left == 1 { "" } else { "s" }
                        ));
                    }
                    break;
                }
                Err(payload) => report.errors.push(format!(
                    "{}: pbem failed on this mail ({}); left in the mailbox, the other mails \
                     go on",
                    mail.name,
                    panic_message(payload.as_ref())
                )),
            }
        }
        if let Err(e) = self.send_digests(&mut processed, now, &mut report) {
            report.errors.push(format!("digests: {e}"));
        }
        let flushed = transport::flush(&self.store.outbox_ready(), self.transport);
        report.sent = flushed.sent;
        report.unsent = flushed.failed + flushed.waiting;
        report.send_errors = flushed.errors;
        Ok(report)
    }

    /// One mail: handled, its replies committed, marked done. Errors go
    /// into `report`; the mail then stays in its mailbox.
    #[allow(clippy::too_many_arguments)]
    fn one_mail(
        &self,
        adj: &Adjudicator<'_>,
        source: &mut dyn Source,
        mail: &Pending,
        processed: &mut HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
        handle: &Handler,
    ) -> Flow {
        let parsed = inbound::parse(&mail.raw);
        let key = mail_key(
            &mail.raw,
            parsed.as_ref().ok().and_then(|m| m.message_id.as_deref()),
        );
        let not_processed = |report: &mut Report, e: &dyn std::fmt::Display, unwritable: bool| {
            report
                .errors
                .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
            if unwritable { Flow::Stop } else { Flow::Next }
        };
        if processed.contains(&key) {
            report.skipped += 1;
            if let Err(e) = source.done(mail) {
                report
                    .errors
                    .push(format!("{}: cannot mark as done: {e}", mail.name));
            }
            return Flow::Next;
        }
        let outcome = match &parsed {
            Err(e) => Ok(Handled {
                fate: format!("dropped: {e}"),
                failed: true,
                ..Handled::default()
            }),
            Ok(m) => handle(adj, m),
        };
        let mut handled = match outcome {
            Ok(h) => h,
            Err(e) => return not_processed(report, &e, e.is_unwritable()),
        };
        // The notice first, under its own key: a crash before the mail's
        // commit sends it once all the same.
        if let Some(d) = &handled.damage
            && let Err(e) = self.damage_met(adj, d, processed, now, report)
        {
            return not_processed(report, &e, e.is_unwritable());
        }
        // The reply limits (issue 5, "Loops and storms"): after the record,
        // before the replies are staged.
        let limited = match self.limit(&key, parsed.as_ref().ok(), &mut handled, processed, now) {
            Ok(l) => l,
            Err(e) => return not_processed(report, &e, e.is_unwritable()),
        };
        if let Err(e) = self.commit(&key, &handled.replies, parsed.as_ref().ok(), now) {
            return not_processed(report, &e, e.is_unwritable());
        }
        let from = parsed
            .as_ref()
            .ok()
            .and_then(|m| m.from.clone())
            .unwrap_or_else(|| "?".into());
        processed.insert(key.clone());
        report.handled += 1;
        if handled.failed {
            report.refused += 1;
        }
        report.log.push(crate::logging::line(
            "mail",
            &[
                ("key", &key),
                ("from", &from),
                ("replies", &handled.replies.len()),
                ("fate", &handled.fate),
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
        if let Err(e) = source.done(mail) {
            report
                .errors
                .push(format!("{}: cannot mark as done: {e}", mail.name));
        }
        Flow::Next
    }

    /// A game whose record does not read or replay, met by a mail or by
    /// the clock sweep (issue 5, "A corrupt record"): logged at warn level
    /// every time; the admin and the game's players are told once per
    /// distinct damage, their mails committed under [`Damage::key`] like
    /// any reply. Nothing else is done with the game.
    ///
    /// # Errors
    /// Template and store failures: the notice is then tried again.
    fn damage_met(
        &self,
        adj: &Adjudicator<'_>,
        damage: &Damage,
        processed: &mut HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), AdjudicateError> {
        log::warn!(
            "{}",
            crate::logging::line(
                "damaged-record",
                &[
                    ("game", &damage.id),
                    ("error", &damage.error),
                    ("file", &damage.file.display()),
                ]
            )
        );
        let key = damage.key();
        if processed.contains(&key) {
            return Ok(());
        }
        let replies = adj.damage_notice(damage)?;
        // Not held for a digest: the game is stopped until someone acts.
        self.commit_as(&key, &replies, None, now, Hold::Never)?;
        processed.insert(key.clone());
        report.log.push(crate::logging::line(
            "damage-notice",
            &[
                ("key", &key),
                ("replies", &replies.len()),
                (
                    "to",
                    &replies
                        .iter()
                        .map(|r| r.to.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ],
        ));
        Ok(())
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
        processed: &mut HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        for id in self.store.clock_ids()? {
            let step = panic::catch_unwind(AssertUnwindSafe(|| {
                self.tick_clock(adj, &id, processed, now, report)
            }));
            match step {
                Ok(Ok(None)) => {}
                Ok(Ok(Some(tick))) => report.log.push(crate::logging::line(
                    "clock",
                    &[
                        ("key", &tick.key),
                        ("replies", &tick.replies.len()),
                        ("fate", &tick.fate),
                    ],
                )),
                Ok(Err(e)) => {
                    report.errors.push(format!("clock of {id}: {e}"));
                    if e.is_unwritable() {
                        break;
                    }
                }
                Err(payload) => report.errors.push(format!(
                    "clock of {id}: pbem failed on it ({}); the other games go on",
                    panic_message(payload.as_ref())
                )),
            }
        }
        Ok(())
    }

    /// One game's clock: what it owes committed, then the record and the
    /// clock written. A damaged record is reported to the admin and the
    /// players ([`Poller::damage_met`]) and is no error of the poll.
    fn tick_clock(
        &self,
        adj: &Adjudicator<'_>,
        id: &str,
        processed: &mut HashSet<String>,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<Option<crate::adjudicate::Tick>, AdjudicateError> {
        let tick = match adj.clock_due(id) {
            Ok(Some(tick)) => tick,
            Ok(None) => return Ok(None),
            Err(AdjudicateError::Damaged(d)) => {
                self.damage_met(adj, &d, processed, now, report)?;
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if !processed.contains(&tick.key) {
            let hold = Hold::News {
                urgent: tick.urgent,
            };
            self.commit_as(&tick.key, &tick.replies, None, now, hold)?;
            processed.insert(tick.key.clone());
        }
        if let Some(text) = &tick.record {
            self.store.write_game(id, text)?;
        }
        self.store.write_clock(id, &tick.clock)?;
        Ok(Some(tick))
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
        let staged = self.stage(&staging, h, key, replies, mail, now, hold);
        // Uncommitted, a staging folder is thrown away: a full disk
        // leaves no half-written mail behind (issue 5).
        if let Err(e) = staged.and_then(|()| self.store.mark_processed(key)) {
            // Unless the key made it into the log after all: then the
            // next poll's recovery releases the replies.
            if self.store.processed().is_ok_and(|p| !p.contains(key)) {
                let _ = fs::remove_dir_all(&staging);
            }
            return Err(e);
        }
        self.release(&staging, now)
    }

    /// Writes the replies of a commit into its staging folder, synced.
    #[allow(clippy::too_many_arguments)]
    fn stage(
        &self,
        staging: &Path,
        h: u64,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<(), StoreError> {
        let io = |p: &Path| {
            let p = p.display().to_string();
            move |source: std::io::Error| StoreError::Io { path: p, source }
        };
        fs::create_dir_all(staging).map_err(io(staging))?;
        let sender = mail.and_then(|m| m.from.as_deref());
        for (n, reply) in replies.iter().enumerate() {
            if let Hold::News { urgent } = hold
                && self.held(reply, sender)?
            {
                self.stage_held(staging, n, reply, urgent, now)?;
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
        sync_dir(staging);
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mailbox::Maildir;
    use crate::transport::MaildirSink;

    /// Issue 5: "One mail must not stop a poll even if a library panics
    /// on it": the mail stays in its mailbox, the error names it, the
    /// other mails are answered and the outbox sent; once the fault is
    /// gone the next poll answers the mail, once.
    #[test]
    fn issue5_a_mail_pbem_panics_on_is_left_and_the_poll_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        let identity = Identity {
            address: "pbem@example.net".into(),
            name: "pbem".into(),
            trusted_authserv: None,
            admin: None,
            clocks: Default::default(),
        };
        let templates = Templates::new(None);
        let sent = dir.path().join("sent");
        let transport = MaildirSink {
            folder: sent.clone(),
        };
        let mut inbox = Maildir::open(dir.path().join("inbox")).unwrap();
        for (name, who) in [("1.a", "ann"), ("2.b", "bob"), ("3.c", "cid")] {
            let raw = format!(
                "From: {who}@example.org\r\nTo: pbem@example.net\r\nSubject: hi\r\n\
                 Message-ID: <{who}@example.org>\r\n\r\nhelp\r\n"
            );
            inbox.deliver(name, raw.as_bytes()).unwrap();
        }
        let poller = Poller {
            store: &store,
            identity: &identity,
            templates: &templates,
            transport: &transport,
            limits: Default::default(),
        };
        // The double: the adjudicator, with a library bug on Bob's mail.
        let buggy = |adj: &Adjudicator<'_>, m: &inbound::Inbound| {
            if m.from.as_deref() == Some("bob@example.org") {
                let v: Vec<u8> = Vec::new();
                let i = m.body.len();
                return Ok(Handled {
                    fate: v[i].to_string(),
                    ..Handled::default()
                });
            }
            adj.handle(m)
        };
        let now = DateTime::parse_from_rfc3339("2026-11-20T10:00:00Z")
            .unwrap()
            .to_utc();
        let answered = |who: &str| {
            fs::read_dir(sent.join(format!("{who}@example.org/new")))
                .map(|d| d.count())
                .unwrap_or(0)
        };

        let r = poller.poll_with(&mut inbox, now, false, &buggy).unwrap();
        assert_eq!(r.handled, 2, "{r:?}");
        assert_eq!(r.errors.len(), 1, "{r:?}");
        assert!(
            r.errors[0].starts_with("new/2.b: pbem failed on this mail (index out of bounds")
                && r.errors[0].ends_with("left in the mailbox, the other mails go on"),
            "{}",
            r.errors[0]
        );
        assert_eq!(r.sent, 2, "the outbox was sent");
        assert_eq!(
            (answered("ann"), answered("bob"), answered("cid")),
            (1, 0, 1)
        );
        assert!(dir.path().join("inbox/new/2.b").exists(), "left in new/");
        let p = store.processed().unwrap();
        assert!(
            p.contains("<ann@example.org>")
                && p.contains("<cid@example.org>")
                && !p.contains("<bob@example.org>"),
            "{p:?}"
        );
        assert_eq!(fs::read_dir(store.outbox_staging()).unwrap().count(), 0);

        let r = poller.poll(&mut inbox, now, false).unwrap();
        assert_eq!((r.handled, r.skipped, r.errors.len()), (1, 0, 0), "{r:?}");
        assert_eq!(
            (answered("ann"), answered("bob"), answered("cid")),
            (1, 1, 1)
        );
        assert!(!dir.path().join("inbox/new/2.b").exists());
    }
}
