//! Who plays whom, round by round.
//!
//! - [`round_robin`]: everyone meets everyone once (twice in a double
//!   round robin, sides swapped), by the Berger tables chess uses; with an
//!   odd number of players one sits out each round;
//! - [`swiss`]: a set number of rounds, each paired when the one before
//!   has ended: by score group, never the same pair twice, who moves
//!   first balanced.

pub mod round_robin;
pub mod swiss;

use std::fmt;

/// A `--format` that names no [`Format`]: quotes the text, lists the formats.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is no tournament format: write {names}", names = Format::names())]
pub struct UnknownFormat(pub String);

/// How a tournament is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::RoundRobin, Format::DoubleRoundRobin, Format::Swiss];

    /// The name an admin writes (`--format round-robin`).
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::DoubleRoundRobin => "double-round-robin",
            Format::Swiss => "swiss",
        }
    }

    /// The formats' names, as the error lists them.
    fn names() -> String {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        names.join(", ")
    }

    /// The format named `text` (case-insensitive).
    ///
    /// # Errors
    /// [`UnknownFormat`], quoting the text and listing the formats.
    pub fn parse(text: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownFormat(text.to_string()))
    }

    /// How many rounds `players` play: fixed for the round robins, the
    /// admin's choice for a Swiss (`None`: one can pair at most
    /// `players - 1` rounds without a repeat, even fewer in bad luck).
    pub fn rounds(self, players: usize) -> Option<usize> {
        let per_cycle = players + players % 2 - 1;
        match self {
            Format::RoundRobin => Some(per_cycle),
            Format::DoubleRoundRobin => Some(2 * per_cycle),
            Format::Swiss => None,
        }
    }

    /// The points of a bye: none in a round robin (everyone sits out
    /// once), a win's in a Swiss (the bye goes to a low scorer, who would
    /// otherwise fall further behind; as FIDE's rules give it).
    pub fn bye_points(self) -> crate::points::Points {
        match self {
            Format::Swiss => crate::points::Points::ONE,
            _ => crate::points::Points::ZERO,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A round that cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("a tournament needs at least 2 players; it has {0}")]
    TooFew(usize),
    #[error("round {round} is past the last round ({last})")]
    PastTheEnd { round: usize, last: usize },
    #[error("round {0} cannot be paired without two players meeting again")]
    NoPairing(usize),
}
