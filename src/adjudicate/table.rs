//! Which game a mail is about (its plus-address, the subject tag, a
//! Message-ID of pbem's in its thread), what stands on disk for it
//! ([`Table`]), and how its thread is headed.

use super::damage::damaged_record;
use super::names::public_name;
use super::*;
use crate::reply::{ThreadHead, address_of};
use crate::store::SecretsFile;
use crate::store::confirm::Confirmation;

/// Where the game of a mail was named.
pub(super) struct Target {
    pub(super) id: String,
    pub(super) token: Option<String>,
}

/// A game or a challenge waiting for its answer, as found on disk.
pub(super) enum Table {
    Challenge {
        rules: Rules,
        challenge: Challenge,
        secrets: Secrets,
    },
    Game {
        record: Record,
        secrets: Secrets,
    },
    /// A request waiting for its sender to prove the address
    /// ([`crate::store::confirm`]): one "player", who holds its key.
    Confirm {
        id: String,
        request: Confirmation,
    },
    /// A record or challenge pbem cannot read.
    Damaged {
        damage: Damage,
        /// The players' keys and registered addresses, if their file
        /// reads (the game's rules, and so its sides, unknown).
        secrets: Option<SecretsFile>,
    },
}

impl Table {
    pub(super) fn rules(&self) -> Option<Rules> {
        match self {
            Table::Challenge { rules, .. } => Some(*rules),
            Table::Game { record, .. } => Some(record.rules),
            Table::Confirm { .. } | Table::Damaged { .. } => None,
        }
    }

    /// The players, side by side, as "Name <address>" (a game's in the
    /// order of its sides' names, [`Record::players_by_name`]).
    pub(super) fn players(&self) -> Vec<(Side, String)> {
        match self {
            Table::Challenge { challenge, .. } => {
                let theirs = challenge.challenger_side;
                vec![
                    (theirs, challenge.challenger.clone()),
                    (theirs.other(), challenge.opponent.clone()),
                ]
            }
            Table::Game { record, .. } => record
                .players_by_name()
                .map(|(side, m)| (side, m.clone()))
                .collect(),
            Table::Confirm { request, .. } => vec![(Side::A, request.address.clone())],
            Table::Damaged { .. } => Vec::new(),
        }
    }

    pub(super) fn token(&self, side: Side) -> Option<&str> {
        let secrets = match self {
            Table::Challenge { secrets, .. } | Table::Game { secrets, .. } => secrets,
            Table::Confirm { request, .. } => {
                return (side == Side::A).then_some(request.key.as_str());
            }
            Table::Damaged { .. } => return None,
        };
        secrets.tokens[side].as_deref()
    }
}

impl Adjudicator<'_> {
    /// The game, challenge or request `id` names, if there is one. Files
    /// of it that cannot be read (a folder where the record belongs, no
    /// permission, bytes that are no text) make it a damaged game, which
    /// its players and the admin hear of: only a failure that may pass by
    /// itself keeps the mail waiting for the next poll.
    pub(super) fn table(&self, id: &str) -> Result<Option<Table>> {
        match self.read_table(id) {
            Err(AdjudicateError::Data(e)) if !e.is_passing() && !e.is_unwritable() => {
                Ok(Some(Table::Damaged {
                    damage: self.damage(id, &e),
                    secrets: self.desk.secrets_file(id).ok(),
                }))
            }
            other => other,
        }
    }

    /// [`Adjudicator::table`], failing on any file that cannot be read.
    fn read_table(&self, id: &str) -> Result<Option<Table>> {
        if let Some(ch) = self.desk.challenge(id)? {
            let secrets = self.desk.secrets_file(id)?;
            // A challenge whose rules or sides do not read fails above,
            // and `table` makes it a damaged one.
            return Ok(Some(Table::Challenge {
                rules: ch.rules,
                secrets: secrets.by_side(ch.rules),
                challenge: ch,
            }));
        }
        match self.desk.record(id) {
            Ok(Some(record)) => Ok(Some(Table::Game {
                secrets: self.desk.secrets(id, record.rules)?,
                record,
            })),
            // Last, so that a game's mail pays nothing for it.
            Ok(None) => Ok(self.desk.confirmation(id)?.map(|request| Table::Confirm {
                id: id.to_string(),
                request,
            })),
            // Bytes that are not UTF-8 or a record that does not parse: a
            // damaged game, not a store failure that keeps the mail waiting.
            Err(e) if damaged_record(&e) => Ok(Some(Table::Damaged {
                damage: self.damage(id, &e),
                secrets: self.desk.secrets_file(id).ok(),
            })),
            Err(e) => Err(e.into()),
        }
    }

    /// Finds the game a mail is about: the plus-address, the subject tag
    /// `[pbem <id>]`, or a Message-ID of pbem's in its thread.
    pub(super) fn target(&self, mail: &Inbound) -> Option<Target> {
        let (local, domain) = self.identity.local_domain();
        let prefix = format!("{}+", local.to_lowercase());
        for r in &mail.recipients {
            if let Some(rest) = r.strip_prefix(&prefix)
                && let Some((tag, d)) = rest.split_once('@')
                && d.eq_ignore_ascii_case(domain)
            {
                let (id, token) = match tag.split_once('.') {
                    Some((i, t)) => (i, Some(t.to_string())),
                    None => (tag, None),
                };
                if store::valid_id(id) {
                    return Some(Target {
                        id: id.to_string(),
                        token,
                    });
                }
            }
        }
        let subj = mail.subject.to_lowercase();
        if let Some(i) = subj.find("[pbem ") {
            let id: String = subj[i + 6..].chars().take_while(|c| *c != ']').collect();
            let id = id.trim();
            if store::valid_id(id) {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        for t in &mail.thread {
            if let Some(rest) = t.strip_prefix("<pbem.")
                && let Some((id, _)) = rest.split_once('.')
                && store::valid_id(id)
            {
                return Some(Target {
                    id: id.to_string(),
                    token: None,
                });
            }
        }
        None
    }

    /// How the mails of game (or challenge) `id` to its players are headed
    /// (one thread per game and player): the subject of every
    /// mail of the game, `[pbem bz-7k2q] Boom & Zoom: Alice vs Bob` (the
    /// players' names in the order of their sides), and each player's
    /// "Name <address>" as the game knows it, so that every mail's `To`
    /// has one form. `None` when the game's players cannot be read.
    pub fn thread_head(&self, id: &str) -> Option<ThreadHead> {
        // Only the challenge or the record: the head needs no keys, and
        // what does not read has no head.
        let (rules, players, names): (Rules, Vec<String>, Vec<String>) =
            match self.desk.challenge(id).ok()? {
                // Until the opponent accepts, the challenger is a stranger to
                // them: no name of their choosing in the subject, only the
                // local part of their address.
                Some(challenge) => {
                    let mut p = vec![
                        address_of(&challenge.challenger),
                        challenge.opponent.clone(),
                    ];
                    if challenge.challenger_side != Side::A {
                        p.reverse();
                    }
                    let names = p.iter().map(|m| public_name(self.identity, m)).collect();
                    (challenge.rules, p, names)
                }
                None => {
                    let (rules, players) = self.desk.game_head(id).ok()??;
                    let names = players.iter().map(|m| self.name_of(m)).collect();
                    (rules, players, names)
                }
            };
        // Each named as pbem names people (a name, or the local part of an
        // address before one is known; never the address). Each player's
        // thread keeps the subject its first mail had.
        let subject = self
            .templates
            .line(
                "_thread",
                context! { id, game => rules.name(), players => names },
            )
            .ok()?;
        (!subject.is_empty()).then(|| ThreadHead {
            subject: subject.to_string(),
            players,
        })
    }
}
