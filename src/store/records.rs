//! The types the data folder holds beside the records: the players'
//! secrets, challenges, clocks, players' settings, and the `made` file
//! of an admin's command.

use super::{StoreError, io_err, stable_hash, valid_id};
use crate::game::{PerSide, Side};
use crate::rules::Rules;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The players' secrets of one game or challenge, side by side: what
/// [`SecretsFile`] holds, read with the game's rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Secrets {
    /// Each side's key (none in a file written by hand without it).
    pub tokens: PerSide<Option<String>>,
    /// Each side's address, as pbem registered it when the challenge or
    /// game was made (lower case). When the record does not read, these
    /// alone say who its players are: pbem mails no address it
    /// finds in a damaged file unless it is one of these. None for games
    /// made before.
    pub players: PerSide<Option<String>>,
}

/// `DATA/secrets/<id>.toml` as it is on disk: keyed by the game's side
/// names, written in the names' order. Read without the game's rules, it
/// answers what needs no side ([`SecretsFile::holds`],
/// [`SecretsFile::registered`]): a damaged game's rules are not known;
/// with them, it is [`Secrets`] ([`SecretsFile::by_side`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretsFile {
    tokens: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    players: BTreeMap<String, String>,
}

impl SecretsFile {
    /// The file of `secrets`, keyed by the side names of `rules`.
    pub fn new(secrets: &Secrets, rules: Rules) -> SecretsFile {
        let named = |p: &PerSide<Option<String>>| {
            p.given()
                .map(|(side, v)| (rules.side_name(side).to_string(), v.clone()))
                .collect()
        };
        SecretsFile {
            tokens: named(&secrets.tokens),
            players: named(&secrets.players),
        }
    }

    /// The secrets side by side, the sides named as `rules` names them (a
    /// key that names no side of the game is no side's).
    pub fn by_side(&self, rules: Rules) -> Secrets {
        let of = |m: &BTreeMap<String, String>| {
            PerSide::from_fn(|side| m.get(rules.side_name(side)).cloned())
        };
        Secrets {
            tokens: of(&self.tokens),
            players: of(&self.players),
        }
    }

    /// The game's keys, in the order of their sides' names.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.tokens.values()
    }

    /// Whether `token` is one of the game's keys.
    pub fn holds(&self, token: &str) -> bool {
        self.keys().any(|t| t == token)
    }

    /// Whether `address` is a player pbem registered for this game.
    pub fn registered(&self, address: &str) -> bool {
        self.players
            .values()
            .any(|a| a.eq_ignore_ascii_case(address.trim()))
    }

    /// The addresses pbem registered for the game.
    pub fn addresses(&self) -> impl Iterator<Item = &String> {
        self.players.values()
    }
}

/// A challenge waiting for the opponent's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ChallengeFile", into = "ChallengeFile")]
pub struct Challenge {
    pub rules: Rules,
    /// "Name <address>" of the challenger.
    pub challenger: String,
    /// Address of the challenged player.
    pub opponent: String,
    /// The side the challenger plays.
    pub challenger_side: Side,
    /// The side that moves first.
    pub first: Side,
    pub created: DateTime<Utc>,
    /// The time control asked for (`3d+1d/10d`); none, no clock.
    pub clock: Option<crate::timecontrol::TimeControl>,
    /// Which command of which mail made it (a hash): a mail handled again
    /// after a crash finds its challenge instead of making another.
    pub source: Option<String>,
    /// `series N`: the first game of a best of N.
    pub series: Option<u32>,
    /// `unrated`: the game leaves the ratings alone.
    pub rated: bool,
    /// A rematch: the game it follows (its series' next game, when it
    /// has one).
    pub after: Option<String>,
}

/// A [`Challenge`] as its file holds it: the sides by their names in
/// the game's rules, which only the whole file gives.
#[derive(Clone, Serialize, Deserialize)]
struct ChallengeFile {
    #[serde(with = "super::forms::rules_slug")]
    rules: Rules,
    challenger: String,
    opponent: String,
    challenger_side: String,
    first: String,
    #[serde(with = "super::forms::rfc3339_secs")]
    created: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clock: Option<crate::timecontrol::TimeControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    series: Option<u32>,
    #[serde(default = "rated", skip_serializing_if = "is_rated")]
    rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    after: Option<String>,
}

/// A side's name in a file that is no side of its game.
#[derive(Debug, thiserror::Error)]
#[error("{key} = \"{value}\" is not a side of {game}: write \"{a}\" or \"{b}\"")]
pub struct UnknownSide {
    key: &'static str,
    value: String,
    game: &'static str,
    a: &'static str,
    b: &'static str,
}

/// The side `value` names in `rules`, for the key `key`.
fn side_named(rules: Rules, key: &'static str, value: &str) -> Result<Side, UnknownSide> {
    rules.side_named(value).ok_or_else(|| UnknownSide {
        key,
        value: value.to_string(),
        game: rules.name(),
        a: rules.side_name(Side::A),
        b: rules.side_name(Side::B),
    })
}

impl TryFrom<ChallengeFile> for Challenge {
    type Error = UnknownSide;
    fn try_from(f: ChallengeFile) -> Result<Challenge, UnknownSide> {
        Ok(Challenge {
            challenger_side: side_named(f.rules, "challenger_side", &f.challenger_side)?,
            first: side_named(f.rules, "first", &f.first)?,
            rules: f.rules,
            challenger: f.challenger,
            opponent: f.opponent,
            created: f.created,
            clock: f.clock,
            source: f.source,
            series: f.series,
            rated: f.rated,
            after: f.after,
        })
    }
}

impl From<Challenge> for ChallengeFile {
    fn from(c: Challenge) -> ChallengeFile {
        ChallengeFile {
            challenger_side: c.rules.side_name(c.challenger_side).to_string(),
            first: c.rules.side_name(c.first).to_string(),
            rules: c.rules,
            challenger: c.challenger,
            opponent: c.opponent,
            created: c.created,
            clock: c.clock,
            source: c.source,
            series: c.series,
            rated: c.rated,
            after: c.after,
        }
    }
}

fn rated() -> bool {
    true
}

fn is_rated(rated: &bool) -> bool {
    *rated
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
/// the command left it.
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
    /// The display name of the player's latest proven mail: how pbem
    /// names them from then on ([`crate::adjudicate::known_name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
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
