//! Staging: a batch's replies rendered into raw mails and kept in memory
//! until the batch's commit ([`super::commit`]). Mail path: the outbox's
//! first step, right after the adjudicator (`adjudicate -> compose ->
//! outbox`): each reply is threaded per player and built into
//! the mail that will be sent ([`outbound::build`]).
//!
//! Crash safety: nothing staged is on disk until the commit writes the
//! staging folder; a mail that fails (or panics) before its commit leaves
//! nothing in the batch ([`Outgoing::forget`]). The one file written
//! here, what pbem lately sent each player (threading and the quotes it
//! recognises), goes through the store's batch view and reaches the disk
//! with the batch.

use super::{Hold, Outbox, pack};
use crate::mail::{inbound::Inbound, outbound};
use crate::reply::{Reply, address_of, mailbox};
use crate::store::{Correspondence, StoreError, stable_hash};
use chrono::{DateTime, Utc};
use std::sync::Arc;

/// The replies of a batch (or of a commit of one), in memory until its
/// commit: then written as one pack, and the rare held news as files
/// beside it ([`Outbox::write_staging`]).
#[derive(Default)]
pub struct Outgoing {
    pub(super) pack: Vec<pack::Entry>,
    /// News held for digests: name and JSON ([`Outbox::held_json`]).
    pub(super) held: Vec<(pack::Id, String)>,
    /// The mails with replies (or held news) here: their number in the
    /// batch and their key, for the staging folder's `keys`.
    pub(super) listed: Vec<(usize, String)>,
}

impl Outgoing {
    /// Drops what mail `idx` staged (it failed after staging).
    pub fn forget(&mut self, idx: usize) {
        self.pack.retain(|e| e.id.idx != idx);
        self.held.retain(|(id, _)| id.idx != idx);
        self.listed.retain(|(i, _)| *i != idx);
    }

    /// The key of the first mail with replies: the staging folder's name
    /// comes from it ([`Outbox::staging_folder`]).
    pub(super) fn first_key(&self) -> Option<&str> {
        self.listed.first().map(|(_, k)| k.as_str())
    }
}

/// The replies of one mail (or one notice) to stage.
pub struct Replies<'r> {
    /// The mail's number in its batch (0 for a batch of one).
    pub idx: usize,
    /// The mail's key, committed with its replies.
    pub key: &'r str,
    pub replies: &'r [Reply],
    /// The mail they answer, if any: threading and who is answered.
    pub mail: Option<&'r Inbound>,
    /// Which of them may wait for a digest.
    pub hold: Hold,
}

impl Outbox<'_> {
    /// Renders the replies of `r` into `out` (news held for a digest
    /// apart), where they stay until the commit. Returns whether anything
    /// was added; on an error, nothing of this mail is left in `out`.
    ///
    /// # Errors
    /// A player's settings or the sent-mail file that cannot be read or
    /// written.
    pub fn stage(
        &self,
        out: &mut Outgoing,
        r: &Replies<'_>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let before = (out.pack.len(), out.held.len());
        match self.stage_all(out, r, now) {
            Ok(()) => {
                let added = before != (out.pack.len(), out.held.len());
                if added {
                    out.listed.push((r.idx, r.key.to_string()));
                }
                Ok(added)
            }
            Err(e) => {
                out.pack.truncate(before.0);
                out.held.truncate(before.1);
                Err(e)
            }
        }
    }

    /// Renders the replies of [`Outbox::stage`].
    fn stage_all(
        &self,
        out: &mut Outgoing,
        r: &Replies<'_>,
        now: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let h = stable_hash(r.key.as_bytes());
        let sender = r.mail.and_then(|m| m.from.as_deref());
        for (n, reply) in r.replies.iter().enumerate() {
            let id = pack::Id { idx: r.idx, n };
            if let Hold::News { urgent } = r.hold
                && self.held(reply, sender)?
            {
                out.held.push((id, self.held_json(reply, urgent, now)?));
                continue;
            }
            let message_id = format!(
                "<pbem.{}.{h:016x}.{n}@{}>",
                reply.game.as_deref().unwrap_or("x"),
                self.identity.domain()
            );
            if let Some(entry) = self.thread_and_build(reply, r, id, &message_id, now)? {
                out.pack.push(entry);
            }
        }
        Ok(())
    }

    /// One reply, threaded for its recipient and built: `None` when its
    /// recipient is not an address (logged; the others go). What pbem
    /// sent them is noted for the next reply's threading.
    fn thread_and_build(
        &self,
        reply: &Reply,
        r: &Replies<'_>,
        id: pack::Id,
        message_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<pack::Entry>, StoreError> {
        let game = reply.game.as_deref();
        // Threaded per player: In-Reply-To the player's own mail this
        // answers, else the last mail pbem sent them in the game;
        // References only what they have seen.
        let to = address_of(&reply.to);
        // Advisory: a file that does not read starts afresh (and is
        // written anew), rather than holding up the reply. Looked at to
        // build the reply, changed once it is built (a reply not built
        // leaves it as it was): the change reads it again, and tells of
        // a file that does not read.
        let look = self
            .store
            .sent_memory(&to)
            .unwrap_or_else(|_| Arc::new(Correspondence::new(&to)));
        let answering = r
            .mail
            .filter(|m| m.from.as_deref() == Some(to.as_str()))
            .and_then(|m| m.message_id.as_deref());
        let (in_reply_to, refs) = match game {
            Some(g) => look.headers(g, answering),
            None => (answering.map(str::to_string), Vec::new()),
        };
        let (name, subject) = addressed(reply, &look, r.mail.filter(|_| answering.is_some()), &to);
        let heading = outbound::Heading {
            to: name.as_deref().unwrap_or(&reply.to),
            subject: subject.as_deref().unwrap_or(&reply.rendered.subject),
        };
        let built = outbound::build_headed(
            self.identity,
            reply,
            heading,
            message_id,
            in_reply_to.as_deref(),
            &refs,
            now,
        );
        let outbound::Built { raw, envelope } = match built {
            Ok(b) => b,
            // A recipient that is not an address: log it, send the rest.
            Err(e) => {
                log::warn!(
                    "{}",
                    crate::logging::line("reply-dropped", &[("key", &r.key), ("error", &e)])
                );
                return Ok(None);
            }
        };
        // Shared no more: changed without a copy.
        drop(look);
        let today = crate::store::correspondence::iso_day(now.date_naive());
        self.store.change_sent(&to, |corr| {
            corr.sent(
                game,
                heading.subject,
                message_id,
                answering,
                &reply.rendered.text,
                &today,
            )
        })?;
        Ok(Some(pack::Entry {
            id,
            envelope: Some(envelope),
            raw,
        }))
    }
}

/// How `reply` goes to `to`, where it differs from the reply's own
/// recipient and subject: in a game, the name the player has there and
/// the thread's subject; else, answering `mail`, the name its sender
/// gave (`None`: as the reply has it).
fn addressed(
    reply: &Reply,
    corr: &Correspondence,
    mail: Option<&Inbound>,
    to: &str,
) -> (Option<String>, Option<String>) {
    let game = reply.game.as_deref();
    let head = reply.head.as_ref().filter(|_| game.is_some());
    if let Some((head, player)) = head.and_then(|h| Some((h, h.player(to)?))) {
        let subject = game.and_then(|g| corr.subject(g));
        (
            Some(player.to_string()),
            Some(subject.unwrap_or(&head.subject).to_string()),
        )
    } else if let Some(m) = mail {
        (Some(mailbox(m.from_name.as_deref(), to)), None)
    } else {
        (None, None)
    }
}
