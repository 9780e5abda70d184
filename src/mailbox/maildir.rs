//! A Maildir source: new mail in `new/`, done mail moved to `cur/` with
//! the Seen flag.

use super::{InboxMail, MAX_MAIL, Source};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// What is read of a mail over [`MAX_MAIL`]: its headers' worth.
const HEADERS_WORTH: u64 = 64 * 1024;

/// A Maildir's folders.
const SUBFOLDERS: [&str; 3] = ["new", "cur", "tmp"];

/// A Maildir: new mail in `new/`, done mail in `cur/` with the Seen flag.
/// Unseen mail in `cur/` is read too (an IMAP server's SELECT moves mail
/// from `new/` to `cur/`).
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

impl Maildir {
    /// Opens the Maildir at `root`, creating `new/`, `cur/` and `tmp/`.
    ///
    /// # Errors
    /// When the folders cannot be created.
    pub fn open(root: impl Into<PathBuf>) -> io::Result<Maildir> {
        let (maildir, unsynced) = Maildir::make(root)?;
        for dir in unsynced {
            fs::File::open(&dir)?.sync_all()?;
        }
        Ok(maildir)
    }

    /// [`Maildir::open`], and the folders it made entries in (the
    /// Maildir's own, its parents' where it made them), not yet synced:
    /// until they are, a crash may lose a new Maildir and what was
    /// delivered into it.
    ///
    /// # Errors
    /// When the folders cannot be created, or a name is taken by a file.
    pub fn make(root: impl Into<PathBuf>) -> io::Result<(Maildir, Vec<PathBuf>)> {
        let root = root.into();
        // Nearly always there: a look costs one call, a `mkdir` that
        // finds it two.
        if SUBFOLDERS.iter().all(|sub| root.join(sub).is_dir()) {
            return Ok((Maildir { root }, Vec::new()));
        }
        let mut made = Vec::new();
        if !root.exists() {
            // Whole at once, where the file system puts it at random
            // ([`crate::store::make_apart`]); what that leaves undone
            // (the root there already, a file system that cannot) is made
            // below, folder by folder.
            if let Some(parent) = root.parent().filter(|p| !p.as_os_str().is_empty()) {
                make_dir(parent, &mut made)?;
            }
            if crate::store::make_apart(&root, &SUBFOLDERS)? {
                made.push(root.clone());
                made.extend(SUBFOLDERS.iter().map(|sub| root.join(sub)));
            }
        }
        for sub in SUBFOLDERS {
            make_dir(&root.join(sub), &mut made)?;
        }
        Ok((Maildir { root }, parents(&made)))
    }

    /// The Maildir at `root`, known to be whole (its caller found or
    /// made its folders before): nothing is looked at.
    pub fn whole(root: impl Into<PathBuf>) -> Maildir {
        Maildir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Delivers `raw` into `new/` the Maildir way: write to `tmp/`, sync,
    /// rename into `new/`. Used for the file transport and the demo.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn deliver(&self, name: &str, raw: &[u8]) -> io::Result<PathBuf> {
        self.deliver_with(name, raw, |_| Ok(()))
    }

    /// [`Maildir::deliver`], with `before_sync` done to the file once
    /// written (a transport sets its time there).
    ///
    /// # Errors
    /// Any I/O error, `before_sync`'s among them.
    pub fn deliver_with(
        &self,
        name: &str,
        raw: &[u8],
        before_sync: impl FnOnce(&fs::File) -> io::Result<()>,
    ) -> io::Result<PathBuf> {
        let (f, tmp, dest) = self.write_tmp(name, raw)?;
        before_sync(&f)?;
        f.sync_all()?;
        fs::rename(&tmp, &dest)?;
        if let Ok(d) = fs::File::open(self.root.join("new")) {
            let _ = d.sync_all();
        }
        Ok(dest)
    }

    /// `raw` written as a file with no name yet in `new/`'s folder
    /// (`O_TMPFILE`), not synced: the open file (readable, should it have
    /// to be copied), to be named `name` in `new/` once synced, where it
    /// then appears whole, as a rename from `tmp/` shows it, with no name
    /// made in `tmp/` and taken away again. An error of kind
    /// `Unsupported` where the file system has no such files.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_unnamed(&self, name: &str, raw: &[u8]) -> io::Result<(fs::File, PathBuf)> {
        use rustix::fs::{Mode, OFlags};
        use std::io::Write;
        let new = self.root.join("new");
        let flags = OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC;
        let fd = rustix::fs::open(&new, flags, Mode::from_raw_mode(0o666)).map_err(|e| {
            match e {
                // No such files here (an old kernel says it with `EISDIR`).
                rustix::io::Errno::OPNOTSUPP | rustix::io::Errno::ISDIR => {
                    io::Error::new(io::ErrorKind::Unsupported, e)
                }
                e => e.into(),
            }
        })?;
        let mut f = fs::File::from(fd);
        f.write_all(raw)?;
        Ok((f, new.join(name)))
    }

    /// `raw` written as `name` under `tmp/`, not synced: the open file,
    /// its path, and where it goes in `new/`.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_tmp(&self, name: &str, raw: &[u8]) -> io::Result<(fs::File, PathBuf, PathBuf)> {
        use std::io::Write;
        let tmp = self.root.join("tmp").join(name);
        let mut f = fs::File::create(&tmp)?;
        f.write_all(raw)?;
        Ok((f, tmp, self.root.join("new").join(name)))
    }

    fn seen(name: &str) -> bool {
        name.rsplit_once(":2,")
            .is_some_and(|(_, flags)| flags.contains('S'))
    }
}

impl Source for Maildir {
    fn pending(&mut self) -> io::Result<Vec<InboxMail>> {
        let mut found = Vec::new();
        for sub in ["new", "cur"] {
            for entry in fs::read_dir(self.root.join(sub))? {
                let entry = entry?;
                let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                    continue;
                };
                if name.starts_with('.') || Self::seen(&name) || !entry.file_type()?.is_file() {
                    continue;
                }
                // One look at the file: its size for the read, its time
                // for the order.
                let meta = entry.metadata()?;
                let mtime = meta.modified().ok();
                // Too big to be a move: only the headers' worth. Read
                // through `take`, which asks the file for no size again.
                let most = match meta.len() > MAX_MAIL {
                    true => HEADERS_WORTH,
                    false => MAX_MAIL,
                };
                let mut raw = Vec::with_capacity(meta.len().min(most) as usize + 1);
                fs::File::open(entry.path())?
                    .take(most)
                    .read_to_end(&mut raw)?;
                found.push((mtime, format!("{sub}/{name}"), raw));
            }
        }
        // Oldest first; the name breaks ties (Maildir names start with the
        // delivery time).
        found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        Ok(found
            .into_iter()
            .map(|(_, name, raw)| InboxMail { name, raw })
            .collect())
    }

    fn done(&mut self, mail: &InboxMail) -> io::Result<()> {
        let from = self.root.join(&mail.name);
        let base = mail
            .name
            .split_once('/')
            .map(|(_, n)| n)
            .unwrap_or(&mail.name);
        let target = match base.rsplit_once(":2,") {
            Some((stem, flags)) => {
                let mut f: Vec<char> = flags.chars().chain(['S']).collect();
                f.sort_unstable();
                f.dedup();
                format!("{stem}:2,{}", f.into_iter().collect::<String>())
            }
            None => format!("{base}:2,S"),
        };
        // The folders are synced once per batch, in `flush`.
        fs::rename(&from, self.root.join("cur").join(target))
    }

    fn flush(&mut self) -> io::Result<()> {
        for sub in ["cur", "new"] {
            fs::File::open(self.root.join(sub))?.sync_all()?;
        }
        Ok(())
    }
}

/// The folders that hold `made`, once each (`.` for a relative path's
/// first folder).
fn parents(made: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = made
        .iter()
        .filter_map(|d| d.parent())
        .map(|p| match p.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => p.to_path_buf(),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Makes the folder `dir` and those above it that are missing, each noted
/// in `made` (the highest first).
fn make_dir(dir: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
    match fs::create_dir(dir) {
        Ok(()) => {
            made.push(dir.to_path_buf());
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if dir.is_dir() {
                Ok(())
            } else {
                Err(e)
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => match dir.parent() {
            Some(parent) if parent != dir && !parent.as_os_str().is_empty() => {
                make_dir(parent, made)?;
                make_dir(dir, made)
            }
            _ => Err(e),
        },
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mail_too_big_to_be_a_move_is_read_as_its_headers_worth() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let mut md = Maildir::open(dir.path()).unwrap();
        let mut big = fs::File::create(dir.path().join("new/1.big")).unwrap();
        big.write_all(b"Subject: big\r\n\r\n").unwrap();
        // Sparse: the size is what counts.
        big.set_len(MAX_MAIL + 1).unwrap();
        let small = b"Subject: small\r\n\r\nbody";
        fs::write(dir.path().join("new/2.small"), small).unwrap();
        let got = md.pending().unwrap();
        let raw = |name: &str| &got.iter().find(|m| m.name == name).unwrap().raw;
        assert_eq!(got.len(), 2);
        assert_eq!(raw("new/1.big").len(), HEADERS_WORTH as usize);
        assert!(raw("new/1.big").starts_with(b"Subject: big"));
        assert_eq!(raw("new/2.small"), small);
    }

    #[test]
    fn new_and_unseen_cur_are_pending_and_done_marks_seen() {
        let dir = tempfile::tempdir().unwrap();
        let mut md = Maildir::open(dir.path()).unwrap();
        md.deliver("1.a.host", b"Subject: a\n\nx").unwrap();
        fs::write(dir.path().join("cur/2.b.host:2,"), b"Subject: b\n\ny").unwrap();
        fs::write(dir.path().join("cur/3.c.host:2,S"), b"Subject: c\n\nz").unwrap();
        let p = md.pending().unwrap();
        assert_eq!(p.len(), 2, "{p:?}");
        for m in &p {
            md.done(m).unwrap();
        }
        assert!(md.pending().unwrap().is_empty());
        assert!(dir.path().join("cur/1.a.host:2,S").exists());
        assert!(dir.path().join("cur/2.b.host:2,S").exists());
    }

    /// A Maildir made where folders were missing names each folder it
    /// made an entry in, to be synced; one that is there names none.
    #[test]
    fn a_new_maildir_names_the_folders_to_sync() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("sent/bob@example.org");
        let (md, unsynced) = Maildir::make(&root).unwrap();
        assert_eq!(md.root(), root);
        assert_eq!(
            unsynced,
            [
                dir.path().to_path_buf(),
                dir.path().join("sent"),
                root.clone()
            ]
        );
        for sub in ["new", "cur", "tmp"] {
            assert!(root.join(sub).is_dir(), "{sub}");
        }
        // Made whole under a name of its own, renamed: nothing else left.
        let beside = fs::read_dir(dir.path().join("sent")).unwrap();
        let names: Vec<_> = beside.flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["bob@example.org"]);
        assert!(Maildir::make(&root).unwrap().1.is_empty());
        fs::remove_dir(root.join("cur")).unwrap();
        assert_eq!(Maildir::make(&root).unwrap().1, vec![root.clone()]);
        // A relative path whose first folder is made: its parent is `.`.
        let made = ["top", "top/box", "top/box/new"].map(PathBuf::from);
        assert_eq!(parents(&made), [".", "top", "top/box"].map(PathBuf::from));
        fs::remove_dir(root.join("tmp")).unwrap();
        fs::write(root.join("tmp"), b"").unwrap();
        assert!(Maildir::open(&root).is_err(), "a file where tmp/ goes");
    }
}
