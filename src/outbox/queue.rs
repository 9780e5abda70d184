//! The ready queue: committed batches in `DATA/outbox/ready/`, each
//! handed to the [`Transport`] in order by [`flush`]. Mail path: the
//! outbox's last step, `outbox -> transport`.
//!
//! Each batch of a poll is one folder in `ready/`, sent oldest first:
//!
//! ```text
//! ready/<time>-<seq>-<name>/replies   the batch's replies, one pack (pack)
//! ready/<time>-<seq>-<name>/sent      the entries sent, one name a line
//! ready/<time>-<seq>-<name>/keys      the batch's mails (bookkeeping)
//! ```
//!
//! Replies wait there until the transport has taken them; a failure
//! leaves them for the next flush,
//! unless the server refused the reply for good: then it moves to
//! `DATA/outbox/dead/` and the admin is told once ([`dead`]).
//!
//! Crash safety: [`flush`] sends a pack's entries in order, appends each
//! one's name to `sent` once the transport has taken it, skips those
//! already there, and removes the folder when all are sent (no
//! file made or removed per reply). A crash between a send and its note
//! sends that reply again (each reply keeps its Message-ID, so a client
//! can tell), which no order of the two steps avoids. [`queued`] counts
//! what waits.

use super::{dead, pack};
use crate::transport::{Transport, envelope_of};
use lettre::address::Envelope;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// The batch folders of `ready/` this process released from its own
/// commits and has not handed to a transport yet. None of their replies
/// can have gone out: a crash leaves what it released to the next
/// process, whose recovery and flush do not find them here, and the first
/// flush that tries a folder takes it out, whatever becomes of it.
static UNTRIED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Notes `dir`, a batch folder of `ready/` about to be released from a
/// commit of this process, as not yet tried ([`UNTRIED`]).
pub(super) fn note_untried(dir: PathBuf) {
    let mut untried = UNTRIED.lock().unwrap_or_else(PoisonError::into_inner);
    untried.get_or_insert_with(HashSet::new).insert(dir);
}

/// Whether `dir` was [`UNTRIED`]; it is not any more.
pub(super) fn take_untried(dir: &Path) -> bool {
    let mut untried = UNTRIED.lock().unwrap_or_else(PoisonError::into_inner);
    untried.as_mut().is_some_and(|set| set.remove(dir))
}

/// A batch this process has just released from its own commit into a
/// folder of `ready/`, with its replies as they were staged: handed to
/// the flush ([`Sending::hand_over`]), which sends them as they are
/// instead of reading back and unpacking the pack it was written into
/// (nothing changes a fresh batch's pack before its first try). The pack
/// on disk stays what a crash leaves to the next process.
pub struct Released {
    pub(super) dir: PathBuf,
    pub(super) replies: Vec<pack::Entry>,
}

impl Released {
    /// The bytes of its replies, to bound what waits in memory.
    pub fn bytes(&self) -> usize {
        self.replies.iter().map(|e| e.raw.len()).sum()
    }
}

/// What one flush of the outbox did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    pub sent: usize,
    /// Mails that failed and stay queued (transient failures, the one
    /// that found the transport down, damaged packs).
    pub failed: usize,
    /// Mails not tried because the transport was down ("SMTP
    /// outage"): they stay queued for the next flush.
    pub waiting: usize,
    /// Mails the server refused for good, moved to the dead letters
    /// ([`dead`]): no longer queued, and not in `errors`.
    pub dead: usize,
    /// Why each failed mail failed.
    pub errors: Vec<String>,
}

/// What a batch folder of `ready/` still holds to send: the entries of
/// its pack not yet listed in its [`pack::SENT`] file.
struct ReadyPack {
    dir: PathBuf,
    /// In the order they go out.
    replies: Vec<pack::Entry>,
    /// Why (part of) the pack cannot be read, with the file and byte.
    damage: Option<String>,
    /// Released by this process and never tried ([`UNTRIED`]).
    untried: bool,
}

impl ReadyPack {
    /// A batch handed over as released ([`Released`]): its replies as
    /// staged, none sent yet.
    fn handed(dir: PathBuf, replies: Vec<pack::Entry>) -> ReadyPack {
        ReadyPack {
            dir,
            replies,
            damage: None,
            untried: false,
        }
    }

    /// Reads a batch folder (`None`: the folder cannot be read at all).
    fn read(dir: PathBuf) -> Option<ReadyPack> {
        fs::read_dir(&dir).ok()?;
        let mut ready = ReadyPack {
            replies: Vec::new(),
            damage: None,
            untried: false,
            dir,
        };
        let file = ready.dir.join(pack::FILE);
        match fs::read(&file) {
            Ok(bytes) => {
                let (entries, damage) = pack::decode(&bytes);
                ready.damage = damage.map(|d| {
                    format!(
                        "{}: {d}; the entries before it are sent, the rest stays there for \
                         the admin",
                        file.display()
                    )
                });
                match pack::sent(&ready.dir) {
                    Ok(sent) => ready
                        .replies
                        .extend(entries.into_iter().filter(|e| !sent.contains(&e.id))),
                    Err(e) => {
                        // Sending all again would double them: wait.
                        let sent = ready.dir.join(pack::SENT);
                        ready.damage = Some(format!("{}: {e}", sent.display()));
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => ready.damage = Some(format!("{}: {e}", file.display())),
        }
        Some(ready)
    }

    /// Sends one reply; the caller notes it sent ([`ReadyPack::note_sent`])
    /// once the transport has it (at once, or once settled). No fsync of
    /// the note: a crash between a send and its note sends that reply
    /// again (each reply keeps its Message-ID, so a client can tell),
    /// which no order of the two steps avoids.
    ///
    /// A reply the server refuses for good is put in the dead letters of
    /// `dead_dir` before it is noted; one found there already
    /// (a crash came between the two) is only noted.
    fn send(
        &self,
        reply: &pack::Entry,
        transport: &dyn Transport,
        sent: &mut Option<fs::File>,
        dead_dir: &Path,
        buried: &HashSet<String>,
    ) -> Result<Gone, Failure> {
        let raw = &reply.raw;
        // Its name in the dead letters, and how errors name it: made only
        // when there are dead letters to look in, or an error to tell.
        let name = || dead::name_for(&self.dir, &reply.id.to_string());
        if !buried.is_empty() && buried.contains(&name()) {
            self.note_sent(reply.id, sent);
            return Ok(Gone::Buried);
        }
        // The envelope staged with it; a version-1 pack's from its headers.
        let envelope = match &reply.envelope {
            Some(env) => Ok(env.clone()),
            None => envelope_of(raw),
        };
        let hand_over = |env: Envelope| match self.untried {
            true => transport.send_first(&env, raw),
            false => transport.send(&env, raw),
        };
        let error = match envelope.and_then(hand_over) {
            Ok(()) => return Ok(Gone::Sent),
            Err(e) => e,
        };
        let label = format!("{}: {}", self.dir.join(pack::FILE).display(), reply.id);
        if !error.is_permanent() {
            return Err(Failure {
                message: format!("{label}: {error}"),
                down: error.is_down(),
            });
        }
        let note = dead::Note::of(raw, &error.message, &label, crate::clock::now());
        match dead::bury(dead_dir, &name(), raw, &note) {
            Ok(mail) => {
                log::warn!(
                    "{}",
                    crate::logging::line(
                        "dead-letter",
                        &[
                            ("to", &note.to),
                            ("error", &note.error),
                            ("mail", &mail.display()),
                            ("queued", &label),
                        ]
                    )
                );
                self.note_sent(reply.id, sent);
                Ok(Gone::Dead)
            }
            // Kept queued: it is refused again next time, and buried then.
            Err(e) => Err(Failure {
                message: format!(
                    "{label}: {error}; it stays queued: it could not be moved to {}: {e}",
                    dead_dir.display()
                ),
                down: false,
            }),
        }
    }

    /// Notes a reply gone (sent or buried): appended to the folder's
    /// `sent`.
    fn note_sent(&self, id: pack::Id, sent: &mut Option<fs::File>) {
        let p = self.dir.join(pack::SENT);
        crate::store::crashpoint::reach();
        let noted = match sent {
            Some(f) => Ok(f),
            None => fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .map(|f| sent.insert(f)),
        }
        .and_then(|f| f.write_all(format!("{id}\n").as_bytes()));
        if let Err(err) = noted {
            log::warn!(
                "{}",
                crate::logging::line(
                    "sent-unnoted",
                    &[("file", &p.display()), ("entry", &id), ("error", &err)]
                )
            );
        }
    }

    /// Removes a batch folder all sent: the pack first, so that a crash
    /// half-way leaves no pack whose `sent` is gone (which would send it
    /// all again).
    fn remove(&self) {
        for name in [pack::FILE, pack::SENT, super::KEYS] {
            crate::store::crashpoint::reach();
            let _ = fs::remove_file(self.dir.join(name));
        }
        let _ = fs::remove_dir(&self.dir); // only when empty
    }
}

/// The most held replies a flush settles at once: the batches that held
/// them are noted sent and removed together. A settle syncs each
/// recipient's `new/` once however many of its mails it holds, so the
/// more it holds the fewer syncs a mail costs; each batch waiting keeps
/// only its folder, its open `sent` file and its replies' ids.
const SETTLE_EVERY: usize = 4096;

/// A batch whose replies are all handed over, those the transport held
/// waiting for its settle.
struct Unsettled {
    batch: ReadyPack,
    held: Vec<pack::Id>,
    sent: Option<fs::File>,
    /// Something of it failed, or its pack is damaged: it stays.
    keep: bool,
}

impl Unsettled {
    /// Done with: its `sent` file closed, and its folder removed unless
    /// something of it stays.
    fn close(self) {
        drop(self.sent);
        if !self.keep {
            self.batch.remove();
        }
    }
}

/// What became of one queued reply the flush is done with.
enum Gone {
    Sent,
    /// Refused for good, and put in the dead letters.
    Dead,
    /// In the dead letters already (a crash before it was noted).
    Buried,
}

/// A failed send of one queued reply: what to report, and whether the
/// transport itself is down ([`SendErrorKind::Down`](crate::transport::SendErrorKind::Down)).
struct Failure {
    message: String,
    down: bool,
}

/// The batch folders of `ready`, oldest first.
fn batches(ready: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(ready) else {
        return Vec::new();
    };
    let mut batches: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    batches.sort();
    batches
}

/// How many replies wait in each batch folder of `ready` (oldest first):
/// the entries of its pack not yet sent.
pub fn queued_by_batch(ready: &Path) -> Vec<usize> {
    batches(ready)
        .into_iter()
        .filter_map(ReadyPack::read)
        .map(|b| b.replies.len())
        .collect()
}

/// How many replies wait in `ready` to be sent ([`queued_by_batch`],
/// summed).
pub fn queued(ready: &Path) -> usize {
    queued_by_batch(ready).iter().sum()
}

/// Sends everything in `ready` (oldest batch first, each in order); what
/// is sent is noted, and a batch folder all sent is removed; what fails
/// stays for the next time. When the transport itself is down (the
/// server does not answer), the flush stops at the first failure instead
/// of waiting for each queued mail's own time-out. A reply the server
/// refuses for good ([`SendErrorKind::Permanent`](crate::transport::SendErrorKind::Permanent)) is moved to the dead
/// letters beside `ready` ([`dead::folder_of`]), logged at warn level,
/// and counted in [`Flushed::dead`], not as a failure. A
/// damaged pack counts as one failure, every flush, until the admin
/// removes it.
pub fn flush(ready: &Path, transport: &dyn Transport) -> Flushed {
    Sending::default().finish(ready, transport)
}

/// A flush in rounds: [`Sending::round`] while a poll goes on (the
/// batches its commits release go out while it handles the next ones),
/// then [`Sending::finish`] at its end. Together they are one
/// [`flush`]: each batch folder is tried at most once (one that failed
/// stays for the next poll, as after a flush), the deliveries a
/// transport holds are settled across rounds as across batches (up to
/// [`SETTLE_EVERY`] at once), and once the transport is found down
/// nothing more is tried.
#[derive(Default)]
pub struct Sending {
    out: Flushed,
    /// The batch folders handed to the transport (those that stay, as
    /// something of them failed, and those held, waiting for a settle).
    tried: HashSet<PathBuf>,
    /// The batches sent whose replies the transport holds, and how many.
    unsettled: Vec<Unsettled>,
    held: usize,
    /// The transport itself failed (not by counting the mails left: it
    /// may fail on the last mail of a batch).
    down: bool,
    /// The batch folders of `ready` when it was found down, their
    /// replies counted already.
    seen: HashSet<PathBuf>,
    /// The replies of batches handed over as released, by folder, until
    /// their round sends them ([`Sending::hand_over`]).
    handed: HashMap<PathBuf, Vec<pack::Entry>>,
}

impl Sending {
    /// Takes the replies of a batch just released: its round sends them
    /// as they are, without reading its pack. Forgotten once the
    /// transport is down (nothing more is sent; what waits is counted
    /// from the packs).
    pub fn hand_over(&mut self, released: Released) {
        if !self.down {
            self.handed.insert(released.dir, released.replies);
        }
    }

    /// Sends what `ready` holds and this flush has not tried, unless the
    /// transport was found down.
    pub fn round(&mut self, ready: &Path, transport: &dyn Transport) {
        if self.down {
            return;
        }
        let listed = batches(ready);
        let fresh: Vec<PathBuf> = listed
            .iter()
            .filter(|d| !self.tried.contains(*d))
            .cloned()
            .collect();
        self.send_batches(ready, fresh, transport);
        if self.down {
            self.seen = listed.into_iter().collect();
        }
    }

    /// The last round, and what the flush did in all. When the transport
    /// was found down, the batches released since wait uncounted so far:
    /// they are counted, not tried.
    pub fn finish(mut self, ready: &Path, transport: &dyn Transport) -> Flushed {
        self.round(ready, transport);
        // Found down in a round, which counted what it saw; a settle
        // that fails now leaves nothing after it.
        let counted = self.down;
        self.settle(transport);
        if counted {
            self.out.waiting += batches(ready)
                .into_iter()
                .filter(|dir| !self.seen.contains(dir))
                .filter_map(ReadyPack::read)
                .map(|b| b.replies.len())
                .sum::<usize>();
        }
        if self.out.waiting > 0 {
            self.out.errors.push(format!(
                "{} more queued mails not tried while the transport is down; they wait in {}",
                self.out.waiting,
                ready.display()
            ));
        }
        transport.finish();
        self.out
    }

    /// Sends the batch folders `dirs` of `ready`, in order.
    fn send_batches(&mut self, ready: &Path, dirs: Vec<PathBuf>, transport: &dyn Transport) {
        if dirs.is_empty() {
            return;
        }
        let dead_dir = dead::folder_of(ready);
        let buried = dead::buried(&dead_dir);
        for dir in dirs {
            // Nothing is handed over once the transport is down.
            let Some(mut batch) = (match self.handed.remove(&dir) {
                Some(replies) => Some(ReadyPack::handed(dir, replies)),
                None => ReadyPack::read(dir),
            }) else {
                continue;
            };
            // Not tried again in this flush: sent and gone, held, or
            // staying for the next.
            self.tried.insert(batch.dir.clone());
            let out = &mut self.out;
            if let Some(d) = &batch.damage {
                out.failed += 1;
                out.errors.push(d.clone());
            }
            if self.down {
                out.waiting += batch.replies.len();
                continue;
            }
            batch.untried = take_untried(&batch.dir);
            let failed_before = out.failed;
            let mut sent = None;
            // A transport that holds its deliveries ([`Transport::hold`]):
            // its mails are noted sent once settled, after the batch (and
            // the batches after it, up to [`SETTLE_EVERY`] replies).
            let holding = transport.hold();
            let mut held = Vec::new();
            let all = std::mem::take(&mut batch.replies);
            let mut replies = all.iter();
            while let Some(reply) = replies.next() {
                let error = match batch.send(reply, transport, &mut sent, &dead_dir, &buried) {
                    Ok(Gone::Sent) if holding => {
                        held.push(reply.id);
                        continue;
                    }
                    Ok(Gone::Sent) => {
                        batch.note_sent(reply.id, &mut sent);
                        out.sent += 1;
                        continue;
                    }
                    Ok(Gone::Dead) => {
                        out.dead += 1;
                        continue;
                    }
                    Ok(Gone::Buried) => continue,
                    Err(e) => e,
                };
                out.failed += 1;
                out.errors.push(error.message);
                if error.down {
                    self.down = true;
                    self.handed.clear();
                    out.waiting += replies.len();
                    break;
                }
            }
            drop(all);
            self.held += held.len();
            let waits = holding && !held.is_empty();
            let done = Unsettled {
                keep: out.failed != failed_before || batch.damage.is_some(),
                batch,
                held,
                // Closed while it waits (opened again to note the settled
                // replies): many small batches may wait at once.
                sent: sent.filter(|_| !waits),
            };
            match holding {
                true => self.unsettled.push(done),
                false => done.close(),
            }
            if self.held >= SETTLE_EVERY || self.down {
                self.settle(transport);
            }
        }
    }

    /// The end of the batches whose replies the transport held: settled,
    /// their replies are noted sent; not, each counts as a failure and
    /// its batch stays. The batches are done with either way.
    fn settle(&mut self, transport: &dyn Transport) {
        self.held = 0;
        if self.unsettled.is_empty() {
            return;
        }
        let settled = transport.settle();
        let out = &mut self.out;
        for mut u in self.unsettled.drain(..) {
            match &settled {
                Ok(()) => {
                    for id in &u.held {
                        u.batch.note_sent(*id, &mut u.sent);
                        out.sent += 1;
                    }
                }
                Err(e) => {
                    out.failed += u.held.len().max(1);
                    out.errors.push(format!("{}: {e}", u.batch.dir.display()));
                    u.keep = true;
                }
            }
            u.close();
        }
        if let Err(e) = settled {
            self.down |= e.is_down();
            if self.down {
                self.handed.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests;
