//! pbem's data folder: game records, the players' secrets, pending
//! challenges, the log of processed mail and the outbox.
//!
//! ```text
//! DATA/games/<id>.toml        records (docs/src/formats/record.md; published)
//! DATA/secrets/<id>.toml      per-player tokens (never in the record)
//! DATA/challenges/<id>.toml   challenges not yet answered
//! DATA/confirm/<id>.toml      requests waiting for their sender to prove the address
//! DATA/clocks/<id>.toml       a game's clock (time control, deadlines)
//! DATA/due/<day>/<time>.<id>  the deadline index: when each clock may owe a notice
//! DATA/index/games.idx        a summary of each record, what `pbem games` lists (store::index)
//! DATA/index/clocks.idx       each clock's state, for building the deadline index
//! DATA/analysis-queue/<id>.toml a finished game waiting for the bot's analysis (store::analysis)
//! DATA/analysis/<id>.txt      the bot's analysis of a finished game
//! DATA/players/<hash>.toml    a player's settings (time zone, digest)
//! DATA/series/<id>.toml       series, tournaments and ratings (store::league)
//! DATA/tournaments/<name>.toml
//! DATA/ratings/<game>.toml
//! DATA/ratelimit/<hash>.toml  replies lately sent to an address (crate::poll::limit)
//! DATA/sent/<hash>.0, .1      what pbem lately sent an address: two slots written in turn (store::correspondence)
//! DATA/processed/recent-<x>.log  keys of processed mails, one per line, as committed (store::processed)
//! DATA/processed/<xyz>.log   the same keys, once their journal is folded
//! DATA/outbox/staging/<name>/ a batch's replies (one pack) and keys, not yet committed
//! DATA/outbox/ready/<name>/   committed batches waiting for the transport (crate::transport)
//! DATA/outbox/digest/         news held for players' digests
//! DATA/tmp/                   files being written (renamed into place when whole)
//! DATA/pbem.lock              one poll at a time
//! ```
//!
//! Every file is replaced atomically ([`files::write_atomic`]);
//! ids are checked so that no name can leave the folder.
//!
//! A poll writes through a [`Store::batch`] view instead ("Fast
//! at every size"): its writes and removals wait in memory (reads through
//! the view see them) until [`Store::sync`], which writes every new file
//! of the batch to a temporary file, syncs them (with whatever else the
//! batch wrote: its staging folder, deadline markers), renames them all
//! into place in the order they were first changed, and syncs the folders
//! the renames changed: two syncs for a whole batch, each of all its
//! files at once ([`files::SyncSet`]), and a game written several times
//! in a batch reaches the disk once. Only pbem's own files and folders
//! are synced, never the file system (which would wait for every other
//! program's writes). A crash still leaves each file old or new, never
//! half-written; the batch's keys are committed only after the sync.
//!
//! The store sits under the adjudicator and the poll, at the bottom of
//! the mail path: it knows files, not mails. Its parts: [`batch`] (the
//! poll's in-memory view of a batch of writes), [`deadlines`] (the
//! deadline index of the clocks), [`files`] (atomic writes, syncs, reads;
//! [`syncers`], the threads that sync a batch's files at once),
//! [`ids`] (ids, tokens, hashes), [`index`] (the summaries of the records
//! and clocks), [`records`] (the types it stores),
//! [`processed`] (the keys of processed mails) and [`correspondence`].

use crate::record::Record;
use crate::rules::Rules;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub mod analysis;
pub mod batch;
pub mod bots;
pub mod conditions;
pub mod confirm;
pub mod correspondence;
pub mod crashpoint;
pub mod deadlines;
mod error;
pub mod files;
mod forms;
pub mod ids;
pub mod index;
pub mod league;
mod processed;
mod readcache;
pub mod records;
mod spares;
mod syncers;
#[cfg(test)]
mod tests;

use batch::{BatchView, lock};
pub use correspondence::Correspondence;
pub use error::StoreError;
pub(crate) use error::io_err;
pub(crate) use files::sync_folder;
pub(crate) use files::sync_paths;
pub(crate) use files::{make_apart, spread};
use files::{read_opt, remove_if_there};
pub use ids::{new_game_id, new_token, stable_hash, strong_hash, valid_id};
pub use processed::Processed;
pub use records::{Challenge, GameClock, Made, Player, Secrets, SecretsFile, UnknownSide};
pub(crate) use syncers::{Open, sync_all};

/// The data folder.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
    /// Set on a [`Store::batch`] view: writes leave the folder's sync to
    /// [`Store::sync`].
    batch: Option<Arc<BatchView>>,
    /// Set on a [`Store::listing`] view: the names of the players' files.
    players: Option<Arc<HashSet<OsString>>>,
}

/// Holds the data folder's lock until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// Game `id`'s record parsed from `text`, the text of its file (syntax
/// only, not replayed): what every read of a record by its id does.
///
/// # Errors
/// [`StoreError::Record`] naming `id.toml` and the line.
pub fn parse_record(id: &str, text: &str) -> Result<Record, StoreError> {
    Record::parse(&format!("{id}.toml"), text).map_err(|source| StoreError::Record { source })
}

impl Store {
    /// Opens (creating if needed) the data folder at `root`.
    ///
    /// # Errors
    /// When a folder cannot be created.
    pub fn open(root: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let root = root.into();
        // Nearly always all there: a listing of the data folder and one of
        // `outbox/` say so in a few calls, where a `mkdir` of each that
        // finds it there cost two (a tenth of the calls of a one-mail
        // process). What they do not show as a folder (a link to one, a
        // folder made since) goes through `create_dir_all`, as before.
        let folders_in = |dir: &Path| -> HashSet<OsString> {
            fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                        .map(|e| e.file_name())
                        .collect()
                })
                .unwrap_or_default()
        };
        let (top, outbox) = (folders_in(&root), folders_in(&root.join("outbox")));
        let mut spread = false;
        for sub in [
            "games",
            "secrets",
            "challenges",
            "clocks",
            "players",
            "series",
            "tournaments",
            "ratings",
            "bots",
            "conditions",
            "analysis",
            "analysis-queue",
            "confirm",
            "ratelimit",
            "sent",
            "due",
            "index",
            "tmp",
            "outbox/staging",
            "outbox/ready",
            "outbox/digest",
        ] {
            let found = match sub.strip_prefix("outbox/") {
                Some(inner) => outbox.contains(OsStr::new(inner)),
                None => top.contains(OsStr::new(sub)),
            };
            if !found {
                // The folders made from now on, apart ([`files::spread`]):
                // the data folder is made first, to be marked. What stands
                // in its way is told below, of the folder that cannot be
                // made in it.
                if !spread {
                    let _ = fs::create_dir_all(&root);
                    files::spread(&root);
                    spread = true;
                }
                let p = root.join(sub);
                // Placed at random, not where a removed folder of its
                // name was ([`files::make_apart`]).
                if sub.contains('/') || !files::make_apart(&p, &[]).unwrap_or(false) {
                    fs::create_dir_all(&p).map_err(io_err(&p))?;
                }
            }
        }
        // A folder a process killed in [`files::make_apart`] left empty.
        top.iter()
            .filter(|name| files::is_temp_name(name))
            .for_each(|name| drop(fs::remove_dir(root.join(name))));
        Ok(Store {
            root,
            batch: None,
            players: None,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Takes the lock: one poll at a time.
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
            return Err(StoreError::BadId { id: id.to_string() });
        }
        // One allocation for the path (it is made several times a mail).
        let mut p = PathBuf::with_capacity(self.root.as_os_str().len() + kind.len() + id.len() + 7);
        p.push(&self.root);
        p.push(kind);
        p.push(id);
        // Not `set_extension`, which takes the name apart again.
        p.as_mut_os_string().push(".toml");
        Ok(p)
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

    /// Game `id`'s record, read (not replayed); `None` when there is no
    /// such game. Its errors name the file as `ID.toml`, with the line.
    ///
    /// # Errors
    /// Any I/O error but "not found"; a record that does not read.
    pub fn record(&self, id: &str) -> Result<Option<Record>, StoreError> {
        let Some(text) = self.read_game(id)? else {
            return Ok(None);
        };
        parse_record(id, &text).map(Some)
    }

    /// # Errors
    /// Any I/O error; the old record is then untouched.
    pub fn write_game(&self, id: &str, text: &str) -> Result<(), StoreError> {
        self.write_game_known(id, text, None)
    }

    /// [`Store::write_game`] of a record pbem made from one in hand, what
    /// it says of its game `known` ([`index::GameFacts::of_written`]):
    /// its summary in the index is that, the text not read again.
    ///
    /// # Errors
    /// As [`Store::write_game`].
    pub fn write_game_known(
        &self,
        id: &str,
        text: &str,
        known: Option<index::GameFacts>,
    ) -> Result<(), StoreError> {
        let p = self.game_path(id)?;
        self.write_file_known(&p, text, known)
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
                let p = Path::new(p);
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

    /// The secrets of game or challenge `id` (none when it has no file),
    /// side by side as `rules` names the sides.
    ///
    /// # Errors
    /// I/O errors, or a secrets file that is not valid TOML.
    pub fn secrets(&self, id: &str, rules: Rules) -> Result<Secrets, StoreError> {
        Ok(self.secrets_file(id)?.by_side(rules))
    }

    /// The secrets file of `id` as on disk, for what needs no rules (a
    /// damaged game's); none, the default.
    ///
    /// # Errors
    /// I/O errors, or a secrets file that is not valid TOML.
    pub fn secrets_file(&self, id: &str) -> Result<SecretsFile, StoreError> {
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
            let Ok(secrets) = self.secrets_file(&id) else {
                continue;
            };
            if secrets.holds(token) {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Written with mode 0600: only pbem's user may read the tokens. So
    /// is every file the store writes: each is a temporary file made 0600
    /// ([`files::temp_file`]) renamed into place. Keyed by the side names
    /// of `rules`.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_secrets(&self, id: &str, rules: Rules, s: &Secrets) -> Result<(), StoreError> {
        self.write_toml(&self.checked("secrets", id)?, &SecretsFile::new(s, rules))
    }

    /// Whether anything has the id `id`: a game, a challenge, keys or a
    /// clock. A new game or challenge is made only under an id that
    /// nothing has (create-new: nothing a mail says may replace what
    /// exists).
    ///
    /// # Errors
    /// I/O errors.
    pub fn id_taken(&self, id: &str) -> Result<bool, StoreError> {
        for folder in ["games", "challenges", "secrets", "clocks", "confirm"] {
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
    /// [`batch::PendingWrites`]), which would keep its id taken ([`Store::id_taken`])
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

    fn player_path(&self, address: &str) -> PathBuf {
        let a = crate::lines::lowercase(address.trim());
        self.hashed_path("players", &a, "toml")
    }

    /// `DATA/<folder>/<hash>.<ext>`: a file of one address (`key`), named
    /// by its [`stable_hash`] in 16 hex digits, written a digit at a time
    /// (such a path is made a dozen times a mail), and joined as every
    /// path of the store is, from its root.
    fn hashed_path(&self, folder: &str, key: &str, ext: &str) -> PathBuf {
        let mut p =
            PathBuf::with_capacity(self.root.as_os_str().len() + folder.len() + 19 + ext.len());
        p.push(&self.root);
        p.push(folder);
        p.push(ids::hex_name(stable_hash(key.as_bytes()), ext));
        p
    }

    /// A player's settings (the defaults when they set none).
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn player(&self, address: &str) -> Result<Player, StoreError> {
        let lower = crate::lines::lowercase(address.trim());
        let p = self.player_path(&lower);
        let unlisted = self
            .players
            .as_ref()
            .is_some_and(|names| p.file_name().is_none_or(|n| !names.contains(n)));
        let found: Option<Player> = if unlisted { None } else { self.read_toml(&p)? };
        // Two addresses with one hash: the other's file is not ours.
        Ok(found
            .filter(|p| p.address == lower)
            .unwrap_or_else(|| Player {
                address: lower.into_owned(),
                ..Player::default()
            }))
    }

    /// A view of the data folder for a command that names many players
    /// and changes nothing (`pbem games`): the players' folder is listed
    /// once, and a player whose file is not in it has set nothing,
    /// without a look for the file (100,000 games named 200,000 players,
    /// most of whom never set a thing).
    ///
    /// # Errors
    /// When the players' folder cannot be read.
    pub fn listing(&self) -> Result<Store, StoreError> {
        let dir = self.root.join("players");
        let names = fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .flatten()
            .map(|e| e.file_name())
            .collect();
        Ok(Store {
            players: Some(Arc::new(names)),
            ..self.clone()
        })
    }

    /// # Errors
    /// Any I/O error.
    pub fn write_player(&self, player: &Player) -> Result<(), StoreError> {
        self.write_toml(&self.player_path(&player.address), player)
    }

    /// `DATA/sent/<hash>.EXT`, a file of what pbem lately sent `address`.
    fn correspondence_file(&self, address: &str, ext: &str) -> PathBuf {
        self.hashed_path("sent", address, ext)
    }

    /// The text of an advisory file, `None` when there is none or a crash
    /// left it no text; read once as it is, its reader knowing a torn one
    /// ([`files::read_torn_opt`]).
    fn read_advisory(&self, p: &Path) -> Result<Option<String>, StoreError> {
        match self.read_opt_by(p, files::read_torn_opt) {
            Err(StoreError::NotText { .. }) => Ok(None),
            other => other,
        }
    }

    /// What pbem lately sent `address` (lower case): its threads and the
    /// lines of its mails, from the newest whole one of its two
    /// slots; from a file of the single-file form when neither is whole
    /// (a torn write of that form reads as missing). Shared with the
    /// batch, which keeps what it read: to look at; to change it and
    /// write it, [`Store::correspondence`].
    ///
    /// # Errors
    /// I/O errors.
    pub fn sent_memory(&self, address: &str) -> Result<Arc<Correspondence>, StoreError> {
        self.sent_of(address, false, false)
    }

    /// [`Store::sent_memory`] to change and write
    /// ([`Store::write_correspondence`]): taken out of the batch's keeping
    /// until it is written.
    ///
    /// # Errors
    /// I/O errors.
    pub fn correspondence(&self, address: &str) -> Result<Correspondence, StoreError> {
        self.sent_of(address, true, false).map(Arc::unwrap_or_clone)
    }

    /// Changes `address`'s memory of sent lines with `change` and writes
    /// it ([`Store::write_correspondence`]); in a batch, taken from what
    /// the batch changed without a copy. Advisory: one whose files do not
    /// read starts afresh (logged), rather than holding up the reply.
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn change_sent(
        &self,
        address: &str,
        change: impl FnOnce(&mut Correspondence),
    ) -> Result<(), StoreError> {
        let read = self.sent_of(address, true, true).unwrap_or_else(|e| {
            log::warn!("{}", crate::logging::line("sent-file", &[("error", &e)]));
            Arc::new(Correspondence::new(address))
        });
        let mut c = Arc::unwrap_or_clone(read);
        change(&mut c);
        self.write_correspondence(c)
    }

    /// `address`'s memory of sent lines, from the batch's keeping or its
    /// files: kept there (read, to look at) or taken out (`take`, to
    /// change and write). What the batch changed and keeps to write is
    /// shared, or taken out too when `changing` (by
    /// [`Store::change_sent`], which puts it back at once).
    fn sent_of(
        &self,
        address: &str,
        take: bool,
        changing: bool,
    ) -> Result<Arc<Correspondence>, StoreError> {
        let key = self.correspondence_file(address, "0");
        let changed = self.changed_memory(&key, take && changing).flatten();
        let read = match changed.or_else(|| self.cached_sent(&key, take)) {
            Some(read) => read,
            None => {
                // Taken before the slots are read: a change during it
                // keeps them out of the cache.
                let now = files::changes();
                let read = Arc::new(self.read_sent(address)?);
                if !take {
                    self.cache_sent(&key, read.clone(), now);
                }
                read
            }
        };
        Ok(match read.address == address {
            true => read,
            false => Arc::new(correspondence::for_address(&read, address)),
        })
    }

    /// The memory of sent lines in `address`'s files, whoever's it is
    /// (another address may share its hash), with where it was read from;
    /// `address`'s own, empty, when the files hold none.
    fn read_sent(&self, address: &str) -> Result<Correspondence, StoreError> {
        let slots = [
            self.read_advisory(&self.correspondence_file(address, "0"))?,
            self.read_advisory(&self.correspondence_file(address, "1"))?,
        ];
        let mut stored = correspondence::Stored::default();
        let found = match correspondence::newest(slots.each_ref().map(Option::as_deref)) {
            Some((slot, seq, state)) => {
                stored.seq = seq;
                stored.slot = Some(slot);
                state
            }
            None => {
                let legacy = self.read_advisory(&self.correspondence_file(address, "json"))?;
                stored.legacy = legacy.is_some();
                legacy.and_then(|t| Correspondence::from_json(&t))
            }
        };
        Ok(Correspondence {
            stored,
            ..found.unwrap_or_else(|| Correspondence::new(address))
        })
    }

    /// Writes `c` in place, to the slot that does not hold the newest
    /// state on disk (the one it was read from): a crash that tears the
    /// write leaves that state whole. In a batch every write of an address
    /// goes to the slot its first one took, and is kept until the batch's
    /// sync, which writes the last once ([`Store::keep_memory`]).
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_correspondence(&self, mut c: Correspondence) -> Result<(), StoreError> {
        let paths = ["0", "1"].map(|ext| self.correspondence_file(&c.address, ext));
        let slot = match self.memory_slot(&paths[0]) {
            Some(taken) => usize::from(taken == paths[1]),
            None => c.stored.slot.map_or(0, |s| 1 - s),
        };
        // Once the state is in a slot: on a batch, the file goes after the
        // sync that makes the slot durable.
        let legacy = c
            .stored
            .legacy
            .then(|| self.correspondence_file(&c.address, "json"));
        // What the slots hold once it is written: this state in the slot
        // written, the newest.
        c.stored = correspondence::Stored {
            seq: c.stored.seq + 1,
            slot: Some(slot),
            legacy: false,
        };
        if self.batch.is_some() {
            // Written at the sync, once however many replies change it.
            self.keep_memory(&paths[0], &paths[slot], c);
        } else {
            let text = batch::memory_text(&paths[slot], &c)?;
            self.write_in_place(&paths[slot], &text)?;
        }
        match legacy {
            Some(p) => self.remove_file(&p),
            None => Ok(()),
        }
    }

    fn limits_path(&self, address: &str) -> PathBuf {
        self.hashed_path("ratelimit", address, "toml")
    }

    /// The reply limits' file of `address` (lower case), `DATA/ratelimit/
    /// <hash>.toml`, read into `T` (`crate::poll::limit::Tally`); `None`
    /// when there is none. Two addresses may share a hash: the caller
    /// checks that the file is `address`'s.
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn read_limits_file<T: DeserializeOwned>(
        &self,
        address: &str,
    ) -> Result<Option<T>, StoreError> {
        self.read_toml(&self.limits_path(address))
    }

    /// Writes the reply limits' file of `address`, atomically; `None`
    /// (nothing left to remember) removes it.
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write_limits_file<T: Serialize>(
        &self,
        address: &str,
        value: Option<&T>,
    ) -> Result<(), StoreError> {
        let p = self.limits_path(address);
        match value {
            Some(v) => self.write_toml(&p, v),
            None => self.remove_file(&p),
        }
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
    /// the store makes all its temporary files (it used to read
    /// every game's folder at every poll).
    pub fn remove_stale_temps(&self) -> usize {
        let Ok(entries) = fs::read_dir(self.root.join("tmp")) else {
            return 0;
        };
        entries
            .flatten()
            .filter(|e| files::is_temp_name(&e.file_name()))
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
