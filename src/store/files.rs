//! File helpers of the store: atomic replacement through a temporary
//! file, syncs of files and folders (one by one, or a batch's whole
//! [`SyncSet`]), and reads that take a missing file as `None`. Every file pbem replaces goes through
//! [`write_atomic`] or [`write_atomic_via`] (docs/src/formats/record.md, "Writes are
//! atomic").

use super::{StoreError, io_err};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Writes `contents` to `path` atomically: a temporary file in the same
/// folder, flushed and synced, renamed over the old one, then the folder
/// synced (docs/src/formats/record.md, "Writes are atomic").
///
/// # Errors
/// Any I/O error; the old file is then untouched.
pub fn write_atomic(path: &Path, contents: &str) -> io::Result<()> {
    let dir = folder_of(path);
    write_atomic_via(path, contents, dir, true)
}

/// [`write_atomic`] with the temporary file in `tmp` (a folder on the same
/// file system: the data folder keeps its temporary files in one place,
/// so that clearing what a killed process left reads one small folder, not
/// every game's), and the folder of `path` synced only when
/// `sync_folder`: without, the new contents are on disk before the rename,
/// so a crash leaves the old file or the new one, but the rename itself
/// is durable only once the caller has synced the folder (a batch notes
/// it in its [`SyncSet`], synced once for the whole batch).
///
/// # Errors
/// Any I/O error; the old file is then untouched.
pub fn write_atomic_via(
    path: &Path,
    contents: impl AsRef<[u8]>,
    tmp: &Path,
    sync_folder: bool,
) -> io::Result<()> {
    let write_in = |folder: &Path| -> io::Result<()> {
        let file = temp_file(folder, contents.as_ref())?;
        super::crashpoint::reach();
        file.as_file().sync_all()?;
        super::crashpoint::reach();
        let placed = file.persist(path).map_err(|e| e.error);
        changed(path);
        placed.map(drop)
    };
    match write_in(tmp) {
        // `path` on another file system than `tmp` (a folder of the data
        // folder mounted apart): through a temporary file beside it.
        Err(e) if e.kind() == io::ErrorKind::CrossesDevices => write_in(folder_of(path))?,
        other => other?,
    }
    if sync_folder && let Ok(d) = File::open(folder_of(path)) {
        super::crashpoint::reach();
        let _ = d.sync_all();
    }
    Ok(())
}

/// How many times this process has written, placed or removed a file of
/// the data folder: a batch's cache of what it read is good while this
/// stays as it was when the cache was filled (see
/// [`crate::store::Store::batch`]).
static CHANGES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The files this thread changed while [`recording`], in order.
    static RECORDED: std::cell::RefCell<Option<Vec<PathBuf>>> =
        const { std::cell::RefCell::new(None) };
}

/// Counts a change to file `p` of the data folder (see [`changes`]),
/// noted when this thread is [`recording`].
pub(crate) fn changed(p: &Path) {
    CHANGES.fetch_add(1, Ordering::SeqCst);
    RECORDED.with_borrow_mut(|r| {
        if let Some(r) = r {
            r.push(p.to_path_buf());
        }
    });
}

/// What `f` returns, and the files of the data folder this thread
/// changed while it ran ([`changed`], once for each change): what a
/// batch's sync changed, for its cache of what it read. Within another
/// recording, the outer one sees them too.
pub(crate) fn recording<T>(f: impl FnOnce() -> T) -> (T, Vec<PathBuf>) {
    /// Puts the outer recording back, even when `f` panics.
    struct Restore(Option<Vec<PathBuf>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            RECORDED.set(self.0.take());
        }
    }
    let mut restore = Restore(RECORDED.replace(Some(Vec::new())));
    let out = f();
    let inner = RECORDED.replace(None).unwrap_or_default();
    if let Some(outer) = &mut restore.0 {
        outer.extend(inner.iter().cloned());
    }
    drop(restore);
    (out, inner)
}

/// The changes to the data folder's files this process has made so far.
pub(crate) fn changes() -> u64 {
    CHANGES.load(Ordering::SeqCst)
}

/// Marks `folder` as the top of a hierarchy (`chattr +T`), as `/home` is:
/// the file system then places each folder made in it apart, where there
/// are free inodes, rather than beside `folder`; and a file made in one of
/// those lands near it. On ext4 without a journal, a file made among
/// inodes freed in the last minute skips each of them, one by one (a
/// delivery cost ten times its due near a folder where another program
/// had just removed thousands of files). For a folder of folders that
/// fill with new files: the players' Maildirs, and the data folder.
/// Only a hint: `false` where the file system has no such flag or the
/// folder is not this user's to mark, and all goes on as before.
pub(crate) fn spread(folder: &Path) -> bool {
    use rustix::fs::{IFlags, ioctl_getflags, ioctl_setflags};
    let Ok(dir) = File::open(folder) else {
        return false;
    };
    match ioctl_getflags(&dir) {
        Ok(flags) if flags.contains(IFlags::TOPDIR) => true,
        Ok(flags) => ioctl_setflags(&dir, flags | IFlags::TOPDIR).is_ok(),
        Err(_) => false,
    }
}

/// Makes the folder `path`, with the folders `inside` in it, under a name
/// of its own in the same parent (`.pbem-<random>.tmp`) and renames it
/// into place: `Ok(true)`. `Ok(false)`: it was not made so (it is there
/// already, made by another process meanwhile, or the file system would
/// not rename it whole); the caller makes what is missing the plain way.
///
/// Why: in a folder marked by [`spread`], ext4 places a new folder by the
/// hash of its name, so a folder made again under the name of one removed
/// lately lands where that one was, and on ext4 without a journal every
/// file made there skips, one by one, each inode freed in the last
/// minutes (a data folder made anew after a removed one: each of the
/// `sent/` folder's first files cost 0.2 ms, 20 times its due). A random
/// name places it at random. And a Maildir made so is seen whole or not
/// at all.
pub(crate) fn make_apart(path: &Path, inside: &[&str]) -> io::Result<bool> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    let (Some(parent), Some(_)) = (path.parent(), path.file_name()) else {
        return Ok(false);
    };
    let mut random = [0u8; 8];
    super::ids::fill_random(&mut random);
    let mut name = String::from(TEMP_PREFIX);
    super::ids::push_hex16(&mut name, u64::from_le_bytes(random));
    name.push_str(TEMP_SUFFIX);
    let temp = parent.join(name);
    fs::create_dir(&temp)?;
    let made = inside
        .iter()
        .try_for_each(|sub| fs::create_dir(temp.join(sub)))
        .and_then(|()| {
            Ok(renameat_with(
                CWD,
                &temp,
                CWD,
                path,
                RenameFlags::NOREPLACE,
            )?)
        });
    if made.is_err() {
        // Only what was made here: the folder and the empty ones inside.
        inside
            .iter()
            .for_each(|sub| drop(fs::remove_dir(temp.join(sub))));
        let _ = fs::remove_dir(&temp);
    }
    Ok(made.is_ok())
}

/// Whether `folder` is marked as [`spread`] marks it, read on its own:
/// for tests.
#[cfg(test)]
pub(crate) fn is_spread(folder: &Path) -> bool {
    use rustix::fs::{IFlags, ioctl_getflags};
    File::open(folder)
        .ok()
        .and_then(|dir| ioctl_getflags(&dir).ok())
        .is_some_and(|flags| flags.contains(IFlags::TOPDIR))
}

/// Whether the file system of `dir` takes [`spread`]'s mark (ext4 does,
/// tmpfs does not), found by marking a new folder in it; for tests that
/// hold a folder marked exactly where it can be.
#[cfg(test)]
pub(crate) fn spread_probe(dir: &Path) -> bool {
    let probe = dir.join("spread-probe");
    fs::create_dir(&probe).unwrap();
    let can = spread(&probe);
    assert_eq!(can, is_spread(&probe), "spread says what it did");
    fs::remove_dir(&probe).unwrap();
    can
}

/// Temporary files are named `.pbem-*.tmp`: what
/// [`crate::store::Store::remove_stale_temps`] clears after a crash.
pub(crate) const TEMP_PREFIX: &str = ".pbem-";
pub(crate) const TEMP_SUFFIX: &str = ".tmp";

/// Whether `name` is a temporary file's or folder's ([`TEMP_PREFIX`],
/// [`TEMP_SUFFIX`]): what a crash may leave behind.
pub(crate) fn is_temp_name(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
}

/// A new temporary file in `folder` holding `contents`, written but not
/// synced; removed when dropped unless persisted. Mode 0600 (tempfile's):
/// the store's files, the players' secrets among them, keep it when
/// renamed into place.
pub(crate) fn temp_file(folder: &Path, contents: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)?;
    file.write_all(contents)?;
    Ok(file)
}

/// The folder `path` is in (`.` for a bare name).
pub(crate) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// What a batch has written or changed on disk and must make durable at
/// its next sync point ([`crate::store::Store::sync`], the commit of keys,
/// a staging folder before its keys): files whose data must be on disk
/// (made, rewritten or appended to) and folders whose entries changed (a
/// file or folder made, renamed in or out, or removed). [`SyncSet::sync`]
/// syncs a folder only once the files in it are synced, so that no name
/// made durable points at data that is not. pbem's own files only: a
/// sync of the whole file system (`syncfs(2)`) would also wait for
/// whatever every other program has yet to write there (a backup, a mail
/// queue, a build), which made a one-mail poll wait ten times as long
/// beside a big copy.
///
/// Its sets are kept by a path's bytes as the store spells it (each joined
/// from the data folder's root the same way), compared whole, not
/// component by component as a `Path` is, at some fifty notes a mail; a
/// path noted under two spellings is only synced twice. Which folders hold
/// which files is found by their components, once, at the sync.
///
/// A file its writer still has open is kept so ([`SyncSet::file_open`],
/// up to [`kept_open`]) and synced through it, not opened again by its
/// path: a spare slot, a memory of sent lines (three or four a mail).
#[derive(Debug, Default)]
pub struct SyncSet {
    files: BTreeMap<OsString, Option<Arc<File>>>,
    folders: BTreeSet<OsString>,
    /// How many of `files` are kept open.
    open: usize,
}

/// Files held open at once by a sync: well under the usual limit of 1,024
/// open files, however many a batch wrote.
const OPEN_AT_ONCE: usize = 256;

/// The most written files a [`SyncSet`] keeps open until its sync (the
/// others are opened again by their paths then): a quarter of what the
/// process may have open beyond 1,024 ([`open_files`]), from 256 to
/// 1,024. A batch of 128 mails writes some 450.
fn kept_open() -> usize {
    static KEPT: OnceLock<usize> = OnceLock::new();
    *KEPT.get_or_init(|| (open_files().saturating_sub(1024) / 4).clamp(256, 1024))
}

/// The most open files pbem asks of the system ([`open_files`]).
const OPEN_FILES_WANTED: u64 = 65_536;

/// How many files this process may have open: its soft limit, raised
/// once as far as the hard one allows, up to [`OPEN_FILES_WANTED`]. A
/// batch's sync keeps the files it wrote open ([`SyncSet::file_open`]), a
/// Maildir sink the mails it holds.
pub(crate) fn open_files() -> usize {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    static OPEN: OnceLock<usize> = OnceLock::new();
    *OPEN.get_or_init(|| {
        let limit = getrlimit(Resource::Nofile);
        let wanted = limit
            .maximum
            .map_or(OPEN_FILES_WANTED, |max| max.min(OPEN_FILES_WANTED));
        let current = match limit.current {
            Some(now) if now < wanted => {
                let raised = Rlimit {
                    current: Some(wanted),
                    maximum: limit.maximum,
                };
                match setrlimit(Resource::Nofile, raised) {
                    Ok(()) => wanted,
                    Err(_) => now,
                }
            }
            now => now.unwrap_or(OPEN_FILES_WANTED),
        };
        usize::try_from(current).unwrap_or(usize::MAX)
    })
}

/// A file or folder to sync: its path, whether whole (a folder), and the
/// file when its writer kept it open.
type Item = (PathBuf, bool, Option<Arc<File>>);

impl SyncSet {
    /// File `p`'s data must be durable (its folder's entry is another
    /// matter: [`SyncSet::made`]).
    pub(crate) fn file(&mut self, p: &Path) {
        if !self.files.contains_key(p.as_os_str()) {
            self.files.insert(p.as_os_str().to_owned(), None);
        }
    }

    /// [`SyncSet::file`], the file `f` written under `p` kept open to be
    /// synced through (while fewer than [`kept_open`] are): until then,
    /// nothing may put another file under `p`, which the sync would not
    /// see.
    pub(crate) fn file_open(&mut self, p: &Path, f: &Arc<File>) {
        match self.files.get_mut(p.as_os_str()) {
            Some(Some(kept)) => *kept = f.clone(),
            Some(slot @ None) if self.open < kept_open() => {
                *slot = Some(f.clone());
                self.open += 1;
            }
            Some(None) => {}
            None if self.open < kept_open() => {
                self.files.insert(p.as_os_str().to_owned(), Some(f.clone()));
                self.open += 1;
            }
            None => self.file(p),
        }
    }

    /// The entries of folder `p` changed.
    pub(crate) fn folder(&mut self, p: &Path) {
        if !self.folders.contains(p.as_os_str()) {
            self.folders.insert(p.as_os_str().to_owned());
        }
    }

    /// File `p` was made (or written anew) in its folder: its data and its
    /// folder's entry.
    pub(crate) fn made(&mut self, p: &Path) {
        self.file(p);
        self.folder(folder_of(p));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty() && self.folders.is_empty()
    }

    /// Makes everything in the set durable: every file's data
    /// (`fdatasync`) and every folder (`fsync`) that holds none of those
    /// files, then the folders that do, each round up to
    /// [`super::syncers::SYNCS_AT_ONCE`] syncs under way at once (a
    /// folder waits only for the files in it: each round costs at least
    /// one flush of the disk's cache, which the syncs under way share).
    /// The set is empty afterwards, whether it worked or not (a failed
    /// sync has told what it could: the kernel does not keep the lost
    /// pages dirty to try again). A path that is gone by now is passed
    /// over: whatever removed it changed its folder, which the remover
    /// notes. A write-back error of a file since it was written is
    /// reported by its sync, also through a file opened anew for it
    /// (Linux reports an error to the first sync that has not seen it).
    ///
    /// # Errors
    /// The first file or folder that could not be opened or synced: what
    /// relied on the sync must not be committed.
    pub(crate) fn sync(&mut self) -> Result<(), StoreError> {
        let SyncSet { files, folders, .. } = std::mem::take(self);
        if files.is_empty() && folders.is_empty() {
            return Ok(());
        }
        super::crashpoint::reach();
        let holding: HashSet<&Path> = files.keys().map(|f| folder_of(Path::new(f))).collect();
        let (last, first): (Vec<OsString>, Vec<OsString>) = folders
            .into_iter()
            .partition(|d| holding.contains(Path::new(d)));
        let first: Vec<Item> = (files.into_iter().map(|(p, f)| (p.into(), false, f)))
            .chain(first.into_iter().map(|d| (d.into(), true, None)))
            .collect();
        let last: Vec<Item> = last.into_iter().map(|d| (d.into(), true, None)).collect();
        for round in [first, last] {
            round.chunks(OPEN_AT_ONCE).try_for_each(sync_open)?;
        }
        Ok(())
    }
}

/// A path to sync: a file's data, or a folder whole (`true`).
pub(crate) type ToSync = (PathBuf, bool);

/// Syncs every one of `paths` at once ([`sync_open`]), [`OPEN_AT_ONCE`]
/// of them open at a time; one that is gone is passed over.
///
/// # Errors
/// The first that could not be opened or synced.
pub(crate) fn sync_paths(paths: &[ToSync]) -> Result<(), StoreError> {
    let items: Vec<Item> = paths
        .iter()
        .map(|(p, whole)| (p.clone(), *whole, None))
        .collect();
    items.chunks(OPEN_AT_ONCE).try_for_each(sync_open)
}

/// Opens each of `items` not open yet (passing over one that is gone),
/// then syncs them all at once ([`super::syncers`]). Opened here, on the
/// calling thread, so that the threads that wait for the disk only wait.
/// A file opened here under two of the names (the deadline markers are
/// links to one empty file) is synced once, whole if either asks it
/// whole.
fn sync_open(items: &[Item]) -> Result<(), StoreError> {
    use std::collections::hash_map::{Entry, HashMap};
    use std::os::unix::fs::MetadataExt;
    let mut open: Vec<super::Open> = Vec::with_capacity(items.len());
    let mut seen: HashMap<(u64, u64), usize> = HashMap::new();
    for (p, whole, kept) in items {
        if let Some(f) = kept {
            open.push((p.clone(), *whole, f.clone()));
            continue;
        }
        let f = match File::open(p) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io_err(p)(e)),
        };
        let inode = f.metadata().map_err(io_err(p))?;
        match seen.entry((inode.dev(), inode.ino())) {
            Entry::Occupied(at) => open[*at.get()].1 |= *whole,
            Entry::Vacant(v) => {
                v.insert(open.len());
                open.push((p.clone(), *whole, Arc::new(f)));
            }
        }
    }
    super::syncers::sync_all(open)
}

/// Writes `contents` over the file `p` (made when missing) and cuts it to
/// their length: for the files rewritten in place, whose reader knows a
/// torn one. Not truncated first: ext4 flushes a file cut to nothing when
/// it is closed, which cost a write-back per rewrite.
///
/// # Errors
/// Any I/O error.
pub(crate) fn write_over(p: &Path, contents: &[u8]) -> io::Result<Over> {
    // Nearly always there: opened as it is, made only when it is not.
    let open = |create: bool| {
        OpenOptions::new()
            .write(true)
            .create_new(create)
            .truncate(false)
            .open(p)
    };
    let opened = match open(false) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => open(true).map(|f| (f, true)),
        other => other.map(|f| (f, false)),
    };
    let written = opened.and_then(|(mut f, made)| {
        f.write_all(contents)?;
        f.set_len(contents.len() as u64)?;
        Ok(Over {
            file: Arc::new(f),
            made,
        })
    });
    // After the change, done or half done: a read since saw the old file.
    changed(p);
    written
}

/// A file [`write_over`] wrote, still open (to be synced through it),
/// and whether it made it.
pub(crate) struct Over {
    pub(crate) file: Arc<File>,
    pub(crate) made: bool,
}

/// Removes `p`; one that is not there is not an error.
pub(crate) fn remove_if_there(p: &Path) -> Result<(), StoreError> {
    super::crashpoint::reach();
    let removed = fs::remove_file(p);
    changed(p);
    match removed {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_err(p)(e)),
        _ => Ok(()),
    }
}

/// Syncs the folder `p`: what was made, renamed or removed in it is on
/// disk when this returns.
pub(crate) fn sync_folder(p: &Path) -> Result<(), StoreError> {
    super::crashpoint::reach();
    File::open(p).and_then(|d| d.sync_all()).map_err(io_err(p))
}

/// The text of `p`, `None` when there is no such file.
///
/// # Errors
/// Any I/O error but "not found"; a file that is not UTF-8.
pub(crate) fn read_opt(p: &Path) -> Result<Option<String>, StoreError> {
    text_opt(p, read_settled(p))
}

/// The text of what was `read` from `p`: `None` when there is no such
/// file.
fn text_opt(p: &Path, read: io::Result<Vec<u8>>) -> Result<Option<String>, StoreError> {
    match read {
        Ok(bytes) => text_of(p, bytes).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(p)(e)),
    }
}

/// What is left to read of `f`, read to its end by hand (`read_to_end` of
/// a `File` asks for its size and position again), into room for `room`
/// bytes at first.
fn read_rest(f: &mut File, room: usize) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0; room.max(1)];
    let mut n = 0;
    loop {
        match f.read(&mut bytes[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if n == bytes.len() {
            bytes.resize(2 * n, 0);
        }
    }
    bytes.truncate(n);
    Ok(bytes)
}

/// The text of a file rewritten in place whose reader knows a torn one
/// (a slot of a memory of sent lines, which carries its checksum), `None`
/// when there is no such file: read once as it is, without the look at
/// the name after the read that [`read_opt`] takes (a read torn by a
/// write reads as torn, and the other slot serves).
///
/// # Errors
/// Any I/O error but "not found"; a file that is not UTF-8.
pub(crate) fn read_torn_opt(p: &Path) -> Result<Option<String>, StoreError> {
    let read = File::open(p).and_then(|mut f| {
        let len = f.metadata()?.len();
        read_rest(&mut f, usize::try_from(len).unwrap_or(0) + 1)
    });
    text_opt(p, read)
}

/// The bytes of `p`, read again when the file was swapped out of its
/// name (or back into it) while it was read: a batch writes over the
/// files it swaps out ([`super::spares`]), so a reader that opened one
/// just before may see it change under it. The change time of the file
/// read, taken before, and that of the file under the name, after, tell.
fn read_settled(p: &Path) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::MetadataExt;
    let mut tries = 0;
    loop {
        let mut f = File::open(p)?;
        let before = f.metadata()?;
        let bytes = read_rest(&mut f, before.len() as usize + 1)?;
        tries += 1;
        let stamp = |m: &fs::Metadata| (m.dev(), m.ino(), m.ctime(), m.ctime_nsec(), m.len());
        let same = fs::metadata(p).is_ok_and(|now| stamp(&now) == stamp(&before));
        if same {
            return Ok(bytes);
        }
        if tries == 100 {
            return Err(io::Error::other(
                "the file changed while it was read, 100 times in a row",
            ));
        }
    }
}

/// `bytes`, read from `p`, as text.
///
/// # Errors
/// [`StoreError::NotText`] naming the line and byte of the first that is
/// no character.
pub(crate) fn text_of(p: &Path, bytes: Vec<u8>) -> Result<String, StoreError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        StoreError::NotText {
            path: p.display().to_string(),
            line: 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count(),
            at,
        }
    })
}

/// Appends `lines` to the log `p` on a line of their own (a line cut short
/// by an earlier crash must not swallow the first new one), synced when
/// `sync`; on a failure the file is cut back to its old length (a full
/// disk may take half a line). Returns whether the file is new.
pub(crate) fn append_whole(p: &Path, lines: &str, sync: bool) -> Result<bool, StoreError> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(p)
        .map_err(io_err(p))?;
    let len = f.metadata().map_err(io_err(p))?.len();
    let mut text = String::with_capacity(lines.len() + 1);
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1))
            .and_then(|_| f.read_exact(&mut last))
            .map_err(io_err(p))?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(lines);
    super::crashpoint::reach();
    let written = f
        .write_all(text.as_bytes())
        .and_then(|()| if sync { f.sync_all() } else { Ok(()) });
    if let Err(e) = written {
        let _ = f.set_len(len).and_then(|()| f.sync_all());
        return Err(io_err(p)(e));
    }
    Ok(len == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_written_over_is_cut_to_its_new_length_and_says_whether_it_was_made() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("slot.0");
        assert!(write_over(&p, b"the first, longer text").unwrap().made);
        let over = write_over(&p, b"short").unwrap();
        assert!(!over.made);
        assert_eq!(fs::read(&p).unwrap(), b"short");
        // Still open: what it names is the file under the path.
        use std::os::unix::fs::MetadataExt;
        let ino = |m: fs::Metadata| m.ino();
        assert_eq!(
            ino(over.file.metadata().unwrap()),
            ino(fs::metadata(&p).unwrap())
        );
    }

    #[test]
    fn a_file_read_as_it_is_reads_whole_at_any_length() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("slot.1");
        assert_eq!(read_torn_opt(&p).unwrap(), None);
        for len in [0, 1, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 100_000] {
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            fs::write(&p, &text).unwrap();
            assert_eq!(read_torn_opt(&p).unwrap().as_deref(), Some(text.as_str()));
            assert_eq!(read_opt(&p).unwrap().as_deref(), Some(text.as_str()));
        }
        fs::write(&p, b"\xff\xfe").unwrap();
        assert!(matches!(read_torn_opt(&p), Err(StoreError::NotText { .. })));
    }

    #[test]
    fn a_sync_set_keeps_so_many_files_open_and_syncs_them_all() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = SyncSet::default();
        let mut kept = Vec::new();
        let most = kept_open();
        assert!((256..=1024).contains(&most), "{most}");
        for i in 0..most + 8 {
            let p = dir.path().join(format!("f{i}"));
            let over = write_over(&p, b"x").unwrap();
            set.file_open(&p, &over.file);
            // Noted again, open or by its path: one entry still.
            set.file_open(&p, &over.file);
            set.file(&p);
            kept.push(over.file);
        }
        set.folder(dir.path());
        assert_eq!((set.files.len(), set.open), (most + 8, most));
        let open = set.files.values().filter(|f| f.is_some()).count();
        assert_eq!(open, most);
        // A file kept open is synced through it even once its name is
        // gone; one noted by its path alone is passed over then.
        fs::remove_file(dir.path().join("f0")).unwrap();
        fs::remove_file(dir.path().join(format!("f{}", most + 7))).unwrap();
        set.sync().unwrap();
        assert!(set.is_empty() && set.open == 0);
    }

    #[test]
    fn a_recording_sees_this_threads_changes_nested_ones_too_and_ends_with_a_panic() {
        let (a, b) = (Path::new("a"), Path::new("b"));
        let ((), outer) = recording(|| {
            changed(a);
            let ((), inner) = recording(|| changed(b));
            assert_eq!(inner, [b]);
            // Another thread's change is not this one's.
            std::thread::scope(|t| {
                t.spawn(|| changed(Path::new("elsewhere")));
            });
        });
        assert_eq!(outer, [a, b]);
        let panicked = std::panic::catch_unwind(|| recording(|| panic!("in the middle")));
        assert!(panicked.is_err());
        // Nothing records any more.
        assert!(RECORDED.with_borrow(Option::is_none));
        changed(a);
        assert!(RECORDED.with_borrow(Option::is_none));
    }
}
