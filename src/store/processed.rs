//! The keys of processed mails, kept so that
//! the cost of a poll does not grow with the history of the server.
//!
//! ```text
//! DATA/processed/<xyz>.log   the keys whose hash starts with xyz, one per line
//! ```
//!
//! A key is in one of 4,096 files, named by the first three hex digits of
//! its [`stable_hash`]: a poll reads only the files of the keys it meets
//! (one small file for a single mail, however many mails the server has
//! seen). Each line is `<key> .`: a line cut short by a crash lacks the
//! closing ` .` and is no key, and the next append starts on a line of its
//! own.

use super::files::{append_whole, read_opt};
use super::{Store, StoreError, io_err, stable_hash};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The keys processed so far, read from disk as they are asked about.
#[derive(Debug)]
pub struct Processed {
    dir: PathBuf,
    /// The files read so far, by number.
    shards: RefCell<HashMap<u16, HashSet<String>>>,
    /// Keys committed by this process since.
    added: RefCell<HashSet<String>>,
}

/// The number of the file that holds `key`.
fn shard_of(key: &str) -> u16 {
    (stable_hash(key.as_bytes()) >> 52) as u16
}

fn shard_path(dir: &Path, shard: u16) -> PathBuf {
    dir.join(format!("{shard:03x}.log"))
}

/// The committed keys in the text of a log.
fn keys_in(text: &str) -> impl Iterator<Item = &str> {
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    complete.lines().filter_map(|l| l.strip_suffix(" ."))
}

impl Processed {
    /// Whether `key` was committed.
    ///
    /// # Errors
    /// When its file cannot be read: the mail must not be handled then.
    pub fn contains(&self, key: &str) -> Result<bool, StoreError> {
        if self.added.borrow().contains(key) {
            return Ok(true);
        }
        let shard = shard_of(key);
        if let Some(keys) = self.shards.borrow().get(&shard) {
            return Ok(keys.contains(key));
        }
        let p = shard_path(&self.dir, shard);
        let keys: HashSet<String> = read_opt(&p)?
            .as_deref()
            .map(|t| keys_in(t).map(str::to_string).collect())
            .unwrap_or_default();
        let found = keys.contains(key);
        self.shards.borrow_mut().insert(shard, keys);
        Ok(found)
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

    /// Appends `keys` to their files, then makes them durable: each file,
    /// and the folder when a file is new (on a plain store one by one, on
    /// a batch view all at once, with what else the batch noted).
    fn append_keys(&self, keys: &[&str]) -> Result<(), StoreError> {
        if keys.is_empty() {
            return Ok(());
        }
        let dir = self.root.join("processed");
        if !dir.is_dir() {
            fs::create_dir_all(&dir).map_err(io_err(&dir))?;
            self.changed_folder(&self.root)?;
        }
        let mut by_shard: BTreeMap<u16, String> = BTreeMap::new();
        for key in keys {
            let lines = by_shard.entry(shard_of(key)).or_default();
            // " ." ends every committed key: a torn line never has it.
            lines.push_str(key);
            lines.push_str(" .\n");
        }
        // A plain store syncs each file as it appends (and cuts it back
        // when that fails); a batch, all of them at once below.
        let plain = self.batch.is_none();
        for (shard, lines) in by_shard {
            let p = shard_path(&dir, shard);
            let made = append_whole(&p, &lines, plain)?;
            self.note(|set| {
                if !plain {
                    set.file(&p);
                }
                if made {
                    set.folder(&dir);
                }
            })?;
        }
        self.sync_noted()
    }
}
