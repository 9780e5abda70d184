//! The Maildir transport: one Maildir per recipient under a folder, the
//! embedded default, where "sent" mail can be read with any mail client
//! or `cat`. Mail path: the last stage, `outbox -> transport`.
//!
//! Crash safety: a mail is delivered under a name made from its bytes, and
//! a delivery found already (in `new/`, or in `cur/` where a reader moved
//! it) is not made again, so a flush cut short before it noted a mail sent
//! does not deliver it twice.

use super::{SendError, Transport};
use crate::mailbox::Maildir;
use lettre::address::Envelope;
use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

/// One Maildir per recipient under a folder: the embedded default, where
/// "sent" mail can be read with any mail client or `cat`.
pub struct MaildirSink {
    pub folder: PathBuf,
    /// The deliveries held since [`Transport::hold`] (`None`: not
    /// holding): written ([`Waiting`]), not yet synced nor in `new/`.
    held: Mutex<Option<Holding>>,
    /// The recipients' Maildirs this sink found whole or made in this
    /// flush (their roots): a delivery into one writes at once, without
    /// looking for its folders first. One found gone since is made again.
    /// Forgotten when the flush ends ([`Transport::finish`]), so that a
    /// daemon does not come to hold every player's.
    /// By their paths' bytes (hashed as bytes, not component by
    /// component as a path is): each is built one way, as
    /// [`MaildirSink::folder`] joined with [`folder_name`].
    known: Mutex<HashSet<OsString>>,
    /// The time of the last mail delivered ([`MaildirSink::stamp`]).
    stamped: Mutex<SystemTime>,
    /// Why a settle on the way ([`MAX_HELD`]) failed: the next
    /// [`Transport::settle`] fails too, since the mails held before it
    /// may not be taken as sent.
    failed: Mutex<Option<String>>,
    /// [`MAX_HELD`], but in tests.
    max_held: usize,
    /// The most held mails kept open ([`Waiting::Unnamed`]), once known
    /// ([`open_files_to_hold`]); 0 where the file system has no unnamed
    /// files, or one could not be named.
    max_unnamed: OnceLock<AtomicUsize>,
    /// Where the unnamed files are named from (`/proc/self/fd`), but in
    /// tests.
    fd_folder: PathBuf,
    /// Whether [`MaildirSink::folder`] was marked to spread the Maildirs
    /// made in it ([`crate::store::spread`]), or found not
    /// markable: tried once a sink, when it makes a Maildir.
    spread: AtomicBool,
}

/// The deliveries held, and where each goes in `new/` (to find the same
/// mail held twice at once).
#[derive(Default)]
struct Holding {
    list: Vec<Held>,
    /// By their paths' bytes, as [`MaildirSink::known`].
    names: HashSet<OsString>,
    /// How many of them are kept open ([`Waiting::Unnamed`]).
    unnamed: usize,
}

/// A mail written, its write-back started, waiting for the settle to
/// sync it and put it in `new/`.
struct Held {
    waits: Waiting,
    new: PathBuf,
    /// Folders made for it, to sync with the `new/` folders (a first mail
    /// to an address makes its Maildir).
    made: Vec<PathBuf>,
}

/// Where a held mail waits.
enum Waiting {
    /// A file with no name yet, kept open ([`Maildir::write_unnamed`]):
    /// synced through it, then named in `new/`. No name is made in
    /// `tmp/` and taken away again: a tenth to a quarter less of the
    /// kernel's time a delivery.
    Unnamed(File),
    /// A file of the Maildir's `tmp/`, closed: opened again to be synced,
    /// then renamed into `new/`. Where the file system has no unnamed
    /// files, and beyond the files this process may keep open
    /// ([`open_files_to_hold`]).
    Named(PathBuf),
}

/// The most deliveries held at once: more are settled on the way, which
/// only makes them durable sooner. The flush settles before that
/// ([`crate::outbox::queue`]); the more a settle holds, the fewer times
/// it syncs a recipient's `new/` that several of its mails went to.
const MAX_HELD: usize = 8192;

impl MaildirSink {
    pub fn new(folder: impl Into<PathBuf>) -> MaildirSink {
        MaildirSink {
            folder: folder.into(),
            held: Mutex::new(None),
            known: Mutex::new(HashSet::new()),
            stamped: Mutex::new(SystemTime::UNIX_EPOCH),
            failed: Mutex::new(None),
            max_held: MAX_HELD,
            max_unnamed: OnceLock::new(),
            fd_folder: PathBuf::from("/proc/self/fd"),
            spread: AtomicBool::new(false),
        }
    }

    /// Whether one more held mail may be kept open, `unnamed` being held
    /// so already ([`open_files_to_hold`]).
    fn may_keep_open(&self, unnamed: usize) -> bool {
        let max = self
            .max_unnamed
            .get_or_init(|| AtomicUsize::new(open_files_to_hold().min(self.max_held)));
        unnamed < max.load(Ordering::Relaxed)
    }

    /// No more unnamed files for this sink: the file system has none, or
    /// one could not be named.
    fn no_unnamed(&self, why: &dyn std::fmt::Display) {
        let max = self.max_unnamed.get_or_init(|| AtomicUsize::new(0));
        if max.swap(0, Ordering::Relaxed) > 0 {
            log::info!(
                "{}",
                crate::logging::line(
                    "maildir-unnamed",
                    &[("folder", &self.folder.display()), ("why", why)]
                )
            );
        }
    }

    /// Gives a delivery's `file` a time after the mail delivered before
    /// it: the time the file system gave it when that is later, else that
    /// mail's time and a microsecond. A reader that orders a Maildir by
    /// the files' times (a mail names itself by its bytes, not by its
    /// time) then finds the mails in the order they were sent, where the
    /// file system's own times, a clock tick's, are often the same for
    /// two.
    fn stamp(&self, file: &File) -> io::Result<()> {
        let written = file.metadata()?.modified()?;
        let mut last = self.stamped.lock().unwrap_or_else(PoisonError::into_inner);
        if written > *last {
            *last = written;
        } else {
            *last += Duration::from_micros(1);
            file.set_modified(*last)?;
        }
        Ok(())
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Option<Holding>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn known(&self) -> std::sync::MutexGuard<'_, HashSet<OsString>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `raw` as the mail `name` of the Maildir `md`, held: as a
    /// file with no name yet while this sink may keep one more open, else
    /// under `tmp/`.
    fn write_held(
        &self,
        md: &Maildir,
        made: Vec<PathBuf>,
        name: &str,
        raw: &[u8],
    ) -> std::io::Result<()> {
        let unnamed = self.held().as_ref().map_or(0, |h| h.unnamed);
        let unnamed = match self.may_keep_open(unnamed) {
            true => match md.write_unnamed(name, raw) {
                Ok(written) => Some(written),
                Err(e) if e.kind() == io::ErrorKind::Unsupported => {
                    self.no_unnamed(&e);
                    None
                }
                Err(e) => return Err(e),
            },
            false => None,
        };
        let (file, waits, new) = match unnamed {
            Some((file, new)) => (file, None, new),
            None => {
                let (file, tmp, new) = md.write_tmp(name, raw)?;
                (file, Some(tmp), new)
            }
        };
        self.stamp(&file)?;
        // Only a hint: its write-back starts now (as `sync_file_range(2)`
        // would start it), and the settle's sync finds it under way.
        let _ = rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed);
        let waits = match waits {
            Some(tmp) => Waiting::Named(tmp),
            None => Waiting::Unnamed(file),
        };
        let full = {
            let mut held = self.held();
            let holding = held.get_or_insert_with(Holding::default);
            holding.names.insert(new.clone().into_os_string());
            holding.unnamed += usize::from(matches!(waits, Waiting::Unnamed(_)));
            holding.list.push(Held { waits, new, made });
            holding.list.len() >= self.max_held
        };
        if full && let Err(e) = self.settle_held(true) {
            let mut failed = self.failed.lock().unwrap_or_else(PoisonError::into_inner);
            failed.get_or_insert_with(|| e.message.clone());
            return Err(std::io::Error::other(e.message));
        }
        Ok(())
    }

    /// Settles what is held: every file synced, renamed into `new/`, and
    /// every `new/` folder and every folder made for a first mail synced;
    /// holding on after when `keep_holding`.
    fn settle_held(&self, keep_holding: bool) -> Result<(), SendError> {
        let held = {
            let mut held = self.held();
            let holding = held.take().unwrap_or_default();
            if keep_holding {
                *held = Some(Holding::default());
            }
            holding.list
        };
        if held.is_empty() {
            return Ok(());
        }
        // By bytes (a folder named twice is synced once all the same:
        // [`crate::store::sync_paths`] knows a file by its inode).
        let mut folders: HashSet<OsString> = (held.iter())
            .flat_map(|h| h.made.iter().map(|d| d.as_os_str().to_owned()))
            .collect();
        let mut named = Vec::new();
        let mut unnamed: Vec<crate::store::Open> = Vec::new();
        for h in held {
            match h.waits {
                Waiting::Named(tmp) => named.push((tmp, h.new)),
                Waiting::Unnamed(file) => unnamed.push((h.new, true, Arc::new(file))),
            }
        }
        // Whole (`fsync`), as a new file's size must be on disk too; one
        // gone since fails its rename below.
        sync(named.iter().map(|(tmp, _)| (tmp.clone(), true)).collect())?;
        crate::store::sync_all(unnamed.clone()).map_err(|e| SendError::transient(e.to_string()))?;
        for (new, _, file) in &unnamed {
            self.name_unnamed(file, new)?;
        }
        for (tmp, new) in &named {
            std::fs::rename(tmp, new)
                .map_err(|e| SendError::transient(format!("{}: {e}", new.display())))?;
        }
        let news = (unnamed.iter().map(|(new, ..)| new)).chain(named.iter().map(|(_, new)| new));
        folders.extend(news.filter_map(|new| Some(new.parent()?.as_os_str().to_owned())));
        // A folder gone since cannot hold a delivery to sync.
        sync(folders.into_iter().map(|d| (d.into(), true)).collect())
    }
}

/// How many held mails a sink may keep open ([`Waiting::Unnamed`]): half
/// the files this process may have open beyond 1,024 (the data folder's
/// syncs keep up to 1,280 open then, a settle's named deliveries 256
/// more), its soft limit raised as far as the hard one allows
/// ([`crate::store::files::open_files`]): none where the limit stays at
/// the usual 1,024. A flush holds up to [`MAX_HELD`] mails.
fn open_files_to_hold() -> usize {
    crate::store::files::open_files().saturating_sub(1024) / 2
}

/// A held mail's bytes, from its open `file`, delivered the Maildir way
/// as `new` with its time (a mail that could not be named where it
/// waited).
fn copy_in(file: &File, new: &Path) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let meta = file.metadata()?;
    let mut raw = vec![0; usize::try_from(meta.len()).map_err(io::Error::other)?];
    file.read_exact_at(&mut raw, 0)?;
    let (Some(root), Some(name)) = (
        new.parent().and_then(Path::parent),
        new.file_name().and_then(|n| n.to_str()),
    ) else {
        return Err(io::Error::other("not a Maildir's new/"));
    };
    let time = meta.modified()?;
    Maildir::whole(root)
        .deliver_with(name, &raw, |copy| copy.set_modified(time))
        .map(drop)
}

/// Syncs `paths` side by side (the disk merges their cache flushes), as
/// the data folder's files are synced, a chunk of them open at a time: a
/// one-mail process syncs its few deliveries on its own thread.
fn sync(paths: Vec<(PathBuf, bool)>) -> Result<(), SendError> {
    crate::store::sync_paths(&paths).map_err(|e| SendError::transient(e.to_string()))
}

impl Transport for MaildirSink {
    fn shared(&self) -> Option<&(dyn Transport + Sync)> {
        Some(self)
    }

    fn send(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        self.deliver(envelope, raw, true)
    }

    /// No earlier delivery of the mail to look for: a look costs a read
    /// of the Maildir's `cur/`, which grows with every mail its reader
    /// keeps.
    fn send_first(&self, envelope: &Envelope, raw: &[u8]) -> Result<(), SendError> {
        self.deliver(envelope, raw, false)
    }

    fn hold(&self) -> bool {
        self.held().get_or_insert_with(Holding::default);
        true
    }

    fn settle(&self) -> Result<(), SendError> {
        let settled = self.settle_held(false);
        let failed = self
            .failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match failed {
            Some(why) => Err(SendError::transient(why)),
            None => settled,
        }
    }

    fn finish(&self) {
        *self.known() = HashSet::new();
        *self.failed.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl MaildirSink {
    /// Delivers `raw` to each recipient of `envelope`, held or at once; a
    /// delivery found made already is not made again (looked for only
    /// when `look`: the mail may have been delivered before a crash),
    /// nor one held already.
    fn deliver(&self, envelope: &Envelope, raw: &[u8], look: bool) -> Result<(), SendError> {
        let io =
            |e: std::io::Error| SendError::transient(format!("{}: {e}", self.folder.display()));
        let holding = self.held().is_some();
        let name = crate::store::ids::hex_name(crate::store::ids::lane_hash(raw), "pbem");
        // The name an earlier pbem gave the same mail, before a crash.
        let earlier =
            look.then(|| crate::store::ids::hex_name(crate::store::stable_hash(raw), "pbem"));
        let mut lines = None;
        for to in envelope.to() {
            let dir = self.folder.join(folder_name(to.as_ref()));
            let found = |name: &str| delivered(&dir, name);
            if look && (found(&name) || earlier.as_deref().is_some_and(found))
                || self.is_held(&dir, &name)
            {
                continue;
            }
            let lines = lines.get_or_insert_with(|| lf_lines(raw));
            self.deliver_one(&dir, &name, lines, holding).map_err(io)?;
        }
        Ok(())
    }

    /// Delivers `lines` as `name` into the Maildir at `dir`, held or at
    /// once: at once into a Maildir known whole, else once its folders
    /// are looked for (and made, when held: synced at the settle with the
    /// others), and again so if it was found gone since.
    fn deliver_one(&self, dir: &Path, name: &str, lines: &[u8], holding: bool) -> io::Result<()> {
        let write = |md: &Maildir, made: Vec<PathBuf>| match holding {
            true => self.write_held(md, made, name, lines),
            false => md.deliver_with(name, lines, |f| self.stamp(f)).map(|_| ()),
        };
        if self.known().contains(dir.as_os_str()) {
            match write(&Maildir::whole(dir), Vec::new()) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    self.known().remove(dir.as_os_str());
                }
                done => return done,
            }
        }
        // Before the Maildir is made, so that it is made apart; and after,
        // when the folder above was made with it.
        self.spread_folder();
        let (md, made) = match holding {
            true => Maildir::make(dir)?,
            false => (Maildir::open(dir)?, Vec::new()),
        };
        self.spread_folder();
        self.known().insert(dir.as_os_str().to_owned());
        write(&md, made)
    }

    /// Marks the folder of Maildirs to spread those made in it, once it
    /// is there ([`crate::store::spread`]).
    fn spread_folder(&self) {
        if !self.spread.load(Ordering::Relaxed) && self.folder.is_dir() {
            crate::store::spread(&self.folder);
            self.spread.store(true, Ordering::Relaxed);
        }
    }

    /// Gives a held mail kept open, synced, its name in `new/`
    /// (`linkat(2)` of its `/proc/self/fd` entry), where it appears whole
    /// as a rename shows it. A name taken already holds the same mail (a
    /// mail is named by its bytes), delivered before. One that cannot be
    /// named so (no `/proc`) is copied in under `tmp/`, and the sink keeps
    /// no more open.
    fn name_unnamed(&self, file: &File, new: &Path) -> Result<(), SendError> {
        use std::os::fd::AsRawFd;
        let from = self.fd_folder.join(file.as_raw_fd().to_string());
        let cwd = rustix::fs::CWD;
        let failed =
            |e: &dyn std::fmt::Display| SendError::transient(format!("{}: {e}", new.display()));
        match rustix::fs::linkat(cwd, &from, cwd, new, rustix::fs::AtFlags::SYMLINK_FOLLOW) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => Ok(()),
            // Its Maildir's `new/` gone: no way in, as for a rename.
            Err(e) if !new.parent().is_some_and(Path::is_dir) => Err(failed(&e)),
            Err(e) => {
                self.no_unnamed(&e);
                copy_in(file, new).map_err(|e| failed(&e))
            }
        }
    }

    /// Whether the mail `name` of the Maildir at `root` is held already
    /// (the same mail twice in one batch).
    fn is_held(&self, root: &Path, name: &str) -> bool {
        let new = root.join("new").join(name);
        self.held()
            .as_ref()
            .is_some_and(|holding| holding.names.contains(new.as_os_str()))
    }
}

/// Whether the mail named `name` is in the Maildir at `root` already: in
/// `new/`, or in `cur/` where a reader moved it (`name:2,S`). A flush cut
/// short after the delivery but before it noted the mail sent delivers it
/// again at the next flush, and must find it wherever the reader put it
/// (a reply came twice once the client had read the first).
fn delivered(root: &Path, name: &str) -> bool {
    if root.join("new").join(name).exists() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(root.join("cur")) else {
        return false;
    };
    entries.flatten().any(|e| {
        let n = e.file_name();
        let n = n.to_string_lossy();
        n == name
            || n.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(':'))
    })
}

/// A mail with LF line ends, as Maildir readers expect (mutt shows `^M`
/// after every header of a CRLF file, s-nail cannot read one).
/// SMTP and sendmail get the CRLF mail as built.
pub fn lf_lines(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    // Copied a line at a time, in one search of the mail: each CR before
    // a LF dropped, any other kept.
    let mut start = 0;
    for cr in memchr::memchr_iter(b'\r', raw) {
        if raw.get(cr + 1) == Some(&b'\n') {
            out.extend_from_slice(&raw[start..cr]);
            start = cr + 1;
        }
    }
    out.extend_from_slice(&raw[start..]);
    out
}

/// The folder of one recipient under [`MaildirSink::folder`]: the address
/// in lower case, as one plain path component. An address may hold `/`
/// (`/tmp/x@example.org` is a valid address) and must not name a path,
/// so `%` and `/` are written `%25` and
/// `%2f`, and a leading `.` `%2e`.
pub fn folder_name(address: &str) -> String {
    let mut out = String::with_capacity(address.len());
    for (i, c) in address.to_lowercase().chars().enumerate() {
        match c {
            '%' => out.push_str("%25"),
            '/' | '\\' => out.push_str(if c == '/' { "%2f" } else { "%5c" }),
            '.' if i == 0 => out.push_str("%2e"),
            c if c.is_control() => out.push_str(&format!("%{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
