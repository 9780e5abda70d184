//! Who is who: whether
//! a mail's sender proved they play the game (their key, or DMARC from
//! the admin's own MTA), and what is done with a mail that did not: a
//! player's address without its key, a stranger, a key used by another
//! address.

use super::*;
use crate::reply::address_of;

/// Who wrote a mail, as far as one game is concerned ("Who may
/// move").
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Standing {
    /// A player who proved it, with their key or (if trusted) DMARC: the
    /// side they play.
    Player(Side),
    /// A player's address without a valid key: perhaps forged.
    Unproven,
    /// Not a player.
    Stranger,
    /// The record cannot be read, and the sender's address or key is in
    /// it.
    Unreadable(Damage),
}

/// Whose key a mail carried, when it did not prove its sender a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Key {
    /// None.
    Missing,
    /// No key pbem gave out: mistyped, made up, or of a game long gone.
    Unknown,
    /// The key of a player: of `side` in game (or challenge) `id` of
    /// `rules`, which may be another game than the mail's; `player` is
    /// "Name <address>".
    Of {
        id: String,
        rules: Rules,
        side: Side,
        player: String,
    },
}

impl Key {
    /// "without a key", "with the key of black in bz-1 (alice@...)": for
    /// the log.
    pub(super) fn words(&self) -> String {
        match self {
            Key::Missing => "without a key".into(),
            Key::Unknown => "with a key pbem never gave out".into(),
            Key::Of {
                id,
                rules,
                side,
                player,
            } => format!(
                "with the key of {} in {id} ({})",
                rules.side_name(*side),
                address_of(player)
            ),
        }
    }
}

/// The sender of a mail, as the check of their standing needs them.
pub(super) struct Who<'a> {
    pub(super) from: &'a str,
    pub(super) mail: &'a Inbound,
    /// The key the mail carried, in its address or its text.
    pub(super) token: Option<&'a str>,
}

impl Table {
    /// Whether `from` proved they play: their address with the key of
    /// their side, or their address alone when the admin's MTA vouched
    /// for it (`dmarc_pass`) and it plays one side only.
    pub(super) fn standing(&self, from: &str, token: Option<&str>, dmarc_pass: bool) -> Standing {
        if let Table::Damaged { damage, secrets } = self {
            // Exact matches only: a key of the game, or an
            // address pbem registered as a player; never a substring of
            // the damaged text.
            let known = secrets
                .as_ref()
                .is_some_and(|s| token.is_some_and(|t| s.holds(t)) || s.registered(from));
            return if known {
                Standing::Unreadable(damage.clone())
            } else {
                Standing::Stranger
            };
        }
        let mine: Vec<Side> = self
            .players()
            .into_iter()
            .filter(|(_, m)| address_of(m) == from)
            .map(|(s, _)| s)
            .collect();
        if let Some(&s) = mine
            .iter()
            .find(|&&s| token.is_some() && token == self.token(s))
        {
            Standing::Player(s)
        } else if mine.len() == 1 && dmarc_pass {
            Standing::Player(mine[0])
        } else if mine.is_empty() {
            Standing::Stranger
        } else {
            Standing::Unproven
        }
    }
}

impl Adjudicator<'_> {
    /// Whether `who` proved they play game `id` (`table`): their side;
    /// none when they did not and the mail is not `about_game` (a
    /// `help` in a game's thread); else what becomes of the mail.
    pub(super) fn check_sender(
        &self,
        who: &Who<'_>,
        id: &str,
        table: &Table,
        about_game: bool,
    ) -> Result<std::result::Result<Option<Side>, Handled>> {
        let from = who.from;
        Ok(Err(
            match table.standing(from, who.token, self.dmarc_pass(who.mail)) {
                Standing::Player(s) => return Ok(Ok(Some(s))),
                _ if !about_game => return Ok(Ok(None)),
                Standing::Unproven => {
                    let key = self.whose_key(id, table, who.token)?;
                    self.spoofed(from, id, table, key)?
                }
                Standing::Unreadable(damage) => self.damaged(from, damage)?,
                // Not for a stranger's eyes, but the admin and the players
                // hear of a damaged game all the same.
                Standing::Stranger if let Table::Damaged { damage, .. } = table => Handled {
                    damage: Some(damage.clone()),
                    ..failed(
                        Vec::new(),
                        Fate::NotAPlayer {
                            from: from.to_string(),
                            id: id.to_string(),
                        },
                    )
                },
                Standing::Stranger => {
                    let key = self.whose_key(id, table, who.token)?;
                    self.stranger(from, id, key)?
                }
            },
        ))
    }

    pub(super) fn dmarc_pass(&self, mail: &Inbound) -> bool {
        let Some(trusted) = &self.identity.trusted_authserv else {
            return false;
        };
        // Only the topmost header: the one the admin's MTA added last. A
        // sender can write any header below it (RFC 8601, section 7.2).
        // Parsed by RFC 8601, for the domain of this mail's From alone.
        let Some(domain) = mail.from.as_deref().and_then(|f| f.rsplit_once('@')) else {
            return false;
        };
        mail.authentication_results
            .first()
            .is_some_and(|h| crate::mail::authres::dmarc_passed(h, trusted, domain.1))
    }

    /// Whose key `token` is, when it did not prove its sender a player of
    /// game `id`: a side's of this game, or a
    /// player's of another game or challenge (every secrets file is read:
    /// this happens only for refused mail), or nobody's.
    pub(super) fn whose_key(&self, id: &str, table: &Table, token: Option<&str>) -> Result<Key> {
        let Some(token) = token else {
            return Ok(Key::Missing);
        };
        let of = |id: &str, t: &Table| {
            t.players()
                .into_iter()
                .find(|(s, _)| t.token(*s) == Some(token))
                .and_then(|(s, player)| {
                    Some(Key::Of {
                        id: id.to_string(),
                        rules: t.rules()?,
                        side: s,
                        player,
                    })
                })
        };
        if let Some(k) = of(id, table) {
            return Ok(k);
        }
        let Some(other) = self.desk.key_owner(token)? else {
            return Ok(Key::Unknown);
        };
        Ok(self
            .table(&other)?
            .and_then(|t| of(&other, &t))
            .unwrap_or(Key::Unknown))
    }

    /// A mail for a game from a player's address without their key:
    /// nothing moves, and the registered address is told (it is the
    /// sender's, so a forger learns nothing), and so is the player whose
    /// key it carried, if it was another's.
    pub(super) fn spoofed(&self, from: &str, id: &str, table: &Table, key: Key) -> Result<Handled> {
        let game = table.rules().map_or("", Rules::name);
        let (whose, other) = match &key {
            Key::Missing => ("missing", None),
            Key::Unknown => ("unknown", None),
            Key::Of {
                id: k, rules, side, ..
            } if k == id => ("opponent", Some(rules.side_name(*side))),
            Key::Of { id: k, player, .. } if address_of(player) == from => {
                ("other_game", Some(k.as_str()))
            }
            Key::Of { .. } => ("another_player", None),
        };
        let why = self.words("spoofed_why", context! { whose, other })?;
        let mut replies = vec![Letter {
            to: from.to_string(),
            kind: Kind::Warning,
            template: "spoofed",
            context: context! { id, game, why, received => self.time_for(from, self.now)? },
            game: Some(id.to_string()),
            reply_to: None,
        }];
        let mut told = "the registered address was told".to_string();
        if let Some(warning) = self.key_warning(from, id, &key)? {
            told = format!("{told}, and so was {}", address_of(&warning.to));
            replies.push(warning);
        }
        Ok(failed(
            replies,
            Fate::RefusedKey {
                from: from.to_string(),
                id: id.to_string(),
                key: key.words(),
                told,
            },
        ))
    }

    /// A mail for a game from an address that plays no side in it: nothing
    /// moves, nothing is answered (a stranger learns nothing of a game);
    /// when it carried a player's key, that player is told.
    pub(super) fn stranger(&self, from: &str, id: &str, key: Key) -> Result<Handled> {
        Ok(match self.key_warning(from, id, &key)? {
            Some(warning) => {
                let owner = address_of(&warning.to);
                failed(
                    vec![warning],
                    Fate::RefusedStranger {
                        from: from.to_string(),
                        id: id.to_string(),
                        key: key.words(),
                        owner,
                    },
                )
            }
            None => failed(
                Vec::new(),
                Fate::NotAPlayer {
                    from: from.to_string(),
                    id: id.to_string(),
                },
            ),
        })
    }

    /// The warning to a player whose key came in a mail from another
    /// address (`from`), if it did.
    pub(super) fn key_warning(
        &self,
        from: &str,
        target: &str,
        key: &Key,
    ) -> Result<Option<Letter>> {
        let Key::Of {
            id,
            rules,
            side,
            player,
        } = key
        else {
            return Ok(None);
        };
        if address_of(player) == from {
            return Ok(None);
        }
        let game = self
            .table(id)?
            .and_then(|t| t.rules())
            .map_or("", Rules::name);
        Ok(Some(Letter {
            to: player.clone(),
            kind: Kind::Warning,
            template: "key_used",
            context: context! {
                id, game, side => rules.side_name(*side), target, sender => from, address => address_of(player),
                // When pbem received the mail, in the reader's zone: the
                // one thing of a stranger's mail repeated to a third party
                // (its subject or Message-ID would carry their text).
                received => self.time_for(player, self.now)?,
            },
            game: Some(id.clone()),
            reply_to: None,
        }))
    }
}
