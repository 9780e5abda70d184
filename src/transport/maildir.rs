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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

/// One Maildir per recipient under a folder: the embedded default, where
/// "sent" mail can be read with any mail client or `cat`.
pub struct MaildirSink {
    pub folder: PathBuf,
    /// The deliveries held since [`Transport::hold`] (`None`: not
    /// holding): written under `tmp/`, not yet synced nor in `new/`.
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
}

/// A mail written under a Maildir's `tmp/`, waiting for the settle: its
/// file closed, its write-back started, opened again to be synced (a
/// flush may hold thousands, more than a process may keep open).
struct Held {
    tmp: PathBuf,
    new: PathBuf,
    /// Folders made for it, to sync with the `new/` folders (a first mail
    /// to an address makes its Maildir).
    made: Vec<PathBuf>,
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
            spread: AtomicBool::new(false),
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

    /// Writes `raw` as `name` under the Maildir `md`'s `tmp/`, held.
    fn write_held(
        &self,
        md: &Maildir,
        made: Vec<PathBuf>,
        name: &str,
        raw: &[u8],
    ) -> std::io::Result<()> {
        let (file, tmp, new) = md.write_tmp(name, raw)?;
        self.stamp(&file)?;
        // Only a hint: its write-back starts now (as `sync_file_range(2)`
        // would start it), and the settle's sync finds it under way.
        let _ = rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed);
        drop(file);
        let full = {
            let mut held = self.held();
            let holding = held.get_or_insert_with(Holding::default);
            holding.names.insert(new.clone().into_os_string());
            holding.list.push(Held { tmp, new, made });
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
        // Whole (`fsync`), as a new file's size must be on disk too; one
        // gone since fails its rename below.
        sync(held.iter().map(|h| (h.tmp.clone(), true)).collect())?;
        for h in held {
            std::fs::rename(&h.tmp, &h.new)
                .map_err(|e| SendError::transient(format!("{}: {e}", h.new.display())))?;
            if let Some(dir) = h.new.parent() {
                folders.insert(dir.as_os_str().to_owned());
            }
        }
        // A folder gone since cannot hold a delivery to sync.
        sync(folders.into_iter().map(|d| (d.into(), true)).collect())
    }
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
    let mut rest = raw;
    // A line at a time: copied whole, its CR dropped before a LF.
    while let Some(i) = memchr::memchr(b'\r', rest) {
        out.extend_from_slice(&rest[..i]);
        if rest.get(i + 1) != Some(&b'\n') {
            out.push(b'\r');
        }
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
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
mod tests {
    use super::*;
    use crate::mailbox::Source;
    use crate::transport::envelope_of;
    use lettre::Address;
    use std::fs;

    /// A reply to `to`, numbered `n` in an `X-N` header.
    fn reply(to: &str, n: &str) -> Vec<u8> {
        format!("From: pbem@example.net\r\nTo: {to}\r\nX-N: {n}\r\nSubject: x\r\n\r\nx\r\n")
            .into_bytes()
    }

    #[test]
    fn the_folder_of_maildirs_is_marked_to_spread_them_where_the_file_system_can() {
        let dir = tempfile::tempdir().unwrap();
        let can = crate::store::files::spread_probe(dir.path());
        // A folder the first delivery makes, and one that was there.
        for (folder, before) in [("made/sent", false), ("there", true)] {
            let folder = dir.path().join(folder);
            if before {
                fs::create_dir(&folder).unwrap();
            }
            let sink = MaildirSink::new(&folder);
            for to in ["ann@example.org", "bob@example.org"] {
                let raw = reply(to, "1");
                sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
            }
            assert_eq!(
                crate::store::files::is_spread(&folder),
                can,
                "{}",
                folder.display()
            );
            assert_eq!(
                Maildir::open(folder.join("bob@example.org"))
                    .unwrap()
                    .pending()
                    .unwrap()
                    .len(),
                1
            );
            // Marked already: a new sink delivers as well.
            let raw = reply("cyd@example.org", "1");
            MaildirSink::new(&folder)
                .send(&envelope_of(&raw).unwrap(), &raw)
                .unwrap();
            assert!(folder.join("cyd@example.org/new").is_dir());
        }
    }

    #[test]
    fn maildir_delivery_writes_lf_line_ends() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(dir.path());
        let raw = reply("bob@example.org", "1");
        assert!(raw.windows(2).any(|w| w == b"\r\n"));
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        let new = dir.path().join("bob@example.org/new");
        let files: Vec<_> = std::fs::read_dir(&new).unwrap().flatten().collect();
        assert_eq!(files.len(), 1);
        let written = std::fs::read(files[0].path()).unwrap();
        assert!(
            !written.contains(&b'\r'),
            "{}",
            String::from_utf8_lossy(&written)
        );
        assert_eq!(written, lf_lines(&raw));
        // The same mail again is not delivered twice, even once a reader
        // has moved it to cur/ and flagged it.
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        assert_eq!(std::fs::read_dir(&new).unwrap().count(), 1);
        let cur = dir.path().join("bob@example.org/cur");
        let read = cur.join(format!("{}:2,S", files[0].file_name().to_string_lossy()));
        std::fs::rename(files[0].path(), &read).unwrap();
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
        assert_eq!(std::fs::read_dir(&cur).unwrap().count(), 1);
        assert_eq!(lf_lines(b"a\r\nb\rc\n\r\n"), b"a\nb\rc\n\n");
    }

    #[test]
    fn held_deliveries_reach_new_only_when_settled_and_once() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(dir.path());
        let (one, two) = (reply("bob@example.org", "1"), reply("bob@example.org", "2"));
        assert!(sink.hold());
        for raw in [&one, &two, &one] {
            sink.send(&envelope_of(raw).unwrap(), raw).unwrap();
        }
        let count = |sub: &str| {
            fs::read_dir(dir.path().join("bob@example.org").join(sub))
                .unwrap()
                .count()
        };
        assert_eq!(
            (count("new"), count("tmp")),
            (0, 2),
            "held under tmp/, the same mail once"
        );
        sink.settle().unwrap();
        assert_eq!((count("new"), count("tmp")), (2, 0));
        // Not holding any more: a send delivers at once.
        let three = reply("bob@example.org", "3");
        sink.send(&envelope_of(&three).unwrap(), &three).unwrap();
        assert_eq!(count("new"), 3);
        // A settle that cannot finish is an error; the mail sent again
        // is delivered once.
        let four = reply("bob@example.org", "4");
        assert!(sink.hold());
        sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
        let new = dir.path().join("bob@example.org/new");
        fs::rename(&new, dir.path().join("moved")).unwrap();
        assert!(sink.settle().is_err());
        fs::rename(dir.path().join("moved"), &new).unwrap();
        sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
        sink.send(&envelope_of(&four).unwrap(), &four).unwrap();
        assert_eq!(count("new"), 4);
    }

    #[test]
    fn a_settle_on_the_way_that_failed_fails_the_settle_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink {
            max_held: 2,
            ..MaildirSink::new(dir.path())
        };
        let mails: Vec<Vec<u8>> = (0..3)
            .map(|n| reply("bob@example.org", &n.to_string()))
            .collect();
        let send = |raw: &Vec<u8>| sink.send(&envelope_of(raw).unwrap(), raw);
        assert!(sink.hold());
        send(&mails[0]).unwrap();
        let new = dir.path().join("bob@example.org/new");
        fs::rename(&new, dir.path().join("moved")).unwrap();
        assert!(send(&mails[1]).is_err(), "the settle on the way fails");
        fs::rename(dir.path().join("moved"), &new).unwrap();
        send(&mails[2]).unwrap();
        // The first two may not be taken as sent: the settle says so,
        // though what it held since went.
        assert!(sink.settle().is_err());
        assert!(sink.hold());
        for raw in &mails {
            send(raw).unwrap();
        }
        sink.settle().unwrap();
        assert_eq!(fs::read_dir(&new).unwrap().count(), 3, "each once");
    }

    #[test]
    fn a_maildir_removed_after_a_delivery_is_made_again_by_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(dir.path());
        let bob = dir.path().join("bob@example.org");
        let count = || fs::read_dir(bob.join("new")).unwrap().count();
        for holding in [false, true] {
            let (one, two) = (reply("bob@example.org", "1"), reply("bob@example.org", "2"));
            if holding {
                assert!(sink.hold());
            }
            sink.send(&envelope_of(&one).unwrap(), &one).unwrap();
            sink.settle().unwrap();
            assert_eq!(count(), 1);
            // Known whole now; a reader (or an admin) removes it, or
            // only its tmp/.
            match holding {
                false => fs::remove_dir_all(&bob).unwrap(),
                true => fs::remove_dir_all(bob.join("tmp")).unwrap(),
            }
            if holding {
                assert!(sink.hold());
            }
            sink.send_first(&envelope_of(&two).unwrap(), &two).unwrap();
            sink.settle().unwrap();
            assert_eq!(count(), 1 + usize::from(holding), "holding: {holding}");
            assert!(["new", "cur", "tmp"].iter().all(|d| bob.join(d).is_dir()));
            fs::remove_dir_all(&bob).unwrap();
        }
    }

    #[test]
    fn the_files_times_follow_the_order_the_mails_were_sent_in() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(dir.path());
        let mails: Vec<Vec<u8>> = (0..40)
            .map(|n| reply("bob@example.org", &n.to_string()))
            .collect();
        for (i, raw) in mails.iter().enumerate() {
            // Held and at once, as a flush and a lone send deliver.
            if i % 10 == 0 {
                sink.settle().unwrap();
                if i % 20 == 0 {
                    assert!(sink.hold());
                }
            }
            sink.send(&envelope_of(raw).unwrap(), raw).unwrap();
        }
        sink.settle().unwrap();
        let new = dir.path().join("bob@example.org/new");
        let mut files: Vec<(SystemTime, Vec<u8>)> = fs::read_dir(&new)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (
                    fs::metadata(&p).unwrap().modified().unwrap(),
                    fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        let times: Vec<SystemTime> = files.iter().map(|f| f.0).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
        let read: Vec<Vec<u8>> = files.into_iter().map(|f| f.1).collect();
        let sent: Vec<Vec<u8>> = mails.iter().map(|m| lf_lines(m)).collect();
        assert_eq!(read, sent);
    }

    #[test]
    fn a_first_send_does_not_look_for_an_earlier_delivery_and_a_send_does() {
        let dir = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(dir.path());
        let raw = reply("bob@example.org", "1");
        let env = envelope_of(&raw).unwrap();
        sink.send_first(&env, &raw).unwrap();
        let new = dir.path().join("bob@example.org/new");
        let name = fs::read_dir(&new)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .file_name();
        let cur = dir.path().join("bob@example.org/cur");
        fs::rename(
            new.join(&name),
            cur.join(format!("{}:2,S", name.to_string_lossy())),
        )
        .unwrap();
        sink.send(&env, &raw).unwrap();
        assert_eq!(fs::read_dir(&new).unwrap().count(), 0, "found in cur/");
        // Only a mail no transport had can come as a first send (the
        // outbox's untried batches): it is not looked for.
        sink.send_first(&env, &raw).unwrap();
        assert_eq!(fs::read_dir(&new).unwrap().count(), 1);
        // Delivered by an earlier pbem, under the name it gave: found too.
        let raw = reply("bob@example.org", "2");
        let earlier = crate::store::ids::hex_name(crate::store::stable_hash(&raw), "pbem");
        fs::write(new.join(&earlier), lf_lines(&raw)).unwrap();
        sink.send(&envelope_of(&raw).unwrap(), &raw).unwrap();
        assert_eq!(
            fs::read_dir(&new).unwrap().count(),
            2,
            "not delivered twice"
        );
    }

    #[test]
    fn a_recipient_folder_never_leaves_the_sent_folder() {
        let outside = tempfile::tempdir().unwrap();
        let sent = tempfile::tempdir().unwrap();
        let sink = MaildirSink::new(sent.path());
        // Valid addresses, all: `/` is an atext character (RFC 5322 3.2.3).
        let abs = format!("{}/x@example.org", outside.path().display());
        for a in [abs.as_str(), "a/b@example.org", "Bob@Example.org"] {
            let to: Address = a.parse().unwrap();
            let env = Envelope::new(Some("pbem@example.net".parse().unwrap()), vec![to]).unwrap();
            sink.send(&env, b"Subject: x\r\n\r\nx\r\n").unwrap();
        }
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
        let mut names: Vec<String> = fs::read_dir(sent.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), 3, "{names:?}");
        assert!(names.contains(&"a%2fb@example.org".to_string()));
        assert!(names.contains(&"bob@example.org".to_string()));
        assert!(
            names
                .iter()
                .all(|n| !n.contains('/') && !n.starts_with('.'))
        );
        assert_eq!(folder_name(".x@y"), "%2ex@y");
        assert_eq!(folder_name("a%2fb@y"), "a%252fb@y");
    }
}
