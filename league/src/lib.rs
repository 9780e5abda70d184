//! Play beyond one game, as pure data: no mail, no files, no clock.
//!
//! - [`points`]: scores in quarter points (a draw is ½, Sonneborn-Berger
//!   can be ¼), exact, so standings never depend on float rounding;
//! - [`series`]: a best-of-N between two players, who moves first in the
//!   next game (the rulings in each game's rules text), when it is decided;
//! - [`pairing`]: round robin (Berger tables), double round robin and
//!   Swiss (score groups, no repeat pairing, who moves first balanced);
//! - [`standings`]: points, then Sonneborn-Berger (round robin) or
//!   Buchholz (Swiss);
//! - [`tournament`]: a tournament round by round, forfeits of players who
//!   dropped out, its end;
//! - [`rating`]: Glicko-2 per game, through the `skillratings` crate.
//!
//! The server stores what these compute beside the game records and
//! drives them from the mail; everything here is a function of its input,
//! so rebuilding from the records gives the same numbers.

pub mod pairing;
pub mod points;
pub mod rating;
pub mod series;
pub mod standings;
pub mod tournament;

/// A player of a series or a tournament: their place in its list of
/// players (the order they were entered or signed up: the seeding).
pub type Seat = usize;

/// How one game ended, seen from the board: who moved first won, who
/// moved second won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    FirstWins,
    SecondWins,
    Draw,
}

impl Outcome {
    /// Its name, as files and templates write it (`first-wins`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::FirstWins => "first-wins",
            Outcome::SecondWins => "second-wins",
            Outcome::Draw => "draw",
        }
    }

    /// It as people read it, the players named `first` and `second`:
    /// `won by Bob`, or `drawn` (never the file's `first-wins`).
    pub fn words(self, first: &str, second: &str) -> String {
        match self {
            Outcome::FirstWins => format!("won by {first}"),
            Outcome::SecondWins => format!("won by {second}"),
            Outcome::Draw => "drawn".to_string(),
        }
    }
}

/// One game between two seats: who moved first, who second, and how it
/// ended (`None` while it is played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub first: Seat,
    pub second: Seat,
    pub outcome: Option<Outcome>,
}

impl Game {
    /// A game not yet played.
    pub fn new(first: Seat, second: Seat) -> Game {
        Game {
            first,
            second,
            outcome: None,
        }
    }

    /// Whether `seat` plays in it.
    pub fn has(&self, seat: Seat) -> bool {
        self.first == seat || self.second == seat
    }

    /// The other player of the game, seen from `seat` (which plays in it).
    pub fn opponent(&self, seat: Seat) -> Seat {
        if self.first == seat {
            self.second
        } else {
            self.first
        }
    }

    /// What `seat` scored in it, once it ended: 1, ½ or 0.
    pub fn score(&self, seat: Seat) -> Option<points::Points> {
        use points::Points;
        let outcome = self.outcome?;
        Some(match (outcome, seat == self.first) {
            (Outcome::Draw, _) => Points::HALF,
            (Outcome::FirstWins, true) | (Outcome::SecondWins, false) => Points::ONE,
            _ => Points::ZERO,
        })
    }
}

/// One round of a tournament: its games and who sits it out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<Seat>,
}

impl Round {
    /// Whether every game of the round has ended.
    pub fn finished(&self) -> bool {
        self.games.iter().all(|g| g.outcome.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn a_result_reads_as_words_with_the_players_names() {
        assert_eq!(Outcome::FirstWins.words("Ann", "Bob"), "won by Ann");
        assert_eq!(Outcome::SecondWins.words("Ann", "Bob"), "won by Bob");
        assert_eq!(Outcome::Draw.words("Ann", "Bob"), "drawn");
    }
}
