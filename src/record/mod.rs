//! The game record of RECORD.md: one TOML file per game whose move list is
//! the source of truth.
//!
//! - [`read`]: syntax only, with line numbers (never legality);
//! - [`replay`]: plays the lines through the rules and checks `result`;
//! - [`write`]: the full form, canonical and atomic.

pub mod read;
pub mod replay;
pub mod write;

pub use read::{Entry, Event, MoveLine, Record};
pub use replay::{Replayed, replay};

use std::fmt;

/// An error in a record, always with the file and the line
/// (RECORD.md: `bz-7k2q.toml:14: 22-13 is not a legal move ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub file: String,
    /// From 1; 0 when the error is about the whole file (cannot read it).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for RecordError {}
