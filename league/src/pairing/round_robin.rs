//! Round robins by the Berger tables (FIDE Handbook C.05, Annex 1), so
//! that every player alternates moving first as far as possible.
//!
//! With `n` players (one more, a bye, when `n` is odd: whoever meets it
//! sits the round out), there are `n - 1` rounds. The seats are numbered
//! 1 to `n`; round 1 pairs 1-n, 2-(n-1), ... (the first named moves
//! first); each next round adds `n/2` to every number but `n` (counting
//! round 1 to `n - 1`), and seat `n` moves first in every second round.
//! A double round robin plays the same rounds again, with the sides
//! swapped.

use super::PairingError;
use crate::{Game, Round, Seat};

/// Round `round` (counted from 1) of a round robin of `players` seats,
/// played `cycles` times (1, or 2 for a double round robin).
///
/// # Errors
/// Fewer than 2 players, or a round past the last.
pub fn round(players: usize, cycles: usize, round: usize) -> Result<Round, PairingError> {
    if players < 2 {
        return Err(PairingError::TooFew(players));
    }
    let n = players + players % 2;
    let per_cycle = n - 1;
    let last = per_cycle * cycles;
    if round == 0 || round > last {
        return Err(PairingError::PastTheEnd { round, last });
    }
    let in_cycle = (round - 1) % per_cycle;
    let swapped = (round - 1) / per_cycle % 2 == 1;
    let half = n / 2;
    // A number of round 1 (1..n-1) as it stands in this round.
    let moved = |x: usize| (x - 1 + in_cycle * half) % per_cycle + 1;
    let mut out = Round::default();
    for i in 1..=half {
        let (mut a, mut b) = if i == 1 {
            let other = moved(1);
            if in_cycle.is_multiple_of(2) {
                (other, n)
            } else {
                (n, other)
            }
        } else {
            (moved(i), moved(n + 1 - i))
        };
        if swapped {
            std::mem::swap(&mut a, &mut b);
        }
        // Numbers are seats + 1; number n is the bye when `players` is odd.
        let (sa, sb): (Seat, Seat) = (a - 1, b - 1);
        if sa == players {
            out.bye = Some(sb);
        } else if sb == players {
            out.bye = Some(sa);
        } else {
            out.games.push(Game::new(sa, sb));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round written as the Berger tables print it: `1-6 2-5 3-4`
    /// (numbers are seats + 1; the bye, if any, last).
    fn shown(r: &Round) -> String {
        let mut v: Vec<String> = r
            .games
            .iter()
            .map(|g| format!("{}-{}", g.first + 1, g.second + 1))
            .collect();
        if let Some(b) = r.bye {
            v.push(format!("bye {}", b + 1));
        }
        v.join(" ")
    }

    #[test]
    fn six_players_follow_the_berger_table() {
        // FIDE Handbook C.05 Annex 1, the table for 5 or 6 players.
        let want = [
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(shown(&round(6, 1, k + 1).unwrap()), *w, "round {}", k + 1);
        }
        assert_eq!(
            round(6, 1, 6),
            Err(PairingError::PastTheEnd { round: 6, last: 5 })
        );
    }

    #[test]
    fn five_players_sit_out_once_each() {
        // The same table with seat 6 the bye.
        let want = [
            "2-5 3-4 bye 1",
            "5-3 1-2 bye 4",
            "3-1 4-5 bye 2",
            "1-4 2-3 bye 5",
            "4-2 5-1 bye 3",
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(shown(&round(5, 1, k + 1).unwrap()), *w, "round {}", k + 1);
        }
    }

    #[test]
    fn everyone_meets_everyone_once_and_first_moves_balance() {
        for players in 2..=12 {
            let mut met = std::collections::HashSet::new();
            let mut firsts = vec![0i32; players];
            for r in 1..=players + players % 2 - 1 {
                for g in round(players, 1, r).unwrap().games {
                    assert!(met.insert((g.first.min(g.second), g.first.max(g.second))));
                    firsts[g.first] += 1;
                    firsts[g.second] -= 1;
                }
            }
            assert_eq!(met.len(), players * (players - 1) / 2, "{players} players");
            assert!(firsts.iter().all(|f| f.abs() <= 1), "{players}: {firsts:?}");
        }
    }

    #[test]
    fn a_double_round_robin_swaps_sides() {
        let one = round(4, 2, 2).unwrap();
        let two = round(4, 2, 5).unwrap();
        let swapped: Vec<Game> = one
            .games
            .iter()
            .map(|g| Game::new(g.second, g.first))
            .collect();
        assert_eq!(two.games, swapped);
        assert!(round(4, 2, 7).is_err());
        assert_eq!(round(1, 1, 1), Err(PairingError::TooFew(1)));
    }
}
