//! The store's error: what went wrong with which file of the data
//! folder, and a hint for the operator.

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
    #[error("{0}")]
    Invalid(String),
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
            StoreError::Invalid(_) | StoreError::NotText { .. } => false,
        }
    }

    /// Whether the message says already what to do about it, so that a
    /// caller adds no hint of its own (one cause, one hint).
    pub fn has_hint(&self) -> bool {
        match self {
            StoreError::Io { cause, .. } => !io_hint(cause).is_empty(),
            StoreError::Invalid(_) => false,
            StoreError::NotText { .. } | StoreError::Busy(_) => true,
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
