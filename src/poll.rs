//! One poll: every pending mail processed exactly once, then the outbox
//! sent. Mail path: the driver of the whole
//! path, `source -> parse -> command -> adjudicate -> compose -> outbox
//! -> transport`, for each mail of a source in turn.
//!
//! Mails are handled in batches of up to [`BATCH`]. For each mail
//! ([`Poller::one_mail`], top to bottom):
//! 1. its key ([`mail_key`]: sender, Message-ID and body) already
//!    committed? then only step 5 is left;
//! 2. the adjudicator writes the game record, through the poll's
//!    [`Store::batch`] view: the new record waits in memory, where the
//!    next mails of the batch read it;
//! 3. the reply limits ([`limit`]) take out what a storm would send, and
//!    the replies are staged into the batch's outbox, in memory
//!    ([`crate::outbox::stage`]).
//!
//! Then, once for the whole batch:
//! 4. the outbox commits the batch ([`Outbox::commit_batch`]): its
//!    staging folder written, the batch's records, clocks and other files
//!    made durable ([`Store::sync`]), then the keys appended to their
//!    files in `processed/` and synced: the commit point; the staging
//!    folder is released into `outbox/ready/`, where the flush sends the
//!    replies in order ([`crate::outbox::flush`]; in a poll of more than
//!    one batch, from a thread of their own while the next batch is
//!    handled: [`sending`]);
//! 5. the mails are marked done in their mailbox ([`Source::done`]): a
//!    Maildir's leave `new/` (moved to `cur/`, flagged Seen), an IMAP mail
//!    is flagged `\Seen` or moved to the processed folder.
//!
//! Before the mails, the game clocks ([`clocks`]); after them, the
//! digests ([`digest`]) and the flush of the outbox.
//!
//! # Crash safety
//!
//! A mail that fails (or panics) before its commit just leaves nothing in
//! the batch. A crash before 4 leaves the keys uncommitted: the mails are
//! handled again, and the adjudicator sees their Message-IDs already in
//! the records (where the writes survived) and changes nothing twice.
//! What a crash leaves in the outbox, the next poll's recovery
//! ([`Poller::recover`]) finishes or throws away: see [`crate::outbox`].
//! So a move is never lost or doubled, no reply is queued before its
//! record is durable, and each reply is queued once. One poll at a time:
//! the data folder's lock.
//!
//! A poll goes on past a bad mail: a mail pbem cannot process
//! now, even one a library panics on, is reported with its name and left
//! in its mailbox, and the other mails are processed and the outbox sent.
//! A game whose record does not read or replay is refused, and the admin
//! and its players are told once ([`Poller::damage_met`]). Only when the
//! data folder cannot be written at all (disk full, read-only) does the
//! poll stop early: the mails wait in the mailbox for the next one.

use crate::adjudicate::{AdjudicateError, Adjudicator, Desk, Fate, Handled, TickFate};
use crate::mail::{inbound, templates::Templates};
use crate::mailbox::{InboxMail, Source};
use crate::outbox::{Hold, Outbox, Outgoing, Released, Replies};
use crate::reply::{Identity, Reply};
use crate::store::{Made, Processed, Store, StoreError};
use crate::transport::Transport;
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::panic::{self, AssertUnwindSafe};

/// Mails handled before their keys are committed together: three syncs
/// of the batch's files and folders (all at once each) and one append to
/// each key file per batch instead of several syncs per mail. A crash
/// makes the next poll handle again at most this many mails (each found
/// in its record, so nothing is applied twice).
pub const BATCH: usize = 128;

mod analysis;
mod bots;
mod clocks;
mod damage;
mod digest;
mod error;
mod facts;
pub mod history;
mod key;
pub mod limit;
mod sending;
pub use facts::OsRandom;
mod tournaments;

pub use error::PollError;
pub use key::mail_key;
pub use limit::{Limits, Tally};
use sending::Sender;

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
    /// What the game clocks did, in order (each also a `clock` line of
    /// `log`).
    pub ticks: Vec<TickFate>,
    /// Bot games whose turn waits for the next poll: this one spent its
    /// think time (`[bot] poll_ms`).
    pub bots_waiting: usize,
    /// Finished games whose analysis waits for the next poll (this one
    /// spent the bot's think time).
    pub analyses_waiting: usize,
}

impl Report {
    /// Whether anything failed: a mail left unprocessed or a reply unsent.
    pub fn failed(&self) -> bool {
        !self.errors.is_empty() || !self.send_errors.is_empty()
    }

    /// Whether the bot has work left for the next poll: moves or
    /// analyses this one had no think time for.
    pub fn bot_work_waiting(&self) -> bool {
        self.bots_waiting > 0 || self.analyses_waiting > 0
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
    /// The records' git history, when `[git]` keeps one.
    pub history: Option<&'a crate::history::History>,
}

/// The step that handles one parsed mail.
type Handler = dyn Fn(&Adjudicator<'_>, &inbound::Inbound) -> Result<Handled, AdjudicateError>;

/// What every step of one poll reads: the adjudicator (on the poll's
/// batch view, at the poll's time), the log of processed mail, and the
/// step that handles one parsed mail.
struct BatchContext<'p> {
    adj: Adjudicator<'p>,
    processed: &'p Processed,
    now: DateTime<Utc>,
    handle: &'p Handler,
}

/// What the poll does after a mail.
enum Flow {
    Next,
    /// The data folder cannot be written: the other mails wait.
    Stop,
}

/// The mails of a batch waiting for their commit.
#[derive(Default)]
struct OpenBatch {
    keys: HashSet<String>,
    /// Their replies, written at the commit.
    out: Outgoing,
    mails: Vec<HandledMail>,
    /// Mails whose key is already in the batch: marked done with it.
    twins: Vec<InboxMail>,
}

/// A mail handled, its replies staged in its batch's [`Outgoing`].
struct HandledMail {
    key: String,
    mail: InboxMail,
    refused: bool,
    /// Its fate (and what the reply limits held), for the log once
    /// committed.
    log: Vec<String>,
}

/// A mail as the poll first reads it: parsed (pbem's own quoted lines
/// taken out), and its key.
struct ReadMail {
    parsed: Result<inbound::Inbound, inbound::Unreadable>,
    key: String,
    /// The mail's own name for itself, as it wrote it (`-`: none), for
    /// the log.
    message_id: String,
}

impl ReadMail {
    /// The parsed mail, if it parsed.
    fn inbound(&self) -> Option<&inbound::Inbound> {
        self.parsed.as_ref().ok()
    }
}

/// The message a panic carried, for the report.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

impl Poller<'_> {
    /// Processes every pending mail of `source`, then flushes the outbox.
    /// Keeps going past a bad mail (docs/src/contributing.md, "Batches keep going").
    ///
    /// # Errors
    /// Only when the lock, the store or the mailbox cannot be used at all
    /// ([`PollError::is_busy`]: another pbem holds the lock).
    pub fn poll(
        &self,
        source: &mut dyn Source,
        now: DateTime<Utc>,
        wait_for_lock: bool,
    ) -> Result<Report, PollError> {
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
    ) -> Result<Report, PollError> {
        let _lock = self.store.lock(wait_for_lock)?;
        self.recover(now)?;
        let processed = self.store.processed()?;
        let pending = source
            .pending()
            .map_err(|source| PollError::Mailbox { source })?;
        // Everything of the poll reads and writes through it, so that each
        // step sees what the ones before it changed, on disk or not yet,
        // and its syncs take what the poll wrote.
        let store = self.store.batch()?;
        let this = Poller {
            store: &store,
            ..*self
        };
        let cx = BatchContext {
            adj: this.adjudicator(now),
            processed: &processed,
            now,
            handle,
        };
        this.batch_poll(&cx, source, pending)
    }

    /// The adjudicator of this poller at `now`.
    fn adjudicator(&self, now: DateTime<Utc>) -> Adjudicator<'_> {
        Adjudicator {
            desk: Desk::new(self.store),
            draw: &OsRandom,
            identity: self.identity,
            templates: self.templates,
            now,
            challenges: self.limits.challenges(),
        }
    }

    /// The outbox of this poller's data folder.
    pub fn outbox(&self) -> Outbox<'_> {
        Outbox {
            store: self.store,
            identity: self.identity,
            templates: self.templates,
            challenges: self.limits.challenges(),
        }
    }

    /// [`Poller::poll_with`] on the batch view `self.store`, from the
    /// clocks to the flush.
    fn batch_poll(
        &self,
        cx: &BatchContext<'_>,
        source: &mut dyn Source,
        pending: Vec<InboxMail>,
    ) -> Result<Report, PollError> {
        let mut report = Report::default();
        // Clocks first: a deadline that passed before this poll is a loss
        // on time, whatever mail comes in it.
        self.tick_clocks(cx, &mut report)?;
        self.tick_tournaments(cx, &mut report)?;
        let ready = self.store.outbox_ready();
        // A poll of more than one batch sends each batch's replies while
        // it handles the next (see `sending`).
        let shared = (pending.len() > BATCH)
            .then(|| self.transport.shared())
            .flatten();
        let (sending, stopped) = std::thread::scope(|scope| {
            let sender = match shared {
                Some(transport) => Sender::start(scope, ready.clone(), transport),
                None => Sender::none(),
            };
            self.handle_pending(cx, source, pending, &sender, &mut report);
            sender.stop()
        });
        // The bot's moves after the players' mail is committed, then its
        // analyses of finished games with the think time left.
        let spent = self.play_bots(cx, &mut report);
        self.analyse_games(cx, spent, &mut report);
        if let Err(e) = self.store.finish() {
            report.errors.push(format!("deadline index: {e}"));
        }
        if let Err(e) = self.send_digests(cx.processed, cx.now, &mut report) {
            report.errors.push(format!("digests: {e}"));
        }
        let flushed = sending.finish(&ready, self.transport);
        report.sent = flushed.sent;
        report.unsent = flushed.failed + flushed.waiting;
        report.send_errors = flushed.errors;
        report.send_errors.extend(stopped);
        // Once the replies are out: what the poll changed (its batches,
        // clocks, tournaments, bot moves) in one commit. Never a push:
        // the lock is still held.
        self.record_history(cx.now, false);
        Ok(report)
    }

    /// Steps 1 to 5 for each mail of `pending`, in batches of [`BATCH`],
    /// each committed batch's replies handed to `sender`.
    fn handle_pending(
        &self,
        cx: &BatchContext<'_>,
        source: &mut dyn Source,
        pending: Vec<InboxMail>,
        sender: &Sender<'_>,
        report: &mut Report,
    ) {
        let mut batch = OpenBatch::default();
        let total = pending.len();
        for (i, mail) in pending.into_iter().enumerate() {
            let mut flow = self.guarded_mail(cx, source, mail, &mut batch, report);
            if matches!(flow, Flow::Next) && batch.mails.len() >= BATCH {
                let released;
                (flow, released) = self.commit_batch(cx, &mut batch, source, report);
                sender.released(released);
            }
            if let Flow::Stop = flow {
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
        }
        // Sent at the poll's end, with what its bots and digests release.
        let (_, released) = self.commit_batch(cx, &mut batch, source, report);
        sender.keep(released);
    }

    /// [`Poller::one_mail`], a panic in it caught: a library that panics
    /// on one mail must not stop the poll: the mail stays in its
    /// mailbox, what it staged is not kept, the others go on.
    fn guarded_mail(
        &self,
        cx: &BatchContext<'_>,
        source: &mut dyn Source,
        mail: InboxMail,
        batch: &mut OpenBatch,
        report: &mut Report,
    ) -> Flow {
        let name = mail.name.clone();
        let idx = batch.mails.len();
        let step = panic::catch_unwind(AssertUnwindSafe(|| {
            self.one_mail(cx, source, mail, batch, report)
        }));
        step.unwrap_or_else(|payload| {
            batch.out.forget(idx);
            report.errors.push(format!(
                "{name}: pbem failed on this mail ({}); left in the mailbox, the other mails \
                 go on",
                panic_message(payload.as_ref())
            ));
            Flow::Next
        })
    }

    /// One mail, top to bottom: read and keyed; already committed? then
    /// marked done; else adjudicated, limited and staged into the batch
    /// (committed with it). Errors go into `report`; the mail then stays
    /// in its mailbox.
    fn one_mail(
        &self,
        cx: &BatchContext<'_>,
        source: &mut dyn Source,
        mail: InboxMail,
        batch: &mut OpenBatch,
        report: &mut Report,
    ) -> Flow {
        let read = self.read(&mail);
        match cx.processed.contains(&read.key) {
            Ok(true) => return self.skip_processed(source, &mail, &read, report),
            Ok(false) => {}
            Err(e) => return not_processed(report, &mail, &read.key, &e, e.is_unwritable()),
        }
        if batch.keys.contains(&read.key) {
            // The same mail twice in one batch: done with the first.
            report.skipped += 1;
            batch.twins.push(mail);
            return Flow::Next;
        }
        match self.handle_mail(cx, &read, batch, report) {
            Ok((handled, log)) => {
                batch.keys.insert(read.key.clone());
                batch.mails.push(HandledMail {
                    key: read.key,
                    mail,
                    refused: handled.failed,
                    log,
                });
                Flow::Next
            }
            Err(e) => not_processed(report, &mail, &read.key, &e, e.is_unwritable()),
        }
    }

    /// Step 1: the mail parsed, pbem's own lines it quotes taken out, and
    /// its key.
    fn read(&self, mail: &InboxMail) -> ReadMail {
        let mut parsed = inbound::parse(&mail.raw);
        // pbem's own lines, quoted back in any way, are no commands:
        // what it lately sent this sender is dropped with the
        // block it stands in. A file that cannot be read leaves the
        // recognised quotes alone to do it.
        if let Ok(m) = &mut parsed
            && let Some(from) = m.from.clone()
            && let Ok(sent) = self.store.sent_memory(&from)
            && !sent.lines.is_empty()
        {
            m.strip_known(&|line| sent.knows(line));
        }
        let m = parsed.as_ref().ok();
        let key = mail_key(
            &mail.raw,
            m.and_then(|m| m.from.as_deref()),
            m.and_then(|m| m.message_id.as_deref()),
        );
        let message_id = m
            .and_then(|m| m.message_id.clone())
            .unwrap_or_else(|| "-".into());
        ReadMail {
            parsed,
            key,
            message_id,
        }
    }

    /// A mail whose key is committed already (found again after a crash,
    /// or delivered twice): only marked done. Said, so that a mail that
    /// never counts is seen.
    fn skip_processed(
        &self,
        source: &mut dyn Source,
        mail: &InboxMail,
        read: &ReadMail,
        report: &mut Report,
    ) -> Flow {
        report.skipped += 1;
        report.log.push(crate::logging::line(
            "skipped-processed",
            &[
                ("mail", &mail.name),
                ("key", &read.key),
                ("id", &read.message_id),
            ],
        ));
        if let Err(e) = source.done(mail) {
            report
                .errors
                .push(format!("{}: cannot mark as done: {e}", mail.name));
        }
        Flow::Next
    }

    /// Steps 2 and 3 for a new mail: adjudicated (a damaged game's notice
    /// committed first), its replies limited, then staged into `batch`.
    /// Returns what the adjudicator made of it and its log lines.
    ///
    /// # Errors
    /// What leaves the mail in its mailbox for the next poll.
    fn handle_mail(
        &self,
        cx: &BatchContext<'_>,
        read: &ReadMail,
        batch: &mut OpenBatch,
        report: &mut Report,
    ) -> Result<(Handled, Vec<String>), PollError> {
        let mut handled = match &read.parsed {
            Err(e) => Handled {
                fate: Fate::Unreadable(e.to_string()),
                failed: true,
                ..Handled::default()
            },
            Ok(m) => (cx.handle)(&cx.adj, m)?,
        };
        // What the mail decided, into the batch before anything reads it
        // again (the damage notice, the reply limits, the next mail).
        self.store
            .apply_effects(&std::mem::take(&mut handled.effects))?;
        // The notice first, under its own key: a crash before the mail's
        // commit sends it once all the same.
        if let Some(d) = &handled.damage {
            self.damage_met(cx, d, report)?;
        }
        // The reply limits: after the record,
        // before the replies are staged.
        // A key whose file cannot be read counts as not committed: at
        // worst a notice goes out twice.
        let committed =
            |k: &str| cx.processed.contains(k).unwrap_or(false) || batch.keys.contains(k);
        let limited = self.limit(&read.key, read.inbound(), &mut handled, &committed, cx.now)?;
        let replies = Replies {
            idx: batch.mails.len(),
            key: &read.key,
            replies: &handled.replies,
            mail: read.inbound(),
            hold: Hold::News { urgent: false },
        };
        self.outbox().stage(&mut batch.out, &replies, cx.now)?;
        let log = self.mail_log(read, &handled, &limited, report);
        Ok((handled, log))
    }

    /// The log lines of a mail handled: its fate, and what the reply
    /// limits held (counted in `report`).
    fn mail_log(
        &self,
        read: &ReadMail,
        handled: &Handled,
        limited: &limit::Limited,
        report: &mut Report,
    ) -> Vec<String> {
        let from = read
            .inbound()
            .and_then(|m| m.from.clone())
            .unwrap_or_else(|| "?".into());
        let mut log = vec![crate::logging::line(
            "mail",
            &[
                ("key", &read.key),
                ("id", &read.message_id),
                ("from", &from),
                ("replies", &handled.replies.len()),
                ("fate", &handled.fate),
            ],
        )];
        for (to, held, until, notice) in &limited.held {
            report.limited += held;
            log.push(crate::logging::line(
                "rate-limited",
                &[
                    ("key", &read.key),
                    ("to", to),
                    ("held", held),
                    ("until", &until.format("%Y-%m-%dT%H:%M:%SZ")),
                    ("notice", &if *notice { "sent" } else { "no" }),
                ],
            ));
        }
        log
    }

    /// Steps 4 and 5 for a batch: the outbox commits it (its replies
    /// staged, the store synced, the keys committed) and releases its
    /// replies, then the mails are marked done. On a failure before the
    /// commit the whole batch is left in the mailbox (its staged replies
    /// are thrown away); [`Flow::Stop`] when the data folder cannot be
    /// written at all (the batch's writes reach the disk only here, so
    /// this is where a full disk shows). With the batch released, its
    /// replies to hand to the flush.
    fn commit_batch(
        &self,
        cx: &BatchContext<'_>,
        batch: &mut OpenBatch,
        source: &mut dyn Source,
        report: &mut Report,
    ) -> (Flow, Option<Released>) {
        let OpenBatch {
            mails, twins, out, ..
        } = std::mem::take(batch);
        if mails.is_empty() {
            return (Flow::Next, None);
        }
        let keys: Vec<&str> = mails.iter().map(|m| m.key.as_str()).collect();
        let outbox = self.outbox();
        let folder = match outbox.commit_batch(&out, &keys) {
            Ok(folder) => folder,
            Err(e) => return (uncommitted(report, &mails, &twins, &e), None),
        };
        for m in &mails {
            cx.processed.insert(&m.key);
            report.handled += 1;
            if m.refused {
                report.refused += 1;
            }
            report.log.extend(m.log.iter().cloned());
        }
        // Committed: a release that fails here is done by the next poll's
        // recovery.
        let released = outbox
            .release_committed(folder.as_deref(), out, cx.now)
            .unwrap_or_else(|e| {
                report.errors.push(format!("releasing the replies: {e}"));
                None
            });
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
        (Flow::Next, released)
    }

    /// Stages the replies, commits the key, releases the replies (the
    /// admin's commands use [`Poller::commit_made`]).
    ///
    /// # Errors
    /// Store failures: the key is then not committed, or committed with
    /// its replies left for the next poll's recovery to release.
    pub fn commit(
        &self,
        key: &str,
        replies: &[Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_as(key, replies, mail, None, now, Hold::News { urgent: false })
    }

    /// An admin's command (`pbem new`, `pbem move` item 4):
    /// what it changed waits in `self.store`, a [`Store::batch`] view, and
    /// reaches the disk in the same sync as its staged replies, with
    /// `made` ([`Made`]) beside them. The record's rename is the commit
    /// point: a crash before it leaves neither the game (or move) nor its
    /// mails (the next recovery throws the replies away, and what a `pbem
    /// new` left, [`Store::unmake`]); a crash after it, both (recovery
    /// releases the replies). Then the key is committed as for a mail.
    ///
    /// # Errors
    /// Store failures: nothing of the command is then on disk, or all of
    /// it, its replies left for the next recovery to release.
    pub fn commit_made(
        &self,
        key: &str,
        replies: &[Reply],
        made: &Made,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_as(
            key,
            replies,
            None,
            Some(made),
            now,
            Hold::News { urgent: false },
        )
    }

    /// [`Poller::commit`] and [`Poller::commit_made`], saying which replies
    /// may wait for a digest: a batch of one ([`Outbox::commit_one`]).
    fn commit_as(
        &self,
        key: &str,
        replies: &[Reply],
        mail: Option<&inbound::Inbound>,
        made: Option<&Made>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<(), StoreError> {
        let r = Replies {
            idx: 0,
            key,
            replies,
            mail,
            hold,
        };
        self.outbox().commit_one(&r, made, now)?;
        Ok(())
    }

    /// After a crash: what the outbox's staging folders hold finished or
    /// thrown away ([`Outbox::recover`]). Run with the lock held, before
    /// anything else: by every poll and every admin's command.
    ///
    /// # Errors
    /// Store failures: the rest is then done by the next recovery.
    pub fn recover(&self, now: DateTime<Utc>) -> Result<(), StoreError> {
        self.outbox().recover(now)?;
        // What a crash left out of the records' history.
        self.record_history(now, true);
        Ok(())
    }
}

/// A mail left in its mailbox for the next poll, with why; [`Flow::Stop`]
/// when the data folder cannot be written at all.
fn not_processed(
    report: &mut Report,
    mail: &InboxMail,
    key: &str,
    e: &dyn std::fmt::Display,
    unwritable: bool,
) -> Flow {
    report
        .errors
        .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
    if unwritable { Flow::Stop } else { Flow::Next }
}

/// A batch whose commit failed with `e`: every mail of it (twins too)
/// reported and left in the mailbox. The data folder cannot be written
/// at all ([`Flow::Stop`]): the next batches would fail the same way
/// (their mails wait in the mailbox).
fn uncommitted(
    report: &mut Report,
    mails: &[HandledMail],
    twins: &[InboxMail],
    e: &StoreError,
) -> Flow {
    for m in mails {
        report.errors.push(format!(
            "{} ({}): {e}; left in the mailbox",
            m.mail.name, m.key
        ));
    }
    report.skipped -= twins.len();
    for t in twins {
        report
            .errors
            .push(format!("{}: {e}; left in the mailbox", t.name));
    }
    if e.is_unwritable() {
        Flow::Stop
    } else {
        Flow::Next
    }
}

#[cfg(test)]
mod tests;
