//! A part of a folder's files, by a hash of their ids (see
//! [`super::parts`]), and the id an index line names, seen without
//! parsing the line.

use crate::store::{stable_hash, valid_id};

/// One part of a folder's files: those whose id's hash leaves `index`
/// when divided by `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Part {
    pub(super) index: u64,
    pub(super) of: u64,
}

impl Part {
    /// All of a folder's files.
    pub(super) const WHOLE: Part = Part { index: 0, of: 1 };

    /// Whether file `id` is in this part.
    pub(super) fn holds(self, id: &str) -> bool {
        self.of <= 1 || stable_hash(id.as_bytes()) % self.of == self.index
    }

    /// Whether this is the first part (or the whole).
    pub(super) fn is_first(self) -> bool {
        self.index == 0
    }
}

/// The id an index line names, seen without parsing it: pbem writes each
/// line as its checksum, a space and `{"id":"<id>",...`. `None` for a
/// line written otherwise, or an id that is not one.
pub(super) fn id_at_start(line: &[u8]) -> Option<&str> {
    let rest = line.get(17..)?.strip_prefix(b"{\"id\":\"")?;
    let end = rest.iter().position(|&b| b == b'"')?;
    let id = std::str::from_utf8(&rest[..end]).ok()?;
    valid_id(id).then_some(id)
}
