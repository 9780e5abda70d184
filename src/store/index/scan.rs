//! An index read without holding it: the folder's files listed in
//! little memory, the index read a line at a time, each summary handed on
//! as it is taken ([`Store::scan_summaries`]), and an index written anew
//! the same way ([`Store::write_index`]). At 100,000 games the daemon's
//! hourly look for the clocks due in the next hour held every clock's
//! summary, its id and stamp, and the index's lines (60 MB); a scan holds
//! the files' names (about 14 bytes a file; a poll's, those of one part of
//! a big folder at a time: [`super::parts`]), two bits a file, one line of
//! the index, and the summaries of the files it reads, one round of them
//! at a time ([`READ_ROUND`] per reading thread, one thread per core).
//!
//! A summary is taken when its line's stamp is the stamp of the file on
//! disk: any such line, not only the last of its id, since a stamp names
//! one version of one file and a summary is made from that version alone.

use super::hashpart::Part;
use super::{Line, Reader, Refresh, Stamp, Summary, header, line, read_summary};
use crate::store::crashpoint;
use crate::store::files::{TEMP_PREFIX, TEMP_SUFFIX};
use crate::store::{Store, StoreError, io_err, valid_id};
use serde::de::IgnoredAny;
use std::cell::Cell;
use std::fs::{self, File};
use std::io::{self, BufRead, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

/// The `<id>.toml` files of one folder of the data folder: their ids in
/// one buffer, each after its length in a byte, and where each begins,
/// sorted by id; the folder open, to look at each file relative to it.
pub(super) struct Files {
    dir: PathBuf,
    handle: File,
    names: Vec<u8>,
    starts: Vec<u32>,
    /// The file found last: an index written whole names the files in
    /// their order, so the next one is looked at first.
    last: Cell<usize>,
}

impl Files {
    /// The files of `dir` in `part`, as listed now.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub(super) fn list(dir: &Path, part: Part) -> Result<Files, StoreError> {
        let (files, _) = Files::list_at_most(dir, part, usize::MAX)?;
        Ok(files)
    }

    /// The files of `dir` in `part`, the first `most` of them, and how
    /// many the part holds: all of them are counted, only `most` kept.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub(super) fn list_at_most(
        dir: &Path,
        part: Part,
        most: usize,
    ) -> Result<(Files, usize), StoreError> {
        let handle = File::open(dir).map_err(io_err(dir))?;
        let mut names = Vec::new();
        let mut starts = Vec::new();
        let mut count = 0;
        for e in fs::read_dir(dir).map_err(io_err(dir))?.flatten() {
            let name = e.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".toml")) else {
                continue;
            };
            // A valid id is at most 40 bytes long: its length fits a byte.
            if !valid_id(id) || !part.holds(id) || !e.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            count += 1;
            if starts.len() >= most {
                continue;
            }
            let (Ok(at), Ok(len)) = (u32::try_from(names.len()), u8::try_from(id.len())) else {
                return Err(io_err(dir)(io::Error::other("too many files to index")));
            };
            starts.push(at);
            names.push(len);
            names.extend_from_slice(id.as_bytes());
        }
        starts.sort_unstable_by(|&a, &b| key(&names, a).cmp(key(&names, b)));
        let files = Files {
            dir: dir.to_path_buf(),
            handle,
            names,
            starts,
            last: Cell::new(usize::MAX),
        };
        Ok((files, count))
    }

    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The id of the `i`th file, by id.
    pub(super) fn id(&self, i: usize) -> &str {
        // Made from a `&str`: always UTF-8.
        std::str::from_utf8(key(&self.names, self.starts[i])).unwrap_or_default()
    }

    /// The number of file `id`, if it was listed.
    fn find(&self, id: &str) -> Option<usize> {
        let next = self.last.get().wrapping_add(1);
        let found = match self.starts.get(next) {
            Some(&s) if key(&self.names, s) == id.as_bytes() => Some(next),
            _ => self
                .starts
                .binary_search_by(|&s| key(&self.names, s).cmp(id.as_bytes()))
                .ok(),
        };
        if let Some(i) = found {
            self.last.set(i);
        }
        found
    }

    /// The stamp of the `i`th file as it is now; `None` when it is gone
    /// or no longer a plain file.
    ///
    /// # Errors
    /// When it cannot be looked at.
    fn stamp(&self, i: usize) -> Result<Option<Stamp>, StoreError> {
        let name = format!("{}.toml", self.id(i));
        let found = stamp_at(&self.handle, &name).or_else(|e| match e.raw_os_error() {
            // A kernel without statx(2): as the standard library does it.
            Some(code) if code == rustix::io::Errno::NOSYS.raw_os_error() => {
                fs::symlink_metadata(self.dir.join(&name))
                    .map(|m| m.is_file().then(|| Stamp::of(&m)))
            }
            _ => Err(e),
        });
        match found {
            Ok(s) => Ok(s),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_err(&self.dir.join(&name))(e)),
        }
    }
}

/// How many files each reading thread reads in one round of
/// [`Store::scan_summaries`]: the summaries of one round wait in memory
/// to be handed on in order.
const READ_ROUND: usize = 256;

/// Fewer files than this are read on the calling thread: starting
/// threads would cost more.
const READ_ALONE: usize = 32;

/// How many threads read files for an index: one per core, at most 8.
/// Reading a record means parsing and replaying it, so that 100,000
/// records written without pbem (copied in, or by an older version) are
/// read in seconds.
fn readers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// A file read for an index: its line, and its stamp and summary.
pub(super) type Read<T> = (String, (Stamp, T));

/// The summaries of the files `round` names (number, id), in its order,
/// each as [`read_summary`] gives it and with its index line: read by
/// up to `threads` threads, each taking a run of them.
pub(super) fn read_round<T: Summary>(
    dir: &Path,
    round: &[(usize, &str)],
    threads: usize,
) -> Vec<Result<Option<Read<T>>, StoreError>> {
    let read = |part: &[(usize, &str)]| -> Vec<_> {
        let one = |id: &str| match read_summary::<T>(dir, id)? {
            Some(entry) => Ok(Some((line(id, Some(&entry))?, entry))),
            None => Ok(None),
        };
        part.iter().map(|(_, id)| one(id)).collect()
    };
    if threads < 2 || round.len() < READ_ALONE {
        return read(round);
    }
    std::thread::scope(|s| {
        let parts: Vec<_> = round
            .chunks(round.len().div_ceil(threads))
            .map(|part| s.spawn(move || read(part)))
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// The second pass of a scan: the files of `files` not `taken` from the
/// index read (on up to [`readers`] threads, a round at a time), each
/// summary handed to `each` in the listing's order and its line added
/// to `fresh` (`progress` is told how many of how many are done).
/// Returns how many were read: a file gone since the listing is not.
///
/// # Errors
/// When a file cannot be read, `fresh` written, or `each` fails.
pub(super) fn read_untaken<T: Summary>(
    dir: &Path,
    files: &Files,
    taken: &Bits,
    fresh: &mut Body,
    progress: &mut dyn FnMut(usize, usize),
    each: &mut dyn FnMut(&str, T) -> Result<(), StoreError>,
) -> Result<usize, StoreError> {
    let stale = files.len() - taken.count();
    let (mut looked, mut read) = (0, 0);
    let mut pending = (0..files.len()).filter(|&i| !taken.get(i));
    let threads = readers();
    loop {
        let round: Vec<(usize, &str)> = pending
            .by_ref()
            .take(threads * READ_ROUND)
            .map(|i| (i, files.id(i)))
            .collect();
        if round.is_empty() {
            break;
        }
        for ((i, id), entry) in round.iter().zip(read_round::<T>(dir, &round, threads)) {
            progress(looked, stale);
            looked += 1;
            // None: gone since the folder was listed.
            let Some((text, entry)) = entry? else {
                continue;
            };
            fresh.push(text.trim_end_matches('\n').as_bytes(), *i)?;
            read += 1;
            each(id, entry.1)?;
        }
    }
    progress(stale, stale);
    Ok(read)
}

/// The stamp of file `name` of the open folder `dir` (statx(2), relative
/// to the folder: no walk of its path); `None` for anything but a plain
/// file.
fn stamp_at(dir: &File, name: &str) -> io::Result<Option<Stamp>> {
    use rustix::fs::{AtFlags, FileType, StatxFlags, statx};
    let want = StatxFlags::TYPE | StatxFlags::INO | StatxFlags::SIZE | StatxFlags::MTIME;
    let st = statx(dir, name, AtFlags::SYMLINK_NOFOLLOW, want)?;
    let plain = FileType::from_raw_mode(u32::from(st.stx_mode)) == FileType::RegularFile;
    Ok(plain.then(|| {
        Stamp(
            st.stx_ino,
            st.stx_size,
            st.stx_mtime.tv_sec,
            i64::from(st.stx_mtime.tv_nsec),
        )
    }))
}

/// The id whose length is at `start` of `names`, as bytes.
fn key(names: &[u8], start: u32) -> &[u8] {
    let start = start as usize;
    let len = names.get(start).map_or(0, |&n| usize::from(n));
    names.get(start + 1..start + 1 + len).unwrap_or_default()
}

/// One bit per file.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    pub(super) fn get(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    pub(super) fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(super) fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// What [`Store::scan_summaries`] found besides the summaries.
#[derive(Debug)]
pub struct Scanned {
    /// What was wrong with the index.
    pub problems: Vec<super::IndexError>,
    /// How many files were read because the index had no summary of them
    /// that holds.
    pub read: usize,
}

/// What the first pass learned of the index on disk.
#[derive(Default)]
pub(super) struct Taken {
    /// Whether it is this pbem's: its lines may be kept.
    current: bool,
    pub(super) problems: Vec<super::IndexError>,
}

/// Lines on their way to an index, with their length and the files
/// they vouch for: in memory, or past [`SPILL`] bytes in a temporary
/// file without a name (a first scan of 100,000 files reads them all; the
/// index written anew holds them all).
pub(super) struct Body {
    text: String,
    file: Option<BufWriter<File>>,
    len: u64,
    written: Bits,
    /// The data folder's folder of temporary files, where the file is.
    tmp: PathBuf,
}

/// How many bytes of lines are kept in memory.
const SPILL: usize = 256 * 1024;

impl Body {
    /// No lines yet, for a listing of `n` files; a file, if one is
    /// needed, in `tmp`.
    pub(super) fn new(n: usize, tmp: &Path) -> Body {
        Body {
            text: String::new(),
            file: None,
            len: 0,
            written: Bits::new(n),
            tmp: tmp.to_path_buf(),
        }
    }

    /// `text`'s lines, for no listing yet (see [`Body::begin`]).
    pub(super) fn of_text(text: &str, tmp: &Path) -> Body {
        Body {
            text: text.to_string(),
            file: None,
            len: text.len() as u64,
            written: Bits::new(0),
            tmp: tmp.to_path_buf(),
        }
    }

    /// Lines to come for a listing of `n` other files (the next part of
    /// a folder): none of them vouched for yet.
    pub(super) fn begin(&mut self, n: usize) {
        self.written = Bits::new(n);
    }

    /// The lines so far, to be read from their start.
    ///
    /// # Errors
    /// When their file cannot be read.
    pub(super) fn lines(&mut self) -> io::Result<Box<dyn BufRead + '_>> {
        match &mut self.file {
            Some(file) => {
                file.flush()?;
                let file = file.get_mut();
                file.rewind()?;
                Ok(Box::new(io::BufReader::new(file)))
            }
            None => Ok(Box::new(self.text.as_bytes())),
        }
    }

    /// Adds `line` (without its line break), which vouches for the `i`th
    /// file.
    fn push(&mut self, line: &[u8], i: usize) -> Result<(), StoreError> {
        self.written.set(i);
        self.len += line.len() as u64 + 1;
        let tmp = &self.tmp;
        if self.file.is_none() && self.text.len() + line.len() >= SPILL {
            let mut file = BufWriter::new(tempfile::tempfile_in(tmp).map_err(io_err(tmp))?);
            file.write_all(self.text.as_bytes()).map_err(io_err(tmp))?;
            self.text = String::new();
            self.file = Some(file);
        }
        match &mut self.file {
            Some(file) => file
                .write_all(line)
                .and_then(|()| file.write_all(b"\n"))
                .map_err(io_err(tmp)),
            // Lines pbem made or read whole: UTF-8.
            None => {
                self.text.push_str(&String::from_utf8_lossy(line));
                self.text.push('\n');
                Ok(())
            }
        }
    }

    /// The lines, when they are in memory.
    pub(super) fn in_memory(&self) -> Option<&str> {
        self.file.is_none().then_some(self.text.as_str())
    }

    /// Writes `head`, then the lines, to `out`.
    fn write_to(&mut self, head: &str, out: &mut impl Write) -> io::Result<()> {
        out.write_all(head.as_bytes())?;
        if let Some(file) = &mut self.file {
            file.flush()?;
            let file = file.get_mut();
            file.rewind()?;
            io::copy(file, out)?;
        }
        out.write_all(self.text.as_bytes())
    }
}

impl Store {
    /// Every `<id>.toml` file of the folder `T` summarizes, handed to
    /// `each` with its summary, one at a time and none kept: those the
    /// index vouches for (its line's stamp is the file's) in the index's
    /// order, then the others, read from their files by id (`progress` is
    /// told how many of how many such reads are done). What was read is
    /// added to the index as [`Store::summaries`] does, and the index
    /// written anew when it was damaged, another pbem's, or mostly stale.
    ///
    /// # Errors
    /// When the folder or a file cannot be read, or `each` fails; with
    /// [`Refresh::All`], when the index cannot be written.
    pub fn scan_summaries<T: Summary>(
        &self,
        refresh: Refresh,
        progress: &mut dyn FnMut(usize, usize),
        each: &mut dyn FnMut(&str, T) -> Result<(), StoreError>,
    ) -> Result<Scanned, StoreError> {
        let dir = self.root.join(T::FOLDER);
        let files = Files::list(&dir, Part::WHOLE)?;
        let mut taken = Bits::new(files.len());
        let old = match refresh {
            Refresh::All => Taken::default(),
            _ => self.take_from_index::<T>(&files, Part::WHOLE, &mut taken, each)?,
        };
        let mut fresh = Body::new(files.len(), &self.root.join("tmp"));
        let read = read_untaken(&dir, &files, &taken, &mut fresh, progress, each)?;
        let found = taken.count() + read;
        let rewrite = refresh == Refresh::All
            || !old.current
            || !old.problems.is_empty()
            || 2 * read > found
            || fresh.in_memory().is_none();
        if rewrite || read > 0 {
            let saved = self.save_fresh::<T>(refresh, &files, rewrite, old.current, fresh);
            if refresh == Refresh::All {
                saved?;
            }
        }
        Ok(Scanned {
            problems: old.problems,
            read,
        })
    }

    /// The first pass: the index of `T::FOLDER` read a line at a time
    /// (those of `part`, which `files` lists), each summary whose stamp
    /// is its file's handed to `each` and its file marked in `taken`.
    pub(super) fn take_from_index<T: Summary>(
        &self,
        files: &Files,
        part: Part,
        taken: &mut Bits,
        each: &mut dyn FnMut(&str, T) -> Result<(), StoreError>,
    ) -> Result<Taken, StoreError> {
        let path = self.index_path(T::FOLDER);
        let shown = path.display().to_string();
        let mut reader = match Reader::open(&path, T::FOLDER)? {
            Ok(Some((true, r))) => r,
            Ok(_) => return Ok(Taken::default()),
            Err(e) => {
                return Ok(Taken {
                    current: false,
                    problems: vec![e],
                });
            }
        };
        let mut problems = Vec::new();
        while let Some(l) = reader.next_in::<T>(part).map_err(io_err(&path))? {
            match l {
                // A line of another part.
                None => {}
                Some(Ok(Line {
                    id,
                    at: Some(at),
                    is: Some(is),
                })) => {
                    if let Some(i) = files.find(&id)
                        && !taken.get(i)
                        && files.stamp(i)? == Some(at)
                    {
                        taken.set(i);
                        each(&id, is)?;
                    }
                }
                Some(Ok(Line { at: None, .. })) => {}
                Some(Ok(Line { is: None, .. })) => {
                    problems.push(reader.bad_line(&shown, T::FOLDER, "a stamp without a summary"));
                }
                Some(Err(why)) => problems.push(reader.bad_line(&shown, T::FOLDER, why)),
            }
        }
        Ok(Taken {
            current: true,
            problems,
        })
    }

    /// Writes what [`Store::scan_summaries`] read: the whole index anew
    /// when `rewrite` (keeping the old lines that hold when `current`),
    /// else `fresh` appended; under the lock (taken here, at once, for a
    /// [`Refresh::Stale`] reader, or nothing is written).
    fn save_fresh<T: Summary>(
        &self,
        refresh: Refresh,
        files: &Files,
        rewrite: bool,
        current: bool,
        fresh: Body,
    ) -> Result<(), StoreError> {
        let _lock = match refresh {
            Refresh::Stale => match self.lock(false) {
                Ok(l) => Some(l),
                Err(_) => return Ok(()),
            },
            _ => None,
        };
        let path = self.index_path(T::FOLDER);
        match fresh.in_memory() {
            Some(lines) if !rewrite => self.add_lines::<T>(&path, lines),
            _ => {
                let keep = current && refresh != Refresh::All;
                self.write_index(&path, T::FOLDER, files, keep, fresh)
            }
        }
    }

    /// Writes the index of `folder` at `path` anew, one line per file of
    /// `files` whose stamp a line vouches for: the lines of `body`, then
    /// those of the old index when `keep` (it is this pbem's) for the
    /// files `body` has none of. A file no line vouches for is left out,
    /// to be read by the next reader; so is a removed one.
    ///
    /// # Errors
    /// When the old index or a file cannot be read, or the index written.
    pub(super) fn write_index(
        &self,
        path: &Path,
        folder: &'static str,
        files: &Files,
        keep: bool,
        mut body: Body,
    ) -> Result<(), StoreError> {
        if keep && let Ok(Some((true, mut old))) = Reader::open(path, folder)? {
            copy_vouched((&mut old, path), (files, Part::WHOLE), &mut body)?;
        }
        self.persist_index(path, folder, body)
    }

    /// Writes `body`'s lines as the index of `folder` at `path`, after
    /// their header: renamed over the old one once synced.
    ///
    /// # Errors
    /// When the index cannot be written.
    pub(super) fn persist_index(
        &self,
        path: &Path,
        folder: &'static str,
        mut body: Body,
    ) -> Result<(), StoreError> {
        let head = header(folder, body.len);
        let dir = path.parent().unwrap_or(&self.root);
        if !dir.is_dir() {
            fs::create_dir_all(dir).map_err(io_err(dir))?;
            self.note_in_batch(|set| set.folder(&self.root));
        }
        let tmp = body.tmp.clone();
        // Its data synced before its rename; the rename not synced by a
        // plain store: the files it summarizes are, and a summary lost
        // with it is read again. A batch syncs it with them.
        let through = match persist_via(path, &head, &mut body, &tmp) {
            // The index folder on another file system than `tmp`.
            Err(e) if e.kind() == io::ErrorKind::CrossesDevices => {
                persist_via(path, &head, &mut body, dir).map(|()| dir)
            }
            other => other.map(|()| tmp.as_path()),
        }
        .map_err(io_err(path))?;
        self.note_in_batch(|set| {
            set.folder(dir);
            set.folder(through);
        });
        Ok(())
    }
}

/// Adds the lines of `r` (read from `from`) that vouch for a file of
/// `files`, which lists `part` of a folder, and `body` has no line of
/// (their stamp is the file's) to `body`.
///
/// # Errors
/// When `r` or a file cannot be read, or `body` written.
pub(super) fn copy_vouched<R: BufRead>(
    (r, from): (&mut Reader<R>, &Path),
    (files, part): (&Files, Part),
    body: &mut Body,
) -> Result<(), StoreError> {
    while let Some(l) = r.next_in::<IgnoredAny>(part).map_err(io_err(from))? {
        let Some(Ok(Line {
            id,
            at: Some(at),
            is: Some(_),
        })) = l
        else {
            continue;
        };
        let Some(i) = files.find(&id).filter(|&i| !body.written.get(i)) else {
            continue;
        };
        if files.stamp(i)? == Some(at) {
            body.push(r.raw(), i)?;
        }
    }
    Ok(())
}

/// Renames a new file of `head` then `body` over `path`, through a
/// temporary file in `folder` synced first (a crash leaves the old index
/// or the new one).
fn persist_via(path: &Path, head: &str, body: &mut Body, folder: &Path) -> io::Result<()> {
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)?;
    {
        let mut out = BufWriter::new(file.as_file_mut());
        body.write_to(head, &mut out)?;
        out.flush()?;
    }
    crashpoint::reach();
    file.as_file().sync_data()?;
    crashpoint::reach();
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
