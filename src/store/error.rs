//! The store's error: what went wrong with which file of the data
//! folder, and a hint for the operator.

use crate::record::RecordError;
use std::io;
use std::path::Path;

/// An error of the store, with the path it concerns.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The OS's words are part of the message, and so not also given as
    /// the error's `source()`: a chain printed whole (`{:#}`) would say
    /// them twice.
    #[error("{path}: {cause}{}", io_hint(.cause))]
    Io { path: String, cause: io::Error },
    /// A file of the data folder that does not read as what it holds: a
    /// key or value someone else changed, named with its line.
    #[error("{path}: {source}")]
    Parse {
        path: String,
        #[source]
        source: toml::de::Error,
    },
    /// A value pbem could not put in TOML (one it made itself: a bug).
    #[error("cannot write {path} as TOML: {source}")]
    Encode {
        path: String,
        #[source]
        source: toml::ser::Error,
    },
    /// A value pbem could not put in JSON (one it made itself: a bug).
    #[error("cannot write {what} as JSON: {source}")]
    Json {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// A game's record that does not read or replay: the error names
    /// its file and line.
    #[error("{source}")]
    Record {
        #[source]
        source: RecordError,
    },
    /// The OS gave no random bytes for a key or an id.
    #[error("the OS gave no random bytes ({source}); check /dev/urandom and the getrandom syscall")]
    Random {
        #[source]
        source: getrandom::Error,
    },
    /// A name that is no id of the data folder's files.
    #[error("`{id}` is not a game id: write lower-case letters, digits and dashes")]
    BadId { id: String },
    /// A mail key that cannot be kept one to a line.
    #[error("{key:?} is not a mail key: a key is one line without control characters")]
    BadKey { key: String },
    /// A game that is not in the data folder.
    #[error("there is no game `{id}`; `pbem list` lists the games")]
    NoGame { id: String },
    /// A tournament file whose rounds cannot go on.
    #[error("tournament {name}: {source}")]
    Tournament {
        name: String,
        #[source]
        source: pbem_league::pairing::PairingError,
    },
    /// A tournament file whose round names a seat it has not.
    #[error(
        "tournament {name}: round {round} names seat {seat}, which it has not; \
         mend the round in its file"
    )]
    NoSeat {
        name: String,
        round: usize,
        seat: usize,
    },
    /// A rated game the ratings file has no line for after rating it.
    #[error("{id}: the game did not rate; rebuild the ratings with `pbem ratings --rebuild`")]
    Unrated { id: String },
    /// Every fresh id drawn was taken.
    #[error("no free {what} id after {tries} random tries; look for a full `{what}` folder")]
    NoFreeId { what: &'static str, tries: u32 },
    /// A file that holds bytes that are not UTF-8 text: what
    /// pbem writes always is, so someone else changed it.
    #[error(
        "{path}: line {line}: not UTF-8 text (a byte that is no character, at byte {at}); \
         mend the file in an editor that saves UTF-8"
    )]
    NotText {
        path: String,
        line: usize,
        at: usize,
    },
    #[error(
        "another pbem is working on the data folder {0} (it holds {0}/pbem.lock), so this \
         run did nothing; add --wait to wait for it, or try again later"
    )]
    Busy(String),
}

impl StoreError {
    /// The data folder cannot be written at all: the disk is full, the
    /// quota used up, or the file system read-only ("Disk full /
    /// read-only data folder"). Every other write would fail the same way.
    pub fn is_unwritable(&self) -> bool {
        matches!(self, StoreError::Io { cause, .. } if unwritable(cause))
    }
}

impl StoreError {
    /// Whether the failure may pass by itself (the system ran out of
    /// memory or open files for a moment, a call was interrupted): the
    /// work is tried again at the next run. Any other failure to read a
    /// file (a folder where a file belongs, no permission, bytes that are
    /// no text, a file that does not parse) stays until someone mends it.
    pub fn is_passing(&self) -> bool {
        match self {
            StoreError::Io { cause, .. } => {
                matches!(
                    cause.kind(),
                    io::ErrorKind::OutOfMemory
                        | io::ErrorKind::Interrupted
                        | io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::ResourceBusy
                ) || matches!(cause.raw_os_error(), Some(23 | 24))
            }
            StoreError::Busy(_) => true,
            _ => false,
        }
    }

    /// Whether the message says already what to do about it, so that a
    /// caller adds no hint of its own (one cause, one hint).
    pub fn has_hint(&self) -> bool {
        match self {
            StoreError::Io { cause, .. } => !io_hint(cause).is_empty(),
            StoreError::Parse { .. }
            | StoreError::Encode { .. }
            | StoreError::Json { .. }
            | StoreError::Record { .. } => false,
            _ => true,
        }
    }
}

fn unwritable(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull
            | io::ErrorKind::QuotaExceeded
            | io::ErrorKind::ReadOnlyFilesystem
    )
}

/// What to do about an I/O error the admin can fix: the OS's words alone
/// ("No space left on device (os error 28)") do not say.
fn io_hint(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::StorageFull => {
            " (the disk is full: free some space there; nothing was lost, and what could not \
             be done is done at the next run)"
        }
        io::ErrorKind::QuotaExceeded => {
            " (pbem's user has used up its disk quota: free some space or raise the quota; \
             nothing was lost, and what could not be done is done at the next run)"
        }
        io::ErrorKind::ReadOnlyFilesystem => {
            " (the file system is mounted read-only: remount it read-write; nothing was lost, \
             and what could not be done is done at the next run)"
        }
        io::ErrorKind::PermissionDenied => {
            " (pbem's user may not write there: check the owner and mode of the data folder)"
        }
        _ => "",
    }
}

/// The error of an I/O failure at `path`, for `map_err`.
pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |cause| StoreError::Io {
        path: path.display().to_string(),
        cause,
    }
}
