//! News held for a digest ("a daily or per-poll digest option
//! for players with many games, instead of one mail per event"). Mail
//! path: inside the outbox, beside staging: a reply that is news for a
//! player who asked for digests is not built into a mail but held, and
//! the poll's digest step ([`crate::poll`]) later gathers it into one.
//!
//! Crash safety: held news takes the same exactly-once path as every
//! reply: it is staged with the mail that caused it (in memory, then at
//! the batch's commit as `<idx>.<n>.held.json` in its staging folder,
//! beside the pack of replies), committed with it, and moved into
//! `DATA/outbox/digest/` on release ([`Outbox::release_held`], done again
//! harmlessly after a crash).

use super::{Outbox, sync_dir};
use crate::reply::Rendered;
use crate::reply::{Reply, address_of};
use crate::store::{StoreError, io_err as io};
use crate::timecontrol::DigestMode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::Path;

/// The end of a held news file's name.
pub const SUFFIX: &str = ".held.json";

/// Which replies of a commit may wait for a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// None: they are digests already.
    Never,
    /// News for players who asked for digests; `urgent` news (a final
    /// notice, a loss on time) takes their waiting news out at once.
    News { urgent: bool },
}

/// A reply waiting for its digest, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Held {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub game: Option<String>,
    pub reply_to: Option<String>,
    /// How its game's mails are headed: a lone held news goes out as
    /// itself, in its game's thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<crate::reply::ThreadHead>,
    pub urgent: bool,
    pub at: DateTime<Utc>,
}

impl Held {
    /// The reply it was held from (only news is held).
    pub fn into_reply(self) -> Reply {
        Reply {
            kind: crate::reply::Kind::News,
            to: self.to,
            rendered: Rendered {
                subject: self.subject,
                text: self.text,
                // A digest gathers the texts of its news; it has no board
                // table of its own.
                html: None,
            },
            game: self.game,
            reply_to: self.reply_to,
            head: self.head,
        }
    }
}

impl Outbox<'_> {
    /// Whether `reply` waits for a digest: it is news (not the answer to
    /// `sender`'s own mail) for a player who asked for digests.
    pub(super) fn held(&self, reply: &Reply, sender: Option<&str>) -> Result<bool, StoreError> {
        let to = address_of(&reply.to);
        if sender == Some(to.as_str()) {
            return Ok(false);
        }
        Ok(self.store.player(&to)?.digest != DigestMode::Off)
    }

    /// `reply` as held news, as it is staged with the replies of a commit
    /// (written at the commit as `<idx>.<n>.held.json`, beside the pack).
    pub(super) fn held_json(
        &self,
        reply: &Reply,
        urgent: bool,
        now: DateTime<Utc>,
    ) -> Result<String, StoreError> {
        let held = Held {
            to: reply.to.clone(),
            subject: reply.rendered.subject.clone(),
            text: reply.rendered.text.clone(),
            game: reply.game.clone(),
            reply_to: reply.reply_to.clone(),
            head: reply.head.clone(),
            urgent,
            at: now,
        };
        serde_json::to_string(&held).map_err(|source| StoreError::Json {
            what: "a held mail".into(),
            source,
        })
    }

    /// Moves a committed batch's held news into the digest queue (before
    /// the batch goes to `ready/`; again after a crash, harmlessly).
    pub(super) fn release_held(&self, staging: &Path, batch: &str) -> Result<(), StoreError> {
        let Ok(entries) = fs::read_dir(staging) else {
            return Ok(());
        };
        let queue = self.store.outbox_digest();
        let mut moved = false;
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(SUFFIX) {
                let dest = queue.join(format!("{batch}-{name}"));
                crate::store::crashpoint::reach();
                fs::rename(e.path(), &dest).map_err(io(&dest))?;
                moved = true;
            }
        }
        if moved {
            sync_dir(&queue);
            // The folder they left too: a crash leaves each in one
            // folder, not in both.
            sync_dir(staging);
        }
        Ok(())
    }
}
