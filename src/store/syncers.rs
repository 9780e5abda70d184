//! The threads that sync a batch's files at once ([`super::files::SyncSet`]):
//! started as a big round of syncs needs them (up to [`SYNCS_AT_ONCE`]
//! in all, the calling thread among them), and kept for the life of the
//! process, idle between syncs. A small round (a batch of one mail: 8
//! to 10 files and folders) is synced on the calling thread, its files'
//! write-back started first ([`sync_here`]): starting threads for it cost
//! a process that handles one mail more CPU than the whole sync.

use super::{StoreError, io_err};
use std::collections::VecDeque;
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// How many syncs are under way at once. One at a time, each waits for
/// the disk's cache flush (a few milliseconds on a virtual disk, 0.25 to
/// 3 ms here); under way together, their flushes are merged by the block
/// layer: 450 new files synced one by one took 0.2 to 1.4 s on the
/// development machine's disk, 16 at a time 13 to 15 ms, 32 at a time 11
/// to 12 ms (one `syncfs` of them on a quiet disk, 6 ms), and a poll of
/// 3,000 mails ran 5 % faster with 32 than with 16.
pub const SYNCS_AT_ONCE: usize = 32;

/// The most syncs a round may have to be synced on the calling thread
/// when no helper is there yet ([`sync_here`]): a batch of one mail syncs
/// 8 to 10 files and folders. On the development machine's ext4, 9 new
/// files and their folder synced so took 1.07 to 1.21 ms and 0.5 to 0.7
/// ms of CPU, with a thread each 1.16 to 1.39 ms and 1.6 to 1.8 ms of
/// CPU; 450 files took 73 ms with threads and 191 ms without.
const SMALL_ROUND: usize = 16;

/// A file or folder to sync, open: its path (for errors), whether whole
/// (`fsync`: a folder) or its data only (`fdatasync`: a file). Shared,
/// so that a caller may keep the file to go on with it once synced (a
/// delivery with no name yet, named then).
pub type Open = (PathBuf, bool, Arc<File>);

/// One call's syncs, shared by the calling thread and its helpers: each
/// takes the next in turn until none is left or one failed. The caller
/// waits for the syncs under way, not for the helpers: one that wakes up
/// late finds nothing left to take.
struct Round {
    items: Vec<Open>,
    turns: Mutex<Turns>,
    idle: Condvar,
}

#[derive(Default)]
struct Turns {
    next: usize,
    /// Syncs under way.
    busy: usize,
    failed: Option<StoreError>,
}

impl Round {
    /// The next item to sync; none when all are taken or one failed.
    fn take(&self) -> Option<&Open> {
        let mut t = lock(&self.turns);
        let item = self.items.get(t.next).filter(|_| t.failed.is_none())?;
        t.next += 1;
        t.busy += 1;
        Some(item)
    }

    fn take_turns(&self) {
        while let Some(item) = self.take() {
            let synced = sync_one(item);
            let mut t = lock(&self.turns);
            t.busy -= 1;
            if let Err(e) = synced {
                t.failed.get_or_insert(e);
            }
            if t.busy == 0 {
                self.idle.notify_all();
            }
        }
    }

    /// Once every item is taken: waits for the syncs under way; the
    /// first error.
    fn finish(&self) -> Result<(), StoreError> {
        let mut t = lock(&self.turns);
        while t.busy > 0 {
            t = self.idle.wait(t).unwrap_or_else(|e| e.into_inner());
        }
        t.failed.take().map_or(Ok(()), Err)
    }
}

/// The helper threads and the rounds waiting for them.
struct Helpers {
    rounds: Mutex<VecDeque<Arc<Round>>>,
    wake: Condvar,
    /// Helpers started so far.
    started: AtomicUsize,
    /// Held by the thread starting helpers.
    starting: Mutex<()>,
}

static HELPERS: OnceLock<Helpers> = OnceLock::new();

impl Helpers {
    fn get() -> &'static Helpers {
        HELPERS.get_or_init(|| Helpers {
            rounds: Mutex::new(VecDeque::new()),
            wake: Condvar::new(),
            started: AtomicUsize::new(0),
            starting: Mutex::new(()),
        })
    }

    /// How many helpers this process has started (none before a big
    /// round).
    fn started() -> usize {
        HELPERS
            .get()
            .map_or(0, |h| h.started.load(Ordering::Acquire))
    }

    /// Starts helpers until there are `n` or one cannot be started,
    /// unless another thread is starting some: how many there are.
    fn at_least(&'static self, n: usize) -> usize {
        if self.started.load(Ordering::Acquire) < n
            && let Ok(_starting) = self.starting.try_lock()
        {
            self.start_up_to(n);
        }
        self.started.load(Ordering::Acquire)
    }

    /// With `starting` held: starts helpers until there are `n`.
    fn start_up_to(&'static self, n: usize) {
        while self.started.load(Ordering::Acquire) < n {
            // A helper only waits for the disk: a small stack.
            let spawned = std::thread::Builder::new()
                .name("pbem-sync".into())
                .stack_size(64 * 1024)
                .spawn(move || self.serve());
            if spawned.is_err() {
                return;
            }
            self.started.fetch_add(1, Ordering::Release);
        }
    }

    /// A helper's life: the next round's turns, for ever.
    fn serve(&self) {
        loop {
            let round = {
                let mut rounds = lock(&self.rounds);
                loop {
                    match rounds.pop_front() {
                        Some(r) => break r,
                        None => rounds = self.wake.wait(rounds).unwrap_or_else(|e| e.into_inner()),
                    }
                }
            };
            round.take_turns();
        }
    }
}

/// Syncs every one of `items`, up to [`SYNCS_AT_ONCE`] at once (this
/// thread and helpers), or a small round on this thread alone while no
/// helper has been started ([`SMALL_ROUND`]); returns once all are done.
///
/// # Errors
/// The first that could not be synced, the others then left undone.
pub fn sync_all(items: Vec<Open>) -> Result<(), StoreError> {
    let wanted = SYNCS_AT_ONCE.min(items.len()).saturating_sub(1);
    if items.len() <= SMALL_ROUND && Helpers::started() < wanted {
        return sync_here(&items);
    }
    let round = Arc::new(Round {
        items,
        turns: Mutex::new(Turns::default()),
        idle: Condvar::new(),
    });
    let helpers = Helpers::get();
    let called = match wanted {
        0 => 0,
        n => helpers.at_least(n).min(n),
    };
    if called > 0 {
        lock(&helpers.rounds).extend(std::iter::repeat_n(round.clone(), called));
        for _ in 0..called {
            helpers.wake.notify_one();
        }
    }
    round.take_turns();
    // Helpers that have not come by now have nothing left to take.
    lock(&helpers.rounds).retain(|r| !Arc::ptr_eq(r, &round));
    round.finish()
}

/// Syncs `items` one by one on this thread, after starting the write-back
/// of every file's data (`posix_fadvise(DONTNEED)` starts it without
/// waiting, as `sync_file_range(2)` would): the first sync then waits
/// for data already on its way (on ext4 with a journal, for one commit
/// of it), and the others find theirs on disk, where syncing them one
/// after the other with nothing started would wait for each in turn.
/// The advice also drops pages already written back from the cache:
/// those of a file this small are still being written.
fn sync_here(items: &[Open]) -> Result<(), StoreError> {
    for (_, whole, f) in items {
        if !whole {
            // Only a hint: the sync below does the work if it fails.
            let _ = rustix::fs::fadvise(f, 0, None, rustix::fs::Advice::DontNeed);
        }
    }
    items.iter().try_for_each(sync_one)
}

/// Syncs one item: a folder whole (`fsync`), a file's data (`fdatasync`).
fn sync_one((p, whole, f): &Open) -> Result<(), StoreError> {
    let synced = if *whole { f.sync_all() } else { f.sync_data() };
    synced.map_err(io_err(p))
}

/// A lock of this module; a panic elsewhere while it was held leaves its
/// data whole (each change is one step), so a poisoned lock is taken as
/// is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
