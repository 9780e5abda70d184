//! The poll's in-memory view of a batch of writes ([`Store::batch`]):
//! writes and removals wait in memory, seen by the view's own reads,
//! until [`Store::sync`] puts them on disk and syncs what the batch wrote
//! and changed (its [`SyncSet`]), files and folders, nothing else.

use super::files::{
    SyncSet, changes, folder_of, recording, remove_if_there, write_atomic_via, write_over,
};
use super::ids::{PathMap, PathSet};
use super::index::{Change, GameFacts};
use super::readcache::ReadCache;
use super::spares::Ring;
use super::{Correspondence, Store, StoreError, io_err, read_opt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The state of a [`Store::batch`] view.
#[derive(Debug)]
pub struct BatchView {
    /// Deadline markers replaced in the batch, removed once the new ones
    /// are durable (a stale marker costs a look; a missing one, a notice).
    pub(super) stale: Mutex<Vec<PathBuf>>,
    /// Files written or removed in the batch, not yet on disk.
    pub(super) pending: Mutex<PendingWrites>,
    /// What the batch has written or changed on disk and not synced yet:
    /// the outbox's staging folder, deadline markers, the keys' files,
    /// the indexes, and the files and folders [`Store::sync`] wrote.
    pub(super) unsynced: Mutex<SyncSet>,
    /// What the batch's reads found on disk ([`Store::read_opt`]).
    pub(super) read: Mutex<ReadCache>,
}

/// The changes of a batch waiting for [`Store::sync`]: the last contents
/// of each file (`None`: removed), in the order of each file's first
/// change, which is the order they reach the disk in. That keeps what the
/// writers rely on when a crash stops the renames half-way: a new game's
/// secrets and clock before its record, a record before its clock when a
/// move is played (a clock behind its record catches up from the
/// record's times; see `crate::adjudicate::clocks`), and every removal
/// (a challenge) after the files that replace it (its game).
///
/// A file that names others ([`Store::write_file_last`]: a tournament,
/// whose rounds name their games) takes the place of its *last* change
/// instead: it is often changed before the files it comes to name (a
/// tournament when a result is entered, then the next round's games, then
/// the tournament again), and on disk before them it would name games that
/// a crash left unmade.
///
/// Its maps, and the [`ReadCache`]'s, are keyed by a path's bytes as the
/// store spells it (each joined from the data folder's root the same
/// way): hashed whole, not component by component as a `Path` is, at
/// some forty lookups a mail.
#[derive(Debug, Default)]
pub struct PendingWrites {
    order: Vec<PathBuf>,
    pub(super) files: PathMap<Option<String>>,
    /// Files rewritten in place rather than replaced ([`Store::write_in_place`]).
    in_place: PathSet,
    /// What the records written from a record in hand say of their games
    /// ([`Store::write_game_known`]), for the index.
    known: PathMap<GameFacts>,
    /// The memories of sent lines changed in the batch, by their first
    /// slot's path ([`Store::keep_memory`]), and that path by the path of
    /// the slot each goes to.
    pub(super) memories: PathMap<PendingMemory>,
    slots: PathMap<OsString>,
}

/// A memory of sent lines changed in a batch: written to its slot once,
/// at the sync, however many replies changed it (a player in every game
/// of a batch gets a reply from each mail, and a memory near its bounds
/// holds some 70 KB of line hashes and its threads' JSON).
#[derive(Debug)]
pub(super) struct PendingMemory {
    /// The slot the batch writes: every write of an address in a batch
    /// goes to the slot its first one took.
    pub(super) slot: PathBuf,
    /// What it will hold; `None` while taken out to be changed
    /// ([`Store::change_sent`]).
    pub(super) state: Option<Arc<Correspondence>>,
}

/// The text of a memory's slot `slot` holding `state`, its sequence
/// number the one `state` has (as [`Store::write_correspondence`] left
/// it).
pub(super) fn memory_text(slot: &Path, state: &Correspondence) -> Result<String, StoreError> {
    state
        .slot(state.stored.seq)
        .map_err(|source| StoreError::Json {
            what: slot.display().to_string(),
            source,
        })
}

impl PendingWrites {
    fn set(&mut self, p: &Path, text: Option<String>) {
        self.known.remove(p.as_os_str());
        if self.files.insert(p.as_os_str().to_owned(), text).is_none() {
            self.order.push(p.to_path_buf());
        }
    }

    /// [`PendingWrites::set`], the file moved after every change so far.
    fn set_last(&mut self, p: &Path, text: String) {
        self.known.remove(p.as_os_str());
        if self
            .files
            .insert(p.as_os_str().to_owned(), Some(text))
            .is_some()
        {
            self.order.retain(|o| o != p);
        }
        self.order.push(p.to_path_buf());
    }
}

impl Store {
    /// A view of the same data folder for one batch of work (a poll): its
    /// writes and removals wait in memory, seen by the view's own reads,
    /// until [`Store::sync`] puts them on disk; nothing done through it may
    /// be relied on (no key committed, no reply released) before that
    /// returns. Clones of the view share the batch.
    ///
    /// # Errors
    /// When the data folder's `tmp/`, where the batch's new files are
    /// written first, is not there: before anything is done that its
    /// sync would fail to put on disk.
    pub fn batch(&self) -> Result<Store, StoreError> {
        let tmp = self.root.join("tmp");
        fs::metadata(&tmp).map_err(io_err(&tmp))?;
        Ok(Store {
            root: self.root.clone(),
            batch: Some(Arc::new(BatchView {
                stale: Mutex::new(Vec::new()),
                pending: Mutex::new(PendingWrites::default()),
                unsynced: Mutex::new(SyncSet::default()),
                read: Mutex::new(ReadCache::default()),
            })),
            players: None,
        })
    }

    /// Makes everything done so far durable. On a [`Store::batch`] view:
    /// the batch's new files are written to temporary files in `DATA/tmp/`
    /// (its advisory files rewritten in place) and synced with everything
    /// else the batch noted ([`SyncSet`]: the outbox's staging folder,
    /// deadline markers); the files are renamed into place in the order
    /// of their first change; the removals are done (after one more sync,
    /// when there are any: what replaces a removed file is on disk
    /// first); and the folders the renames and removals changed are
    /// synced with the indexes. Each sync takes the batch's own files and
    /// folders, all at once, never the whole file system. On a plain
    /// store, whose writes are durable when they return, nothing.
    ///
    /// # Errors
    /// A file could not be written or synced: nothing of the batch may be
    /// committed. The batch's changes not yet on disk are then dropped (a
    /// crash would have lost them too): the mails they came from are
    /// handled again.
    pub fn sync(&self) -> Result<(), StoreError> {
        let Some(batch) = &self.batch else {
            return Ok(());
        };
        let pending = std::mem::take(&mut *lock(&batch.pending));
        let before = changes();
        let (applied, changed) = recording(|| self.apply(&pending));
        if let Err(e) = applied {
            lock(&batch.read).clear_sent();
            return Err(e);
        }
        // What the sync wrote is what the next batch reads.
        let memories = pending.memories.iter().filter_map(|(key, m)| {
            let state = m.state.as_ref()?;
            Some((key.as_os_str(), state))
        });
        let now_holds = |p: &std::ffi::OsStr| pending.files.get(p).map(Option::as_deref);
        lock(&batch.read).written((before, changes()), &changed, now_holds, memories);
        for p in std::mem::take(&mut *lock(&batch.stale)) {
            let _ = fs::remove_file(p);
        }
        Ok(())
    }

    /// Makes durable what the batch noted ([`Store::written`],
    /// [`Store::changed_folder`]) and nothing of its pending writes, which
    /// wait for [`Store::sync`]: a batch of one's staging folder before
    /// its key is committed.
    ///
    /// # Errors
    /// A file or folder that could not be synced.
    pub fn sync_noted(&self) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                let mut set = std::mem::take(&mut *lock(&b.unsynced));
                set.sync()
            }
            None => Ok(()),
        }
    }

    /// File `p` was written outside the batch's pending writes (made and
    /// written whole, or appended to); `made`: it is new in its folder. On
    /// a batch view it is synced at the next sync point ([`Store::sync`],
    /// [`Store::sync_noted`], a commit of keys); on a plain store now.
    ///
    /// # Errors
    /// On a plain store, when it cannot be synced.
    pub fn written(&self, p: &Path, made: bool) -> Result<(), StoreError> {
        self.note(|set| match made {
            true => set.made(p),
            false => set.file(p),
        })
    }

    /// The entries of folder `p` changed (a file or folder made in it,
    /// renamed in or out, removed): synced as [`Store::written`] says.
    ///
    /// # Errors
    /// As [`Store::written`].
    pub fn changed_folder(&self, p: &Path) -> Result<(), StoreError> {
        self.note(|set| set.folder(p))
    }

    /// Adds to the batch's [`SyncSet`]; on a plain store, nothing: for
    /// what a plain store leaves unsynced (an index written anew, renamed
    /// into place: a summary lost is read again from its file). A batch
    /// syncs it with its other files, one more in a sync under way, so
    /// that a crash costs no reading again.
    pub(super) fn note_in_batch(&self, add: impl FnOnce(&mut SyncSet)) {
        if let Some(b) = &self.batch {
            add(&mut lock(&b.unsynced));
        }
    }

    /// Adds to the batch's [`SyncSet`]; on a plain store, syncs at once.
    pub(super) fn note(&self, add: impl FnOnce(&mut SyncSet)) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                add(&mut lock(&b.unsynced));
                Ok(())
            }
            None => {
                let mut set = SyncSet::default();
                add(&mut set);
                set.sync()
            }
        }
    }

    /// Puts a batch's pending changes on disk (see [`Store::sync`]).
    fn apply(&self, pending: &PendingWrites) -> Result<(), StoreError> {
        if pending.order.is_empty() {
            return self.sync_noted();
        }
        let tmp = self.root.join("tmp");
        let mut ring = Ring::new(&tmp);
        // 1. Every new file whole, under a temporary name: a slot of the
        // ring of spare files ([`super::spares`]), or a temporary file
        // removed again if anything fails before its rename.
        let mut temps = Vec::new();
        let mut removals = Vec::new();
        for p in pending
            .order
            .iter()
            .filter(|p| !pending.in_place.contains(p.as_os_str()))
        {
            match pending.files.get(p.as_os_str()) {
                Some(Some(text)) => {
                    let temp = ring.take(text.as_bytes()).map_err(io_err(p))?;
                    // Synced at 2., through the slot's file while it is open.
                    self.note(|set| match temp.file() {
                        Some(f) => set.file_open(temp.path(), f),
                        None => set.file(temp.path()),
                    })?;
                    temps.push((temp, p, text))
                }
                Some(None) => removals.push(p),
                None => {}
            }
        }
        // Advisory files, rewritten in place (no inode made and freed;
        // their reader knows a torn one), synced with the new files.
        let memories = pending.memories.values().filter_map(|m| {
            let state = m.state.as_ref()?;
            let text = memory_text(&m.slot, state).map(std::borrow::Cow::Owned);
            Some((m.slot.as_path(), text))
        });
        let texts = pending.in_place.iter().map(Path::new).filter_map(|p| {
            match pending.files.get(p.as_os_str()) {
                Some(Some(text)) => Some((p, Ok(std::borrow::Cow::Borrowed(text.as_str())))),
                _ => None,
            }
        });
        for (p, text) in texts.chain(memories) {
            let text = text?;
            super::crashpoint::reach();
            let over = write_over(p, text.as_bytes()).map_err(io_err(p))?;
            // Synced through the file still open; a file made, with its
            // folder's entry.
            self.note(|set| {
                set.file_open(p, &over.file);
                if over.made {
                    set.folder(folder_of(p));
                }
            })?;
        }
        // 2. On disk before any rename: a crash leaves the old file or the
        // new one, never an empty one.
        self.sync_noted()?;
        // 3. Into place: each rename changes its folder and `tmp/`.
        for (temp, p, text) in temps {
            super::crashpoint::reach();
            let into = folder_of(p);
            if let Err(e) = temp.place(p) {
                if e.kind() != io::ErrorKind::CrossesDevices {
                    return Err(io_err(p)(e));
                }
                // A folder of the data folder mounted apart: through a
                // temporary file beside it, synced before its rename.
                write_atomic_via(p, text, into, false).map_err(io_err(p))?;
            }
            self.note(|set| {
                set.folder(into);
                set.folder(&tmp);
            })?;
        }
        // 4. The removals, once what replaces them is durable.
        if !removals.is_empty() {
            self.sync_noted()?;
            for p in removals {
                remove_if_there(p)?;
                self.changed_folder(folder_of(p))?;
            }
        }
        // 5. The summaries of the records and clocks now in place, each
        // with the stamp of its new file: durable with them at the sync
        // below; one a crash loses leaves its file to be read again.
        let changed: Vec<Change<'_>> = pending
            .order
            .iter()
            .filter(|p| !pending.in_place.contains(p.as_os_str()))
            .map(|p| {
                let key = p.as_os_str();
                let text = pending.files.get(key).and_then(Option::as_deref);
                (p.as_path(), text, pending.known.get(key))
            })
            .collect();
        self.index_changes(&changed)?;
        self.sync_noted()
    }

    /// Drops a batch's changes that are not on disk yet: its mails were
    /// not committed and will be handled again.
    pub fn discard(&self) {
        if let Some(batch) = &self.batch {
            *lock(&batch.pending) = PendingWrites::default();
            lock(&batch.read).clear_sent();
        }
    }

    /// Ends a batch: syncs when changes, deadline markers or anything
    /// noted wait (a poll that ticked clocks but committed no mail).
    ///
    /// # Errors
    /// As [`Store::sync`].
    pub fn finish(&self) -> Result<(), StoreError> {
        match &self.batch {
            Some(b)
                if !lock(&b.pending).order.is_empty()
                    || !lock(&b.stale).is_empty()
                    || !lock(&b.unsynced).is_empty() =>
            {
                self.sync()
            }
            _ => Ok(()),
        }
    }

    /// Replaces `p` atomically, through a temporary file in `DATA/tmp/` (or
    /// beside `p` when that is on another file system), the folder synced
    /// now; on a batch view, at [`Store::sync`].
    pub(super) fn write_file(&self, p: &Path, text: &str) -> Result<(), StoreError> {
        self.write_file_known(p, text, None)
    }

    /// [`Store::write_file`] of a record made from one in hand, what it
    /// says of its game `known` ([`Store::write_game_known`]).
    pub(super) fn write_file_known(
        &self,
        p: &Path,
        text: &str,
        known: Option<GameFacts>,
    ) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                let mut pending = lock(&b.pending);
                pending.set(p, Some(text.to_string()));
                if let Some(k) = known {
                    pending.known.insert(p.as_os_str().to_owned(), k);
                }
                Ok(())
            }
            None => {
                write_atomic_via(p, text, &self.root.join("tmp"), true).map_err(io_err(p))?;
                self.index_changes(&[(p, Some(text), known.as_ref())])
            }
        }
    }

    /// [`Store::write_file`] for a file that names others (a tournament
    /// names its rounds' games): on a batch view it reaches the disk after
    /// every file the batch changed before this call, however early the
    /// batch first changed it (see [`PendingWrites`]), so that a crash
    /// never leaves it naming a file that is not there. Written after what
    /// it names, as a plain store's writes are durable in call order.
    pub(super) fn write_file_last(&self, p: &Path, text: &str) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                lock(&b.pending).set_last(p, text.to_string());
                Ok(())
            }
            None => self.write_file(p, text),
        }
    }

    /// Rewrites `p` in place (truncated and written, the same inode), on a
    /// batch view at [`Store::sync`]; for files a crash may tear, whose
    /// reader knows a torn one (two slots written in turn, each with its
    /// checksum: [`Store::write_correspondence`]). Each file made and freed
    /// costs on ext4 without a journal, and such a file is
    /// rewritten for every reply.
    pub(super) fn write_in_place(&self, p: &Path, text: &str) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                let mut pending = lock(&b.pending);
                pending.set(p, Some(text.to_string()));
                pending.in_place.insert(p.as_os_str().to_owned());
                Ok(())
            }
            None => write_over(p, text.as_bytes()).map(drop).map_err(io_err(p)),
        }
    }

    /// Keeps `state`, a memory of sent lines whose first slot is `key`,
    /// to be written to its slot `slot` at the sync ([`PendingMemory`]).
    pub(super) fn keep_memory(&self, key: &Path, slot: &Path, state: Correspondence) {
        let Some(b) = &self.batch else {
            return;
        };
        let mut pending = lock(&b.pending);
        // Rewritten in place, as an advisory file (neither put in place
        // through a temporary file nor summarised in an index); noted in
        // the order of changes once, so that the sync takes it.
        if pending.in_place.insert(slot.as_os_str().to_owned())
            && !pending.files.contains_key(slot.as_os_str())
        {
            pending.order.push(slot.to_path_buf());
        }
        pending
            .slots
            .insert(slot.as_os_str().to_owned(), key.as_os_str().to_owned());
        pending.memories.insert(
            key.as_os_str().to_owned(),
            PendingMemory {
                slot: slot.to_path_buf(),
                state: Some(Arc::new(state)),
            },
        );
    }

    /// The memory of sent lines whose first slot is `key` as this batch
    /// changed it, waiting for the sync: shared to look at, or taken out
    /// to change (`take`, by [`Store::change_sent`], which puts it back
    /// at once with [`Store::keep_memory`]; the slot it goes to stays
    /// noted). `None`: not changed in the batch.
    pub(super) fn changed_memory(
        &self,
        key: &Path,
        take: bool,
    ) -> Option<Option<Arc<Correspondence>>> {
        let b = self.batch.as_ref()?;
        let mut pending = lock(&b.pending);
        let m = pending.memories.get_mut(key.as_os_str())?;
        Some(match take {
            true => m.state.take(),
            false => m.state.clone(),
        })
    }

    /// The slot the batch writes the memory of sent lines whose first
    /// slot is `key` to, once it has changed it.
    pub(super) fn memory_slot(&self, key: &Path) -> Option<PathBuf> {
        let b = self.batch.as_ref()?;
        let pending = lock(&b.pending);
        pending
            .memories
            .get(key.as_os_str())
            .map(|m| m.slot.clone())
    }

    /// Removes `p` if it exists; on a batch view, at [`Store::sync`].
    pub(super) fn remove_file(&self, p: &Path) -> Result<(), StoreError> {
        if let Some(b) = &self.batch {
            lock(&b.pending).set(p, None);
            return Ok(());
        }
        remove_if_there(p)?;
        self.index_changes(&[(p, None, None)])
    }

    /// The text of `p`, `None` when there is no such file; on a batch
    /// view, as the batch left it.
    pub(super) fn read_opt(&self, p: &Path) -> Result<Option<String>, StoreError> {
        self.read_opt_by(p, read_opt)
    }

    /// [`Store::read_opt`], a file on disk read by `read` (one rewritten
    /// in place, whose reader knows a torn one:
    /// [`super::files::read_torn_opt`]).
    pub(super) fn read_opt_by(
        &self,
        p: &Path,
        read: fn(&Path) -> Result<Option<String>, StoreError>,
    ) -> Result<Option<String>, StoreError> {
        let Some(b) = &self.batch else {
            return read(p);
        };
        {
            let pending = lock(&b.pending);
            if let Some(text) = pending.files.get(p.as_os_str()) {
                return Ok(text.clone());
            }
            // A memory of sent lines the batch changed: what the sync
            // will write to this slot.
            let memory = pending.slots.get(p.as_os_str());
            if let Some(state) = memory.and_then(|k| pending.memories.get(k)?.state.as_ref()) {
                return memory_text(p, state).map(Some);
            }
        }
        // Taken before the read: a change during it empties the cache.
        let now = changes();
        {
            let mut cache = lock(&b.read);
            cache.fresh(now);
            if let Some(text) = cache.file(p.as_os_str()) {
                return Ok(text.clone());
            }
        }
        let text = read(p)?;
        // Kept unless it is long (the cache sees to it).
        let mut cache = lock(&b.read);
        if cache.changes() == now {
            cache.keep_file(p.as_os_str(), text.as_deref());
        }
        Ok(text)
    }

    /// The memory of sent lines whose first slot is `key`, as the batch
    /// last read or wrote it ([`ReadCache::sent`]), kept there or taken
    /// out (for a change, which keeps it again); `None` on a plain store,
    /// or when the batch has not.
    pub(super) fn cached_sent(&self, key: &Path, take: bool) -> Option<Arc<Correspondence>> {
        let mut cache = lock(&self.batch.as_ref()?.read);
        cache.fresh(changes());
        cache.sent(key.as_os_str(), take)
    }

    /// Keeps `read` as the memory of sent lines whose first slot is
    /// `key`, read from its slots when [`changes`] gave `now` before they
    /// were read (not kept when the data folder changed since).
    pub(super) fn cache_sent(&self, key: &Path, read: Arc<Correspondence>, now: u64) {
        let Some(b) = &self.batch else {
            return;
        };
        let mut cache = lock(&b.read);
        cache.fresh(changes());
        if now == cache.changes() {
            cache.keep_sent(key.as_os_str(), read);
        }
    }

    /// A TOML file read into `T`, or `None` when it does not exist.
    pub(super) fn read_toml<T: DeserializeOwned>(&self, p: &Path) -> Result<Option<T>, StoreError> {
        self.read_parsed(p, |t| toml::from_str(t))
    }

    /// [`Store::read_toml`], the text parsed by `parse` (one that
    /// remembers what it parsed).
    pub(super) fn read_parsed<T>(
        &self,
        p: &Path,
        parse: impl FnOnce(&str) -> Result<T, toml::de::Error>,
    ) -> Result<Option<T>, StoreError> {
        match self.read_opt(p)? {
            None => Ok(None),
            Some(t) => parse(&t).map(Some).map_err(|source| StoreError::Parse {
                path: p.display().to_string(),
                source,
            }),
        }
    }

    /// `value` written as TOML, atomically.
    pub(super) fn write_toml<T: Serialize>(&self, p: &Path, value: &T) -> Result<(), StoreError> {
        self.write_file(p, &toml_text(p, value)?)
    }
}

/// `value` as the TOML text of file `p`.
pub(super) fn toml_text<T: Serialize>(p: &Path, value: &T) -> Result<String, StoreError> {
    toml::to_string(value).map_err(|source| StoreError::Encode {
        path: p.display().to_string(),
        source,
    })
}

/// A batch's lock; a panic elsewhere while it was held leaves its data
/// whole (each change is one insert), so a poisoned lock is taken as is.
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::PendingWrites;
    use std::ffi::OsStr;
    use std::path::Path;

    fn order(w: &PendingWrites) -> Vec<&str> {
        w.order.iter().map(|p| p.to_str().unwrap()).collect()
    }

    #[test]
    fn a_file_that_names_others_goes_to_disk_after_its_last_change() {
        let mut w = PendingWrites::default();
        w.set(Path::new("games/a"), Some("a".into()));
        w.set_last(Path::new("tournaments/t"), "result".into());
        w.set(Path::new("secrets/b"), Some("b".into()));
        w.set(Path::new("games/b"), Some("b".into()));
        // Written again: still where it was first changed.
        w.set(Path::new("games/a"), Some("a2".into()));
        assert_eq!(
            order(&w),
            ["games/a", "tournaments/t", "secrets/b", "games/b"]
        );
        w.set_last(Path::new("tournaments/t"), "round 2".into());
        assert_eq!(
            order(&w),
            ["games/a", "secrets/b", "games/b", "tournaments/t"]
        );
        assert_eq!(
            w.files[OsStr::new("tournaments/t")].as_deref(),
            Some("round 2")
        );
    }
}
