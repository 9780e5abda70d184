//! The threads that sync a batch's files at once ([`super::files::SyncSet`]):
//! started in the background when a batch begins ([`warm_up`]), or as a
//! sync needs them (up to [`SYNCS_AT_ONCE`] in all, the calling thread
//! among them), and kept for the life of the process, idle between
//! syncs. Starting a thread cost 0.1 to 0.6 ms on the development
//! machine, as much as the sync it would wait for; a poll syncs several
//! times, and the daemon polls again and again.

use super::{StoreError, io_err};
use std::collections::VecDeque;
use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, Once, OnceLock};

/// How many syncs are under way at once. One at a time, each waits for
/// the disk's cache flush (a few milliseconds on a virtual disk, 0.25 to
/// 3 ms here); under way together, their flushes are merged by the block
/// layer: 450 new files synced one by one took 0.2 to 1.4 s on the
/// development machine's disk, 16 at a time 13 to 15 ms, 32 at a time 11
/// to 12 ms (one `syncfs` of them on a quiet disk, 6 ms), and a poll of
/// 3,000 mails ran 5 % faster with 32 than with 16.
pub const SYNCS_AT_ONCE: usize = 32;

/// The helpers [`warm_up`] starts: as many as a one-mail batch syncs at
/// once (its new files, its staging folder's, a deadline marker, the
/// files rewritten in place: 8 to 10), so that a process that handles
/// one mail does not start more. A bigger batch starts the others.
const WARM: usize = 8;

/// A file or folder to sync, open: its path (for errors), whether whole
/// (`fsync`: a folder) or its data only (`fdatasync`: a file).
pub type Open = (PathBuf, bool, File);

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
        while let Some((p, whole, f)) = self.take() {
            let synced = if *whole { f.sync_all() } else { f.sync_data() };
            let mut t = lock(&self.turns);
            t.busy -= 1;
            if let Err(e) = synced {
                t.failed.get_or_insert(io_err(p)(e));
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

/// Starts [`WARM`] helpers in the background, once per process: from a
/// helper of their own, while the caller goes on (a batch begins: its first sync
/// comes after its mails are read and handled), so that the first sync
/// finds them waiting rather than waits for each to start.
pub fn warm_up() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let h = Helpers::get();
        let _ = std::thread::Builder::new()
            .name("pbem-sync".into())
            .stack_size(64 * 1024)
            .spawn(move || {
                {
                    let _starting = lock(&h.starting);
                    h.started.fetch_add(1, Ordering::Release);
                    h.start_up_to(WARM);
                }
                h.serve()
            });
    });
}

/// Syncs every one of `items`, up to [`SYNCS_AT_ONCE`] at once (this
/// thread and helpers); returns once all are done.
///
/// # Errors
/// The first that could not be synced, the others then left undone.
pub fn sync_all(items: Vec<Open>) -> Result<(), StoreError> {
    let wanted = SYNCS_AT_ONCE.min(items.len()).saturating_sub(1);
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

/// A lock of this module; a panic elsewhere while it was held leaves its
/// data whole (each change is one step), so a poisoned lock is taken as
/// is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
