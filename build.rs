//! Links the `pbem` binary as a position-dependent executable on Linux
//! ("Engine": `pbem validate` and `pbem moves` as whole
//! processes under 5 ms).
//!
//! A position-independent executable carries 52,000 relative relocations
//! (most of them the pointers of chrono-tz's time-zone tables and other
//! static tables), which the dynamic loader applies at every start: about
//! 350 pages copied on write, 1.4 ms of a 2.5 ms `pbem --version` measured
//! with `perf stat`. Linked with `-no-pie`, the addresses are fixed at link
//! time, and a page is read only when it is used.
//!
//! What it costs: the executable's own image is not placed at a random
//! address (the shared libraries, the heap, the stack and every mapping
//! still are). pbem is written in Rust and has no `unsafe` of its own
//! (its system calls go through rustix); a packager who wants the
//! position-independent build all the same sets `PBEM_PIE=1` when
//! building.

fn main() {
    println!("cargo:rerun-if-env-changed=PBEM_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let pie = std::env::var("PBEM_PIE").is_ok_and(|v| !v.is_empty() && v != "0");
    if linux && !pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
