//! Spare files: a batch's new files are written into a ring of
//! [`SLOTS`] files kept in `DATA/tmp/` (`.spare-NNN`) and swapped into
//! place with `renameat2(RENAME_EXCHANGE)`, which leaves the replaced
//! file's inode under the slot's name, to be written over by a later
//! batch. No inode is made and none freed for a file replaced.
//!
//! Why: a file made and renamed over another frees an inode per write,
//! and on ext4 without a journal every new inode is looked for past all
//! the inodes freed in the last minute (`recently_deleted` in
//! `find_inode_bit`): a poll of thousands of mails spent most of its time
//! there, several hundred microseconds of system time per file. Written
//! over in place, a slot costs a few dozen.
//!
//! Crash safety is that of a temporary file renamed into place: the
//! slot is written and synced before the exchange (the caller's sync
//! point), and the exchange, like a rename, leaves the old file or the new
//! one under the name. A slot's content is never read. Slots are taken
//! round the ring, from a random start in each process, so that a file
//! just swapped out rests while the others are used; a reader that has
//! the old file open and reads it while a slot is written again sees it
//! changed under it ([`super::files::read_opt`] reads again then).
//!
//! Only a writer holding the data folder's lock (a poll's batch) uses the
//! slots. A slot that is not a plain file of pbem's with one link (a
//! backup made with hard links shares the inode) is replaced by a new
//! file; on a file system without the exchange, a slot is renamed into
//! place, as a temporary file was.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// How many slots the ring has: the most new files one batch writes
/// through slots (the rest get temporary files of their own), and how
/// many placements a swapped-out file rests before it is written again.
pub(crate) const SLOTS: usize = 512;

/// A slot's name in `DATA/tmp/`: not a temporary file's, so that the
/// clearing of stale temporary files after a crash keeps the slots.
const SLOT_PREFIX: &str = ".spare-";

/// The next slot this process takes (modulo [`SLOTS`]).
fn cursor() -> &'static AtomicUsize {
    static NEXT: OnceLock<AtomicUsize> = OnceLock::new();
    NEXT.get_or_init(|| {
        let mut b = [0u8; 8];
        super::ids::fill_random(&mut b);
        AtomicUsize::new(usize::from_le_bytes(b) % SLOTS)
    })
}

/// The slots one batch's sync point takes: at most [`SLOTS`] of them, so
/// that no slot is written twice before its file is in place.
pub(crate) struct Ring {
    tmp: PathBuf,
    start: usize,
    taken: usize,
}

/// A new file's contents under a name of `DATA/tmp/`, written, not yet
/// synced, to be put in place by [`Spare::place`].
pub(crate) struct Spare {
    path: PathBuf,
    /// Shared with the sync that makes it durable ([`Written::file`]).
    file: Arc<File>,
}

impl Ring {
    /// The ring of the temporary folder `tmp`.
    pub(crate) fn new(tmp: &Path) -> Ring {
        Ring::starting_at(tmp, cursor().load(Ordering::Relaxed))
    }

    fn starting_at(tmp: &Path, start: usize) -> Ring {
        Ring {
            tmp: tmp.to_path_buf(),
            start,
            taken: 0,
        }
    }

    /// `contents` written into the next slot, `None` when this sync point
    /// has taken every slot.
    ///
    /// # Errors
    /// The slot could not be opened or written.
    pub(crate) fn write(&mut self, contents: &[u8]) -> Option<io::Result<Spare>> {
        if self.taken == SLOTS {
            return None;
        }
        let n = (self.start + self.taken) % SLOTS;
        self.taken += 1;
        let path = self.tmp.join(format!("{SLOT_PREFIX}{n:03}"));
        Some(write_slot(&path, contents).map(|file| Spare {
            path,
            file: Arc::new(file),
        }))
    }
}

/// Opens slot `path` (made when missing), checks it is a plain file of
/// one link, and writes `contents` over it.
fn write_slot(path: &Path, contents: &[u8]) -> io::Result<File> {
    let open = |new: bool| {
        let mut o = OpenOptions::new();
        o.write(true).truncate(false).mode(0o600);
        o.custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
        if new {
            o.create_new(true);
        } else {
            o.create(true);
        }
        o.open(path)
    };
    let kept = open(false).ok().and_then(|f| {
        let m = f.metadata().ok()?;
        (m.is_file() && m.nlink() == 1).then_some((f, m))
    });
    let (mut file, meta) = match kept {
        Some(kept) => kept,
        // Shared with another name, not a file, not pbem's: a new one.
        None => {
            let _ = fs::remove_file(path);
            let f = open(true)?;
            let m = f.metadata()?;
            (f, m)
        }
    };
    // The mode of a file swapped out (a record an admin made readable)
    // must not reach a secrets file.
    if meta.permissions().mode() & 0o7777 != 0o600 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(contents)?;
    file.set_len(contents.len() as u64)?;
    Ok(file)
}

/// A batch's new file, written: in a slot, or (the ring used up) in a
/// temporary file of its own.
pub(crate) enum Written {
    Slot(Spare),
    Temp(tempfile::TempPath),
}

impl Ring {
    /// `contents` written into the next slot or, none left, a new
    /// temporary file in the ring's folder.
    ///
    /// # Errors
    /// The file could not be made or written.
    pub(crate) fn take(&mut self, contents: &[u8]) -> io::Result<Written> {
        match self.write(contents) {
            Some(spare) => spare.map(Written::Slot),
            None => super::files::temp_file(&self.tmp, contents)
                .map(|t| Written::Temp(t.into_temp_path())),
        }
    }
}

impl Written {
    /// Where the file is, for its sync before [`Written::place`].
    pub(crate) fn path(&self) -> &Path {
        match self {
            Written::Slot(s) => &s.path,
            Written::Temp(t) => t,
        }
    }

    /// The file, when it is still open (a slot's), to be synced through.
    pub(crate) fn file(&self) -> Option<&Arc<File>> {
        match self {
            Written::Slot(s) => Some(&s.file),
            Written::Temp(_) => None,
        }
    }

    /// Puts the file in place as `dest` ([`Spare::place`], or a rename).
    ///
    /// # Errors
    /// As the exchange or rename: `dest` is then as it was.
    pub(crate) fn place(self, dest: &Path) -> io::Result<()> {
        let placed = match self {
            Written::Slot(s) => s.place(dest),
            Written::Temp(t) => t.persist(dest).map(drop).map_err(|e| e.error),
        };
        super::files::changed(dest);
        placed
    }
}

impl Drop for Ring {
    /// The next ring goes on where this one stopped.
    fn drop(&mut self) {
        cursor().store((self.start + self.taken) % SLOTS, Ordering::Relaxed);
    }
}

impl Spare {
    /// Swaps the slot with `dest`: `dest` holds the new contents, the slot
    /// the old file. A `dest` not there yet is renamed into.
    ///
    /// # Errors
    /// The exchange or rename failed: `dest` is then as it was.
    pub(crate) fn place(self, dest: &Path) -> io::Result<()> {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        drop(self.file);
        match renameat_with(CWD, &self.path, CWD, dest, RenameFlags::EXCHANGE) {
            Ok(()) => Ok(()),
            // No file to swap with, or no exchange on this file system.
            Err(e)
                if e == rustix::io::Errno::NOENT
                    || e == rustix::io::Errno::INVAL
                    || e == rustix::io::Errno::NOSYS =>
            {
                fs::rename(&self.path, dest)
            }
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_swaps_in_the_new_contents_and_keeps_the_old_inode() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("g.toml");
        fs::write(&dest, "old contents, longer than the new\n").unwrap();
        let old_ino = fs::metadata(&dest).unwrap().ino();
        let spare = Ring::starting_at(dir.path(), 7)
            .write(b"new\n")
            .unwrap()
            .unwrap();
        let slot = spare.path.clone();
        spare.place(&dest).unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "new\n");
        assert_eq!(
            fs::metadata(&slot).unwrap().ino(),
            old_ino,
            "the old inode rests in the slot"
        );
        // Written again: over the old inode, cut to the new length.
        let again = Ring::starting_at(dir.path(), 7)
            .write(b"newer\n")
            .unwrap()
            .unwrap();
        assert_eq!(again.path, slot);
        again.place(&dest).unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "newer\n");
        assert_eq!(fs::metadata(&dest).unwrap().ino(), old_ino, "no inode made");
        assert_eq!(
            fs::metadata(&dest).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn a_missing_destination_is_renamed_into() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("new.toml");
        let spare = Ring::starting_at(dir.path(), 0)
            .write(b"first\n")
            .unwrap()
            .unwrap();
        let slot = spare.path.clone();
        spare.place(&dest).unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "first\n");
        assert!(!slot.exists(), "the slot is made again when next taken");
    }

    #[test]
    fn a_slot_shared_by_a_hard_link_is_not_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("g.toml");
        fs::write(&dest, "old\n").unwrap();
        let spare = Ring::starting_at(dir.path(), 3)
            .write(b"new\n")
            .unwrap()
            .unwrap();
        let slot = spare.path.clone();
        spare.place(&dest).unwrap();
        // A backup made with hard links now shares the old inode.
        let backup = dir.path().join("backup.toml");
        fs::hard_link(&slot, &backup).unwrap();
        let again = Ring::starting_at(dir.path(), 3)
            .write(b"other\n")
            .unwrap()
            .unwrap();
        assert_eq!(again.path, slot);
        assert_eq!(
            fs::read_to_string(&backup).unwrap(),
            "old\n",
            "the backup is untouched"
        );
        assert_eq!(fs::read_to_string(&slot).unwrap(), "other\n");
    }

    #[test]
    fn a_reader_never_sees_a_file_written_over_while_it_reads() {
        // A writer swaps two contents in and out through a small ring of
        // slots (each swapped-out file written again soon); every read
        // is one of the two whole.
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("g.toml");
        let (a, b) = ("a".repeat(30_000), "b".repeat(20_000));
        fs::write(&dest, &a).unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 0..2000 {
                    let text = if i % 2 == 0 { &b } else { &a };
                    let mut ring = Ring::starting_at(dir.path(), i % 2);
                    ring.write(text.as_bytes())
                        .unwrap()
                        .unwrap()
                        .place(&dest)
                        .unwrap();
                }
                done.store(true, Ordering::Relaxed);
            });
            let mut reads = 0;
            while !done.load(Ordering::Relaxed) || reads < 100 {
                let text = crate::store::files::read_opt(&dest).unwrap().unwrap();
                assert!(
                    text == a || text == b,
                    "a torn read of {} bytes",
                    text.len()
                );
                reads += 1;
            }
        });
    }

    #[test]
    fn one_sync_point_takes_each_slot_at_most_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut ring = Ring::starting_at(dir.path(), SLOTS - 5);
        let mut names = std::collections::HashSet::new();
        for _ in 0..SLOTS {
            assert!(names.insert(ring.write(b"x").unwrap().unwrap().path));
        }
        assert!(ring.write(b"x").is_none(), "the ring is used up");
    }
}
