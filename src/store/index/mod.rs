//! The indexes: one file per folder of the data folder that holds a
//! summary of each of its files, so that what needs every game reads one
//! file instead of one per game (docs/src/formats/index.md).
//!
//! ```text
//! DATA/index/games.idx    each record's summary: what `pbem games` lists
//! DATA/index/clocks.idx   each clock's state, for the deadline index
//! ```
//!
//! An index grows by appends: every write or removal of a record or a
//! clock (at a batch's sync, or a plain store's write) appends the new
//! file's summary once the file is in place, a line of its own with its
//! checksum; the last line of an id is the one that counts. When the file
//! has grown to twice its size at its last rewrite, it is rewritten with
//! one line per file.
//!
//! A summary holds only while its file is the one it was made from: each
//! line carries the [`Stamp`] of that file (inode, length, modification
//! time), and a reader takes it only when the file on disk has that
//! stamp. Anything else (a crash between a file's rename and the append,
//! a file edited by hand, a line or a whole index lost or damaged, the
//! index of another version of pbem) leaves summaries that are not
//! taken: their files are read again and the index mended. So the index
//! needs no sync for what it says to hold, and never says what the files
//! do not: an append is left to the kernel's write-back (a crash before
//! it costs reading the few files its lines summarized again; a sync of
//! the two indexes was a tenth of the syncs of a one-mail process), and
//! an index written anew is synced before its rename, as every file
//! renamed into place, so that a crash never leaves an empty one.

use super::files::{append_whole, text_of};
use super::{Store, StoreError, io_err, stable_hash, valid_id};
use hashpart::Part;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

mod hashpart;
mod kinds;
mod parts;
mod scan;
#[cfg(test)]
mod tests;

pub use kinds::{ClockSummary, GameFacts, GameSummary};
pub use scan::Scanned;

/// A file a batch wrote (its text) or removed (`None`), and what it says
/// of its game when pbem made it from a record in hand.
pub(super) type Change<'a> = (&'a Path, Option<&'a str>, Option<&'a GameFacts>);

/// The first word of an index.
const MAGIC: &str = "pbem-index";
/// The format of the lines: a reader takes no other.
const FORMAT: &str = "1";
/// The pbem whose summaries an index holds: another version's may
/// read a record otherwise, so its index is not taken.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// How much an index may grow past twice its lines at its last rewrite
/// before it is rewritten: small ones are not rewritten at every append.
const SLACK: u64 = 256 * 1024;

/// One version of a file on disk: its inode, length and modification
/// time (seconds, nanoseconds). pbem replaces a file by renaming a new
/// one over it (another inode); an edit in place changes its time, and
/// mostly its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stamp(u64, u64, i64, i64);

impl Stamp {
    pub(crate) fn of(m: &fs::Metadata) -> Stamp {
        Stamp(m.ino(), m.size(), m.mtime(), m.mtime_nsec())
    }
}

/// What an index holds of each file of one folder.
pub trait Summary: Serialize + DeserializeOwned + Clone + Send {
    /// The folder of the data folder whose `<id>.toml` files it
    /// summarizes, and the name of its index.
    const FOLDER: &'static str;
    /// The summary of `text`, which pbem has just written as file `id`
    /// (a record it replayed to make it: read, not replayed again).
    fn of_written(id: &str, text: &str) -> Self;
    /// [`Summary::of_written`], when what the text says of its game is
    /// `known` already (pbem made the text of a record it had in hand):
    /// taken as it is, the text not read again.
    fn of_written_known(id: &str, text: &str, known: Option<&GameFacts>) -> Self {
        let _ = known;
        Self::of_written(id, text)
    }
    /// The summary of file `id` as found on disk (its text, or why it is
    /// none), checked in full.
    fn of_found(id: &str, text: Result<String, StoreError>) -> Self;
}

/// Why an index, or a line of one, is not taken. The files it would
/// have summarized are read instead, and the index is written anew.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    #[error(
        "{path}: not a pbem index: it begins {found:?}, where \"{MAGIC} {FORMAT} {folder} ...\" \
         belongs; pbem reads every file of {folder}/ instead and writes the index again"
    )]
    NotIndex {
        path: String,
        folder: &'static str,
        found: String,
    },
    #[error(
        "{path}: line {line}: {why}: {found:?}; pbem reads the files of {folder}/ the index \
         does not vouch for and writes the index again"
    )]
    BadLine {
        path: String,
        folder: &'static str,
        line: usize,
        why: &'static str,
        found: String,
    },
}

/// The start of `text` as an error quotes it.
fn quote(text: &str) -> String {
    let mut end = text.len().min(60);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// An index as read: the summary of each file it names, and what was
/// wrong with it.
#[derive(Debug)]
pub struct Index<T> {
    /// The summary of each id as its last line gives it, with the stamp
    /// of its file, sorted by id (a file whose last line says it is gone
    /// left out).
    pub entries: Vec<(String, (Stamp, T))>,
    /// Whether the index was found and is this pbem's: it may be added to.
    pub current: bool,
    /// What was wrong with it: the file is not an index, or lines of it
    /// are no summaries (a torn last line, an append cut short by a
    /// crash, is left aside without a word).
    pub problems: Vec<IndexError>,
}

impl<T> Index<T> {
    fn empty() -> Index<T> {
        Index {
            entries: Vec::new(),
            current: false,
            problems: Vec::new(),
        }
    }
}

/// A line of an index: file `id` has stamp `at` and summary `is`; no
/// stamp, it is gone.
#[derive(Serialize, Deserialize)]
struct Line<T> {
    id: String,
    // A missing `Option` reads as `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<Stamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    is: Option<T>,
}

/// The first line of an index of `folder` whose lines were `base` bytes
/// long when it was written.
fn header(folder: &str, base: u64) -> String {
    format!("{MAGIC} {FORMAT} {folder} {VERSION} {base}\n")
}

/// The header's word of whether the index is this pbem's, and its base;
/// `None` when `line` is no header of an index of `folder`.
fn read_header(line: &str, folder: &str) -> Option<(bool, u64)> {
    let words: Vec<&str> = line.split(' ').collect();
    match words[..] {
        [MAGIC, FORMAT, f, version, base] if f == folder => {
            Some((version == VERSION, base.parse().ok()?))
        }
        _ => None,
    }
}

/// One line of an index: `id`'s summary and the stamp of its file, or
/// (`None`) that it is gone. The JSON after its FNV-1a hash.
fn line<T: Serialize>(id: &str, summary: Option<&(Stamp, T)>) -> Result<String, StoreError> {
    let json = serde_json::to_string(&Line {
        id: id.to_string(),
        at: summary.map(|s| s.0),
        is: summary.map(|s| &s.1),
    })
    .map_err(|source| StoreError::Json {
        what: format!("the summary of {id}"),
        source,
    })?;
    Ok(format!("{:016x} {json}\n", stable_hash(json.as_bytes())))
}

/// Reads an index of `T::FOLDER` (`path` names it in errors) a line at a
/// time: what is kept is the summaries, not the text.
///
/// # Errors
/// The outer error when `r` cannot be read; the inner
/// [`IndexError::NotIndex`] when its first line is no header of such an
/// index. Lines that are no summaries are left aside, each named in
/// [`Index::problems`].
pub fn parse<T: Summary>(path: &str, r: impl BufRead) -> io::Result<Result<Index<T>, IndexError>> {
    let mut index = Index::empty();
    let mut reader = match Reader::after_header(path, T::FOLDER, r)? {
        Ok(Some((true, r))) => r,
        Ok(Some((false, _)) | None) => return Ok(Ok(index)),
        Err(e) => return Ok(Err(e)),
    };
    index.current = true;
    // Each line as it comes: an id and its summary, or that it is gone.
    let mut lines: Vec<(String, Option<(Stamp, T)>)> = Vec::new();
    while let Some(l) = reader.next::<T>()? {
        match l {
            Ok(Line { id, at: None, .. }) => lines.push((id, None)),
            Ok(Line {
                id,
                at: Some(at),
                is: Some(is),
            }) => lines.push((id, Some((at, is)))),
            Ok(Line { is: None, .. }) => {
                let why = "a stamp without a summary";
                index.problems.push(reader.bad_line(path, T::FOLDER, why));
            }
            Err(why) => index.problems.push(reader.bad_line(path, T::FOLDER, why)),
        }
    }
    index.entries = last_of_each(lines);
    Ok(Ok(index))
}

/// A line of an index read, or why it is no summary.
type LineRead<T> = Result<Line<T>, &'static str>;

/// An index read a line at a time, after its header.
struct Reader<R> {
    r: R,
    /// The line read last, without its line break.
    buf: Vec<u8>,
    /// How many lines were read, the header's included.
    lines: usize,
}

impl Reader<BufReader<File>> {
    /// The index of `folder` at `path`, its header read: whether it is
    /// this pbem's, and the reader of its lines; `None` when there is no
    /// such file or it is empty.
    ///
    /// # Errors
    /// The outer error when the file cannot be read; the inner
    /// [`IndexError::NotIndex`] when it is not such an index.
    fn open(
        path: &Path,
        folder: &'static str,
    ) -> Result<Result<Option<(bool, Self)>, IndexError>, StoreError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Ok(None)),
            Err(e) => return Err(io_err(path)(e)),
        };
        let shown = path.display().to_string();
        Reader::after_header(&shown, folder, BufReader::new(file)).map_err(io_err(path))
    }
}

impl<R: BufRead> Reader<R> {
    /// [`Reader::open`] on the text of `r`, named `path` in errors.
    fn after_header(
        path: &str,
        folder: &'static str,
        mut r: R,
    ) -> io::Result<Result<Option<(bool, Self)>, IndexError>> {
        let mut buf = Vec::new();
        if r.read_until(b'\n', &mut buf)? == 0 {
            return Ok(Ok(None));
        }
        let head = buf
            .strip_suffix(b"\n")
            .and_then(|l| std::str::from_utf8(l).ok())
            .and_then(|l| read_header(l, folder));
        Ok(match head {
            Some((current, _)) => Ok(Some((current, Reader { r, buf, lines: 1 }))),
            None => Err(IndexError::NotIndex {
                path: path.to_string(),
                folder,
                found: quote(&String::from_utf8_lossy(&buf)),
            }),
        })
    }

    /// The lines of `r`, which has no header (lines to add to an index).
    fn headless(r: R) -> Self {
        Reader {
            r,
            buf: Vec::new(),
            lines: 1,
        }
    }

    /// What the next line says, or why it is no summary; `None` at the
    /// end. A last line without its line break is an append cut short or
    /// under way: left aside without a word.
    fn next<T: DeserializeOwned>(&mut self) -> io::Result<Option<Result<Line<T>, &'static str>>> {
        Ok(self.advance()?.then(|| self.parsed()))
    }

    /// [`Reader::next`] for the files of `part` of a folder: a line of a
    /// file of another part is passed over unparsed (`Some(None)`). A
    /// line whose id cannot be seen without parsing it is parsed with the
    /// first part, so that every line is parsed once over all the parts.
    fn next_in<T: DeserializeOwned>(
        &mut self,
        part: Part,
    ) -> io::Result<Option<Option<LineRead<T>>>> {
        if !self.advance()? {
            return Ok(None);
        }
        let ours = match hashpart::id_at_start(&self.buf) {
            Some(id) => part.holds(id),
            None => part.is_first(),
        };
        Ok(Some(ours.then(|| self.parsed())))
    }

    /// Reads the next line into the buffer, without its line break;
    /// `false` at the end.
    fn advance(&mut self) -> io::Result<bool> {
        self.buf.clear();
        self.r.read_until(b'\n', &mut self.buf)?;
        if self.buf.pop() != Some(b'\n') {
            return Ok(false);
        }
        self.lines += 1;
        Ok(true)
    }

    /// What the line read last says, or why it is no summary.
    fn parsed<T: DeserializeOwned>(&self) -> Result<Line<T>, &'static str> {
        match std::str::from_utf8(&self.buf) {
            Ok(text) => read_line::<T>(text),
            Err(_) => Err("not UTF-8 text"),
        }
    }

    /// The line read last, without its line break.
    fn raw(&self) -> &[u8] {
        &self.buf
    }

    /// The error of the line read last, which is no summary of `folder`.
    fn bad_line(&self, path: &str, folder: &'static str, why: &'static str) -> IndexError {
        IndexError::BadLine {
            path: path.to_string(),
            folder,
            line: self.lines,
            why,
            found: quote(&String::from_utf8_lossy(&self.buf)),
        }
    }
}

/// The last of `lines` for each id, sorted by id, those of files gone
/// left out.
fn last_of_each<T>(mut lines: Vec<(String, Option<T>)>) -> Vec<(String, T)> {
    // Stable: the lines of an id stay in the order they were written.
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::with_capacity(lines.len());
    let mut lines = lines.into_iter().peekable();
    while let Some((id, e)) = lines.next() {
        if lines.peek().is_some_and(|(next, _)| *next == id) {
            continue;
        }
        if let Some(e) = e {
            out.push((id, e));
        }
    }
    out
}

/// One line of an index read, or what is wrong with it.
fn read_line<T: DeserializeOwned>(text: &str) -> Result<Line<T>, &'static str> {
    let (hash, json) = text.split_once(' ').ok_or("no checksum")?;
    let hash = (hash.len() == 16)
        .then(|| u64::from_str_radix(hash, 16).ok())
        .flatten()
        .ok_or("no checksum")?;
    if hash != stable_hash(json.as_bytes()) {
        return Err("its checksum does not match");
    }
    let line: Line<T> = serde_json::from_str(json).map_err(|_| "not a summary")?;
    if !valid_id(&line.id) {
        return Err("no file id");
    }
    Ok(line)
}

/// The id a file of an indexed folder has, `None` for any other.
fn id_of(p: &Path) -> Option<String> {
    let id = p.file_name()?.to_str()?.strip_suffix(".toml")?;
    valid_id(id).then(|| id.to_string())
}

/// How [`Store::summaries`] treats the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refresh {
    /// Take the summaries whose files are unchanged, read the rest, and
    /// add what was read to the index when the data folder's lock is
    /// free (a reader's: `pbem games`).
    Stale,
    /// [`Refresh::Stale`], for a caller that holds the lock (a poll).
    StaleLocked,
    /// Read every file and write the index anew (`pbem games
    /// --rebuild`; the caller holds the lock).
    All,
}

/// What [`Store::summaries`] found.
#[derive(Debug)]
pub struct Listing<T> {
    /// Every file of the folder, by id, with its summary.
    pub items: Vec<(String, T)>,
    /// What was wrong with the index.
    pub problems: Vec<IndexError>,
    /// How many files were read because the index had no summary of them
    /// that holds.
    pub read: usize,
}

impl Store {
    fn index_path(&self, folder: &str) -> PathBuf {
        self.root.join("index").join(format!("{folder}.idx"))
    }

    /// Every `<id>.toml` file of the folder `T` summarizes, sorted by
    /// id, with its summary: from the index where it holds the file's
    /// stamp, else read from the file (`progress` is told how many of how
    /// many such reads are done). What was read is added to the index:
    /// by a [`Refresh::Stale`] reader only when it gets the data folder's
    /// lock at once; when it does not, or cannot write the index, the
    /// listing is right all the same and nothing is said. A caller that
    /// needs not hold them all: [`Store::scan_summaries`].
    ///
    /// # Errors
    /// When the folder or a file cannot be read; with [`Refresh::All`],
    /// when the index cannot be written.
    pub fn summaries<T: Summary>(
        &self,
        refresh: Refresh,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Listing<T>, StoreError> {
        let mut items = Vec::new();
        let scanned = self.scan_summaries::<T>(refresh, progress, &mut |id, s| {
            items.push((id.to_string(), s));
            Ok(())
        })?;
        // Each file once: the ids are unique.
        items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(Listing {
            items,
            problems: scanned.problems,
            read: scanned.read,
        })
    }

    /// Appends `lines` to the index at `path`; writes it anew instead
    /// (one line per file, from its lines and `lines`) when it has grown
    /// to twice its size at its last rewrite, or when it is missing,
    /// damaged at its start, or another pbem's.
    fn add_lines<T: Summary>(&self, path: &Path, lines: &str) -> Result<(), StoreError> {
        let head = read_head(path, T::FOLDER)?;
        if let Some((len, base)) = head
            && len + lines.len() as u64 <= 2 * base + SLACK
        {
            // Not synced: see the module's comment.
            append_whole(path, lines, false)?;
            return Ok(());
        }
        let mut new = scan::Body::of_text(lines, &self.root.join("tmp"));
        self.rewrite_index::<T>(path, Some(&mut new), head.is_some(), parts::PART_FILES)
    }

    /// Notes in the indexes what `changes` did to records and clocks (a
    /// file written with this text, or removed: `None`), once each file
    /// is in place: its summary, with the stamp it has now.
    ///
    /// # Errors
    /// When a file cannot be looked at or an index written.
    pub(super) fn index_changes(&self, changes: &[Change<'_>]) -> Result<(), StoreError> {
        self.index_changes_of::<GameSummary>(changes)?;
        self.index_changes_of::<ClockSummary>(changes)
    }

    fn index_changes_of<T: Summary>(&self, changes: &[Change<'_>]) -> Result<(), StoreError> {
        let dir = self.root.join(T::FOLDER);
        let mut updates: Vec<(String, Option<(Stamp, T)>)> = Vec::new();
        for &(p, text, known) in changes {
            let Some(id) = id_of(p).filter(|_| p.parent() == Some(dir.as_path())) else {
                continue;
            };
            let summary = match (fs::symlink_metadata(p), text) {
                (Ok(m), Some(text)) => Some((Stamp::of(&m), T::of_written_known(&id, text, known))),
                (Err(e), _) if e.kind() == io::ErrorKind::NotFound => None,
                (Err(e), _) => return Err(io_err(p)(e)),
                // Removed, and yet there: a summary of it would not be
                // of what pbem wrote. The next reader reads it.
                (Ok(_), None) => continue,
            };
            updates.push((id, summary));
        }
        if updates.is_empty() {
            return Ok(());
        }
        let mut lines = String::new();
        for (id, s) in &updates {
            lines.push_str(&line(id, s.as_ref())?);
        }
        self.add_lines::<T>(&self.index_path(T::FOLDER), &lines)
    }
}

/// The length of the index at `path` and its base, when it is an index
/// of `folder` of this pbem.
fn read_head(path: &Path, folder: &str) -> Result<Option<(u64, u64)>, StoreError> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path)(e)),
    };
    let len = f.metadata().map_err(io_err(path))?.len();
    let mut start = [0u8; 128];
    let n = f.read(&mut start).map_err(io_err(path))?;
    let first = start[..n].split(|&b| b == b'\n').next().unwrap_or_default();
    let head = std::str::from_utf8(first)
        .ok()
        .and_then(|l| read_header(l, folder));
    Ok(match head {
        Some((true, base)) if n > first.len() => Some((len, base)),
        _ => None,
    })
}

/// File `id` of `dir`, opened, stamped and summarized in full; `None`
/// when it is gone.
fn read_summary<T: Summary>(dir: &Path, id: &str) -> Result<Option<(Stamp, T)>, StoreError> {
    let p = dir.join(format!("{id}.toml"));
    let mut f = match File::open(&p) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&p)(e)),
    };
    // The stamp of the file read, not of whatever has its name by now.
    let stamp = Stamp::of(&f.metadata().map_err(io_err(&p))?);
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(io_err(&p))?;
    Ok(Some((stamp, T::of_found(id, text_of(&p, bytes)))))
}
