//! What a poll's batch view read from disk ([`super::Store::batch`]):
//! one mail asks for the same player's file, memory of sent lines and
//! challenge several times over, and a poll of many batches comes back
//! to the same games and players batch after batch.
//!
//! Good while this process has changed no file of the data folder
//! since it was filled ([`super::files::changes`]): the batch holds the
//! data folder's lock, so no other pbem writes, and its own writes wait
//! in its pending changes, which its reads ask first. A change made
//! elsewhere in the process empties it. The batch's own sync is the one
//! change it outlives: the sync notes each file it changes
//! ([`super::files::recording`]), and when nothing else changed a file
//! meanwhile, the cache takes what the sync wrote
//! ([`ReadCache::written`]) and keeps the rest.
//!
//! Bounded, because it lives as long as the poll: at most
//! [`FILE_BUDGET`] bytes of texts and [`SENT_BUDGET`] lines of memories;
//! past that, entries go, whichever the map gives first. Texts over
//! [`CACHED_TEXT`] bytes are read again each time.

use super::Correspondence;
use super::ids::PathMap;
use std::ffi::OsStr;
use std::sync::Arc;

/// The longest text a batch keeps of what it read: a record, a player's
/// settings; not a long memory of sent lines.
pub(super) const CACHED_TEXT: usize = 32 * 1024;

/// The most bytes of texts the cache holds: a few thousand records.
const FILE_BUDGET: usize = 8 << 20;

/// The most a cache's memories of sent lines weigh, in lines
/// ([`weight`]): some 20 bytes each, 8 MB.
const SENT_BUDGET: usize = 400_000;

/// See the module's documentation.
#[derive(Debug, Default)]
pub(super) struct ReadCache {
    changes: u64,
    files: PathMap<Option<String>>,
    file_bytes: usize,
    /// The memories of sent lines read or written in the batch, by their
    /// first slot's path: each as [`super::Store::correspondence`] reads
    /// it from its two slots (over [`CACHED_TEXT`] often, and parsed anew
    /// at each read otherwise, three times a mail), before it is matched
    /// to an address (another address may share the file).
    sent: PathMap<Arc<Correspondence>>,
    sent_lines: usize,
}

/// What a memory costs the cache, in lines: its lines, and its threads
/// (a few Message-IDs each) as some dozens.
fn weight(c: &Correspondence) -> usize {
    1 + c.lines.len() + 25 * c.threads.len()
}

impl ReadCache {
    /// The count of changes ([`super::files::changes`]) the cache is
    /// good for.
    pub(super) fn changes(&self) -> u64 {
        self.changes
    }

    /// Empties the cache when the data folder has changed since it was
    /// filled ([`super::files::changes`] gave `now`).
    pub(super) fn fresh(&mut self, now: u64) {
        if self.changes != now {
            self.files.clear();
            self.file_bytes = 0;
            self.clear_sent();
            self.changes = now;
        }
    }

    /// The text of `p` as read (`Some(None)`: found missing).
    pub(super) fn file(&self, p: &OsStr) -> Option<&Option<String>> {
        self.files.get(p)
    }

    /// Keeps a copy of `text` as `p`'s (`None`: missing); a text over
    /// [`CACHED_TEXT`] forgets `p` instead, uncopied.
    pub(super) fn keep_file(&mut self, p: &OsStr, text: Option<&str>) {
        let len = text.map_or(0, str::len);
        if len > CACHED_TEXT {
            return self.forget_file(p);
        }
        self.file_bytes += len;
        if let Some(Some(old)) = self.files.insert(p.to_owned(), text.map(str::to_string)) {
            self.file_bytes -= old.len();
        }
        while self.file_bytes > FILE_BUDGET {
            let Some(k) = self.files.keys().next().cloned() else {
                break;
            };
            self.forget_file(&k);
        }
    }

    /// Forgets what `p` held.
    pub(super) fn forget_file(&mut self, p: &OsStr) {
        if let Some(Some(old)) = self.files.remove(p) {
            self.file_bytes -= old.len();
        }
    }

    /// The memory whose first slot is `key`, shared, or taken out
    /// (`take`: to be changed).
    pub(super) fn sent(&mut self, key: &OsStr, take: bool) -> Option<Arc<Correspondence>> {
        match take {
            true => {
                let c = self.sent.remove(key)?;
                self.sent_lines -= weight(&c);
                Some(c)
            }
            false => self.sent.get(key).cloned(),
        }
    }

    /// Keeps `c` as the memory whose first slot is `key`.
    pub(super) fn keep_sent(&mut self, key: &OsStr, c: Arc<Correspondence>) {
        self.sent_lines += weight(&c);
        if let Some(old) = self.sent.insert(key.to_owned(), c) {
            self.sent_lines -= weight(&old);
        }
        while self.sent_lines > SENT_BUDGET {
            let Some(k) = self.sent.keys().next().cloned() else {
                break;
            };
            self.sent(&k, true);
        }
    }

    /// Forgets the memory of sent lines kept by its first slot
    /// (`<hash>.0`), when `p` is either of its slots: a memory the batch
    /// wrote is kept anew, whole, by [`ReadCache::written`].
    fn forget_memory_of_slot(&mut self, p: &OsStr) {
        use std::os::unix::ffi::OsStrExt;
        self.sent(p, true);
        if let Some(stem) = p.as_bytes().strip_suffix(b".1") {
            let key = [stem, b".0"].concat();
            self.sent(OsStr::from_bytes(&key), true);
        }
    }

    /// Forgets every memory of sent lines (a batch whose pending writes
    /// are dropped).
    pub(super) fn clear_sent(&mut self) {
        self.sent.clear();
        self.sent_lines = 0;
    }

    /// After a batch's sync, which changed the files `changed` (each as
    /// often as it changed it, as [`super::files::recording`] saw) while
    /// the count of changes went from `before` to `after`: when the cache
    /// was good at `before` and the sync's were all the changes since,
    /// each file changed takes what `now_holds` says it holds now (`None`:
    /// not known, forgotten), and each memory of `memories` (by its
    /// first slot) is kept as written; the cache is then good at `after`.
    /// Otherwise it stays as it was, to be emptied by the next read.
    pub(super) fn written<'a>(
        &mut self,
        (before, after): (u64, u64),
        changed: &[std::path::PathBuf],
        now_holds: impl Fn(&OsStr) -> Option<Option<&'a str>>,
        memories: impl Iterator<Item = (&'a OsStr, &'a Arc<Correspondence>)>,
    ) {
        if self.changes != before || after - before != changed.len() as u64 {
            return;
        }
        for p in changed {
            let p = p.as_os_str();
            self.forget_memory_of_slot(p);
            match now_holds(p) {
                Some(text) => self.keep_file(p, text),
                None => self.forget_file(p),
            }
        }
        for (key, c) in memories {
            self.keep_sent(key, c.clone());
        }
        self.changes = after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use std::fs;
    use std::path::PathBuf;

    fn memory(lines: u64) -> Arc<Correspondence> {
        let mut c = Correspondence::new("a@example.org");
        for k in 0..lines {
            c.lines.insert(k, Default::default());
        }
        Arc::new(c)
    }

    #[test]
    fn a_change_elsewhere_empties_the_cache() {
        let mut cache = ReadCache::default();
        cache.fresh(3);
        cache.keep_file("a".as_ref(), Some("text"));
        cache.keep_sent("m.0".as_ref(), memory(2));
        cache.fresh(3);
        assert_eq!(cache.file("a".as_ref()), Some(&Some("text".into())));
        cache.fresh(4);
        assert_eq!(cache.file("a".as_ref()), None);
        assert!(cache.sent("m.0".as_ref(), false).is_none());
        assert_eq!((cache.file_bytes, cache.sent_lines), (0, 0));
    }

    #[test]
    fn the_syncs_own_changes_are_kept_as_written_and_the_rest_stays() {
        let mut cache = ReadCache::default();
        cache.fresh(10);
        for p in ["game", "gone", "slot.1", "other"] {
            cache.keep_file(p.as_ref(), Some(&format!("old {p}")));
        }
        cache.keep_sent("slot.0".as_ref(), memory(1));
        let changed: Vec<PathBuf> = ["game", "gone", "slot.1", "big"]
            .map(PathBuf::from)
            .to_vec();
        let big = "x".repeat(CACHED_TEXT + 1);
        let holds = |p: &OsStr| match p.to_str() {
            Some("game") => Some(Some("new game")),
            Some("gone") => Some(None),
            Some("big") => Some(Some(big.as_str())),
            _ => None,
        };
        let written = memory(5);
        let key = OsStr::new("slot.0");
        cache.written((10, 14), &changed, holds, [(key, &written)].into_iter());
        assert_eq!(cache.changes(), 14);
        assert_eq!(cache.file("game".as_ref()), Some(&Some("new game".into())));
        assert_eq!(cache.file("gone".as_ref()), Some(&None));
        assert_eq!(cache.file("slot.1".as_ref()), None);
        assert_eq!(cache.file("big".as_ref()), None);
        assert_eq!(
            cache.file("other".as_ref()),
            Some(&Some("old other".into()))
        );
        assert_eq!(cache.sent(key, false).map(|c| c.lines.len()), Some(5));
        assert_eq!(cache.file_bytes, "new game".len() + "old other".len());
        assert_eq!(cache.sent_lines, 6);
    }

    #[test]
    fn a_memory_goes_when_either_of_its_slots_changes() {
        let mut cache = ReadCache::default();
        for slot in ["sent/ab.0", "sent/ab.1"] {
            cache.keep_sent("sent/ab.0".as_ref(), memory(3));
            cache.keep_sent("sent/cd.0".as_ref(), memory(3));
            let changed = [PathBuf::from(slot)];
            let changes = cache.changes();
            cache.written(
                (changes, changes + 1),
                &changed,
                |_| None,
                std::iter::empty(),
            );
            assert!(cache.sent("sent/ab.0".as_ref(), false).is_none(), "{slot}");
            assert!(cache.sent("sent/cd.0".as_ref(), false).is_some(), "{slot}");
        }
    }

    #[test]
    fn a_sync_beside_another_change_keeps_nothing_of_it() {
        for (before, after) in [(9, 11), (10, 12)] {
            let mut cache = ReadCache::default();
            cache.fresh(10);
            cache.keep_file("game".as_ref(), Some("old"));
            let changed = [PathBuf::from("game")];
            cache.written(
                (before, after),
                &changed,
                |_| Some(Some("new")),
                std::iter::empty(),
            );
            assert_eq!(cache.changes(), 10, "{before} {after}");
            cache.fresh(after);
            assert_eq!(cache.file("game".as_ref()), None);
        }
    }

    #[test]
    fn the_cache_stays_within_its_budgets() {
        let mut cache = ReadCache::default();
        let text = "r".repeat(CACHED_TEXT);
        for n in 0..2 * FILE_BUDGET / CACHED_TEXT {
            cache.keep_file(format!("f{n}").as_ref(), Some(&text));
            assert!(cache.file_bytes <= FILE_BUDGET);
        }
        assert_eq!(cache.files.len(), FILE_BUDGET / CACHED_TEXT);
        let sum: usize = cache.files.values().flatten().map(String::len).sum();
        assert_eq!(sum, cache.file_bytes);
        for n in 0..100 {
            cache.keep_sent(format!("m{n}").as_ref(), memory(SENT_BUDGET as u64 / 40));
            assert!(cache.sent_lines <= SENT_BUDGET);
        }
        let sum: usize = cache.sent.values().map(|c| weight(c)).sum();
        assert_eq!((sum, cache.sent.len()), (cache.sent_lines, 39));
        cache.keep_sent("huge".as_ref(), memory(SENT_BUDGET as u64 + 1));
        assert!(cache.sent_lines <= SENT_BUDGET);
    }

    /// A poll's batches come back to the same games and players: what a
    /// sync wrote, and what the batch read before it, are read again
    /// from memory; a change the process makes elsewhere empties it.
    #[test]
    fn a_batch_reads_what_its_sync_wrote_and_what_it_read_from_memory() {
        // Other tests of this process change files too, which rightly
        // empties the cache: an attempt that saw one is made again.
        for _ in 0..1000 {
            if let Some(()) = one_attempt() {
                return;
            }
        }
        panic!("other tests changed files during every attempt");
    }

    /// [`a_batch_reads_what_its_sync_wrote_and_what_it_read_from_memory`],
    /// `None` when another test changed a file meanwhile.
    fn one_attempt() -> Option<()> {
        use crate::store::files::{changes, recording};
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let a = "alice@example.org";
        s.write_game("g-1", "one").unwrap();
        s.write_game("g-2", "two").unwrap();
        let start = changes();
        let b = s.batch().unwrap();
        assert_eq!(b.read_game("g-2").unwrap().as_deref(), Some("two"));
        b.write_game("g-1", "one, moved").unwrap();
        b.change_sent(a, |c| {
            c.sent(
                Some("g-1"),
                "s",
                "<r@x>",
                None,
                "the reply to alice",
                "2026-12-03",
            )
        })
        .unwrap();
        let (synced, own) = recording(|| b.sync());
        synced.unwrap();
        // Behind pbem's back (no pbem writes while the batch holds the
        // lock): the batch still reads what it wrote and read.
        for p in ["games/g-1.toml", "games/g-2.toml", "sent"] {
            let p = dir.path().join(p);
            match p.is_dir() {
                true => fs::remove_dir_all(&p).unwrap(),
                false => fs::write(&p, "changed behind").unwrap(),
            }
        }
        let read = (
            b.read_game("g-1").unwrap(),
            b.read_game("g-2").unwrap(),
            b.sent_memory(a).unwrap().knows("the reply to alice"),
        );
        if changes() != start + own.len() as u64 {
            return None;
        }
        let (one, two) = (Some("one, moved".into()), Some("two".into()));
        assert_eq!(read, (one, two, true));
        // A file this process changes on another thread.
        std::thread::scope(|t| {
            t.spawn(|| s.write_game("g-3", "three").unwrap());
        });
        let behind = Some("changed behind".into());
        assert_eq!(b.read_game("g-1").unwrap(), behind);
        assert_eq!(b.read_game("g-2").unwrap(), behind);
        assert!(!b.sent_memory(a).unwrap().knows("the reply to alice"));
        Some(())
    }
}
