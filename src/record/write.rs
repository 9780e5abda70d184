//! Writing records to disk: the text of the full form of RECORD.md comes
//! from the engine ([`to_string`], re-exported here), and is put in place
//! by atomic replacement (a crash never leaves half a record).

pub use pbem_engine::record::write::{MOVE_COLUMN, to_string};
use std::io::Write as _;
use std::path::Path;

/// Replaces `path` with `contents` atomically: a temporary file in the same
/// folder, flushed and synced, renamed over the old one, then the folder
/// synced (RECORD.md, "Writes are atomic").
///
/// # Errors
/// Any I/O error; the old file is then untouched.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = folder_of(path);
    write_atomic_via(path, contents, dir, true)
}

/// [`write_atomic`] with the temporary file in `tmp` (a folder on the same
/// file system: the data folder keeps its temporary files in one place,
/// so that clearing what a killed process left reads one small folder, not
/// every game's), and the folder of `path` synced only when
/// `sync_folder`: without, the new contents are on disk before the rename,
/// so a crash leaves the old file or the new one, but the rename itself
/// is durable only once the caller has synced the file system
/// ([`crate::store::Store::sync`], once for a whole batch).
///
/// # Errors
/// Any I/O error; the old file is then untouched.
pub fn write_atomic_via(
    path: &Path,
    contents: impl AsRef<[u8]>,
    tmp: &Path,
    sync_folder: bool,
) -> std::io::Result<()> {
    let write_in = |folder: &Path| -> std::io::Result<()> {
        let file = temp_file(folder, contents.as_ref())?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    match write_in(tmp) {
        // `path` on another file system than `tmp` (a folder of the data
        // folder mounted apart): through a temporary file beside it.
        Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => write_in(folder_of(path))?,
        other => other?,
    }
    if sync_folder && let Ok(d) = std::fs::File::open(folder_of(path)) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Temporary files are named `.pbem-*.tmp`: what
/// [`crate::store::Store::remove_stale_temps`] clears after a crash.
pub(crate) const TEMP_PREFIX: &str = ".pbem-";
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// A new temporary file in `folder` holding `contents`, written but not
/// synced; removed when dropped unless persisted. Mode 0600 (tempfile's):
/// the store's files, the players' secrets among them, keep it when
/// renamed into place.
pub(crate) fn temp_file(
    folder: &Path,
    contents: &[u8],
) -> std::io::Result<tempfile::NamedTempFile> {
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)?;
    file.write_all(contents)?;
    Ok(file)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}
