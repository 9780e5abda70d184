//! The Swiss pairing rules, worked by hand (the reasoning beside each
//! round), and its promises over many random tournaments.

use super::*;
use crate::Outcome::{self, Draw, FirstWins, SecondWins};

fn game(first: Seat, second: Seat, outcome: Outcome) -> Game {
    Game {
        first,
        second,
        outcome: Some(outcome),
    }
}

/// The round's games as (first, second), in board order.
fn boards(r: &Round) -> Vec<(Seat, Seat)> {
    r.games.iter().map(|g| (g.first, g.second)).collect()
}

#[test]
fn eight_players_three_rounds_by_hand() {
    // Round 1: one score group of 8; the top half meets the bottom half
    // (0-4, 1-5, 2-6, 3-7), the higher-ranked moving first on pairs 1
    // and 3.
    let r1 = next_round(8, &[], Points::ONE, &[]).unwrap();
    assert_eq!(boards(&r1), [(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(r1.bye, None);
    let r1 = Round {
        games: vec![
            game(0, 4, FirstWins),
            game(5, 1, Draw),
            game(2, 6, FirstWins),
            game(7, 3, FirstWins),
        ],
        bye: None,
    };
    // Points: 0, 2, 7: 1; 1, 5: ½; 3, 4, 6: 0. Ranking 0 2 7 1 5 3 4 6.
    // The group {0, 2, 7}: 0 meets 2 (half the group below); 7 floats
    // down to 1, 5 to 3, and 4 meets 6. Sides: 0 and 2 both moved first:
    // 0, higher, has the side it did not have (second); 7 moved first
    // more than 1; 5 more than 3; 4 and 6 both moved second: 4 first.
    let r2 = next_round(8, std::slice::from_ref(&r1), Points::ONE, &[]).unwrap();
    assert_eq!(boards(&r2), [(2, 0), (1, 7), (3, 5), (4, 6)]);
    let r2 = Round {
        games: vec![
            game(2, 0, SecondWins),
            game(1, 7, Draw),
            game(3, 5, FirstWins),
            game(4, 6, SecondWins),
        ],
        bye: None,
    };
    // Points: 0: 2; 7: 1½; 1, 2, 3, 6: 1; 5: ½; 4: 0. Ranking
    // 0 7 1 2 3 6 5 4. 0 floats down to 7; in {1, 2, 3, 6} 1 meets 3
    // (half the group below); 2 would meet 6, met in round 1, so 5; but
    // then 6-4 repeats round 2: back, 2 meets 4 and 6 meets 5.
    let r3 = next_round(8, &[r1.clone(), r2.clone()], Points::ONE, &[]).unwrap();
    // Sides: 0 and 7 moved first then second: 0 has what it had not last
    // (first); 1 and 3 moved second then first: 1 second; 2 moved first
    // twice, 4 once of two: 4 first; 6 moved second twice: 6 first.
    assert_eq!(boards(&r3), [(0, 7), (3, 1), (4, 2), (6, 5)]);
}

#[test]
fn the_lowest_ranked_without_a_bye_sits_out() {
    // Seven players: seat 6 (the lowest seed) sits out round 1; the other
    // six pair 0-3, 1-4, 2-5.
    let r1 = next_round(7, &[], Points::ONE, &[]).unwrap();
    assert_eq!(r1.bye, Some(6));
    assert_eq!(boards(&r1), [(0, 3), (4, 1), (2, 5)]);
    // The bye scored a win, so 6 ranks with the winners; the lowest
    // without a bye (5, who lost) sits out round 2.
    let r1 = Round {
        games: vec![
            game(0, 3, FirstWins),
            game(4, 1, SecondWins),
            game(2, 5, FirstWins),
        ],
        bye: Some(6),
    };
    let r2 = next_round(7, std::slice::from_ref(&r1), Points::ONE, &[]).unwrap();
    assert_eq!(r2.bye, Some(5));
    // Points 0, 1, 2, 6: 1; 3, 4: 0. Group {0,1,2,6}: 0-2, 1-6; 3-4.
    // 0 and 2 moved first: 0, higher, moves second; 1 moved second, 6
    // sat out: 1 first; 3 moved second, 4 first: 3 first.
    assert_eq!(boards(&r2), [(2, 0), (1, 6), (3, 4)]);
}

#[test]
fn two_players_cannot_meet_twice() {
    let r1 = next_round(2, &[], Points::ONE, &[]).unwrap();
    assert_eq!(boards(&r1), [(0, 1)]);
    assert_eq!(
        next_round(2, &[r1], Points::ONE, &[]),
        Err(PairingError::NoPairing(2))
    );
    assert_eq!(
        next_round(1, &[], Points::ONE, &[]),
        Err(PairingError::TooFew(1))
    );
}

/// A small seeded generator, so the random tournaments are the same on
/// every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn random_tournaments_never_repeat_a_pair_and_balance_sides_within_two() {
    let mut rng = Lcg(16);
    for players in 2..=14 {
        for _ in 0..20 {
            let mut rounds: Vec<Round> = Vec::new();
            let mut met = std::collections::HashSet::new();
            for _ in 0..players.min(9) {
                let Ok(mut r) = next_round(players, &rounds, Points::ONE, &[]) else {
                    break;
                };
                let mut seen: Vec<Seat> = r.bye.into_iter().collect();
                for g in &mut r.games {
                    assert!(met.insert((g.first.min(g.second), g.first.max(g.second))));
                    seen.extend([g.first, g.second]);
                    g.outcome = Some([FirstWins, SecondWins, Draw][rng.below(3) as usize]);
                }
                seen.sort_unstable();
                assert_eq!(seen, (0..players).collect::<Vec<_>>(), "everyone once");
                rounds.push(r);
            }
            // Rounds 1 and 2 can always be paired (with 4 or more players).
            if players >= 4 {
                assert!(
                    rounds.len() >= 2,
                    "{players} players: {} rounds",
                    rounds.len()
                );
            }
            for k in 1..=rounds.len() {
                let past = history(players, &rounds[..k], Points::ONE);
                let worst = past.iter().map(|p| p.balance().abs()).max().unwrap_or(0);
                // Only the last round a Swiss can have (everyone has met
                // all but one) may leave no choice but a third first (or
                // second) more.
                let bound = if k + 1 < players { 2 } else { 3 };
                assert!(worst <= bound, "{players} players, round {k}: {worst}");
            }
            let past = history(players, &rounds, Points::ONE);
            let byes = past.iter().filter(|p| p.had_bye).count();
            if players % 2 == 1 {
                assert_eq!(
                    byes,
                    rounds.len().min(players),
                    "one bye each until all had one"
                );
            }
        }
    }
}

#[test]
fn players_who_dropped_out_are_not_paired() {
    // Five players, seat 4 gone: four are paired, no bye.
    let r1 = next_round(5, &[], Points::ONE, &[4]).unwrap();
    assert_eq!(r1.bye, None);
    assert_eq!(boards(&r1), [(0, 2), (3, 1)]);
    // Two gone of three: nobody left to play.
    assert_eq!(
        next_round(3, &[], Points::ONE, &[0, 2]),
        Err(PairingError::TooFew(1))
    );
}
