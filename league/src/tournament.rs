//! A tournament's course, round by round: what
//! to do next once a round's games have ended, which games a player who
//! dropped out forfeits, and when it is over.
//!
//! Each round is paired when the one before has ended (a round robin's
//! rounds come from its table, a Swiss's from the results). A player who
//! drops out is paired no more in a Swiss; in a round robin each of their
//! games still to come is a forfeit, won by the opponent without play.

use crate::pairing::{Format, PairingError, round_robin, swiss};
use crate::standings::{Line, standings};
use crate::{Outcome, Round, Seat};

/// A tournament's pairing state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub format: Format,
    /// How many players (seats 0 to `players - 1`, in the order they
    /// were entered or signed up).
    pub players: usize,
    /// The rounds of a Swiss; a round robin's follow from its players.
    pub swiss_rounds: usize,
    /// The rounds so far, the last one perhaps in play.
    pub rounds: Vec<Round>,
    /// Players who dropped out (by leaving, or by the timeouts the admin
    /// allows), in the order they did.
    pub dropped: Vec<Seat>,
}

/// What a tournament does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Start this round: its games (a forfeit already has its outcome and
    /// is not played) and its bye.
    Start(Round),
    /// A round is in play.
    Wait,
    /// Every round has been played (or no more can be paired).
    Over,
}

impl Tournament {
    /// A tournament of `players` about to begin.
    pub fn new(format: Format, players: usize, swiss_rounds: usize) -> Tournament {
        Tournament {
            format,
            players,
            swiss_rounds,
            rounds: Vec::new(),
            dropped: Vec::new(),
        }
    }

    /// The number of rounds it will have.
    pub fn last_round(&self) -> usize {
        self.format
            .rounds(self.players)
            .unwrap_or(self.swiss_rounds)
    }

    /// What to do next.
    ///
    /// # Errors
    /// Fewer than 2 players at the start. A Swiss round that cannot be
    /// paired without a repeat is not an error: the tournament is over
    /// ([`Next::Over`]) after the rounds it could pair.
    pub fn next(&self) -> Result<Next, PairingError> {
        if self.rounds.last().is_some_and(|r| !r.finished()) {
            return Ok(Next::Wait);
        }
        let number = self.rounds.len() + 1;
        if number > self.last_round() {
            return Ok(Next::Over);
        }
        let round = match self.format {
            Format::Swiss => {
                match swiss::next_round(
                    self.players,
                    &self.rounds,
                    self.format.bye_points(),
                    &self.dropped,
                ) {
                    Ok(r) => r,
                    Err(PairingError::NoPairing(_)) => return Ok(Next::Over),
                    Err(PairingError::TooFew(_)) if !self.rounds.is_empty() => {
                        return Ok(Next::Over);
                    }
                    Err(e) => return Err(e),
                }
            }
            Format::RoundRobin | Format::DoubleRoundRobin => {
                let cycles = if self.format == Format::RoundRobin {
                    1
                } else {
                    2
                };
                let mut r = round_robin::round(self.players, cycles, number)?;
                self.forfeit(&mut r);
                r
            }
        };
        Ok(Next::Start(round))
    }

    /// Marks the games of players who dropped out as forfeits: won by the
    /// other player; a game between two who dropped out is not played.
    fn forfeit(&self, round: &mut Round) {
        let gone = |s: Seat| self.dropped.contains(&s);
        round.games.retain(|g| !(gone(g.first) && gone(g.second)));
        for g in &mut round.games {
            if gone(g.first) {
                g.outcome = Some(Outcome::SecondWins);
            } else if gone(g.second) {
                g.outcome = Some(Outcome::FirstWins);
            }
        }
    }

    /// The standings so far.
    pub fn standings(&self) -> Vec<Line> {
        standings(self.players, &self.rounds, self.format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome::{FirstWins, SecondWins};

    /// Plays every game of the next round with `result`, and starts it.
    fn play_round(t: &mut Tournament, result: impl Fn(&crate::Game) -> Outcome) -> bool {
        match t.next().unwrap() {
            Next::Start(mut r) => {
                for g in &mut r.games {
                    if g.outcome.is_none() {
                        g.outcome = Some(result(g));
                    }
                }
                t.rounds.push(r);
                true
            }
            Next::Wait => panic!("a round in play"),
            Next::Over => false,
        }
    }

    #[test]
    fn a_round_robin_of_five_runs_five_rounds_then_is_over() {
        let mut t = Tournament::new(Format::RoundRobin, 5, 0);
        assert_eq!(t.last_round(), 5);
        let mut n = 0;
        // The lower seat always wins.
        while play_round(&mut t, |g| {
            if g.first < g.second {
                FirstWins
            } else {
                SecondWins
            }
        }) {
            n += 1;
        }
        assert_eq!(n, 5);
        let table: Vec<(Seat, u32)> = t
            .standings()
            .iter()
            .map(|l| (l.seat, l.points.in_quarters() / 4))
            .collect();
        assert_eq!(table, [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)]);
    }

    #[test]
    fn a_round_in_play_waits() {
        let mut t = Tournament::new(Format::Swiss, 4, 3);
        let Next::Start(r) = t.next().unwrap() else {
            panic!()
        };
        t.rounds.push(r);
        assert_eq!(t.next().unwrap(), Next::Wait);
    }

    #[test]
    fn a_dropped_player_forfeits_the_rest_of_a_round_robin() {
        let mut t = Tournament::new(Format::RoundRobin, 4, 0);
        assert!(play_round(&mut t, |_| FirstWins));
        t.dropped.push(3);
        let Next::Start(r) = t.next().unwrap() else {
            panic!()
        };
        let with_3 = r.games.iter().find(|g| g.has(3)).unwrap();
        assert_eq!(with_3.score(3), Some(crate::points::Points::ZERO));
        assert_eq!(
            with_3.score(with_3.opponent(3)),
            Some(crate::points::Points::ONE)
        );
        assert!(
            r.games
                .iter()
                .filter(|g| !g.has(3))
                .all(|g| g.outcome.is_none())
        );
    }

    #[test]
    fn a_swiss_is_over_after_its_rounds_or_when_no_pairing_is_left() {
        let mut t = Tournament::new(Format::Swiss, 4, 5);
        let mut n = 0;
        while play_round(&mut t, |_| FirstWins) {
            n += 1;
        }
        // Four players meet all three others in three rounds; a fourth
        // would repeat a pairing: over after three, not five.
        assert_eq!(n, 3);
        assert_eq!(t.next().unwrap(), Next::Over);
        assert_eq!(
            Tournament::new(Format::Swiss, 1, 3).next(),
            Err(PairingError::TooFew(1))
        );
    }
}
