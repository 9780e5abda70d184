//! Requests that wait for their sender to prove the address
//! ([`crate::store::confirm`]): `join NAME` and `leave NAME` from a mail
//! that carries no key of the sender's (a From anyone can forge) count
//! only once a reply carrying a key pbem mailed to that address comes
//! back: a double opt-in. A mail that proved its sender (a reply in one of
//! their games, whose address carries their key, or a DMARC pass the
//! admin trusts) is carried out at once.
//!
//! What a stranger can make pbem send this way is one mail to the forged
//! address per request, with pbem's words only (the tournament's name is
//! the admin's): an answer to that address's "own" mail, which the reply
//! limits count ([`crate::poll::limit`]). At most
//! [`MAX_OPEN_REQUESTS`] wait for one mailbox at once, each for
//! [`REQUEST_DAYS`] days; asking the same again mails the same request.

use super::*;
use crate::reply::{mailbox, mailbox_key};
pub(super) use crate::store::confirm::{Action, Confirmation};

/// Requests that may wait for one mailbox (any `+tag`) at once.
pub const MAX_OPEN_REQUESTS: usize = 3;

/// How long a request waits for its confirmation; a confirmed one is kept
/// as long, so that a confirmation handled again is answered the same.
pub const REQUEST_DAYS: i64 = 7;

impl Action {
    /// The request command `c` makes, if it makes one.
    pub(super) fn of(c: &Command) -> Option<Action> {
        match c {
            Command::Join(name) => Some(Action::Join {
                tournament: name.clone(),
            }),
            Command::Leave(name) => Some(Action::Leave {
                tournament: name.clone(),
            }),
            _ => None,
        }
    }

    /// The command that asked, as the player wrote it.
    fn command(&self) -> String {
        match self {
            Action::Join { tournament } => format!("join {tournament}"),
            Action::Leave { tournament } => format!("leave {tournament}"),
        }
    }
}

impl Adjudicator<'_> {
    /// Whether `mail` proved its sender's address: it came in a thread of
    /// theirs with its key (`thread`), or with a DMARC pass the admin
    /// trusts.
    pub(super) fn proven(&self, mail: &Inbound, thread: Option<&str>) -> bool {
        thread.is_some() || self.dmarc_pass(mail)
    }

    /// `action`, asked by `from` in `mail` without proof of the address:
    /// the request made (or found again: the same mail handled again, or
    /// the same request still waiting), and the mail that asks `from` to
    /// confirm it. Refused when too many wait for that mailbox.
    pub(super) fn ask_confirmation(
        &self,
        from: &str,
        mail: &Inbound,
        action: Action,
    ) -> Result<(Vec<Letter>, bool)> {
        let source = store::strong_hash(&[
            b"confirm",
            from.as_bytes(),
            mail.message_id.as_deref().unwrap_or_default().as_bytes(),
            mail.body.as_bytes(),
            action.command().as_bytes(),
        ]);
        let since = self.now - chrono::Duration::days(REQUEST_DAYS);
        let mut open = Vec::new();
        for id in self.desk.confirmation_ids()? {
            // A request that does not read is as good as gone.
            let Ok(Some(c)) = self.desk.confirmation(&id) else {
                continue;
            };
            if c.created <= since {
                self.desk.remove_confirmation(&id)?;
                continue;
            }
            let waiting = c.done.is_none() && c.address == from && c.action == action;
            if c.source == source || waiting {
                return Ok((vec![self.confirmation_letter(&id, &c)?], false));
            }
            if c.done.is_none() && mailbox_key(&c.address) == mailbox_key(from) {
                open.push(id);
            }
        }
        if open.len() >= MAX_OPEN_REQUESTS {
            let reason = self.words(
                "too_many_requests",
                context! { count => open.len(), days => REQUEST_DAYS },
            )?;
            let refusal = Refusal::new(action.command(), reason);
            return Ok((vec![self.reject(from, None, refusal)?], true));
        }
        let id = self.fresh_request_id()?;
        let c = Confirmation {
            action,
            mailbox: mailbox(mail.from_name.as_deref(), from),
            address: from.to_string(),
            key: self.draw.token()?,
            source,
            created: self.now,
            done: None,
            declined: false,
        };
        self.desk.write_confirmation(&id, &c)?;
        Ok((vec![self.confirmation_letter(&id, &c)?], false))
    }

    /// A fresh id for a request, that nothing has.
    fn fresh_request_id(&self) -> Result<String> {
        for _ in 0..16 {
            let id = self.draw.game_id("ok")?;
            if !self.desk.id_taken(&id)? {
                return Ok(id);
            }
        }
        Err(StoreError::NoFreeId {
            what: "confirm",
            tries: 16,
        }
        .into())
    }

    /// The mail that asks the sender of request `id` to confirm it: its
    /// reply address carries the request's key.
    fn confirmation_letter(&self, id: &str, c: &Confirmation) -> Result<Letter> {
        let (action, name) = match &c.action {
            Action::Join { tournament } => ("join", tournament),
            Action::Leave { tournament } => ("leave", tournament),
        };
        let begun = self
            .desk
            .tournament(name)?
            .is_some_and(|t| !t.played.is_empty());
        let text = self.words("confirm_what", context! { action, name, begun })?;
        let title = self.words("title", context! { of => "confirm", action, name })?;
        Ok(Letter {
            to: c.mailbox.clone(),
            kind: Kind::Answer,
            template: "confirm",
            context: context! { id, title, text, days => REQUEST_DAYS },
            game: None,
            reply_to: Some(self.identity.reply_to(id, &c.key)),
        })
    }

    /// A reply carrying request `id`'s key, from its address: `decline`
    /// drops the request, anything else carries it out (the route sends
    /// `accept` for whatever the reply said); a request answered before
    /// is answered the same again.
    pub(super) fn confirm(
        &self,
        m: &GameMail<'_>,
        id: &str,
        mut c: Confirmation,
    ) -> Result<Handled> {
        let from = m.from;
        let decline = m.commands.first() == Some(&Command::Decline) && c.done.is_none();
        // Kept, marked, as a confirmed one is: the same answer again for a
        // mail handled again.
        if decline || c.declined {
            if decline {
                c.done = Some(self.now);
                c.declined = true;
                self.desk.write_confirmation(id, &c)?;
            }
            let text = self.words(
                "request_dropped",
                context! { command => c.action.command() },
            )?;
            let title = self.words("title", context! { of => "confirm", action => "dropped" })?;
            return Ok(Handled {
                letters: vec![self.info(from, &title, &text, None)?],
                fate: Fate::RequestDropped {
                    id: id.to_string(),
                    by: from.to_string(),
                },
                ..Handled::default()
            });
        }
        let command = Command::from_action(&c.action);
        // Confirmed before (a crash came before this mail's commit): the
        // same answer again, not "you are in already". The mark goes
        // first, so that it reaches the disk no later than what the
        // request changes (the batch puts a tournament after every file
        // changed before it).
        let (letters, refused) = match c.done {
            Some(_) => self.enrolled_again(&c.mailbox, &command)?,
            None => {
                c.done = Some(self.now);
                self.desk.write_confirmation(id, &c)?;
                self.enrol(&c.mailbox, &command, None)?
            }
        };
        Ok(Handled {
            letters,
            fate: Fate::RequestConfirmed {
                id: id.to_string(),
                by: from.to_string(),
                command: c.action.command().to_string(),
            },
            failed: refused,
            ..Handled::default()
        })
    }
}

impl Command {
    /// The command a confirmed request carries out.
    fn from_action(a: &Action) -> Command {
        match a {
            Action::Join { tournament } => Command::Join(tournament.clone()),
            Action::Leave { tournament } => Command::Leave(tournament.clone()),
        }
    }
}
