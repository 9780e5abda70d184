//! Damaged games: a record or challenge
//! that does not read or replay; the refusal of a mail for it and the
//! notices to the admin and the players.

use super::*;
use crate::reply::{Reply, address_of};

/// A game pbem cannot use: its record (or its challenge) does not read or
/// does not replay. pbem
/// refuses to touch it until it is mended, and goes on with the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The game's id.
    pub id: String,
    /// What the reader says, with the file and line:
    /// `bz-7k2q.toml:14: 22-13 is not a legal move ...`.
    pub error: String,
    /// The file to mend.
    pub file: std::path::PathBuf,
    /// The file is a game record, which `pbem validate` checks.
    pub record: bool,
}

impl Damage {
    /// The key its notice is committed under: one per game and distinct
    /// error, so the admin and the players are told once, not at every
    /// poll, and told again when the record breaks anew.
    pub fn key(&self) -> String {
        format!(
            "damaged:{}:{:016x}",
            self.id,
            store::stable_hash(self.error.as_bytes())
        )
    }
}

/// Whether a failed read of a game's record says the record is damaged
/// (bytes that are not UTF-8, or text that does not parse) rather than
/// that the data folder could not be read.
pub(super) fn damaged_record(e: &StoreError) -> bool {
    matches!(e, StoreError::NotText { .. } | StoreError::Record { .. })
}

impl Adjudicator<'_> {
    /// The refusal of a mail for a damaged game; the poll tells the admin
    /// and the players.
    pub(super) fn damaged(&self, from: &str, damage: Damage) -> Result<Handled> {
        let r = self.damage_mail(from, &damage, true, false)?;
        Ok(Handled {
            damage: Some(damage.clone()),
            ..failed(
                vec![r],
                Fate::Damaged {
                    id: damage.id.clone(),
                    error: damage.error.clone(),
                },
            )
        })
    }

    /// The damage of game `id`'s record, `error` being what the reader or
    /// replay says.
    pub(super) fn damage(&self, id: &str, error: &dyn std::fmt::Display) -> Damage {
        Damage {
            id: id.to_string(),
            error: error.to_string(),
            file: self.desk.game_path(id).unwrap_or_default(),
            record: true,
        }
    }

    /// One mail about a damaged game: to the sender of a refused mail
    /// (`refused`), to a player, or to the admin (`for_admin`).
    pub(super) fn damage_mail(
        &self,
        to: &str,
        d: &Damage,
        refused: bool,
        for_admin: bool,
    ) -> Result<Letter> {
        Ok(Letter {
            to: to.to_string(),
            kind: Kind::Damage,
            template: "damaged",
            context: context! {
                id => d.id.clone(), error => d.error.clone(), refused,
                for_admin, file => d.file.display().to_string(), validate => d.record,
                admin_told => self.identity.admin.is_some(),
            },
            game: Some(d.id.clone()),
            reply_to: None,
        })
    }

    /// The mails that tell the admin (if pbem.toml names one) and the
    /// game's players that game `d.id` cannot be used, with the file, the
    /// line and how to mend it. The players are found in what survives
    /// of the damaged files: the record's `[players]`, else any
    /// `key = "Name <address>"` line of the record or challenge.
    ///
    /// # Errors
    /// Template failures.
    pub fn damage_notice(&self, d: &Damage) -> Result<Vec<Reply>> {
        self.compose(&self.damage_letters(d)?)
    }

    /// The letters of [`Adjudicator::damage_notice`].
    fn damage_letters(&self, d: &Damage) -> Result<Vec<Letter>> {
        let mut to: Vec<(String, bool)> = Vec::new();
        if let Some(admin) = &self.identity.admin {
            to.push((admin.clone(), true));
        }
        for p in self.players_of_damaged(&d.id) {
            if !to.iter().any(|(t, _)| address_of(t) == address_of(&p)) {
                to.push((p, false));
            }
        }
        to.iter()
            .map(|(who, admin)| self.damage_mail(who, d, false, *admin))
            .collect()
    }

    /// The players of a game whose files may be damaged, as
    /// "Name <address>"; whatever cannot be read is skipped. From a record
    /// that reads, its players; from files that do not, only the
    /// addresses pbem registered for the game ([`Secrets::players`],
    /// read without the rules: [`crate::store::SecretsFile::registered`]), each
    /// with the name found beside it if it is there whole (a
    /// record cut short inside an address names someone else's domain).
    pub(super) fn players_of_damaged(&self, id: &str) -> Vec<String> {
        let registered = self.desk.secrets_file(id).unwrap_or_default();
        let mut found: Vec<String> = Vec::new();
        if let Ok(Some(text)) = self.desk.read_game(id) {
            match store::parse_record(id, &text) {
                Ok(rec) => found.extend(rec.players_by_name().map(|(_, p)| p.clone())),
                Err(_) => found.extend(
                    mailboxes_in(&text)
                        .into_iter()
                        .filter(|m| registered.registered(&address_of(m))),
                ),
            }
        }
        if found.is_empty() {
            match self.desk.challenge(id) {
                Ok(Some(ch)) => found.extend([ch.challenger, ch.opponent]),
                _ => {
                    if let Ok(Some(text)) = self.desk.challenge_text(id) {
                        found.extend(
                            mailboxes_in(&text)
                                .into_iter()
                                .filter(|m| registered.registered(&address_of(m))),
                        );
                    }
                }
            }
        }
        // A registered player whose line the damage took is still told.
        found.extend(registered.addresses().cloned());
        let mut out: Vec<String> = Vec::new();
        for m in found {
            if m.parse::<lettre::message::Mailbox>().is_ok()
                && !out.iter().any(|o| address_of(o) == address_of(&m))
            {
                out.push(m);
            }
        }
        out
    }
}

/// The values of the `key = "Name <address>"` lines of a file that may
/// not be valid TOML (a record's `[players]`, a challenge's challenger and
/// opponent): what a hand-edited, broken file still tells of its players.
pub(super) fn mailboxes_in(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(_, v)| {
            let v = v.trim();
            let v = v.split_once(" #").map_or(v, |(v, _)| v).trim();
            v.trim_matches(|c| c == '"' || c == '\'').trim().to_string()
        })
        .filter(|v| v.contains('@') && v.parse::<lettre::message::Mailbox>().is_ok())
        .collect()
}
