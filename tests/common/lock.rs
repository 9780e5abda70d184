//! Who may run beside whom in one test binary.
//! of a binary in parallel threads of one process; most can, but a few
//! must run with no other test of their binary: the ones that stop and
//! restart the shared mail servers (tests/server/outages.rs,
//! tests/server/imap_reconnect.rs), which no other test may see, and the
//! ones that time pbem against a bound (tests/server/daemon.rs,
//! tests/server/timecontrol.rs, tests/mail/badmail.rs). Each of those holds [`alone`] for its
//! whole run; every other test of the binary holds [`shared`], so an
//! `alone` test waits for the running ones to finish and holds back the
//! next (a waiting writer blocks new readers).

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

static TESTS: RwLock<()> = RwLock::new(());

/// Held by a test that may run beside others (a failed test's poison is
/// ignored: its failure is reported on its own).
pub fn shared() -> RwLockReadGuard<'static, ()> {
    TESTS.read().unwrap_or_else(|e| e.into_inner())
}

/// Held by a test that must run with no other test of its binary.
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    TESTS.write().unwrap_or_else(|e| e.into_inner())
}
