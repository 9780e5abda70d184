//! The outbox: every reply between the adjudicator's decision and the
//! transport. Mail path: `source -> parse -> command -> adjudicate ->
//! compose -> outbox -> transport`; the poll ([`crate::poll`]) hands the
//! outbox the replies of a batch of mails, the outbox hands each finished
//! mail to a [`crate::transport::Transport`].
//!
//! One reply's way through it, in the order of the files:
//! 1. [`stage`]: rendered into a raw mail (threaded per player)
//!    and kept in memory with the other replies of its batch
//!    ([`Outgoing`]); news for a player who asked for digests is held
//!    apart ([`held`]);
//! 2. [`commit`]: at the batch's commit, its staging folder
//!    `outbox/staging/<name>/` is written: one pack ([`pack`]) holding
//!    every reply of the batch, `keys` naming its mails (the seal), and
//!    the rare held news (`<idx>.<n>.held.json`); the store is synced
//!    ([`Store::sync`]: the batch's records, clocks and other files go
//!    to disk with it); only then are the keys appended to their files in
//!    `processed/` and synced: the commit point. The staging folder is
//!    then released: renamed into `outbox/ready/`, its held news moved to
//!    `outbox/digest/`;
//! 3. [`queue`]: [`flush`] sends the pack's replies in order through the
//!    transport, noting each in the folder's `sent`; a reply refused for
//!    good becomes a dead letter ([`dead`]).
//!
//! The replies wait in memory, not in a file each, because on ext4
//! without a journal each file made costs more the more were freed in the
//! last seconds: a batch makes three files for all its replies (the pack,
//! `keys`, and the flush's `sent`), where each reply used to make one and
//! free one.
//!
//! # Crash safety
//!
//! A crash before the keys are committed leaves the staging folder
//! unsealed or its keys uncommitted: [`recover`] throws it away at the
//! next start and the mails are handled again (the adjudicator finds
//! their Message-IDs in the records where the writes survived, and
//! changes nothing twice). A crash in the middle of the commit may commit
//! some keys of the batch and not others (an append to `processed/`
//! torn); each committed one has its record and replies on disk already,
//! and the next start rewrites the pack with their replies alone (a new
//! file, synced, renamed over the old one), removes the others' held
//! news, and releases the folder. A crash after the commit finds the
//! staging folder committed and moves it to `ready/`. So no reply is
//! queued before its record is durable, and each reply is queued once.
//! An admin's command's folder is committed when its record is on disk
//! ([`crate::store::Made`]). One outbox user at a time: the data folder's lock.

use crate::adjudicate::ChallengeLimits;
use crate::mail::templates::Templates;
use crate::reply::Identity;
use crate::store::{Store, sync_folder};
use std::path::Path;

pub mod commit;
pub mod dead;
pub mod held;
pub mod pack;
pub mod queue;
pub mod recover;
pub mod stage;

pub use held::Hold;
pub use queue::{Flushed, Released, Sending, flush, queued, queued_by_batch};
pub use stage::{Outgoing, Replies};

/// A staging folder's list of its mails: `<idx> <key>` a line, for each
/// mail with replies in it (the seal: a folder without it was never
/// sealed, so none of its mails was committed).
pub const KEYS: &str = "keys";

/// What the outbox works with: the data folder (a poll's
/// [`Store::batch`] view, or an admin's command's), and what staging a
/// reply needs to thread it (pbem's identity, and a look at the game
/// through an adjudicator made of these).
pub struct Outbox<'a> {
    pub store: &'a Store,
    pub identity: &'a Identity,
    pub templates: &'a Templates,
    pub challenges: ChallengeLimits,
}

/// [`sync_folder`], its failure left to the next poll (the outbox's
/// folders: a rename lost to a crash is done again by recovery).
pub fn sync_dir(p: &Path) {
    let _ = sync_folder(p);
}

#[cfg(test)]
mod tests;
