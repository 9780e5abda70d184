//! A series: best of N games between the same two players, each begun
//! when the one before ends.
//!
//! A win counts 1, a draw ½ to each. The series ends as soon as one
//! player can no longer be caught (their lead is more than the games
//! left), or after its N games; level after N games, it is drawn.
//!
//! Who moves first in the next game ("Playing a series" in each game's
//! rules text): in the four New Millennium games the loser of the game
//! before (the rules say so: "the player who lost the previous match goes
//! first in the next match"), after a draw the player who moved second
//! in it; in the games whose rules fix the first side the players swap
//! sides every game.

use crate::points::Points;
use crate::{Game, Outcome, Seat};

/// The shortest and longest series one can ask for.
pub const LENGTHS: std::ops::RangeInclusive<u32> = 2..=25;

/// Who moves first in a series' next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextFirst {
    /// The loser of the game before; after a draw, whoever moved second
    /// in it (the New Millennium games, whose players choose who starts).
    Loser,
    /// Whoever moved second in the game before: the players swap sides
    /// (games whose rules fix the side that starts).
    Swap,
}

/// How a series ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesEnd {
    Won(Seat),
    Drawn,
}

/// A series between seats 0 and 1: its length and its games so far, in
/// order (the last one may still be in play).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub length: u32,
    pub games: Vec<Game>,
}

impl Series {
    /// Each seat's score over the finished games.
    pub fn score(&self) -> [Points; 2] {
        let of = |seat| self.games.iter().filter_map(|g| g.score(seat)).sum();
        [of(0), of(1)]
    }

    /// How many games have ended.
    pub fn finished(&self) -> u32 {
        let n = self.games.iter().filter(|g| g.outcome.is_some()).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The series' end, once one player cannot be caught or all its games
    /// are played.
    pub fn decided(&self) -> Option<SeriesEnd> {
        let [a, b] = self.score();
        let left = Points::quarters(
            Points::ONE.in_quarters() * self.length.saturating_sub(self.finished()),
        );
        if a > b + left {
            Some(SeriesEnd::Won(0))
        } else if b > a + left {
            Some(SeriesEnd::Won(1))
        } else if left == Points::ZERO {
            Some(SeriesEnd::Drawn)
        } else {
            None
        }
    }

    /// The next game, once the last one has ended and the series goes on:
    /// who moves first by `rule`, who second.
    pub fn next_game(&self, rule: NextFirst) -> Option<Game> {
        if self.decided().is_some() {
            return None;
        }
        let last = self.games.last()?;
        let first = match (rule, last.outcome?) {
            (NextFirst::Loser, Outcome::FirstWins) => last.second,
            (NextFirst::Loser, Outcome::SecondWins) => last.first,
            (NextFirst::Loser, Outcome::Draw) | (NextFirst::Swap, _) => last.second,
        };
        Some(Game::new(first, 1 - first))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(length: u32, games: &[(Seat, Outcome)]) -> Series {
        Series {
            length,
            games: games
                .iter()
                .map(|&(first, o)| Game {
                    first,
                    second: 1 - first,
                    outcome: Some(o),
                })
                .collect(),
        }
    }

    #[test]
    fn best_of_three_ends_early_when_one_cannot_be_caught() {
        use Outcome::*;
        // 0 wins moving first, then 0 wins moving second: 2-0 with one
        // game left.
        let s = series(3, &[(0, FirstWins), (1, SecondWins)]);
        assert_eq!(s.score(), [Points::quarters(8), Points::ZERO]);
        assert_eq!(s.decided(), Some(SeriesEnd::Won(0)));
        assert_eq!(s.next_game(NextFirst::Loser), None);
        // 1-1: not decided; the loser of the second game (seat 0, which
        // moved second) moves first.
        let s = series(3, &[(0, FirstWins), (1, FirstWins)]);
        assert_eq!(s.decided(), None);
        assert_eq!(s.next_game(NextFirst::Loser), Some(Game::new(0, 1)));
    }

    #[test]
    fn draws_count_half_and_a_level_series_is_drawn() {
        use Outcome::*;
        let s = series(2, &[(0, Draw)]);
        assert_eq!(s.decided(), None);
        // After a draw the player who moved second moves first.
        assert_eq!(s.next_game(NextFirst::Loser), Some(Game::new(1, 0)));
        let s = series(2, &[(0, Draw), (1, Draw)]);
        assert_eq!(s.score(), [Points::ONE, Points::ONE]);
        assert_eq!(s.decided(), Some(SeriesEnd::Drawn));
        // 1½-½ after three of five: 2 games left, not decided; a win by
        // seat 0 in the fourth makes 2½-½ with one left: decided.
        let s = series(5, &[(0, Draw), (1, SecondWins), (1, SecondWins)]);
        assert_eq!(s.score(), [Points::quarters(10), Points::HALF]);
        assert_eq!(s.decided(), None);
        let s = series(
            5,
            &[(0, Draw), (1, SecondWins), (1, SecondWins), (0, FirstWins)],
        );
        assert_eq!(s.decided(), Some(SeriesEnd::Won(0)));
    }

    #[test]
    fn fixed_first_games_swap_sides_whatever_the_result() {
        use Outcome::*;
        for o in [FirstWins, SecondWins, Draw] {
            let s = series(5, &[(0, o)]);
            assert_eq!(s.next_game(NextFirst::Swap), Some(Game::new(1, 0)), "{o:?}");
        }
        // The loser rule: a first mover who lost moves first again.
        let s = series(5, &[(0, SecondWins)]);
        assert_eq!(s.next_game(NextFirst::Loser), Some(Game::new(0, 1)));
    }

    #[test]
    fn no_next_game_while_one_is_played() {
        let s = Series {
            length: 3,
            games: vec![Game::new(0, 1)],
        };
        assert_eq!(s.decided(), None);
        assert_eq!(s.next_game(NextFirst::Swap), None);
    }
}
