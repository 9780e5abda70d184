//! Work spread over the machine's cores: the game pages of a big site
//! are drawn side by side, their results
//! gathered in the order of the work, so the site does not depend on
//! which core finished first.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `work(i)` for every `i` below `n`, on as many threads as the machine
/// has cores (this one among them), each taking the next item when it is
/// done with one (games differ much in length); the results in the order
/// of `i`. Calls `progress(done, n)` from this thread as items finish,
/// and `progress(n, n)` at the end.
pub(super) fn each<T: Send>(
    n: usize,
    work: impl Fn(usize) -> T + Sync,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<T> {
    each_on(n, work, progress, &std::thread::Builder::new)
}

/// [`each`] on threads made by `thread()`: a thread the OS refuses is
/// done without (its items go to the others, at worst all to this one).
fn each_on<T: Send>(
    n: usize,
    work: impl Fn(usize) -> T + Sync,
    progress: &mut dyn FnMut(usize, usize),
    thread: &dyn Fn() -> std::thread::Builder,
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |c| c.get())
        .clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let run = || {
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                return out;
            }
            out.push((i, work(i)));
            done.fetch_add(1, Ordering::Relaxed);
        }
    };
    let mut all: Vec<(usize, T)> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .map_while(|_| thread().spawn_scoped(scope, run).ok())
            .collect();
        // This thread works too, and reports.
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            mine.push((i, work(i)));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, n);
        }
        for t in others {
            match t.join() {
                Ok(theirs) => mine.extend(theirs),
                // A panic in a worker is a bug: passed on as it is.
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        mine
    });
    progress(n, n);
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_in_order_with_progress_to_the_end() {
        let mut seen = Vec::new();
        let out = each(1000, |i| i * 2, &mut |d, n| seen.push((d, n)));
        assert_eq!(out, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(seen.last(), Some(&(1000, 1000)));
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
        assert!(each(0, |i| i, &mut |_, _| {}).is_empty());
    }

    #[test]
    fn the_work_is_done_when_the_os_refuses_every_thread() {
        // A stack larger than the address space: no thread can be made.
        let refused = || std::thread::Builder::new().stack_size(1 << 50);
        assert!(refused().spawn(|| ()).is_err(), "the OS refuses it");
        let mut last = (0, 0);
        let out = each_on(100, |i| i + 1, &mut |d, n| last = (d, n), &refused);
        assert_eq!(out, (1..=100).collect::<Vec<_>>());
        assert_eq!(last, (100, 100));
    }
}
