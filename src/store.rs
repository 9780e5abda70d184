//! pbem's data folder: game records, the players' secrets, pending
//! challenges, the log of processed mail and the outbox.
//!
//! ```text
//! DATA/games/<id>.toml        records (RECORD.md; meant to be published)
//! DATA/secrets/<id>.toml      per-player tokens (never in the record)
//! DATA/challenges/<id>.toml   challenges not yet answered
//! DATA/clocks/<id>.toml       a game's clock (time control, deadlines)
//! DATA/due/<day>/<time>.<id>  the deadline index: when each clock may owe a notice
//! DATA/players/<hash>.toml    a player's settings (time zone, digest)
//! DATA/ratelimit/<hash>.toml  replies lately sent to an address (crate::poll::limit)
//! DATA/processed/<xyz>.log   keys of processed mails, one per line (store::processed)
//! DATA/outbox/staging/<name>/ a batch's replies (one pack) and keys, not yet committed
//! DATA/outbox/ready/<name>/   committed batches waiting for the transport (crate::transport)
//! DATA/outbox/digest/         news held for players' digests
//! DATA/tmp/                   files being written (renamed into place when whole)
//! DATA/pbem.lock              one poll at a time
//! ```
//!
//! Every file is replaced atomically ([`crate::record::write::write_atomic`]);
//! ids are checked so that no name can leave the folder.
//!
//! A poll writes through a [`Store::batch`] view instead (issue 6, "Fast
//! at every size"): its writes and removals wait in memory (reads through
//! the view see them) until [`Store::sync`], which writes every new file
//! of the batch to a temporary file, syncs the file system once, renames
//! them all into place in the order they were first changed, and syncs
//! again: two syncs for a whole batch instead of one fsync per file, and a
//! game written several times in a batch reaches the disk once. A crash
//! still leaves each file old or new, never half-written; the batch's
//! keys are committed only after the sync.

use crate::record::write::{TEMP_PREFIX, TEMP_SUFFIX, temp_file, write_atomic_via};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub mod correspondence;
mod processed;
pub use correspondence::Correspondence;
pub use processed::Processed;

/// An error of the store, with the path it concerns.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The OS's words are part of the message, and so not also given as
    /// the error's `source()`: a chain printed whole (`{:#}`) would say
    /// them twice (issue 14).
    #[error("{path}: {cause}{}", io_hint(.cause))]
    Io { path: String, cause: io::Error },
    #[error("{0}")]
    Invalid(String),
    /// A file that holds bytes that are not UTF-8 text (issue 13): what
    /// pbem writes always is, so someone else changed it.
    #[error(
        "{path}: line {line}: not UTF-8 text (a byte that is no character, at byte {at}); \
         mend the file in an editor that saves UTF-8"
    )]
    NotText {
        path: String,
        line: usize,
        at: usize,
    },
    #[error(
        "another pbem is working on the data folder {0} (it holds {0}/pbem.lock), so this \
         run did nothing; add --wait to wait for it, or try again later"
    )]
    Busy(String),
}

impl StoreError {
    /// The data folder cannot be written at all: the disk is full, the
    /// quota used up, or the file system read-only (issue 5, "Disk full /
    /// read-only data folder"). Every other write would fail the same way.
    pub fn is_unwritable(&self) -> bool {
        matches!(self, StoreError::Io { cause, .. } if unwritable(cause))
    }
}

impl StoreError {
    /// Whether the message says already what to do about it, so that a
    /// caller adds no hint of its own (one cause, one hint; issue 14).
    pub fn has_hint(&self) -> bool {
        match self {
            StoreError::Io { cause, .. } => !io_hint(cause).is_empty(),
            StoreError::Invalid(_) => false,
            StoreError::NotText { .. } | StoreError::Busy(_) => true,
        }
    }
}

fn unwritable(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull
            | io::ErrorKind::QuotaExceeded
            | io::ErrorKind::ReadOnlyFilesystem
    )
}

/// What to do about an I/O error the admin can fix: the OS's words alone
/// ("No space left on device (os error 28)") do not say.
fn io_hint(e: &io::Error) -> &'static str {
    match e.kind() {
        io::ErrorKind::StorageFull => {
            " (the disk is full: free some space there; nothing was lost, and what could not \
             be done is done at the next run)"
        }
        io::ErrorKind::QuotaExceeded => {
            " (pbem's user has used up its disk quota: free some space or raise the quota; \
             nothing was lost, and what could not be done is done at the next run)"
        }
        io::ErrorKind::ReadOnlyFilesystem => {
            " (the file system is mounted read-only: remount it read-write; nothing was lost, \
             and what could not be done is done at the next run)"
        }
        io::ErrorKind::PermissionDenied => {
            " (pbem's user may not write there: check the owner and mode of the data folder)"
        }
        _ => "",
    }
}

/// The error of an I/O failure at `path`, for `map_err`.
pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |cause| StoreError::Io {
        path: path.display().to_string(),
        cause,
    }
}

/// A game id: lower-case letters, digits and dashes, 2-40 characters,
/// starting with a letter or digit. Nothing else can name a file.
pub fn valid_id(id: &str) -> bool {
    (2..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
}

/// The players' secrets of one game: side name -> token.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secrets {
    pub tokens: BTreeMap<String, String>,
    /// Side name -> the player's address, as pbem registered it when the
    /// challenge or game was made (lower case). When the record does not
    /// read, these alone say who its players are (issue 13): pbem mails
    /// no address it finds in a damaged file unless it is one of these.
    /// Empty for games made before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
}

impl Secrets {
    /// Whether `address` is a player pbem registered for this game.
    pub fn registered(&self, address: &str) -> bool {
        self.players
            .values()
            .any(|a| a.eq_ignore_ascii_case(address.trim()))
    }
}

/// A challenge waiting for the opponent's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    pub rules: String,
    /// "Name <address>" of the challenger.
    pub challenger: String,
    /// Address of the challenged player.
    pub opponent: String,
    /// The side the challenger plays.
    pub challenger_side: String,
    /// The side that moves first.
    pub first: String,
    pub created: String,
    /// The time control asked for (`3d+1d/10d`); none, no clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::timecontrol::TimeControl>,
    /// Which command of which mail made it (a hash): a mail handled again
    /// after a crash finds its challenge instead of making another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A game's clock as stored: the state and how many lines of the record
/// it has taken into account, so that a crash between writing the record
/// and the clock is mended from the record's times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    pub lines: usize,
    pub state: crate::timecontrol::ClockState,
}

/// What an admin's command (`pbem new`, `pbem move`) wrote, named in the
/// `made` file of its staging folder: the game and a hash of its record as
/// the command left it (issue 13 item 4).
///
/// A poll's commit point is the append of its mails' keys: a mail whose
/// key did not make it is read again from the mailbox and handled again.
/// An admin's command has no mail to read again, so its commit point is
/// the rename of the record, made durable in the same sync as its staged
/// replies ([`Store::sync`]). Recovery releases the replies of a staging
/// folder whose record on disk is the one named ([`Store::made`]), and
/// throws them away, with what a `pbem new` cut short left behind
/// ([`Store::unmake`]), when it is not. The hash, not only the game's
/// moves: a record someone changed since names no command of the past.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub id: String,
    /// [`stable_hash`] of the record's text as written.
    pub record: u64,
}

impl Made {
    /// Its file in a staging folder.
    pub const FILE: &'static str = "made";

    /// What writing `record` as game `id`'s record makes.
    pub fn new(id: &str, record: &str) -> Made {
        Made {
            id: id.to_string(),
            record: stable_hash(record.as_bytes()),
        }
    }

    /// Writes `folder/made`, unsynced: the batch's [`Store::sync`] puts it
    /// on disk before it renames any record into place.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&self, folder: &Path) -> Result<(), StoreError> {
        let p = folder.join(Self::FILE);
        fs::write(&p, format!("{} {:016x}\n", self.id, self.record)).map_err(io_err(&p))
    }

    /// The `made` file of a staging folder: `None` when there is none (a
    /// poll's folder) or it does not read.
    pub fn read(folder: &Path) -> Option<Made> {
        let text = fs::read_to_string(folder.join(Self::FILE)).ok()?;
        let (id, hash) = text.trim_end().split_once(' ')?;
        Some(Made {
            id: valid_id(id).then(|| id.to_string())?,
            record: u64::from_str_radix(hash, 16).ok()?,
        })
    }
}

/// A player's own settings, for all their games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub address: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<chrono_tz::Tz>,
    #[serde(default)]
    pub digest: crate::timecontrol::DigestMode,
    /// Vacation days booked this year, over all the player's games (the
    /// yearly allowance is the player's, not a game's).
    #[serde(
        default,
        skip_serializing_if = "crate::timecontrol::Allowance::is_unused"
    )]
    pub vacation: crate::timecontrol::Allowance,
}

/// A fresh secret: 12 characters from the OS's random source.
///
/// # Errors
/// When the OS has no randomness to give.
pub fn new_token() -> Result<String, StoreError> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Invalid(format!("no randomness: {e}")))?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
        .collect())
}

/// A new game id: `prefix-` and 12 characters (60 bits) from the OS's
/// random source (issue 13: an id derived from a hash of a Message-ID let
/// a stranger make one collide with a running game's). The caller still
/// checks, under the lock, that nothing has the id ([`Store::id_taken`]).
///
/// # Errors
/// When the OS has no randomness to give.
pub fn new_game_id(prefix: &str) -> Result<String, StoreError> {
    Ok(format!("{prefix}-{}", new_token()?))
}

/// FNV-1a: a stable 64-bit hash for keys of mails without a Message-ID
/// and for ids derived from one.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// 128 bits of a SHA-256 over `parts`, each length-prefixed (so no two
/// lists of parts hash alike), as 32 hex digits: a name for something a
/// stranger must not be able to make collide with another (a mail's key,
/// a challenge's source), where [`stable_hash`] is not enough.
pub fn strong_hash(parts: &[&[u8]]) -> String {
    let mut h = ring::digest::Context::new(&ring::digest::SHA256);
    for p in parts {
        h.update(&(p.len() as u64).to_be_bytes());
        h.update(p);
    }
    let mut hex = String::with_capacity(32);
    for b in &h.finish().as_ref()[..16] {
        let _ = std::fmt::Write::write_fmt(&mut hex, format_args!("{b:02x}"));
    }
    hex
}

/// The data folder.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
    /// Set on a [`Store::batch`] view: writes leave the folder's sync to
    /// [`Store::sync`].
    batch: Option<Arc<Batch>>,
}

/// The state of a [`Store::batch`] view.
#[derive(Debug)]
struct Batch {
    /// The data folder, open since the batch began: [`Store::sync`]
    /// flushes its file system.
    dir: File,
    /// Deadline markers replaced in the batch, removed once the new ones
    /// are durable (a stale marker costs a look; a missing one, a notice).
    stale: Mutex<Vec<PathBuf>>,
    /// Files written or removed in the batch, not yet on disk.
    pending: Mutex<Pending>,
}

/// The changes of a batch waiting for [`Store::sync`]: the last contents
/// of each file (`None`: removed), in the order of each file's first
/// change, which is the order they reach the disk in. That keeps what the
/// writers rely on when a crash stops the renames half-way: a new game's
/// secrets and clock before its record, a record before its clock when a
/// move is played (a clock behind its record catches up from the
/// record's times; see `crate::adjudicate::clocks`), and every removal
/// (a challenge) after the files that replace it (its game).
#[derive(Debug, Default)]
struct Pending {
    order: Vec<PathBuf>,
    files: HashMap<PathBuf, Option<String>>,
    /// Files rewritten in place rather than replaced ([`Store::write_in_place`]).
    in_place: HashSet<PathBuf>,
}

impl Pending {
    fn set(&mut self, p: &Path, text: Option<String>) {
        if self.files.insert(p.to_path_buf(), text).is_none() {
            self.order.push(p.to_path_buf());
        }
    }
}

/// Holds the data folder's lock until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

impl Store {
    /// Opens (creating if needed) the data folder at `root`.
    ///
    /// # Errors
    /// When a folder cannot be created.
    pub fn open(root: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let root = root.into();
        for sub in [
            "games",
            "secrets",
            "challenges",
            "clocks",
            "players",
            "ratelimit",
            "sent",
            "due",
            "tmp",
            "outbox/staging",
            "outbox/ready",
            "outbox/digest",
        ] {
            let p = root.join(sub);
            fs::create_dir_all(&p).map_err(io_err(&p))?;
        }
        Ok(Store { root, batch: None })
    }

    /// A view of the same data folder for one batch of work (a poll): its
    /// writes and removals wait in memory, seen by the view's own reads,
    /// until [`Store::sync`] puts them on disk; nothing done through it may
    /// be relied on (no key committed, no reply released) before that
    /// returns. Clones of the view share the batch.
    ///
    /// # Errors
    /// When the data folder cannot be opened.
    pub fn batch(&self) -> Result<Store, StoreError> {
        let dir = File::open(&self.root).map_err(io_err(&self.root))?;
        Ok(Store {
            root: self.root.clone(),
            batch: Some(Arc::new(Batch {
                dir,
                stale: Mutex::new(Vec::new()),
                pending: Mutex::new(Pending::default()),
            })),
        })
    }

    /// Makes everything done so far durable. On a [`Store::batch`] view:
    /// the batch's new files are written to temporary files in `DATA/tmp/`,
    /// the file system is synced (`syncfs(2)`, which also reports a write
    /// error since the batch began: the outbox's files, the deadline
    /// markers), the files are renamed into place in the order of their
    /// first change, the removals done (after one more sync, when there
    /// are any: what replaces a removed file is on disk first), and the
    /// file system synced again. About two fsyncs however many files the
    /// batch wrote. On a plain store, whose writes are durable when they
    /// return, nothing.
    ///
    /// # Errors
    /// A file could not be written or the file system could not write
    /// something back: nothing of the batch may be committed. The batch's
    /// changes not yet on disk are then dropped (a crash would have lost
    /// them too): the mails they came from are handled again.
    pub fn sync(&self) -> Result<(), StoreError> {
        let Some(batch) = &self.batch else {
            return Ok(());
        };
        let pending = std::mem::take(&mut *lock(&batch.pending));
        self.apply(&batch.dir, pending)?;
        for p in std::mem::take(&mut *lock(&batch.stale)) {
            let _ = fs::remove_file(p);
        }
        Ok(())
    }

    /// Puts a batch's pending changes on disk (see [`Store::sync`]).
    fn apply(&self, dir: &File, pending: Pending) -> Result<(), StoreError> {
        let syncfs = || sync_file_system(dir).map_err(io_err(&self.root));
        if pending.order.is_empty() {
            return syncfs();
        }
        let tmp = self.root.join("tmp");
        // 1. Every new file whole, under a temporary name (removed again
        // if anything fails before its rename).
        let mut temps = Vec::new();
        let mut removals = Vec::new();
        for p in pending
            .order
            .iter()
            .filter(|p| !pending.in_place.contains(*p))
        {
            match pending.files.get(p) {
                Some(Some(text)) => {
                    let temp = temp_file(&tmp, text.as_bytes()).map_err(io_err(p))?;
                    temps.push((temp.into_temp_path(), p, text))
                }
                Some(None) => removals.push(p),
                None => {}
            }
        }
        // 2. On disk before any rename: a crash leaves the old file or the
        // new one, never an empty one.
        syncfs()?;
        // 3. Into place.
        for (temp, p, text) in temps {
            if let Err(e) = temp.persist(p) {
                if e.error.kind() != io::ErrorKind::CrossesDevices {
                    return Err(io_err(p)(e.error));
                }
                // A folder of the data folder mounted apart: through a
                // temporary file beside it, synced before its rename.
                write_atomic_via(p, text, p.parent().unwrap_or(&self.root), false)
                    .map_err(io_err(p))?;
            }
        }
        // Advisory files, rewritten in place: no inode made and freed.
        for p in &pending.in_place {
            if let Some(Some(text)) = pending.files.get(p) {
                fs::write(p, text).map_err(io_err(p))?;
            }
        }
        // 4. The removals, once what replaces them is durable.
        if !removals.is_empty() {
            syncfs()?;
            for p in removals {
                remove_if_there(p)?;
            }
        }
        syncfs()
    }

    /// Drops a batch's changes that are not on disk yet: its mails were
    /// not committed and will be handled again.
    pub fn discard(&self) {
        if let Some(batch) = &self.batch {
            *lock(&batch.pending) = Pending::default();
        }
    }

    /// Ends a batch: syncs when changes or deadline markers wait (a poll
    /// that ticked clocks but committed no mail).
    ///
    /// # Errors
    /// As [`Store::sync`].
    pub fn finish(&self) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) if !lock(&b.pending).order.is_empty() || !lock(&b.stale).is_empty() => {
                self.sync()
            }
            _ => Ok(()),
        }
    }

    /// Replaces `p` atomically, through a temporary file in `DATA/tmp/` (or
    /// beside `p` when that is on another file system), the folder synced
    /// now; on a batch view, at [`Store::sync`].
    fn write_file(&self, p: &Path, text: &str) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                lock(&b.pending).set(p, Some(text.to_string()));
                Ok(())
            }
            None => write_atomic_via(p, text, &self.root.join("tmp"), true).map_err(io_err(p)),
        }
    }

    /// Rewrites `p` in place (truncated and written, the same inode), on a
    /// batch view at [`Store::sync`]; for advisory files only, which may be
    /// torn by a crash and then read as missing. Each file made and freed
    /// costs on ext4 without a journal (issue 6), and an advisory file is
    /// rewritten for every reply.
    fn write_in_place(&self, p: &Path, text: &str) -> Result<(), StoreError> {
        match &self.batch {
            Some(b) => {
                let mut pending = lock(&b.pending);
                pending.set(p, Some(text.to_string()));
                pending.in_place.insert(p.to_path_buf());
                Ok(())
            }
            None => fs::write(p, text).map_err(io_err(p)),
        }
    }

    /// Removes `p` if it exists; on a batch view, at [`Store::sync`].
    fn remove_file(&self, p: &Path) -> Result<(), StoreError> {
        if let Some(b) = &self.batch {
            lock(&b.pending).set(p, None);
            return Ok(());
        }
        remove_if_there(p)
    }

    /// The text of `p`, `None` when there is no such file; on a batch
    /// view, as the batch left it.
    fn read_opt(&self, p: &Path) -> Result<Option<String>, StoreError> {
        if let Some(b) = &self.batch
            && let Some(text) = lock(&b.pending).files.get(p)
        {
            return Ok(text.clone());
        }
        read_opt(p)
    }

    /// A TOML file read into `T`, or `None` when it does not exist.
    fn read_toml<T: serde::de::DeserializeOwned>(&self, p: &Path) -> Result<Option<T>, StoreError> {
        match self.read_opt(p)? {
            None => Ok(None),
            Some(t) => toml::from_str(&t)
                .map(Some)
                .map_err(|e| StoreError::Invalid(format!("{}: {e}", p.display()))),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Takes the lock: one poll at a time (issue 3, "Exactly once").
    /// `wait`: block until the other process is done; else fail at once.
    ///
    /// # Errors
    /// [`StoreError::Busy`] when another process holds it and `wait` is off.
    pub fn lock(&self, wait: bool) -> Result<Lock, StoreError> {
        let path = self.root.join("pbem.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io_err(&path))?;
        if wait {
            file.lock().map_err(io_err(&path))?;
        } else {
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Busy(self.root.display().to_string()));
                }
                Err(fs::TryLockError::Error(e)) => return Err(io_err(&path)(e)),
            }
        }
        Ok(Lock { _file: file })
    }

    fn checked(&self, kind: &str, id: &str) -> Result<PathBuf, StoreError> {
        if !valid_id(id) {
            return Err(StoreError::Invalid(format!(
                "`{id}` is not a game id (lower-case letters, digits and dashes)"
            )));
        }
        Ok(self.root.join(kind).join(format!("{id}.toml")))
    }

    pub fn game_path(&self, id: &str) -> Result<PathBuf, StoreError> {
        self.checked("games", id)
    }

    pub fn challenge_path(&self, id: &str) -> Result<PathBuf, StoreError> {
        self.checked("challenges", id)
    }

    /// The record's text, `None` when there is no such game.
    ///
    /// # Errors
    /// Any I/O error but "not found".
    pub fn read_game(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.read_opt(&self.game_path(id)?)
    }

    /// # Errors
    /// Any I/O error; the old record is then untouched.
    pub fn write_game(&self, id: &str, text: &str) -> Result<(), StoreError> {
        let p = self.game_path(id)?;
        self.write_file(&p, text)
    }

    /// The ids of all games, sorted.
    ///
    /// # Errors
    /// When the games folder cannot be read.
    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("games")
    }

    /// The ids named by the `<id>.toml` files of a folder, sorted (on a
    /// batch view, as the batch left the folder).
    fn ids_in(&self, sub: &str) -> Result<Vec<String>, StoreError> {
        let dir = self.root.join(sub);
        let id_of = |name: &std::ffi::OsStr| -> Option<String> {
            let id = name.to_str()?.strip_suffix(".toml")?;
            valid_id(id).then(|| id.to_string())
        };
        let mut ids: HashSet<String> = fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| id_of(&e.file_name()))
            .collect();
        if let Some(b) = &self.batch {
            for (p, text) in &lock(&b.pending).files {
                if p.parent() == Some(dir.as_path())
                    && let Some(id) = p.file_name().and_then(id_of)
                {
                    if text.is_some() {
                        ids.insert(id);
                    } else {
                        ids.remove(&id);
                    }
                }
            }
        }
        let mut ids: Vec<String> = ids.into_iter().collect();
        ids.sort();
        Ok(ids)
    }

    /// # Errors
    /// I/O errors, or a secrets file that is not valid TOML.
    pub fn secrets(&self, id: &str) -> Result<Secrets, StoreError> {
        let p = self.checked("secrets", id)?;
        Ok(self.read_toml(&p)?.unwrap_or_default())
    }

    /// The game or challenge whose secrets hold `token`, if one does (a
    /// secrets file that cannot be read is passed over: it is another
    /// game's problem, and shows when that game is used).
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn key_owner(&self, token: &str) -> Result<Option<String>, StoreError> {
        for id in self.ids_in("secrets")? {
            let Ok(secrets) = self.secrets(&id) else {
                continue;
            };
            if secrets.tokens.values().any(|t| t == token) {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Written with mode 0600: only pbem's user may read the tokens. So
    /// is every file the store writes: each is a temporary file made 0600
    /// ([`crate::record::write::temp_file`]) renamed into place.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_secrets(&self, id: &str, s: &Secrets) -> Result<(), StoreError> {
        self.write_toml(&self.checked("secrets", id)?, s)
    }

    /// Whether anything has the id `id`: a game, a challenge, keys or a
    /// clock. A new game or challenge is made only under an id that
    /// nothing has (create-new: nothing a mail says may replace what
    /// exists, issue 13).
    ///
    /// # Errors
    /// I/O errors.
    pub fn id_taken(&self, id: &str) -> Result<bool, StoreError> {
        for folder in ["games", "challenges", "secrets", "clocks"] {
            let p = self.checked(folder, id)?;
            if self.read_opt(&p)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the record `m` names is on disk: an admin's command got
    /// past its commit point (see [`Made`]).
    ///
    /// # Errors
    /// When the record cannot be read.
    pub fn made(&self, m: &Made) -> Result<bool, StoreError> {
        Ok(self
            .read_game(&m.id)?
            .is_some_and(|t| stable_hash(t.as_bytes()) == m.record))
    }

    /// Removes what a `pbem new` cut short before its record's rename left
    /// behind, the game's secrets and clock (renamed first, see
    /// [`Pending`]), which would keep its id taken ([`Store::id_taken`])
    /// and `pbem new --id` refused. Only when the game has no record and
    /// the id no challenge: anything else is not what the command left.
    /// Durable when this returns (before recovery drops the staging folder
    /// that says what to remove).
    ///
    /// # Errors
    /// I/O errors.
    pub fn unmake(&self, m: &Made) -> Result<(), StoreError> {
        if self.read_game(&m.id)?.is_some() || self.challenge_path(&m.id).map(|p| p.exists())? {
            return Ok(());
        }
        for folder in ["secrets", "clocks"] {
            let p = self.checked(folder, &m.id)?;
            if p.exists() {
                remove_if_there(&p)?;
                sync_folder(&self.root.join(folder))?;
            }
        }
        Ok(())
    }

    /// # Errors
    /// I/O errors or a damaged file.
    pub fn challenge(&self, id: &str) -> Result<Option<Challenge>, StoreError> {
        self.read_toml(&self.checked("challenges", id)?)
    }

    /// # Errors
    /// Any I/O error.
    pub fn write_challenge(&self, id: &str, c: &Challenge) -> Result<(), StoreError> {
        self.write_toml(&self.checked("challenges", id)?, c)
    }

    /// # Errors
    /// Any I/O error but "not found".
    pub fn remove_challenge(&self, id: &str) -> Result<(), StoreError> {
        self.remove_file(&self.checked("challenges", id)?)
    }

    /// Runs `start` (which creates the game) and then removes the
    /// challenge, so that a crash in between leaves the challenge to be
    /// accepted again rather than lost.
    ///
    /// # Errors
    /// What `start` returns, or a failure to remove the challenge.
    pub fn remove_challenge_after<E: From<StoreError>>(
        &self,
        id: &str,
        start: impl FnOnce() -> Result<(), E>,
    ) -> Result<(), E> {
        start()?;
        self.remove_challenge(id)?;
        Ok(())
    }

    /// The clock of game `id`, if it has one.
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn clock(&self, id: &str) -> Result<Option<GameClock>, StoreError> {
        self.read_toml(&self.checked("clocks", id)?)
    }

    /// Writes game `id`'s clock and keeps the deadline index up to date:
    /// the marker of the new [`ClockState::next_due`] is made before the
    /// clock is written, the old one removed after (see [`Store::due_clocks`]).
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_clock(
        &self,
        id: &str,
        c: &GameClock,
        policy: &crate::timecontrol::ClockPolicy,
    ) -> Result<(), StoreError> {
        let p = self.checked("clocks", id)?;
        let old = self
            .read_toml::<GameClock>(&p)
            .ok()
            .flatten()
            .and_then(|o| self.due_marker(id, &o, policy));
        let new = self.due_marker(id, c, policy);
        if let Some(m) = &new {
            self.add_marker(m)?;
        }
        self.write_toml(&p, c)?;
        if let Some(m) = old.filter(|m| Some(m) != new.as_ref()) {
            self.drop_marker(m);
        }
        Ok(())
    }

    /// The games whose clocks may owe a notice at `now`, with the marker
    /// of the deadline index that named each: a poll looks at these only,
    /// not at every clock (issue 6: with 100,000 games, reading every
    /// clock file made each poll take seconds).
    ///
    /// The index, `DATA/due/<YYYYMMDD>/<HHMMSS>.<id>`, holds one empty
    /// file per running clock, named by its [`ClockState::next_due`]
    /// (rounded down to the second) under `policy`. `DATA/due/policy`
    /// names the policy it was built for; when it is missing (an older
    /// data folder, a crash while building) or differs (pbem.toml's
    /// `[clock]` changed), the index is built again from every clock.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// When the index or the clocks cannot be read or the index written.
    pub fn due_clocks(
        &self,
        now: chrono::DateTime<chrono::Utc>,
        policy: &crate::timecontrol::ClockPolicy,
    ) -> Result<Vec<(String, PathBuf)>, StoreError> {
        let due = self.root.join("due");
        let stamp = toml::to_string(policy).map_err(|e| StoreError::Invalid(e.to_string()))?;
        if read_opt(&due.join("policy"))?.as_deref() != Some(stamp.as_str()) {
            if self.clock_ids()?.is_empty() {
                // No clock, nothing to index (nor a file to write).
                return Ok(Vec::new());
            }
            self.build_due(policy, &stamp)?;
        }
        let (today, time) = (
            now.format("%Y%m%d").to_string(),
            now.format("%H%M%S").to_string(),
        );
        let mut days: Vec<(String, PathBuf)> = fs::read_dir(&due)
            .map_err(io_err(&due))?
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
            .filter(|(day, _)| day.len() == 8 && day.bytes().all(|b| b.is_ascii_digit()))
            .filter(|(day, _)| *day <= today)
            .collect();
        days.sort();
        let mut out = Vec::new();
        for (day, dir) in days {
            let mut names: Vec<String> = fs::read_dir(&dir)
                .map_err(io_err(&dir))?
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect();
            if names.is_empty() && day < today {
                let _ = fs::remove_dir(&dir);
            }
            names.sort();
            for name in names {
                let Some((at, id)) = name.split_once('.') else {
                    continue;
                };
                if (day < today || at <= time.as_str()) && valid_id(id) {
                    out.push((id.to_string(), dir.join(&name)));
                }
            }
        }
        Ok(out)
    }

    /// After a look at game `id`'s clock found nothing due: the index's
    /// `marker` is moved to the clock's [`ClockState::next_due`] (it was
    /// early: a clock changed behind the index, or rounding), or removed
    /// when the clock has stopped or is gone.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    ///
    /// # Errors
    /// I/O errors; a damaged clock file.
    pub fn recheck_due(
        &self,
        id: &str,
        marker: &Path,
        policy: &crate::timecontrol::ClockPolicy,
    ) -> Result<(), StoreError> {
        let next = self
            .clock(id)?
            .and_then(|c| self.due_marker(id, &c, policy));
        if next.as_deref() == Some(marker) {
            return Ok(());
        }
        if let Some(m) = &next {
            self.add_marker(m)?;
        }
        self.drop_marker(marker.to_path_buf());
        Ok(())
    }

    /// Builds the deadline index from every clock (see [`Store::due_clocks`]).
    fn build_due(
        &self,
        policy: &crate::timecontrol::ClockPolicy,
        stamp: &str,
    ) -> Result<(), StoreError> {
        let due = self.root.join("due");
        let stamp_file = due.join("policy");
        remove_if_there(&stamp_file)?;
        let root = File::open(&self.root).map_err(io_err(&self.root))?;
        for e in fs::read_dir(&due).map_err(io_err(&due))?.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                fs::remove_dir_all(e.path()).map_err(io_err(&e.path()))?;
            }
        }
        for id in self.clock_ids()? {
            // A damaged clock is left to the poll, which reports it.
            let Ok(Some(c)) = self.clock(&id) else {
                continue;
            };
            if let Some(m) = self.due_marker(&id, &c, policy) {
                let dir = m.parent().unwrap_or(&due);
                fs::create_dir_all(dir).map_err(io_err(dir))?;
                File::create(&m).map_err(io_err(&m))?;
            }
        }
        // Every marker on disk before the index says it is whole; the
        // stamp at once, also from a batch view (the index is not the
        // batch's: it only names clocks to look at).
        sync_file_system(&root).map_err(io_err(&self.root))?;
        write_atomic_via(&stamp_file, stamp, &self.root.join("tmp"), true)
            .map_err(io_err(&stamp_file))
    }

    /// The marker of game `id` whose clock is `c`: named by the clock's
    /// [`ClockState::next_due`] under `policy`; none when it owes nothing.
    ///
    /// [`ClockState::next_due`]: crate::timecontrol::ClockState::next_due
    fn due_marker(
        &self,
        id: &str,
        c: &GameClock,
        policy: &crate::timecontrol::ClockPolicy,
    ) -> Option<PathBuf> {
        let at = c.state.next_due(policy)?;
        Some(
            self.root
                .join("due")
                .join(at.format("%Y%m%d").to_string())
                .join(format!("{}.{id}", at.format("%H%M%S"))),
        )
    }

    /// Creates a marker (again: a crash may have lost it while the clock
    /// it names was kept). On a plain store it is durable when this
    /// returns; in a batch, at [`Store::sync`].
    fn add_marker(&self, m: &Path) -> Result<(), StoreError> {
        if m.exists() {
            return Ok(());
        }
        let dir = m.parent().unwrap_or(&self.root);
        let new_dir = !dir.exists();
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        File::create(m).map_err(io_err(m))?;
        if self.batch.is_none() {
            sync_folder(dir)?;
            if new_dir {
                sync_folder(&self.root.join("due"))?;
            }
        }
        Ok(())
    }

    /// Removes a marker replaced by another: now on a plain store (the new
    /// one is durable), after [`Store::sync`] in a batch.
    fn drop_marker(&self, m: PathBuf) {
        match &self.batch {
            Some(b) => lock(&b.stale).push(m),
            None => {
                let _ = fs::remove_file(m);
            }
        }
    }

    /// The ids of games with a clock.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn clock_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("clocks")
    }

    fn player_path(&self, address: &str) -> PathBuf {
        let a = address.trim().to_lowercase();
        self.root
            .join("players")
            .join(format!("{:016x}.toml", stable_hash(a.as_bytes())))
    }

    /// A player's settings (the defaults when they set none).
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn player(&self, address: &str) -> Result<Player, StoreError> {
        let address = address.trim().to_lowercase();
        let found: Option<Player> = self.read_toml(&self.player_path(&address))?;
        // Two addresses with one hash: the other's file is not ours.
        Ok(found.filter(|p| p.address == address).unwrap_or(Player {
            address,
            ..Player::default()
        }))
    }

    /// # Errors
    /// Any I/O error.
    pub fn write_player(&self, player: &Player) -> Result<(), StoreError> {
        self.write_toml(&self.player_path(&player.address), player)
    }

    fn correspondence_path(&self, address: &str) -> PathBuf {
        self.root
            .join("sent")
            .join(format!("{:016x}.json", stable_hash(address.as_bytes())))
    }

    /// What pbem lately sent `address` (lower case): its threads and the
    /// lines of its mails (issue 12).
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    /// Advisory: a file a crash tore reads as missing (see
    /// [`Store::write_in_place`]).
    pub fn correspondence(&self, address: &str) -> Result<Correspondence, StoreError> {
        // JSON, not TOML: it is read and written for every reply, and a
        // few hundred line hashes take TOML ten times as long.
        let p = self.correspondence_path(address);
        let found: Option<Correspondence> = match self.read_opt(&p)? {
            None => None,
            Some(t) => serde_json::from_str(&t).ok(),
        };
        // Two addresses with one hash: the other's file is not ours.
        Ok(found
            .filter(|c| c.address == address)
            .unwrap_or_else(|| Correspondence::new(address)))
    }

    /// # Errors
    /// Any I/O error.
    pub fn write_correspondence(&self, c: &Correspondence) -> Result<(), StoreError> {
        let text = serde_json::to_string(c).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.write_in_place(&self.correspondence_path(&c.address), &text)
    }

    fn tally_path(&self, address: &str) -> PathBuf {
        self.root
            .join("ratelimit")
            .join(format!("{:016x}.toml", stable_hash(address.as_bytes())))
    }

    /// What pbem lately sent `address` (lower case), for the reply limits.
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn tally(&self, address: &str) -> Result<crate::poll::Tally, StoreError> {
        let found: Option<crate::poll::Tally> = self.read_toml(&self.tally_path(address))?;
        // Two addresses with one hash: the other's file is not ours.
        Ok(found
            .filter(|t| t.address == address)
            .unwrap_or_else(|| crate::poll::Tally::new(address)))
    }

    /// Writes a tally, atomically; one with nothing left to remember is
    /// removed.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_tally(&self, tally: &crate::poll::Tally) -> Result<(), StoreError> {
        let p = self.tally_path(&tally.address);
        if tally.is_empty() {
            return self.remove_file(&p);
        }
        self.write_toml(&p, tally)
    }

    /// The ids of pending challenges.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn challenge_ids(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("challenges")
    }

    /// Removes temporary files a killed process left half-written (their
    /// rename never happened, so nothing refers to them). Call it only
    /// while holding the lock. Reads one small folder, `DATA/tmp/`, where
    /// the store makes all its temporary files (issue 6: it used to read
    /// every game's folder at every poll).
    pub fn remove_stale_temps(&self) -> usize {
        let Ok(entries) = fs::read_dir(self.root.join("tmp")) else {
            return 0;
        };
        entries
            .flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
            })
            .filter(|e| fs::remove_file(e.path()).is_ok())
            .count()
    }

    pub fn outbox_staging(&self) -> PathBuf {
        self.root.join("outbox/staging")
    }
    pub fn outbox_ready(&self) -> PathBuf {
        self.root.join("outbox/ready")
    }
    /// News held for players' digests.
    pub fn outbox_digest(&self) -> PathBuf {
        self.root.join("outbox/digest")
    }
}

impl Store {
    /// `value` written as TOML, atomically.
    fn write_toml<T: Serialize>(&self, p: &Path, value: &T) -> Result<(), StoreError> {
        let text = toml::to_string(value).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.write_file(p, &text)
    }
}

/// Flushes the file system that holds `dir` (open since the batch began,
/// so that a write-back error since then is reported).
#[cfg(target_os = "linux")]
fn sync_file_system(dir: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: syncfs(2) on a descriptor we own, open for the call's length.
    if unsafe { libc::syncfs(dir.as_raw_fd()) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Elsewhere: sync(2), which POSIX lets return before the data is written;
/// pbem is built and tested on Linux (the daemon needs inotify).
#[cfg(not(target_os = "linux"))]
fn sync_file_system(_dir: &File) -> io::Result<()> {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
    Ok(())
}

/// A batch's lock; a panic elsewhere while it was held leaves its data
/// whole (each change is one insert), so a poisoned lock is taken as is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes `p`; one that is not there is not an error.
fn remove_if_there(p: &Path) -> Result<(), StoreError> {
    match fs::remove_file(p) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_err(p)(e)),
        _ => Ok(()),
    }
}

/// Syncs the folder `p`: what was made, renamed or removed in it is on
/// disk when this returns.
pub(crate) fn sync_folder(p: &Path) -> Result<(), StoreError> {
    File::open(p).and_then(|d| d.sync_all()).map_err(io_err(p))
}

fn read_opt(p: &Path) -> Result<Option<String>, StoreError> {
    match fs::read(p) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            StoreError::NotText {
                path: p.display().to_string(),
                line: 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count(),
                at,
            }
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(p)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn ids_cannot_escape_the_folder() {
        for bad in [
            "../x",
            "a/b",
            "A1",
            "-x",
            "",
            "x",
            "a.b",
            "a\nb",
            &"x".repeat(41),
        ] {
            assert!(!valid_id(bad), "{bad:?}");
        }
        assert!(valid_id("bz-7k2q"));
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        assert!(s.read_game("../../etc/passwd").is_err());
    }

    #[test]
    fn processed_keys_ignore_a_torn_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        s.mark_processed("<a@x>").unwrap();
        // A crash tore the last line of the file "<b@x>" goes to.
        let file = dir.path().join(format!(
            "processed/{:03x}.log",
            stable_hash("<b@x>".as_bytes()) >> 52
        ));
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .unwrap()
            .write_all(b"<tor")
            .unwrap();
        assert_eq!(s.processed().unwrap().all().unwrap().len(), 1);
        s.mark_processed("<b@x>").unwrap();
        let p = s.processed().unwrap();
        for (key, is) in [("<a@x>", true), ("<b@x>", true), ("<tor", false)] {
            assert_eq!(p.contains(key).unwrap(), is, "{key}");
        }
        assert_eq!(p.all().unwrap().len(), 2);
        assert_eq!(fs::read_to_string(&file).unwrap(), "<tor\n<b@x> .\n");
    }

    #[test]
    fn issue6_the_log_of_earlier_versions_is_moved_into_the_key_files() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        fs::write(dir.path().join("processed.log"), "<a@x> .\n<b@x> .\n<torn").unwrap();
        let p = s.processed().unwrap();
        assert!(p.contains("<a@x>").unwrap() && p.contains("<b@x>").unwrap());
        assert!(!p.contains("<torn").unwrap());
        assert!(!dir.path().join("processed.log").exists());
        assert_eq!(s.processed().unwrap().all().unwrap().len(), 2);
    }

    #[test]
    fn issue6_the_deadline_index_names_the_clocks_whose_time_has_come() {
        use crate::timecontrol::{ClockPolicy, ClockState, ReminderPoint};
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let at = |t: &str| t.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        let start = at("2026-11-02T10:00:00Z");
        let policy = ClockPolicy::default(); // reminders at 50% and 80%
        let clock = |days: u32| GameClock {
            lines: 0,
            state: ClockState::new(
                format!("{days}d").parse().unwrap(),
                crate::game::Side::A,
                start,
            ),
        };
        s.write_clock("g-10", &clock(10), &policy).unwrap();
        s.write_clock("g-2", &clock(2), &policy).unwrap();
        let ids = |now: &str, p: &ClockPolicy| -> Vec<String> {
            s.due_clocks(at(now), p)
                .unwrap()
                .into_iter()
                .map(|(id, _)| id)
                .collect()
        };
        // The 50% point of the 2-day clock is a day in.
        assert!(ids("2026-11-03T09:59:59Z", &policy).is_empty());
        assert_eq!(ids("2026-11-03T10:00:00Z", &policy), ["g-2"]);
        assert_eq!(ids("2026-11-07T10:00:00Z", &policy), ["g-2", "g-10"]);
        // A clock written again moves its marker: once, to the next point.
        let mut c = clock(2);
        c.state.reminded = ReminderPoint::from_permille(500);
        s.write_clock("g-2", &c, &policy).unwrap();
        assert!(ids("2026-11-04T00:23:59Z", &policy).is_empty());
        assert_eq!(ids("2026-11-04T00:24:00Z", &policy), ["g-2"]);
        let markers = |p: &str| fs::read_dir(dir.path().join(p)).unwrap().count();
        assert_eq!(markers("due/20261104"), 1);
        assert!(
            !dir.path().join("due/20261103").exists(),
            "emptied, removed"
        );
        // Another policy (pbem.toml changed): the index is built again.
        let early = ClockPolicy {
            reminders: vec![ReminderPoint::from_permille(100).unwrap()],
            ..ClockPolicy::default()
        };
        assert_eq!(ids("2026-11-03T10:00:00Z", &early), ["g-10"]);
        // In a batch, the old marker stays until the sync.
        let b = s.batch().unwrap();
        c.state.final_sent = true;
        b.write_clock("g-2", &c, &early).unwrap();
        assert_eq!(ids("2026-11-04T09:00:00Z", &early), ["g-10", "g-2"]);
        b.sync().unwrap();
        assert_eq!(ids("2026-11-04T09:00:00Z", &early), ["g-10"]);
        assert_eq!(ids("2026-11-04T10:00:00Z", &early), ["g-10", "g-2"]);
    }

    #[test]
    fn issue6_a_batch_keeps_its_changes_until_the_sync_and_reads_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let c = Challenge {
            rules: "mad".into(),
            challenger: "Ann <ann@example.org>".into(),
            opponent: "bob@example.org".into(),
            challenger_side: "red".into(),
            first: "red".into(),
            created: "2026-11-21T10:00:00Z".into(),
            clock: None,
            source: None,
        };
        s.write_challenge("ch-old", &c).unwrap();
        let on_disk = |sub: &str| -> Vec<String> {
            let mut v: Vec<String> = fs::read_dir(dir.path().join(sub))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let b = s.batch().unwrap();
        b.write_game("g-1", "one").unwrap();
        b.write_game("g-1", "two").unwrap();
        b.write_challenge("ch-new", &c).unwrap();
        b.remove_challenge("ch-new").unwrap();
        b.remove_challenge("ch-old").unwrap();
        // The batch reads what it did; the folder is untouched.
        assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
        assert_eq!(b.game_ids().unwrap(), ["g-1"]);
        assert!(b.challenge_ids().unwrap().is_empty());
        assert_eq!(b.challenge("ch-old").unwrap(), None);
        assert_eq!(s.read_game("g-1").unwrap(), None);
        assert_eq!(s.challenge_ids().unwrap(), ["ch-old"]);
        assert!(on_disk("games").is_empty() && on_disk("tmp").is_empty());
        b.sync().unwrap();
        assert_eq!(s.read_game("g-1").unwrap().as_deref(), Some("two"));
        assert!(s.challenge_ids().unwrap().is_empty());
        assert_eq!(on_disk("games"), ["g-1.toml"]);
        assert!(on_disk("tmp").is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("games/g-1.toml"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // Dropped changes never reach the disk.
        b.write_game("g-2", "lost").unwrap();
        b.discard();
        assert_eq!(b.read_game("g-2").unwrap(), None);
        b.sync().unwrap();
        assert_eq!(on_disk("games"), ["g-1.toml"]);
        // A sync that cannot write names the file it was writing, leaves
        // the old files and no temporary one, and drops the changes.
        b.write_game("g-1", "three").unwrap();
        fs::remove_dir(dir.path().join("tmp")).unwrap();
        let e = b.sync().unwrap_err().to_string();
        assert!(e.contains("g-1.toml"), "{e}");
        fs::create_dir(dir.path().join("tmp")).unwrap();
        assert_eq!(s.read_game("g-1").unwrap().as_deref(), Some("two"));
        assert_eq!(b.read_game("g-1").unwrap().as_deref(), Some("two"));
    }

    #[test]
    fn issue13_what_an_admin_command_made_is_told_by_its_record() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let folder = dir.path().join("outbox/staging/x");
        fs::create_dir_all(&folder).unwrap();
        assert_eq!(Made::read(&folder), None, "a poll's folder");
        let made = Made::new("bz-1", "the record");
        made.write(&folder).unwrap();
        assert_eq!(Made::read(&folder), Some(made.clone()));
        for bad in ["", "bz-1", "../x 00", "bz-1 xyz", "bz-1 1 2"] {
            fs::write(folder.join(Made::FILE), bad).unwrap();
            assert_eq!(Made::read(&folder), None, "{bad:?}");
        }

        // A `pbem new` cut short: secrets and a clock, no record.
        assert!(!s.made(&made).unwrap());
        s.write_secrets("bz-1", &Secrets::default()).unwrap();
        fs::write(dir.path().join("clocks/bz-1.toml"), "").unwrap();
        assert!(s.id_taken("bz-1").unwrap());
        s.unmake(&made).unwrap();
        assert!(!s.id_taken("bz-1").unwrap(), "the id is free again");

        // A record, but another one (a `pbem move` cut short): not made,
        // and nothing is removed.
        s.write_secrets("bz-1", &Secrets::default()).unwrap();
        s.write_game("bz-1", "the old record").unwrap();
        assert!(!s.made(&made).unwrap());
        s.unmake(&made).unwrap();
        assert!(s.read_game("bz-1").unwrap().is_some());
        assert!(dir.path().join("secrets/bz-1.toml").exists());
        s.write_game("bz-1", "the record").unwrap();
        assert!(s.made(&made).unwrap());

        // A challenge's secrets are not a half-made game's.
        let ch = Made::new("ch-1", "x");
        s.write_secrets("ch-1", &Secrets::default()).unwrap();
        fs::write(dir.path().join("challenges/ch-1.toml"), "").unwrap();
        s.unmake(&ch).unwrap();
        assert!(dir.path().join("secrets/ch-1.toml").exists());
    }

    /// Issue 13 item 1: an id a stranger could make collide once let a
    /// challenge replace a running game. Ids are random, never repeat in
    /// 10,000 draws, and an id that anything has is taken.
    #[test]
    fn issue13_ids_are_random_and_nothing_is_made_over_what_exists() {
        let ids: HashSet<String> = (0..10_000).map(|_| new_game_id("bz").unwrap()).collect();
        assert_eq!(ids.len(), 10_000);
        for id in &ids {
            let tail = id.strip_prefix("bz-").unwrap();
            assert_eq!(tail.len(), 12, "{id}");
            assert!(valid_id(id), "{id}");
        }
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        for (n, folder) in ["games", "challenges", "secrets", "clocks"]
            .iter()
            .enumerate()
        {
            let id = format!("bz-taken{n}");
            assert!(!s.id_taken(&id).unwrap());
            fs::write(s.checked(folder, &id).unwrap(), "x = 1\n").unwrap();
            assert!(s.id_taken(&id).unwrap(), "{folder}");
        }
    }

    #[test]
    fn one_lock_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let held = s.lock(false).unwrap();
        assert!(matches!(s.lock(false), Err(StoreError::Busy(_))));
        drop(held);
        assert!(s.lock(false).is_ok());
    }

    #[test]
    fn tokens_are_random_and_secrets_private() {
        let a = new_token().unwrap();
        assert_eq!(a.len(), 12);
        assert_ne!(a, new_token().unwrap());
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let mut sec = Secrets::default();
        sec.tokens.insert("black".into(), a.clone());
        s.write_secrets("bz-1", &sec).unwrap();
        assert_eq!(s.secrets("bz-1").unwrap(), sec);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("secrets/bz-1.toml"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
