//! Waiting on a condition, never on a timing window: a loaded machine
//! (two cores shared by builds and other suites) may take many times
//! longer than an idle one, so a test polls what it waits for until a
//! generous deadline, and fails only past it, saying what it last saw.

use std::time::{Duration, Instant};

/// The deadline for what should happen "soon": long enough for a
/// machine under heavy load, short enough to end a test that hangs.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Calls `check` until it returns `Ok`, a short pause between calls, and
/// returns what it gave; panics after `deadline` with `what` and the
/// last `Err` (what was seen instead).
pub fn wait_until<T>(
    deadline: Duration,
    what: &str,
    mut check: impl FnMut() -> Result<T, String>,
) -> T {
    let start = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        match check() {
            Ok(v) => return v,
            Err(seen) => assert!(
                start.elapsed() < deadline,
                "{what}: not after {} s; last seen: {seen}",
                deadline.as_secs()
            ),
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(200));
    }
}

/// The CPU time this thread has used so far (`/proc/thread-self/schedstat`):
/// what a test bounds when it checks that work is cheap, since the wall
/// clock also counts the time other processes took the cores.
pub fn thread_cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("Linux's /proc/thread-self/schedstat");
    let nanos = stat
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("schedstat begins with nanoseconds on a CPU: {stat:?}"));
    Duration::from_nanos(nanos)
}
