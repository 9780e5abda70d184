//! Crash points, for the crash tests: every step that makes something
//! durable (a sync of a file or a folder, or of a batch's files and
//! folders at once; a rename into place; a removal; an append to the log
//! of processed mail) calls [`reach`] first. With `PBEM_CRASH_AT=N` in the environment, the process
//! kills itself (SIGKILL, as `kill -9` would: no destructor, no flush) on
//! reaching the N-th such step. A test that runs a command with N = 1, 2,
//! 3 ... until it finishes without dying has killed it at every sync and
//! rename point it passes, then checks that the next run mends all.
//!
//! Without the variable, [`reach`] is one atomic load: the variable is
//! read once per process.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The variable that arms the crash points.
pub const VAR: &str = "PBEM_CRASH_AT";

/// The step the process dies at, read once; `None` when unarmed.
static AT: OnceLock<Option<u64>> = OnceLock::new();

/// Steps reached so far in this process.
static REACHED: AtomicU64 = AtomicU64::new(0);

/// A durable step is about to be taken: the process dies here when this
/// is the step `PBEM_CRASH_AT` names.
pub fn reach() {
    let at = AT.get_or_init(|| std::env::var(VAR).ok().and_then(|v| v.trim().parse().ok()));
    if let Some(at) = *at
        && REACHED.fetch_add(1, Ordering::Relaxed) + 1 == at
    {
        die();
    }
}

/// Ends the process at once, as SIGKILL does from outside.
fn die() -> ! {
    let me = rustix::process::getpid();
    let _ = rustix::process::kill_process(me, rustix::process::Signal::KILL);
    // Not reached: SIGKILL cannot be caught. Should the signal be refused,
    // abort, which runs no destructor either.
    std::process::abort()
}
