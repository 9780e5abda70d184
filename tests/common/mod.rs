//! Helpers shared by the test files that include them (`mod common;`):
//! the scripted whole game ([`play`]) and the loopback mail stack
//! ([`mailstack`]), and many games' mail at once ([`workload`]). Each
//! test file uses a part, hence `dead_code`.
#![allow(dead_code)]

pub mod mailstack;
pub mod play;
pub mod workload;

use std::path::{Path, PathBuf};

/// Every file under `dir`, at any depth (none when it is missing).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}
