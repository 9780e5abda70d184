//! What the data folder keeps of play beyond one game:
//!
//! ```text
//! DATA/series/<id>.toml          a series: its players, length, clock, games so far
//! DATA/tournaments/<name>.toml   a tournament: players, format, rounds and results
//! DATA/ratings/<game>.toml       a game's Glicko-2 ratings and the games rated
//! ```
//!
//! All three are derived from the records and plain text beside them
//! (meant to be committed with them, like the records; no secret in
//! them), written through the poll's batch like every other file, so a
//! crash leaves each old or new. The ratings can be rebuilt from the
//! records alone (`pbem ratings --rebuild`).

use super::{Store, StoreError};
use crate::rules::Rules;
use crate::timecontrol::TimeControl;
use chrono::{DateTime, Utc};
use pbem_league::Outcome;
use pbem_league::pairing::Format;
use pbem_league::rating::Table;
use serde::{Deserialize, Serialize};

/// A series of games between two players (`challenge ... series N`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesFile {
    /// The game, written as its slug.
    #[serde(with = "super::forms::rules_slug")]
    pub rules: Rules,
    /// The challenger and the challenged player, "Name <address>": seats
    /// 0 and 1 of [`pbem_league::series::Series`].
    pub players: [String; 2],
    /// Best of how many games.
    pub length: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    pub rated: bool,
    /// Its games' ids in order; the last may be in play.
    pub games: Vec<String>,
}

/// One game of a tournament's round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// Seats (places in [`TournamentFile::players`]).
    pub first: usize,
    pub second: usize,
    /// The game's id; none for a forfeit (a player dropped out), which
    /// is not played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// How it ended; none while it is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// One round of a tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundFile {
    pub games: Vec<Pairing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<usize>,
    /// The game whose end finished the round (it began the next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_by: Option<String>,
}

/// A tournament (`pbem tournament new`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentFile {
    pub name: String,
    /// The game, written as its slug.
    #[serde(with = "super::forms::rules_slug")]
    pub rules: Rules,
    pub format: Format,
    /// The rounds of a Swiss (a round robin's follow from its players).
    #[serde(default)]
    pub rounds: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    pub rated: bool,
    pub created: DateTime<Utc>,
    /// Round 1 is paired at the first poll from then on.
    pub begins: DateTime<Utc>,
    /// Players may sign up by mail (`join NAME`) until it begins.
    #[serde(default)]
    pub signup: bool,
    /// A player who loses this many games of the tournament on time drops
    /// out and forfeits the rest; 0: never.
    pub drop_after_timeouts: u32,
    /// Its games allow takebacks by agreement (off unless it says so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub takebacks: bool,
    /// The players, "Name <address>", in the order they were entered or
    /// signed up (the seeding): seat 0 first.
    pub players: Vec<String>,
    /// Seats of the players who dropped out, in the order they did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<usize>,
    /// Each seat's games lost on time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeouts: Vec<u32>,
    /// The rounds so far; the last may be in play.
    #[serde(default, rename = "round", skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<RoundFile>,
    /// Every round is played (or no more can be paired).
    #[serde(default)]
    pub over: bool,
}

/// A game's ratings, and the games they stand on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RatingsFile {
    /// The games rated, in the order they were: by the time they ended,
    /// then by id.
    #[serde(default, rename = "game", skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<RatedGame>,
    #[serde(flatten)]
    pub table: Table,
}

/// One rated game: who played it, how it ended, and what it did to the
/// two players' ratings (as the game-over mail shows them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatedGame {
    pub id: String,
    pub ended: DateTime<Utc>,
    /// The addresses of who moved first and who second.
    pub players: [String; 2],
    pub outcome: Outcome,
    /// Their ratings before and after, rounded.
    pub before: [i64; 2],
    pub after: [i64; 2],
}

impl RatingsFile {
    /// The entry of game `id`, if it was rated.
    pub fn game(&self, id: &str) -> Option<&RatedGame> {
        self.games.iter().find(|g| g.id == id)
    }
}

impl Store {
    /// A series, `None` when there is none of that id.
    ///
    /// # Errors
    /// A bad id, I/O errors or a damaged file.
    pub fn series(&self, id: &str) -> Result<Option<SeriesFile>, StoreError> {
        self.read_toml(&self.checked("series", id)?)
    }

    /// # Errors
    /// A bad id or any I/O error.
    pub fn write_series(&self, id: &str, s: &SeriesFile) -> Result<(), StoreError> {
        self.write_toml(&self.checked("series", id)?, s)
    }

    /// A tournament, `None` when there is none of that name.
    ///
    /// # Errors
    /// A bad name, I/O errors or a damaged file.
    pub fn tournament(&self, name: &str) -> Result<Option<TournamentFile>, StoreError> {
        self.read_toml(&self.checked("tournaments", name)?)
    }

    /// Written after the games its rounds name ([`Store::write_file_last`]):
    /// on a batch view it reaches the disk after every file the batch
    /// changed before, so a crash leaves a round's games without the
    /// tournament naming them (paired again the same way, and found), never
    /// the tournament naming games not made.
    ///
    /// # Errors
    /// A bad name or any I/O error.
    pub fn write_tournament(&self, t: &TournamentFile) -> Result<(), StoreError> {
        let path = self.checked("tournaments", &t.name)?;
        let text = toml::to_string(t).map_err(|source| StoreError::Encode {
            path: path.display().to_string(),
            source,
        })?;
        self.write_file_last(&path, &text)
    }

    /// The names of all tournaments, sorted.
    ///
    /// # Errors
    /// When the folder cannot be read.
    pub fn tournament_names(&self) -> Result<Vec<String>, StoreError> {
        self.ids_in("tournaments")
    }

    /// A game's ratings (empty when none was rated yet).
    ///
    /// # Errors
    /// I/O errors or a damaged file.
    pub fn ratings(&self, slug: &str) -> Result<RatingsFile, StoreError> {
        Ok(self
            .read_toml(&self.checked("ratings", slug)?)?
            .unwrap_or_default())
    }

    /// # Errors
    /// Any I/O error.
    pub fn write_ratings(&self, slug: &str, r: &RatingsFile) -> Result<(), StoreError> {
        self.write_toml(&self.checked("ratings", slug)?, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pbem_league::Outcome;

    #[test]
    fn each_file_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let series = SeriesFile {
            rules: Rules::Mad,
            players: ["Ann <ann@x.org>".into(), "bob@y.org".into()],
            length: 3,
            clock: Some("3d".parse().unwrap()),
            rated: true,
            games: vec!["mad-abc".into(), "mad-def".into()],
        };
        store.write_series("s-abc", &series).unwrap();
        assert_eq!(store.series("s-abc").unwrap(), Some(series));
        let t = TournamentFile {
            name: "spring".into(),
            rules: Rules::Embed,
            format: Format::Swiss,
            rounds: 3,
            clock: None,
            rated: true,
            created: "2026-11-25T10:00:00Z".parse().unwrap(),
            begins: "2026-12-01T00:00:00Z".parse().unwrap(),
            signup: true,
            drop_after_timeouts: 2,
            takebacks: true,
            players: vec!["a@x.org".into(), "b@x.org".into(), "c@x.org".into()],
            dropped: vec![2],
            timeouts: vec![0, 0, 2],
            played: vec![RoundFile {
                games: vec![Pairing {
                    first: 0,
                    second: 1,
                    game: Some("emb-xyz".into()),
                    outcome: Some(Outcome::Draw),
                }],
                bye: Some(2),
                closed_by: None,
            }],
            over: false,
        };
        store.write_tournament(&t).unwrap();
        assert_eq!(store.tournament("spring").unwrap(), Some(t));
        assert_eq!(store.tournament_names().unwrap(), ["spring"]);
        let mut r = RatingsFile::default();
        let c = r.table.rate("a@x.org", "b@x.org", Outcome::FirstWins);
        r.games.push(RatedGame {
            id: "emb-xyz".into(),
            ended: "2026-11-25T11:00:00Z".parse().unwrap(),
            players: ["a@x.org".into(), "b@x.org".into()],
            outcome: Outcome::FirstWins,
            before: c.before.map(|r| r.shown()),
            after: c.after.map(|r| r.shown()),
        });
        store.write_ratings("embed", &r).unwrap();
        assert_eq!(store.ratings("embed").unwrap(), r);
        assert_eq!(store.ratings("mad").unwrap(), RatingsFile::default());
        assert!(store.tournament("../x").is_err());
    }
}
