//! One poll: every pending mail processed exactly once, then the outbox
//! sent (issue 3, "Exactly once").
//!
//! Mails are handled in batches of up to [`BATCH`]. For each mail:
//! 1. its key (Message-ID, else a hash of the bytes) already committed?
//!    then only step 5 is left;
//! 2. the adjudicator writes the game record, through the poll's
//!    [`Store::batch`] view: the new record waits in memory, where the
//!    next mails of the batch read it;
//! 3. the replies are rendered into the batch, in memory.
//!
//! Then, once for the whole batch (issue 6, "Fast at every size"):
//! 4. the batch's staging folder `outbox/staging/<name>/` is written: one
//!    pack ([`pack`]) holding every reply of the batch, `keys` naming its
//!    mails, and the rare news held for a digest (`<idx>.<n>.held.json`);
//!    the batch's records, clocks and other files are written to
//!    temporary files, the file system synced, the files renamed into
//!    place and the file system synced again ([`Store::sync`]): every
//!    record, rename and staged reply of the batch is on disk; only then
//!    are the keys appended to their files in `processed/` and synced:
//!    the commit point; the staging folder is renamed into
//!    `outbox/ready/`, where [`transport::flush`] sends the pack's replies
//!    in order;
//! 5. the mails are marked done in their mailbox ([`Source::done`]): a
//!    Maildir's leave `new/` (moved to `cur/`, flagged Seen), an IMAP mail
//!    is flagged `\Seen` or moved to the processed folder.
//!
//! The replies wait in memory, not in a file each, because on ext4
//! without a journal each file made costs more the more were freed in the
//! last seconds: a batch makes three files for all its replies (the pack,
//! `keys`, and the flush's `sent`), where each reply used to make one and
//! free one. A mail that fails (or panics) before its commit just leaves
//! nothing in the batch.
//!
//! A crash before 4 leaves the keys uncommitted: the staging folder is
//! thrown away at the next start and the mails handled again, and the
//! adjudicator sees their Message-IDs already in the records (where the
//! writes survived) and changes nothing twice. A crash in the middle of 4
//! may commit some keys of the batch and not others (an append to
//! `processed/` torn); each committed one has its record and replies on disk
//! already, and the next start rewrites the pack with their replies alone
//! (a new file, synced, renamed over the old one), removes the others'
//! held news, and releases the folder. A crash after 4 finds the staging
//! folder committed and moves it to `ready/`. So a move is never lost or
//! doubled, no reply is queued before its record is durable, and each
//! reply is queued once. One poll at a time: the data folder's lock.
//! Staging folders of older pbem (an `.eml` file per reply) are released
//! the same way, so an upgrade loses nothing.
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
use crate::record::write::write_atomic_via;
use crate::store::{
    Made, Processed, Store, StoreError, io_err as io, stable_hash, strong_hash, sync_folder,
};
use crate::transport::{self, Transport, pack};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Mails handled before their keys are committed together: three file
/// system syncs and one append to each key file per batch instead of
/// several syncs per mail. A crash makes the next poll handle again at
/// most this many mails (each found in its record, so nothing is applied twice).
pub const BATCH: usize = 128;

/// Numbers the batches of replies this process releases, so that they go
/// out in the order their mails were handled, also within one poll (whose
/// `now` is one instant) rather than in the order of their keys' hashes.
static RELEASED: AtomicU64 = AtomicU64::new(0);

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

/// The key that makes a mail "the same mail" across runs: `mail:` and
/// 128 bits of a SHA-256 over who sent it (as written in From, lower
/// case), its Message-ID exactly as written, and its body (issue 13, item
/// 8). A Message-ID alone is no key: anyone can send a mail with the one a
/// player will use next (pbem's own mails carry them in References), and a
/// key burned by a stranger would make the player's mail vanish. A mail
/// delivered twice is the same mail (the same sender, id and body, with
/// other Received lines); a stranger's mail is another mail unless it
/// carries the player's very body. Without a Message-ID or a From, or
/// unparsed, the whole mail is hashed. The prefix keeps a mail's key apart
/// from pbem's own (`digest:`, `damaged:`, `new:`, `move:`).
pub fn mail_key(raw: &[u8], from: Option<&str>, message_id: Option<&str>) -> String {
    let hash = match (from, message_id) {
        (Some(from), Some(id)) => strong_hash(&[
            b"pbem mail key 1",
            from.to_lowercase().as_bytes(),
            id.as_bytes(),
            &body_of(raw),
        ]),
        _ => strong_hash(&[b"pbem mail key 1", &lf(raw)]),
    };
    format!("mail:{hash}")
}

/// What follows a raw mail's header (all of it when there is no blank
/// line), as [`lf`] makes it.
fn body_of(raw: &[u8]) -> Vec<u8> {
    // The first line that is empty (or only a CR) ends the header.
    let mut at = 0;
    for line in raw.split_inclusive(|b| *b == b'\n') {
        at += line.len();
        if matches!(line, b"\n" | b"\r\n") {
            return lf(&raw[at..]);
        }
    }
    lf(raw)
}

/// `raw` as the ways of mail leave it alike: a mail stored with CRLF and
/// the same mail fetched by IMAP with LF and a blank line added at the end
/// are one mail. Line ends are LF, spaces and tabs at their ends dropped,
/// and blank lines at the end.
fn lf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    for line in raw.split(|b| *b == b'\n') {
        let end = line
            .iter()
            .rposition(|b| !matches!(b, b'\r' | b' ' | b'\t'))
            .map_or(0, |i| i + 1);
        out.extend_from_slice(&line[..end]);
        out.push(b'\n');
    }
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    out
}

/// [`sync_folder`], its failure left to the next poll (the outbox's
/// folders: a rename lost to a crash is done again by recovery).
fn sync_dir(p: &Path) {
    let _ = sync_folder(p);
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
        self.recover(now)?;
        let processed = self.store.processed()?;
        let pending = source
            .pending()
            .map_err(|e| StoreError::Invalid(format!("cannot read the mailbox: {e}")))?;
        // Opened before anything of the batch is written: its sync reports
        // any write-back error since. Everything of the poll reads and
        // writes through it, so that each step sees what the ones before
        // it changed, on disk or not yet.
        let store = self.store.batch()?;
        let this = Poller {
            store: &store,
            ..*self
        };
        this.batch_poll(source, pending, processed, now, handle)
    }

    /// [`Poller::poll_with`] on the batch view `self.store`, from the
    /// clocks to the flush.
    fn batch_poll(
        &self,
        source: &mut dyn Source,
        pending: Vec<Pending>,
        processed: Processed,
        now: DateTime<Utc>,
        handle: &Handler,
    ) -> Result<Report, StoreError> {
        let mut report = Report::default();
        let store = self.store;
        let adj = Adjudicator {
            store,
            identity: self.identity,
            templates: self.templates,
            now,
            challenges: self.limits.challenges(),
        };
        // Clocks first: a deadline that passed before this poll is a loss
        // on time, whatever mail comes in it.
        self.tick_clocks(&adj, &processed, now, &mut report)?;
        let mut batch = Batch::default();
        let total = pending.len();
        for (i, mail) in pending.into_iter().enumerate() {
            // A library that panics on one mail must not stop the poll
            // (issue 5): the mail stays in its mailbox, the others go on.
            let name = mail.name.clone();
            let idx = batch.mails.len();
            let step = panic::catch_unwind(AssertUnwindSafe(|| {
                self.one_mail(
                    &adj,
                    source,
                    mail,
                    &mut batch,
                    &processed,
                    now,
                    &mut report,
                    handle,
                )
            }));
            let mut flow = Flow::Next;
            match step {
                Ok(f) => flow = f,
                Err(payload) => {
                    // What it staged, if anything, is not kept.
                    batch.out.forget(idx);
                    report.errors.push(format!(
                        "{name}: pbem failed on this mail ({}); left in the mailbox, the other \
                         mails go on",
                        panic_message(payload.as_ref())
                    ));
                }
            }
            if matches!(flow, Flow::Next) && batch.mails.len() >= BATCH {
                flow = self.commit_batch(store, &mut batch, source, &processed, &mut report, now);
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
        self.commit_batch(store, &mut batch, source, &processed, &mut report, now);
        if let Err(e) = store.finish() {
            report.errors.push(format!("deadline index: {e}"));
        }
        if let Err(e) = self.send_digests(&processed, now, &mut report) {
            report.errors.push(format!("digests: {e}"));
        }
        let flushed = transport::flush(&self.store.outbox_ready(), self.transport);
        report.sent = flushed.sent;
        report.unsent = flushed.failed + flushed.waiting;
        report.send_errors = flushed.errors;
        Ok(report)
    }

    /// One mail: handled and its replies staged in the batch (committed
    /// with it), or, already committed, marked done. Errors go into
    /// `report`; the mail then stays in its mailbox.
    #[allow(clippy::too_many_arguments)]
    fn one_mail(
        &self,
        adj: &Adjudicator<'_>,
        source: &mut dyn Source,
        mail: Pending,
        batch: &mut Batch,
        processed: &Processed,
        now: DateTime<Utc>,
        report: &mut Report,
        handle: &Handler,
    ) -> Flow {
        let mut parsed = inbound::parse(&mail.raw);
        // pbem's own lines, quoted back in any way, are no commands
        // (issue 12): what it lately sent this sender is dropped with the
        // block it stands in. A file that cannot be read leaves the
        // recognised quotes alone to do it.
        if let Ok(m) = &mut parsed
            && let Some(from) = m.from.clone()
            && let Ok(sent) = self.store.correspondence(&from)
            && !sent.lines.is_empty()
        {
            m.strip_known(&|line| sent.knows(line));
        }
        let key = mail_key(
            &mail.raw,
            parsed.as_ref().ok().and_then(|m| m.from.as_deref()),
            parsed.as_ref().ok().and_then(|m| m.message_id.as_deref()),
        );
        // For the log: the mail's own name for itself, as it wrote it.
        let message_id = parsed
            .as_ref()
            .ok()
            .and_then(|m| m.message_id.clone())
            .unwrap_or_else(|| "-".into());
        let not_processed = |report: &mut Report, e: &dyn std::fmt::Display, unwritable: bool| {
            report
                .errors
                .push(format!("{} ({key}): {e}; left in the mailbox", mail.name));
            if unwritable { Flow::Stop } else { Flow::Next }
        };
        let done = match processed.contains(&key) {
            Ok(done) => done,
            Err(e) => return not_processed(report, &e, e.is_unwritable()),
        };
        if done {
            // Said, so that a mail that never counts is seen (issue 13).
            report.skipped += 1;
            report.log.push(crate::logging::line(
                "skipped-processed",
                &[("mail", &mail.name), ("key", &key), ("id", &message_id)],
            ));
            if let Err(e) = source.done(&mail) {
                report
                    .errors
                    .push(format!("{}: cannot mark as done: {e}", mail.name));
            }
            return Flow::Next;
        }
        if batch.keys.contains(&key) {
            // The same mail twice in one batch: done with the first.
            report.skipped += 1;
            batch.twins.push(mail);
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
        // A key whose file cannot be read counts as not committed: at
        // worst a notice goes out twice.
        let committed = |k: &str| processed.contains(k).unwrap_or(false) || batch.keys.contains(k);
        let limited = match self.limit(&key, parsed.as_ref().ok(), &mut handled, &committed, now) {
            Ok(l) => l,
            Err(e) => return not_processed(report, &e, e.is_unwritable()),
        };
        let idx = batch.mails.len();
        let staged = match self.stage_in(
            &mut batch.out,
            idx,
            &key,
            &handled.replies,
            parsed.as_ref().ok(),
            now,
            Hold::News { urgent: false },
        ) {
            Ok(staged) => staged,
            Err(e) => return not_processed(report, &e, e.is_unwritable()),
        };
        let from = parsed
            .as_ref()
            .ok()
            .and_then(|m| m.from.clone())
            .unwrap_or_else(|| "?".into());
        let mut log = vec![crate::logging::line(
            "mail",
            &[
                ("key", &key),
                ("id", &message_id),
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
                    ("key", &key),
                    ("to", to),
                    ("held", held),
                    ("until", &until.format("%Y-%m-%dT%H:%M:%SZ")),
                    ("notice", &if *notice { "sent" } else { "no" }),
                ],
            ));
        }
        batch.keys.insert(key.clone());
        batch.mails.push(Staged {
            key,
            staged,
            mail,
            refused: handled.failed,
            log,
        });
        Flow::Next
    }

    /// Steps 4 and 5 for a batch: sync, commit the keys, release the
    /// replies, mark the mails done. On a failure before the commit the
    /// whole batch is left in the mailbox (its staged replies are thrown
    /// away at the next start); [`Flow::Stop`] when the data folder cannot
    /// be written at all (the batch's writes reach the disk only here, so
    /// this is where a full disk shows).
    fn commit_batch(
        &self,
        store: &Store,
        batch: &mut Batch,
        source: &mut dyn Source,
        processed: &Processed,
        report: &mut Report,
        now: DateTime<Utc>,
    ) -> Flow {
        let Batch {
            mails, twins, out, ..
        } = std::mem::take(batch);
        if mails.is_empty() {
            return Flow::Next;
        }
        let listed: Vec<(usize, &str)> = mails
            .iter()
            .enumerate()
            .filter(|(_, m)| m.staged)
            .map(|(i, m)| (i, m.key.as_str()))
            .collect();
        let folder = listed.first().map(|(_, key)| self.staging_folder(key));
        let committed = folder
            .as_deref()
            .map_or(Ok(()), |f| self.write_staging(f, &out, &listed))
            .and_then(|()| store.sync())
            .and_then(|()| {
                let keys: Vec<&str> = mails.iter().map(|m| m.key.as_str()).collect();
                self.store.mark_processed_all(&keys)
            });
        if let Err(e) = committed {
            // What the batch changed and did not put on disk goes with it.
            store.discard();
            // Uncommitted, the staged replies go (a full disk leaves no
            // half-written mail behind, issue 5), unless a key made it
            // into the log after all: the next poll's recovery then
            // releases its replies.
            if let Some(f) = &folder
                && self
                    .store
                    .processed()
                    .is_ok_and(|p| !mails.iter().any(|m| p.contains(&m.key).unwrap_or(true)))
            {
                let _ = fs::remove_dir_all(f);
            }
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
            // The data folder cannot be written at all: the next batches
            // would fail the same way (their mails wait in the mailbox).
            return if e.is_unwritable() {
                Flow::Stop
            } else {
                Flow::Next
            };
        }
        for m in &mails {
            processed.insert(&m.key);
            report.handled += 1;
            if m.refused {
                report.refused += 1;
            }
            report.log.extend(m.log.iter().cloned());
        }
        // Committed: a release that fails here is done by the next poll's
        // recovery.
        if let Some(folder) = &folder
            && let Err(e) = self.release(folder, None, now)
        {
            report.errors.push(format!("releasing the replies: {e}"));
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
        processed: &Processed,
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
        if processed.contains(&key)? {
            return Ok(());
        }
        let replies = adj.damage_notice(damage)?;
        // Not held for a digest: the game is stopped until someone acts.
        self.commit_as(&key, &replies, None, now, Hold::Never)?;
        processed.insert(&key);
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
    /// A game whose clock fails (or panics) is reported and the others go
    /// on.
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
        processed: &Processed,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<(), StoreError> {
        let mut seen = HashSet::new();
        for (id, marker) in self.store.due_clocks(now, &self.identity.clocks)? {
            let first = seen.insert(id.clone());
            let step = panic::catch_unwind(AssertUnwindSafe(|| {
                self.tick_clock(adj, &id, &marker, first, processed, now, report)
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

    /// One game's clock, met through the index's `marker` (`first`: the
    /// first of its markers this poll): what it owes committed, then the
    /// record and the clock written; owing nothing, the marker is moved
    /// on. A damaged record is reported to the admin and the players
    /// ([`Poller::damage_met`]) and is no error of the poll.
    #[allow(clippy::too_many_arguments)]
    fn tick_clock(
        &self,
        adj: &Adjudicator<'_>,
        id: &str,
        marker: &Path,
        first: bool,
        processed: &Processed,
        now: DateTime<Utc>,
        report: &mut Report,
    ) -> Result<Option<crate::adjudicate::Tick>, AdjudicateError> {
        let due = if first {
            match adj.clock_due(id) {
                Ok(due) => due,
                Err(AdjudicateError::Damaged(d)) => {
                    self.damage_met(adj, &d, processed, now, report)?;
                    return Ok(None);
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let Some(tick) = due else {
            // Through the batch view: the marker goes once the clock that
            // replaced it is durable.
            adj.store.recheck_due(id, marker, &self.identity.clocks)?;
            return Ok(None);
        };
        if !processed.contains(&tick.key)? {
            let hold = Hold::News {
                urgent: tick.urgent,
            };
            self.commit_as(&tick.key, &tick.replies, None, now, hold)?;
            processed.insert(&tick.key);
        }
        if let Some(text) = &tick.record {
            self.store.write_game(id, text)?;
        }
        self.store
            .write_clock(id, &tick.clock, &self.identity.clocks)?;
        Ok(Some(tick))
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
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_as(key, replies, mail, now, Hold::News { urgent: false })
    }

    /// An admin's command (`pbem new`, `pbem move`; issue 13 item 4):
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
        replies: &[crate::adjudicate::Reply],
        made: &Made,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.commit_with(
            key,
            replies,
            None,
            now,
            Hold::News { urgent: false },
            Some(made),
        )
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
        self.commit_with(key, replies, mail, now, hold, None)
    }

    /// [`Poller::commit_as`] or, with `made`, [`Poller::commit_made`].
    fn commit_with(
        &self,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
        made: Option<&Made>,
    ) -> Result<(), StoreError> {
        let store = self.store.batch()?;
        let mut out = Outgoing::default();
        let staged = self.stage_in(&mut out, 0, key, replies, mail, now, hold)?;
        let folder = staged.then(|| self.staging_folder(key));
        let committed = folder
            .as_deref()
            .map_or(Ok(()), |f| {
                self.write_staging(f, &out, &[(0, key)])
                    .and_then(|()| made.map_or(Ok(()), |m| m.write(f)))
            })
            // The command's own changes: synced (the staging folder with
            // them) before their renames, the record last.
            .and_then(|()| made.map_or(Ok(()), |_| self.store.sync()))
            .and_then(|()| store.sync())
            .and_then(|()| self.store.mark_processed(key));
        if let Err(e) = committed {
            // Uncommitted, a staging folder is thrown away: a full disk
            // leaves no half-written mail behind (issue 5); unless the key
            // made it into the log after all (or the command's record
            // onto the disk): then the next poll's recovery releases the
            // replies.
            let throw_away = match made {
                Some(m) => {
                    self.store.discard();
                    !self.store.made(m).unwrap_or(true) && self.store.unmake(m).is_ok()
                }
                None => self
                    .store
                    .processed()
                    .is_ok_and(|p| p.contains(key).is_ok_and(|done| !done)),
            };
            if let Some(f) = &folder
                && throw_away
            {
                let _ = fs::remove_dir_all(f);
            }
            return Err(e);
        }
        if let Some(f) = &folder {
            self.release(f, None, now)?;
        }
        self.sync_outbox();
        Ok(())
    }

    /// Step 3: renders the replies of mail number `idx` of a batch, key
    /// `key`, into the batch's `out` (news held for a digest apart),
    /// where they stay until the commit ([`Poller::write_staging`]).
    /// Returns whether anything was added; on an error, nothing of this
    /// mail is left in `out`.
    #[allow(clippy::too_many_arguments)]
    fn stage_in(
        &self,
        out: &mut Outgoing,
        idx: usize,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<bool, StoreError> {
        let before = (out.pack.len(), out.held.len());
        match self.stage(out, idx, key, replies, mail, now, hold) {
            Ok(()) => Ok(before != (out.pack.len(), out.held.len())),
            Err(e) => {
                out.pack.truncate(before.0);
                out.held.truncate(before.1);
                Err(e)
            }
        }
    }

    /// Renders the replies of [`Poller::stage_in`].
    #[allow(clippy::too_many_arguments)]
    fn stage(
        &self,
        out: &mut Outgoing,
        idx: usize,
        key: &str,
        replies: &[crate::adjudicate::Reply],
        mail: Option<&inbound::Inbound>,
        now: DateTime<Utc>,
        hold: Hold,
    ) -> Result<(), StoreError> {
        let h = stable_hash(key.as_bytes());
        let sender = mail.and_then(|m| m.from.as_deref());
        let adj = Adjudicator {
            store: self.store,
            identity: self.identity,
            templates: self.templates,
            now,
            challenges: self.limits.challenges(),
        };
        let today = now.format("%Y-%m-%d").to_string();
        let mut heads = std::collections::HashMap::new();
        for (n, reply) in replies.iter().enumerate() {
            let id = pack::Id { idx, n };
            if let Hold::News { urgent } = hold
                && self.held(reply, sender)?
            {
                out.held.push((id, self.held_json(reply, urgent, now)?));
                continue;
            }
            let game = reply.game.as_deref();
            let message_id = format!(
                "<pbem.{}.{h:016x}.{n}@{}>",
                game.unwrap_or("x"),
                self.identity.domain()
            );
            // Threaded per player (issue 12): In-Reply-To the player's own
            // mail this answers, else the last mail pbem sent them in the
            // game; References only what they have seen.
            let to = crate::adjudicate::address_of(&reply.to);
            // Advisory: a file that does not read starts afresh (and is
            // written anew), rather than holding up the reply.
            let mut corr = self.store.correspondence(&to).unwrap_or_else(|e| {
                log::warn!("{}", crate::logging::line("sent-file", &[("error", &e)]));
                crate::store::Correspondence::new(&to)
            });
            let answering = mail
                .filter(|m| m.from.as_deref() == Some(to.as_str()))
                .and_then(|m| m.message_id.as_deref());
            let (in_reply_to, refs) = match game {
                Some(g) => corr.headers(g, answering),
                None => (answering.map(str::to_string), Vec::new()),
            };
            let mut reply = reply.clone();
            // One look at the game for all its replies.
            if let Some(g) = game
                && !heads.contains_key(g)
            {
                heads.insert(g.to_string(), adj.thread_head(g));
            }
            let head = game.and_then(|g| heads.get(g)?.as_ref());
            if let Some((head, player)) = head.and_then(|h| Some((h, h.player(&to)?))) {
                reply.rendered.subject = game
                    .and_then(|g| corr.subject(g))
                    .unwrap_or(&head.subject)
                    .to_string();
                reply.to = player.to_string();
            } else if let Some(m) = mail.filter(|_| answering.is_some()) {
                reply.to = crate::adjudicate::mailbox(m.from_name.as_deref(), &to);
            }
            match outbound::build(
                self.identity,
                &reply,
                &message_id,
                in_reply_to.as_deref(),
                &refs,
                now,
            ) {
                Ok(raw) => {
                    let r = &reply.rendered;
                    corr.sent(game, &r.subject, &message_id, answering, &r.text, &today);
                    self.store.write_correspondence(&corr)?;
                    out.pack.push(pack::Entry { id, raw });
                }
                // A recipient that is not an address: log it, send the rest.
                Err(e) => log::warn!(
                    "{}",
                    crate::logging::line("reply-dropped", &[("key", &key), ("error", &e)])
                ),
            }
        }
        Ok(())
    }

    /// The staging folder of a batch whose first mail with replies has
    /// key `key`: `outbox/staging/<hash of key>/`.
    fn staging_folder(&self, key: &str) -> PathBuf {
        let h = stable_hash(key.as_bytes());
        self.store.outbox_staging().join(format!("{h:016x}"))
    }

    /// Step 4's writes, before the sync: a batch's staging folder `dir`,
    /// holding its pack ([`pack::FILE`]: every reply of the batch, one
    /// file however many), its held news (`<idx>.<n>.held.json`, rare),
    /// and its `keys` ([`seal`]). Unsynced: the batch's [`Store::sync`]
    /// makes them durable before the keys are committed. One file for all
    /// the replies, not one each: each file made costs, and more so on a
    /// file system that has just removed many (ext4 without a journal
    /// skips recently freed inodes one by one).
    fn write_staging(
        &self,
        dir: &Path,
        out: &Outgoing,
        listed: &[(usize, &str)],
    ) -> Result<(), StoreError> {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(io(dir))?;
        }
        fs::create_dir_all(dir).map_err(io(dir))?;
        if !out.pack.is_empty() {
            let p = dir.join(pack::FILE);
            fs::write(&p, pack::encode(&out.pack)).map_err(io(&p))?;
        }
        for (id, json) in &out.held {
            let p = dir.join(format!("{id}.held.json"));
            fs::write(&p, json).map_err(io(&p))?;
        }
        seal(dir, listed)
    }

    /// Moves a committed staging folder into `ready/`, named so that
    /// batches go out in the order they were made (the poll's time, then
    /// [`RELEASED`]), with only the replies of the mails numbered in
    /// `keep` (the others were not committed: a crash tore the commit);
    /// `None`: all of it. The folders are synced by the caller, once for
    /// many ([`Poller::sync_outbox`]): a rename lost to a crash is done
    /// again by the next poll's recovery.
    fn release(
        &self,
        staging: &Path,
        keep: Option<&HashSet<usize>>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        if let Some(keep) = keep {
            prune(staging, &|i| keep.contains(&i));
            self.retain_packed(staging, keep)?;
        }
        // An admin's command's: its key is committed by now, and the flush
        // knows no such file.
        let made = staging.join(Made::FILE);
        if let Err(e) = fs::remove_file(&made)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            return Err(io(&made)(e));
        }
        let name = staging.file_name().and_then(|n| n.to_str()).unwrap_or("x");
        self.release_held(staging, name)?;
        let ready = self.store.outbox_ready().join(format!(
            "{}-{:08}-{name}",
            now.format("%Y%m%dT%H%M%S%6f"),
            RELEASED.fetch_add(1, Ordering::Relaxed)
        ));
        fs::rename(staging, &ready).map_err(io(&ready))
    }

    /// Keeps in a staging folder's pack only the replies of the mails
    /// numbered in `keep` (the others' keys were not committed): the pack
    /// rewritten whole, synced, and renamed over the old one, so that a
    /// crash leaves one or the other and the next recovery does it again.
    /// Entries after damage in the pack are lost with it (logged): a pack
    /// is synced before its keys are committed, so only the disk or a
    /// hand can have damaged it.
    fn retain_packed(&self, staging: &Path, keep: &HashSet<usize>) -> Result<(), StoreError> {
        let p = staging.join(pack::FILE);
        let bytes = match fs::read(&p) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io(&p)(e)),
        };
        let (entries, damage) = pack::decode(&bytes);
        let total = entries.len();
        let kept: Vec<pack::Entry> = entries
            .into_iter()
            .filter(|e| keep.contains(&e.id.idx))
            .collect();
        if kept.len() == total {
            return Ok(()); // damage included: the flush reports it
        }
        if let Some(d) = damage {
            log::warn!(
                "{}",
                crate::logging::line("damaged-pack", &[("file", &p.display()), ("error", &d)])
            );
        }
        write_atomic_via(
            &p,
            pack::encode(&kept),
            &self.store.root().join("tmp"),
            true,
        )
        .map_err(io(&p))
    }

    /// Syncs the outbox's folders after releases.
    fn sync_outbox(&self) {
        sync_dir(&self.store.outbox_ready());
        sync_dir(&self.store.outbox_staging());
    }

    /// After a crash: the replies of committed mails go to `ready/`, the
    /// others are thrown away (their mails will be handled again). A
    /// staging folder's `keys` lists its mails; one without it was never
    /// sealed, so none of its mails was committed. Older layouts are still
    /// released: a folder with `<idx>.<n>.eml` files instead of a pack (as
    /// pbem staged replies before the pack), and one with a `key` file,
    /// one mail's replies (before batches, issue 6). A folder of an
    /// admin's command is committed when its record is on disk ([`Made`]).
    /// Run with the lock held, before anything else: by every poll and
    /// every admin's command.
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
            if let Ok(key) = fs::read_to_string(p.join("key")) {
                // One mail's replies, as pbem staged them before issue 6.
                if processed.contains(&key)? {
                    self.release(&p, None, now)?;
                } else {
                    let _ = fs::remove_dir_all(&p);
                }
                continue;
            }
            // An admin's command: committed when its record is on disk
            // ([`Made`]).
            let made = Made::read(&p);
            let made_on_disk = match &made {
                Some(m) => self.store.made(m)?,
                None => false,
            };
            let mut keep = HashSet::new();
            let listed = fs::read_to_string(p.join("keys")).unwrap_or_default();
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
                let _ = fs::remove_dir_all(&p);
            } else {
                self.release(&p, Some(&keep), now)?;
            }
        }
        self.sync_outbox();
        Ok(())
    }
}

/// Writes a staging folder's `keys`: `<idx> <key>` for each mail with
/// replies in it; the next poll's recovery reads which were committed.
fn seal(folder: &Path, listed: &[(usize, &str)]) -> Result<(), StoreError> {
    let mut text = String::new();
    for (i, key) in listed {
        text.push_str(&format!("{i} {key}\n"));
    }
    let p = folder.join("keys");
    fs::write(&p, text).map_err(io(&p))
}

/// Removes from a staging folder the files of the mails for which `keep`
/// is false: held news (`<idx>.<n>.held.json`) and, as staged before the
/// pack, replies (`<idx>.<n>.eml`).
fn prune(folder: &Path, keep: &dyn Fn(usize) -> bool) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(idx) = name
            .to_str()
            .and_then(|n| n.split_once('.'))
            .and_then(|(i, _)| i.parse::<usize>().ok())
        else {
            continue;
        };
        if !keep(idx) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The mails of a batch waiting for their commit.
#[derive(Default)]
struct Batch {
    keys: HashSet<String>,
    /// Their replies, written at the commit.
    out: Outgoing,
    mails: Vec<Staged>,
    /// Mails whose key is already in the batch: marked done with it.
    twins: Vec<Pending>,
}

/// The replies of a batch (or of a commit of one), in memory until its
/// commit: then written as one pack, and the rare held news as files
/// beside it ([`Poller::write_staging`]).
#[derive(Default)]
struct Outgoing {
    pack: Vec<pack::Entry>,
    /// News held for digests: name and JSON ([`Poller::held_json`]).
    held: Vec<(pack::Id, String)>,
}

impl Outgoing {
    /// Drops what mail `idx` staged (it failed after staging).
    fn forget(&mut self, idx: usize) {
        self.pack.retain(|e| e.id.idx != idx);
        self.held.retain(|(id, _)| id.idx != idx);
    }
}

/// A mail handled, its replies staged.
struct Staged {
    key: String,
    /// Whether it has replies (or held news) in the batch's [`Outgoing`].
    staged: bool,
    mail: Pending,
    refused: bool,
    /// Its fate (and what the reply limits held), for the log once
    /// committed.
    log: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mailbox::Maildir;
    use crate::transport::MaildirSink;
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

    /// pbem's identity at `address`, with the default clock policy.
    fn identity(address: &str) -> Identity {
        Identity {
            address: address.into(),
            name: "pbem".into(),
            trusted_authserv: None,
            admin: None,
            clocks: Default::default(),
        }
    }

    /// A data folder in `dir/data` and what a [`Poller`] over it needs,
    /// its replies taken by a [`Sink`].
    struct Fixture {
        dir: tempfile::TempDir,
        store: Store,
        identity: Identity,
        templates: Templates,
        sink: Sink,
    }

    impl Fixture {
        fn new() -> Fixture {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path().join("data")).unwrap();
            Fixture {
                dir,
                store,
                identity: identity("pbem@localhost"),
                templates: Templates::new(None),
                sink: Sink::default(),
            }
        }

        fn poller(&self) -> Poller<'_> {
            Poller {
                store: &self.store,
                identity: &self.identity,
                templates: &self.templates,
                transport: &self.sink,
                limits: Default::default(),
            }
        }
    }

    /// As pbem staged replies before the pack: one `.eml` file each.
    #[test]
    fn issue6_after_a_torn_batch_commit_only_the_committed_replies_go_out() {
        let fx = Fixture::new();
        let (store, sink, poller) = (&fx.store, &fx.sink, fx.poller());
        // A sealed batch of two mails; the crash came after the first key.
        let folder = store.outbox_staging().join("00000000000000ab");
        fs::create_dir_all(&folder).unwrap();
        for (i, to) in ["a", "b"].iter().enumerate() {
            let raw =
                format!("From: pbem@localhost\r\nTo: {to}@example.org\r\nSubject: x\r\n\r\nx\r\n");
            fs::write(folder.join(format!("{i:04}.000.eml")), raw).unwrap();
        }
        seal(&folder, &[(0, "<a@x>"), (1, "<b@x>")]).unwrap();
        store.mark_processed("<a@x>").unwrap();
        let now = "2026-11-21T10:00:00Z".parse().unwrap();
        poller.recover(now).unwrap();
        assert!(!folder.exists());
        let f = transport::flush(&store.outbox_ready(), sink);
        assert_eq!(f.sent, 1);
        let sent = sink.0.lock().unwrap();
        assert!(String::from_utf8_lossy(&sent[0]).contains("a@example.org"));
        assert_eq!(fs::read_dir(store.outbox_ready()).unwrap().count(), 0);
    }

    #[test]
    fn issue6_after_a_torn_batch_commit_only_the_committed_replies_leave_the_pack() {
        let fx = Fixture::new();
        let (store, sink, poller) = (&fx.store, &fx.sink, fx.poller());
        // A sealed batch of three mails, two replies each and held news
        // for two; the crash came after the keys of the first and last.
        let mut out = Outgoing::default();
        for (idx, who) in ["a", "b", "c"].iter().enumerate() {
            for n in 0..2 {
                let raw = format!(
                    "From: pbem@localhost\r\nTo: {who}{n}@example.org\r\nSubject: x\r\n\r\nx\r\n"
                );
                out.pack.push(pack::Entry {
                    id: pack::Id { idx, n },
                    raw: raw.into_bytes(),
                });
            }
            if idx > 0 {
                out.held
                    .push((pack::Id { idx, n: 2 }, format!("{{\"{who}\": 1}}")));
            }
        }
        let listed = [(0, "<a@x>"), (1, "<b@x>"), (2, "<c@x>")];
        let folder = poller.staging_folder("<a@x>");
        poller.write_staging(&folder, &out, &listed).unwrap();
        let names = |d: &Path| {
            let mut n: Vec<String> = fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            n.sort();
            n
        };
        assert_eq!(
            names(&folder),
            [
                "0001.002.held.json",
                "0002.002.held.json",
                "keys",
                "replies"
            ]
        );
        store.mark_processed_all(&["<a@x>", "<c@x>"]).unwrap();
        let now = "2026-11-21T10:00:00Z".parse().unwrap();
        poller.recover(now).unwrap();
        assert!(!folder.exists());
        assert_eq!(names(&store.outbox_staging()), Vec::<String>::new());
        let ready = names(&store.outbox_ready());
        assert_eq!(ready.len(), 1);
        let released = store.outbox_ready().join(&ready[0]);
        assert_eq!(names(&released), ["keys", "replies"]);
        let (kept, damage) = pack::decode(&fs::read(released.join(pack::FILE)).unwrap());
        assert_eq!(damage, None);
        let ids: Vec<String> = kept.iter().map(|e| e.id.to_string()).collect();
        assert_eq!(ids, ["0000.000", "0000.001", "0002.000", "0002.001"]);
        let digest = names(&store.outbox_digest());
        assert_eq!(digest.len(), 1, "{digest:?}");
        assert!(digest[0].ends_with("-0002.002.held.json"), "{digest:?}");
        assert!(store.remove_stale_temps() == 0, "no temporary file left");

        assert_eq!(transport::queued(&store.outbox_ready()), 4);
        let f = transport::flush(&store.outbox_ready(), sink);
        assert_eq!((f.sent, f.failed), (4, 0), "{f:?}");
        let sent = sink.0.lock().unwrap();
        let to: Vec<String> = sent
            .iter()
            .map(|m| {
                let m = String::from_utf8_lossy(m);
                m.split("To: ")
                    .nth(1)
                    .unwrap()
                    .split('@')
                    .next()
                    .unwrap()
                    .into()
            })
            .collect();
        assert_eq!(to, ["a0", "a1", "c0", "c1"]);
        assert_eq!(fs::read_dir(store.outbox_ready()).unwrap().count(), 0);
    }

    /// The key the poll gives the raw mail `raw`.
    fn key_of(raw: &[u8]) -> String {
        let m = inbound::parse(raw).unwrap();
        mail_key(raw, m.from.as_deref(), m.message_id.as_deref())
    }

    #[test]
    fn issue6_the_same_mail_twice_in_one_batch_is_handled_once() {
        let fx = Fixture::new();
        let (store, sink, poller) = (&fx.store, &fx.sink, fx.poller());
        let mut inbox = Maildir::open(fx.dir.path().join("inbox")).unwrap();
        let raw = b"From: carol@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\n\
                    Message-ID: <twice@example.org>\r\n\r\nhelp\r\n";
        inbox.deliver("1.a", raw).unwrap();
        inbox.deliver("2.b", raw).unwrap();
        let now = "2026-11-21T10:00:00Z".parse().unwrap();
        let r = poller.poll(&mut inbox, now, false).unwrap();
        assert_eq!((r.handled, r.skipped, r.errors.len()), (1, 1, 0), "{r:?}");
        assert_eq!(sink.0.lock().unwrap().len(), 1, "one reply");
        assert!(inbox.pending().unwrap().is_empty(), "both copies done");
        let all = store.processed().unwrap().all().unwrap();
        assert_eq!(all, HashSet::from([key_of(raw)]));
    }

    /// Issue 5: "One mail must not stop a poll even if a library panics
    /// on it": the mail stays in its mailbox, the error names it, the
    /// other mails are answered and the outbox sent; once the fault is
    /// gone the next poll answers the mail, once.
    #[test]
    fn issue5_a_mail_pbem_panics_on_is_left_and_the_poll_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("data")).unwrap();
        let identity = identity("pbem@example.net");
        let templates = Templates::new(None);
        let sent = dir.path().join("sent");
        let transport = MaildirSink {
            folder: sent.clone(),
        };
        let mut inbox = Maildir::open(dir.path().join("inbox")).unwrap();
        let mut keys = std::collections::HashMap::new();
        for (name, who) in [("1.a", "ann"), ("2.b", "bob"), ("3.c", "cid")] {
            let raw = format!(
                "From: {who}@example.org\r\nTo: pbem@example.net\r\nSubject: hi\r\n\
                 Message-ID: <{who}@example.org>\r\n\r\nhelp\r\n"
            );
            inbox.deliver(name, raw.as_bytes()).unwrap();
            keys.insert(who, key_of(raw.as_bytes()));
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
        let p = store.processed().unwrap().all().unwrap();
        assert!(
            p.contains(&keys["ann"]) && p.contains(&keys["cid"]) && !p.contains(&keys["bob"]),
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
