//! The game record of docs/src/formats/record.md: one TOML file per game whose
//! move list is the source of truth.
//!
//! - [`read`]: syntax only, with line numbers (never legality);
//! - [`replay`]: plays the lines through the rules and checks `result`;
//! - [`write`]: the full form, canonical and atomic.

mod line;
pub mod match_info;
pub mod read;
pub mod replay;
pub mod verdict;
pub mod write;

pub use match_info::MatchInfo;
pub use read::{Entry, Event, MoveLine, Record, plies};
pub use replay::{Replayed, TakenBack, replay, replay_more};
pub use verdict::Verdict;

use std::fmt;

/// The form in which a record keeps a mail's Message-ID: one token that
/// reads back as it was written (`<"a b"@host>`, `<a b@x>` and
/// `<#1 resign@x>` are valid Message-IDs, obsolete forms among them, and a
/// space or a `#` in the record made it unreadable, freezing the game).
/// White space, control characters, `#` (a comment), `"`, `\`, `%`, and
/// `<`/`>` inside the brackets are written `%XX`; the brackets are kept.
/// Distinct ids stay distinct (the encoding is one to one), and an id
/// pbem stored is compared in this form.
pub fn message_id_form(id: &str) -> String {
    let inner = id.trim();
    let inner = inner.strip_prefix('<').unwrap_or(inner);
    let inner = inner.strip_suffix('>').unwrap_or(inner);
    if inner.is_empty() {
        // `%` alone is no encoding's output: one form for the empty id.
        return "<%>".into();
    }
    let mut out = String::with_capacity(inner.len() + 2);
    out.push('<');
    for c in inner.chars() {
        if c.is_whitespace() || c.is_control() || "#\"\\%<>".contains(c) {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out.push('>');
    out
}

/// An error in a record, always with the file and the line
/// (docs/src/formats/record.md: `bz-7k2q.toml:14: 22-13 is not a legal move ...`).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_message_id_reads_back_from_a_record() {
        let ids = [
            "<\"a b\"@host>",
            "<a b@x>",
            "<#1 resign@x>",
            "<ab@x>",
            "<a\tb@x>",
            "<a%20b@x>",
            "<x>y@z>",
            "<\\\"#%<>@x>",
            "<é ü@例え.jp>",
            "<a\u{2028}b@x>",
            "<>",
        ];
        let mut forms = std::collections::HashSet::new();
        for id in ids {
            let form = message_id_form(id);
            assert!(forms.insert(form.clone()), "{id} and another share {form}");
            let line = format!("1. black 6-13 2026-11-20T10:00:00Z {form}");
            let read = read::parse_line(Rules::BoomAndZoom, &line, 1)
                .unwrap_or_else(|e| panic!("{id}: {e}"))
                .unwrap();
            assert_eq!(read.message_id.as_deref(), Some(form.as_str()), "{id}");
            assert_eq!(read.entry, Entry::Move("6-13".into()), "{id}");
        }
        assert_eq!(
            message_id_form("<CAF1x@mail.example.org>"),
            "<CAF1x@mail.example.org>"
        );
    }
}
