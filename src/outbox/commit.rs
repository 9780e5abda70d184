//! The commit of staged replies: the staging folder written and sealed,
//! the store synced, the keys committed, the folder released into
//! `ready/`. Mail path: the outbox's middle step, between staging
//! ([`super::stage`]) and the ready queue ([`super::queue`]).
//!
//! Crash safety (the outbox's contract, [`crate::outbox`]): the staging
//! folder `outbox/staging/<name>/` holds the pack of the batch's replies,
//! its held news and `keys` ([`super::KEYS`], the seal), written before
//! the store's sync, so that every record, rename and staged reply of the
//! batch is on disk before the keys are appended to `processed/`: the
//! commit point. A failure before it throws the folder away (a full disk
//! leaves no half-written mail behind) unless a key made it into
//! the log after all: then the next recovery ([`super::recover`])
//! releases its replies. A release cut short is done again by recovery.

use super::{KEYS, Outbox, Outgoing, Released, Replies, held, pack};
use crate::store::files::write_atomic_via;
use crate::store::{Made, StoreError, io_err as io, stable_hash};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the batches of replies this process releases, so that they go
/// out in the order their mails were handled, also within one poll (whose
/// `now` is one instant) rather than in the order of their keys' hashes.
static RELEASED: AtomicU64 = AtomicU64::new(0);

impl Outbox<'_> {
    /// A poll's batch, staged in `out`: its staging folder written, the
    /// store synced, then the keys of all its mails (`keys`, with replies
    /// or without) committed. Returns the staging folder to release
    /// ([`Outbox::release_committed`]), `None` when no mail had replies.
    ///
    /// # Errors
    /// Store failures: nothing of the batch is then committed (what it
    /// changed and did not put on disk is dropped, its staged replies
    /// thrown away), unless a key made it into the log after all: the
    /// next poll's recovery then releases its replies.
    pub fn commit_batch(
        &self,
        out: &Outgoing,
        keys: &[&str],
    ) -> Result<Option<PathBuf>, StoreError> {
        let folder = out.first_key().map(|k| self.staging_folder(k));
        let committed = folder
            .as_deref()
            .map_or(Ok(()), |f| self.write_staging(f, out))
            .and_then(|()| self.store.sync())
            .and_then(|()| self.store.mark_processed_all(keys));
        if let Err(e) = committed {
            // What the batch changed and did not put on disk goes with it.
            self.store.discard();
            // Uncommitted, the staged replies go (a full disk leaves no
            // half-written mail behind), unless a key made it
            // into the log after all: the next poll's recovery then
            // releases its replies.
            if let Some(f) = &folder
                && self
                    .store
                    .processed()
                    .is_ok_and(|p| !keys.iter().any(|k| p.contains(k).unwrap_or(true)))
            {
                let _ = fs::remove_dir_all(f);
            }
            return Err(e);
        }
        Ok(folder)
    }

    /// Stages the replies of `r` (a batch of one: a notice, a clock's
    /// mails, a digest, an admin's command), commits its key, releases the
    /// replies. With `made` ([`Made`], an admin's command item
    /// 4): what the command changed waits in `self.store`, a
    /// [`crate::store::Store::batch`] view, and reaches the disk in the
    /// same sync as the staged replies, with `made` beside them; the
    /// record's rename is the commit point.
    ///
    /// # Errors
    /// Store failures: the key is then not committed (nothing of a command
    /// on disk), or committed with its replies left for the next poll's
    /// recovery to release.
    pub fn commit_one(
        &self,
        r: &Replies<'_>,
        made: Option<&Made>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let mut out = Outgoing::default();
        let staged = self.stage(&mut out, r, now)?;
        let folder = staged.then(|| self.staging_folder(r.key));
        let committed = folder
            .as_deref()
            .map_or(Ok(()), |f| {
                self.write_staging(f, &out).and_then(|()| {
                    made.map_or(Ok(()), |m| {
                        m.write(f)
                            .and_then(|()| self.store.written(&f.join(Made::FILE), true))
                    })
                })
            })
            // The staging folder on disk before the key; with a command's
            // own changes, synced with them before their renames, the
            // record last. Without, the batch's other changes wait for
            // its own sync.
            .and_then(|()| match made {
                Some(_) => self.store.sync(),
                None => self.store.sync_noted(),
            })
            .and_then(|()| self.store.mark_processed(r.key));
        if let Err(e) = committed {
            // Uncommitted, a staging folder is thrown away: a full disk
            // leaves no half-written mail behind; unless the key
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
                    .is_ok_and(|p| p.contains(r.key).is_ok_and(|done| !done)),
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
        Ok(())
    }

    /// Releases a committed batch's staging folder, if any: the batch
    /// released, with `out`'s replies, to hand to the flush
    /// ([`super::Sending::hand_over`]).
    ///
    /// # Errors
    /// A file that cannot be moved: the next poll's recovery releases it.
    pub fn release_committed(
        &self,
        folder: Option<&Path>,
        out: Outgoing,
        now: DateTime<Utc>,
    ) -> Result<Option<Released>, StoreError> {
        let Some(f) = folder else {
            return Ok(None);
        };
        let dir = self.release(f, None, now)?;
        Ok(Some(Released {
            dir,
            replies: out.pack,
        }))
    }

    /// The staging folder of a batch whose first mail with replies has
    /// key `key`: `outbox/staging/<hash of key>/`.
    pub(super) fn staging_folder(&self, key: &str) -> PathBuf {
        let h = stable_hash(key.as_bytes());
        self.store.outbox_staging().join(format!("{h:016x}"))
    }

    /// The commit's writes, before the sync: a batch's staging folder
    /// `dir`, holding its pack ([`pack::FILE`]: every reply of the batch,
    /// one file however many), its held news (`<idx>.<n>.held.json`,
    /// rare), and its `keys` ([`seal`]). Noted with the batch
    /// ([`crate::store::Store::written`]), whose next sync makes them
    /// durable before the keys are committed. One file for all the replies, not one each: each
    /// file made costs, and more so on a file system that has just
    /// removed many (ext4 without a journal skips recently freed inodes
    /// one by one).
    pub(super) fn write_staging(&self, dir: &Path, out: &Outgoing) -> Result<(), StoreError> {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(io(dir))?;
        }
        fs::create_dir_all(dir).map_err(io(dir))?;
        self.store.changed_folder(&self.store.outbox_staging())?;
        if !out.pack.is_empty() {
            let p = dir.join(pack::FILE);
            fs::write(&p, pack::encode(&out.pack)).map_err(io(&p))?;
            self.store.written(&p, true)?;
        }
        for (id, json) in &out.held {
            let p = dir.join(format!("{id}{}", held::SUFFIX));
            fs::write(&p, json).map_err(io(&p))?;
            self.store.written(&p, true)?;
        }
        seal(dir, &out.listed)?;
        self.store.written(&dir.join(KEYS), true)
    }

    /// Moves a committed staging folder into `ready/`, named so that
    /// batches go out in the order they were made (the poll's time, then
    /// [`RELEASED`]), with only the replies of the mails numbered in
    /// `keep` (the others were not committed: a crash tore the commit);
    /// `None`: all of it. The rename is not synced: a crash that loses it
    /// leaves the folder in `staging/`, committed, and the next poll's
    /// recovery releases it again. Its replies go out again only if they
    /// had gone out before the crash, as when the flush's note of a reply
    /// sent is lost (the flush's removals are not synced either), and the
    /// Maildir transport delivers none twice. A sync of `ready/` and
    /// `staging/` here cost two of the 23 syncs of a one-mail process and
    /// changed none of that: a file system with a journal renames in one
    /// step, and on one without, a crash between the two syncs left the
    /// folder in both as well. A batch released from this process's own
    /// commit (`keep`: `None`) is noted untried before it is in `ready/`,
    /// where a flush under way may find it at once
    /// ([`super::queue::note_untried`]). Returns the folder in `ready/`.
    pub(super) fn release(
        &self,
        staging: &Path,
        keep: Option<&HashSet<usize>>,
        now: DateTime<Utc>,
    ) -> Result<PathBuf, StoreError> {
        if let Some(keep) = keep {
            prune(staging, &|i| keep.contains(&i));
            self.retain_packed(staging, keep)?;
        }
        // An admin's command's: its key is committed by now, and the flush
        // knows no such file.
        let made = staging.join(Made::FILE);
        crate::store::crashpoint::reach();
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
        let fresh = keep.is_none();
        if fresh {
            super::queue::note_untried(ready.clone());
        }
        crate::store::crashpoint::reach();
        if let Err(e) = fs::rename(staging, &ready) {
            if fresh {
                super::queue::take_untried(&ready);
            }
            return Err(io(&ready)(e));
        }
        Ok(ready)
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
}

/// Writes a staging folder's `keys`: `<idx> <key>` for each mail with
/// replies in it; the next poll's recovery reads which were committed.
pub(super) fn seal(folder: &Path, listed: &[(usize, String)]) -> Result<(), StoreError> {
    let mut text = String::new();
    for (i, key) in listed {
        text.push_str(&format!("{i} {key}\n"));
    }
    let p = folder.join(KEYS);
    fs::write(&p, text).map_err(io(&p))
}

/// Removes from a staging folder the held news (`<idx>.<n>.held.json`)
/// of the mails for which `keep` is false.
fn prune(folder: &Path, keep: &dyn Fn(usize) -> bool) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(idx) = name
            .to_str()
            .filter(|n| n.ends_with(held::SUFFIX))
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
