//! Glicko-2 ratings, one table per game, computed by
//! the `skillratings` crate.
//!
//! Mark Glickman's system ("Example of the Glicko-2 system", 2013,
//! <http://www.glicko.net/glicko/glicko2.pdf>) rates a player by a rating
//! (1500 to start), a rating deviation (how sure the rating is: 350 to
//! start, falling as games are played) and a volatility (0.06). pbem
//! treats every rated game as its own rating period, updated when the game
//! ends, so a player's rating moves at once; the system constant τ is 0.5
//! (Glickman suggests 0.3 to 1.2).
//!
//! The updates are a function of the order of the games alone, so
//! replaying the finished games in the same order (by the time they ended,
//! then by game id: `pbem ratings --rebuild`) gives the same numbers.

use crate::Outcome;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use std::collections::BTreeMap;

/// Glickman's system constant τ, as pbem uses it.
pub const TAU: f64 = 0.5;

/// A player's Glicko-2 rating in one game, and how many rated games it
/// stands on.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
}

impl Default for Rating {
    /// A new player: 1500, deviation 350, volatility 0.06, no games.
    fn default() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: 0,
        }
    }
}

impl Rating {
    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The rating after one rating period with `results`: each opponent's
    /// rating before the period and this player's score against them
    /// (1 a win, ½ a draw, 0 a loss).
    pub fn after_period(self, results: &[(Rating, Score)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|&(r, s)| (r.glicko(), s.outcome()))
            .collect();
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let new = glicko2_rating_period(&self.glicko(), &results, &config);
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + u32::try_from(results.len()).unwrap_or(u32::MAX),
        }
    }

    /// The rating rounded as players read it (`1464`).
    pub fn shown(self) -> i64 {
        // Ratings stay within a few thousand: the cast cannot overflow.
        #[allow(clippy::cast_possible_truncation)]
        let r = self.rating.round() as i64;
        r
    }
}

/// A player's score in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// Both players' ratings after a game between them, each rated against the
/// other's rating before it.
pub fn after_game(first: Rating, second: Rating, outcome: Outcome) -> (Rating, Rating) {
    let (a, b) = match outcome {
        Outcome::FirstWins => (Score::Win, Score::Loss),
        Outcome::SecondWins => (Score::Loss, Score::Win),
        Outcome::Draw => (Score::Draw, Score::Draw),
    };
    (
        first.after_period(&[(second, a)]),
        second.after_period(&[(first, b)]),
    )
}

/// One game's ratings: each player's, keyed by their address.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    #[serde(default)]
    pub players: BTreeMap<String, Rating>,
}

/// A rated game's effect on its two players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub before: [Rating; 2],
    pub after: [Rating; 2],
}

impl Table {
    /// A player's rating (a new player's when they have none).
    pub fn get(&self, player: &str) -> Rating {
        self.players.get(player).copied().unwrap_or_default()
    }

    /// Rates a game that ended, `first` and `second` being the players'
    /// addresses (who moved first and second).
    pub fn rate(&mut self, first: &str, second: &str, outcome: Outcome) -> Change {
        let before = [self.get(first), self.get(second)];
        let (a, b) = after_game(before[0], before[1], outcome);
        self.players.insert(first.to_string(), a);
        self.players.insert(second.to_string(), b);
        Change {
            before,
            after: [a, b],
        }
    }

    /// The players best first (by rating, then address).
    pub fn ranked(&self) -> Vec<(&str, Rating)> {
        let mut v: Vec<(&str, Rating)> =
            self.players.iter().map(|(p, r)| (p.as_str(), *r)).collect();
        v.sort_by(|a, b| b.1.rating.total_cmp(&a.1.rating).then(a.0.cmp(b.0)));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            ..Rating::default()
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // "Example of the Glicko-2 system", section "Example calculation":
        // a 1500 player, deviation 200, beats a 1400 (deviation 30) and
        // loses to a 1550 (100) and a 1700 (300), τ = 0.5: afterwards
        // r' = 1464.06, RD' = 151.52, σ' = 0.05999.
        let player = rating(1500.0, 200.0);
        let after = player.after_period(&[
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
        assert_eq!(after.games, 3);
        assert_eq!(after.shown(), 1464);
    }

    #[test]
    fn a_rated_game_moves_both_players_and_replays_the_same() {
        let mut table = Table::default();
        let c = table.rate("a@x.org", "b@x.org", Outcome::FirstWins);
        assert_eq!(c.before, [Rating::default(); 2]);
        assert!(c.after[0].rating > 1500.0 && c.after[1].rating < 1500.0);
        assert!((c.after[0].rating - 1500.0 - (1500.0 - c.after[1].rating)).abs() < 1e-9);
        assert!(c.after[0].deviation < 350.0);
        table.rate("b@x.org", "c@x.org", Outcome::Draw);
        let mut again = Table::default();
        again.rate("a@x.org", "b@x.org", Outcome::FirstWins);
        again.rate("b@x.org", "c@x.org", Outcome::Draw);
        assert_eq!(table, again);
        let ranked: Vec<&str> = table.ranked().iter().map(|(p, _)| *p).collect();
        assert_eq!(ranked[0], "a@x.org");
        assert_eq!(table.get("a@x.org").games, 1);
        assert_eq!(table.get("b@x.org").games, 2);
        assert_eq!(table.get("new@x.org"), Rating::default());
    }

    #[test]
    fn a_table_reads_back_exactly() {
        let mut table = Table::default();
        table.rate("a@x.org", "b@x.org", Outcome::SecondWins);
        table.rate("a@x.org", "c@x.org", Outcome::Draw);
        let text = toml::to_string(&table).unwrap();
        let back: Table = toml::from_str(&text).unwrap();
        assert_eq!(back, table, "{text}");
    }
}
