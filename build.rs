//! Links the `pbem` binary on Linux as a position-dependent executable,
//! with the code that processes run most at the head of its code.
//!
//! **Position-dependent** ("Engine": `pbem validate` and `pbem moves` as
//! whole processes under 5 ms). A position-independent executable carries
//! 52,000 relative relocations (most of them the pointers of chrono-tz's
//! time-zone tables and other static tables), which the dynamic loader
//! applies at every start: about 350 pages copied on write, 1.4 ms of a
//! 2.5 ms `pbem --version` measured with `perf stat`. Linked with
//! `-no-pie`, the addresses are fixed at link time, and a page is read
//! only when it is used.
//!
//! What it costs: the executable's own image is not placed at a random
//! address (the shared libraries, the heap, the stack and every mapping
//! still are). pbem is written in Rust and has no `unsafe` of its own
//! (its system calls go through rustix); a packager who wants the
//! position-independent build all the same sets `PBEM_PIE=1` when
//! building.
//!
//! **Hot code gathered.** `linker/hot-code.ld` names the functions that a
//! one-mail process (`pbem deliver`, `pbem poll`), the daemon and the
//! commands run as processes (`validate`, `moves`, `show`, `analyse`,
//! `games`) execute; the linker places them side by side before the rest
//! of the code, so a process faults in fewer pages of it: about 50 faults
//! fewer of 300 a delivery, and some 0.3 MB off the daemon's peak
//! (docs/src/performance.md). `scripts/hot-code` remakes the file.
//! `PBEM_HOT_CODE=0` links without it.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-env-changed=PBEM_PIE");
    println!("cargo:rerun-if-env-changed=PBEM_HOT_CODE");
    let cfg = |key: &str, value: &str| std::env::var(key).is_ok_and(|v| v == value);
    let linux = cfg("CARGO_CFG_TARGET_OS", "linux");
    // Where the linker is rustc's own lld (x86-64 Linux with glibc): the
    // one the list of hot code was made and tried with.
    let lld = linux && cfg("CARGO_CFG_TARGET_ARCH", "x86_64") && cfg("CARGO_CFG_TARGET_ENV", "gnu");
    let on = |var: &str, default: bool| {
        std::env::var(var).map_or(default, |v| !v.is_empty() && v != "0")
    };
    if linux && !on("PBEM_PIE", false) {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let hot = Path::new(env!("CARGO_MANIFEST_DIR")).join("linker/hot-code.ld");
    if lld && on("PBEM_HOT_CODE", true) {
        println!("cargo:rerun-if-changed={}", hot.display());
        if hot.is_file() {
            // `-T` and the path as two arguments: a comma in the path
            // would split a `-Wl,` one.
            println!("cargo:rustc-link-arg-bins=-T");
            println!("cargo:rustc-link-arg-bins={}", hot.display());
        }
    }
}
