//! The keys of processed mails, kept so that
//! the cost of a poll does not grow with the history of the server.
//!
//! ```text
//! DATA/processed/recent-<x>.log   the keys committed lately whose hash starts with x
//! DATA/processed/<xyz>.log        the older keys whose hash starts with xyz
//! ```
//!
//! A key is committed by an append to one of 16 journals (`recent-<x>.log`,
//! by the first hex digit of its [`stable_hash`]), and later moved to one
//! of 4,096 shards (`<xyz>.log`, by the first three): a poll reads only
//! the journal and the shard of each key it meets (two small files for a
//! single mail, however many mails the server has seen), and a batch of
//! 128 keys is committed by syncing at most 16 journals, not a shard per
//! key (about 127). A journal grown past [`FOLD_AT`] is folded: its keys
//! appended to their shards, the shards synced (all at once, about 256
//! for some 1,600 keys), then the journal emptied. A fold a crash cuts
//! short leaves keys in a journal and a shard both, which is harmless
//! (the next fold appends them again).
//!
//! Each line is `<key> .`: a line cut short by a crash lacks the
//! closing ` .` and is no key, and the next append starts on a line of its
//! own.

use super::files::{SyncSet, append_whole, read_opt};
use super::{Store, StoreError, io_err, stable_hash};
use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};

/// The length past which a journal is folded into its shards: about
/// 1,600 keys, which touch nearly all of its 256 shards (so a fold syncs
/// about one shard per six keys), and little to read for a poll of one
/// mail.
const FOLD_AT: u64 = 64 * 1024;

/// The keys processed so far, read from disk as they are asked about.
#[derive(Debug)]
pub struct Processed {
    dir: PathBuf,
    /// The shards read so far, by number.
    shards: RefCell<HashMap<u16, Keys>>,
    /// The journals read so far, by number.
    journals: RefCell<HashMap<u8, Keys>>,
    /// Keys committed by this process since.
    added: RefCell<HashSet<String>>,
}

/// The number of the shard that holds `key` once its journal is folded.
fn shard_of(key: &str) -> u16 {
    (stable_hash(key.as_bytes()) >> 52) as u16
}

fn shard_path(dir: &Path, shard: u16) -> PathBuf {
    dir.join(format!("{shard:03x}.log"))
}

/// The number of the journal `key` is committed to: the first hex digit
/// of its hash, so that a journal folds into the 256 shards under it.
fn journal_of(key: &str) -> u8 {
    (stable_hash(key.as_bytes()) >> 60) as u8
}

/// The file of journal `journal` in `dir`.
fn journal_path(dir: &Path, journal: u8) -> PathBuf {
    dir.join(format!("recent-{journal:x}.log"))
}

/// The keys of one file. A process that reads one mail asks about one
/// key: its text is searched as it is, and made a set only when asked
/// again (a poll of many mails). Making the set of a full journal took
/// a tenth of the CPU of a one-mail `pbem deliver`.
#[derive(Debug)]
enum Keys {
    Text { text: String, asked: bool },
    Set(HashSet<String>),
}

impl Keys {
    /// The keys of the file `p` (none when there is no such file).
    fn read(p: &Path) -> Result<Keys, StoreError> {
        Ok(Keys::Text {
            text: read_opt(p)?.unwrap_or_default(),
            asked: false,
        })
    }

    fn contains(&mut self, key: &str) -> bool {
        match self {
            Keys::Set(set) => set.contains(key),
            Keys::Text { text, asked } if !*asked => {
                *asked = true;
                holds(text, key)
            }
            Keys::Text { text, .. } => {
                let set: HashSet<String> = keys_in(text).map(str::to_string).collect();
                let found = set.contains(key);
                *self = Keys::Set(set);
                found
            }
        }
    }
}

/// Whether file `n` of `files` (read from `path` the first time it is
/// asked) holds `key`.
fn in_file<N: std::hash::Hash + Eq>(
    files: &RefCell<HashMap<N, Keys>>,
    n: N,
    path: impl FnOnce() -> PathBuf,
    key: &str,
) -> Result<bool, StoreError> {
    let mut files = files.borrow_mut();
    let keys = match files.entry(n) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => e.insert(Keys::read(&path())?),
    };
    Ok(keys.contains(key))
}

/// Whether `key` is among [`keys_in`] `text`: its occurrences found by
/// a substring search, each taken when it is a whole line with the
/// commit's ` .` (a one-mail process asks once, of a log of up to
/// [`FOLD_AT`] bytes, where reading it line by line cost more than the
/// rest of the look).
fn holds(text: &str, key: &str) -> bool {
    let complete = complete_lines(text).as_bytes();
    if key.contains('\n') {
        return false;
    }
    memchr::memmem::find_iter(complete, key.as_bytes()).any(|at| {
        let after = &complete[at + key.len()..];
        (at == 0 || complete[at - 1] == b'\n')
            && (after.starts_with(b" .\n") || after.starts_with(b" .\r\n"))
    })
}

/// The committed keys in the text of a log.
fn keys_in(text: &str) -> impl Iterator<Item = &str> {
    complete_lines(text)
        .lines()
        .filter_map(|l| l.strip_suffix(" ."))
}

/// A log's text up to its last line end: a last line without one was cut
/// short by a crash, and commits nothing.
fn complete_lines(text: &str) -> &str {
    text.rfind('\n').map_or("", |i| &text[..=i])
}

impl Processed {
    /// Whether `key` was committed: in its shard, or still in its
    /// journal.
    ///
    /// # Errors
    /// When its files cannot be read: the mail must not be handled then.
    pub fn contains(&self, key: &str) -> Result<bool, StoreError> {
        if self.added.borrow().contains(key) {
            return Ok(true);
        }
        let shard = shard_of(key);
        if in_file(&self.shards, shard, || shard_path(&self.dir, shard), key)? {
            return Ok(true);
        }
        let journal = journal_of(key);
        in_file(
            &self.journals,
            journal,
            || journal_path(&self.dir, journal),
            key,
        )
    }

    /// Notes a key this process has just committed.
    pub fn insert(&self, key: &str) {
        self.added.borrow_mut().insert(key.to_string());
    }

    /// Every committed key (reads every file: for tests and tools, not
    /// for a poll).
    ///
    /// # Errors
    /// When the folder or a file cannot be read.
    pub fn all(&self) -> Result<HashSet<String>, StoreError> {
        let mut out: HashSet<String> = self.added.borrow().clone();
        let entries = match fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(io_err(&self.dir)(e)),
        };
        for e in entries.flatten() {
            if let Some(text) = read_opt(&e.path())? {
                out.extend(keys_in(&text).map(str::to_string));
            }
        }
        Ok(out)
    }
}

impl Store {
    /// The keys of the mails processed so far, read as they are asked
    /// about (call it with the lock held).
    ///
    /// # Errors
    /// None: each file is read, and its errors reported, when
    /// [`Processed::contains`] first asks about one of its keys.
    pub fn processed(&self) -> Result<Processed, StoreError> {
        let dir = self.root.join("processed");
        Ok(Processed {
            dir,
            shards: RefCell::new(HashMap::new()),
            journals: RefCell::new(HashMap::new()),
            added: RefCell::new(HashSet::new()),
        })
    }

    /// Commits a mail as processed: appends its key and syncs. This is the
    /// commit point of a mail (see [`crate::poll`]).
    ///
    /// # Errors
    /// As [`Store::mark_processed_all`].
    pub fn mark_processed(&self, key: &str) -> Result<(), StoreError> {
        self.mark_processed_all(&[key])
    }

    /// Commits a batch of mails: appends their keys to their files and
    /// syncs them (on a [`Store::batch`] view all at once, with anything
    /// else the batch noted since its last sync point). A
    /// crash in the middle may commit some of them (each line is whole or
    /// not a key); each must therefore be ready to be committed on its own
    /// (see [`crate::poll`]).
    ///
    /// # Errors
    /// Any I/O error: the mails then count as not processed (a file that
    /// took its keys before another failed keeps them: those are
    /// committed); a key with a control character (nothing is written
    /// then).
    pub fn mark_processed_all(&self, keys: &[&str]) -> Result<(), StoreError> {
        // One key, one line: a key holding a line break would commit
        // another mail's key as well.
        if let Some(key) = keys
            .iter()
            .find(|k| k.is_empty() || k.chars().any(|c| c.is_control()))
        {
            return Err(StoreError::BadKey {
                key: key.to_string(),
            });
        }
        self.append_keys(keys)
    }

    /// Appends `keys` to their journals, then makes them durable: each
    /// journal, and the folder when a journal is new (on a plain store
    /// one by one, on a batch view all at once, with what else the batch
    /// noted); then folds a journal grown past [`FOLD_AT`].
    fn append_keys(&self, keys: &[&str]) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let dir = self.root.join("processed");
        if !dir.is_dir() {
            fs::create_dir_all(&dir).map_err(io_err(&dir))?;
            self.changed_folder(&self.root)?;
        }
        let mut by_journal: BTreeMap<u8, String> = BTreeMap::new();
        for key in keys {
            let lines = by_journal.entry(journal_of(key)).or_default();
            // " ." ends every committed key: a torn line never has it.
            lines.push_str(key);
            lines.push_str(" .\n");
        }
        // A plain store syncs each file as it appends (and cuts it back
        // when that fails); a batch, all of them at once below.
        let plain = self.batch.is_none();
        let mut full = Vec::new();
        for (journal, lines) in by_journal {
            let p = journal_path(&dir, journal);
            let made = append_whole(&p, &lines, plain)?;
            self.note(|set| {
                if !plain {
                    set.file(&p);
                }
                if made {
                    set.folder(&dir);
                }
            })?;
            if fs::metadata(&p).is_ok_and(|m| m.len() > FOLD_AT) {
                full.push(p);
            }
        }
        self.sync_noted()?;
        for p in full {
            fold(&dir, &p)?;
        }
        Ok(())
    }
}

/// Moves the keys of the journal `p` of `dir` to their shards: appended
/// to them, the shards synced all at once, then the journal emptied and
/// synced. Committed keys stay found throughout: in the journal until it
/// is emptied, which comes after the shards are durable.
///
/// # Errors
/// Any I/O error: the journal then keeps its keys (some may be in their
/// shards too).
fn fold(dir: &Path, p: &Path) -> Result<(), StoreError> {
    let Some(text) = read_opt(p)? else {
        return Ok(());
    };
    let mut by_shard: BTreeMap<u16, String> = BTreeMap::new();
    for key in keys_in(&text) {
        let lines = by_shard.entry(shard_of(key)).or_default();
        lines.push_str(key);
        lines.push_str(" .\n");
    }
    let mut shards = SyncSet::default();
    for (shard, lines) in by_shard {
        let s = shard_path(dir, shard);
        match append_whole(&s, &lines, false)? {
            true => shards.made(&s),
            false => shards.file(&s),
        }
    }
    shards.sync()?;
    super::crashpoint::reach();
    OpenOptions::new()
        .write(true)
        .open(p)
        .and_then(|f| f.set_len(0).and_then(|()| f.sync_data()))
        .map_err(io_err(p))
}

#[cfg(test)]
mod tests {
    use super::{FOLD_AT, journal_of, journal_path, shard_of, shard_path};
    use crate::store::Store;
    use std::fs;

    /// Keys that all go to journal 0, enough to grow it past [`FOLD_AT`].
    fn keys_of_journal_zero() -> Vec<String> {
        let mut keys = Vec::new();
        let mut len = 0;
        for i in 0u64.. {
            let key = format!("mail:{i:032x}");
            if journal_of(&key) == 0 {
                len += key.len() as u64 + 3;
                keys.push(key);
                if len > FOLD_AT {
                    return keys;
                }
            }
        }
        unreachable!()
    }

    /// The search finds a key exactly where the log's lines name it
    /// committed: over random logs of a few keys, some cut short, some
    /// with `\r\n`, some uncommitted, some inside longer keys.
    #[test]
    fn a_key_is_found_by_search_exactly_where_the_lines_hold_it() {
        let mut rng = fastrand::Rng::with_seed(30);
        let pieces = [
            "k", "kk", "mail:ab", "<a@b>", " .", ".", " ", "\r", "\n", " .\n", " .\r\n",
        ];
        for _ in 0..20_000 {
            let text: String = (0..rng.usize(0..12))
                .map(|_| pieces[rng.usize(..pieces.len())])
                .collect();
            for key in ["k", "kk", "mail:ab", "<a@b>", "", " ", "k .", "k\n"] {
                assert_eq!(
                    super::holds(&text, key),
                    super::keys_in(&text).any(|k| k == key),
                    "{key:?} in {text:?}"
                );
            }
        }
    }

    #[test]
    fn a_key_is_committed_to_its_journal_and_found_there() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let batch = s.batch().unwrap();
        batch.mark_processed_all(&["mail:a", "mail:b"]).unwrap();
        let processed = dir.path().join("processed");
        let journal = fs::read_to_string(journal_path(&processed, journal_of("mail:a"))).unwrap();
        assert!(journal.contains("mail:a .\n"), "{journal}");
        assert!(!shard_path(&processed, shard_of("mail:a")).exists());
        let p = s.processed().unwrap();
        assert!(p.contains("mail:a").unwrap() && p.contains("mail:b").unwrap());
        assert!(!p.contains("mail:c").unwrap());
    }

    #[test]
    fn a_full_journal_is_folded_into_its_shards_and_every_key_stays_found() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let keys = keys_of_journal_zero();
        let (last, first) = keys.split_last().unwrap();
        let first: Vec<&str> = first.iter().map(String::as_str).collect();
        s.batch().unwrap().mark_processed_all(&first).unwrap();
        let processed = dir.path().join("processed");
        let journal = journal_path(&processed, 0);
        assert!(
            fs::metadata(&journal).unwrap().len() <= FOLD_AT,
            "not full yet"
        );
        // Read before the fold: what it read stays right after.
        let before = s.processed().unwrap();
        assert!(before.contains(first[0]).unwrap());
        s.mark_processed(last).unwrap();
        assert_eq!(
            fs::metadata(&journal).unwrap().len(),
            0,
            "the journal emptied"
        );
        let after = s.processed().unwrap();
        for key in &keys {
            let shard = fs::read_to_string(shard_path(&processed, shard_of(key))).unwrap();
            assert!(shard.contains(&format!("{key} .\n")), "{key} in its shard");
            assert!(after.contains(key).unwrap() && before.contains(key).unwrap());
        }
        assert_eq!(after.all().unwrap().len(), keys.len());
        // A fold cut short after the shards: the keys in both, once each.
        fs::write(&journal, format!("{last} .\n")).unwrap();
        let again = s.processed().unwrap();
        assert!(again.contains(last).unwrap());
        assert_eq!(again.all().unwrap().len(), keys.len());
    }
}
